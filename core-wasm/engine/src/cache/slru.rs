//! Segmented LRU: new entries enter a *probationary* segment; a second access promotes an
//! entry to the *protected* segment, so one-off accesses (scans) cannot flush entries that
//! proved themselves. Original DFTL's CMT is a segmented LRU (FlashSim `dftl.c`).
//!
//! Sizing: `capacity` bounds the whole cache and `protected_capacity` the protected part;
//! probation takes whatever the protected part does not use, so the cache is never "full"
//! while it has room. Victims come from the probationary LRU end, or from the protected LRU
//! end only when probation is empty. When promotion overflows the protected segment, its
//! LRU entry is demoted to the probationary front (a second chance, not an eviction).

use std::hash::Hash;

use super::lru::{DenseIndex, HashIndex, SlotIndex, MAX_CAPACITY};
use super::{Inserted, Lru};

/// Which segment an entry lives in (the cache "level" of hit events).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Segment {
    /// Entries seen once since they were (re)loaded.
    Probationary,
    /// Entries accessed again while probationary.
    Protected,
}

/// A segmented LRU cache of at most `capacity` entries.
#[derive(Debug, Clone)]
pub struct Slru<K, V, I = HashIndex<K>> {
    probation: Lru<K, V, I>,
    protected: Lru<K, V, I>,
    capacity: usize,
}

impl<K: Copy + Eq + Hash, V> Slru<K, V> {
    /// An empty cache of `capacity` entries of which at most `protected_capacity` (clamped to
    /// `capacity`) are protected.
    pub fn new(capacity: usize, protected_capacity: usize) -> Self {
        Self::indexed(capacity, protected_capacity)
    }
}

impl<V: Copy> Slru<u32, V, DenseIndex> {
    /// As [`Slru::new`], for keys from a small dense range (LPNs), found through arrays.
    pub fn dense(capacity: usize, protected_capacity: usize) -> Self {
        Self::indexed(capacity, protected_capacity)
    }

    /// [`Lru::prefetch_key`] on both segments.
    pub fn prefetch_key(&self, key: u32) {
        self.probation.prefetch_key(key);
        self.protected.prefetch_key(key);
    }

    /// [`Lru::prefetch_entry`] on both segments.
    pub fn prefetch_entry(&self, key: u32) {
        self.probation.prefetch_entry(key);
        self.protected.prefetch_entry(key);
    }
}

impl<K: Copy + Eq + Hash, V, I: SlotIndex<K>> Slru<K, V, I> {
    /// As [`Slru::new`], keys found through indexes of type `I`.
    pub fn indexed(capacity: usize, protected_capacity: usize) -> Self {
        let capacity = capacity.min(MAX_CAPACITY);
        Slru {
            // The total bound is enforced here, so probation itself never evicts.
            probation: Lru::indexed(MAX_CAPACITY),
            protected: Lru::indexed(protected_capacity.min(capacity)),
            capacity,
        }
    }

    /// Maximum number of entries in both segments.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// Maximum number of protected entries.
    pub fn protected_capacity(&self) -> usize {
        self.protected.capacity()
    }

    /// Number of entries in both segments.
    pub fn len(&self) -> usize {
        self.probation.len() + self.protected.len()
    }

    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// True when an insert of a new key would evict.
    pub fn is_full(&self) -> bool {
        self.len() >= self.capacity
    }

    /// The probationary segment (read-only; its `iter()` is MRU → LRU).
    pub fn probationary(&self) -> &Lru<K, V, I> {
        &self.probation
    }

    /// The protected segment (read-only; its `iter()` is MRU → LRU).
    pub fn protected(&self) -> &Lru<K, V, I> {
        &self.protected
    }

    /// The segment holding `key`, without counting an access.
    pub fn segment_of(&self, key: &K) -> Option<Segment> {
        if self.protected.contains(key) {
            Some(Segment::Protected)
        } else if self.probation.contains(key) {
            Some(Segment::Probationary)
        } else {
            None
        }
    }

    /// True if `key` is cached. Does not count as an access.
    pub fn contains(&self, key: &K) -> bool {
        self.segment_of(key).is_some()
    }

