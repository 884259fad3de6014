//! TreeFTL's tree: caching groups (a CTP and its CDPs) in one RAM budget, the three write
//! cases, no-allocate reads, the sequential bypass, and pruning. See the module docs of
//! [`super`] for the rules and choices.

use super::bypass::SequentialBypass;
use super::cdps::Cdps;
use super::cost::LruCost;
use super::{Prune, TreeOptions, Victims};
use crate::cache::lru::SlotIndex;
use crate::cache::{DenseIndex, Lru};
use crate::device::Device;
use crate::error::{EngineError, Result};
use crate::events::{CacheLevel, Purpose};
use crate::flash::{PageTag, Ppn};
use crate::ftl::demand::{self, DemandCore, TpCause, UNMAPPED};
use crate::ftl::pool::next_page;
use crate::ftl::BuildCtx;

/// A CTP entry whose data page is cached: it points into RAM (the CDP), not to flash.
pub const IN_RAM: Ppn = u32::MAX - 1;

/// A caching group: the CTP's entries and its CDPs (LPN → version of the data RAM holds).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Group {
    pub(super) entries: Vec<Ppn>,
    pub(super) dirty: bool,
    pub(super) cdps: Cdps,
}

/// A node of the tree below the GTD (Tree-PL's LRU list holds these).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) enum NodeKey {
    Ctp(u32),
    Cdp(u32),
}

/// Tree-PL's index from node to LRU slot: CTPs by translation-page number and CDPs by LPN,
/// each through an array (4 bytes per page number up to the largest seen), where a hash map
/// cost a hash and a probe on every touch. The LRU order is the list's alone.
#[derive(Debug, Clone, Default)]
pub(super) struct NodeIndex {
    ctps: DenseIndex,
    cdps: DenseIndex,
}

impl NodeIndex {
    fn of(&self, key: &NodeKey) -> (&DenseIndex, u32) {
        match *key {
            NodeKey::Ctp(t) => (&self.ctps, t),
            NodeKey::Cdp(lpn) => (&self.cdps, lpn),
        }
    }

    fn of_mut(&mut self, key: &NodeKey) -> (&mut DenseIndex, u32) {
        match *key {
            NodeKey::Ctp(t) => (&mut self.ctps, t),
            NodeKey::Cdp(lpn) => (&mut self.cdps, lpn),
        }
    }
}

impl NodeIndex {
    /// Starts loading CDP `lpn`'s slot (a megabyte-sized array over a large device).
    pub(super) fn prefetch_cdp(&self, lpn: u32) {
        self.cdps.prefetch(lpn);
    }
}

impl SlotIndex<NodeKey> for NodeIndex {
    #[inline]
    fn get(&self, key: &NodeKey) -> Option<u32> {
        let (index, k) = self.of(key);
        index.get(&k)
    }
    #[inline]
    fn insert(&mut self, key: NodeKey, slot: u32) {
        let (index, k) = self.of_mut(&key);
        index.insert(k, slot);
    }
    #[inline]
    fn remove(&mut self, key: &NodeKey) -> Option<u32> {
        let (index, k) = self.of_mut(key);
        index.remove(&k)
    }
    fn clear(&mut self) {
        self.ctps.clear();
        self.cdps.clear();
    }
}

/// TreeFTL / Tree-PL state.
#[derive(Debug, Clone)]
pub struct TreeFtl {
    pub(super) core: DemandCore,
    /// Caching groups by translation-page number, in LRU order over groups.
    pub(super) groups: Lru<u32, Group, DenseIndex>,
    /// Tree-PL: every node in LRU order (empty for TreeFTL).
    pub(super) pages: Lru<NodeKey, (), NodeIndex>,
    /// Bytes of RAM for CTPs and CDPs, and bytes they hold.
    pub(super) capacity: u64,
    pub(super) used: u64,
    /// A CDP's size (a page) and a CTP's (its entries, 4 bytes each: a page on every
    /// source preset, less with `device.translation_page_entries`).
    pub(super) page_bytes: u64,
    pub(super) ctp_bytes: u64,
    pub(super) victims: Victims,
    pub(super) options: TreeOptions,
    pub(super) lru: LruCost,
    /// Whether the current request is sequential: its data bypasses RAM.
    pub(super) bypass: SequentialBypass,
    pub(super) id: &'static str,
    /// Groups that left RAM, bare, kept for their buffers: a CTP load reuses one instead of
    /// allocating a page of entries (not state: neither hashed nor inspected).
    spare: Vec<Group>,
}

