//! Run statistics and the metrics report (DESIGN §4). The CLI, the wasm facade and the UI all
//! read the same [`Metrics`] value, built by [`crate::sim::Sim::metrics`].

use serde::Serialize;

use crate::hash::StateHasher;
use crate::trace::HostOp;

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
/// reports them exactly). An empty bucket's extremes are the identities of `min` and `max`,
/// so a sample updates them without asking whether it is the first; nothing reads them
/// while the count is 0.
#[derive(Debug, Clone, Copy)]
struct Bucket {
    count: u64,
    min: u64,
    max: u64,
}

impl Bucket {
    const EMPTY: Bucket = Bucket { count: 0, min: u64::MAX, max: 0 };
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
    #[inline]
    pub fn record(&mut self, ns: u64) {
        self.record_squared(ns, square(ns));
    }

    /// [`Self::record`] with the sample's square, computed once by a caller that also
    /// needs it.
    #[inline]
    fn record_squared(&mut self, ns: u64, sq: f64) {
        let b = bucket_of(ns);
        if b >= self.buckets.len() {
            self.buckets.resize(b + 1, Bucket::EMPTY);
        }
        let bucket = &mut self.buckets[b];
        (bucket.min, bucket.max) = (bucket.min.min(ns), bucket.max.max(ns));
        bucket.count += 1;
        self.count += 1;
        self.sum_ns += u128::from(ns);
        self.sum_sq += sq;
        self.max_ns = self.max_ns.max(ns);
    }

