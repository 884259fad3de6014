//! Trace statistics against values worked out by hand.

use ftl_engine::trace::stats::{summarize, StatsOptions, TraceStats, TraceSummary};
use ftl_engine::trace::HostOp;
use ftl_engine::trace::{parse, Request};

fn req(time_us: u64, op: HostOp, offset: u64, size: u32) -> Request {
    Request { time_ns: time_us * 1000, op, offset, size }
}

/// The hand-worked trace. Per request (4 KiB pages):
///
/// | # | t µs | op | offset | size | pages   | size bucket   | sequential?          |
/// |---|------|----|--------|------|---------|---------------|----------------------|
/// | 1 | 0    | W  | 0      | 4096 | 0       | 4096..8191    | – (first)            |
/// | 2 | 100  | W  | 4096   | 8192 | 1, 2    | 8192..16383   | yes: 0 + 4096        |
/// | 3 | 150  | R  | 0      | 512  | 0       | 512..1023     | no (previous ended 12288) |
/// | 4 | 400  | R  | 512    | 1024 | 0       | 1024..2047    | yes: 0 + 512         |
/// | 5 | 400  | T  | 40960  | 4096 | 10      | 4096..8191    | no (previous ended 1536) |
/// | 6 | 1000 | W  | 45056  | 6000 | 11, 12  | 4096..8191    | yes: 40960 + 4096    |
///
/// Footprint {0,1,2,10,11,12} = 6 pages; sequential 3 of 5; gaps 100, 50, 250, 0, 600 µs.
fn six() -> Vec<Request> {
    vec![
        req(0, HostOp::Write, 0, 4096),
        req(100, HostOp::Write, 4096, 8192),
        req(150, HostOp::Read, 0, 512),
        req(400, HostOp::Read, 512, 1024),
        req(400, HostOp::Trim, 40960, 4096),
        req(1000, HostOp::Write, 45056, 6000),
    ]
}

#[test]
fn six_request_trace_by_hand() {
    let s = summarize(&six());
    assert_eq!(s.requests, 6);
    assert_eq!((s.reads, s.writes, s.trims), (2, 3, 1));
    assert_eq!(s.bytes_read, 512 + 1024);
    assert_eq!(s.bytes_written, 4096 + 8192 + 6000);
    assert_eq!(s.bytes_trimmed, 4096);
    assert_eq!((s.size_min, s.size_max), (512, 8192));
    assert!((s.size_mean - 23920.0 / 6.0).abs() < 1e-9);
    let hist: Vec<(u64, u64, u64)> =
        s.size_histogram.iter().map(|b| (b.min_bytes, b.max_bytes, b.count)).collect();
    assert_eq!(
        hist,
        vec![(512, 1023, 1), (1024, 2047, 1), (2048, 4095, 0), (4096, 8191, 3), (8192, 16383, 1)]
    );
    assert_eq!(s.page_bytes, 4096);
    assert_eq!(s.footprint_pages, 6);
    assert_eq!(s.footprint_bytes, 6 * 4096);
    assert_eq!((s.offset_min, s.offset_max, s.end_max), (0, 45056, 51056));
    assert_eq!(s.sequential_requests, 3);
    assert!((s.sequential_share - 0.6).abs() < 1e-12);
    assert_eq!(s.duration_ns, 1_000_000);
    // Gaps sorted: 0, 50, 100, 250, 600 µs. Nearest rank: p50 = 3rd, p99 = 5th.
    let ia = s.inter_arrival_ns;
    assert_eq!(ia.count, 5);
    assert!((ia.mean - 200_000.0).abs() < 1e-9);
    assert_eq!((ia.p50, ia.p99, ia.max, ia.exact), (100_000, 600_000, 600_000, true));
    assert_eq!(s.out_of_order, 0);
}

#[test]
fn heat_buckets_by_hand() {
    // Span 0..=45056 is 45057 B; 4 buckets of ceil(45057 / 4) = 11265 B. Offsets 0, 4096,
    // 0, 512 fall in bucket 0; 40960 / 11265 = 3.6 and 45056 / 11265 = 3.99 in bucket 3.
    let mut st =
        TraceStats::with_options(StatsOptions { heat_buckets: 4, ..StatsOptions::default() }).unwrap();
    st.add_all(&six());
    let h = st.finish().heat;
    assert_eq!((h.first_offset, h.bucket_bytes), (0, 11265));
    assert_eq!(h.counts, vec![4, 0, 0, 2]);
}

