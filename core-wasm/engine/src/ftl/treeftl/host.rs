//! TreeFTL's place in the demand family and its [`Ftl`] implementation: the tree's RAM
//! entries for GC and checks, the request hooks (sequential bypass), reads, writes, trims,
//! flush, inspection, checks and hashing. The tree's own operations are in `tree.rs`.

use super::tree::{NodeKey, TreeFtl, IN_RAM};
use super::Victims;
use crate::device::Device;
use crate::error::{EngineError, Result};
use crate::events::{CacheLevel, HostOp, Purpose};
use crate::flash::{PageTag, Ppn};
use crate::ftl::demand::{self, DemandScheme, UNMAPPED};
use crate::ftl::{Ftl, RamSplit};
use crate::hash::StateHasher;
use crate::inspect::{InspectQuery, Inspection};

impl DemandScheme for TreeFtl {
    demand::forward!(core);

    fn translate(&mut self, lpn: u32, dev: &mut Device) -> Result<Ppn> {
        let t = self.core.tpage_of(lpn);
        self.load_ctp(t, dev)?;
        let off = self.core.offset_of(lpn);
        Ok(self.group(t).entries[off])
    }

    fn cached(&self, lpn: u32) -> Option<Ppn> {
        let g = self.groups.peek(&self.core.tpage_of(lpn))?;
        Some(g.entries[self.core.offset_of(lpn)])
    }

    /// GC moved `lpn`'s flash copy: fix the CTP entry (lazy copying). A buffered page has no
    /// flash copy, so GC never moves one.
    fn set_cached(&mut self, lpn: u32, ppn: Ppn, dev: &mut Device) -> bool {
        let off = self.core.offset_of(lpn);
        let Some(g) = self.groups.peek_mut(&self.core.tpage_of(lpn)) else { return false };
        g.entries[off] = ppn;
        g.dirty = true;
        dev.ram(1);
        true
    }

    /// CTP entries; a buffered page's entry is reported unmapped (its data is declared as
    /// held in [`Ftl::map_view`], and its flash copy was invalidated).
    fn ram_entries(&self) -> Vec<(u32, Ppn, bool)> {
        let mut out = Vec::new();
        for (&t, g) in self.groups.iter() {
            let entries = self.core.lpns_of(t).zip(&g.entries);
            out.extend(entries.map(|(lpn, &p)| (lpn, if p == IN_RAM { UNMAPPED } else { p }, g.dirty)));
        }
        out
    }

    fn mark_clean(&mut self, t: u32, _lpns: &[u32]) {
        if let Some(g) = self.groups.peek_mut(&t) {
            g.dirty = false;
        }
    }

    /// The CDPs: written pages only RAM holds.
    fn held(&self) -> Vec<(u32, u32)> {
        self.groups.iter().flat_map(|(_, g)| g.cdps.iter().map(|(&l, &v)| (l, v))).collect()
    }
}

impl Ftl for TreeFtl {
    fn begin_request(&mut self, op: HostOp, lpns: &[u32], _dev: &mut Device) -> Result<()> {
        self.bypass.begin(op, lpns.len());
        Ok(())
    }

    fn end_request(&mut self, _dev: &mut Device) -> Result<()> {
        self.bypass.end();
        Ok(())
    }

    /// Far pages: the caller's table, their entries (in the CTP, or in the on-flash image
    /// a CTP load will copy; the groups' headers are few and cached) and Tree-PL's node
    /// slots; near pages: the flash page each entry names, which a write reads in
    /// (`read_in`) and invalidates. Changes nothing.
    fn prefetch(&self, ahead: &crate::prefetch::Lookahead, dev: &Device) {
        let tag = ahead.reads || self.options.read_in;
        let page_lru = self.victims == Victims::Page;
        for i in 0..ahead.far.len().max(ahead.near.len()) {
            if let Some(&lpn) = ahead.far.get(i) {
                crate::prefetch::element(ahead.also, lpn as usize);
                match self.groups.peek(&self.core.tpage_of(lpn)) {
                    Some(g) => crate::prefetch::element(&g.entries, self.core.offset_of(lpn)),
                    None => crate::prefetch::element(&self.core.on_flash, lpn as usize),
                }
                if page_lru {
                    self.pages.index().prefetch_cdp(lpn);
                }
            }
            if let Some(&lpn) = ahead.near.get(i) {
                let ppn = match self.groups.peek(&self.core.tpage_of(lpn)) {
                    Some(g) => g.entries.get(self.core.offset_of(lpn)).copied(),
                    None => self.core.on_flash.get(lpn as usize).copied(),
                };
                if let Some(ppn) = ppn.filter(|&p| p != UNMAPPED && p != IN_RAM) {
                    dev.flash().prefetch(ppn, tag);
                }
            }
        }
    }

