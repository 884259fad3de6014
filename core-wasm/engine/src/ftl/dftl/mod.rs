//! `dftl`: DFTL (Gupta, Kim, Urgaonkar, ASPLOS'09), as the sources describe it (thesis
//! seed 002 §2.4, HCFTL seed 001 §II, TreeFTL seed 000 §II; related-work §5.3).
//!
//! The page-level map lives on flash in **translation pages** (one per `page_bytes / 4`
//! logical pages). The **GTD** in RAM locates every translation page; the **CMT** in RAM
//! caches single mapping entries, LRU. A CMT miss reads the entry's translation page; a
//! dirty victim is written back: its translation page is read, updated and programmed to a
//! new place, and the GTD updated. Garbage collection is greedy over data and translation
//! blocks alike: a translation-block victim's pages are copied and the GTD updated; a
//! data-block victim's pages are copied, then mappings are fixed lazily for cached entries
//! (the CMT entry is updated and marked dirty) and in a batch per translation page for the
//! rest.
//!
//! Choices where the sources differ or are silent (options in [`DftlOptions`], `options.*`
//! in the config; `notes.md` says the same for readers of the app):
//! - `batch_update` (default off, as the DFTL paper's own simulator (FlashSim) and the
//!   thesis do: one translation-page read and write per dirty victim; batching happens only
//!   in GC). On: a dirty eviction writes back every dirty cached entry of the same
//!   translation page, marking them clean, which is TPFTL's "batch-update replacement"
//!   (review engine-model D1): a named deviation, not DFTL's default.
//! - GC starts one block earlier than `gc.reserve_blocks`: a data-block collection may need
//!   a fresh block for its copies and another for its batch update before its victim is free.
//! - A write miss loads the entry (a translation-page read) to find the page to invalidate.
//! - CMT entries cost 8 bytes (LPN + PPN), GTD entries 4; the CMT gets the RAM budget left
//!   after the GTD. Each CMT search is one cache operation, each table update one RAM access.
//! - Mapping updates done by GC are charged to `gc`, not `translation`.
//! - With `gc.victim` FIFO or cost-benefit, a victim whose copies plus batch update would
//!   write a whole block (so collecting it gains nothing) is passed over for the greedy one.
//! - Dirty entries are tracked per translation page only when batching (nothing reads the
//!   lists otherwise).

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::pool::{next_page, BlockPool, Collects};
use super::{BlockRole, BuildCtx, Ftl, OptionsSpec, SchemeInfo, SchemeSpec};
use crate::cache::{Inserted, Lru};
use crate::device::Device;
use crate::error::{EngineError, Result};
use crate::events::{CacheLevel, Purpose};
use crate::flash::{BlockId, PageContent, PageKind, PageState, PageTag, Ppn};
use crate::gc::{pick_victim, VictimPolicy};
use crate::hash::StateHasher;
use crate::inspect::{InspectQuery, Inspection};
use crate::meta::MetaKind;
use crate::vocab::StopAt;

/// The scheme's registry entry.
pub static SPEC: SchemeSpec = SchemeSpec {
    info: SchemeInfo {
        id: "dftl",
        name: "DFTL: demand-based page mapping (GTD + CMT)",
        family: "demand",
        source: "Gupta et al. ASPLOS'09 as described by the thesis (seed 002) §2.4, HCFTL (seed 001) §II, TreeFTL (seed 000) §II",
    },
    notes: include_str!("notes.md"),
    stops: &[StopAt::Gc, StopAt::MappingMiss],
    caches: &[(CacheLevel::Entry, "CMT")],
    options: OptionsSpec::of::<DftlOptions>(),
    variants: || {
        vec![
            ("one write-back per victim (paper, thesis)", json!({"batch_update": false})),
            ("batch write-back on eviction (TPFTL)", json!({"batch_update": true})),
        ]
    },
    build: |ctx, options| {
        let options = super::parse_options::<DftlOptions>("dftl", options)?;
        Ok(Box::new(Dftl::new(ctx, options)?))
    },
};

const UNMAPPED: u32 = u32::MAX;
const CMT_ENTRY_BYTES: u64 = 8;
const GTD_ENTRY_BYTES: u64 = 4;

/// DFTL options (`options.*` in the config when `scheme` is `dftl`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct DftlOptions {
    /// Write back all dirty cached entries of an evicted entry's translation page together
    /// (TPFTL's batch-update replacement); off, the default = one translation-page write per
    /// dirty victim (the DFTL paper's simulator and the thesis).
    pub batch_update: bool,
}

