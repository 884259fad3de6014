//! Every registered scheme (default options) replays every shipped trace of
//! `public/traces/index.json` (the real ones and the teaching ones) under the integrity
//! oracle, with the invariants and the mapping reconstruction check after each of the first
//! requests and at the end: every shipped trace runs clean.

mod common;

use common::shipped_trace;
use ftl_engine::ftl::SCHEMES;
use ftl_engine::{Sim, SimConfig};

/// Requests checked one by one at the start of each trace (the rest: oracle on every read,
/// full checks at the end), so the debug-build test stays short.
const CHECKED: usize = 1500;

#[test]
fn every_scheme_runs_clean_on_every_shipped_trace() {
    let index: serde_json::Value = serde_json::from_slice(&shipped_trace("index.json")).unwrap();
    let files: Vec<String> =
        index["traces"].as_array().unwrap().iter().map(|t| t["file"].as_str().unwrap().to_string()).collect();
    assert!(files.len() >= 5, "{files:?}");
    for file in &files {
        let bytes = shipped_trace(file);
        for s in SCHEMES {
            let config =
                SimConfig { scheme: s.info.id.into(), options: s.default_options(), ..SimConfig::default() };
            let label = format!("{} on {file}", s.info.id);
            let mut sim =
                Sim::from_bytes(config, &bytes, None, file).unwrap_or_else(|e| panic!("{label}: {e}"));
            sim.set_check_every_step(true);
            sim.step(CHECKED.min(sim.total()))
                .unwrap_or_else(|e| panic!("{label}: request {}: {e}", sim.cursor()));
            sim.set_check_every_step(false);
            while !sim.done() {
                sim.step(5000).unwrap_or_else(|e| panic!("{label}: request {}: {e}", sim.cursor()));
            }
            sim.check_invariants().unwrap_or_else(|e| panic!("{label}: at the end: {e}"));
            assert_eq!(sim.oracle().errors(), 0, "{label}: {:?}", sim.oracle().first_error());
            // The family's counters by cause add up to the reads and writes of pages holding
            // mapping entries: translation pages and HCFTL's DTPs (a DTP merge rewrites STPs,
            // GC copies and batch-updates both kinds, so no cause belongs to one kind only).
            let m = sim.metrics();
            if let Some(tp) = &m.translation_pages {
                let sum = |row: &std::collections::BTreeMap<&str, u64>| row.values().sum::<u64>();
                let kinds = ["translation", "dtp"].map(|k| &m.flash.by_kind[k]);
                assert_eq!(
                    (sum(&tp.reads), sum(&tp.writes)),
                    (kinds[0].page_reads + kinds[1].page_reads, kinds[0].page_writes + kinds[1].page_writes),
                    "{label}"
                );
            }
        }
    }
}