    /// The CTP is loaded if needed; a CDP is served from RAM; otherwise the page is read
    /// from flash and not cached (random and sequential reads alike).
    fn read(&mut self, lpn: u32, dev: &mut Device) -> Result<Option<PageTag>> {
        let t = self.core.tpage_of(lpn);
        self.load_ctp(t, dev)?;
        if let Some(&v) = self.group(t).cdps.get(&lpn) {
            if !self.bypass.on() {
                dev.buffer_lookup(true);
            }
            dev.cache_hit(CacheLevel::DataPage, lpn);
            dev.ram(1);
            self.touch(t, Some(lpn), dev);
            return Ok(Some(PageTag::data(lpn, v)));
        }
        if !self.bypass.on() {
            dev.buffer_lookup(false);
        }
        let off = self.core.offset_of(lpn);
        let ppn = self.group(t).entries[off];
        if ppn == UNMAPPED {
            return Ok(None);
        }
        dev.read(ppn, Purpose::Data).map(Some)
    }

    fn write(&mut self, lpn: u32, version: u32, dev: &mut Device) -> Result<()> {
        let t = self.core.tpage_of(lpn);
        self.load_ctp(t, dev)?;
        if self.bypass.on() {
            self.write_through(t, lpn, version, dev)
        } else {
            self.buffer_write(t, lpn, version, dev)
        }
    }

    fn trim(&mut self, lpn: u32, dev: &mut Device) -> Result<()> {
        let t = self.core.tpage_of(lpn);
        self.load_ctp(t, dev)?;
        self.discard_cdp(t, lpn, dev);
        let off = self.core.offset_of(lpn);
        let old = self.group(t).entries[off];
        if old != UNMAPPED {
            dev.invalidate(old)?;
            let g = self.group(t);
            g.entries[off] = UNMAPPED;
            g.dirty = true;
        }
        Ok(())
    }

    fn ram_bytes(&self) -> u64 {
        self.core.gtd_bytes() + self.used
    }

    fn group_sizes(&self) -> Option<Vec<u32>> {
        Some(self.groups.iter().map(|(_, g)| g.cdps.len() as u32).collect())
    }

    /// The implicit split: the GTD and the CTPs are mapping, the CDPs buffered data.
    fn ram_split(&self) -> Option<RamSplit> {
        let (ctps, cdps) = self.counts();
        Some(RamSplit {
            mapping_bytes: self.core.gtd_bytes() + ctps as u64 * self.ctp_bytes,
            buffer_bytes: cdps as u64 * self.page_bytes,
        })
    }

    fn holds_in_ram(&self, lpn: u32) -> bool {
        self.groups.peek(&self.core.tpage_of(lpn)).is_some_and(|g| g.cdps.contains_key(&lpn))
    }

    // `read`, `write`, `trim` and `flush` are the tree's own (above, below).
    demand::forward!(place_prefill, map_view, block_role, ram_budget);

    fn inspect(&self, q: &InspectQuery) -> Inspection {
        self.inspection(q)
    }

    fn check(&self, dev: &Device) -> Result<()> {
        demand::check(self, dev, self.id)?;
        let bad = |m: String| Err(EngineError::Invariant(format!("{}: {m}", self.id)));
        let (ctps, cdps) = self.counts();
        if self.used != ctps as u64 * self.ctp_bytes + cdps as u64 * self.page_bytes
            || self.used > self.capacity
        {
            return bad(format!(
                "{ctps} CTPs + {cdps} CDPs, {} counted, capacity {}",
                self.used, self.capacity
            ));
        }
        for (&t, g) in self.groups.iter() {
            if g.entries.len() != self.core.lpns_of(t).len() {
                return bad(format!("CTP {t} has {} entries", g.entries.len()));
            }
            for (lpn, &p) in self.core.lpns_of(t).zip(&g.entries) {
                if (p == IN_RAM) != g.cdps.contains_key(&lpn) {
                    return bad(format!("CTP {t}: entry of LPN {lpn} and its CDP disagree"));
                }
            }
            if g.entries.contains(&IN_RAM) && !g.dirty {
                return bad(format!("CTP {t} points into RAM but is clean"));
            }
        }
        if self.core.on_flash.contains(&IN_RAM) {
            return bad("a RAM address reached a translation page on flash".into());
        }
        if self.victims == Victims::Page && self.pages.len() != ctps + cdps {
            return bad(format!("page LRU holds {} nodes, RAM {}", self.pages.len(), ctps + cdps));
        }
        Ok(())
    }

    fn flush(&mut self, dev: &mut Device) -> Result<()> {
        self.flush_all(dev)
    }

    fn hash_into(&self, h: &mut StateHasher) {
        self.core.hash_into(h, |h| {
            for (&t, g) in self.groups.iter() {
                h.u32(t);
                h.bytes(&[g.dirty as u8]);
                h.u32s(&g.entries);
                for (&lpn, &v) in g.cdps.iter() {
                    h.u32(lpn);
                    h.u32(v);
                }
            }
            for (k, _) in self.pages.iter() {
                match *k {
                    NodeKey::Ctp(t) => h.u32(t),
                    NodeKey::Cdp(lpn) => h.u32(lpn | 1 << 31),
                }
            }
            h.u64(self.used);
        });
    }

    fn clone_box(&self) -> Box<dyn Ftl> {
        Box::new(self.clone())
    }
}
