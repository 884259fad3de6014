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
    /// A new error at `line`:`column`.
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

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let file = self.file.as_deref().unwrap_or("trace");
        write!(f, "{file}:{}:{}: expected {}, found '{}'", self.line, self.column, self.expected, self.found)
    }
}

impl std::error::Error for ParseError {}