/// A cached mapping entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Entry {
    ppn: Ppn,
    dirty: bool,
}

/// Which stream a new page is for: data and translation pages live in separate blocks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stream {
    Data = 0,
    Translation = 1,
}

/// DFTL state.
#[derive(Debug, Clone)]
pub struct Dftl {
    ram_budget: u64,
    per_tpage: u32,
    /// Translation-page number → its physical page (the GTD).
    gtd: Vec<Ppn>,
    /// The mapping as stored in the translation pages on flash.
    on_flash: Vec<Ppn>,
    cmt: Lru<u32, Entry>,
    /// Per translation page: cached entries that became dirty (may hold stale keys; checked
    /// against the CMT when flushed).
    dirty: Vec<Vec<u32>>,
    /// Free list and the open block of each stream (slot = [`Stream`]).
    pool: BlockPool,
    translation_blocks: Vec<bool>,
    victim: VictimPolicy,
    options: DftlOptions,
    tpage_version: u32,
    /// Tests only: skip this many translation-page rewrites (a deliberately broken DFTL the
    /// mapping reconstruction check must catch).
    #[cfg(test)]
    skip_rewrites: u32,
}

impl Dftl {
    /// DFTL over an erased device; fails when the RAM budget cannot hold the GTD and one
    /// CMT entry.
    pub fn new(ctx: &BuildCtx, options: DftlOptions) -> Result<Self> {
        let device = ctx.device;
        let logical = device.logical_pages();
        let per_tpage = device.page_bytes / 4;
        let tpages = logical.div_ceil(u64::from(per_tpage));
        let gtd_bytes = tpages * GTD_ENTRY_BYTES;
        let budget = ctx.ram_budget;
        if budget < gtd_bytes + CMT_ENTRY_BYTES {
            return Err(EngineError::Config(format!(
                "ram.bytes = {budget} cannot hold DFTL's GTD ({gtd_bytes} bytes) plus one CMT entry"
            )));
        }
        // Translation pages take flash space too, and one data-block collection may rewrite
        // up to a block of them (its batch update) on top of the GC reserve, the extra
        // reserve block and the second open block: refuse devices where that leaves no room
        // for garbage.
        let ppb = u64::from(device.pages_per_block);
        let spare = device.physical_pages().saturating_sub(logical + tpages);
        let needed = (u64::from(ctx.gc.reserve_blocks) + 2) * ppb + tpages.min(ppb);
        if spare <= needed {
            return Err(EngineError::Config(format!(
                "DFTL needs more than {needed} spare pages (GC reserve, an open translation block and one batch update) beyond the {logical} logical and {tpages} translation pages; the device has {spare}: raise device.over_provisioning or device.blocks"
            )));
        }
        let cmt_entries = ((budget - gtd_bytes) / CMT_ENTRY_BYTES) as usize;
        Ok(Dftl {
            ram_budget: budget,
            per_tpage,
            gtd: vec![UNMAPPED; tpages as usize],
            on_flash: vec![UNMAPPED; logical as usize],
            cmt: Lru::new(cmt_entries),
            dirty: vec![Vec::new(); tpages as usize],
            // GC copies into two streams (data pages, then translation pages for the batch
            // update), each of which may need a fresh block: keep one more in reserve.
            // A data-block collection may need a fresh block for its copies and another for
            // its batch update before it frees its victim: start collecting one block early.
            // One unit of allocation: streams take the first free block.
            pool: BlockPool::new(device.blocks, 2, ctx.gc.reserve_blocks as usize + 1, 1),
            translation_blocks: vec![false; device.blocks as usize],
            victim: ctx.gc.victim,
            options,
            tpage_version: 0,
            #[cfg(test)]
            skip_rewrites: 0,
        })
    }

    /// CMT capacity in entries.
    pub fn cmt_capacity(&self) -> usize {
        self.cmt.capacity()
    }

    fn tpage_of(&self, lpn: u32) -> u32 {
        lpn / self.per_tpage
    }

