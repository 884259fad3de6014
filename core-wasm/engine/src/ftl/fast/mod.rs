//! `fast`: fully associative sector translation (Lee et al., via Shin seed 004 §2). Data
//! blocks are block-mapped; updates go to log blocks shared by every data block: one
//! **sequential** log block for a block rewritten from offset 0 (`seq_trigger`: any update at
//! offset 0, FAST's own rule, or only one whose request runs on for `seq_min_pages` pages),
//! and **random** log blocks
//! filled in arrival order and kept in a FIFO. When a log block is needed and the pool is
//! used up, the oldest random log block is the victim: it is merged with each data block it
//! holds valid pages of (seed 004 Eq. (3)). A full sequential log block is switched in.
//!
//! `fast-do` is the same scheme with dynamic over-provisioning (seed 004 §3): every free
//! block may serve as a log block, so merging waits until free blocks run out
//! ([`FastFtl::new`] with `dynamic`).
//!
#![doc = include_str!("notes.md")]

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::blockmap::{BlockMap, LOG_ENTRY_BYTES};
use super::logblock::{self, budgets, log_list, map_structures, merge_log, LogBlock, LIST_ENTRY_BYTES};
use super::{BlockRole, BuildCtx, Ftl, OpenBlocks, OptionsSpec, SchemeInfo, SchemeSpec};
use crate::device::Device;
use crate::error::{EngineError, Result};
use crate::events::HostOp;
use crate::flash::{BlockId, PageTag};
use crate::hash::StateHasher;
use crate::inspect::{InspectQuery, Inspection, Order};
use crate::meta::MetaKind;
use crate::vocab::StopAt;

/// The scheme's registry entry.
pub static SPEC: SchemeSpec = SchemeSpec {
    info: SchemeInfo {
        id: "fast",
        name: "FAST (shared log blocks)",
        family: "hybrid",
        source: "Shin (seed 004) §2, Eq. (3), Fig. 2",
    },
    notes: include_str!("notes.md"),
    stops: &[StopAt::Gc, StopAt::Merge],
    caches: &[],
    options: OptionsSpec::of::<FastOptions>(),
    open_blocks: OpenBlocks::ONE_PER_UNIT,
    variants: || {
        vec![
            ("every spare block a log block, hashed page table", json!({})),
            ("two log blocks, reads scan the log blocks", json!({"log_blocks": 2, "lookup": "scan"})),
            ("sequential log for requests of half a block from offset 0", json!({"seq_trigger": "request"})),
            (
                "sequential log for requests of 2+ pages",
                json!({"seq_trigger": "request", "seq_min_pages": 2}),
            ),
        ]
    },
    build: |ctx, options| {
        let o = super::parse_options::<FastOptions>("fast", options)?;
        let trigger = SeqTrigger::of(o.seq_trigger, o.seq_min_pages);
        Ok(Box::new(FastFtl::new(ctx, "fast", o.log_blocks, o.lookup, trigger, false)?))
    },
};

/// What opens the sequential log block (seed 004 only says it "serves a sequentially
/// written data block").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum SeqTriggerKind {
    /// Any update at block offset 0, a one-page write included (FAST's own paper).
    #[default]
    Offset0,
    /// An update at block offset 0 whose request covers at least `seq_min_pages` pages from
    /// that page on.
    Request,
}

/// The sequential-log trigger as the scheme applies it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SeqTrigger {
    /// Any update at offset 0.
    Offset0,
    /// An update at offset 0 with at least this many pages of its request from it on (0:
    /// half a block, the threshold TreeFTL and JTL call sequential).
    Request(u32),
}

impl SeqTrigger {
    /// The trigger the options ask for.
    pub fn of(kind: SeqTriggerKind, min_pages: u32) -> Self {
        match kind {
            SeqTriggerKind::Offset0 => SeqTrigger::Offset0,
            SeqTriggerKind::Request => SeqTrigger::Request(min_pages),
        }
    }
}

/// How a read finds a page in the log blocks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum LogLookup {
    /// A hashed page table of the log pages (seed 004 ref. \[3\]): one RAM access.
    #[default]
    Hashed,
    /// Scan the log blocks' page lists in RAM: one RAM access per log page written (seed 004:
    /// "should scan all the log blocks … a considerable computation overhead").
    Scan,
}

/// `fast` options.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct FastOptions {
    /// Log blocks at most, the sequential one included; 0 (default): every spare block but
    /// the one kept as merge target. Larger values are clamped to that.
    pub log_blocks: u32,
    /// Reads find log pages through a `hashed` page table (default) or a `scan`.
    pub lookup: LogLookup,
    /// What opens the sequential log block: `offset0` (default, FAST's own paper: any update
    /// at block offset 0) or `request` (only one whose request covers `seq_min_pages` pages
    /// from it on).
    pub seq_trigger: SeqTriggerKind,
    /// With `seq_trigger = request`: pages the request must cover from the offset-0 page on;
    /// 0 (default) = half a block (the threshold TreeFTL and JTL call sequential).
    #[schemars(extend("x-units" = "pages"))]
    pub seq_min_pages: u32,
}

