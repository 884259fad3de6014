//! `bast`: block-associative sector translation (Kim et al., via Shin seed 004 §2 and notes
//! §2.3). Data blocks are block-mapped; a data block whose page is updated gets a log block
//! of its own (1:1), written in order of arrival. A bounded pool of log blocks
//! (`options.log_blocks`); when a log block is needed and none is free, the victim (LRU by
//! default, seed 004: "It selects a victim log block with the LRU replacement scheme") is
//! merged: switch, partial or full (see [`super::logblock`]). A full log block is merged
//! before its data block takes more updates.
//!
//! The same machinery with shared log blocks is `sbast` ([`LogFtl`] with `share > 1`).
//!
#![doc = include_str!("notes.md")]

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::blockmap::{BlockMap, LOG_ENTRY_BYTES, NONE};
use super::logblock::LIST_ENTRY_BYTES;
use super::logblock::{self, budgets, log_list, map_structures, merge_log_with, LogBlock, MergeKinds};
use super::{BlockRole, BuildCtx, Ftl, OpenBlocks, OptionsSpec, SchemeInfo, SchemeSpec};
use crate::cache::{DenseIndex, Lru};
use crate::device::Device;
use crate::error::{EngineError, Result};
use crate::flash::{BlockId, PageTag};
use crate::hash::StateHasher;
use crate::inspect::{InspectQuery, Inspection, Order};
use crate::meta::MetaKind;
use crate::vocab::StopAt;

/// The scheme's registry entry.
pub static SPEC: SchemeSpec = SchemeSpec {
    info: SchemeInfo {
        id: "bast",
        name: "BAST (log block per data block)",
        family: "hybrid",
        source: "Shin (seed 004) §2, Eq. (2); thesis notes §2.3 (Kim et al.)",
    },
    notes: include_str!("notes.md"),
    stops: &[StopAt::Gc, StopAt::Merge],
    caches: &[],
    options: OptionsSpec::of::<BastOptions>(),
    open_blocks: OpenBlocks::ONE_PER_UNIT,
    variants: || {
        vec![
            ("every spare block a log block, LRU victim (seed 004)", json!({})),
            ("two log blocks, FIFO victim", json!({"log_blocks": 2, "victim": "fifo"})),
            ("full merges only (seed 004's Eq. (2))", json!({"merges": "full-only"})),
        ]
    },
    build: |ctx, options| {
        let o = super::parse_options::<BastOptions>("bast", options)?;
        Ok(Box::new(LogFtl::new(ctx, "bast", o.log_blocks, o.victim, 1)?.with_merges(o.merges)))
    },
};

/// Which log block is merged when a new one is needed and the pool is used up.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum LogVictim {
    /// The least recently written log block (seed 004 §2 for BAST).
    #[default]
    Lru,
    /// The oldest log block.
    Fifo,
}

/// `bast` options.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct BastOptions {
    /// Log blocks at most; 0 (default): every spare block but the one kept as merge target.
    /// Larger values are clamped to that.
    pub log_blocks: u32,
    /// Victim when a log block is needed and none is free: `lru` (default, seed 004) or `fifo`.
    pub victim: LogVictim,
    /// Merges used: `all` (default: switch, partial and full, Kim et al.'s BAST) or
    /// `full-only` (seed 004 §2's BAST read literally: every merge is Eq. (2)'s full merge).
    pub merges: MergeKinds,
}

/// Log-block FTL state (BAST, and SBAST with shared log blocks).
#[derive(Debug, Clone)]
pub struct LogFtl {
    pub(crate) map: BlockMap,
    /// Log blocks by block number, most recently written (LRU) or newest (FIFO) at the
    /// front; the victim is the back. A linked list, so that moving the block just written
    /// to the front and finding a block's entry take no pass over the list.
    logs: Lru<BlockId, LogBlock, DenseIndex>,
    /// The log block of each logical block, by LBN (`NONE`: it has none).
    owner: Vec<BlockId>,
    /// How many data blocks each log block serves, by block (0 for any other block).
    served: Vec<u32>,
    max_logs: usize,
    victim: LogVictim,
    /// Data blocks one log block may serve (1: BAST).
    share: usize,
    /// Merges used to reclaim a log block.
    merges: MergeKinds,
}

