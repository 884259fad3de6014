//! The cached mapping table (CMT) of single mapping entries, as DFTL, CDFTL (level one) and
//! HCFTL hold it: plain LRU, or segmented LRU (the DFTL paper's), behind
//! one small interface so the policy code does not care which. Its counted operations
//! ([`Cmt::search`], [`Cmt::admit`]) are the look-up and insertion every one of those
//! schemes does the same way; what happens to a victim is the scheme's own rule. Which
//! entry is the victim is plain LRU, or the thesis' DAC cost-aware rule ([`Cmt::admit_by`],
//! `victim.rs`).

use crate::cache::{DenseIndex, Inserted, Lru, QueueLru, Slru};
use crate::device::Device;
use crate::events::CacheLevel;
use crate::flash::Ppn;
use crate::hash::StateHasher;

use super::victim::{pop_cost_aware, CmtVictim};

/// RAM of a cached mapping entry: LPN and PPN (the dirty bit fits in a PPN bit).
pub const ENTRY_BYTES: u64 = 8;

/// A mapping entry as RAM caches it: where the page is and whether its translation page on
/// flash is stale for it. One word: the PPN shifted up one bit, the dirty flag in bit 0, so a
/// CMT slot with its LPN key or queue position is 8 bytes, not 12 (a 12-byte slot may straddle
/// two cache lines, and a third more slots per line means fewer misses on every look-up).
/// The shift keeps PPNs up to [`MapEntry::MAX_PPN`] and the [`super::UNMAPPED`] sentinel
/// (an arithmetic shift back restores its top bit); [`crate::config::MAX_PAGES`] lies below
/// that bound (checked at compile time below), so no device's PPN can reach it.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
pub struct MapEntry(u32);

/// No configurable device has a PPN the packed entry cannot hold.
const _: () = assert!(crate::config::MAX_PAGES <= MapEntry::MAX_PPN as u64 + 1);

impl MapEntry {
    /// Largest PPN an entry holds (besides [`super::UNMAPPED`]): 2^30 - 1.
    pub const MAX_PPN: Ppn = (1 << 30) - 1;

    /// `ppn` (at most [`MapEntry::MAX_PPN`], or [`super::UNMAPPED`]), dirty or clean.
    #[inline(always)]
    pub const fn new(ppn: Ppn, dirty: bool) -> Self {
        debug_assert!(ppn <= Self::MAX_PPN || ppn == super::UNMAPPED, "PPN beyond a CMT entry's range");
        MapEntry(ppn << 1 | dirty as u32)
    }

    /// An entry as loaded from flash.
    #[inline(always)]
    pub const fn clean(ppn: Ppn) -> Self {
        Self::new(ppn, false)
    }

    /// An entry updated in RAM (its translation page on flash is stale for it).
    #[inline(always)]
    pub const fn written(ppn: Ppn) -> Self {
        Self::new(ppn, true)
    }

    /// Physical page ([`super::UNMAPPED`]: unmapped, e.g. trimmed).
    #[inline(always)]
    pub const fn ppn(self) -> Ppn {
        (self.0 as i32 >> 1) as u32
    }

    /// Updated since it was loaded from its translation page (must reach it some day).
    #[inline(always)]
    pub const fn dirty(self) -> bool {
        self.0 & 1 != 0
    }

    /// Sets or clears the dirty flag, keeping the PPN.
    #[inline(always)]
    pub fn set_dirty(&mut self, dirty: bool) {
        self.0 = self.0 & !1 | dirty as u32;
    }

    /// Feeds `lpn`'s entry into a state hash (LPN, PPN, dirty byte).
    pub fn hash_into(&self, lpn: u32, h: &mut StateHasher) {
        h.u32(lpn);
        h.u32(self.ppn());
        h.bytes(&[self.dirty() as u8]);
    }
}

impl std::fmt::Debug for MapEntry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MapEntry").field("ppn", &self.ppn()).field("dirty", &self.dirty()).finish()
    }
}

/// The cached mapping table.
#[derive(Debug, Clone)]
pub enum Cmt {
    /// One LRU list.
    Lru(Lru<u32, MapEntry, DenseIndex>),
    /// One LRU order kept as a queue of accesses ([`QueueLru`]): the same order as
    /// [`Cmt::Lru`], a hit touches one slot instead of a list's node and its neighbours.
    Queue(QueueLru<MapEntry>),
    /// Probationary and protected segments.
    Segmented(Slru<u32, MapEntry, DenseIndex>),
}

