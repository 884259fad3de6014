//! Seeded synthetic traces: uniform, hot/cold, zipf, sequential and mixed access patterns,
//! plus labelled stand-ins for the sources' private traces ([`standins`]), and a writer for
//! the plain CSV format so a generated trace can be saved and parsed again.
//!
//! Everything is reproducible: the same [`GenParams`] (seed included) give the same
//! requests, bit for bit, natively and in WebAssembly ([`rng`] explains how).
//!
//! How a request is made, in this order of random draws:
//! 1. **Operation**: read with probability `read_share`, trim with `trim_share`, else write.
//! 2. **Size** from [`SizeDist`].
//! 3. **Offset**: with probability `pattern.sequential_share` the request continues the
//!    previous one (offset = previous offset + size); otherwise it *jumps* to an
//!    `align`-aligned offset chosen by `pattern.spread`. A run that would pass the end of
//!    the address space wraps to offset 0; that wrap is not sequential, so the generator
//!    owes one sequential request and pays it back at the next planned jump, which keeps the
//!    measured sequential share on target as long as wraps are rarer than jumps.
//! 4. **Arrival**: fixed or exponential (Poisson) gaps in whole microseconds, so the CSV
//!    holds the times exactly.
//!
//! Hot data sit at the low addresses (zipf rank 1 is offset 0; the hot region of hot/cold is
//! the first `hot_space` of the space), so the heat strip of a generated trace shows it.

mod csv;
pub mod groups;
pub mod rng;
pub mod standins;

use std::fmt;

use super::{Request, Trace};
use crate::trace::HostOp;
use rng::{SplitMix64, Zipf};

pub use csv::{csv_record, to_csv, write_csv, CSV_HEADER};

/// Most requests one generator produces (guards against a typo asking for years of work).
pub const MAX_COUNT: u64 = 1 << 32;

/// Generator names accepted by [`Pattern::from_kind`] (stand-ins are in [`standins`]).
pub const KINDS: [&str; 5] = ["uniform", "hotcold", "zipf", "sequential", "mixed"];

/// An invalid generator parameter, named.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GenError(pub String);

impl fmt::Display for GenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for GenError {}

/// Where jumps (non-sequential requests) land.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Spread {
    /// Every aligned slot equally likely.
    Uniform,
    /// `hot_share` of jumps go to the first `hot_space` of the slots, the rest to the others
    /// (80/20: `hot_space` 0.2, `hot_share` 0.8).
    HotCold {
        /// Fraction of the address space that is hot, in (0, 1).
        hot_space: f64,
        /// Fraction of jumps that land in the hot part, in [0, 1].
        hot_share: f64,
    },
    /// Slot `k - 1` with probability proportional to `k^-theta` (theta 0 = uniform).
    Zipf {
        /// Skew exponent, 0 to 10 (0.99 is YCSB's default).
        theta: f64,
    },
    /// Visits to groups of scattered extents ([`groups`]): the space is cut into regions of
    /// `region_bytes`, one group each, whose extents (sizes from [`SizeDist`], each request
    /// one whole extent) cover `density` of it; a visit picks a group by Zipf popularity and
    /// lasts a geometric number of requests. Needs `sequential_share` 0.
    Groups {
        /// Bytes of each group's region (a multiple of `align`).
        region_bytes: u64,
        /// Share of a region's slots its extents cover, in (0, 1].
        density: f64,
        /// Zipf exponent of group popularity, 0 to 10.
        theta: f64,
        /// Mean requests of a visit, at least 1.
        visit_requests: f64,
    },
}

/// The access pattern: how often requests continue the previous one, and where the others go.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Pattern {
    /// Probability that a request starts where the previous one ended, in [0, 1].
    pub sequential_share: f64,
    /// Where the other requests land.
    pub spread: Spread,
}

impl Pattern {
    /// A named generator with its defaults: `uniform`; `hotcold` (80/20); `zipf` (theta
    /// 0.99); `sequential` (one run from offset 0, wrapping); `mixed` (half the requests
    /// continue the previous one, the others jump uniformly).
    pub fn from_kind(kind: &str) -> Option<Pattern> {
        let (sequential_share, spread) = match kind {
            "uniform" => (0.0, Spread::Uniform),
            "hotcold" | "hot-cold" => (0.0, Spread::HotCold { hot_space: 0.2, hot_share: 0.8 }),
            "zipf" => (0.0, Spread::Zipf { theta: 0.99 }),
            "sequential" => (1.0, Spread::Uniform),
            "mixed" => (0.5, Spread::Uniform),
            _ => return None,
        };
        Some(Pattern { sequential_share, spread })
    }
}

