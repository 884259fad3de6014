//! Golden state hashes: the engine's state after fixed numbers of requests of a shipped
//! trace. The same file is checked against the wasm build by Vitest
//! (web/src/engine/hash.test.ts), so native and wasm must agree bit for bit.
//!
//! Regenerate after an intended engine change with `UPDATE_GOLDEN=1 cargo test`; a mismatch
//! writes `hashes.changed.json` next to the golden file for review, and a missing file fails.

mod common;

use common::shipped_trace;
use ftl_engine::{Sim, SimConfig};
use serde_json::{json, Value};

const TRACE: &str = "msr-cambridge_hm_0_first1000.csv";
const STEPS: [usize; 6] = [0, 1, 10, 100, 500, 1000];

fn golden_path(name: &str) -> String {
    format!("{}/tests/golden/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// Every scheme's hashes, pre-filled as `warm_up` says.
fn compute(warm_up: bool) -> Value {
    let bytes = shipped_trace(TRACE);
    let cases: Vec<Value> = ftl_engine::ftl::SCHEMES
        .iter()
        .map(|s| {
            let mut config =
                SimConfig { scheme: s.info.id.into(), options: s.default_options(), ..SimConfig::default() };
            config.workload.warm_up = warm_up;
            let mut sim = Sim::from_bytes(config.clone(), &bytes, None, TRACE).unwrap();
            let hashes: Vec<String> = STEPS
                .iter()
                .map(|&n| {
                    sim.step(n - sim.cursor()).unwrap();
                    format!("{:016x}", sim.state_hash())
                })
                .collect();
            json!({ "config": config, "hashes": hashes })
        })
        .collect();
    json!({ "trace": TRACE, "steps": STEPS, "cases": cases })
}

#[test]
fn state_hashes_match_the_golden_file() {
    check(compute(false), &golden_path("hashes.json"));
}

/// The warm-up pre-fill goes through each scheme's request path, as every pre-fill did before
/// the placed one: its hashes are the ones the engine had then.
#[test]
fn warm_up_state_hashes_match_their_golden_file() {
    check(compute(true), &golden_path("hashes-warm-up.json"));
}

fn check(got: Value, path: &str) {
    let text = serde_json::to_string_pretty(&got).unwrap() + "\n";
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(path, text).unwrap();
        return;
    }
    // A missing golden file is a failure, not a fresh start: regenerating is a reviewed act.
    let golden = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{path}: {e} (UPDATE_GOLDEN=1 cargo test writes it)"));
    let want: Value = serde_json::from_str(&golden).unwrap();
    if want != got {
        let changed = path.replace(".json", ".changed.json");
        std::fs::write(&changed, text).unwrap();
        panic!("state hashes differ from {path}; see {changed} (UPDATE_GOLDEN=1 to accept)");
    }
}
