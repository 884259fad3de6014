//! `dftl`: DFTL (Gupta, Kim, Urgaonkar, ASPLOS'09), as the sources describe it (thesis
//! seed 002 §2.4, HCFTL seed 001 §II, TreeFTL seed 000 §II; related-work §5.3).
//!
//! The page-level map lives on flash in **translation pages** (one per `page_bytes / 4`
//! logical pages). The **GTD** in RAM locates every translation page; the **CMT** in RAM
//! caches single mapping entries, LRU. A CMT miss reads the entry's translation page; a
//! dirty victim is written back: its translation page is read, updated and programmed to a
//! new place, and the GTD updated. Garbage collection is greedy over data and translation
//! blocks alike: a translation-block victim's pages are copied and the GTD updated; a
//! data-block victim's pages are copied, then mappings are fixed lazily for cached entries
//! (the CMT entry is updated and marked dirty) and in a batch per translation page for the
//! rest.
//!
//! The GTD, translation pages, GC and its batch update are the family's shared machinery
//! ([`super::demand`]); this module is DFTL's cache policy.
//!
//! The choices where the sources differ or are silent are options in [`DftlOptions`] (`options.*`
//! in the config) and are listed in the notes below.
//!
#![doc = concat!(include_str!("notes.md"), "\n", include_str!("../demand/many_units.md"))]

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::demand::{self, Cmt, DemandCore, DemandScheme, MapEntry, TpCause, ENTRY_BYTES};
use super::{BuildCtx, Ftl, OpenBlocks, OptionsSpec, SchemeInfo, SchemeSpec};
use crate::cache::Slru;
use crate::device::Device;
use crate::error::{EngineError, Result};
use crate::events::CacheLevel;
use crate::flash::Ppn;
use crate::hash::StateHasher;
use crate::inspect::{InspectQuery, Inspection};
use crate::meta::MetaKind;
use crate::vocab::StopAt;

/// The scheme's registry entry.
pub static SPEC: SchemeSpec = SchemeSpec {
    info: SchemeInfo {
        id: "dftl",
        name: "DFTL: demand-based page mapping (GTD + CMT)",
        family: "demand",
        source: "Gupta et al. ASPLOS'09 as described by the thesis (seed 002) §2.4, HCFTL (seed 001) §II, TreeFTL (seed 000) §II",
    },
    notes: concat!(include_str!("notes.md"), "\n", include_str!("../demand/many_units.md")),
    stops: &[StopAt::Gc, StopAt::MappingMiss],
    caches: &[(CacheLevel::Entry, "CMT")],
    options: OptionsSpec::of::<DftlOptions>(),
    open_blocks: OpenBlocks::DEMAND,
    variants: || {
        vec![
            ("one write-back per victim (paper, thesis)", json!({"batch_update": false})),
            ("batch write-back on eviction (TPFTL)", json!({"batch_update": true})),
            ("segmented-LRU CMT (DFTL paper)", json!({"cmt": "segmented_lru"})),
        ]
    },
    build: |ctx, options| {
        let options = super::parse_options::<DftlOptions>("dftl", options)?;
        Ok(Box::new(Dftl::new(ctx, options)?))
    },
};

/// DFTL options (`options.*` in the config when `scheme` is `dftl`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct DftlOptions {
    /// Write back all dirty cached entries of an evicted entry's translation page together
    /// (TPFTL's batch-update replacement); off, the default = one translation-page write per
    /// dirty victim (the DFTL paper's simulator and the thesis).
    pub batch_update: bool,
    /// The CMT's replacement: `lru` (default, as the thesis and HCFTL describe DFTL) or
    /// `segmented_lru` (the DFTL paper's and FlashSim's: entries hit a second time move to a
    /// protected segment that one-off look-ups cannot flush).
    pub cmt: CmtPolicy,
    /// With `segmented_lru`: the share of the CMT the protected segment may hold.
    #[schemars(range(max = 100), extend("x-units" = "%"))]
    pub protected_percent: u8,
}

impl Default for DftlOptions {
    fn default() -> Self {
        DftlOptions { batch_update: false, cmt: CmtPolicy::Lru, protected_percent: 50 }
    }
}

/// DFTL's CMT replacement policy.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum CmtPolicy {
    /// One LRU list.
    #[default]
    Lru,
    /// Segmented LRU (probationary + protected).
    SegmentedLru,
}

/// DFTL state: the family's core plus the CMT.
#[derive(Debug, Clone)]
pub struct Dftl {
    core: DemandCore,
    cmt: Cmt,
    /// Per translation page: cached entries that became dirty (may hold stale keys; checked
    /// against the CMT when flushed).
    dirty: Vec<Vec<u32>>,
    options: DftlOptions,
}

impl Dftl {
    /// DFTL over an erased device; fails when the RAM budget cannot hold the GTD and one
    /// CMT entry.
    pub fn new(ctx: &BuildCtx, options: DftlOptions) -> Result<Self> {
        super::spec::check_percent("dftl", "protected_percent", options.protected_percent)?;
        let (core, cache_bytes) = DemandCore::new(ctx, "DFTL", ENTRY_BYTES, "one CMT entry")?;
        let tpages = core.gtd.len();
        let entries = (cache_bytes / ENTRY_BYTES) as usize;
        let cmt = match options.cmt {
            CmtPolicy::Lru => Cmt::lru(entries, core.on_flash.len()),
            CmtPolicy::SegmentedLru => {
                Cmt::Segmented(Slru::dense(entries, entries * usize::from(options.protected_percent) / 100))
            }
        };
        Ok(Dftl { core, cmt, dirty: vec![Vec::new(); tpages], options })
    }

