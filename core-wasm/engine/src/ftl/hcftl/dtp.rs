//! HCFTL's dynamic translation pages on flash: finding an entry through the DTP index,
//! loading a DTP into the CMT, packing the Ghost-CMT into a new DTP, merging the oldest DTP
//! into the STPs, and GC's handling of entries that live in DTPs.
//!
//! A DTP's data area holds its entries sorted by LPN, two words each (LPN, PPN), so finding
//! one is a binary search; their one-bit flags are a bitmap in the spare area.

use std::collections::BTreeSet;

use super::options::MergeWhen;
use super::{Hcftl, DTP_STREAM, DTP_WORDS, ENTRY_BYTES};
use crate::device::Device;
use crate::error::{EngineError, Result};
use crate::events::{CacheLevel, Purpose};
use crate::flash::{PageContent, PageKind, PageTag, Ppn};
use crate::ftl::demand::{read_tpage, rewrite_tpage, MapEntry, TpCause};
use crate::ftl::pool::next_page;

use super::dtp_index::IndexDesign;

/// The entries of the DTP at `tppn`, as flash holds them.
pub(super) fn entries_at(dev: &Device, tppn: Ppn) -> Vec<(u32, MapEntry)> {
    let mut entries = Vec::new();
    read_entries(dev, tppn, &mut entries);
    entries
}

/// Appends the entries of the DTP at `tppn` to `out`, as flash holds them: 32 entries per
/// flag word.
pub(super) fn read_entries(dev: &Device, tppn: Ppn, out: &mut Vec<(u32, MapEntry)>) {
    let Some(c) = dev.flash().content(tppn) else { return };
    out.reserve(c.data.len() / DTP_WORDS);
    let flags = c.oob.iter().copied().chain(std::iter::repeat(0));
    for (words, flags) in c.data.chunks(32 * DTP_WORDS).zip(flags) {
        for (i, e) in words.chunks_exact(DTP_WORDS).enumerate() {
            out.push((e[0], MapEntry::new(e[1], flags >> i & 1 == 1)));
        }
    }
}

/// A DTP's page content: the entries (sorted by LPN) in the data area, the flags in the
/// spare area.
#[cfg(test)]
pub(super) fn content_of(entries: &[(u32, MapEntry)]) -> PageContent {
    let mut c = PageContent::default();
    clear_content(&mut c, entries.len());
    for (i, &(lpn, e)) in entries.iter().enumerate() {
        put_entry(&mut c, i, lpn, e.ppn(), e.dirty());
    }
    c
}

/// Makes `c` the page content of a DTP of `entries` entries before [`put_entry`] fills it
/// (its buffers kept).
fn clear_content(c: &mut PageContent, entries: usize) {
    c.data.clear();
    c.data.reserve(entries * DTP_WORDS);
    c.oob.clear();
    c.oob.resize(entries.div_ceil(32), 0);
}

/// Appends entry `i` (the next one, LPNs ascending) to a DTP's content: LPN and PPN in the
/// data area, its flag in the spare area.
#[inline]
fn put_entry(c: &mut PageContent, i: usize, lpn: u32, ppn: Ppn, dirty: bool) {
    c.data.extend([lpn, ppn]);
    c.oob[i / 32] |= u32::from(dirty) << (i % 32);
}

/// Index of `lpn`'s entry in the DTP at `tppn` (entries are sorted by LPN).
fn slot_of(dev: &Device, tppn: Ppn, lpn: u32) -> Option<usize> {
    entry_index(dev.flash().content(tppn).map_or(&[][..], |c| &c.data[..]), lpn)
}

/// Index of `lpn`'s entry in a DTP's data area `data` (entries sorted by LPN, [`DTP_WORDS`]
/// words each, the LPN first): a binary search.
pub(super) fn entry_index(data: &[u32], lpn: u32) -> Option<usize> {
    let (mut lo, mut hi) = (0, data.len() / DTP_WORDS);
    while lo < hi {
        let mid = (lo + hi) / 2;
        match data[mid * DTP_WORDS].cmp(&lpn) {
            std::cmp::Ordering::Less => lo = mid + 1,
            std::cmp::Ordering::Greater => hi = mid,
            std::cmp::Ordering::Equal => return Some(mid),
        }
    }
    None
}

impl Hcftl {
    /// Scans the DTP index newest first for `lpn`, calling `read` on each DTP it offers
    /// (with its id and page) until one holds the entry; counts bloom false positives.
    /// Returns the DTP's id.
    fn scan_dtps(
        &mut self,
        lpn: u32,
        dev: &mut Device,
        mut read: impl FnMut(&mut Self, u32, Ppn, &mut Device) -> Result<()>,
    ) -> Result<Option<u32>> {
        let mut pos = self.index.len();
        // Neither the CMT nor the Ghost-CMT holds `lpn` here: its record names its DTP.
        let holder = self.ram.dtp_of(lpn);
        loop {
            let (found, tests) = self.index.next_candidate(lpn, holder, pos);
            dev.cache_ops(tests);
            let Some(p) = found else { return Ok(None) };
            let (id, tppn) = (self.index.at(p).id, self.index.at(p).tppn);
            read(self, id, tppn, dev)?;
            // What the read finds: the DTP holds the entry or not (the entry's record knows).
            if holder == id {
                return Ok(Some(id));
            }
            if self.options.index.design() != IndexDesign::Range {
                dev.stats.bloom_false_positives += 1;
            }
            pos = p;
        }
    }

