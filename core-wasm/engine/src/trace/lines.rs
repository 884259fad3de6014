//! Line and field splitting shared by the text parsers: UTF-8 BOM, CRLF endings and
//! 1-based columns for error messages.

use super::ParseError;

/// The UTF-8 byte-order mark some Windows tools put at the start of a file.
pub const BOM: &[u8] = &[0xEF, 0xBB, 0xBF];

/// Iterates the lines of a byte buffer, yielding (1-based line number, text without EOL).
pub struct Lines<'a> {
    rest: &'a [u8],
    line: u32,
}

impl<'a> Lines<'a> {
    /// Starts at the beginning of `bytes`, skipping a UTF-8 byte-order mark.
    pub fn new(bytes: &'a [u8]) -> Self {
        let rest = bytes.strip_prefix(BOM).unwrap_or(bytes);
        Lines { rest, line: 0 }
    }

    /// The next line, or `None` at the end. Invalid UTF-8 is an error at that line.
    pub fn next_line(&mut self) -> Result<Option<(u32, &'a str)>, ParseError> {
        if self.rest.is_empty() {
            return Ok(None);
        }
        self.line = self.line.saturating_add(1);
        let (raw, rest) = match self.rest.iter().position(|&b| b == b'\n') {
            Some(end) => (&self.rest[..end], &self.rest[end + 1..]),
            None => (self.rest, &[][..]),
        };
        self.rest = rest;
        decode(self.line, raw.strip_suffix(b"\r").unwrap_or(raw)).map(|s| Some((self.line, s)))
    }
}

/// `raw` as text, or an error at the first invalid byte.
pub fn decode(line: u32, raw: &[u8]) -> Result<&str, ParseError> {
    std::str::from_utf8(raw).map_err(|e| {
        // The column counts characters, like every other column, not bytes.
        let valid = raw.get(..e.valid_up_to()).unwrap_or_default();
        let column = String::from_utf8_lossy(valid).chars().count() as u32 + 1;
        ParseError::new(line, column, &String::from_utf8_lossy(raw), "UTF-8 text")
    })
}

/// True for blank lines and `#` comments, which every format skips.
pub fn is_blank_or_comment(line: &str) -> bool {
    // Fast answer for the usual line, which starts with a letter or digit.
    if line.as_bytes().first().is_some_and(u8::is_ascii_alphanumeric) {
        return false;
    }
    let t = line.trim_start();
    t.is_empty() || t.starts_with('#')
}

/// One field of a delimited line with its 1-based starting column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Field<'a> {
    /// 1-based column of the field's first character.
    pub column: u32,
    /// The text, trimmed of surrounding spaces (and of surrounding double quotes in CSV).
    pub text: &'a str,
}

/// Fields kept per line; later ones are counted but not stored, because every format
/// ignores trailing fields and a fixed array avoids one allocation per line.
pub const MAX_FIELDS: usize = 16;

/// The fields of one line.
#[derive(Debug, Clone)]
pub struct Fields<'a> {
    items: [Field<'a>; MAX_FIELDS],
    stored: usize,
    count: usize,
    end_column: u32,
}

impl<'a> Fields<'a> {
    fn empty() -> Self {
        Fields { items: [Field { column: 1, text: "" }; MAX_FIELDS], stored: 0, count: 0, end_column: 1 }
    }

    /// Splits on commas, trimming spaces and one pair of surrounding double quotes.
    pub fn csv(line: &'a str) -> Self {
        let mut f = Fields::empty();
        let bytes = line.as_bytes();
        // Columns count characters; on an ASCII line (nearly every trace) that is the byte
        // index, so only other lines pay for counting (this runs once per trace line).
        let ascii = bytes.is_ascii();
        let width = |s: &[u8]| if ascii { s.len() as u32 } else { chars(s) };
        let (mut start, mut start_col) = (0usize, 1u32);
        for (i, &b) in bytes.iter().enumerate() {
            if b == b',' {
                f.push(line, start, i, start_col, true);
                start_col += width(&bytes[start..=i]);
                start = i + 1;
            }
        }
        f.push(line, start, line.len(), start_col, true);
        f.end_column = start_col + width(&bytes[start..]);
        f
    }

