//! Least-recently-used cache with O(1) operations: a doubly linked list threaded through a
//! dense `Vec` (indices instead of pointers, so it is `Clone` and safe) plus a key → slot
//! index ([`SlotIndex`]: a hash map, or for small integer keys such as LPNs a plain array,
//! [`DenseIndex`]). Removal swaps the last slot into the hole, so the `Vec` never has gaps.

use std::collections::HashMap;
use std::hash::Hash;

use super::{Inserted, KeyBuild};

/// Where an [`Lru`] finds a key's slot. Only looked up, never iterated: the order lives in
/// the list, so the choice of index never changes what the cache does.
pub trait SlotIndex<K>: Default + Clone {
    /// The slot of `key`.
    fn get(&self, key: &K) -> Option<u32>;
    /// Sets the slot of `key`.
    fn insert(&mut self, key: K, slot: u32);
    /// Forgets `key`, returning its slot.
    fn remove(&mut self, key: &K) -> Option<u32>;
    /// Forgets every key.
    fn clear(&mut self);
}

/// An array from key to slot over the range of keys seen, for a cache whose keys share a
/// narrow range (a TPFTL node: the LPNs of one translation page): 4 bytes per key of the
/// range, one load per look-up.
#[derive(Debug, Clone, Default)]
pub struct RangeIndex {
    base: u32,
    slots: Vec<u32>,
}

impl SlotIndex<u32> for RangeIndex {
    #[inline]
    fn get(&self, key: &u32) -> Option<u32> {
        let k = key.checked_sub(self.base)?;
        self.slots.get(k as usize).copied().filter(|&s| s != NIL)
    }
    fn insert(&mut self, key: u32, slot: u32) {
        if self.slots.is_empty() {
            self.base = key;
        } else if key < self.base {
            let shift = (self.base - key) as usize;
            self.slots.splice(0..0, std::iter::repeat_n(NIL, shift));
            self.base = key;
        }
        let k = (key - self.base) as usize;
        if k >= self.slots.len() {
            self.slots.resize(k + 1, NIL);
        }
        self.slots[k] = slot;
    }
    #[inline]
    fn remove(&mut self, key: &u32) -> Option<u32> {
        let k = key.checked_sub(self.base)? as usize;
        let slot = self.slots.get_mut(k)?;
        let old = std::mem::replace(slot, NIL);
        (old != NIL).then_some(old)
    }
    fn clear(&mut self) {
        self.slots.clear();
    }
}

/// A hash map from key to slot: any key type, memory proportional to the entries held.
pub type HashIndex<K> = HashMap<K, u32, KeyBuild>;

impl<K: Copy + Eq + Hash> SlotIndex<K> for HashIndex<K> {
    #[inline]
    fn get(&self, key: &K) -> Option<u32> {
        HashMap::get(self, key).copied()
    }
    #[inline]
    fn insert(&mut self, key: K, slot: u32) {
        HashMap::insert(self, key, slot);
    }
    #[inline]
    fn remove(&mut self, key: &K) -> Option<u32> {
        HashMap::remove(self, key)
    }
    fn clear(&mut self) {
        HashMap::clear(self);
    }
}

/// An array from key to slot, for `u32` keys from a small dense range (LPNs): one plain load
/// per look-up where a hash map costs a hash and a probe over twice the memory, at 4 bytes
/// per key up to the largest key seen (a cache of LPNs: 4 bytes per logical page at most).
#[derive(Debug, Clone, Default)]
pub struct DenseIndex(Vec<u32>);

impl DenseIndex {
    /// Starts loading `key`'s slot ([`crate::prefetch`]); changes nothing.
    pub fn prefetch(&self, key: u32) {
        crate::prefetch::element(&self.0, key as usize);
    }
}

impl SlotIndex<u32> for DenseIndex {
    #[inline]
    fn get(&self, key: &u32) -> Option<u32> {
        self.0.get(*key as usize).copied().filter(|&s| s != NIL)
    }
    #[inline]
    fn insert(&mut self, key: u32, slot: u32) {
        let k = key as usize;
        if k >= self.0.len() {
            self.0.resize((k + 1).next_power_of_two(), NIL);
        }
        self.0[k] = slot;
    }
    #[inline]
    fn remove(&mut self, key: &u32) -> Option<u32> {
        let slot = self.0.get_mut(*key as usize)?;
        let old = std::mem::replace(slot, NIL);
        (old != NIL).then_some(old)
    }
    fn clear(&mut self) {
        self.0.fill(NIL);
    }
}

