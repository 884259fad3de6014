//! `treeftl` and `tree-pl`: TreeFTL (Wang & Wong, seed 000 §III) — one RAM budget for
//! cached translation pages (CTPs) and cached data pages (CDPs), organised as a tree: the
//! GTD at the root, CTPs below it, CDPs as leaves. A CTP and its CDPs form a **caching
//! group** (CG); victims are whole groups chosen by LRU over groups ("pruning"). Tree-PL is
//! the same scheme with victims chosen at page level (§IV.B), registered as a second spec
//! of this folder: the code is one, only the victim granularity differs.
//!
//! The rules (the paper's, `tree.rs` implements them):
//! - No fixed split: CTPs and CDPs are both page-sized nodes of one budget (the RAM left
//!   after the GTD), so the split between mapping and buffering follows the workload.
//! - A GTD entry points into RAM while its translation page is cached; a CTP entry points
//!   into RAM while its data page is cached ([`tree::IN_RAM`]).
//! - A random write is buffered as a CDP: (A) CTP and CDP cached — written in RAM, no flash;
//!   (B) CTP cached, data page on flash — the page is read in (B-3), then written in RAM;
//!   (C) neither cached — two reads, the translation page (C-2) and the data page (C-4).
//! - A random read loads the CTP if needed but reads the data page straight from flash
//!   without caching it (a buffered page is served from RAM).
//! - A request of more than `sequential_pages` pages (default half a block: 32 of 64 in the
//!   paper) is sequential: its data bypasses RAM (written to or read from flash directly);
//!   its mapping still goes through the tree.
//!
//! The paper's text stops before its pruning rule; ours and the other choices are in the
//! notes below.
//!
#![doc = concat!(include_str!("notes.md"), "\n", include_str!("../demand/many_units.md"))]

pub(crate) mod bypass;
mod cdps;
mod host;
mod inspect;
mod tree;

pub mod cost;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::{BuildCtx, Ftl, OpenBlocks, OptionsSpec, SchemeInfo, SchemeSpec};
use crate::error::Result;
use crate::events::CacheLevel;
use crate::vocab::StopAt;

pub use tree::TreeFtl;

const STOPS: &[StopAt] = &[StopAt::Gc, StopAt::MappingMiss, StopAt::Prune];
const CACHES: &[(CacheLevel, &str)] = &[
    (CacheLevel::TranslationPage, "CTP (cached translation page)"),
    (CacheLevel::DataPage, "CDP (cached data page)"),
];

fn variants() -> Vec<(&'static str, serde_json::Value)> {
    vec![
        ("prune whole groups (ours)", json!({})),
        ("data first, CTP at a later prune", json!({"prune": "data_first"})),
        ("no read-in on a write miss", json!({"read_in": false})),
        ("sequential above 4 pages, scanning LRU", json!({"sequential_pages": 4, "lru_items_per_op": 64})),
    ]
}

/// The `treeftl` registry entry: group-level victims.
pub static SPEC: SchemeSpec = SchemeSpec {
    info: SchemeInfo {
        id: "treeftl",
        name: "TreeFTL: GTD → CTP → CDP tree, caching groups pruned by LRU",
        family: "demand",
        source: "Wang & Wong, TreeFTL (seed 000) §III; pruning rule ours (the copy stops before it)",
    },
    notes: concat!(include_str!("notes.md"), "\n", include_str!("../demand/many_units.md")),
    stops: STOPS,
    caches: CACHES,
    options: OptionsSpec::of::<TreeOptions>(),
    open_blocks: OpenBlocks::DEMAND,
    variants,
    build: |ctx, options| build(ctx, options, "treeftl", Victims::Group),
};

/// The `tree-pl` registry entry: the same tree, page-level LRU victims.
pub static SPEC_PL: SchemeSpec = SchemeSpec {
    info: SchemeInfo {
        id: "tree-pl",
        name: "Tree-PL: TreeFTL with page-level LRU victims",
        family: "demand",
        source: "Wang & Wong, TreeFTL (seed 000) §IV.B (Fig. 6)",
    },
    notes: concat!(include_str!("notes.md"), "\n", include_str!("../demand/many_units.md")),
    stops: STOPS,
    caches: CACHES,
    options: OptionsSpec::of::<TreeOptions>(),
    open_blocks: OpenBlocks::DEMAND,
    variants: || variants().into_iter().filter(|(_, o)| o.get("prune").is_none()).collect(),
    build: |ctx, options| build(ctx, options, "tree-pl", Victims::Page),
};

fn build(ctx: &BuildCtx, options: &serde_json::Value, id: &str, victims: Victims) -> Result<Box<dyn Ftl>> {
    let options = super::parse_options::<TreeOptions>(id, options)?;
    Ok(Box::new(TreeFtl::new(ctx, options, victims)?))
}

/// Victim granularity: what the scheme is (TreeFTL or Tree-PL), not an option.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Victims {
    /// LRU over caching groups (TreeFTL).
    Group,
    /// LRU over every cached page (Tree-PL).
    Page,
}

/// What a prune flushes and when the CTP leaves (our choice; the paper's text is lost).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Prune {
    /// The LRU group leaves whole: CDPs programmed in LPN order, then the CTP (if dirty).
    WholeGroup,
    /// The LRU group loses its CDPs; its CTP leaves at a later prune that finds it bare.
    DataFirst,
}

/// TreeFTL / Tree-PL options (`options.*` in the config).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct TreeOptions {
    /// What a group-level prune flushes: `whole_group` (default, ours: CDPs then CTP) or
    /// `data_first` (CDPs now, the CTP at a later prune). Tree-PL ignores it.
    pub prune: Prune,
    /// On a buffer miss of a write, read the page's old flash copy into RAM first (the
    /// paper's Fig. 2 steps B-3 and C-4; default on). Off: a page-sized write replaces the
    /// page without reading it. APS and JTL have the same option (default off there).
    pub read_in: bool,
    /// A request of more pages than this is sequential and bypasses RAM for its data;
    /// 0 (default) = half a block (the paper: 32 pages of 64).
    #[schemars(extend("x-units" = "pages"))]
    pub sequential_pages: u32,
    /// Cache operations per LRU touch (see the family cost model, `cost.rs`).
    #[schemars(extend("x-units" = "ops"))]
    pub lru_touch_ops: u32,
    /// LRU victim-selection cost over n candidates (the family cost model, an assumption the
    /// paper does not give): 0 (default) = 1 + log2 n cache operations; K above 0 = a scan,
    /// 1 + n / K. Either way page-level selection over many pages (Tree-PL) costs more than
    /// group-level selection over few groups.
    #[schemars(extend("x-units" = "items"))]
    pub lru_items_per_op: u32,
}

impl Default for TreeOptions {
    fn default() -> Self {
        TreeOptions {
            prune: Prune::WholeGroup,
            read_in: true,
            sequential_pages: 0,
            lru_touch_ops: cost::TOUCH_OPS,
            lru_items_per_op: cost::ITEMS_PER_OP,
        }
    }
}

#[cfg(test)]
mod tests;
