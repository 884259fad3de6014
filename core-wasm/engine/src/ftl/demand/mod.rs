//! The demand-paged family's shared machinery (DFTL, CDFTL, TPFTL, HCFTL): the map on flash
//! in **translation pages** that hold their entries, the **GTD** locating them, translation-
//! page reads and rewrites, garbage collection over data and translation blocks with the
//! GC-time **batch update** of translation pages for moved data pages, and the pieces of
//! [`Ftl`](super::Ftl) that do not depend on the cache. A scheme of the family keeps only
//! its cache policy.
//!
//! ## How a demand scheme plugs in
//!
//! 1. Hold a [`DemandCore`] in a field `core` (built by [`DemandCore::new`], which sizes the
//!    GTD, checks the RAM budget and the flash space, and says how many bytes are left for
//!    the cache). A cache of single entries is a [`Cmt`].
//! 2. Implement [`DemandScheme`] (`forward!(core)` writes its accessors): `translate` (the
//!    cache policy: hit, miss, insert, evict, write back — reading entries with
//!    [`DemandCore::load_entry`] / [`DemandCore::load_page`] and writing them back with
//!    [`write_back_entry`] / [`write_back_page`], or [`rewrite_tpage`] after putting the new
//!    entries in [`DemandCore::on_flash`]), `cached` / `set_cached` (the newest mapping the
//!    RAM holds, also GC's lazy copying), `ram_entries` (what RAM holds, for checks and
//!    flush) and `mark_clean` (flush). [`Collects`] comes with it, so the shared block pool's
//!    collect-then-refill loop runs [`collect`]. Inspection builds on [`entry_list`],
//!    [`gtd_table`] and [`ram_budgets`].
//! 3. In `impl Ftl`, `forward!(read, write, trim, flush, place_prefill, map_view, block_role,
//!    ram_budget)` passes those to [`read`], [`write()`], [`trim`], [`flush_entries`],
//!    [`place_prefill`], [`map_view`],
//!    [`DemandCore::block_role`] (leave out the ones the scheme does its own way); `check`
//!    calls [`check()`] plus the scheme's own rules; hash the core with
//!    [`DemandCore::hash_into`].
//!
//! Every translation-page read and write is counted by cause ([`TpCause`]) in
//! [`crate::device::SchemeCounters`]: the family's metrics.
//!
//! Choices shared by the family (each scheme's `notes.md` repeats the ones readers see):
//! - GTD entries cost 4 bytes; the rest of the RAM budget is the scheme's cache.
//! - Data and translation pages are written to separate open blocks. On a device with
//!   several units (channels x ways) each unit has its own open data block and host writes
//!   go round-robin over the units, so their programs overlap; GC copies a victim's data
//!   pages within its unit. Translation pages share one open block: they
//!   are few, and one frontier keeps a batch update's pages together.
//! - GC is over data and translation blocks alike, starting one block earlier than
//!   `gc.reserve_blocks` (a data-block collection may need a fresh block for its copies and
//!   another for its batch update before its victim is free). A translation-block victim's
//!   pages are copied and the GTD updated; a data-block victim's pages are copied, the
//!   mapping fixed in RAM when the cache holds it (lazy copying, `set_cached`) and otherwise
//!   in one rewrite per translation page touched (the batch update). GC's mapping work is
//!   charged to `gc`.
//! - With `gc.victim` FIFO or cost-benefit, a victim whose copies plus batch update would
//!   write a whole block (so collecting it gains nothing) is passed over for the greedy one.

mod check;
mod cmt;
mod forward;
mod gc;
mod host;
mod inspect;
mod prefill;
mod tpage;
mod victim;

use super::pool::{BlockPool, Collects};
use super::{BlockRole, BuildCtx};
use crate::device::Device;
use crate::error::{EngineError, Result};
use crate::events::Purpose;
use crate::flash::{BlockId, PageKind, PageTag, Ppn};
use crate::gc::VictimPolicy;
use crate::hash::StateHasher;

