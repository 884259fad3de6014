//! `metrics.series`: the run sampled over the trace at a bounded number of
//! windows. Each point must describe its own window and the state at its end, whatever steps
//! the run was served in.

mod common;

use common::shipped_trace;
use ftl_engine::ftl::SCHEMES;
use ftl_engine::series::{window_for, MAX_POINTS};
use ftl_engine::{Sim, SimConfig};

const TRACE: &str = "msr-cambridge_hm_0_first1000.csv";

fn sim(scheme: &str) -> Sim {
    let spec = SCHEMES.iter().find(|s| s.info.id == scheme).unwrap();
    let config = SimConfig { scheme: scheme.into(), options: spec.default_options(), ..SimConfig::default() };
    Sim::from_bytes(config, &shipped_trace(TRACE), None, TRACE).unwrap()
}

#[test]
fn points_summarise_their_windows_and_the_state_at_their_end() {
    for s in SCHEMES {
        let id = s.info.id;
        let mut sim = sim(id);
        let window = window_for(sim.total() as u64) as usize;
        // Step exactly to each window's end and read the state there by hand.
        let mut expected = Vec::new();
        let mut prev_sum_us = 0.0;
        while !sim.done() {
            let mut max_us: f64 = 0.0;
            let n = window.min(sim.total() - sim.cursor());
            for _ in 0..n {
                sim.step(1).unwrap();
                max_us = max_us.max(sim.last_response_ns() as f64 / 1000.0);
            }
            let m = sim.metrics();
            let sum_us = m.response_us.mean * m.requests_done as f64;
            let mean_us = (sum_us - prev_sum_us) / n as f64;
            prev_sum_us = sum_us;
            let ram_then = sim.ftl().ram_bytes();
            expected.push((
                sim.cursor() as u64,
                max_us,
                mean_us,
                sim.erased_blocks(),
                sim.ftl().ram_split(),
                ram_then,
            ));
        }
        let m = sim.metrics();
        assert!(m.series.len() as u64 <= MAX_POINTS, "{id}");
        assert_eq!(m.series.len(), expected.len(), "{id}");
        for (p, (done, max_us, mean_us, free, ram, ram_then)) in m.series.iter().zip(&expected) {
            assert_eq!(p.requests_done, *done, "{id}");
            assert_eq!(p.max_response_us, *max_us, "{id} at {done}");
            assert!((p.mean_response_us - mean_us).abs() < 1e-6 * mean_us.max(1.0), "{id} at {done}");
            assert_eq!(p.free_blocks, *free, "{id} at {done}");
            assert_eq!(p.ram, *ram, "{id} at {done}");
            if let Some(r) = p.ram {
                // Against the RAM in use then: a buffering scheme's RAM shrinks too.
                assert!(r.mapping_bytes + r.buffer_bytes <= *ram_then, "{id}: {r:?}");
            }
        }
        let last = m.series.last().unwrap();
        assert_eq!(last.requests_done, m.requests_done, "{id}: the last window ends the trace");
        let worst = m.series.iter().map(|p| p.max_response_us).fold(0.0, f64::max);
        assert_eq!(worst, m.response_us.max, "{id}: the worst window holds the worst request");
        assert!(m.series.windows(2).all(|w| w[0].sim_time_us <= w[1].sim_time_us), "{id}");
        assert!(last.sim_time_us <= m.sim_time_us, "{id}");
    }
}

#[test]
fn the_series_does_not_depend_on_step_sizes() {
    for id in ["dftl", "fast"] {
        let mut one = sim(id);
        while !one.done() {
            one.step(1).unwrap();
        }
        let mut big = sim(id);
        while !big.done() {
            big.step(333).unwrap();
        }
        assert_eq!(one.metrics().series, big.metrics().series, "{id}");
        assert_eq!(one.state_hash(), big.state_hash(), "{id}");
    }
}

#[test]
fn demand_caches_report_what_they_hold() {
    // On a device nothing was written to before, DFTL's cache fills as the trace touches
    // pages: its mapping bytes move, and never pass the scheme's RAM.
    let mut config = SimConfig { scheme: "dftl".into(), ..SimConfig::default() };
    config.device.utilization = 0.0;
    config.workload.prefill_read_pages = false;
    let mut s = Sim::from_bytes(config, &shipped_trace(TRACE), None, TRACE).unwrap();
    while !s.done() {
        s.step(1000).unwrap();
    }
    let m = s.metrics();
    let bytes: Vec<u64> = m.series.iter().map(|p| p.ram.unwrap().mapping_bytes).collect();
    assert!(bytes.iter().any(|&b| b != bytes[0]), "{bytes:?}");
    assert!(bytes.iter().all(|&b| b <= m.ram_bytes));
    assert!(m.series.iter().all(|p| p.ram.unwrap().buffer_bytes == 0));
    // Block-mapped schemes do not report a split (yet).
    let mut b = sim("block");
    b.step(10).unwrap();
    assert!(b.metrics().series.iter().all(|p| p.ram.is_none()));
}
