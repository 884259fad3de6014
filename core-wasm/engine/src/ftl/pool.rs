//! The block pool every block-allocating scheme shares: the free list, the GC reserve, one
//! open block per slot (a stream such as data / translation, or a unit), the unit a host
//! page write goes to, and the "collect, then refill" loop that hands out the next free page.
//!
//! The loop's rules (one place for them, so a GC fix lands in every scheme at once):
//! - A page comes from the slot's open block while it has room.
//! - Otherwise, for a host write (not GC's own copy), the pool may collect first, as its
//!   [`Collection`] says:
//!   - [`Collection::UntilAboveReserve`] (the default): when the free list is at the reserve
//!     the scheme collects until it is above the reserve again (one collection may not gain
//!     a whole block) or nothing is collectable.
//!   - [`Collection::OneVictim`]: when the slot's unit has no more free blocks than its share
//!     of the reserve (`ceil(reserve / units)`), the scheme collects **one** victim of that
//!     unit ([`Collects::collect_on`]). Its copies fill a fresh block of the unit, which the
//!     host write then goes on filling, and its erase gives a block back: a unit's free
//!     count stays at its share in steady state, and the unit never needs another unit's
//!     block while it has a victim (thesis §4.2.2: one victim per invocation).
//!
//!   Then it dips into the reserve, and fails only when the free list is empty.
//! - GC's copies may have opened a block for the slot meanwhile: that block is filled first.
//! - A new block for slot `s` is the first free block of its unit (`block % units ==
//!   s % units`). When the unit has none, another unit's first free block is taken and
//!   counted ([`Device::cross_unit_block`], metric `gc.cross_unit_blocks`), or, with
//!   `gc.borrow_blocks` off, the write fails naming the unit.
//! - The unit of a host page write ([`BlockPool::write_unit`]) follows `gc.unit_allocation`:
//!   round-robin over the units, or static by logical page (n mod units).

use std::collections::VecDeque;

use crate::config::GcConfig;
use crate::device::Device;
use crate::error::{EngineError, Result};
use crate::flash::{BlockId, Ppn};
use crate::gc::UnitAllocation;
use crate::hash::StateHasher;

/// When and how much a host write's block request collects (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Collection {
    /// At the reserve, collect until the free list is above it again.
    #[default]
    UntilAboveReserve,
    /// At the unit's share of the reserve, collect one victim of that unit.
    OneVictim,
}

/// Free list, reserve and open blocks.
///
/// The free list is one queue in release order, kept as one queue per unit of `(stamp,
/// block)` (stamps count releases, so the queues merged by stamp are the list): the first
/// free block of a unit is the front of its queue, found in O(1) whatever the unit count (a
/// scan of the one list for a unit's block made the cost grow with the units).
#[derive(Debug, Clone)]
pub struct BlockPool {
    free_by_unit: Vec<VecDeque<(u64, BlockId)>>,
    /// Stamp of the next released block.
    next_stamp: u64,
    /// Free blocks in all units.
    free_total: usize,
    open: Vec<Option<BlockId>>,
    /// Per block: open in some slot (`open` holds it), so victim searches, which ask for
    /// every candidate, need not scan the slots (one per unit).
    is_open: Vec<bool>,
    reserve: usize,
    units: usize,
    collection: Collection,
    borrow: bool,
    allocation: UnitAllocation,
    /// Unit of the next round-robin host write.
    next_unit: usize,
}

/// A scheme that owns a [`BlockPool`] and can collect a victim into it.
pub trait Collects {
    /// The scheme's pool.
    fn pool(&mut self) -> &mut BlockPool;
    /// Collects one victim (its copies come from [`next_page`] with `for_gc`); `false` when
    /// no block is worth collecting.
    fn collect(&mut self, dev: &mut Device) -> Result<bool>;
    /// Collects one victim among the blocks of `unit` (`block % units == unit`), for
    /// [`Collection::OneVictim`]; `false` when none of them is worth collecting. Default:
    /// [`Collects::collect`] (any unit), for schemes with one unit of allocation.
    fn collect_on(&mut self, dev: &mut Device, _unit: usize) -> Result<bool> {
        self.collect(dev)
    }
    /// Called when `block` becomes slot `slot`'s open block. Default: nothing.
    fn opened(&mut self, _slot: usize, _block: BlockId) {}
}

impl BlockPool {
    /// All `blocks` free, `slots` open-block slots (none open), collection starting when the
    /// free list falls to `reserve`; blocks belong to unit `block % units`.
    /// Collections are [`Collection::UntilAboveReserve`], host writes go round-robin and a
    /// unit without free blocks borrows (see [`BlockPool::with_gc`], [`BlockPool::with_collection`]).
    pub fn new(blocks: u32, slots: usize, reserve: usize, units: usize) -> Self {
        let units = units.max(1);
        let mut free_by_unit = vec![VecDeque::new(); units];
        for b in 0..blocks {
            free_by_unit[b as usize % units].push_back((u64::from(b), b));
        }
        BlockPool {
            free_by_unit,
            next_stamp: u64::from(blocks),
            free_total: blocks as usize,
            open: vec![None; slots],
            is_open: vec![false; blocks as usize],
            reserve,
            units,
            collection: Collection::default(),
            borrow: true,
            allocation: UnitAllocation::RoundRobin,
            next_unit: 0,
        }
    }

