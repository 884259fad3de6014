//! `ftl inspect`: the RAM structures of a scheme after N requests, as JSON.

mod common;
use common::{ftl, hm_0};

use serde_json::Value;

#[test]
fn dftl_shows_the_cmt_in_lru_order_and_the_gtd() {
    let t = hm_0();
    let out = ftl(&["inspect", "--trace", &t, "--scheme", "dftl", "--at", "300", "--json", "--limit", "8"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let cmt = &v["structures"][0];
    assert_eq!(
        (cmt["shape"].as_str(), cmt["order"].as_str(), cmt["name"].as_str()),
        (Some("list"), Some("lru"), Some("CMT"))
    );
    assert_eq!(cmt["entries"][0]["touched"], true, "the newest entry belongs to request 300");
    assert!(cmt["len"].as_u64().unwrap() > 8 && cmt["truncated"] == true);
    assert_eq!(v["structures"][1]["shape"], "table");
    assert_eq!(v["structures"][1]["name"].as_str().map(|n| n.starts_with("GTD")), Some(true));
}

#[test]
fn options_presets_and_bad_counts() {
    let t = hm_0();
    let out = ftl(&[
        "inspect",
        "--trace",
        &t,
        "--scheme",
        "dftl",
        "--at",
        "5",
        "--set",
        "options.batch_update=false",
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("CMT:"));
    let out = ftl(&["inspect", "--trace", &t, "--scheme", "page", "--at", "lots"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("--at expects a count"));
    let out = ftl(&["inspect", "--trace", &t, "--scheme", "page", "--at", "5000"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("only 1000 requests"));
}
