//! An LRU cache over small integer keys (LPNs) whose order is a queue of accesses: the same
//! answers and the same order as [`super::Lru`], for a hit path of one random access.
//!
//! A linked LRU list moves an entry to the front on every hit, which touches its two
//! neighbours, random places in megabytes of nodes: with the index slot and the node itself,
//! four cache misses per hit, and the neighbours cannot be fetched early. Here each key's
//! value sits in an array over the keys, and a hit appends the key to a queue (whose end is
//! in cache) and records the position in the key's slot; the key's earlier occurrences are
//! stale and skipped. The least recently used entry is the oldest live occurrence. Once stale
//! occurrences are twice the live ones the queue is compacted (a tight pass whose slot loads
//! are independent and fetched ahead), so it stays within about three times the entries held.
//!
//! Memory: the array spans the keys seen, `size_of::<V>() + 4` bytes each (a cache of LPNs:
//! up to that per logical page), plus 4 to 12 bytes per entry held for the queue.

use super::Inserted;

/// `Slot::pos` of a key not cached.
const ABSENT: u32 = u32::MAX;
/// Occurrences to look ahead when scanning the queue (slot loads fetched early).
const AHEAD: usize = 16;

#[derive(Debug, Clone, Copy)]
struct Slot<V> {
    value: V,
    /// Position of the key's live occurrence in the queue, or [`ABSENT`].
    pos: u32,
}

/// An LRU cache of at most `capacity` entries keyed by `u32`s from a small dense range. The
/// most recently used entry is the *front* (MRU), the next victim the *back* (LRU).
#[derive(Debug, Clone)]
pub struct QueueLru<V> {
    slots: Vec<Slot<V>>,
    /// Keys in access order, oldest first from `head`; an occurrence is live when its key's
    /// `pos` names it.
    queue: Vec<u32>,
    head: usize,
    len: usize,
    capacity: usize,
}

impl<V: Copy + Default> QueueLru<V> {
    /// An empty cache holding at most `capacity` entries (at most `u32::MAX - 1`).
    pub fn new(capacity: usize) -> Self {
        QueueLru {
            slots: Vec::new(),
            queue: Vec::new(),
            head: 0,
            len: 0,
            capacity: capacity.min(super::lru::MAX_CAPACITY),
        }
    }

    /// Maximum number of entries.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// True when an insert of a new key would evict.
    pub fn is_full(&self) -> bool {
        self.len >= self.capacity
    }

    #[inline]
    fn slot(&self, key: u32) -> Option<&Slot<V>> {
        self.slots.get(key as usize).filter(|s| s.pos != ABSENT)
    }

    /// Starts loading `key`'s slot ([`crate::prefetch`]); changes nothing.
    #[inline]
    pub fn prefetch_key(&self, key: u32) {
        crate::prefetch::element(&self.slots, key as usize);
    }

    /// As [`QueueLru::prefetch_key`] (the slot holds the entry: there is no second place to
    /// fetch, unlike [`super::Lru::prefetch_entry`]).
    #[inline]
    pub fn prefetch_entry(&self, key: u32) {
        self.prefetch_key(key);
    }

    /// True if `key` is cached. Does not count as an access.
    pub fn contains(&self, key: &u32) -> bool {
        self.slot(*key).is_some()
    }

    /// The value of `key` without counting an access.
    #[inline]
    pub fn peek(&self, key: &u32) -> Option<&V> {
        self.slot(*key).map(|s| &s.value)
    }

    /// Mutable value of `key` without counting an access.
    #[inline]
    pub fn peek_mut(&mut self, key: &u32) -> Option<&mut V> {
        self.slots.get_mut(*key as usize).filter(|s| s.pos != ABSENT).map(|s| &mut s.value)
    }

    /// Accesses `key`: on a hit it becomes the most recent and its value is returned.
    #[inline]
    pub fn get(&mut self, key: &u32) -> Option<&V> {
        self.touch_key(*key)?;
        Some(&self.slots[*key as usize].value)
    }

    /// Like [`QueueLru::get`], returning the value mutably.
    pub fn get_mut(&mut self, key: &u32) -> Option<&mut V> {
        self.touch_key(*key)?;
        Some(&mut self.slots[*key as usize].value)
    }

