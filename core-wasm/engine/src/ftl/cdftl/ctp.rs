//! CDFTL's level two: the cached translation pages (CTPs), least recently used out first.
//!
//! Every cached page lives in one slot of a flat array of entries, slot `s` holding
//! `per_page` entries from `s * per_page`, found through an array over the translation-page
//! numbers (a few kilobytes, so it stays in the CPU's cache). An entry is then one random
//! load where a list of separately allocated pages costs three dependent ones (index, node,
//! the page's buffer). The recency order is a doubly linked list over the slots, kept apart
//! from the entries so its links stay dense. A slot is never freed: an evicted page's slot
//! takes the page that evicted it, so nothing is allocated per load.
//!
//! The order is [`crate::cache::Lru`]'s (a hit moves the page to the front; a new page into a
//! full cache replaces the least recently used), and a test compares the two.

use crate::flash::Ppn;
use crate::ftl::demand::UNMAPPED;

/// No slot (`slot_of`) or no neighbour (links).
const NIL: u32 = u32::MAX;

/// A slot's page and its place in the recency order.
#[derive(Debug, Clone, Copy)]
struct Link {
    /// Translation-page number of the page in the slot.
    tpage: u32,
    /// More recently used neighbour, or [`NIL`] at the front.
    prev: u32,
    /// Less recently used neighbour, or [`NIL`] at the back.
    next: u32,
    /// Whether the page differs from its copy on flash.
    dirty: bool,
}

/// The cached translation pages.
#[derive(Debug, Clone)]
pub(super) struct Ctps {
    /// Entries per translation page (the last page of the logical space may use fewer).
    per_page: usize,
    /// Logical pages: the last translation page's entries end here.
    lpns: u64,
    capacity: usize,
    /// Slot of each translation page, or [`NIL`].
    slot_of: Vec<u32>,
    links: Vec<Link>,
    /// Slot `s`'s entries at `s * per_page ..`.
    entries: Vec<Ppn>,
    /// Most recently used slot.
    head: u32,
    /// Least recently used slot: the next victim.
    tail: u32,
}

/// A cached page as [`Ctps::iter`] gives it.
#[derive(Debug, Clone, Copy)]
pub(super) struct CachedPage<'a> {
    /// Translation-page number.
    pub tpage: u32,
    /// Whether it differs from flash.
    pub dirty: bool,
    /// Its entries, one per logical page it maps.
    pub entries: &'a [Ppn],
}

impl Ctps {
    /// An empty level two of `capacity` pages over `tpages` translation pages of `per_page`
    /// entries each, mapping `lpns` logical pages. Room for the entries is reserved for the
    /// pages it can hold (no more than exist), so loading a page never moves the others.
    pub fn new(capacity: usize, tpages: usize, per_page: u32, lpns: u64) -> Self {
        let capacity = capacity.min(NIL as usize - 1);
        let per_page = per_page as usize;
        Ctps {
            per_page,
            lpns,
            capacity,
            slot_of: vec![NIL; tpages],
            links: Vec::with_capacity(capacity.min(tpages)),
            entries: Vec::with_capacity(capacity.min(tpages) * per_page),
            head: NIL,
            tail: NIL,
        }
    }

    /// Pages it may hold.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// Pages held.
    pub fn len(&self) -> usize {
        self.links.len()
    }

    /// Whether page `t` is cached.
    #[inline]
    pub fn contains(&self, t: u32) -> bool {
        self.slot(t).is_some()
    }

    #[inline]
    fn slot(&self, t: u32) -> Option<usize> {
        self.slot_of.get(t as usize).filter(|&&s| s != NIL).map(|&s| s as usize)
    }

    /// Entries translation page `t` maps (the last one may map fewer than a page holds).
    fn page_len(&self, t: u32) -> usize {
        let first = u64::from(t) * self.per_page as u64;
        self.lpns.saturating_sub(first).min(self.per_page as u64) as usize
    }

