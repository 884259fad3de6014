//! `mnftl`: MNFTL, an MLC NAND FTL with concentrated mapping and postponed GC (thesis, seed
//! 002, Ch.3; notes §2.6). A logical block maps to a list of physical blocks that grows on
//! demand; its pages are programmed strictly in order, whether first writes or updates, so
//! MLC's program order holds. Its page map lives in sub-tables in its pages' spare areas
//! ([`super::oobmap`]), RAM holding N pointers per logical block. GC waits until no free
//! block is left, then takes its victim from the logical block with the most physical blocks.
//!
#![doc = include_str!("notes.md")]

use std::cmp::Reverse;
use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};
use serde_json::json;

use super::oobmap::OobMap;
use super::{BlockPool, BlockRole, BuildCtx, Ftl, OpenBlocks, OptionsSpec, SchemeInfo, SchemeSpec};
use crate::device::Device;
use crate::error::{EngineError, Result};
use crate::events::Purpose;
use crate::flash::{BlockId, PageKind, PageState, PageTag};
use crate::hash::StateHasher;
use crate::inspect::{indexed_keys, BlockDuty, Budget, InspectQuery, Inspection, Row, Structure};
use crate::meta::MetaKind;
use crate::vocab::StopAt;

/// The scheme's registry entry.
pub static SPEC: SchemeSpec = SchemeSpec {
    info: SchemeInfo {
        id: "mnftl",
        name: "MNFTL (MLC, OOB sub-tables, postponed GC)",
        family: "block",
        source: "thesis (seed 002) Ch.3 §3.3, Figs 3.5-3.6; notes §2.6",
    },
    notes: include_str!("notes.md"),
    stops: &[StopAt::Gc],
    caches: &[],
    options: OptionsSpec::of::<MnftlOptions>(),
    open_blocks: OpenBlocks::ONE_PER_UNIT,
    variants: || {
        vec![
            ("MNFTL", json!({})),
            ("MNFTL, fewest-valid victim", json!({"victim": "fewest-valid"})),
            ("MNFTL, idle reclamation", json!({"idle_reclaim": true})),
        ]
    },
    build: |ctx, options| {
        let o: MnftlOptions = super::parse_options("mnftl", options)?;
        Ok(Box::new(Mnftl::new(ctx, &o)?))
    },
};

/// How the GC victim is chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Victim {
    /// The thesis' refinement: the logical block mapped to the most physical blocks, then
    /// its full block with the fewest valid pages.
    #[default]
    MaxBlocks,
    /// The stated rule: the full block with the fewest valid pages in the whole flash.
    FewestValid,
}

/// MNFTL's options.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct MnftlOptions {
    /// Mapping slots per spare area (Q); 0 = as many 4-byte slots as fit besides the tag.
    #[schemars(extend("x-units" = "slots"))]
    pub slots_per_oob: u32,
    /// GC victim: `max-blocks` (the thesis' heuristic) or `fewest-valid` (its stated rule).
    pub victim: Victim,
    /// Reclaim blocks of logical blocks mapped to more than one block while the device is
    /// idle (the thesis' optional idle-time reclamation).
    pub idle_reclaim: bool,
}

/// RAM per physical block in a logical block's list: its number and a link (§3.3.1: 2-byte
/// block numbers and 4-byte pointers are quoted; 4 + 4 here).
const LIST_NODE_BYTES: u64 = 8;
/// RAM per logical block besides its list and sub-table pointers: the list head.
const HEAD_BYTES: u64 = 4;

/// MNFTL state.
#[derive(Debug, Clone)]
pub struct Mnftl {
    ppb: u32,
    pub(crate) map: OobMap,
    /// Block mapping table: each logical block's physical blocks, oldest first; the last
    /// is the one being written.
    pub(crate) lists: Vec<Vec<BlockId>>,
    /// Logical blocks with at least one block, longest list first, then the lowest LBN:
    /// the one the victim heuristic wants, without a pass over every list per collection.
    longest: BTreeSet<(Reverse<usize>, u32)>,
    pub(crate) pool: BlockPool,
    /// Block → logical block (`u32::MAX`: free).
    owner: Vec<u32>,
    reserve: usize,
    victim: Victim,
    idle_reclaim: bool,
}

