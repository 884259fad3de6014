//! Plain CSV for hand-written and converted traces: a header naming the columns, then one
//! request per line, columns in any order:
//!
//! `op,offset,size[,time]`
//!
//! Header names (case-insensitive; unknown columns are ignored):
//! - op (`op`, `type`, `rw`, `iotype`, `opcode`, `operation`): `R`/`read`, `W`/`write`,
//!   `T`/`trim`/`D`/`discard`/`unmap`.
//! - offset: `offset` / `offset_bytes` in bytes, or `lba` / `sector` / `offset_sectors` in
//!   512 B sectors.
//! - size: `size` / `size_bytes` / `length` / `bytes` in bytes, or `sectors` /
//!   `size_sectors` / `nsectors` / `blocks` in 512 B sectors.
//! - time (optional): `time_ns`, `time_us`, `time_ms`, `time_s` name their unit; `time` /
//!   `timestamp` are nanoseconds. Without a time column every request arrives at 0.
//! - device (optional): `device`, `dev`, `volume`, `lun`, `asu`, `disk`.
//!
//! Example: header `op,offset,size,time_us`, line `W,8192,4096,150`.

use super::fast;
use super::format::{Ctx, Device, Outcome, Record};
use super::lines::{Fields, MAX_FIELDS};
use super::{num, ParseError, TimeUnit};
use crate::trace::HostOp;

/// Record layout.
pub const LAYOUT: &str = "op,offset,size[,time] (header required)";

/// Whether an address column counts bytes or sectors.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Unit {
    Bytes,
    Sectors,
}

/// Where the header put each column.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Columns {
    op: usize,
    offset: (usize, Unit),
    size: (usize, Unit),
    time: Option<(usize, Option<TimeUnit>)>,
    device: Option<usize>,
    min_fields: usize,
    /// What each of the first `min_fields` columns holds, for the fast path.
    slots: [Slot; MAX_FIELDS],
}

/// What a column holds, as the fast path reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
enum Slot {
    // The numbers first: the fast path keeps their values in an array by slot (less one:
    // 0 ends the fast path's list of columns, see `FastColumns::slots`).
    Offset = 1,
    Size,
    Time,
    Op,
    Device,
    Skip,
}

/// [`Slot`]s as the fast path's list of columns holds them.
const OFFSET: u64 = Slot::Offset as u64;
const SIZE: u64 = Slot::Size as u64;
const TIME: u64 = Slot::Time as u64;
const OP: u64 = Slot::Op as u64;
const DEVICE: u64 = Slot::Device as u64;
const SKIP: u64 = Slot::Skip as u64;

enum Role {
    Op,
    Offset(Unit),
    Size(Unit),
    Time(Option<TimeUnit>),
    Device,
}

fn role(name: &str) -> Option<Role> {
    Some(match name.to_ascii_lowercase().as_str() {
        "op" | "type" | "rw" | "iotype" | "opcode" | "operation" => Role::Op,
        "offset" | "offset_bytes" | "byte_offset" => Role::Offset(Unit::Bytes),
        "lba" | "sector" | "offset_sectors" => Role::Offset(Unit::Sectors),
        "size" | "size_bytes" | "length" | "len" | "bytes" => Role::Size(Unit::Bytes),
        "sectors" | "size_sectors" | "nsectors" | "blocks" => Role::Size(Unit::Sectors),
        "time" | "timestamp" => Role::Time(None),
        "time_ps" => Role::Time(Some(TimeUnit::Ps)),
        "time_ns" => Role::Time(Some(TimeUnit::Ns)),
        "time_us" => Role::Time(Some(TimeUnit::Us)),
        "time_ms" => Role::Time(Some(TimeUnit::Ms)),
        "time_s" | "seconds" => Role::Time(Some(TimeUnit::S)),
        "device" | "dev" | "volume" | "lun" | "asu" | "disk" => Role::Device,
        _ => return None,
    })
}

impl Columns {
    /// Reads the header line.
    pub fn from_header(line: &str, n: u32) -> Result<Columns, ParseError> {
        let f = Fields::csv(line);
        let (mut op, mut offset, mut size, mut time, mut device) = (None, None, None, None, None);
        for i in 0..f.count().min(MAX_FIELDS) {
            let field = f.at(i);
            let taken = match role(field.text) {
                None => false,
                Some(Role::Op) => op.replace(i).is_some(),
                Some(Role::Offset(u)) => offset.replace((i, u)).is_some(),
                Some(Role::Size(u)) => size.replace((i, u)).is_some(),
                Some(Role::Time(u)) => time.replace((i, u)).is_some(),
                Some(Role::Device) => device.replace(i).is_some(),
            };
            if taken {
                return Err(ParseError::new(n, field.column, field.text, "a header naming each column once"));
            }
        }
        match (op, offset, size) {
            (Some(op), Some(offset), Some(size)) => {
                let last = [Some(op), Some(offset.0), Some(size.0), time.map(|t| t.0), device];
                let min_fields = last.iter().flatten().max().map_or(0, |m| m + 1);
                let mut slots = [Slot::Skip; MAX_FIELDS];
                for (i, slot) in [
                    (Some(op), Slot::Op),
                    (Some(offset.0), Slot::Offset),
                    (Some(size.0), Slot::Size),
                    (time.map(|t| t.0), Slot::Time),
                    (device, Slot::Device),
                ] {
                    if let Some(s) = i.and_then(|i| slots.get_mut(i)) {
                        *s = slot;
                    }
                }
                Ok(Columns { op, offset, size, time, device, min_fields, slots })
            }
            _ => Err(ParseError::new(
                n,
                1,
                line,
                "a header line naming op, offset and size columns (e.g. 'op,offset,size,time_ns')",
            )),
        }
    }
}

