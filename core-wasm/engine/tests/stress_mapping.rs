//! Random stress with the mapping reconstruction check after every request (issue 10 item 2;
//! review engine-model §4.8): long requests (up to 48 pages, not at most 3), tiny translation
//! pages (8 and 16 entries) at low over-provisioning, several units, and every arrival model.

mod common;

use common::random_requests;
use ftl_engine::config::{AddressMap, SimConfig, TimingMode};
use ftl_engine::ftl::SCHEMES;
use ftl_engine::trace::Trace;
use ftl_engine::Sim;

fn run_checked(config: SimConfig, trace: &Trace, label: &str) {
    let mut sim = Sim::new(config, trace, label).unwrap_or_else(|e| panic!("{label}: {e}"));
    sim.set_check_every_step(true);
    sim.check_invariants().unwrap_or_else(|e| panic!("{label}: after prefill: {e}"));
    while !sim.done() {
        sim.step(1).unwrap_or_else(|e| panic!("{label}: request {}: {e}", sim.cursor()));
    }
    assert_eq!(sim.oracle().errors(), 0, "{label}: {:?}", sim.oracle().first_error());
    assert!(sim.metrics().gc.runs > 0, "{label}: the stress should exercise GC");
}

#[test]
fn every_scheme_keeps_a_reconstructible_map_under_long_requests_and_tiny_translation_pages() {
    // (page bytes, blocks, pages per block, OP, units): 32-byte pages give demand-paged
    // schemes 8 entries per translation page, so translation pages are an eighth of the
    // logical space. Every registered scheme runs with each of its named variants.
    let devices = [(32, 64, 8, 0.2, 1), (64, 64, 8, 0.15, 1), (32, 64, 8, 0.25, 4), (4096, 32, 16, 0.15, 1)];
    let timings = [TimingMode::Trace, TimingMode::Closed, TimingMode::Periodic(20_000)];
    for (i, &(page_bytes, blocks, ppb, op, units)) in devices.iter().enumerate() {
        let cases = SCHEMES.iter().flat_map(|s| (s.variants)().into_iter().map(|(_, o)| (s.info.id, o)));
        for (scheme, options) in cases {
            let mut c = SimConfig { scheme: scheme.into(), options: options.clone(), ..SimConfig::default() };
            c.device.page_bytes = page_bytes;
            c.device.translation_page_entries = 0; // full pages: page_bytes / 4 entries
            c.device.blocks = blocks;
            c.device.pages_per_block = ppb;
            c.device.over_provisioning = op;
            c.device.channels = units;
            c.device.posted_programs = units > 1;
            c.device.utilization = 0.5;
            c.workload.address_map = AddressMap::Modulo;
            c.timing = timings[i % timings.len()];
            let logical = c.device.logical_pages();
            let trace = random_requests(7 + i as u64, 400, logical, page_bytes, 48, 50_000);
            run_checked(c, &trace, &format!("{scheme} {options} on device {i}"));
        }
    }
}
