//! Values that would wrap the ns clock are refused, naming the key and the limit, instead of
//! giving responses shorter than the flash work done; a run that reaches the clock's end
//! anyway stops with an error naming the request, and prints what it served.

mod common;
use common::{ftl, refused, shipped};

use serde_json::Value;

#[test]
fn latencies_beyond_ten_seconds_are_refused() {
    let gc = shipped("teaching/gc.csv");
    let e = refused(&ftl(&[
        "run",
        "--trace",
        &gc,
        "--scheme",
        "page",
        "--set",
        "device.blocks=8",
        "--set",
        "device.pages_per_block=8",
        "--set",
        "gc.reserve_blocks=1",
        "--set",
        "device.latency.erase_ns=18446744073709551615",
        "--json",
    ]));
    assert!(e.contains("device.latency.erase_ns must be at most 10000000000 ns (10 s)"), "{e}");
    let overwrite = shipped("teaching/overwrite.csv");
    let e = refused(&ftl(&[
        "run",
        "--trace",
        &overwrite,
        "--scheme",
        "page",
        "--set",
        "device.latency.program_ns=18446744073709551615",
        "--json",
    ]));
    assert!(e.contains("device.latency.program_ns must be at most"), "{e}");
}

#[test]
fn a_period_beyond_2_to_the_40_ns_is_refused() {
    let overwrite = shipped("teaching/overwrite.csv");
    let e = refused(&ftl(&[
        "run",
        "--trace",
        &overwrite,
        "--scheme",
        "page",
        "--set",
        r#"timing={"periodic":18446744073709551615}"#,
    ]));
    assert!(e.contains("timing.periodic must be at most 1099511627776 ns"), "{e}");
}

#[test]
fn a_time_scale_pushing_times_past_584_years_is_refused_at_the_line() {
    let hm = shipped("msr-cambridge_hm_0_first1000.csv");
    let e = refused(&ftl(&["run", "--trace", &hm, "--scheme", "page", "--time-scale", "1e9", "--json"]));
    assert!(
        e.starts_with(&format!("{hm}:")) && e.contains("below 584 years once multiplied by the time scale"),
        "{e}"
    );
    // The product that passes the clock's end is shown.
    assert!(e.contains("(18999957900 ns x 1000000000.0 passes the clock's end, 2^64 ns)"), "{e}");
    let ok = ftl(&["run", "--trace", &hm, "--scheme", "page", "--time-scale", "1000", "--json"]);
    assert!(ok.status.success());
}

#[test]
fn a_run_reaching_the_clocks_end_stops_at_the_request_and_prints_what_it_served() {
    // The second request arrives 1 µs before the end of the ns clock; its program overruns it.
    let path = std::env::temp_dir().join(format!("ftl-overflow-{}.csv", std::process::id()));
    std::fs::write(&path, "op,offset,size,time_us\nW,0,4096,0\nW,4096,4096,18446744073709551\n").unwrap();
    let out = ftl(&["run", "--trace", path.to_str().unwrap(), "--scheme", "page", "--json"]);
    let e = refused(&out);
    assert!(e.contains("clock reached its end") && e.contains("at request 2 of 2"), "{e}");
    let v: Value = serde_json::from_slice(&out.stdout).expect("the partial metrics are printed");
    assert_eq!(v["results"][0]["requests_done"], 1);
    assert!(v["error"].as_str().is_some_and(|m| m.contains("at request 2 of 2")), "{v}");
    std::fs::remove_file(path).ok();
}
