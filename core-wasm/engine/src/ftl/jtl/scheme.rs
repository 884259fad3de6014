//! JTL's state and the structure's operations: the two static halves, the access that
//! brings an entry to level 0 and pushes entries down, the flush of a data page leaving
//! group 0, the write-back of an entry leaving the last level, and the sequential bypass.
//! The [`Ftl`](crate::ftl::Ftl) implementation is in `host.rs`. See the module docs of
//! [`super`] for the rules and choices.

use std::collections::{BTreeMap, BTreeSet};

use super::levels::{Data, Levels, Slot};
use super::{JtlOptions, SequentialEntries, ENTRY_BYTES};
use crate::device::Device;
use crate::error::{EngineError, Result};
use crate::events::{CacheLevel, Purpose};
use crate::flash::{PageTag, Ppn};
use crate::ftl::demand::{self, program_tpage, DemandCore, DemandScheme, TpCause, UNMAPPED};
use crate::ftl::pool::next_page;
use crate::ftl::treeftl::bypass::SequentialBypass;
use crate::ftl::treeftl::cost::LruCost;
use crate::ftl::BuildCtx;
use crate::meta::MetaKind;

/// JTL state.
#[derive(Debug, Clone)]
pub struct Jtl {
    pub(super) core: DemandCore,
    pub(super) levels: Levels,
    /// Data pages RAM holds now (all in group 0).
    pub(super) cached_pages: usize,
    /// Entries of a sequential request (or trim) that the structure does not hold, updated
    /// during the request: written to their translation pages when the request ends. Empty
    /// between requests (RAM for them is a request's working space, not charged).
    pub(super) pending: BTreeMap<u32, Ppn>,
    /// Translation pages read during the current request (each is read once per request).
    pub(super) read_pages: BTreeSet<u32>,
    /// Bytes of the mapping half and of the data half.
    pub(super) halves: (u64, u64),
    pub(super) page_bytes: u64,
    pub(super) options: JtlOptions,
    pub(super) lru: LruCost,
    /// Whether the current request is sequential: its data bypasses RAM.
    pub(super) bypass: SequentialBypass,
}

impl Jtl {
    /// JTL over an erased device; fails when a half cannot hold one level (an entry, a page).
    pub fn new(ctx: &BuildCtx, options: JtlOptions) -> Result<Self> {
        let page_bytes = u64::from(ctx.device.page_bytes);
        let (core, cache) = DemandCore::new(ctx, "JTL", 2 * page_bytes, "one page for each half")?;
        let map = cache / 2;
        let buf = cache - map;
        // Level n holds 2^n: L levels hold 2^L - 1 entries, group 0 as many as the data half
        // holds pages.
        let depth = (map / ENTRY_BYTES + 1).ilog2() as usize;
        let group0 = ((buf / page_bytes + 1).ilog2() as usize).min(depth);
        if group0 == 0 {
            return Err(EngineError::Config(format!(
                "ram.bytes = {}: JTL's halves ({map} and {buf} bytes) hold no level (an entry of {ENTRY_BYTES} bytes, a page of {page_bytes})",
                ctx.ram_budget
            )));
        }
        let bypass = SequentialBypass::new(options.sequential_pages, ctx.device.pages_per_block);
        Ok(Jtl {
            core,
            levels: Levels::new(depth, group0, ctx.seed),
            cached_pages: 0,
            pending: BTreeMap::new(),
            read_pages: BTreeSet::new(),
            halves: (map, buf),
            page_bytes,
            lru: LruCost::new(options.lru_touch_ops, options.lru_items_per_op),
            options,
            bypass,
        })
    }

    /// RAM in use now: (mapping entries, data pages), in bytes.
    pub fn used(&self) -> (u64, u64) {
        (self.levels.len() as u64 * ENTRY_BYTES, self.cached_pages as u64 * self.page_bytes)
    }

    /// Brings `lpn`'s entry to level 0 (loading it on a miss) and pushes entries down. The
    /// one table access is an update when the caller then changes the entry (`update`: a
    /// write), so a metadata placement model sees it as one.
    pub(super) fn access(&mut self, lpn: u32, update: bool, dev: &mut Device) -> Result<()> {
        entry_access(lpn, update, dev);
        let slot = match self.levels.take(lpn) {
            Some(slot) => {
                dev.mapping_lookup(true);
                dev.cache_hit(CacheLevel::Entry, lpn);
                slot
            }
            None => {
                dev.mapping_lookup(false);
                dev.cache_miss(CacheLevel::Entry, lpn);
                let ppn = self.core.load_entry(lpn, dev, TpCause::Miss)?;
                dev.cache_insert(CacheLevel::Entry, lpn, ENTRY_BYTES as u32);
                Slot::new(lpn, ppn, false)
            }
        };
        self.push(slot, 0, dev)
    }

