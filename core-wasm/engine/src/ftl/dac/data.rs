//! DAC's data blocks (thesis §2.3.4, notes §2.5.7), NFTL-style: a logical block's first
//! writes go to its primary block at their offset, updates to its replacement block in
//! order; a read whose primary page is stale searches the replacement block's spare areas.
//! A full replacement block is merged with its primary into a fresh block. One free pool
//! serves data and translation blocks, taken in turn (round-robin: the pool hands out the
//! longest-free block of the next unit). When free blocks fall to the GC threshold (5 % of
//! all blocks), greedy GC reclaims the fully written block with the fewest valid pages: a
//! data block by merging its logical block, a translation block by moving its valid pages.
//! Every mapping change goes through [`Dac::update_entry`].

use super::Dac;
use crate::device::Device;
use crate::error::{EngineError, Result};
use crate::events::Purpose;
use crate::flash::{BlockId, PageKind, PageState, PageTag, Ppn};
use crate::ftl::demand::TpCause;
use crate::ftl::logblock::{self, LogBlock};

/// A GC victim.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Victim {
    /// Merge this logical block's primary and replacement blocks.
    Merge(u32),
    /// Move this translation block's valid pages and erase it.
    Translation(BlockId),
}

impl Dac {
    /// Translates `lbn` (charged) and checks the caches gave the data side's mapping.
    fn translated(&mut self, lbn: u32, dev: &mut Device) -> Result<()> {
        let e = self.translate(lbn, dev)?;
        if e != self.truth(lbn) {
            return Err(EngineError::Invariant(format!(
                "dac: translation of DVBA {lbn} gave {e:?}, the data blocks are {:?}",
                self.truth(lbn)
            )));
        }
        Ok(())
    }

    /// A host read: translate, then the primary page, else a search of the replacement block.
    pub(super) fn read_page(&mut self, lpn: u32, dev: &mut Device) -> Result<Option<PageTag>> {
        let (lbn, _) = self.map.split(lpn);
        self.translated(lbn, dev)?;
        let Some(slot) = self.map.data_slot(dev, lpn) else { return Ok(None) };
        let Some(block) = self.repl.get(&lbn).map(|l| l.block) else {
            return match dev.flash().state(slot) {
                PageState::Valid => Ok(Some(dev.read(slot, Purpose::Data)?)),
                _ => Ok(None),
            };
        };
        dev.read_oob(slot, Purpose::Data)?;
        if dev.flash().state(slot) == PageState::Valid && dev.flash().tag(slot).key == lpn {
            return Ok(Some(dev.read(slot, Purpose::Data)?));
        }
        match logblock::scan_spares(dev, block, self.map.ppb(), lpn)? {
            Some(p) => Ok(Some(dev.read(p, Purpose::Data)?)),
            None => Ok(None),
        }
    }

    /// A host write (thesis §2.3.4): translate; the primary page's spare area says whether
    /// it is free (one OOB read); if it is not, the replacement block is searched
    /// sequentially for its first free page (OOB reads); a full replacement block is merged
    /// first.
    pub(super) fn write_page(&mut self, lpn: u32, version: u32, dev: &mut Device) -> Result<()> {
        let (lbn, _) = self.map.split(lpn);
        self.translated(lbn, dev)?;
        if let Some(slot) = self.map.data_slot(dev, lpn) {
            dev.read_oob(slot, Purpose::Data)?;
        }
        let ppb = self.map.ppb();
        // A replacement block just taken is known to be empty: no search.
        let mut fresh = false;
        loop {
            if self.map.data_block(lbn).is_none() {
                self.ensure_free(dev)?;
                if self.map.data_block(lbn).is_none() {
                    self.map.new_data_block(dev, lbn)?;
                    self.update_entry(lbn, Purpose::Translation, dev)?;
                }
            }
            if self.map.write_in_place(dev, lpn, version)? {
                return Ok(());
            }
            let free = match self.repl.get(&lbn) {
                Some(l) if fresh => Some(l.lpns.len() as u32),
                Some(l) => logblock::search_free_page(dev, l.block, self.map.ppb())?,
                None => None,
            };
            match self.repl.get(&lbn) {
                Some(l) if free.is_none() => {
                    debug_assert!(l.is_full(ppb));
                    // "If the replacement block … is full, the block merge operation … will
                    // be invoked"; GC may merge it first.
                    self.ensure_free(dev)?;
                    if self.repl.get(&lbn).is_some_and(|l| l.is_full(ppb)) {
                        self.merge(lbn, dev)?;
                    }
                }
                Some(_) => return self.append(lbn, lpn, version, dev),
                None => {
                    self.ensure_free(dev)?;
                    if !self.repl.contains_key(&lbn) && self.map.data_block(lbn).is_some() {
                        let log = LogBlock::take(&mut self.map, dev)?;
                        self.candidates.insert(u64::from(log.block));
                        if let Some(primary) = self.map.data_block(lbn) {
                            self.candidates.insert(u64::from(primary));
                        }
                        self.repl.insert(lbn, log);
                        fresh = true;
                        dev.log_blocks_in_use(self.repl.len() as u64);
                        self.update_entry(lbn, Purpose::Translation, dev)?;
                    }
                }
            }
        }
    }

