//! `hcftl`: HCFTL (Chen et al., seed 001 §III), a demand-paged FTL that clusters mapping
//! entries recently evicted from the CMT into **dynamic translation pages** (DTPs).
//!
//! The map lives on flash in **static translation pages** (STPs: the family's translation
//! pages, [`super::demand`]) located by the GTD. The **CMT** caches entries, LRU. An entry
//! the CMT evicts (clean or dirty) goes to the **Ghost-CMT** ([`ghost_cmt`]); when that is
//! full, the fixed number of entries whose `max − min` LPN is smallest is packed into one
//! DTP on flash, each entry with its LPN, PPN and dirty flag, and indexed in the **DTP
//! index** ([`dtp_index`]: TPPN, min, max, bloom filter). A CMT miss looks in the Ghost-CMT
//! (RAM), then the DTP index from the newest record to the oldest, reading each DTP it
//! offers; a DTP that holds the entry is loaded whole into the CMT and invalidated, one that
//! does not was a false positive. Only then is the STP read. Above a threshold, DTPs are
//! merged into the STPs (oldest first): their dirty entries are written to their STPs.
//!
//! Where the paper is silent our choices are options in [`HcftlOptions`], listed in the notes
//! below. The DTP mechanics are in [`dtp`]; inspection in `inspect.rs`.
//!
#![doc = include_str!("notes.md")]

mod dtp;
mod dtp_index;
mod entry_log;
mod ghost_cmt;
mod inspect;
mod key_set;
mod options;
mod ranges;
mod slots;

use std::collections::BTreeMap;

use super::demand::{self, DemandCore, DemandScheme, MapEntry, ENTRY_BYTES, FIRST_EXTRA_STREAM};
use super::{BlockRole, BuildCtx, Ftl, OpenBlocks, OptionsSpec, SchemeInfo, SchemeSpec};
use crate::device::Device;
use crate::error::{EngineError, Result};
use crate::events::CacheLevel;
use crate::flash::{BlockId, PageContent, PageKind, PageState, PageTag, Ppn};
use crate::hash::StateHasher;
use crate::inspect::{InspectQuery, Inspection};
use crate::vocab::StopAt;

use dtp_index::{DtpIndex, RECORD_HEADER_BYTES};
use entry_log::EntryLog;
pub use options::HcftlOptions;
use options::MergeWhen;

/// The scheme's registry entry.
pub static SPEC: SchemeSpec = SchemeSpec {
    info: SchemeInfo {
        id: "hcftl",
        name: "HCFTL: hot-clustered dynamic translation pages (CMT + Ghost-CMT + DTP index)",
        family: "demand",
        source: "Chen et al., HCFTL: A Locality-Aware Page-Level FTL (seed 001) §III, Table I, §IV.A",
    },
    notes: include_str!("notes.md"),
    stops: &[StopAt::Gc, StopAt::MappingMiss],
    caches: &[
        (CacheLevel::Entry, "CMT"),
        (CacheLevel::Ghost, "Ghost-CMT"),
        (CacheLevel::TranslationPage, "DTP index"),
    ],
    options: OptionsSpec::of::<HcftlOptions>(),
    open_blocks: OpenBlocks { shared: 2, ..OpenBlocks::DEMAND },
    variants: options::variants,
    build: |ctx, options| {
        let options = super::parse_options::<HcftlOptions>("hcftl", options)?;
        Ok(Box::new(Hcftl::new(ctx, options)?))
    },
};

/// Flash bytes of a DTP entry in the data area: LPN and PPN. Its one-bit flag goes to the
/// spare area, a bitmap after the tag.
const DTP_ENTRY_BYTES: u64 = 8;
/// Words per DTP entry in the data area: LPN, PPN.
const DTP_WORDS: usize = 2;
/// The smallest bloom filter a DTP record gets, in bits per entry (below it the filter
/// would pass almost everything; a record then does not fit and there are fewer DTPs).
const MIN_BLOOM_BITS_PER_ENTRY: u64 = 4;
/// The open-block slot of DTPs.
const DTP_STREAM: usize = FIRST_EXTRA_STREAM;