fn op(text: &str) -> Option<HostOp> {
    const NAMES: [(&str, HostOp); 8] = [
        ("r", HostOp::Read),
        ("read", HostOp::Read),
        ("w", HostOp::Write),
        ("write", HostOp::Write),
        ("t", HostOp::Trim),
        ("trim", HostOp::Trim),
        ("d", HostOp::Trim),
        ("discard", HostOp::Trim),
    ];
    if text.eq_ignore_ascii_case("unmap") {
        return Some(HostOp::Trim);
    }
    NAMES.iter().find(|(name, _)| text.eq_ignore_ascii_case(name)).map(|&(_, op)| op)
}

/// The record of a simple line (`fast::is_simple`) whose op is a letter, whose numbers
/// are whole (bytes, sectors, whole-number times), exactly as [`parse_line`] reads it;
/// `None` sends the line the general way. The line is the first of `bytes`, which must end
/// in a newline (the reader needs to see it); it checks where the reader says the next
/// line starts. (The tests hold this one against [`parse_line`]; the reader's fast path
/// calls [`FastColumns::line`], or [`FastColumns::line_in_order`], which must agree.)
#[cfg(test)]
pub fn fast_line<'a>(bytes: &'a [u8], ctx: &Ctx, c: &Columns) -> Option<Record<'a>> {
    let newline = bytes.iter().position(|&b| b == b'\n').expect("a line ends in a newline");
    let fast = c.fast(ctx);
    let read = fast.line(bytes);
    if fast.in_order() {
        assert_eq!(fast.line_in_order(bytes), read, "the in-order reader and the general one");
    }
    let (rec, next) = read?;
    assert_eq!(next, newline + 1, "where the next line starts");
    Some(rec)
}

/// The header's columns with what the options make of them (units, the time's conversion),
/// worked out once for the reader's fast path rather than once a line.
#[derive(Debug, Clone, Copy)]
pub struct FastColumns {
    /// What each column read holds (up to the last the header names), 4 bits each, the
    /// first lowest, then zeros: a word the line's loop keeps in a register and shifts on,
    /// where walking an array took a counter and a pointer kept in memory.
    slots: u64,
    offset_unit: u64,
    size_unit: u64,
    /// The time column's conversion to ns (`None`: no time column).
    time: Option<num::ToNs>,
    device: bool,
    /// The first column is neither a number nor the op.
    text_first: bool,
}

impl Columns {
    /// The columns as the fast path reads them under `ctx`.
    pub fn fast(&self, ctx: &Ctx) -> FastColumns {
        let unit = |u: Unit| if u == Unit::Bytes { 1 } else { ctx.sector };
        FastColumns {
            slots: self
                .slots
                .iter()
                .take(self.min_fields)
                .rev()
                .fold(0, |list, &slot| list << 4 | slot as u64),
            offset_unit: unit(self.offset.1),
            size_unit: unit(self.size.1),
            time: self.time.map(|(_, named)| {
                num::ToNs::of(if ctx.unit_overridden { ctx.unit } else { named.unwrap_or(ctx.unit) })
            }),
            device: self.device.is_some(),
            text_first: matches!(self.slots.first(), Some(Slot::Device | Slot::Skip)),
        }
    }
}

