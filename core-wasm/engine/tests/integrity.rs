//! Every scheme under the integrity oracle and invariant checks after every request: on a
//! shipped real trace and on seeded random read/write/trim sequences on tiny devices.

mod common;

use common::laws::Laws;
use common::{random_trace, shipped_trace};
use ftl_engine::config::{AddressMap, CellType, SimConfig};
use ftl_engine::ftl::SCHEMES;
use ftl_engine::gc::VictimPolicy;
use ftl_engine::{EngineError, Sim};

fn run_checked(mut sim: Sim, label: &str) -> Sim {
    let laws = Laws::start(&sim);
    sim.set_check_every_step(true);
    sim.check_invariants().unwrap_or_else(|e| panic!("{label}: after prefill: {e}"));
    while !sim.done() {
        sim.step(1).unwrap_or_else(|e| panic!("{label}: request {}: {e}", sim.cursor()));
    }
    assert_eq!(sim.oracle().errors(), 0, "{label}: {:?}", sim.oracle().first_error());
    laws.check(&sim, label);
    sim
}

#[test]
fn every_scheme_keeps_every_page_on_the_msr_trace() {
    let bytes = shipped_trace("msr-cambridge_hm_0_first1000.csv");
    for s in SCHEMES {
        for (variant, options) in (s.variants)() {
            let config = SimConfig { scheme: s.info.id.into(), options, ..SimConfig::default() };
            let label = format!("{} ({variant})", s.info.id);
            let sim = Sim::from_bytes(config, &bytes, None, "hm_0").unwrap();
            let sim = run_checked(sim, &label);
            let m = sim.metrics();
            assert_eq!(m.requests.reads + m.requests.writes, 1000);
            assert!(m.gc.runs > 0, "{label}: the default experiment should exercise GC");
            // A write buffer absorbs overwrites in RAM: fewer flash writes than host writes.
            assert!(m.waf >= 1.0 || s.has_data_buffer(), "{label}: WAF {}", m.waf);
            assert_eq!(m.integrity_errors, 0);
        }
    }
}

