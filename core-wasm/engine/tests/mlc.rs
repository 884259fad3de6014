//! MLC program order (thesis, seed 002, §1.1.1 and Ch.3): on an MLC device every scheme
//! either runs a real trace clean under the integrity checks, or refuses at build time
//! naming MLC; none fails mid-run on an out-of-order program.

mod common;

use common::shipped_trace;
use ftl_engine::config::CellType;
use ftl_engine::ftl::SCHEMES;
use ftl_engine::{presets, EngineError, Sim};

#[test]
fn every_scheme_runs_clean_on_mlc_or_refuses_at_build_time() {
    let bytes = shipped_trace("msr-cambridge_hm_0_first1000.csv");
    let (mut ran, mut refused) = (Vec::new(), Vec::new());
    for s in SCHEMES {
        // The thesis' MLC timings on the default experiment's small device.
        let mut config = ftl_engine::SimConfig { scheme: s.info.id.into(), ..Default::default() };
        let mlc = presets::config("thesis-mnftl").unwrap().device;
        (config.device.cell, config.device.latency) = (CellType::Mlc, mlc.latency);
        match Sim::from_bytes(config, &bytes, None, "hm_0") {
            Err(EngineError::Config(e)) => {
                assert!(e.contains("MLC"), "{}: refused without naming MLC: {e}", s.info.id);
                refused.push(s.info.id);
            }
            Err(e) => panic!("{}: {e}", s.info.id),
            Ok(mut sim) => {
                sim.set_check_every_step(true);
                while !sim.done() {
                    sim.step(1)
                        .unwrap_or_else(|e| panic!("{} on MLC, request {}: {e}", s.info.id, sim.cursor()));
                }
                assert_eq!(sim.oracle().errors(), 0, "{}", s.info.id);
                ran.push(s.info.id);
            }
        }
    }
    // The thesis: page-level FTLs and DFTL run on MLC unchanged, MNFTL is built for it, RFTL
    // programs in order; NFTL runs with its in-order placement (its default on MLC); schemes
    // placing pages at block offsets (block mapping) do not.
    for id in ["page", "dftl", "mnftl", "rftl", "nftl"] {
        assert!(ran.contains(&id), "{id} should run on MLC (ran: {ran:?})");
    }
    assert!(refused.contains(&"block"), "block should refuse MLC (refused: {refused:?})");
}
