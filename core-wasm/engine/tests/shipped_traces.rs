//! Every registered scheme (default options) replays every shipped trace of
//! `public/traces/index.json` (the real ones and the teaching ones) under the integrity
//! oracle, with the invariants and the mapping reconstruction check after each of the first
//! requests and at the end (issue 11 done-when: "runs clean ... on every shipped trace").

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
            // The family's counters by cause add up to the translation-page counters (DTP
            // causes count pages of their own kind).
            let m = sim.metrics();
            if let Some(tp) = &m.translation_pages {
                let sum = |row: &std::collections::BTreeMap<&str, u64>| {
                    row.iter().filter(|(k, _)| !k.starts_with("dtp")).map(|(_, v)| v).sum::<u64>()
                };
                let t = &m.flash.table_2_5;
                assert_eq!(
                    (sum(&tp.reads), sum(&tp.writes)),
                    (t.translation_reads, t.translation_writes),
                    "{label}"
                );
            }
        }
    }
}
