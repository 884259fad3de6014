//! Round-robin free-block allocation. DAC (thesis §2.3.4) levels wear "by locating the
//! blocks in a round-robin approach": the allocator sweeps block numbers cyclically, handing
//! out the first free block at or after a cursor, so a block erased and released just now is
//! not reused before every other free block had its turn (a LIFO pool would wear one block
//! out). Hybrid schemes can take their log blocks the same way.
//!
//! Also [`UnitAllocation`]: which unit a host page write goes to, for the shared block pool
//! (`ftl/pool.rs`).

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use crate::flash::BlockId;
use crate::hash::StateHasher;

/// Which unit (channel x way) a host page write goes to (config `gc.unit_allocation`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum UnitAllocation {
    /// Dynamic: successive page writes rotate over the units, whatever their address.
    #[default]
    RoundRobin,
    /// Static: logical page n goes to unit n mod units (the low logical-address bits choose
    /// the channel and way; seed 003's striping).
    Static,
}

/// A pool of free blocks handed out in cyclic block order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoundRobin {
    free: BTreeSet<BlockId>,
    cursor: BlockId,
    blocks: u32,
}

impl RoundRobin {
    /// A pool over `blocks` blocks, all free, cursor at block 0.
    pub fn new(blocks: u32) -> Self {
        RoundRobin { free: (0..blocks).collect(), cursor: 0, blocks }
    }

    /// A pool over `blocks` blocks with none free (release them as they are erased).
    pub fn empty(blocks: u32) -> Self {
        RoundRobin { free: BTreeSet::new(), cursor: 0, blocks }
    }

    /// Blocks the pool covers.
    pub fn blocks(&self) -> u32 {
        self.blocks
    }

    /// Number of free blocks.
    pub fn free_count(&self) -> usize {
        self.free.len()
    }

    /// True when no block is free.
    pub fn is_empty(&self) -> bool {
        self.free.is_empty()
    }

    /// True if `block` is in the pool.
    pub fn is_free(&self, block: BlockId) -> bool {
        self.free.contains(&block)
    }

    /// Where the next search starts.
    pub fn cursor(&self) -> BlockId {
        self.cursor
    }

    /// The block [`RoundRobin::allocate`] would return.
    pub fn peek(&self) -> Option<BlockId> {
        self.free.range(self.cursor..).next().or_else(|| self.free.iter().next()).copied()
    }

    /// Takes the first free block at or after the cursor (wrapping) and moves the cursor
    /// past it. `None` when the pool is empty.
    pub fn allocate(&mut self) -> Option<BlockId> {
        let b = self.peek()?;
        self.free.remove(&b);
        self.cursor = if b + 1 >= self.blocks { 0 } else { b + 1 };
        Some(b)
    }

    /// Takes a specific free block (e.g. one reserved at format time); the cursor stays.
    /// False if it was not free.
    pub fn take(&mut self, block: BlockId) -> bool {
        self.free.remove(&block)
    }

    /// Returns an erased block to the pool. False (and no change) if it is outside the
    /// device or already free, so a double release shows up in the caller's checks.
    pub fn release(&mut self, block: BlockId) -> bool {
        block < self.blocks && self.free.insert(block)
    }

    /// Free blocks in the order they would be allocated.
    pub fn iter(&self) -> impl Iterator<Item = BlockId> + '_ {
        self.free.range(self.cursor..).chain(self.free.range(..self.cursor)).copied()
    }

    /// Feeds the pool into a hash.
    pub fn hash_into(&self, h: &mut StateHasher) {
        h.u32(self.blocks);
        h.u32(self.cursor);
        h.u32(self.free.len() as u32);
        for &b in &self.free {
            h.u32(b);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sweeps_cyclically_and_skips_recently_released_blocks() {
        let mut rr = RoundRobin::new(5);
        assert_eq!([rr.allocate(), rr.allocate(), rr.allocate()], [Some(0), Some(1), Some(2)]);
        assert!(rr.release(0));
        assert_eq!(rr.iter().collect::<Vec<_>>(), [3, 4, 0]);
        assert_eq!(rr.allocate(), Some(3), "0 was just released; the sweep goes on");
        assert_eq!(rr.allocate(), Some(4));
        assert_eq!(rr.cursor(), 0, "wrapped");
        assert_eq!(rr.allocate(), Some(0));
        assert_eq!(rr.allocate(), None);
        assert!(rr.is_empty() && rr.peek().is_none());
    }

    #[test]
    fn reusing_one_block_at_a_time_spreads_wear_evenly() {
        // A scheme that always frees the block it just used: LIFO would hand block 0 back
        // every time; round-robin visits all four in turn.
        let mut rr = RoundRobin::new(4);
        let mut uses = [0u32; 4];
        for _ in 0..12 {
            let b = rr.allocate().unwrap();
            uses[b as usize] += 1;
            assert!(rr.release(b));
        }
        assert_eq!(uses, [3, 3, 3, 3]);
    }

    #[test]
    fn take_release_and_bounds() {
        let mut rr = RoundRobin::empty(4);
        assert_eq!((rr.free_count(), rr.blocks()), (0, 4));
        assert!(rr.release(2) && rr.release(1));
        assert!(!rr.release(2), "double release is refused");
        assert!(!rr.release(4), "outside the device");
        assert!(rr.take(1) && !rr.take(1));
        assert!(rr.is_free(2) && !rr.is_free(1));
        assert_eq!(rr.allocate(), Some(2));
        assert_eq!(rr.cursor(), 3);
        let mut h1 = StateHasher::default();
        rr.hash_into(&mut h1);
        rr.release(0);
        let mut h2 = StateHasher::default();
        rr.hash_into(&mut h2);
        assert_ne!(h1.finish(), h2.finish());
    }
}
