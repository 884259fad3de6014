//! FIU IODedup traces (SNIA IOTTA #390: homes, mail, web-vm, ...), whitespace-separated:
//!
//! `ts pid process lba size op major minor md5`
//!
//! - ts: nanoseconds. pid: integer, ignored. process: one word, ignored.
//! - lba: 512 B blocks. size: 512 B blocks. op: `R` read, `W` write (any case).
//! - major, minor: device numbers; the device id is `major,minor` (e.g. `6,0`).
//! - md5 (content hash per 4 KiB) and later fields: ignored; md5 may be missing.
//!
//! Example: `89968195792462 20782 gzip 283193184 8 R 6 0 56f11b711d91a065a2b6458eca924523`.

use super::format::{Ctx, Device, Outcome, Record};
use super::lines::Fields;
use super::{num, ParseError};

/// Record layout.
pub const LAYOUT: &str = "ts_ns pid process lba size_blocks R|W major minor [md5]";

/// True when `line` has the FIU shape.
pub fn sniff(line: &str) -> bool {
    let f = Fields::ws(line);
    f.count() >= 8
        && [0, 1, 3, 4, 6, 7].iter().all(|&i| num::int(0, f.at(i), "").is_ok())
        && num::read_write_letter(f.at(5).text).is_some()
}

/// Parses one record.
pub fn parse_line<'a>(line: &'a str, n: u32, ctx: &Ctx) -> Result<Outcome<'a>, ParseError> {
    let f = Fields::ws(line);
    f.require(8, n, line, LAYOUT)?;
    let time_ns = num::time(n, f.at(0), ctx.unit)?;
    num::int(n, f.at(1), "a process id (integer)")?;
    let offset = num::sectors(n, f.at(3), ctx.sector, "an LBA in 512 B blocks (integer)")?;
    let size = num::sectors(n, f.at(4), ctx.sector, "a size in 512 B blocks (integer)")?;
    let size = num::size(n, f.at(4), size)?;
    let op = num::read_write_letter(f.at(5).text)
        .ok_or_else(|| ParseError::new(n, f.at(5).column, f.at(5).text, "'R' or 'W'"))?;
    num::int(n, f.at(6), "a major device number (integer)")?;
    num::int(n, f.at(7), "a minor device number (integer)")?;
    num::extent(n, f.at(3), offset, size)?;
    let device = Some(Device::two(f.at(6).text, ",", f.at(7).text));
    Ok(Outcome::Request(Record { time_ns, op, offset, size, device }))
}
