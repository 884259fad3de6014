//! The plain CSV writer: what `ftl generate` saves and every parser reads back.

use std::borrow::Borrow;
use std::io::{self, Write};

use crate::trace::HostOp;
use crate::trace::Request;

/// Header line of the CSV that [`write_csv`] produces. `time_us` (rather than a bare
/// `time`, which the plain parser reads as nanoseconds) names the unit explicitly.
pub const CSV_HEADER: &str = "op,offset,size,time_us";

/// One CSV record (no newline): `W,8192,4096,150` (time in µs, with up to three decimals
/// when the time is not a whole microsecond).
pub fn csv_record(r: &Request) -> String {
    let op = match r.op {
        HostOp::Read => 'R',
        HostOp::Write => 'W',
        HostOp::Trim => 'T',
    };
    let (us, ns) = (r.time_ns / 1000, r.time_ns % 1000);
    let time =
        if ns == 0 { us.to_string() } else { format!("{us}.{ns:03}").trim_end_matches('0').to_string() };
    format!("{op},{},{},{time}", r.offset, r.size)
}

/// Writes [`CSV_HEADER`] and one line per request.
pub fn write_csv<W: Write, R: Borrow<Request>>(
    out: &mut W,
    requests: impl IntoIterator<Item = R>,
) -> io::Result<()> {
    writeln!(out, "{CSV_HEADER}")?;
    for r in requests {
        writeln!(out, "{}", csv_record(r.borrow()))?;
    }
    Ok(())
}

/// The CSV text of `requests`.
pub fn to_csv(requests: &[Request]) -> String {
    let mut out = Vec::new();
    // Writing to a Vec cannot fail.
    let _ = write_csv(&mut out, requests);
    String::from_utf8(out).unwrap_or_default()
}
