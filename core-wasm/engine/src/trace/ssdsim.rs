//! SSDsim ASCII traces (SSDsim `readme.txt`), whitespace-separated:
//!
//! `time device lsn size ope`
//!
//! - time: int64 nanoseconds. device: logical device number (the device id).
//! - lsn: logical sector number (512 B). size: sectors. ope: `1` read, `0` write.
//! - Later fields are ignored.
//!
//! Example (SSDsim's `example.ascii`, a UMass Financial1 prefix): `26214000 0 55590 6 0`.
//!
//! The layout and units are exactly MQSim's, so the parser is shared and detection reports
//! such files as `mqsim`; choosing `ssdsim` explicitly gives the same requests.

use super::format::{Ctx, Outcome};
use super::{mqsim, ParseError};

/// Record layout.
pub const LAYOUT: &str = "time_ns device lsn size_sectors ope(1 read, 0 write)";

/// Parses one record.
pub fn parse_line<'a>(line: &'a str, n: u32, ctx: &Ctx) -> Result<Outcome<'a>, ParseError> {
    mqsim::parse_with_layout(line, n, ctx, LAYOUT)
}
