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
//!   buckets over `[offset_min, offset_max]`. While streaming the range is unknown, so counts
//!   go into 8,192 fine buckets (64 KiB) whose width doubles, merging neighbours, whenever
//!   an offset falls outside; `finish` re-bins them. Exact while the span fits the fine
//!   buckets at a width that divides the offsets (e.g. 4 MiB of 512 B-aligned offsets);
//!   beyond that a count can land in the neighbouring output bucket when it lies within
//!   one fine width (under span / 4095) of a boundary.
//! - **Sequentiality**: a request is sequential when its offset equals the previous
//!   request's `offset + size`, whatever the two operations are (the arrival-sequence
//!   sequentiality of the thesis' Table 2.3). The share is over the requests that have a
//!   predecessor, so a fully sequential trace scores exactly 1.
//! - **Duration**: latest minus earliest arrival time.
//! - **Inter-arrival times**: gaps between consecutive requests in file order; a request
//!   that arrives before its predecessor counts as a gap of 0 and in `out_of_order`.
//!   Percentiles are nearest-rank and exact up to 2^20 gaps (8 MiB); after that a fixed
//!   59 KiB log-linear histogram gives them within 1/128 (rounded down).

mod gaps;
mod heat;

use std::collections::HashSet;

use serde::Serialize;

use super::Request;
use crate::trace::HostOp;
use gaps::Gaps;
use heat::{Heat, FINE_BUCKETS};

/// Default footprint unit: 4 KiB pages.
pub const DEFAULT_PAGE_BYTES: u32 = 4096;
/// Default number of heat buckets.
pub const DEFAULT_HEAT_BUCKETS: usize = 64;
/// Largest number of heat buckets (an eighth of the fine buckets, so each output bucket
/// gathers several fine ones and boundary error stays small).
pub const MAX_HEAT_BUCKETS: usize = FINE_BUCKETS / 8;

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
    gaps: Gaps,
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
            gaps: Gaps::default(),
            out_of_order: 0,
        }
    }
}

impl TraceStats {
    /// An accumulator with custom options; errors name the bad option.
    pub fn with_options(options: StatsOptions) -> Result<TraceStats, String> {
        if options.page_bytes < 512 {
            return Err(format!("page size {} B is below the 512 B minimum", options.page_bytes));
        }
        if options.heat_buckets == 0 || options.heat_buckets > MAX_HEAT_BUCKETS {
            return Err(format!(
                "heat buckets must be 1 to {MAX_HEAT_BUCKETS}, not {}",
                options.heat_buckets
            ));
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
            self.gaps.add(r.time_ns.saturating_sub(prev));
        }
        self.prev_time = Some(r.time_ns);
    }

    /// Adds every request of a chunk.
    pub fn add_all<'a>(&mut self, requests: impl IntoIterator<Item = &'a Request>) {
        for r in requests {
            self.add(r);
        }
    }

    /// The summary so far (can be called mid-stream, e.g. for progress displays).
    pub fn finish(&self) -> TraceSummary {
        let n = self.requests;
        let empty = n == 0;
        let first = self.size_hist.iter().position(|&c| c > 0).unwrap_or(0);
        let last = self.size_hist.iter().rposition(|&c| c > 0).map_or(0, |i| i + 1);
        let size_histogram = (first..last)
            .map(|k| SizeBucket {
                min_bytes: 1 << k,
                max_bytes: (1u64 << (k + 1)) - 1,
                count: self.size_hist[k],
            })
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
            inter_arrival_ns: self.gaps.summary(),
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
