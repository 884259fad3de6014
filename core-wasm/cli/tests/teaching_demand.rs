//! The demand-paged family on the teaching device: `teaching/overwrite.csv` with
//! the hand-worked figures of `public/traces/teaching/README.md` ("Demand-paged schemes").
//! The teaching device's 64-entry translation pages put LPNs 0-4 in translation page 0.

use std::path::PathBuf;
use std::process::Command;

use serde_json::Value;

fn run(scheme: &str, sets: &[&str]) -> Value {
    let trace = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../public/traces/teaching/overwrite.csv");
    let mut args = vec!["run", "--trace", trace.to_str().unwrap(), "--scheme", scheme, "--json"];
    for s in sets {
        args.extend(["--set", s]);
    }
    let out = Command::new(env!("CARGO_BIN_EXE_ftl")).args(&args).output().expect("ftl runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    v["results"][0].clone()
}

/// `[hits, misses, translation reads on misses, on evictions, translation writes on
/// evictions, page programs]`.
fn figures(m: &Value) -> [u64; 6] {
    let tp = &m["translation_pages"];
    let n = |v: &Value| v.as_u64().unwrap();
    [
        n(&m["mapping"]["hits"]),
        n(&m["mapping"]["misses"]),
        n(&tp["reads"]["miss"]),
        n(&tp["reads"]["dirty_eviction"]),
        n(&tp["writes"]["dirty_eviction"]),
        n(&m["flash"]["page_writes"]),
    ]
}

#[test]
fn overwrite_on_the_teaching_device_matches_the_hand_worked_figures() {
    // DFTL, a two-entry CMT (64 bytes = 12 GTD entries + 2 x 8): 16 look-ups, 10 misses, 7
    // of them after translation page 0 exists (one read each); 7 dirty victims, the first
    // written without a read.
    let dftl = run("dftl", &["ram.bytes=64"]);
    assert_eq!(figures(&dftl), [6, 10, 7, 6, 7, 17]);
    assert_eq!(dftl["waf"], 1.7);
    // CDFTL with the rest of the RAM as one cached translation page and two CMT entries:
    // the first miss caches page 0 (never written: no read); every later look-up hits one
    // level or the other, and dirty victims are absorbed by the cached page.
    let cdftl = run("cdftl", &["ram.bytes=324", "options.level_two_percent=100"]);
    assert_eq!(figures(&cdftl), [15, 1, 0, 0, 0, 10]);
    // TPFTL, one node and two entries (68 bytes): batch write-backs clean the node, so 4
    // translation writes instead of DFTL's 7.
    let tpftl = run("tpftl", &["ram.bytes=68"]);
    assert_eq!(figures(&tpftl), [6, 10, 8, 3, 4, 14]);
}
