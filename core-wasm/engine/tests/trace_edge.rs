//! Hand-made edge cases: line endings, BOM, headers, comments, located errors for every
//! format, skipped bad lines and the selection options.

use ftl_engine::trace::HostOp::{Read, Write};
use ftl_engine::trace::{parse, parse_with, ParseError, ParseOptions, Request, TraceReader, MAX_LINE};

fn err(bytes: &[u8], format: Option<&str>) -> ParseError {
    match parse(bytes, format) {
        Ok(t) => panic!("expected an error, got {} requests", t.requests.len()),
        Err(e) => e,
    }
}

fn at(e: &ParseError) -> (u32, u32, &str) {
    (e.line, e.column, e.found.as_str())
}

#[test]
fn crlf_bom_comments_blank_lines_and_header() {
    let text =
        "\u{feff}# exported by a tool\r\n\r\nTimestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime\r\n\
                128166385295514663,hm,0,Write,9056014336,2048,2833\r\n   \r\n# trailing comment\r\n\
                128166385295514878,hm,0,Read,11855351808,512,2617,extra,fields\r\n";
    let t = parse(text.as_bytes(), None).unwrap();
    assert_eq!(t.format, "msr");
    assert_eq!(
        t.requests,
        [
            Request { time_ns: 0, op: Write, offset: 9_056_014_336, size: 2048 },
            Request { time_ns: 21_500, op: Read, offset: 11_855_351_808, size: 512 },
        ]
    );
}

#[test]
fn bad_fields_are_located_in_every_format() {
    let cases: [(&str, &str, (u32, u32, &str)); 12] = [
        ("msr", "1,hm,0,Write,0,512,1\n2,hm,0,Write,0,5x2,1\n", (2, 16, "5x2")),
        ("spc", "0,1,512,W,0.5\n0,1,512,Q,0.6\n", (2, 9, "Q")),
        ("disksim", "0.5 0 1 8 0\n1.5 0 1 8 zz\n", (2, 11, "zz")),
        ("mqsim", "100 0 1 8 1\n200 0 1 8 2\n", (2, 11, "2")),
        ("ssdsim", "100 0 1 8 1\n200 0 -1 8 0\n", (2, 7, "-1")),
        ("blkparse", "8,0 1 1 0.1 9 D W 10 + 8 [a]\n8,0 1 2 0.2 9 D W 10 - 8 [a]\n", (2, 22, "-")),
        ("fiu", "1 2 p 10 8 R 6 0 x\n2 2 p 10 8 X 6 0 x\n", (2, 12, "X")),
        ("systor", "1.5,0.1,R,0,4096,4096\n2.5,0.1,W,0,4096,4k\n", (2, 18, "4k")),
        ("tencent", "1538323199,1,8,0,7\n1538323199,1,8,2,7\n", (2, 16, "2")),
        ("cloudphysics", "version,time,op,size,lbn\n1,5,2a,512,9\n1,x,2a,512,9\n", (3, 3, "x")),
        ("csv", "op,offset,size\nW,0,4096\nW,0,\n", (3, 5, "")),
        ("csv", "op,offset\nW,0\n", (1, 1, "op,offset")),
    ];
    for (format, text, want) in cases {
        let e = err(text.as_bytes(), Some(format));
        assert_eq!(at(&e), want, "{format}: {e}");
        // Detection finds the same format and therefore the same error.
        if format != "ssdsim" && format != "csv" {
            assert_eq!(at(&err(text.as_bytes(), None)), want, "{format} detected: {e}");
        }
    }
}

#[test]
fn a_damaged_first_record_is_not_taken_for_a_header() {
    let e = err(b"x128166385295514663,hm,0,Write,0,512,1\n2,hm,0,Write,0,512,1\n", Some("msr"));
    assert_eq!(at(&e), (1, 1, "x128166385295514663"));
    let t = parse(b"Time,Device,LBA,Sectors,Type\n100 0 1 8 1\n", Some("mqsim")).unwrap();
    assert_eq!(t.requests.len(), 1, "a header of words is skipped in any format");
}

