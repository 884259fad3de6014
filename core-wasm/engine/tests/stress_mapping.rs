//! Random stress with the mapping reconstruction check after every request (review
//! engine-model §4.8): long requests (up to 48 pages, not at most 3), tiny translation
//! pages (8 and 16 entries) at low over-provisioning, several units, and every arrival model.

mod common;

use common::laws::Laws;
use common::random_requests;
use ftl_engine::config::{AddressMap, SimConfig, TimingMode};
use ftl_engine::ftl::SCHEMES;
use ftl_engine::trace::HostOp;
use ftl_engine::trace::{Request, Trace};
use ftl_engine::Sim;

fn run_checked(config: SimConfig, trace: &Trace, label: &str) {
    let mut sim = build(config, trace, label);
    let laws = Laws::start(&sim);
    sim.set_check_every_step(true);
    sim.check_invariants().unwrap_or_else(|e| panic!("{label}: after prefill: {e}"));
    while !sim.done() {
        sim.step(1).unwrap_or_else(|e| panic!("{label}: request {}: {e}", sim.cursor()));
    }
    assert_eq!(sim.oracle().errors(), 0, "{label}: {:?}", sim.oracle().first_error());
    assert!(sim.metrics().gc.runs > 0, "{label}: the stress should exercise GC");
    laws.check(&sim, label);
}

/// The simulation of `config`, or — for a scheme that refuses a device with this little spare
/// room at build time (HCFTL needs a third open block for its DTPs, and on several units a
/// block of garbage room per extra unit) — of the same device with the next over-provisioning
/// step it accepts. Only a refusal at build time moves the step: an error while running is a
/// failure.
fn build(mut config: SimConfig, trace: &Trace, label: &str) -> Sim {
    loop {
        match Sim::new(config.clone(), trace, label) {
            Ok(sim) => return sim,
            Err(e) if config.device.over_provisioning < 0.35 => {
                eprintln!("{label}: refused at OP {} ({e}); trying more", config.device.over_provisioning);
                config.device.over_provisioning += 0.025;
            }
            Err(e) => panic!("{label}: {e}"),
        }
    }
}

#[test]
fn every_scheme_keeps_a_reconstructible_map_under_long_requests_and_tiny_translation_pages() {
    // (page bytes, blocks, pages per block, OP, units): 32-byte pages give demand-paged
    // schemes 8 entries per translation page, so translation pages are an eighth of the
    // logical space. Every registered scheme runs with each of its named variants; a scheme
    // that refuses 15 % over-provisioning at build time gets the next step it accepts.
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

/// Review engine-model §1.2 risk / §5.11: nothing argued that DFTL's greedy GC makes progress
/// with many tiny translation pages at low over-provisioning (a greedy data victim with V
/// valid pages spans about V translation pages, so a collection may free less than it
/// writes). The review's case: 16-byte pages (4 entries a translation page), 64 blocks of
/// 8 pages, OP just above what the constructor accepts, a full pre-fill, a one-entry CMT and
/// uniform single-page random writes.
#[test]
fn dftl_greedy_gc_makes_progress_with_tiny_translation_pages_at_minimum_over_provisioning() {
    let build = |op: f64| {
        let mut c = SimConfig { scheme: "dftl".into(), ..SimConfig::default() };
        c.device.page_bytes = 16;
        c.device.translation_page_entries = 0;
        c.device.blocks = 64;
        c.device.pages_per_block = 8;
        c.device.over_provisioning = op;
        c.device.utilization = 1.0;
        let logical = c.device.logical_pages();
        c.ram.bytes = logical.div_ceil(4) * 4 + 8; // the GTD and one CMT entry
        c.timing = TimingMode::Closed;
        c.workload.address_map = AddressMap::Modulo;
        let mut x = 12345u64;
        let requests = (0..3000)
            .map(|_| {
                x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                let lpn = (x >> 33) % logical;
                Request { time_ns: 0, op: HostOp::Write, offset: lpn * 16, size: 16 }
            })
            .collect();
        (c, Trace { format: "t".into(), requests })
    };
    let op = (20..60).map(|p| p as f64 / 100.0).find(|&op| {
        let (c, t) = build(op);
        Sim::new(c, &t, "probe").is_ok()
    });
    let op = op.expect("some over-provisioning is accepted") + 0.01;
    let (c, t) = build(op);
    run_checked(c, &t, &format!("dftl, OP {op:.2}, 16-byte pages"));
}
