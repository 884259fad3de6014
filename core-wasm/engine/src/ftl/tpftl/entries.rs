//! One TP node's cached entries in LRU order, built for the hit path: an array over the
//! translation page's entries (its LPNs), and the order as a queue of accesses.
//!
//! A linked LRU list moves an entry to the front on every hit, which touches the entry's two
//! neighbours: random places in megabytes of nodes, three cache misses per hit where the entry
//! itself is one. Here a hit appends the entry's offset to the node's queue (the queue's end
//! is in cache) and records where in the entry; an earlier occurrence of the offset is stale
//! and skipped. The least recently used entry is the oldest live occurrence. The queue is
//! compacted once stale occurrences are three times the live ones (each compaction then pays
//! for three accesses), so it stays within about four times the entries held.
//!
//! A small page (at most [`SCAN_MAX`] entries, the teaching devices' 64) keeps no queue at
//! all: a hit writes only its own slot (its stamp, and a tie-break among entries stamped
//! alike), and the LRU entry is found by a scan of the node's slots, at most 2 KB, when an
//! eviction needs it. A queue's end per node is one more random line per hit across
//! thousands of nodes; a large page's scan would cost too much per eviction.
//!
//! Either way the order is exactly an LRU list's (a randomised test compares them), given
//! stamps that never decrease (the scheme's clock).

use crate::flash::Ppn;

/// A cached entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entry {
    pub ppn: Ppn,
    pub dirty: bool,
    /// Last access (the scheme's look-up clock): its hotness.
    pub stamp: u64,
}

/// `Slot::pos` of an offset not cached.
const ABSENT: u32 = u32::MAX;
/// `Slot::pos`'s flag for a dirty entry; the rest is the position of its live occurrence.
const DIRTY: u32 = 1 << 31;
const POS: u32 = DIRTY - 1;

/// One entry's place in the node's array: 16 bytes.
#[derive(Debug, Clone, Copy)]
pub struct Slot {
    stamp: u64,
    ppn: Ppn,
    pos: u32,
}

const EMPTY: Slot = Slot { stamp: 0, ppn: 0, pos: ABSENT };

/// Pages of at most this many entries find their LRU entry by a scan (no queue).
pub const SCAN_MAX: usize = 128;

/// A TP node's entries: keys are LPNs of one translation page.
#[derive(Debug, Clone)]
pub struct NodeEntries {
    /// The page's first LPN (an entry's offset is its LPN minus this).
    first: u32,
    slots: Box<[Slot]>,
    /// Offsets in access order, oldest first from `head`; an occurrence is live when its
    /// entry's `pos` names it.
    queue: Vec<u32>,
    head: usize,
    len: usize,
    dirty: usize,
    /// Without a queue: the latest access's stamp and how many accesses carried it (an
    /// entry's `pos` holds its rank among those stamped alike).
    last_stamp: u64,
    ties: u32,
}

impl NodeEntries {
    /// Empty slots for a page of `n` entries (what [`NodeEntries::new`] takes).
    pub fn empty_slots(n: usize) -> Box<[Slot]> {
        vec![EMPTY; n].into_boxed_slice()
    }

    /// An empty node over the page whose first LPN is `first`, in `slots` (all empty: fresh
    /// from [`NodeEntries::empty_slots`] or handed back by [`NodeEntries::into_slots`]).
    pub fn new(first: u32, slots: Box<[Slot]>) -> Self {
        debug_assert!(slots.iter().all(|s| s.pos == ABSENT));
        NodeEntries { first, slots, queue: Vec::new(), head: 0, len: 0, dirty: 0, last_stamp: 0, ties: 0 }
    }

    /// The slots of an empty node, for reuse (every one is empty again).
    pub fn into_slots(self) -> Box<[Slot]> {
        debug_assert!(self.len == 0);
        self.slots
    }

    /// Entries held.
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Dirty entries held.
    pub fn dirty_count(&self) -> usize {
        self.dirty
    }

    /// True when the order is found by a scan (no queue).
    #[inline]
    fn scans(&self) -> bool {
        self.slots.len() <= SCAN_MAX
    }