#[test]
fn footprint_unit_is_a_parameter() {
    // 8 KiB pages: #1 {0}, #2 4096..12287 {0,1}, #3 #4 {0}, #5 40960..45055 {5},
    // #6 45056..51055 {5,6}: {0,1,5,6} = 4 pages.
    let mut st =
        TraceStats::with_options(StatsOptions { page_bytes: 8192, ..StatsOptions::default() }).unwrap();
    st.add_all(&six());
    let s = st.finish();
    assert_eq!((s.footprint_pages, s.footprint_bytes, s.page_bytes), (4, 32768, 8192));
    assert!(TraceStats::with_options(StatsOptions { page_bytes: 100, ..StatsOptions::default() }).is_err());
    assert!(TraceStats::with_options(StatsOptions { heat_buckets: 0, ..StatsOptions::default() }).is_err());
    assert!(
        TraceStats::with_options(StatsOptions { heat_buckets: 100_000, ..StatsOptions::default() }).is_err()
    );
}

#[test]
fn chunked_equals_whole_and_parsed_csv_agrees() {
    let whole = summarize(&six());
    let mut st = TraceStats::default();
    for chunk in six().chunks(4) {
        st.add_all(chunk);
    }
    assert_eq!(st.finish(), whole);
    let csv = "op,offset,size,time_us\nW,0,4096,0\nW,4096,8192,100\nR,0,512,150\nR,512,1024,400\nT,40960,4096,400\nW,45056,6000,1000\n";
    let t = parse(csv.as_bytes(), None).unwrap();
    assert_eq!(summarize(&t.requests), whole);
}

#[test]
fn empty_and_single_request_summaries_are_zeros_not_nan() {
    let s = TraceStats::default().finish();
    assert_eq!((s.requests, s.size_min, s.footprint_pages, s.duration_ns), (0, 0, 0, 0));
    assert!(s.heat.counts.is_empty() && s.size_histogram.is_empty());
    assert_eq!(s.sequential_share, 0.0);
    assert_eq!(s.inter_arrival_ns.mean, 0.0);
    serde_json::to_string(&s).unwrap();
    let one = summarize(&[req(5, HostOp::Read, 7, 1)]);
    assert_eq!((one.requests, one.sequential_share, one.inter_arrival_ns.count), (1, 0.0, 0));
    assert_eq!(one.heat.counts, vec![1]);
    assert_eq!(one.size_histogram.len(), 1);
}

#[test]
fn extreme_values_do_not_panic() {
    let rs = [
        Request { time_ns: u64::MAX, op: HostOp::Write, offset: u64::MAX - 10, size: u32::MAX },
        Request { time_ns: 0, op: HostOp::Read, offset: 0, size: 0 },
        Request { time_ns: 5, op: HostOp::Trim, offset: 1 << 63, size: 4096 },
    ];
    let s = summarize(&rs);
    assert_eq!(s.out_of_order, 1);
    assert_eq!(s.heat.counts.iter().sum::<u64>(), 3);
    assert_eq!(s.end_max, u64::MAX);
    assert_eq!(s.size_histogram.first().map(|b| b.min_bytes), Some(1));
}

#[test]
fn many_gaps_switch_to_the_histogram() {
    // 2^20 + 11 requests; every fifth gap pattern is 1000, 1000, 1000, 2000, 2000 ns, so
    // 60 % are 1000 (p50) and the top 40 % 2000 (p99). Both are exact histogram floors.
    let n = (1u64 << 20) + 11;
    let mut st = TraceStats::default();
    let mut t = 0;
    for i in 0..n {
        if i > 0 {
            t += if i % 5 < 3 { 1000 } else { 2000 };
        }
        st.add(&Request { time_ns: t, op: HostOp::Read, offset: (i % 64) * 4096, size: 4096 });
    }
    let ia = st.finish().inter_arrival_ns;
    assert_eq!(ia.count, n - 1);
    assert!(!ia.exact);
    assert_eq!((ia.p50, ia.p99, ia.max), (1000, 2000, 2000));
}

#[test]
fn json_field_names_are_stable() {
    let v = serde_json::to_value(summarize(&six())).unwrap();
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    let mut want = vec![
        "requests",
        "reads",
        "writes",
        "trims",
        "bytes_read",
        "bytes_written",
        "bytes_trimmed",
        "size_min",
        "size_max",
        "size_mean",
        "size_histogram",
        "page_bytes",
        "footprint_pages",
        "footprint_bytes",
        "offset_min",
        "offset_max",
        "end_max",
        "heat",
        "sequential_requests",
        "sequential_share",
        "duration_ns",
        "inter_arrival_ns",
        "out_of_order",
    ];
    let mut got = keys.clone();
    got.sort_unstable();
    want.sort_unstable();
    assert_eq!(got, want);
    assert_eq!(v["inter_arrival_ns"]["p50"], 100_000);
    assert_eq!(v["heat"]["counts"].as_array().map(Vec::len), Some(64));
    assert_eq!(v["size_histogram"][0]["min_bytes"], 512);
    let _: &TraceSummary = &summarize(&six());
}
