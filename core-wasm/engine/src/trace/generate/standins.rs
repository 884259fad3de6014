//! **SYNTHETIC STAND-INS** for the private traces of Zhiwei Qin's PhD thesis (PolyU 2012,
//! seed 002): the DiskMon traces Trace 1–6 (Table 2.3), Systemdisk1–3 (Table 3.1) and
//! Multimedia (§4.4.1; evidently the same trace as Systemdisk2). The originals were never published; these generators reproduce
//! only what the thesis states about them, and every other property is an assumption
//! listed next to each stand-in. They are not the real traces: results on them show how a
//! scheme reacts to the published mix, not what the thesis measured.
//!
//! Common assumptions (nothing in the thesis fixes them):
//! - **Sequentiality** is the share of requests starting where the previous one ended
//!   (Table 2.3's "% sequential operations in terms of the arrival sequence"). Where a
//!   trace has no published figure, it borrows the mean of Table 2.3's six DiskMon traces,
//!   [`DISKMON_MEAN_SEQUENTIAL`] (same author, tool, OS and file system).
//! - **Locality of the non-sequential requests**: uniform over the address space.
//! - **Footprint**: unknown (the thesis only says "a portion of flash as the active
//!   region"). The default address space is [`DEFAULT_ADDRESS_SPACE`], so a few thousand
//!   requests overwrite data and exercise GC on small devices; set `address_space` to scale.
//! - **Arrival times**: unknown (DiskMon timestamps unpublished); fixed 1 ms gaps.
//! - **Request count**: the caller chooses; [`Published::requests`] has the original.

use super::{Arrival, GenParams, Pattern, SizeDist, Spread};

/// Mean "% sequential operations" of Table 2.3's Trace 1–6:
/// (99.96 + 53.50 + 99.99 + 50.01 + 94.98 + 97.91) / 6 = 82.725 %.
pub const DISKMON_MEAN_SEQUENTIAL: f64 = 0.82725;

/// Default address space of a stand-in: 64 MiB.
pub const DEFAULT_ADDRESS_SPACE: u64 = 64 << 20;

