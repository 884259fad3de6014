//! `cdftl`: CDFTL (Qin, Wang, Liu, Shao, "A two-level caching mechanism for demand-based
//! page-level address mapping in NAND flash memory storage systems", RTAS'11), as TreeFTL
//! (seed 000 §II.B, §III.A) describes it: a first level of single mapping entries (the CMT)
//! and a second level of whole cached translation pages (CTPs).
//!
//! Rules (our reading; the notes below list the choices):
//! - A look-up searches the CMT, then the CTPs; a CTP hit copies the entry into the CMT with
//!   no flash access. A miss in both reads the translation page once, caches it whole as a
//!   CTP and copies the entry into the CMT.
//! - A dirty entry evicted from the CMT is **absorbed** by its translation page when that
//!   page is a CTP (the CTP becomes dirty, no flash access); otherwise it is written back as
//!   in DFTL (read, update, program the translation page).
//! - Both levels are LRU (option `cmt_victim = cost_aware`: the CMT's victim is the thesis'
//!   DAC cost-aware choice instead, `demand/victim.rs`). An evicted dirty CTP is programmed whole (RAM holds every entry,
//!   so nothing is read first); a clean one is dropped.
//! - GC's lazy copying reaches both levels: a moved page's entry is fixed in the CMT, else in
//!   its CTP; only entries in neither go into the batch update.
//! - The RAM left after the GTD is split by `level_two_percent` into CTPs (a page's entries
//!   plus a 4-byte tag each) and CMT entries (8 bytes each, at least one).
//!
#![doc = include_str!("notes.md")]

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::demand::{
    self, Cmt, CmtVictim, DemandCore, DemandScheme, MapEntry, TpCause, ENTRY_BYTES, UNMAPPED,
};
use super::{BuildCtx, Ftl, OpenBlocks, OptionsSpec, SchemeInfo, SchemeSpec};
use crate::device::Device;
use crate::error::{EngineError, Result};
use crate::events::CacheLevel;
use crate::events::Purpose;
use crate::flash::Ppn;
use crate::hash::StateHasher;
use crate::inspect::{InspectQuery, Inspection};
use crate::vocab::StopAt;
use ctp::Ctps;

/// The scheme's registry entry.
pub static SPEC: SchemeSpec = SchemeSpec {
    info: SchemeInfo {
        id: "cdftl",
        name: "CDFTL: two-level mapping cache (CMT + cached translation pages)",
        family: "demand",
        source: "Qin et al. RTAS'11, as described by TreeFTL (seed 000) §II.B, §III.A",
    },
    notes: include_str!("notes.md"),
    stops: &[StopAt::Gc, StopAt::MappingMiss],
    caches: &[(CacheLevel::Entry, "CMT"), (CacheLevel::TranslationPage, "Cached translation pages")],
    options: OptionsSpec::of::<CdftlOptions>(),
    open_blocks: OpenBlocks::DEMAND,
    variants: || {
        vec![
            ("half the cache in translation pages", json!({"level_two_percent": 50})),
            ("mostly translation pages", json!({"level_two_percent": 80})),
            ("mostly entries", json!({"level_two_percent": 20})),
            ("cost-aware CMT victim (the thesis' DAC)", json!({"cmt_victim": "cost_aware"})),
        ]
    },
    build: |ctx, options| {
        let options = super::parse_options::<CdftlOptions>("cdftl", options)?;
        Ok(Box::new(Cdftl::new(ctx, options)?))
    },
};

/// A CTP's tag (its translation-page number) besides the page itself.
const CTP_TAG_BYTES: u64 = 4;

/// CDFTL options (`options.*` in the config when `scheme` is `cdftl`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct CdftlOptions {
    /// Share of the cache (the RAM left after the GTD) given to level two, the cached
    /// translation pages, in whole pages; the rest holds CMT entries. 0 gives DFTL.
    #[schemars(range(max = 100), extend("x-units" = "%"))]
    pub level_two_percent: u8,
    /// Which CMT entry leaves when the CMT is full: `lru` (default: seed 000's CDFTL, both
    /// levels plain LRU) or `cost_aware` (the thesis' DAC rule: the least recently used entry
    /// that is clean or whose translation page is cached, so its eviction writes no flash;
    /// the LRU entry only when none is).
    pub cmt_victim: CmtVictim,
}

impl Default for CdftlOptions {
    fn default() -> Self {
        CdftlOptions { level_two_percent: 50, cmt_victim: CmtVictim::Lru }
    }
}

/// CDFTL state.
#[derive(Debug, Clone)]
pub struct Cdftl {
    core: DemandCore,
    /// Level one: single entries, LRU.
    cmt: Cmt,
    /// Level two: whole translation pages, LRU, in one flat array (see `ctp.rs`).
    ctp: Ctps,
    ctp_bytes: u64,
    cmt_victim: CmtVictim,
}

