//! MSR Cambridge block traces (SNIA IOTTA #388), one CSV file per volume, no header:
//!
//! `Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime`
//!
//! - Timestamp: Windows FILETIME, 100 ns ticks since 1601-01-01 (absolute).
//! - Hostname, DiskNumber: the volume; the device id is `Hostname_DiskNumber` (`hm_0`),
//!   the name the literature and the file names use.
//! - Type: `Read` or `Write` (any case). Offset and Size: bytes.
//! - ResponseTime (FILETIME units) and any later field: ignored.
//!
//! Example: `128166385295514663,hm,0,Write,9056014336,2048,2833`.
//! A header line (`Timestamp,Hostname,...`, added by some copies) is skipped.

use super::fast::Split;
use super::format::{Ctx, Device, Outcome, Record};
use super::lines::Fields;
use super::{num, ParseError};
use crate::trace::HostOp;

/// Record layout.
pub const LAYOUT: &str = "Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime";

fn op(text: &str) -> Option<HostOp> {
    if text.eq_ignore_ascii_case("read") {
        Some(HostOp::Read)
    } else if text.eq_ignore_ascii_case("write") {
        Some(HostOp::Write)
    } else {
        None
    }
}

/// True when `line` has the MSR shape (an integer timestamp, Read/Write in the fourth field).
pub fn sniff(line: &str) -> bool {
    let f = Fields::csv(line);
    f.count() >= 6 && num::int(0, f.at(0), "").is_ok() && op(f.at(3).text).is_some()
}

/// The record of a simple line exactly as [`parse_line`] reads it; `None` sends the line the
/// general way. (The reader's fast path calls [`simple_line`]; the tests hold this one
/// against [`parse_line`].)
#[cfg(test)]
pub fn fast_line<'a>(line: &'a [u8], ctx: &Ctx) -> Option<Record<'a>> {
    super::fast::is_simple(line).then(|| simple_line(line, ctx)).flatten()
}

/// The record of a line known to be simple (`fast::is_simple`), exactly as [`parse_line`]
/// reads it; `None` sends the line the general way.
#[inline]
pub fn simple_line<'a>(line: &'a [u8], ctx: &Ctx) -> Option<Record<'a>> {
    let mut f = Split::empty();
    f.split_simple(line)?;
    if f.count() < 6 {
        return None;
    }
    let time_ns = num::whole_time(f.int(0)?, ctx.unit)?;
    let op = op(f.text(3))?;
    let offset = f.int(4)?;
    let size = f.int(5)?;
    if size > u64::from(u32::MAX) {
        return None;
    }
    offset.checked_add(size)?;
    let device = Some(Device::two(f.text(1), "_", f.text(2)));
    Some(Record { time_ns, op, offset, size, device })
}

/// Parses one record.
pub fn parse_line<'a>(line: &'a str, n: u32, ctx: &Ctx) -> Result<Outcome<'a>, ParseError> {
    let f = Fields::csv(line);
    f.require(6, n, line, LAYOUT)?;
    let time_ns = num::time(n, f.at(0), ctx.unit)?;
    let op = op(f.at(3).text)
        .ok_or_else(|| ParseError::new(n, f.at(3).column, f.at(3).text, "Type 'Read' or 'Write'"))?;
    let offset = num::int(n, f.at(4), "an Offset in bytes (integer)")?;
    let size = num::int(n, f.at(5), "a Size in bytes (integer)")?;
    let size = num::size(n, f.at(5), size)?;
    num::extent(n, f.at(4), offset, size)?;
    let device = Some(Device::two(f.at(1).text, "_", f.at(2).text));
    Ok(Outcome::Request(Record { time_ns, op, offset, size, device }))
}

#[cfg(test)]
mod tests {
    use super::super::{parse, parse_with, ParseOptions, Request};
    use super::*;

    #[test]
    fn parses_real_lines() {
        let t = parse(b"128166385295514663,hm,0,Write,9056014336,2048,2833\r\n128166385295514878,hm,0,Read,11855351808,512,2617\n", None).unwrap();
        assert_eq!(t.format, "msr");
        assert_eq!(t.requests.len(), 2);
        assert_eq!(t.requests[0], Request { time_ns: 0, op: HostOp::Write, offset: 9056014336, size: 2048 });
        assert_eq!(t.requests[1].time_ns, 215 * 100);
        assert_eq!(t.requests[1].op, HostOp::Read);
    }

    #[test]
    fn errors_name_line_and_column() {
        let e = parse(b"1,hm,0,Write,0,512,1\n2,hm,0,Wrote,0,512,1\n", None).unwrap_err();
        assert_eq!((e.line, e.column), (2, 8));
        assert!(e.to_string().contains("'Wrote'"), "{e}");
        let e = parse(b"1,hm,0,Write,12x,512,1\n", Some("msr")).unwrap_err();
        assert_eq!((e.line, e.column), (1, 14));
        let e = parse(b"1,hm,0,Write\n", Some("msr")).unwrap_err();
        assert_eq!((e.line, e.column), (1, 13));
        assert!(parse(b"", Some("msr")).is_err());
        let zero =
            parse_with(b"1,hm,0,Write,0,0,1\n2,hm,0,Read,0,512,1\n", Some("msr"), &ParseOptions::default());
        let zero = zero.unwrap();
        assert_eq!((zero.report.ignored, zero.trace.requests.len()), (1, 1));
    }
}
