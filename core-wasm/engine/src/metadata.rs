//! Seed 003's metadata placement (Bang et al., §III.B and §IV.B): where an FTL's metadata
//! (its mapping tables, directories, free-block and erase-count lists) lives when it does
//! not fit in on-chip SRAM, as a [`MetaHook`] that wraps any scheme: the scheme's metadata
//! accesses ([`Device::meta_read`] / [`Device::meta_write`]) reach it, and it charges each
//! level's time without the scheme knowing.
//!
//! The levels, per `metadata.model`:
//! - **SRAM**: a directory (physical address directory, metadata loading and location
//!   pointers, directly indexed by the metadata page) and a metadata page table of whole
//!   metadata pages managed by LRU. An access to a page the table holds costs one SRAM access.
//! - **DRAM cache buffer** (`cache`, `cache_battery`): direct-mapped lines of one metadata page
//!   each. An SRAM miss loads the page from its line (a DRAM page transfer), or on a line miss
//!   from NAND into the line first.
//! - **NAND metadata blocks**: pages read on a miss of every level above and written a page
//!   at a time. Without a battery every update must reach NAND at once (write-through: one
//!   page program per update, `no_cache` and `cache`); with one (`cache_battery`) an update
//!   dirties its DRAM line and reaches NAND only when the line is evicted.
//! - `ideal_sram`: all metadata in SRAM (the seed's oracle): one SRAM access each.
//! - `flat` (the default): no hook; each access is one RAM access (`ram_access_ns`), the
//!   engine's model before this one, so runs and state hashes are unchanged.
//!
//! Time goes to two of seed 003's four parts (Fig 3): SRAM accesses are **FTL execution**
//! (the RAM part of service time); moving metadata pages between the levels — DRAM page
//! transfers, NAND reads, NAND programs of propagated updates and write-backs — is
//! **metadata loading**. Host transfer is the device's host-interface time; internal
//! user-data transfer is the rest of the elapsed time (flash work, overlapped across units:
//! [`crate::metrics::TimeBreakdown`]).
//!
//! Besides the scheme's own tables, the device's erase counts (updated at each erase) and
//! free-block list (updated when a block is taken; a 4-byte link per block) are metadata the
//! model places too (they cost nothing without a model).
//!
//! Our choices (the seed gives no latencies or page layout): a metadata page is a flash page;
//! table `kind`'s entry `key` of `bytes` bytes sits in page `key * bytes / page_bytes` of that
//! table's own region, and its DRAM line is that page number plus an eighth of the buffer
//! per table (direct-mapped by address, the tables laid out apart); the NAND metadata blocks
//! are outside the FTL's flash array (their reads and programs take the device's page
//! latencies plus the bus transfer, serially on the controller, and neither wear nor fill
//! the data blocks); SRAM pages are never dirty (SRAM and DRAM are byte-addressable, an
//! update is propagated in place at once: one DRAM access when its line holds it).

use crate::cache::Lru;
use crate::config::Latencies;
pub use crate::config::{MetadataConfig, MetadataModel};
use crate::device::Device;
use crate::error::{EngineError, Result};
use crate::events::CacheLevel;
use crate::hash::StateHasher;
use crate::inspect::{Entry, Order, Row, Structure};
use crate::meta::{MetaAccess, MetaHook, MetaKind, MetaSummary};
use crate::vocab::cache_level_id;

impl MetadataConfig {
    /// The hook for this configuration on a device with `page_bytes` pages and `latency`
    /// (`None` for `flat`). Fails when the SRAM page table cannot hold one page.
    pub fn hook(&self, page_bytes: u32, latency: &Latencies) -> Result<Option<Box<dyn MetaHook>>> {
        if self.model == MetadataModel::Flat {
            return Ok(None);
        }
        Ok(Some(Box::new(Placement::new(self, page_bytes, latency)?)))
    }
}

/// One DRAM line: the metadata page it holds and whether it is newer than NAND.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Line {
    page: u64,
    dirty: bool,
}

/// The placement model as a [`MetaHook`].
#[derive(Debug, Clone)]
pub struct Placement {
    model: MetadataModel,
    page_bytes: u64,
    /// SRAM metadata page table (pages, LRU).
    sram: Lru<u64, ()>,
    /// DRAM lines (direct-mapped; none without a DRAM cache).
    dram: Vec<Option<Line>>,
    sram_ns: u64,
    dram_ns: u64,
    dram_page_ns: u64,
    nand_read_ns: u64,
    nand_write_ns: u64,
    directory_bytes: u64,
    /// Metadata pages seen (for the directory's size).
    pages_seen: std::collections::BTreeSet<u64>,
    stats: MetaSummary,
}

/// Pages of each table's region: a table's page `n` is `region * REGION + n`.
const REGION: u64 = 1 << 40;

