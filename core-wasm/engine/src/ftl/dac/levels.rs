//! DAC's address translation over its two cache levels: Algorithm 2.3.1
//! (`Address_Translation`), the DBMTC's cost-aware LRU (§2.5.3), Algorithm 2.3.2
//! (`Fetch_in` to level two), Algorithm 2.3.3 (`Kick_out`), and where an updated mapping
//! goes (the highest level holding it, else a read-modify-write of its translation page).
//!
//! Costs (thesis §2.4.3, Ch. 2 latencies): each cache search is one cache operation
//! ([`Device::cache_ops`], the thesis' 2 µs "search one item in cache"); a TPMT row is a
//! metadata access ([`Device::meta_read`]); a miss in both levels reads one translation
//! page, and a dirty level-two victim costs one translation-page write on top.

use super::{CachedEntry, CachedPage, Dac, UNWRITTEN};
use crate::config::DeviceConfig;
use crate::device::Device;
use crate::error::{EngineError, Result};
use crate::events::{CacheLevel, Purpose};
use crate::flash::{PageContent, PageKind, PageTag, Ppn};
use crate::ftl::blockmap::NONE;
use crate::ftl::demand::{pop_cost_aware, read_tpage, TpCause};
use crate::meta::MetaKind;

/// One block-level mapping entry: the primary and replacement physical blocks of a DVBA
/// ([`NONE`] when absent).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BlockEntry {
    /// DPPBA.
    pub primary: u32,
    /// DRPBA.
    pub replacement: u32,
}

impl BlockEntry {
    /// No blocks yet.
    pub const EMPTY: BlockEntry = BlockEntry { primary: NONE, replacement: NONE };
}

/// Where a translation page is (the TPMT's LOCA): 0 and 1 as Algorithm 2.3.1 tests them,
/// any other value for flash only.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum Loca {
    /// In the TPRLC.
    Tprlc = 0,
    /// In the TPAFC.
    Tpafc = 1,
    /// On flash only.
    Flash = 2,
}

/// One TPMT row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TpmtRow {
    /// The translation page's physical page ([`UNWRITTEN`] before its first write).
    pub tppa: Ppn,
    /// Where it is cached.
    pub loca: Loca,
    /// Misses in the DBMTC and the TPRLC that needed it (never decays by default).
    pub freq: u32,
}

impl Default for TpmtRow {
    fn default() -> Self {
        TpmtRow { tppa: UNWRITTEN, loca: Loca::Flash, freq: 0 }
    }
}

/// Entries per translation page: a page's bytes over the entry size, capped (like the
/// demand family's) by the device's `translation_page_entries` on a teaching device.
pub fn entries_per_tpage(d: &DeviceConfig, entry_bytes: u32) -> u32 {
    let full = (d.page_bytes / entry_bytes).max(1);
    match d.translation_page_entries {
        0 => full,
        n => n.min(full),
    }
}

/// A block number in a 6-byte entry: 24 bits, all ones for "none".
const NONE_24: u32 = 0xFF_FFFF;

/// A translation page's entries as the words flash holds: two block numbers per entry, 32
/// bits each with 8-byte entries, 24 bits each (packed) with 6-byte entries, so a page's
/// content never exceeds its size.
pub fn encode(entries: &[BlockEntry], entry_bytes: u32) -> Vec<u32> {
    let values = entries.iter().flat_map(|e| [e.primary, e.replacement]);
    if entry_bytes == 8 {
        return values.collect();
    }
    let bytes: Vec<u8> =
        values.flat_map(|v| if v == NONE { NONE_24 } else { v }.to_le_bytes().into_iter().take(3)).collect();
    bytes.chunks(4).map(|c| c.iter().rev().fold(0u32, |w, &b| (w << 8) | u32::from(b))).collect()
}

