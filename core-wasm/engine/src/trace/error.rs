use std::fmt;

use serde::Serialize;

/// A located parse error: line and column (1-based) of the offending text and what was
/// expected there. The host fills in `file` when it knows the name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ParseError {
    /// File name, if known.
    pub file: Option<String>,
    /// 1-based line (0 when the error is not about a line).
    pub line: u32,
    /// 1-based column in characters.
    pub column: u32,
    /// The offending text (shortened).
    pub found: String,
    /// What should have been there.
    pub expected: String,
}

impl ParseError {
    /// A new error at `line`:`column`; `found` is shortened.
    pub fn new(line: u32, column: u32, found: &str, expected: &str) -> Self {
        let found: String = found.chars().take(80).collect();
        ParseError { file: None, line, column, found, expected: expected.to_string() }
    }

    /// The same error, naming its file.
    pub fn in_file(mut self, file: &str) -> Self {
        self.file = Some(file.to_string());
        self
    }
}

/// `text` with its control and bidirectional-override characters escaped (`\0`, `\t`,
/// `\u{202e}`): a NUL inside a number would otherwise be invisible in a message, and an
/// override would reorder it.
fn shown(text: &str) -> String {
    let hidden = |c: char| {
        c.is_control()
            || matches!(c, '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
    };
    text.chars().map(|c| if hidden(c) { c.escape_debug().to_string() } else { c.to_string() }).collect()
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let file = self.file.as_deref().unwrap_or("trace");
        // Line 0: the error is about the file or an option, not about a place in it.
        if self.line == 0 {
            return write!(f, "{file}: expected {}, found '{}'", self.expected, shown(&self.found));
        }
        let found = shown(&self.found);
        write!(f, "{file}:{}:{}: expected {}, found '{found}'", self.line, self.column, self.expected)
    }
}

impl std::error::Error for ParseError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_in_the_found_text_are_shown_escaped() {
        let e = ParseError::new(2, 5, "40\u{0}96\u{202e}x\t", "a size (integer)");
        assert_eq!(e.found, "40\u{0}96\u{202e}x\t", "the text itself is kept");
        assert!(e.to_string().ends_with("found '40\\096\\u{202e}x\\t'"), "{e}");
    }

    #[test]
    fn an_error_not_about_a_line_has_no_line_and_column() {
        let e = ParseError::new(0, 0, "nope", "a known trace format").in_file("t.csv");
        assert_eq!(e.to_string(), "t.csv: expected a known trace format, found 'nope'");
        let e = ParseError::new(3, 1, "x", "y").in_file("t.csv");
        assert_eq!(e.to_string(), "t.csv:3:1: expected y, found 'x'");
    }
}
