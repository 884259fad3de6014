//! `aps`: the Adaptive Partitioning Scheme (Shim et al., MSST'10) as TreeFTL (seed 000
//! §II.B, §IV.A) describes it: one RAM split into a **mapping partition** (single mapping
//! entries, LRU, DFTL-style) and a **data-buffer partition** (written pages, LRU), equal at
//! start, each with a **ghost cache** of the keys it recently evicted. Every `interval`
//! requests (1000, as the paper ran it) a cost–benefit estimate from the ghost hits of the
//! interval moves the boundary by one step towards the partition that would have saved more.
//!
#![doc = concat!(include_str!("notes.md"), "\n", include_str!("../demand/many_units.md"))]

mod buffer;
mod inspect;
mod partition;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::demand::{self, rewrite_tpage, DemandCore, DemandScheme, MapEntry, TpCause, ENTRY_BYTES};
use super::treeftl::cost::{self, LruCost};
use super::{BuildCtx, Ftl, OpenBlocks, OptionsSpec, SchemeInfo, SchemeSpec};
use crate::cache::{DenseGhost, Inserted};
use crate::device::Device;
use crate::error::{EngineError, Result};
use crate::events::{CacheLevel, Purpose};
use crate::flash::{PageTag, Ppn};
use crate::hash::StateHasher;
use crate::inspect::{InspectQuery, Inspection};
use crate::meta::MetaKind;
use crate::vocab::StopAt;
use buffer::BufferedPages;
use partition::MapPartition;

/// The scheme's registry entry.
pub static SPEC: SchemeSpec = SchemeSpec {
    info: SchemeInfo {
        id: "aps",
        name: "APS: adaptive partitioning of mapping and data buffer (ghost caches)",
        family: "demand",
        source: "Shim et al. MSST'10, as described by TreeFTL (seed 000) §II.B and §IV.A",
    },
    notes: concat!(include_str!("notes.md"), "\n", include_str!("../demand/many_units.md")),
    stops: &[StopAt::Gc, StopAt::MappingMiss, StopAt::Prune],
    caches: &[
        (CacheLevel::Entry, "Mapping partition"),
        (CacheLevel::DataPage, "Data buffer"),
        (CacheLevel::Ghost, "Ghost caches"),
    ],
    options: OptionsSpec::of::<ApsOptions>(),
    open_blocks: OpenBlocks::DEMAND,
    variants: || {
        vec![
            ("paper: every 1000 requests", json!({})),
            ("fast adaptation: every 50 requests, 25 % steps", json!({"interval": 50, "step_percent": 25})),
            ("reads buffered too", json!({"cache_reads": true})),
            ("read-in on a write miss, scanning LRU", json!({"read_in": true, "lru_items_per_op": 64})),
        ]
    },
    build: |ctx, options| {
        let options = super::parse_options::<ApsOptions>("aps", options)?;
        Ok(Box::new(Aps::new(ctx, options)?))
    },
};

/// APS options (`options.*` in the config when `scheme` is `aps`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct ApsOptions {
    /// Requests between boundary moves (the paper: 1000).
    #[schemars(extend("x-units" = "requests"))]
    pub interval: u32,
    /// Share of the cache one move shifts (whole pages, at least one); also what each ghost
    /// remembers.
    #[schemars(range(min = 1, max = 50), extend("x-units" = "%"))]
    pub step_percent: u8,
    /// Buffer read pages too (clean: evicted without a write). Default off: seed 000 says
    /// APS, like TreeFTL, emphasizes write buffering.
    pub cache_reads: bool,
    /// On a buffer miss of a write, read the page's old flash copy first (the same option as
    /// TreeFTL's `read_in`; default off here, on there).
    pub read_in: bool,
    /// Cache operations per LRU touch (the family cost model).
    #[schemars(extend("x-units" = "ops"))]
    pub lru_touch_ops: u32,
    /// LRU victim-selection cost over n candidates (the family cost model, an assumption the
    /// paper does not give): 0 (default) = 1 + log2 n cache operations; K above 0 = a scan,
    /// 1 + n / K.
    #[schemars(extend("x-units" = "items"))]
    pub lru_items_per_op: u32,
}

impl Default for ApsOptions {
    fn default() -> Self {
        ApsOptions {
            interval: 1000,
            step_percent: 10,
            cache_reads: false,
            read_in: false,
            lru_touch_ops: cost::TOUCH_OPS,
            lru_items_per_op: cost::ITEMS_PER_OP,
        }
    }
}

