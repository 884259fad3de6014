//! Per-block age bookkeeping for the victim policies that need more than valid counts.
//!
//! Ages are measured on a logical clock that advances by one at every page program, page
//! invalidation and block erase the scheme reports: a count of flash state changes, not
//! simulated time, so ages are exact integers and identical on every target. A scheme
//! calls [`BlockAges::on_program`], [`BlockAges::on_invalidate`] and [`BlockAges::on_erase`]
//! next to the matching [`crate::device::Device`] calls (GC copies included).

use crate::hash::StateHasher;
use crate::ids::BlockId;

const NEVER: u64 = u64::MAX;

/// Last-modified and first-written stamps of every block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlockAges {
    clock: u64,
    /// Per block, both stamps side by side: a program sets both, found with one lookup.
    stamps: Vec<Stamps>,
}

/// One block's stamps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Stamps {
    /// Stamp of the latest program, invalidation or erase in the block (cost-benefit age).
    modified: u64,
    /// Stamp of the first program since the last erase (FIFO order); `NEVER` when erased.
    written: u64,
}

impl BlockAges {
    /// Bookkeeping for `blocks` erased blocks at clock 0.
    pub fn new(blocks: u32) -> Self {
        BlockAges { clock: 0, stamps: vec![Stamps { modified: 0, written: NEVER }; blocks as usize] }
    }

    /// The current clock (events reported so far).
    pub fn now(&self) -> u64 {
        self.clock
    }

    /// A page of `block` was programmed. Out-of-range blocks are ignored.
    pub fn on_program(&mut self, block: BlockId) {
        let now = self.tick();
        if let Some(s) = self.stamps.get_mut(block as usize) {
            s.modified = now;
            if s.written == NEVER {
                s.written = now;
            }
        }
    }

    /// A page of `block` became invalid (its data was superseded, trimmed or copied out).
    pub fn on_invalidate(&mut self, block: BlockId) {
        let now = self.tick();
        if let Some(s) = self.stamps.get_mut(block as usize) {
            s.modified = now;
        }
    }

    /// `n` GC copies out of `from` into `dest`: each a program of a page of `dest`, then the
    /// invalidation of its old copy in `from` ([`BlockAges::on_program`] and
    /// [`BlockAges::on_invalidate`], `n` times in turn), stamped at once.
    pub fn on_copies(&mut self, dest: BlockId, from: BlockId, n: u64) {
        if n == 0 {
            return;
        }
        let first = self.clock + 1;
        self.clock += 2 * n;
        if let Some(s) = self.stamps.get_mut(dest as usize) {
            s.modified = self.clock - 1;
            if s.written == NEVER {
                s.written = first;
            }
        }
        if let Some(s) = self.stamps.get_mut(from as usize) {
            s.modified = self.clock;
        }
    }

    /// `block` was erased: it leaves the FIFO order until programmed again.
    pub fn on_erase(&mut self, block: BlockId) {
        let now = self.tick();
        if let Some(s) = self.stamps.get_mut(block as usize) {
            *s = Stamps { modified: now, written: NEVER };
        }
    }

    /// Clock stamp of the latest change in `block` (0 if never changed or out of range).
    pub fn modified(&self, block: BlockId) -> u64 {
        self.stamps.get(block as usize).map_or(0, |s| s.modified)
    }

    /// Clock stamp of the first program since `block`'s last erase; `None` while erased.
    pub fn first_written(&self, block: BlockId) -> Option<u64> {
        self.stamps.get(block as usize).map(|s| s.written).filter(|&w| w != NEVER)
    }

    /// Events since `block` last changed: cost-benefit's "age" of its youngest data.
    pub fn age(&self, block: BlockId) -> u64 {
        self.clock - self.modified(block).min(self.clock)
    }

    /// Feeds the bookkeeping into a hash.
    pub fn hash_into(&self, h: &mut StateHasher) {
        h.u64(self.clock);
        for s in &self.stamps {
            h.u64(s.modified);
            h.u64(s.written);
        }
    }

    fn tick(&mut self) -> u64 {
        self.clock += 1;
        self.clock
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stamps_follow_programs_invalidations_and_erases() {
        let mut a = BlockAges::new(3);
        a.on_program(1); // clock 1
        a.on_program(1); // 2
        a.on_program(0); // 3
        a.on_invalidate(1); // 4
        assert_eq!(a.now(), 4);
        assert_eq!((a.modified(1), a.first_written(1)), (4, Some(1)));
        assert_eq!((a.modified(0), a.first_written(0)), (3, Some(3)));
        assert_eq!((a.age(0), a.age(1), a.age(2)), (1, 0, 4));
        assert_eq!(a.first_written(2), None);
        a.on_erase(1); // 5
        assert_eq!(a.first_written(1), None);
        a.on_program(1); // 6: re-written blocks join the FIFO order at the back
        assert_eq!(a.first_written(1), Some(6));
        // Out-of-range blocks are ignored but still advance the clock deterministically.
        a.on_program(99);
        assert_eq!((a.now(), a.modified(99), a.first_written(99), a.age(99)), (7, 0, None, 7));
    }

    /// Copies stamped at once leave what the programs and invalidations one by one leave,
    /// into a fresh block or a written one, out of range included.
    #[test]
    fn copies_at_once_are_copies_one_by_one() {
        for (dest, from, n) in [(0, 1, 3), (1, 0, 1), (2, 1, 2), (0, 9, 2), (9, 0, 1), (1, 2, 0)] {
            let mut at_once = BlockAges::new(3);
            at_once.on_program(1);
            at_once.on_program(0);
            let mut one_by_one = at_once.clone();
            at_once.on_copies(dest, from, n);
            for _ in 0..n {
                one_by_one.on_program(dest);
                one_by_one.on_invalidate(from);
            }
            assert_eq!(at_once, one_by_one, "{n} copies {from} -> {dest}");
        }
    }
}