    /// The histogram of the samples of all of `parts`, whose squares summed in the order
    /// they came are `sum_sq` (a sum of the parts' sums would round differently).
    fn merged(parts: &[&LatencyHistogram], sum_sq: f64) -> LatencyHistogram {
        let len = parts.iter().map(|p| p.buckets.len()).max().unwrap_or(0);
        let mut buckets = vec![Bucket::EMPTY; len];
        for part in parts {
            for (all, b) in buckets.iter_mut().zip(&part.buckets) {
                all.count += b.count;
                (all.min, all.max) = (all.min.min(b.min), all.max.max(b.max));
            }
        }
        LatencyHistogram {
            buckets,
            count: parts.iter().map(|p| p.count).sum(),
            sum_ns: parts.iter().map(|p| p.sum_ns).sum(),
            sum_sq,
            max_ns: parts.iter().map(|p| p.max_ns).max().unwrap_or(0),
        }
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

    /// Smallest sample (ns; 0 when empty): the first filled bucket's smallest, exact.
    pub fn min_ns(&self) -> u64 {
        self.buckets.iter().find(|b| b.count > 0).map_or(0, |b| b.min)
    }

    /// The `p`-quantile (0 < p ≤ 1) in ns: the sample of rank `ceil(p * count)`. Exact
    /// when that rank is the first or last sample of its bucket or the bucket's samples are
    /// all equal; otherwise the bucket's midpoint kept within its smallest and largest sample
    /// (at most 1/128 of the value away).
    pub fn quantile_ns(&self, p: f64) -> u64 {
        self.quantiles_ns(&[p])[0]
    }

    /// [`Self::quantile_ns`] of each of `ps` (ascending), in one pass over the buckets.
    pub fn quantiles_ns(&self, ps: &[f64]) -> Vec<u64> {
        if self.count == 0 {
            return vec![0; ps.len()];
        }
        let mut out = Vec::with_capacity(ps.len());
        let mut buckets = self.buckets.iter().enumerate();
        let (mut seen, mut current) = (0, buckets.next());
        for &p in ps {
            let rank = ((p * self.count as f64).ceil() as u64).clamp(1, self.count);
            while let Some((_, b)) = current {
                if seen + b.count >= rank {
                    break;
                }
                seen += b.count;
                current = buckets.next();
            }
            out.push(match current {
                Some((_, b)) if rank == seen + 1 => b.min,
                Some((_, b)) if rank == seen + b.count => b.max,
                Some((i, b)) => bucket_mid(i).clamp(b.min, b.max),
                None => self.max_ns,
            });
        }
        out
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

/// A sample's square, in f64 (see [`LatencyHistogram::sum_sq`]).
fn square(ns: u64) -> f64 {
    (ns as f64) * (ns as f64)
}

/// Response times of every request, by operation: each sample is filed once, in its
/// operation's histogram, and the histogram of all requests is their merge, built when
/// asked for. It equals, bucket for bucket and bit for bit, the one a second filing of each
/// sample would have built: counts, sums and extremes merge exactly, and the sum of squares
/// of all requests is kept here in arrival order.
#[derive(Debug, Clone, Default)]
pub struct ResponseTimes {
    read: LatencyHistogram,
    write: LatencyHistogram,
    trim: LatencyHistogram,
    sum_sq: f64,
}

impl ResponseTimes {
    /// Adds the response time of one request of operation `op` (ns).
    #[inline]
    pub fn record(&mut self, op: HostOp, ns: u64) {
        let sq = square(ns);
        self.sum_sq += sq;
        let h = match op {
            HostOp::Read => &mut self.read,
            HostOp::Write => &mut self.write,
            HostOp::Trim => &mut self.trim,
        };
        h.record_squared(ns, sq);
    }

    /// Read requests' response times.
    pub fn read(&self) -> &LatencyHistogram {
        &self.read
    }

    /// Write requests' response times.
    pub fn write(&self) -> &LatencyHistogram {
        &self.write
    }

    /// Every request's response time (a merge: a pass over the buckets).
    pub fn all(&self) -> LatencyHistogram {
        LatencyHistogram::merged(&[&self.read, &self.write, &self.trim], self.sum_sq)
    }

    /// Mean response time of every request in ns (0 when empty), without the merge.
    pub fn mean_ns(&self) -> f64 {
        let parts = [&self.read, &self.write, &self.trim];
        let count: u64 = parts.iter().map(|p| p.count).sum();
        let sum_ns: u128 = parts.iter().map(|p| p.sum_ns).sum();
        if count == 0 {
            0.0
        } else {
            sum_ns as f64 / count as f64
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
    /// Partly written pages whose old data was read first (`device.read_modify_write`).
    pub pages_rmw_read: u64,
    /// Service time, split as a request's ([`crate::device::RequestCost`]), summed over the
    /// requests (and flushes, idle work); each sum saturates (ns).
    pub service: crate::device::RequestCost,
    /// Elapsed time from start to completion, summed over requests (and flushes, idle
    /// work): with parallel units, less than the work it holds.
    pub busy_ns: u64,
}

impl HostCounters {
    /// Flash part of service time, all purposes (ns; saturating, as its parts are).
    pub fn flash_ns(&self) -> u64 {
        self.service.flash_ns.iter().fold(0u64, |a, &ns| a.saturating_add(ns))
    }
}

/// Mean / std / percentiles in microseconds.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Distribution {
    pub mean: f64,
    pub std: f64,
    pub p50: f64,
    pub p90: f64,
    pub p99: f64,
    /// The 99.9th percentile (tail latency charts).
    pub p999: f64,
    pub max: f64,
    /// The best case (RFTL's Table 4.4 reports best and worst).
    pub min: f64,
    /// Samples.
    pub count: u64,
}

/// Response times of read and of write requests apart (RFTL Tables 4.4 / 4.5, Shin's write
/// response, seed 004 Fig 3).
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct ResponseByOp {
    pub read: Distribution,
    pub write: Distribution,
}

impl Distribution {
    /// Summarises a histogram in µs.
    pub fn of(h: &LatencyHistogram) -> Self {
        let us = |ns: f64| ns / 1000.0;
        Distribution {
            mean: us(h.mean_ns()),
            std: us(h.std_ns()),
            p50: us(h.quantile_ns(0.5) as f64),
            p90: us(h.quantile_ns(0.9) as f64),
            p99: us(h.quantile_ns(0.99) as f64),
            p999: us(h.quantile_ns(0.999) as f64),
            max: us(h.max_ns() as f64),
            min: us(h.min_ns() as f64),
            count: h.count(),
        }
    }
}

/// One point of the response-time CDF: the share `p` of requests answered within `us` µs.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct CdfPoint {
    pub p: f64,
    pub us: f64,
}

impl CdfPoint {
    /// The CDF at fixed shares (the same for every run, so runs compare point by point):
    /// 0 (the best case), every percent, then the tail (99.5 %, 99.9 %, 99.95 %, 99.99 %)
    /// and 1 (the worst case). Empty without samples.
    pub fn of(h: &LatencyHistogram) -> Vec<CdfPoint> {
        if h.count() == 0 {
            return Vec::new();
        }
        let tail = [0.995, 0.999, 0.9995, 0.9999, 1.0];
        let shares: Vec<f64> = (1..100).map(|i| f64::from(i) / 100.0).chain(tail).collect();
        let first = CdfPoint { p: 0.0, us: h.min_ns() as f64 / 1000.0 };
        let values = h.quantiles_ns(&shares);
        std::iter::once(first)
            .chain(shares.iter().zip(values).map(|(&p, ns)| CdfPoint { p, us: ns as f64 / 1000.0 }))
            .collect()
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
    /// `data`, `translation`, `dtp`: totals and the split by purpose of operations on pages
    /// (and erases of blocks) holding that kind of content; `erased`: on pages holding
    /// nothing (a spare-area scan reaching an unwritten page). The kinds add up to the totals.
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
    /// Peak live pages as a share of all physical pages; 1 minus it is the space a page-
    /// mapped scheme could use as over-provisioning (seed 004 §3's dynamic OP).
    pub device_peak: f64,
}

/// Merge counts of hybrid schemes.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct MergeCounts {
    pub switch: u64,
    pub partial: u64,
    pub full: u64,
}

/// Merge erases of log-block schemes by kind: the three merges, and `empty`, log blocks
/// reclaimed with no live page (erased, nothing copied, no merge event).
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct MergeErases {
    pub switch: u64,
    pub partial: u64,
    pub full: u64,
    pub empty: u64,
}

/// Garbage collection.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct GcMetrics {
    pub runs: u64,
    pub valid_copies: u64,
    pub merges: MergeCounts,
    /// Blocks a unit took from another unit's free blocks because it had none of its own
    /// (`gc.borrow_blocks`): their programs then run on the other unit.
    pub cross_unit_blocks: u64,
    /// Log-block schemes' merge work (`None` for schemes without merges or log blocks).
    pub log_blocks: Option<LogBlockMetrics>,
}

/// Merge work of the log-block schemes: copies and erases by merge kind, how
/// full log blocks were when merged, the association degree of full-merge victims (FAST's
/// A in seed 004 Eq. (3)), NFTL's spare-area scans, and the log area the scheme had.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct LogBlockMetrics {
    pub merge_copies: MergeCounts,
    pub merge_erases: MergeErases,
    /// Log (or replacement) blocks reclaimed.
    pub blocks_merged: u64,
    /// Mean share of a log block's pages written when it was merged (0–1).
    pub utilization_at_merge: f64,
    /// Mean data blocks merged per full-merge victim.
    pub mean_association_degree: f64,
    /// Reads that scanned a replacement block's spare areas (NFTL).
    pub oob_scans: u64,
    /// Pages a merge programmed with nothing to keep so that the next offset could be
    /// programmed in order (NFTL's MLC-safe placement); counted with the merge programs.
    #[serde(skip_serializing_if = "is_zero")]
    pub padding_pages: u64,
    /// Most log blocks in use at once, and that as a share of all blocks: the
    /// over-provisioning the scheme effectively had for updates.
    pub peak_log_blocks: u64,
    pub effective_over_provisioning: f64,
}

fn is_zero(v: &u64) -> bool {
    *v == 0
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

/// The demand-paged family's translation-page traffic: reads and writes of
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
    /// Partly written pages whose old data was read first (`device.read_modify_write`).
    pub pages_rmw_read: u64,
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
    /// Moving metadata pages between SRAM, DRAM and NAND (`metadata.model`).
    pub metadata: f64,
    /// `flash` split by purpose (data, translation, log, buffer, gc, merge): the time GC or
    /// translation took over the run (seed 003's breakdown, RFTL Fig 4.8).
    pub flash_by_purpose: std::collections::BTreeMap<&'static str, f64>,
}

/// Elapsed time in seed 003's four parts (Fig 3, "execution cycles"), µs: the controller's
/// serial work (host transfer, metadata loading, FTL execution) and, for internal user-data
/// transfer, the rest of the time requests took from start to completion (flash work that
/// parallel units overlap counts once, as the seed's Crystal Sequential case describes).
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct TimeBreakdown {
    /// Host (SATA) transfer: `service_time_us.host`.
    pub host_transfer: f64,
    /// Metadata loading: metadata pages moved between SRAM, DRAM and NAND.
    pub metadata_loading: f64,
    /// FTL execution: table accesses and cache management in RAM / SRAM.
    pub ftl_execution: f64,
    /// Internal user-data transfer: elapsed time beyond the other three parts (flash reads,
    /// programs, erases of any purpose, overlapped across units; without parallel units it
    /// is the flash time).
    pub user_data_transfer: f64,
    /// Metadata loading's share of the four parts (0..1; 0 when nothing was charged): the
    /// seed's "portion of FTL metadata loading in the execution cycle".
    pub metadata_share: f64,
}

impl TimeBreakdown {
    /// The four parts from the serial parts of service time and the elapsed `busy` time
    /// (all in ns).
    pub fn of_ns(host: u64, meta: u64, ram: u64, lru: u64, busy: u64) -> Self {
        let us = |ns: u64| ns as f64 / 1000.0;
        let flash = busy.saturating_sub(host + meta + ram + lru);
        let total = host + meta + ram + lru + flash;
        TimeBreakdown {
            host_transfer: us(host),
            metadata_loading: us(meta),
            ftl_execution: us(ram + lru),
            user_data_transfer: us(flash),
            metadata_share: if total == 0 { 0.0 } else { meta as f64 / total as f64 },
        }
    }
}

/// Erase-count spread over blocks: the wear of each block since the device was new, so it
/// includes erases done while pre-filling (unlike `flash.erases`, which counts the run):
/// `mean × blocks = flash.erases + prefill.erases`. A pre-fill placed directly erases nothing.
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
    /// `response_us` as a CDF at fixed shares ([`CdfPoint::of`]).
    pub response_cdf_us: Vec<CdfPoint>,
    /// `response_us` of read and of write requests apart.
    pub response_by_op_us: ResponseByOp,
    pub service_time_us: ServiceTime,
    /// `service_time_us` in seed 003's four parts.
    pub time_breakdown_us: TimeBreakdown,
    /// The metadata placement model's levels (`metadata.model`; absent for `flat`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub metadata: Option<crate::meta::MetaSummary>,
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
    /// What the pre-fill did before request 0.
    pub prefill: crate::sim::PrefillSummary,
    /// The run sampled over the trace: at most [`crate::series::MAX_POINTS`] windows.
    pub series: Vec<crate::series::SeriesPoint>,
    /// Caching groups at the end (schemes that group their RAM: TreeFTL, Tree-PL).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub caching_groups: Option<GroupMetrics>,
}

