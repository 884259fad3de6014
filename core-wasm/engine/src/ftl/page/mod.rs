//! `page`: ideal page-level mapping (PFTL / PMAP). The whole LPN → PPN table lives in RAM.
//! Writes go to the next free page of the open block; when the free-block pool falls to the
//! GC reserve, greedy GC collects the block with the fewest valid pages, copying its valid
//! pages to the open block and erasing it (thesis §4.2.2: "each time only one victim block
//! will be reclaimed … the block with the fewest valid pages is taken as the victim").
//!
//! Choices where the sources are silent: GC copies share the open blocks with host writes
//! (no separate GC frontier); a mapping entry costs 4 bytes of RAM; each table lookup or
//! update is one RAM access. On a device with several units (channels x ways) one block per
//! unit is open and successive page writes go round-robin over the units, so their programs
//! overlap in time (dynamic allocation; a unit's block is one with `block % units == unit`);
//! GC copies stay on the victim's unit, so one collection needs at most one fresh block.

use std::collections::VecDeque;

use super::{BlockRole, Ftl};
use crate::config::SimConfig;
use crate::device::Device;
use crate::error::{EngineError, Result};
use crate::events::Purpose;
use crate::flash::{BlockId, PageState, PageTag, Ppn};
use crate::gc::VictimPolicy;
use crate::hash::StateHasher;

const UNMAPPED: u32 = u32::MAX;

/// Page-level FTL state.
#[derive(Debug, Clone)]
pub struct PageFtl {
    map: Vec<Ppn>,
    free: VecDeque<BlockId>,
    /// The open block of each unit.
    open: Vec<Option<BlockId>>,
    /// Unit that takes the next page write.
    next_unit: usize,
    reserve: usize,
    victim: VictimPolicy,
}

impl PageFtl {
    /// A page-level FTL over an erased device.
    pub fn new(config: &SimConfig) -> Self {
        PageFtl {
            map: vec![UNMAPPED; config.device.logical_pages() as usize],
            free: (0..config.device.blocks).collect(),
            open: vec![None; config.device.units() as usize],
            next_unit: 0,
            reserve: config.gc.reserve_blocks as usize,
            victim: config.gc.victim,
        }
    }

    /// The physical page of `lpn`, if mapped.
    pub fn lookup(&self, lpn: u32) -> Option<Ppn> {
        let p = self.map[lpn as usize];
        (p != UNMAPPED).then_some(p)
    }

    /// Next free page of an open block, opening a new block (after GC if the pool is at its
    /// reserve) when needed. Host writes (`gc_unit` None) go round-robin over the units; GC
    /// copies all go to one unit (the victim's), so a collection needs at most one fresh
    /// block and may dip into the reserve for it.
    fn next_page(&mut self, dev: &mut Device, gc_unit: Option<usize>) -> Result<Ppn> {
        let ppb = dev.flash().pages_per_block();
        let units = self.open.len();
        let for_gc = gc_unit.is_some();
        let unit = gc_unit.unwrap_or(self.next_unit);
        if !for_gc {
            self.next_unit = (unit + 1) % units;
        }
        loop {
            if let Some(b) = self.open[unit] {
                let used = dev.flash().programmed_count(b);
                if used < ppb {
                    return Ok(dev.flash().first_ppn(b) + used);
                }
                self.open[unit] = None;
            }
            // GC's copies may have gone to a fresh open block for this unit: look at the open
            // block again before taking another from the pool.
            if !for_gc && self.free.len() <= self.reserve {
                // Collect until the pool is above its reserve again (one collection may not
                // gain a whole block), or until nothing is collectable: then dip into the
                // reserve, and fail only when the pool is empty.
                while self.free.len() <= self.reserve && self.collect(dev)? {}
                if self.open[unit].is_some() {
                    continue; // GC's copies opened a block here: fill it first
                }
            }
            let pick = self.free.iter().position(|&b| b as usize % units == unit).unwrap_or(0);
            let b =
                self.free.remove(pick).ok_or_else(|| EngineError::DeviceFull("no free block left".into()))?;
            self.open[unit] = Some(b);
        }
    }

    /// Collects one victim; `false` when no block is worth collecting.
    fn collect(&mut self, dev: &mut Device) -> Result<bool> {
        let open = self.open.clone();
        let victim = dev.pick_victim(self.victim, |b| !open.contains(&Some(b)));
        let Some(victim) = victim else { return Ok(false) };
        dev.gc_start(victim);
        let unit = victim as usize % self.open.len();
        let first = dev.flash().first_ppn(victim);
        for ppn in first..first + dev.flash().pages_per_block() {
            if dev.flash().state(ppn) != PageState::Valid {
                continue;
            }
            let tag = dev.read(ppn, Purpose::Gc)?;
            let dest = self.next_page(dev, Some(unit))?;
            dev.program(dest, tag, Purpose::Gc)?;
            dev.invalidate(ppn)?;
            dev.ram(1);
            self.map[tag.key as usize] = dest;
            dev.gc_copied();
        }
        dev.erase(victim, Purpose::Gc)?;
        self.free.push_back(victim);
        dev.gc_end(victim);
        Ok(true)
    }
}