/// FAST / FAST-DO state.
#[derive(Debug, Clone)]
pub struct FastFtl {
    pub(crate) map: BlockMap,
    /// The sequential log block.
    pub(crate) sw: Option<LogBlock>,
    /// Random log blocks, oldest (the next victim) first; the last is being filled.
    pub(crate) rw: Vec<LogBlock>,
    /// Log blocks at most (fixed pool); unused with `dynamic`.
    max_logs: usize,
    /// Dynamic over-provisioning: any free block beyond the merge target may be a log block.
    dynamic: bool,
    lookup: LogLookup,
    trigger: SeqTrigger,
    /// The current write request's pages (empty between requests).
    request: Vec<u32>,
}

impl FastFtl {
    /// A FAST FTL; `dynamic` makes it FAST-DO (`log_blocks` then unused).
    pub fn new(
        ctx: &BuildCtx,
        id: &str,
        log_blocks: u32,
        lookup: LogLookup,
        trigger: SeqTrigger,
        dynamic: bool,
    ) -> Result<Self> {
        let map = BlockMap::new(ctx, id, 2)?;
        let max_logs = logblock::pool_size(ctx.device.blocks - map.lbns(), log_blocks);
        let trigger = match trigger {
            SeqTrigger::Request(0) => SeqTrigger::Request((map.ppb() / 2).max(1)),
            t => t,
        };
        Ok(FastFtl { map, sw: None, rw: Vec::new(), max_logs, dynamic, lookup, trigger, request: Vec::new() })
    }

    /// Whether an update of `lpn` at block offset 0 opens the sequential log block. Outside
    /// a request (unit tests) the page is a request of one page.
    fn opens_sequential_log(&self, lpn: u32) -> bool {
        match self.trigger {
            SeqTrigger::Offset0 => true,
            SeqTrigger::Request(k) => {
                let from = self.request.iter().position(|&l| l == lpn);
                let covered = from.map_or(1, |i| self.request.len() - i);
                covered >= k as usize
            }
        }
    }

    fn log_count(&self) -> usize {
        self.rw.len() + usize::from(self.sw.is_some())
    }

    /// Whether one more log block may be taken now.
    fn log_room(&self) -> bool {
        if self.dynamic {
            self.map.free_len() > 1
        } else {
            self.log_count() < self.max_logs
        }
    }

    /// Merges the oldest random log block (the sequential one when there is none).
    fn reclaim_victim(&mut self, dev: &mut Device) -> Result<()> {
        let log = if self.rw.is_empty() {
            self.sw.take().ok_or_else(|| EngineError::Invariant("fast: no log block to merge".into()))?
        } else {
            self.rw.remove(0)
        };
        merge_log(&mut self.map, dev, &log)?;
        Ok(())
    }

    /// A fresh log block, or `None` when making room merged log blocks: a merge may have
    /// rebuilt the written page's block (its slot erased, the sequential log block gone), so
    /// the write starts over. The next try finds room without merging.
    fn new_log_or_restart(&mut self, dev: &mut Device) -> Result<Option<LogBlock>> {
        if self.log_room() {
            dev.log_blocks_in_use(self.log_count() as u64 + 1);
            return Ok(Some(LogBlock::take(&mut self.map, dev)?));
        }
        while !self.log_room() {
            self.reclaim_victim(dev)?;
        }
        Ok(None)
    }

    fn append(&mut self, dev: &mut Device, lpn: u32, version: u32, seq: bool) -> Result<()> {
        let log = if seq { self.sw.as_mut() } else { self.rw.last_mut() };
        let log = log.ok_or_else(|| EngineError::Invariant("fast: no open log block".into()))?;
        log.append(&mut self.map, dev, lpn, version)
    }

    /// RAM accesses a read spends finding its page in the log blocks.
    fn lookup_cost(&self) -> u64 {
        match self.lookup {
            LogLookup::Hashed => 1,
            LogLookup::Scan => {
                self.rw.iter().chain(&self.sw).map(|l| l.lpns.len() as u64).sum::<u64>().max(1)
            }
        }
    }
}

impl Ftl for FastFtl {
    fn begin_request(&mut self, op: HostOp, lpns: &[u32], _dev: &mut Device) -> Result<()> {
        self.request.clear();
        if op == HostOp::Write && self.trigger != SeqTrigger::Offset0 {
            self.request.extend_from_slice(lpns);
        }
        Ok(())
    }

    fn end_request(&mut self, _dev: &mut Device) -> Result<()> {
        self.request.clear();
        Ok(())
    }

