//! Typed events: what the FTL did, in order, so the UI can animate and narrate it.
//! Recording is optional ([`crate::config::SimConfig::record_events`]); with it off the
//! engine keeps counters only (fast mode).
//!
//! ## Binary records (the hot channel)
//!
//! [`record::encode`] writes each event as [`record::EVENT_WORDS`] = 8 `u32` words
//! `[kind, a, b, c, d, e, f, g]`; unused words are 0, 64-bit values are split `lo, hi`.
//! `web/src/engine/eventCodec.ts` mirrors this table (and only it); [`record::decode`] is
//! the Rust reading, and a test checks it gives back the events that JSON carries.
//!
//! | kind | event | a | b | c | d | e | f | g |
//! |---|---|---|---|---|---|---|---|---|
//! | 0 | request | index lo | index hi | op (0 read, 1 write, 2 trim) | lpn | pages | | |
//! | 1 | flash_read | ppn | block | page \| purpose << 16 | key | | ns lo | ns hi |
//! | 2 | oob_read | ppn | block | page \| purpose << 16 | | | ns lo | ns hi |
//! | 3 | flash_program | ppn | block | page \| purpose << 16 \| kind << 24 | key | version | ns lo | ns hi |
//! | 4 | invalidate | ppn | | | | | | |
//! | 5 | erase | block | purpose | | | | ns lo | ns hi |
//! | 6 | gc_start | victim | valid | | | | | |
//! | 7 | gc_end | victim | | | | | | |
//! | 8 | cache_hit | level | key | | | | | |
//! | 9 | cache_miss | level | key | | | | | |
//! | 10 | cache_insert | level | key | bytes | | | | |
//! | 11 | cache_evict | level | key | bytes | dirty (0/1) | | | |
//! | 12 | merge | merge kind (0 switch, 1 partial, 2 full) \| cause << 8 | lbn | data block (none: 2^32-1) | log block | result block | log pages written | degree |
//! | 13 | cost | RAM ns lo | RAM ns hi | LRU ns lo | LRU ns hi | | | |
//!
//! A `cost` record (binary channel only, [`record::encode_costed`]) is the RAM and LRU time
//! charged ([`crate::device::Device::ram`], `cache_ops`) after the record before it and
//! before the next one; it is not an [`Event`] (the JSON channel and Rust readers never see
//! it), so the TypeScript decoder folds it into the event before it (`ram_ns`, `lru_ns`).
//!
//! Codes: purpose, page kind and cache level as in `vocab_json()` (the enums' order); `page`
//! fits 16 bits because a block has at most 65,536 pages. `bytes` is the RAM the cache
//! entry occupies: taken by an insert, freed by an evict.

pub mod record;

use serde::Serialize;

use crate::ids::{BlockId, PageKind, Ppn};

/// Why a flash operation happened.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
#[repr(u8)]
pub enum Purpose {
    /// Serving host data.
    Data = 0,
    /// Reading or writing mapping (translation) pages.
    Translation = 1,
    /// Log-block writes of hybrid schemes.
    Log = 2,
    /// Buffer-block writes (real-time schemes).
    Buffer = 3,
    /// Garbage collection: valid-page copies and victim erases.
    Gc = 4,
    /// Log-block merges of hybrid schemes.
    Merge = 5,
}

impl Purpose {
    /// All purposes, in counter order.
    pub const ALL: [Purpose; 6] =
        [Purpose::Data, Purpose::Translation, Purpose::Log, Purpose::Buffer, Purpose::Gc, Purpose::Merge];

    /// Stable lower-case name (metrics keys).
    pub fn name(self) -> &'static str {
        match self {
            Purpose::Data => "data",
            Purpose::Translation => "translation",
            Purpose::Log => "log",
            Purpose::Buffer => "buffer",
            Purpose::Gc => "gc",
            Purpose::Merge => "merge",
        }
    }
}

/// The host operation of a [`Event::Request`]: a trace concept, defined in [`crate::trace`]
/// (re-exported here so `events::HostOp` keeps working).
pub use crate::trace::HostOp;