impl Cdftl {
    /// CDFTL over an erased device; fails when the RAM budget cannot hold the GTD and one
    /// CMT entry, or the options are out of range.
    pub fn new(ctx: &BuildCtx, options: CdftlOptions) -> Result<Self> {
        super::spec::check_percent("cdftl", "level_two_percent", options.level_two_percent)?;
        let (core, cache) = DemandCore::new(ctx, "CDFTL", ENTRY_BYTES, "one CMT entry")?;
        // A cached page holds its entries (4 bytes each) and its tag.
        let ctp_bytes = u64::from(core.per_tpage) * 4 + CTP_TAG_BYTES;
        // Level two gets its share in whole pages, leaving room for at least one CMT entry.
        let ctps = (cache - ENTRY_BYTES) * u64::from(options.level_two_percent) / 100 / ctp_bytes;
        let entries = (cache - ctps * ctp_bytes) / ENTRY_BYTES;
        let lpns = core.on_flash.len();
        Ok(Cdftl {
            cmt: Cmt::lru(entries as usize, lpns),
            ctp: Ctps::new(ctps as usize, core.gtd.len(), core.per_tpage, lpns as u64),
            core,
            ctp_bytes,
            cmt_victim: options.cmt_victim,
        })
    }

    /// Capacities: CMT entries and cached translation pages.
    pub fn capacities(&self) -> (usize, usize) {
        (self.cmt.capacity(), self.ctp.capacity())
    }

    /// Caches translation page `t` in level two, its entries as flash holds them at `at`
    /// (just read; `None`: never written, every entry unmapped); an evicted dirty page is
    /// programmed whole. The victim's entries reach the on-flash image before its slot takes
    /// page `t`, and the program comes after, so GC during it finds `t` cached and the
    /// victim not.
    fn cache_page(&mut self, t: u32, at: Option<Ppn>, dev: &mut Device) -> Result<()> {
        dev.cache_insert(CacheLevel::TranslationPage, t, self.ctp_bytes as u32);
        let victim = self.ctp.victim();
        if let Some((v, true)) = victim {
            let entries = self.ctp.page(v).expect("the victim is cached");
            self.core.image_mut(v).copy_from_slice(entries);
        }
        let content = at.and_then(|at| dev.flash().content(at)).map_or(&[][..], |c| &c.data[..]);
        self.ctp.insert(t, content);
        if let Some((v, dirty)) = victim {
            dev.cache_evict(CacheLevel::TranslationPage, v, dirty, self.ctp_bytes as u32);
            if dirty {
                demand::program_tpage(self, v, Purpose::Translation, TpCause::Eviction, false, dev)?;
            }
        }
        Ok(())
    }

    /// Starts loading the entries of `lpns` in their cached translation pages (the pages'
    /// headers are few and stay in the CPU's cache; their entries are a random place in a
    /// megabyte or more). Whether the CMT holds them too is not asked: that would wait for
    /// the CMT's slots, which are being fetched at the same time. Changes nothing.
    fn prefetch_pages(&self, lpns: &[u32]) {
        for &lpn in lpns {
            self.ctp.prefetch_entry(self.core.tpage_of(lpn), self.core.offset_of(lpn));
        }
    }

    /// Offers dirty level-one victim `lpn` → `ppn` to its cached translation page (one
    /// level-two search): `true` when absorbed there, `false` when the page is not cached
    /// and the entry must be written back to flash.
    fn absorb(&mut self, lpn: u32, ppn: Ppn, dev: &mut Device) -> bool {
        dev.cache_ops(1);
        let absorbed = self.ctp.set_entry(self.core.tpage_of(lpn), self.core.offset_of(lpn), ppn);
        if absorbed {
            dev.ram(1);
        }
        absorbed
    }
}

impl DemandScheme for Cdftl {
    demand::forward!(core);

    fn translate(&mut self, lpn: u32, dev: &mut Device) -> Result<Ppn> {
        if let Some(ppn) = self.cmt.search(lpn, dev) {
            return Ok(ppn);
        }
        let t = self.core.tpage_of(lpn);
        let off = self.core.offset_of(lpn);
        dev.cache_ops(1);
        let ppn = if let Some(ppn) = self.ctp.get_entry(t, off) {
            dev.mapping_lookup(true);
            dev.cache_hit(CacheLevel::TranslationPage, t);
            dev.ram(1);
            ppn
        } else {
            dev.mapping_lookup(false);
            dev.cache_miss(CacheLevel::TranslationPage, t);
            if self.ctp.capacity() == 0 {
                self.core.load_entry(lpn, dev, TpCause::Miss)?
            } else {
                let at = self.core.read_page(t, dev, TpCause::Miss)?;
                self.cache_page(t, at, dev)?;
                // The eviction may have run GC, which may have moved this page and fixed
                // its entry in the page just cached.
                self.ctp.peek_entry(t, off).unwrap_or(UNMAPPED)
            }
        };
        let (core, ctp) = (&self.core, &self.ctp);
        let page_cached = |l: u32| ctp.contains(core.tpage_of(l));
        if let Some((victim, e)) =
            self.cmt.admit_by(lpn, MapEntry::clean(ppn), self.cmt_victim, page_cached, dev)
        {
            if e.dirty() && !self.absorb(victim, e.ppn(), dev) {
                demand::write_back_entry(self, victim, e.ppn(), dev)?;
                // The write-back may have run GC, which may have moved this page and fixed
                // its entry in the CMT.
                return Ok(self.cmt.peek(&lpn).map_or(ppn, |e| e.ppn()));
            }
        }
        Ok(ppn)
    }

