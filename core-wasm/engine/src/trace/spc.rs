//! UMass Trace Repository / SPC traces (Financial1/2, WebSearch1/2/3), CSV, no header:
//!
//! `ASU,LBA,Size,Opcode,Timestamp[,optional...]`
//!
//! - ASU: zero-based application-specific unit; it is the device id here, and every ASU has
//!   its own address space (filter one with the device option).
//! - LBA: offset within the ASU in blocks (512 B for the UMass traces; `sector_size` changes it).
//! - Size: bytes. Opcode: `R`/`r` read, `W`/`w` write.
//! - Timestamp: seconds (real, `s.d`) since the start of the trace.
//! - Later fields (e.g. `Alpha/NT`) are ignored.
//!
//! Example: `0,20941264,8192,W,0.551706,Alpha/NT`.

use super::format::{Ctx, Device, Outcome, Record};
use super::lines::Fields;
use super::{num, ParseError};

/// Record layout.
pub const LAYOUT: &str = "ASU,LBA,Size,Opcode,Timestamp[,...]";

/// True when `line` has the SPC shape (integers, a one-letter opcode, a decimal time).
pub fn sniff(line: &str) -> bool {
    let f = Fields::csv(line);
    f.count() >= 5
        && (0..3).all(|i| num::int(0, f.at(i), "").is_ok())
        && num::read_write_letter(f.at(3).text).is_some()
        && num::time(0, f.at(4), super::TimeUnit::S).is_ok()
}

/// Parses one record.
pub fn parse_line<'a>(line: &'a str, n: u32, ctx: &Ctx) -> Result<Outcome<'a>, ParseError> {
    let f = Fields::csv(line);
    f.require(5, n, line, LAYOUT)?;
    num::int(n, f.at(0), "an ASU number (integer)")?;
    let offset = num::sectors(n, f.at(1), ctx.sector, "an LBA in blocks (integer)")?;
    let size = num::int(n, f.at(2), "a Size in bytes (integer)")?;
    let size = num::size(n, f.at(2), size)?;
    let op = num::read_write_letter(f.at(3).text)
        .ok_or_else(|| ParseError::new(n, f.at(3).column, f.at(3).text, "Opcode 'R', 'r', 'W' or 'w'"))?;
    let time_ns = num::time(n, f.at(4), ctx.unit)?;
    num::extent(n, f.at(1), offset, size)?;
    Ok(Outcome::Request(Record { time_ns, op, offset, size, device: Some(Device::one(f.at(0).text)) }))
}
