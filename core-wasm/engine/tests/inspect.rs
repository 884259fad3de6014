//! RAM inspection: what a scheme shows of its RAM after real requests, and that looking
//! never changes the state.

mod common;

use common::shipped_trace;
use ftl_engine::inspect::Structure;
use ftl_engine::sim::StopAt;
use ftl_engine::trace::HostOp;
use ftl_engine::trace::{Request, Trace};
use ftl_engine::{Sim, SimConfig, Timeline};
use serde_json::json;

fn dftl() -> SimConfig {
    SimConfig { scheme: "dftl".into(), ..SimConfig::default() }
}

fn request(op: HostOp, page: u64) -> Request {
    Request { time_ns: 0, op, offset: page * 4096, size: 4096 }
}

fn cmt(sim: &Sim) -> (u64, Vec<ftl_engine::inspect::Entry>) {
    let ins = sim.inspect(64);
    match &ins.structures[0] {
        Structure::List { len, entries, .. } => (*len, entries.clone()),
        other => panic!("first DFTL structure is the CMT list, got {other:?}"),
    }
}

/// A write miss enters the CMT at the MRU end, dirty; a later read miss enters in front of
/// it, clean; a hit moves its entry back to the front.
#[test]
fn dftl_misses_enter_the_cmt_at_the_mru_end_with_their_dirty_bit() {
    let trace = Trace {
        format: "synthetic".into(),
        requests: vec![request(HostOp::Write, 5), request(HostOp::Read, 9), request(HostOp::Read, 5)],
    };
    let mut config = dftl();
    config.workload.prefill_read_pages = false;
    let mut sim = Sim::new(config, &trace, "t").unwrap();
    assert_eq!(cmt(&sim).0, 0, "nothing cached before the first request");
    sim.step(1).unwrap();
    let (len, e) = cmt(&sim);
    assert_eq!(len, 1);
    assert_eq!((e[0].key, e[0].dirty, e[0].touched), (5, true, true));
    assert!(e[0].value.is_some());
    sim.step(1).unwrap();
    let e = cmt(&sim).1;
    assert_eq!((e[0].key, e[0].dirty, e[0].value, e[0].touched), (9, false, None, true));
    assert_eq!((e[1].key, e[1].dirty, e[1].touched), (5, true, false));
    sim.step(1).unwrap();
    let keys: Vec<u32> = cmt(&sim).1.iter().map(|e| e.key).collect();
    assert_eq!(keys, [5, 9], "the hit moved LPN 5 to the front");
}

/// On the shipped trace: after the Timeline stops at a miss, the newest entry is a page of
/// that request, and the GTD lists every translation page.
#[test]
fn dftl_inspection_after_a_jump_to_a_miss_shows_the_request_and_the_gtd() {
    let bytes = shipped_trace("msr-cambridge_hm_0_first1000.csv");
    let sim = Sim::from_bytes(dftl(), &bytes, None, "hm_0").unwrap();
    let mut t = Timeline::new(sim, 100, 8);
    t.step(200).unwrap();
    let (_, found) = t.step_until(StopAt::MappingMiss, 1000).unwrap();
    assert!(found);
    let sim = t.sim();
    let report = sim.last_request();
    let ins = sim.inspect(4);
    let v = serde_json::to_value(&ins).unwrap();
    let cmt = &v["structures"][0];
    assert_eq!(cmt["order"], "lru");
    // Every page of the request went through the CMT, so the newest entry is one of them;
    // a write leaves it dirty.
    assert_eq!(cmt["entries"][0]["touched"], true, "{cmt}");
    if report.op == Some(HostOp::Write) {
        assert_eq!(cmt["entries"][0]["dirty"], true, "{cmt}");
    }
    let shown = cmt["entries"].as_array().unwrap();
    assert!(
        shown.len() >= 4 && shown.iter().skip(4).all(|e| e["touched"] == true),
        "first 4, then touched only"
    );
    assert!(cmt["entries"].as_array().unwrap().iter().all(|e| e["group"].is_u64()));
    let gtd = &v["structures"][1];
    assert_eq!(gtd["shape"], "table");
    // The teaching device's translation pages hold 64 entries: 12 pages for 768 LPNs.
    assert_eq!(gtd["len"], json!(768u64.div_ceil(64)));
    assert!(ins.ram_used <= ins.ram_budget, "{} > {}", ins.ram_used, ins.ram_budget);
    assert_eq!(
        ins.budgets.iter().map(|b| b.bytes).sum::<u64>(),
        sim.ftl().ram_bytes(),
        "the budgets split the RAM"
    );
}

#[test]
fn inspecting_never_changes_the_state_hash() {
    let bytes = shipped_trace("msr-cambridge_hm_0_first1000.csv");
    for scheme in ftl_engine::ftl::SCHEMES.iter().map(|s| s.info.id) {
        let config = SimConfig { scheme: scheme.into(), ..SimConfig::default() };
        let mut sim = Sim::from_bytes(config, &bytes, None, "hm_0").unwrap();
        sim.step(300).unwrap();
        let before = sim.state_hash();
        let a = sim.inspect(8);
        let b = sim.inspect(1_000_000);
        assert_eq!(sim.state_hash(), before, "{scheme}");
        assert!(!a.structures.is_empty() && !b.structures.is_empty());
        let json = serde_json::to_value(&b).unwrap();
        assert_eq!(json["structures"][0]["truncated"], false, "{scheme}: a large limit shows everything");
    }
}
