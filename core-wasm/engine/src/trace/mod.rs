//! Block I/O traces: the request type every parser produces, located parse errors, and the
//! parsers themselves (one module per format).
//!
//! - [`parse`] / [`parse_with`] parse a whole buffer; [`TraceReader`] parses chunk by chunk
//!   (Web Worker, CLI) with the same result.
//! - The format is detected ([`detect()`]) unless named; [`FORMATS`] lists the names.
//! - [`ParseOptions`] selects requests (device, operation, time window, first N), scales
//!   time, overrides units and can skip bad lines; [`ParseReport`] says what happened.
//! - Times become ns since the first kept request; addresses become bytes.
//! - [`stats`] summarises a trace; [`generate`] makes seeded synthetic ones.
//!
//! `public/traces/README.md` documents every format for users.

pub mod binary;
pub mod blkparse;
pub mod cloudphysics;
mod detect;
pub mod disksim;
mod error;
mod fast;
mod fields;
pub mod fiu;
mod format;
pub mod generate;
mod lines;
pub mod mqsim;
pub mod msr;
mod num;
mod options;
pub mod plain;
pub mod preview;
mod reader;
mod select;
pub mod spc;
pub mod ssdsim;
pub mod stats;
pub mod systor;
pub mod tencent;

pub use error::ParseError;
pub use format::Format;
pub use lines::{Field, Fields, Lines};
pub use options::{BlkEvent, DeviceCount, ParseOptions, ParseReport, TimeUnit};
pub use reader::{Parsed, Progress, TraceReader, MAX_LINE};

use serde::Serialize;

/// Host operation kind (what a trace's request asks for).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum HostOp {
    /// Read.
    Read,
    /// Write.
    Write,
    /// Trim / discard.
    Trim,
}

/// One host request, in bytes, with its arrival time relative to the trace's first request.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Request {
    /// Arrival time in nanoseconds since the first request.
    pub time_ns: u64,
    /// Read, write or trim.
    pub op: HostOp,
    /// Byte offset.
    pub offset: u64,
    /// Length in bytes (at least 1).
    pub size: u32,
}

/// A parsed trace.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Trace {
    /// Format name (`msr`, ...).
    pub format: String,
    /// Requests in file order; times never decrease.
    pub requests: Vec<Request>,
}

/// Trace formats the engine can parse, by the names `format` arguments accept.
pub const FORMATS: &[&str] = &[
    "msr",
    "spc",
    "disksim",
    "mqsim",
    "ssdsim",
    "blkparse",
    "fiu",
    "systor",
    "tencent",
    "cloudphysics",
    "csv",
];

/// Parses `bytes` in `format` (`None` = detect from the content) with default options.
pub fn parse(bytes: &[u8], format: Option<&str>) -> Result<Trace, ParseError> {
    parse_with(bytes, format, &ParseOptions::default()).map(|p| p.trace)
}

/// Parses `bytes` with `options`, returning the trace and the report.
pub fn parse_with(bytes: &[u8], format: Option<&str>, options: &ParseOptions) -> Result<Parsed, ParseError> {
    let mut reader = TraceReader::new(format, options.clone())?;
    reader.feed(bytes)?;
    reader.finish()
}

/// Guesses the format from the first content lines. The error lists the formats tried.
pub fn detect(bytes: &[u8]) -> Result<&'static str, ParseError> {
    detect::detect_bytes(bytes).map(Format::name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn format_names_round_trip() {
        for name in FORMATS {
            assert_eq!(Format::from_name(name).map(Format::name), Some(*name));
        }
        for f in Format::ALL {
            assert!(FORMATS.contains(&f.name()));
        }
        assert_eq!(Format::from_name("UMass"), Some(Format::Spc));
        let e = parse(b"1,2\n", Some("nope")).unwrap_err();
        assert!(e.expected.contains("blkparse"), "{e}");
    }

    #[test]
    fn options_are_validated() {
        let bad = ParseOptions { time_scale: -1.0, ..ParseOptions::default() };
        assert!(TraceReader::new(None, bad).is_err());
        let bad = ParseOptions { start_ns: Some(5), end_ns: Some(5), ..ParseOptions::default() };
        assert!(TraceReader::new(None, bad).is_err());
        let bad = ParseOptions { max_requests: Some(0), ..ParseOptions::default() };
        assert!(TraceReader::new(None, bad).is_err());
    }
}