    /// Takes the unit allocation and the borrowing rule from the GC settings (the reserve
    /// stays as given to [`BlockPool::new`]).
    pub fn with_gc(mut self, gc: &GcConfig) -> Self {
        self.allocation = gc.unit_allocation;
        self.borrow = gc.borrow_blocks;
        self
    }

    /// Sets when and how much a host write's block request collects.
    pub fn with_collection(mut self, collection: Collection) -> Self {
        self.collection = collection;
        self
    }

    /// Units blocks belong to.
    pub fn units(&self) -> usize {
        self.units
    }

    /// The unit a host write of logical page `lpn` goes to (`gc.unit_allocation`); a
    /// round-robin call moves the rotation on.
    pub fn write_unit(&mut self, lpn: u32) -> usize {
        if self.units == 1 {
            return 0; // what either rule gives (the rotation stays at unit 0)
        }
        match self.allocation {
            UnitAllocation::Static => lpn as usize % self.units,
            UnitAllocation::RoundRobin => {
                let u = self.next_unit;
                // The rotation's next unit without a division (one per host page written).
                self.next_unit = if u + 1 < self.units { u + 1 } else { 0 };
                u
            }
        }
    }

    /// The unit the next round-robin host write goes to (for the owner's state hash).
    pub fn write_cursor(&self) -> usize {
        self.next_unit
    }

    /// Free blocks of `unit`.
    pub fn free_on(&self, unit: usize) -> usize {
        self.free_by_unit[unit].len()
    }

    /// Each unit's share of the reserve under [`Collection::OneVictim`]: `ceil(reserve /
    /// units)`, so a single unit keeps the whole reserve.
    pub fn unit_reserve(&self) -> usize {
        self.reserve.div_ceil(self.units)
    }

    /// Free blocks.
    pub fn free_len(&self) -> usize {
        self.free_total
    }

    /// Whether the free list is at (or below) the reserve.
    pub fn at_reserve(&self) -> bool {
        self.free_total <= self.reserve
    }

    /// The free list in order (release order; the initial blocks by number).
    fn free_in_order(&self) -> Vec<BlockId> {
        let mut all: Vec<(u64, BlockId)> = self.free_by_unit.iter().flatten().copied().collect();
        all.sort_unstable();
        all.into_iter().map(|(_, b)| b).collect()
    }

    /// The open block of `slot`.
    pub fn open(&self, slot: usize) -> Option<BlockId> {
        self.open[slot]
    }

