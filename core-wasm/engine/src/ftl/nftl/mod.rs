//! `nftl`: NFTL (Ban; thesis §2.2.2, notes §2.2). Each logical block has a primary block
//! (first writes, at their offset) and, once a written page is updated, a replacement block
//! that takes the updates in order. There is no page table in RAM: a read whose primary
//! page is no longer valid scans the replacement block's spare areas from its first page
//! for the newest copy (OOB reads, charged); a write reads the primary page's spare area and,
//! for an update, searches the replacement block's spare areas for its first free page
//! (thesis §2.3.4, charged too). A full replacement block is folded with its
//! primary: the newest copy of each page goes to a fresh block, which becomes the primary,
//! and both old blocks are erased.
//!
#![doc = include_str!("notes.md")]

use std::collections::VecDeque;

use serde_json::json;

use super::blockmap::BlockMap;
use super::logblock::{self, log_list, map_structures, LogBlock};
use super::{BlockRole, BuildCtx, Ftl, NoOptions, OpenBlocks, OptionsSpec, SchemeInfo, SchemeSpec};
use crate::device::Device;
use crate::error::{EngineError, Result};
use crate::events::Purpose;
use crate::flash::{BlockId, PageState, PageTag};
use crate::hash::StateHasher;
use crate::inspect::{Budget, InspectQuery, Inspection, Order};
use crate::meta::MetaKind;
use crate::vocab::StopAt;

/// The scheme's registry entry.
pub static SPEC: SchemeSpec = SchemeSpec {
    info: SchemeInfo {
        id: "nftl",
        name: "NFTL (primary + replacement blocks)",
        family: "block",
        source: "thesis (seed 002) §2.2.2, Fig 2.2; notes §2.2 (Ban)",
    },
    notes: include_str!("notes.md"),
    stops: &[StopAt::Gc, StopAt::Merge],
    caches: &[],
    options: OptionsSpec::of::<NoOptions>(),
    open_blocks: OpenBlocks::ONE_PER_UNIT,
    variants: || vec![("NFTL", json!({}))],
    build: |ctx, options| {
        super::parse_options::<NoOptions>("nftl", options)?;
        Ok(Box::new(Nftl::new(ctx)?))
    },
};

/// RAM per logical block: primary and replacement block numbers (notes §2.2: 1.5 MB for
/// 262,144 logical blocks, 6 bytes each), so NFTL charges its own block-map reads rather
/// than `BlockMap::look_up`'s 4-byte entry.
const LBN_ENTRY_BYTES: u64 = 6;

/// NFTL state.
#[derive(Debug, Clone)]
pub struct Nftl {
    /// Primary blocks (the block map); its log-page table stays empty.
    pub(crate) map: BlockMap,
    /// Replacement blocks by logical block, oldest first (the next to fold when blocks run
    /// out); each lists the logical page of its written pages in order.
    pub(crate) repl: VecDeque<(u32, LogBlock)>,
}

impl Nftl {
    /// An NFTL over an erased device; needs two spare blocks (a replacement and a fold target).
    pub fn new(ctx: &BuildCtx) -> Result<Self> {
        Ok(Nftl { map: BlockMap::new(ctx, "nftl", 2)?, repl: VecDeque::new() })
    }

    /// Where `lpn`'s valid copy is (the simulator's bookkeeping, not charged): the primary
    /// page, or the newest valid copy in the replacement block.
    fn current(&self, dev: &Device, lpn: u32) -> Option<u32> {
        let slot = self.map.data_slot(dev, lpn)?;
        if dev.flash().state(slot) == PageState::Valid && dev.flash().tag(slot).key == lpn {
            return Some(slot);
        }
        let (_, log) = &self.repl[self.repl_of(lpn / self.map.ppb())?];
        let first = dev.flash().first_ppn(log.block);
        (0..log.lpns.len() as u32)
            .rev()
            .map(|k| first + k)
            .find(|&p| dev.flash().state(p) == PageState::Valid && dev.flash().tag(p).key == lpn)
    }

    fn repl_of(&self, lbn: u32) -> Option<usize> {
        self.repl.iter().position(|(l, _)| *l == lbn)
    }

    /// Folds replacement block `i` with its primary into a fresh primary. Always a full
    /// merge, not [`logblock::merge_log`]'s switch or partial: NFTL folds every replacement
    /// block (thesis §2.2.2), and a replacement block holds one logical block's updates in
    /// arrival order, not at their offsets.
    fn fold(&mut self, i: usize, dev: &mut Device) -> Result<()> {
        let (lbn, log) = self.repl.remove(i).expect("index in range");
        dev.gc_start(log.block);
        logblock::fold_replacement(&mut self.map, dev, lbn, &log)?;
        dev.gc_end(log.block);
        Ok(())
    }

    /// Makes sure a block beyond the fold target is free, folding the oldest replacement
    /// block when not.
    fn make_room(&mut self, dev: &mut Device) -> Result<()> {
        while self.map.free_len() <= 1 {
            if self.repl.is_empty() {
                return Err(EngineError::DeviceFull(
                    "nftl: no free block and no replacement block to fold".into(),
                ));
            }
            self.fold(0, dev)?;
        }
        Ok(())
    }
}