/// How the RAM budget is split (see `notes.md`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RamSplit {
    /// CMT entries.
    pub cmt: usize,
    /// Ghost-CMT entries.
    pub ghost: usize,
    /// Entries packed into one DTP.
    pub per_dtp: usize,
    /// Most DTPs (records in the DTP index).
    pub dtps: usize,
    /// Bloom-filter bits per record.
    pub filter_bits: usize,
    /// DTPs above which they are merged.
    pub merge_threshold: usize,
}

impl RamSplit {
    /// The split for a budget of `budget` bytes of which the GTD takes `gtd` bytes, with at
    /// most `page_entries` entries in a DTP and `flash_room` DTPs on flash. Errors name what
    /// does not fit.
    pub fn of(budget: u64, gtd: u64, page_entries: u64, flash_room: u64, o: &HcftlOptions) -> Result<Self> {
        let refuse = |what: String| {
            Err(EngineError::Config(format!(
                "hcftl: ram.bytes = {budget} (GTD {gtd} bytes) cannot hold {what}"
            )))
        };
        for (key, v) in [
            ("ghost_ratio", o.ghost_ratio),
            ("dtp_index_ratio", o.dtp_index_ratio),
            ("merge_threshold", o.merge_threshold),
        ] {
            if !(0.0..=1.0).contains(&v) {
                return Err(EngineError::Config(format!(
                    "options.{key} of scheme 'hcftl' = {v}: must be within 0 and 1"
                )));
            }
        }
        // Shares of the whole budget, as the paper splits its 2 MB; at least two Ghost-CMT
        // entries (so packing has a choice) and one DTP record.
        let ghost = ((budget as f64 * o.ghost_ratio) as u64 / ENTRY_BYTES).max(2);
        let per_dtp = page_entries.min(ghost / 2).max(1);
        let index_share = (budget as f64 * o.dtp_index_ratio) as u64;
        let min_record = RECORD_HEADER_BYTES + (per_dtp * MIN_BLOOM_BITS_PER_ENTRY).div_ceil(8);
        let mut dtps = (index_share / min_record).min(u64::from(o.max_dtps)).min(flash_room).max(1);
        // The filters fill the share (the paper fixes the count and the bytes; 0.6 MB for
        // 1600 records leaves 381 filter bytes each), unless a tiny budget needs the bytes
        // for one CMT entry.
        let mut record = (index_share / dtps).max(min_record);
        if budget < gtd + ghost * ENTRY_BYTES + dtps * record + ENTRY_BYTES {
            record = min_record;
            let left = budget.saturating_sub(gtd + ghost * ENTRY_BYTES + ENTRY_BYTES);
            dtps = (left / record).clamp(1, dtps);
        }
        let filter_bits = ((record - RECORD_HEADER_BYTES) * 8) as usize;
        let fixed = gtd + ghost * ENTRY_BYTES + dtps * record;
        if budget < fixed + ENTRY_BYTES {
            return refuse(format!(
                "a Ghost-CMT of {ghost} entries, {dtps} DTP record(s) of {record} bytes and one CMT entry"
            ));
        }
        let dtps = dtps as usize;
        let merge_threshold = ((dtps as f64 * o.merge_threshold) as usize).min(dtps - 1);
        Ok(RamSplit {
            cmt: ((budget - fixed) / ENTRY_BYTES) as usize,
            ghost: ghost as usize,
            per_dtp: per_dtp as usize,
            dtps,
            filter_bits,
            merge_threshold,
        })
    }
}

