//! HCFTL's options: the paper's configuration by default (seed 001 §IV.A), the rest our
//! choices with the alternatives as named values.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use super::dtp_index::IndexDesign;
use super::ghost_cmt::Packing;

/// HCFTL options (`options.*` in the config when `scheme` is `hcftl`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct HcftlOptions {
    /// Share of the RAM budget for the Ghost-CMT (the paper: 0.14 of 2 MB = 0.07; Fig. 7(b)
    /// varies it from 0.02 to 0.12). At least two entries.
    pub ghost_ratio: f64,
    /// Share of the RAM budget for the DTP index (the paper: 0.6 of 2 MB = 0.3). The CMT
    /// gets what the GTD, the Ghost-CMT and the DTP index leave.
    pub dtp_index_ratio: f64,
    /// Most DTPs (the paper: 1600). Fewer when the DTP index's share cannot hold that many
    /// records with at least 4 filter bits per entry; the filters fill the share.
    pub max_dtps: u32,
    /// DTPs above this share of the most are merged into the STPs (oldest first); at the
    /// most, a new DTP first merges the oldest on the spot whatever `merge` says.
    pub merge_threshold: f64,
    /// When DTPs above the threshold are merged: during idle time (the paper) or at once.
    pub merge: MergeWhen,
    /// Which Ghost-CMT entries form a DTP: the tightest LPN window (the paper) or the oldest.
    pub packing: PackingRule,
    /// What the DTP index tests: range then bloom filter (the paper), or one of them.
    pub index: IndexTests,
}

impl Default for HcftlOptions {
    fn default() -> Self {
        HcftlOptions {
            ghost_ratio: 0.07,
            dtp_index_ratio: 0.3,
            max_dtps: 1600,
            merge_threshold: 0.75,
            merge: MergeWhen::Idle,
            packing: PackingRule::Tightest,
            index: IndexTests::RangeAndBloom,
        }
    }
}

/// When DTPs above the threshold are merged.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum MergeWhen {
    /// In the background, while the device is idle (seed 001 §III.B).
    Idle,
    /// Right after the DTP write that crossed the threshold.
    OnTheSpot,
}

/// Which Ghost-CMT entries form a DTP.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum PackingRule {
    /// The entries whose max − min LPN is smallest (seed 001 §III.D).
    Tightest,
    /// The entries evicted earliest (no Ghost-CMT choice, Fig. 7(a)).
    Oldest,
}

/// What the DTP index tests before a DTP is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum IndexTests {
    /// `[min, max]`, then the bloom filter (seed 001 §III.C).
    RangeAndBloom,
    /// The bloom filter only (Fig. 7(a) "BF").
    Bloom,
    /// `[min, max]` only (Fig. 7(a) "MM").
    Range,
}

impl IndexTests {
    /// The index's design.
    pub fn design(self) -> IndexDesign {
        match self {
            IndexTests::RangeAndBloom => IndexDesign::RangeAndBloom,
            IndexTests::Bloom => IndexDesign::Bloom,
            IndexTests::Range => IndexDesign::Range,
        }
    }
}

impl PackingRule {
    /// The Ghost-CMT's packing.
    pub fn packing(self) -> Packing {
        match self {
            PackingRule::Tightest => Packing::Tightest,
            PackingRule::Oldest => Packing::Oldest,
        }
    }
}

/// Named option sets: the paper's, merge on the spot, and Fig. 7(a)'s index designs.
pub fn variants() -> Vec<(&'static str, Value)> {
    vec![
        ("paper (idle-time merge, tightest packing, range + bloom)", json!({})),
        ("merge on the spot", json!({"merge": "on_the_spot"})),
        ("bloom filter only (Fig. 7a BF)", json!({"index": "bloom"})),
        ("range only, oldest packing (Fig. 7a MM)", json!({"index": "range", "packing": "oldest"})),
    ]
}