    /// Splits on runs of spaces and tabs.
    pub fn ws(line: &'a str) -> Self {
        let mut f = Fields::empty();
        let mut open: Option<(usize, u32)> = None;
        let mut col = 1u32;
        for (i, &b) in line.as_bytes().iter().enumerate() {
            let blank = b == b' ' || b == b'\t';
            match (open, blank) {
                (None, false) => open = Some((i, col)),
                (Some((s, c)), true) => {
                    f.push(line, s, i, c, false);
                    open = None;
                }
                _ => {}
            }
            col += u32::from(is_char_start(b));
        }
        if let Some((s, c)) = open {
            f.push(line, s, line.len(), c, false);
        }
        f.end_column = col;
        f
    }

    fn push(&mut self, line: &'a str, start: usize, end: usize, column: u32, csv: bool) {
        self.count += 1;
        let Some(slot) = self.items.get_mut(self.stored) else { return };
        // Separators are ASCII, so `start..end` always falls on character boundaries.
        let mut text = line.get(start..end).unwrap_or_default();
        let mut column = column;
        if csv {
            // Spaces, tabs and quotes are one byte (and one column) each.
            let b = text.as_bytes();
            let blank = |c: u8| c == b' ' || c == b'\t';
            let (mut s, mut e) = (0, b.len());
            while s < e && blank(b[s]) {
                s += 1;
            }
            while e > s && blank(b[e - 1]) {
                e -= 1;
            }
            column += s as u32;
            if e - s >= 2 && b[s] == b'"' && b[e - 1] == b'"' {
                (s, e) = (s + 1, e - 1);
                column += 1;
            }
            text = text.get(s..e).unwrap_or_default();
        }
        *slot = Field { column, text };
        self.stored += 1;
    }

    /// Number of fields on the line (including any beyond `MAX_FIELDS`).
    pub fn count(&self) -> usize {
        self.count
    }

    /// Field `i`, or an empty field at the end of the line when there is none.
    pub fn at(&self, i: usize) -> Field<'a> {
        self.items
            .get(i)
            .filter(|_| i < self.stored)
            .copied()
            .unwrap_or(Field { column: self.end_column, text: "" })
    }

    /// Column just after the last character.
    pub fn end_column(&self) -> u32 {
        self.end_column
    }

    /// Checks there are at least `min` fields; otherwise an error at the end of the line.
    pub fn require(&self, min: usize, line: u32, text: &str, layout: &str) -> Result<(), ParseError> {
        if self.count >= min {
            return Ok(());
        }
        let what = format!("at least {min} fields ({layout}), got {}", self.count);
        Err(ParseError::new(line, self.end_column, text, &what))
    }
}

/// True unless `b` continues a multi-byte UTF-8 character: counting these counts characters.
fn is_char_start(b: u8) -> bool {
    b & 0xC0 != 0x80
}

/// Characters in `s`.
fn chars(s: &[u8]) -> u32 {
    s.iter().filter(|&&b| is_char_start(b)).count() as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bom_crlf_and_columns() {
        let mut l = Lines::new(b"\xEF\xBB\xBFa,b\r\nc, d\n");
        assert_eq!(l.next_line().unwrap(), Some((1, "a,b")));
        let (_, second) = l.next_line().unwrap().unwrap();
        let f = Fields::csv(second);
        assert_eq!(f.at(1), Field { column: 4, text: "d" });
        assert_eq!(l.next_line().unwrap(), None);
    }

    #[test]
    fn invalid_utf8_is_located() {
        let mut l = Lines::new(b"ok\nab\xFFc\n");
        l.next_line().unwrap();
        let e = l.next_line().unwrap_err();
        assert_eq!((e.line, e.column), (2, 3));
    }

    #[test]
    fn whitespace_fields_count_characters() {
        let f = Fields::ws("  é1\t 22   3 ");
        assert_eq!(f.count(), 3);
        assert_eq!(f.at(0), Field { column: 3, text: "é1" });
        assert_eq!(f.at(1), Field { column: 7, text: "22" });
        assert_eq!(f.at(2), Field { column: 12, text: "3" });
        assert_eq!(f.at(3).text, "");
        assert_eq!(f.end_column(), 14);
    }

    #[test]
    fn csv_quotes_and_overflow() {
        let f = Fields::csv(r#" "R" ,1"#);
        assert_eq!(f.at(0), Field { column: 3, text: "R" });
        let many = vec!["1"; 40].join(",");
        let f = Fields::csv(&many);
        assert_eq!(f.count(), 40);
        assert_eq!(f.at(20).text, "");
        assert!(f.require(41, 1, &many, "x").is_err());
    }
}
