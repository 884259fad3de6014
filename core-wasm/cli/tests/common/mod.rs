//! What every CLI test needs: the built `ftl` binary, the shipped traces, and the two
//! outcomes a test reads (a refusal's message, a success's JSON).
#![allow(dead_code)] // each test file uses its own subset

use std::path::PathBuf;
use std::process::{Command, Output};

use serde_json::Value;

/// Runs the `ftl` binary built for this test.
pub fn ftl(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ftl")).args(args).output().expect("ftl runs")
}

/// The folder of the traces the app ships.
pub fn traces() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../public/traces")
}

/// A shipped trace's path, as an argument.
pub fn shipped(name: &str) -> String {
    traces().join(name).to_str().expect("UTF-8 path").to_string()
}

/// The 1,000-request MSR hm_0 excerpt.
pub fn hm_0() -> String {
    shipped("msr-cambridge_hm_0_first1000.csv")
}

/// A refusal: exit status 2; returns standard error.
pub fn refused(out: &Output) -> String {
    assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stdout));
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A success printing JSON; returns it parsed.
pub fn json(out: &Output) -> Value {
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("JSON")
}
