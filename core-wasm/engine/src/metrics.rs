//! Run statistics and the metrics report (DESIGN §4). The CLI, the wasm facade and the UI all
//! read the same [`Metrics`] value, built by [`crate::sim::Sim::metrics`].

use serde::Serialize;

use crate::hash::StateHasher;

/// Response-time histogram with exact count, mean, standard deviation and maximum, and
/// percentiles that are exact whenever the bucket they fall in holds at most two distinct
/// values (every value below 256 ns has its own bucket), and otherwise within the bucket, so
/// within 1/128 (0.8 %) of the true value: log-linear buckets with 128 steps per power of
/// two, each remembering its smallest and largest sample. Fixed memory, so checkpoints stay
/// small on long traces.
#[derive(Debug, Clone, Default)]
pub struct LatencyHistogram {
    buckets: Vec<Bucket>,
    count: u64,
    sum_ns: u128,
    /// Sum of squares in f64: a 128-bit multiply per request is slow in wasm, and the
    /// standard deviation needs no more than f64's 16 digits.
    sum_sq: f64,
    max_ns: u64,
}

/// Samples falling in one bucket: how many, and the extremes (so a bucket of equal samples
/// reports them exactly).
#[derive(Debug, Clone, Copy, Default)]
struct Bucket {
    count: u64,
    min: u64,
    max: u64,
}

const LINEAR: u64 = 256;
const SUB: u64 = 128;

fn bucket_of(v: u64) -> usize {
    if v < LINEAR {
        return v as usize;
    }
    let e = 63 - u64::from(v.leading_zeros()); // >= 8
    let shift = e - 7;
    let sub = (v >> shift) & (SUB - 1);
    (LINEAR + (e - 8) * SUB + sub) as usize
}

fn bucket_mid(i: usize) -> u64 {
    let i = i as u64;
    if i < LINEAR {
        return i;
    }
    let e = (i - LINEAR) / SUB + 8;
    let sub = (i - LINEAR) % SUB;
    let width = 1u64 << (e - 7);
    ((SUB + sub) << (e - 7)) + width / 2
}

impl LatencyHistogram {
    /// Adds one sample (ns).
    pub fn record(&mut self, ns: u64) {
        let b = bucket_of(ns);
        if b >= self.buckets.len() {
            self.buckets.resize(b + 1, Bucket::default());
        }
        let bucket = &mut self.buckets[b];
        if bucket.count == 0 {
            (bucket.min, bucket.max) = (ns, ns);
        } else {
            (bucket.min, bucket.max) = (bucket.min.min(ns), bucket.max.max(ns));
        }
        bucket.count += 1;
        self.count += 1;
        self.sum_ns += u128::from(ns);
        self.sum_sq += (ns as f64) * (ns as f64);
        self.max_ns = self.max_ns.max(ns);
    }

    /// Samples recorded.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// Mean in ns (0 when empty).
    pub fn mean_ns(&self) -> f64 {
        if self.count == 0 {
            0.0
        } else {
            self.sum_ns as f64 / self.count as f64
        }
    }

    /// Population standard deviation in ns.
    pub fn std_ns(&self) -> f64 {
        if self.count == 0 {
            return 0.0;
        }
        let n = self.count as f64;
        let mean = self.sum_ns as f64 / n;
        (self.sum_sq / n - mean * mean).max(0.0).sqrt()
    }

    /// Largest sample (ns).
    pub fn max_ns(&self) -> u64 {
        self.max_ns
    }

    /// The `p`-quantile (0 < p ≤ 1) in ns: the sample of rank `ceil(p * count)`. Exact
    /// when that rank is the first or last sample of its bucket or the bucket's samples are
    /// all equal; otherwise the bucket's midpoint kept within its smallest and largest sample
    /// (at most 1/128 of the value away).
    pub fn quantile_ns(&self, p: f64) -> u64 {
        if self.count == 0 {
            return 0;
        }
        let rank = ((p * self.count as f64).ceil() as u64).clamp(1, self.count);
        let mut seen = 0;
        for (i, b) in self.buckets.iter().enumerate() {
            if seen + b.count >= rank {
                return if rank == seen + 1 {
                    b.min
                } else if rank == seen + b.count {
                    b.max
                } else {
                    bucket_mid(i).clamp(b.min, b.max)
                };
            }
            seen += b.count;
        }
        self.max_ns
    }

