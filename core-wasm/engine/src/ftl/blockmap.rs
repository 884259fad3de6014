//! What the block-mapped and log-block schemes (`block`, `bast`, `fast`, `fast-do`, `sbast`,
//! `nftl`) share: the block map (logical block → data block, the page at a fixed offset), the
//! RAM table of pages living in log blocks, the free blocks, and the merge operations (the
//! log blocks themselves and how a merge is chosen: [`super::logblock`]).
//!
//! A logical page `lpn` belongs to logical block `lpn / P` at offset `lpn % P` (P pages per
//! block; thesis §1.2 / notes §2.2). Its newest copy is either in a log block (the
//! `log_loc` table says where) or in its data block at that offset (when that page is valid).
//!
//! Merges (seed 004 §2): a **full** merge copies every logical page of a block from wherever
//! its newest copy is into a fresh block at its offset and erases the old data block (the
//! caller erases log blocks left without valid pages): N·(T_read + T_write) + T_erase per
//! data block when all N pages are valid, so BAST's Eq. (2) and FAST's Eq. (3) follow. A
//! **partial** merge completes a log block written in order at offsets 0..k with the rest
//! and makes it the data block; a **switch** is a partial merge with nothing to copy.
//!
//! Fixed offsets mean pages are programmed out of order, which MLC forbids (notes §2.2: "not
//! MLC-safe"), so these schemes refuse MLC devices up front. A map built [`BlockMap::in_order`]
//! (NFTL's MLC-safe placement) keeps the offsets but programs each block in order: a page goes
//! into its data block only when its offset is the block's next page, and a merge pads the
//! offsets it has no page for (an erased page cannot be skipped on MLC).

use super::pool::BlockPool;
use super::{BlockRole, BuildCtx};
use crate::config::CellType;
use crate::device::Device;
use crate::error::{EngineError, Result};
use crate::events::Purpose;
use crate::flash::{BlockId, PageKind, PageState, PageTag, Ppn};
use crate::ftl::MapView;
use crate::hash::StateHasher;
use crate::inspect::{indexed_keys, BlockDuty, InspectQuery, Row, Structure};
use crate::meta::MetaKind;

/// No block.
pub const NONE: BlockId = u32::MAX;
/// RAM per block-map entry (a block number).
pub const BLOCK_ENTRY_BYTES: u64 = 4;
/// RAM per log-page entry (LPN → PPN).
pub const LOG_ENTRY_BYTES: u64 = 8;

/// Block map, log-page table and free blocks.
#[derive(Debug, Clone)]
pub struct BlockMap {
    ppb: u32,
    logical: u32,
    data: Vec<BlockId>,
    data_blocks: usize,
    /// Newest copy of each logical page held in a log (or replacement) block, by LPN
    /// (`NONE`: not in a log block). An array rather than a hash map: a merge looks up and
    /// removes every page of a block, consecutive LPNs, so a block's entries share a cache
    /// line or two (the hash map's probes were a third of `bast`'s time); 4 bytes per
    /// logical page, beside the flash array's 9.
    log_loc: Vec<Ppn>,
    /// Entries of `log_loc` that are not `NONE`.
    log_len: usize,
    pool: BlockPool,
    /// Which blocks are log (or replacement) blocks now, for the grid's roles in O(1).
    is_log: Vec<bool>,
    /// Unit of the next block taken (round-robin, so blocks spread over the units).
    next_unit: usize,
    /// Data blocks are programmed in page order (MLC-safe placement).
    in_order: bool,
}

impl BlockMap {
    /// An empty map over an erased device. `spare` is how many blocks beyond the logical
    /// blocks the scheme needs at least (log blocks plus the merge target); fewer, or an MLC
    /// device, is a configuration error naming `scheme`.
    pub fn new(ctx: &BuildCtx, scheme: &str, spare: u32) -> Result<Self> {
        Self::build(ctx, scheme, spare, false)
    }

    /// [`Self::new`] with every data block programmed in page order, so MLC is allowed: a
    /// page goes into its data block's slot only when the slot is the block's next page, and a
    /// merge programs each offset up to the last one it has a page for, padding the offsets
    /// it has none for.
    pub fn in_order(ctx: &BuildCtx, scheme: &str, spare: u32) -> Result<Self> {
        Self::build(ctx, scheme, spare, true)
    }