    /// Accesses `key`: true on a hit (it becomes the most recent), false on a miss.
    pub fn touch(&mut self, key: &u32) -> bool {
        self.touch_key(*key).is_some()
    }

    #[inline]
    fn touch_key(&mut self, key: u32) -> Option<()> {
        let pos = self.slot(key)?.pos;
        if pos as usize + 1 != self.queue.len() {
            self.push(key);
        }
        Some(())
    }

    /// Inserts `key` at the front. A present key gets the new value (the old one is
    /// returned); a new key into a full cache evicts the LRU entry first and returns it.
    pub fn insert(&mut self, key: u32, value: V) -> Inserted<u32, V> {
        if self.touch_key(key).is_some() {
            let old = std::mem::replace(&mut self.slots[key as usize].value, value);
            return Inserted::Replaced(old);
        }
        self.insert_absent(key, value)
    }

    /// [`QueueLru::insert`] of a key the cache lacks (the caller just missed it): the same,
    /// without looking the key up again.
    pub fn insert_absent(&mut self, key: u32, value: V) -> Inserted<u32, V> {
        debug_assert!(!self.contains(&key), "insert_absent of a cached key");
        if self.capacity == 0 {
            return Inserted::Evicted(key, value);
        }
        let evicted = if self.is_full() { self.pop_lru() } else { None };
        let k = key as usize;
        if k >= self.slots.len() {
            self.slots.resize((k + 1).next_power_of_two(), Slot { value: V::default(), pos: ABSENT });
        }
        self.slots[k].value = value;
        self.len += 1;
        self.push(key);
        match evicted {
            Some((k, v)) => Inserted::Evicted(k, v),
            None => Inserted::Added,
        }
    }

    /// Removes `key`, returning its value.
    pub fn remove(&mut self, key: &u32) -> Option<V> {
        let s = self.slots.get_mut(*key as usize).filter(|s| s.pos != ABSENT)?;
        s.pos = ABSENT;
        self.len -= 1;
        let value = s.value;
        self.trim_front();
        Some(value)
    }

    /// Removes and returns the least recently used entry.
    pub fn pop_lru(&mut self) -> Option<(u32, V)> {
        self.pop_lru_where(|_, _| true)
    }

    /// Removes and returns the least recently used entry for which `accept` holds, scanning
    /// from the LRU end. `None` when no entry qualifies.
    pub fn pop_lru_where(&mut self, mut accept: impl FnMut(&u32, &V) -> bool) -> Option<(u32, V)> {
        self.trim_front();
        let mut i = self.head;
        let mut stale = 0;
        let mut found = None;
        while i < self.queue.len() {
            if self.live(i) {
                let key = self.queue[i];
                let s = &mut self.slots[key as usize];
                if accept(&key, &s.value) {
                    s.pos = ABSENT;
                    self.len -= 1;
                    found = Some((key, s.value));
                    break;
                }
            } else {
                stale += 1;
            }
            i += 1;
        }
        if stale > 0 {
            self.close_up(i);
        }
        self.trim_front();
        found
    }

    /// Moves the live occurrences before position `end` up against it, in order, and starts
    /// the queue at the first: a scan that passed over stale occurrences among live ones
    /// leaves only the live ones for the next scan (as a linked list would).
    fn close_up(&mut self, end: usize) {
        let mut w = end;
        for r in (self.head..end).rev() {
            if self.live(r) {
                w -= 1;
                let key = self.queue[r];
                self.queue[w] = key;
                self.slots[key as usize].pos = w as u32;
            }
        }
        self.head = w;
    }

    /// The least recently used entry (the next victim), without touching it.
    pub fn peek_lru(&self) -> Option<(&u32, &V)> {
        self.iter().next_back()
    }

    /// The most recently used entry, without touching it.
    pub fn peek_mru(&self) -> Option<(&u32, &V)> {
        self.iter().next()
    }