/// Ghost hits of the current interval, weighed by what each would have saved.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct GhostHits {
    mapping: u64,
    data_writes: u64,
    data_reads: u64,
}

/// A buffered page: its version, and whether flash lacks it (written in RAM) or has it
/// (cached by a read, `cache_reads`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Buffered {
    version: u32,
    dirty: bool,
}

/// Buffer insertions [`Aps::inserted`] remembers (a buffer of more pages gets no look-ahead
/// for its victims).
const RECENT: usize = 1024;

/// APS state.
#[derive(Debug, Clone)]
pub struct Aps {
    core: DemandCore,
    /// The mapping partition: a plain LRU rather than the family's [`demand::Cmt`], since its
    /// capacity moves with the boundary and its LRU work follows the cost model (`lru`).
    cmt: MapPartition,
    /// The data buffer and its ghost (the data ghost).
    buf: BufferedPages,
    map_ghost: DenseGhost,
    cache: u64,
    step: u64,
    page_bytes: u64,
    hits: GhostHits,
    requests: u32,
    /// Requests left until the next boundary move (`requests` reaches a multiple of
    /// `interval`).
    until_adapt: u32,
    /// Boundary moves so far (towards mapping, towards the buffer).
    moves: (u32, u32),
    options: ApsOptions,
    lru: LruCost,
    /// The LPNs of the last [`RECENT`] buffer insertions, the newest at `inserts - 1`
    /// (modulo): where the look-ahead finds the pages the buffer evicts next
    /// ([`Aps::prefetch_victims`]). A hint only: nothing else reads it.
    inserted: Box<[u32; RECENT]>,
    /// Buffer insertions so far (wrapping).
    inserts: usize,
    /// Tests only: every write miss into a full buffer takes the general path.
    #[cfg(test)]
    evict_first: bool,
}

impl Aps {
    /// APS over an erased device; fails when RAM cannot hold the GTD, one page and one entry.
    pub fn new(ctx: &BuildCtx, options: ApsOptions) -> Result<Self> {
        if options.interval == 0 || !(1..=50).contains(&options.step_percent) {
            return Err(EngineError::Config(format!(
                "options of scheme 'aps': interval must be at least 1 (is {}) and step_percent 1 to 50 (is {})",
                options.interval, options.step_percent
            )));
        }
        let page_bytes = u64::from(ctx.device.page_bytes);
        let (core, cache) = DemandCore::new(ctx, "APS", 2 * page_bytes, "two pages (one per partition)")?;
        let step = (cache * u64::from(options.step_percent) / 100 / page_bytes).max(1) * page_bytes;
        let buf_pages = (cache / 2 / page_bytes).max(1);
        let map_entries = (cache - buf_pages * page_bytes) / ENTRY_BYTES;
        let lpns = core.on_flash.len();
        Ok(Aps {
            cmt: MapPartition::new(map_entries as usize, (cache / ENTRY_BYTES) as usize, lpns),
            core,
            buf: BufferedPages::new(buf_pages as usize, (step / page_bytes) as usize, lpns),
            map_ghost: DenseGhost::new((step / ENTRY_BYTES) as usize),
            cache,
            step,
            page_bytes,
            hits: GhostHits::default(),
            requests: 0,
            until_adapt: options.interval,
            moves: (0, 0),
            lru: LruCost::new(options.lru_touch_ops, options.lru_items_per_op),
            inserted: Box::new([0; RECENT]),
            inserts: 0,
            options,
            #[cfg(test)]
            evict_first: false,
        })
    }

    /// Partition sizes in bytes: (mapping, data buffer).
    pub fn partitions(&self) -> (u64, u64) {
        (self.cmt.capacity() as u64 * ENTRY_BYTES, self.buf.capacity() as u64 * self.page_bytes)
    }

    /// An entry evicted from the mapping partition: remembered by its ghost, written back
    /// when dirty.
    fn entry_evicted(&mut self, lpn: u32, e: MapEntry, dev: &mut Device) -> Result<()> {
        dev.stats.prunes += 1;
        dev.cache_evict(CacheLevel::Entry, lpn, e.dirty(), ENTRY_BYTES as u32);
        // Not in the ghost: only `translate_miss` adds entries, taking them out of the ghost first.
        self.map_ghost.insert_absent(lpn);
        if e.dirty() {
            demand::write_back_entry(self, lpn, e.ppn(), dev)?;
        }
        Ok(())
    }