#[test]
fn every_scheme_survives_random_sequences_on_tiny_devices() {
    // (blocks, pages per block, over-provisioning, reserve)
    // Tiny devices stress GC hardest; demand-based schemes refuse the tiniest (their
    // translation pages and second open block need room), so medium ones are here too.
    let geometries = [
        (8, 4, 0.3, 1),
        (6, 8, 0.4, 1),
        (16, 4, 0.25, 2),
        (10, 16, 0.25, 1),
        (12, 8, 0.2, 1),
        (32, 8, 0.3, 1),
        (24, 16, 0.35, 2),
        (20, 8, 0.5, 1),
        (64, 4, 0.25, 2),
        (40, 8, 0.2, 1),
    ];
    for s in SCHEMES {
        let variants = (s.variants)();
        let (mut ran, mut refused) = (0, 0);
        for (g, &(blocks, ppb, op, reserve)) in geometries.iter().enumerate() {
            // FTL_STRESS_SEEDS=N runs more seeds (a longer hunt for bugs than CI needs).
            let seeds: u64 = std::env::var("FTL_STRESS_SEEDS").ok().and_then(|v| v.parse().ok()).unwrap_or(8);
            for i in 0..seeds {
                let seed = i * 1000 + g as u64;
                let mut config = SimConfig { scheme: s.info.id.into(), ..SimConfig::default() };
                // Every named option variant of the scheme gets some of the seeds.
                let (variant, options) = &variants[(i / 3) as usize % variants.len()];
                config.options = options.clone();
                config.device.blocks = blocks;
                config.device.pages_per_block = ppb;
                config.device.over_provisioning = op;
                config.gc.reserve_blocks = reserve;
                config.workload.address_map = AddressMap::Refuse;
                // Each seed varies what else can go wrong: tiny pages (many translation pages,
                // 4 entries each), a two-entry mapping cache, every victim policy, MLC
                // program order, several units, a pre-filled device.
                if i % 3 == 0 {
                    config.device.page_bytes = 16;
                    config.device.over_provisioning = 0.5; // room for the translation pages
                }
                if i % 2 == 1 {
                    // Just above one 4-byte directory entry per page's worth of mapping
                    // entries: a demand-based scheme is left a two-entry cache, a scheme
                    // that caches whole pages (TreeFTL, APS, JTL) two pages.
                    let per_tpage = u64::from(config.device.entries_per_translation_page());
                    let smallest =
                        if s.has_data_buffer() { 2 * u64::from(config.device.page_bytes) } else { 16 };
                    config.ram.bytes = config.device.logical_pages().div_ceil(per_tpage) * 4 + smallest;
                }
                config.gc.victim = VictimPolicy::ALL[(i / 2) as usize % 3];
                if i % 5 == 1 {
                    config.device.cell = CellType::Mlc;
                }
                if i % 4 == 2 {
                    config.device.channels = 2;
                    config.device.ways = 2;
                    config.device.over_provisioning = config.device.over_provisioning.max(0.4);
                    // Schemes with a map stream of their own need two reserved blocks on
                    // several units (the configuration check refuses one): run them, do not
                    // count them refused.
                    config.gc.reserve_blocks = config.gc.reserve_blocks.max(2);
                    // Half of those place pages statically by logical address (seed 003).
                    if i % 8 == 6 {
                        config.gc.unit_allocation = ftl_engine::gc::UnitAllocation::Static;
                    }
                }
                if i % 7 == 3 {
                    config.device.utilization = 0.5;
                }
                let logical = config.device.logical_pages();
                let requests = (config.device.physical_pages() as usize * 2).max(400);
                let trace = random_trace(seed, requests, logical, config.device.page_bytes);
                let label = format!(
                    "{} geometry {g} seed {seed} ({:?}, {:?}, {}x{} units {:?}, utilization {}, variant {variant})",
                    s.info.id,
                    config.gc.victim,
                    config.device.cell,
                    config.device.channels,
                    config.device.ways,
                    config.gc.unit_allocation,
                    config.device.utilization,
                );
                // A scheme may refuse a device too small for it, but only up front, with a
                // configuration error; once running it must keep every page.
                // A scheme with several RAM structures (HCFTL: CMT, Ghost-CMT, DTP index)
                // cannot live in a two-entry cache: it gets 48 bytes instead, the least it
                // needs, rather than counting as refused.
                let mut roomier = config.clone();
                roomier.ram.bytes += 32;
                let sim = match Sim::new(config, &trace, "random") {
                    Err(EngineError::Config(_)) if i % 2 == 1 => Sim::new(roomier, &trace, "random"),
                    other => other,
                };
                let sim = match sim {
                    Ok(sim) => sim,
                    Err(EngineError::Config(e)) => {
                        if std::env::var_os("FTL_SHOW_REFUSALS").is_some() {
                            eprintln!("{label}: {e}");
                        }
                        refused += 1;
                        continue;
                    }
                    Err(e) => panic!("{label}: {e}"),
                };
                ran += 1;
                let sim = run_checked(sim, &label);
                assert!(sim.device().counters.erases.iter().sum::<u64>() > 0, "{label}: no GC exercised");
            }
        }
        // At least a third of the cases must run, so refusing is never a way to pass.
        assert!(3 * ran >= ran + refused, "{}: ran {ran} cases, refused {refused}", s.info.id);
    }
}

#[test]
fn every_victim_policy_keeps_every_page() {
    let bytes = shipped_trace("msr-cambridge_hm_0_first1000.csv");
    for s in SCHEMES {
        for policy in VictimPolicy::ALL {
            let mut config = SimConfig { scheme: s.info.id.into(), ..SimConfig::default() };
            config.gc.victim = policy;
            let label = format!("{} {}", s.info.id, policy.name());
            let sim = run_checked(Sim::from_bytes(config, &bytes, None, "hm_0").unwrap(), &label);
            assert!(sim.metrics().gc.runs > 0, "{label}");
        }
    }
}