impl Mnftl {
    /// An MNFTL over an erased device.
    pub fn new(ctx: &BuildCtx, o: &MnftlOptions) -> Result<Self> {
        let d = ctx.device;
        let ppb = d.pages_per_block;
        let lbns = (d.logical_pages() as u32).div_ceil(ppb);
        let reserve = ctx.gc.reserve_blocks.max(1);
        if d.blocks < lbns + reserve + 1 {
            return Err(EngineError::Config(format!(
                "scheme 'mnftl' needs a block for each of the {lbns} logical blocks, the GC reserve of {reserve} and one more, but the device has {} blocks; raise device.over_provisioning or device.blocks",
                d.blocks
            )));
        }
        Ok(Mnftl {
            ppb,
            map: OobMap::new("mnftl", lbns, ppb, o.slots_per_oob, d.oob_bytes)?,
            lists: vec![Vec::new(); lbns as usize],
            longest: BTreeSet::new(),
            pool: BlockPool::new(d.blocks, 0, 0, d.units() as usize).with_gc(ctx.gc),
            owner: vec![u32::MAX; d.blocks as usize],
            reserve: reserve as usize,
            victim: o.victim,
            idle_reclaim: o.idle_reclaim,
        })
    }

    fn current(&self, lbn: u32) -> Option<BlockId> {
        self.lists[lbn as usize].last().copied()
    }

    fn has_room(&self, dev: &Device, lbn: u32) -> bool {
        self.current(lbn).is_some_and(|b| dev.flash().programmed_count(b) < self.ppb)
    }

    /// Appends a free block to `lbn`'s list.
    fn grow(&mut self, lbn: u32, dev: &mut Device) -> Result<BlockId> {
        let unit = (0..self.pool.units()).find(|&u| self.pool.free_on(u) > 0).unwrap_or(0);
        let b = self.pool.take(unit, dev)?;
        self.owner[b as usize] = lbn;
        self.edit_list(lbn, |list| list.push(b));
        Ok(b)
    }

    /// Changes `lbn`'s list, keeping [`Self::longest`] in step.
    fn edit_list(&mut self, lbn: u32, edit: impl FnOnce(&mut Vec<BlockId>)) {
        let list = &mut self.lists[lbn as usize];
        let before = list.len();
        edit(list);
        let after = list.len();
        if before != after {
            self.longest.remove(&(Reverse(before), lbn));
            if after > 0 {
                self.longest.insert((Reverse(after), lbn));
            }
        }
    }

    /// The logical block mapped to the most physical blocks, the lowest LBN on ties (0 when
    /// none has a block); `None` only without logical blocks.
    fn most_mapped(&self) -> Option<usize> {
        let first = self.longest.first().map_or(0, |&(_, lbn)| lbn as usize);
        (!self.lists.is_empty()).then_some(first)
    }

    /// Whether `b` may be a victim: a full block that is not its logical block's last.
    fn collectable(&self, b: BlockId, dev: &Device) -> bool {
        let lbn = self.owner[b as usize];
        lbn != u32::MAX && self.current(lbn) != Some(b) && dev.flash().programmed_count(b) == self.ppb
    }

    /// The victim: by the heuristic, the fewest-valid full block of the logical block with
    /// the most blocks; otherwise (or when that gains nothing) the fewest-valid full block
    /// anywhere. `None` when no full block has an invalid page.
    fn pick(&self, dev: &Device) -> Option<BlockId> {
        if self.victim == Victim::MaxBlocks {
            let most = self.most_mapped()?;
            let list = &self.lists[most];
            let best = list[..list.len().saturating_sub(1)]
                .iter()
                .copied()
                .min_by_key(|&b| dev.flash().valid_count(b));
            if let Some(b) = best.filter(|&b| dev.flash().valid_count(b) < self.ppb) {
                return Some(b);
            }
        }
        let accept = |b: BlockId| self.collectable(b, dev);
        (0..self.ppb).find_map(|v| dev.flash().min_block_with_valid(v, &accept))
    }