fn region(kind: MetaKind) -> u64 {
    match kind {
        MetaKind::PageMap => 0,
        MetaKind::MapCache => 1,
        MetaKind::Directory => 2,
        MetaKind::BlockMap => 3,
        MetaKind::LogTable => 4,
        MetaKind::EraseCount => 5,
        MetaKind::FreeList => 6,
    }
}

impl Placement {
    /// The model over pages of `page_bytes`, NAND costs from `latency`.
    pub fn new(config: &MetadataConfig, page_bytes: u32, latency: &Latencies) -> Result<Self> {
        let page = u64::from(page_bytes);
        let sram_pages = config.sram_page_table_bytes / page;
        if sram_pages == 0 && config.model != MetadataModel::IdealSram {
            return Err(EngineError::Config(format!(
                "metadata.sram_page_table_bytes = {} cannot hold one {page}-byte metadata page",
                config.sram_page_table_bytes
            )));
        }
        let lines = match config.model {
            MetadataModel::Cache | MetadataModel::CacheBattery => (config.dram_bytes / page) as usize,
            _ => 0,
        };
        if lines == 0 && matches!(config.model, MetadataModel::Cache | MetadataModel::CacheBattery) {
            return Err(EngineError::Config(format!(
                "metadata.dram_bytes = {} cannot hold one {page}-byte metadata page",
                config.dram_bytes
            )));
        }
        let stats = MetaSummary { model: config.model.name().into(), ..MetaSummary::default() };
        Ok(Placement {
            model: config.model,
            page_bytes: page,
            sram: Lru::new(sram_pages as usize),
            dram: vec![None; lines],
            sram_ns: config.sram_access_ns,
            dram_ns: config.dram_access_ns,
            dram_page_ns: config.dram_page_ns,
            nand_read_ns: latency.page_read_ns + latency.transfer_ns_per_page,
            nand_write_ns: latency.program_ns + latency.transfer_ns_per_page,
            directory_bytes: config.sram_directory_bytes,
            pages_seen: Default::default(),
            stats,
        })
    }

    fn page_of(&self, a: &MetaAccess) -> u64 {
        region(a.kind) * REGION + u64::from(a.key) * u64::from(a.bytes.max(1)) / self.page_bytes
    }

    /// The DRAM line of `page`: its number in its table plus that table's offset, the tables
    /// laid out an eighth of the buffer apart (so the first pages of different tables do not
    /// share a line).
    fn line_of(&self, page: u64) -> usize {
        let lines = self.dram.len() as u64;
        let offset = (page / REGION) * lines.div_ceil(8);
        ((page % REGION + offset) % lines) as usize
    }

    fn nand_read(&mut self, dev: &mut Device) {
        self.stats.nand_reads += 1;
        dev.meta_load_time(self.nand_read_ns);
    }

    fn nand_write(&mut self, dev: &mut Device) {
        self.stats.nand_writes += 1;
        dev.meta_load_time(self.nand_write_ns);
    }

    /// The DRAM line of `page`, making it hold `page` (a miss reads NAND; the line's old
    /// page, when dirty, is written back first).
    fn dram_line(&mut self, page: u64, dev: &mut Device) -> usize {
        let i = self.line_of(page);
        match self.dram[i] {
            Some(l) if l.page == page => {
                self.stats.dram_hits += 1;
                dev.cache_hit(CacheLevel::Dram, page as u32);
            }
            old => {
                self.stats.dram_misses += 1;
                dev.cache_miss(CacheLevel::Dram, page as u32);
                if let Some(l) = old {
                    dev.cache_evict(CacheLevel::Dram, l.page as u32, l.dirty, self.page_bytes as u32);
                    if l.dirty {
                        self.stats.dram_writebacks += 1;
                        self.nand_write(dev);
                    }
                }
                self.nand_read(dev);
                self.dram[i] = Some(Line { page, dirty: false });
                dev.cache_insert(CacheLevel::Dram, page as u32, self.page_bytes as u32);
            }
        }
        i
    }

    /// Brings `page` into the SRAM page table (LRU; an evicted page is clean).
    fn load(&mut self, page: u64, dev: &mut Device) {
        match self.model {
            MetadataModel::NoCache => self.nand_read(dev),
            _ => {
                self.dram_line(page, dev);
                dev.meta_load_time(self.dram_page_ns);
            }
        }
        if let crate::cache::Inserted::Evicted(old, ()) = self.sram.insert(page, ()) {
            dev.cache_evict(CacheLevel::Sram, old as u32, false, self.page_bytes as u32);
        }
        dev.cache_insert(CacheLevel::Sram, page as u32, self.page_bytes as u32);
    }

