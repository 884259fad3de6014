//! `dac`: DAC, demand-based block-level address mapping with two-level caches (Qin's thesis,
//! seed 002 Ch. 2; notes §2.5). Data blocks are mapped per logical block as in NFTL (a
//! primary block taking first writes at their offset, a replacement block taking updates in
//! order); the block-level map `<DVBA, DPPBA, DRPBA>` lives on flash in translation pages,
//! themselves mapped page by page through the TPMT, which is always in RAM (TPPA, LOCA,
//! FREQ). Two cache levels sit in front of flash:
//! - level one, the **DBMTC**: single block-level entries, hashed, LRU with the cost-aware
//!   victim rule (a dirty victim only when its translation page is cached in level two, into
//!   which it is kicked: level one never writes flash);
//! - level two, whole translation pages: the **TPRLC** (recency, LRU) and the **TPAFC**
//!   (frequency, LFU on the TPMT's FREQ).
//!
//! `levels.rs` holds Algorithms 2.3.1–2.3.3 (translation, fetch-in, kick-out), `data.rs` the
//! NFTL-style data blocks, merges and the greedy GC over one shared free pool.
//!
#![doc = include_str!("notes.md")]

mod data;
mod inspect;
mod levels;

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::blockmap::{BlockMap, NONE};
use super::logblock::{self, LogBlock};
use super::{BlockRole, BuildCtx, Ftl, OpenBlocks, OptionsSpec, SchemeInfo, SchemeSpec};
use crate::bits::Bits;
use crate::cache::Lru;
use crate::device::Device;
use crate::error::{EngineError, Result};
use crate::events::CacheLevel;
use crate::flash::{BlockId, PageTag, Ppn};
use crate::hash::StateHasher;
use crate::inspect::{InspectQuery, Inspection};
use crate::vocab::StopAt;

#[cfg(test)]
use levels::Loca;
use levels::{BlockEntry, TpmtRow};

/// The scheme's registry entry.
pub static SPEC: SchemeSpec = SchemeSpec {
    info: SchemeInfo {
        id: "dac",
        name: "DAC: block-level demand mapping with two-level caches (DBMTC, TPRLC, TPAFC)",
        family: "block",
        source: "thesis (seed 002) Ch. 2, Algorithms 2.3.1–2.3.3, Fig 2.4; notes §2.5",
    },
    notes: include_str!("notes.md"),
    stops: &[StopAt::Gc, StopAt::Merge, StopAt::MappingMiss],
    caches: &[
        (CacheLevel::BlockMap, "DBMTC"),
        (CacheLevel::Recency, "TPRLC"),
        (CacheLevel::Frequency, "TPAFC"),
    ],
    options: OptionsSpec::of::<DacOptions>(),
    // Data blocks come one per logical block from the pool; the open translation block is shared.
    open_blocks: OpenBlocks::DEMAND,
    variants: || {
        vec![
            ("DAC (thesis' literal reading)", json!({})),
            (
                "2-way DBMTC, promotion on a level-two hit",
                json!({"dbmtc_ways": 2, "promote_on_level_two_hit": true}),
            ),
            ("6-byte entries, FREQ halved every 8 misses", json!({"entry_bytes": 6, "freq_halve_every": 8})),
            (
                "no TPRLC (level two is the TPAFC alone)",
                json!({"dbmtc_bytes": 64, "tprlc_bytes": 0, "tpafc_bytes": 1}),
            ),
        ]
    },
    build: |ctx, options| {
        let options = super::parse_options::<DacOptions>("dac", options)?;
        Ok(Box::new(Dac::new(ctx, options)?))
    },
};

/// RAM per TPMT row (TPPA, LOCA, FREQ): the thesis' "about 4KB" for 1,024 translation
/// pages of a 32 GB device (notes §2.5.1, \[AMBIG\] 14: its fields are not sized).
pub const TPMT_ROW_BYTES: u64 = 4;