#[test]
fn display_is_one_located_line() {
    let e = err(b"1,hm,0,Write,0,512,1\n2,hm,0,Wrote,0,512,1\n", None).in_file("hm_0.csv");
    assert_eq!(e.to_string(), "hm_0.csv:2:8: expected Type 'Read' or 'Write', found 'Wrote'");
    let e = err(b"1,hm,0,Write\n", Some("msr"));
    assert!(e.to_string().starts_with("trace:1:13: expected at least 6 fields"), "{e}");
}

#[test]
fn a_reader_names_its_file_in_every_error() {
    let skip = ParseOptions { skip_bad_lines: true, ..ParseOptions::default() };
    let mut r = TraceReader::new(Some("mqsim"), skip).unwrap().with_file("w.trace");
    r.feed(b"1 0 x 8 1\n2 0 1 8 1\n").unwrap();
    let p = r.finish().unwrap();
    assert_eq!(p.report.errors[0].to_string(), "w.trace:1:5: expected a start sector (integer), found 'x'");
    let mut r = TraceReader::new(Some("mqsim"), ParseOptions::default()).unwrap().with_file("w.trace");
    assert_eq!(r.feed(b"1 0 1 8 7\n").unwrap_err().file.as_deref(), Some("w.trace"));
    let r = TraceReader::new(None, ParseOptions::default()).unwrap().with_file("empty.csv");
    assert_eq!(r.finish().unwrap_err().file.as_deref(), Some("empty.csv"));
}

#[test]
fn columns_count_characters_not_bytes() {
    let e = err("op,offset,size\nWrité,0,4096\nW,é,1\n".as_bytes(), Some("csv"));
    assert_eq!(at(&e), (2, 1, "Writé"));
    let e = err("op,offset,size\nW,0,1\n\"é\",x,1\n".as_bytes(), Some("csv"));
    assert_eq!(at(&e), (3, 2, "é"));
    let e = err("op,offset,size\nR,é,1\n".as_bytes(), Some("csv"));
    assert_eq!(at(&e), (2, 3, "é"));
}

#[test]
fn invalid_utf8_and_overlong_lines() {
    let e = err(b"100 0 1 8 1\n200 0 \xff 8 1\n", Some("mqsim"));
    assert_eq!((e.line, e.column, e.expected.as_str()), (2, 7, "UTF-8 text"));
    let mut long = b"100 0 1 8 1\n".to_vec();
    long.extend(vec![b'7'; MAX_LINE + 1]);
    let e = err(&long, Some("mqsim"));
    assert_eq!((e.line, e.column), (2, 1));
    assert!(e.expected.contains("shorter than"), "{e}");
}

#[test]
fn detection_failure_names_the_formats_tried() {
    let e = err(b"\n# comment\nhello,world,this is not a trace\n", None);
    assert_eq!((e.line, e.column), (3, 1));
    for name in
        ["msr", "spc", "blkparse", "mqsim", "tencent", "cloudphysics", "csv", "fiu", "systor", "disksim"]
    {
        assert!(e.expected.contains(name), "{name} missing from: {e}");
    }
    let e = err(b"", None);
    assert_eq!((e.line, e.column), (1, 1));
}