    /// Puts `slot` in level `from`; each full level passes a random entry down, until a level
    /// has room. The entry passed out of group 0 has its data page flushed; one passed
    /// beyond the last level leaves RAM. `slot` is in the structure before any flash work
    /// (so GC finds its entry); only the entry being passed down is outside it.
    pub(super) fn push(&mut self, slot: Slot, from: usize, dev: &mut Device) -> Result<()> {
        // The draws are made first (the structure's shape does not change while the push
        // runs), so every slot on the way can be loading at once.
        let path = self.levels.path(slot.lpn, from);
        // A push through every level evicts the last level's pick, whose write-back (when
        // dirty) rewrites its translation page: once the first move has waited for the
        // slots `path` fetched, start loading that page's state and image.
        let evicts = from + path.full() == self.levels.depth() && path.full() > 0;
        let mut carry = slot;
        for k in 0..path.full() {
            self.lru.touch(1, dev);
            carry = self.levels.pass(&path, k, carry);
            if k == 0 && evicts {
                let last = self.levels.picked(&path, path.full() - 1);
                if last.dirty {
                    self.core.prefetch_rewrite(self.core.tpage_of(last.lpn), dev);
                }
            }
            if path.level(k) + 1 == self.levels.group0() {
                self.flush_data(&mut carry, dev)?;
            }
        }
        if path.level(path.full()) < self.levels.depth() {
            self.lru.touch(1, dev);
            self.levels.settle(&path, carry);
            return Ok(());
        }
        self.evict(carry, dev)
    }

    /// An entry leaves group 0: its data page is programmed when RAM wrote it, else dropped.
    pub(super) fn flush_data(&mut self, slot: &mut Slot, dev: &mut Device) -> Result<()> {
        let Some(d) = slot.take_data() else { return Ok(()) };
        dev.stats.prunes += 1;
        self.cached_pages -= 1;
        dev.cache_evict(CacheLevel::DataPage, slot.lpn, d.dirty, self.page_bytes as u32);
        if d.dirty {
            // GC during the allocation cannot touch this page: its only copy is in RAM.
            slot.ppn = self.program_data(slot.lpn, d.version, dev)?;
            slot.dirty = true;
        }
        Ok(())
    }

    /// Copies a data page out of RAM and programs it; returns where it went.
    pub(super) fn program_data(&mut self, lpn: u32, version: u32, dev: &mut Device) -> Result<Ppn> {
        dev.ram(1);
        let dest = {
            let slot = self.core.host_slot(lpn);
            next_page(self, slot, dev, false)?
        };
        dev.program(dest, PageTag::data(lpn, version), Purpose::Data)?;
        Ok(dest)
    }

    /// An entry passed beyond the last level leaves RAM, written back when dirty.
    pub(super) fn evict(&mut self, slot: Slot, dev: &mut Device) -> Result<()> {
        dev.stats.prunes += 1;
        dev.cache_evict(CacheLevel::Entry, slot.lpn, slot.dirty, ENTRY_BYTES as u32);
        if slot.dirty {
            demand::write_back_entry(self, slot.lpn, slot.ppn, dev)?;
        }
        Ok(())
    }

    /// The entry of `lpn` as flash holds it, for a page the structure does not hold: the
    /// request's pending value, or its translation page (read once per request).
    pub(super) fn flash_entry(&mut self, lpn: u32, dev: &mut Device) -> Result<Ppn> {
        if let Some(&p) = self.pending.get(&lpn) {
            return Ok(p);
        }
        if self.read_pages.insert(self.core.tpage_of(lpn)) {
            self.core.load_entry(lpn, dev, TpCause::Miss)
        } else {
            Ok(self.core.on_flash[lpn as usize])
        }
    }

    /// For a sequential page or a trim: makes `lpn`'s entry reachable by `cached` without
    /// changing recency (the structure's entry where it is; one RAM lacks enters the top of
    /// group 1 when `enter` and the options say so, else it is pending), drops a cached data
    /// page (superseded, not written back) and counts the look-up.
    pub(super) fn entry_in_place(&mut self, lpn: u32, enter: bool, dev: &mut Device) -> Result<()> {
        // Both callers (a sequential write, a trim) then change the entry.
        entry_access(lpn, true, dev);
        if let Some(s) = self.levels.get_mut(lpn) {
            dev.mapping_lookup(true);
            dev.cache_hit(CacheLevel::Entry, lpn);
            // A page written in RAM has no flash copy (its entry is unmapped); one cached by
            // a read keeps its flash copy in the entry, which the caller invalidates.
            if s.take_data().is_some() {
                self.cached_pages -= 1;
                dev.cache_evict(CacheLevel::DataPage, lpn, false, self.page_bytes as u32);
            }
            return Ok(());
        }
        self.count_outside(lpn, dev);
        let ppn = self.flash_entry(lpn, dev)?;
        if !(enter && self.enter_group1(lpn, ppn, dev)?) {
            self.pending.insert(lpn, ppn);
        }
        Ok(())
    }