/// Spare groups kept at most: loads and evictions alternate, so a few suffice.
const SPARE_GROUPS: usize = 8;

impl TreeFtl {
    /// The scheme over an erased device; fails when RAM cannot hold the GTD plus two pages
    /// (one CTP and one CDP).
    pub fn new(ctx: &BuildCtx, options: TreeOptions, victims: Victims) -> Result<Self> {
        let id = if victims == Victims::Page { "tree-pl" } else { "treeftl" };
        let page_bytes = u64::from(ctx.device.page_bytes);
        let lru = LruCost::new(options.lru_touch_ops, options.lru_items_per_op);
        let ctp_bytes = u64::from(ctx.device.entries_per_translation_page()) * 4;
        let (core, cache) = DemandCore::new(ctx, id, ctp_bytes + page_bytes, "a CTP and a CDP")?;
        let bypass = SequentialBypass::new(options.sequential_pages, ctx.device.pages_per_block);
        Ok(TreeFtl {
            core,
            groups: Lru::indexed(crate::cache::lru::MAX_CAPACITY),
            pages: Lru::indexed(crate::cache::lru::MAX_CAPACITY),
            capacity: cache,
            used: 0,
            page_bytes,
            ctp_bytes,
            victims,
            options,
            lru,
            bypass,
            id,
            spare: Vec::new(),
        })
    }

    /// Bytes RAM has for CTPs and CDPs together.
    pub fn capacity(&self) -> u64 {
        self.capacity
    }

    /// Cached translation pages and cached data pages now.
    pub fn counts(&self) -> (usize, usize) {
        let cdps = self.groups.iter().map(|(_, g)| g.cdps.len()).sum();
        (self.groups.len(), cdps)
    }

    /// Group `t`'s CTP entries (tests).
    #[cfg(test)]
    pub(super) fn group_entries(&self, t: u32) -> Vec<Ppn> {
        self.groups.peek(&t).map_or_else(Vec::new, |g| g.entries.clone())
    }

    pub(super) fn group(&mut self, t: u32) -> &mut Group {
        self.groups.peek_mut(&t).expect("the group being served is cached")
    }

    /// LRU maintenance after an access to group `t` (and CDP `lpn`): the group (TreeFTL) or
    /// the CDP then its CTP (Tree-PL, so a CTP is never older than its CDPs).
    pub(super) fn touch(&mut self, t: u32, cdp: Option<u32>, dev: &mut Device) {
        self.groups.touch(&t);
        match self.victims {
            Victims::Group => self.lru.touch(1, dev),
            Victims::Page => {
                if let Some(lpn) = cdp {
                    self.pages.touch(&NodeKey::Cdp(lpn));
                    self.lru.touch(1, dev);
                }
                self.pages.touch(&NodeKey::Ctp(t));
                self.lru.touch(1, dev);
            }
        }
    }

    /// Makes translation page `t` a CTP (the root-to-level-2 step of the traversal),
    /// counting the mapping look-up; a miss prunes for room and reads the page (C-2).
    pub(super) fn load_ctp(&mut self, t: u32, dev: &mut Device) -> Result<()> {
        dev.ram(1); // the GTD entry and the CTP entry
        if self.groups.contains(&t) {
            dev.mapping_lookup(true);
            dev.cache_hit(CacheLevel::TranslationPage, t);
            self.touch(t, None, dev);
            return Ok(());
        }
        dev.mapping_lookup(false);
        dev.cache_miss(CacheLevel::TranslationPage, t);
        self.make_room(self.ctp_bytes, None, dev)?;
        // After the prune: GC it ran may have rewritten this page on flash.
        let mut group = self.spare.pop().unwrap_or_else(|| Group {
            entries: Vec::new(),
            dirty: false,
            cdps: Cdps::default(),
        });
        self.core.load_page_into(t, dev, TpCause::Miss, &mut group.entries)?;
        dev.ram(1);
        dev.cache_insert(CacheLevel::TranslationPage, t, self.ctp_bytes as u32);
        group.dirty = false;
        self.groups.insert(t, group);
        if self.victims == Victims::Page {
            self.pages.insert(NodeKey::Ctp(t), ());
        }
        self.used += self.ctp_bytes;
        self.lru.touch(1, dev);
        Ok(())
    }

