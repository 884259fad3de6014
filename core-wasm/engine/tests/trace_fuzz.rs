//! Seeded fuzzing of every parser: random bytes and mutated real lines, with every format
//! forced and with detection. Properties: no panic; errors point at an existing line and
//! column and quote text from that line; successful parses keep sizes >= 1 and times
//! monotonic, and parse the same in random chunks.
//!
//! Set `TRACE_FUZZ_SEED` to replay a failure and `TRACE_FUZZ_CASES` to run longer.

use std::panic::{catch_unwind, AssertUnwindSafe};

use ftl_engine::trace::{parse_with, ParseError, ParseOptions, Parsed, TraceReader, FORMATS};

/// SplitMix64: small, seeded, identical everywhere.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

fn env_u64(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// Bytes that matter to the parsers, plus a few that should never appear.
const ALPHABET: &[u8] = b"0123456789000111,,,   \t\n\n\r.+-eERWDQrwdqTxa#\"\xef\xbb\xbf\xff\xc3\xa9";

fn random_bytes(rng: &mut Rng) -> Vec<u8> {
    let len = rng.below(600);
    (0..len).map(|_| if rng.below(10) == 0 { rng.next() as u8 } else { *rng.pick(ALPHABET) }).collect()
}

/// A few real lines of every format, grouped by format.
const SEED_LINES: &[&[&str]] = &[
    &[
        "128166385295514663,hm,0,Write,9056014336,2048,2833",
        "128166385295514878,hm,0,Read,11855351808,512,2617",
    ],
    &["0,20941264,8192,W,0.551706,Alpha/NT", "1,303567,3584,r,0.000000"],
    &["0.551706 0 20941264 16 0", "12.5 1 8 8 1"],
    &["11413000 0 657728 16 1", "11565000 1 31244784 64 0"],
    &[
        "259,2    0        5     0.000005462  4020  D  RS 282624 + 8 [java]",
        "259,2    0        1     0.000000000  4020  Q   R 282624 + 8 [java]",
        "8,16   1        3     0.000002000  5529  D   D 1000 + 2048 [fstrim]",
        "CPU0 (259,2):",
    ],
    &["89968195792462 20782 gzip 283193184 8 R 6 0 56f11b711d91a065a2b6458eca924523"],
    &[
        "Timestamp,Response,IOType,LUN,Offset,Size",
        "1456095145.133076000,0.000806000,R,0,899056122368,131072",
    ],
    &["1538323199,13896880,128,0,1063", "1538323200,4247200,128,1,1058"],
    &["version,time,op,size,lbn", "1,5633898,2a,512,42932745", "1,5633898,28,512,42932746"],
    &["op,offset,size,time_us", "W,8192,4096,150", "trim,0,512,151"],
];

const MUTANTS: &[&str] = &[
    "",
    "0",
    "-1",
    "18446744073709551616",
    "99999999999999999999999",
    "1e308",
    ".",
    ",",
    " ",
    "+",
    "\t",
    "x",
    "é",
    "\r",
    "#",
    "2a",
    "D",
    "R",
    "W",
];

/// Lines of one format (header first, when it has one), a few of them mutated, now and
/// then one of another format.
fn mutated(rng: &mut Rng) -> Vec<u8> {
    let group = *rng.pick(SEED_LINES);
    let mut out = Vec::new();
    for i in 0..1 + rng.below(12) {
        let source = if rng.below(8) == 0 { *rng.pick(SEED_LINES) } else { group };
        let text = if i == 0 { source[0] } else { *rng.pick(source) };
        let mut line = text.as_bytes().to_vec();
        let edits = if rng.below(3) == 0 { rng.below(4) } else { 0 };
        for _ in 0..edits {
            let at = rng.below(line.len() + 1);
            match rng.below(5) {
                0 if at < line.len() => {
                    line.remove(at);
                }
                1 => line.splice(at..at, rng.pick(MUTANTS).bytes()).for_each(drop),
                2 if at < line.len() => line[at] = rng.next() as u8,
                3 => line.truncate(at),
                _ => line.splice(at..at, (0..rng.below(30)).map(|_| b'9')).for_each(drop),
            }
        }
        out.extend(line);
        out.extend(*rng.pick(&[&b"\n"[..], b"\r\n", b"\n\n"]));
    }
    if rng.below(4) == 0 {
        out.pop();
    }
    out
}

fn random_options(rng: &mut Rng) -> ParseOptions {
    let mut o = ParseOptions { skip_bad_lines: rng.below(2) == 0, ..ParseOptions::default() };
    if rng.below(4) == 0 {
        o.max_requests = Some(1 + rng.below(5) as u64);
    }
    if rng.below(4) == 0 {
        o.devices = vec![rng.pick(&["0", "1", "hm_0", "259,2"]).to_string()];
    }
    if rng.below(4) == 0 {
        o.time_scale = *rng.pick(&[0.0, 0.5, 3.0, 1e300]);
    }
    if rng.below(4) == 0 {
        o.start_ns = Some(rng.below(1000) as u64);
    }
    o
}

/// The checks every outcome must pass.
fn check(
    input: &[u8],
    format: Option<&str>,
    o: &ParseOptions,
    result: &Result<Parsed, ParseError>,
    rng: &mut Rng,
) {
    match result {
        Err(e) => {
            let lines: Vec<&[u8]> = input.split(|&b| b == b'\n').collect();
            assert!(e.line >= 1 && e.column >= 1, "unlocated error: {e}");
            assert!(e.line as usize <= lines.len().max(1), "error past the end: {e}");
            let raw = lines.get(e.line as usize - 1).copied().unwrap_or_default();
            let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
            let raw = if e.line == 1 { raw.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(raw) } else { raw };
            if let Ok(text) = std::str::from_utf8(raw) {
                assert!(e.column as usize <= text.chars().count() + 1, "column past the line end: {e}");
                assert!(text.contains(&e.found), "found text not on the line: {e}");
            }
        }
        Ok(p) => {
            assert!(p.trace.requests.iter().all(|r| r.size >= 1));
            assert!(p.trace.requests.windows(2).all(|w| w[0].time_ns <= w[1].time_ns));
            assert_eq!(p.report.requests as usize, p.trace.requests.len());
        }
    }
    // Random chunking gives the same outcome.
    let chunk = 1 + rng.below(40);
    let streamed = (|| {
        let mut r = TraceReader::new(format, o.clone())?;
        for c in input.chunks(chunk) {
            r.feed(c)?;
        }
        r.finish()
    })();
    assert!(&streamed == result, "chunks of {chunk} differ: {streamed:?} vs {result:?}");
}

#[test]
fn fuzz_every_parser() {
    let seed = env_u64("TRACE_FUZZ_SEED", 0x5EED_F7A1_u64);
    let cases = env_u64("TRACE_FUZZ_CASES", 400);
    let mut formats: Vec<Option<&str>> = FORMATS.iter().map(|f| Some(*f)).collect();
    formats.push(None);
    let (mut ok, mut failed) = (0u64, 0u64);
    for case in 0..cases {
        let case_seed = seed.wrapping_add(case);
        let mut rng = Rng(case_seed);
        let input = if case % 2 == 0 { random_bytes(&mut rng) } else { mutated(&mut rng) };
        for &format in &formats {
            let o = random_options(&mut rng);
            let outcome = catch_unwind(AssertUnwindSafe(|| {
                let result = parse_with(&input, format, &o);
                check(&input, format, &o, &result, &mut rng);
                result.is_ok()
            }));
            match outcome {
                Ok(true) => ok += 1,
                Ok(false) => failed += 1,
                Err(_) => panic!(
                    "TRACE_FUZZ_SEED={seed} case {case} (seed {case_seed:#x}) format {format:?} options {o:?}\n\
                     input: {:?}",
                    String::from_utf8_lossy(&input)
                ),
            }
        }
    }
    // Both paths must be exercised for the properties to mean anything.
    println!("fuzz: {ok} parses succeeded, {failed} failed with located errors");
    assert!(ok > cases / 10 && failed > cases, "ok {ok}, failed {failed}");
}
