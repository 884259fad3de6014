//! Configurations and traces built through the public API are errors, never panics (review
//! engine-model §5.1 and §5.10).

use ftl_engine::config::SimConfig;
use ftl_engine::trace::HostOp;
use ftl_engine::trace::{Request, Trace};
use ftl_engine::Sim;

fn trace(requests: Vec<Request>) -> Trace {
    Trace { format: "test".into(), requests }
}

fn write(offset: u64, size: u32) -> Request {
    Request { time_ns: 0, op: HostOp::Write, offset, size }
}

#[test]
fn a_device_without_logical_pages_is_refused_when_built() {
    // 4 blocks x 2 pages at 90 % OP: floor(8 x 0.1) = 0 logical pages. Used to pass
    // validation and then divide by zero in the modulo address map.
    let config =
        SimConfig::from_json(r#"{"device":{"blocks":4,"pages_per_block":2,"over_provisioning":0.9}}"#)
            .unwrap();
    let e = Sim::new(config, &trace(vec![write(0, 4096)]), "t").unwrap_err().to_string();
    assert!(e.contains("no logical pages"), "{e}");
}

#[test]
fn zero_size_requests_through_the_api_are_errors() {
    let e = Sim::new(SimConfig::default(), &trace(vec![write(0, 4096), write(4096, 0)]), "t")
        .unwrap_err()
        .to_string();
    assert!(e.contains("request 2 has size 0"), "{e}");
}

/// Review engine-model §3(b): the configuration's spare-block rule assumes page-style GC.
/// Each block-mapped scheme adds its own (logical blocks rounded up to whole blocks, plus its
/// spare blocks): over an over-provisioning sweep on a small device, every configuration is
/// either refused with an error or runs random writes to its whole logical space with the
/// checks on, never a panic or a device-full error.
#[test]
fn block_mapped_schemes_accept_only_devices_they_can_run() {
    for scheme in ["block", "bast", "sbast", "fast", "fast-do", "nftl"] {
        let mut accepted = 0;
        for op in (0..40).map(|p| p as f64 / 100.0) {
            let mut config = SimConfig { scheme: scheme.into(), ..SimConfig::default() };
            config.device.blocks = 16;
            config.device.pages_per_block = 4;
            config.device.over_provisioning = op;
            config.device.utilization = 1.0;
            let logical = config.device.logical_pages().max(1);
            let requests = (0..300u64).map(|i| write((i * 37 % logical) * 4096, 4096)).collect();
            let Ok(mut sim) = Sim::new(config, &trace(requests), "t") else { continue };
            accepted += 1;
            sim.set_check_every_step(true);
            sim.step(usize::MAX).unwrap_or_else(|e| panic!("{scheme} at OP {op}: {e}"));
        }
        assert!(accepted > 0, "{scheme}: some over-provisioning below 40 % must be accepted");
    }
}