    /// Feeds the histogram into a hash.
    pub fn hash_into(&self, h: &mut StateHasher) {
        h.u64(self.count);
        h.u64(self.max_ns);
        h.bytes(&self.sum_ns.to_le_bytes());
        h.u64(self.sum_sq.to_bits());
        for b in &self.buckets {
            h.u64(b.count);
            if b.count > 0 {
                h.u64(b.min);
                h.u64(b.max);
            }
        }
    }
}

/// Host-side counts of what the trace asked for.
#[derive(Debug, Clone, Default)]
pub struct HostCounters {
    /// Read requests served.
    pub reads: u64,
    /// Write requests served.
    pub writes: u64,
    /// Trim requests served.
    pub trims: u64,
    /// Logical pages read.
    pub pages_read: u64,
    /// Logical pages written.
    pub pages_written: u64,
    /// Logical pages trimmed.
    pub pages_trimmed: u64,
    /// Total service time, split (ns).
    pub flash_ns: u64,
    /// RAM part of service time (ns).
    pub ram_ns: u64,
    /// Cache-management part of service time (ns).
    pub lru_ns: u64,
    /// Host-interface transfer part of service time (ns).
    pub host_ns: u64,
}

/// Mean / std / percentiles in microseconds.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Distribution {
    pub mean: f64,
    pub std: f64,
    pub p50: f64,
    pub p99: f64,
    pub max: f64,
}

impl Distribution {
    /// Summarises a histogram in µs.
    pub fn of(h: &LatencyHistogram) -> Self {
        let us = |ns: f64| ns / 1000.0;
        Distribution {
            mean: us(h.mean_ns()),
            std: us(h.std_ns()),
            p50: us(h.quantile_ns(0.5) as f64),
            p99: us(h.quantile_ns(0.99) as f64),
            max: us(h.max_ns() as f64),
        }
    }
}

/// Operation counts of one purpose.
#[derive(Debug, Clone, Serialize, PartialEq, Default)]
pub struct PurposeCounts {
    pub page_reads: u64,
    pub page_writes: u64,
    pub oob_reads: u64,
    pub erases: u64,
}

/// Flash totals and their split by purpose, and by what the page (for erases: the block)
/// held.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct FlashMetrics {
    pub page_reads: u64,
    pub page_writes: u64,
    pub oob_reads: u64,
    pub erases: u64,
    pub by_purpose: std::collections::BTreeMap<&'static str, PurposeCounts>,
    /// `data` and `translation`: totals and the split by purpose of operations on pages (and
    /// erases of blocks) holding that kind of content.
    pub by_kind: std::collections::BTreeMap<&'static str, KindMetrics>,
    /// The columns of the thesis' Table 2.5 (seed 002, DAC vs DFTL), from `by_kind`.
    pub table_2_5: Table25,
}

/// Operations on one kind of content.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct KindMetrics {
    pub page_reads: u64,
    pub page_writes: u64,
    pub oob_reads: u64,
    pub erases: u64,
    pub by_purpose: std::collections::BTreeMap<&'static str, PurposeCounts>,
}

/// Thesis Table 2.5: data-page copies by GC and merges, erases of data blocks, and reads,
/// writes and erases of translation pages and blocks (all purposes).
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Table25 {
    pub data_copies: u64,
    pub data_erases: u64,
    pub translation_reads: u64,
    pub translation_writes: u64,
    pub translation_erases: u64,
}

impl KindMetrics {
    /// From one row of the device's counters.
    pub fn of(k: &crate::device::KindCounters) -> Self {
        use crate::events::Purpose;
        let by_purpose = Purpose::ALL
            .iter()
            .map(|&p| {
                let i = p as usize;
                let c = PurposeCounts {
                    page_reads: k.page_reads[i],
                    page_writes: k.page_writes[i],
                    oob_reads: k.oob_reads[i],
                    erases: k.erases[i],
                };
                (p.name(), c)
            })
            .collect();
        let sum = |row: &[u64; 6]| row.iter().sum();
        KindMetrics {
            page_reads: sum(&k.page_reads),
            page_writes: sum(&k.page_writes),
            oob_reads: sum(&k.oob_reads),
            erases: sum(&k.erases),
            by_purpose,
        }
    }
}