/// Which RAM structure a cache event concerns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CacheLevel {
    /// Single mapping entries (DFTL's CMT, CDFTL's first level, TPFTL's entry nodes).
    Entry,
    /// Whole cached translation pages (CDFTL's second level, TreeFTL's CTPs).
    TranslationPage,
    /// Cached / buffered data pages (TreeFTL's CDPs, APS and JTL buffers).
    DataPage,
    /// Ghost caches (keys only: HCFTL's Ghost-CMT, APS' ghosts).
    Ghost,
    /// Block-level mapping entries (DAC's DBMTC).
    BlockMap,
    /// Recency-ordered translation pages (DAC's TPRLC).
    Recency,
    /// Frequency-ordered translation pages (DAC's TPAFC).
    Frequency,
    /// Metadata pages in on-chip SRAM (seed 003).
    Sram,
    /// Metadata pages in the DRAM cache buffer (seed 003).
    Dram,
}

/// Kind of a log-block merge (hybrid schemes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum MergeKind {
    /// The log block is complete and in order: it simply becomes the data block.
    Switch,
    /// The log block is in order but incomplete: the rest is copied in, then switch.
    Partial,
    /// Valid pages from data and log blocks are copied to a new block; both are erased.
    Full,
}

/// Why a merge had its kind: what the log block held when it was reclaimed. The narration
/// explains with it why each merge had the kind it had; the kind alone cannot tell a shared log block from one out of order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MergeCause {
    /// One logical block's pages written in order from offset 0 (switch when complete,
    /// partial when not).
    InOrder,
    /// One logical block's pages, not in order from offset 0.
    OutOfOrder,
    /// Pages of several logical blocks (FAST's random log blocks, SBAST's shared ones).
    Shared,
    /// In order, but a later write of one of those pages went to the data block.
    Superseded,
    /// NFTL: the replacement block folded with its primary block.
    Fold,
}

impl MergeCause {
    /// All causes, in code order.
    pub const ALL: [MergeCause; 5] = [
        MergeCause::InOrder,
        MergeCause::OutOfOrder,
        MergeCause::Shared,
        MergeCause::Superseded,
        MergeCause::Fold,
    ];
}

/// What a merge event says beyond its blocks: why it had its kind, how full the log block
/// was, and how many logical blocks its reclamation merged (the association degree A).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MergeWhy {
    /// What the log block held.
    pub cause: MergeCause,
    /// Pages written in the log block when it was reclaimed.
    pub written: u32,
    /// Logical blocks merged out of that log block (A in seed 004 Eq. (3)); 1 for BAST.
    pub degree: u32,
}

/// RAM and LRU time charged after the first `after` events of a batch and before the next
/// (see the module's `cost` record).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EventCost {
    /// Events recorded before the charges.
    pub after: u32,
    /// RAM time (ns).
    pub ram_ns: u64,
    /// LRU (cache-management) time (ns).
    pub lru_ns: u64,
}

/// One thing that happened inside the simulated device. Field names are the documentation:
/// `ppn`/`block`/`page` locate the page, `ns` is the simulated cost, `key` the LPN or
/// translation-page number stored there.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
#[allow(missing_docs)]
pub enum Event {
    /// A host request starts (index into the trace, first logical page, page count).
    Request { index: u64, op: HostOp, lpn: u32, pages: u32 },
    /// A page read.
    FlashRead { ppn: Ppn, block: BlockId, page: u32, purpose: Purpose, key: u32, ns: u64 },
    /// A spare-area-only read.
    OobRead { ppn: Ppn, block: BlockId, page: u32, purpose: Purpose, ns: u64 },
    /// A page program.
    FlashProgram {
        ppn: Ppn,
        block: BlockId,
        page: u32,
        purpose: Purpose,
        kind: PageKind,
        key: u32,
        version: u32,
        ns: u64,
    },
    /// A page became invalid.
    Invalidate { ppn: Ppn },
    /// A block erase.
    Erase { block: BlockId, purpose: Purpose, ns: u64 },
    /// Garbage collection picked `victim`, holding `valid` valid pages.
    GcStart { victim: BlockId, valid: u32 },
    /// Garbage collection of `victim` finished.
    GcEnd { victim: BlockId },
    /// A RAM cache lookup found `key` (LPN, translation-page or block number).
    CacheHit { level: CacheLevel, key: u32 },
    /// A RAM cache lookup missed `key`.
    CacheMiss { level: CacheLevel, key: u32 },
    /// `key` was loaded into a RAM cache, taking `bytes` of RAM.
    CacheInsert { level: CacheLevel, key: u32, bytes: u32 },
    /// `key` was evicted, freeing `bytes` of RAM; `dirty` means it had to be written back.
    CacheEvict { level: CacheLevel, key: u32, dirty: bool, bytes: u32 },
    /// A log-block merge for logical block `lbn`: its data block (`None` when the logical
    /// block had none yet), the log block merged in, and the block that holds the logical
    /// block afterwards (the log block itself after a switch or partial merge, a fresh block
    /// after a full merge). `cause`, `written` and `degree`: see [`MergeWhy`].
    Merge {
        kind: MergeKind,
        lbn: u32,
        data_block: Option<BlockId>,
        log_block: BlockId,
        result_block: BlockId,
        cause: MergeCause,
        written: u32,
        degree: u32,
    },
}