pub use crate::vocab::TpCause;
pub use check::{check, map_view};
pub use cmt::{Cmt, MapEntry, ENTRY_BYTES};
pub(crate) use forward::forward;
pub use gc::collect;
pub use host::{flush_entries, read, trim, write};
pub use inspect::{cmt_list, entry_list, gtd_table, ram_budgets, touches_tpage};
pub use prefill::place_prefill;
pub use tpage::{program_tpage, read_tpage, rewrite_tpage, write_back_entry, write_back_page};
pub use victim::{pop_cost_aware, CmtVictim, VictimScan};

/// An unmapped entry.
pub const UNMAPPED: Ppn = u32::MAX;
/// RAM cost of one GTD entry (a translation page's PPN).
pub const GTD_ENTRY_BYTES: u64 = 4;

/// Open-block slots of the pool: data and translation pages live in separate blocks.
/// `DATA` is the first unit's data slot; a scheme with pages of its own kind (HCFTL's DTPs)
/// has its streams from [`FIRST_EXTRA_STREAM`]; other units' data slots follow every other
/// slot (see `DemandCore::data_slot`).
pub const DATA: usize = 0;
/// The translation-page slot.
pub const TRANSLATION: usize = 1;
/// Slots before a scheme's own streams and the other units' data slots.
const STREAM_SLOTS: usize = 2;
/// The first slot of a scheme's own streams ([`DemandCore::with_streams`]).
pub const FIRST_EXTRA_STREAM: usize = STREAM_SLOTS;

/// The state every demand-paged scheme shares: GTD, the map as the translation pages on
/// flash hold it, the block pool.
#[derive(Debug, Clone)]
pub struct DemandCore {
    /// Entries per translation page (`page_bytes / 4`, or fewer on a teaching device:
    /// `device.translation_page_entries`).
    pub per_tpage: u32,
    /// `log2(per_tpage)` when it is a power of two (it always is but on odd teaching
    /// devices): a shift where a division takes tens of cycles, several times per request.
    tpage_shift: Option<u32>,
    /// Translation-page number → its physical page (the GTD); [`UNMAPPED`] before its first
    /// write.
    pub gtd: Vec<Ppn>,
    /// The map as the translation pages hold it once written: a scheme puts entries here
    /// before [`rewrite_tpage`] programs them (reads come from flash, not from here, so a
    /// missed rewrite shows as a wrong mapping).
    pub on_flash: Vec<Ppn>,
    /// Free list and the open block of each stream.
    pub pool: BlockPool,
    /// The slot whose open block each block last was (what it holds).
    block_stream: Vec<u8>,
    victim: VictimPolicy,
    tpage_version: u32,
    ram_budget: u64,
    /// Units (channels x ways): each has an open data block ([`DemandCore::data_slot`]).
    units: usize,
    /// Pool slot of unit `u`'s data block, for `u` >= 1: `unit_base + u` (a multiple of
    /// `units` past the stream slots, so the pool's slot-to-unit rule `slot % units` holds).
    unit_base: usize,
    /// A collection's list of stale translation pages ([`gc::collect`]), kept between
    /// collections for its allocation (a list grown anew cost a few allocations per victim);
    /// empty between collections.
    pub(super) gc_stale: Vec<u32>,
    /// Tests only: skip this many translation-page rewrites (a deliberately broken scheme
    /// the mapping reconstruction check must catch).
    #[cfg(test)]
    pub skip_rewrites: u32,
}

impl DemandCore {
    /// The core over an erased device, and the bytes of the RAM budget left for the cache.
    /// Fails (naming `scheme`) when the budget cannot hold the GTD plus `min_cache_bytes`
    /// (the smallest cache, `what_min` in words), or the device leaves no room for garbage.
    pub fn new(ctx: &BuildCtx, scheme: &str, min_cache_bytes: u64, what_min: &str) -> Result<(Self, u64)> {
        Self::with_streams(ctx, scheme, min_cache_bytes, what_min, 0, 0)
    }

