//! Files that are not text traces. Every format is lines of text, so a file whose first
//! line holds NUL or control bytes, or starts with a known binary signature, is refused at
//! once with what it looks like, instead of the detector's "no known format" (or, when no
//! line break comes, "empty file") that would send the user looking for a bad line.
//!
//! gzip gets its own message: MSR Cambridge and SNIA traces are distributed as `.gz`. The
//! hosts decompress while streaming (the app with `DecompressionStream`, the CLI with
//! `flate2`), so the engine only sees gzip bytes when a host could not decompress them.

use super::ParseError;

/// The two bytes every gzip member starts with (RFC 1952 §2.3.1).
pub const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// Signatures of binary files people pick by mistake, with what they are.
const SIGNATURES: &[(&[u8], &str)] = &[
    (b"\x89PNG", "a PNG image"),
    (b"\0asm", "a WebAssembly module"),
    (b"\x7fELF", "an ELF executable"),
    (b"PK\x03\x04", "a zip archive"),
    (b"BZh", "bzip2-compressed data"),
    (b"\xfd7zXZ\0", "xz-compressed data"),
    (b"\x28\xb5\x2f\xfd", "zstd-compressed data"),
    (b"\xff\xd8\xff", "a JPEG image"),
    (b"GIF8", "a GIF image"),
    (b"%PDF-", "a PDF document"),
];

/// True when `bytes` start like a gzip file.
pub fn is_gzip(bytes: &[u8]) -> bool {
    bytes.starts_with(&GZIP_MAGIC)
}

/// The error for a first line that is not text, if it is not.
pub fn refuse(first_line: &[u8]) -> Option<ParseError> {
    let head = first_line.get(..first_line.len().min(512)).unwrap_or(first_line);
    if is_gzip(head) {
        let what = "a text trace; this file is compressed with gzip: decompress it first";
        return Some(ParseError::new(1, 1, "", what));
    }
    let kind = SIGNATURES.iter().find(|(sig, _)| head.starts_with(sig)).map(|(_, k)| *k);
    if kind.is_none() && !looks_binary(head) {
        return None;
    }
    // The bytes go in hex into the message: printed as found text they would be noise (and
    // `found` is always text of the line, which control bytes make unreadable).
    let first: Vec<String> = head.iter().take(8).map(|b| format!("{b:02x}")).collect();
    let what = format!(
        "a text trace, one request per line; this file looks binary ({}; it starts with bytes {})",
        kind.unwrap_or("not text"),
        first.join(" ")
    );
    Some(ParseError::new(1, 1, "", &what))
}

/// NUL or control bytes (other than tab, form feed and escape), or bytes that are not UTF-8
/// and mostly not ASCII: no trace format writes those. A Latin-1 comment stays text.
fn looks_binary(head: &[u8]) -> bool {
    let control = |b: &&u8| **b < 0x20 && !matches!(**b, b'\t' | b'\r' | 0x0c | 0x1b);
    if head.iter().any(|b| control(&b)) {
        return true;
    }
    // The line may be cut mid-character at 512 bytes: judge only what is complete.
    let valid = match std::str::from_utf8(head) {
        Ok(_) => return false,
        Err(e) if e.error_len().is_none() => return false,
        Err(e) => e.valid_up_to(),
    };
    let high = head.iter().filter(|b| **b >= 0x80).count();
    valid < head.len() && high * 4 >= head.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gzip_png_wasm_and_noise_are_named() {
        let e = refuse(&[0x1f, 0x8b, 8, 0, 0, 0]).unwrap();
        assert!(e.expected.contains("compressed with gzip: decompress it first"), "{e}");
        assert!(refuse(b"\x89PNG\r").unwrap().expected.contains("looks binary (a PNG image;"));
        assert!(refuse(b"\0asm\x01\0\0\0").unwrap().expected.contains("WebAssembly"));
        assert!(refuse(&[0x12, 0x80, 0xfe, 0x01]).unwrap().expected.contains("looks binary (not text;"));
    }

    #[test]
    fn text_lines_pass() {
        assert!(refuse(b"128166385295514663,hm,0,Write,9056014336,2048,2833").is_none());
        assert!(refuse(b"0.551706\t0 20941264 16 0").is_none());
        assert!(refuse("# caf\u{e9} trace".as_bytes()).is_none());
        assert!(refuse(b"# caf\xe9 trace, Latin-1").is_none());
        assert!(refuse(b"").is_none());
    }
}

#[cfg(test)]
mod reader_tests {
    use crate::trace::{parse, parse_with, ParseOptions};

    #[test]
    fn a_binary_file_is_refused_as_binary_even_when_lines_may_be_skipped() {
        // Before: "expected at least one request line (the file is empty or holds only blank
        // and comment lines), found ''".
        let gz = [0x1f, 0x8b, 8, 0, 0x12, 0x34, 0x56, 0, 0, 3, 0xcb, 0x48];
        let e = parse(&gz, None).unwrap_err();
        assert!(e.to_string().contains("compressed with gzip: decompress it first"), "{e}");
        let skip = ParseOptions { skip_bad_lines: true, ..ParseOptions::default() };
        let e = parse_with(b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR", Some("msr"), &skip).unwrap_err();
        assert!(e.to_string().contains("looks binary (a PNG image;"), "{e}");
        assert_eq!((e.line, e.column), (1, 1));
    }

    #[test]
    fn a_forced_format_whose_fields_do_not_fit_warns() {
        let disksim = b"0.551706 0 20941264 16 0\n1.25 0 20941280 16 1\n2.5 0 30000 8 1\n";
        let p = parse_with(disksim, Some("mqsim"), &ParseOptions::default());
        let w = match p {
            Ok(p) => p.report.warnings,
            Err(e) => vec![e.to_string()],
        };
        assert_eq!(w.len(), 1, "{w:?}");
        assert!(
            w[0].contains("do not have the fields of mqsim") && w[0].contains("look like disksim"),
            "{w:?}"
        );
        // Detected, or named and fitting: no warning.
        assert!(parse_with(disksim, None, &ParseOptions::default()).unwrap().report.warnings.is_empty());
        assert!(parse_with(disksim, Some("disksim"), &ParseOptions::default())
            .unwrap()
            .report
            .warnings
            .is_empty());
    }
}
