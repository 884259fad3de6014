//! The NAND flash array: page states, spare-area tags, valid counts, erase counts and write
//! pointers. It enforces the physical rules and refuses anything else:
//!
//! - a page is programmed only when free (erase-before-write);
//! - on MLC, pages of a block are programmed in order, each once per erase;
//! - erase works on whole blocks and, as a guard against lost data, only on blocks without
//!   valid pages (an FTL must copy valid pages out, or invalidate them, first).
//!
//! Costs and events are not its business: see [`crate::device::Device`].

use serde::Serialize;

use super::valid_index::ValidIndex;
use crate::bits::Bits;
use crate::error::{EngineError, Result};
use crate::hash::StateHasher;
use crate::ids::CellType;

pub use crate::ids::{BlockId, PageKind, Ppn};

/// State of one physical page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[repr(u8)]
pub enum PageState {
    /// Erased, programmable.
    Free = 0,
    /// Holds current data.
    Valid = 1,
    /// Holds superseded data; reclaimed by erasing its block.
    Invalid = 2,
}

/// Spare-area contents the engine tracks: what the page holds and the version stamp used by
/// the integrity oracle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct PageTag {
    /// Content kind.
    pub kind: PageKind,
    /// Logical page number (data) or translation-page number (translation).
    pub key: u32,
    /// Version stamp of the content (per key, increasing).
    pub version: u32,
}

impl PageTag {
    /// Tag for user data of `lpn` at `version`.
    pub fn data(lpn: u32, version: u32) -> Self {
        PageTag { kind: PageKind::Data, key: lpn, version }
    }
}

/// Spare-area bytes the tag takes: the logical address (or translation-page number) and the
/// page kind, word-aligned. The tag's version stamp stands for the data area's contents.
pub const TAG_OOB_BYTES: u32 = 8;

/// What a scheme stored in a page besides its tag: main-area words (a translation page's
/// mapping entries) and spare-area words (an OOB sub-table, a back pointer). Bounded by the
/// device's `page_bytes` and `oob_bytes` less [`TAG_OOB_BYTES`]; a read returns it as
/// programmed, and an erase clears it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct PageContent {
    /// Main-area words.
    pub data: Vec<u32>,
    /// Spare-area words besides the tag.
    pub oob: Vec<u32>,
}

impl PageContent {
    /// Nothing besides the tag.
    pub fn is_empty(&self) -> bool {
        self.data.is_empty() && self.oob.is_empty()
    }
}

/// A page's state, content kind and whether it holds contents besides its tag, packed in
/// one byte (state in the low two bits, the contents flag in the high bit), so the hot random
/// access of the simulator — invalidating a superseded page — touches a one-byte array
/// (1 MiB for a 4 GiB device) instead of the page's whole tag.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Meta(u8);

impl Meta {
    const FREE: Meta = Meta(0);
    const CONTENT: u8 = 0x80;

    fn new(state: PageState, kind: PageKind) -> Self {
        Meta(state as u8 | (kind as u8) << 2)
    }

    fn has_content(self) -> bool {
        self.0 & Self::CONTENT != 0
    }

    fn with_content(self, content: bool) -> Self {
        Meta(if content { self.0 | Self::CONTENT } else { self.0 & !Self::CONTENT })
    }

    fn state(self) -> PageState {
        match self.0 & 3 {
            0 => PageState::Free,
            1 => PageState::Valid,
            _ => PageState::Invalid,
        }
    }

    fn kind(self) -> PageKind {
        // Two bits hold every kind's code (`new` puts one there), so the table needs no
        // range check.
        PageKind::ALL[usize::from((self.0 >> 2) & 3)]
    }

    fn with_state(self, state: PageState) -> Self {
        Meta(self.0 & !3 | state as u8)
    }

    /// Whether the page is in `state`: one comparison of the state bits, not a
    /// [`Meta::state`] decoded first (the hot paths ask this of every page they touch).
    #[inline(always)]
    fn is(self, state: PageState) -> bool {
        self.0 & 3 == state as u8
    }
}

/// The rest of a page's spare-area tag: key and version stamp (read on page reads and GC
/// copies, written on programs, both mostly sequential).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
struct KeyVersion {
    key: u32,
    version: u32,
}