impl LogFtl {
    /// A log-block FTL: `log_blocks` (0: all spare blocks but one), `share` data blocks per
    /// log block (1 for BAST).
    pub fn new(ctx: &BuildCtx, id: &str, log_blocks: u32, victim: LogVictim, share: usize) -> Result<Self> {
        let map = BlockMap::new(ctx, id, 2)?;
        let max_logs = logblock::pool_size(ctx.device.blocks - map.lbns(), log_blocks);
        let merges = MergeKinds::All;
        let owner = vec![NONE; map.lbns() as usize];
        Ok(LogFtl {
            map,
            logs: Lru::indexed(usize::MAX),
            owner,
            served: vec![0; ctx.device.blocks as usize],
            max_logs,
            victim,
            share: share.max(1),
            merges,
        })
    }

    /// The same with the merges `merges` allows.
    pub fn with_merges(self, merges: MergeKinds) -> Self {
        LogFtl { merges, ..self }
    }

    /// Associates `lbn` with log block `block`; a logical block already holding a log block
    /// is refused (each data block uses at most one log block).
    pub fn assign(&mut self, lbn: u32, block: BlockId) -> Result<()> {
        if let Some(b) = self.log_of(lbn) {
            return Err(EngineError::Invariant(format!(
                "LBN {lbn} already uses log block {b}; it cannot take log block {block} as well"
            )));
        }
        self.owner[lbn as usize] = block;
        self.served[block as usize] += 1;
        Ok(())
    }

    /// The log block `lbn` uses, if any.
    pub(crate) fn log_of(&self, lbn: u32) -> Option<BlockId> {
        let b = self.owner[lbn as usize];
        (b != NONE).then_some(b)
    }

    /// How many data blocks log block `block` serves.
    fn served(&self, block: BlockId) -> usize {
        self.served[block as usize] as usize
    }

    /// The log blocks, the victim (least recently written, or oldest) first.
    pub(crate) fn logs(&self) -> impl Iterator<Item = &LogBlock> + Clone {
        self.logs.iter().rev().map(|(_, l)| l)
    }

    /// Merges log block `block` and forgets it.
    fn reclaim(&mut self, block: BlockId, dev: &mut Device) -> Result<()> {
        let log = self.logs.remove(&block).expect("reclaimed log blocks are listed");
        merge_log_with(&mut self.map, dev, &log, self.merges)?;
        // The data blocks it served are those it holds pages of (`check` keeps this so).
        for lbn in log.lbns(self.map.ppb()) {
            self.owner[lbn as usize] = NONE;
        }
        self.served[log.block as usize] = 0;
        Ok(())
    }

    /// A log block for `lbn`, which has none: the newest log block when it has room and
    /// serves fewer than `share` data blocks (SBAST), else a fresh one, merging the victim
    /// first when the pool is used up.
    fn log_for(&mut self, lbn: u32, dev: &mut Device) -> Result<BlockId> {
        let ppb = self.map.ppb();
        let newest_with_room = || self.logs.iter().find(|(_, l)| !l.is_full(ppb)).map(|(&b, _)| b);
        let last = if self.share > 1 { newest_with_room() } else { None };
        if let Some(last) = last {
            if self.served(last) < self.share {
                self.assign(lbn, last)?;
                return Ok(last);
            }
        }
        if self.logs.len() >= self.max_logs {
            let victim = *self.logs.peek_lru().expect("a used-up pool holds log blocks").0;
            self.reclaim(victim, dev)?;
        }
        let log = LogBlock::take(&mut self.map, dev)?;
        let block = log.block;
        self.logs.insert(block, log);
        dev.log_blocks_in_use(self.logs.len() as u64);
        self.assign(lbn, block)?;
        Ok(block)
    }
}