const NIL: u32 = u32::MAX;
/// Largest capacity: slots are addressed by `u32` (half the link size of `usize`), with
/// `u32::MAX` reserved as the null link. Larger requested capacities are clamped to this.
pub const MAX_CAPACITY: usize = (u32::MAX - 1) as usize;

#[derive(Debug, Clone, Copy)]
struct Node<K, V> {
    key: K,
    value: V,
    prev: u32,
    next: u32,
}

/// An LRU cache of at most `capacity` entries. The most recently used entry is the *front*
/// (MRU), the next victim the *back* (LRU).
#[derive(Debug, Clone)]
pub struct Lru<K, V, I = HashIndex<K>> {
    nodes: Vec<Node<K, V>>,
    index: I,
    head: u32,
    tail: u32,
    capacity: usize,
}

impl<K: Copy + Eq + Hash, V> Lru<K, V> {
    /// An empty cache holding at most `capacity` entries (at most `u32::MAX - 1`).
    pub fn new(capacity: usize) -> Self {
        Self::indexed(capacity)
    }

    /// A cache that never evicts on insert: for lists whose budget the caller enforces in
    /// other units (TPFTL's translation-page nodes, bounded by the entries they hold).
    pub fn unbounded() -> Self {
        Self::new(MAX_CAPACITY)
    }
}

impl<V: Copy> Lru<u32, V, DenseIndex> {
    /// As [`Lru::new`], for keys from a small dense range (LPNs), found through an array.
    pub fn dense(capacity: usize) -> Self {
        Self::indexed(capacity)
    }

    /// Starts loading `key`'s slot in the index ([`crate::prefetch`]); changes nothing.
    pub fn prefetch_key(&self, key: u32) {
        crate::prefetch::element(&self.index.0, key as usize);
    }

    /// Starts loading `key`'s entry, when cached (its index slot should be loaded already:
    /// [`Lru::prefetch_key`] a little earlier); changes nothing.
    pub fn prefetch_entry(&self, key: u32) {
        if let Some(i) = self.index.get(&key) {
            crate::prefetch::element(&self.nodes, i as usize);
        }
    }
}

impl<V: Copy> Lru<u32, V, RangeIndex> {
    /// Starts loading `key`'s slot in the index ([`crate::prefetch`]); changes nothing.
    pub fn prefetch_key(&self, key: u32) {
        if let Some(k) = key.checked_sub(self.index.base) {
            crate::prefetch::element(&self.index.slots, k as usize);
        }
    }

    /// Starts loading `key`'s entry, when cached (its index slot should be loaded already:
    /// [`Lru::prefetch_key`] a little earlier); changes nothing.
    pub fn prefetch_entry(&self, key: u32) {
        if let Some(i) = self.index.get(&key) {
            crate::prefetch::element(&self.nodes, i as usize);
        }
    }
}

impl<K: Copy + Eq + Hash, V, I: SlotIndex<K>> Lru<K, V, I> {
    /// An empty cache holding at most `capacity` entries (at most `u32::MAX - 1`), keys
    /// found through an index of type `I`.
    pub fn indexed(capacity: usize) -> Self {
        Lru {
            nodes: Vec::new(),
            index: I::default(),
            head: NIL,
            tail: NIL,
            capacity: capacity.min(MAX_CAPACITY),
        }
    }

    /// Maximum number of entries.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// True when an insert of a new key would evict.
    pub fn is_full(&self) -> bool {
        self.nodes.len() >= self.capacity
    }

    /// Changes the capacity; when it shrinks below `len`, evicts LRU entries and returns
    /// them, least recent first (APS / adaptive schemes move partition boundaries).
    pub fn set_capacity(&mut self, capacity: usize) -> Vec<(K, V)> {
        self.capacity = capacity.min(MAX_CAPACITY);
        let mut evicted = Vec::new();
        while self.nodes.len() > self.capacity {
            match self.pop_lru() {
                Some(e) => evicted.push(e),
                None => break,
            }
        }
        evicted
    }

    /// True if `key` is cached. Does not count as an access.
    pub fn contains(&self, key: &K) -> bool {
        self.index.get(key).is_some()
    }