    /// A page evicted from the buffer (and remembered by its ghost, [`BufferedPages`]):
    /// written to flash when RAM wrote it (a page cached by a read is dropped).
    fn page_evicted(&mut self, lpn: u32, page: Buffered, dev: &mut Device) -> Result<()> {
        dev.stats.prunes += 1;
        dev.cache_evict(CacheLevel::DataPage, lpn, page.dirty, self.page_bytes as u32);
        if !page.dirty {
            return Ok(());
        }
        dev.ram(1);
        demand::write(self, lpn, page.version, dev)
    }

    /// Makes room in a full buffer: one victim selection, the LRU page evicted.
    fn buffer_room(&mut self, dev: &mut Device) -> Result<()> {
        if self.buf.is_full() {
            self.lru.select(self.buf.len(), dev);
            if let Some((victim, page)) = self.buf.pop_lru() {
                self.page_evicted(victim, page, dev)?;
            }
        }
        Ok(())
    }

    /// Counts a buffer miss, and a data-ghost hit when the ghost remembers `lpn`.
    #[inline(always)]
    fn buffer_miss(&mut self, lpn: u32, write: bool, dev: &mut Device) {
        dev.buffer_lookup(false);
        dev.cache_miss(CacheLevel::DataPage, lpn);
        if self.buf.ghost_remove(&lpn) {
            self.data_ghost_hit(lpn, write, dev);
        }
    }

    /// A data-ghost hit (rare: out of the way of the miss that finds none).
    #[cold]
    #[inline(never)]
    fn data_ghost_hit(&mut self, lpn: u32, write: bool, dev: &mut Device) {
        dev.cache_hit(CacheLevel::Ghost, lpn);
        if write {
            self.hits.data_writes += 1;
        } else {
            self.hits.data_reads += 1;
        }
    }

    /// The interval's cost–benefit estimate: moves the boundary one step towards the
    /// partition whose ghost hits would have saved more flash time. Once per `interval`
    /// requests: kept out of [`Ftl::end_request`], which then saves no registers.
    #[cold]
    #[inline(never)]
    fn adapt(&mut self, dev: &mut Device) -> Result<()> {
        let lat = dev.latency();
        let map_gain = self.hits.mapping * lat.page_read_ns;
        let buf_gain = self.hits.data_writes * lat.program_ns + self.hits.data_reads * lat.page_read_ns;
        self.hits = GhostHits::default();
        let (map, buf) = self.partitions();
        if map_gain > buf_gain && buf >= 2 * self.step {
            self.moves.0 += 1;
            for (lpn, page) in self.buf.set_capacity(((buf - self.step) / self.page_bytes) as usize) {
                self.page_evicted(lpn, page, dev)?;
            }
            let map = self.cache - self.partitions().1;
            self.cmt.set_capacity((map / ENTRY_BYTES) as usize);
        } else if buf_gain > map_gain && map >= 2 * self.step {
            self.moves.1 += 1;
            let buf = buf + self.step;
            // All evicted entries reach the on-flash image before any write-back: GC during
            // one write-back may move another's data page and must see its newest mapping.
            let mut stale = std::collections::BTreeSet::new();
            for (lpn, e) in self.cmt.set_capacity(((self.cache - buf) / ENTRY_BYTES) as usize) {
                dev.stats.prunes += 1;
                dev.cache_evict(CacheLevel::Entry, lpn, e.dirty(), ENTRY_BYTES as u32);
                // Not in the ghost: only `translate_miss` adds entries, taking them out of the ghost first.
                self.map_ghost.insert_absent(lpn);
                if e.dirty() {
                    self.core.on_flash[lpn as usize] = e.ppn();
                    stale.insert(self.core.tpage_of(lpn));
                }
            }
            for t in stale {
                rewrite_tpage(self, t, Purpose::Translation, TpCause::Eviction, dev)?;
            }
            self.buf.set_capacity((buf / self.page_bytes) as usize);
        }
        Ok(())
    }

    /// Whether a write miss into a full buffer takes the general path (evict, then insert)
    /// rather than replacing the LRU page in place: tests compare the two.
    #[cfg(test)]
    fn evict_first(&self) -> bool {
        self.evict_first
    }

    #[cfg(not(test))]
    #[inline(always)]
    fn evict_first(&self) -> bool {
        false
    }