    /// Collects `victim` (§3.3.3, Fig 3.6): reads its logical block's sub-tables to learn
    /// which pages are valid (N × T_rdoob), copies the S valid ones, full or partial valid,
    /// to the logical block's last block with their updated sub-tables (S × (T_rdpg +
    /// T_wrpg)), and erases it (T_er).
    pub(crate) fn collect(&mut self, victim: BlockId, dev: &mut Device) -> Result<()> {
        let lbn = self.owner[victim as usize];
        dev.gc_start(victim);
        for s in 0..self.map.per_lbn() {
            if let Some(p) = self.map.pointer(lbn, s) {
                dev.read_oob(p, Purpose::Gc)?;
            }
        }
        let first = dev.flash().first_ppn(victim);
        for p in first..first + self.ppb {
            if dev.flash().state(p) != PageState::Valid || dev.flash().tag(p).kind != PageKind::Data {
                continue;
            }
            if !self.has_room(dev, lbn) {
                self.grow(lbn, dev)?;
            }
            let to = self.current(lbn).expect("grown");
            let to = dev.flash().first_ppn(to) + dev.flash().programmed_count(to);
            self.map.copy(dev, dev.flash().tag(p).key, p, to, false)?;
        }
        dev.erase(victim, Purpose::Gc)?;
        self.edit_list(lbn, |list| list.retain(|&b| b != victim));
        self.owner[victim as usize] = u32::MAX;
        self.pool.release(victim);
        dev.gc_end(victim);
        Ok(())
    }

    /// Collects until a block beyond the reserve is free.
    fn make_room(&mut self, dev: &mut Device) -> Result<()> {
        while self.pool.free_len() <= self.reserve {
            let Some(v) = self.pick(dev) else {
                return Err(EngineError::DeviceFull(
                    "mnftl: no free block and no full block with an invalid page".into(),
                ));
            };
            self.collect(v, dev)?;
        }
        Ok(())
    }
}

impl Ftl for Mnftl {
    fn read(&mut self, lpn: u32, dev: &mut Device) -> Result<Option<PageTag>> {
        let (lbn, _, _) = self.map.split(lpn);
        dev.meta_read(MetaKind::BlockMap, lbn, 4);
        match self.map.look_up(dev, lpn)? {
            Some(p) => Ok(Some(dev.read(p, Purpose::Data)?)),
            None => Ok(None),
        }
    }

    fn write(&mut self, lpn: u32, version: u32, dev: &mut Device) -> Result<()> {
        let (lbn, _, _) = self.map.split(lpn);
        dev.meta_read(MetaKind::BlockMap, lbn, 4);
        while !self.has_room(dev, lbn) {
            if self.pool.free_len() <= self.reserve {
                // GC may leave this logical block a block with room (its copies' destination).
                self.make_room(dev)?;
                continue;
            }
            self.grow(lbn, dev)?;
        }
        let b = self.current(lbn).expect("room");
        let ppn = dev.flash().first_ppn(b) + dev.flash().programmed_count(b);
        self.map.write(dev, lpn, version, ppn, Purpose::Data)?;
        Ok(())
    }

    fn trim(&mut self, lpn: u32, dev: &mut Device) -> Result<()> {
        self.map.trim(dev, lpn).map(|_| ())
    }

    fn works_when_idle(&self) -> bool {
        true
    }

    fn idle(&mut self, dev: &mut Device, until_ns: u64) -> Result<()> {
        if !self.idle_reclaim {
            return Ok(());
        }
        // Reclaim from the logical block mapped to the most blocks while it has more than
        // two and the idle time lasts (a collection once begun runs to its end and may
        // delay the next request).
        while dev.span().completion < until_ns {
            let Some(most) = self.most_mapped() else {
                break;
            };
            let list = &self.lists[most];
            if list.len() <= 2 {
                break;
            }
            let v = list[..list.len() - 1]
                .iter()
                .copied()
                .min_by_key(|&b| dev.flash().valid_count(b))
                .expect("more than two");
            self.collect(v, dev)?;
        }
        Ok(())
    }

    fn ram_bytes(&self) -> u64 {
        let nodes: u64 = self.lists.iter().map(|l| l.len() as u64).sum();
        self.lists.len() as u64 * HEAD_BYTES + nodes * LIST_NODE_BYTES + self.map.ram_bytes()
    }

    fn block_role(&self, block: BlockId, dev: &Device) -> BlockRole {
        let lbn = self.owner[block as usize];
        if lbn == u32::MAX {
            BlockRole::Free
        } else if self.current(lbn) == Some(block) && dev.flash().programmed_count(block) < self.ppb {
            BlockRole::Active
        } else {
            BlockRole::Data
        }
    }

    fn block_duty(&self, block: BlockId, dev: &Device) -> Option<BlockDuty> {
        let lbn = self.owner[block as usize];
        let list = self.lists.get(lbn as usize)?;
        let i = list.iter().position(|&b| b == block)?;
        let open = i + 1 == list.len() && dev.flash().programmed_count(block) < self.ppb;
        let role = format!(
            "block {} of {} in the logical block's list (oldest first){}",
            i + 1,
            list.len(),
            if open { ", being written" } else { "" }
        );
        Some(BlockDuty { block, lbn: Some(lbn), role, gc: None })
    }