/// Request sizes.
#[derive(Debug, Clone, PartialEq)]
pub enum SizeDist {
    /// Always this many bytes.
    Fixed(u32),
    /// One of these sizes, equally likely.
    Choice(Vec<u32>),
    /// `unit × k` bytes with `k >= 1` geometric of mean `mean_bytes / unit`, capped at
    /// `max_bytes`: many small requests, a few large ones (desktop-like).
    Geometric {
        /// Granule, bytes (512 = one sector).
        unit: u32,
        /// Target mean, bytes (at least `unit`).
        mean_bytes: f64,
        /// Cap, bytes.
        max_bytes: u32,
    },
}

impl SizeDist {
    /// Mean request size in bytes (the geometric one's target mean, before its cap).
    pub fn mean_bytes(&self) -> f64 {
        match self {
            SizeDist::Fixed(s) => f64::from(*s),
            SizeDist::Choice(v) => v.iter().map(|&s| f64::from(s)).sum::<f64>() / v.len().max(1) as f64,
            SizeDist::Geometric { mean_bytes, .. } => *mean_bytes,
        }
    }

    fn largest(&self) -> u32 {
        match self {
            SizeDist::Fixed(s) => *s,
            SizeDist::Choice(v) => v.iter().copied().max().unwrap_or(0),
            SizeDist::Geometric { max_bytes, .. } => *max_bytes,
        }
    }

    fn sample(&self, rng: &mut SplitMix64) -> u32 {
        match self {
            SizeDist::Fixed(s) => *s,
            SizeDist::Choice(v) => v.get(rng.below(v.len() as u64) as usize).copied().unwrap_or(1),
            SizeDist::Geometric { unit, mean_bytes, max_bytes } => {
                let mean_units = mean_bytes / f64::from(*unit);
                let cap = u64::from(max_bytes / unit);
                let u = 1.0 - rng.next_f64(); // (0, 1], so ln(u) is finite
                let k = if mean_units <= 1.0 {
                    1
                } else {
                    // Inversion: k = 1 + floor(ln u / ln(1 - p)), p = 1 / mean.
                    ((rng::ln(u) / rng::log1p(-1.0 / mean_units)).floor() as u64).saturating_add(1)
                };
                (k.clamp(1, cap) * u64::from(*unit)) as u32
            }
        }
    }
}

/// Arrival times (always whole microseconds).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Arrival {
    /// The same gap between every two requests, µs.
    Fixed(u64),
    /// Exponential gaps of this mean, µs (a Poisson process), rounded to whole µs.
    Poisson(f64),
}

/// Everything a generator needs. `Default` gives 1,000 uniform 4 KiB writes and reads
/// (70 % writes) over the default device's logical space, 1 ms apart, seed 1.
#[derive(Debug, Clone, PartialEq)]
pub struct GenParams {
    /// Requests to produce (at most [`MAX_COUNT`]).
    pub count: u64,
    /// Bytes of logical address space; every request lies inside it.
    pub address_space: u64,
    /// Jumps land on multiples of this many bytes.
    pub align: u32,
    /// Request sizes.
    pub sizes: SizeDist,
    /// Probability of a read, in [0, 1].
    pub read_share: f64,
    /// Probability of a trim, in [0, 1 - read_share].
    pub trim_share: f64,
    /// Access pattern.
    pub pattern: Pattern,
    /// Arrival process.
    pub arrival: Arrival,
    /// Random seed.
    pub seed: u64,
}

/// The default address space: the default device's logical capacity (768 pages of 4 KiB),
/// so a default trace fits a default simulation. A test keeps the two equal.
pub const DEFAULT_ADDRESS_SPACE: u64 = 768 * 4096;

impl Default for GenParams {
    fn default() -> Self {
        GenParams {
            count: 1000,
            address_space: DEFAULT_ADDRESS_SPACE,
            align: 4096,
            sizes: SizeDist::Fixed(4096),
            read_share: 0.3,
            trim_share: 0.0,
            pattern: Pattern { sequential_share: 0.0, spread: Spread::Uniform },
            arrival: Arrival::Fixed(1000),
            seed: 1,
        }
    }
}

