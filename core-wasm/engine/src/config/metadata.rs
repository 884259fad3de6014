//! The metadata placement settings (`metadata.*` in the config): which of seed 003's memory
//! configurations holds the scheme's metadata, and the sizes and latencies of its memories.
//! The model itself is [`crate::metadata`].

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Where metadata lives (seed 003 §IV.B's four memory configurations, plus `flat`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum MetadataModel {
    /// No placement model: each metadata access is one RAM access (`ram_access_ns`).
    #[default]
    Flat,
    /// All metadata in SRAM: no loading at all (the seed's oracle).
    IdealSram,
    /// 32 KB SRAM and NAND, no DRAM cache: every SRAM miss reads NAND, every update is
    /// programmed to NAND.
    NoCache,
    /// SRAM, a write-through DRAM cache, NAND.
    Cache,
    /// SRAM, a battery-backed write-back DRAM cache, NAND.
    CacheBattery,
}

impl MetadataModel {
    /// Stable name (as configured).
    pub fn name(self) -> &'static str {
        match self {
            MetadataModel::Flat => "flat",
            MetadataModel::IdealSram => "ideal_sram",
            MetadataModel::NoCache => "no_cache",
            MetadataModel::Cache => "cache",
            MetadataModel::CacheBattery => "cache_battery",
        }
    }

    /// The four configurations seed 003 compares, in its order.
    pub const SEED_003: [MetadataModel; 4] =
        [MetadataModel::IdealSram, MetadataModel::NoCache, MetadataModel::Cache, MetadataModel::CacheBattery];
}

/// The metadata placement model and its memories (`metadata.*` in the config).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct MetadataConfig {
    /// Where metadata lives: `flat` (no model), `ideal_sram`, `no_cache`, `cache` (write-
    /// through DRAM) or `cache_battery` (write-back DRAM).
    pub model: MetadataModel,
    /// SRAM for the directory (physical address directory, loading and location pointers);
    /// reported against what the metadata needs, not enforced.
    #[schemars(extend("x-units" = "bytes"))]
    pub sram_directory_bytes: u64,
    /// SRAM for the metadata page table (whole metadata pages, LRU).
    #[schemars(extend("x-units" = "bytes"))]
    pub sram_page_table_bytes: u64,
    /// DRAM reserved for metadata (direct-mapped lines of one metadata page).
    #[schemars(extend("x-units" = "bytes"))]
    pub dram_bytes: u64,
    /// One SRAM access.
    #[schemars(extend("x-units" = "ns"))]
    pub sram_access_ns: u64,
    /// One DRAM access (an update propagated in place).
    #[schemars(extend("x-units" = "ns"))]
    pub dram_access_ns: u64,
    /// Moving one metadata page between DRAM and SRAM.
    #[schemars(extend("x-units" = "ns"))]
    pub dram_page_ns: u64,
}

impl Default for MetadataConfig {
    fn default() -> Self {
        // Seed 003 §IV.A: 32 KB SRAM (24 KB directory, 8 KB page table), 8 MB of the 64 MB
        // DRAM for metadata. Latencies are ours (the seed gives none): an ARM7-class
        // scratchpad at 200 MHz (5 ns), a DDR random access (50 ns), a 4 KB page over a
        // ~1 GB/s DRAM bus (4 µs).
        MetadataConfig {
            model: MetadataModel::Flat,
            sram_directory_bytes: 24 * 1024,
            sram_page_table_bytes: 8 * 1024,
            dram_bytes: 8 * 1024 * 1024,
            sram_access_ns: 5,
            dram_access_ns: 50,
            dram_page_ns: 4_000,
        }
    }
}

impl MetadataConfig {
    /// Whether it is the default (no model): left out of a serialised config.
    pub fn is_default(&self) -> bool {
        *self == MetadataConfig::default()
    }
}
