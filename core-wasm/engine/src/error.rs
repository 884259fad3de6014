//! Engine errors. Every fallible engine call returns [`EngineError`]; nothing panics on bad
//! input, so the wasm facade can turn each error into a JS exception and keep working.

use std::fmt;

use crate::trace::ParseError;

/// Everything that can go wrong inside the engine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EngineError {
    /// The configuration is impossible (zero blocks, logical space larger than the device, ...).
    Config(String),
    /// The trace could not be parsed.
    Trace(ParseError),
    /// The flash array refused an operation: a scheme bug, reported instead of corrupting state.
    IllegalFlashOp(String),
    /// The device has no free space left even after garbage collection.
    DeviceFull(String),
    /// An unknown scheme id was requested.
    UnknownScheme(String),
    /// An invariant check failed (only raised by explicit checks in tests and debug runs).
    Invariant(String),
    /// The simulation would need more host memory than its host allows ([`crate::timeline::HeapGuard`]):
    /// stepping stops, and what was simulated so far stays.
    HostMemory(String),
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::Config(m) => write!(f, "invalid configuration: {m}"),
            EngineError::Trace(e) => write!(f, "{e}"),
            EngineError::IllegalFlashOp(m) => write!(f, "illegal flash operation: {m}"),
            EngineError::DeviceFull(m) => write!(f, "device full: {m}"),
            EngineError::UnknownScheme(id) => write!(f, "unknown scheme '{id}'"),
            EngineError::Invariant(m) => write!(f, "invariant violated: {m}"),
            EngineError::HostMemory(m) => write!(f, "out of memory: {m}"),
        }
    }
}

impl std::error::Error for EngineError {}

impl EngineError {
    /// The same error, saying it happened while serving request `n` (1-based) of `total`.
    pub fn at_request(self, n: u64, total: u64) -> Self {
        self.while_doing(&format!("at request {n} of {total}"))
    }

    /// The same error, with what was being done when it happened in parentheses.
    pub fn while_doing(self, what: &str) -> Self {
        let at = |m: String| format!("{m} ({what})");
        match self {
            EngineError::Config(m) => EngineError::Config(at(m)),
            EngineError::IllegalFlashOp(m) => EngineError::IllegalFlashOp(at(m)),
            EngineError::DeviceFull(m) => EngineError::DeviceFull(at(m)),
            EngineError::Invariant(m) => EngineError::Invariant(at(m)),
            EngineError::HostMemory(m) => EngineError::HostMemory(at(m)),
            other => other,
        }
    }
}

impl From<ParseError> for EngineError {
    fn from(e: ParseError) -> Self {
        EngineError::Trace(e)
    }
}

/// Shorthand used throughout the engine.
pub type Result<T> = std::result::Result<T, EngineError>;
