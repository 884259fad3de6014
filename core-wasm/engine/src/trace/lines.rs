//! Line and field splitting shared by the text parsers: UTF-8 BOM, CRLF endings and
//! 1-based columns for error messages.

use super::ParseError;

/// Iterates the lines of a byte buffer, yielding (1-based line number, text without EOL).
pub struct Lines<'a> {
    rest: &'a [u8],
    line: u32,
}

impl<'a> Lines<'a> {
    /// Starts at the beginning of `bytes`, skipping a UTF-8 byte-order mark.
    pub fn new(bytes: &'a [u8]) -> Self {
        let rest = bytes.strip_prefix(&[0xEF, 0xBB, 0xBF]).unwrap_or(bytes);
        Lines { rest, line: 0 }
    }

    /// The next line, or `None` at the end. Invalid UTF-8 is an error at that line.
    pub fn next_line(&mut self) -> Result<Option<(u32, &'a str)>, ParseError> {
        if self.rest.is_empty() {
            return Ok(None);
        }
        self.line += 1;
        let end = self.rest.iter().position(|&b| b == b'\n').unwrap_or(self.rest.len());
        let raw = &self.rest[..end];
        self.rest = if end < self.rest.len() { &self.rest[end + 1..] } else { &[] };
        let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
        match std::str::from_utf8(raw) {
            Ok(s) => Ok(Some((self.line, s))),
            Err(e) => Err(ParseError::new(
                self.line,
                e.valid_up_to() as u32 + 1,
                &String::from_utf8_lossy(raw),
                "UTF-8 text",
            )),
        }
    }
}

/// One field of a delimited line with its 1-based starting column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Field<'a> {
    /// 1-based column of the field's first character.
    pub column: u32,
    /// The text, trimmed of surrounding spaces.
    pub text: &'a str,
}

/// Splits `line` on `sep`, keeping each field's column.
pub fn split_fields(line: &str, sep: char) -> Vec<Field<'_>> {
    let mut out = Vec::new();
    let mut column = 1u32;
    for part in line.split(sep) {
        let lead = part.len() - part.trim_start().len();
        out.push(Field { column: column + lead as u32, text: part.trim() });
        column += part.chars().count() as u32 + 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bom_crlf_and_columns() {
        let mut l = Lines::new(b"\xEF\xBB\xBFa,b\r\nc, d\n");
        assert_eq!(l.next_line().unwrap(), Some((1, "a,b")));
        let (_, second) = l.next_line().unwrap().unwrap();
        let f = split_fields(second, ',');
        assert_eq!(f[1], Field { column: 4, text: "d" });
        assert_eq!(l.next_line().unwrap(), None);
    }

    #[test]
    fn invalid_utf8_is_located() {
        let mut l = Lines::new(b"ok\nab\xFFc\n");
        l.next_line().unwrap();
        let e = l.next_line().unwrap_err();
        assert_eq!((e.line, e.column), (2, 3));
    }
}