    /// Appends `lpn` to `lbn`'s replacement block (which has room), superseding its old copy.
    fn append(&mut self, lbn: u32, lpn: u32, version: u32, dev: &mut Device) -> Result<()> {
        let old = self.current(dev, lpn);
        let log = self.repl.get_mut(&lbn).expect("replacement block");
        let ppn = dev.flash().first_ppn(log.block) + log.lpns.len() as u32;
        dev.program(ppn, PageTag::data(lpn, version), Purpose::Log)?;
        log.lpns.push(lpn);
        if let Some(old) = old {
            dev.invalidate(old)?;
        }
        Ok(())
    }

    /// Where `lpn`'s valid copy is (bookkeeping, uncharged).
    pub(super) fn current(&self, dev: &Device, lpn: u32) -> Option<Ppn> {
        let slot = self.map.data_slot(dev, lpn)?;
        if dev.flash().state(slot) == PageState::Valid && dev.flash().tag(slot).key == lpn {
            return Some(slot);
        }
        let log = self.repl.get(&(lpn / self.map.ppb()))?;
        let first = dev.flash().first_ppn(log.block);
        (0..log.lpns.len() as u32)
            .rev()
            .map(|k| first + k)
            .find(|&p| dev.flash().state(p) == PageState::Valid && dev.flash().tag(p).key == lpn)
    }

    /// The block merge: `lbn`'s valid pages (primary and replacement) into a fresh block,
    /// which becomes its primary; both old blocks are erased; the mapping follows.
    fn merge(&mut self, lbn: u32, dev: &mut Device) -> Result<()> {
        let log = self.repl.remove(&lbn).expect("a merge needs a replacement block");
        // Both old blocks are erased; the merged block, the new primary, has no replacement.
        self.candidates.remove(u64::from(log.block));
        if let Some(primary) = self.map.data_block(lbn) {
            self.candidates.remove(u64::from(primary));
        }
        dev.gc_start(log.block);
        logblock::fold_replacement(&mut self.map, dev, lbn, &log)?;
        // The new mapping is GC work like DFTL's batch update: charged to GC, not to the merge,
        // whose programs are its page copies alone.
        self.update_entry(lbn, Purpose::Gc, dev)?;
        dev.gc_end(log.block);
        Ok(())
    }

    /// Greedy GC while free blocks are at or below the threshold, as long as a victim gains
    /// something; fails only when no block is left at all.
    fn ensure_free(&mut self, dev: &mut Device) -> Result<()> {
        // A merge gains a block; moving a translation block gains pages at least, so the
        // loop ends; the bound only guards against a bug turning it into a hang.
        for _ in 0..dev.flash().blocks() {
            if self.map.free_len() > self.gc_threshold {
                break;
            }
            match self.victim(dev) {
                Some(Victim::Merge(lbn)) => self.merge(lbn, dev)?,
                Some(Victim::Translation(b)) => self.move_tblock(b, dev)?,
                None => break,
            }
        }
        if self.map.free_len() == 0 {
            return Err(EngineError::DeviceFull("dac: no free block and nothing to collect".into()));
        }
        Ok(())
    }

    /// The greedy victim: among blocks GC can reclaim (data blocks of logical blocks with a
    /// replacement block, translation blocks but the open one), a fully written one before
    /// any other, then the fewest valid pages, then the lowest block number.
    ///
    /// The fully written ones are found through the device's index of written blocks by
    /// valid count ([`Self::victim_by_index`]). Only when no fully written block can be
    /// reclaimed (rare: replacement blocks just taken) does it fall back to a pass over the
    /// candidates, [`Self::victim_by_scan`].
    pub(super) fn victim(&self, dev: &Device) -> Option<Victim> {
        self.victim_by_index(dev).or_else(|| self.victim_by_scan(dev))
    }

