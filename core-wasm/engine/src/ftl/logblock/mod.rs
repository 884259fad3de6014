//! Log blocks and their merge, shared by `bast`, `sbast`, `fast`, `fast-do` (seed 004 §2) and,
//! for its replacement blocks, `nftl`.
//!
//! A log block takes host updates in write order, any offset, any logical block its scheme
//! allows. Reclaiming it is a merge, chosen by what it holds:
//! - **switch**: it holds one logical block's pages at offsets 0..P in order — it becomes the
//!   data block, the old one is erased (one erase, no copy);
//! - **partial**: in order from offset 0 but not full — the rest of the block's newest pages
//!   are copied in behind, then as a switch;
//! - **full** otherwise: each logical block it holds valid pages of is merged into a fresh
//!   block (N copies and the old data block's erase when all N pages are valid), then the log
//!   block is erased: A·(N·(T_read + T_write) + T_erase) + T_erase, seed 004 Eq. (3); with
//!   A = 1, Eq. (2)'s N·(T_read + T_write) + 2·T_erase.
//!
//! Logical blocks whose pages in the log were all superseded are not merged (nothing of
//! theirs needs the log block): our reading of "merged with the associated data blocks".
//!
//! Here once for the family: the log block's own bookkeeping ([`LogBlock`]: take, append,
//! hash, [`check`]), the fixed pool's size ([`pool_size`]), the merges ([`merge_log`],
//! [`full_merge`]) and the inspection ([`map_structures`], [`log_list`], [`budgets`]). What
//! differs on purpose stays in each scheme: which log block a write goes to (BAST's one per
//! data block, SBAST's sharing rule, FAST's sequential block and shared random FIFO), the
//! victim, and NFTL's replacement blocks, which keep no log-page table (reads scan spare
//! areas) and are always folded with [`full_merge`], never switched.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::blockmap::{BlockMap, LOG_ENTRY_BYTES, NONE};
use crate::device::Device;
use crate::error::{EngineError, Result};
use crate::events::{MergeCause, MergeKind, MergeWhy, Purpose};
use crate::flash::BlockId;
use crate::hash::StateHasher;
use crate::meta::MetaKind;

mod inspect;
pub use inspect::{budgets, log_list, map_structures};

/// One log block: its physical block and the logical page of each written page, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LogBlock {
    /// The physical block.
    pub block: BlockId,
    /// Logical page written at each page of the block, in write order.
    pub lpns: Vec<u32>,
}

impl LogBlock {
    /// An empty log block on `block`.
    pub fn new(block: BlockId) -> Self {
        LogBlock { block, lpns: Vec::new() }
    }

    /// A fresh log block taken from the free blocks.
    pub fn take(map: &mut BlockMap, dev: &mut Device) -> Result<Self> {
        Ok(LogBlock::new(map.take_log(dev)?))
    }

    /// A host write of `lpn` into the next page: its old copy is superseded and the
    /// log-page table (one RAM entry written) says where the new one is.
    pub fn append(&mut self, map: &mut BlockMap, dev: &mut Device, lpn: u32, version: u32) -> Result<()> {
        map.write_log(dev, lpn, version, self.block, self.lpns.len() as u32)?;
        self.lpns.push(lpn);
        dev.meta_write(MetaKind::LogTable, lpn, LOG_ENTRY_BYTES as u32);
        Ok(())
    }

    /// Feeds the block and its pages' LPNs into a state hash.
    pub fn hash_into(&self, h: &mut StateHasher) {
        h.u32(self.block);
        h.u32s(&self.lpns);
    }

    /// Whether every page is written.
    pub fn is_full(&self, ppb: u32) -> bool {
        self.lpns.len() as u32 >= ppb
    }

    /// The logical blocks it holds pages of (still valid or not), in LBN order.
    pub fn lbns(&self, ppb: u32) -> Vec<u32> {
        let mut lbns: Vec<u32> = self.lpns.iter().map(|&p| p / ppb).collect();
        lbns.sort_unstable();
        lbns.dedup();
        lbns
    }

    /// The logical block it holds in order from offset 0 (page i at offset i), if any.
    pub fn in_order(&self, ppb: u32) -> Option<u32> {
        let lbn = self.lpns.first()? / ppb;
        self.lpns.iter().enumerate().all(|(i, &l)| l == lbn * ppb + i as u32).then_some(lbn)
    }

    /// Why it cannot be switched in when it is not in order: pages of several logical
    /// blocks, or one block's pages out of order.
    fn disorder(&self, ppb: u32) -> MergeCause {
        let first = self.lpns.first().map(|l| l / ppb);
        if self.lpns.iter().any(|l| Some(l / ppb) != first) {
            MergeCause::Shared
        } else {
            MergeCause::OutOfOrder
        }
    }