    fn read(&mut self, lpn: u32, dev: &mut Device) -> Result<Option<PageTag>> {
        self.map.look_up(dev, lpn);
        match self.lookup {
            LogLookup::Hashed => dev.meta_read(MetaKind::LogTable, lpn, LOG_ENTRY_BYTES as u32),
            LogLookup::Scan => dev.ram(self.lookup_cost()),
        }
        self.map.read(dev, lpn)
    }

    fn write(&mut self, lpn: u32, version: u32, dev: &mut Device) -> Result<()> {
        let (lbn, off) = self.map.look_up(dev, lpn);
        // A logical block's first data block needs a free block beyond the merge target
        // (under FAST-DO the logs may have taken the others).
        if self.map.data_block(lbn).is_none() && self.map.free_len() <= 1 {
            self.reclaim_victim(dev)?;
            return self.write(lpn, version, dev);
        }
        if self.map.write_in_place(dev, lpn, version)? {
            return Ok(());
        }
        let ppb = self.map.ppb();
        let seq_next = self.sw.as_ref().is_some_and(|s| {
            !s.is_full(ppb) && s.lpns.first().is_some_and(|&f| f / ppb == lbn) && s.lpns.len() as u32 == off
        });
        let opens = off == 0 && self.opens_sequential_log(lpn);
        if opens || seq_next {
            if opens {
                // A block rewritten from its start: the old sequential log block is merged
                // (switched when complete) and a new one begins.
                if let Some(old) = self.sw.take() {
                    merge_log(&mut self.map, dev, &old)?;
                    return self.write(lpn, version, dev);
                }
                let Some(log) = self.new_log_or_restart(dev)? else {
                    return self.write(lpn, version, dev);
                };
                self.sw = Some(log);
            }
            self.append(dev, lpn, version, true)?;
            if self.sw.as_ref().is_some_and(|s| s.is_full(ppb)) {
                let full = self.sw.take().expect("just checked");
                merge_log(&mut self.map, dev, &full)?;
            }
            return Ok(());
        }
        if self.rw.last().is_none_or(|l| l.is_full(ppb)) {
            let Some(log) = self.new_log_or_restart(dev)? else {
                return self.write(lpn, version, dev);
            };
            self.rw.push(log);
        }
        self.append(dev, lpn, version, false)
    }

    fn trim(&mut self, lpn: u32, dev: &mut Device) -> Result<()> {
        self.map.drop_copy(dev, lpn)
    }

    fn ram_bytes(&self) -> u64 {
        self.map.ram_bytes() + self.log_count() as u64 * LIST_ENTRY_BYTES
    }

    fn block_role(&self, block: BlockId, dev: &Device) -> BlockRole {
        self.map.role(dev, block, BlockRole::Data, BlockRole::Log)
    }

    fn block_duty(&self, block: BlockId, dev: &Device) -> Option<crate::inspect::BlockDuty> {
        self.map.duty(dev, block, "data", "log")
    }

    fn map_view(&self) -> Option<crate::ftl::MapView<'_>> {
        Some(self.map.map_view())
    }

    fn inspect(&self, query: &InspectQuery) -> Inspection {
        let newest_first: Vec<&LogBlock> = self.rw.iter().rev().collect();
        let all: Vec<&LogBlock> = self.sw.iter().chain(self.rw.iter().rev()).collect();
        let cap = if self.dynamic { self.map.free_len() + self.log_count() - 1 } else { self.max_logs };
        let fifo = log_list(
            "log-fifo",
            "Random log blocks (FIFO, victim last)",
            Order::Fifo,
            cap,
            &newest_first,
            &self.map,
            query,
        );
        let seq: Vec<&LogBlock> = self.sw.iter().collect();
        let sw = log_list("sequential-log", "Sequential log block", Order::Fifo, 1, &seq, &self.map, query);
        let mut structures = map_structures(&self.map, &all, query);
        structures.extend([fifo, sw]);
        let name = match self.lookup {
            LogLookup::Hashed => "Hashed page table (LPN → log page)",
            LogLookup::Scan => "Log pages (found by scanning)",
        };
        structures.push(self.map.log_table("log-pages", name, query));
        Inspection {
            ram_used: self.ram_bytes(),
            budgets: budgets(&self.map, self.ram_bytes(), "Log-block lists"),
            structures,
            ..Inspection::default()
        }
    }

    fn check(&self, dev: &Device) -> Result<()> {
        // FAST-DO has no fixed pool: its log blocks are bounded by the free blocks alone.
        let max = (!self.dynamic).then_some(self.max_logs);
        logblock::check(&self.map, dev, self.rw.iter().chain(&self.sw), max)
    }

    fn hash_into(&self, h: &mut StateHasher) {
        self.map.hash_into(h);
        self.sw.iter().chain(&self.rw).for_each(|l| l.hash_into(h));
    }

    fn clone_box(&self) -> Box<dyn Ftl> {
        Box::new(self.clone())
    }
}

#[cfg(test)]
#[path = "tests.rs"]
pub(crate) mod tests;