    /// The DTP holding `lpn`'s entry after a CMT and Ghost-CMT miss: each DTP offered is
    /// read (cause "DTP load", wasted reads included). The verdict shows as a cache event at
    /// the DTP-index level: a hit keyed by the DTP's id, a miss by the LPN.
    pub(super) fn find_in_dtps(&mut self, lpn: u32, dev: &mut Device) -> Result<Option<u32>> {
        let found = self.scan_dtps(lpn, dev, |_, _, tppn, dev| {
            read_tpage(tppn, Purpose::Translation, TpCause::DtpLoad, dev)
        })?;
        match found {
            Some(id) => dev.cache_hit(CacheLevel::TranslationPage, id),
            None => dev.cache_miss(CacheLevel::TranslationPage, lpn),
        }
        Ok(found)
    }

    /// Loads DTP `id` (already read) whole into the CMT, `lpn` last (most recent), deletes
    /// its record and invalidates it. Returns `lpn`'s entry. The CMT's victims wait in the
    /// Ghost-CMT for the caller to pack.
    pub(super) fn load_dtp(&mut self, id: u32, lpn: u32, dev: &mut Device) -> Result<MapEntry> {
        let tppn =
            self.index.remove(id).ok_or_else(|| EngineError::Invariant(format!("hcftl: no DTP {id}")))?;
        dev.ram(1);
        let lost = || EngineError::Invariant(format!("hcftl: DTP {id} lost LPN {lpn}"));
        if !dev.recording() {
            // Straight from the page into the CMT (no list of decoded entries between).
            let c = dev.flash().content(tppn).ok_or_else(lost)?;
            let (e, _) = self.ram.cmt_admit_page(&c.data, &c.oob, lpn).ok_or_else(lost)?;
            dev.invalidate(tppn)?;
            return Ok(e);
        }
        let mut run = std::mem::take(&mut self.run);
        run.clear();
        read_entries(dev, tppn, &mut run);
        dev.invalidate(tppn)?;
        let at = run.binary_search_by_key(&lpn, |&(l, _)| l).map_err(|_| lost())?;
        run[at..].rotate_left(1);
        let e = run[run.len() - 1].1;
        // Each entry's events in turn: its insert, then the victim it evicts.
        for &(l, e) in &run {
            self.cmt_insert(l, e, dev);
        }
        // Kept for its buffer, emptied so checkpoints do not copy the entries.
        run.clear();
        self.run = run;
        Ok(e)
    }

    /// While the Ghost-CMT is full, packs its chosen entries into a new DTP (merging the
    /// oldest DTP first when the index is full, and down to the threshold after it when
    /// merging on the spot).
    pub(super) fn pack_while_full(&mut self, dev: &mut Device) -> Result<()> {
        while self.ram.ghost_is_full() && self.ram.ghost_len() > 0 {
            if self.index.len() >= self.index.capacity() {
                self.merge_oldest(dev)?;
            }
            // One pass over the Ghost-CMT's sorted LPNs finds the window.
            dev.cache_ops(self.ram.ghost_len() as u64);
            let mut lpns = std::mem::take(&mut self.packed);
            self.ram.ghost_choose_into(self.split.per_dtp, self.options.packing.packing(), &mut lpns);
            // Allocate first: GC may move pages of these entries (updating them in place).
            let dest = next_page(self, DTP_STREAM, dev, false)?;
            // The DTP's page is written as the entries leave.
            let mut content = std::mem::take(&mut self.page);
            clear_content(&mut content, lpns.len());
            let id = self.index.next_id();
            self.ram
                .ghost_take_sorted(&lpns, id, |i, l, ppn, dirty| put_entry(&mut content, i, l, ppn, dirty))
                .map_err(|l| EngineError::Invariant(format!("hcftl: LPN {l} left the Ghost-CMT")))?;
            if dev.recording() {
                for (i, &l) in lpns.iter().enumerate() {
                    dev.cache_evict(
                        CacheLevel::Ghost,
                        l,
                        content.oob[i / 32] >> (i % 32) & 1 == 1,
                        ENTRY_BYTES as u32,
                    );
                }
            }
            self.dtp_version += 1;
            let tag = PageTag { kind: PageKind::Dtp, key: id, version: self.dtp_version };
            dev.program_parts(dest, tag, &content.data, &content.oob, Purpose::Translation)?;
            // Kept for its buffers, emptied so checkpoints do not copy the entries.
            content.data.clear();
            content.oob.clear();
            self.page = content;
            dev.stats.tpage_writes[TpCause::DtpWrite as usize] += 1;
            let added = self.index.add(dest, &lpns);
            debug_assert_eq!(added, id, "the id the entries were packed under");
            // Kept for its buffer, emptied so checkpoints do not copy the LPNs.
            lpns.clear();
            self.packed = lpns;
            dev.ram(1);
            if self.options.merge == MergeWhen::OnTheSpot {
                while self.index.len() > self.split.merge_threshold {
                    self.merge_oldest(dev)?;
                }
            }
        }
        Ok(())
    }