    fn entries_of(&self, s: usize) -> &[Ppn] {
        let len = self.page_len(self.links[s].tpage);
        &self.entries[s * self.per_page..s * self.per_page + len]
    }

    /// Page `t`'s entries, without touching the order.
    pub fn page(&self, t: u32) -> Option<&[Ppn]> {
        self.slot(t).map(|s| self.entries_of(s))
    }

    /// Whether cached page `t` is dirty, without touching the order.
    #[cfg(test)]
    pub fn is_dirty(&self, t: u32) -> Option<bool> {
        self.slot(t).map(|s| self.links[s].dirty)
    }

    /// Entry `off` of page `t`, without touching the order.
    #[inline]
    pub fn peek_entry(&self, t: u32, off: usize) -> Option<Ppn> {
        self.slot(t).map(|s| self.entries[s * self.per_page + off])
    }

    /// Accesses page `t` (it becomes the most recent) and answers its entry `off`; `None`
    /// is a miss.
    #[inline]
    pub fn get_entry(&mut self, t: u32, off: usize) -> Option<Ppn> {
        let s = self.slot(t)?;
        if s as u32 != self.head {
            self.unlink(s);
            self.link_front(s);
        }
        Some(self.entries[s * self.per_page + off])
    }

    /// Sets entry `off` of cached page `t` to `ppn` and marks the page dirty, without
    /// touching the order; `false` when `t` is not cached.
    #[inline]
    pub fn set_entry(&mut self, t: u32, off: usize, ppn: Ppn) -> bool {
        let Some(s) = self.slot(t) else { return false };
        self.entries[s * self.per_page + off] = ppn;
        self.links[s].dirty = true;
        true
    }

    /// Replaces cached page `t`'s entries by `image` and marks it clean (flash has it now).
    pub fn set_clean(&mut self, t: u32, image: &[Ppn]) {
        if let Some(s) = self.slot(t) {
            let at = s * self.per_page;
            self.entries[at..at + image.len()].copy_from_slice(image);
            self.links[s].dirty = false;
        }
    }

    /// The page a new one would evict: the least recently used, when the cache is full
    /// (translation-page number, dirty).
    pub fn victim(&self) -> Option<(u32, bool)> {
        if self.links.len() < self.capacity || self.tail == NIL {
            return None;
        }
        let l = &self.links[self.tail as usize];
        Some((l.tpage, l.dirty))
    }

    /// Caches page `t` (not cached), clean, as the most recent, with the entries of `from`
    /// (`UNMAPPED` past its end), in place of [`Ctps::victim`] when the cache is full. The
    /// caller has taken what it needs of the victim. Nothing is cached when the capacity
    /// is 0.
    pub fn insert(&mut self, t: u32, from: &[Ppn]) {
        debug_assert!(!self.contains(t));
        if self.capacity == 0 {
            return;
        }
        let s = if let Some((victim, _)) = self.victim() {
            let s = self.tail as usize;
            self.unlink(s);
            self.slot_of[victim as usize] = NIL;
            self.links[s] = Link { tpage: t, prev: NIL, next: NIL, dirty: false };
            s
        } else {
            self.links.push(Link { tpage: t, prev: NIL, next: NIL, dirty: false });
            self.entries.resize(self.links.len() * self.per_page, UNMAPPED);
            self.links.len() - 1
        };
        self.slot_of[t as usize] = s as u32;
        self.link_front(s);
        let len = self.page_len(t);
        let page = &mut self.entries[s * self.per_page..s * self.per_page + len];
        let n = from.len().min(len);
        page[..n].copy_from_slice(&from[..n]);
        page[n..].fill(UNMAPPED);
    }

    /// Pages from most to least recently used.
    pub fn iter(&self) -> impl Iterator<Item = CachedPage<'_>> + '_ {
        let mut s = self.head;
        std::iter::from_fn(move || {
            if s == NIL {
                return None;
            }
            let l = &self.links[s as usize];
            let page = CachedPage { tpage: l.tpage, dirty: l.dirty, entries: self.entries_of(s as usize) };
            s = l.next;
            Some(page)
        })
    }

