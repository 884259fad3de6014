//! Small command-line faults: a repeated single-value flag, an unknown --format, a control
//! character in a bad field, a scheme set through --set, and an empty generated trace.

mod common;
use common::{ftl, hm_0, refused};

use std::path::PathBuf;

fn temp(name: &str, text: &[u8]) -> PathBuf {
    let path = std::env::temp_dir().join(format!("ftl-flags-{}-{name}", std::process::id()));
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn a_repeated_trace_is_refused() {
    let t = hm_0();
    let e = refused(&ftl(&["run", "--trace", &t, "--trace", &t, "--scheme", "page"]));
    assert!(e.contains("--trace given twice"), "{e}");
}

#[test]
fn an_unknown_format_names_the_file_without_a_line_and_column() {
    let t = hm_0();
    let e = refused(&ftl(&["run", "--trace", &t, "--format", "nope", "--scheme", "page"]));
    assert!(e.starts_with(&format!("{t}: expected a known trace format")) && e.contains("'nope'"), "{e}");
    assert!(!e.contains(":0:0:"), "{e}");
}

#[test]
fn a_nul_inside_a_field_is_shown_escaped() {
    let path = temp("nul.csv", b"op,offset,size,time_us\nW,0,40\x0096,0\n");
    let e = refused(&ftl(&["run", "--trace", path.to_str().unwrap(), "--scheme", "page"]));
    assert!(e.contains(":2:5: expected a size (integer), found '40\\096'"), "{e}");
    std::fs::remove_file(path).ok();
}

#[test]
fn the_scheme_is_chosen_with_scheme_not_set() {
    let e = refused(&ftl(&["run", "--trace", &hm_0(), "--scheme", "page", "--set", "scheme=dftl"]));
    assert!(e.contains("--set scheme=dftl: choose the scheme with --scheme ID"), "{e}");
}

#[test]
fn generating_zero_requests_is_refused_and_writes_nothing() {
    let out = std::env::temp_dir().join(format!("ftl-flags-{}-empty.csv", std::process::id()));
    let e = refused(&ftl(&["generate", "--kind", "uniform", "--count", "0", "--out", out.to_str().unwrap()]));
    assert!(e.contains("count must be between 1 and"), "{e}");
    assert!(!out.exists(), "no file is written");
}

#[test]
fn run_goes_on_past_a_refused_scheme_and_exits_2() {
    let t = hm_0();
    let out = ftl(&["run", "--trace", &t, "--scheme", "nope", "--scheme", "page", "--json"]);
    let e = refused(&out);
    assert!(e.contains("unknown scheme"), "{e}");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("the served scheme is printed");
    assert_eq!(v["results"].as_array().map(|r| r.len()), Some(1), "{v}");
    assert_eq!(v["results"][0]["scheme"], "page");
    assert!(v["errors"][0].as_str().is_some_and(|m| m.contains("nope")), "{v}");
    // One scheme, refused: nothing to print but the refusal.
    let alone = ftl(&["run", "--trace", &t, "--scheme", "nope", "--json"]);
    assert!(refused(&alone).contains("unknown scheme") && alone.stdout.is_empty());
}