    /// The value of `key` without counting an access.
    pub fn peek(&self, key: &K) -> Option<&V> {
        self.index.get(key).map(|i| &self.nodes[i as usize].value)
    }

    /// Mutable value of `key` without counting an access (e.g. DFTL updating a cached entry
    /// after GC moved its page, which is not a host access).
    pub fn peek_mut(&mut self, key: &K) -> Option<&mut V> {
        let i = self.index.get(key)?;
        Some(&mut self.nodes[i as usize].value)
    }

    /// Accesses `key`: on a hit moves it to the front and returns its value; `None` is a miss.
    pub fn get(&mut self, key: &K) -> Option<&V> {
        let i = self.touch_slot(key)?;
        Some(&self.nodes[i as usize].value)
    }

    /// Like [`Lru::get`], returning the value mutably (e.g. to set a dirty bit).
    pub fn get_mut(&mut self, key: &K) -> Option<&mut V> {
        let i = self.touch_slot(key)?;
        Some(&mut self.nodes[i as usize].value)
    }

    /// Accesses `key`: true on a hit (it moves to the front), false on a miss.
    pub fn touch(&mut self, key: &K) -> bool {
        self.touch_slot(key).is_some()
    }

    /// Inserts `key` at the front. A present key gets the new value (the old one is
    /// returned); a new key into a full cache evicts the LRU entry first and returns it.
    pub fn insert(&mut self, key: K, value: V) -> Inserted<K, V> {
        if let Some(i) = self.touch_slot(&key) {
            let old = std::mem::replace(&mut self.nodes[i as usize].value, value);
            return Inserted::Replaced(old);
        }
        self.insert_absent(key, value)
    }

    /// [`Lru::insert`] of a key the cache lacks (the caller just missed it): the same, without
    /// looking the key up again.
    pub fn insert_absent(&mut self, key: K, value: V) -> Inserted<K, V> {
        debug_assert!(!self.contains(&key), "insert_absent of a cached key");
        if self.nodes.len() < self.capacity {
            let i = self.nodes.len() as u32;
            self.nodes.push(Node { key, value, prev: NIL, next: NIL });
            self.index.insert(key, i);
            self.link_front(i);
            return Inserted::Added;
        }
        if self.tail == NIL {
            // Capacity 0: nothing to evict.
            return Inserted::Evicted(key, value);
        }
        // The victim's slot takes the new entry in place: no slot moves (a removal moves the
        // last slot into the hole, touching its neighbours and index entry).
        let i = self.tail;
        self.tail_to_front();
        let node = &mut self.nodes[i as usize];
        let old_key = std::mem::replace(&mut node.key, key);
        let old_value = std::mem::replace(&mut node.value, value);
        self.index.remove(&old_key);
        self.index.insert(key, i);
        Inserted::Evicted(old_key, old_value)
    }

    /// Removes `key`, returning its value.
    pub fn remove(&mut self, key: &K) -> Option<V> {
        let i = self.index.remove(key)?;
        Some(self.take_slot(i).1)
    }

    /// Removes and returns the least recently used entry.
    pub fn pop_lru(&mut self) -> Option<(K, V)> {
        if self.tail == NIL {
            return None;
        }
        let i = self.tail;
        self.index.remove(&self.nodes[i as usize].key);
        Some(self.take_slot(i))
    }

    /// Removes and returns the least recently used entry for which `accept` holds, scanning
    /// from the LRU end (DAC's cost-aware LRU: skip dirty entries whose translation page is
    /// not cached). `None` when no entry qualifies.
    pub fn pop_lru_where(&mut self, mut accept: impl FnMut(&K, &V) -> bool) -> Option<(K, V)> {
        let mut i = self.tail;
        while i != NIL {
            let node = &self.nodes[i as usize];
            if accept(&node.key, &node.value) {
                self.index.remove(&node.key);
                return Some(self.take_slot(i));
            }
            i = node.prev;
        }
        None
    }

    /// The index from key to slot (to prefetch its entries: [`DenseIndex::prefetch`]).
    pub fn index(&self) -> &I {
        &self.index
    }

    /// The least recently used entry (the next victim), without touching it.
    pub fn peek_lru(&self) -> Option<(&K, &V)> {
        self.nodes.get(self.tail as usize).map(|n| (&n.key, &n.value))
    }

    /// The most recently used entry, without touching it.
    pub fn peek_mru(&self) -> Option<(&K, &V)> {
        self.nodes.get(self.head as usize).map(|n| (&n.key, &n.value))
    }

