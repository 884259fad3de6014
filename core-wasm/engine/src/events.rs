//! Typed events: what the FTL did, in order, so the UI can animate and narrate it.
//! Recording is optional ([`crate::config::SimConfig::record_events`]); with it off the
//! engine keeps counters only (fast mode).

use serde::Serialize;

use crate::flash::{BlockId, PageKind, Ppn};

/// Why a flash operation happened.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
#[repr(u8)]
pub enum Purpose {
    /// Serving host data.
    Data = 0,
    /// Reading or writing mapping (translation) pages.
    Translation = 1,
    /// Log-block writes of hybrid schemes.
    Log = 2,
    /// Buffer-block writes (real-time schemes).
    Buffer = 3,
    /// Garbage collection: valid-page copies and victim erases.
    Gc = 4,
    /// Log-block merges of hybrid schemes.
    Merge = 5,
}

impl Purpose {
    /// All purposes, in counter order.
    pub const ALL: [Purpose; 6] =
        [Purpose::Data, Purpose::Translation, Purpose::Log, Purpose::Buffer, Purpose::Gc, Purpose::Merge];

    /// Stable lower-case name (metrics keys).
    pub fn name(self) -> &'static str {
        match self {
            Purpose::Data => "data",
            Purpose::Translation => "translation",
            Purpose::Log => "log",
            Purpose::Buffer => "buffer",
            Purpose::Gc => "gc",
            Purpose::Merge => "merge",
        }
    }
}

/// Host operation kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum HostOp {
    /// Read.
    Read,
    /// Write.
    Write,
    /// Trim / discard.
    Trim,
}

/// One thing that happened inside the simulated device. Field names are the documentation:
/// `ppn`/`block`/`page` locate the page, `ns` is the simulated cost, `key` the LPN or
/// translation-page number stored there.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
#[allow(missing_docs)]
pub enum Event {
    /// A host request starts (index into the trace, first logical page, page count).
    Request { index: u64, op: HostOp, lpn: u32, pages: u32 },
    /// A page read.
    FlashRead { ppn: Ppn, block: BlockId, page: u32, purpose: Purpose, key: u32, ns: u64 },
    /// A spare-area-only read.
    OobRead { ppn: Ppn, block: BlockId, page: u32, purpose: Purpose, ns: u64 },
    /// A page program.
    FlashProgram {
        ppn: Ppn,
        block: BlockId,
        page: u32,
        purpose: Purpose,
        kind: PageKind,
        key: u32,
        version: u32,
        ns: u64,
    },
    /// A page became invalid.
    Invalidate { ppn: Ppn },
    /// A block erase.
    Erase { block: BlockId, purpose: Purpose, ns: u64 },
    /// Garbage collection picked `victim`, holding `valid` valid pages.
    GcStart { victim: BlockId, valid: u32 },
    /// Garbage collection of `victim` finished.
    GcEnd { victim: BlockId },
}
