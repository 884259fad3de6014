//! Ghost cache: the keys (no values) of entries recently evicted from a real cache, in LRU
//! order, bounded. A request that misses the real cache but hits its ghost would have hit
//! had the real cache been larger; APS (seed 000 §II) counts such hits on a mapping ghost
//! and a data ghost to decide which partition to grow. Costs a key per slot, not an entry.
//!
//! HCFTL's "Ghost-CMT" is different despite its name: it holds whole mapping entries
//! (LPN, PPN, dirty flag) evicted from the CMT, so it is an [`super::Lru`]; its DTP packing
//! uses [`super::tightest_window`].

use std::hash::Hash;

use super::lru::{DenseIndex, HashIndex, SlotIndex};
use super::{Lru, QueueLru};

/// A bounded LRU set of keys.
#[derive(Debug, Clone)]
pub struct Ghost<K, I = HashIndex<K>> {
    keys: Lru<K, (), I>,
}

impl<K: Copy + Eq + Hash> Ghost<K> {
    /// An empty ghost remembering at most `capacity` keys.
    pub fn new(capacity: usize) -> Self {
        Ghost { keys: Lru::new(capacity) }
    }
}

/// A [`Ghost`] of keys from a small dense range (LPNs): an array over the keys instead of a
/// hash map (4 bytes per key up to the largest seen). A large ghost keeps its order as a
/// queue of accesses ([`QueueLru`]: forgetting a key marks its slot, where a linked list
/// moves its last node into the hole and touches random neighbours in a large node array); a
/// small one, whose nodes stay in the CPU's cache, as a linked list ([`Lru`]), where
/// recording a key into a full ghost reuses the forgotten key's node in place instead of
/// skipping and compacting queue positions. The form is chosen by the capacity at
/// construction; either gives the same answers and order as [`Ghost`].
#[derive(Debug, Clone)]
pub struct DenseGhost {
    keys: DenseKeys,
}

/// Largest capacity a [`DenseGhost`] keeps as a linked list (12-byte nodes: 48 KiB).
const LINKED_MAX: usize = 4096;

#[derive(Debug, Clone)]
enum DenseKeys {
    Linked(Lru<u32, (), DenseIndex>),
    Queue(QueueLru<()>),
}

/// Runs `$body` with `$k` bound to whichever form `$keys` has.
macro_rules! either {
    ($keys:expr, $k:ident => $body:expr) => {
        match $keys {
            DenseKeys::Linked($k) => $body,
            DenseKeys::Queue($k) => $body,
        }
    };
}

impl DenseGhost {
    /// An empty ghost remembering at most `capacity` keys.
    pub fn new(capacity: usize) -> Self {
        Self::with_form(capacity, capacity <= LINKED_MAX)
    }

    /// An empty ghost of `capacity` keys in the linked form or the queue form (tests compare
    /// the two).
    fn with_form(capacity: usize, linked: bool) -> Self {
        let keys = if linked {
            DenseKeys::Linked(Lru::dense(capacity))
        } else {
            DenseKeys::Queue(QueueLru::new(capacity))
        };
        DenseGhost { keys }
    }

    /// Maximum number of keys.
    pub fn capacity(&self) -> usize {
        either!(&self.keys, k => k.capacity())
    }

    /// Keys remembered.
    pub fn len(&self) -> usize {
        either!(&self.keys, k => k.len())
    }

    /// True when it remembers no key.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// See [`Ghost::set_capacity`].
    pub fn set_capacity(&mut self, capacity: usize) -> Vec<u32> {
        either!(&mut self.keys, k => k.set_capacity(capacity).into_iter().map(|(k, ())| k).collect())
    }

    /// True if `key` is remembered (not an access).
    pub fn contains(&self, key: &u32) -> bool {
        either!(&self.keys, k => k.contains(key))
    }

    /// See [`Ghost::insert`].
    #[inline]
    pub fn insert(&mut self, key: u32) -> Option<u32> {
        either!(&mut self.keys, k => k.insert(key, ()).evicted().map(|(k, ())| k))
    }

    /// [`DenseGhost::insert`] of a key the ghost lacks (one just evicted from the real cache,
    /// which a key enters only after its ghost forgot it): no look-up of `key` first.
    #[inline]
    pub fn insert_absent(&mut self, key: u32) -> Option<u32> {
        either!(&mut self.keys, k => k.insert_absent(key, ()).evicted().map(|(k, ())| k))
    }

    /// See [`Ghost::remove`].
    #[inline]
    pub fn remove(&mut self, key: &u32) -> bool {
        either!(&mut self.keys, k => k.remove(key).is_some())
    }

    /// Keys from most to least recently recorded.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = &u32> + ExactSizeIterator + '_ {
        // Collected (the two forms' iterators differ): only views and the state hash iterate.
        let keys: Vec<&u32> = either!(&self.keys, k => k.iter().map(|(k, ())| k).collect());
        keys.into_iter()
    }

    /// Starts loading where `key` would be found ([`crate::prefetch`]): a look-up of a key
    /// the ghost lacks is one random load in the array. Changes nothing.
    pub fn prefetch(&self, key: u32) {
        either!(&self.keys, k => k.prefetch_key(key))
    }
}

impl<K: Copy + Eq + Hash, I: SlotIndex<K>> Ghost<K, I> {
    /// Maximum number of keys.
    pub fn capacity(&self) -> usize {
        self.keys.capacity()
    }

    /// Number of keys.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// True when recording a new key would forget the oldest.
    pub fn is_full(&self) -> bool {
        self.keys.is_full()
    }