    /// Entries from most to least recently used (`.rev()` gives eviction order).
    pub fn iter(&self) -> Iter<'_, V> {
        Iter { lru: self, lo: self.head, hi: self.queue.len(), remaining: self.len }
    }

    /// Calls `f` on every entry, most recent first, with the value mutable. Recency is
    /// unchanged.
    pub fn for_each_mut(&mut self, mut f: impl FnMut(&u32, &mut V)) {
        for i in (self.head..self.queue.len()).rev() {
            if self.live(i) {
                let key = self.queue[i];
                f(&key, &mut self.slots[key as usize].value);
            }
        }
    }

    /// Changes the capacity; when it shrinks below `len`, evicts LRU entries and returns
    /// them, least recent first.
    pub fn set_capacity(&mut self, capacity: usize) -> Vec<(u32, V)> {
        self.capacity = capacity.min(super::lru::MAX_CAPACITY);
        let mut evicted = Vec::new();
        while self.len > self.capacity {
            match self.pop_lru() {
                Some(e) => evicted.push(e),
                None => break,
            }
        }
        evicted
    }

    /// Removes every entry (capacity unchanged).
    pub fn clear(&mut self) {
        for &key in &self.queue[self.head..] {
            self.slots[key as usize].pos = ABSENT;
        }
        self.queue.clear();
        self.head = 0;
        self.len = 0;
    }

    /// Appends `key` (cached) as the most recent occurrence.
    #[inline]
    fn push(&mut self, key: u32) {
        // The whole queue counts, the popped front too: a cache that only inserts and evicts
        // advances `head` without leaving stale entries after it.
        if self.queue.len() >= 3 * self.len + 64 {
            self.compact();
        }
        self.slots[key as usize].pos = self.queue.len() as u32;
        self.queue.push(key);
    }

    /// True when queue position `i` is its key's live occurrence.
    #[inline]
    fn live(&self, i: usize) -> bool {
        self.slots[self.queue[i] as usize].pos as usize == i
    }

    /// Starts loading the slot of the occurrence [`AHEAD`] after position `i`.
    #[inline]
    fn fetch_ahead(&self, i: usize) {
        if let Some(&key) = self.queue.get(i + AHEAD) {
            self.prefetch_key(key);
        }
    }

    /// Drops the stale occurrences, renumbering the live ones from 0.
    fn compact(&mut self) {
        let mut w = 0;
        for i in self.head..self.queue.len() {
            self.fetch_ahead(i);
            if self.live(i) {
                let key = self.queue[i];
                self.slots[key as usize].pos = w as u32;
                self.queue[w] = key;
                w += 1;
            }
        }
        self.queue.truncate(w);
        self.head = 0;
        assert!(w < ABSENT as usize, "queue positions fit a u32");
    }

    /// Skips the stale occurrences at the front.
    fn trim_front(&mut self) {
        while self.head < self.queue.len() && !self.live(self.head) {
            self.fetch_ahead(self.head);
            self.head += 1;
        }
        if self.head == self.queue.len() {
            self.queue.clear();
            self.head = 0;
        }
    }
}

/// Iterator over a [`QueueLru`] from most to least recently used; reversible.
#[derive(Debug, Clone)]
pub struct Iter<'a, V> {
    lru: &'a QueueLru<V>,
    /// Queue positions not yet visited: `lo..hi`.
    lo: usize,
    hi: usize,
    remaining: usize,
}

impl<'a, V> Iter<'a, V> {
    fn at(&self, i: usize) -> Option<(&'a u32, &'a V)> {
        let key = &self.lru.queue[i];
        let s = &self.lru.slots[*key as usize];
        (s.pos as usize == i).then_some((key, &s.value))
    }
}

impl<'a, V> Iterator for Iter<'a, V> {
    type Item = (&'a u32, &'a V);

    fn next(&mut self) -> Option<Self::Item> {
        while self.remaining > 0 && self.lo < self.hi {
            self.hi -= 1;
            if let Some(e) = self.at(self.hi) {
                self.remaining -= 1;
                return Some(e);
            }
        }
        None
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.remaining, Some(self.remaining))
    }
}

impl<V> DoubleEndedIterator for Iter<'_, V> {
    fn next_back(&mut self) -> Option<Self::Item> {
        while self.remaining > 0 && self.lo < self.hi {
            let i = self.lo;
            self.lo += 1;
            if let Some(e) = self.at(i) {
                self.remaining -= 1;
                return Some(e);
            }
        }
        None
    }
}