    /// Logical blocks it holds valid pages of (their newest copy is here), first-written first.
    pub fn live_lbns(&self, map: &BlockMap, dev: &Device) -> Vec<u32> {
        let ppb = map.ppb();
        let mut out: Vec<u32> = Vec::new();
        for &l in &self.lpns {
            let here = map.log_copy(l).is_some_and(|p| dev.flash().block_of(p) == self.block);
            if here && !out.contains(&(l / ppb)) {
                out.push(l / ppb);
            }
        }
        out
    }
}

/// RAM per entry of a list of log blocks.
pub const LIST_ENTRY_BYTES: u64 = 8;

/// How many log blocks a fixed pool holds: `asked` (0: as many as there is room for), at
/// most every spare block but one, the merge target.
pub fn pool_size(spare_blocks: u32, asked: u32) -> usize {
    let room = spare_blocks.saturating_sub(1) as usize;
    if asked == 0 {
        room
    } else {
        (asked as usize).min(room)
    }
}

/// Checks the block map and the log blocks against flash: each marked as a log block and
/// with as many pages written as it lists, and (for a fixed pool) no more than `max` of them.
pub fn check<'a>(
    map: &BlockMap,
    dev: &Device,
    logs: impl Iterator<Item = &'a LogBlock> + Clone,
    max: Option<usize>,
) -> Result<()> {
    map.check(dev)?;
    map.check_logs(logs.clone().map(|l| &l.block))?;
    let bad = |m: String| Err(EngineError::Invariant(m));
    let n = logs.clone().count();
    if let Some(max) = max.filter(|&max| n > max) {
        return bad(format!("{n} log blocks, over the limit of {max}"));
    }
    for l in logs {
        if dev.flash().programmed_count(l.block) != l.lpns.len() as u32 {
            return bad(format!("log block {} lists {} pages", l.block, l.lpns.len()));
        }
    }
    Ok(())
}

/// What one log block's reclamation did: the merges by kind, pages copied and blocks erased.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MergeReport {
    /// Merges by kind (switch, partial, full).
    pub merges: [u32; 3],
    /// Pages copied.
    pub copies: u32,
    /// Data blocks merged (the association degree A for a full merge).
    pub degree: u32,
}

/// Which merges a scheme uses to reclaim a log block.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum MergeKinds {
    /// Switch, partial and full merges (Kim et al.'s BAST, FAST).
    #[default]
    All,
    /// Full merges only (seed 004 §2's BAST, Eq. (2), read literally).
    FullOnly,
}

/// Reclaims log block `log`: a switch or partial merge when it holds one logical block in
/// order, else a full merge of each logical block it holds valid pages of, then its erase.
/// Counted as one GC run with victim `log.block`.
pub fn merge_log(map: &mut BlockMap, dev: &mut Device, log: &LogBlock) -> Result<MergeReport> {
    merge_log_with(map, dev, log, MergeKinds::All)
}

/// [`merge_log`] with the merges `kinds` allows: with [`MergeKinds::FullOnly`] a log block
/// in order is merged in full too.
pub fn merge_log_with(
    map: &mut BlockMap,
    dev: &mut Device,
    log: &LogBlock,
    kinds: MergeKinds,
) -> Result<MergeReport> {
    let ppb = map.ppb();
    let mut report = MergeReport::default();
    dev.gc_start(log.block);
    // In order, and no newer copy of those pages went to the data block since (a write
    // that found its slot erased in a data block a merge had just rebuilt).
    let written = log.lpns.len() as u32;
    let ordered = log.in_order(ppb).filter(|&lbn| {
        (0..log.lpns.len() as u32).all(|o| {
            map.data_slot(dev, lbn * ppb + o)
                .is_none_or(|p| dev.flash().state(p) != crate::flash::PageState::Valid)
        })
    });
    let in_order = ordered.filter(|_| kinds == MergeKinds::All);
    if let Some(lbn) = in_order {
        let kind = if written == ppb { MergeKind::Switch } else { MergeKind::Partial };
        let data = map.data_block(lbn);
        let erases = erases_so_far(dev);
        report.copies = map.complete_in_order(dev, lbn, log.block, written)?;
        report.merges[kind as usize] += 1;
        report.degree = 1;
        let why = MergeWhy { cause: MergeCause::InOrder, written, degree: 1 };
        dev.merge(kind, lbn, data, log.block, map.data_block(lbn).unwrap_or(NONE), why);
        dev.merge_work(kind, u64::from(report.copies), erases_so_far(dev) - erases);
        dev.log_merged(u64::from(written), 0);
    } else {
        let cause = if ordered.is_some() {
            MergeCause::InOrder // in order, but full merges only
        } else if log.in_order(ppb).is_some() {
            MergeCause::Superseded
        } else {
            log.disorder(ppb)
        };
        let lbns = log.live_lbns(map, dev);
        let why = MergeWhy { cause, written, degree: lbns.len() as u32 };
        for (k, &lbn) in lbns.iter().enumerate() {
            // The victim's erase counts as the last merge's.
            report.copies += full_merge(map, dev, lbn, log.block, k + 1 == lbns.len(), why)?;
            report.merges[MergeKind::Full as usize] += 1;
            report.degree += 1;
        }
        if lbns.is_empty() {
            // Nothing live: just erased, counted as kind `empty` so merge erases add up.
            let erases = erases_so_far(dev);
            map.free(dev, log.block, Purpose::Merge)?;
            dev.empty_log_erased(erases_so_far(dev) - erases);
        }
        dev.log_merged(log.lpns.len() as u64, u64::from(report.degree));
    }
    dev.gc_end(log.block);
    Ok(report)
}