impl Table25 {
    /// From the data and translation rows of the device's counters.
    pub fn of(data: &crate::device::KindCounters, translation: &crate::device::KindCounters) -> Self {
        use crate::events::Purpose;
        Table25 {
            data_copies: data.page_writes[Purpose::Gc as usize] + data.page_writes[Purpose::Merge as usize],
            data_erases: data.erases.iter().sum(),
            translation_reads: translation.page_reads.iter().sum(),
            translation_writes: translation.page_writes.iter().sum(),
            translation_erases: translation.erases.iter().sum(),
        }
    }
}

/// The share of the logical space holding data: at the end of the run and the most at any
/// time (pre-fill included), as fractions of `logical_pages`.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Utilization {
    pub logical_pages: u64,
    pub at_end: f64,
    pub peak: f64,
}

/// Merge counts of hybrid schemes.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct MergeCounts {
    pub switch: u64,
    pub partial: u64,
    pub full: u64,
}

/// Garbage collection.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct GcMetrics {
    pub runs: u64,
    pub valid_copies: u64,
    pub merges: MergeCounts,
}

/// Hits and misses of a cache.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct HitRatio {
    pub hits: u64,
    pub misses: u64,
    pub hit_ratio: f64,
}

impl HitRatio {
    /// From counts; the ratio is 0 when there were no look-ups.
    pub fn of(hits: u64, misses: u64) -> Self {
        let n = hits + misses;
        HitRatio { hits, misses, hit_ratio: if n == 0 { 0.0 } else { hits as f64 / n as f64 } }
    }
}

/// The demand-paged family's translation-page traffic (issue 11): reads and writes of
/// translation pages by cause ([`crate::vocab::TpCause`] ids), the flash reads a mapping
/// miss costs, and bloom-filter false positives.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct TranslationMetrics {
    /// Translation-page reads by cause (`miss`, `dirty_eviction`, `gc_batch_update`, …).
    pub reads: std::collections::BTreeMap<&'static str, u64>,
    /// Translation-page writes by cause.
    pub writes: std::collections::BTreeMap<&'static str, u64>,
    /// Flash reads spent finding missed entries (causes `miss` and `dtp_load`, wasted
    /// bloom-filter reads included) per mapping miss: seed 001 Fig. 7's "extra read
    /// operations during address translation when cache miss happens". 0 without misses.
    pub extra_reads_per_miss: f64,
    /// Bloom-filter tests that said "maybe" for a key the filtered set did not hold.
    pub bloom_false_positives: u64,
}

impl TranslationMetrics {
    /// From the scheme counters.
    pub fn of(s: &crate::device::SchemeCounters) -> Self {
        use crate::vocab::TpCause;
        let by_cause =
            |row: &[u64; TpCause::COUNT]| TpCause::ALL.iter().map(|&c| (c.id(), row[c as usize])).collect();
        let miss_reads = s.tpage_reads[TpCause::Miss as usize] + s.tpage_reads[TpCause::DtpLoad as usize];
        TranslationMetrics {
            reads: by_cause(&s.tpage_reads),
            writes: by_cause(&s.tpage_writes),
            extra_reads_per_miss: if s.mapping_misses == 0 {
                0.0
            } else {
                miss_reads as f64 / s.mapping_misses as f64
            },
            bloom_false_positives: s.bloom_false_positives,
        }
    }
}

/// What the trace asked for.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct RequestMetrics {
    pub reads: u64,
    pub writes: u64,
    pub trims: u64,
    pub pages_read: u64,
    pub pages_written: u64,
    pub pages_trimmed: u64,
}

/// Service time split, µs.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct ServiceTime {
    pub total: f64,
    pub flash: f64,
    pub ram: f64,
    pub lru: f64,
    /// Host-interface transfers (`device.latency.host_transfer_ns_per_page`).
    pub host: f64,
}

