//! Format detection from the first content lines of a file.
//!
//! A header line names its format outright (SYSTOR, CloudPhysics, plain CSV, ...).
//! Otherwise every format scores the number of sampled lines it recognises; the best
//! score wins if it covers at least half the sample (so one corrupt line does not defeat
//! detection), ties going to the earlier, more distinctive format in [`Format::ALL`].

use super::blkparse;
use super::format::{looks_like_header, Format};
use super::lines::{is_blank_or_comment, Lines};
use super::ParseError;

/// Content lines sampled.
pub const SAMPLE_LINES: usize = 8;

/// Bytes after which detection stops waiting for more lines.
pub const SAMPLE_BYTES: usize = 64 * 1024;

/// The formats detection tries, for error messages.
fn tried() -> String {
    let names: Vec<&str> = Format::ALL.iter().filter(|f| **f != Format::Ssdsim).map(|f| f.name()).collect();
    format!(
        "a line of a known trace format (tried {}; ssdsim reads as mqsim); \
         choose the format explicitly to see what is wrong",
        names.join(", ")
    )
}

/// Picks the format of `sample`: (line number, text) of content lines from the file start.
pub fn detect_sample(sample: &[(u32, &str)]) -> Result<Format, ParseError> {
    let Some(&(first_n, first)) = sample.first() else {
        return Err(ParseError::new(
            1,
            1,
            "",
            "at least one request line (the file is empty or holds only blank and comment lines)",
        ));
    };
    let mut data = sample;
    if looks_like_header(first) {
        if let Some(f) = Format::ALL.into_iter().find(|f| f.sniff_header(first)) {
            return Ok(f);
        }
        // blkparse's summary lines also start with letters; only skip a real header.
        if !Format::Blkparse.sniff(first) {
            data = sample.get(1..).unwrap_or_default();
        }
    }
    // A short blkparse file ends in its summary within the sample; summary lines do not vote.
    if let Some(end) = data.iter().position(|(_, l)| blkparse::starts_summary(l)) {
        data = data.get(..end).unwrap_or_default();
    }
    let failed = || ParseError::new(first_n, 1, first, &tried());
    if data.is_empty() {
        return Err(failed());
    }
    let mut best: Option<(Format, usize)> = None;
    for f in Format::ALL {
        let score = data.iter().filter(|(_, l)| f.sniff(l)).count();
        if score > best.map_or(0, |b| b.1) {
            best = Some((f, score));
        }
    }
    match best {
        Some((f, score)) if score * 2 >= data.len() => Ok(f),
        _ => Err(failed()),
    }
}

/// Guesses the format of a whole buffer from its first content lines.
pub fn detect_bytes(bytes: &[u8]) -> Result<Format, ParseError> {
    let mut lines = Lines::new(bytes);
    let mut sample = Vec::new();
    let mut consumed = 0usize;
    while sample.len() < SAMPLE_LINES && consumed < SAMPLE_BYTES {
        match lines.next_line() {
            Ok(None) => break,
            Ok(Some((n, l))) => {
                consumed += l.len() + 1;
                if !is_blank_or_comment(l) {
                    sample.push((n, l));
                }
            }
            // Undecodable lines cannot vote; the parser reports them later.
            Err(_) => consumed += 1,
        }
    }
    detect_sample(&sample)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(line: &str) -> Result<&'static str, ParseError> {
        detect_sample(&[(1, line)]).map(|f| f.name())
    }

    #[test]
    fn each_format_is_recognised_from_one_line() {
        assert_eq!(one("128166385295514663,hm,0,Write,9056014336,2048,2833"), Ok("msr"));
        assert_eq!(one("0,20941264,8192,W,0.551706,Alpha/NT"), Ok("spc"));
        assert_eq!(one("0.551706 0 20941264 16 0"), Ok("disksim"));
        assert_eq!(one("11413000 0 657728 16 1"), Ok("mqsim"));
        assert_eq!(one("259,2    0        1     0.000000000  4020  Q   R 282624 + 8 [java]"), Ok("blkparse"));
        assert_eq!(
            one("89968195792462 20782 gzip 283193184 8 R 6 0 56f11b711d91a065a2b6458eca924523"),
            Ok("fiu")
        );
        assert_eq!(one("1456095145.133076000,0.000806000,R,0,899056122368,131072"), Ok("systor"));
        assert_eq!(one("1538323199,13896880,128,0,1063"), Ok("tencent"));
        assert_eq!(one("1,5633898,2a,512,42932745"), Ok("cloudphysics"));
        assert_eq!(one("version,time,op,size,lbn"), Ok("cloudphysics"));
        assert_eq!(one("Timestamp,Response,IOType,LUN,Offset,Size"), Ok("systor"));
        assert_eq!(one("op,offset,size,time_us"), Ok("csv"));
    }

    #[test]
    fn failures_say_what_was_tried() {
        let e = detect_sample(&[(3, "hello world")]).unwrap_err();
        assert_eq!((e.line, e.column), (3, 1));
        assert!(e.expected.contains("msr") && e.expected.contains("blkparse"), "{e}");
        assert_eq!(detect_bytes(b"# only a comment\n\n").unwrap_err().line, 1);
        let e = detect_bytes(b"name,other\n").unwrap_err();
        assert_eq!((e.line, e.found.as_str()), (1, "name,other"));
    }

    #[test]
    fn a_short_blkparse_file_with_its_summary() {
        let s = [
            (1, "8,0 1 1 0.1 9 D W 10 + 8 [a]"),
            (2, "CPU1 (8,0):"),
            (3, " Reads Queued:           0,        0KiB"),
            (4, " Read Dispatches:        1,        8KiB"),
        ];
        assert_eq!(detect_sample(&s).map(Format::name), Ok("blkparse"));
    }

    #[test]
    fn majority_vote_survives_a_bad_line() {
        let s = [(1, "11413000 0 657728 16 1"), (2, "garbage"), (3, "11565000 1 31244784 64 1")];
        assert_eq!(detect_sample(&s).map(Format::name), Ok("mqsim"));
    }
}