    /// The value of `key` without counting an access.
    pub fn peek(&self, key: &K) -> Option<&V> {
        self.protected.peek(key).or_else(|| self.probation.peek(key))
    }

    /// Mutable value of `key` without counting an access.
    pub fn peek_mut(&mut self, key: &K) -> Option<&mut V> {
        if self.protected.contains(key) {
            self.protected.peek_mut(key)
        } else {
            self.probation.peek_mut(key)
        }
    }

    /// Accesses `key`: returns the segment it was found in (the hit level) and promotes it;
    /// `None` is a miss.
    pub fn touch(&mut self, key: &K) -> Option<Segment> {
        if self.protected.touch(key) {
            return Some(Segment::Protected);
        }
        if self.protected.capacity() == 0 {
            // Nowhere to promote to: behave as a plain LRU.
            return self.probation.touch(key).then_some(Segment::Probationary);
        }
        let value = self.probation.remove(key)?;
        if self.protected.is_full() {
            if let Some((k, v)) = self.protected.pop_lru() {
                self.probation.insert(k, v);
            }
        }
        self.protected.insert(*key, value);
        Some(Segment::Probationary)
    }

    /// Accesses `key` (see [`Slru::touch`]) and returns its value.
    pub fn get(&mut self, key: &K) -> Option<&V> {
        self.touch(key)?;
        self.peek(key)
    }

    /// Accesses `key` (see [`Slru::touch`]) and returns its value mutably.
    pub fn get_mut(&mut self, key: &K) -> Option<&mut V> {
        self.touch(key)?;
        self.peek_mut(key)
    }

    /// Inserts `key`. A present key gets the new value (the old one is returned) and the
    /// insert counts as an access (promotion); a new key enters the probationary front,
    /// evicting the next victim first when the cache is full.
    pub fn insert(&mut self, key: K, value: V) -> Inserted<K, V> {
        if self.touch(&key).is_some() {
            // `touch` found it, so `peek_mut` does too.
            if let Some(slot) = self.peek_mut(&key) {
                return Inserted::Replaced(std::mem::replace(slot, value));
            }
        }
        if self.capacity == 0 {
            return Inserted::Evicted(key, value);
        }
        let evicted = if self.is_full() { self.pop_lru() } else { None };
        self.probation.insert(key, value);
        match evicted {
            Some((k, v)) => Inserted::Evicted(k, v),
            None => Inserted::Added,
        }
    }

    /// Removes `key`, returning its value.
    pub fn remove(&mut self, key: &K) -> Option<V> {
        self.protected.remove(key).or_else(|| self.probation.remove(key))
    }

    /// The next victim: the probationary LRU entry, or the protected one if probation is
    /// empty.
    pub fn peek_lru(&self) -> Option<(&K, &V)> {
        self.probation.peek_lru().or_else(|| self.protected.peek_lru())
    }

    /// Removes and returns the next victim.
    pub fn pop_lru(&mut self) -> Option<(K, V)> {
        self.probation.pop_lru().or_else(|| self.protected.pop_lru())
    }

    /// Removes and returns the first entry, in victim order (probationary LRU end first, then
    /// protected), for which `accept` holds; `None` when none qualifies.
    pub fn pop_lru_where(&mut self, mut accept: impl FnMut(&K, &V) -> bool) -> Option<(K, V)> {
        self.probation.pop_lru_where(&mut accept).or_else(|| self.protected.pop_lru_where(accept))
    }

    /// Every entry from kept-longest to next victim: protected MRU → LRU, then
    /// probationary MRU → LRU.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = (Segment, &K, &V)> + '_ {
        let protected = self.protected.iter().map(|(k, v)| (Segment::Protected, k, v));
        let probation = self.probation.iter().map(|(k, v)| (Segment::Probationary, k, v));
        protected.chain(probation)
    }

    /// Removes every entry (capacities unchanged).
    pub fn clear(&mut self) {
        self.probation.clear();
        self.protected.clear();
    }
}

#[cfg(test)]
#[path = "tests/slru.rs"]
mod tests;
