//! The list of formats and what every format parser shares: the per-line outcome, the
//! parse context (units, sector size) and the dispatch from a format to its module.

use super::{
    blkparse, cloudphysics, disksim, fiu, mqsim, msr, plain, spc, ssdsim, systor, tencent, BlkEvent,
    ParseError, ParseOptions, TimeUnit,
};
use crate::trace::HostOp;

/// A supported trace format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// MSR Cambridge CSV ([`msr`]).
    Msr,
    /// UMass / SPC CSV ([`spc`]).
    Spc,
    /// DiskSim ASCII ([`disksim`]).
    Disksim,
    /// MQSim ASCII ([`mqsim`]).
    Mqsim,
    /// SSDsim ASCII ([`ssdsim`]).
    Ssdsim,
    /// blkparse default text ([`blkparse`]).
    Blkparse,
    /// FIU IODedup traces ([`fiu`]).
    Fiu,
    /// SYSTOR'17 CSV ([`systor`]).
    Systor,
    /// Tencent CBS CSV ([`tencent`]).
    Tencent,
    /// CloudPhysics vSCSI CSV ([`cloudphysics`]).
    Cloudphysics,
    /// Plain `op,offset,size[,time]` CSV with a header ([`plain`]).
    Plain,
}

impl Format {
    /// Every format, in the order detection tries them (most distinctive first). SSDsim is
    /// last because its lines are indistinguishable from MQSim's (same fields, same units).
    pub const ALL: [Format; 11] = [
        Format::Blkparse,
        Format::Fiu,
        Format::Msr,
        Format::Systor,
        Format::Spc,
        Format::Tencent,
        Format::Cloudphysics,
        Format::Plain,
        Format::Disksim,
        Format::Mqsim,
        Format::Ssdsim,
    ];

    /// The name used by `--format`, the app and [`super::FORMATS`].
    pub fn name(self) -> &'static str {
        match self {
            Format::Msr => "msr",
            Format::Spc => "spc",
            Format::Disksim => "disksim",
            Format::Mqsim => "mqsim",
            Format::Ssdsim => "ssdsim",
            Format::Blkparse => "blkparse",
            Format::Fiu => "fiu",
            Format::Systor => "systor",
            Format::Tencent => "tencent",
            Format::Cloudphysics => "cloudphysics",
            Format::Plain => "csv",
        }
    }

    /// Looks a format up by name or common alias, case-insensitively.
    pub fn from_name(name: &str) -> Option<Format> {
        let n = name.trim().to_ascii_lowercase();
        let alias = match n.as_str() {
            "umass" | "spc" => Some(Format::Spc),
            "blktrace" => Some(Format::Blkparse),
            "systor17" | "systor'17" => Some(Format::Systor),
            "tencent-cbs" | "cbs" => Some(Format::Tencent),
            "vscsi" | "cloudphysics-vscsi" => Some(Format::Cloudphysics),
            "plain" => Some(Format::Plain),
            _ => None,
        };
        alias.or_else(|| Format::ALL.into_iter().find(|f| f.name() == n))
    }

    /// The record layout, quoted in error messages.
    pub fn layout(self) -> &'static str {
        match self {
            Format::Msr => msr::LAYOUT,
            Format::Spc => spc::LAYOUT,
            Format::Disksim => disksim::LAYOUT,
            Format::Mqsim => mqsim::LAYOUT,
            Format::Ssdsim => ssdsim::LAYOUT,
            Format::Blkparse => blkparse::LAYOUT,
            Format::Fiu => fiu::LAYOUT,
            Format::Systor => systor::LAYOUT,
            Format::Tencent => tencent::LAYOUT,
            Format::Cloudphysics => cloudphysics::LAYOUT,
            Format::Plain => plain::LAYOUT,
        }
    }

    /// The unit of the time column when the caller does not override it.
    pub fn default_time_unit(self) -> TimeUnit {
        match self {
            Format::Msr => TimeUnit::Filetime,
            Format::Disksim => TimeUnit::Ms,
            Format::Mqsim | Format::Ssdsim | Format::Fiu | Format::Plain => TimeUnit::Ns,
            Format::Spc | Format::Blkparse | Format::Systor | Format::Tencent | Format::Cloudphysics => {
                TimeUnit::S
            }
        }
    }

    /// True when `line` has this format's shape (used by detection on a sample of lines).
    pub(super) fn sniff(self, line: &str) -> bool {
        match self {
            Format::Msr => msr::sniff(line),
            Format::Spc => spc::sniff(line),
            Format::Disksim => disksim::sniff(line),
            Format::Mqsim => mqsim::sniff(line),
            Format::Ssdsim => false,
            Format::Blkparse => blkparse::sniff(line),
            Format::Fiu => fiu::sniff(line),
            Format::Systor => systor::sniff(line),
            Format::Tencent => tencent::sniff(line),
            Format::Cloudphysics => cloudphysics::sniff(line),
            Format::Plain => false,
        }
    }

    /// True when `line` is this format's own header line.
    pub(super) fn sniff_header(self, line: &str) -> bool {
        let names = header_names(line);
        match self {
            Format::Msr => begins(&names, &["timestamp", "hostname", "disknumber", "type"]),
            Format::Spc => begins(&names, &["asu", "lba", "size", "opcode"]),
            Format::Systor => begins(&names, &["timestamp", "response", "iotype", "lun"]),
            Format::Tencent => begins(&names, &["timestamp", "offset", "size", "iotype", "volumeid"]),
            Format::Cloudphysics => begins(&names, &["version", "time", "op", "size", "lbn"]),
            Format::Plain => plain::Columns::from_header(line, 1).is_ok(),
            _ => false,
        }
    }
}