/// HCFTL state: the family's core, the CMT and the Ghost-CMT, and the DTP index.
#[derive(Debug, Clone)]
pub struct Hcftl {
    core: DemandCore,
    /// The CMT and the Ghost-CMT (one log, see [`entry_log`]).
    ram: EntryLog,
    index: DtpIndex,
    split: RamSplit,
    options: HcftlOptions,
    dtp_version: u32,
    /// During a collection: DTPs whose entries moved (id → new mappings) and DTPs read to
    /// find moved entries; rewritten and charged by `after_collect`, empty otherwise.
    gc_patches: BTreeMap<u32, Vec<(u32, Ppn)>>,
    gc_read: Vec<u32>,
    /// A loaded DTP's entries on their way into the CMT (kept for its allocation only).
    run: Vec<(u32, MapEntry)>,
    /// The LPNs of the DTP being packed (kept for its allocation only).
    packed: Vec<u32>,
    /// The page of the DTP being packed (kept for its allocation only).
    page: PageContent,
}

impl Hcftl {
    /// HCFTL over an erased device.
    pub fn new(ctx: &BuildCtx, options: HcftlOptions) -> Result<Self> {
        let d = ctx.device;
        let tpages = d.logical_pages().div_ceil(u64::from(d.entries_per_translation_page()));
        // DTPs are valid pages beyond the logical space: at most half the spare room left
        // after GC's needs, so garbage keeps the other half. On a multi-unit device each
        // unit's data block fills on its own while GC picks victims device-wide, so garbage
        // first keeps one block per extra unit (without it, 8 units of 16-page blocks ran out
        // of free blocks mid-run with the DTPs taking the rest).
        let units = u64::from(d.units().max(1));
        let unit_margin = (units - 1) * u64::from(d.pages_per_block);
        let spare_room = DemandCore::spare_room(ctx, 1);
        let room = spare_room.saturating_sub(unit_margin) / 2;
        if units > 1 && room == 0 {
            return Err(EngineError::Config(format!(
                "hcftl: the device leaves {spare_room} spare pages beyond GC's reserve and open blocks, but its {units} units keep {unit_margin} of them as garbage room, so no DTP fits; raise device.over_provisioning or device.blocks, or use fewer units"
            )));
        }
        // A DTP holds what its data area holds, and no more flags than its spare area does.
        let flag_bits = u64::from(d.oob_bytes.saturating_sub(crate::flash::TAG_OOB_BYTES) / 4) * 32;
        let page_entries = (u64::from(d.page_bytes) / DTP_ENTRY_BYTES).min(flag_bits);
        if page_entries == 0 {
            return Err(EngineError::Config(format!(
                "hcftl: a {}-byte page with {} spare bytes cannot hold a DTP entry and its flag",
                d.page_bytes, d.oob_bytes
            )));
        }
        let gtd = tpages * demand::GTD_ENTRY_BYTES;
        let split = RamSplit::of(ctx.ram_budget, gtd, page_entries, room, &options)?;
        Self::with_split(ctx, options, split)
    }

    /// HCFTL with a given RAM split (tests build tiny hand-made ones).
    fn with_split(ctx: &BuildCtx, options: HcftlOptions, split: RamSplit) -> Result<Self> {
        let (core, _) =
            DemandCore::with_streams(ctx, "HCFTL", ENTRY_BYTES, "one CMT entry", 1, split.dtps as u64)?;
        let key_space = ctx.device.logical_pages() as usize;
        Ok(Hcftl {
            core,
            ram: EntryLog::new(split.cmt, split.ghost).with_key_space(key_space),
            index: DtpIndex::new(split.dtps, split.filter_bits, split.per_dtp, options.index.design())
                .with_key_space(key_space),
            split,
            options,
            dtp_version: 0,
            gc_patches: BTreeMap::new(),
            gc_read: Vec::new(),
            run: Vec::new(),
            packed: Vec::new(),
            page: PageContent::default(),
        })
    }

