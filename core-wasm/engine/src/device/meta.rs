//! The metadata-access path: every access a scheme makes to its mapping tables (a page-map
//! entry, a cached mapping entry, a directory entry) goes through [`Device::meta_read`] /
//! [`Device::meta_write`], so a wrapper can decide where the metadata lives and what an
//! access costs. Seed 003 (Bang et al.) places metadata in SRAM, a DRAM cache or NAND pages:
//! such a placement model installs a [`MetaHook`] with [`Device::set_meta_hook`] and charges
//! each access itself (an SRAM hit, a DRAM access, a NAND page read through the device).
//! Without a hook an access costs one RAM access (`device.latency.ram_access_ns`), the
//! engine's model before the path existed, so runs and state hashes are unchanged.
//!
//! Cache management (searching a cache, updating its recency order) stays on
//! [`Device::cache_ops`]: it is CPU work on the cache's own structure, not a table access.

use crate::device::Device;

impl Device {
    /// A lookup of a mapping-table entry (`key`, `bytes` long) in table `kind`: one RAM
    /// access, or whatever the installed [`MetaHook`] charges.
    #[inline(always)] // see `meta`
    pub fn meta_read(&mut self, kind: MetaKind, key: u32, bytes: u32) {
        self.meta(MetaAccess { kind, write: false, key, bytes });
    }

    /// An update of a mapping-table entry; costs as [`Device::meta_read`].
    #[inline(always)] // see `meta`
    pub fn meta_write(&mut self, kind: MetaKind, key: u32, bytes: u32) {
        self.meta(MetaAccess { kind, write: true, key, bytes });
    }

    /// Without a hook an access is a RAM charge, in the caller: every scheme makes one or more
    /// per page it serves, and a call per access cost `page` 3 % of its stepping.
    #[inline(always)]
    fn meta(&mut self, access: MetaAccess) {
        if self.meta_hook.is_none() {
            self.ram(1);
        } else {
            self.meta_hooked(access);
        }
    }

    /// [`Device::meta`] through the installed hook.
    #[inline(never)]
    fn meta_hooked(&mut self, access: MetaAccess) {
        if let Some(mut hook) = self.meta_hook.take() {
            hook.access(access, self);
            self.meta_hook = Some(hook);
        }
    }

    /// An update of the device-wide metadata every FTL keeps besides its map (a block's erase
    /// count, the free-block list), seen only by an installed [`MetaHook`]: without one it
    /// costs nothing, as before the placement model existed.
    pub fn device_meta(&mut self, kind: MetaKind, block: u32) {
        if self.meta_hook.is_some() {
            self.meta(MetaAccess { kind, write: true, key: block, bytes: 4 });
        }
    }

    /// Installs (or with `None` removes) the wrapper that charges metadata accesses.
    pub fn set_meta_hook(&mut self, hook: Option<Box<dyn MetaHook>>) {
        self.meta_hook = hook;
    }

    /// The installed metadata hook, if any.
    pub fn meta_hook(&self) -> Option<&dyn MetaHook> {
        self.meta_hook.as_deref()
    }
}

/// Which table an access touches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MetaKind {
    /// A page-level map entry held in full in RAM (`page`'s LPN → PPN table).
    PageMap,
    /// A cached mapping entry (DFTL's CMT).
    MapCache,
    /// A directory entry locating a translation page (DFTL's GTD).
    Directory,
    /// A block-map entry (LBN → data block) of the block-mapped and log-block schemes.
    BlockMap,
    /// A log-page table entry (LPN → page in a log block) of the log-block schemes.
    LogTable,
    /// A block's erase count (wear levelling), updated at each erase.
    EraseCount,
    /// The free-block list, updated when a block is taken from it.
    FreeList,
}

/// One metadata access.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MetaAccess {
    /// The table.
    pub kind: MetaKind,
    /// `true` for an update, `false` for a lookup.
    pub write: bool,
    /// The entry's key (logical page, translation-page number).
    pub key: u32,
    /// Bytes the entry occupies.
    pub bytes: u32,
}

/// What a placement model did over the run (metrics' `metadata`): accesses, hits and misses
/// per level, NAND metadata page reads and writes.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct MetaSummary {
    /// The model's name (`metadata.model`).
    pub model: String,
    /// Metadata accesses.
    pub accesses: u64,
    /// Of those, updates of the device's erase counts and free list (the rest are the
    /// scheme's own tables).
    pub device_accesses: u64,
    /// Accesses whose page the SRAM page table held.
    pub sram_hits: u64,
    /// Accesses that had to load their page into SRAM.
    pub sram_misses: u64,
    /// Pages found in the DRAM cache buffer.
    pub dram_hits: u64,
    /// Pages the DRAM cache buffer did not hold (read from NAND).
    pub dram_misses: u64,
    /// NAND metadata page reads.
    pub nand_reads: u64,
    /// NAND metadata page programs (write-through updates and write-backs).
    pub nand_writes: u64,
    /// Dirty DRAM lines written back on eviction (write-back only).
    pub dram_writebacks: u64,
    /// Dirty DRAM lines now (updates not yet on NAND).
    pub dirty_dram_lines: u64,
    /// SRAM configured for the directory.
    pub directory_bytes: u64,
    /// What a directory of the metadata pages touched so far needs (6 bytes a page).
    pub directory_bytes_needed: u64,
}

/// A wrapper's view of metadata accesses: called for each one instead of the default RAM
/// charge, with the device to charge the access to.
pub trait MetaHook: std::fmt::Debug {
    /// Charges (or records) one access.
    fn access(&mut self, access: MetaAccess, dev: &mut Device);
    /// What it did so far, for the metrics. Default: nothing to report.
    fn summary(&self) -> Option<MetaSummary> {
        None
    }
    /// Clears its counters (measurement starts after the pre-fill); its contents stay.
    fn reset_counters(&mut self) {}
    /// Feeds its state (what each level holds) into a state hash. Default: nothing.
    fn hash_into(&self, _h: &mut crate::hash::StateHasher) {}
    /// What each of its memories holds now, as inspection shapes (the first `limit` entries
    /// of each), shown after the scheme's own. Default: none.
    fn structures(&self, _limit: usize) -> Vec<crate::inspect::Structure> {
        Vec::new()
    }
    /// A boxed copy (checkpoints clone the device).
    fn clone_box(&self) -> Box<dyn MetaHook>;
}

impl Clone for Box<dyn MetaHook> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}