/// A thesis trace with a synthetic stand-in. Each variant's docs say what it reproduces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StandIn {
    /// SYNTHETIC STAND-IN for Table 2.3 Trace 1 (write-dominant, sequential).
    /// Reproduces: write share 93.84 % (15,860,736 writes, 1,040,896 reads — the table's
    /// "90 % / 10 %" columns disagree with its own counts; the counts are used), 99.96 %
    /// sequential. Assumed: 4 KiB requests (see [`StandIn::Trace3`]); locality, footprint and
    /// timing as in the module docs.
    Trace1,
    /// SYNTHETIC STAND-IN for Table 2.3 Trace 2 (write-dominant, random-dominant).
    /// Reproduces: 8,198,708 writes / 2,471,266 reads (76.84 % writes), 53.50 % sequential.
    /// Not reproduced: Table 2.4's 74.79 % DFTL hit ratio hints at strong re-reference
    /// (temporal locality) that uniform jumps lack; use a hot/cold spread to add it.
    Trace2,
    /// SYNTHETIC STAND-IN for Table 2.3 Trace 3 (read-dominant, sequential).
    /// Reproduces: 2,416,100 writes / 17,842,716 reads (11.93 % writes), 99.99 % sequential.
    /// Assumed request size 4 KiB for all of Trace 1–6: unpublished, but Table 2.5's DFTL
    /// translation-page reads are 1.2–2 × the misses implied by Tables 2.3–2.4, i.e. one or
    /// two 2 KB flash pages per operation; 4 KiB is also NTFS's default cluster.
    Trace3,
    /// SYNTHETIC STAND-IN for Table 2.3 Trace 4 (read-dominant, random).
    /// Reproduces: 639,193 writes / 8,518,437 reads (6.98 % writes), 50.01 % sequential.
    /// Assumed: 4 KiB requests; locality, footprint and timing as in the module docs.
    Trace4,
    /// SYNTHETIC STAND-IN for Table 2.3 Trace 5 (write-dominant, mostly sequential).
    /// Reproduces: 9,208,655 writes / 4,899,133 reads (65.27 % writes), 94.98 % sequential.
    /// Assumed: 4 KiB requests; locality, footprint and timing as in the module docs.
    Trace5,
    /// SYNTHETIC STAND-IN for Table 2.3 Trace 6 (balanced, sequential-dominant).
    /// Reproduces: 8,903,616 writes / 10,906,320 reads (44.95 % writes), 97.91 % sequential.
    /// Assumed: 4 KiB requests; locality, footprint and timing as in the module docs.
    Trace6,
    /// SYNTHETIC STAND-IN for Table 3.1 Systemdisk1 (DiskMon, Windows XP, NTFS desktop).
    /// Reproduces: 74.04 % writes, mean request 42.65 KB (KB = 1024 B), as geometric sizes
    /// in 512 B sectors (many small requests, few large). Of 1,040,692 requests.
    /// Assumed: sequentiality [`DISKMON_MEAN_SEQUENTIAL`]; size shape; locality, footprint,
    /// timing as in the module docs.
    Systemdisk1,
    /// SYNTHETIC STAND-IN for Table 3.1 Systemdisk2: 61.96 % writes, mean 44.10 KB, of
    /// 2,636,016 requests. Assumptions as for [`StandIn::Systemdisk1`].
    Systemdisk2,
    /// SYNTHETIC STAND-IN for Table 3.1 Systemdisk3: 58.10 % writes, mean 36.72 KB, of
    /// 1,312,945 requests. Assumptions as for [`StandIn::Systemdisk1`].
    Systemdisk3,
    /// SYNTHETIC STAND-IN for the Multimedia trace of Ch.4 (§4.4.1: a notebook downloading
    /// and playing movies and MP3s). Reproduces: 1,633,269 writes / 1,002,748 reads
    /// (61.96 % writes). Inferred: a mean request of 44.10 KB, because these counts are
    /// Table 3.1's Systemdisk2 to within one request (2,636,017 vs 2,636,016, both 61.96 %
    /// writes), so it is almost certainly the same DiskMon trace. Ch.4 serves each request
    /// in one period L(p) sized for a single page, so the thesis seems to have replayed every
    /// request as one 2 KB page; set `sizes` to `SizeDist::Fixed(2048)` to mimic that.
    /// Assumptions otherwise as for [`StandIn::Systemdisk1`].
    Multimedia,
}

/// What the thesis publishes about a trace.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Published {
    /// Table and section.
    pub source: &'static str,
    /// Requests (or operations) in the original.
    pub requests: u64,
    /// Share of writes.
    pub write_share: f64,
    /// Share of sequential operations, when published.
    pub sequential_share: Option<f64>,
    /// Mean request size in bytes, when published.
    pub mean_request_bytes: Option<f64>,
}

impl StandIn {
    /// Every stand-in.
    pub const ALL: [StandIn; 10] = [
        StandIn::Trace1,
        StandIn::Trace2,
        StandIn::Trace3,
        StandIn::Trace4,
        StandIn::Trace5,
        StandIn::Trace6,
        StandIn::Systemdisk1,
        StandIn::Systemdisk2,
        StandIn::Systemdisk3,
        StandIn::Multimedia,
    ];

