//! The RAM-management family's cost model (TreeFTL, Tree-PL, APS, JTL),
//! one place for all four so their service times compare.
//!
//! Service time has three parts, as TreeFTL's Fig. 6 splits it:
//! - **Flash**: page reads, programs and erases ([`Device::read`] / `program` / `erase`).
//! - **RAM**: one RAM operation per page-sized move or table access in RAM — copying host
//!   data into or out of a cached data page, storing a loaded translation page, reading or
//!   updating an entry of a cached translation page. [`Device::ram`] charges
//!   `latency.ram_access_ns` each; the `treeftl-slc` preset sets it to the paper's 2 µs per
//!   2 KB page (seed 000 §IV.A, after CDFTL).
//! - **LRU**: keeping recency order and choosing victims, in cache operations of
//!   `latency.cache_op_ns` ([`Device::cache_ops`]; 2 µs in the preset):
//!   - each LRU *touch* (move to the front, insert, remove) costs `lru_touch_ops`;
//!   - each *victim selection* over `n` candidates costs `1 + floor(log2 n)` operations by
//!     default (a selection structure ordered by recency, e.g. a heap of stamps), or
//!     `1 + n / lru_items_per_op` when that option is above 0 (a scan of recency stamps).
//!     Either way selection grows with the number of candidates: our model of the paper's
//!     claim (§III.B) that finding the LRU page among tens of thousands "is not trivial".
//!     Page-level selection (APS, Tree-PL) runs over every cached page or entry, group-level
//!     selection (TreeFTL) over the caching groups only. Over 32 768 pages (64 MB of 2 KB
//!     pages) a selection costs 16 operations (32 µs in the preset) by default, 33 with a
//!     scan of 1024 per operation; over 500 groups 9, or 1.
//!
//! - **JTL** has no victim search: a full level passes a random entry down, so its LRU part
//!   is `lru_touch_ops` per level an access passes through (up to the number of levels, the
//!   log of the mapping half).
//!
//! Units (review engine-model §2 TreeFTL row): the paper has one RAM unit, "one RAM
//! operation over a 2KB page costs 2µs" (after CDFTL), and no separate cost for a table
//! access. We charge both a page copy and an entry access as one such operation (one
//! `ram_access_ns`): a table access in RAM is at most a page-sized operation, and a second
//! constant would be ours, not the paper's. So the RAM part counts operations, not bytes.
//!
//! Buffered pages written back to flash (a pruned CDP, APS's evicted buffer page, a page
//! leaving JTL's group 0) are programs of host data: `Purpose::Data`. `Purpose::Buffer`
//! stays the real-time schemes' buffer *blocks* (the views colour a block it programs as a
//! buffer block). A write-back is told by the `cache_evict` (data page, dirty) event just
//! before its program, in all three schemes.
//!
//! The paper gives no formula for the LRU part (its Fig. 6 only shows the bars): the two
//! knobs are options of every scheme of the family, with the same keys and meaning on
//! `treeftl`, `tree-pl`, `aps` and `jtl` (`lru_touch_ops`; `lru_items_per_op`: 0 = the
//! logarithmic model, K = a scan of K candidates per operation — JTL accepts it but selects
//! no victim), so one setting re-runs the whole comparison under another assumption.

use crate::device::Device;

/// Default LRU operations per touch.
pub const TOUCH_OPS: u32 = 1;
/// Default selection model: logarithmic (0 = no scan).
pub const ITEMS_PER_OP: u32 = 0;

/// The LRU part of the cost model, as a scheme's options set it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LruCost {
    /// Cache operations per LRU touch.
    pub touch_ops: u32,
    /// Candidates one victim-selection operation scans; 0 = the logarithmic model.
    pub items_per_op: u32,
}

impl LruCost {
    /// The model (`touch_ops` per touch; selection logarithmic when `items_per_op` is 0,
    /// else a scan of that many candidates per operation).
    pub fn new(touch_ops: u32, items_per_op: u32) -> Self {
        LruCost { touch_ops, items_per_op }
    }

    /// Charges `n` LRU touches.
    pub fn touch(&self, n: u64, dev: &mut Device) {
        dev.cache_ops(n * u64::from(self.touch_ops));
    }

    /// Cache operations of one victim selection over `candidates`.
    pub fn select_ops(&self, candidates: usize) -> u64 {
        match self.items_per_op {
            0 => 1 + u64::from((candidates.max(1)).ilog2()),
            k => 1 + candidates as u64 / u64::from(k),
        }
    }

    /// Charges one victim selection over `candidates`.
    pub fn select(&self, candidates: usize, dev: &mut Device) {
        dev.cache_ops(self.select_ops(candidates));
    }
}