    /// The current mapping of `lpn`, made resident in the CMT (reading its translation page
    /// on a miss).
    fn translate(&mut self, lpn: u32, dev: &mut Device) -> Result<Ppn> {
        dev.cache_ops(1);
        if let Some(e) = self.cmt.get(&lpn) {
            let ppn = e.ppn;
            dev.mapping_lookup(true);
            dev.cache_hit(CacheLevel::Entry, lpn);
            return Ok(ppn);
        }
        dev.mapping_lookup(false);
        dev.cache_miss(CacheLevel::Entry, lpn);
        let t = self.tpage_of(lpn);
        // The entry comes from the translation page as programmed (not the RAM shadow), so a
        // missed rewrite shows as a wrong mapping.
        let ppn = match self.gtd[t as usize] {
            UNMAPPED => UNMAPPED,
            at => {
                dev.read(at, Purpose::Translation)?;
                let entries = dev.flash().content(at).map_or(&[][..], |c| &c.data[..]);
                entries.get((lpn % self.per_tpage) as usize).copied().unwrap_or(UNMAPPED)
            }
        };
        dev.cache_insert(CacheLevel::Entry, lpn, CMT_ENTRY_BYTES as u32);
        if let Inserted::Evicted(victim, e) = self.cmt.insert(lpn, Entry { ppn, dirty: false }) {
            dev.cache_evict(CacheLevel::Entry, victim, e.dirty, CMT_ENTRY_BYTES as u32);
            if e.dirty {
                self.write_back(victim, e.ppn, dev)?;
            }
        }
        // The write-back may have run GC, which may have moved this page (updating the
        // entry we just cached): answer with the entry, not the value read before.
        Ok(self.cmt.peek(&lpn).map_or(ppn, |e| e.ppn))
    }

    /// Sets the cached mapping of resident `lpn` and marks it dirty.
    fn set_cached(&mut self, lpn: u32, ppn: Ppn, dev: &mut Device) {
        dev.meta_write(MetaKind::MapCache, lpn, CMT_ENTRY_BYTES as u32);
        let t = self.tpage_of(lpn) as usize;
        if let Some(e) = self.cmt.peek_mut(&lpn) {
            if !e.dirty && self.options.batch_update {
                self.dirty[t].push(lpn);
            }
            *e = Entry { ppn, dirty: true };
        }
    }

    /// Writes the evicted dirty entry (`lpn` → `ppn`) back to its translation page, with the
    /// page's other dirty cached entries when batching.
    fn write_back(&mut self, lpn: u32, ppn: Ppn, dev: &mut Device) -> Result<()> {
        let t = self.tpage_of(lpn);
        // Update the on-flash image first: GC during the allocation below may move data
        // pages and must see (and fix) the newest mapping.
        self.on_flash[lpn as usize] = ppn;
        if self.options.batch_update {
            for other in std::mem::take(&mut self.dirty[t as usize]) {
                if let Some(e) = self.cmt.peek_mut(&other) {
                    if e.dirty {
                        e.dirty = false;
                        self.on_flash[other as usize] = e.ppn;
                    }
                }
            }
        }
        self.rewrite_tpage(t, Purpose::Translation, dev)
    }

    /// Reads translation page `t` (if it exists) and programs its current on-flash image to
    /// a new translation page.
    fn rewrite_tpage(&mut self, t: u32, purpose: Purpose, dev: &mut Device) -> Result<()> {
        #[cfg(test)]
        if self.skip_rewrites > 0 {
            self.skip_rewrites -= 1;
            return Ok(());
        }
        if self.gtd[t as usize] != UNMAPPED {
            dev.read(self.gtd[t as usize], purpose)?;
        }
        let dest = next_page(self, Stream::Translation as usize, dev, purpose == Purpose::Gc)?;
        self.tpage_version += 1;
        // The page holds its entries (the last one may be partly beyond the logical space).
        let first = (t * self.per_tpage) as usize;
        let entries =
            self.on_flash[first..(first + self.per_tpage as usize).min(self.on_flash.len())].to_vec();
        dev.program_with(
            dest,
            PageTag { kind: PageKind::Translation, key: t, version: self.tpage_version },
            PageContent { data: entries, oob: Vec::new() },
            purpose,
        )?;
        // Allocation may have run GC, which may have moved page t: invalidate where it is now.
        if self.gtd[t as usize] != UNMAPPED {
            dev.invalidate(self.gtd[t as usize])?;
        }
        self.gtd[t as usize] = dest;
        dev.meta_write(MetaKind::Directory, t, GTD_ENTRY_BYTES as u32);
        Ok(())
    }

    /// Pages a collection of `block` would write: its valid pages plus one translation page
    /// per translation page its uncached data pages map through (the batch update).
    fn collection_cost(&self, block: BlockId, dev: &Device) -> u32 {
        let first = dev.flash().first_ppn(block);
        let mut tpages: Vec<u32> = Vec::new();
        let mut valid = 0;
        for ppn in first..first + dev.flash().pages_per_block() {
            if dev.flash().state(ppn) != PageState::Valid {
                continue;
            }
            valid += 1;
            let tag = dev.flash().tag(ppn);
            if tag.kind == PageKind::Data && !self.cmt.contains(&tag.key) {
                let t = self.tpage_of(tag.key);
                if !tpages.contains(&t) {
                    tpages.push(t);
                }
            }
        }
        valid + tpages.len() as u32
    }
}