    fn build(ctx: &BuildCtx, scheme: &str, spare: u32, in_order: bool) -> Result<Self> {
        let d = ctx.device;
        if d.cell == CellType::Mlc && !in_order {
            return Err(EngineError::Config(format!(
                "scheme '{scheme}' keeps pages at fixed block offsets, programmed out of order, which MLC forbids; use device.cell = \"slc\""
            )));
        }
        let logical = d.logical_pages() as u32;
        let lbns = logical.div_ceil(d.pages_per_block);
        if d.blocks < lbns + spare {
            return Err(EngineError::Config(format!(
                "scheme '{scheme}' needs {spare} blocks beyond the {lbns} logical blocks, but the device has {} blocks; raise device.over_provisioning or device.blocks",
                d.blocks
            )));
        }
        let units = d.units() as usize;
        Ok(BlockMap {
            ppb: d.pages_per_block,
            logical,
            data: vec![NONE; lbns as usize],
            data_blocks: 0,
            log_loc: vec![NONE; logical as usize],
            log_len: 0,
            pool: BlockPool::new(d.blocks, 0, 0, units).with_gc(ctx.gc),
            is_log: vec![false; d.blocks as usize],
            next_unit: 0,
            in_order,
        })
    }

    /// Whether data blocks are programmed in page order ([`Self::in_order`]).
    pub fn programs_in_order(&self) -> bool {
        self.in_order
    }

    /// Pages per block.
    pub fn ppb(&self) -> u32 {
        self.ppb
    }

    /// Logical blocks.
    pub fn lbns(&self) -> u32 {
        self.data.len() as u32
    }

    /// Physical blocks beyond the logical ones (the explicit over-provisioning).
    pub fn spare_blocks(&self, dev: &Device) -> u32 {
        dev.flash().blocks() - self.lbns()
    }

    /// Logical block and offset of `lpn`.
    pub fn split(&self, lpn: u32) -> (u32, u32) {
        (lpn / self.ppb, lpn % self.ppb)
    }

    /// A request's first step: reading `lpn`'s block-map entry (one block number in RAM,
    /// charged). Its logical block and offset.
    pub fn look_up(&self, dev: &mut Device, lpn: u32) -> (u32, u32) {
        let (lbn, off) = self.split(lpn);
        dev.meta_read(MetaKind::BlockMap, lbn, BLOCK_ENTRY_BYTES as u32);
        (lbn, off)
    }

    /// The data block of `lbn`.
    pub fn data_block(&self, lbn: u32) -> Option<BlockId> {
        let b = self.data[lbn as usize];
        (b != NONE).then_some(b)
    }

    /// Logical blocks that have a data block.
    pub fn data_blocks(&self) -> usize {
        self.data_blocks
    }

    /// Free blocks.
    pub fn free_len(&self) -> usize {
        self.pool.free_len()
    }

    /// Where a log block holds `lpn`'s newest copy.
    pub fn log_copy(&self, lpn: u32) -> Option<Ppn> {
        let p = *self.log_loc.get(lpn as usize)?;
        (p != NONE).then_some(p)
    }

    /// Pages held in log blocks.
    pub fn log_pages(&self) -> usize {
        self.log_len
    }

    /// Records `lpn`'s newest copy at `ppn` in a log block.
    fn set_log_copy(&mut self, lpn: u32, ppn: Ppn) {
        let slot = &mut self.log_loc[lpn as usize];
        self.log_len += usize::from(*slot == NONE);
        *slot = ppn;
    }

    /// Forgets `lpn`'s copy in a log block, returning where it was.
    fn take_log_copy(&mut self, lpn: u32) -> Option<Ppn> {
        let slot = self.log_loc.get_mut(lpn as usize)?;
        let p = std::mem::replace(slot, NONE);
        (p != NONE).then(|| {
            self.log_len -= 1;
            p
        })
    }

