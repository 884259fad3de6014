//! Configurations that cannot run are refused before the first request, naming why.

mod common;
use common::{ftl, hm_0};

/// Runs `ftl`, which must refuse before serving any request; returns its message.
fn refused(args: &[&str]) -> String {
    let out = ftl(args);
    assert!(out.stdout.is_empty(), "refused before any request: {}", String::from_utf8_lossy(&out.stdout));
    common::refused(&out)
}

#[test]
fn hcftl_on_eight_units_of_small_pages_is_refused_up_front() {
    // It stopped mid-run with "device full" once the DTPs took half the spare flash.
    let e = refused(&[
        "run",
        "--trace",
        &hm_0(),
        "--scheme",
        "hcftl",
        "--set",
        "device.page_bytes=512",
        "--set",
        "device.channels=8",
        "--set",
        "gc.reserve_blocks=1",
        "--json",
    ]);
    assert!(e.contains("gc.reserve_blocks = 1 on a device of 8 units: 'hcftl'"), "{e}");
}

#[test]
fn a_reserve_of_one_block_on_several_units_is_refused_for_schemes_with_their_own_streams() {
    // These stopped mid-run with "device full"; the same devices with the default reserve run.
    for (scheme, ppb) in [("hcftl", "4"), ("dftl", "4"), ("treeftl", "16"), ("tpftl", "4")] {
        let e = refused(&[
            "run",
            "--trace",
            &hm_0(),
            "--scheme",
            scheme,
            "--set",
            "device.channels=8",
            "--set",
            "device.page_bytes=512",
            "--set",
            &format!("device.pages_per_block={ppb}"),
            "--set",
            "device.utilization=0.5",
            "--set",
            "gc.reserve_blocks=1",
        ]);
        assert!(e.contains("use gc.reserve_blocks = 2"), "{scheme}: {e}");
    }
    // page mapping has no stream of its own: one reserved block is enough for it.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_ftl"))
        .args(["run", "--trace", &hm_0(), "--scheme", "page", "--set", "device.channels=8"])
        .args(["--set", "device.page_bytes=512", "--set", "gc.reserve_blocks=1"])
        .output()
        .expect("ftl runs");
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn no_borrowing_on_several_units_is_refused_for_a_scheme_that_collects_device_wide() {
    for scheme in ["dftl", "nftl", "treeftl"] {
        let e = refused(&[
            "run",
            "--trace",
            &hm_0(),
            "--scheme",
            scheme,
            "--set",
            "device.channels=2",
            "--set",
            "gc.borrow_blocks=false",
        ]);
        assert!(e.contains(&format!("gc.borrow_blocks = false: '{scheme}'")), "{e}");
    }
}