    /// Inserts `lpn` at the CMT's front; the victim, if any, goes to the Ghost-CMT (packing
    /// is the caller's, once every insert is done).
    fn cmt_insert(&mut self, lpn: u32, e: MapEntry, dev: &mut Device) {
        dev.cache_insert(CacheLevel::Entry, lpn, ENTRY_BYTES as u32);
        if let Some((victim, v)) = self.ram.cmt_admit(lpn, e) {
            dev.cache_evict(CacheLevel::Entry, victim, v.dirty(), ENTRY_BYTES as u32);
            dev.cache_insert(CacheLevel::Ghost, victim, ENTRY_BYTES as u32);
        }
    }

    /// One search of the CMT (one cache operation), as [`demand::Cmt::search`] counts it.
    fn cmt_search(&mut self, lpn: u32, dev: &mut Device) -> Option<Ppn> {
        dev.cache_ops(1);
        if let Some(e) = self.ram.cmt_get(lpn) {
            dev.mapping_lookup(true);
            dev.cache_hit(CacheLevel::Entry, lpn);
            return Some(e.ppn());
        }
        dev.cache_miss(CacheLevel::Entry, lpn);
        None
    }
}

impl DemandScheme for Hcftl {
    demand::forward!(core);

    /// CMT, then Ghost-CMT (both RAM: hits), then the DTP index newest first (a DTP holding
    /// the entry is loaded whole), then the STP.
    fn translate(&mut self, lpn: u32, dev: &mut Device) -> Result<Ppn> {
        if let Some(ppn) = self.cmt_search(lpn, dev) {
            return Ok(ppn);
        }
        dev.cache_ops(1);
        if let Some(e) = self.ram.ghost_take(lpn) {
            dev.mapping_lookup(true);
            dev.cache_hit(CacheLevel::Ghost, lpn);
            self.cmt_insert(lpn, e, dev);
            return Ok(e.ppn());
        }
        dev.mapping_lookup(false);
        let e = match self.find_in_dtps(lpn, dev)? {
            Some(id) => self.load_dtp(id, lpn, dev)?,
            None => {
                let ppn = self.core.load_entry(lpn, dev, demand::TpCause::Miss)?;
                self.cmt_insert(lpn, MapEntry::clean(ppn), dev);
                MapEntry::clean(ppn)
            }
        };
        self.pack_while_full(dev)?;
        // Packing may have run GC, which may have moved this page (updating the entry):
        // answer with the entry, not the value read before.
        Ok(self.ram.cmt_peek(lpn).map_or(e.ppn(), |e| e.ppn()))
    }

    fn cached(&self, lpn: u32) -> Option<Ppn> {
        self.ram.peek(lpn).map(|e| e.ppn())
    }

    fn prefetch_cached(&self, lpns: &[u32]) {
        // An entry lives with its slot number: one load each.
        for &lpn in lpns {
            self.ram.prefetch_key(lpn);
        }
    }

    fn set_cached(&mut self, lpn: u32, ppn: Ppn, dev: &mut Device) -> bool {
        let new = MapEntry::written(ppn);
        if self.ram.set(lpn, new) {
            dev.ram(1);
            return true;
        }
        // Only GC moves a page whose entry is not cached: if a DTP holds it, that DTP is
        // rewritten after the collection (its STP would be shadowed by the stale DTP entry).
        match self.locate_for_gc(lpn, dev) {
            Some(id) => {
                self.gc_patches.entry(id).or_default().push((lpn, ppn));
                true
            }
            None => false,
        }
    }

    fn ram_entries(&self) -> Vec<(u32, Ppn, bool)> {
        let entries = self.ram.ghost_iter().chain(self.ram.cmt_iter());
        entries.map(|(l, e)| (l, e.ppn(), e.dirty())).collect()
    }

    fn mark_clean(&mut self, _t: u32, lpns: &[u32]) {
        for &lpn in lpns {
            if let Some(e) = self.ram.peek(lpn) {
                self.ram.set(lpn, MapEntry::clean(e.ppn()));
            }
        }
    }

    fn stream_for(&self, kind: PageKind) -> usize {
        if kind == PageKind::Dtp {
            DTP_STREAM
        } else {
            demand::DATA
        }
    }

