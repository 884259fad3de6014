//! DiskSim ASCII traces (`disksim_iotrace.c` reads them with `%lf %d %d %d %x`),
//! whitespace-separated:
//!
//! `time devno blkno bcount flags`
//!
//! - time: milliseconds (floating point) since the start of the trace.
//! - devno: device number (the device id). blkno, bcount: 512 B sectors.
//! - flags: hexadecimal; bit 0 set = read, clear = write. Other bits (synchronous,
//!   asynchronous, ...) do not change the operation and are ignored.
//! - Later fields are ignored.
//!
//! Example: `0.551706 0 20941264 16 0`.
//!
//! Detection needs a decimal point in the time (DiskSim writes `%lf`); an all-integer line is
//! taken as MQSim instead, whose layout is the same but whose time is in nanoseconds.

use super::format::{Ctx, Device, Outcome, Record};
use super::lines::Fields;
use super::{num, ParseError};
use crate::trace::HostOp;

/// Record layout.
pub const LAYOUT: &str = "time_ms devno blkno bcount flags";

/// True when `line` has the DiskSim shape.
pub fn sniff(line: &str) -> bool {
    let f = Fields::ws(line);
    f.count() >= 5
        && f.at(0).text.contains('.')
        && num::time(0, f.at(0), super::TimeUnit::Ms).is_ok()
        && (1..4).all(|i| num::int(0, f.at(i), "").is_ok())
        && num::hex(0, f.at(4), "").is_ok()
}

/// Parses one record.
pub fn parse_line<'a>(line: &'a str, n: u32, ctx: &Ctx) -> Result<Outcome<'a>, ParseError> {
    let f = Fields::ws(line);
    f.require(5, n, line, LAYOUT)?;
    let time_ns = num::time(n, f.at(0), ctx.unit)?;
    num::int(n, f.at(1), "a device number (integer)")?;
    let offset = num::sectors(n, f.at(2), ctx.sector, "a block number in sectors (integer)")?;
    let size = num::sectors(n, f.at(3), ctx.sector, "a block count in sectors (integer)")?;
    let size = num::size(n, f.at(3), size)?;
    let flags = num::hex(n, f.at(4), "flags in hexadecimal (bit 0: 1 read, 0 write)")?;
    let op = if flags & 1 == 1 { HostOp::Read } else { HostOp::Write };
    num::extent(n, f.at(2), offset, size)?;
    Ok(Outcome::Request(Record { time_ns, op, offset, size, device: Some(Device::one(f.at(1).text)) }))
}
