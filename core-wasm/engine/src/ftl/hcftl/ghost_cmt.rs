//! HCFTL's Ghost-CMT (seed 001 §III.D): a small second cache of whole mapping entries
//! (LPN, PPN, dirty flag) evicted from the CMT. When it is full, a fixed number of its
//! entries is packed into one dynamic translation page (DTP): by default the entries whose
//! `max − min` LPN is smallest, so the DTP's index range rules out most lookups before its
//! bloom filter is tested.
//!
//! **Finding the window.** The entries' LPNs are also kept in a sorted set
//! ([`KeySet`]), whose search skips the stretches of LPNs too sparse to beat the best window
//! found (the same answer as one pass over the sorted keys, [`crate::cache::tightest_window`],
//! which a Ghost-CMT of `G` entries made `O(G)` host work per DTP written). The scheme still
//! charges the modelled pass as `G` cache operations. Ties go to the lowest LPNs.
//!
//! Despite its name this is not a [`crate::cache::Ghost`] (keys only): entries are real and
//! a lookup that finds one is a hit in RAM.

use super::key_set::KeySet;
use crate::cache::{DenseIndex, Lru};
// The family's cached entry; its dirty bit is the DTP's one-bit flag (seed 001 §III.B).
use crate::ftl::demand::MapEntry;

/// Which entries form the next DTP.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Packing {
    /// The `n` entries whose `max − min` LPN is smallest (the paper's rule).
    Tightest,
    /// The `n` entries evicted earliest: what packing evicted entries without a Ghost-CMT
    /// amounts to (seed 001 Fig. 7(a)'s configurations without it).
    Oldest,
}

/// The Ghost-CMT: entries in eviction order plus their LPNs sorted.
#[derive(Debug, Clone)]
pub struct GhostCmt {
    /// Unbounded: the capacity below says when to pack, and entries pushed past it (a DTP
    /// load evicting many CMT entries at once) wait for the packing rather than being lost.
    entries: Lru<u32, MapEntry, DenseIndex>,
    sorted: KeySet,
    capacity: usize,
}

impl GhostCmt {
    /// An empty Ghost-CMT of `capacity` entries.
    pub fn new(capacity: usize) -> Self {
        GhostCmt { entries: Lru::dense(crate::cache::lru::MAX_CAPACITY), sorted: KeySet::default(), capacity }
    }

    /// Most entries it holds before packing.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// Entries held.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// True when a DTP must be packed.
    pub fn is_full(&self) -> bool {
        self.entries.len() >= self.capacity
    }

    /// Adds an entry evicted from the CMT (most recent first). The caller packs while it is
    /// full; nothing is ever dropped here.
    pub fn push(&mut self, lpn: u32, e: MapEntry) {
        self.sorted.insert(lpn);
        self.entries.insert(lpn, e);
    }

    /// The entry of `lpn`, if held.
    pub fn peek(&self, lpn: u32) -> Option<&MapEntry> {
        self.entries.peek(&lpn)
    }

    /// Mutable entry of `lpn` (GC fixing a moved page), without changing the order.
    pub fn peek_mut(&mut self, lpn: u32) -> Option<&mut MapEntry> {
        self.entries.peek_mut(&lpn)
    }

    /// Removes and returns the entry of `lpn` (a Ghost-CMT hit moves it back to the CMT).
    pub fn take(&mut self, lpn: u32) -> Option<MapEntry> {
        let e = self.entries.remove(&lpn)?;
        self.sorted.remove(lpn);
        Some(e)
    }

    /// The LPNs of the next DTP under `packing`, ascending: `n` of them (all when fewer are
    /// held). Does not remove them (the caller allocates the DTP first, which may run GC).
    pub fn choose(&self, n: usize, packing: Packing) -> Vec<u32> {
        match packing {
            Packing::Tightest => self.sorted.tightest(n),
            Packing::Oldest => {
                let mut keys: Vec<u32> = self.entries.iter().rev().take(n).map(|(&k, _)| k).collect();
                keys.sort_unstable();
                keys
            }
        }
    }

    /// Entries from most to least recently evicted.
    pub fn iter(&self) -> impl Iterator<Item = (u32, MapEntry)> + '_ {
        self.entries.iter().map(|(&k, &e)| (k, e))
    }

    /// The capacity is respected and the sorted keys match the entries.
    pub fn check(&self) -> std::result::Result<(), String> {
        if self.sorted.len() != self.entries.len()
            || self.entries.iter().any(|(&k, _)| !self.sorted.contains(k))
        {
            return Err("Ghost-CMT's sorted keys differ from its entries".into());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ghost_of(lpns: &[u32]) -> GhostCmt {
        let mut g = GhostCmt::new(lpns.len());
        for (i, &lpn) in lpns.iter().enumerate() {
            g.push(lpn, MapEntry { ppn: 100 + i as u32, dirty: i % 2 == 0 });
        }
        g
    }

    /// The paper's rule on a hand-made Ghost-CMT: of 7, 40, 3, 41, 90, 43, 12 (evicted in
    /// that order), the three with the smallest spread are 40, 41, 43 (spread 3; 3, 7, 12
    /// spreads 9). Packing the oldest three instead gives 3, 7, 40 (spread 37).
    #[test]
    fn packing_takes_the_tightest_window_not_the_oldest() {
        let g = ghost_of(&[7, 40, 3, 41, 90, 43, 12]);
        assert!(g.is_full());
        assert_eq!(g.choose(3, Packing::Tightest), vec![40, 41, 43]);
        assert_eq!(g.choose(3, Packing::Oldest), vec![3, 7, 40]);
        assert_eq!(g.choose(10, Packing::Tightest), vec![3, 7, 12, 40, 41, 43, 90]);
    }

    #[test]
    fn take_and_push_keep_entries_and_sorted_keys_together() {
        let mut g = ghost_of(&[5, 9, 1]);
        assert_eq!(g.take(9), Some(MapEntry { ppn: 101, dirty: false }));
        assert_eq!(g.take(9), None);
        assert!(!g.is_full());
        g.peek_mut(5).unwrap().dirty = false;
        assert_eq!(g.peek(5), Some(&MapEntry { ppn: 100, dirty: false }));
        g.push(2, MapEntry { ppn: 7, dirty: true });
        g.push(3, MapEntry { ppn: 8, dirty: true }); // one over capacity: kept until packed
        assert_eq!(g.len(), 4);
        assert_eq!(g.choose(2, Packing::Tightest), vec![1, 2]);
        assert_eq!(g.iter().map(|(k, _)| k).collect::<Vec<_>>(), [3, 2, 1, 5]);
        g.check().unwrap();
    }
}
