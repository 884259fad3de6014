//! Blocks bucketed by valid-page count, so greedy GC finds its victim without scanning every
//! block. Each bucket is an intrusive doubly linked list over block numbers: moving a block
//! between buckets is O(1).
//!
//! Most changes hit a few blocks over and over: every program goes to an open block, every
//! GC invalidation to the victim. Moving such a block one bucket per page would cost two list
//! edits each time, so the [`RECENT`] most recently changed blocks are held aside with their
//! counts instead (as a simulator keeps its active block out of the buckets) and filed only
//! when they drop out. Queries look at both, so answers never depend on what is held aside.

use crate::flash::BlockId;

const NIL: u32 = u32::MAX;

/// Blocks held aside: more than the open blocks any scheme writes at once plus a GC victim.
pub const RECENT: usize = 8;

#[derive(Debug, Clone, Copy)]
struct Link {
    next: u32,
    prev: u32,
    /// Bucket the block is filed under, or NIL (erased, or held aside).
    bucket: u32,
}

const UNLINKED: Link = Link { next: NIL, prev: NIL, bucket: NIL };

/// Written blocks (programmed since their last erase) by valid count.
#[derive(Debug, Clone)]
pub struct ValidIndex {
    head: Vec<u32>,
    links: Vec<Link>,
    /// Blocks held aside (NIL: empty slot), their valid counts and when each was last set.
    recent: [u32; RECENT],
    recent_valid: [u32; RECENT],
    recent_used: [u64; RECENT],
    clock: u64,
}

impl ValidIndex {
    /// An empty index for `blocks` blocks of at most `max_valid` valid pages.
    pub fn new(blocks: u32, max_valid: u32) -> Self {
        ValidIndex {
            head: vec![NIL; max_valid as usize + 1],
            links: vec![UNLINKED; blocks as usize],
            recent: [NIL; RECENT],
            recent_valid: [0; RECENT],
            recent_used: [0; RECENT],
            clock: 0,
        }
    }

    fn unlink(&mut self, b: usize) {
        let Link { next, prev, bucket } = self.links[b];
        if prev == NIL {
            self.head[bucket as usize] = next;
        } else {
            self.links[prev as usize].next = next;
        }
        if next != NIL {
            self.links[next as usize].prev = prev;
        }
        self.links[b] = UNLINKED;
    }

    fn link(&mut self, block: BlockId, valid: u32) {
        let h = self.head[valid as usize];
        self.links[block as usize] = Link { next: h, prev: NIL, bucket: valid };
        if h != NIL {
            self.links[h as usize].prev = block;
        }
        self.head[valid as usize] = block;
    }

    fn slot_of(&self, block: BlockId) -> Option<usize> {
        self.recent.iter().position(|&b| b == block)
    }

    /// Files `block` under `valid` (indexing it if it was not).
    pub fn set(&mut self, block: BlockId, valid: u32) {
        self.clock += 1;
        if let Some(i) = self.slot_of(block) {
            self.recent_valid[i] = valid;
            self.recent_used[i] = self.clock;
            return;
        }
        // Hold it aside in the least recently used slot, filing the block that was there.
        let i = (0..RECENT).min_by_key(|&i| self.recent_used[i]).unwrap_or(0);
        if self.recent[i] != NIL {
            self.link(self.recent[i], self.recent_valid[i]);
        }
        if self.links[block as usize].bucket != NIL {
            self.unlink(block as usize);
        }
        (self.recent[i], self.recent_valid[i], self.recent_used[i]) = (block, valid, self.clock);
    }

    /// Drops `block` from the index (it was erased).
    pub fn remove(&mut self, block: BlockId) {
        if let Some(i) = self.slot_of(block) {
            (self.recent[i], self.recent_used[i]) = (NIL, 0);
        } else if self.links[block as usize].bucket != NIL {
            self.unlink(block as usize);
        }
    }

    /// The lowest-numbered block with `valid` valid pages that `accept` allows.
    pub fn min_in(&self, valid: u32, accept: &impl Fn(BlockId) -> bool) -> Option<BlockId> {
        let aside = (0..RECENT).filter(|&i| self.recent[i] != NIL && self.recent_valid[i] == valid);
        let mut best: Option<BlockId> = aside.map(|i| self.recent[i]).filter(|&b| accept(b)).min();
        let mut b = self.head[valid as usize];
        while b != NIL {
            if best.is_none_or(|x| b < x) && accept(b) {
                best = Some(b);
            }
            b = self.links[b as usize].next;
        }
        best
    }
}

impl ValidIndex {
    /// Which bucket `block` is filed under (`None` when not indexed), for consistency checks.
    pub fn bucket_of(&self, block: BlockId) -> Option<u32> {
        if let Some(i) = self.slot_of(block) {
            return Some(self.recent_valid[i]);
        }
        let b = self.links[block as usize].bucket;
        (b != NIL).then_some(b)
    }

    /// Blocks filed under `valid`: those held aside, then the bucket's list in order.
    pub fn blocks_in(&self, valid: u32) -> Vec<BlockId> {
        let mut out: Vec<BlockId> = (0..RECENT)
            .filter(|&i| self.recent[i] != NIL && self.recent_valid[i] == valid)
            .map(|i| self.recent[i])
            .collect();
        let mut b = self.head[valid as usize];
        while b != NIL {
            out.push(b);
            b = self.links[b as usize].next;
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_follow_moves_and_removals() {
        let mut ix = ValidIndex::new(6, 4);
        for (b, v) in [(0, 3), (1, 1), (2, 1), (3, 4), (5, 1)] {
            ix.set(b, v);
        }
        assert_eq!(ix.min_in(1, &|_| true), Some(1));
        assert_eq!(ix.min_in(1, &|b| b != 1), Some(2));
        ix.set(1, 2);
        ix.remove(2);
        assert_eq!(ix.min_in(1, &|_| true), Some(5));
        assert_eq!(ix.min_in(2, &|_| true), Some(1));
        assert_eq!(ix.min_in(0, &|_| true), None);
        ix.remove(4); // never indexed: no-op
        ix.set(5, 1); // same bucket: no-op
        assert_eq!(ix.min_in(1, &|_| true), Some(5));
    }

    /// The index answers as a plain map from block to valid count would, whichever blocks
    /// are held aside: random sets and removals over more blocks than the recent slots.
    #[test]
    fn answers_match_a_plain_map_through_evictions() {
        let (blocks, max) = (40u32, 6u32);
        let mut ix = ValidIndex::new(blocks, max);
        let mut want: Vec<Option<u32>> = vec![None; blocks as usize];
        let mut x = 12345u64;
        for step in 0..5000 {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let b = (x >> 33) as u32 % blocks;
            if (x >> 20).is_multiple_of(7) {
                ix.remove(b);
                want[b as usize] = None;
            } else {
                let v = (x >> 40) as u32 % (max + 1);
                ix.set(b, v);
                want[b as usize] = Some(v);
            }
            for v in 0..=max {
                let odd = |b: BlockId| b % 2 == 1;
                let expect = (0..blocks).find(|&b| want[b as usize] == Some(v) && odd(b));
                assert_eq!(ix.min_in(v, &odd), expect, "step {step}, bucket {v}");
            }
            assert_eq!(ix.bucket_of(b), want[b as usize]);
        }
        for b in 0..blocks {
            if let Some(v) = want[b as usize] {
                assert!(ix.blocks_in(v).contains(&b));
            }
        }
    }
}
