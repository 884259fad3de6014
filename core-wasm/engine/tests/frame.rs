//! The frame's counters are read directly (not through `Sim::metrics`, which is too costly
//! per animation frame): they must still agree with the metrics report.

mod common;

use common::shipped_trace;
use ftl_engine::{Frame, Sim, SimConfig, COUNTER_NAMES};

#[test]
fn frame_counters_agree_with_the_metrics_report() {
    let bytes = shipped_trace("msr-cambridge_hm_0_first1000.csv");
    for scheme in ftl_engine::ftl::SCHEMES.iter().map(|s| s.info.id) {
        let mut sim =
            Sim::from_bytes(SimConfig { scheme: scheme.into(), ..SimConfig::default() }, &bytes, None, "t")
                .unwrap();
        for n in [0, 1, 250, 749] {
            sim.step(n).unwrap();
            let f = Frame::capture(&sim);
            let m = sim.metrics();
            let c = |name: &str| f.counters[COUNTER_NAMES.iter().position(|n| *n == name).unwrap()];
            assert_eq!(c("requests_done"), m.requests_done as f64);
            assert_eq!(c("reads"), m.requests.reads as f64);
            assert_eq!(c("writes"), m.requests.writes as f64);
            assert_eq!(c("pages_written"), m.requests.pages_written as f64);
            assert_eq!(c("flash_page_writes"), m.flash.page_writes as f64);
            assert_eq!(c("flash_erases"), m.flash.erases as f64);
            assert_eq!(c("gc_runs"), m.gc.runs as f64);
            assert_eq!(c("gc_valid_copies"), m.gc.valid_copies as f64);
            assert_eq!(c("waf"), m.waf);
            assert_eq!(c("integrity_errors"), m.integrity_errors as f64);
            assert_eq!(c("sim_time_us"), m.sim_time_us);
            assert_eq!(c("response_mean_us"), m.response_us.mean);
            assert_eq!(c("ram_bytes"), m.ram_bytes as f64);
        }
        assert!(sim.metrics().gc.runs > 0, "{scheme}: the check covers GC counters too");
    }
}