    /// A hint for the pages the buffer will evict next. A write that misses the buffer (most
    /// random writes do) evicts its LRU page, which the demand layer then writes to flash,
    /// invalidating its old copy, a random page whose state is a cache miss, or first
    /// reading its entry from its translation page when the mapping partition misses. While
    /// writes miss, the buffer is a queue: its page `k` places from the LRU end is the one
    /// inserted `len - k` insertions ago ([`Aps::inserted`]; walking the list would chase a
    /// node per place), and the request `k` ahead evicts it. For the places of the
    /// look-ahead's near requests (`n` to `2 * n` ahead), the old copy's state is fetched,
    /// found through the mapping partition (whose slot of the page was fetched when the page
    /// was a far one; the buffer holds a few dozen pages, so it is still in cache), or the
    /// entry in its translation page when the partition lacks it. A buffer hit reorders the
    /// list: a hint off by a place until misses have replaced the buffer. (The data ghost
    /// takes the victim in its own node: nothing more to fetch.) Changes nothing.
    fn prefetch_victims(&self, n: usize, dev: &Device) {
        let len = self.buf.len();
        if len >= RECENT {
            return;
        }
        for k in n..(2 * n).min(len) {
            let lpn = self.predicted_victim(k);
            match self.cmt.peek(&lpn) {
                Some(e) if e.ppn() != demand::UNMAPPED => dev.flash().prefetch(e.ppn(), false),
                Some(_) => {}
                None => {
                    self.core.prefetch_load(lpn, dev);
                    self.map_ghost.prefetch(lpn);
                }
            }
        }
    }

    /// The page the look-ahead takes for the one `k` places from the buffer's LRU end
    /// (while writes miss, the one inserted `len - k` insertions ago).
    fn predicted_victim(&self, k: usize) -> u32 {
        let oldest = self.inserts.wrapping_sub(self.buf.len());
        self.inserted[oldest.wrapping_add(k) % RECENT]
    }

    /// Inserts `lpn`, which the buffer lacks (every caller just missed it), noting it in
    /// [`Aps::inserted`]; in a full buffer, returns the page evicted (to the data ghost).
    #[inline(always)]
    fn buffer_insert(&mut self, lpn: u32, page: Buffered) -> Option<(u32, Buffered)> {
        self.inserted[self.inserts % RECENT] = lpn;
        self.inserts = self.inserts.wrapping_add(1);
        self.buf.insert_absent(lpn, page)
    }

    /// [`DemandScheme::translate`] when the mapping partition lacks `lpn`: the entry is read
    /// from its translation page (out of line: the hit path stays small).
    #[inline(never)]
    fn translate_miss(&mut self, lpn: u32, dev: &mut Device) -> Result<Ppn> {
        dev.mapping_lookup(false);
        dev.cache_miss(CacheLevel::Entry, lpn);
        if self.map_ghost.remove(&lpn) {
            self.hits.mapping += 1;
            dev.cache_hit(CacheLevel::Ghost, lpn);
        }
        if self.cmt.is_full() {
            // The victim goes to the mapping ghost: a random slot there, fetched while the
            // entry is read from its translation page. A hint only.
            if let Some(victim) = self.cmt.peek_lru() {
                self.map_ghost.prefetch(victim);
            }
        }
        let ppn = self.core.load_entry(lpn, dev, TpCause::Miss)?;
        dev.cache_insert(CacheLevel::Entry, lpn, ENTRY_BYTES as u32);
        if self.cmt.is_full() {
            self.lru.select(self.cmt.len(), dev);
        }
        self.lru.touch(1, dev);
        if let Inserted::Evicted(victim, e) = self.cmt.insert_absent(lpn, MapEntry::clean(ppn)) {
            self.entry_evicted(victim, e, dev)?;
        }
        Ok(self.cmt.peek(&lpn).map_or(ppn, |e| e.ppn()))
    }

    /// Writes every page RAM wrote to flash (the buffer empties).
    fn flush_buffer(&mut self, dev: &mut Device) -> Result<()> {
        while let Some((lpn, page)) = self.buf.pop_lru_forget() {
            dev.cache_evict(CacheLevel::DataPage, lpn, page.dirty, self.page_bytes as u32);
            if page.dirty {
                dev.ram(1);
                demand::write(self, lpn, page.version, dev)?;
            }
        }
        Ok(())
    }
}

impl DemandScheme for Aps {
    demand::forward!(core);

