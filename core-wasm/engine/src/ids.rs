//! The engine's identifiers and the plain kinds every layer names: physical page and block
//! numbers, what a page holds, the cell type. A leaf: it imports nothing of the engine, so
//! the flash array, the config, the events and the schemes can all use it without importing
//! one another.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Physical page number: `block * pages_per_block + page`.
pub type Ppn = u32;
/// Physical block number.
pub type BlockId = u32;

/// What a programmed page holds, as recorded in its spare (OOB) area.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[repr(u8)]
pub enum PageKind {
    /// Nothing (free page).
    #[default]
    None = 0,
    /// User data for logical page `key`.
    Data = 1,
    /// A translation (mapping) page with virtual number `key`.
    Translation = 2,
    /// A page of mapping entries each naming its own LPN (HCFTL's dynamic translation
    /// pages), with the scheme's id for it as `key`.
    Dtp = 3,
}

impl PageKind {
    /// Every kind, indexed by its code (`kind as u8`).
    pub const ALL: [PageKind; 4] = [PageKind::None, PageKind::Data, PageKind::Translation, PageKind::Dtp];
}

/// NAND cell type. MLC forbids out-of-order and repeated programs within a block.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum CellType {
    /// Single-level cell: pages of a free block may be programmed in any order.
    Slc,
    /// Multi-level cell: pages must be programmed in order, each once per erase.
    Mlc,
}