impl FastColumns {
    /// The record of the simple line at the start of `bytes` (a reader's chunk), when the
    /// line ends inside them, and where the next line starts.
    ///
    /// One pass reads the header's columns in order and checks the line's bytes on the
    /// way: digits, commas and the op's letter need no other check; the bytes of other
    /// columns and of any after the last are checked as `fast::line_at` checks a line.
    #[inline(always)]
    pub fn line<'a>(&self, bytes: &'a [u8]) -> Option<(Record<'a>, usize)> {
        // A comment, a blank line, a leading space: the general path's. A number or an op
        // first refuses them anyway; other text needs the test.
        if self.text_first && !bytes.first()?.is_ascii_alphanumeric() {
            return None;
        }
        let (mut op, mut device) = (HostOp::Read, &bytes[..0]);
        // The offset, the size and the time, by slot: one way to read all three.
        let mut numbers = [0u64; 3];
        // The columns still to read.
        let mut slots = self.slots;
        // Where the field being read starts.
        let mut p = 0;
        loop {
            let slot = slots & 0xf;
            slots >>= 4;
            let end = match slot {
                OFFSET..=TIME => {
                    let (value, end) = fast::digits(bytes, p)?;
                    *numbers.get_mut((slot - OFFSET) as usize)? = value;
                    end
                }
                OP => {
                    // One letter, either case (only `W` and `w` are `w` in lower case, and
                    // so for `r`).
                    op = match bytes.get(p)? | 0x20 {
                        b'w' => HostOp::Write,
                        b'r' => HostOp::Read,
                        _ => return None,
                    };
                    p + 1
                }
                DEVICE => {
                    let end = fast::simple_field_end(bytes, p);
                    device = bytes.get(p..end)?;
                    end
                }
                SKIP => fast::simple_field_end(bytes, p),
                // No column (a header names at least three).
                _ => return None,
            };
            if slots == 0 {
                p = end;
                break;
            }
            // A comma before the next column (a line with fewer fields than the header's
            // columns, or a field that is not what its column holds, goes the general way).
            if bytes.get(end) != Some(&b',') {
                return None;
            }
            p = end + 1;
        }
        self.record(bytes, p, op, numbers, device)
    }

    /// Whether the header is `op,offset,size,time...` exactly (the usual one), which
    /// [`FastColumns::line_in_order`] reads.
    pub fn in_order(&self) -> bool {
        self.slots == OP | OFFSET << 4 | SIZE << 8 | TIME << 12
    }

    /// [`FastColumns::line`] for a header that is [`FastColumns::in_order`]: the columns
    /// read one after the other with no list to walk, their numbers kept in registers.
    #[inline(always)]
    pub fn line_in_order<'a>(&self, bytes: &'a [u8]) -> Option<(Record<'a>, usize)> {
        let op = match bytes.first()? | 0x20 {
            b'w' => HostOp::Write,
            b'r' => HostOp::Read,
            _ => return None,
        };
        let comma = |end: usize| (bytes.get(end) == Some(&b',')).then_some(end + 1);
        let (offset, end) = fast::digits(bytes, comma(1)?)?;
        let (size, end) = fast::digits(bytes, comma(end)?)?;
        let (time, end) = fast::digits(bytes, comma(end)?)?;
        self.record(bytes, end, op, [offset, size, time], &bytes[..0])
    }

    /// The record of a line whose columns end at `p` of `bytes`, from their values, and
    /// where the next line starts.
    #[inline(always)]
    fn record<'a>(
        &self,
        bytes: &'a [u8],
        p: usize,
        op: HostOp,
        numbers: [u64; 3],
        device: &'a [u8],
    ) -> Option<(Record<'a>, usize)> {
        // The line's end, after any columns the header does not name.
        let next = match bytes.get(p..)? {
            [b'\n', ..] => p + 1,
            [b'\r', b'\n', ..] => p + 2,
            [b',', ..] => fast::line_end(bytes, p)?.1,
            _ => return None,
        };
        let [offset, size, time] = numbers;
        let offset = offset.checked_mul(self.offset_unit)?;
        let size = size.checked_mul(self.size_unit)?;
        if size > u64::from(u32::MAX) {
            return None;
        }
        offset.checked_add(size)?;
        let time_ns = match self.time {
            Some(to_ns) => to_ns.apply(time)?,
            None => 0,
        };
        // The device's bytes are simple, hence ASCII: this never fails.
        let device = self.device.then(|| Device::one(std::str::from_utf8(device).unwrap_or_default()));
        Some((Record { time_ns, op, offset, size, device }, next))
    }
}

/// Parses one record with the header's column map.
pub fn parse_line<'a>(line: &'a str, n: u32, ctx: &Ctx, c: &Columns) -> Result<Outcome<'a>, ParseError> {
    let f = Fields::csv(line);
    f.require(c.min_fields, n, line, LAYOUT)?;
    let unit = |u: Unit| if u == Unit::Bytes { 1 } else { ctx.sector };
    let op_field = f.at(c.op);
    let op = op(op_field.text).ok_or_else(|| {
        ParseError::new(n, op_field.column, op_field.text, "an op 'R'/'read', 'W'/'write' or 'T'/'trim'")
    })?;
    let offset = num::sectors(n, f.at(c.offset.0), unit(c.offset.1), "an offset (integer)")?;
    let size = num::sectors(n, f.at(c.size.0), unit(c.size.1), "a size (integer)")?;
    let size = num::size(n, f.at(c.size.0), size)?;
    let time_ns = match c.time {
        Some((i, named)) => {
            let u = if ctx.unit_overridden { ctx.unit } else { named.unwrap_or(ctx.unit) };
            num::time(n, f.at(i), u)?
        }
        None => 0,
    };
    num::extent(n, f.at(c.offset.0), offset, size)?;
    let device = c.device.map(|i| Device::one(f.at(i).text));
    Ok(Outcome::Request(Record { time_ns, op, offset, size, device }))
}
