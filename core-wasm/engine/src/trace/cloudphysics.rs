//! CloudPhysics VMware vSCSI traces in libCacheSim's CSV form, with a header:
//!
//! `version,time,op,size,lbn`
//!
//! - version: vSCSI trace format version, ignored. There is no device field (one virtual
//!   disk per file).
//! - time: seconds (integer, the vSCSI microsecond clock divided by 10^6).
//! - op: SCSI command opcode in hex. READ(6/10/12/16) `08/28/a8/88` are reads, WRITE
//!   `0a/2a/aa/8a` are writes; any other command (SYNCHRONIZE CACHE, UNMAP, ...) carries no
//!   address range in this CSV and is ignored.
//! - size: bytes. lbn: 512 B sectors.
//!
//! Example: `1,5633898,2a,512,42932745`.

use super::format::{Ctx, Outcome, Record};
use super::lines::Fields;
use super::{num, ParseError};
use crate::trace::HostOp;

/// Record layout.
pub const LAYOUT: &str = "version,time,op(SCSI opcode, hex),size,lbn";

fn op(code: u64) -> Option<HostOp> {
    match code {
        0x08 | 0x28 | 0x88 | 0xa8 => Some(HostOp::Read),
        0x0a | 0x2a | 0x8a | 0xaa => Some(HostOp::Write),
        _ => None,
    }
}

/// True when `line` has the CloudPhysics shape: trace version 1 or 2 and a two-digit read or
/// write SCSI opcode third (a Tencent line also has five integers, but a Unix time first).
pub fn sniff(line: &str) -> bool {
    let f = Fields::csv(line);
    f.count() == 5
        && matches!(f.at(0).text, "1" | "2")
        && f.at(2).text.len() == 2
        && [1, 3, 4].iter().all(|&i| num::int(0, f.at(i), "").is_ok())
        && num::hex(0, f.at(2), "").ok().and_then(op).is_some()
}

/// Parses one record.
pub fn parse_line<'a>(line: &'a str, n: u32, ctx: &Ctx) -> Result<Outcome<'a>, ParseError> {
    let f = Fields::csv(line);
    f.require(5, n, line, LAYOUT)?;
    num::int(n, f.at(0), "a trace version (integer)")?;
    let time_ns = num::time(n, f.at(1), ctx.unit)?;
    let code = num::hex(n, f.at(2), "a SCSI opcode in hex (28 read, 2a write)")?;
    let size = num::int(n, f.at(3), "a size in bytes (integer)")?;
    let size = num::size(n, f.at(3), size)?;
    let offset = num::sectors(n, f.at(4), ctx.sector, "an LBN in sectors (integer)")?;
    num::extent(n, f.at(4), offset, size)?;
    let Some(op) = op(code) else { return Ok(Outcome::Ignored) };
    Ok(Outcome::Request(Record { time_ns, op, offset, size, device: None }))
}