/// The entries of a translation page's words (see [`encode`]).
pub fn decode(words: &[u32], entry_bytes: u32) -> Vec<BlockEntry> {
    let values: Vec<u32> = if entry_bytes == 8 {
        words.to_vec()
    } else {
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        bytes
            .chunks_exact(3)
            .map(|c| u32::from(c[0]) | u32::from(c[1]) << 8 | u32::from(c[2]) << 16)
            .map(|v| if v == NONE_24 { NONE } else { v })
            .collect()
    };
    values.chunks_exact(2).map(|w| BlockEntry { primary: w[0], replacement: w[1] }).collect()
}

/// Which part of level two (for kick-out).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    /// The TPRLC.
    Recency,
    /// The TPAFC.
    Frequency,
}

impl Dac {
    /// The translation page (TVPA) holding DVBA `lbn`'s entry, and its offset there.
    pub fn tvpa(&self, lbn: u32) -> (u32, usize) {
        (lbn / self.per_tpage, (lbn % self.per_tpage) as usize)
    }

    fn set_of(&self, lbn: u32) -> usize {
        lbn as usize % self.dbmtc.len()
    }

    /// Whether level two holds translation page `t`.
    pub fn in_level_two(&self, t: u32) -> bool {
        self.tpmt[t as usize].loca != Loca::Flash
    }

    fn l2_page(&self, t: u32) -> Option<&CachedPage> {
        match self.tpmt[t as usize].loca {
            Loca::Tprlc => self.tprlc.peek(&t),
            Loca::Tpafc => self.tpafc.iter().find(|(k, _)| *k == t).map(|(_, p)| p),
            Loca::Flash => None,
        }
    }

    fn l2_page_mut(&mut self, t: u32) -> Option<&mut CachedPage> {
        match self.tpmt[t as usize].loca {
            Loca::Tprlc => self.tprlc.peek_mut(&t),
            Loca::Tpafc => self.tpafc.iter_mut().find(|(k, _)| *k == t).map(|(_, p)| p),
            Loca::Flash => None,
        }
    }

    /// The DBMTC entry of `lbn`, if cached (no recency change).
    pub fn dbmtc_entry(&self, lbn: u32) -> Option<CachedEntry> {
        self.dbmtc[self.set_of(lbn)].peek(&lbn).copied()
    }

    /// Algorithm 2.3.1, `Address_Translation`: `lbn`'s (primary, replacement) through the
    /// DBMTC, the TPMT and level two, reading its translation page from flash when both
    /// levels miss. Counts one mapping look-up (a hit in either level is a hit).
    pub fn translate(&mut self, lbn: u32, dev: &mut Device) -> Result<BlockEntry> {
        // Step 2: search the DBMTC (indexed by Hash(DVBA)).
        dev.cache_ops(1);
        let set = self.set_of(lbn);
        if let Some(c) = self.dbmtc[set].get(&lbn) {
            let e = c.entry;
            dev.cache_hit(CacheLevel::BlockMap, lbn);
            dev.mapping_lookup(true);
            return Ok(e);
        }
        dev.cache_miss(CacheLevel::BlockMap, lbn);
        // Step 4: the TPMT row of RTvpa.
        let (t, off) = self.tvpa(lbn);
        dev.meta_read(MetaKind::Directory, t, super::TPMT_ROW_BYTES as u32);
        let loca = self.tpmt[t as usize].loca;
        if loca != Loca::Tprlc {
            // 4b: FREQ counts misses in the DBMTC and the TPRLC.
            self.tpmt[t as usize].freq += 1;
            dev.meta_write(MetaKind::Directory, t, super::TPMT_ROW_BYTES as u32);
        }
        if loca != Loca::Flash {
            // 4a / 4b with RLoca = 1: search the cached page.
            dev.cache_ops(1);
            let level = if loca == Loca::Tprlc { CacheLevel::Recency } else { CacheLevel::Frequency };
            if loca == Loca::Tprlc {
                self.tprlc.touch(&t);
            }
            let e = self.l2_page(t).expect("LOCA says cached").entries[off];
            dev.cache_hit(level, t);
            dev.mapping_lookup(true);
            if self.options.promote_on_level_two_hit {
                self.dbmtc_fetch_in(lbn, CachedEntry { entry: e, dirty: false }, dev);
            }
            return Ok(e);
        }
        dev.cache_miss(CacheLevel::Recency, t);
        dev.mapping_lookup(false);
        // Both levels missed: one translation-page read.
        let entries = self.load_tpage(t, TpCause::Miss, Purpose::Translation, dev)?;
        let e = entries[off];
        self.dbmtc_fetch_in(lbn, CachedEntry { entry: e, dirty: false }, dev);
        self.fetch_in(t, entries, dev)?;
        self.age_freq();
        Ok(e)
    }