/// The array of blocks and pages.
#[derive(Debug, Clone)]
pub struct FlashArray {
    pages_per_block: u32,
    /// log2 of `pages_per_block` when it is a power of two (every preset), so the page →
    /// block split on the hot path is a shift, not a division; `u32::MAX` otherwise.
    ppb_shift: u32,
    /// `pages_per_block - 1`: the page-in-block mask when `ppb_shift` applies.
    ppb_mask: u32,
    page_bytes: u32,
    oob_bytes: u32,
    /// Contents of the valid pages that carry any (sparse: data pages carry only tags), in
    /// slots; [`Meta`]'s flag says which pages have one and `content_at` which slot. A
    /// superseded page's slot is freed when it is invalidated: nothing reads it (reads and
    /// GC copies go to valid pages), and keeping contents until the erase made host memory
    /// grow with the history of translation-page writes instead of with what the device
    /// holds. A freed slot keeps its buffers for the next program (no allocation per
    /// translation-page write).
    contents: Vec<PageContent>,
    /// Per page: its slot in `contents` (empty until a page first holds contents).
    content_at: Vec<u32>,
    /// Slots of `contents` not in use.
    free_slots: Vec<u32>,
    cell: CellType,
    /// Per page: state and kind.
    meta: Vec<Meta>,
    /// Per page: tag key and version.
    tags: Vec<KeyVersion>,
    valid: Vec<u32>,
    programmed: Vec<u32>,
    erase_count: Vec<u32>,
    by_valid: ValidIndex,
}

impl FlashArray {
    /// An erased array of `blocks` blocks of `pages_per_block` pages.
    pub fn new(blocks: u32, pages_per_block: u32, cell: CellType) -> Self {
        let pages = blocks as usize * pages_per_block as usize;
        FlashArray {
            pages_per_block,
            ppb_shift: if pages_per_block.is_power_of_two() {
                pages_per_block.trailing_zeros()
            } else {
                u32::MAX
            },
            ppb_mask: pages_per_block.wrapping_sub(1),
            page_bytes: 4096,
            oob_bytes: 128,
            contents: Vec::new(),
            content_at: Vec::new(),
            free_slots: Vec::new(),
            cell,
            meta: vec![Meta::FREE; pages],
            tags: vec![KeyVersion::default(); pages],
            valid: vec![0; blocks as usize],
            programmed: vec![0; blocks as usize],
            erase_count: vec![0; blocks as usize],
            by_valid: ValidIndex::new(blocks, pages_per_block),
        }
    }

    /// Sets the page and spare-area sizes in bytes (default 4096 and 128) that bound what a
    /// page may hold.
    pub fn with_sizes(mut self, page_bytes: u32, oob_bytes: u32) -> Self {
        (self.page_bytes, self.oob_bytes) = (page_bytes, oob_bytes);
        self
    }

    /// Bytes of a page's data area.
    pub fn page_bytes(&self) -> u32 {
        self.page_bytes
    }

    /// Bytes of a page's spare area (the tag takes [`TAG_OOB_BYTES`] of them).
    pub fn oob_bytes(&self) -> u32 {
        self.oob_bytes
    }

    /// What a valid page holds besides its tag (`None`: only the tag, or the page is not
    /// valid: a superseded page's contents are not kept).
    pub fn content(&self, ppn: Ppn) -> Option<&PageContent> {
        let meta = self.meta.get(ppn as usize)?;
        meta.has_content().then(|| &self.contents[self.content_at[ppn as usize] as usize])
    }

    /// A slot for a page's contents (a freed one when there is one) and its buffers.
    fn store(&mut self, ppn: Ppn) -> &mut PageContent {
        if self.content_at.is_empty() {
            self.content_at = vec![u32::MAX; self.meta.len()];
        }
        let slot = self.free_slots.pop().unwrap_or_else(|| {
            self.contents.push(PageContent::default());
            (self.contents.len() - 1) as u32
        });
        self.content_at[ppn as usize] = slot;
        self.meta[ppn as usize] = self.meta[ppn as usize].with_content(true);
        &mut self.contents[slot as usize]
    }

    /// Refuses contents larger than the page's data area or spare area.
    fn check_fits(&self, ppn: Ppn, data_words: usize, oob_words: usize) -> Result<()> {
        let data = data_words as u64 * 4;
        let oob = oob_words as u64 * 4 + u64::from(TAG_OOB_BYTES);
        if data > u64::from(self.page_bytes) || oob > u64::from(self.oob_bytes) {
            return Err(EngineError::IllegalFlashOp(format!(
                "program of page {ppn} with {data} data bytes and {oob} spare bytes (tag included); the page holds {} and {}",
                self.page_bytes, self.oob_bytes
            )));
        }
        Ok(())
    }

    /// Blocks in the array.
    pub fn blocks(&self) -> u32 {
        self.valid.len() as u32
    }

    /// Pages per block.
    pub fn pages_per_block(&self) -> u32 {
        self.pages_per_block
    }

    /// The block holding `ppn`.
    pub fn block_of(&self, ppn: Ppn) -> BlockId {
        self.split(ppn).0
    }

    /// Block and page-in-block of `ppn`.
    #[inline]
    pub fn split(&self, ppn: Ppn) -> (BlockId, u32) {
        if self.ppb_shift != u32::MAX {
            (ppn >> self.ppb_shift, ppn & self.ppb_mask)
        } else {
            (ppn / self.pages_per_block, ppn % self.pages_per_block)
        }
    }

