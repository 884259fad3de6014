//! Counters by what the page or block holds: thesis Table 2.5's columns and
//! the utilization reached come straight from the metrics.

mod common;

use common::shipped_trace;
use ftl_engine::config::SimConfig;
use ftl_engine::trace::HostOp;
use ftl_engine::trace::{Request, Trace};
use ftl_engine::Sim;

fn run(scheme: &str) -> ftl_engine::Metrics {
    let bytes = shipped_trace("msr-cambridge_hm_0_first1000.csv");
    let config = SimConfig { scheme: scheme.into(), ..SimConfig::default() };
    let mut sim = Sim::from_bytes(config, &bytes, None, "hm_0").unwrap();
    sim.step(usize::MAX).unwrap();
    sim.metrics()
}

#[test]
fn dftl_splits_flash_work_between_data_and_translation_pages() {
    let m = run("dftl");
    let f = &m.flash;
    let (d, t) = (&f.by_kind["data"], &f.by_kind["translation"]);
    // The kinds partition every operation.
    assert_eq!(d.page_reads + t.page_reads, f.page_reads);
    assert_eq!(d.page_writes + t.page_writes, f.page_writes);
    assert_eq!(d.erases + t.erases, f.erases);
    // Table 2.5's columns.
    let tab = &f.table_2_5;
    assert_eq!(tab.translation_writes, t.page_writes);
    assert!(tab.translation_writes > 0 && tab.translation_reads > 0, "{tab:?}");
    assert_eq!(tab.data_copies, d.by_purpose["gc"].page_writes);
    assert!(tab.data_copies > 0 && tab.data_copies <= m.gc.valid_copies, "{tab:?}");
    assert_eq!(tab.data_erases + tab.translation_erases, f.erases);
    // Host data programs are data-kind programs.
    assert_eq!(d.by_purpose["data"].page_writes, m.requests.pages_written);
    // Miss loads and write-backs are translation reads with purpose `translation`.
    assert_eq!(t.by_purpose["translation"].page_reads, f.by_purpose["translation"].page_reads);
}

#[test]
fn page_has_no_translation_traffic() {
    let t = run("page").flash.table_2_5;
    assert_eq!((t.translation_reads, t.translation_writes, t.translation_erases), (0, 0, 0));
    assert!(t.data_copies > 0 && t.data_erases > 0);
}

#[test]
fn utilization_reached_counts_prefill_and_trace_and_trims() {
    let mut c = SimConfig::default();
    c.device.utilization = 0.5; // 384 of 768 logical pages
    c.workload.prefill_read_pages = false;
    let req = |op, page: u64, pages: u64| Request {
        time_ns: 0,
        op,
        offset: page * 4096,
        size: (pages * 4096) as u32,
    };
    // 100 new pages beyond the pre-fill, then trim 200 pre-filled ones.
    let trace =
        Trace { format: "t".into(), requests: vec![req(HostOp::Write, 600, 100), req(HostOp::Trim, 0, 200)] };
    let mut sim = Sim::new(c, &trace, "t").unwrap();
    sim.step(usize::MAX).unwrap();
    let u = sim.metrics().utilization;
    assert_eq!(u.logical_pages, 768);
    assert_eq!(u.peak, 484.0 / 768.0);
    assert_eq!(u.at_end, 284.0 / 768.0);
}