    fn moved(&mut self, tag: PageTag, dest: Ppn, dev: &mut Device) -> Result<()> {
        dev.stats.tpage_reads[demand::TpCause::GcCopy as usize] += 1;
        dev.stats.tpage_writes[demand::TpCause::GcCopy as usize] += 1;
        self.index.set_tppn(tag.key, dest);
        dev.ram(1);
        Ok(())
    }

    fn after_collect(&mut self, dev: &mut Device) -> Result<()> {
        self.rewrite_patched_dtps(dev)
    }

    fn entry_pages(&self) -> (Vec<Ppn>, usize) {
        (self.index.iter().map(|r| r.tppn).collect(), DTP_WORDS)
    }
}

impl Ftl for Hcftl {
    // `flush`: dirty entries in RAM (CMT and Ghost-CMT) go to their STPs; DTPs are on flash
    // already. `map_view`: STPs through the GTD, overridden by the DTPs (entries naming
    // their LPNs, [`DemandScheme::entry_pages`]), then by the dirty entries of the Ghost-CMT
    // and the CMT. `block_role` is HCFTL's own (DTP blocks).
    demand::forward!(read, write, trim, flush, place_prefill, map_view, ram_budget);

    fn prefetch(&self, ahead: &crate::prefetch::Lookahead, dev: &Device) {
        // The far pages' slot numbers and entries (they live together), what a DTP-index
        // lookup of them reads first, and the caller's stamps.
        for &lpn in ahead.far {
            crate::prefetch::element(ahead.also, lpn as usize);
            self.ram.prefetch_key(lpn);
            self.index.prefetch_lookup(lpn);
        }
        // The near pages' records came in a burst ago: the page of the DTP one of them names,
        // which its load will read whole (written hundreds of DTPs ago, it is cold).
        for &lpn in ahead.near {
            let id = self.ram.dtp_of(lpn);
            if id == dtp_index::NO_DTP {
                continue;
            }
            let Some(c) = self.index.tppn_of(id).and_then(|tppn| dev.flash().content(tppn)) else { continue };
            crate::prefetch::lines(&c.data, 0..c.data.len(), usize::MAX);
        }
    }

    fn works_when_idle(&self) -> bool {
        true
    }

    /// Background merge (the paper's choice): DTPs above the threshold are merged, oldest
    /// first, while the device is idle; the merge that is running when the next request
    /// arrives finishes first.
    fn idle(&mut self, dev: &mut Device, until_ns: u64) -> Result<()> {
        if self.options.merge == MergeWhen::Idle {
            while self.index.len() > self.split.merge_threshold && dev.span().completion < until_ns {
                self.merge_oldest(dev)?;
            }
        }
        Ok(())
    }

    fn ram_bytes(&self) -> u64 {
        self.core.gtd_bytes()
            + (self.ram.cmt_capacity() + self.ram.ghost_capacity()) as u64 * ENTRY_BYTES
            + self.index.capacity() as u64 * self.index.record_bytes()
    }

    fn ram_split(&self) -> Option<super::RamSplit> {
        // CMT, Ghost-CMT and DTP index all hold mapping information (the engine's RamSplit,
        // not this scheme's budget split of the same name).
        let mapping_bytes = self.core.gtd_bytes()
            + (self.ram.cmt_len() + self.ram.ghost_len()) as u64 * ENTRY_BYTES
            + self.index.len() as u64 * self.index.record_bytes();
        Some(super::RamSplit { mapping_bytes, buffer_bytes: 0 })
    }

    fn block_role(&self, block: BlockId, dev: &Device) -> BlockRole {
        match self.core.block_role(block, dev) {
            BlockRole::Data if self.core.block_stream(block) == DTP_STREAM => BlockRole::Dtp,
            role => role,
        }
    }

    fn inspect(&self, q: &InspectQuery) -> Inspection {
        self.inspection(q)
    }

