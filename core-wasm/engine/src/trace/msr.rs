//! MSR Cambridge block traces (SNIA IOTTA):
//! `Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime`, no header.
//! Timestamp is a Windows FILETIME (100 ns ticks); Offset and Size are bytes; Type is
//! `Read` or `Write`. Example: `128166385295514663,hm,0,Write,9056014336,2048,2833`.

use super::{split_fields, Field, Lines, ParseError, Request, Trace};
use crate::events::HostOp;

const LAYOUT: &str = "Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime";

/// True when `line` has the MSR shape (7 fields, Read/Write in the fourth).
pub fn looks_like(line: &str) -> bool {
    let f = split_fields(line, ',');
    f.len() == 7
        && f[0].text.parse::<u64>().is_ok()
        && matches!(f[3].text.to_ascii_lowercase().as_str(), "read" | "write")
}

fn number(line: u32, f: &Field<'_>, what: &str) -> Result<u64, ParseError> {
    f.text.parse::<u64>().map_err(|_| ParseError::new(line, f.column, f.text, what))
}

/// Parses a whole MSR file.
pub fn parse(bytes: &[u8]) -> Result<Trace, ParseError> {
    let mut lines = Lines::new(bytes);
    let mut requests = Vec::new();
    let mut origin: Option<u64> = None;
    while let Some((n, line)) = lines.next_line()? {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let f = split_fields(line, ',');
        if f.len() < 6 {
            let last = f.last().map_or(1, |x| x.column + x.text.len() as u32);
            return Err(ParseError::new(n, last, line, &format!("7 comma-separated fields ({LAYOUT})")));
        }
        let ticks = number(n, &f[0], "a Windows FILETIME timestamp (integer, 100 ns ticks)")?;
        let op = match f[3].text.to_ascii_lowercase().as_str() {
            "read" => HostOp::Read,
            "write" => HostOp::Write,
            _ => return Err(ParseError::new(n, f[3].column, f[3].text, "Type 'Read' or 'Write'")),
        };
        let offset = number(n, &f[4], "a byte offset (integer)")?;
        let size = number(n, &f[5], "a size in bytes (integer)")?;
        if size == 0 || size > u64::from(u32::MAX) {
            return Err(ParseError::new(n, f[5].column, f[5].text, "a size between 1 and 4294967295 bytes"));
        }
        let origin = *origin.get_or_insert(ticks);
        let time_ns = ticks.saturating_sub(origin).saturating_mul(100);
        requests.push(Request { time_ns, op, offset, size: size as u32 });
    }
    if requests.is_empty() {
        return Err(ParseError::new(1, 1, "", &format!("at least one request line ({LAYOUT})")));
    }
    Ok(Trace { format: "msr".into(), requests })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_real_lines() {
        let t = parse(b"128166385295514663,hm,0,Write,9056014336,2048,2833\r\n128166385295514878,hm,0,Read,11855351808,512,2617\n").unwrap();
        assert_eq!(t.requests.len(), 2);
        assert_eq!(t.requests[0], Request { time_ns: 0, op: HostOp::Write, offset: 9056014336, size: 2048 });
        assert_eq!(t.requests[1].time_ns, 215 * 100);
        assert_eq!(t.requests[1].op, HostOp::Read);
    }

    #[test]
    fn errors_name_line_and_column() {
        let e = parse(b"1,hm,0,Write,0,512,1\n2,hm,0,Wrote,0,512,1\n").unwrap_err();
        assert_eq!((e.line, e.column), (2, 8));
        assert!(e.to_string().contains("'Wrote'"), "{e}");
        let e = parse(b"1,hm,0,Write,12x,512,1\n").unwrap_err();
        assert_eq!((e.line, e.column), (1, 14));
        let e = parse(b"1,hm,0,Write\n").unwrap_err();
        assert_eq!(e.line, 1);
        assert!(parse(b"").is_err());
        assert!(parse(b"1,hm,0,Write,0,0,1\n").unwrap_err().to_string().contains("size"));
    }
}