    /// Flash pages beyond the logical and translation pages, and how many of them the GC
    /// reserve, the open blocks (translation, one data block per unit, `extra_streams`) and
    /// one batch update need.
    fn spare_and_needed(ctx: &BuildCtx, extra_streams: usize) -> (u64, u64) {
        let device = ctx.device;
        let logical = device.logical_pages();
        let tpages = logical.div_ceil(u64::from(device.entries_per_translation_page()));
        let ppb = u64::from(device.pages_per_block);
        let units = u64::from(device.units().max(1));
        let spare = device.physical_pages().saturating_sub(logical + tpages);
        let blocks = u64::from(ctx.gc.reserve_blocks) + 1 + units + extra_streams as u64;
        (spare, blocks * ppb + tpages.min(ppb))
    }

    /// Spare flash pages left beyond what [`DemandCore::with_streams`] needs with
    /// `extra_streams`: what a scheme's own pages may use (HCFTL sizes its DTP count by it).
    pub fn spare_room(ctx: &BuildCtx, extra_streams: usize) -> u64 {
        let (spare, needed) = Self::spare_and_needed(ctx, extra_streams);
        spare.saturating_sub(needed)
    }

    /// As [`DemandCore::new`], with `extra_streams` more open-block slots for the scheme's
    /// own page kinds (a victim holds one kind, so its copies need one stream's fresh block
    /// and the reserve is unchanged) and room on flash for `extra_pages` more valid pages.
    pub fn with_streams(
        ctx: &BuildCtx,
        scheme: &str,
        min_cache_bytes: u64,
        what_min: &str,
        extra_streams: usize,
        extra_pages: u64,
    ) -> Result<(Self, u64)> {
        let device = ctx.device;
        let logical = device.logical_pages();
        let per_tpage = device.entries_per_translation_page();
        let tpages = logical.div_ceil(u64::from(per_tpage));
        let gtd_bytes = tpages * GTD_ENTRY_BYTES;
        let budget = ctx.ram_budget;
        if budget < gtd_bytes + min_cache_bytes {
            return Err(EngineError::Config(format!(
                "ram.bytes = {budget} cannot hold {scheme}'s GTD ({gtd_bytes} bytes) plus {what_min}"
            )));
        }
        // Translation pages take flash space too, and one data-block collection may rewrite
        // up to a block of them (its batch update) on top of the GC reserve, the extra
        // reserve block and the second open block: refuse devices where that leaves no room
        // for garbage.
        let units = device.units().max(1) as usize;
        let stream_slots = STREAM_SLOTS + extra_streams;
        let unit_base = units * (stream_slots - 1).div_ceil(units);
        let slots = if units == 1 { stream_slots } else { unit_base + units };
        let (spare, needed) = Self::spare_and_needed(ctx, extra_streams);
        let needed = needed + extra_pages;
        if spare <= needed {
            return Err(EngineError::Config(format!(
                "{scheme} needs more than {needed} spare pages (GC reserve, open data and translation blocks and one batch update) beyond the {logical} logical and {tpages} translation pages; the device has {spare}: raise device.over_provisioning or device.blocks"
            )));
        }
        let core = DemandCore {
            per_tpage,
            tpage_shift: per_tpage.is_power_of_two().then(|| per_tpage.trailing_zeros()),
            gtd: vec![UNMAPPED; tpages as usize],
            on_flash: vec![UNMAPPED; logical as usize],
            // One more reserve block: see the module docs.
            pool: BlockPool::new(device.blocks, slots, ctx.gc.reserve_blocks as usize + 1, units)
                .with_gc(ctx.gc),
            block_stream: vec![DATA as u8; device.blocks as usize],
            victim: ctx.gc.victim,
            tpage_version: 0,
            ram_budget: budget,
            units,
            unit_base,
            gc_stale: Vec::new(),
            #[cfg(test)]
            skip_rewrites: 0,
        };
        Ok((core, budget - gtd_bytes))
    }

