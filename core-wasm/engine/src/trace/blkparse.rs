//! blktrace events as printed by `blkparse` with its default format (blkparse(1)),
//! whitespace-separated:
//!
//! `maj,min cpu seq sec.nsec pid action RWBS [sector + nsectors] [process]`
//!
//! - maj,min: device (the device id, e.g. `259,2`). cpu, seq, pid: integers, ignored.
//! - sec.nsec: seconds since the start of the trace.
//! - action: Q queued, G get request, I inserted, D issued to the driver, C completed,
//!   M/F merges, U unplug, m message, ... Only the chosen action becomes requests: `D` by
//!   default (what the device saw), or `Q` (what the application issued, before merging).
//!   Every other action is ignored.
//! - RWBS: `D` discard (a trim), else `W` write, else `R` read; F (flush/FUA), S (sync),
//!   M (meta), A (ahead), N (no data) only qualify it. Events with none of R/W/D, or
//!   without a sector (flushes), carry no data and are ignored.
//! - sector, nsectors: 512 B sectors.
//!
//! The trailing summary (`CPU0 (259,2):`, `Total (...)`, `Throughput`, `Events`, ...) is
//! ignored up to the next event line. Example: `259,2 0 1 0.000000000 4020 Q R 282624 + 8 [java]`.

use super::format::{Ctx, Device, Outcome, Record};
use super::lines::Fields;
use super::{num, ParseError, TimeUnit};
use crate::trace::HostOp;

/// Record layout.
pub const LAYOUT: &str = "maj,min cpu seq sec.nsec pid action RWBS sector + nsectors [process]";

/// True for a `maj,min` device number.
fn is_devno(text: &str) -> bool {
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    text.split_once(',').is_some_and(|(a, b)| digits(a) && digits(b))
}

/// True for the first line of blkparse's summary block.
pub(super) fn starts_summary(line: &str) -> bool {
    let t = line.trim_start();
    let cpu = t.strip_prefix("CPU").is_some_and(|r| r.starts_with(|c: char| c.is_ascii_digit()));
    cpu || t.starts_with("Total (")
}

/// True when `line` has the blkparse event shape.
pub fn sniff(line: &str) -> bool {
    let f = Fields::ws(line);
    f.count() >= 7
        && is_devno(f.at(0).text)
        && num::time(0, f.at(3), TimeUnit::S).is_ok()
        && f.at(5).text.bytes().all(|b| b.is_ascii_alphabetic())
}

/// Parses one line; `summary` remembers being inside the trailing summary block.
pub fn parse_line<'a>(
    line: &'a str,
    n: u32,
    ctx: &Ctx,
    summary: &mut bool,
) -> Result<Outcome<'a>, ParseError> {
    let f = Fields::ws(line);
    let dev = f.at(0);
    if !is_devno(dev.text) {
        *summary = *summary || starts_summary(line);
        if *summary {
            return Ok(Outcome::Ignored);
        }
        return Err(ParseError::new(n, dev.column, dev.text, &format!("a blkparse event line ({LAYOUT})")));
    }
    *summary = false;
    f.require(7, n, line, LAYOUT)?;
    num::int(n, f.at(1), "a CPU number (integer)")?;
    num::int(n, f.at(2), "a sequence number (integer)")?;
    let time_ns = num::time(n, f.at(3), ctx.unit)?;
    num::int(n, f.at(4), "a process id (integer)")?;
    let action = f.at(5);
    if action.text.is_empty() || !action.text.bytes().all(|b| b.is_ascii_alphabetic()) {
        return Err(ParseError::new(n, action.column, action.text, "an action letter (Q, G, I, D, C, ...)"));
    }
    if action.text != ctx.blk_event.letter() {
        return Ok(Outcome::Ignored);
    }
    let rwbs = f.at(6).text;
    let op = if rwbs.contains('D') {
        HostOp::Trim
    } else if rwbs.contains('W') {
        HostOp::Write
    } else if rwbs.contains('R') {
        HostOp::Read
    } else {
        return Ok(Outcome::Ignored);
    };
    let sector = f.at(7);
    if !sector.text.starts_with(|c: char| c.is_ascii_digit()) {
        return Ok(Outcome::Ignored);
    }
    let offset = num::sectors(n, sector, ctx.sector, "a start sector (integer)")?;
    let plus = f.at(8);
    if plus.text != "+" {
        return Err(ParseError::new(
            n,
            plus.column,
            plus.text,
            "'+' between the sector and the sector count",
        ));
    }
    let size = num::sectors(n, f.at(9), ctx.sector, "a sector count (integer)")?;
    let size = num::size(n, f.at(9), size)?;
    num::extent(n, sector, offset, size)?;
    Ok(Outcome::Request(Record { time_ns, op, offset, size, device: Some(Device::one(dev.text)) }))
}