    /// FREQ decay (an option; none by default).
    fn age_freq(&mut self) {
        let every = self.options.freq_halve_every;
        if every == 0 {
            return;
        }
        self.misses_since_halving += 1;
        if self.misses_since_halving >= every {
            self.misses_since_halving = 0;
            for r in &mut self.tpmt {
                r.freq /= 2;
            }
        }
    }

    /// Translation page `t`'s entries as flash holds them (one read, none when it was never
    /// written: then every entry is empty).
    pub(super) fn load_tpage(
        &self,
        t: u32,
        cause: TpCause,
        purpose: Purpose,
        dev: &mut Device,
    ) -> Result<Vec<BlockEntry>> {
        let at = self.tpmt[t as usize].tppa;
        let n = self.per_tpage as usize;
        if at == UNWRITTEN {
            return Ok(vec![BlockEntry::EMPTY; n]);
        }
        read_tpage(at, purpose, cause, dev)?;
        Ok(self.flash_entries(dev, t))
    }

    /// Translation page `t`'s entries as flash holds them, uncharged.
    pub(super) fn flash_entries(&self, dev: &Device, t: u32) -> Vec<BlockEntry> {
        let n = self.per_tpage as usize;
        let at = self.tpmt[t as usize].tppa;
        if at == UNWRITTEN {
            return vec![BlockEntry::EMPTY; n];
        }
        let words = dev.flash().content(at).map_or(&[][..], |c| &c.data[..]);
        let mut out = decode(words, self.options.entry_bytes);
        out.resize(n, BlockEntry::EMPTY);
        out
    }

    /// Fetch-in to the DBMTC with the cost-aware LRU (§2.5.3): when full, the least
    /// recently used entry that is clean or whose translation page level two holds is the
    /// victim; a dirty victim is kicked into that page (no flash access). When every entry
    /// is dirty with its page uncached, nothing is evicted and `entry` is not cached.
    /// Returns whether it was cached.
    pub(super) fn dbmtc_fetch_in(&mut self, lbn: u32, entry: CachedEntry, dev: &mut Device) -> bool {
        let set = self.set_of(lbn);
        if self.dbmtc[set].capacity() == 0 {
            return false;
        }
        if self.dbmtc[set].is_full() {
            let Some((victim, v)) = self.dbmtc_victim(set, dev) else { return false };
            dev.cache_evict(CacheLevel::BlockMap, victim, v.dirty, self.options.entry_bytes);
            if v.dirty {
                let (t, off) = self.tvpa(victim);
                let page =
                    self.l2_page_mut(t).expect("the rule admits a dirty victim only with its page cached");
                page.entries[off] = v.entry;
                page.dirty = true;
                dev.cache_ops(1);
            }
        }
        dev.cache_insert(CacheLevel::BlockMap, lbn, self.options.entry_bytes);
        self.dbmtc[set].insert(lbn, entry);
        true
    }

    /// The cost-aware LRU victim of DBMTC set `set`, removed from it (`None`: every entry
    /// is dirty and its translation page is not in level two): the shared rule, which charges
    /// a cache search for each dirty entry it passes over.
    pub fn dbmtc_victim(&mut self, set: usize, dev: &mut Device) -> Option<(u32, CachedEntry)> {
        let (per, tpmt) = (self.per_tpage, &self.tpmt);
        let page_cached = |&k: &u32| tpmt[(k / per) as usize].loca != Loca::Flash;
        pop_cost_aware(&mut self.dbmtc[set], |c: &CachedEntry| c.dirty, page_cached, dev)
    }