    /// First page of `block`.
    pub fn first_ppn(&self, block: BlockId) -> Ppn {
        block * self.pages_per_block
    }

    /// Starts loading the state of `ppn` and its block's counters (see [`crate::prefetch`]):
    /// the page a coming write will invalidate; with `tag`, also its tag, for a coming read.
    pub fn prefetch(&self, ppn: Ppn, tag: bool) {
        crate::prefetch::element(&self.meta, ppn as usize);
        if tag {
            crate::prefetch::element(&self.tags, ppn as usize);
        }
        let block = self.block_of(ppn);
        crate::prefetch::element(&self.valid, block as usize);
        self.by_valid.prefetch(block);
    }

    /// State of one page.
    pub fn state(&self, ppn: Ppn) -> PageState {
        self.meta[ppn as usize].state()
    }

    /// Whether page `ppn` holds current data (GC's copy loop asks it of every page of a
    /// victim).
    #[inline]
    pub fn is_valid(&self, ppn: Ppn) -> bool {
        self.meta[ppn as usize].is(PageState::Valid)
    }

    /// Spare-area tag of one page.
    pub fn tag(&self, ppn: Ppn) -> PageTag {
        let kv = self.tags[ppn as usize];
        PageTag { kind: self.meta[ppn as usize].kind(), key: kv.key, version: kv.version }
    }

    /// The key (logical page or translation-page number) in `ppn`'s tag: [`FlashArray::tag`]'s
    /// key without the page's state byte.
    #[inline]
    pub fn key(&self, ppn: Ppn) -> u32 {
        self.tags[ppn as usize].key
    }

    /// `block` is about to be collected (see [`ValidIndex::collecting`]).
    pub(crate) fn collecting(&mut self, block: BlockId) {
        if let Some(&valid) = self.valid.get(block as usize) {
            self.by_valid.collecting(block, valid);
        }
    }

    /// Valid pages in `block`.
    pub fn valid_count(&self, block: BlockId) -> u32 {
        self.valid[block as usize]
    }

    /// Pages programmed in `block` since its last erase.
    pub fn programmed_count(&self, block: BlockId) -> u32 {
        self.programmed[block as usize]
    }

    /// Times `block` was erased.
    pub fn erase_count(&self, block: BlockId) -> u32 {
        self.erase_count[block as usize]
    }

    /// The lowest-numbered written block with exactly `valid` valid pages that `accept`
    /// allows (greedy GC's victim search, bucket by bucket).
    pub fn min_block_with_valid(&self, valid: u32, accept: &impl Fn(BlockId) -> bool) -> Option<BlockId> {
        self.by_valid.min_in(valid, accept)
    }

    /// How many written blocks have `valid` valid pages.
    pub fn blocks_with_valid(&self, valid: u32) -> u32 {
        self.by_valid.len_of(valid)
    }

    /// No written block has fewer valid pages than this (see [`ValidIndex::lowest_bound`]):
    /// where a search bucket by bucket for the fewest valid pages can start.
    pub fn fewest_valid_bound(&self) -> u32 {
        self.by_valid.lowest_bound()
    }

    /// As [`FlashArray::min_block_with_valid`], among the blocks in `among` only: a search
    /// over a few candidates scattered through many written blocks skips the others by
    /// whole bitmap words.
    pub fn min_block_with_valid_among(
        &self,
        valid: u32,
        among: &Bits,
        accept: &impl Fn(BlockId) -> bool,
    ) -> Option<BlockId> {
        self.by_valid.min_in_among(valid, Some(among.words()), accept)
    }

