//! Trace statistics, accumulated one request at a time so they can run alongside a streaming
//! parser: feed every [`Request`] to [`TraceStats::add`] (chunk by chunk if you like) and
//! read a [`TraceSummary`] from [`TraceStats::finish`] at any point.
//!
//! Definitions (they are what the CLI's `trace-info` and the app's statistics panel show):
//! - **Size histogram**: power-of-two byte buckets; bucket `k` holds sizes in
//!   `[2^k, 2^(k+1))`, listed from the smallest to the largest non-empty bucket.
//! - **Footprint**: distinct pages of `page_bytes` (default 4 KiB) touched by any request,
//!   counted exactly with a hash set of page numbers. Memory grows with the footprint:
//!   roughly 16–32 bytes per distinct page (a 1 TiB footprint in 4 KiB pages would be
//!   about 8 GiB), which is the price of an exact figure.
//! - **Heat**: requests counted at their start offset in at most `heat_buckets` equal-width
//!   buckets over `[offset_min, offset_max]`. See [`Heat`] for how this works while the
//!   range is still unknown.
//! - **Sequentiality**: a request is sequential when its offset equals the previous
//!   request's `offset + size`, whatever the two operations are (the arrival-sequence
//!   sequentiality of the thesis' Table 2.3). The share is over the requests that have a
//!   predecessor, so a fully sequential trace scores exactly 1.
//! - **Duration**: latest minus earliest arrival time.
//! - **Inter-arrival times**: gaps between consecutive requests in file order; a request
//!   that arrives before its predecessor counts as a gap of 0 and in `out_of_order`.

use std::collections::HashSet;

use serde::Serialize;

use super::Request;
use crate::events::HostOp;

/// Default footprint unit: 4 KiB pages.
pub const DEFAULT_PAGE_BYTES: u32 = 4096;
/// Default number of heat buckets.
pub const DEFAULT_HEAT_BUCKETS: usize = 64;
/// Largest number of heat buckets (an eighth of the fine buckets, so each output bucket
/// gathers several fine ones and boundary error stays small).
pub const MAX_HEAT_BUCKETS: usize = FINE_BUCKETS / 8;
/// Fine heat buckets kept while streaming (64 KiB of counters).
const FINE_BUCKETS: usize = 8192;
/// Inter-arrival gaps kept exactly (8 MiB); beyond this a fixed-size histogram takes over.
const EXACT_GAPS: usize = 1 << 20;

/// What to measure with: footprint unit and heat resolution.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StatsOptions {
    /// Footprint unit in bytes (at least 512, so one request never means billions of pages).
    pub page_bytes: u32,
    /// Heat buckets, 1 to [`MAX_HEAT_BUCKETS`].
    pub heat_buckets: usize,
}

impl Default for StatsOptions {
    fn default() -> Self {
        StatsOptions { page_bytes: DEFAULT_PAGE_BYTES, heat_buckets: DEFAULT_HEAT_BUCKETS }
    }
}

/// One power-of-two request-size bucket.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct SizeBucket {
    /// Smallest size in the bucket, bytes (a power of two).
    pub min_bytes: u64,
    /// Largest size in the bucket, bytes (inclusive).
    pub max_bytes: u64,
    /// Requests of a size in this bucket.
    pub count: u64,
}

/// Request counts per equal-width address bucket.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct HeatMap {
    /// Start of the first bucket (the smallest offset), bytes.
    pub first_offset: u64,
    /// Width of every bucket, bytes.
    pub bucket_bytes: u64,
    /// Requests whose start offset falls in each bucket.
    pub counts: Vec<u64>,
}

/// Inter-arrival time statistics, nanoseconds.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct InterArrival {
    /// Gaps measured (requests − 1).
    pub count: u64,
    /// Mean gap.
    pub mean: f64,
    /// Median gap (nearest rank).
    pub p50: u64,
    /// 99th-percentile gap (nearest rank).
    pub p99: u64,
    /// Largest gap.
    pub max: u64,
    /// True when p50/p99 are exact; false when the trace had more than 2^20 gaps and they
    /// come from a log-linear histogram (rounded down, within 1/128 of the true value).
    pub exact: bool,
}

