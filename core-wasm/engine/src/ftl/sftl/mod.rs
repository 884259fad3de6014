//! `sftl`: the superblock FTL (Kang et al.), as the thesis characterises it (seed 002, Ch.3
//! §3.4; notes §2.9): adjacent logical blocks form a superblock that shares its physical
//! blocks, mapped page by page inside the superblock with the map kept in spare areas (two
//! OOB reads per lookup). Ch.3's configuration: superblocks of 4 data blocks and 2 log
//! blocks, 256 log blocks in all; GC (a merge of the superblock) when both log blocks or all
//! four data blocks are full.
//!
#![doc = include_str!("notes.md")]

use std::collections::VecDeque;

use serde::{Deserialize, Serialize};
use serde_json::json;

use super::{BlockPool, BlockRole, BuildCtx, Ftl, OpenBlocks, OptionsSpec, SchemeInfo, SchemeSpec};
use crate::device::Device;
use crate::error::{EngineError, Result};
use crate::events::Purpose;
use crate::flash::{BlockId, PageState, PageTag, Ppn};
use crate::hash::StateHasher;
use crate::inspect::{indexed_keys, Budget, InspectQuery, Inspection, Row, Structure};
use crate::meta::MetaKind;
use crate::vocab::StopAt;

/// The scheme's registry entry.
pub static SPEC: SchemeSpec = SchemeSpec {
    info: SchemeInfo {
        id: "sftl",
        name: "SFTL (superblocks of 4 data + 2 log blocks)",
        family: "hybrid",
        source: "thesis (seed 002) Ch.3 §3.4 (Kang et al.); notes §2.9",
    },
    notes: include_str!("notes.md"),
    stops: &[StopAt::Gc],
    caches: &[],
    options: OptionsSpec::of::<SftlOptions>(),
    open_blocks: OpenBlocks::ONE_PER_UNIT,
    variants: || vec![("SFTL", json!({}))],
    build: |ctx, options| {
        let o: SftlOptions = super::parse_options("sftl", options)?;
        Ok(Box::new(Sftl::new(ctx, &o)?))
    },
};

/// SFTL's options.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct SftlOptions {
    /// Logical (and data) blocks per superblock.
    #[schemars(extend("x-units" = "blocks"))]
    pub data_blocks: u32,
    /// Log blocks a superblock may hold.
    #[schemars(extend("x-units" = "blocks"))]
    pub log_blocks_per_superblock: u32,
    /// Log blocks in all superblocks together (the thesis: 256).
    #[schemars(extend("x-units" = "blocks"))]
    pub log_blocks: u32,
}

impl Default for SftlOptions {
    fn default() -> Self {
        SftlOptions { data_blocks: 4, log_blocks_per_superblock: 2, log_blocks: 256 }
    }
}

/// RAM per superblock: its block numbers' directory (the thesis' 62 KB for 8,192
/// superblocks is about 8 bytes each).
const SUPERBLOCK_BYTES: u64 = 8;
const NONE: Ppn = u32::MAX;

/// One superblock's blocks.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct Superblock {
    data: Vec<BlockId>,
    logs: Vec<BlockId>,
}

/// SFTL state.
#[derive(Debug, Clone)]
pub struct Sftl {
    ppb: u32,
    o: SftlOptions,
    sbs: Vec<Superblock>,
    /// Where each logical page is: the page map the superblocks keep in their spare areas
    /// (read with two OOB reads per lookup; this copy is the simulator's bookkeeping).
    loc: Vec<Ppn>,
    /// Superblocks holding log blocks, oldest log first (the next merge victim).
    log_order: VecDeque<u32>,
    logs_in_use: u32,
    /// Newest page programmed per superblock (holds the newest copy of its map's top level).
    newest: Vec<Ppn>,
    pool: BlockPool,
    owner: Vec<u32>,
}

impl Sftl {
    /// An SFTL over an erased device.
    pub fn new(ctx: &BuildCtx, o: &SftlOptions) -> Result<Self> {
        let d = ctx.device;
        let ppb = d.pages_per_block;
        let logical = d.logical_pages() as u32;
        if o.data_blocks == 0 || o.log_blocks_per_superblock == 0 || o.log_blocks == 0 {
            return Err(EngineError::Config("scheme 'sftl': options.data_blocks, options.log_blocks_per_superblock and options.log_blocks must be at least 1".into()));
        }
        let sbs = logical.div_ceil(ppb * o.data_blocks);
        let lbns = logical.div_ceil(ppb);
        // The data blocks, one superblock's log blocks, and a merge's fresh blocks.
        let need = lbns + o.log_blocks_per_superblock + o.data_blocks;
        if d.blocks < need {
            return Err(EngineError::Config(format!(
                "scheme 'sftl' needs a block for each of the {lbns} logical blocks, {} log blocks and {} blocks to merge into, {need} in all, but the device has {} blocks; raise device.over_provisioning or device.blocks",
                o.log_blocks_per_superblock, o.data_blocks, d.blocks
            )));
        }
        Ok(Sftl {
            ppb,
            o: o.clone(),
            sbs: vec![Superblock::default(); sbs as usize],
            loc: vec![NONE; logical as usize],
            log_order: VecDeque::new(),
            logs_in_use: 0,
            newest: vec![NONE; sbs as usize],
            pool: BlockPool::new(d.blocks, 0, 0, d.units() as usize).with_gc(ctx.gc),
            owner: vec![u32::MAX; d.blocks as usize],
        })
    }