    /// Algorithm 2.3.2, `Fetch_in(RTppa, TPRLC, TPAFC)`: translation page `t` (its
    /// `entries` just read) into the TPRLC if it has room, else the TPAFC, else by FREQ
    /// against the TPAFC's least frequent page.
    pub(super) fn fetch_in(&mut self, t: u32, entries: Vec<BlockEntry>, dev: &mut Device) -> Result<()> {
        let page = CachedPage { entries, dirty: false };
        let (rlc_cap, afc_cap) = (self.tprlc.capacity(), self.tpafc_capacity);
        if self.tprlc.len() < rlc_cap {
            self.put(t, page, Part::Recency, dev);
            return Ok(());
        }
        if self.tpafc.len() < afc_cap {
            self.put(t, page, Part::Frequency, dev);
            return Ok(());
        }
        // Both full (a part of size 0 has no victim: the other part takes the page).
        let rfreq = self.tpmt[t as usize].freq;
        let into = match self.tpafc_lfu() {
            None if rlc_cap == 0 => return Ok(()), // no level two at all
            None => Part::Recency,
            Some(_) if rlc_cap == 0 => Part::Frequency,
            Some(i) => {
                let (ta, ref victim) = self.tpafc[i];
                let afreq = self.tpmt[ta as usize].freq;
                if rfreq > afreq || (rfreq == afreq && !victim.dirty) {
                    // a, and b with a clean victim (dropped: kick-out writes nothing).
                    Part::Frequency
                } else {
                    Part::Recency // b with a dirty victim, and c
                }
            }
        };
        match into {
            Part::Frequency => {
                let i = self.tpafc_lfu().expect("TPAFC has a victim");
                let ta = self.tpafc[i].0;
                self.kick_out(ta, Part::Frequency, dev)?;
            }
            Part::Recency => {
                let (&tr, _) = self.tprlc.peek_lru().expect("TPRLC has a victim");
                self.kick_out(tr, Part::Recency, dev)?;
            }
        }
        self.put(t, page, into, dev);
        Ok(())
    }

    /// The TPAFC's least frequently used page (lowest FREQ, the earliest entered on a tie).
    pub fn tpafc_lfu(&self) -> Option<usize> {
        let freq = |i: usize| self.tpmt[self.tpafc[i].0 as usize].freq;
        (0..self.tpafc.len()).min_by_key(|&i| (freq(i), i))
    }

    fn put(&mut self, t: u32, page: CachedPage, part: Part, dev: &mut Device) {
        let bytes = self.per_tpage * self.options.entry_bytes;
        match part {
            Part::Recency => {
                dev.cache_insert(CacheLevel::Recency, t, bytes);
                self.tprlc.insert(t, page);
                self.tpmt[t as usize].loca = Loca::Tprlc;
            }
            Part::Frequency => {
                dev.cache_insert(CacheLevel::Frequency, t, bytes);
                self.tpafc.push((t, page));
                self.tpmt[t as usize].loca = Loca::Tpafc;
            }
        }
    }

    /// Algorithm 2.3.3, `Kick_out(Pvictim, cache)`: a dirty victim is written to a new
    /// translation page (one write; the old page is invalid and the TPMT follows); a clean
    /// one is dropped. LOCA becomes "flash".
    pub(super) fn kick_out(&mut self, t: u32, part: Part, dev: &mut Device) -> Result<()> {
        let page = match part {
            Part::Recency => self.tprlc.remove(&t),
            Part::Frequency => {
                let i = self.tpafc.iter().position(|(k, _)| *k == t);
                i.map(|i| self.tpafc.remove(i).1)
            }
        }
        .expect("kick-out of a cached page");
        let level = if part == Part::Recency { CacheLevel::Recency } else { CacheLevel::Frequency };
        dev.cache_evict(level, t, page.dirty, self.per_tpage * self.options.entry_bytes);
        self.tpmt[t as usize].loca = Loca::Flash;
        if page.dirty {
            self.write_tpage(t, &page.entries, TpCause::Eviction, Purpose::Translation, dev)?;
        }
        Ok(())
    }