/// Everything [`TraceStats`] measured. Field names are stable (CLI JSON, app panel).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TraceSummary {
    /// Requests seen.
    pub requests: u64,
    /// Read requests.
    pub reads: u64,
    /// Write requests.
    pub writes: u64,
    /// Trim requests.
    pub trims: u64,
    /// Bytes read.
    pub bytes_read: u64,
    /// Bytes written.
    pub bytes_written: u64,
    /// Bytes trimmed.
    pub bytes_trimmed: u64,
    /// Smallest request, bytes (0 for an empty trace).
    pub size_min: u64,
    /// Largest request, bytes.
    pub size_max: u64,
    /// Mean request size, bytes.
    pub size_mean: f64,
    /// Power-of-two size histogram, smallest to largest non-empty bucket.
    pub size_histogram: Vec<SizeBucket>,
    /// Footprint unit, bytes.
    pub page_bytes: u32,
    /// Distinct pages touched.
    pub footprint_pages: u64,
    /// `footprint_pages × page_bytes`.
    pub footprint_bytes: u64,
    /// Smallest request offset.
    pub offset_min: u64,
    /// Largest request offset.
    pub offset_max: u64,
    /// Largest `offset + size` (the end of the addressed space).
    pub end_max: u64,
    /// Logical-address heat.
    pub heat: HeatMap,
    /// Requests starting where the previous one ended.
    pub sequential_requests: u64,
    /// `sequential_requests / (requests − 1)` (0 with fewer than two requests).
    pub sequential_share: f64,
    /// Latest minus earliest arrival, nanoseconds.
    pub duration_ns: u64,
    /// Gaps between consecutive arrivals.
    pub inter_arrival_ns: InterArrival,
    /// Requests that arrive before their predecessor.
    pub out_of_order: u64,
}

/// Adaptive heat counters. While streaming, the offset range is unknown, so we keep
/// [`FINE_BUCKETS`] counters of width `2^shift` starting at `base` (a multiple of the
/// width). When an offset falls outside, the width doubles (as often as needed) and the
/// counters are merged into the wider buckets; since every old bucket lies inside one new
/// bucket, merging loses nothing. At the end the fine buckets are re-binned into the
/// requested equal-width buckets over `[min, max]`. A fine bucket that straddles an output
/// boundary goes wholly to the bucket holding its start, so a count can move by at most one
/// fine width (under `span / 4095`); while the span fits in the fine buckets at width 1 the
/// result is exact.
#[derive(Debug, Clone, Default)]
struct Heat {
    base: u64,
    shift: u32,
    counts: Vec<u64>,
}

impl Heat {
    /// Counts `addr`; `lo..=hi` is the range of every offset seen so far, `addr` included.
    fn add(&mut self, addr: u64, lo: u64, hi: u64) {
        if self.counts.is_empty() {
            self.counts = vec![0; FINE_BUCKETS];
            self.base = addr;
        }
        // Compare in u64: on wasm32 a usize cast would truncate large indices.
        if addr < self.base || (addr - self.base) >> self.shift >= FINE_BUCKETS as u64 {
            self.widen(lo, hi);
        }
        let idx = ((addr - self.base) >> self.shift) as usize;
        if let Some(c) = self.counts.get_mut(idx) {
            *c += 1;
        }
    }

    fn widen(&mut self, lo: u64, hi: u64) {
        let mut s = self.shift;
        // In u128 so that a shift by 64 (the widest possible range) is defined.
        while (u128::from(hi) >> s) - (u128::from(lo) >> s) >= FINE_BUCKETS as u128 {
            s += 1;
        }
        let new_base = ((u128::from(lo) >> s) << s) as u64;
        let mut counts = vec![0; FINE_BUCKETS];
        for (i, &c) in self.counts.iter().enumerate().filter(|(_, &c)| c > 0) {
            let start = self.base + ((i as u64) << self.shift);
            let j = ((start - new_base) >> s) as usize;
            if let Some(slot) = counts.get_mut(j) {
                *slot += c;
            }
        }
        self.base = new_base;
        self.shift = s;
        self.counts = counts;
    }

    fn finish(&self, lo: u64, hi: u64, buckets: usize) -> HeatMap {
        if self.counts.is_empty() {
            return HeatMap { first_offset: 0, bucket_bytes: 0, counts: Vec::new() };
        }
        let span = u128::from(hi - lo) + 1;
        let width = span.div_ceil(buckets as u128).max(1);
        let n = span.div_ceil(width) as usize;
        let mut out = vec![0u64; n];
        for (i, &c) in self.counts.iter().enumerate().filter(|(_, &c)| c > 0) {
            let start = (u128::from(self.base) + ((i as u128) << self.shift)).max(u128::from(lo));
            let j = (((start - u128::from(lo)) / width) as usize).min(n - 1);
            out[j] += c;
        }
        HeatMap { first_offset: lo, bucket_bytes: width as u64, counts: out }
    }
}

