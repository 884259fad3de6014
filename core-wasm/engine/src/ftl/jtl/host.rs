//! JTL's [`Ftl`] implementation: the request hooks (sequential bypass and the pending
//! entries written at the end of a request), reads, writes, trims, flush, the RAM split,
//! checks and hashing. The structure's operations are in `scheme.rs`.

use super::scheme::{entry_access, Jtl};
use crate::device::Device;
use crate::error::{EngineError, Result};
use crate::events::{CacheLevel, HostOp, Purpose};
use crate::flash::PageTag;
use crate::ftl::demand::{self, DemandScheme, UNMAPPED};
use crate::ftl::{Ftl, RamSplit};
use crate::hash::StateHasher;
use crate::inspect::{InspectQuery, Inspection};

impl Ftl for Jtl {
    fn begin_request(&mut self, op: HostOp, lpns: &[u32], _dev: &mut Device) -> Result<()> {
        self.bypass.begin(op, lpns.len());
        Ok(())
    }

    fn end_request(&mut self, dev: &mut Device) -> Result<()> {
        self.bypass.end();
        self.write_pending(dev)
    }

    /// The far pages' index entries (with the caller's table), the near pages' slots and
    /// their entries in their translation pages (most random requests miss the structure
    /// and read that entry).
    fn prefetch(&self, ahead: &crate::prefetch::Lookahead, dev: &Device) {
        for &lpn in ahead.far {
            crate::prefetch::element(ahead.also, lpn as usize);
            self.levels.prefetch_index(lpn);
        }
        for &lpn in ahead.near {
            self.levels.prefetch_slot(lpn);
            self.core.prefetch_load(lpn, dev);
        }
    }

    fn read(&mut self, lpn: u32, dev: &mut Device) -> Result<Option<PageTag>> {
        if !self.bypass.on() {
            return self.buffer_read(lpn, dev);
        }
        // Sequential: no recency change, nothing cached.
        entry_access(lpn, false, dev);
        let ppn = match self.levels.get(lpn).copied() {
            Some(s) => {
                dev.mapping_lookup(true);
                dev.cache_hit(CacheLevel::Entry, lpn);
                if let Some(d) = s.data() {
                    dev.cache_hit(CacheLevel::DataPage, lpn);
                    dev.ram(1);
                    return Ok(Some(PageTag::data(lpn, d.version)));
                }
                s.ppn
            }
            None => {
                self.count_outside(lpn, dev);
                let ppn = self.flash_entry(lpn, dev)?;
                // Entering may write an evicted entry back, and GC may move this page.
                if self.enter_group1(lpn, ppn, dev)? {
                    self.cached(lpn).unwrap_or(ppn)
                } else {
                    ppn
                }
            }
        };
        if ppn == UNMAPPED {
            return Ok(None);
        }
        dev.read(ppn, Purpose::Data).map(Some)
    }

    fn write(&mut self, lpn: u32, version: u32, dev: &mut Device) -> Result<()> {
        if self.bypass.on() {
            self.write_through(lpn, version, dev)
        } else {
            self.buffer_write(lpn, version, dev)
        }
    }

    /// No recency change: the entry is unmapped where it is (or pending), a cached page
    /// dropped.
    fn trim(&mut self, lpn: u32, dev: &mut Device) -> Result<()> {
        self.entry_in_place(lpn, false, dev)?;
        let old = self.cached(lpn).unwrap_or(UNMAPPED);
        if old != UNMAPPED {
            dev.invalidate(old)?;
        }
        self.set_entry(lpn, UNMAPPED);
        Ok(())
    }

    fn ram_bytes(&self) -> u64 {
        let (map, buf) = self.used();
        self.core.gtd_bytes() + map + buf
    }

    /// The GTD and the entries are mapping, group 0's pages buffered data (the halves are
    /// fixed: this shows how much of each is in use).
    fn ram_split(&self) -> Option<RamSplit> {
        let (map, buf) = self.used();
        Some(RamSplit { mapping_bytes: self.core.gtd_bytes() + map, buffer_bytes: buf })
    }

    fn holds_in_ram(&self, lpn: u32) -> bool {
        self.levels.get(lpn).is_some_and(|s| s.data().is_some())
    }

    // `read`, `write`, `trim` and `flush` are JTL's own (above, below).
    demand::forward!(place_prefill, map_view, block_role, ram_budget);

    fn inspect(&self, q: &InspectQuery) -> Inspection {
        self.inspection(q)
    }

    fn check(&self, dev: &Device) -> Result<()> {
        demand::check(self, dev, "jtl")?;
        let bad = |m: String| Err(EngineError::Invariant(format!("jtl: {m}")));
        if let Err(m) = self.levels.check() {
            return bad(m);
        }
        let (map, buf) = self.used();
        if self.cached_pages != self.levels.data_pages() || map > self.halves.0 || buf > self.halves.1 {
            return bad(format!(
                "{} data pages counted, {} held; {map} + {buf} bytes in halves of {} + {}",
                self.cached_pages,
                self.levels.data_pages(),
                self.halves.0,
                self.halves.1
            ));
        }
        for s in self.levels.iter() {
            match s.data() {
                Some(d) if d.dirty && (s.ppn != UNMAPPED || !s.dirty) => {
                    return bad(format!("LPN {} is written in RAM but its entry names PPN {}", s.lpn, s.ppn))
                }
                Some(d) if !d.dirty && s.ppn == UNMAPPED => {
                    return bad(format!("LPN {} is cached clean but has no flash copy", s.lpn))
                }
                _ => {}
            }
        }
        if !self.pending.is_empty() {
            return bad(format!("{} pending entries between requests", self.pending.len()));
        }
        Ok(())
    }

    fn flush(&mut self, dev: &mut Device) -> Result<()> {
        self.flush_all(dev)
    }

    fn hash_into(&self, h: &mut StateHasher) {
        self.core.hash_into(h, |h| {
            self.levels.hash_into(h);
            for (&lpn, &ppn) in &self.pending {
                h.u32(lpn);
                h.u32(ppn);
            }
        });
    }

    fn clone_box(&self) -> Box<dyn Ftl> {
        Box::new(self.clone())
    }
}