    /// Whether the slots, the index and the order agree (for the invariant checks).
    pub fn is_consistent(&self) -> bool {
        let listed = self.iter().count();
        let indexed = self.slot_of.iter().filter(|&&s| s != NIL).count();
        listed == self.links.len()
            && indexed == self.links.len()
            && self.links.len() <= self.capacity
            && self.links.iter().enumerate().all(|(s, l)| self.slot_of[l.tpage as usize] == s as u32)
    }

    /// Starts loading entry `off` of page `t`, when cached ([`crate::prefetch`]); changes
    /// nothing.
    #[inline]
    pub fn prefetch_entry(&self, t: u32, off: usize) {
        if let Some(s) = self.slot(t) {
            crate::prefetch::element(&self.entries, s * self.per_page + off);
        }
    }

    fn unlink(&mut self, s: usize) {
        let Link { prev, next, .. } = self.links[s];
        if prev == NIL {
            self.head = next;
        } else {
            self.links[prev as usize].next = next;
        }
        if next == NIL {
            self.tail = prev;
        } else {
            self.links[next as usize].prev = prev;
        }
    }

    fn link_front(&mut self, s: usize) {
        let old = self.head;
        self.links[s].prev = NIL;
        self.links[s].next = old;
        if old == NIL {
            self.tail = s as u32;
        } else {
            self.links[old as usize].prev = s as u32;
        }
        self.head = s as u32;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cache::{DenseIndex, Inserted, Lru};

    /// The same order, victims, entries and dirty bits as an [`Lru`] of whole pages, over
    /// random hits, misses and entry updates (the short last page included).
    #[test]
    fn keeps_the_order_and_contents_of_an_lru_of_pages() {
        let (per, lpns) = (4u32, 37u64); // 10 pages, the last with one entry
        let tpages = lpns.div_ceil(u64::from(per)) as u32;
        let len = |t: u32| (lpns - u64::from(t * per)).min(u64::from(per)) as usize;
        for capacity in [1usize, 3, 7] {
            let mut ctps = Ctps::new(capacity, tpages as usize, per, lpns);
            let mut lru: Lru<u32, (Vec<Ppn>, bool), DenseIndex> = Lru::indexed(capacity);
            let mut rng = crate::test_rng::Rng(capacity as u64);
            for step in 0..5_000u32 {
                let t = rng.below(u64::from(tpages)) as u32;
                let off = rng.below(len(t) as u64) as usize;
                match rng.below(3) {
                    0 => assert_eq!(ctps.get_entry(t, off), lru.get(&t).map(|p| p.0[off])),
                    1 => {
                        let set = lru.peek_mut(&t).map(|p| (p.0[off] = step, p.1 = true)).is_some();
                        assert_eq!(ctps.set_entry(t, off, step), set);
                    }
                    _ if !ctps.contains(t) => {
                        let from: Vec<Ppn> = (0..len(t) as u32 - 1).map(|i| step + i).collect();
                        let victim = ctps.victim();
                        ctps.insert(t, &from);
                        let mut full = from.clone();
                        full.push(UNMAPPED);
                        let evicted = match lru.insert(t, (full, false)) {
                            Inserted::Evicted(k, (_, dirty)) => Some((k, dirty)),
                            _ => None,
                        };
                        assert_eq!(victim, evicted);
                    }
                    _ => {}
                }
                let ours: Vec<_> = ctps.iter().map(|p| (p.tpage, p.dirty, p.entries.to_vec())).collect();
                let theirs: Vec<_> = lru.iter().map(|(&t, p)| (t, p.1, p.0.clone())).collect();
                assert_eq!(ours, theirs, "step {step}");
                assert!(ctps.is_consistent());
            }
        }
    }
}