impl<V> ExactSizeIterator for Iter<'_, V> {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cache::Lru;

    use crate::test_rng::Rng;

    /// A cache that only inserts and evicts (a ghost, a CMT that always misses) keeps its
    /// queue within a few times its entries: evicted occurrences at the front are dropped too.
    #[test]
    fn insert_and_evict_churn_keeps_the_queue_bounded() {
        let mut q: QueueLru<()> = QueueLru::new(10);
        for key in 0..100_000u32 {
            q.insert(key % 50_000, ());
            assert!(q.queue.len() <= 3 * q.len() + 64, "queue of {} for {} entries", q.queue.len(), q.len());
        }
        assert_eq!(q.iter().map(|(&k, _)| k).collect::<Vec<_>>(), (49_990..50_000).rev().collect::<Vec<_>>());
    }

    /// Random operations on a queue LRU and on the linked [`Lru`]: the same answers, the same
    /// order (both ways) after every step.
    #[test]
    fn matches_the_linked_lru_on_random_operations() {
        for seed in 1..=24u64 {
            let mut rng = Rng(seed * 0x9E37_79B9_7F4A);
            let keys = 8 + rng.below(60);
            let capacity = rng.below(keys + 4) as usize;
            let mut q: QueueLru<u64> = QueueLru::new(capacity);
            let mut model: Lru<u32, u64> = Lru::new(capacity);
            let mut most = 0;
            for step in 0..5000u64 {
                let key = rng.below(keys) as u32;
                match rng.below(16) {
                    0..=3 => assert_eq!(q.get(&key).copied(), model.get(&key).copied()),
                    4 => assert_eq!(q.touch(&key), model.touch(&key)),
                    5..=8 => assert_eq!(q.insert(key, step), model.insert(key, step)),
                    9 => {
                        let want = model.get_mut(&key).map(|v| std::mem::replace(v, step));
                        assert_eq!(q.get_mut(&key).map(|v| std::mem::replace(v, step)), want);
                    }
                    10 => {
                        let want = model.peek_mut(&key).map(|v| std::mem::replace(v, step + 1));
                        assert_eq!(q.peek_mut(&key).map(|v| std::mem::replace(v, step + 1)), want);
                    }
                    11 => assert_eq!(q.remove(&key), model.remove(&key)),
                    12 => assert_eq!(q.pop_lru(), model.pop_lru()),
                    13 => {
                        let odd = rng.below(2) == 0;
                        let accept = |_: &u32, v: &u64| !odd || v % 2 == 1;
                        assert_eq!(q.pop_lru_where(accept), model.pop_lru_where(accept));
                    }
                    14 if rng.below(20) == 0 => {
                        let c = rng.below(keys) as usize;
                        assert_eq!(q.set_capacity(c), model.set_capacity(c));
                    }
                    15 if rng.below(50) == 0 => {
                        q.clear();
                        model.clear();
                    }
                    _ => {
                        assert_eq!(q.peek(&key), model.peek(&key));
                        assert_eq!(q.contains(&key), model.contains(&key));
                    }
                }
                let got: Vec<(u32, u64)> = q.iter().map(|(&k, &v)| (k, v)).collect();
                let want: Vec<(u32, u64)> = model.iter().map(|(&k, &v)| (k, v)).collect();
                assert_eq!(got, want, "seed {seed}, step {step}");
                let back: Vec<u32> = q.iter().rev().map(|(&k, _)| k).collect();
                assert_eq!(back, model.iter().rev().map(|(&k, _)| k).collect::<Vec<_>>());
                assert_eq!(
                    (q.len(), q.is_full(), q.iter().len()),
                    (model.len(), model.is_full(), model.len())
                );
                assert_eq!(q.peek_lru(), model.peek_lru());
                assert_eq!(q.peek_mru(), model.peek_mru());
                most = most.max(q.len());
                assert!(q.queue.len() <= 3 * most + 65, "the queue stays bounded");
            }
            let mut seen = Vec::new();
            q.for_each_mut(|&k, v| {
                seen.push(k);
                *v += 1;
            });
            assert_eq!(seen, model.iter().map(|(&k, _)| k).collect::<Vec<_>>());
        }
    }

    /// `insert_absent`'s precondition (the key is not cached) is checked in debug builds: a
    /// held key would be queued twice.
    #[cfg(debug_assertions)]
    #[test]
    #[should_panic(expected = "insert_absent of a cached key")]
    fn insert_absent_of_a_cached_key_panics_in_debug_builds() {
        let mut q: QueueLru<u32> = QueueLru::new(2);
        q.insert_absent(1, 10);
        q.insert_absent(1, 11);
    }
}