/// A full merge of logical block `lbn` with log block `log`: its newest pages, wherever
/// they are, copied into a fresh block, the old data block erased, and `log` too when
/// `erase_log` (its last logical block). Recorded as one merge event with its work; returns
/// the pages copied.
pub fn full_merge(
    map: &mut BlockMap,
    dev: &mut Device,
    lbn: u32,
    log: BlockId,
    erase_log: bool,
    why: MergeWhy,
) -> Result<u32> {
    let data = map.data_block(lbn);
    let erases = erases_so_far(dev);
    let copies = map.full_merge(dev, lbn, Purpose::Merge)?;
    if erase_log {
        map.free(dev, log, Purpose::Merge)?;
    }
    // Result `NONE` (u32::MAX): nothing of the block was left valid to keep.
    dev.merge(MergeKind::Full, lbn, data, log, map.data_block(lbn).unwrap_or(NONE), why);
    dev.merge_work(MergeKind::Full, u64::from(copies), erases_so_far(dev) - erases);
    Ok(copies)
}

/// Folds `lbn`'s replacement block `log` (NFTL's and DAC's: one logical block's updates in
/// arrival order, no log-page table) with its primary into a fresh primary: the replacement's
/// valid pages join the block map by the same newest-copy rule as reads, then a full merge.
/// Always full, never a switch or partial (thesis §2.2.2). The caller brackets it with
/// `gc_start` / `gc_end`.
pub fn fold_replacement(map: &mut BlockMap, dev: &mut Device, lbn: u32, log: &LogBlock) -> Result<()> {
    for (k, &lpn) in log.lpns.iter().enumerate() {
        let p = dev.flash().first_ppn(log.block) + k as u32;
        if dev.flash().state(p) == crate::flash::PageState::Valid {
            map.adopt_log_copy(lpn, p);
        }
    }
    let why = MergeWhy { cause: MergeCause::Fold, written: log.lpns.len() as u32, degree: 1 };
    full_merge(map, dev, lbn, log.block, true, why)?;
    dev.log_merged(log.lpns.len() as u64, 1);
    Ok(())
}

/// The newest valid copy of `lpn` in a replacement block of `ppb` pages (NFTL's and DAC's,
/// which keep no log-page table), found by reading the spare areas from the first page up to
/// the first erased one (all of them when full), each read charged.
pub fn scan_spares(
    dev: &mut Device,
    block: BlockId,
    ppb: u32,
    lpn: u32,
) -> Result<Option<crate::flash::Ppn>> {
    let first = dev.flash().first_ppn(block);
    let mut found = None;
    for p in first..first + ppb {
        let tag = dev.read_oob(p, Purpose::Data)?;
        if tag.kind == crate::flash::PageKind::None {
            break;
        }
        if tag.key == lpn && dev.flash().state(p) == crate::flash::PageState::Valid {
            found = Some(p);
        }
    }
    dev.oob_scan();
    Ok(found)
}

/// The first free page (offset) of a replacement block of `ppb` pages, found as the thesis'
/// write does (§2.3.4: "searching the replacement physical block sequentially"): spare areas
/// read from the first page up to the first erased one (all of them when full). `None`: full.
/// These reads count in `oob_reads`, not in `oob_scans` (which counts the reads' searches).
pub fn search_free_page(dev: &mut Device, block: BlockId, ppb: u32) -> Result<Option<u32>> {
    let first = dev.flash().first_ppn(block);
    for k in 0..ppb {
        if dev.read_oob(first + k, Purpose::Data)?.kind == crate::flash::PageKind::None {
            return Ok(Some(k));
        }
    }
    Ok(None)
}

fn erases_so_far(dev: &Device) -> u64 {
    dev.counters.erases[Purpose::Merge as usize]
}

/// Seed 004's device on a hand-sized array, for the log-block schemes' worked examples:
/// 8 blocks of 4 pages, half of them spare (4 logical blocks), with T_read = 25 + 4 × 70 µs,
/// T_write = 200 + 4 × 70 µs and T_erase = 2 ms, so merge costs come out in Eq. (2)/(3) terms.
#[cfg(test)]
pub(crate) mod seed004;

#[cfg(test)]
mod tests;
