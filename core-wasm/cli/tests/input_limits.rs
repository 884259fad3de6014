//! `run`, `inspect` and `sweep` stream their trace: a file is never read whole into memory,
//! binary content is refused on its first line, `--first N` stops reading after N requests,
//! and more requests than a run may hold are refused with a located message. The bombs are
//! built here: gzip members repeated (a multi-member gzip is one stream), so a file of a few
//! MB holds gigabytes. Each run gets a 512 MB address-space limit, so reading a bomb whole
//! fails instead of taking the machine's memory.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output};

use flate2::write::GzEncoder;
use flate2::Compression;
use serde_json::Value;

/// Runs `ftl args` with its address space capped at 512 MB.
fn ftl_capped(args: &[&str]) -> Output {
    Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 524288 && exec \"$0\" \"$@\"")
        .arg(env!("CARGO_BIN_EXE_ftl"))
        .args(args)
        .output()
        .expect("ftl runs")
}

fn gz(bytes: &[u8]) -> Vec<u8> {
    let mut enc = GzEncoder::new(Vec::new(), Compression::best());
    enc.write_all(bytes).unwrap();
    enc.finish().unwrap()
}

/// A file named `name` made of `head`, then `body` repeated `times` times.
fn bomb(name: &str, head: &[u8], body: &[u8], times: usize) -> PathBuf {
    let path = std::env::temp_dir().join(format!("ftl-bomb-{}-{name}", std::process::id()));
    let mut out = head.to_vec();
    for _ in 0..times {
        out.extend_from_slice(body);
    }
    std::fs::write(&path, out).unwrap();
    path
}

/// 64 KiB of valid CSV request lines, as one gzip member.
fn lines_member() -> Vec<u8> {
    gz(&b"W,0,4096,0\n".repeat(6000))
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn a_gzip_of_valid_lines_past_the_request_cap_is_refused_naming_the_line() {
    // About 4 GB of request lines in a 1 MB file.
    let path = bomb("lines.csv.gz", &gz(b"op,offset,size,time_us\n"), &lines_member(), 60_000);
    let p = path.to_str().unwrap();
    let out = ftl_capped(&["run", "--trace", p, "--scheme", "page", "--max-requests", "50000", "--json"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let e = stderr(&out);
    // Request 50,001 is on line 50,002 (after the header): the refusal names that line.
    assert!(e.starts_with(&format!("{p}:50002:1: more than 50000 requests")), "{e}");
    assert!(e.contains("--first N"), "the message says how to keep part of it: {e}");
    for cmd in [
        &["inspect", "--trace", p, "--scheme", "page", "--at", "1", "--max-requests", "50000"][..],
        &[
            "sweep",
            "--trace",
            p,
            "--scheme",
            "page",
            "--param",
            "blocks",
            "--values",
            "64",
            "--max-requests",
            "50000",
        ],
    ] {
        let out = ftl_capped(cmd);
        assert_eq!(out.status.code(), Some(2), "{cmd:?}: {}", stderr(&out));
        assert!(stderr(&out).contains("more than 50000 requests"), "{cmd:?}: {}", stderr(&out));
    }
    std::fs::remove_file(path).ok();
}

#[test]
fn first_n_stops_reading_after_n_requests() {
    // Valid lines, then a damaged gzip member: reading past the first requests would fail.
    let mut body = lines_member();
    body.extend_from_slice(&gz(b"W,0,4096,0\n")[..12]);
    let path = bomb("first.csv.gz", &gz(b"op,offset,size,time_us\n"), &body, 1);
    let p = path.to_str().unwrap();
    let out = ftl_capped(&["run", "--trace", p, "--scheme", "page", "--first", "1000", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["results"][0]["requests_done"], 1000);
    let whole = ftl_capped(&["run", "--trace", p, "--scheme", "page"]);
    assert_eq!(whole.status.code(), Some(2));
    assert!(stderr(&whole).contains("cannot read"), "the whole file is damaged: {}", stderr(&whole));
    std::fs::remove_file(path).ok();
}

#[test]
fn a_gzip_of_zeros_and_dev_zero_are_refused_as_binary_without_reading_them_whole() {
    // 2.6 GB of zeros in about 2.6 MB.
    let path = bomb("zeros.gz", &[], &gz(&vec![0u8; 1 << 20]), 2600);
    for p in [path.to_str().unwrap(), "/dev/zero"] {
        let out = ftl_capped(&["run", "--trace", p, "--scheme", "page"]);
        assert_eq!(out.status.code(), Some(2), "{p}");
        let e = stderr(&out);
        assert!(e.starts_with(&format!("{p}:1:1:")) && e.contains("looks binary"), "{p}: {e}");
    }
    std::fs::remove_file(path).ok();
}