#[test]
fn skip_bad_lines_counts_and_keeps_the_first_errors() {
    let mut text = String::from("100 0 1 8 1\n");
    for i in 0..15 {
        text.push_str(&format!("{} 0 x 8 1\n", 200 + i));
    }
    text.push_str("900 0 5 8 0\n");
    assert_eq!(err(text.as_bytes(), Some("mqsim")).line, 2);
    let opts = ParseOptions { skip_bad_lines: true, ..ParseOptions::default() };
    // Detection needs half of its sample lines to agree, so this file needs the format named.
    assert!(parse_with(text.as_bytes(), None, &opts).is_err());
    let p = parse_with(text.as_bytes(), Some("mqsim"), &opts).unwrap();
    assert_eq!(p.trace.requests.len(), 2);
    assert_eq!(p.trace.requests[1], Request { time_ns: 800, op: Write, offset: 5 * 512, size: 4096 });
    assert_eq!(p.report.skipped, 15);
    assert_eq!(p.report.errors.len(), 10);
    assert_eq!((p.report.errors[0].line, p.report.errors[0].column), (2, 7));
    assert_eq!(p.report.errors[9].line, 11);

    // All lines bad: the first bad line is the error.
    let e = parse_with(b"1 0 x 8 1\n2 0 y 8 1\n", Some("mqsim"), &opts).unwrap_err();
    assert_eq!((e.line, e.column, e.found.as_str()), (1, 5, "x"));
    assert!(e.expected.contains("all 2 request lines were bad"), "{e}");
}

#[test]
fn selection_window_scale_limit_and_ops() {
    let text =
        "op,offset,size,time_ms\nW,0,4096,0\nR,0,4096,10\nW,4096,4096,20\nT,0,4096,30\nR,4096,4096,40\n";
    let run = |o: ParseOptions| parse_with(text.as_bytes(), None, &o).map(|p| p.trace.requests);
    let times = |r: Vec<Request>| r.iter().map(|r| r.time_ns / 1_000_000).collect::<Vec<_>>();

    let window = ParseOptions { start_ns: Some(10_000_000), end_ns: Some(40_000_000), ..Default::default() };
    assert_eq!(times(run(window).unwrap()), [0, 10, 20], "rebased on the first kept request");
    let fast = ParseOptions { time_scale: 0.5, ..Default::default() };
    assert_eq!(times(run(fast).unwrap()), [0, 5, 10, 15, 20]);
    let first2 = ParseOptions { max_requests: Some(2), ..Default::default() };
    assert_eq!(run(first2).unwrap().len(), 2);
    let reads = ParseOptions { writes: false, trims: false, ..Default::default() };
    assert_eq!(times(run(reads).unwrap()), [0, 30]);
    let writes = ParseOptions { reads: false, trims: false, ..Default::default() };
    assert_eq!(times(run(writes).unwrap()), [0, 20]);

    let none = ParseOptions { devices: vec!["7".into()], ..Default::default() };
    let e = run(none).unwrap_err();
    assert!(e.expected.contains("5 requests read, all filtered out"), "{e}");
}

#[test]
fn times_never_go_backwards() {
    let p = parse_with(
        b"1000 0 1 8 1\n3000 0 1 8 1\n2000 0 1 8 1\n4000 0 1 8 1\n",
        None,
        &ParseOptions::default(),
    )
    .unwrap();
    let t: Vec<u64> = p.trace.requests.iter().map(|r| r.time_ns).collect();
    assert_eq!(t, [0, 2000, 2000, 3000]);
    assert_eq!(p.report.reordered, 1);
}

#[test]
fn blkparse_with_only_other_events_explains_itself() {
    let e = err(b"8,0 1 1 0.1 9 Q W 10 + 8 [a]\n", None);
    assert!(e.expected.contains("at least one D event"), "{e}");
}

#[test]
fn pathological_inputs_finish() {
    let skip = ParseOptions { skip_bad_lines: true, ..ParseOptions::default() };
    let commas = ",".repeat(MAX_LINE - 1) + "\n";
    let many = commas.repeat(64);
    for format in [None, Some("msr"), Some("csv"), Some("blkparse")] {
        assert!(parse_with(many.as_bytes(), format, &skip).is_err());
    }
    let no_newline = vec![b'7'; 8 << 20];
    let e = parse_with(&no_newline, Some("mqsim"), &skip).unwrap_err();
    assert_eq!((e.line, e.column), (1, 1));
    let newlines = vec![b'\n'; 8 << 20];
    assert_eq!(parse_with(&newlines, None, &skip).unwrap_err().line, 1);
}
