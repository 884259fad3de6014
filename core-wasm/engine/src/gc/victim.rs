//! Victim-selection policies. All see the same candidates (see [`super::greedy`]): blocks
//! that are programmed, not entirely valid, and allowed by the caller's `collectable`.
//!
//! - **Greedy**: fewest valid pages (least copying now). The thesis' GC.
//! - **Cost-benefit** (Kawaguchi et al., as in LFS/eNVy and original DFTL): maximise
//!   age × (1 − u) / 2u, with u = valid / pages-per-block and age from [`BlockAges`]. It
//!   lets cold blocks with a few more valid pages go before hot blocks that are about to
//!   invalidate more pages by themselves. u = 0 counts as infinite benefit.
//! - **FIFO**: the block first written longest ago (a circular log).
//!
//! Ties go to fewer valid pages, then the lowest block number, so runs are deterministic.
//! Scores are compared with exact integer cross-multiplication, never floats.

use std::cmp::Ordering;

use super::{candidates, candidates_among, greedy, greedy_on, BlockAges, UnitBlocks};
use crate::config::VictimPolicy;
use crate::flash::{BlockId, FlashArray};

impl VictimPolicy {
    /// Picks a victim among the candidates `collectable` allows; `None` when no block would
    /// free a page. Greedy ignores `ages`.
    pub fn select(
        self,
        flash: &FlashArray,
        ages: &BlockAges,
        collectable: impl Fn(BlockId) -> bool,
    ) -> Option<BlockId> {
        match self {
            VictimPolicy::Greedy => greedy(flash, collectable),
            VictimPolicy::CostBenefit => cost_benefit(flash, ages, collectable),
            VictimPolicy::Fifo => fifo(flash, ages, collectable),
        }
    }

    /// [`VictimPolicy::select`] among the blocks of `unit` only.
    pub fn select_on(
        self,
        flash: &FlashArray,
        ages: &BlockAges,
        unit: UnitBlocks,
        collectable: impl Fn(BlockId) -> bool,
    ) -> Option<BlockId> {
        match self {
            VictimPolicy::Greedy => greedy_on(flash, unit, collectable),
            // Both rank every candidate by a total order (block number last), so the unit's
            // blocks alone, in any order, give the same victim.
            VictimPolicy::CostBenefit => {
                best_cost_benefit(flash, ages, candidates_among(flash, unit.iter(), collectable))
            }
            VictimPolicy::Fifo => {
                first_written(flash, ages, candidates_among(flash, unit.iter(), collectable))
            }
        }
    }
}

/// Cost-benefit victim: the candidate with the highest age × (1 − u) / 2u.
pub fn cost_benefit(
    flash: &FlashArray,
    ages: &BlockAges,
    collectable: impl Fn(BlockId) -> bool,
) -> Option<BlockId> {
    best_cost_benefit(flash, ages, candidates(flash, collectable))
}

/// The highest-scoring of `candidates` (see [`cost_benefit`]).
fn best_cost_benefit(
    flash: &FlashArray,
    ages: &BlockAges,
    candidates: impl Iterator<Item = BlockId>,
) -> Option<BlockId> {
    let full = u128::from(flash.pages_per_block());
    // (age, valid, block); "greater" is the better victim.
    let rank = |&(age_a, va, a): &(u64, u32, BlockId), &(age_b, vb, b): &(u64, u32, BlockId)| {
        let score = match (va, vb) {
            (0, 0) => age_a.cmp(&age_b),
            (0, _) => Ordering::Greater,
            (_, 0) => Ordering::Less,
            // age_a (P − va) / 2 va  vs  age_b (P − vb) / 2 vb, multiplied out.
            _ => (u128::from(age_a) * (full - u128::from(va)) * u128::from(vb))
                .cmp(&(u128::from(age_b) * (full - u128::from(vb)) * u128::from(va))),
        };
        score.then(vb.cmp(&va)).then(b.cmp(&a))
    };
    candidates.map(|b| (ages.age(b), flash.valid_count(b), b)).max_by(rank).map(|c| c.2)
}

/// FIFO victim: the candidate first written longest ago.
pub fn fifo(flash: &FlashArray, ages: &BlockAges, collectable: impl Fn(BlockId) -> bool) -> Option<BlockId> {
    first_written(flash, ages, candidates(flash, collectable))
}

/// The first written of `candidates` (see [`fifo`]).
fn first_written(
    flash: &FlashArray,
    ages: &BlockAges,
    candidates: impl Iterator<Item = BlockId>,
) -> Option<BlockId> {
    candidates.min_by_key(|&b| (ages.first_written(b).unwrap_or(u64::MAX), flash.valid_count(b), b))
}

#[cfg(test)]
#[path = "victim_tests.rs"]
mod tests;