    /// Prunes until `bytes` more fit. `serving`: the group of the page being buffered,
    /// never pruned whole.
    fn make_room(&mut self, bytes: u64, serving: Option<u32>, dev: &mut Device) -> Result<()> {
        while self.used + bytes > self.capacity {
            let before = self.used;
            self.prune(serving, dev)?;
            if self.used >= before {
                return Err(EngineError::Invariant(format!("{}: a prune freed no RAM", self.id)));
            }
        }
        Ok(())
    }

    /// One prune: selects a victim (charged by the cost model) and flushes it.
    fn prune(&mut self, serving: Option<u32>, dev: &mut Device) -> Result<()> {
        dev.stats.prunes += 1;
        match self.victims {
            Victims::Group => {
                self.lru.select(self.groups.len(), dev);
                let Some((&t, g)) = self.groups.peek_lru() else {
                    return Err(EngineError::Invariant(format!("{}: RAM full with no group", self.id)));
                };
                let bare = g.cdps.is_empty();
                if serving == Some(t) || (self.options.prune == Prune::DataFirst && !bare) {
                    self.flush_cdps(t, dev)
                } else {
                    self.flush_cdps(t, dev)?;
                    self.evict_ctp(t, dev)
                }
            }
            Victims::Page => {
                self.lru.select(self.pages.len(), dev);
                match self.pages.peek_lru().map(|(&k, _)| k) {
                    Some(NodeKey::Cdp(lpn)) => self.flush_cdp(self.core.tpage_of(lpn), lpn, dev),
                    Some(NodeKey::Ctp(t)) if serving == Some(t) => self.flush_cdps(t, dev),
                    Some(NodeKey::Ctp(t)) => {
                        self.flush_cdps(t, dev)?;
                        self.evict_ctp(t, dev)
                    }
                    None => Err(EngineError::Invariant(format!("{}: RAM full with no page", self.id))),
                }
            }
        }
    }

    /// Programs every CDP of group `t`, in LPN order: each flush removes the lowest, and
    /// nothing during one (GC only fixes flash entries) adds a CDP.
    pub(super) fn flush_cdps(&mut self, t: u32, dev: &mut Device) -> Result<()> {
        while let Some(&lpn) = self.groups.peek(&t).and_then(|g| g.cdps.keys().next()) {
            self.flush_cdp(t, lpn, dev)?;
        }
        Ok(())
    }

    /// Programs CDP `lpn` (of group `t`) to flash and sets its CTP entry; the CDP leaves.
    fn flush_cdp(&mut self, t: u32, lpn: u32, dev: &mut Device) -> Result<()> {
        let version = *self.group(t).cdps.get(&lpn).expect("the CDP being flushed is cached");
        // The eviction is told first, so a narration reads "CDP evicted (dirty), then
        // programmed" as for APS and JTL; the program is host data (`Purpose::Data`).
        self.drop_node(NodeKey::Cdp(lpn), true, dev);
        dev.ram(1); // the page out of RAM
                    // GC during the allocation cannot touch this page: its only copy is in RAM.
        let dest = {
            let slot = self.core.host_slot(lpn);
            next_page(self, slot, dev, false)?
        };
        dev.program(dest, PageTag::data(lpn, version), Purpose::Data)?;
        let off = self.core.offset_of(lpn);
        let g = self.group(t);
        g.cdps.remove(&lpn);
        g.entries[off] = dest;
        g.dirty = true;
        Ok(())
    }

    /// Group `t` (without CDPs) leaves RAM; its CTP is programmed whole when dirty.
    fn evict_ctp(&mut self, t: u32, dev: &mut Device) -> Result<()> {
        let g = self.groups.remove(&t).expect("the victim group is cached");
        debug_assert!(g.cdps.is_empty());
        self.drop_node(NodeKey::Ctp(t), g.dirty, dev);
        if g.dirty {
            // Not cached any more: GC during the program fixes moved pages in `on_flash`.
            demand::write_back_page(self, t, &g.entries, TpCause::Eviction, dev)?;
        }
        if self.spare.len() < SPARE_GROUPS {
            self.spare.push(g);
        }
        Ok(())
    }