    /// Propagates an update of `page` below SRAM.
    fn propagate(&mut self, page: u64, dev: &mut Device) {
        match self.model {
            MetadataModel::NoCache => self.nand_write(dev),
            MetadataModel::Cache => {
                let i = self.line_of(page);
                if self.dram[i].is_some_and(|l| l.page == page) {
                    dev.meta_load_time(self.dram_ns);
                }
                self.nand_write(dev);
            }
            MetadataModel::CacheBattery => {
                let i = self.dram_line(page, dev);
                self.dram[i] = Some(Line { page, dirty: true });
                dev.meta_load_time(self.dram_ns);
            }
            MetadataModel::IdealSram | MetadataModel::Flat => {}
        }
    }

    /// An inspection entry for metadata page `page`: its number inside its table's region
    /// as key, the region as group.
    fn entry(page: u64, dirty: bool) -> Entry {
        Entry {
            key: (page % REGION) as u32,
            value: None,
            dirty,
            group: Some((page / REGION) as u32),
            touched: false,
        }
    }
}

impl MetaHook for Placement {
    fn access(&mut self, a: MetaAccess, dev: &mut Device) {
        self.stats.accesses += 1;
        if matches!(a.kind, MetaKind::EraseCount | MetaKind::FreeList) {
            self.stats.device_accesses += 1;
        }
        // The SRAM access itself (directory and page table, or the whole table in SRAM) is
        // FTL execution.
        dev.ram_time(self.sram_ns);
        if self.model == MetadataModel::IdealSram {
            return;
        }
        let page = self.page_of(&a);
        self.pages_seen.insert(page);
        if self.sram.get(&page).is_some() {
            self.stats.sram_hits += 1;
            dev.cache_hit(CacheLevel::Sram, page as u32);
        } else {
            self.stats.sram_misses += 1;
            dev.cache_miss(CacheLevel::Sram, page as u32);
            self.load(page, dev);
        }
        if a.write {
            self.propagate(page, dev);
        }
    }

    fn summary(&self) -> Option<MetaSummary> {
        let mut s = self.stats.clone();
        s.dirty_dram_lines = self.dram.iter().flatten().filter(|l| l.dirty).count() as u64;
        // A directory entry per metadata page: its physical address (4 bytes) and its loading
        // pointer (2 bytes).
        s.directory_bytes_needed = self.pages_seen.len() as u64 * 6;
        s.directory_bytes = self.directory_bytes;
        Some(s)
    }

    fn reset_counters(&mut self) {
        self.stats = MetaSummary { model: self.stats.model.clone(), ..MetaSummary::default() };
    }

    fn hash_into(&self, h: &mut StateHasher) {
        for (&p, _) in self.sram.iter() {
            h.u64(p);
        }
        for l in &self.dram {
            match l {
                Some(l) => {
                    h.u64(l.page);
                    h.u32(u32::from(l.dirty));
                }
                None => h.u64(u64::MAX),
            }
        }
    }

    fn structures(&self, limit: usize) -> Vec<Structure> {
        if self.model == MetadataModel::IdealSram {
            return Vec::new();
        }
        let sram: Vec<Entry> = self.sram.iter().take(limit).map(|(&p, _)| Self::entry(p, false)).collect();
        let mut out = vec![Structure::List {
            id: "metadata-sram".into(),
            name: "SRAM metadata page table (page in its table, LRU; group = table)".into(),
            level: cache_level_id(CacheLevel::Sram),
            capacity: self.sram.capacity() as u64,
            len: self.sram.len() as u64,
            order: Order::Lru,
            truncated: self.sram.len() > sram.len(),
            entries: sram,
        }];
        if !self.dram.is_empty() {
            let held: Vec<&Line> = self.dram.iter().flatten().collect();
            out.push(Structure::List {
                id: "metadata-dram".into(),
                name: format!(
                    "DRAM cache buffer ({}, direct-mapped; dirty = not yet on NAND)",
                    if self.model == MetadataModel::CacheBattery { "write-back" } else { "write-through" }
                ),
                level: cache_level_id(CacheLevel::Dram),
                capacity: self.dram.len() as u64,
                len: held.len() as u64,
                order: Order::Level,
                truncated: held.len() > limit,
                entries: held.iter().take(limit).map(|l| Self::entry(l.page, l.dirty)).collect(),
            });
        }
        let on_nand: Vec<Row> = self
            .pages_seen
            .iter()
            .take(limit)
            .map(|&p| Row {
                key: (p % REGION) as u32,
                value: Some((p / REGION) as u32),
                in_ram: self.sram.contains(&p),
            })
            .collect();
        out.push(Structure::Table {
            id: "metadata-nand".into(),
            name: "NAND metadata pages touched (page → table; in RAM = in SRAM)".into(),
            len: self.pages_seen.len() as u64,
            truncated: self.pages_seen.len() > on_nand.len(),
            rows: on_nand,
        });
        out
    }

    fn clone_box(&self) -> Box<dyn MetaHook> {
        Box::new(self.clone())
    }
}

#[cfg(test)]
#[path = "metadata_tests.rs"]
mod tests;
