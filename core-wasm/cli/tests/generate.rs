//! `ftl generate`: reproducible CSV that `trace-info` (and every parser) reads back.

mod common;
use common::ftl;

use std::path::{Path, PathBuf};

use serde_json::Value;

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("ftl-generate-{}-{name}", std::process::id()))
}

fn stdout(args: &[&str]) -> String {
    let out = ftl(args);
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

fn info(path: &Path) -> Value {
    let out = ftl(&["trace-info", path.to_str().unwrap(), "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn stdout_is_reproducible_csv() {
    let a = stdout(&["generate", "--kind", "uniform", "--count", "100", "--seed", "5"]);
    assert_eq!(a, stdout(&["generate", "--kind", "uniform", "--count", "100", "--seed", "5"]));
    assert_ne!(a, stdout(&["generate", "--kind", "uniform", "--count", "100", "--seed", "6"]));
    let lines: Vec<&str> = a.lines().collect();
    assert!(lines[0].starts_with("# synthetic uniform"), "{}", lines[0]);
    assert_eq!(lines[2], "op,offset,size,time_us");
    assert_eq!(lines.len(), 3 + 100);
    assert_eq!(lines[3].split(',').nth(3), Some("0"));
}

#[test]
fn out_file_reads_back_with_the_requested_shape() {
    let p = temp("hotcold.csv");
    let ps = p.to_str().unwrap();
    let msg = stdout(&[
        "generate",
        "--kind",
        "hotcold",
        "--count",
        "5000",
        "--seed",
        "3",
        "--out",
        ps,
        "--address-space",
        "16M",
        "--size",
        "4K,8K",
        "--read-share",
        "0.4",
        "--hot-share",
        "0.9",
        "--interarrival-us",
        "50",
    ]);
    assert!(msg.contains("wrote 5000 requests"), "{msg}");
    let v = info(&p);
    assert_eq!((v["format"].as_str(), v["requests"].as_u64()), (Some("csv"), Some(5000)));
    let reads = v["reads"].as_f64().unwrap() / 5000.0;
    assert!((reads - 0.4).abs() < 0.03, "{reads}");
    assert!(v["end_max"].as_u64().unwrap() <= 16 << 20);
    assert_eq!(v["size_histogram"].as_array().unwrap().len(), 2);
    assert_eq!(v["duration_ns"], 4999 * 50_000);
    // Heat: 90 % of the requests in the first 20 % of the space (about 13 of 64 buckets).
    let heat: Vec<u64> =
        v["heat"]["counts"].as_array().unwrap().iter().map(|c| c.as_u64().unwrap()).collect();
    let hot: u64 = heat[..12].iter().sum();
    assert!(hot as f64 / 5000.0 > 0.8, "{heat:?}");
    let _ = std::fs::remove_file(p);
}

#[test]
fn stand_in_matches_its_table_row() {
    // Table 2.3 Trace 3: 11.93 % writes, 99.99 % sequential.
    let p = temp("trace3.csv");
    stdout(&[
        "generate",
        "--kind",
        "trace3",
        "--count",
        "20000",
        "--seed",
        "1",
        "--out",
        p.to_str().unwrap(),
    ]);
    let text = std::fs::read_to_string(&p).unwrap();
    assert!(text.starts_with("# SYNTHETIC STAND-IN for trace3"), "{}", &text[..80]);
    let v = info(&p);
    let writes = v["writes"].as_f64().unwrap() / 20000.0;
    assert!((writes - 0.1193).abs() < 0.01, "{writes}");
    assert!(v["sequential_share"].as_f64().unwrap() > 0.999);
    assert_eq!((v["size_min"].as_u64(), v["size_max"].as_u64()), (Some(4096), Some(4096)));
    let _ = std::fs::remove_file(p);
    let list = stdout(&["generate", "--list"]);
    assert_eq!(list.matches("SYNTHETIC STAND-IN").count(), 10, "{list}");
}

#[test]
fn other_kinds_and_poisson() {
    for kind in ["zipf", "sequential", "mixed", "systemdisk1", "multimedia"] {
        let out =
            stdout(&["generate", "--kind", kind, "--count", "50", "--poisson", "--interarrival-us", "10"]);
        assert_eq!(out.lines().count(), 53, "{kind}");
    }
    let out = stdout(&["generate", "--kind", "mixed", "--count", "10", "--spread", "zipf", "--theta", "1.2"]);
    assert_eq!(out.lines().count(), 13);
    assert!(ftl(&["generate", "--help"]).status.success());
}

fn fails(args: &[&str]) -> String {
    let out = ftl(args);
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
    assert!(err.starts_with("ftl: ") && !err.contains("panicked"), "{err}");
    err
}

#[test]
fn bad_parameters_exit_2_with_one_line() {
    fails(&["generate", "--count", "10"]);
    fails(&["generate", "--kind", "uniform"]);
    assert!(fails(&["generate", "--kind", "nope", "--count", "1"]).contains("nope"));
    assert!(fails(&["generate", "--kind", "uniform", "--count", "-1"]).contains("--count"));
    assert!(
        fails(&["generate", "--kind", "uniform", "--count", "9", "--read-share", "2"]).contains("read share")
    );
    assert!(fails(&["generate", "--kind", "uniform", "--count", "9", "--theta", "1"]).contains("zipf"));
    assert!(fails(&["generate", "--kind", "zipf", "--count", "9", "--hot-share", "0.5"]).contains("hotcold"));
    assert!(fails(&["generate", "--kind", "uniform", "--count", "9", "--size", "0"]).contains("size"));
    assert!(fails(&["generate", "--kind", "uniform", "--count", "9", "--size", "5G"]).contains("--size"));
    assert!(fails(&["generate", "--kind", "uniform", "--count", "9", "--address-space", "1K"])
        .contains("address space"));
    assert!(fails(&["generate", "--kind", "uniform", "--count", "9", "--interarrival-us", "1.5"])
        .contains("whole"));
    assert!(
        fails(&["generate", "--kind", "uniform", "--count", "9", "--spread", "wide"]).contains("--spread")
    );
    fails(&["generate", "--kind", "uniform", "--count", "9", "--out", "/nonexistent/dir/x.csv"]);
    fails(&["generate", "--kind", "uniform", "--count", "99999999999999"]);
}