    /// DFTL's look-up in the mapping partition, counting mapping-ghost hits.
    #[inline(always)] // the hit path, into the demand layer's write
    fn translate(&mut self, lpn: u32, dev: &mut Device) -> Result<Ppn> {
        if let Some(e) = self.cmt.get(&lpn) {
            let ppn = e.ppn();
            self.lru.touch(1, dev);
            dev.mapping_lookup(true);
            dev.cache_hit(CacheLevel::Entry, lpn);
            return Ok(ppn);
        }
        self.translate_miss(lpn, dev)
    }

    #[inline]
    fn cached(&self, lpn: u32) -> Option<Ppn> {
        self.cmt.peek(&lpn).map(|e| e.ppn())
    }

    fn prefetch_cached(&self, lpns: &[u32]) {
        for &lpn in lpns {
            self.cmt.prefetch_key(lpn);
        }
        for &lpn in lpns {
            self.cmt.prefetch_entry(lpn);
        }
        // GC writes the on-flash image of the entries the partition lacks (about half
        // of them): fetched alongside.
        for &lpn in lpns {
            crate::prefetch::element(&self.core.on_flash, lpn as usize);
        }
    }

    #[inline(always)] // once per page written and per page GC copies
    fn set_cached(&mut self, lpn: u32, ppn: Ppn, dev: &mut Device) -> bool {
        let Some(e) = self.cmt.peek_mut(&lpn) else { return false };
        *e = MapEntry::written(ppn);
        dev.meta_write(MetaKind::MapCache, lpn, ENTRY_BYTES as u32);
        true
    }

    fn ram_entries(&self) -> Vec<(u32, Ppn, bool)> {
        self.cmt.iter().map(|(&lpn, e)| (lpn, e.ppn(), e.dirty())).collect()
    }

    fn mark_clean(&mut self, _t: u32, lpns: &[u32]) {
        for lpn in lpns {
            if let Some(e) = self.cmt.peek_mut(lpn) {
                e.set_dirty(false);
            }
        }
    }

    fn held(&self) -> Vec<(u32, u32)> {
        self.buf.iter().filter(|(_, b)| b.dirty).map(|(&l, b)| (l, b.version)).collect()
    }
}

impl Ftl for Aps {
    /// The map cache's, the buffer's and the ghosts' index slots of the far pages and entries
    /// of the near ones (as the CMT of the demand family, [`demand::Cmt::prefetch`]).
    fn prefetch(&self, ahead: &crate::prefetch::Lookahead, dev: &Device) {
        for &lpn in ahead.far {
            crate::prefetch::element(ahead.also, lpn as usize);
            self.cmt.prefetch_key(lpn);
            self.buf.prefetch_key(lpn);
            self.map_ghost.prefetch(lpn);
        }
        for &lpn in ahead.near {
            self.cmt.prefetch_entry(lpn);
            self.buf.prefetch_entry(lpn);
        }
        self.prefetch_victims(ahead.near.len(), dev);
    }

    fn end_request(&mut self, dev: &mut Device) -> Result<()> {
        self.requests += 1;
        // A countdown rather than `requests % interval`: a division per request.
        self.until_adapt -= 1;
        if self.until_adapt == 0 {
            self.until_adapt = self.options.interval;
            self.adapt(dev)?;
        }
        Ok(())
    }

    fn read(&mut self, lpn: u32, dev: &mut Device) -> Result<Option<PageTag>> {
        if let Some(&page) = self.buf.get(&lpn) {
            self.lru.touch(1, dev);
            dev.buffer_lookup(true);
            dev.cache_hit(CacheLevel::DataPage, lpn);
            dev.ram(1);
            return Ok(Some(PageTag::data(lpn, page.version)));
        }
        self.buffer_miss(lpn, false, dev);
        let tag = demand::read(self, lpn, dev)?;
        if let (true, Some(t)) = (self.options.cache_reads, tag) {
            self.buffer_room(dev)?;
            dev.cache_insert(CacheLevel::DataPage, lpn, self.page_bytes as u32);
            self.lru.touch(1, dev);
            dev.ram(1);
            self.buffer_insert(lpn, Buffered { version: t.version, dirty: false });
        }
        Ok(tag)
    }