/// [`CacheLevel`] codes (event records).
pub const CACHE_LEVELS: &[(CacheLevel, &str)] = &[
    (CacheLevel::Entry, "Mapping entries"),
    (CacheLevel::TranslationPage, "Translation pages"),
    (CacheLevel::DataPage, "Data pages"),
    (CacheLevel::Ghost, "Ghost entries"),
    (CacheLevel::BlockMap, "Block-map entries"),
    (CacheLevel::Recency, "Recency list"),
    (CacheLevel::Frequency, "Frequency list"),
    (CacheLevel::Sram, "SRAM"),
    (CacheLevel::Dram, "DRAM"),
];

/// The stable id of a cache level (its serde name).
pub fn cache_level_id(level: CacheLevel) -> String {
    serde_json::to_value(level).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default()
}

/// Why a translation page was read or written: the demand-paged family's metrics
/// (`SchemeCounters::tpage_reads` / `tpage_writes` are indexed by it). Defined once here so
/// every scheme of the family counts the same causes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum TpCause {
    /// A mapping-cache miss loads entries from the page.
    Miss = 0,
    /// A dirty entry (or page) evicted from the cache is written back.
    Eviction = 1,
    /// GC moved data pages whose entries the cache does not hold: one rewrite per page.
    GcBatch = 2,
    /// GC copies a valid translation page out of a translation-block victim.
    GcCopy = 3,
    /// Entries loaded ahead of use (TPFTL's prefetching).
    Prefetch = 4,
    /// A hit in a dynamic translation page loads it (HCFTL).
    DtpLoad = 5,
    /// Evicted entries are packed into a new dynamic translation page (HCFTL).
    DtpWrite = 6,
    /// Dynamic translation pages are merged into static ones (HCFTL).
    DtpMerge = 7,
    /// Dirty entries written at a flush (end of pre-fill, end of run, on demand).
    Flush = 8,
}

impl TpCause {
    /// Number of causes (length of the counter rows).
    pub const COUNT: usize = 9;
    /// Every cause, in counter order.
    pub const ALL: [TpCause; TpCause::COUNT] = [
        TpCause::Miss,
        TpCause::Eviction,
        TpCause::GcBatch,
        TpCause::GcCopy,
        TpCause::Prefetch,
        TpCause::DtpLoad,
        TpCause::DtpWrite,
        TpCause::DtpMerge,
        TpCause::Flush,
    ];

    /// Stable id (metrics keys).
    pub fn id(self) -> &'static str {
        match self {
            TpCause::Miss => "miss",
            TpCause::Eviction => "dirty_eviction",
            TpCause::GcBatch => "gc_batch_update",
            TpCause::GcCopy => "gc_copy",
            TpCause::Prefetch => "prefetch",
            TpCause::DtpLoad => "dtp_load",
            TpCause::DtpWrite => "dtp_write",
            TpCause::DtpMerge => "dtp_merge",
            TpCause::Flush => "flush",
        }
    }

    /// Display label.
    pub fn label(self) -> &'static str {
        match self {
            TpCause::Miss => "Cache miss",
            TpCause::Eviction => "Dirty eviction",
            TpCause::GcBatch => "GC batch update",
            TpCause::GcCopy => "GC copy",
            TpCause::Prefetch => "Prefetch",
            TpCause::DtpLoad => "DTP load",
            TpCause::DtpWrite => "DTP write",
            TpCause::DtpMerge => "DTP merge",
            TpCause::Flush => "Flush",
        }
    }
}