    /// Programs translation page `t` with `entries` at the next free translation page,
    /// invalidating its old copy and updating the TPMT.
    pub(super) fn write_tpage(
        &mut self,
        t: u32,
        entries: &[BlockEntry],
        cause: TpCause,
        purpose: Purpose,
        dev: &mut Device,
    ) -> Result<()> {
        let dest = self.next_tpage_slot(dev)?;
        self.tpage_version += 1;
        let data = encode(entries, self.options.entry_bytes);
        dev.program_with(
            dest,
            PageTag { kind: PageKind::Translation, key: t, version: self.tpage_version },
            PageContent { data, oob: Vec::new() },
            purpose,
        )?;
        dev.stats.tpage_writes[cause as usize] += 1;
        let row = &mut self.tpmt[t as usize];
        if row.tppa != UNWRITTEN {
            dev.invalidate(row.tppa)?;
        }
        row.tppa = dest;
        dev.meta_write(MetaKind::Directory, t, super::TPMT_ROW_BYTES as u32);
        Ok(())
    }

    /// `lbn`'s mapping changed (the data side's bookkeeping already holds the new one): the
    /// highest level holding the entry takes it and becomes dirty; when neither level holds
    /// it, its translation page is read, updated and written (charged to `purpose`).
    pub(super) fn update_entry(&mut self, lbn: u32, purpose: Purpose, dev: &mut Device) -> Result<()> {
        let new = self.truth(lbn);
        let set = self.set_of(lbn);
        if let Some(c) = self.dbmtc[set].peek_mut(&lbn) {
            *c = CachedEntry { entry: new, dirty: true };
            dev.cache_ops(1);
            return Ok(());
        }
        let (t, off) = self.tvpa(lbn);
        if let Some(page) = self.l2_page_mut(t) {
            page.entries[off] = new;
            page.dirty = true;
            dev.cache_ops(1);
            return Ok(());
        }
        let cause = if purpose == Purpose::Translation { TpCause::Eviction } else { TpCause::GcBatch };
        let mut entries = self.load_tpage(t, cause, purpose, dev)?;
        entries[off] = new;
        self.write_tpage(t, &entries, cause, purpose, dev)
    }

    /// Writes whatever RAM holds newer than flash: dirty DBMTC entries into their cached
    /// pages (or, uncached, by a read-modify-write of their page), then dirty level-two pages.
    pub(super) fn flush_levels(&mut self, dev: &mut Device) -> Result<()> {
        let mut uncached: Vec<(u32, BlockEntry)> = Vec::new();
        for s in 0..self.dbmtc.len() {
            let mut dirty: Vec<(u32, BlockEntry)> = Vec::new();
            self.dbmtc[s].for_each_mut(|&k, c| {
                if c.dirty {
                    dirty.push((k, c.entry));
                    c.dirty = false;
                }
            });
            for (lbn, e) in dirty {
                let (t, off) = self.tvpa(lbn);
                match self.l2_page_mut(t) {
                    Some(page) => {
                        page.entries[off] = e;
                        page.dirty = true;
                    }
                    None => uncached.push((lbn, e)),
                }
            }
        }
        uncached.sort_unstable_by_key(|&(lbn, _)| lbn);
        let mut i = 0;
        while i < uncached.len() {
            let (t, _) = self.tvpa(uncached[i].0);
            let mut entries = self.load_tpage(t, TpCause::Flush, Purpose::Translation, dev)?;
            while i < uncached.len() && self.tvpa(uncached[i].0).0 == t {
                entries[self.tvpa(uncached[i].0).1] = uncached[i].1;
                i += 1;
            }
            self.write_tpage(t, &entries, TpCause::Flush, Purpose::Translation, dev)?;
        }
        let mut dirty_pages: Vec<(u32, Vec<BlockEntry>)> = Vec::new();
        self.tprlc.for_each_mut(|&t, p| {
            if p.dirty {
                p.dirty = false;
                dirty_pages.push((t, p.entries.clone()));
            }
        });
        for (t, p) in &mut self.tpafc {
            if p.dirty {
                p.dirty = false;
                dirty_pages.push((*t, p.entries.clone()));
            }
        }
        for (t, entries) in dirty_pages {
            self.write_tpage(t, &entries, TpCause::Flush, Purpose::Translation, dev)?;
        }
        Ok(())
    }