/// Streaming accumulator; see the module docs for definitions.
#[derive(Debug, Clone)]
pub struct TraceStats {
    options: StatsOptions,
    requests: u64,
    ops: [u64; 3],
    bytes: [u64; 3],
    size_min: u64,
    size_max: u64,
    size_sum: u128,
    size_hist: [u64; 33],
    pages: HashSet<u64>,
    offset_min: u64,
    offset_max: u64,
    end_max: u64,
    heat: Heat,
    sequential: u64,
    prev_end: Option<u64>,
    time_min: u64,
    time_max: u64,
    prev_time: Option<u64>,
    gaps: Vec<u64>,
    gap_hist: Option<Vec<u64>>,
    gap_sum: u128,
    gap_max: u64,
    out_of_order: u64,
}

impl Default for TraceStats {
    fn default() -> Self {
        TraceStats {
            options: StatsOptions::default(),
            requests: 0,
            ops: [0; 3],
            bytes: [0; 3],
            size_min: u64::MAX,
            size_max: 0,
            size_sum: 0,
            size_hist: [0; 33],
            pages: HashSet::new(),
            offset_min: u64::MAX,
            offset_max: 0,
            end_max: 0,
            heat: Heat::default(),
            sequential: 0,
            prev_end: None,
            time_min: u64::MAX,
            time_max: 0,
            prev_time: None,
            gaps: Vec::new(),
            gap_hist: None,
            gap_sum: 0,
            gap_max: 0,
            out_of_order: 0,
        }
    }
}

/// Log-linear histogram index: exact below 128, then 128 sub-buckets per power of two.
fn gap_bucket(v: u64) -> usize {
    if v < 128 {
        return v as usize;
    }
    let k = 63 - v.leading_zeros();
    128 + (k as usize - 7) * 128 + ((v >> (k - 7)) & 127) as usize
}

/// Smallest value of a [`gap_bucket`].
fn gap_bucket_floor(i: usize) -> u64 {
    if i < 128 {
        return i as u64;
    }
    let k = (i - 128) / 128 + 7;
    let sub = ((i - 128) % 128) as u64;
    (128 + sub) << (k - 7)
}

/// Nearest-rank index (0-based) of percentile `p`/100 among `n` sorted values.
fn rank(n: u64, p: u64) -> u64 {
    (n * p).div_ceil(100).max(1) - 1
}

impl TraceStats {
    /// An accumulator with custom options; errors name the bad option.
    pub fn with_options(options: StatsOptions) -> Result<TraceStats, String> {
        if options.page_bytes < 512 {
            return Err(format!("page size {} B is below the 512 B minimum", options.page_bytes));
        }
        if options.heat_buckets == 0 || options.heat_buckets > MAX_HEAT_BUCKETS {
            return Err(format!("heat buckets must be 1 to {MAX_HEAT_BUCKETS}, not {}", options.heat_buckets));
        }
        Ok(TraceStats { options, ..TraceStats::default() })
    }

    /// Adds one request.
    pub fn add(&mut self, r: &Request) {
        self.requests += 1;
        let k = match r.op {
            HostOp::Read => 0,
            HostOp::Write => 1,
            HostOp::Trim => 2,
        };
        let size = u64::from(r.size);
        self.ops[k] += 1;
        self.bytes[k] = self.bytes[k].saturating_add(size);
        self.size_min = self.size_min.min(size);
        self.size_max = self.size_max.max(size);
        self.size_sum += u128::from(size);
        self.size_hist[(63 - size.max(1).leading_zeros()) as usize] += 1;

        let end = r.offset.saturating_add(size);
        if size > 0 {
            let pb = u64::from(self.options.page_bytes);
            self.pages.extend(r.offset / pb..=(end - 1) / pb);
        }
        self.offset_min = self.offset_min.min(r.offset);
        self.offset_max = self.offset_max.max(r.offset);
        self.end_max = self.end_max.max(end);
        self.heat.add(r.offset, self.offset_min, self.offset_max);
        if self.prev_end == Some(r.offset) {
            self.sequential += 1;
        }
        self.prev_end = Some(end);

        self.time_min = self.time_min.min(r.time_ns);
        self.time_max = self.time_max.max(r.time_ns);
        if let Some(prev) = self.prev_time {
            if r.time_ns < prev {
                self.out_of_order += 1;
            }
            self.add_gap(r.time_ns.saturating_sub(prev));
        }
        self.prev_time = Some(r.time_ns);
    }