    fn sb_of(&self, lpn: u32) -> u32 {
        lpn / (self.ppb * self.o.data_blocks)
    }

    fn room(&self, dev: &Device, b: Option<&BlockId>) -> bool {
        b.is_some_and(|&b| dev.flash().programmed_count(b) < self.ppb)
    }

    fn take(&mut self, sb: u32, dev: &mut Device) -> Result<BlockId> {
        let unit = (0..self.pool.units()).find(|&u| self.pool.free_on(u) > 0).unwrap_or(0);
        let b = self.pool.take(unit, dev)?;
        self.owner[b as usize] = sb;
        Ok(b)
    }

    /// The map lookup: the spare area of the superblock's newest page (the top of its map)
    /// and of the page the map leads to.
    fn look_up(&self, dev: &mut Device, lpn: u32) -> Result<Option<Ppn>> {
        let sb = self.sb_of(lpn) as usize;
        if self.newest[sb] != NONE {
            dev.read_oob(self.newest[sb], Purpose::Data)?;
        }
        let p = self.loc[lpn as usize];
        if p == NONE {
            return Ok(None);
        }
        dev.read_oob(p, Purpose::Data)?;
        Ok(Some(p))
    }

    /// Keeps free blocks for a merge's fresh blocks beyond what is about to be taken.
    fn make_room(&mut self, sb: u32, dev: &mut Device) -> Result<bool> {
        while self.pool.free_len() <= self.o.data_blocks as usize {
            // The superblock with the oldest log block; without any (trims left invalid pages
            // in data blocks), the one with the most data blocks holding an invalid page.
            let stale = |s: &Superblock| {
                s.data.iter().any(|&b| dev.flash().valid_count(b) < dev.flash().programmed_count(b))
            };
            let fallback = (0..self.sbs.len() as u32)
                .filter(|&i| stale(&self.sbs[i as usize]))
                .max_by_key(|&i| (self.sbs[i as usize].data.len(), std::cmp::Reverse(i)));
            let Some(victim) = self.log_order.front().copied().or(fallback) else {
                return Err(EngineError::DeviceFull(
                    "sftl: no free block and no superblock with log blocks to merge".into(),
                ));
            };
            self.merge(victim, dev)?;
            if victim == sb {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Merges superblock `sb`: its valid pages are copied, compacted, into fresh data
    /// blocks; its old data and log blocks are erased.
    fn merge(&mut self, sb: u32, dev: &mut Device) -> Result<()> {
        let old = std::mem::take(&mut self.sbs[sb as usize]);
        let first_block = *old.data.first().or(old.logs.first()).expect("a merged superblock holds blocks");
        dev.gc_start(first_block);
        let mut fresh: Vec<BlockId> = Vec::new();
        for &b in old.data.iter().chain(&old.logs) {
            let first = dev.flash().first_ppn(b);
            for p in first..first + dev.flash().programmed_count(b) {
                if dev.flash().state(p) != PageState::Valid {
                    continue;
                }
                if !self.room(dev, fresh.last()) {
                    let nb = self.take(sb, dev)?;
                    fresh.push(nb);
                }
                let dest = *fresh.last().expect("room");
                let to = dev.flash().first_ppn(dest) + dev.flash().programmed_count(dest);
                let tag = dev.read(p, Purpose::Gc)?;
                dev.program(to, tag, Purpose::Gc)?;
                dev.invalidate(p)?;
                dev.gc_copied();
                self.loc[tag.key as usize] = to;
                self.newest[sb as usize] = to;
            }
        }
        for &b in old.data.iter().chain(&old.logs) {
            dev.erase(b, Purpose::Gc)?;
            self.owner[b as usize] = u32::MAX;
            self.pool.release(b);
        }
        if fresh.is_empty() {
            self.newest[sb as usize] = NONE;
        }
        self.logs_in_use -= old.logs.len() as u32;
        self.log_order.retain(|&s| s != sb);
        dev.gc_end(first_block);
        self.sbs[sb as usize] = Superblock { data: fresh, logs: Vec::new() };
        Ok(())
    }

    /// The page the next write of `lpn` goes to: the superblock's data blocks for a first
    /// write, its log blocks for an update, merging first when they are full.
    fn place(&mut self, lpn: u32, dev: &mut Device) -> Result<(Ppn, Purpose)> {
        let sb = self.sb_of(lpn);
        loop {
            let s = self.sbs[sb as usize].clone();
            let update = self.loc[lpn as usize] != NONE;
            let (list, max) = if update {
                (&s.logs, self.o.log_blocks_per_superblock)
            } else {
                (&s.data, self.o.data_blocks)
            };
            if self.room(dev, list.last()) {
                let b = *list.last().expect("room");
                let purpose = if update { Purpose::Log } else { Purpose::Data };
                return Ok((dev.flash().first_ppn(b) + dev.flash().programmed_count(b), purpose));
            }
            if list.len() as u32 >= max {
                // "Once the two log blocks are full or the four data blocks are full".
                self.merge(sb, dev)?;
                continue;
            }
            if update && self.logs_in_use >= self.o.log_blocks {
                let victim = *self.log_order.front().expect("logs in use");
                self.merge(victim, dev)?;
                continue;
            }
            if !self.make_room(sb, dev)? {
                continue;
            }
            let b = self.take(sb, dev)?;
            if update {
                self.sbs[sb as usize].logs.push(b);
                self.logs_in_use += 1;
                if !self.log_order.contains(&sb) {
                    self.log_order.push_back(sb);
                }
                dev.log_blocks_in_use(u64::from(self.logs_in_use));
            } else {
                self.sbs[sb as usize].data.push(b);
            }
        }
    }
}

impl Ftl for Sftl {
    fn read(&mut self, lpn: u32, dev: &mut Device) -> Result<Option<PageTag>> {
        dev.meta_read(MetaKind::BlockMap, self.sb_of(lpn), SUPERBLOCK_BYTES as u32);
        match self.look_up(dev, lpn)? {
            Some(p) => Ok(Some(dev.read(p, Purpose::Data)?)),
            None => Ok(None),
        }
    }

    fn write(&mut self, lpn: u32, version: u32, dev: &mut Device) -> Result<()> {
        let sb = self.sb_of(lpn);
        dev.meta_read(MetaKind::BlockMap, sb, SUPERBLOCK_BYTES as u32);
        self.look_up(dev, lpn)?;
        let (ppn, purpose) = self.place(lpn, dev)?;
        dev.program(ppn, PageTag::data(lpn, version), purpose)?;
        let old = std::mem::replace(&mut self.loc[lpn as usize], ppn);
        if old != NONE {
            dev.invalidate(old)?;
        }
        self.newest[sb as usize] = ppn;
        Ok(())
    }

    fn trim(&mut self, lpn: u32, dev: &mut Device) -> Result<()> {
        let old = std::mem::replace(&mut self.loc[lpn as usize], NONE);
        if old != NONE {
            dev.invalidate(old)?;
        }
        Ok(())
    }

    fn ram_bytes(&self) -> u64 {
        self.sbs.len() as u64 * SUPERBLOCK_BYTES
    }

    fn block_role(&self, block: BlockId, _dev: &Device) -> BlockRole {
        let sb = self.owner[block as usize];
        match self.sbs.get(sb as usize) {
            None => BlockRole::Free,
            Some(s) if s.logs.contains(&block) => BlockRole::Log,
            Some(_) => BlockRole::Data,
        }
    }

    fn map_view(&self) -> Option<crate::ftl::MapView<'_>> {
        let blocks = self.sbs.iter().flat_map(|s| s.data.iter().chain(&s.logs)).copied().collect();
        Some(crate::ftl::MapView::in_blocks(blocks, Vec::new()))
    }

    fn inspect(&self, query: &InspectQuery) -> Inspection {
        let per = self.ppb * self.o.data_blocks;
        let (keys, truncated) =
            indexed_keys(self.sbs.len(), query.limit, query.touched.iter().map(|&l| l / per));
        let table = |id: &str, name: &str, f: fn(&Superblock) -> usize| Structure::Table {
            id: id.into(),
            name: name.into(),
            len: self.sbs.len() as u64,
            rows: keys
                .iter()
                .map(|&k| Row { key: k, value: Some(f(&self.sbs[k as usize]) as u32), in_ram: true })
                .collect(),
            truncated,
        };
        Inspection {
            ram_used: self.ram_bytes(),
            budgets: vec![Budget { name: "Superblock directory".into(), bytes: self.ram_bytes() }],
            structures: vec![
                table("data-blocks", "Superblock → data blocks", |s| s.data.len()),
                table("log-blocks", "Superblock → log blocks", |s| s.logs.len()),
            ],
            ..Inspection::default()
        }
    }

    fn check(&self, dev: &Device) -> Result<()> {
        self.pool.check(dev).map_err(|e| EngineError::Invariant(format!("sftl: {e}")))?;
        for (lpn, &p) in self.loc.iter().enumerate() {
            if p != NONE && (dev.flash().state(p) != PageState::Valid || dev.flash().tag(p).key != lpn as u32)
            {
                return Err(EngineError::Invariant(format!(
                    "sftl: LPN {lpn} → PPN {p}, which holds {:?}",
                    dev.flash().tag(p)
                )));
            }
        }
        let logs: usize = self.sbs.iter().map(|s| s.logs.len()).sum();
        if logs as u32 != self.logs_in_use || self.logs_in_use > self.o.log_blocks {
            return Err(EngineError::Invariant(format!(
                "sftl: {logs} log blocks held, {} counted",
                self.logs_in_use
            )));
        }
        for (i, s) in self.sbs.iter().enumerate() {
            if s.data.len() as u32 > self.o.data_blocks
                || s.logs.len() as u32 > self.o.log_blocks_per_superblock
            {
                return Err(EngineError::Invariant(format!("sftl: superblock {i} holds {s:?}")));
            }
        }
        Ok(())
    }

    fn hash_into(&self, h: &mut StateHasher) {
        for s in &self.sbs {
            h.u32(s.data.len() as u32);
            h.u32s(&s.data);
            h.u32(s.logs.len() as u32);
            h.u32s(&s.logs);
        }
        h.u32s(&self.loc);
        h.u32s(&self.newest);
        for &s in &self.log_order {
            h.u32(s);
        }
        self.pool.hash_into(h);
    }

    fn clone_box(&self) -> Box<dyn Ftl> {
        Box::new(self.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::flash::FlashArray;
    use crate::presets;

    const US: u64 = 1_000;

    /// The thesis' MLC timings on 24 blocks of 4 pages (64 logical pages: 4 superblocks of
    /// 4 logical blocks).
    fn setup() -> (Sftl, Device) {
        let mut c = presets::config("thesis-mnftl").unwrap();
        (c.device.blocks, c.device.pages_per_block, c.device.over_provisioning) = (24, 4, 1.0 / 3.0);
        let ftl = Sftl::new(&BuildCtx::of(&c), &SftlOptions::default()).unwrap();
        let d = &c.device;
        (ftl, Device::new(FlashArray::new(d.blocks, d.pages_per_block, d.cell), d.latency.clone(), true))
    }

    /// A read costs the RAM directory access + two OOB reads + the page (5 + 2·20 + 60 µs);
    /// updates go to the superblock's log blocks, and when both are full the next update
    /// merges the superblock: its 16 valid pages compacted into 4 fresh data blocks.
    #[test]
    fn two_oob_reads_per_lookup_and_a_merge_when_both_log_blocks_are_full() {
        let (mut ftl, mut dev) = setup();
        let mut v = 0;
        for lpn in 0..16 {
            v += 1;
            ftl.write(lpn, v, &mut dev).unwrap();
        }
        assert_eq!((ftl.sbs[0].data.len(), ftl.sbs[0].logs.len()), (4, 0));
        dev.cost = Default::default();
        assert_eq!(ftl.read(5, &mut dev).unwrap(), Some(PageTag::data(5, 6)));
        assert_eq!(dev.cost.total_ns(), (5 + 2 * 20 + 60) * US);
        for lpn in [1, 2, 3, 1, 2, 3, 1, 2] {
            v += 1;
            ftl.write(lpn, v, &mut dev).unwrap();
        }
        assert_eq!((ftl.sbs[0].logs.len(), dev.stats.gc_runs), (2, 0), "both log blocks full, no GC yet");
        v += 1;
        ftl.write(0, v, &mut dev).unwrap();
        assert_eq!(dev.stats.gc_runs, 1);
        assert_eq!(dev.stats.gc_valid_copies, 16, "every page of the superblock was valid");
        assert_eq!(
            (ftl.sbs[0].data.len(), ftl.sbs[0].logs.len()),
            (4, 1),
            "compacted, then the update logged"
        );
        ftl.check(&dev).unwrap();
        for (lpn, want) in [(0, 25), (1, 23), (2, 24), (3, 22), (15, 16)] {
            assert_eq!(ftl.read(lpn, &mut dev).unwrap(), Some(PageTag::data(lpn, want)));
        }
    }
}