    /// The translation page holding `lpn`'s entry.
    pub fn tpage_of(&self, lpn: u32) -> u32 {
        match self.tpage_shift {
            Some(shift) => lpn >> shift,
            None => lpn / self.per_tpage,
        }
    }

    /// Where `lpn`'s entry sits in its translation page.
    pub fn offset_of(&self, lpn: u32) -> usize {
        match self.tpage_shift {
            Some(_) => (lpn & (self.per_tpage - 1)) as usize,
            None => (lpn % self.per_tpage) as usize,
        }
    }

    /// Logical pages whose entries translation page `t` holds.
    pub fn lpns_of(&self, t: u32) -> std::ops::Range<u32> {
        let first = t * self.per_tpage;
        first..(first + self.per_tpage).min(self.on_flash.len() as u32)
    }

    /// Translation page `t`'s entries in the on-flash image.
    pub fn image(&self, t: u32) -> &[Ppn] {
        let range = self.lpns_of(t);
        &self.on_flash[range.start as usize..range.end as usize]
    }

    /// Translation page `t`'s entries in the on-flash image, to change them.
    pub fn image_mut(&mut self, t: u32) -> &mut [Ppn] {
        let range = self.lpns_of(t);
        &mut self.on_flash[range.start as usize..range.end as usize]
    }

    /// Bytes of the GTD.
    pub fn gtd_bytes(&self) -> u64 {
        self.gtd.len() as u64 * GTD_ENTRY_BYTES
    }

    /// The RAM budget (for [`Ftl::ram_budget`](super::Ftl::ram_budget)).
    pub fn ram_budget(&self) -> u64 {
        self.ram_budget
    }

    /// `lpn`'s entry as its translation page on flash holds it, reading that page (when it
    /// was ever written) for `cause`.
    pub fn load_entry(&self, lpn: u32, dev: &mut Device, cause: TpCause) -> Result<Ppn> {
        let t = self.tpage_of(lpn);
        let at = self.gtd[t as usize];
        if at == UNMAPPED {
            return Ok(UNMAPPED);
        }
        read_tpage(at, Purpose::Translation, cause, dev)?;
        let entries = dev.flash().content(at).map_or(&[][..], |c| &c.data[..]);
        Ok(entries.get(self.offset_of(lpn)).copied().unwrap_or(UNMAPPED))
    }

    /// Starts loading `lpn`'s entry in its translation page on flash, which
    /// [`DemandCore::load_entry`] reads on a cache miss: a random place among the pages'
    /// contents. The steps before the entry (the page's place in the content store) are
    /// loads here: call it a little ahead of the miss and for a few pages together, so that
    /// their loads overlap. Changes nothing.
    pub fn prefetch_load(&self, lpn: u32, dev: &Device) {
        let at = self.gtd[self.tpage_of(lpn) as usize];
        if at == UNMAPPED {
            return;
        }
        if let Some(c) = dev.flash().content(at) {
            crate::prefetch::element(&c.data, self.offset_of(lpn));
        }
    }

    /// Starts loading what a rewrite of translation page `t` touches
    /// ([`rewrite_tpage`]): the state of the page it supersedes (read, then invalidated)
    /// and the start of its image (copied into the new page). Changes nothing.
    pub fn prefetch_rewrite(&self, t: u32, dev: &Device) {
        let at = self.gtd[t as usize];
        if at != UNMAPPED {
            dev.flash().prefetch(at, false);
        }
        // At most 8 lines (the 64 entries of the default page; a larger page's copy streams
        // on from there).
        let range = self.lpns_of(t);
        crate::prefetch::lines(&self.on_flash, range.start as usize..range.end as usize, 8);
    }

    /// All entries of translation page `t` as flash holds them (one read for `cause`, none
    /// when it was never written: then every entry is unmapped).
    pub fn load_page(&self, t: u32, dev: &mut Device, cause: TpCause) -> Result<Vec<Ppn>> {
        let mut entries = Vec::new();
        self.load_page_into(t, dev, cause, &mut entries)?;
        Ok(entries)
    }

