//! Streaming: feeding a file in chunks of 1, 7, 4096 or random sizes gives exactly the result
//! (requests, report, or error) of parsing it whole, for every sample and edge case.

use ftl_engine::trace::{parse_with, BlkEvent, ParseError, ParseOptions, Parsed, TraceReader, MAX_LINE};

fn read(dir: &str, name: &str) -> Vec<u8> {
    let path = format!("{}/{dir}/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Every real sample and fixture.
fn inputs() -> Vec<(String, Vec<u8>)> {
    let shipped = [
        "msr-cambridge_hm_0_first1000.csv",
        "mqsim_wsrch-small_websearch.trace",
        "snia-ycsb-rocksdb_ssdtrace-sample.blkparse.txt",
        "tencent-cbs_cloud_storage-sample_50k.csv",
        "cloudphysics-vscsi_sample_first60000.csv",
    ];
    let fixtures = [
        "umass-financial-like.spc",
        "disksim.ascii",
        "ssdsim-example.ascii",
        "fiu-homes-like.txt",
        "systor17-like.csv",
        "plain.csv",
    ];
    let mut v: Vec<(String, Vec<u8>)> =
        shipped.iter().map(|n| (n.to_string(), read("../../public/traces", n))).collect();
    v.extend(fixtures.iter().map(|n| (n.to_string(), read("tests/fixtures/traces", n))));
    v
}

/// Parses `bytes` fed in chunks whose sizes come from `sizes` (cycled), draining requests
/// midway to show a consumer can take them as they come.
fn chunked(
    bytes: &[u8],
    format: Option<&str>,
    o: &ParseOptions,
    sizes: &[usize],
) -> Result<Parsed, ParseError> {
    let mut r = TraceReader::new(format, o.clone())?;
    let mut taken = Vec::new();
    let mut rest = bytes;
    let mut i = 0;
    while !rest.is_empty() {
        let n = sizes[i % sizes.len()].clamp(1, rest.len());
        i += 1;
        let (chunk, tail) = rest.split_at(n);
        rest = tail;
        let progress = r.feed(chunk)?;
        assert_eq!(progress.bytes, (bytes.len() - rest.len()) as u64);
        if i % 97 == 0 {
            taken.extend(r.take_requests());
        }
    }
    let mut p = r.finish()?;
    taken.append(&mut p.trace.requests);
    p.trace.requests = taken;
    Ok(p)
}

fn same_in_chunks(label: &str, bytes: &[u8], format: Option<&str>, o: &ParseOptions) {
    let whole = parse_with(bytes, format, o);
    for sizes in [&[1][..], &[7], &[4096], &[3, 1, 250, 2, 65_537, 9]] {
        let parts = chunked(bytes, format, o, sizes);
        assert!(parts == whole, "{label}: chunks {sizes:?} differ:\n{parts:?}\nvs whole:\n{whole:?}");
    }
}

#[test]
fn every_sample_parses_the_same_in_chunks() {
    for (name, bytes) in inputs() {
        same_in_chunks(&name, &bytes, None, &ParseOptions::default());
    }
}

#[test]
fn selections_and_limits_parse_the_same_in_chunks() {
    let bytes = read("../../public/traces", "snia-ycsb-rocksdb_ssdtrace-sample.blkparse.txt");
    let q = ParseOptions { blkparse_event: BlkEvent::Queue, max_requests: Some(100), ..Default::default() };
    same_in_chunks("blkparse Q first 100", &bytes, None, &q);
    let bytes = read("../../public/traces", "tencent-cbs_cloud_storage-sample_50k.csv");
    let vol = ParseOptions { devices: vec!["1418".into()], time_scale: 2.5, ..Default::default() };
    same_in_chunks("tencent volume", &bytes, Some("tencent"), &vol);
}

#[test]
fn edge_cases_parse_the_same_in_chunks() {
    let skip = ParseOptions { skip_bad_lines: true, ..Default::default() };
    let mut long = b"100 0 1 8 1\r\n".to_vec();
    long.extend(vec![b'9'; MAX_LINE + 10]);
    long.extend(b"\r\n200 0 1 8 0\r\n");
    let mut exact = b"100 0 1 8 1\n".to_vec();
    exact.extend(vec![b' '; MAX_LINE - 1]);
    exact.extend(b"\r\n300 0 1 8 0");
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("bom crlf header", b"\xEF\xBB\xBFop,offset,size\r\nW,0,4096\r\n# c\r\nR,0,512".to_vec()),
        ("bom alone", b"\xEF\xBB\xBF".to_vec()),
        ("invalid utf8", b"100 0 1 8 1\n2\xff0 0 1 8 1\n300 0 1 8 0\n".to_vec()),
        ("bad line", b"100 0 1 8 1\n200 0 x 8 1\n300 0 1 8 0\n".to_vec()),
        ("long line", long),
        ("line at the limit", exact),
        ("no newline at all", b"1,hm,0,Write,0,512,1".to_vec()),
        ("empty", Vec::new()),
        ("only blank", b"\r\n\n  \n".to_vec()),
    ];
    for (label, bytes) in &cases {
        same_in_chunks(label, bytes, None, &ParseOptions::default());
        same_in_chunks(label, bytes, Some("mqsim"), &skip);
    }
}

#[test]
fn an_error_is_sticky_and_identical() {
    let mut r = TraceReader::new(Some("mqsim"), ParseOptions::default()).unwrap();
    let e = r.feed(b"100 0 1 8 1\n200 0 x 8 1\n").unwrap_err();
    assert_eq!((e.line, e.column), (2, 7));
    assert_eq!(r.feed(b"300 0 1 8 1\n").unwrap_err(), e);
    assert_eq!(r.finish().unwrap_err(), e);
}

#[test]
fn the_limit_stops_reading() {
    let mut r = TraceReader::new(None, ParseOptions { max_requests: Some(1), ..Default::default() }).unwrap();
    // Eight lines are needed for detection; the ninth would be an error if it were read.
    let lines = "1 0 1 8 1\n".repeat(8);
    let p = r.feed(lines.as_bytes()).unwrap();
    assert!(p.done);
    r.feed(b"garbage\n").unwrap();
    let parsed = r.finish().unwrap();
    assert_eq!(parsed.trace.requests.len(), 1);
    assert!(parsed.report.limit_reached);
}

/// Random plain CSV files, mostly lines the fast path reads and some it must decline (odd
/// bytes, missing or extra columns, other number forms, CRLF), under headers that put the
/// columns in other orders, skip columns and name a device. Fed a byte at a time, every line
/// is split between chunks and takes the general path; whole, most take the fast path: the
/// two give the same requests and report (or the same error).
#[test]
fn random_plain_files_parse_the_same_in_chunks() {
    let mut state = 0x853c_49e6_748f_ea9bu64;
    let mut below = |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as usize
    };
    let headers = [
        "op,offset,size,time_us",
        "offset,size,op,time_ms,device",
        "rw,x,lba,sectors",
        "op,offset,size",
        "time_ns,op,size,offset,extra",
    ];
    let odd = [
        "W, 5,4096,1",
        "# comment",
        "",
        "R,12x,4096,5",
        "T,0,4096,7",
        "w,1,1,1.5",
        "W,1,99999999999999999999,3",
        "W,1,0,3",
        "W,1,1",
        "W,1,1,1,extra,more",
        "write,4096,4096,9",
        "W,1,1,1\r",
        "W,\"1\",1,1",
        "W,1,1,1\t",
        "W,1,1,+1",
        "R,1,1,1,d\u{e9}v",
        "W,,1,1",
        ",W,1,1",
        "W,18446744073709551615,1,1",
        "W,1,4294967296,1",
    ];
    let options = [
        ParseOptions::default(),
        ParseOptions { skip_bad_lines: true, ..Default::default() },
        ParseOptions {
            skip_bad_lines: true,
            devices: vec!["d1".into()],
            sector_size: 4096,
            ..Default::default()
        },
    ];
    for file in 0..60 {
        let header = headers[file % headers.len()];
        let columns = header.split(',').count();
        let mut text = format!("{header}\n");
        for _ in 0..200 + below(300) {
            let line = if below(8) == 0 {
                odd[below(odd.len())].to_string()
            } else {
                let field = |i: usize, below: &mut dyn FnMut(usize) -> usize| match header.split(',').nth(i) {
                    Some("op" | "rw") => ["W", "R", "w", "r"][below(4)].to_string(),
                    Some("device") => format!("d{}", below(3)),
                    Some("x" | "extra") => ["", "x", "7", "a_b"][below(4)].to_string(),
                    _ => (below(1 << 20) * [1, 512, 4096][below(3)]).to_string(),
                };
                (0..columns).map(|i| field(i, &mut below)).collect::<Vec<_>>().join(",")
            };
            text.push_str(&line);
            text.push_str(if below(5) == 0 { "\r\n" } else { "\n" });
        }
        if below(2) == 0 {
            text.pop();
        }
        for o in &options {
            let whole = parse_with(text.as_bytes(), None, o);
            let parts = chunked(text.as_bytes(), None, o, &[1]);
            assert!(parts == whole, "file {file} ({header}), {o:?}:\n{parts:?}\nvs whole:\n{whole:?}");
        }
    }
}