    /// Name used by `ftl generate --kind` and the app (`trace1`, `systemdisk2`, `multimedia`).
    pub fn name(self) -> &'static str {
        match self {
            StandIn::Trace1 => "trace1",
            StandIn::Trace2 => "trace2",
            StandIn::Trace3 => "trace3",
            StandIn::Trace4 => "trace4",
            StandIn::Trace5 => "trace5",
            StandIn::Trace6 => "trace6",
            StandIn::Systemdisk1 => "systemdisk1",
            StandIn::Systemdisk2 => "systemdisk2",
            StandIn::Systemdisk3 => "systemdisk3",
            StandIn::Multimedia => "multimedia",
        }
    }

    /// Looks a stand-in up by [`StandIn::name`], case-insensitively.
    pub fn from_name(name: &str) -> Option<StandIn> {
        StandIn::ALL.into_iter().find(|s| s.name().eq_ignore_ascii_case(name.trim()))
    }

    /// The published characteristics.
    pub fn published(self) -> Published {
        let t23 = |writes: u64, reads: u64, seq: f64| Published {
            source: "Qin 2012 thesis, Table 2.3",
            requests: writes + reads,
            write_share: writes as f64 / (writes + reads) as f64,
            sequential_share: Some(seq),
            mean_request_bytes: None,
        };
        let t31 = |requests: u64, writes_pct: f64, kb: f64| Published {
            source: "Qin 2012 thesis, Table 3.1",
            requests,
            write_share: writes_pct / 100.0,
            sequential_share: None,
            mean_request_bytes: Some(kb * 1024.0),
        };
        match self {
            StandIn::Trace1 => t23(15_860_736, 1_040_896, 0.9996),
            StandIn::Trace2 => t23(8_198_708, 2_471_266, 0.5350),
            StandIn::Trace3 => t23(2_416_100, 17_842_716, 0.9999),
            StandIn::Trace4 => t23(639_193, 8_518_437, 0.5001),
            StandIn::Trace5 => t23(9_208_655, 4_899_133, 0.9498),
            StandIn::Trace6 => t23(8_903_616, 10_906_320, 0.9791),
            StandIn::Systemdisk1 => t31(1_040_692, 74.04, 42.65),
            StandIn::Systemdisk2 => t31(2_636_016, 61.96, 44.10),
            StandIn::Systemdisk3 => t31(1_312_945, 58.10, 36.72),
            StandIn::Multimedia => Published {
                source: "Qin 2012 thesis, §4.4.1 (size: Table 3.1 Systemdisk2, the same trace)",
                requests: 1_633_269 + 1_002_748,
                write_share: 1_633_269.0 / (1_633_269 + 1_002_748) as f64,
                sequential_share: None,
                mean_request_bytes: Some(44.10 * 1024.0),
            },
        }
    }

    /// One line for listings: what is reproduced and what is assumed.
    pub fn summary(self) -> String {
        let p = self.published();
        let mut known = format!("{:.2} % writes", p.write_share * 100.0);
        if let Some(s) = p.sequential_share {
            known += &format!(", {:.2} % sequential", s * 100.0);
        }
        if let Some(b) = p.mean_request_bytes {
            known += &format!(", mean {:.2} KB", b / 1024.0);
        }
        let assumed = match self {
            StandIn::Trace1
            | StandIn::Trace2
            | StandIn::Trace3
            | StandIn::Trace4
            | StandIn::Trace5
            | StandIn::Trace6 => "4 KiB requests",
            _ => "82.7 % sequential, geometric sizes in sectors",
        };
        format!(
            "SYNTHETIC STAND-IN for {} ({}): reproduces {known}; assumes {assumed}, uniform jumps, 64 MiB space, 1 ms gaps",
            self.name(),
            p.source
        )
    }

    /// Generator parameters for `count` requests with `seed`; adjust any field before use.
    pub fn params(self, count: u64, seed: u64) -> GenParams {
        let p = self.published();
        let (sizes, align) = match self {
            StandIn::Systemdisk1 | StandIn::Systemdisk2 | StandIn::Systemdisk3 | StandIn::Multimedia => (
                SizeDist::Geometric {
                    unit: 512,
                    mean_bytes: p.mean_request_bytes.unwrap_or(4096.0),
                    // 8192 sectors: exceeded with probability below e^-90, so the mean holds.
                    max_bytes: 4 << 20,
                },
                4096,
            ),
            _ => (SizeDist::Fixed(4096), 4096),
        };
        GenParams {
            count,
            address_space: DEFAULT_ADDRESS_SPACE,
            align,
            sizes,
            read_share: 1.0 - p.write_share,
            trim_share: 0.0,
            pattern: Pattern {
                sequential_share: p.sequential_share.unwrap_or(DISKMON_MEAN_SEQUENTIAL),
                spread: Spread::Uniform,
            },
            arrival: Arrival::Fixed(1000),
            seed,
        }
    }
}
