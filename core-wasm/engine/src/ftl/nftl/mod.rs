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

use serde::{Deserialize, Serialize};
use serde_json::json;

use super::blockmap::BlockMap;
use super::logblock::{self, log_list, map_structures, LogBlock};
use super::{BlockRole, BuildCtx, Ftl, OpenBlocks, OptionsSpec, SchemeInfo, SchemeSpec};
use crate::config::CellType;
use crate::device::Device;
use crate::error::{EngineError, Result};
use crate::events::Purpose;
use crate::flash::{BlockId, PageState, PageTag};
use crate::hash::StateHasher;
use crate::inspect::{BlockDuty, Budget, InspectQuery, Inspection, Order};
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
    options: OptionsSpec::of::<NftlOptions>(),
    open_blocks: OpenBlocks::ONE_PER_UNIT,
    variants: || vec![("NFTL", json!({})), ("NFTL, in-order primary", json!({"placement": "in-order"}))],
    build: |ctx, options| {
        let o: NftlOptions = super::parse_options("nftl", options)?;
        Ok(Box::new(Nftl::with(ctx, o.placement)?))
    },
};

/// Where a first write goes in its primary block.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Placement {
    /// `in-order` on an MLC device, `offset` on SLC.
    #[default]
    Auto,
    /// At its offset, whenever that page is free (Ban's NFTL; SLC only).
    Offset,
    /// At its offset only when that is the primary block's next page, else in the
    /// replacement block; a fold pads the offsets it has no page for (MLC-safe).
    InOrder,
}

/// NFTL's options.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct NftlOptions {
    /// `auto` (in order on MLC, at the offset on SLC), `offset` or `in-order`.
    pub placement: Placement,
}

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
    #[cfg(test)]
    pub fn new(ctx: &BuildCtx) -> Result<Self> {
        Self::with(ctx, Placement::Auto)
    }

    /// [`Self::new`] with primary pages placed as `placement` says.
    pub fn with(ctx: &BuildCtx, placement: Placement) -> Result<Self> {
        let in_order = match placement {
            Placement::Auto => ctx.device.cell == CellType::Mlc,
            Placement::Offset if ctx.device.cell == CellType::Mlc => {
                return Err(EngineError::Config(
                    "scheme 'nftl' with options.placement = \"offset\" programs primary pages out of order, which MLC forbids; use options.placement = \"auto\" or \"in-order\"".into(),
                ))
            }
            Placement::Offset => false,
            Placement::InOrder => true,
        };
        let map = if in_order { BlockMap::in_order(ctx, "nftl", 2)? } else { BlockMap::new(ctx, "nftl", 2)? };
        Ok(Nftl { map, repl: VecDeque::new() })
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
        // In order, a page first written out of order lives in the replacement block until
        // its primary slot comes next; the write into the slot supersedes that copy.
        let elsewhere = if self.map.programs_in_order() { self.current(dev, lpn) } else { None };
        if self.map.write_in_place(dev, lpn, version)? {
            if let Some(old) = elsewhere {
                dev.invalidate(old)?;
            }
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
        self.map.role(dev, block, BlockRole::Primary, BlockRole::Replacement)
    }

    fn block_duty(&self, block: BlockId, dev: &Device) -> Option<BlockDuty> {
        let ppb = self.map.ppb();
        if let Some(i) = self.repl.iter().position(|(_, l)| l.block == block) {
            let (lbn, log) = &self.repl[i];
            let gc = format!(
                "{} of {ppb} pages written, folded with the primary when full; {} of {} in fold order (the oldest is folded first when blocks run out)",
                log.lpns.len(),
                i + 1,
                self.repl.len()
            );
            return Some(BlockDuty { block, lbn: Some(*lbn), role: "replacement".into(), gc: Some(gc) });
        }
        let lbn = (0..self.map.lbns()).find(|&l| self.map.data_block(l) == Some(block))?;
        let gc = match self.repl_of(lbn) {
            Some(i) => format!("its replacement block is block {}", self.repl[i].1.block),
            None => "no replacement block yet".into(),
        };
        let placed = if self.map.programs_in_order() {
            format!("primary, programmed in order: next page {}", dev.flash().programmed_count(block))
        } else {
            "primary".into()
        };
        Some(BlockDuty { block, lbn: Some(lbn), role: placed, gc: Some(gc) })
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