impl Collects for Dftl {
    fn pool(&mut self) -> &mut BlockPool {
        &mut self.pool
    }

    fn opened(&mut self, slot: usize, block: BlockId) {
        self.translation_blocks[block as usize] = slot == Stream::Translation as usize;
    }

    /// Collects one victim (data or translation block); `false` when none is worth it.
    fn collect(&mut self, dev: &mut Device) -> Result<bool> {
        let pool = &self.pool;
        let collectable = |b| !pool.is_open(b);
        let mut victim = pick_victim(self.victim, dev, collectable);
        // A victim whose copies and batch update write a whole block or more gains nothing
        // (the collection loop would spend the pool). FIFO and cost-benefit can pick one; then
        // take the greedy victim instead.
        if let Some(v) = victim {
            if self.victim != VictimPolicy::Greedy
                && self.collection_cost(v, dev) >= dev.flash().pages_per_block()
            {
                victim = pick_victim(VictimPolicy::Greedy, dev, collectable);
            }
        }
        let Some(victim) = victim else { return Ok(false) };
        dev.gc_start(victim);
        let first = dev.flash().first_ppn(victim);
        let mut stale: BTreeMap<u32, ()> = BTreeMap::new();
        for ppn in first..first + dev.flash().pages_per_block() {
            if dev.flash().state(ppn) != PageState::Valid {
                continue;
            }
            let tag = dev.read(ppn, Purpose::Gc)?;
            let stream = if tag.kind == PageKind::Translation { Stream::Translation } else { Stream::Data };
            let dest = next_page(self, stream as usize, dev, true)?;
            let content = dev.flash().content(ppn).cloned().unwrap_or_default();
            dev.program_with(dest, tag, content, Purpose::Gc)?;
            dev.invalidate(ppn)?;
            dev.gc_copied();
            if tag.kind == PageKind::Translation {
                self.gtd[tag.key as usize] = dest;
                dev.meta_write(MetaKind::Directory, tag.key, GTD_ENTRY_BYTES as u32);
            } else if self.cmt.contains(&tag.key) {
                // Lazy copying: fix the cached entry; it reaches flash when evicted.
                self.set_cached(tag.key, dest, dev);
            } else {
                self.on_flash[tag.key as usize] = dest;
                stale.insert(self.tpage_of(tag.key), ());
            }
        }
        dev.erase(victim, Purpose::Gc)?;
        self.pool.release(victim);
        // Batch update: one translation-page rewrite per page whose entries moved.
        for &t in stale.keys() {
            self.rewrite_tpage(t, Purpose::Gc, dev)?;
        }
        dev.gc_end(victim);
        Ok(true)
    }
}

impl Ftl for Dftl {
    fn read(&mut self, lpn: u32, dev: &mut Device) -> Result<Option<PageTag>> {
        let ppn = self.translate(lpn, dev)?;
        if ppn == UNMAPPED {
            return Ok(None);
        }
        dev.read(ppn, Purpose::Data).map(Some)
    }

    fn write(&mut self, lpn: u32, version: u32, dev: &mut Device) -> Result<()> {
        self.translate(lpn, dev)?;
        let dest = next_page(self, Stream::Data as usize, dev, false)?;
        dev.program(dest, PageTag::data(lpn, version), Purpose::Data)?;
        // GC may have moved the old copy (and updated the resident entry): read it now.
        let old = self.cmt.peek(&lpn).map_or(UNMAPPED, |e| e.ppn);
        if old != UNMAPPED {
            dev.invalidate(old)?;
        }
        self.set_cached(lpn, dest, dev);
        Ok(())
    }

    fn trim(&mut self, lpn: u32, dev: &mut Device) -> Result<()> {
        let old = self.translate(lpn, dev)?;
        if old != UNMAPPED {
            dev.invalidate(old)?;
            self.set_cached(lpn, UNMAPPED, dev);
        }
        Ok(())
    }

    fn ram_bytes(&self) -> u64 {
        self.gtd.len() as u64 * GTD_ENTRY_BYTES + self.cmt.capacity() as u64 * CMT_ENTRY_BYTES
    }

    fn block_role(&self, block: BlockId, dev: &Device) -> BlockRole {
        // The open translation block keeps its translation colour: "open for writes" marks
        // where host data goes.
        if self.pool.open(Stream::Data as usize) == Some(block) {
            BlockRole::Active
        } else if dev.flash().programmed_count(block) == 0 {
            BlockRole::Free
        } else if self.translation_blocks[block as usize] {
            BlockRole::Translation
        } else {
            BlockRole::Data
        }
    }

