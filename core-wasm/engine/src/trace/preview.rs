//! The upload preview: the first lines of a file as the parser reads them, with the format
//! (detected or chosen), what each field means and the units in force, before the user
//! commits to loading it. It runs the real detection and line parsers on a sample, so what
//! it shows is what the load will do, errors located the same way.

use serde::Serialize;

use super::detect::detect_bytes;
use super::fields::{fields, uses_sectors};
use super::format::{parse_line, Ctx, Outcome, State};
use super::lines::{is_blank_or_comment, Lines};
use super::{Format, ParseError, ParseOptions, FORMATS};
use crate::trace::HostOp;

/// Longest line text the preview returns, in characters.
pub const PREVIEW_LINE_CHARS: usize = 240;

/// One field's meaning.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FieldMeaning {
    /// Field name as the format's documentation calls it.
    pub name: &'static str,
    /// What it holds and in which unit.
    pub meaning: &'static str,
}

/// A request as one line states it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PreviewRequest {
    /// Time since the preview's first request, ns (negative when the file steps back). Not
    /// the absolute time: FILETIME stamps in ns exceed what a JavaScript number holds exactly.
    pub at_ns: i64,
    /// Operation.
    pub op: HostOp,
    /// Start address, bytes.
    pub offset: u64,
    /// Length, bytes.
    pub size: u64,
    /// Device id, for formats that name one.
    pub device: Option<String>,
}

/// What a previewed line is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum LineKind {
    /// A request.
    Request,
    /// The format's header line.
    Header,
    /// Well-formed but carries no request (a flush, another blkparse action, a summary).
    Ignored,
    /// Blank or a `#` comment.
    Comment,
    /// The parser refuses it (see `error`).
    Error,
    /// Not read: the format is unknown.
    Unread,
}

/// One line of the preview.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PreviewLine {
    /// 1-based line number.
    pub line: u32,
    /// The text, cut to [`PREVIEW_LINE_CHARS`].
    pub text: String,
    /// What it is.
    pub kind: LineKind,
    /// The request it states.
    pub request: Option<PreviewRequest>,
    /// Why the parser refuses it.
    pub error: Option<ParseError>,
}

/// The preview of a file's start.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Preview {
    /// The format the lines were read as; `None` when detection failed.
    pub format: Option<&'static str>,
    /// True when detected from the content (not chosen).
    pub detected: bool,
    /// The record layout.
    pub layout: Option<&'static str>,
    /// Each field's meaning, in file order.
    pub fields: Vec<FieldMeaning>,
    /// Time unit in force (`ns`, `filetime`, ...) and the format's own.
    pub time_unit: Option<&'static str>,
    /// The format's own time unit.
    pub default_time_unit: Option<&'static str>,
    /// Bytes per sector in force, when the format counts in sectors.
    pub sector_size: Option<u32>,
    /// The first lines.
    pub lines: Vec<PreviewLine>,
    /// Why nothing could be read (bad options, unknown or undetectable format).
    pub error: Option<ParseError>,
}

fn cut(text: &str) -> String {
    text.chars().take(PREVIEW_LINE_CHARS).collect()
}

