//! MQSim ASCII traces (`src/host/ASCII_Trace_Definition.h`), whitespace-separated:
//!
//! `arrival_time device_no start_sector size_sectors type`
//!
//! - arrival_time: integer, in the flow's `Time_Unit` (MQSim's sample workloads use
//!   NANOSECOND, the default here; override with the `time_unit` option for PICOSECOND or
//!   MICROSECOND traces).
//! - device_no: device number. MQSim ignores it; here it is the device id so a
//!   multi-device trace (e.g. WebSearch ASUs 0-5) can be narrowed to one device.
//! - start_sector, size_sectors: 512 B sectors. type: `0` write, `1` read.
//! - Later fields are ignored.
//!
//! Example: `11413000 0 657728 16 1`.

use super::format::{Ctx, Device, Outcome, Record};
use super::lines::Fields;
use super::{num, ParseError};
use crate::trace::HostOp;

/// Record layout.
pub const LAYOUT: &str = "arrival_time device_no start_sector size_sectors type(0 write, 1 read)";

/// True when `line` has the MQSim shape (integers, the type 0 or 1).
pub fn sniff(line: &str) -> bool {
    let f = Fields::ws(line);
    f.count() >= 5 && (0..4).all(|i| num::int(0, f.at(i), "").is_ok()) && matches!(f.at(4).text, "0" | "1")
}

/// Parses one record with `layout` quoted in errors (SSDsim shares the parser).
pub fn parse_with_layout<'a>(
    line: &'a str,
    n: u32,
    ctx: &Ctx,
    layout: &str,
) -> Result<Outcome<'a>, ParseError> {
    let f = Fields::ws(line);
    f.require(5, n, line, layout)?;
    let time_ns = num::time(n, f.at(0), ctx.unit)?;
    num::int(n, f.at(1), "a device number (integer)")?;
    let offset = num::sectors(n, f.at(2), ctx.sector, "a start sector (integer)")?;
    let size = num::sectors(n, f.at(3), ctx.sector, "a size in sectors (integer)")?;
    let size = num::size(n, f.at(3), size)?;
    let op = match f.at(4).text {
        "0" => HostOp::Write,
        "1" => HostOp::Read,
        other => {
            return Err(ParseError::new(n, f.at(4).column, other, "a request type '0' (write) or '1' (read)"))
        }
    };
    num::extent(n, f.at(2), offset, size)?;
    Ok(Outcome::Request(Record { time_ns, op, offset, size, device: Some(Device::one(f.at(1).text)) }))
}

/// Parses one record.
pub fn parse_line<'a>(line: &'a str, n: u32, ctx: &Ctx) -> Result<Outcome<'a>, ParseError> {
    parse_with_layout(line, n, ctx, LAYOUT)
}
