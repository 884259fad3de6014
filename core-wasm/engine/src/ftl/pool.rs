//! The block pool every block-allocating scheme shares: the free list, the GC reserve, one
//! open block per slot (a stream such as data / translation, or a unit), and the
//! "collect, then refill" loop that hands out the next free page.
//!
//! The loop's rules (one place for them, so a GC fix lands in every scheme at once):
//! - A page comes from the slot's open block while it has room.
//! - Otherwise, for a host write (not GC's own copy), when the free list is at the reserve
//!   the scheme collects until it is above the reserve again (one collection may not gain a
//!   whole block) or nothing is collectable; then it dips into the reserve, and fails only
//!   when the free list is empty.
//! - GC's copies may have opened a block for the slot meanwhile: that block is filled first.
//! - A new block for slot `s` is the first free block of its unit (`block % units ==
//!   s % units`), else the first free block.

use std::collections::VecDeque;

use crate::device::Device;
use crate::error::{EngineError, Result};
use crate::flash::{BlockId, Ppn};
use crate::hash::StateHasher;

/// Free list, reserve and open blocks.
#[derive(Debug, Clone)]
pub struct BlockPool {
    free: VecDeque<BlockId>,
    open: Vec<Option<BlockId>>,
    reserve: usize,
    units: usize,
}

/// A scheme that owns a [`BlockPool`] and can collect a victim into it.
pub trait Collects {
    /// The scheme's pool.
    fn pool(&mut self) -> &mut BlockPool;
    /// Collects one victim (its copies come from [`next_page`] with `for_gc`); `false` when
    /// no block is worth collecting.
    fn collect(&mut self, dev: &mut Device) -> Result<bool>;
    /// Called when `block` becomes slot `slot`'s open block. Default: nothing.
    fn opened(&mut self, _slot: usize, _block: BlockId) {}
}

impl BlockPool {
    /// All `blocks` free, `slots` open-block slots (none open), collection starting when the
    /// free list falls to `reserve`; blocks belong to unit `block % units`.
    pub fn new(blocks: u32, slots: usize, reserve: usize, units: usize) -> Self {
        BlockPool { free: (0..blocks).collect(), open: vec![None; slots], reserve, units: units.max(1) }
    }

    /// Free blocks.
    pub fn free_len(&self) -> usize {
        self.free.len()
    }

    /// Whether the free list is at (or below) the reserve.
    pub fn at_reserve(&self) -> bool {
        self.free.len() <= self.reserve
    }

    /// The open block of `slot`.
    pub fn open(&self, slot: usize) -> Option<BlockId> {
        self.open[slot]
    }

    /// Whether `block` is open in any slot (open blocks are never victims).
    pub fn is_open(&self, block: BlockId) -> bool {
        self.open.contains(&Some(block))
    }

    /// Returns an erased block to the free list.
    pub fn release(&mut self, block: BlockId) {
        self.free.push_back(block);
    }

    /// The next page of `slot`'s open block, or `None` (closing the slot) when it is full.
    fn page_in_open(&mut self, slot: usize, dev: &Device) -> Option<Ppn> {
        let b = self.open[slot]?;
        let used = dev.flash.programmed_count(b);
        if used < dev.flash.pages_per_block() {
            return Some(dev.flash.first_ppn(b) + used);
        }
        self.open[slot] = None;
        None
    }

    /// Opens a free block for `slot`, preferring one of the slot's unit.
    fn open_new(&mut self, slot: usize) -> Result<BlockId> {
        let unit = slot % self.units;
        let pick = self.free.iter().position(|&b| b as usize % self.units == unit).unwrap_or(0);
        let b = self.free.remove(pick).ok_or_else(|| EngineError::DeviceFull("no free block left".into()))?;
        self.open[slot] = Some(b);
        Ok(b)
    }

    /// Checks the free list: every block erased, not open, listed once.
    pub fn check(&self, dev: &Device) -> std::result::Result<(), String> {
        let mut seen = vec![false; dev.flash.blocks() as usize];
        for &b in &self.free {
            if dev.flash.programmed_count(b) != 0 || self.is_open(b) || seen[b as usize] {
                return Err(format!("free list holds block {b}, which is written, open or listed twice"));
            }
            seen[b as usize] = true;
        }
        Ok(())
    }

    /// Feeds the free list (in order) and the open blocks into a hash.
    pub fn hash_into(&self, h: &mut StateHasher) {
        for &b in &self.free {
            h.u32(b);
        }
        for o in &self.open {
            h.u32(o.unwrap_or(u32::MAX));
        }
    }
}

/// The next free page for `slot`: see the module docs for the rules. `for_gc` marks GC's own
/// copies, which never start another collection.
pub fn next_page<S: Collects + ?Sized>(
    s: &mut S,
    slot: usize,
    dev: &mut Device,
    for_gc: bool,
) -> Result<Ppn> {
    loop {
        if let Some(ppn) = s.pool().page_in_open(slot, dev) {
            return Ok(ppn);
        }
        if !for_gc && s.pool().at_reserve() {
            while s.pool().at_reserve() && s.collect(dev)? {}
            if s.pool().open[slot].is_some() {
                continue; // GC's copies opened a block here: fill it first
            }
        }
        let b = s.pool().open_new(slot)?;
        s.opened(slot, b);
    }
}

#[cfg(test)]
#[path = "pool_tests.rs"]
mod tests;