    /// The log-page table's entries (LPN, PPN), by LPN.
    fn log_entries(&self) -> impl Iterator<Item = (u32, Ppn)> + '_ {
        self.log_loc.iter().enumerate().filter(|(_, &p)| p != NONE).map(|(l, &p)| (l as u32, p))
    }

    /// The page at `lpn`'s offset in its data block (whatever its state).
    pub fn data_slot(&self, dev: &Device, lpn: u32) -> Option<Ppn> {
        let (lbn, off) = self.split(lpn);
        self.data_block(lbn).map(|b| dev.flash().first_ppn(b) + off)
    }

    /// `lpn`'s newest copy: in a log block, else its data block's page when valid.
    pub fn locate(&self, dev: &Device, lpn: u32) -> Option<Ppn> {
        if let Some(p) = self.log_copy(lpn) {
            return Some(p);
        }
        let p = self.data_slot(dev, lpn)?;
        (dev.flash().state(p) == PageState::Valid && dev.flash().tag(p).key == lpn).then_some(p)
    }

    /// A host read of `lpn`'s newest copy; `None` when it has none.
    pub fn read(&self, dev: &mut Device, lpn: u32) -> Result<Option<PageTag>> {
        match self.locate(dev, lpn) {
            Some(p) => Ok(Some(dev.read(p, Purpose::Data)?)),
            None => Ok(None),
        }
    }

    /// Takes a free block (units in turn).
    pub fn take(&mut self, dev: &mut Device) -> Result<BlockId> {
        let unit = self.next_unit;
        self.next_unit = (unit + 1) % self.pool.units();
        self.pool.take(unit, dev)
    }

    /// Takes a free block to serve as a log (or replacement) block.
    pub fn take_log(&mut self, dev: &mut Device) -> Result<BlockId> {
        let b = self.take(dev)?;
        self.is_log[b as usize] = true;
        Ok(b)
    }

    /// Whether `block` serves as a log (or replacement) block.
    pub fn is_log(&self, block: BlockId) -> bool {
        self.is_log[block as usize]
    }

    /// Checks that exactly `blocks` are marked as log blocks.
    pub fn check_logs<'a>(&self, blocks: impl Iterator<Item = &'a BlockId>) -> Result<()> {
        let mut n = 0;
        for &b in blocks {
            n += 1;
            if !self.is_log[b as usize] {
                return Err(EngineError::Invariant(format!("log block {b} is not marked as one")));
            }
        }
        let marked = self.is_log.iter().filter(|&&l| l).count();
        if marked != n {
            return Err(EngineError::Invariant(format!("{marked} blocks marked as log blocks, {n} in use")));
        }
        Ok(())
    }

    /// Erases `block` if it was written (it must hold no valid page) and frees it.
    pub fn free(&mut self, dev: &mut Device, block: BlockId, purpose: Purpose) -> Result<()> {
        if dev.flash().valid_count(block) > 0 {
            return Err(EngineError::Invariant(format!(
                "block {block} would be erased with {} valid pages",
                dev.flash().valid_count(block)
            )));
        }
        if dev.flash().programmed_count(block) > 0 {
            dev.erase(block, purpose)?;
        }
        self.is_log[block as usize] = false;
        self.pool.release(block);
        Ok(())
    }

    /// Gives `lbn` a fresh data block (it has none).
    pub fn new_data_block(&mut self, dev: &mut Device, lbn: u32) -> Result<BlockId> {
        let b = self.take(dev)?;
        self.data[lbn as usize] = b;
        self.data_blocks += 1;
        // The map entry changes: charged like any map update (a metadata placement model sees it).
        dev.meta_write(MetaKind::BlockMap, lbn, BLOCK_ENTRY_BYTES as u32);
        Ok(b)
    }

    /// Invalidates `lpn`'s current copy (if any) and forgets it in the log table.
    pub fn drop_copy(&mut self, dev: &mut Device, lpn: u32) -> Result<()> {
        if let Some(p) = self.locate(dev, lpn) {
            dev.invalidate(p)?;
        }
        self.take_log_copy(lpn);
        Ok(())
    }

    /// Writes `lpn` into its data block's page when that page is still erased (allocating
    /// the data block when the logical block has none). `Ok(false)`: the page was written
    /// before, so the write must go elsewhere. The caller makes sure a free block exists.
    pub fn write_in_place(&mut self, dev: &mut Device, lpn: u32, version: u32) -> Result<bool> {
        let (lbn, off) = self.split(lpn);
        let block = match self.data_block(lbn) {
            Some(b) => b,
            None => self.new_data_block(dev, lbn)?,
        };
        let ppn = dev.flash().first_ppn(block) + off;
        if dev.flash().state(ppn) != PageState::Free
            || (self.in_order && dev.flash().programmed_count(block) != off)
        {
            return Ok(false);
        }
        self.program_replacing(dev, lpn, version, ppn, Purpose::Data)?;
        Ok(true)
    }

    /// Programs `lpn` at `ppn`, then invalidates its old copy and forgets it in the log
    /// table: the new copy first, as every scheme tells it ("write …; the old copy … is now
    /// invalid"), so the narration pairs a write with the copy it supersedes.
    fn program_replacing(
        &mut self,
        dev: &mut Device,
        lpn: u32,
        version: u32,
        ppn: Ppn,
        purpose: Purpose,
    ) -> Result<()> {
        let old = self.locate(dev, lpn);
        dev.program(ppn, PageTag::data(lpn, version), purpose)?;
        if let Some(p) = old {
            dev.invalidate(p)?;
        }
        self.take_log_copy(lpn);
        Ok(())
    }

    /// Programs `lpn` into page `index` of log block `log` (host write), invalidating its
    /// old copy.
    pub fn write_log(
        &mut self,
        dev: &mut Device,
        lpn: u32,
        version: u32,
        log: BlockId,
        index: u32,
    ) -> Result<Ppn> {
        let ppn = dev.flash().first_ppn(log) + index;
        self.program_replacing(dev, lpn, version, ppn, Purpose::Log)?;
        self.set_log_copy(lpn, ppn);
        Ok(ppn)
    }

    /// Copies the newest copy of each page of `lbn` at offsets `from..P` into `target` at
    /// its offset, invalidating the source; returns the pages copied.
    fn gather(
        &mut self,
        dev: &mut Device,
        lbn: u32,
        from: u32,
        target: BlockId,
        purpose: Purpose,
    ) -> Result<u32> {
        let mut copies = 0;
        // In-order placement: the first offset not yet programmed in `target`.
        let mut next = from;
        // `locate` with the data block looked up once: the block map does not change here.
        let data = self.data_block(lbn).map(|b| dev.flash().first_ppn(b));
        for off in from..self.ppb {
            let lpn = lbn * self.ppb + off;
            if lpn >= self.logical {
                break;
            }
            let in_data = || {
                let p = data? + off;
                let flash = dev.flash();
                (flash.state(p) == PageState::Valid && flash.tag(p).key == lpn).then_some(p)
            };
            let Some(src) = self.log_copy(lpn).or_else(in_data) else { continue };
            if self.in_order {
                self.pad(dev, lbn, next..off, target, purpose)?;
                next = off + 1;
            }
            let tag = dev.read(src, purpose)?;
            dev.invalidate(src)?;
            dev.program(dev.flash().first_ppn(target) + off, tag, purpose)?;
            self.take_log_copy(lpn);
            dev.gc_copied();
            copies += 1;
        }
        Ok(copies)
    }

    /// Programs the offsets `offs` of `target` with padding (nothing to keep there, the
    /// page is invalid at once) so that the next offset can be programmed in order. The tag
    /// names the offset's logical page at version 0, which no write has.
    fn pad(
        &mut self,
        dev: &mut Device,
        lbn: u32,
        offs: std::ops::Range<u32>,
        target: BlockId,
        purpose: Purpose,
    ) -> Result<()> {
        for off in offs {
            let ppn = dev.flash().first_ppn(target) + off;
            dev.program(ppn, PageTag::data(lbn * self.ppb + off, 0), purpose)?;
            dev.invalidate(ppn)?;
            dev.stats.log.padding_pages += 1;
        }
        Ok(())
    }

    /// Records that `lpn`'s newest copy is `ppn` in a log block (for a scheme that keeps no
    /// page table and found it by scanning, before a merge gathers it).
    pub fn adopt_log_copy(&mut self, lpn: u32, ppn: Ppn) {
        self.set_log_copy(lpn, ppn);
    }

    /// Block mapping's update of several pages of logical block `lbn` at once (one request's
    /// pages, seed 004 §2): the new pages (`(lpn, version)`, all of `lbn`) and the block's
    /// other valid pages go into one fresh block at their offsets, the old data block is
    /// erased. Returns the pages copied.
    pub fn rewrite_block_with(&mut self, dev: &mut Device, lbn: u32, pages: &[(u32, u32)]) -> Result<u32> {
        let target = self.take(dev)?;
        let first = dev.flash().first_ppn(target);
        for &(lpn, version) in pages {
            let (of, off) = self.split(lpn);
            debug_assert_eq!(of, lbn, "a rewrite takes pages of one logical block");
            self.program_replacing(dev, lpn, version, first + off, Purpose::Data)?;
        }
        let copies = self.gather(dev, lbn, 0, target, Purpose::Gc)?;
        self.replace_data(dev, lbn, target, Purpose::Gc)?;
        Ok(copies)
    }

    /// Full merge of `lbn`: its newest pages into a fresh block, the old data block erased.
    /// Log blocks that held its pages are the caller's to erase. Returns the pages copied.
    pub fn full_merge(&mut self, dev: &mut Device, lbn: u32, purpose: Purpose) -> Result<u32> {
        let target = self.take(dev)?;
        let copies = self.gather(dev, lbn, 0, target, purpose)?;
        self.replace_data(dev, lbn, target, purpose)?;
        Ok(copies)
    }

    /// Partial merge (a switch when `written == P`): log block `log`, written in order at
    /// offsets `0..written` with pages of `lbn`, gets the rest of the block's newest pages
    /// and becomes its data block; the old data block is erased. Returns the pages copied.
    pub fn complete_in_order(
        &mut self,
        dev: &mut Device,
        lbn: u32,
        log: BlockId,
        written: u32,
    ) -> Result<u32> {
        let first = dev.flash().first_ppn(log);
        for off in 0..written {
            let lpn = lbn * self.ppb + off;
            if self.log_copy(lpn) == Some(first + off) {
                self.take_log_copy(lpn);
            }
        }
        let copies = self.gather(dev, lbn, written, log, Purpose::Merge)?;
        self.replace_data(dev, lbn, log, Purpose::Merge)?;
        Ok(copies)
    }

    /// `block` (or nothing, when it holds nothing valid) becomes `lbn`'s data block; the old
    /// one is erased.
    fn replace_data(&mut self, dev: &mut Device, lbn: u32, block: BlockId, purpose: Purpose) -> Result<()> {
        let old = self.data[lbn as usize];
        if old != NONE {
            self.data_blocks -= 1;
            self.data[lbn as usize] = NONE;
            self.free(dev, old, purpose)?;
        }
        if dev.flash().valid_count(block) == 0 {
            self.free(dev, block, purpose)?;
        } else {
            self.data[lbn as usize] = block;
            self.data_blocks += 1;
            self.is_log[block as usize] = false;
        }
        // The map entry changed (to the new block, or to none).
        dev.meta_write(MetaKind::BlockMap, lbn, BLOCK_ENTRY_BYTES as u32);
        Ok(())
    }

    /// Whether `block` is some logical block's data block.
    pub fn is_data(&self, dev: &Device, block: BlockId) -> bool {
        let first = dev.flash().first_ppn(block);
        (0..self.ppb).map(|o| dev.flash().tag(first + o)).find(|t| t.kind == PageKind::Data).is_some_and(
            |t| {
                let lbn = t.key / self.ppb;
                (lbn as usize) < self.data.len() && self.data[lbn as usize] == block
            },
        )
    }

    /// What `block` does, for the block under the viewer's pointer: the data block of its
    /// logical block, or a log block with the logical blocks whose valid pages it holds
    /// (`data`, `log`: what the scheme calls them); `None` when free.
    pub fn duty(&self, dev: &Device, block: BlockId, data: &str, log: &str) -> Option<BlockDuty> {
        if self.is_log(block) {
            let first = dev.flash().first_ppn(block);
            let mut lbns: Vec<u32> = (first..first + dev.flash().programmed_count(block))
                .filter(|&p| {
                    dev.flash().state(p) == PageState::Valid && dev.flash().tag(p).kind == PageKind::Data
                })
                .map(|p| dev.flash().tag(p).key / self.ppb)
                .collect();
            lbns.sort_unstable();
            lbns.dedup();
            let (lbn, role) = match lbns.as_slice() {
                [one] => (Some(*one), format!("{log} block")),
                [] => (None, format!("{log} block, no valid page")),
                many => {
                    let list: Vec<String> = many.iter().map(u32::to_string).collect();
                    (None, format!("{log} block holding pages of logical blocks {}", list.join(", ")))
                }
            };
            return Some(BlockDuty { block, lbn, role, gc: None });
        }
        let first = dev.flash().first_ppn(block);
        let tag = (0..self.ppb).map(|o| dev.flash().tag(first + o)).find(|t| t.kind == PageKind::Data)?;
        let lbn = tag.key / self.ppb;
        (self.data.get(lbn as usize) == Some(&block)).then(|| BlockDuty {
            block,
            lbn: Some(lbn),
            role: format!("{data} block"),
            gc: None,
        })
    }

    /// The role the grid shows for `block`: `log` (what the scheme calls its log blocks) for
    /// one taken as a log block, `data` (what it calls its data blocks) for a data block,
    /// else `Free`.
    pub fn role(&self, dev: &Device, block: BlockId, data: BlockRole, log: BlockRole) -> BlockRole {
        if self.is_log(block) {
            log
        } else if self.is_data(dev, block) {
            data
        } else {
            BlockRole::Free
        }
    }

    /// The map as the mapping reconstruction check reads it: the data blocks' valid pages
    /// from their spare areas (the block map says which blocks), then the log-page table.
    pub fn map_view(&self) -> MapView<'static> {
        MapView::in_blocks(
            self.data.iter().copied().filter(|&b| b != NONE).collect(),
            self.log_entries().map(|(l, p)| (l, p, true)).collect(),
        )
    }

    /// The block map as a table (LBN → data block), summarised around `query`'s pages.
    pub fn block_table(&self, query: &InspectQuery) -> Structure {
        let touched = query.touched.iter().map(|&l| l / self.ppb);
        let (keys, truncated) = indexed_keys(self.data.len(), query.limit, touched);
        let rows =
            keys.into_iter().map(|k| Row { key: k, value: self.data_block(k), in_ram: true }).collect();
        Structure::Table {
            id: "block-map".into(),
            name: "Block map (LBN → data block)".into(),
            len: self.data.len() as u64,
            rows,
            truncated,
        }
    }

    /// The log-page table (LPN → page in a log block) as a table, by LPN: the first
    /// `query.limit` entries plus the current request's pages.
    pub fn log_table(&self, id: &str, name: &str, query: &InspectQuery) -> Structure {
        let keys = self.log_entries().map(|(l, _)| l);
        let (keys, truncated) = crate::inspect::summarise(keys, query.limit, |&l| query.touches(l));
        let rows = keys.into_iter().map(|l| Row { key: l, value: self.log_copy(l), in_ram: true }).collect();
        Structure::Table { id: id.into(), name: name.into(), len: self.log_len as u64, rows, truncated }
    }

    /// RAM of the block map and the log-page table.
    pub fn ram_bytes(&self) -> u64 {
        self.data.len() as u64 * BLOCK_ENTRY_BYTES + self.log_len as u64 * LOG_ENTRY_BYTES
    }

    /// Checks the block map, the log-page table and the free list against flash.
    pub fn check(&self, dev: &Device) -> Result<()> {
        let bad = |m: String| Err(EngineError::Invariant(m));
        let flash = dev.flash();
        for (lbn, &b) in self.data.iter().enumerate() {
            if b == NONE {
                continue;
            }
            let first = flash.first_ppn(b);
            for off in 0..self.ppb {
                let tag = flash.tag(first + off);
                if flash.state(first + off) == PageState::Valid && tag.key != lbn as u32 * self.ppb + off {
                    return bad(format!("data block {b} of LBN {lbn} holds LPN {} at offset {off}", tag.key));
                }
            }
        }
        let mut is_data = vec![false; flash.blocks() as usize];
        for &b in self.data.iter().filter(|&&b| b != NONE) {
            is_data[b as usize] = true;
        }
        for (lpn, ppn) in self.log_entries() {
            if flash.state(ppn) != PageState::Valid || flash.tag(ppn).key != lpn {
                return bad(format!(
                    "log table: LPN {lpn} → PPN {ppn}, which is {:?} {:?}",
                    flash.state(ppn),
                    flash.tag(ppn)
                ));
            }
            if is_data[flash.block_of(ppn) as usize] {
                return bad(format!("log table: LPN {lpn} → PPN {ppn}, in a data block"));
            }
        }
        if self.data.iter().filter(|&&b| b != NONE).count() != self.data_blocks {
            return bad("block map: data-block count out of step".into());
        }
        self.pool.check(dev).map_err(EngineError::Invariant)
    }

    /// Feeds the block map, the log table (sorted) and the free list into a hash.
    pub fn hash_into(&self, h: &mut StateHasher) {
        h.u32s(&self.data);
        for (l, p) in self.log_entries() {
            h.u32(l);
            h.u32(p);
        }
        self.pool.hash_into(h);
        h.u32(self.next_unit as u32);
    }
}
