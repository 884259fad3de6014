//! Every scheme under the integrity oracle and invariant checks after every request: on a
//! shipped real trace and on seeded random read/write/trim sequences on tiny devices.

mod common;

use common::{random_trace, shipped_trace};
use ftl_engine::config::{AddressMap, SimConfig};
use ftl_engine::ftl::SCHEMES;
use ftl_engine::Sim;

fn run_checked(mut sim: Sim, label: &str) -> Sim {
    sim.set_check_every_step(true);
    sim.check_invariants().unwrap_or_else(|e| panic!("{label}: after prefill: {e}"));
    while !sim.done() {
        sim.step(1).unwrap_or_else(|e| panic!("{label}: request {}: {e}", sim.cursor()));
    }
    assert_eq!(sim.oracle().errors(), 0, "{label}: {:?}", sim.oracle().first_error());
    sim
}

#[test]
fn every_scheme_keeps_every_page_on_the_msr_trace() {
    let bytes = shipped_trace("msr-cambridge_hm_0_first1000.csv");
    for s in SCHEMES {
        let config = SimConfig { scheme: s.id.into(), ..SimConfig::default() };
        let sim = Sim::from_bytes(config, &bytes, None, "hm_0").unwrap();
        let sim = run_checked(sim, s.id);
        let m = sim.metrics();
        assert_eq!(m.requests.reads + m.requests.writes, 1000);
        assert!(m.gc.runs > 0, "{}: the default experiment should exercise GC", s.id);
        assert!(m.waf >= 1.0);
        assert_eq!(m.integrity_errors, 0);
    }
}

#[test]
fn every_scheme_survives_random_sequences_on_tiny_devices() {
    // (blocks, pages per block, over-provisioning, reserve)
    let geometries = [(8, 4, 0.3, 1), (6, 8, 0.4, 1), (16, 4, 0.25, 2), (10, 16, 0.25, 1)];
    for s in SCHEMES {
        for (g, &(blocks, ppb, op, reserve)) in geometries.iter().enumerate() {
            for seed in 0..8u64 {
                let seed = seed * 1000 + g as u64;
                let mut config = SimConfig { scheme: s.id.into(), ..SimConfig::default() };
                config.device.blocks = blocks;
                config.device.pages_per_block = ppb;
                config.device.over_provisioning = op;
                config.gc.reserve_blocks = reserve;
                config.workload.address_map = AddressMap::Refuse;
                let logical = config.device.logical_pages();
                let trace = random_trace(seed, 400, logical, config.device.page_bytes);
                let label = format!("{} geometry {g} seed {seed}", s.id);
                let sim = Sim::new(config, &trace, "random").unwrap_or_else(|e| panic!("{label}: {e}"));
                let sim = run_checked(sim, &label);
                assert!(sim.device().counters.erases.iter().sum::<u64>() > 0, "{label}: no GC exercised");
            }
        }
    }
}

#[test]
fn every_victim_policy_keeps_every_page() {
    use ftl_engine::gc::VictimPolicy;
    let bytes = shipped_trace("msr-cambridge_hm_0_first1000.csv");
    for s in SCHEMES {
        for policy in VictimPolicy::ALL {
            let mut config = SimConfig { scheme: s.id.into(), ..SimConfig::default() };
            config.gc.victim = policy;
            let label = format!("{} {}", s.id, policy.name());
            let sim = run_checked(Sim::from_bytes(config, &bytes, None, "hm_0").unwrap(), &label);
            assert!(sim.metrics().gc.runs > 0, "{label}");
        }
    }
}