/// Caching groups (a cached translation page and its cached data pages) at one moment: how
/// many, and how many data pages each holds (CG count and size distribution).
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct GroupMetrics {
    /// Groups in RAM.
    pub count: u64,
    /// Groups holding at least one data page.
    pub with_data: u64,
    /// Data pages per group: mean and largest.
    pub mean_pages: f64,
    pub max_pages: u64,
    /// Groups by data pages held, in power-of-two buckets: `[lo, groups]` for `lo` = 0, 1,
    /// 2, 4, 8 … (a bucket holds sizes `lo` to `2 lo - 1`; the 0 bucket, bare translation
    /// pages). Empty buckets are left out.
    pub histogram: Vec<[u64; 2]>,
}

impl GroupMetrics {
    /// The metrics of groups holding `sizes` data pages each.
    pub fn of(sizes: &[u32]) -> Self {
        let mut buckets = std::collections::BTreeMap::<u64, u64>::new();
        for &n in sizes {
            let lo = if n == 0 { 0 } else { 1u64 << n.ilog2() };
            *buckets.entry(lo).or_default() += 1;
        }
        let total: u64 = sizes.iter().map(|&n| u64::from(n)).sum();
        GroupMetrics {
            count: sizes.len() as u64,
            with_data: sizes.iter().filter(|&&n| n > 0).count() as u64,
            mean_pages: if sizes.is_empty() { 0.0 } else { total as f64 / sizes.len() as f64 },
            max_pages: sizes.iter().copied().max().map_or(0, u64::from),
            histogram: buckets.into_iter().map(|(lo, n)| [lo, n]).collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn group_sizes_fall_in_power_of_two_buckets() {
        let g = super::GroupMetrics::of(&[0, 1, 3, 2, 9, 0]);
        assert_eq!((g.count, g.with_data, g.max_pages), (6, 4, 9));
        assert!((g.mean_pages - 15.0 / 6.0).abs() < 1e-12);
        assert_eq!(g.histogram, vec![[0, 2], [1, 1], [2, 2], [8, 1]]);
        assert_eq!(super::GroupMetrics::of(&[]).histogram, Vec::<[u64; 2]>::new());
    }

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
    fn cdf_is_the_quantiles_at_fixed_shares() {
        let mut h = LatencyHistogram::default();
        assert!(CdfPoint::of(&h).is_empty());
        for v in (1..=5000u64).map(|v| v * v % 7919 * 100) {
            h.record(v);
        }
        let cdf = CdfPoint::of(&h);
        assert_eq!(cdf.len(), 105);
        assert_eq!((cdf[0].p, cdf[0].us), (0.0, h.min_ns() as f64 / 1000.0));
        assert_eq!(cdf.last().map(|c| (c.p, c.us)), Some((1.0, h.max_ns() as f64 / 1000.0)));
        // The one-pass walk gives what asking for each share alone gives.
        for c in &cdf[1..] {
            assert_eq!(c.us, h.quantile_ns(c.p) as f64 / 1000.0, "p = {}", c.p);
        }
        assert!(cdf.windows(2).all(|w| w[0].p < w[1].p && w[0].us <= w[1].us));
        let d = Distribution::of(&h);
        assert_eq!((d.p90, d.p999), (cdf[90].us, cdf[101].us));
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