    /// Counts the look-up of an entry the structure lacks: a hit when the request already
    /// holds it (pending), else a miss.
    pub(super) fn count_outside(&self, lpn: u32, dev: &mut Device) {
        let hit = self.pending.contains_key(&lpn);
        dev.mapping_lookup(hit);
        if !hit {
            dev.cache_miss(CacheLevel::Entry, lpn);
        }
    }

    /// With `sequential_entries = group_1` (and a group 1), puts the entry of a sequential
    /// page RAM lacks at the top of group 1 (its data is on flash) and returns `true`.
    pub(super) fn enter_group1(&mut self, lpn: u32, ppn: Ppn, dev: &mut Device) -> Result<bool> {
        let group1 = self.levels.group0();
        if self.options.sequential_entries != SequentialEntries::Group1
            || group1 == self.levels.depth()
            || self.pending.contains_key(&lpn)
        {
            return Ok(false);
        }
        dev.cache_insert(CacheLevel::Entry, lpn, ENTRY_BYTES as u32);
        self.push(Slot::new(lpn, ppn, false), group1, dev)?;
        Ok(true)
    }

    /// A sequential write: the data goes to flash directly.
    pub(super) fn write_through(&mut self, lpn: u32, version: u32, dev: &mut Device) -> Result<()> {
        self.entry_in_place(lpn, true, dev)?;
        let dest = {
            let slot = self.core.host_slot(lpn);
            next_page(self, slot, dev, false)?
        };
        dev.program(dest, PageTag::data(lpn, version), Purpose::Data)?;
        // GC may have moved the old copy (and fixed the entry): read it now.
        let old = self.cached(lpn).unwrap_or(UNMAPPED);
        if old != UNMAPPED {
            dev.invalidate(old)?;
        }
        self.set_entry(lpn, dest);
        Ok(())
    }

    /// Sets `lpn`'s entry (in the structure or pending) to `ppn`, dirty.
    pub(super) fn set_entry(&mut self, lpn: u32, ppn: Ppn) -> bool {
        if let Some(s) = self.levels.get_mut(lpn) {
            s.ppn = ppn;
            s.dirty = true;
            return true;
        }
        if let Some(p) = self.pending.get_mut(&lpn) {
            *p = ppn;
            return true;
        }
        false
    }

    /// Writes the pending entries to their translation pages, one program per page (each
    /// was read during the request), and forgets the pages read.
    pub(super) fn write_pending(&mut self, dev: &mut Device) -> Result<()> {
        // Most requests (random ones) leave nothing pending and read no translation page here.
        if self.pending.is_empty() && self.read_pages.is_empty() {
            return Ok(());
        }
        let pending = std::mem::take(&mut self.pending);
        let mut tpages = BTreeSet::new();
        for (lpn, ppn) in pending {
            self.core.on_flash[lpn as usize] = ppn;
            tpages.insert(self.core.tpage_of(lpn));
        }
        // GC during a program fixes moved pages in `on_flash` (they are no longer cached).
        for t in tpages {
            program_tpage(self, t, Purpose::Translation, TpCause::Eviction, false, dev)?;
        }
        self.read_pages.clear();
        Ok(())
    }

    /// A random write into the entry's group-0 slot: a buffer hit rewrites the page in RAM;
    /// a miss takes the page into RAM, reading its old flash copy first with `read_in`.
    pub(super) fn buffer_write(&mut self, lpn: u32, version: u32, dev: &mut Device) -> Result<()> {
        self.access(lpn, true, dev)?;
        let s = *self.levels.get(lpn).expect("the accessed entry is in level 0");
        if s.data().is_some() {
            dev.buffer_lookup(true);
            dev.cache_hit(CacheLevel::DataPage, lpn);
        } else {
            dev.buffer_lookup(false);
            dev.cache_miss(CacheLevel::DataPage, lpn);
            if self.options.read_in && s.ppn != UNMAPPED {
                dev.read(s.ppn, Purpose::Data)?;
            }
            dev.cache_insert(CacheLevel::DataPage, lpn, self.page_bytes as u32);
            self.cached_pages += 1;
        }
        // RAM holds the newest data: a flash copy (unbuffered, or cached by a read) is stale.
        if s.ppn != UNMAPPED {
            dev.invalidate(s.ppn)?;
        }
        dev.ram(1);
        let slot = self.levels.get_mut(lpn).expect("the accessed entry is in level 0");
        slot.set_data(Some(Data { version, dirty: true }));
        slot.ppn = UNMAPPED;
        slot.dirty = true;
        Ok(())
    }

