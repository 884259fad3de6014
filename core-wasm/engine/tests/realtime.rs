//! The real-time schemes on the thesis' real-time device (seed 002 Ch.4): RFTL's best and
//! worst response times of Table 4.4 measured on a stand-in trace, replayed as the thesis
//! does (one 2 KB page per request, one request per period L(p)).

use ftl_engine::config::{SimConfig, TimingMode};
use ftl_engine::trace::generate::standins::StandIn;
use ftl_engine::trace::generate::{generate, SizeDist};
use ftl_engine::{presets, Sim};

/// `thesis-rftl`'s timings on 600 blocks of 32 pages with 2/3 over-provisioning, so each
/// logical block keeps its three blocks (Lemma 4.3.2); every logical page written first
/// ("100 %" utilization, and every sub-table on flash).
fn realtime_config(scheme: &str) -> SimConfig {
    let mut c = presets::config("thesis-rftl").unwrap();
    c.scheme = scheme.into();
    (c.device.blocks, c.device.over_provisioning, c.device.utilization) = (600, 0.67, 1.0);
    c.timing = TimingMode::Periodic(2_325_000);
    c
}

fn multimedia(count: u64, seed: u64) -> ftl_engine::trace::Trace {
    let mut p = StandIn::Multimedia.params(count, seed);
    p.sizes = SizeDist::Fixed(2048);
    p.address_space = 12 << 20;
    generate(p).unwrap()
}

/// Table 4.4: reads 50 / 50 µs, writes 325 / 2,325 µs, whatever the trace; the worst case
/// is reached (collections ran) and never passed.
#[test]
fn rftl_best_and_worst_cases_of_table_4_4() {
    let mut c = realtime_config("rftl");
    c.options = serde_json::json!({"reserve": "checked"});
    let mut sim = Sim::new(c, &multimedia(30_000, 7), "multimedia stand-in").unwrap();
    sim.set_check_every_step(false);
    while !sim.done() {
        sim.step(5_000).unwrap();
    }
    sim.check_invariants().unwrap();
    let m = sim.metrics();
    assert!(m.gc.runs > 100, "collections ran: {}", m.gc.runs);
    let (r, w) = (&m.response_by_op_us.read, &m.response_by_op_us.write);
    assert_eq!((r.min, r.max), (50.0, 50.0));
    assert_eq!((w.min, w.max), (325.0, 2325.0));
    assert_eq!(m.integrity_errors, 0);
}

/// Table 4.2's GFTL bound, L(p) = T_er + T_rdpg + π·T_rdoob (2,825 µs at π = 32), holds for
/// GFTL with the Ch.4 buffer on the same stream, and it is above RFTL's; NFTL, with whole
/// merges, passes both.
#[test]
fn gftl_stays_within_its_table_4_2_bound_and_nftl_does_not() {
    let b = ftl_engine::ftl::rftl::Bounds::of(
        &presets::config("thesis-rftl").unwrap().device.latency,
        32,
        ftl_engine::ftl::rftl::StepCount::Packed,
    );
    assert_eq!((b.gftl_period_ns, b.period_ns), (2_825_000, 2_325_000));
    let trace = multimedia(30_000, 7);
    let worst = |scheme: &str, options: serde_json::Value| {
        let mut c = realtime_config(scheme);
        c.options = options;
        c.timing = TimingMode::Closed;
        let mut sim = Sim::new(c, &trace, "multimedia stand-in").unwrap();
        while !sim.done() {
            sim.step(5_000).unwrap();
        }
        sim.check_invariants().unwrap();
        let m = sim.metrics();
        assert!(m.gc.runs > 0, "{scheme}");
        (m.response_us.max * 1000.0) as u64
    };
    let gftl = worst("gftl", serde_json::json!({"buffer_percent": 100}));
    assert!(gftl <= b.gftl_period_ns && gftl > b.period_ns, "GFTL worst {gftl} ns");
    let nftl = worst("nftl", serde_json::json!({}));
    assert!(nftl > b.gftl_period_ns, "NFTL worst {nftl} ns");
}