    /// Without a queue: the rank of an access stamped `stamp` among those stamped alike.
    fn tie(&mut self, stamp: u64) -> u32 {
        debug_assert!(stamp >= self.last_stamp, "stamps never decrease");
        if stamp != self.last_stamp {
            self.last_stamp = stamp;
            self.ties = 0;
        }
        self.ties += 1;
        assert!(self.ties < POS, "accesses stamped alike fit the rank");
        self.ties - 1
    }

    /// Without a queue: offset `k`'s place in the order (smaller is less recent).
    #[inline]
    fn key(&self, k: usize) -> (u64, u32) {
        (self.slots[k].stamp, self.slots[k].pos & POS)
    }

    /// Without a queue: offsets of cached entries, in slot order.
    fn cached_offsets(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.slots.len()).filter(|&k| self.slots[k].pos != ABSENT)
    }

    #[inline]
    fn offset(&self, lpn: u32) -> Option<usize> {
        let k = lpn.checked_sub(self.first)? as usize;
        (k < self.slots.len()).then_some(k)
    }

    #[inline]
    fn slot(&self, lpn: u32) -> Option<&Slot> {
        let s = &self.slots[self.offset(lpn)?];
        (s.pos != ABSENT).then_some(s)
    }

    fn entry(&self, k: usize) -> Entry {
        let s = &self.slots[k];
        Entry { ppn: s.ppn, dirty: s.pos & DIRTY != 0, stamp: s.stamp }
    }

    /// Starts loading `lpn`'s slot ([`crate::prefetch`]); changes nothing.
    pub fn prefetch(&self, lpn: u32) {
        if let Some(k) = self.offset(lpn) {
            crate::prefetch::element(&self.slots, k);
        }
    }

    pub fn contains(&self, lpn: &u32) -> bool {
        self.slot(*lpn).is_some()
    }

    /// `lpn`'s entry, not counted as an access.
    #[cfg(test)]
    pub fn peek(&self, lpn: &u32) -> Option<Entry> {
        self.slot(*lpn).map(|s| Entry { ppn: s.ppn, dirty: s.pos & DIRTY != 0, stamp: s.stamp })
    }

    /// `lpn`'s PPN, not counted as an access.
    #[inline]
    pub fn ppn(&self, lpn: u32) -> Option<Ppn> {
        self.slot(lpn).map(|s| s.ppn)
    }

    /// Sets `lpn`'s PPN and dirty flag without an access; false when not cached.
    pub fn set(&mut self, lpn: u32, ppn: Ppn, dirty: bool) -> bool {
        let Some(k) = self.offset(lpn) else { return false };
        let s = &mut self.slots[k];
        if s.pos == ABSENT {
            return false;
        }
        s.ppn = ppn;
        let was = s.pos & DIRTY != 0;
        s.pos = if dirty { s.pos | DIRTY } else { s.pos & POS };
        self.dirty = self.dirty + usize::from(dirty) - usize::from(was);
        true
    }

    /// Marks `lpn`'s entry clean, when cached.
    pub fn mark_clean(&mut self, lpn: u32) {
        if let Some(k) = self.offset(lpn) {
            let s = &mut self.slots[k];
            if s.pos != ABSENT && s.pos & DIRTY != 0 {
                s.pos &= POS;
                self.dirty -= 1;
            }
        }
    }

    /// An access to `lpn`: on a hit it becomes the most recent, its stamp becomes `stamp`,
    /// and the old stamp and its PPN are returned; `None` is a miss.
    #[inline]
    pub fn touch(&mut self, lpn: u32, stamp: u64) -> Option<(u64, Ppn)> {
        let k = self.offset(lpn)?;
        let s = self.slots[k];
        if s.pos == ABSENT {
            return None;
        }
        self.slots[k].stamp = stamp;
        if self.scans() {
            let tie = self.tie(stamp);
            self.slots[k].pos = (s.pos & DIRTY) | tie;
        } else if (s.pos & POS) as usize + 1 != self.queue.len() {
            self.push(k);
        }
        Some((s.stamp, s.ppn))
    }

    /// Adds `lpn` (not cached) as the most recent entry.
    pub fn insert(&mut self, lpn: u32, e: Entry) {
        let k = self.offset(lpn).expect("an LPN of the node's translation page");
        assert_eq!(self.slots[k].pos, ABSENT, "inserting a cached entry");
        let dirty = if e.dirty { DIRTY } else { 0 };
        self.len += 1;
        self.dirty += usize::from(e.dirty);
        if self.scans() {
            let tie = self.tie(e.stamp);
            self.slots[k] = Slot { stamp: e.stamp, ppn: e.ppn, pos: dirty | tie };
        } else {
            self.slots[k] = Slot { stamp: e.stamp, ppn: e.ppn, pos: dirty };
            self.push(k);
        }
    }

    /// Appends offset `k` (cached) as the most recent occurrence.
    fn push(&mut self, k: usize) {
        // The whole queue counts, the evicted front too.
        if self.queue.len() >= 4 * self.len + 32 {
            self.compact();
        }
        let pos = self.queue.len() as u32;
        debug_assert!(pos < POS);
        let s = &mut self.slots[k];
        s.pos = (s.pos & DIRTY) | pos;
        self.queue.push(k as u32);
    }

    /// True when queue position `i` is its offset's live occurrence.
    #[inline]
    fn live(&self, i: usize) -> bool {
        let pos = self.slots[self.queue[i] as usize].pos;
        pos != ABSENT && (pos & POS) as usize == i
    }

    /// Drops the stale occurrences, renumbering the live ones from 0.
    fn compact(&mut self) {
        let mut w = 0;
        for i in self.head..self.queue.len() {
            if self.live(i) {
                let k = self.queue[i];
                let s = &mut self.slots[k as usize];
                s.pos = (s.pos & DIRTY) | w as u32;
                self.queue[w] = k;
                w += 1;
            }
        }
        self.queue.truncate(w);
        self.head = 0;
    }

    /// Skips the stale occurrences at the front.
    fn trim_front(&mut self) {
        while self.head < self.queue.len() && !self.live(self.head) {
            self.head += 1;
        }
        if self.head == self.queue.len() {
            self.queue.clear();
            self.head = 0;
        }
    }

    /// Positions of live occurrences, least recent first.
    fn live_positions(&self) -> impl DoubleEndedIterator<Item = usize> + '_ {
        (self.head..self.queue.len()).filter(|&i| self.live(i))
    }

    /// The least recently used entry.
    pub fn peek_lru(&self) -> Option<(u32, Entry)> {
        if self.scans() {
            let k = self.cached_offsets().min_by_key(|&k| self.key(k))?;
            return Some((self.first + k as u32, self.entry(k)));
        }
        let i = self.live_positions().next()?;
        let k = self.queue[i] as usize;
        Some((self.first + k as u32, self.entry(k)))
    }

    /// Removes and returns the least recently used entry for which `accept` holds.
    /// (`accept` is asked about entries in any order: it must not depend on the order.)
    pub fn pop_lru_where(&mut self, mut accept: impl FnMut(&u32, &Entry) -> bool) -> Option<(u32, Entry)> {
        let k = if self.scans() {
            self.cached_offsets()
                .filter(|&k| accept(&(self.first + k as u32), &self.entry(k)))
                .min_by_key(|&k| self.key(k))?
        } else {
            self.trim_front();
            let i = self.live_positions().find(|&i| {
                let k = self.queue[i] as usize;
                accept(&(self.first + k as u32), &self.entry(k))
            })?;
            self.queue[i] as usize
        };
        let e = self.entry(k);
        self.slots[k] = EMPTY;
        self.len -= 1;
        self.dirty -= usize::from(e.dirty);
        self.trim_front();
        Some((self.first + k as u32, e))
    }

    /// Marks every entry clean, calling `f(lpn, ppn)` for each that was dirty.
    pub fn clean_all(&mut self, mut f: impl FnMut(u32, Ppn)) {
        if self.dirty == 0 {
            return;
        }
        for k in 0..self.slots.len() {
            let s = &mut self.slots[k];
            if s.pos != ABSENT && s.pos & DIRTY != 0 {
                s.pos &= POS;
                f(self.first + k as u32, s.ppn);
            }
        }
        self.dirty = 0;
    }

    /// Entries from most to least recently used.
    pub fn iter(&self) -> impl Iterator<Item = (u32, Entry)> + '_ {
        let offsets: Vec<usize> = if self.scans() {
            let mut by_key: Vec<usize> = self.cached_offsets().collect();
            by_key.sort_unstable_by_key(|&k| std::cmp::Reverse(self.key(k)));
            by_key
        } else {
            self.live_positions().rev().map(|i| self.queue[i] as usize).collect()
        };
        offsets.into_iter().map(|k| (self.first + k as u32, self.entry(k)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cache::Lru;

    use crate::test_rng::Rng;

    /// Random operations on a node and on the plain LRU list it replaces: the same answers,
    /// the same order and the same counts after every step.
    #[test]
    fn matches_a_linked_lru_on_random_operations() {
        for seed in 1..=20u64 {
            let mut rng = Rng(seed * 0x9E37_79B9);
            let first = 64 * seed as u32;
            // Both ways of keeping the order: a scan of small pages, a queue for large ones.
            let n = if seed % 2 == 0 { 16 + seed as usize } else { SCAN_MAX + seed as usize };
            let mut node = NodeEntries::new(first, NodeEntries::empty_slots(n));
            let mut model: Lru<u32, Entry> = Lru::unbounded();
            let mut most = 0;
            for step in 0..4000u64 {
                // Stamps repeat (a miss loads several entries stamped alike) and never fall.
                let clock = step / 3;
                let lpn = first + rng.below(n as u64) as u32;
                match rng.below(8) {
                    0 | 1 => {
                        let got = node.touch(lpn, clock);
                        let want =
                            model.get_mut(&lpn).map(|e| (std::mem::replace(&mut e.stamp, clock), e.ppn));
                        assert_eq!(got, want);
                    }
                    2 | 3 if !model.contains(&lpn) => {
                        let e = Entry { ppn: rng.below(1000) as u32, dirty: rng.below(2) == 0, stamp: clock };
                        node.insert(lpn, e);
                        model.insert(lpn, e);
                    }
                    4 => {
                        let (ppn, dirty) = (rng.below(1000) as u32, rng.below(2) == 0);
                        let want = model.peek_mut(&lpn).map(|e| (e.ppn, e.dirty) = (ppn, dirty)).is_some();
                        assert_eq!(node.set(lpn, ppn, dirty), want);
                    }
                    5 => {
                        node.mark_clean(lpn);
                        if let Some(e) = model.peek_mut(&lpn) {
                            e.dirty = false;
                        }
                    }
                    6 => {
                        let clean = rng.below(2) == 0;
                        let got = node.pop_lru_where(|_, e| !clean || !e.dirty);
                        let want = model.pop_lru_where(|_, e| !clean || !e.dirty);
                        assert_eq!(got, want);
                    }
                    _ if rng.below(40) == 0 => {
                        let mut got = Vec::new();
                        node.clean_all(|l, p| got.push((l, p)));
                        let mut want = Vec::new();
                        model.for_each_mut(|&l, e| {
                            if std::mem::replace(&mut e.dirty, false) {
                                want.push((l, e.ppn));
                            }
                        });
                        got.sort_unstable();
                        want.sort_unstable();
                        assert_eq!(got, want);
                    }
                    _ => assert_eq!(node.peek(&lpn), model.peek(&lpn).copied()),
                }
                let want: Vec<(u32, Entry)> = model.iter().map(|(&l, &e)| (l, e)).collect();
                assert_eq!(node.iter().collect::<Vec<_>>(), want, "seed {seed}, step {step}");
                assert_eq!(node.len(), model.len());
                assert_eq!(node.dirty_count(), model.iter().filter(|(_, e)| e.dirty).count());
                assert_eq!(node.peek_lru(), model.peek_lru().map(|(&l, &e)| (l, e)));
                most = most.max(node.len());
                assert!(node.queue.len() <= 4 * most + 33, "the queue stays bounded");
            }
            while node.pop_lru_where(|_, _| true).is_some() {}
            assert!(
                node.into_slots().iter().all(|s| s.pos == ABSENT),
                "an emptied node's slots are all empty"
            );
        }
    }
}