    /// A random read: served from RAM when group 0 holds the page, else from flash (and the
    /// page cached, with `cache_reads`).
    pub(super) fn buffer_read(&mut self, lpn: u32, dev: &mut Device) -> Result<Option<PageTag>> {
        self.access(lpn, false, dev)?;
        let s = *self.levels.get(lpn).expect("the accessed entry is in level 0");
        if let Some(d) = s.data() {
            dev.buffer_lookup(true);
            dev.cache_hit(CacheLevel::DataPage, lpn);
            dev.ram(1);
            return Ok(Some(PageTag::data(lpn, d.version)));
        }
        dev.buffer_lookup(false);
        dev.cache_miss(CacheLevel::DataPage, lpn);
        if s.ppn == UNMAPPED {
            return Ok(None);
        }
        let tag = dev.read(s.ppn, Purpose::Data)?;
        if self.options.cache_reads {
            dev.ram(1);
            dev.cache_insert(CacheLevel::DataPage, lpn, self.page_bytes as u32);
            self.cached_pages += 1;
            let slot = self.levels.get_mut(lpn).expect("the accessed entry is in level 0");
            slot.set_data(Some(Data { version: tag.version, dirty: false }));
        }
        Ok(Some(tag))
    }

    /// Writes every page RAM wrote (in LPN order; each stays cached, clean), then the dirty
    /// entries, one rewrite per translation page.
    pub(super) fn flush_all(&mut self, dev: &mut Device) -> Result<()> {
        self.write_pending(dev)?;
        let mut dirty: Vec<(u32, u32)> = self
            .levels
            .iter()
            .filter_map(|s| s.data().filter(|d| d.dirty).map(|d| (s.lpn, d.version)))
            .collect();
        dirty.sort_unstable();
        for (lpn, version) in dirty {
            let dest = self.program_data(lpn, version, dev)?;
            let s = self.levels.get_mut(lpn).expect("a flushed page keeps its entry");
            s.ppn = dest;
            s.dirty = true;
            s.set_data(Some(Data { version, dirty: false }));
        }
        demand::flush_entries(self, dev)
    }
}

/// One access to `lpn`'s entry in the structure (a lookup, or an `update`), through the
/// metadata path: one RAM access by default.
pub(super) fn entry_access(lpn: u32, update: bool, dev: &mut Device) {
    if update {
        dev.meta_write(MetaKind::MapCache, lpn, ENTRY_BYTES as u32);
    } else {
        dev.meta_read(MetaKind::MapCache, lpn, ENTRY_BYTES as u32);
    }
}

impl DemandScheme for Jtl {
    demand::forward!(core);

    /// Not used by JTL's own paths (they move entries themselves); kept for the family's
    /// contract: the entry brought to level 0.
    fn translate(&mut self, lpn: u32, dev: &mut Device) -> Result<Ppn> {
        self.access(lpn, false, dev)?;
        Ok(self.levels.get(lpn).map_or(UNMAPPED, |s| s.ppn))
    }

    fn cached(&self, lpn: u32) -> Option<Ppn> {
        self.levels.get(lpn).map(|s| s.ppn).or_else(|| self.pending.get(&lpn).copied())
    }

    /// The index entries only: finding the slots would wait for those very entries, stalling
    /// GC before it fixes the run's first entry (the fixes then meet the slots one at a
    /// time, measured faster).
    fn prefetch_cached(&self, lpns: &[u32]) {
        for &lpn in lpns {
            self.levels.prefetch_index(lpn);
        }
    }

    /// GC moved `lpn`'s flash copy: fix the entry (lazy copying). A page written in RAM has
    /// no flash copy, so GC never moves one.
    fn set_cached(&mut self, lpn: u32, ppn: Ppn, dev: &mut Device) -> bool {
        let found = self.set_entry(lpn, ppn);
        if found {
            entry_access(lpn, true, dev);
        }
        found
    }

    /// The structure's entries (a page written in RAM reports unmapped: its data is held,
    /// its old flash copy invalidated), then the pending ones.
    fn ram_entries(&self) -> Vec<(u32, Ppn, bool)> {
        let mut out: Vec<(u32, Ppn, bool)> = self.levels.iter().map(|s| (s.lpn, s.ppn, s.dirty)).collect();
        out.extend(self.pending.iter().map(|(&lpn, &ppn)| (lpn, ppn, true)));
        out
    }

    fn mark_clean(&mut self, _t: u32, lpns: &[u32]) {
        for &lpn in lpns {
            if let Some(s) = self.levels.get_mut(lpn) {
                s.dirty = false;
            }
            self.pending.remove(&lpn);
        }
    }

    /// Pages written in RAM and not yet on flash.
    fn held(&self) -> Vec<(u32, u32)> {
        let written = |s: &Slot| s.data().filter(|d| d.dirty).map(|d| (s.lpn, d.version));
        self.levels.iter().filter_map(written).collect()
    }
}