    /// Bookkeeping of a node leaving RAM.
    fn drop_node(&mut self, node: NodeKey, dirty: bool, dev: &mut Device) {
        let (level, key, bytes) = match node {
            NodeKey::Ctp(t) => (CacheLevel::TranslationPage, t, self.ctp_bytes),
            NodeKey::Cdp(lpn) => (CacheLevel::DataPage, lpn, self.page_bytes),
        };
        self.used -= bytes;
        dev.cache_evict(level, key, dirty, bytes as u32);
        if self.victims == Victims::Page {
            self.pages.remove(&node);
            self.lru.touch(1, dev);
        }
    }

    /// Drops CDP `lpn` without writing it (a newer write or a trim supersedes it).
    pub(super) fn discard_cdp(&mut self, t: u32, lpn: u32, dev: &mut Device) {
        let off = self.core.offset_of(lpn);
        let g = self.group(t);
        if g.cdps.remove(&lpn).is_some() {
            g.entries[off] = UNMAPPED;
            g.dirty = true;
            self.drop_node(NodeKey::Cdp(lpn), false, dev);
        }
    }

    /// A random write: cases A (CDP cached), B and C (read the data page in, buffer it).
    pub(super) fn buffer_write(&mut self, t: u32, lpn: u32, version: u32, dev: &mut Device) -> Result<()> {
        if let Some(v) = self.group(t).cdps.get_mut(&lpn) {
            *v = version;
            dev.buffer_lookup(true);
            dev.cache_hit(CacheLevel::DataPage, lpn);
            dev.ram(1);
            self.touch(t, Some(lpn), dev);
            return Ok(());
        }
        dev.buffer_lookup(false);
        dev.cache_miss(CacheLevel::DataPage, lpn);
        self.make_room(self.page_bytes, Some(t), dev)?;
        // After the prune: GC may have moved the old copy (and fixed the entry).
        let off = self.core.offset_of(lpn);
        let old = self.group(t).entries[off];
        if old != UNMAPPED {
            if self.options.read_in {
                dev.read(old, Purpose::Data)?;
            }
            dev.invalidate(old)?;
        }
        dev.ram(1);
        dev.cache_insert(CacheLevel::DataPage, lpn, self.page_bytes as u32);
        let g = self.group(t);
        g.entries[off] = IN_RAM;
        g.dirty = true;
        g.cdps.insert(lpn, version);
        self.used += self.page_bytes;
        if self.victims == Victims::Page {
            self.pages.insert(NodeKey::Cdp(lpn), ());
            self.lru.touch(1, dev);
        }
        self.touch(t, None, dev);
        Ok(())
    }

    /// A sequential write: the data goes to flash directly; a CDP of the page is dropped.
    pub(super) fn write_through(&mut self, t: u32, lpn: u32, version: u32, dev: &mut Device) -> Result<()> {
        self.discard_cdp(t, lpn, dev);
        let dest = {
            let slot = self.core.host_slot(lpn);
            next_page(self, slot, dev, false)?
        };
        dev.program(dest, PageTag::data(lpn, version), Purpose::Data)?;
        let off = self.core.offset_of(lpn);
        let old = self.group(t).entries[off];
        if old != UNMAPPED {
            dev.invalidate(old)?;
        }
        let g = self.group(t);
        g.entries[off] = dest;
        g.dirty = true;
        dev.ram(1);
        Ok(())
    }

    /// Writes every CDP back (dropping it), then every dirty CTP (kept, clean); GC during a
    /// CTP program may dirty entries again: repeat until none is dirty.
    pub(super) fn flush_all(&mut self, dev: &mut Device) -> Result<()> {
        let mut ts: Vec<u32> = self.groups.iter().map(|(&t, _)| t).collect();
        ts.sort_unstable();
        for &t in &ts {
            self.flush_cdps(t, dev)?;
        }
        loop {
            let Some(t) = ts.iter().copied().find(|t| self.groups.peek(t).is_some_and(|g| g.dirty)) else {
                return Ok(());
            };
            let g = self.group(t);
            g.dirty = false;
            let entries = g.entries.clone();
            demand::write_back_page(self, t, &entries, TpCause::Flush, dev)?;
        }
    }
}