    /// The blocks open in some slot.
    pub fn open_blocks(&self) -> impl Iterator<Item = BlockId> + '_ {
        self.open.iter().flatten().copied()
    }

    /// Whether `block` is open in any slot (open blocks are never victims).
    pub fn is_open(&self, block: BlockId) -> bool {
        self.is_open.get(block as usize).copied().unwrap_or(false)
    }

    /// Returns an erased block to the free list.
    pub fn release(&mut self, block: BlockId) {
        self.free_by_unit[block as usize % self.units].push_back((self.next_stamp, block));
        self.next_stamp += 1;
        self.free_total += 1;
    }

    /// The next page of `slot`'s open block, or `None` (closing the slot) when it is full or
    /// there is none: [`next_page`]'s first step, which changes nothing on the device, so a
    /// GC copy can know its destination before its read ([`Device::copy_page`]) and leave
    /// the rest (a collection, a block opened) to [`next_page`] after the read.
    #[inline(always)]
    pub fn page_in_open(&mut self, slot: usize, dev: &Device) -> Option<Ppn> {
        let b = self.open[slot]?;
        let used = dev.flash().programmed_count(b);
        if used < dev.flash().pages_per_block() {
            return Some(dev.flash().first_ppn(b) + used);
        }
        self.open[slot] = None;
        self.is_open[b as usize] = false;
        None
    }

    /// Opens a free block for `slot`: one of the slot's unit, else (counted, or refused
    /// without `borrow`) another unit's.
    fn open_new(&mut self, slot: usize, dev: &mut Device) -> Result<BlockId> {
        let b = self.take(slot % self.units, dev)?;
        if let Some(old) = self.open[slot].replace(b) {
            self.is_open[old as usize] = false;
        }
        self.is_open[b as usize] = true;
        Ok(b)
    }

    /// Takes a free block of `unit` (else, counted, or refused without `borrow`, another
    /// unit's) without opening it in a slot: for schemes that allocate whole blocks (block
    /// mapping, log blocks) rather than pages.
    pub fn take(&mut self, unit: usize, dev: &mut Device) -> Result<BlockId> {
        let unit = unit % self.units;
        let from = if !self.free_by_unit[unit].is_empty() {
            unit
        } else if !self.borrow && self.free_total > 0 {
            return Err(EngineError::DeviceFull(format!(
                "unit {unit} has no free block ({} free on other units; gc.borrow_blocks is off)",
                self.free_total
            )));
        } else {
            // The first block of the whole free list: the unit whose first is oldest.
            (0..self.units)
                .filter_map(|u| self.free_by_unit[u].front().map(|&(stamp, _)| (stamp, u)))
                .min()
                .map_or(unit, |(_, u)| u)
        };
        let (_, b) = self.free_by_unit[from]
            .pop_front()
            .ok_or_else(|| EngineError::DeviceFull("no free block left".into()))?;
        self.free_total -= 1;
        dev.device_meta(crate::meta::MetaKind::FreeList, b);
        if b as usize % self.units != unit {
            dev.cross_unit_block(unit, b);
        }
        Ok(b)
    }

    /// Checks the free list: every block erased, not open, listed once.
    pub fn check(&self, dev: &Device) -> std::result::Result<(), String> {
        let mut seen = vec![false; dev.flash().blocks() as usize];
        for &b in &self.free_in_order() {
            if dev.flash().programmed_count(b) != 0 || self.is_open(b) || seen[b as usize] {
                return Err(format!("free list holds block {b}, which is written, open or listed twice"));
            }
            seen[b as usize] = true;
        }
        for (u, queue) in self.free_by_unit.iter().enumerate() {
            if let Some(&(_, b)) = queue.iter().find(|&&(_, b)| b as usize % self.units != u) {
                return Err(format!("the free blocks of unit {u} list block {b}, of another unit"));
            }
            if queue.iter().zip(queue.iter().skip(1)).any(|(a, b)| a.0 >= b.0) {
                return Err(format!("the free blocks of unit {u} are not in release order"));
            }
        }
        let mut open = vec![false; self.is_open.len()];
        for &b in self.open.iter().flatten() {
            open[b as usize] = true;
        }
        if let Some(b) = (0..open.len()).find(|&b| open[b] != self.is_open[b]) {
            return Err(format!("block {b}'s open flag disagrees with the open slots"));
        }
        let listed: usize = self.free_by_unit.iter().map(VecDeque::len).sum();
        if listed != self.free_total {
            return Err(format!(
                "free count is {}, but the free list holds {listed} blocks",
                self.free_total
            ));
        }
        Ok(())
    }

    /// Feeds the free list (in order) and the open blocks into a hash.
    pub fn hash_into(&self, h: &mut StateHasher) {
        for b in self.free_in_order() {
            h.u32(b);
        }
        for o in &self.open {
            h.u32(o.unwrap_or(u32::MAX));
        }
    }
}

/// The next free page for `slot`: see the module docs for the rules. `for_gc` marks GC's own
/// copies, which never start another collection.
#[inline(always)] // the common case, a page in the open block, in the caller (docs/perf.md)
pub fn next_page<S: Collects + ?Sized>(
    s: &mut S,
    slot: usize,
    dev: &mut Device,
    for_gc: bool,
) -> Result<Ppn> {
    match s.pool().page_in_open(slot, dev) {
        Some(ppn) => Ok(ppn),
        None => next_page_opening(s, slot, dev, for_gc),
    }
}

/// [`next_page`] when `slot` has no open block or it is full: collect if due, open a block.
#[inline(never)]
fn next_page_opening<S: Collects + ?Sized>(
    s: &mut S,
    slot: usize,
    dev: &mut Device,
    for_gc: bool,
) -> Result<Ppn> {
    loop {
        if let Some(ppn) = s.pool().page_in_open(slot, dev) {
            return Ok(ppn);
        }
        if !for_gc {
            let pool = s.pool();
            let unit = slot % pool.units;
            let collected = match pool.collection {
                Collection::UntilAboveReserve if pool.at_reserve() => {
                    collect_above_reserve(s, dev)?;
                    true
                }
                Collection::OneVictim if pool.free_on(unit) <= pool.unit_reserve() => {
                    s.collect_on(dev, unit)?;
                    true
                }
                _ => false,
            };
            if collected && s.pool().open[slot].is_some() {
                continue; // GC's copies opened a block here: fill it first
            }
        }
        let b = s.pool().open_new(slot, dev)?;
        s.opened(slot, b);
    }
}

/// Collects until the free list is above the reserve (or nothing is worth collecting). When
/// the free list runs out part-way, the collections of this round wrote as many pages as
/// their victims freed: the error says so, and what would give GC room.
fn collect_above_reserve<S: Collects + ?Sized>(s: &mut S, dev: &mut Device) -> Result<()> {
    let mut rounds = 0u32;
    while s.pool().at_reserve() {
        match s.collect(dev) {
            Ok(true) => rounds += 1,
            Ok(false) => break,
            Err(EngineError::DeviceFull(m)) if rounds > 0 => {
                return Err(EngineError::DeviceFull(format!(
                    "{m}: {rounds} collections in a row did not lift the free blocks above the GC \
                     reserve, each writing about as many pages (valid-page copies, and the \
                     translation-page updates they cause) as its victim freed; give GC more room \
                     (device.over_provisioning), the scheme more RAM, or the device fewer units"
                )))
            }
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

#[cfg(test)]
#[path = "pool_tests.rs"]
mod tests;