fn share(name: &str, v: f64) -> Result<(), GenError> {
    if (0.0..=1.0).contains(&v) {
        Ok(())
    } else {
        Err(GenError(format!("{name} must be between 0 and 1, got {v}")))
    }
}

impl GenParams {
    /// Checks every parameter, naming the first bad one.
    pub fn validate(&self) -> Result<(), GenError> {
        let bad = |m: String| Err(GenError(m));
        // A trace without requests cannot be replayed: refuse it here, not at the run.
        if self.count == 0 || self.count > MAX_COUNT {
            return bad(format!("count must be between 1 and {MAX_COUNT}, got {}", self.count));
        }
        share("read share", self.read_share)?;
        share("trim share", self.trim_share)?;
        if self.read_share + self.trim_share > 1.0 {
            return bad("read share + trim share must not exceed 1".into());
        }
        share("sequential share", self.pattern.sequential_share)?;
        match self.pattern.spread {
            Spread::Uniform => {}
            Spread::HotCold { hot_space, hot_share } => {
                share("hot share", hot_share)?;
                if !(hot_space > 0.0 && hot_space < 1.0) {
                    return bad(format!("hot space must be strictly between 0 and 1, got {hot_space}"));
                }
            }
            Spread::Zipf { theta } if !(0.0..=10.0).contains(&theta) => {
                return bad(format!("zipf theta must be between 0 and 10, got {theta}"));
            }
            Spread::Zipf { .. } => {}
            Spread::Groups { region_bytes, density, theta, visit_requests } => {
                let align = u64::from(self.align.max(1));
                if region_bytes < align || region_bytes % align != 0 || region_bytes > self.address_space {
                    return bad(format!(
                        "group region must be a multiple of the alignment ({align} B) within the address space, got {region_bytes} B"
                    ));
                }
                if !(density > 0.0 && density <= 1.0) {
                    return bad(format!("group density must be above 0 and at most 1, got {density}"));
                }
                if !(0.0..=10.0).contains(&theta) {
                    return bad(format!("group zipf theta must be between 0 and 10, got {theta}"));
                }
                if !(1.0..=1e9).contains(&visit_requests) {
                    return bad(format!("mean requests per visit must be 1 to 1e9, got {visit_requests}"));
                }
                if self.pattern.sequential_share != 0.0 {
                    return bad("group visits need sequential share 0 (each request is one extent)".into());
                }
                if u64::from(self.sizes.largest()) > region_bytes {
                    return bad(format!(
                        "group region ({region_bytes} B) must hold the largest request ({} B)",
                        self.sizes.largest()
                    ));
                }
            }
        }
        match &self.sizes {
            SizeDist::Fixed(_) => {}
            SizeDist::Choice(v) if v.is_empty() => return bad("size list is empty".into()),
            SizeDist::Choice(_) => {}
            SizeDist::Geometric { unit, mean_bytes, max_bytes } => {
                let mean_ok = mean_bytes.is_finite() && *mean_bytes >= f64::from(*unit);
                if *unit == 0 || *max_bytes < *unit || !mean_ok {
                    return bad("geometric sizes need unit >= 1, mean >= unit and max >= unit".into());
                }
            }
        }
        let smallest = match &self.sizes {
            SizeDist::Fixed(s) => *s,
            SizeDist::Choice(v) => v.iter().copied().min().unwrap_or(0),
            SizeDist::Geometric { unit, .. } => *unit,
        };
        if smallest == 0 {
            return bad("request sizes must be at least 1 byte".into());
        }
        if u64::from(self.sizes.largest()) > self.address_space {
            return bad(format!(
                "address space ({} B) must hold the largest request ({} B)",
                self.address_space,
                self.sizes.largest()
            ));
        }
        if self.align == 0 || u64::from(self.align) > self.address_space {
            return bad(format!("alignment must be 1 to {} bytes, got {}", self.address_space, self.align));
        }
        if let Arrival::Poisson(mean) = self.arrival {
            if !(0.0..=1e15).contains(&mean) {
                return bad(format!("mean inter-arrival time must be 0 to 1e15 µs, got {mean}"));
            }
        }
        Ok(())
    }
}