/// A header line's field names, lower-cased with spaces removed.
fn header_names(line: &str) -> Vec<String> {
    line.split(',').map(|n| n.trim().trim_matches('"').replace(' ', "").to_ascii_lowercase()).collect()
}

/// True when `names` begins with `want`.
fn begins(names: &[String], want: &[&str]) -> bool {
    names.len() >= want.len() && names.iter().zip(want).all(|(a, b)| a == b)
}

/// True when `line` reads like a header rather than a record: records of every
/// header-capable format start with a number, and a header has no purely numeric field (so
/// a record whose first field is damaged is reported, not skipped as a header).
pub(super) fn looks_like_header(line: &str) -> bool {
    let first = line.trim_start().trim_start_matches('"');
    let numeric = |f: &str| {
        let f = f.trim().trim_matches('"');
        !f.is_empty() && f.bytes().all(|b| b.is_ascii_digit())
    };
    !first.starts_with(|c: char| c.is_ascii_digit() || c == '.' || c == '+' || c == '-')
        && !line.split([',', ' ', '\t']).any(numeric)
}

/// A device id as written in the file, possibly two fields joined (blkparse `8,16`,
/// MSR `hm_0`), kept borrowed so that most lines allocate nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Device<'a> {
    /// First part.
    pub first: &'a str,
    /// Joiner written between the parts (empty for one-part ids).
    pub sep: &'static str,
    /// Second part (empty for one-part ids).
    pub second: &'a str,
}

impl<'a> Device<'a> {
    /// A one-field id.
    pub fn one(id: &'a str) -> Self {
        Device { first: id, sep: "", second: "" }
    }

    /// A two-field id written `first` `sep` `second`.
    pub fn two(first: &'a str, sep: &'static str, second: &'a str) -> Self {
        Device { first, sep, second }
    }

    /// True when the id reads `id`.
    pub fn is(&self, id: &str) -> bool {
        let (a, b, c) = (self.first.len(), self.sep.len(), self.second.len());
        id.len() == a + b + c
            && id.get(..a) == Some(self.first)
            && id.get(a..a + b) == Some(self.sep)
            && id.get(a + b..) == Some(self.second)
    }

    /// Writes the id into `buf` (cleared first).
    pub fn write_to(&self, buf: &mut String) {
        buf.clear();
        buf.push_str(self.first);
        buf.push_str(self.sep);
        buf.push_str(self.second);
    }
}