    /// All page states, block-major (for frames).
    pub fn states(&self) -> impl ExactSizeIterator<Item = PageState> + '_ {
        self.meta.iter().map(|m| m.state())
    }

    /// Erase counts of all blocks.
    pub fn erase_counts(&self) -> &[u32] {
        &self.erase_count
    }

    /// Valid counts of all blocks.
    pub fn valid_counts(&self) -> &[u32] {
        &self.valid
    }

    fn check_ppn(&self, ppn: Ppn) -> Result<()> {
        if (ppn as usize) < self.meta.len() {
            Ok(())
        } else {
            Err(EngineError::IllegalFlashOp(format!("page {ppn} is outside the device")))
        }
    }

    /// Reads a page's tag. Reading an erased page is refused: no FTL should map to one.
    #[inline(always)] // hot path: see docs/perf.md, "Calls on the hot path"
    pub fn read(&self, ppn: Ppn) -> Result<PageTag> {
        self.check_ppn(ppn)?;
        if self.meta[ppn as usize].is(PageState::Free) {
            return Err(EngineError::IllegalFlashOp(format!(
                "read of erased page {ppn} (block {}, page {})",
                self.split(ppn).0,
                self.split(ppn).1
            )));
        }
        Ok(self.tag(ppn))
    }

    /// Reads a page's spare area: its tag, or an empty tag (kind `None`) for an erased page,
    /// so a scan of a partly written block can find its first free page.
    pub fn read_oob(&self, ppn: Ppn) -> Result<PageTag> {
        self.check_ppn(ppn)?;
        Ok(self.tag(ppn))
    }

    /// Programs a free page with `tag` and `content`, refusing content larger than the page's
    /// data area or spare area.
    pub(crate) fn program_with(&mut self, ppn: Ppn, tag: PageTag, content: PageContent) -> Result<()> {
        self.check_fits(ppn, content.data.len(), content.oob.len())?;
        self.program(ppn, tag)?;
        if !content.is_empty() {
            *self.store(ppn) = content;
        }
        Ok(())
    }

    /// Programs free page `dest` with `tag` and the contents of valid page `from`, which the
    /// caller invalidates next (GC's copy): the contents move to `dest` instead of being
    /// copied, and `from` keeps only its tag until then.
    #[inline(always)] // hot path: see docs/perf.md, "Calls on the hot path"
    pub(crate) fn program_moved(&mut self, dest: Ppn, tag: PageTag, from: Ppn) -> Result<()> {
        // Unchanged contents fit as they did when programmed: no check, so the slot itself
        // (a random one, often a cache miss) is not touched.
        self.move_contents(dest, tag, from).map(|_| ())
    }

    /// As [`FlashArray::program_moved`], changing the contents on the way with `edit` (a
    /// read-modify-write of a page whose old copy is invalidated next). `edit` must keep them
    /// within the page's sizes; it does not run when `from` holds only its tag.
    pub(crate) fn program_moved_with(
        &mut self,
        dest: Ppn,
        tag: PageTag,
        from: Ppn,
        edit: impl FnOnce(&mut PageContent),
    ) -> Result<()> {
        if let Some(slot) = self.move_contents(dest, tag, from)? {
            let c = &mut self.contents[slot as usize];
            edit(c);
            let (data, oob) = (c.data.len(), c.oob.len());
            self.check_fits(dest, data, oob)?;
        }
        Ok(())
    }

    /// Programs `dest` with `tag` and moves the contents slot of `from`, if it has one, to it:
    /// the slot.
    #[inline(always)] // hot path: see docs/perf.md, "Calls on the hot path"
    fn move_contents(&mut self, dest: Ppn, tag: PageTag, from: Ppn) -> Result<Option<u32>> {
        self.check_ppn(from)?;
        self.program(dest, tag)?;
        let meta = self.meta[from as usize];
        if !meta.has_content() {
            return Ok(None);
        }
        self.meta[from as usize] = meta.with_content(false);
        self.meta[dest as usize] = self.meta[dest as usize].with_content(true);
        let slot = std::mem::replace(&mut self.content_at[from as usize], u32::MAX);
        self.content_at[dest as usize] = slot;
        Ok(Some(slot))
    }

    /// GC's copy of valid page `from` to free page `dest` in one step: what
    /// [`FlashArray::read`] of `from`, [`FlashArray::program_moved`] of `dest` and
    /// [`FlashArray::invalidate_in`] of `from` do one after another, with each page's state
    /// checked once. Returns the page's tag and the blocks of `from` and `dest`, or `None`,
    /// changing nothing, when one of the three would refuse (the caller then runs them one
    /// by one, for the same error at the same point).
    #[inline(always)] // hot path: see docs/perf.md, "Calls on the hot path"
    pub(crate) fn move_page(&mut self, from: Ppn, dest: Ppn) -> Option<(PageTag, BlockId, BlockId)> {
        let (from_block, _) = self.split(from);
        let (dest_block, offset) = self.split(dest);
        let (&old, &free) = (self.meta.get(from as usize)?, self.meta.get(dest as usize)?);
        let in_order = self.cell != CellType::Mlc || offset == self.programmed[dest_block as usize];
        if !old.is(PageState::Valid) || !free.is(PageState::Free) || !in_order {
            return None;
        }
        // `dest` takes `from`'s byte as it is (valid, same kind, same contents flag) and its
        // key and version; `from` becomes invalid, without contents.
        let kv = self.tags[from as usize];
        self.meta[dest as usize] = old;
        self.tags[dest as usize] = kv;
        let valid = &mut self.valid[dest_block as usize];
        *valid += 1;
        let valid = *valid;
        self.programmed[dest_block as usize] += 1;
        self.by_valid.programmed(dest_block, valid);
        if old.has_content() {
            let slot = std::mem::replace(&mut self.content_at[from as usize], u32::MAX);
            self.content_at[dest as usize] = slot;
        }
        self.meta[from as usize] = old.with_state(PageState::Invalid).with_content(false);
        let valid = &mut self.valid[from_block as usize];
        *valid -= 1;
        let valid = *valid;
        self.by_valid.set(from_block, valid);
        Some((PageTag { kind: old.kind(), key: kv.key, version: kv.version }, from_block, dest_block))
    }

    /// GC's copies of a run of pages: [`FlashArray::move_page`] of each valid page from
    /// `from` to the end of its block, in order, to `dest` and the pages after it in its block,
    /// until either block runs out, a destination page is not free or a valid page's kind is
    /// not that of the page at `from` (GC starts a run at a valid page). `from`'s and `dest`'s
    /// blocks differ, and on MLC `dest` is its block's next page. Returns the pages moved, by
    /// kind, and the first page of `from`'s block not moved: the block's end, or a valid page
    /// that did not fit. Block counts and the valid-count index end as the moves one by one
    /// leave them (each block's count only falls, or only rises, so its bucket and the index's
    /// bound end where the last move puts them; the first program holds `dest` aside as it would).
    pub(crate) fn move_run(&mut self, from: Ppn, dest: Ppn) -> ([u32; 4], Ppn) {
        let (from_block, _) = self.split(from);
        let (dest_block, offset) = self.split(dest);
        let len = self.meta.len();
        let in_order =
            self.cell != CellType::Mlc || self.programmed.get(dest_block as usize) == Some(&offset);
        if from as usize >= len || dest as usize >= len || from_block == dest_block || !in_order {
            return ([0; 4], from);
        }
        // The two blocks' states and tags as slices of their own (no index checks in the loop).
        let ppb = self.pages_per_block as usize;
        let (f0, d0) = (from_block as usize * ppb, dest_block as usize * ppb);
        let (from_meta, dest_meta) = two_blocks(&mut self.meta, f0, d0, ppb);
        let (from_tags, dest_tags) = two_blocks(&mut self.tags, f0, d0, ppb);
        let mut kinds = [0u32; 4];
        let (mut p, mut d) = (from as usize - f0, dest as usize - d0);
        // A run is of one kind: schemes choose a copy's destination block by its kind.
        let kind = from_meta[p].kind();
        while p < ppb {
            let old = from_meta[p];
            if old.is(PageState::Valid) {
                if d == ppb || !dest_meta[d].is(PageState::Free) || old.kind() != kind {
                    break;
                }
                dest_meta[d] = old;
                dest_tags[d] = from_tags[p];
                if old.has_content() {
                    self.content_at[d0 + d] = std::mem::replace(&mut self.content_at[f0 + p], u32::MAX);
                }
                from_meta[p] = old.with_state(PageState::Invalid).with_content(false);
                kinds[old.kind() as usize] += 1;
                d += 1;
            }
            p += 1;
        }
        let (p, d) = (f0 + p, d0 + d);
        let moved = (d - dest as usize) as u32;
        if moved > 0 {
            let valid = &mut self.valid[dest_block as usize];
            *valid += moved;
            let valid = *valid;
            self.programmed[dest_block as usize] += moved;
            self.by_valid.programmed(dest_block, valid);
            let valid = &mut self.valid[from_block as usize];
            *valid -= moved;
            let valid = *valid;
            self.by_valid.set(from_block, valid);
        }
        (kinds, p as Ppn)
    }

    /// Programs a free page with `tag`, main-area words `data` and spare-area words `oob`,
    /// copied into a recycled slot's buffers (no allocation per page once slots exist).
    pub(crate) fn program_parts(&mut self, ppn: Ppn, tag: PageTag, data: &[u32], oob: &[u32]) -> Result<()> {
        self.check_fits(ppn, data.len(), oob.len())?;
        self.program(ppn, tag)?;
        if !data.is_empty() || !oob.is_empty() {
            let c = self.store(ppn);
            c.data.clear();
            c.data.extend_from_slice(data);
            c.oob.clear();
            c.oob.extend_from_slice(oob);
        }
        Ok(())
    }

    /// Programs a free page with `tag`; the page becomes valid.
    #[inline(always)] // hot path: see docs/perf.md, "Calls on the hot path"
    pub(crate) fn program(&mut self, ppn: Ppn, tag: PageTag) -> Result<()> {
        let (block, offset) = self.split(ppn);
        self.program_split(ppn, block, offset, tag)
    }

    /// [`FlashArray::program`] of `ppn`, which is page `offset` of `block` (its
    /// [`FlashArray::split`], which the caller needed too).
    #[inline(always)] // hot path: see docs/perf.md, "Calls on the hot path"
    pub(crate) fn program_split(
        &mut self,
        ppn: Ppn,
        block: BlockId,
        offset: u32,
        tag: PageTag,
    ) -> Result<()> {
        self.check_ppn(ppn)?;
        if !self.meta[ppn as usize].is(PageState::Free) {
            return Err(EngineError::IllegalFlashOp(format!(
                "program of non-free page {ppn} (block {block}, page {offset})"
            )));
        }
        if self.cell == CellType::Mlc && offset != self.programmed[block as usize] {
            return Err(EngineError::IllegalFlashOp(format!(
                "MLC out-of-order program: block {block} page {offset}, expected page {}",
                self.programmed[block as usize]
            )));
        }
        self.meta[ppn as usize] = Meta::new(PageState::Valid, tag.kind);
        self.tags[ppn as usize] = KeyVersion { key: tag.key, version: tag.version };
        // The count through one reference: indexing again would load and check it again (the
        // compiler cannot tell the stores between from one into the counts' own fields).
        let valid = &mut self.valid[block as usize];
        *valid += 1;
        let valid = *valid;
        self.programmed[block as usize] += 1;
        self.by_valid.programmed(block, valid);
        Ok(())
    }

    /// Marks a valid page invalid (its content is superseded or trimmed). The device calls
    /// [`FlashArray::invalidate_in`], with the block it needs too.
    #[cfg(test)]
    pub(crate) fn invalidate(&mut self, ppn: Ppn) -> Result<()> {
        self.invalidate_in(ppn, self.block_of(ppn))
    }

    /// Marks valid page `ppn`, a page of `block` (its [`FlashArray::block_of`]), invalid: its
    /// content is superseded or trimmed.
    #[inline(always)] // hot path: see docs/perf.md, "Calls on the hot path"
    pub(crate) fn invalidate_in(&mut self, ppn: Ppn, block: BlockId) -> Result<()> {
        self.check_ppn(ppn)?;
        let meta = self.meta[ppn as usize];
        if !meta.is(PageState::Valid) {
            return Err(EngineError::IllegalFlashOp(format!(
                "invalidate of page {ppn} in state {:?}",
                meta.state()
            )));
        }
        self.meta[ppn as usize] = meta.with_state(PageState::Invalid).with_content(false);
        if meta.has_content() {
            self.free_slots.push(self.content_at[ppn as usize]);
            self.content_at[ppn as usize] = u32::MAX;
        }
        let valid = &mut self.valid[block as usize];
        *valid -= 1;
        let valid = *valid;
        self.by_valid.set(block, valid);
        Ok(())
    }

    /// Forgets the contents of a valid page that nothing will read again (an OOB sub-table
    /// a newer copy superseded while the page's own data stays valid), so host memory holds
    /// only what reads can reach. The page, its state and its tag stay as they are.
    pub(crate) fn forget_content(&mut self, ppn: Ppn) {
        let meta = self.meta[ppn as usize];
        if meta.has_content() {
            self.meta[ppn as usize] = meta.with_content(false);
            self.free_slots.push(self.content_at[ppn as usize]);
            self.content_at[ppn as usize] = u32::MAX;
        }
    }

    /// Erases a block without valid pages.
    pub(crate) fn erase(&mut self, block: BlockId) -> Result<()> {
        if block >= self.blocks() {
            return Err(EngineError::IllegalFlashOp(format!("block {block} is outside the device")));
        }
        if self.valid[block as usize] != 0 {
            return Err(EngineError::IllegalFlashOp(format!(
                "erase of block {block} that still holds {} valid pages",
                self.valid[block as usize]
            )));
        }
        let first = self.first_ppn(block) as usize;
        let end = first + self.pages_per_block as usize;
        self.meta[first..end].fill(Meta::FREE);
        self.tags[first..end].fill(KeyVersion::default());
        // No contents to drop: only valid pages hold any, and the block has none.
        self.programmed[block as usize] = 0;
        self.erase_count[block as usize] += 1;
        self.by_valid.remove(block);
        Ok(())
    }

    /// Checks the array's own bookkeeping: valid and programmed counts agree with page
    /// states, on MLC programmed pages form a prefix of each block, and exactly the valid
    /// pages flagged as holding contents hold some.
    pub fn check(&self) -> Result<()> {
        let mut used = vec![false; self.contents.len()];
        for &s in &self.free_slots {
            used[s as usize] = true;
        }
        for (ppn, m) in self.meta.iter().enumerate() {
            let slot = self.content_at.get(ppn).copied().unwrap_or(u32::MAX);
            if m.has_content() != (slot != u32::MAX) || (m.has_content() && m.state() != PageState::Valid) {
                return Err(EngineError::Invariant(format!(
                    "{:?} page {ppn}: contents flag {} but slot {slot}",
                    m.state(),
                    m.has_content()
                )));
            }
            if slot != u32::MAX && std::mem::replace(&mut used[slot as usize], true) {
                return Err(EngineError::Invariant(format!(
                    "page {ppn}'s contents slot {slot} is free or shared"
                )));
            }
        }
        if used.contains(&false) {
            return Err(EngineError::Invariant("a contents slot is neither used nor free".into()));
        }
        for b in 0..self.blocks() {
            let first = self.first_ppn(b) as usize;
            let pages: Vec<PageState> =
                self.meta[first..first + self.pages_per_block as usize].iter().map(|m| m.state()).collect();
            let valid = pages.iter().filter(|s| **s == PageState::Valid).count() as u32;
            let used = pages.iter().filter(|s| **s != PageState::Free).count() as u32;
            if valid != self.valid[b as usize] {
                return Err(EngineError::Invariant(format!(
                    "block {b}: valid count {} but {valid} valid pages",
                    self.valid[b as usize]
                )));
            }
            if used != self.programmed[b as usize] {
                return Err(EngineError::Invariant(format!(
                    "block {b}: programmed count {} but {used} programmed pages",
                    self.programmed[b as usize]
                )));
            }
            // The greedy-GC index must file every written block under its valid count.
            let filed = self.by_valid.bucket_of(b);
            let want = (used > 0).then_some(valid);
            if filed != want || (filed.is_some() && !self.by_valid.blocks_in(valid).contains(&b)) {
                return Err(EngineError::Invariant(format!(
                    "block {b}: valid-count index says {filed:?}, block has {valid} valid of {used} written"
                )));
            }
            if self.cell == CellType::Mlc && pages[..used as usize].contains(&PageState::Free) {
                return Err(EngineError::Invariant(format!("block {b}: MLC pages not programmed in order")));
            }
        }
        Ok(())
    }

    /// Feeds the array's state into a hash: every page's state and tag, erase counts, and the
    /// contents of the valid pages that hold any.
    pub fn hash_into(&self, h: &mut StateHasher) {
        for (m, kv) in self.meta.iter().zip(&self.tags) {
            h.bytes(&[m.state() as u8, m.kind() as u8]);
            h.u32(kv.key);
            h.u32(kv.version);
        }
        h.u32s(&self.erase_count);
        for (ppn, c) in (0..self.meta.len() as Ppn).filter_map(|p| Some((p, self.content(p)?))) {
            h.u32(ppn);
            h.u64(c.data.len() as u64);
            h.u32s(&c.data);
            h.u64(c.oob.len() as u64);
            h.u32s(&c.oob);
        }
    }
}