    /// Changes the capacity, forgetting the oldest keys if it shrinks; returns them, oldest
    /// first (APS resizes ghosts with the partitions).
    pub fn set_capacity(&mut self, capacity: usize) -> Vec<K> {
        self.keys.set_capacity(capacity).into_iter().map(|(k, ())| k).collect()
    }

    /// True if `key` is remembered. Does not refresh it.
    pub fn contains(&self, key: &K) -> bool {
        self.keys.contains(key)
    }

    /// Records `key` (typically just evicted from the real cache) as the most recent; returns
    /// the key forgotten to make room, if any. With capacity 0, `key` itself.
    pub fn insert(&mut self, key: K) -> Option<K> {
        self.keys.insert(key, ()).evicted().map(|(k, ())| k)
    }

    /// A ghost hit test that refreshes: true (and `key` becomes most recent) if remembered.
    pub fn touch(&mut self, key: &K) -> bool {
        self.keys.touch(key)
    }

    /// Forgets `key`; true if it was remembered. The usual ghost hit: the key is being loaded
    /// into the real cache, so the ghost stops tracking it.
    pub fn remove(&mut self, key: &K) -> bool {
        self.keys.remove(key).is_some()
    }

    /// Forgets and returns the oldest key.
    pub fn pop_oldest(&mut self) -> Option<K> {
        self.keys.pop_lru().map(|(k, ())| k)
    }

    /// Keys from most to least recent (`.rev()`: the next to be forgotten first).
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = &K> + ExactSizeIterator + '_ {
        self.keys.iter().map(|(k, ())| k)
    }

    /// Forgets everything (capacity unchanged).
    pub fn clear(&mut self) {
        self.keys.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remembers_the_most_recent_evictions_in_lru_order() {
        let mut g = Ghost::new(3);
        assert_eq!(g.insert(1), None);
        assert_eq!(g.insert(2), None);
        assert_eq!(g.insert(3), None);
        assert!(g.is_full());
        assert!(g.touch(&1)); // [1 3 2]
        assert_eq!(g.insert(4), Some(2));
        assert_eq!(g.insert(3), None, "re-recording refreshes, forgets nothing");
        assert_eq!(g.iter().copied().collect::<Vec<_>>(), [3, 4, 1]);
        assert_eq!(g.iter().rev().copied().collect::<Vec<_>>(), [1, 4, 3]);
        assert_eq!(g.pop_oldest(), Some(1));
    }

    #[test]
    fn aps_style_ghost_hits_are_counted_and_consumed() {
        // Real cache of 2 entries plus a ghost of 2 keys; access 1 2 3 1 4 2 with
        // insert-on-miss. Hand trace: 3 evicts 1 (ghost [1]); 1 misses, ghost hit, evicts 2
        // (ghost [2]); 4 evicts 3 (ghost [3 2]); 2 misses, ghost hit, evicts 1 (ghost [1 3]).
        let mut real = Lru::new(2);
        let mut ghost = Ghost::new(2);
        let (mut hits, mut ghost_hits) = (0, 0);
        for k in [1u32, 2, 3, 1, 4, 2] {
            if real.touch(&k) {
                hits += 1;
                continue;
            }
            if ghost.remove(&k) {
                ghost_hits += 1;
            }
            if let Some((old, ())) = real.insert(k, ()).evicted() {
                ghost.insert(old);
            }
        }
        assert_eq!((hits, ghost_hits), (0, 2));
        assert_eq!(ghost.iter().copied().collect::<Vec<_>>(), [1, 3]);
        assert!(ghost.contains(&3) && !ghost.contains(&2));
    }

    /// The dense ghost answers as the hashed one on random records, hits and resizes.
    #[test]
    fn the_dense_ghost_matches_the_hashed_one() {
        for linked in [false, true] {
            dense_ghost_matches_the_hashed_one(DenseGhost::with_form(20, linked));
        }
        assert!(matches!(DenseGhost::new(LINKED_MAX).keys, DenseKeys::Linked(_)));
        assert!(matches!(DenseGhost::new(LINKED_MAX + 1).keys, DenseKeys::Queue(_)));
    }

    fn dense_ghost_matches_the_hashed_one(mut d: DenseGhost) {
        let mut g = Ghost::new(20);
        let mut rng = crate::test_rng::Rng(7);
        for _ in 0..5000 {
            let x = rng.next();
            let key = ((x >> 33) % 64) as u32;
            match (x >> 20) % 10 {
                0..=5 => assert_eq!(g.insert(key), d.insert(key)),
                6..=8 => assert_eq!(g.remove(&key), d.remove(&key)),
                _ => {
                    let c = ((x >> 40) % 30) as usize;
                    assert_eq!(g.set_capacity(c), d.set_capacity(c));
                }
            }
            assert!(g.iter().eq(d.iter()));
            assert_eq!((g.len(), g.capacity(), g.contains(&key)), (d.len(), d.capacity(), d.contains(&key)));
        }
    }

    #[test]
    fn capacity_edges_and_resizing() {
        let mut zero = Ghost::new(0);
        assert_eq!(zero.insert(5), Some(5));
        assert!(zero.is_empty() && !zero.contains(&5));
        let mut g = Ghost::new(4);
        for k in 0..4 {
            g.insert(k);
        }
        assert_eq!(g.set_capacity(1), vec![0, 1, 2]);
        assert_eq!((g.len(), g.capacity()), (1, 1));
        assert!(!g.remove(&0));
        assert!(g.remove(&3));
        g.insert(9);
        g.clear();
        assert!(g.is_empty() && g.pop_oldest().is_none());
    }
}
