//! Blocks bucketed by valid-page count, so greedy GC finds its victim without scanning every
//! block. Each bucket is an intrusive doubly linked list over block numbers: moving a block
//! between buckets (on every program and invalidate) is O(1).

use crate::flash::BlockId;

const NIL: u32 = u32::MAX;

/// Written blocks (programmed since their last erase) by valid count.
#[derive(Debug, Clone)]
pub struct ValidIndex {
    head: Vec<u32>,
    next: Vec<u32>,
    prev: Vec<u32>,
    /// Bucket of each block, or NIL when the block is erased (not indexed).
    bucket: Vec<u32>,
}

impl ValidIndex {
    /// An empty index for `blocks` blocks of at most `max_valid` valid pages.
    pub fn new(blocks: u32, max_valid: u32) -> Self {
        let n = blocks as usize;
        ValidIndex {
            head: vec![NIL; max_valid as usize + 1],
            next: vec![NIL; n],
            prev: vec![NIL; n],
            bucket: vec![NIL; n],
        }
    }

    fn unlink(&mut self, b: usize) {
        let (p, n) = (self.prev[b], self.next[b]);
        if p == NIL {
            self.head[self.bucket[b] as usize] = n;
        } else {
            self.next[p as usize] = n;
        }
        if n != NIL {
            self.prev[n as usize] = p;
        }
        self.bucket[b] = NIL;
    }

    /// Files `block` under `valid` (indexing it if it was not).
    pub fn set(&mut self, block: BlockId, valid: u32) {
        let b = block as usize;
        if self.bucket[b] == valid {
            return;
        }
        if self.bucket[b] != NIL {
            self.unlink(b);
        }
        let h = self.head[valid as usize];
        self.next[b] = h;
        self.prev[b] = NIL;
        if h != NIL {
            self.prev[h as usize] = block;
        }
        self.head[valid as usize] = block;
        self.bucket[b] = valid;
    }

    /// Drops `block` from the index (it was erased).
    pub fn remove(&mut self, block: BlockId) {
        if self.bucket[block as usize] != NIL {
            self.unlink(block as usize);
        }
    }

    /// The lowest-numbered block with `valid` valid pages that `accept` allows.
    pub fn min_in(&self, valid: u32, accept: &impl Fn(BlockId) -> bool) -> Option<BlockId> {
        let mut b = self.head[valid as usize];
        let mut best: Option<BlockId> = None;
        while b != NIL {
            if best.is_none_or(|x| b < x) && accept(b) {
                best = Some(b);
            }
            b = self.next[b as usize];
        }
        best
    }
}

impl ValidIndex {
    /// Which bucket `block` is filed under (`None` when not indexed), for consistency checks.
    pub fn bucket_of(&self, block: BlockId) -> Option<u32> {
        let b = self.bucket[block as usize];
        (b != NIL).then_some(b)
    }

    /// Blocks filed under `valid`, in list order.
    pub fn blocks_in(&self, valid: u32) -> Vec<BlockId> {
        let mut out = Vec::new();
        let mut b = self.head[valid as usize];
        while b != NIL {
            out.push(b);
            b = self.next[b as usize];
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
}