    /// Merges the oldest DTP into the STPs: reads it, writes its dirty entries to their STPs
    /// (one rewrite per STP), deletes its record and invalidates it.
    pub(super) fn merge_oldest(&mut self, dev: &mut Device) -> Result<()> {
        let Some(id) = self.index.iter().next().map(|r| r.id) else { return Ok(()) };
        let tppn =
            self.index.remove(id).ok_or_else(|| EngineError::Invariant(format!("hcftl: no DTP {id}")))?;
        dev.ram(1);
        read_tpage(tppn, Purpose::Translation, TpCause::DtpMerge, dev)?;
        let entries = entries_at(dev, tppn);
        dev.invalidate(tppn)?;
        // The on-flash image first: GC during the rewrites must see (and fix) these entries.
        let mut stps = BTreeSet::new();
        for (l, e) in entries {
            if e.dirty() {
                self.core.on_flash[l as usize] = e.ppn();
                stps.insert(self.core.tpage_of(l));
            }
        }
        for t in stps {
            rewrite_tpage(self, t, Purpose::Translation, TpCause::DtpMerge, dev)?;
        }
        Ok(())
    }

    /// During GC: the DTP holding `lpn`'s entry, if any. The DTPs offered are read once
    /// per collection (charged by [`Hcftl::rewrite_patched_dtps`]).
    pub(super) fn locate_for_gc(&mut self, lpn: u32, dev: &mut Device) -> Option<u32> {
        let found = self.scan_dtps(lpn, dev, |s, id, _, _| {
            if !s.gc_read.contains(&id) {
                s.gc_read.push(id);
            }
            Ok(())
        });
        found.ok().flatten()
    }

    /// After a collection's copies: charges the DTP reads GC needed to find moved entries
    /// and rewrites each DTP holding one, with the new PPNs and their flags set (the STPs
    /// are stale for them). Cause "GC batch update", like the STP rewrites.
    pub(super) fn rewrite_patched_dtps(&mut self, dev: &mut Device) -> Result<()> {
        for id in std::mem::take(&mut self.gc_read) {
            if let Some(p) = self.index.position(id) {
                read_tpage(self.index.at(p).tppn, Purpose::Gc, TpCause::GcBatch, dev)?;
            }
        }
        for (id, fixes) in std::mem::take(&mut self.gc_patches) {
            let dest = next_page(self, DTP_STREAM, dev, true)?;
            let Some(p) = self.index.position(id) else {
                return Err(EngineError::Invariant(format!("hcftl: GC patched DTP {id}, which is gone")));
            };
            let old = self.index.at(p).tppn;
            let mut patches = Vec::with_capacity(fixes.len());
            for (lpn, ppn) in fixes {
                let i = slot_of(dev, old, lpn)
                    .ok_or_else(|| EngineError::Invariant(format!("hcftl: DTP {id} lost LPN {lpn}")))?;
                patches.push((i, ppn));
            }
            self.dtp_version += 1;
            let tag = PageTag { kind: PageKind::Dtp, key: id, version: self.dtp_version };
            // The old DTP's contents move to the new page with the moved entries' PPNs and
            // flags set (what packing would build from the patched entries), instead
            // of being unpacked and packed again.
            dev.program_moved_with(dest, tag, old, Purpose::Gc, |c| {
                for (i, ppn) in patches {
                    c.data[i * DTP_WORDS + 1] = ppn;
                    c.oob[i / 32] |= 1 << (i % 32);
                }
            })?;
            dev.stats.tpage_writes[TpCause::GcBatch as usize] += 1;
            dev.invalidate(old)?;
            self.index.set_tppn(id, dest);
            dev.ram(1);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The page buffer is reused DTP after DTP: a DTP of fewer entries than the last one
    /// gets only its own flags, none left over from the longer, all-dirty DTP before it.
    #[test]
    fn a_reused_page_buffer_keeps_no_stale_dirty_flags() {
        let dirty: Vec<(u32, MapEntry)> = (0..96).map(|l| (l, MapEntry::written(l + 1000))).collect();
        let mut c = content_of(&dirty);
        assert_eq!(c.oob, [u32::MAX; 3]);
        clear_content(&mut c, 40);
        for i in 0..40 {
            put_entry(&mut c, i, 2 * i as u32, 7, i == 33);
        }
        assert_eq!(c.data.len(), 40 * DTP_WORDS);
        assert_eq!(c.oob, [0, 1 << 1], "only entry 33 is dirty");
    }
}
