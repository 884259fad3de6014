//! `ftl run --json` reports thesis Table 2.5's counters for `dftl` and the utilization reached.

use std::path::PathBuf;
use std::process::Command;

use serde_json::Value;

#[test]
fn dftl_json_has_table_2_5_counters_and_utilization() {
    let trace = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../public/traces/msr-cambridge_hm_0_first1000.csv");
    let out = Command::new(env!("CARGO_BIN_EXE_ftl"))
        .args(["run", "--trace", trace.to_str().unwrap(), "--scheme", "dftl", "--json"])
        .output()
        .expect("ftl runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let m = &v["results"][0];
    let t = &m["flash"]["table_2_5"];
    for key in ["data_copies", "data_erases", "translation_reads", "translation_writes", "translation_erases"]
    {
        assert!(t[key].as_u64().is_some_and(|n| n > 0), "{key}: {t}");
    }
    assert_eq!(t["translation_writes"], m["flash"]["by_kind"]["translation"]["page_writes"]);
    // Translation-page traffic by cause sums to the translation counters, and a
    // miss costs at most one read in DFTL (none when its translation page was never written).
    let tp = &m["translation_pages"];
    let sum = |row: &Value| row.as_object().unwrap().values().map(|n| n.as_u64().unwrap()).sum::<u64>();
    assert_eq!(sum(&tp["reads"]), t["translation_reads"].as_u64().unwrap(), "{tp}");
    assert_eq!(sum(&tp["writes"]), t["translation_writes"].as_u64().unwrap(), "{tp}");
    assert!(
        tp["reads"]["miss"].as_u64().unwrap() > 0 && tp["writes"]["dirty_eviction"].as_u64().unwrap() > 0
    );
    let per_miss = tp["extra_reads_per_miss"].as_f64().unwrap();
    assert!(per_miss > 0.0 && per_miss <= 1.0, "{per_miss}");
    let u = &m["utilization"];
    assert_eq!(u["logical_pages"], 768);
    let peak = u["peak"].as_f64().unwrap();
    assert!(peak > 0.5 && peak <= 1.0 && u["at_end"].as_f64().unwrap() <= peak, "{u}");
}

/// `--verify` (review engine-model §4.5) checks the state after the run and leaves the
/// metrics as they were.
#[test]
fn verify_checks_the_end_state_without_changing_the_metrics() {
    let trace = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../public/traces/msr-cambridge_hm_0_first1000.csv");
    let run = |extra: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_ftl"))
            .args([
                "run",
                "--trace",
                trace.to_str().unwrap(),
                "--scheme",
                "page",
                "--scheme",
                "dftl",
                "--json",
            ])
            .args(extra)
            .output()
            .expect("ftl runs");
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        serde_json::from_slice::<Value>(&out.stdout).unwrap()
    };
    assert_eq!(run(&["--verify"]), run(&[]));
}