/// DAC options (`options.*` in the config when `scheme` is `dac`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct DacOptions {
    /// Bytes of one block-level mapping entry <DVBA, DPPBA, DRPBA>, in the DBMTC and in a
    /// translation page: 8 as the thesis states ("256 logically consecutive mapping entries in
    /// one [2 KB] translation page"), or 6, what its 1.5 MB table for 32 GB implies.
    #[schemars(range(min = 6, max = 8), extend("x-units" = "bytes"))]
    pub entry_bytes: u32,
    /// RAM for the DBMTC (level one), in bytes. When this and the two level-two sizes are all
    /// 0, the RAM left after the TPMT is split in three equal parts (the thesis' setup), the
    /// level-two parts in whole translation pages and the rest to the DBMTC.
    #[schemars(extend("x-units" = "bytes"))]
    pub dbmtc_bytes: u64,
    /// RAM for the TPRLC (level two, recency), in bytes (whole translation pages).
    #[schemars(extend("x-units" = "bytes"))]
    pub tprlc_bytes: u64,
    /// RAM for the TPAFC (level two, frequency), in bytes (whole translation pages).
    #[schemars(extend("x-units" = "bytes"))]
    pub tpafc_bytes: u64,
    /// DBMTC associativity: 0 = one set (the cost-aware LRU scans the whole cache, as the
    /// thesis' rule is worded); 2 or 4 = that many ways per set, the set chosen by DVBA
    /// modulo the number of sets (the thesis' "2-way or 4-way" option).
    pub dbmtc_ways: u32,
    /// Whether a hit in level two also copies the entry into the DBMTC. Algorithm 2.3.1
    /// fetches into the DBMTC only after a flash read (default off, its literal reading).
    pub promote_on_level_two_hit: bool,
    /// Halve every FREQ counter after this many misses in both levels (0 = never: the thesis
    /// specifies no decay).
    pub freq_halve_every: u32,
    /// GC starts when free blocks fall to this share of all blocks (thesis §2.3.4: 5 %).
    #[schemars(range(max = 100), extend("x-units" = "%"))]
    pub gc_free_percent: u8,
}

impl Default for DacOptions {
    fn default() -> Self {
        DacOptions {
            entry_bytes: 8,
            dbmtc_bytes: 0,
            tprlc_bytes: 0,
            tpafc_bytes: 0,
            dbmtc_ways: 0,
            promote_on_level_two_hit: false,
            freq_halve_every: 0,
            gc_free_percent: 5,
        }
    }
}

/// A cached translation page: every entry of it, and whether it differs from flash.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CachedPage {
    /// The entries, by DVBA offset in the page.
    pub entries: Vec<BlockEntry>,
    /// Updated since it was read.
    pub dirty: bool,
}

/// A DBMTC entry: the mapping and its clean/dirty bit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CachedEntry {
    /// The block-level mapping.
    pub entry: BlockEntry,
    /// Updated since it was fetched.
    pub dirty: bool,
}

/// DAC state.
#[derive(Debug, Clone)]
pub struct Dac {
    /// Primary blocks (the data side's truth) and the one free pool every block comes from.
    pub(crate) map: BlockMap,
    /// Replacement blocks by logical block.
    pub(crate) repl: BTreeMap<u32, LogBlock>,
    /// Translation blocks in use, in the order they were opened; the last is the open one.
    pub(crate) tblocks: Vec<BlockId>,
    /// Blocks GC may be able to reclaim: the primary and replacement blocks of every logical
    /// block with a replacement block, and the translation blocks in use. The victim search
    /// walks only these ([`Dac::victim_by_index`]); each still has to pass the exact test.
    /// Bookkeeping derived from `repl` and `tblocks`, so not part of the state hash.
    pub(crate) candidates: Bits,
    /// Mapping entries per translation page (Mpage).
    pub(crate) per_tpage: u32,
    /// Translation page mapping table, one row per TVPA.
    pub(crate) tpmt: Vec<TpmtRow>,
    /// Level one, by set.
    pub(crate) dbmtc: Vec<Lru<u32, CachedEntry>>,
    /// Level two, recency part.
    pub(crate) tprlc: Lru<u32, CachedPage>,
    /// Level two, frequency part, in the order pages entered it (ties of FREQ: the earliest
    /// is the victim).
    pub(crate) tpafc: Vec<(u32, CachedPage)>,
    pub(crate) tpafc_capacity: usize,
    pub(crate) options: DacOptions,
    /// Bytes reserved for each level (DBMTC, TPRLC, TPAFC).
    pub(crate) level_bytes: [u64; 3],
    /// Misses in both levels since FREQ was last halved.
    pub(crate) misses_since_halving: u32,
    /// Version stamp of the next translation page written.
    pub(crate) tpage_version: u32,
    /// GC starts when free blocks are at or below this.
    pub(crate) gc_threshold: usize,
    ram_budget: u64,
}

