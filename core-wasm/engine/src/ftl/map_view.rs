//! What a scheme declares of its logical map, for the integrity checks
//! ([`crate::invariants::check_mapping`]) to rebuild it from flash and RAM.

use crate::ids::{BlockId, Ppn};

/// Where a scheme's logical map lives, as it declares it: flash (translation pages found
/// through a directory in RAM, then pages of entries that name their own LPNs) and entries
/// in RAM with their contents. `u32::MAX` is an unmapped entry.
#[derive(Debug, Clone)]
pub struct MapView<'a> {
    /// Translation-page number → the page holding its entries (`u32::MAX`: none yet), and
    /// entries per translation page. `None` when the whole map is in RAM.
    pub directory: Option<(&'a [Ppn], u32)>,
    /// Flash pages of kind [`PageKind::Dtp`](crate::ids::PageKind::Dtp) holding entries that name their own LPNs
    /// (HCFTL's dynamic translation pages), oldest first: a page's data is entries of
    /// [`MapView::entry_words`] words whose first two are LPN and PPN. They override the
    /// directory's pages, later ones the earlier.
    pub entry_pages: Vec<Ppn>,
    /// Words per entry in [`MapView::entry_pages`] (at least 2).
    pub entry_words: usize,
    /// `(lpn, ppn, dirty)` entries held in RAM. Dirty ones (all, without a directory) are the
    /// newest mapping; clean ones must equal what flash holds.
    pub ram: Vec<(u32, Ppn, bool)>,
    /// Blocks whose valid data pages map themselves, read back from their spare areas
    /// (block-mapped data blocks, NFTL replacement blocks): each such page maps the LPN its
    /// tag names. RAM entries come after and override them.
    pub blocks: Vec<BlockId>,
    /// `(lpn, version)` of data pages whose newest copy lives only in RAM (a write buffer),
    /// with their content's version: they count as held (their version must be the newest),
    /// and their entries above are not checked against flash.
    pub held: Vec<(u32, u32)>,
}

impl<'a> MapView<'a> {
    /// A map in translation pages found through `directory` (with `per` entries each)
    /// overridden by the `ram` entries.
    pub fn paged(directory: &'a [Ppn], per: u32, ram: Vec<(u32, Ppn, bool)>) -> Self {
        MapView {
            directory: Some((directory, per)),
            entry_pages: Vec::new(),
            entry_words: 2,
            ram,
            blocks: Vec::new(),
            held: Vec::new(),
        }
    }

    /// A map held wholly in RAM.
    pub fn in_ram(ram: Vec<(u32, Ppn, bool)>) -> Self {
        MapView {
            directory: None,
            entry_pages: Vec::new(),
            entry_words: 2,
            ram,
            blocks: Vec::new(),
            held: Vec::new(),
        }
    }

    /// A map read back from the data pages of `blocks` (each names its LPN in its spare
    /// area), overridden by the `ram` entries.
    pub fn in_blocks(blocks: Vec<BlockId>, ram: Vec<(u32, Ppn, bool)>) -> Self {
        MapView { directory: None, entry_pages: Vec::new(), entry_words: 2, ram, blocks, held: Vec::new() }
    }
}
