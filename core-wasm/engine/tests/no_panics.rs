//! Configurations and traces built through the public API are errors, never panics (review
//! engine-model §5.1 and §5.10, issue 10 item 7).

use ftl_engine::config::SimConfig;
use ftl_engine::events::HostOp;
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