impl Ftl for PageFtl {
    fn read(&mut self, lpn: u32, dev: &mut Device) -> Result<Option<PageTag>> {
        dev.ram(1);
        match self.lookup(lpn) {
            None => Ok(None),
            Some(ppn) => dev.read(ppn, Purpose::Data).map(Some),
        }
    }

    fn write(&mut self, lpn: u32, version: u32, dev: &mut Device) -> Result<()> {
        let dest = self.next_page(dev, None)?;
        dev.program(dest, PageTag::data(lpn, version), Purpose::Data)?;
        // GC inside next_page may have moved the old copy, so read the map only now.
        if let Some(old) = self.lookup(lpn) {
            dev.invalidate(old)?;
        }
        self.map[lpn as usize] = dest;
        dev.ram(1);
        Ok(())
    }

    fn trim(&mut self, lpn: u32, dev: &mut Device) -> Result<()> {
        dev.ram(1);
        if let Some(old) = self.lookup(lpn) {
            dev.invalidate(old)?;
            self.map[lpn as usize] = UNMAPPED;
        }
        Ok(())
    }

    fn ram_bytes(&self) -> u64 {
        self.map.len() as u64 * 4
    }

    fn block_role(&self, block: BlockId, dev: &Device) -> BlockRole {
        if self.open.contains(&Some(block)) {
            BlockRole::Active
        } else if dev.flash().programmed_count(block) == 0 {
            BlockRole::Free
        } else {
            BlockRole::Data
        }
    }

    fn check(&self, dev: &Device) -> Result<()> {
        for (lpn, &ppn) in self.map.iter().enumerate() {
            if ppn == UNMAPPED {
                continue;
            }
            let tag = dev.flash().tag(ppn);
            if dev.flash().state(ppn) != PageState::Valid || tag.key != lpn as u32 {
                return Err(EngineError::Invariant(format!(
                    "page map: LPN {lpn} → PPN {ppn}, which is {:?} holding key {}",
                    dev.flash().state(ppn),
                    tag.key
                )));
            }
        }
        let mut seen = vec![false; dev.flash().blocks() as usize];
        for &b in &self.free {
            if dev.flash().programmed_count(b) != 0 || self.open.contains(&Some(b)) || seen[b as usize] {
                return Err(EngineError::Invariant(format!(
                    "free list holds block {b}, which is written, open or listed twice"
                )));
            }
            seen[b as usize] = true;
        }
        Ok(())
    }

    fn hash_into(&self, h: &mut StateHasher) {
        h.u32s(&self.map);
        h.u32(self.free.len() as u32);
        for &b in &self.free {
            h.u32(b);
        }
        for o in &self.open {
            h.u32(o.unwrap_or(u32::MAX));
        }
        h.u32(self.next_unit as u32);
    }

    fn clone_box(&self) -> Box<dyn Ftl> {
        Box::new(self.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{Latencies, SimConfig};
    use crate::flash::FlashArray;

    /// Thesis Fig 4.1 (seed 002 §4.2.2): small-block SLC (T_rdpg 36 µs, T_wrpg 200 µs,
    /// T_er 2000 µs), 8-page blocks, a victim with 5 valid pages: GC costs
    /// 5 × (36 + 200) + 2000 = 3180 µs, and the write it blocks costs 3380 µs.
    #[test]
    fn thesis_fig_4_1_gc_blocks_a_write_for_3380_us() {
        let mut config = SimConfig::default();
        config.device.blocks = 4;
        config.device.pages_per_block = 8;
        config.device.over_provisioning = 0.0;
        config.gc.reserve_blocks = 1;
        let lat = Latencies {
            page_read_ns: 36_000,
            program_ns: 200_000,
            erase_ns: 2_000_000,
            ..Latencies::default()
        };
        let mut dev = Device::new(FlashArray::new(4, 8, config.device.cell), lat, false);
        let mut ftl = PageFtl::new(&config);
        // Blocks 0 and 1 get LPNs 0..16; rewriting 0, 1, 2 leaves block 0 with 5 valid pages,
        // and LPNs 16..21 fill block 2, leaving one free block: the reserve.
        for (v, lpn) in (0..16).chain([0, 1, 2]).chain(16..21).enumerate() {
            ftl.write(lpn, v as u32 + 1, &mut dev).unwrap();
        }
        assert_eq!(dev.stats.gc_runs, 0);
        assert_eq!(dev.flash().valid_count(0), 5);
        dev.cost = Default::default();
        ftl.write(21, 100, &mut dev).unwrap();
        assert_eq!(dev.stats.gc_runs, 1);
        assert_eq!(dev.last_victim, Some(0));
        assert_eq!(dev.stats.gc_valid_copies, 5);
        let gc_ns = dev.cost.flash_ns[Purpose::Gc as usize];
        assert_eq!(gc_ns, 3_180_000);
        assert_eq!(dev.cost.total_ns(), 3_380_000);
        ftl.check(&dev).unwrap();
    }
}