    /// [`DemandCore::load_page`] into `entries` (cleared first), so a scheme that caches
    /// whole pages can reuse an evicted page's buffer instead of allocating one per load.
    pub fn load_page_into(
        &self,
        t: u32,
        dev: &mut Device,
        cause: TpCause,
        entries: &mut Vec<Ppn>,
    ) -> Result<()> {
        let n = self.lpns_of(t).len();
        entries.clear();
        let at = self.gtd[t as usize];
        if at != UNMAPPED {
            read_tpage(at, Purpose::Translation, cause, dev)?;
            if let Some(c) = dev.flash().content(at) {
                entries.extend_from_slice(&c.data);
            }
        }
        entries.resize(n, UNMAPPED);
        Ok(())
    }

    /// Reads translation page `t` for `cause`, when it was ever written, and answers where it
    /// is: [`DemandCore::entry_in`] then gives its entries without copying the page.
    pub fn read_page(&self, t: u32, dev: &mut Device, cause: TpCause) -> Result<Option<Ppn>> {
        let at = self.gtd[t as usize];
        if at == UNMAPPED {
            return Ok(None);
        }
        read_tpage(at, Purpose::Translation, cause, dev)?;
        Ok(Some(at))
    }

    /// The entry at `offset` of the translation page at `at` (as [`DemandCore::read_page`]
    /// answered; `None`: never written, so unmapped).
    pub fn entry_in(at: Option<Ppn>, offset: usize, dev: &Device) -> Ppn {
        at.and_then(|at| dev.flash().content(at))
            .and_then(|c| c.data.get(offset).copied())
            .unwrap_or(UNMAPPED)
    }

    /// Pool slot of unit `unit`'s open data block.
    fn data_slot(&self, unit: usize) -> usize {
        if unit == 0 {
            DATA
        } else {
            self.unit_base + unit
        }
    }

    /// Pool slot of the open data block of the unit holding `block` (GC copies stay there).
    fn data_slot_of(&self, block: BlockId) -> usize {
        self.data_slot(block as usize % self.units)
    }

    /// Pool slot for a host write of `lpn`: the unit `gc.unit_allocation` gives it (units
    /// take turns, or logical page n goes to unit n mod units).
    /// Public for schemes that program host data themselves (TreeFTL's buffered pages).
    pub fn host_slot(&mut self, lpn: u32) -> usize {
        let unit = self.pool.write_unit(lpn);
        self.data_slot(unit)
    }

    /// The role of `block`: open data blocks show as active; the open translation block
    /// keeps its translation colour ("open for writes" marks where host data goes).
    pub fn block_role(&self, block: BlockId, dev: &Device) -> BlockRole {
        if (0..self.units).any(|u| self.pool.open(self.data_slot(u)) == Some(block)) {
            BlockRole::Active
        } else if dev.flash().programmed_count(block) == 0 {
            BlockRole::Free
        } else if self.block_stream(block) == TRANSLATION {
            BlockRole::Translation
        } else {
            BlockRole::Data
        }
    }

    /// Records which stream opened `block` (see [`Collects::opened`]).
    fn opened(&mut self, slot: usize, block: BlockId) {
        // Slots stay few (streams plus units), so a byte holds one.
        self.block_stream[block as usize] = slot.min(u8::MAX as usize) as u8;
    }

    /// The slot whose open block `block` last was: what kind of pages it holds.
    pub fn block_stream(&self, block: BlockId) -> usize {
        usize::from(self.block_stream[block as usize])
    }

    /// Hashes the GTD and the on-flash map, then the scheme's cache (`cache`), then the pool,
    /// the translation-page version counter and (with several units) the next host unit.
    pub fn hash_into(&self, h: &mut StateHasher, cache: impl FnOnce(&mut StateHasher)) {
        h.u32s(&self.gtd);
        h.u32s(&self.on_flash);
        cache(h);
        self.pool.hash_into(h);
        h.u32(self.tpage_version);
        if self.units > 1 {
            h.u64(self.pool.write_cursor() as u64);
        }
    }
}