impl Ftl for LogFtl {
    fn read(&mut self, lpn: u32, dev: &mut Device) -> Result<Option<PageTag>> {
        let (lbn, _) = self.map.look_up(dev, lpn);
        if self.log_of(lbn).is_some() {
            dev.meta_read(MetaKind::LogTable, lpn, LOG_ENTRY_BYTES as u32);
        }
        self.map.read(dev, lpn)
    }

    fn write(&mut self, lpn: u32, version: u32, dev: &mut Device) -> Result<()> {
        let (lbn, _) = self.map.look_up(dev, lpn);
        if self.map.write_in_place(dev, lpn, version)? {
            return Ok(());
        }
        let ppb = self.map.ppb();
        let block = match self.log_of(lbn) {
            // A full log block is merged before its data block takes another update; the
            // merge may leave the page's slot erased, so the write starts over.
            Some(b) if self.logs.peek(&b).expect("owned log blocks are listed").is_full(ppb) => {
                self.reclaim(b, dev)?;
                return self.write(lpn, version, dev);
            }
            Some(b) => b,
            None => self.log_for(lbn, dev)?,
        };
        // LRU: the block written moves to the front; FIFO keeps the order of creation.
        let log = match self.victim {
            LogVictim::Lru => self.logs.get_mut(&block),
            LogVictim::Fifo => self.logs.peek_mut(&block),
        };
        log.expect("log blocks written are listed").append(&mut self.map, dev, lpn, version)
    }

    fn trim(&mut self, lpn: u32, dev: &mut Device) -> Result<()> {
        self.map.drop_copy(dev, lpn)
    }

    fn ram_bytes(&self) -> u64 {
        self.map.ram_bytes() + self.logs.len() as u64 * LIST_ENTRY_BYTES
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
        let newest_first: Vec<&LogBlock> = self.logs.iter().map(|(_, l)| l).collect();
        let order = if self.victim == LogVictim::Lru { Order::Lru } else { Order::Fifo };
        let list = log_list(
            "log-blocks",
            "Log blocks (victim last)",
            order,
            self.max_logs,
            &newest_first,
            &self.map,
            query,
        );
        let mut structures = map_structures(&self.map, &newest_first, query);
        structures.push(list);
        Inspection {
            ram_used: self.ram_bytes(),
            budgets: budgets(&self.map, self.ram_bytes(), "Log-block list"),
            structures,
            ..Inspection::default()
        }
    }

    fn check(&self, dev: &Device) -> Result<()> {
        logblock::check(&self.map, dev, self.logs(), Some(self.max_logs))?;
        // BAST's own rule: a log block serves at most `share` data blocks, and only those.
        let bad = |m: String| Err(EngineError::Invariant(m));
        let ppb = self.map.ppb();
        for l in self.logs() {
            if self.served(l.block) > self.share
                || l.lpns.iter().any(|&p| self.log_of(p / ppb) != Some(l.block))
            {
                return bad(format!("log block {} holds pages of data blocks it does not serve", l.block));
            }
            // Every data block it serves has a page in it: a merge releases exactly those.
            if self.served(l.block) != l.lbns(ppb).len() {
                return bad(format!(
                    "log block {} serves {} data blocks but holds pages of {}",
                    l.block,
                    self.served(l.block),
                    l.lbns(ppb).len()
                ));
            }
        }
        let owned = self.owner.iter().filter(|&&b| b != NONE).count();
        let served: usize = self.logs().map(|l| self.served(l.block)).sum();
        if owned != served || self.served.iter().map(|&n| n as usize).sum::<usize>() != served {
            return bad(format!("{owned} data blocks have a log block, the log blocks serve {served}"));
        }
        Ok(())
    }

    fn hash_into(&self, h: &mut StateHasher) {
        self.map.hash_into(h);
        self.logs().for_each(|l| l.hash_into(h));
    }

    fn clone_box(&self) -> Box<dyn Ftl> {
        Box::new(self.clone())
    }
}

#[cfg(test)]
#[path = "tests.rs"]
pub(crate) mod tests;