    /// Checks the levels against the data side: for every DVBA the newest copy (DBMTC, else
    /// level two, else flash) is its mapping, a clean DBMTC entry equals the level below, a
    /// clean level-two page equals flash, LOCA agrees with where pages are, the TPMT points
    /// at valid translation pages, and the capacities hold.
    pub(super) fn check_levels(&self, dev: &Device) -> Result<()> {
        let bad = |m: String| Err(EngineError::Invariant(format!("dac: {m}")));
        let flash = dev.flash();
        for (t, row) in self.tpmt.iter().enumerate() {
            let t = t as u32;
            if row.tppa != UNWRITTEN {
                let tag = flash.tag(row.tppa);
                if flash.state(row.tppa) != crate::flash::PageState::Valid
                    || tag.kind != PageKind::Translation
                    || tag.key != t
                {
                    return bad(format!("TPMT row {t} points at PPN {}, which holds {tag:?}", row.tppa));
                }
            }
            let (in_rlc, in_afc) = (self.tprlc.contains(&t), self.tpafc.iter().any(|(k, _)| *k == t));
            let loca = match (in_rlc, in_afc) {
                (true, false) => Loca::Tprlc,
                (false, true) => Loca::Tpafc,
                (false, false) => Loca::Flash,
                _ => return bad(format!("translation page {t} is in both the TPRLC and the TPAFC")),
            };
            if loca != row.loca {
                return bad(format!("LOCA of translation page {t} is {:?}, but it is in {loca:?}", row.loca));
            }
        }
        let (_, rlc, afc) = self.capacities();
        if self.tprlc.len() > rlc || self.tpafc.len() > afc {
            return bad("level two holds more pages than it has room for".into());
        }
        // Orphan translation pages: a valid one the TPMT does not point at is never reclaimed.
        for &b in &self.tblocks {
            let first = flash.first_ppn(b);
            for p in first..first + flash.pages_per_block() {
                let tag = flash.tag(p);
                if flash.state(p) == crate::flash::PageState::Valid
                    && (tag.kind != PageKind::Translation || self.tpmt[tag.key as usize].tppa != p)
                {
                    return bad(format!(
                        "PPN {p} in translation block {b} is a valid page the TPMT does not point at"
                    ));
                }
            }
        }
        for t in 0..self.tpmt.len() as u32 {
            let on_flash = self.flash_entries(dev, t);
            let l2 = self.l2_page(t);
            if let Some(p) = l2 {
                if !p.dirty && p.entries != on_flash {
                    return bad(format!("clean cached translation page {t} differs from flash"));
                }
            }
            let below = l2.map_or(&on_flash, |p| &p.entries);
            let first = t * self.per_tpage;
            for (off, &lower) in below.iter().enumerate() {
                let lbn = first + off as u32;
                if lbn >= self.map.lbns() {
                    break;
                }
                let newest = match self.dbmtc_entry(lbn) {
                    Some(c) if !c.dirty && c.entry != lower => {
                        return bad(format!("clean DBMTC entry of DVBA {lbn} differs from the level below"))
                    }
                    Some(c) => c.entry,
                    None => lower,
                };
                if newest != self.truth(lbn) {
                    return bad(format!(
                        "DVBA {lbn}: the caches and flash say {newest:?}, the data blocks {:?}",
                        self.truth(lbn)
                    ));
                }
            }
        }
        Ok(())
    }
}