/// A stream of generated requests; also an [`Iterator`], so large traces never sit in memory.
#[derive(Debug, Clone)]
pub struct Generator {
    p: GenParams,
    rng: SplitMix64,
    zipf: Option<Zipf>,
    visits: Option<groups::Visits>,
    slots: u64,
    made: u64,
    prev_end: Option<u64>,
    owed: u64,
    time_us: u64,
}

impl Generator {
    /// A generator for valid `params`.
    pub fn new(params: GenParams) -> Result<Generator, GenError> {
        params.validate()?;
        let slots = params.address_space / u64::from(params.align);
        let zipf = match params.pattern.spread {
            Spread::Zipf { theta } if theta > 0.0 => Some(Zipf::new(slots, theta)),
            _ => None,
        };
        let visits = match params.pattern.spread {
            Spread::Groups { region_bytes, density, theta, visit_requests } => {
                let region_slots = region_bytes / u64::from(params.align);
                let groups = params.address_space / region_bytes;
                Some(groups::Visits::new(groups, region_slots, theta, density, visit_requests))
            }
            _ => None,
        };
        let rng = SplitMix64::new(params.seed);
        Ok(Generator { p: params, rng, zipf, visits, slots, made: 0, prev_end: None, owed: 0, time_us: 0 })
    }

    /// The slot a jump lands on.
    fn jump_slot(&mut self) -> u64 {
        match (self.p.pattern.spread, &self.zipf) {
            (_, Some(z)) => z.sample(&mut self.rng) - 1,
            (Spread::HotCold { hot_space, hot_share }, _) if self.slots >= 2 => {
                let hot = ((hot_space * self.slots as f64).round() as u64).clamp(1, self.slots - 1);
                if self.rng.next_f64() < hot_share {
                    self.rng.below(hot)
                } else {
                    hot + self.rng.below(self.slots - hot)
                }
            }
            _ => self.rng.below(self.slots),
        }
    }

    fn offset(&mut self, size: u64) -> u64 {
        let space = self.p.address_space;
        let continue_run = self.rng.next_f64() < self.p.pattern.sequential_share;
        match self.prev_end {
            None if self.p.pattern.sequential_share >= 1.0 => return 0,
            Some(end) if end.saturating_add(size) <= space => {
                if continue_run {
                    return end;
                }
                if self.owed > 0 {
                    self.owed -= 1;
                    return end;
                }
            }
            Some(_) if continue_run => {
                self.owed += 1;
                return 0;
            }
            _ => {}
        }
        let align = u64::from(self.p.align);
        let at = self.jump_slot() * align;
        // A request that would cross the end slides back to the last aligned start that fits.
        if at + size > space {
            (space - size) / align * align
        } else {
            at
        }
    }

    fn gap_us(&mut self) -> u64 {
        match self.p.arrival {
            Arrival::Fixed(g) => g,
            Arrival::Poisson(mean) => {
                let u = 1.0 - self.rng.next_f64();
                (-mean * rng::ln(u)).round() as u64
            }
        }
    }
}

impl Iterator for Generator {
    type Item = Request;

    fn next(&mut self) -> Option<Request> {
        if self.made >= self.p.count {
            return None;
        }
        let u = self.rng.next_f64();
        let op = if u < self.p.read_share {
            HostOp::Read
        } else if u < self.p.read_share + self.p.trim_share {
            HostOp::Trim
        } else {
            HostOp::Write
        };
        let (offset, size) = match &mut self.visits {
            Some(v) => v.next(&mut self.rng, self.p.seed, self.p.align, &self.p.sizes),
            None => {
                let size = self.p.sizes.sample(&mut self.rng);
                (self.offset(u64::from(size)), size)
            }
        };
        if self.made > 0 {
            self.time_us = self.time_us.saturating_add(self.gap_us());
        }
        self.made += 1;
        self.prev_end = Some(offset + u64::from(size));
        Some(Request { time_ns: self.time_us.saturating_mul(1000), op, offset, size })
    }
}

/// Generates a whole trace (format name `generated`). Memory: 24 bytes per request.
pub fn generate(params: GenParams) -> Result<Trace, GenError> {
    Ok(Trace { format: "generated".into(), requests: Generator::new(params)?.collect() })
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_default_address_space_is_the_default_devices_logical_capacity() {
        let d = crate::config::DeviceConfig::default();
        assert_eq!(super::DEFAULT_ADDRESS_SPACE, d.logical_pages() * u64::from(d.page_bytes));
    }
}