    /// Entries from most to least recently used (`.rev()` gives eviction order).
    pub fn iter(&self) -> Iter<'_, K, V> {
        Iter { nodes: &self.nodes, front: self.head, back: self.tail, remaining: self.nodes.len() }
    }

    /// Calls `f` on every entry, most recent first, with the value mutable (e.g. TPFTL's
    /// batch write-back clears the dirty bits of a whole node). Recency is unchanged.
    pub fn for_each_mut(&mut self, mut f: impl FnMut(&K, &mut V)) {
        let mut i = self.head;
        while i != NIL {
            let node = &mut self.nodes[i as usize];
            f(&node.key, &mut node.value);
            i = node.next;
        }
    }

    /// Removes every entry (capacity unchanged).
    pub fn clear(&mut self) {
        self.nodes.clear();
        self.index.clear();
        self.head = NIL;
        self.tail = NIL;
    }

    fn touch_slot(&mut self, key: &K) -> Option<u32> {
        let i = self.index.get(key)?;
        if i != self.head {
            self.unlink(i);
            self.link_front(i);
        }
        Some(i)
    }

    /// Moves the last entry to the front (the list is not empty): one unlink and one link
    /// with the branches of the general ones known.
    fn tail_to_front(&mut self) {
        let i = self.tail;
        let head = self.head;
        if i == head {
            return;
        }
        let prev = self.nodes[i as usize].prev;
        self.nodes[prev as usize].next = NIL;
        self.tail = prev;
        let n = &mut self.nodes[i as usize];
        n.prev = NIL;
        n.next = head;
        self.nodes[head as usize].prev = i;
        self.head = i;
    }

    fn link_front(&mut self, i: u32) {
        let old = self.head;
        {
            let n = &mut self.nodes[i as usize];
            n.prev = NIL;
            n.next = old;
        }
        if old == NIL {
            self.tail = i;
        } else {
            self.nodes[old as usize].prev = i;
        }
        self.head = i;
    }

    fn unlink(&mut self, i: u32) {
        let (prev, next) = {
            let n = &self.nodes[i as usize];
            (n.prev, n.next)
        };
        if prev == NIL {
            self.head = next;
        } else {
            self.nodes[prev as usize].next = next;
        }
        if next == NIL {
            self.tail = prev;
        } else {
            self.nodes[next as usize].prev = prev;
        }
    }

    /// Unlinks slot `i` (already removed from the index) and moves the last slot into it.
    fn take_slot(&mut self, i: u32) -> (K, V) {
        self.unlink(i);
        let last = (self.nodes.len() - 1) as u32;
        let node = self.nodes.swap_remove(i as usize);
        if i != last {
            // The former last node now lives at `i`: repoint its neighbours and index entry.
            let (prev, next, key) = {
                let n = &self.nodes[i as usize];
                (n.prev, n.next, n.key)
            };
            if prev == NIL {
                self.head = i;
            } else {
                self.nodes[prev as usize].next = i;
            }
            if next == NIL {
                self.tail = i;
            } else {
                self.nodes[next as usize].prev = i;
            }
            self.index.insert(key, i);
        }
        (node.key, node.value)
    }
}

/// Iterator over an [`Lru`] from most to least recently used; reversible.
#[derive(Debug, Clone)]
pub struct Iter<'a, K, V> {
    nodes: &'a [Node<K, V>],
    front: u32,
    back: u32,
    remaining: usize,
}

impl<'a, K, V> Iterator for Iter<'a, K, V> {
    type Item = (&'a K, &'a V);

    fn next(&mut self) -> Option<Self::Item> {
        if self.remaining == 0 {
            return None;
        }
        let n = &self.nodes[self.front as usize];
        self.front = n.next;
        self.remaining -= 1;
        Some((&n.key, &n.value))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.remaining, Some(self.remaining))
    }
}

impl<K, V> DoubleEndedIterator for Iter<'_, K, V> {
    fn next_back(&mut self) -> Option<Self::Item> {
        if self.remaining == 0 {
            return None;
        }
        let n = &self.nodes[self.back as usize];
        self.back = n.prev;
        self.remaining -= 1;
        Some((&n.key, &n.value))
    }
}

impl<K, V> ExactSizeIterator for Iter<'_, K, V> {}

#[cfg(test)]
#[path = "tests/lru.rs"]
mod tests;