    fn write(&mut self, lpn: u32, version: u32, dev: &mut Device) -> Result<()> {
        dev.ram(1);
        if let Some(page) = self.buf.get_mut(&lpn) {
            *page = Buffered { version, dirty: true };
            self.lru.touch(1, dev);
            dev.buffer_lookup(true);
            dev.cache_hit(CacheLevel::DataPage, lpn);
            return Ok(());
        }
        self.buffer_miss(lpn, true, dev);
        let page = Buffered { version, dirty: true };
        if self.buf.is_full() && !self.options.read_in && !self.evict_first() {
            // The LRU page's node takes the new page in place (one list operation, where
            // evicting and then inserting moves two nodes and their index slots). The
            // victim leaves as in `buffer_room`, before the new page's cache events: nothing
            // its write to flash does reads the buffer.
            self.lru.select(self.buf.len(), dev);
            if let Some((victim, old)) = self.buffer_insert(lpn, page) {
                self.page_evicted(victim, old, dev)?;
            }
            dev.cache_insert(CacheLevel::DataPage, lpn, self.page_bytes as u32);
            self.lru.touch(1, dev);
            return Ok(());
        }
        self.buffer_room(dev)?;
        if self.options.read_in {
            // The old copy, wherever the eviction's GC may have moved it.
            let old = self.translate(lpn, dev)?;
            if old != demand::UNMAPPED {
                dev.read(old, Purpose::Data)?;
            }
        }
        dev.cache_insert(CacheLevel::DataPage, lpn, self.page_bytes as u32);
        self.lru.touch(1, dev);
        self.buffer_insert(lpn, page);
        Ok(())
    }

    fn trim(&mut self, lpn: u32, dev: &mut Device) -> Result<()> {
        if self.buf.remove(&lpn).is_some() {
            dev.cache_evict(CacheLevel::DataPage, lpn, false, self.page_bytes as u32);
        }
        demand::trim(self, lpn, dev)
    }

    fn ram_bytes(&self) -> u64 {
        let (map, buf) = self.partitions();
        self.core.gtd_bytes() + map + buf
    }

    /// What each partition holds (the GTD counts as mapping): once they are full, the moving
    /// boundary itself ([`Aps::partitions`] gives the partitions' sizes).
    fn ram_split(&self) -> Option<super::RamSplit> {
        Some(super::RamSplit {
            mapping_bytes: self.core.gtd_bytes() + self.cmt.len() as u64 * ENTRY_BYTES,
            buffer_bytes: self.buf.len() as u64 * self.page_bytes,
        })
    }

    fn holds_in_ram(&self, lpn: u32) -> bool {
        self.buf.contains(&lpn)
    }

    // `read`, `write`, `trim` and `flush` go through the data buffer first (above, below).
    demand::forward!(place_prefill, map_view, block_role, ram_budget);

    fn inspect(&self, q: &InspectQuery) -> Inspection {
        self.inspection(q)
    }

    fn check(&self, dev: &Device) -> Result<()> {
        demand::check(self, dev, "aps")?;
        let (map, buf) = self.partitions();
        if map + buf > self.cache
            || self.cmt.len() > self.cmt.capacity()
            || self.buf.len() > self.buf.capacity()
        {
            return Err(EngineError::Invariant(format!(
                "aps: partitions {map} + {buf} bytes over the cache of {} or over capacity",
                self.cache
            )));
        }
        if self.buf.iter().any(|(&lpn, _)| lpn as usize >= self.core.on_flash.len()) {
            return Err(EngineError::Invariant("aps: a buffered page outside the logical space".into()));
        }
        if let Err(m) = self.buf.check() {
            return Err(EngineError::Invariant(format!("aps: data buffer and its ghost: {m}")));
        }
        Ok(())
    }

    fn flush(&mut self, dev: &mut Device) -> Result<()> {
        self.flush_buffer(dev)?;
        demand::flush_entries(self, dev)
    }

    fn hash_into(&self, h: &mut StateHasher) {
        self.core.hash_into(h, |h| {
            for (&lpn, e) in self.cmt.iter() {
                e.hash_into(lpn, h);
            }
            for (lpn, page) in self.buf.iter() {
                h.u32(*lpn);
                h.u32(page.version);
                // Only `cache_reads` buffers clean pages (hashes without it stay as before).
                if !page.dirty {
                    h.bytes(&[0]);
                }
            }
            h.u32s(&self.map_ghost.iter().copied().collect::<Vec<_>>());
            h.u32s(&self.buf.ghost_iter().copied().collect::<Vec<_>>());
            let (map, buf) = self.partitions();
            h.u64(map);
            h.u64(buf);
            h.u32(self.requests);
            h.u64(self.hits.mapping);
            h.u64(self.hits.data_writes);
            h.u64(self.hits.data_reads);
        });
    }

    fn clone_box(&self) -> Box<dyn Ftl> {
        Box::new(self.clone())
    }
}

#[cfg(test)]
mod tests;