impl Cmt {
    /// A plain LRU CMT of `entries` over the logical pages `0..lpns`: kept as a queue of
    /// accesses ([`Cmt::Queue`]) when it holds a good part of the map, where its array over
    /// the LPNs is mostly in use and a linked list's hits would each touch random neighbours;
    /// as a linked list ([`Cmt::Lru`]) when it is small, so its nodes stay in the CPU's cache.
    /// Both keep the same order (a randomised test compares them).
    pub fn lru(entries: usize, lpns: usize) -> Self {
        if entries.saturating_mul(16) >= lpns {
            Cmt::Queue(QueueLru::new(entries))
        } else {
            Cmt::Lru(Lru::dense(entries))
        }
    }

    /// One search of the CMT (one cache operation): a hit counts as a mapping hit and an
    /// entry hit and answers the PPN; a miss counts as an entry miss only, since a lower
    /// level (CDFTL's pages, HCFTL's Ghost-CMT) may still hold the entry.
    #[inline(always)]
    pub fn search(&mut self, lpn: u32, dev: &mut Device) -> Option<Ppn> {
        dev.cache_ops(1);
        if let Some(e) = self.get(&lpn) {
            dev.mapping_lookup(true);
            dev.cache_hit(CacheLevel::Entry, lpn);
            return Some(e.ppn());
        }
        dev.cache_miss(CacheLevel::Entry, lpn);
        None
    }

    /// Caches `lpn` → `e` at the front, counting the insertion and the eviction it causes;
    /// answers the victim, which the scheme writes back, absorbs or keeps by its own rule.
    pub fn admit(&mut self, lpn: u32, e: MapEntry, dev: &mut Device) -> Option<(u32, MapEntry)> {
        dev.cache_insert(CacheLevel::Entry, lpn, ENTRY_BYTES as u32);
        let Inserted::Evicted(victim, v) = self.insert(lpn, e) else { return None };
        dev.cache_evict(CacheLevel::Entry, victim, v.dirty(), ENTRY_BYTES as u32);
        Some((victim, v))
    }

    /// Caches `lpn` → `e` as [`Cmt::admit`] does, the victim of a full CMT chosen by `rule`.
    /// The cost-aware rule takes the entry nearest the LRU end that is clean or whose
    /// translation page `page_cached` says the second level holds, and the LRU entry when none
    /// is (CDFTL's reading; DAC admits nothing then, see [`pop_cost_aware`]).
    pub fn admit_by(
        &mut self,
        lpn: u32,
        e: MapEntry,
        rule: CmtVictim,
        mut page_cached: impl FnMut(u32) -> bool,
        dev: &mut Device,
    ) -> Option<(u32, MapEntry)> {
        if rule == CmtVictim::Lru || self.len() < self.capacity() || self.peek(&lpn).is_some() {
            return self.admit(lpn, e, dev);
        }
        dev.cache_insert(CacheLevel::Entry, lpn, ENTRY_BYTES as u32);
        let dirty = |e: &MapEntry| e.dirty();
        let cheap = match self {
            Cmt::Lru(c) => pop_cost_aware(c, dirty, |k| page_cached(*k), dev),
            Cmt::Queue(c) => pop_cost_aware(c, dirty, |k| page_cached(*k), dev),
            Cmt::Segmented(c) => pop_cost_aware(c, dirty, |k| page_cached(*k), dev),
        };
        let victim = cheap.or_else(|| self.pop_lru());
        // The entry goes in after its victim left; with no room at all (capacity 0) the insert
        // evicts the entry itself, which is then the victim.
        let evicted = self.insert(lpn, e).evicted();
        let victim = victim.or(evicted);
        if let Some((k, v)) = victim {
            dev.cache_evict(CacheLevel::Entry, k, v.dirty(), ENTRY_BYTES as u32);
        }
        victim
    }

    /// Removes and returns the next victim (uncounted).
    pub fn pop_lru(&mut self) -> Option<(u32, MapEntry)> {
        match self {
            Cmt::Lru(c) => c.pop_lru(),
            Cmt::Queue(c) => c.pop_lru(),
            Cmt::Segmented(c) => c.pop_lru(),
        }
    }

    /// Marks the cached ones of `lpns` clean (their translation page is being rewritten).
    pub fn mark_clean(&mut self, lpns: &[u32]) {
        for lpn in lpns {
            if let Some(e) = self.peek_mut(lpn) {
                e.set_dirty(false);
            }
        }
    }