    /// CMT capacity in entries.
    pub fn cmt_capacity(&self) -> usize {
        self.cmt.capacity()
    }

    fn tpage_of(&self, lpn: u32) -> u32 {
        self.core.tpage_of(lpn)
    }

    /// Writes the evicted dirty entry (`lpn` → `ppn`) back to its translation page, with the
    /// page's other dirty cached entries when batching.
    fn write_back(&mut self, lpn: u32, ppn: Ppn, dev: &mut Device) -> Result<()> {
        if self.options.batch_update {
            // Into the image before the rewrite, for the same reason as the victim's entry.
            let t = self.tpage_of(lpn) as usize;
            for other in std::mem::take(&mut self.dirty[t]) {
                if let Some(e) = self.cmt.peek_mut(&other) {
                    if e.dirty() {
                        e.set_dirty(false);
                        self.core.on_flash[other as usize] = e.ppn();
                    }
                }
            }
        }
        demand::write_back_entry(self, lpn, ppn, dev)
    }
}

impl DemandScheme for Dftl {
    demand::forward!(core);

    /// A CMT search; on a miss, one translation-page read for the entry, then the LRU
    /// victim's eviction (a write-back when dirty).
    fn translate(&mut self, lpn: u32, dev: &mut Device) -> Result<Ppn> {
        if let Some(ppn) = self.cmt.search(lpn, dev) {
            return Ok(ppn);
        }
        dev.mapping_lookup(false);
        let ppn = self.core.load_entry(lpn, dev, TpCause::Miss)?;
        if let Some((victim, e)) = self.cmt.admit(lpn, MapEntry::clean(ppn), dev) {
            if e.dirty() {
                self.write_back(victim, e.ppn(), dev)?;
            }
        }
        // The write-back may have run GC, which may have moved this page (updating the
        // entry we just cached): answer with the entry, not the value read before.
        Ok(self.cmt.peek(&lpn).map_or(ppn, |e| e.ppn()))
    }

    fn cached(&self, lpn: u32) -> Option<Ppn> {
        self.cmt.peek(&lpn).map(|e| e.ppn())
    }

    fn prefetch_cached(&self, lpns: &[u32]) {
        self.cmt.prefetch_lpns(lpns);
    }

    #[inline] // once per host write and per page GC copies
    fn set_cached(&mut self, lpn: u32, ppn: Ppn, dev: &mut Device) -> bool {
        let Some(e) = self.cmt.peek_mut(&lpn) else { return false };
        dev.meta_write(MetaKind::MapCache, lpn, ENTRY_BYTES as u32);
        if !e.dirty() && self.options.batch_update {
            self.dirty[self.core.tpage_of(lpn) as usize].push(lpn);
        }
        *e = MapEntry::written(ppn);
        true
    }

    fn ram_entries(&self) -> Vec<(u32, Ppn, bool)> {
        self.cmt.entries().collect()
    }

    fn mark_clean(&mut self, t: u32, lpns: &[u32]) {
        self.cmt.mark_clean(lpns);
        self.dirty[t as usize].clear();
    }
}

impl Ftl for Dftl {
    // `flush`: one rewrite per translation page holding dirty entries (a flush is not an
    // eviction, so it batches whatever `batch_update` says). `map_view`: the CMT's dirty
    // entries override the translation pages; its clean ones must equal them.
    demand::forward!(read, write, trim, flush, place_prefill, map_view, block_role, ram_budget);

    fn prefetch(&self, ahead: &crate::prefetch::Lookahead, dev: &Device) {
        self.cmt.prefetch(ahead);
        // The flash pages the near entries name (a write invalidates its old page).
        for &lpn in ahead.near {
            if let Some(ppn) = self.cmt.peek(&lpn).map(|e| e.ppn()) {
                if ppn != demand::UNMAPPED {
                    dev.flash().prefetch(ppn, ahead.reads);
                }
            }
        }
    }

    fn ram_bytes(&self) -> u64 {
        self.core.gtd_bytes() + self.cmt.capacity() as u64 * ENTRY_BYTES
    }

    fn ram_split(&self) -> Option<super::RamSplit> {
        let mapping_bytes = self.core.gtd_bytes() + self.cmt.len() as u64 * ENTRY_BYTES;
        Some(super::RamSplit { mapping_bytes, buffer_bytes: 0 })
    }

    fn inspect(&self, q: &InspectQuery) -> Inspection {
        self.inspection(q)
    }

    fn check(&self, dev: &Device) -> Result<()> {
        demand::check(self, dev, "dftl")?;
        if self.cmt.len() > self.cmt.capacity() {
            return Err(EngineError::Invariant("dftl: CMT over capacity".into()));
        }
        Ok(())
    }

    fn hash_into(&self, h: &mut StateHasher) {
        self.core.hash_into(h, |h| self.cmt.hash_into(h));
    }

    fn clone_box(&self) -> Box<dyn Ftl> {
        Box::new(self.clone())
    }
}

mod inspect;
#[cfg(test)]
mod tests;