/// Erase-count spread over blocks: the wear of each block since the device was new, so it
/// includes erases done while pre-filling (unlike `flash.erases`, which counts the run).
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct EraseSpread {
    pub min: u64,
    pub max: u64,
    pub mean: f64,
}

/// The trace a run replayed.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct TraceInfo {
    pub name: String,
    pub requests: u64,
}

/// The metrics object of one run (DESIGN §4). Field names are a contract: add, never rename.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Metrics {
    pub scheme: String,
    pub config: serde_json::Value,
    pub trace: TraceInfo,
    pub requests: RequestMetrics,
    pub flash: FlashMetrics,
    pub gc: GcMetrics,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mapping: Option<HitRatio>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub buffer: Option<HitRatio>,
    /// Translation-page traffic by cause (schemes with a mapping cache).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub translation_pages: Option<TranslationMetrics>,
    pub response_us: Distribution,
    pub service_time_us: ServiceTime,
    /// Flash page programs (all purposes) per host page written; 0 when nothing was written.
    pub waf: f64,
    pub ram_bytes: u64,
    pub erase_count: EraseSpread,
    pub integrity_errors: u64,
    /// Requests served so far (equals `trace.requests` at the end of a run).
    pub requests_done: u64,
    /// Simulated time at the last completion (µs).
    pub sim_time_us: f64,
    /// The utilization actually reached (pre-fill and trace footprint together).
    pub utilization: Utilization,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn histogram_quantiles_within_precision() {
        let mut h = LatencyHistogram::default();
        for v in 1..=1000u64 {
            h.record(v * 1000);
        }
        let p50 = h.quantile_ns(0.5) as f64;
        let p99 = h.quantile_ns(0.99) as f64;
        assert!((p50 - 500_000.0).abs() / 500_000.0 < 0.008, "{p50}");
        assert!((p99 - 990_000.0).abs() / 990_000.0 < 0.008, "{p99}");
        assert_eq!(h.max_ns(), 1_000_000);
        assert!((h.mean_ns() - 500_500.0).abs() < 1e-6);
        // Population std of 1..=1000 is sqrt((1000^2 - 1) / 12) = 288.67499; x1000.
        assert!((h.std_ns() - 288_674.99).abs() < 0.01, "{}", h.std_ns());
    }

    #[test]
    fn small_values_are_exact() {
        let mut h = LatencyHistogram::default();
        for v in [3u64, 7, 7, 200] {
            h.record(v);
        }
        assert_eq!(h.quantile_ns(0.5), 7);
        assert_eq!(h.quantile_ns(1.0), 200);
        assert_eq!(LatencyHistogram::default().quantile_ns(0.5), 0);
    }

    #[test]
    fn equal_samples_give_exact_percentiles() {
        // Review part B §4: p50 of exact 400 µs responses was the bucket midpoint, 400.384.
        let mut h = LatencyHistogram::default();
        for v in [400_000u64, 400_000, 400_000, 200_000, 1_600_000] {
            h.record(v);
        }
        assert_eq!(h.quantile_ns(0.5), 400_000);
        assert_eq!(h.quantile_ns(0.2), 200_000);
        assert_eq!(h.quantile_ns(0.99), 1_600_000);
        // Distinct values sharing a bucket: the first and last are exact, a middle one is
        // inside the bucket's range.
        let mut h = LatencyHistogram::default();
        for v in [100_000u64, 100_100, 100_200] {
            h.record(v);
        }
        assert_eq!((h.quantile_ns(0.3), h.quantile_ns(1.0)), (100_000, 100_200));
        let mid = h.quantile_ns(0.5);
        assert!((100_000..=100_200).contains(&mid), "{mid}");
    }

    #[test]
    fn bucket_mid_lies_in_bucket() {
        for v in [256u64, 257, 1000, 123_456, 9_999_999_999] {
            let m = bucket_mid(bucket_of(v));
            assert!((m as f64 - v as f64).abs() / v as f64 <= 1.0 / 128.0, "{v} -> {m}");
            assert_eq!(bucket_of(m), bucket_of(v));
        }
    }
}
