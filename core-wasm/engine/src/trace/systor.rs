//! SYSTOR'17 Fujitsu VDI traces (SNIA IOTTA #4928), CSV with a header:
//!
//! `Timestamp,Response,IOType,LUN,Offset,Size`
//!
//! - Timestamp: Unix seconds with a fraction (nine digits, microsecond accurate).
//! - Response: seconds to complete, ignored.
//! - IOType: `R` read, `W` write, or blank (no request: the line is ignored).
//! - LUN: logical unit, the device id. Offset and Size: bytes.
//! - Later fields are ignored.
//!
//! Example: `1456095145.133076000,0.000806000,R,0,899056122368,131072`.

use super::format::{Ctx, Device, Outcome, Record};
use super::lines::Fields;
use super::{num, ParseError, TimeUnit};
use crate::trace::HostOp;

/// Record layout.
pub const LAYOUT: &str = "Timestamp,Response,IOType,LUN,Offset,Size";

fn op(text: &str) -> Option<Option<HostOp>> {
    match text {
        "R" | "r" => Some(Some(HostOp::Read)),
        "W" | "w" => Some(Some(HostOp::Write)),
        "" => Some(None),
        _ => None,
    }
}

/// True when `line` has the SYSTOR shape (decimal time and response, R/W/blank type).
pub fn sniff(line: &str) -> bool {
    let f = Fields::csv(line);
    f.count() >= 6
        && num::time(0, f.at(0), TimeUnit::S).is_ok()
        && num::time(0, f.at(1), TimeUnit::S).is_ok()
        && op(f.at(2).text).is_some()
        && (3..6).all(|i| num::int(0, f.at(i), "").is_ok())
}

/// Parses one record.
pub fn parse_line<'a>(line: &'a str, n: u32, ctx: &Ctx) -> Result<Outcome<'a>, ParseError> {
    let f = Fields::csv(line);
    f.require(6, n, line, LAYOUT)?;
    let time_ns = num::time(n, f.at(0), ctx.unit)?;
    let op = op(f.at(2).text)
        .ok_or_else(|| ParseError::new(n, f.at(2).column, f.at(2).text, "IOType 'R', 'W' or blank"))?;
    num::int(n, f.at(3), "a LUN (integer)")?;
    let offset = num::int(n, f.at(4), "an Offset in bytes (integer)")?;
    let size = num::int(n, f.at(5), "a Size in bytes (integer)")?;
    let size = num::size(n, f.at(5), size)?;
    num::extent(n, f.at(4), offset, size)?;
    let Some(op) = op else { return Ok(Outcome::Ignored) };
    Ok(Outcome::Request(Record { time_ns, op, offset, size, device: Some(Device::one(f.at(3).text)) }))
}