/// One request as the file states it, before selection and time rebasing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Record<'a> {
    /// Absolute time in ns on the trace's own clock.
    pub time_ns: u64,
    /// Operation.
    pub op: HostOp,
    /// Byte offset.
    pub offset: u64,
    /// Bytes (0 means the line carries no data and is ignored).
    pub size: u64,
    /// Device, for formats that name one.
    pub device: Option<Device<'a>>,
}

/// What one content line turned out to be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome<'a> {
    /// A request.
    Request(Record<'a>),
    /// A header line.
    Header,
    /// A well-formed line that carries no request.
    Ignored,
}

/// Fixed settings for one parse.
#[derive(Debug, Clone, Copy)]
pub struct Ctx {
    /// Unit of the time column.
    pub unit: TimeUnit,
    /// True when the caller chose `unit`; it then wins even over a unit a header names.
    pub unit_overridden: bool,
    /// Bytes per sector / block.
    pub sector: u64,
    /// blkparse action to replay.
    pub blk_event: BlkEvent,
}

impl Ctx {
    /// The settings `options` give for `format`.
    pub fn new(format: Format, options: &ParseOptions) -> Self {
        Ctx {
            unit: options.time_unit.unwrap_or(format.default_time_unit()),
            unit_overridden: options.time_unit.is_some(),
            sector: u64::from(options.sector_size.max(1)),
            blk_event: options.blkparse_event,
        }
    }
}

/// What a format remembers between lines.
#[derive(Debug, Clone, Default)]
pub struct State {
    /// A content line has been seen (so the next one cannot be a header).
    started: bool,
    /// The plain CSV header's column map.
    columns: Option<plain::Columns>,
    /// blkparse: inside the trailing summary block.
    blk_summary: bool,
}

/// A format's reader of simple lines ([`super::fast`]), for the formats that have one.
#[derive(Debug, Clone, Copy)]
pub enum FastReader {
    /// Plain CSV under its header's columns.
    Plain(plain::FastColumns),
    /// MSR Cambridge.
    Msr(Ctx),
}

impl State {
    /// The fast reader of `format`'s lines under `ctx`, when it has one. Only after the first
    /// content line, which may be a header (and gives plain CSV its columns).
    pub fn fast_reader(&self, format: Format, ctx: &Ctx) -> Option<FastReader> {
        if !self.started {
            return None;
        }
        match format {
            Format::Plain => Some(FastReader::Plain(self.columns.as_ref()?.fast(ctx))),
            Format::Msr => Some(FastReader::Msr(*ctx)),
            _ => None,
        }
    }
}

/// Parses one content line (not blank, not a comment) of `format`.
pub fn parse_line<'a>(
    format: Format,
    line: &'a str,
    n: u32,
    ctx: &Ctx,
    st: &mut State,
) -> Result<Outcome<'a>, ParseError> {
    let first = !st.started;
    st.started = true;
    match format {
        Format::Blkparse => return blkparse::parse_line(line, n, ctx, &mut st.blk_summary),
        Format::Plain if first => {
            st.columns = Some(plain::Columns::from_header(line, n)?);
            return Ok(Outcome::Header);
        }
        Format::Plain => {
            return match &st.columns {
                Some(c) => plain::parse_line(line, n, ctx, c),
                None => Err(ParseError::new(
                    n,
                    1,
                    line,
                    "a valid header line before the data (see the first line)",
                )),
            }
        }
        _ if first && looks_like_header(line) => return Ok(Outcome::Header),
        _ => {}
    }
    match format {
        Format::Msr => msr::parse_line(line, n, ctx),
        Format::Spc => spc::parse_line(line, n, ctx),
        Format::Disksim => disksim::parse_line(line, n, ctx),
        Format::Mqsim => mqsim::parse_line(line, n, ctx),
        Format::Ssdsim => ssdsim::parse_line(line, n, ctx),
        Format::Fiu => fiu::parse_line(line, n, ctx),
        Format::Systor => systor::parse_line(line, n, ctx),
        Format::Tencent => tencent::parse_line(line, n, ctx),
        Format::Cloudphysics => cloudphysics::parse_line(line, n, ctx),
        Format::Blkparse | Format::Plain => Ok(Outcome::Ignored),
    }
}