impl Dac {
    /// DAC over an erased device; fails when the RAM budget cannot hold the TPMT, when the
    /// cache sizes do not fit it, or when the device lacks spare blocks.
    pub fn new(ctx: &BuildCtx, options: DacOptions) -> Result<Self> {
        let d = ctx.device;
        let bad = |m: String| Err(EngineError::Config(format!("scheme 'dac': {m}")));
        if options.entry_bytes != 6 && options.entry_bytes != 8 {
            return bad(format!("options.entry_bytes is {}; it must be 6 or 8", options.entry_bytes));
        }
        if options.entry_bytes == 6 && d.blocks >= 0xFF_FFFF {
            return bad(format!(
                "6-byte entries hold 24-bit block numbers, but the device has {} blocks",
                d.blocks
            ));
        }
        super::spec::check_percent("dac", "gc_free_percent", options.gc_free_percent)?;
        if ![0, 1, 2, 4, 8].contains(&options.dbmtc_ways) {
            return bad(format!(
                "options.dbmtc_ways is {}; it must be 0 (one set), 1, 2, 4 or 8",
                options.dbmtc_ways
            ));
        }
        let per_tpage = levels::entries_per_tpage(d, options.entry_bytes);
        let lbns = (d.logical_pages() as u32).div_ceil(d.pages_per_block);
        let tpages = lbns.div_ceil(per_tpage);
        // Two blocks beyond the logical ones for a replacement and a merge target (as NFTL),
        // the translation blocks holding every translation page, and one more for their GC.
        let spare = 3 + tpages.div_ceil(d.pages_per_block);
        let map = BlockMap::new(ctx, "dac", spare)?;
        let tpmt_bytes = u64::from(tpages) * TPMT_ROW_BYTES;
        let budget = ctx.ram_budget;
        if budget < tpmt_bytes {
            return bad(format!("ram.bytes = {budget} cannot hold the TPMT ({tpmt_bytes} bytes)"));
        }
        let cache = budget - tpmt_bytes;
        let page_bytes = u64::from(per_tpage) * u64::from(options.entry_bytes);
        let entry = u64::from(options.entry_bytes);
        let level_bytes = if options.dbmtc_bytes + options.tprlc_bytes + options.tpafc_bytes == 0 {
            // Equal thirds, level two in whole pages, the remainder to level one.
            let part = cache / 3 / page_bytes * page_bytes;
            [cache - 2 * part, part, part]
        } else {
            let asked = [options.dbmtc_bytes, options.tprlc_bytes, options.tpafc_bytes];
            let sum: u64 = asked.iter().sum();
            if sum > cache {
                return bad(format!(
                    "options.dbmtc_bytes + tprlc_bytes + tpafc_bytes = {sum} bytes, but ram.bytes = {budget} leaves {cache} after the TPMT"
                ));
            }
            asked
        };
        let entries = (level_bytes[0] / entry) as usize;
        let dbmtc = match options.dbmtc_ways as usize {
            0 => vec![Lru::new(entries)],
            ways => {
                let sets = (entries / ways).max(1);
                (0..sets).map(|_| Lru::new(if entries < ways { entries } else { ways })).collect()
            }
        };
        let gc_threshold =
            ((u64::from(d.blocks) * u64::from(options.gc_free_percent)).div_ceil(100) as usize).max(2);
        Ok(Dac {
            map,
            repl: BTreeMap::new(),
            tblocks: Vec::new(),
            candidates: Bits::new(u64::from(d.blocks)),
            per_tpage,
            tpmt: vec![TpmtRow::default(); tpages as usize],
            dbmtc,
            tprlc: Lru::new((level_bytes[1] / page_bytes) as usize),
            tpafc: Vec::new(),
            tpafc_capacity: (level_bytes[2] / page_bytes) as usize,
            options,
            level_bytes,
            misses_since_halving: 0,
            tpage_version: 0,
            gc_threshold,
            ram_budget: budget,
        })
    }

    /// Capacities: DBMTC entries, TPRLC pages, TPAFC pages.
    pub fn capacities(&self) -> (usize, usize, usize) {
        (self.dbmtc.iter().map(Lru::capacity).sum(), self.tprlc.capacity(), self.tpafc_capacity)
    }

    /// The current mapping of logical block `lbn` (the data side's bookkeeping).
    pub fn truth(&self, lbn: u32) -> BlockEntry {
        BlockEntry {
            primary: self.map.data_block(lbn).unwrap_or(NONE),
            replacement: self.repl.get(&lbn).map_or(NONE, |l| l.block),
        }
    }
}

impl Ftl for Dac {
    fn read(&mut self, lpn: u32, dev: &mut Device) -> Result<Option<PageTag>> {
        self.read_page(lpn, dev)
    }

    fn write(&mut self, lpn: u32, version: u32, dev: &mut Device) -> Result<()> {
        self.write_page(lpn, version, dev)
    }

    fn trim(&mut self, lpn: u32, dev: &mut Device) -> Result<()> {
        match self.current(dev, lpn) {
            Some(p) => dev.invalidate(p),
            None => Ok(()),
        }
    }

    fn flush(&mut self, dev: &mut Device) -> Result<()> {
        self.flush_levels(dev)
    }