/// The `len` elements from `a` and the `len` from `b` of `v`, as two slices; the ranges do
/// not overlap.
fn two_blocks<T>(v: &mut [T], a: usize, b: usize, len: usize) -> (&mut [T], &mut [T]) {
    if a < b {
        let (low, high) = v.split_at_mut(b);
        (&mut low[a..a + len], &mut high[..len])
    } else {
        let (low, high) = v.split_at_mut(a);
        (&mut high[..len], &mut low[b..b + len])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every page kind survives the packed per-page byte: a kind added to the enum must not
    /// read back as another (a DTP once read back as a translation page).
    #[test]
    fn every_page_kind_reads_back_as_programmed() {
        let mut f = FlashArray::new(2, 4, CellType::Slc);
        for (ppn, kind) in PageKind::ALL.into_iter().skip(1).enumerate() {
            f.program(ppn as Ppn, PageTag { kind, key: 7, version: 1 }).unwrap();
            assert_eq!(f.tag(ppn as Ppn).kind, kind);
            f.invalidate(ppn as Ppn).unwrap();
            assert_eq!(f.tag(ppn as Ppn).kind, kind, "after invalidation");
        }
        assert_eq!(PageKind::ALL.len(), PageKind::Dtp as usize + 1, "ALL lists every kind");
    }

    /// GC's copy moves a page's contents: the new page reads them back (edited), the old
    /// one holds none, and edited contents past the page's size are refused.
    #[test]
    fn a_moved_page_takes_its_contents_with_it() {
        let mut f = FlashArray::new(2, 4, CellType::Slc).with_sizes(16, 12);
        let tag = PageTag { kind: PageKind::Translation, key: 3, version: 1 };
        f.program_with(0, tag, PageContent { data: vec![1, 2, 3], oob: vec![9] }).unwrap();
        f.program_moved_with(1, tag, 0, |c| c.data[1] = 7).unwrap();
        assert_eq!(f.content(1), Some(&PageContent { data: vec![1, 7, 3], oob: vec![9] }));
        assert_eq!(f.content(0), None, "the old copy keeps only its tag");
        f.invalidate(0).unwrap();
        f.program_moved(2, tag, 1).unwrap();
        assert_eq!(f.content(2).map(|c| &c.data[..]), Some(&[1, 7, 3][..]));
        f.invalidate(1).unwrap();
        assert!(f.program_moved_with(3, tag, 2, |c| c.data.extend([0, 0])).is_err(), "5 words in 16 bytes");
        f.program(4, PageTag::data(1, 1)).unwrap();
        f.program_moved(5, PageTag::data(1, 1), 4).unwrap();
        assert_eq!(f.content(5), None, "a page with only its tag moves only its tag");
    }

    #[test]
    fn erase_before_write() {
        let mut f = FlashArray::new(4, 4, CellType::Slc);
        f.program(5, PageTag::data(1, 1)).unwrap();
        assert!(f.program(5, PageTag::data(1, 2)).is_err());
        f.invalidate(5).unwrap();
        assert!(f.program(5, PageTag::data(1, 2)).is_err(), "invalid pages are not free");
        f.erase(1).unwrap();
        f.program(5, PageTag::data(1, 2)).unwrap();
        assert_eq!(f.erase_count(1), 1);
        f.check().unwrap();
    }

    #[test]
    fn mlc_refuses_out_of_order_program() {
        let mut f = FlashArray::new(4, 4, CellType::Mlc);
        assert!(f.program(1, PageTag::data(0, 1)).is_err());
        f.program(0, PageTag::data(0, 1)).unwrap();
        f.program(1, PageTag::data(1, 1)).unwrap();
        assert!(f.program(3, PageTag::data(2, 1)).is_err());
        // SLC allows any order within a free block.
        let mut s = FlashArray::new(4, 4, CellType::Slc);
        s.program(3, PageTag::data(0, 1)).unwrap();
        s.program(1, PageTag::data(1, 1)).unwrap();
        s.check().unwrap();
    }

    #[test]
    fn erase_refuses_blocks_with_valid_pages_and_reads_refuse_free_pages() {
        let mut f = FlashArray::new(4, 4, CellType::Slc);
        f.program(0, PageTag::data(0, 1)).unwrap();
        assert!(f.erase(0).is_err());
        assert!(f.read(1).is_err());
        assert_eq!(f.read(0).unwrap(), PageTag::data(0, 1));
        assert!(f.erase(9).is_err());
        assert!(f.program(999, PageTag::data(0, 1)).is_err());
    }

    #[test]
    fn pages_hold_what_was_programmed_within_their_sizes() {
        let mut f = FlashArray::new(4, 4, CellType::Slc).with_sizes(16, 16);
        let t = PageTag { kind: PageKind::Translation, key: 3, version: 1 };
        let c = PageContent { data: vec![7, 8, 9, 10], oob: vec![42, 43] };
        f.program_with(1, t, c.clone()).unwrap();
        assert_eq!((f.read(1).unwrap(), f.content(1)), (t, Some(&c)));
        // 5 words do not fit a 16-byte page; 3 spare words + the tag do not fit 16 bytes.
        let e = f.program_with(2, t, PageContent { data: vec![0; 5], oob: vec![] }).unwrap_err();
        assert!(e.to_string().contains("20 data bytes"), "{e}");
        assert!(f.program_with(2, t, PageContent { data: vec![], oob: vec![0; 3] }).is_err());
        assert_eq!(f.state(2), PageState::Free, "a refused program leaves the page erased");
        f.invalidate(1).unwrap();
        assert_eq!(f.content(1), None, "a superseded page's contents are not kept");
        assert_eq!(f.tag(1), t, "its tag is");
        f.check().unwrap();
        f.erase(0).unwrap();
        f.check().unwrap();
    }

    /// Parts copied into a recycled slot replace what the slot's last page held (longer data
    /// and spare words included), and are refused, as contents are, when they do not fit.
    #[test]
    fn parts_programmed_into_a_recycled_slot_replace_its_old_contents() {
        let mut f = FlashArray::new(4, 4, CellType::Slc).with_sizes(16, 16);
        let t = PageTag { kind: PageKind::Dtp, key: 1, version: 1 };
        f.program_parts(0, t, &[1, 2, 3, 4], &[5, 6]).unwrap();
        assert_eq!(f.content(0), Some(&PageContent { data: vec![1, 2, 3, 4], oob: vec![5, 6] }));
        f.invalidate(0).unwrap();
        f.program_parts(1, t, &[7], &[8]).unwrap();
        assert_eq!(f.content(1), Some(&PageContent { data: vec![7], oob: vec![8] }));
        f.program_parts(2, t, &[9], &[]).unwrap();
        assert_eq!(f.content(2), Some(&PageContent { data: vec![9], oob: vec![] }));
        assert!(f.program_parts(3, t, &[0; 5], &[]).is_err());
        assert_eq!(f.state(3), PageState::Free, "a refused program leaves the page erased");
        f.check().unwrap();
    }

    #[test]
    fn the_spare_area_of_an_erased_page_reads_as_empty() {
        // Review (engine-model) §5.8: NFTL/GFTL scans probe the first free page's OOB.
        let mut f = FlashArray::new(4, 4, CellType::Slc);
        f.program(0, PageTag::data(5, 1)).unwrap();
        assert_eq!(f.read_oob(0).unwrap(), PageTag::data(5, 1));
        assert_eq!(f.read_oob(1).unwrap().kind, PageKind::None);
        assert!(f.read_oob(99).is_err());
    }
}