impl Ftl for Nftl {
    fn read(&mut self, lpn: u32, dev: &mut Device) -> Result<Option<PageTag>> {
        let (lbn, _) = self.map.split(lpn);
        dev.meta_read(MetaKind::BlockMap, lbn, LBN_ENTRY_BYTES as u32);
        let Some(slot) = self.map.data_slot(dev, lpn) else { return Ok(None) };
        let Some(i) = self.repl_of(lbn) else {
            // No replacement block: the primary page is the only copy there can be.
            return match dev.flash().state(slot) {
                PageState::Valid => Ok(Some(dev.read(slot, Purpose::Data)?)),
                _ => Ok(None),
            };
        };
        // The primary page's spare area says whether it is still valid; if not, scan.
        dev.read_oob(slot, Purpose::Data)?;
        if dev.flash().state(slot) == PageState::Valid && dev.flash().tag(slot).key == lpn {
            return Ok(Some(dev.read(slot, Purpose::Data)?));
        }
        let block = self.repl[i].1.block;
        match logblock::scan_spares(dev, block, self.map.ppb(), lpn)? {
            Some(p) => Ok(Some(dev.read(p, Purpose::Data)?)),
            None => Ok(None),
        }
    }

    fn write(&mut self, lpn: u32, version: u32, dev: &mut Device) -> Result<()> {
        let (lbn, _) = self.map.split(lpn);
        dev.meta_read(MetaKind::BlockMap, lbn, LBN_ENTRY_BYTES as u32);
        match self.map.data_slot(dev, lpn) {
            // Thesis §2.3.4: the primary page's spare area says whether it is free.
            Some(slot) => _ = dev.read_oob(slot, Purpose::Data)?,
            None => self.make_room(dev)?,
        }
        if self.map.write_in_place(dev, lpn, version)? {
            return Ok(());
        }
        let i = match self.repl_of(lbn) {
            Some(i) => {
                let found = logblock::search_free_page(dev, self.repl[i].1.block, self.map.ppb())?;
                debug_assert_eq!(
                    found,
                    Some(self.repl[i].1.lpns.len() as u32).filter(|&k| k < self.map.ppb())
                );
                if found.is_none() {
                    // "If the replacement block … is full, the block merge operation … will
                    // be invoked"; the fold may leave the page's slot erased, so start over.
                    self.fold(i, dev)?;
                    return self.write(lpn, version, dev);
                }
                i
            }
            None => {
                let before = dev.stats.gc_runs;
                self.make_room(dev)?;
                if dev.stats.gc_runs != before {
                    return self.write(lpn, version, dev);
                }
                self.repl.push_back((lbn, LogBlock::take(&mut self.map, dev)?));
                dev.log_blocks_in_use(self.repl.len() as u64);
                dev.meta_write(MetaKind::BlockMap, lbn, LBN_ENTRY_BYTES as u32);
                self.repl.len() - 1
            }
        };
        // The old copy is marked invalid (bookkeeping, no flash time) after the new one is
        // written, as every scheme tells it; NFTL keeps no page table (so not
        // `LogBlock::append`, which records the copy in one), so later reads find the new
        // copy by scanning spare areas.
        let old = self.current(dev, lpn);
        let log = &mut self.repl[i].1;
        let ppn = dev.flash().first_ppn(log.block) + log.lpns.len() as u32;
        dev.program(ppn, PageTag::data(lpn, version), Purpose::Log)?;
        log.lpns.push(lpn);
        if let Some(old) = old {
            dev.invalidate(old)?;
        }
        Ok(())
    }

    fn trim(&mut self, lpn: u32, dev: &mut Device) -> Result<()> {
        match self.current(dev, lpn) {
            Some(p) => dev.invalidate(p),
            None => Ok(()),
        }
    }

    fn ram_bytes(&self) -> u64 {
        u64::from(self.map.lbns()) * LBN_ENTRY_BYTES
    }

    fn block_role(&self, block: BlockId, dev: &Device) -> BlockRole {
        self.map.role(dev, block, BlockRole::Replacement)
    }

    fn map_view(&self) -> Option<crate::ftl::MapView<'_>> {
        // Primary blocks and replacement blocks map their valid pages by their spare areas.
        let mut view = self.map.map_view();
        view.blocks.extend(self.repl.iter().map(|(_, l)| l.block));
        Some(view)
    }

    fn inspect(&self, query: &InspectQuery) -> Inspection {
        let logs: Vec<&LogBlock> = self.repl.iter().rev().map(|(_, l)| l).collect();
        let list = log_list(
            "replacement-blocks",
            "Replacement blocks (next fold last)",
            Order::Fifo,
            self.map.free_len() + self.repl.len(),
            &logs,
            &self.map,
            query,
        );
        let bytes = self.ram_bytes();
        let mut structures = map_structures(&self.map, &logs, query);
        structures.push(list);
        Inspection {
            ram_used: bytes,
            // No log-page table: NFTL finds updated pages by scanning spare areas.
            budgets: vec![Budget { name: "Block map (primary + replacement)".into(), bytes }],
            structures,
            ..Inspection::default()
        }
    }

    fn check(&self, dev: &Device) -> Result<()> {
        // No fixed pool: replacement blocks are bounded by the free blocks alone.
        logblock::check(&self.map, dev, self.repl.iter().map(|(_, l)| l), None)?;
        if self.map.log_pages() != 0 {
            return Err(EngineError::Invariant("nftl keeps no page table, yet one holds entries".into()));
        }
        for (lbn, l) in &self.repl {
            if l.lpns.iter().any(|&p| p / self.map.ppb() != *lbn) {
                return Err(EngineError::Invariant(format!(
                    "replacement block {} of LBN {lbn} holds another block's pages",
                    l.block
                )));
            }
        }
        Ok(())
    }

    fn hash_into(&self, h: &mut StateHasher) {
        self.map.hash_into(h);
        for (lbn, l) in &self.repl {
            h.u32(*lbn);
            l.hash_into(h);
        }
    }

    fn clone_box(&self) -> Box<dyn Ftl> {
        Box::new(self.clone())
    }
}

#[cfg(test)]
#[path = "tests.rs"]
mod tests;
