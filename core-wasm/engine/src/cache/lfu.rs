//! Least-frequently-used cache. The victim is the entry with the lowest access count;
//! **ties go to the least recently accessed** of those (a logical clock stamps every
//! access), so eviction never depends on hash order.
//!
//! Counts can be kept by the cache (`touch`, `get`: +1 per access) or supplied by the
//! scheme: DAC's TPAFC ranks translation pages by the FREQ column of its TPMT, which lives on
//! after a page leaves the cache, so [`Lfu::insert_with_freq`] and [`Lfu::set_freq`] take the
//! count from outside, and [`Lfu::peek_victim`] exposes the victim's count for DAC's
//! "requested FREQ vs victim FREQ" decision (thesis Alg. 2.3.2).
//!
//! Operations are O(log n) (an ordered index on (count, last access)); LFU levels in the
//! schemes are small (DAC: tens of translation pages).

use std::collections::{BTreeMap, HashMap};
use std::hash::Hash;

use super::{Inserted, KeyBuild};

#[derive(Debug, Clone)]
struct Slot<V> {
    value: V,
    freq: u64,
    stamp: u64,
}

/// An LFU cache of at most `capacity` entries.
#[derive(Debug, Clone)]
pub struct Lfu<K, V> {
    slots: HashMap<K, Slot<V>, KeyBuild>,
    /// (count, last-access stamp) → key; the first entry is the victim. Stamps are unique.
    order: BTreeMap<(u64, u64), K>,
    clock: u64,
    capacity: usize,
}

impl<K: Copy + Eq + Hash, V> Lfu<K, V> {
    /// An empty cache holding at most `capacity` entries.
    pub fn new(capacity: usize) -> Self {
        Lfu { slots: HashMap::default(), order: BTreeMap::new(), clock: 0, capacity }
    }

    /// Maximum number of entries.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// True when an insert of a new key would evict.
    pub fn is_full(&self) -> bool {
        self.slots.len() >= self.capacity
    }

    /// True if `key` is cached. Does not count as an access.
    pub fn contains(&self, key: &K) -> bool {
        self.slots.contains_key(key)
    }

    /// The value of `key` without counting an access.
    pub fn peek(&self, key: &K) -> Option<&V> {
        self.slots.get(key).map(|s| &s.value)
    }

    /// Mutable value of `key` without counting an access (e.g. marking a page dirty).
    pub fn peek_mut(&mut self, key: &K) -> Option<&mut V> {
        self.slots.get_mut(key).map(|s| &mut s.value)
    }

    /// The access count of `key`.
    pub fn freq(&self, key: &K) -> Option<u64> {
        self.slots.get(key).map(|s| s.freq)
    }

    /// Accesses `key`: count + 1 and it becomes the most recent; returns the new count, or
    /// `None` on a miss.
    pub fn touch(&mut self, key: &K) -> Option<u64> {
        let freq = self.slots.get(key)?.freq.saturating_add(1);
        self.restamp(key, freq);
        Some(freq)
    }

    /// Accesses `key` (see [`Lfu::touch`]) and returns its value.
    pub fn get(&mut self, key: &K) -> Option<&V> {
        self.touch(key)?;
        self.peek(key)
    }

    /// Accesses `key` (see [`Lfu::touch`]) and returns its value mutably.
    pub fn get_mut(&mut self, key: &K) -> Option<&mut V> {
        self.touch(key)?;
        self.peek_mut(key)
    }

    /// Sets the count of `key` from the scheme's own counter; this counts as an access for
    /// recency. Returns false on a miss.
    pub fn set_freq(&mut self, key: &K, freq: u64) -> bool {
        if !self.slots.contains_key(key) {
            return false;
        }
        self.restamp(key, freq);
        true
    }

    /// Inserts `key` with count 1 (a present key: new value, count + 1).
    pub fn insert(&mut self, key: K, value: V) -> Inserted<K, V> {
        let freq = self.slots.get(&key).map_or(1, |s| s.freq.saturating_add(1));
        self.insert_with_freq(key, value, freq)
    }

    /// Inserts `key` with count `freq` as the most recent access. A present key gets the new
    /// value and count (the old value is returned); a new key into a full cache first evicts
    /// the victim, whatever its count (compare with [`Lfu::peek_victim`] first to decide).
    pub fn insert_with_freq(&mut self, key: K, value: V, freq: u64) -> Inserted<K, V> {
        if self.slots.contains_key(&key) {
            self.restamp(&key, freq);
            let slot = self.slots.get_mut(&key).map(|s| std::mem::replace(&mut s.value, value));
            return slot.map_or(Inserted::Added, Inserted::Replaced);
        }
        if self.capacity == 0 {
            return Inserted::Evicted(key, value);
        }
        let evicted = if self.is_full() { self.pop_victim() } else { None };
        let stamp = self.tick();
        self.order.insert((freq, stamp), key);
        self.slots.insert(key, Slot { value, freq, stamp });
        match evicted {
            Some((k, v, _)) => Inserted::Evicted(k, v),
            None => Inserted::Added,
        }
    }

    /// Removes `key`, returning its value.
    pub fn remove(&mut self, key: &K) -> Option<V> {
        let slot = self.slots.remove(key)?;
        self.order.remove(&(slot.freq, slot.stamp));
        Some(slot.value)
    }

    /// The next victim (least frequent, then least recent) with its count.
    pub fn peek_victim(&self) -> Option<(&K, &V, u64)> {
        let (&(freq, _), key) = self.order.iter().next()?;
        self.slots.get(key).map(|s| (key, &s.value, freq))
    }

    /// Removes and returns the next victim with its count.
    pub fn pop_victim(&mut self) -> Option<(K, V, u64)> {
        let (&(freq, stamp), &key) = self.order.iter().next()?;
        self.order.remove(&(freq, stamp));
        self.slots.remove(&key).map(|s| (key, s.value, freq))
    }

    /// Entries with their counts from kept-longest to next victim: most frequent first,
    /// most recent first among equals (`.rev()` gives eviction order).
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = (&K, &V, u64)> + '_ {
        self.order
            .iter()
            .rev()
            .filter_map(|(&(freq, _), key)| self.slots.get(key).map(|s| (key, &s.value, freq)))
    }

    /// Removes every entry (capacity unchanged; the recency clock keeps running).
    pub fn clear(&mut self) {
        self.slots.clear();
        self.order.clear();
    }

    fn tick(&mut self) -> u64 {
        self.clock += 1;
        self.clock
    }

    /// Gives a present `key` count `freq` and a fresh access stamp.
    fn restamp(&mut self, key: &K, freq: u64) {
        let stamp = self.tick();
        if let Some(slot) = self.slots.get_mut(key) {
            self.order.remove(&(slot.freq, slot.stamp));
            slot.freq = freq;
            slot.stamp = stamp;
            self.order.insert((freq, stamp), *key);
        }
    }
}

#[cfg(test)]
#[path = "tests/lfu.rs"]
mod tests;
