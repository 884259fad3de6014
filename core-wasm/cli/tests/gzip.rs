//! A gzip-compressed trace (how MSR Cambridge and SNIA ship theirs) is read
//! as its content by `trace-info` and `run`; a binary file is refused as binary.

use std::io::Write;

use flate2::write::GzEncoder;
use flate2::Compression;
mod common;
use common::{ftl, hm_0, json};

#[test]
fn a_gzip_trace_reads_as_its_content() {
    let text = std::fs::read(hm_0()).unwrap();
    let gz = std::env::temp_dir().join(format!("ftl-gzip-{}.csv.gz", std::process::id()));
    let mut enc = GzEncoder::new(Vec::new(), Compression::default());
    enc.write_all(&text).unwrap();
    std::fs::write(&gz, enc.finish().unwrap()).unwrap();
    let plain = hm_0();
    let a = json(&ftl(&["trace-info", &plain, "--json"]));
    let b = json(&ftl(&["trace-info", gz.to_str().unwrap(), "--json"]));
    assert_eq!(b["requests"], 1000);
    assert_eq!(a["requests"], b["requests"]);
    assert_eq!(a["footprint_pages"], b["footprint_pages"]);
    let run = json(&ftl(&["run", "--trace", gz.to_str().unwrap(), "--scheme", "page", "--json"]));
    assert_eq!(run["results"][0]["requests_done"], 1000);
    std::fs::remove_file(gz).ok();
}

#[test]
fn a_binary_file_is_refused_as_binary() {
    let png = std::env::temp_dir().join(format!("ftl-gzip-{}.png", std::process::id()));
    std::fs::write(&png, b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0").unwrap();
    let out = ftl(&["trace-info", png.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(":1:1: expected a text trace") && err.contains("looks binary (a PNG image;"),
        "{err}"
    );
    std::fs::remove_file(png).ok();
}
