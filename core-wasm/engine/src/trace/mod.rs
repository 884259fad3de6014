//! Block I/O traces: the request type every parser produces, located parse errors, and the
//! parsers themselves (one module per format).

mod error;
mod lines;
pub mod msr;

pub use error::ParseError;
pub use lines::{split_fields, Field, Lines};

use serde::Serialize;

use crate::events::HostOp;

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
    /// Requests in file order.
    pub requests: Vec<Request>,
}

/// Trace formats the engine can parse.
pub const FORMATS: &[&str] = &["msr"];

/// Parses `bytes` in `format` (`None` = detect from the content).
pub fn parse(bytes: &[u8], format: Option<&str>) -> Result<Trace, ParseError> {
    let format = match format {
        Some(f) => f.to_string(),
        None => detect(bytes)?.to_string(),
    };
    match format.as_str() {
        "msr" => msr::parse(bytes),
        other => Err(ParseError::new(0, 0, other, &format!("a known trace format ({})", FORMATS.join(", ")))),
    }
}

/// Guesses the format from the first data line.
pub fn detect(bytes: &[u8]) -> Result<&'static str, ParseError> {
    let mut lines = Lines::new(bytes);
    let first = loop {
        match lines.next_line()? {
            None => return Err(ParseError::new(1, 1, "", "at least one request line (the file is empty)")),
            Some((_, l)) if l.trim().is_empty() || l.starts_with('#') => continue,
            Some((_, l)) => break l.to_string(),
        }
    };
    if msr::looks_like(&first) {
        return Ok("msr");
    }
    let shown: String = first.chars().take(60).collect();
    Err(ParseError::new(1, 1, &shown, "a line of a known trace format (MSR Cambridge CSV: Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime)"))
}
