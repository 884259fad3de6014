//! `ftl sweep` keeps going past a point that fails: the others still run and are printed,
//! the failed one says why, and the exit status says something failed.

use std::path::PathBuf;
use std::process::Command;

use serde_json::Value;

#[test]
fn a_failed_point_keeps_its_error_and_the_others_run() {
    let trace = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../public/traces/msr-cambridge_hm_0_first1000.csv");
    let sweep = |extra: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_ftl"))
            .args(["sweep", "--trace", trace.to_str().unwrap(), "--scheme", "dftl", "--param", "ram.bytes"])
            .args(["--values", "16,64KiB,8"])
            .args(extra)
            .output()
            .expect("ftl runs")
    };
    // 16 and 8 bytes cannot hold DFTL's GTD: those two fail when built, 64 KiB runs.
    let out = sweep(&["--json"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("2 of 3 sweep points failed"), "{stderr}");
    let v: Value = serde_json::from_slice(&out.stdout).expect("the JSON is printed despite the failures");
    let results = v["results"].as_array().unwrap();
    assert_eq!(results.len(), 3);
    for (r, ok) in results.iter().zip([false, true, false]) {
        assert_eq!(r["metrics"].is_object(), ok, "{r}");
        assert_eq!(r["error"].as_str().is_some_and(|e| e.contains("cannot hold DFTL's GTD")), !ok, "{r}");
    }
    assert!(results[1]["metrics"]["waf"].as_f64().is_some_and(|w| w >= 1.0));

    let out = sweep(&[]);
    assert_eq!(out.status.code(), Some(2));
    let table = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = table.lines().collect();
    assert_eq!(lines.len(), 4, "a header and three points:\n{table}");
    assert!(lines[1].contains("failed:") && lines[3].contains("failed:"), "{table}");
    assert!(lines[2].starts_with("64 KiB") && !lines[2].contains("failed"), "{table}");
}

#[test]
fn a_value_the_configuration_refuses_fails_its_point_only() {
    let trace = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../public/traces/msr-cambridge_hm_0_first1000.csv");
    let out = Command::new(env!("CARGO_BIN_EXE_ftl"))
        .args(["sweep", "--trace", trace.to_str().unwrap(), "--scheme", "page", "--param", "blocks"])
        .args(["--values", "64,3,8", "--json"])
        .output()
        .expect("ftl runs");
    assert_eq!(out.status.code(), Some(2));
    let v: Value = serde_json::from_slice(&out.stdout).expect("the JSON is printed despite the refusal");
    let results = v["results"].as_array().unwrap();
    assert_eq!(results.len(), 3);
    assert!(results[0]["metrics"].is_object(), "{}", results[0]);
    let e = results[1]["error"].as_str().unwrap_or_default();
    assert!(e.contains("device.blocks must be at least 4, got 3"), "{e}");
    // 8 blocks of 16 pages at 25 % over-provisioning leave 2 spare blocks: refused as well.
    assert!(results[2]["error"].as_str().is_some_and(|e| e.contains("spare blocks")), "{}", results[2]);
}