    fn add_gap(&mut self, gap: u64) {
        self.gap_sum += u128::from(gap);
        self.gap_max = self.gap_max.max(gap);
        match &mut self.gap_hist {
            Some(h) => h[gap_bucket(gap)] += 1,
            None if self.gaps.len() < EXACT_GAPS => self.gaps.push(gap),
            None => {
                // Too many to keep: switch to the fixed-size histogram for good.
                let mut h = vec![0u64; gap_bucket(u64::MAX) + 1];
                for &g in self.gaps.iter().chain(std::iter::once(&gap)) {
                    h[gap_bucket(g)] += 1;
                }
                self.gaps = Vec::new();
                self.gap_hist = Some(h);
            }
        }
    }

    /// Adds every request of a chunk.
    pub fn add_all<'a>(&mut self, requests: impl IntoIterator<Item = &'a Request>) {
        for r in requests {
            self.add(r);
        }
    }

    fn inter_arrival(&self) -> InterArrival {
        let count = self.requests.saturating_sub(1);
        if count == 0 {
            return InterArrival { count, mean: 0.0, p50: 0, p99: 0, max: 0, exact: true };
        }
        let mean = self.gap_sum as f64 / count as f64;
        let (p50, p99, exact) = match &self.gap_hist {
            None => {
                let mut sorted = self.gaps.clone();
                sorted.sort_unstable();
                let at = |p| sorted.get(rank(count, p) as usize).copied().unwrap_or(0);
                (at(50), at(99), true)
            }
            Some(h) => {
                let at = |p| {
                    let want = rank(count, p);
                    let mut seen = 0;
                    for (i, &c) in h.iter().enumerate() {
                        seen += c;
                        if seen > want {
                            return gap_bucket_floor(i);
                        }
                    }
                    self.gap_max
                };
                (at(50), at(99), false)
            }
        };
        InterArrival { count, mean, p50, p99, max: self.gap_max, exact }
    }

    /// The summary so far (can be called mid-stream, e.g. for progress displays).
    pub fn finish(&self) -> TraceSummary {
        let n = self.requests;
        let empty = n == 0;
        let first = self.size_hist.iter().position(|&c| c > 0).unwrap_or(0);
        let last = self.size_hist.iter().rposition(|&c| c > 0).map_or(0, |i| i + 1);
        let size_histogram = (first..last)
            .map(|k| SizeBucket { min_bytes: 1 << k, max_bytes: (1u64 << (k + 1)) - 1, count: self.size_hist[k] })
            .collect();
        let footprint_pages = self.pages.len() as u64;
        TraceSummary {
            requests: n,
            reads: self.ops[0],
            writes: self.ops[1],
            trims: self.ops[2],
            bytes_read: self.bytes[0],
            bytes_written: self.bytes[1],
            bytes_trimmed: self.bytes[2],
            size_min: if empty { 0 } else { self.size_min },
            size_max: self.size_max,
            size_mean: if empty { 0.0 } else { self.size_sum as f64 / n as f64 },
            size_histogram,
            page_bytes: self.options.page_bytes,
            footprint_pages,
            footprint_bytes: footprint_pages.saturating_mul(u64::from(self.options.page_bytes)),
            offset_min: if empty { 0 } else { self.offset_min },
            offset_max: self.offset_max,
            end_max: self.end_max,
            heat: self.heat.finish(self.offset_min, self.offset_max, self.options.heat_buckets),
            sequential_requests: self.sequential,
            sequential_share: if n < 2 { 0.0 } else { self.sequential as f64 / (n - 1) as f64 },
            duration_ns: if empty { 0 } else { self.time_max - self.time_min },
            inter_arrival_ns: self.inter_arrival(),
            out_of_order: self.out_of_order,
        }
    }
}

/// Summarises a whole request list with the default options.
pub fn summarize(requests: &[Request]) -> TraceSummary {
    let mut s = TraceStats::default();
    s.add_all(requests);
    s.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gap_buckets_round_down_within_one_part_in_128() {
        for v in [0, 1, 127, 128, 129, 255, 256, 1000, 5000, 123_456_789, u64::MAX] {
            let f = gap_bucket_floor(gap_bucket(v));
            assert!(f <= v && v - f <= v / 128, "{v} -> {f}");
        }
        assert_eq!(gap_bucket_floor(gap_bucket(5000)), 4992);
    }

    #[test]
    fn heat_widening_keeps_every_count() {
        let mut h = Heat::default();
        let (mut lo, mut hi) = (u64::MAX, 0);
        for a in [1_000_000u64, 5, u64::MAX - 1, 0, 77, 1 << 40] {
            lo = lo.min(a);
            hi = hi.max(a);
            h.add(a, lo, hi);
        }
        let m = h.finish(lo, hi, 4);
        assert_eq!(m.counts.iter().sum::<u64>(), 6);
        assert_eq!(m.counts[0], 5);
        assert_eq!(m.counts[3], 1);
    }
}
