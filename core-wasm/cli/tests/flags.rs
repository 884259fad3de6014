//! Small command-line faults: a repeated single-value flag, an unknown --format, a control
//! character in a bad field, a scheme set through --set, and an empty generated trace.

use std::path::PathBuf;
use std::process::{Command, Output};

fn ftl(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ftl")).args(args).output().expect("ftl runs")
}

fn shipped() -> String {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../public/traces/msr-cambridge_hm_0_first1000.csv");
    p.to_str().unwrap().to_string()
}

fn refused(out: &Output) -> String {
    assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stdout));
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn temp(name: &str, text: &[u8]) -> PathBuf {
    let path = std::env::temp_dir().join(format!("ftl-flags-{}-{name}", std::process::id()));
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn a_repeated_trace_is_refused() {
    let t = shipped();
    let e = refused(&ftl(&["run", "--trace", &t, "--trace", &t, "--scheme", "page"]));
    assert!(e.contains("--trace given twice"), "{e}");
}

#[test]
fn an_unknown_format_names_the_file_without_a_line_and_column() {
    let t = shipped();
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
    let e = refused(&ftl(&["run", "--trace", &shipped(), "--scheme", "page", "--set", "scheme=dftl"]));
    assert!(e.contains("--set scheme=dftl: choose the scheme with --scheme ID"), "{e}");
}

#[test]
fn generating_zero_requests_is_refused_and_writes_nothing() {
    let out = std::env::temp_dir().join(format!("ftl-flags-{}-empty.csv", std::process::id()));
    let e = refused(&ftl(&["generate", "--kind", "uniform", "--count", "0", "--out", out.to_str().unwrap()]));
    assert!(e.contains("count must be between 1 and"), "{e}");
    assert!(!out.exists(), "no file is written");
}