    fn has_mapping_cache(&self) -> bool {
        true
    }

    fn inspect(&self, q: &InspectQuery) -> Inspection {
        self.inspection(q)
    }

    fn check(&self, dev: &Device) -> Result<()> {
        let bad = |m: String| Err(EngineError::Invariant(format!("dftl: {m}")));
        for (lpn, e) in self.cmt.iter() {
            if !e.dirty && e.ppn != self.on_flash[*lpn as usize] {
                return bad(format!("clean CMT entry for LPN {lpn} differs from its translation page"));
            }
        }
        for lpn in 0..self.on_flash.len() as u32 {
            let ppn = self.cmt.peek(&lpn).map_or(self.on_flash[lpn as usize], |e| e.ppn);
            if ppn == UNMAPPED {
                continue;
            }
            let tag = dev.flash().tag(ppn);
            if dev.flash().state(ppn) != PageState::Valid || tag.kind != PageKind::Data || tag.key != lpn {
                return bad(format!("LPN {lpn} maps to PPN {ppn}, which does not hold it"));
            }
        }
        for (t, &ppn) in self.gtd.iter().enumerate() {
            if ppn == UNMAPPED {
                continue;
            }
            let tag = dev.flash().tag(ppn);
            if dev.flash().state(ppn) != PageState::Valid
                || tag.kind != PageKind::Translation
                || tag.key != t as u32
            {
                return bad(format!("GTD entry {t} points to PPN {ppn}, which is not that translation page"));
            }
        }
        let valid_tpages = (0..dev.flash().blocks())
            .flat_map(|b| {
                let first = dev.flash().first_ppn(b);
                first..first + dev.flash().pages_per_block()
            })
            .filter(|&p| {
                dev.flash().state(p) == PageState::Valid && dev.flash().tag(p).kind == PageKind::Translation
            })
            .count();
        let mapped = self.gtd.iter().filter(|&&p| p != UNMAPPED).count();
        if valid_tpages != mapped {
            return bad(format!("{valid_tpages} valid translation pages but {mapped} GTD entries"));
        }
        if self.cmt.len() > self.cmt.capacity() {
            return bad("CMT over capacity".into());
        }
        self.pool.check(dev).or_else(bad)
    }

    fn flush(&mut self, dev: &mut Device) -> Result<()> {
        // One rewrite per translation page holding dirty entries (a flush is not an eviction,
        // so it batches whatever `batch_update` says). GC during a rewrite may dirty entries
        // again (lazy copying): repeat until none is left.
        loop {
            let mut by_tpage: BTreeMap<u32, Vec<u32>> = BTreeMap::new();
            for (&lpn, e) in self.cmt.iter() {
                if e.dirty {
                    by_tpage.entry(self.tpage_of(lpn)).or_default().push(lpn);
                }
            }
            if by_tpage.is_empty() {
                return Ok(());
            }
            for (t, lpns) in by_tpage {
                for lpn in lpns {
                    if let Some(e) = self.cmt.peek_mut(&lpn) {
                        e.dirty = false;
                        self.on_flash[lpn as usize] = e.ppn;
                    }
                }
                self.dirty[t as usize].clear();
                self.rewrite_tpage(t, Purpose::Translation, dev)?;
            }
        }
    }

    fn map_view(&self) -> Option<crate::invariants::MapView<'_>> {
        // Flash holds the map in translation pages found through the GTD; the CMT's dirty
        // entries override it and its clean ones must equal it.
        let ram = self.cmt.iter().map(|(&lpn, e)| (lpn, e.ppn, e.dirty)).collect();
        Some(crate::invariants::MapView {
            directory: Some((&self.gtd, self.per_tpage)),
            ram,
            blocks: Vec::new(),
        })
    }

    fn ram_budget(&self) -> Option<u64> {
        Some(self.ram_budget)
    }

    fn hash_into(&self, h: &mut StateHasher) {
        h.u32s(&self.gtd);
        h.u32s(&self.on_flash);
        for (lpn, e) in self.cmt.iter() {
            h.u32(*lpn);
            h.u32(e.ppn);
            h.bytes(&[e.dirty as u8]);
        }
        self.pool.hash_into(h);
        h.u32(self.tpage_version);
    }

    fn clone_box(&self) -> Box<dyn Ftl> {
        Box::new(self.clone())
    }
}

mod inspect;
#[cfg(test)]
mod tests;