    /// `(lpn, ppn, dirty)` of every entry, in [`Cmt::iter`]'s order.
    pub fn entries(&self) -> impl Iterator<Item = (u32, Ppn, bool)> + '_ {
        self.iter().map(|(&lpn, e)| (lpn, e.ppn(), e.dirty()))
    }

    /// Feeds every entry into a state hash, in [`Cmt::iter`]'s order.
    pub fn hash_into(&self, h: &mut StateHasher) {
        for (&lpn, e) in self.iter() {
            e.hash_into(lpn, h);
        }
    }

    /// Looks `lpn` up as an access (recency updated, promotion in the segmented form).
    /// This and the other look-ups are inlined whatever the compiler's weighing: each is a
    /// match over three forms that it otherwise kept as a call, several per request and per
    /// GC copy (dftl's bench stepping 3 % faster inlined).
    #[inline(always)]
    pub fn get(&mut self, lpn: &u32) -> Option<MapEntry> {
        match self {
            Cmt::Lru(c) => c.get(lpn).copied(),
            Cmt::Queue(c) => c.get(lpn).copied(),
            Cmt::Segmented(c) => c.get(lpn).copied(),
        }
    }

    /// `lpn`'s entry without touching the order.
    #[inline(always)] // a few instructions on every hot path (GC's remapping, each write)
    pub fn peek(&self, lpn: &u32) -> Option<&MapEntry> {
        match self {
            Cmt::Lru(c) => c.peek(lpn),
            Cmt::Queue(c) => c.peek(lpn),
            Cmt::Segmented(c) => c.peek(lpn),
        }
    }

    /// `lpn`'s entry, to change it, without touching the order.
    #[inline(always)] // a few instructions on every hot path (GC's remapping, each write)
    pub fn peek_mut(&mut self, lpn: &u32) -> Option<&mut MapEntry> {
        match self {
            Cmt::Lru(c) => c.peek_mut(lpn),
            Cmt::Queue(c) => c.peek_mut(lpn),
            Cmt::Segmented(c) => c.peek_mut(lpn),
        }
    }

    /// Caches `lpn` → `e` (uncounted; [`Cmt::admit`] counts it).
    pub fn insert(&mut self, lpn: u32, e: MapEntry) -> Inserted<u32, MapEntry> {
        match self {
            Cmt::Lru(c) => c.insert(lpn, e),
            Cmt::Queue(c) => c.insert(lpn, e),
            Cmt::Segmented(c) => c.insert(lpn, e),
        }
    }

    /// A hint that the pages of `ahead` come soon ([`crate::ftl::Ftl::prefetch`]): starts
    /// loading the index slots of the far ones, with the caller's table, and the entries of
    /// the near ones (whose slots the previous burst loaded). Changes nothing.
    pub fn prefetch(&self, ahead: &crate::prefetch::Lookahead) {
        for i in 0..ahead.far.len().max(ahead.near.len()) {
            if let Some(&lpn) = ahead.far.get(i) {
                crate::prefetch::element(ahead.also, lpn as usize);
                match self {
                    Cmt::Lru(c) => c.prefetch_key(lpn),
                    Cmt::Queue(c) => c.prefetch_key(lpn),
                    Cmt::Segmented(c) => c.prefetch_key(lpn),
                }
            }
            if let Some(&lpn) = ahead.near.get(i) {
                match self {
                    Cmt::Lru(c) => c.prefetch_entry(lpn),
                    Cmt::Queue(c) => c.prefetch_entry(lpn),
                    Cmt::Segmented(c) => c.prefetch_entry(lpn),
                }
            }
        }
    }

    /// A hint that `lpns` are about to be looked up all at once (GC's copies out of a
    /// victim): their index slots, then their entries. Changes nothing.
    pub fn prefetch_lpns(&self, lpns: &[u32]) {
        for &lpn in lpns {
            match self {
                Cmt::Lru(c) => c.prefetch_key(lpn),
                Cmt::Queue(c) => c.prefetch_key(lpn),
                Cmt::Segmented(c) => c.prefetch_key(lpn),
            }
        }
        for &lpn in lpns {
            match self {
                Cmt::Lru(c) => c.prefetch_entry(lpn),
                Cmt::Queue(c) => c.prefetch_entry(lpn),
                Cmt::Segmented(c) => c.prefetch_entry(lpn),
            }
        }
    }

    /// Entries held.
    pub fn len(&self) -> usize {
        match self {
            Cmt::Lru(c) => c.len(),
            Cmt::Queue(c) => c.len(),
            Cmt::Segmented(c) => c.len(),
        }
    }

    /// Whether it holds no entry.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Entries it may hold.
    pub fn capacity(&self) -> usize {
        match self {
            Cmt::Lru(c) => c.capacity(),
            Cmt::Queue(c) => c.capacity(),
            Cmt::Segmented(c) => c.capacity(),
        }
    }

    /// Entries from kept-longest to next victim (segmented: protected, then probationary).
    pub fn iter(&self) -> Box<dyn Iterator<Item = (&u32, &MapEntry)> + '_> {
        match self {
            Cmt::Lru(c) => Box::new(c.iter()),
            Cmt::Queue(c) => Box::new(c.iter()),
            Cmt::Segmented(c) => Box::new(c.iter().map(|(_, k, v)| (k, v))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::SimConfig;
    use crate::events::Event;
    use crate::flash::FlashArray;

    fn device() -> Device {
        let config = SimConfig::default();
        let latency = crate::config::Latencies { cache_op_ns: 7, ..config.device.latency };
        Device::new(FlashArray::new(4, 4, config.device.cell), latency, true)
    }

    /// A hit counts one cache operation, a mapping hit and an entry hit; a miss one cache
    /// operation and an entry miss, leaving the mapping look-up to the caller.
    #[test]
    fn search_counts_a_hit_and_leaves_a_miss_to_the_caller() {
        let mut dev = device();
        let mut cmt = Cmt::Lru(Lru::dense(2));
        cmt.insert(5, MapEntry::clean(50));
        assert_eq!(cmt.search(5, &mut dev), Some(50));
        assert_eq!(cmt.search(6, &mut dev), None);
        assert_eq!((dev.stats.mapping_hits, dev.stats.mapping_misses), (1, 0));
        assert_eq!(dev.cost.lru_ns, 2 * 7);
        let events = dev.take_events();
        assert_eq!(
            events,
            vec![
                Event::CacheHit { level: CacheLevel::Entry, key: 5 },
                Event::CacheMiss { level: CacheLevel::Entry, key: 6 },
            ]
        );
    }

    /// The packed word gives back every PPN a device can have, the sentinel and both flags;
    /// setting the flag keeps the PPN.
    #[test]
    fn a_packed_entry_keeps_its_ppn_and_dirty_flag() {
        let max = (crate::config::MAX_PAGES - 1) as Ppn;
        for ppn in [0, 1, 12_345, max, MapEntry::MAX_PPN, super::super::UNMAPPED] {
            for dirty in [false, true] {
                let mut e = MapEntry::new(ppn, dirty);
                assert_eq!((e.ppn(), e.dirty()), (ppn, dirty));
                e.set_dirty(!dirty);
                assert_eq!((e.ppn(), e.dirty()), (ppn, !dirty));
            }
        }
        assert_eq!(MapEntry::default(), MapEntry::clean(0));
        assert_eq!(std::mem::size_of::<MapEntry>(), 4);
    }

    /// The config's page limit, which keeps every PPN within a packed entry's range (the
    /// compile-time assert beside [`MapEntry`] ties the two): a device of exactly
    /// [`crate::config::MAX_PAGES`] pages is accepted, one block more is refused with a message
    /// naming the limit.
    #[test]
    fn a_device_over_the_page_limit_is_refused() {
        let mut device = SimConfig::default().device;
        device.pages_per_block = 64;
        device.blocks = crate::config::MAX_PAGES as u32 / 64;
        assert!(device.validate().is_ok(), "the largest device is accepted");
        device.blocks += 1;
        let err = device.validate().unwrap_err().to_string();
        assert!(err.contains(&crate::config::MAX_PAGES.to_string()), "{err}");
    }

    /// Admitting into a full CMT evicts its LRU entry, dirty bit and all, and says so.
    #[test]
    fn admit_answers_the_victim_with_its_dirty_bit() {
        let mut dev = device();
        let mut cmt = Cmt::Lru(Lru::dense(2));
        assert_eq!(cmt.admit(1, MapEntry::written(10), &mut dev), None);
        assert_eq!(cmt.admit(2, MapEntry::clean(20), &mut dev), None);
        assert_eq!(cmt.admit(3, MapEntry::clean(30), &mut dev), Some((1, MapEntry::written(10))));
        let bytes = ENTRY_BYTES as u32;
        assert_eq!(
            dev.take_events().last(),
            Some(&Event::CacheEvict { level: CacheLevel::Entry, key: 1, dirty: true, bytes })
        );
        cmt.peek_mut(&2).unwrap().set_dirty(true);
        cmt.mark_clean(&[2, 9]);
        assert_eq!(cmt.entries().collect::<Vec<_>>(), vec![(3, 30, false), (2, 20, false)]);
    }
}