    fn map_view(&self) -> Option<crate::ftl::MapView<'_>> {
        // Valid pages name their logical pages in their tags; `check` verifies the
        // sub-tables against them.
        Some(crate::ftl::MapView::in_blocks(self.lists.iter().flatten().copied().collect(), Vec::new()))
    }

    fn inspect(&self, query: &InspectQuery) -> Inspection {
        let touched = query.touched.iter().map(|&l| l / self.ppb);
        let (keys, truncated) = indexed_keys(self.lists.len(), query.limit, touched);
        let blocks = Structure::Table {
            id: "bmt-last".into(),
            name: "BMT: LBN → block being written".into(),
            len: self.lists.len() as u64,
            rows: keys.iter().map(|&k| Row { key: k, value: self.current(k), in_ram: true }).collect(),
            truncated,
        };
        let counts = Structure::Table {
            id: "bmt-len".into(),
            name: "BMT: LBN → blocks mapped (M)".into(),
            len: self.lists.len() as u64,
            rows: keys
                .iter()
                .map(|&k| Row { key: k, value: Some(self.lists[k as usize].len() as u32), in_ram: true })
                .collect(),
            truncated,
        };
        let n = self.map.per_lbn();
        let (ptr_keys, ptr_cut) = indexed_keys(
            self.lists.len() * n as usize,
            query.limit,
            query.touched.iter().map(|&l| self.map.split(l)).map(|(lbn, _, s)| lbn * n + s),
        );
        let pointers = Structure::Table {
            id: "subtable-pointers".into(),
            name: "Sub-table pointers (LBN × N + s → PPN)".into(),
            len: (self.lists.len() * n as usize) as u64,
            rows: ptr_keys
                .iter()
                .map(|&k| Row { key: k, value: self.map.pointer(k / n, k % n), in_ram: true })
                .collect(),
            truncated: ptr_cut,
        };
        let ptr_bytes = self.map.ram_bytes();
        Inspection {
            ram_used: self.ram_bytes(),
            budgets: vec![
                Budget { name: "BMT (block lists)".into(), bytes: self.ram_bytes() - ptr_bytes },
                Budget { name: "Sub-table pointers".into(), bytes: ptr_bytes },
            ],
            structures: vec![blocks, counts, pointers],
            ..Inspection::default()
        }
    }

    fn check(&self, dev: &Device) -> Result<()> {
        self.map.check(dev, "mnftl")?;
        self.map.check_pages(dev, self.lists.iter().flatten().copied(), "mnftl")?;
        self.pool.check(dev).map_err(|e| EngineError::Invariant(format!("mnftl: {e}")))?;
        let longest = (0..self.lists.len()).max_by_key(|&l| (self.lists[l].len(), Reverse(l)));
        let lengths = self.lists.iter().filter(|l| !l.is_empty()).count();
        if self.most_mapped() != longest || self.longest.len() != lengths {
            return Err(EngineError::Invariant(format!(
                "mnftl: the index of list lengths names LBN {:?}, the lists {longest:?}",
                self.most_mapped()
            )));
        }
        for (lbn, list) in self.lists.iter().enumerate() {
            if !list.is_empty() && !self.longest.contains(&(Reverse(list.len()), lbn as u32)) {
                return Err(EngineError::Invariant(format!(
                    "mnftl: LBN {lbn}'s list of {} blocks is not indexed by its length",
                    list.len()
                )));
            }
            for (i, &b) in list.iter().enumerate() {
                if self.owner[b as usize] != lbn as u32 {
                    return Err(EngineError::Invariant(format!(
                        "mnftl: block {b} in LBN {lbn}'s list is owned by {}",
                        self.owner[b as usize]
                    )));
                }
                if i + 1 < list.len() && dev.flash().programmed_count(b) != self.ppb {
                    return Err(EngineError::Invariant(format!(
                        "mnftl: block {b} of LBN {lbn} is not full but not last"
                    )));
                }
            }
        }
        Ok(())
    }

    fn hash_into(&self, h: &mut StateHasher) {
        self.map.hash_into(h);
        for l in &self.lists {
            h.u32(l.len() as u32);
            h.u32s(l);
        }
        self.pool.hash_into(h);
    }

    fn clone_box(&self) -> Box<dyn Ftl> {
        Box::new(self.clone())
    }
}

#[cfg(test)]
#[path = "tests.rs"]
mod tests;