/// A demand-paged scheme: its cache policy over a [`DemandCore`]. See the module docs.
pub trait DemandScheme {
    /// The shared state.
    fn core(&self) -> &DemandCore;
    /// The shared state, mutable.
    fn core_mut(&mut self) -> &mut DemandCore;
    /// The current mapping of `lpn`, made resident in the cache (the policy: counts the
    /// look-up, reads the translation page on a miss, evicts and writes back).
    fn translate(&mut self, lpn: u32, dev: &mut Device) -> Result<Ppn>;
    /// The mapping of `lpn` when RAM holds its newest value (`None`: flash has it).
    fn cached(&self, lpn: u32) -> Option<Ppn>;
    /// When RAM holds `lpn`'s mapping (as [`cached`](Self::cached) says), sets it to `ppn`
    /// and marks it dirty, charging the RAM work, and returns `true`; else `false`.
    fn set_cached(&mut self, lpn: u32, ppn: Ppn, dev: &mut Device) -> bool;
    /// `(lpn, ppn, dirty)` for every entry RAM holds, later entries overriding earlier ones
    /// (so a cache of whole pages comes before a cache of entries).
    fn ram_entries(&self) -> Vec<(u32, Ppn, bool)>;
    /// Marks `lpns` (dirty entries of translation page `t`) clean: flush has copied them to
    /// [`DemandCore::on_flash`] and is about to rewrite `t`.
    fn mark_clean(&mut self, t: u32, lpns: &[u32]);
    /// A hint that GC is about to [`set_cached`](Self::set_cached) `lpns` (the data pages
    /// of a run of copies): start loading what finding their cached entries touches, so the
    /// misses overlap (see [`crate::prefetch`]). Changes nothing. Default: nothing.
    fn prefetch_cached(&self, _lpns: &[u32]) {}
    /// The open-block slot GC copies a valid page of the scheme's own kind (neither data nor
    /// translation) into. Default: the first data slot.
    fn stream_for(&self, _kind: PageKind) -> usize {
        DATA
    }
    /// GC copied a page of the scheme's own kind to `dest`: the scheme updates whatever
    /// locates it. Default: nothing.
    fn moved(&mut self, _tag: PageTag, _dest: Ppn, _dev: &mut Device) -> Result<()> {
        Ok(())
    }
    /// Work a collection deferred, done after its batch update and before it ends (HCFTL
    /// rewrites the DTPs whose entries moved). Default: nothing.
    fn after_collect(&mut self, _dev: &mut Device) -> Result<()> {
        Ok(())
    }
    /// Flash pages of kind [`PageKind::Dtp`] holding entries that name their own LPNs and
    /// override the translation pages (oldest first), and words per entry (LPN and PPN
    /// first): see [`MapView::entry_pages`](crate::ftl::MapView::entry_pages). Default: none.
    fn entry_pages(&self) -> (Vec<Ppn>, usize) {
        (Vec::new(), 2)
    }
    /// `(lpn, version)` of data pages whose newest copy only RAM holds (a write buffer): see
    /// [`MapView::held`](crate::ftl::MapView::held). Default: none.
    fn held(&self) -> Vec<(u32, u32)> {
        Vec::new()
    }
}

impl<S: DemandScheme> Collects for S {
    fn pool(&mut self) -> &mut BlockPool {
        &mut self.core_mut().pool
    }

    fn collect(&mut self, dev: &mut Device) -> Result<bool> {
        gc::collect(self, dev)
    }

    fn opened(&mut self, slot: usize, block: BlockId) {
        self.core_mut().opened(slot, block);
    }
}

#[cfg(test)]
pub(crate) mod testing;
#[cfg(test)]
mod tests;