    #[inline]
    fn cached(&self, lpn: u32) -> Option<Ppn> {
        if let Some(e) = self.cmt.peek(&lpn) {
            return Some(e.ppn());
        }
        self.ctp.peek_entry(self.core.tpage_of(lpn), self.core.offset_of(lpn))
    }

    /// Only the CMT's slots: a moved page's level-two entry is needed only when the CMT
    /// does not hold it (about half of them on the bench workload), and fetching both for a whole run of
    /// copies at once queued more misses than the CPU overlaps: GC waited longer for the
    /// slots it always needs.
    fn prefetch_cached(&self, lpns: &[u32]) {
        match &self.cmt {
            // The queue's slot holds the entry: one place per page, fetched once.
            Cmt::Queue(q) => lpns.iter().for_each(|&lpn| q.prefetch_key(lpn)),
            _ => self.cmt.prefetch_lpns(lpns),
        }
    }

    #[inline]
    fn set_cached(&mut self, lpn: u32, ppn: Ppn, dev: &mut Device) -> bool {
        if let Some(e) = self.cmt.peek_mut(&lpn) {
            *e = MapEntry::written(ppn);
        } else if !self.ctp.set_entry(self.core.tpage_of(lpn), self.core.offset_of(lpn), ppn) {
            return false;
        }
        dev.ram(1);
        true
    }

    fn ram_entries(&self) -> Vec<(u32, Ppn, bool)> {
        // Pages first: a level-one entry is newer than its page's copy.
        let mut out = Vec::new();
        for page in self.ctp.iter() {
            let lpns = self.core.lpns_of(page.tpage);
            out.extend(lpns.zip(page.entries).map(|(lpn, &ppn)| (lpn, ppn, page.dirty)));
        }
        out.extend(self.cmt.entries());
        out
    }

    fn mark_clean(&mut self, t: u32, lpns: &[u32]) {
        self.cmt.mark_clean(lpns);
        self.ctp.set_clean(t, self.core.image(t));
    }
}

impl Ftl for Cdftl {
    // `flush`: dirty CTPs list all their entries as dirty, so one rewrite per page with
    // dirty entries in either level.
    demand::forward!(read, write, trim, flush, place_prefill, map_view, block_role, ram_budget);

    fn prefetch(&self, ahead: &crate::prefetch::Lookahead, dev: &Device) {
        self.cmt.prefetch(ahead);
        // The far pages' entries in level two too: finding their slot reads only the small
        // array over the page numbers, so the entries' loads start a burst early.
        self.prefetch_pages(ahead.far);
        // The flash pages the near entries name, from either level (a write invalidates
        // its old page).
        for &lpn in ahead.near {
            let ppn = match self.cmt.peek(&lpn) {
                Some(e) => Some(e.ppn()),
                None => self.ctp.peek_entry(self.core.tpage_of(lpn), self.core.offset_of(lpn)),
            };
            if let Some(ppn) = ppn.filter(|&p| p != demand::UNMAPPED) {
                dev.flash().prefetch(ppn, ahead.reads);
            }
        }
    }

    fn ram_bytes(&self) -> u64 {
        self.core.gtd_bytes()
            + self.cmt.capacity() as u64 * ENTRY_BYTES
            + self.ctp.capacity() as u64 * self.ctp_bytes
    }

    fn ram_split(&self) -> Option<super::RamSplit> {
        let mapping_bytes = self.core.gtd_bytes()
            + self.cmt.len() as u64 * ENTRY_BYTES
            + self.ctp.len() as u64 * self.ctp_bytes;
        Some(super::RamSplit { mapping_bytes, buffer_bytes: 0 })
    }

    fn inspect(&self, q: &InspectQuery) -> Inspection {
        self.inspection(q)
    }

    fn check(&self, dev: &Device) -> Result<()> {
        demand::check(self, dev, "cdftl")?;
        let bad = |m: &str| Err(EngineError::Invariant(format!("cdftl: {m}")));
        if self.cmt.len() > self.cmt.capacity() || self.ctp.len() > self.ctp.capacity() {
            return bad("a cache level is over capacity");
        }
        if !self.ctp.is_consistent() {
            return bad("the cached translation pages' slots, index and order disagree");
        }
        Ok(())
    }

    fn hash_into(&self, h: &mut StateHasher) {
        self.core.hash_into(h, |h| {
            self.cmt.hash_into(h);
            for page in self.ctp.iter() {
                h.u32(page.tpage);
                h.bytes(&[page.dirty as u8]);
                h.u32s(page.entries);
            }
        });
    }

    fn clone_box(&self) -> Box<dyn Ftl> {
        Box::new(self.clone())
    }
}

mod ctp;
mod inspect;
#[cfg(test)]
mod tests;