    /// DAC places pre-fill through its own write path (data in place in primary blocks,
    /// as a first write puts it), writes every translation page it touched once by
    /// flushing, then empties both cache levels and forgets the FREQ the pre-fill's misses
    /// counted: the measurement starts with cold caches, like every other scheme's.
    fn place_prefill(
        &mut self,
        pages: &mut dyn Iterator<Item = (u32, u32)>,
        dev: &mut Device,
    ) -> Result<bool> {
        for (lpn, version) in pages {
            self.write_page(lpn, version, dev)?;
        }
        self.flush_levels(dev)?;
        self.dbmtc.iter_mut().for_each(Lru::clear);
        self.tprlc.clear();
        self.tpafc.clear();
        for row in &mut self.tpmt {
            row.loca = levels::Loca::Flash;
            row.freq = 0;
        }
        self.misses_since_halving = 0;
        Ok(true)
    }

    fn ram_bytes(&self) -> u64 {
        self.tpmt.len() as u64 * TPMT_ROW_BYTES + self.level_bytes.iter().sum::<u64>()
    }

    fn ram_split(&self) -> Option<super::RamSplit> {
        let entry = u64::from(self.options.entry_bytes);
        let page = u64::from(self.per_tpage) * entry;
        let entries: usize = self.dbmtc.iter().map(Lru::len).sum();
        let mapping = self.tpmt.len() as u64 * TPMT_ROW_BYTES
            + entries as u64 * entry
            + (self.tprlc.len() + self.tpafc.len()) as u64 * page;
        Some(super::RamSplit { mapping_bytes: mapping, buffer_bytes: 0 })
    }

    fn ram_budget(&self) -> Option<u64> {
        Some(self.ram_budget)
    }

    fn block_role(&self, block: BlockId, dev: &Device) -> BlockRole {
        if self.tblocks.contains(&block) {
            BlockRole::Translation
        } else {
            self.map.role(dev, block, BlockRole::Primary, BlockRole::Replacement)
        }
    }

    fn block_duty(&self, block: BlockId, dev: &Device) -> Option<crate::inspect::BlockDuty> {
        if self.tblocks.contains(&block) {
            let role = "translation block (pages of the block-level map)".into();
            return Some(crate::inspect::BlockDuty { block, lbn: None, role, gc: None });
        }
        self.map.duty(dev, block, "primary", "replacement")
    }

    fn map_view(&self) -> Option<crate::ftl::MapView<'_>> {
        // Data pages map themselves by their spare areas (primary and replacement blocks);
        // the translation pages' block-level entries are checked by `check`.
        let mut view = self.map.map_view();
        view.blocks.extend(self.repl.values().map(|l| l.block));
        Some(view)
    }

    fn inspect(&self, query: &InspectQuery) -> Inspection {
        self.inspection(query)
    }

    fn check(&self, dev: &Device) -> Result<()> {
        logblock::check(&self.map, dev, self.repl.values(), None)?;
        self.check_candidates()?;
        for (lbn, l) in &self.repl {
            if l.lpns.iter().any(|&p| p / self.map.ppb() != *lbn) {
                return Err(EngineError::Invariant(format!(
                    "replacement block {} of LBN {lbn} holds another block's pages",
                    l.block
                )));
            }
        }
        self.check_levels(dev)
    }

    fn hash_into(&self, h: &mut StateHasher) {
        self.map.hash_into(h);
        for (lbn, l) in &self.repl {
            h.u32(*lbn);
            l.hash_into(h);
        }
        h.u32s(&self.tblocks);
        for r in &self.tpmt {
            h.u32(r.tppa);
            h.u32(r.loca as u32);
            h.u32(r.freq);
        }
        let entry = |h: &mut StateHasher, e: BlockEntry| {
            h.u32(e.primary);
            h.u32(e.replacement);
        };
        for set in &self.dbmtc {
            for (k, c) in set.iter() {
                h.u32(*k);
                entry(h, c.entry);
                h.u32(c.dirty as u32);
            }
        }
        let pages = self.tprlc.iter().map(|(t, p)| (*t, p)).chain(self.tpafc.iter().map(|(t, p)| (*t, p)));
        for (t, p) in pages {
            h.u32(t);
            h.u32(p.dirty as u32);
            for &e in &p.entries {
                entry(h, e);
            }
        }
        h.u32(self.misses_since_halving);
        h.u32(self.tpage_version);
    }

    fn clone_box(&self) -> Box<dyn Ftl> {
        Box::new(self.clone())
    }
}

/// Unused-entry marker for [`Ppn`] fields (a translation page never written).
pub const UNWRITTEN: Ppn = u32::MAX;

#[cfg(test)]
#[path = "tests.rs"]
mod tests;
