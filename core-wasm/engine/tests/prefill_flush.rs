//! The pre-fill leaves nothing for the run to write back, placed or (with
//! `workload.warm_up`) served through the request path and flushed; a run can flush before
//! its metrics are taken (review engine-model §5.7, D9).

use ftl_engine::config::SimConfig;
use ftl_engine::trace::HostOp;
use ftl_engine::trace::{Request, Trace};
use ftl_engine::Sim;

#[test]
fn a_read_only_trace_after_a_full_prefill_writes_no_translation_pages() {
    // DFTL, utilization 1, reads only: the pre-fill left the CMT full of dirty entries whose
    // write-backs were billed to the measured reads.
    let requests: Vec<Request> = (0..300u64)
        .map(|i| Request { time_ns: i * 1000, op: HostOp::Read, offset: (i * 37 % 700) * 4096, size: 4096 })
        .collect();
    for warm_up in [false, true] {
        let mut c = SimConfig { scheme: "dftl".into(), ..SimConfig::default() };
        c.device.utilization = 1.0;
        c.workload.warm_up = warm_up;
        let mut sim = Sim::new(c, &Trace { format: "t".into(), requests: requests.clone() }, "t").unwrap();
        sim.step(usize::MAX).unwrap();
        let m = sim.metrics();
        assert!(m.mapping.as_ref().unwrap().misses > 0);
        assert_eq!(m.flash.page_writes, 0, "warm_up {warm_up}: {:?}", m.flash.by_purpose);
        assert_eq!(m.flash.erases, 0);
    }
}

#[test]
fn flush_at_end_leaves_no_dirty_entry_and_counts_its_work() {
    // 50 one-page writes fit DFTL's CMT (95 entries on the default device): all dirty at the end.
    let requests = (0..50u64)
        .map(|i| Request { time_ns: i * 1_000_000, op: HostOp::Write, offset: i * 3 * 4096, size: 4096 })
        .collect();
    let trace = Trace { format: "t".into(), requests };
    let run = |flush: bool| {
        let mut c = SimConfig { scheme: "dftl".into(), ..SimConfig::default() };
        c.workload.flush_at_end = flush;
        let mut sim = Sim::new(c, &trace, "t").unwrap();
        sim.step(usize::MAX).unwrap();
        sim.check_invariants().unwrap();
        let dirty = sim.ftl().map_view().unwrap().ram.iter().filter(|e| e.2).count();
        (sim.metrics(), dirty)
    };
    let (plain, dirty_plain) = run(false);
    let (flushed, dirty_flushed) = run(true);
    assert_eq!((dirty_plain, dirty_flushed), (50, 0));
    let tw = |m: &ftl_engine::Metrics| m.flash.table_2_5.translation_writes;
    // The 50 dirty entries (LPNs 0, 3, ..., 147) live in translation pages 0, 1 and 2 of the
    // teaching device's 64-entry pages: one batched write-back (a 200 µs program) each.
    assert_eq!((tw(&plain), tw(&flushed)), (0, 3));
    assert_eq!(flushed.sim_time_us, plain.sim_time_us + 3.0 * 200.0);
    assert_eq!(flushed.requests, plain.requests);
}