    fn check(&self, dev: &Device) -> Result<()> {
        demand::check(self, dev, "hcftl")?;
        let bad = |m: String| Err(EngineError::Invariant(format!("hcftl: {m}")));
        self.ram.check().or_else(bad)?;
        if self.ram.cmt_len() > self.ram.cmt_capacity()
            || self.ram.ghost_is_full()
            || self.index.len() > self.index.capacity()
        {
            return bad("a RAM structure is over capacity (a full Ghost-CMT must have been packed)".into());
        }
        if !self.gc_patches.is_empty() || !self.gc_read.is_empty() {
            return bad("DTP patches left over from a collection".into());
        }
        // Each LPN's entry is in at most one place: CMT, Ghost-CMT or one DTP.
        let mut seen: std::collections::HashSet<u32> = self.ram.cmt_iter().map(|(l, _)| l).collect();
        for (lpn, _) in self.ram.ghost_iter() {
            if !seen.insert(lpn) {
                return bad(format!("LPN {lpn} is in both the CMT and the Ghost-CMT"));
            }
        }
        let flash = dev.flash();
        for r in self.index.iter() {
            let tag = flash.tag(r.tppn);
            if flash.state(r.tppn) != PageState::Valid || tag.kind != PageKind::Dtp || tag.key != r.id {
                return bad(format!("DTP {} is recorded at PPN {}, which holds {tag:?}", r.id, r.tppn));
            }
            let lpns: Vec<u32> = dtp::entries_at(dev, r.tppn).into_iter().map(|(l, _)| l).collect();
            if lpns.is_empty() || lpns.len() > self.split.per_dtp || lpns.windows(2).any(|w| w[0] >= w[1]) {
                return bad(format!("DTP {} holds {} entries, not sorted or too many", r.id, lpns.len()));
            }
            // The record's slot must hold this page's LPNs (a slot handed to two records, or
            // reused while its record lives, shows here), and its filter must pass them all.
            let bloom = self.index.bloom(r);
            if (r.min, r.max) != (lpns[0], lpns[lpns.len() - 1])
                || self.index.lpns(r) != lpns.as_slice()
                || lpns.iter().any(|&l| !bloom.contains(u64::from(l)))
            {
                return bad(format!(
                    "DTP {}'s record (min {}, max {}) does not describe its entries",
                    r.id, r.min, r.max
                ));
            }
            if let Some(l) = lpns.iter().find(|&&l| self.ram.dtp_of(l) != r.id) {
                return bad(format!("the DTP index does not know that DTP {} holds LPN {l}", r.id));
            }
            if let Some(l) = lpns.iter().find(|&&l| !seen.insert(l)) {
                return bad(format!("LPN {l} is in DTP {} and in RAM or another DTP", r.id));
            }
        }
        let valid_dtps = flash
            .states()
            .enumerate()
            .filter(|&(p, st)| st == PageState::Valid && flash.tag(p as Ppn).kind == PageKind::Dtp)
            .count();
        if valid_dtps != self.index.len() {
            return bad(format!("{valid_dtps} valid DTPs on flash but {} records", self.index.len()));
        }
        Ok(())
    }

    fn hash_into(&self, h: &mut StateHasher) {
        self.core.hash_into(h, |h| {
            for (lpn, ppn, dirty) in self.ram_entries() {
                h.u32(lpn);
                h.u32(ppn);
                h.bytes(&[dirty as u8]);
            }
            self.index.hash_into(h);
            h.u32(self.dtp_version);
        });
    }

    fn clone_box(&self) -> Box<dyn Ftl> {
        Box::new(self.clone())
    }
}

/// The length an array indexed by LPN grows to so that index `k` fits: doubling, for
/// amortised growth, but never past the device's `key_space` logical pages, where doubling
/// would hold up to twice what any LPN needs.
fn grown_len(k: usize, key_space: usize) -> usize {
    (k + 1).next_power_of_two().min(key_space).max(k + 1)
}

#[cfg(test)]
mod tests;
