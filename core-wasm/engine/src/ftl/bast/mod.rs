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

use super::blockmap::{BlockMap, LOG_ENTRY_BYTES};
use super::logblock::LIST_ENTRY_BYTES;
use super::logblock::{self, budgets, log_list, map_structures, merge_log_with, LogBlock, MergeKinds};
use super::{BlockRole, BuildCtx, Ftl, OpenBlocks, OptionsSpec, SchemeInfo, SchemeSpec};
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
    /// Log blocks, least recently written (LRU) or oldest (FIFO) first.
    pub(crate) logs: Vec<LogBlock>,
    /// The log block of each logical block that has one.
    owner: std::collections::BTreeMap<u32, BlockId>,
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
        Ok(LogFtl {
            map,
            logs: Vec::new(),
            owner: Default::default(),
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
        if let Some(&b) = self.owner.get(&lbn) {
            return Err(EngineError::Invariant(format!(
                "LBN {lbn} already uses log block {b}; it cannot take log block {block} as well"
            )));
        }
        self.owner.insert(lbn, block);
        Ok(())
    }

    /// How many data blocks log block `block` serves.
    fn served(&self, block: BlockId) -> usize {
        self.owner.values().filter(|&&b| b == block).count()
    }

    fn index_of(&self, block: BlockId) -> usize {
        self.logs.iter().position(|l| l.block == block).expect("owned log blocks are listed")
    }

    /// Merges the log block at `i` and forgets it.
    fn reclaim(&mut self, i: usize, dev: &mut Device) -> Result<()> {
        let log = self.logs.remove(i);
        merge_log_with(&mut self.map, dev, &log, self.merges)?;
        self.owner.retain(|_, b| *b != log.block);
        Ok(())
    }

    /// A log block for `lbn`, which has none: the newest log block when it has room and
    /// serves fewer than `share` data blocks (SBAST), else a fresh one, merging the victim
    /// first when the pool is used up.
    fn log_for(&mut self, lbn: u32, dev: &mut Device) -> Result<usize> {
        let ppb = self.map.ppb();
        let last = if self.share > 1 { self.logs.iter().rposition(|l| !l.is_full(ppb)) } else { None };
        if let Some(last) = last {
            if self.served(self.logs[last].block) < self.share {
                self.assign(lbn, self.logs[last].block)?;
                return Ok(last);
            }
        }
        if self.logs.len() >= self.max_logs {
            self.reclaim(0, dev)?;
        }
        let log = LogBlock::take(&mut self.map, dev)?;
        let block = log.block;
        self.logs.push(log);
        dev.log_blocks_in_use(self.logs.len() as u64);
        self.assign(lbn, block)?;
        Ok(self.logs.len() - 1)
    }
}

impl Ftl for LogFtl {
    fn read(&mut self, lpn: u32, dev: &mut Device) -> Result<Option<PageTag>> {
        let (lbn, _) = self.map.look_up(dev, lpn);
        if self.owner.contains_key(&lbn) {
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
        let i = match self.owner.get(&lbn).map(|&b| self.index_of(b)) {
            // A full log block is merged before its data block takes another update; the
            // merge may leave the page's slot erased, so the write starts over.
            Some(i) if self.logs[i].is_full(ppb) => {
                self.reclaim(i, dev)?;
                return self.write(lpn, version, dev);
            }
            Some(i) => i,
            None => self.log_for(lbn, dev)?,
        };
        self.logs[i].append(&mut self.map, dev, lpn, version)?;
        if self.victim == LogVictim::Lru {
            let log = self.logs.remove(i);
            self.logs.push(log);
        }
        Ok(())
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
        let newest_first: Vec<&LogBlock> = self.logs.iter().rev().collect();
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
        logblock::check(&self.map, dev, self.logs.iter(), Some(self.max_logs))?;
        // BAST's own rule: a log block serves at most `share` data blocks, and only those.
        let bad = |m: String| Err(EngineError::Invariant(m));
        for l in &self.logs {
            if self.served(l.block) > self.share
                || l.lpns.iter().any(|&p| self.owner.get(&(p / self.map.ppb())) != Some(&l.block))
            {
                return bad(format!("log block {} holds pages of data blocks it does not serve", l.block));
            }
        }
        Ok(())
    }

    fn hash_into(&self, h: &mut StateHasher) {
        self.map.hash_into(h);
        self.logs.iter().for_each(|l| l.hash_into(h));
    }

    fn clone_box(&self) -> Box<dyn Ftl> {
        Box::new(self.clone())
    }
}

#[cfg(test)]
#[path = "tests.rs"]
pub(crate) mod tests;