    /// The victim among the fully written reclaimable blocks: bucket by bucket of the
    /// device's valid-count index from the fewest valid pages, lowest block first in each,
    /// the same order as the key. The walk visits only [`Dac::candidates`]: a trace that
    /// leaves many written blocks with few valid pages that GC may not reclaim (primary
    /// blocks without a replacement) made a walk over every written block test most of the
    /// device for each collection.
    pub(super) fn victim_by_index(&self, dev: &Device) -> Option<Victim> {
        let flash = dev.flash();
        let ppb = self.map.ppb();
        let full = |b: BlockId| flash.programmed_count(b) == ppb && self.reclaimable(dev, b).is_some();
        let found =
            (0..=ppb).find_map(|valid| flash.min_block_with_valid_among(valid, &self.candidates, &full))?;
        self.reclaimable(dev, found)
    }

    /// Every block GC may reclaim is a candidate (the search would miss it otherwise).
    pub(super) fn check_candidates(&self) -> Result<()> {
        let primaries = self.repl.keys().filter_map(|&lbn| self.map.data_block(lbn));
        let mut blocks =
            self.repl.values().map(|l| l.block).chain(primaries).chain(self.tblocks.iter().copied());
        match blocks.find(|&b| !self.candidates.contains(u64::from(b))) {
            Some(b) => Err(EngineError::Invariant(format!(
                "dac: block {b} may be reclaimed but is not a GC candidate"
            ))),
            None => Ok(()),
        }
    }

    /// What collecting block `b` means, if GC may reclaim it: merging its logical block (a
    /// primary or replacement block of a logical block with a replacement block) or moving a
    /// translation block (not the open one, and not entirely valid). Reads the block's first
    /// spare area, so `b` must be written.
    fn reclaimable(&self, dev: &Device, b: BlockId) -> Option<Victim> {
        let flash = dev.flash();
        let tag = flash.tag(flash.first_ppn(b));
        match tag.kind {
            PageKind::Data => {
                let lbn = tag.key / self.map.ppb();
                let log = self.repl.get(&lbn)?;
                (log.block == b || self.map.data_block(lbn) == Some(b)).then_some(Victim::Merge(lbn))
            }
            PageKind::Translation => {
                let open = self.tblocks.last() == Some(&b);
                let listed = self.tblocks.contains(&b);
                (listed && !open && flash.valid_count(b) < self.map.ppb()).then_some(Victim::Translation(b))
            }
            _ => None,
        }
    }

    /// [`Self::victim`] by a pass over every candidate: the reference the index is checked
    /// against, and the answer when no fully written block can be reclaimed.
    pub(super) fn victim_by_scan(&self, dev: &Device) -> Option<Victim> {
        let flash = dev.flash();
        let ppb = self.map.ppb();
        let key = |b: BlockId| (flash.programmed_count(b) < ppb, flash.valid_count(b), b);
        let data = self.repl.iter().flat_map(|(&lbn, l)| {
            let primary = self.map.data_block(lbn);
            std::iter::once((key(l.block), Victim::Merge(lbn)))
                .chain(primary.map(|p| (key(p), Victim::Merge(lbn))))
        });
        let open = self.tblocks.last().copied();
        let translation = self
            .tblocks
            .iter()
            .filter(|&&b| Some(b) != open && flash.valid_count(b) < ppb)
            .map(|&b| (key(b), Victim::Translation(b)));
        data.chain(translation).min_by_key(|(k, _)| *k).map(|(_, v)| v)
    }

    /// Collects translation block `b`: its valid pages are copied to the open translation
    /// block (the TPMT follows) and it is erased.
    fn move_tblock(&mut self, b: BlockId, dev: &mut Device) -> Result<()> {
        dev.gc_start(b);
        let first = dev.flash().first_ppn(b);
        for p in first..first + self.map.ppb() {
            if dev.flash().state(p) != PageState::Valid {
                continue;
            }
            let t = dev.flash().tag(p).key;
            crate::ftl::demand::read_tpage(p, Purpose::Gc, TpCause::GcCopy, dev)?;
            let entries = self.flash_entries(dev, t);
            self.write_tpage(t, &entries, TpCause::GcCopy, Purpose::Gc, dev)?;
            dev.gc_copied();
        }
        self.tblocks.retain(|&x| x != b);
        self.candidates.remove(u64::from(b));
        self.map.free(dev, b, Purpose::Gc)?;
        dev.gc_end(b);
        Ok(())
    }

    /// The next free page of the open translation block, opening a new one from the shared
    /// pool when it is full.
    pub(super) fn next_tpage_slot(&mut self, dev: &mut Device) -> Result<Ppn> {
        if let Some(&b) = self.tblocks.last() {
            let used = dev.flash().programmed_count(b);
            if used < self.map.ppb() {
                return Ok(dev.flash().first_ppn(b) + used);
            }
        }
        let b = self.map.take(dev)?;
        self.tblocks.push(b);
        self.candidates.insert(u64::from(b));
        Ok(dev.flash().first_ppn(b))
    }
}