/// The preview of `sample`, the start of a file (`complete` when it is the whole file, else
/// its last, possibly cut, line is left out), in `format` (`None` detects it), showing at
/// most `max_lines` lines.
pub fn preview(
    sample: &[u8],
    complete: bool,
    format: Option<&str>,
    options: &ParseOptions,
    max_lines: usize,
) -> Preview {
    // A binary file is refused on its first line, as the load refuses it; judged on the raw
    // sample, since one with no line break would otherwise be cut to nothing ("empty").
    let first_line = sample.split(|&b| b == b'\n').next().unwrap_or_default();
    let binary = super::binary::refuse(first_line);
    let sample = if complete {
        sample
    } else {
        sample.iter().rposition(|&b| b == b'\n').map_or(&sample[..0], |end| &sample[..=end])
    };
    let mut out = Preview {
        format: None,
        detected: format.is_none(),
        layout: None,
        fields: Vec::new(),
        time_unit: None,
        default_time_unit: None,
        sector_size: None,
        lines: Vec::new(),
        error: None,
    };
    let chosen = match format {
        Some(name) => Format::from_name(name).ok_or_else(|| {
            ParseError::new(0, 0, name, &format!("a known trace format ({})", FORMATS.join(", ")))
        }),
        None => detect_bytes(sample),
    };
    let found = options.validate().and_then(|()| binary.map_or(chosen, Err));
    let mut lines = Lines::new(sample);
    let Ok(f) = found else {
        out.error = found.err();
        // Show the lines anyway, so the user sees what was not recognised.
        while let (true, Ok(Some((n, text)))) = (out.lines.len() < max_lines, lines.next_line()) {
            out.lines.push(PreviewLine {
                line: n,
                text: cut(text),
                kind: LineKind::Unread,
                request: None,
                error: None,
            });
        }
        return out;
    };
    let ctx = Ctx::new(f, options);
    out.format = Some(f.name());
    out.layout = Some(f.layout());
    out.fields = fields(f).iter().map(|&(name, meaning)| FieldMeaning { name, meaning }).collect();
    out.time_unit = Some(ctx.unit.name());
    out.default_time_unit = Some(f.default_time_unit().name());
    out.sector_size = uses_sectors(f).then_some(options.sector_size);
    let mut state = State::default();
    let mut device = String::new();
    let mut first_ns: Option<u64> = None;
    while out.lines.len() < max_lines {
        let (n, text) = match lines.next_line() {
            Ok(Some(l)) => l,
            Ok(None) => break,
            Err(e) => {
                let line = e.line;
                out.lines.push(PreviewLine {
                    line,
                    text: cut(&e.found),
                    kind: LineKind::Error,
                    request: None,
                    error: Some(e),
                });
                continue;
            }
        };
        let mut row =
            PreviewLine { line: n, text: cut(text), kind: LineKind::Comment, request: None, error: None };
        if !is_blank_or_comment(text) {
            match parse_line(f, text, n, &ctx, &mut state) {
                Ok(Outcome::Request(r)) if r.size > 0 => {
                    row.kind = LineKind::Request;
                    let device = r.device.map(|d| {
                        d.write_to(&mut device);
                        device.clone()
                    });
                    let t0 = *first_ns.get_or_insert(r.time_ns);
                    let at_ns = i64::try_from(i128::from(r.time_ns) - i128::from(t0)).unwrap_or(i64::MAX);
                    row.request =
                        Some(PreviewRequest { at_ns, op: r.op, offset: r.offset, size: r.size, device });
                }
                Ok(Outcome::Request(_)) | Ok(Outcome::Ignored) => row.kind = LineKind::Ignored,
                Ok(Outcome::Header) => row.kind = LineKind::Header,
                Err(e) => {
                    row.kind = LineKind::Error;
                    row.error = Some(e);
                }
            }
        }
        out.lines.push(row);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::TimeUnit;

    const MSR: &[u8] = b"128166385295514663,hm,0,Write,9056014336,2048,2833\n\
        128166385295514664,hm,0,Read,4096,512,10\n";

    #[test]
    fn detects_and_reads_each_line_as_the_parser_does() {
        let p = preview(MSR, true, None, &ParseOptions::default(), 10);
        assert_eq!(
            (p.format, p.detected, p.time_unit, p.sector_size),
            (Some("msr"), true, Some("filetime"), None)
        );
        assert_eq!(p.fields.len(), 7);
        assert_eq!(p.fields[3].name, "Type");
        let r = p.lines[0].request.as_ref().unwrap();
        // Offset and size are bytes; times count from the first request.
        assert_eq!((r.at_ns, r.op, r.offset, r.size), (0, HostOp::Write, 9_056_014_336, 2048));
        assert_eq!(r.device.as_deref(), Some("hm_0"));
        let r = p.lines[1].request.as_ref().unwrap();
        // One FILETIME tick later: 100 ns.
        assert_eq!((r.at_ns, r.op), (100, HostOp::Read));
    }

    #[test]
    fn unit_and_sector_overrides_change_what_lines_mean() {
        let line = b"11412000 0 8 8 0\n11413000 0 657728 16 1\n";
        let p = preview(line, true, None, &ParseOptions::default(), 10);
        let r = p.lines[1].request.as_ref().unwrap();
        assert_eq!((p.format, r.at_ns, r.offset, r.size), (Some("mqsim"), 1000, 657_728 * 512, 16 * 512));
        let o = ParseOptions { time_unit: Some(TimeUnit::Us), sector_size: 4096, ..ParseOptions::default() };
        let p = preview(line, true, None, &o, 10);
        let r = p.lines[1].request.as_ref().unwrap();
        assert_eq!((p.time_unit, p.default_time_unit, p.sector_size), (Some("us"), Some("ns"), Some(4096)));
        assert_eq!((r.at_ns, r.offset, r.size), (1_000_000, 657_728 * 4096, 16 * 4096));
    }

    #[test]
    fn a_bad_line_is_located_and_the_rest_still_shown() {
        let text =
            b"# comment\n128166385295514663,hm,0,Write,9056014336,2048,2833\n1,hm,0,Sideways,0,512,1\n";
        let p = preview(text, true, Some("msr"), &ParseOptions::default(), 10);
        let kinds: Vec<_> = p.lines.iter().map(|l| l.kind).collect();
        assert_eq!(kinds, [LineKind::Comment, LineKind::Request, LineKind::Error]);
        let e = p.lines[2].error.as_ref().unwrap();
        assert_eq!((e.line, e.column, e.found.as_str()), (3, 8, "Sideways"));
    }

    #[test]
    fn an_unknown_format_shows_the_lines_unread_with_the_reason() {
        let p = preview(b"hello world\nsecond\n", true, None, &ParseOptions::default(), 10);
        assert_eq!(p.format, None);
        assert!(p.error.as_ref().unwrap().expected.contains("tried"));
        assert_eq!(p.lines.iter().map(|l| l.kind).collect::<Vec<_>>(), [LineKind::Unread; 2]);
        let p = preview(MSR, true, Some("nosuch"), &ParseOptions::default(), 10);
        assert_eq!(p.error.unwrap().found, "nosuch");
        let bad = ParseOptions { sector_size: 0, ..ParseOptions::default() };
        assert!(preview(MSR, true, None, &bad, 10).error.unwrap().expected.contains("sector size"));
    }

    #[test]
    fn a_cut_sample_drops_its_partial_last_line_and_the_limit_holds() {
        let cut_sample = &MSR[..MSR.len() - 5];
        assert_eq!(preview(cut_sample, false, None, &ParseOptions::default(), 10).lines.len(), 1);
        assert_eq!(preview(MSR, true, None, &ParseOptions::default(), 1).lines.len(), 1);
    }

    /// What the load calls binary, the preview calls binary too (not "empty" for a file
    /// with no line break in its sample), chosen format or not.
    #[test]
    fn a_binary_file_is_refused_as_the_load_refuses_it() {
        let bin: Vec<u8> =
            (0..70_000u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8 | 0x80).collect();
        let mut bin = bin;
        bin[..4].copy_from_slice(&[0x84, 0x80, 0xd1, 0x4a]);
        for format in [None, Some("msr")] {
            let p = preview(&bin[..64 * 1024], false, format, &ParseOptions::default(), 10);
            let e = p.error.expect("refused");
            assert!(e.expected.contains("looks binary"), "{e}");
            let load = crate::trace::parse(&bin, format).unwrap_err();
            assert!(load.to_string().contains("looks binary"), "{load}");
        }
    }

    #[test]
    fn every_format_documents_its_fields() {
        for f in Format::ALL {
            assert!(!fields(f).is_empty(), "{}", f.name());
        }
    }
}
