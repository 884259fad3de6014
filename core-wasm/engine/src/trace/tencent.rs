//! Tencent Cloud Block Storage traces (SNIA IOTTA, Zhang et al. ATC'20 "OSCA"), CSV, no
//! header:
//!
//! `Timestamp,Offset,Size,IOType,VolumeID`
//!
//! - Timestamp: Unix seconds (integer). Records within a second are not sorted; see the
//!   report's `reordered` count.
//! - Offset, Size: 512 B sectors. IOType: `0` read, `1` write (the opposite of MQSim).
//! - VolumeID: cloud virtual volume, the device id. Each volume has its own address space,
//!   so a single-SSD run should keep one volume (device option).
//! - Later fields are ignored.
//!
//! Example: `1538323199,13896880,128,0,1063`.

use super::format::{Ctx, Device, Outcome, Record};
use super::lines::Fields;
use super::{num, ParseError};
use crate::trace::HostOp;

/// Record layout.
pub const LAYOUT: &str = "Timestamp,Offset,Size,IOType(0 read, 1 write),VolumeID";

/// True when `line` has the Tencent shape (five integers, the fourth 0 or 1).
pub fn sniff(line: &str) -> bool {
    let f = Fields::csv(line);
    f.count() == 5 && (0..5).all(|i| num::int(0, f.at(i), "").is_ok()) && matches!(f.at(3).text, "0" | "1")
}

/// Parses one record.
pub fn parse_line<'a>(line: &'a str, n: u32, ctx: &Ctx) -> Result<Outcome<'a>, ParseError> {
    let f = Fields::csv(line);
    f.require(5, n, line, LAYOUT)?;
    let time_ns = num::time(n, f.at(0), ctx.unit)?;
    let offset = num::sectors(n, f.at(1), ctx.sector, "an Offset in sectors (integer)")?;
    let size = num::sectors(n, f.at(2), ctx.sector, "a Size in sectors (integer)")?;
    let size = num::size(n, f.at(2), size)?;
    let op = match f.at(3).text {
        "0" => HostOp::Read,
        "1" => HostOp::Write,
        other => return Err(ParseError::new(n, f.at(3).column, other, "IOType '0' (read) or '1' (write)")),
    };
    num::int(n, f.at(4), "a VolumeID (integer)")?;
    num::extent(n, f.at(1), offset, size)?;
    Ok(Outcome::Request(Record { time_ns, op, offset, size, device: Some(Device::one(f.at(4).text)) }))
}
