//! `jtl`: JTL, joint management of RAM for mapping and data (Huang, Chang & Kuo, DAC'12), as
//! TreeFTL (seed 000 §II.B, §III.A, §IV) describes it — our copy of the JTL paper itself is
//! not among the sources, so the description is the one we follow.
//!
//! The rules (`scheme.rs` implements them, `host.rs` plugs them into the trait):
//! - RAM (after the GTD) is split statically in halves: one for mapping entries, one for
//!   data pages.
//! - The mapping half holds a multi-level structure (`levels.rs`): level n holds 2^n
//!   entries; as many levels as the half holds (2^L − 1 entries of 8 bytes). Levels 0..=m
//!   form group 0: as many entries as the data half holds pages (2^(m+1) − 1), and their
//!   data pages are kept in RAM. The remaining levels form group 1: entries whose data is on
//!   flash.
//! - The entry of the most recently used page enters level 0; a full level passes a
//!   randomly chosen entry (the engine's seeded generator, `config.seed`) one level down, and
//!   so on until a level has room (the vacancy the accessed entry left, or a level not yet
//!   full). An entry passed from level m to m + 1 has its data page flushed (programmed
//!   when written in RAM, dropped when flash has it). An entry passed beyond the last level
//!   leaves RAM and is written back to its translation page when dirty.
//! - A request of more than `sequential_pages` pages (half a block by default, the same
//!   threshold as TreeFTL, which says JTL does the same) is sequential: its data is written
//!   to or read from flash directly, and the structure's recency is not changed.
//!
#![doc = concat!(include_str!("notes.md"), "\n", include_str!("../demand/many_units.md"))]

mod host;
mod inspect;
mod levels;
mod scheme;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::treeftl::cost;
use super::{OpenBlocks, OptionsSpec, SchemeInfo, SchemeSpec};
use crate::events::CacheLevel;
use crate::vocab::StopAt;

pub use scheme::Jtl;

/// The scheme's registry entry.
pub static SPEC: SchemeSpec = SchemeSpec {
    info: SchemeInfo {
        id: "jtl",
        name: "JTL: static halves, multi-level entries with random push-down",
        family: "demand",
        source: "Huang, Chang & Kuo DAC'12, as described by TreeFTL (seed 000) §II.B, §III.A and §IV",
    },
    notes: concat!(include_str!("notes.md"), "\n", include_str!("../demand/many_units.md")),
    stops: &[StopAt::Gc, StopAt::MappingMiss, StopAt::Prune],
    caches: &[
        (CacheLevel::Entry, "Multi-level mapping entries"),
        (CacheLevel::DataPage, "Data pages (group 0)"),
    ],
    options: OptionsSpec::of::<JtlOptions>(),
    open_blocks: OpenBlocks::DEMAND,
    variants: || {
        vec![
            ("reads and writes cached (ours)", json!({})),
            ("writes only", json!({"cache_reads": false})),
            ("read-in on a write miss", json!({"read_in": true})),
            ("sequential above 4 pages", json!({"sequential_pages": 4})),
            (
                "sequential entries not cached",
                json!({"sequential_entries": "not_cached", "sequential_pages": 4}),
            ),
        ]
    },
    build: |ctx, options| {
        let options = super::parse_options::<JtlOptions>("jtl", options)?;
        Ok(Box::new(Jtl::new(ctx, options)?))
    },
};

/// RAM one mapping entry takes in the mapping half (LPN and PPN, as APS's entries).
pub const ENTRY_BYTES: u64 = 8;

/// JTL options (`options.*` in the config when `scheme` is `jtl`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct JtlOptions {
    /// A read's page is cached in group 0 too (default on: the top level is the most
    /// recently used page, read or written). Off: only written pages are kept in RAM.
    pub cache_reads: bool,
    /// A request of more pages than this is sequential and bypasses RAM for its data;
    /// 0 (default) = half a block (TreeFTL's threshold: 32 pages of 64).
    #[schemars(extend("x-units" = "pages"))]
    pub sequential_pages: u32,
    /// Where the entry of a sequential page goes when RAM does not hold it: `group_1`
    /// (default, ours) = into the top level of group 1 (cached, its data on flash);
    /// `not_cached` = nowhere: its translation page is updated at the end of the request.
    pub sequential_entries: SequentialEntries,
    /// On a group-0 miss of a write, read the page's old flash copy first (the same option
    /// as TreeFTL's `read_in`; default off here, on there).
    pub read_in: bool,
    /// Cache operations per level an access passes through (the family cost model's LRU
    /// part: a random pick and a move per level).
    #[schemars(extend("x-units" = "ops"))]
    pub lru_touch_ops: u32,
    /// LRU victim-selection cost over n candidates (the family cost model, an assumption the
    /// paper does not give): 0 (default) = 1 + log2 n cache operations; K above 0 = a scan,
    /// 1 + n / K. JTL selects no LRU victim (a full level passes a random entry down), so it
    /// has no effect here; accepted so one setting applies to the whole family.
    #[schemars(extend("x-units" = "items"))]
    pub lru_items_per_op: u32,
}

impl Default for JtlOptions {
    fn default() -> Self {
        JtlOptions {
            cache_reads: true,
            sequential_pages: 0,
            sequential_entries: SequentialEntries::Group1,
            read_in: false,
            lru_touch_ops: cost::TOUCH_OPS,
            lru_items_per_op: cost::ITEMS_PER_OP,
        }
    }
}

/// Where a sequential page's entry goes when RAM does not hold it (our choice: the
/// description says only that the data bypasses RAM).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SequentialEntries {
    /// Into the top level of group 1: the mapping is cached, the data is on flash, and
    /// group 0's pages are not disturbed.
    #[serde(rename = "group_1")]
    Group1,
    /// Not cached: the request's changed entries are written to their translation pages
    /// when it ends.
    NotCached,
}

#[cfg(test)]
mod tests;
