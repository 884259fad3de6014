//! A logical block's page map kept in the spare areas of its own data pages (thesis, seed
//! 002, §3.3.1 MNFTL and §4.3.3 RFTL; notes §2.6.2, §2.7.2): the `P` offsets of a logical
//! block are split by offset into `N` sub-tables of `Q` slots (as many as fit in one spare
//! area); a page written for offset `o` carries the newest copy of sub-table `o / Q` in its
//! spare area, programmed together with the data (one program: MLC-safe, one partial program
//! per page). RAM holds only `N` pointers per logical block: where the newest copy of each
//! sub-table is.
//!
//! A trim has no page to carry the updated sub-table, so that sub-table is kept in RAM until
//! the next page of it is written (the sources have no trim; this keeps the pointer from
//! naming a page whose data is gone, which a GC would erase with the sub-table in it).

use crate::device::Device;
use crate::error::{EngineError, Result};
use crate::events::Purpose;
use crate::flash::{PageContent, PageKind, PageState, PageTag, Ppn, TAG_OOB_BYTES};
use crate::hash::StateHasher;

/// An empty slot.
pub const NONE: Ppn = u32::MAX;

/// Bytes of one sub-table pointer in RAM (a page number).
pub const POINTER_BYTES: u64 = 4;

/// Where the newest copy of one sub-table is.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Home {
    /// Never written: every slot empty.
    Nowhere,
    /// In the spare area of this page.
    Page(Ppn),
    /// Held in RAM after a trim, until a page of the sub-table is written.
    Ram(Vec<Ppn>),
}

/// The sub-table pointers of every logical block.
#[derive(Debug, Clone)]
pub struct OobMap {
    ppb: u32,
    slots: u32,
    per_lbn: u32,
    homes: Vec<Home>,
}

/// Slots one spare area holds besides the tag (4-byte page numbers).
pub fn slots_that_fit(oob_bytes: u32) -> u32 {
    oob_bytes.saturating_sub(TAG_OOB_BYTES) / 4
}

impl OobMap {
    /// Pointers for `lbns` logical blocks of `ppb` pages, `slots` slots per sub-table (`0`:
    /// as many as fit in `oob_bytes`). Refuses a spare area too small for the asked slots,
    /// naming `scheme`.
    pub fn new(scheme: &str, lbns: u32, ppb: u32, slots: u32, oob_bytes: u32) -> Result<Self> {
        let fit = slots_that_fit(oob_bytes);
        let slots = if slots == 0 { fit.min(ppb) } else { slots.min(ppb) };
        if slots == 0 || slots > fit {
            return Err(EngineError::Config(format!(
                "scheme '{scheme}' stores {slots} mapping slots (4 bytes each) in a page's spare area, but device.oob_bytes = {oob_bytes} holds {fit} besides the {TAG_OOB_BYTES}-byte tag; raise device.oob_bytes or lower options.slots_per_oob"
            )));
        }
        let per_lbn = ppb.div_ceil(slots);
        Ok(OobMap { ppb, slots, per_lbn, homes: vec![Home::Nowhere; (lbns * per_lbn) as usize] })
    }

    /// Slots per sub-table (Q, α).
    pub fn slots(&self) -> u32 {
        self.slots
    }

    /// Sub-tables per logical block (N = ⌈P / Q⌉).
    pub fn per_lbn(&self) -> u32 {
        self.per_lbn
    }

    /// Logical block, offset and sub-table of `lpn`.
    pub fn split(&self, lpn: u32) -> (u32, u32, u32) {
        let (lbn, bo) = (lpn / self.ppb, lpn % self.ppb);
        (lbn, bo, bo / self.slots)
    }

    fn index(&self, lbn: u32, s: u32) -> usize {
        (lbn * self.per_lbn + s) as usize
    }

    fn len_of(&self, s: u32) -> usize {
        self.slots.min(self.ppb - s * self.slots) as usize
    }

    /// The page holding the newest copy of sub-table `s` of `lbn`, if one does.
    pub fn pointer(&self, lbn: u32, s: u32) -> Option<Ppn> {
        match self.homes[self.index(lbn, s)] {
            Home::Page(p) => Some(p),
            _ => None,
        }
    }

    /// Sub-table `s` of `lbn` as it is now, without charging (the simulator's view).
    fn peek_table(&self, dev: &Device, lbn: u32, s: u32) -> Vec<Ppn> {
        match &self.homes[self.index(lbn, s)] {
            Home::Nowhere => vec![NONE; self.len_of(s)],
            Home::Ram(t) => t.clone(),
            Home::Page(p) => {
                dev.flash().content(*p).map_or_else(|| vec![NONE; self.len_of(s)], |c| c.oob.clone())
            }
        }
    }

    /// Where `lpn`'s data is, without charging (bookkeeping for GC and checks).
    pub fn peek(&self, dev: &Device, lpn: u32) -> Option<Ppn> {
        let (lbn, bo, s) = self.split(lpn);
        let slot = match &self.homes[self.index(lbn, s)] {
            Home::Nowhere => NONE,
            Home::Ram(t) => t[(bo % self.slots) as usize],
            Home::Page(p) => dev.flash().content(*p).map_or(NONE, |c| c.oob[(bo % self.slots) as usize]),
        };
        (slot != NONE).then_some(slot)
    }

    /// Reads sub-table `s` of `lbn` (one spare-area read when it is on flash; nothing when it
    /// was never written or is held in RAM).
    fn read_table(&self, dev: &mut Device, lbn: u32, s: u32, purpose: Purpose) -> Result<()> {
        if let Home::Page(p) = self.homes[self.index(lbn, s)] {
            dev.read_oob(p, purpose)?;
        }
        Ok(())
    }

    /// Reads sub-table `s` of `lbn` (`read_table`) and returns it.
    pub fn load(&self, dev: &mut Device, lbn: u32, s: u32, purpose: Purpose) -> Result<Vec<Ppn>> {
        self.read_table(dev, lbn, s, purpose)?;
        Ok(self.peek_table(dev, lbn, s))
    }

    /// Looks `lpn` up as a host read does: its sub-table's spare area, then the slot.
    pub fn look_up(&self, dev: &mut Device, lpn: u32) -> Result<Option<Ppn>> {
        let (lbn, _, s) = self.split(lpn);
        self.read_table(dev, lbn, s, Purpose::Data)?;
        Ok(self.peek(dev, lpn))
    }

    /// Programs `tag` (data of `lpn`) at `ppn` with its sub-table (read by the caller)
    /// updated to point there, in one program; the pointer follows. Returns the old copy.
    fn program(
        &mut self,
        dev: &mut Device,
        lpn: u32,
        ppn: Ppn,
        tag: PageTag,
        purpose: Purpose,
    ) -> Result<Option<Ppn>> {
        let (lbn, bo, s) = self.split(lpn);
        let k = (bo % self.slots) as usize;
        let i = self.index(lbn, s);
        let old = match &self.homes[i] {
            // The previous copy of this sub-table is never read again (reads and GC go
            // through the pointer), so it moves into the new page's spare area, edited on
            // the way, rather than being copied and then forgotten: host memory keeps one
            // copy per sub-table, and no buffer is allocated per program. Its page keeps
            // its data and tag.
            &Home::Page(prev) if dev.flash().content(prev).is_some() => {
                let mut old = NONE;
                dev.program_moved_with(ppn, tag, prev, purpose, |c| {
                    old = std::mem::replace(&mut c.oob[k], ppn)
                })?;
                old
            }
            home => {
                let mut table = match home {
                    Home::Ram(t) => t.clone(),
                    _ => vec![NONE; self.len_of(s)],
                };
                let old = std::mem::replace(&mut table[k], ppn);
                dev.program_with(ppn, tag, PageContent { data: Vec::new(), oob: table }, purpose)?;
                old
            }
        };
        self.homes[i] = Home::Page(ppn);
        Ok((old != NONE).then_some(old))
    }

    /// Writes `lpn` at `ppn` as a host write does: reads its sub-table, programs data and
    /// the updated sub-table, invalidates the old copy. Returns the old copy.
    pub fn write(
        &mut self,
        dev: &mut Device,
        lpn: u32,
        version: u32,
        ppn: Ppn,
        purpose: Purpose,
    ) -> Result<Option<Ppn>> {
        let (lbn, _, s) = self.split(lpn);
        self.read_table(dev, lbn, s, Purpose::Data)?;
        let old = self.program(dev, lpn, ppn, PageTag::data(lpn, version), purpose)?;
        if let Some(o) = old {
            if dev.flash().state(o) == PageState::Valid {
                dev.invalidate(o)?;
            }
        }
        Ok(old)
    }

    /// Copies valid page `from` (holding `lpn`) to `to` for GC, data and its updated
    /// sub-table in one program. With `read_spares` (RFTL's copy cost c), the page's spare
    /// area and its sub-table's newest copy are read first (whether it is still valid, and
    /// the table to update); without (MNFTL), the GC has read the logical block's sub-tables
    /// once already, so only the page is read.
    pub fn copy(&mut self, dev: &mut Device, lpn: u32, from: Ppn, to: Ppn, read_spares: bool) -> Result<()> {
        let (lbn, _, s) = self.split(lpn);
        if read_spares {
            dev.read_oob(from, Purpose::Gc)?;
            self.read_table(dev, lbn, s, Purpose::Gc)?;
        }
        let tag = dev.read(from, Purpose::Gc)?;
        self.program(dev, lpn, to, tag, Purpose::Gc)?;
        dev.invalidate(from)?;
        dev.gc_copied();
        Ok(())
    }

    /// Discards `lpn`: its sub-table is read, the slot emptied and the table kept in RAM
    /// until a page of it is written. Returns the discarded copy.
    pub fn trim(&mut self, dev: &mut Device, lpn: u32) -> Result<Option<Ppn>> {
        let (lbn, bo, s) = self.split(lpn);
        let mut table = self.load(dev, lbn, s, Purpose::Data)?;
        let slot = &mut table[(bo % self.slots) as usize];
        let old = (*slot != NONE).then_some(*slot);
        if old.is_none() {
            return Ok(None);
        }
        *slot = NONE;
        let i = self.index(lbn, s);
        self.homes[i] = Home::Ram(table);
        if let Some(o) = old {
            dev.invalidate(o)?;
        }
        Ok(old)
    }

    /// Sub-tables held in RAM (after trims).
    pub fn tables_in_ram(&self) -> usize {
        self.homes.iter().filter(|h| matches!(h, Home::Ram(_))).count()
    }

    /// RAM: the pointers, plus sub-tables held in RAM.
    pub fn ram_bytes(&self) -> u64 {
        self.homes.len() as u64 * POINTER_BYTES + self.tables_in_ram() as u64 * u64::from(self.slots) * 4
    }

    /// The pointers name programmed data pages of their own logical block and sub-table,
    /// still valid (a pointer page whose data was superseded would have moved the pointer
    /// with the newer write, and a trim moves the table to RAM).
    pub fn check(&self, dev: &Device, scheme: &str) -> Result<()> {
        for (i, h) in self.homes.iter().enumerate() {
            let (lbn, s) = (i as u32 / self.per_lbn, i as u32 % self.per_lbn);
            if let Home::Page(p) = *h {
                let tag = dev.flash().tag(p);
                let ok = dev.flash().state(p) == PageState::Valid
                    && tag.kind == PageKind::Data
                    && tag.key / self.ppb == lbn
                    && (tag.key % self.ppb) / self.slots == s
                    && dev.flash().content(p).is_some_and(|c| c.oob.len() == self.len_of(s));
                if !ok {
                    return Err(EngineError::Invariant(format!(
                        "{scheme}: sub-table {s} of LBN {lbn} points to PPN {p}, which holds {tag:?} ({:?})",
                        dev.flash().state(p)
                    )));
                }
            }
        }
        Ok(())
    }

    /// The sub-tables agree with the pages: every slot names a valid page holding its
    /// logical page, and every valid data page in `blocks` is the one its slot names (the
    /// mapping rebuilt from the spare areas is the map the reads use).
    pub fn check_pages(
        &self,
        dev: &Device,
        blocks: impl Iterator<Item = crate::flash::BlockId>,
        scheme: &str,
    ) -> Result<()> {
        let f = dev.flash();
        for lbn in 0..self.homes.len() as u32 / self.per_lbn {
            for s in 0..self.per_lbn {
                for (k, &p) in self.peek_table(dev, lbn, s).iter().enumerate() {
                    let lpn = lbn * self.ppb + s * self.slots + k as u32;
                    if p != NONE
                        && (p >= f.blocks() * f.pages_per_block()
                            || f.state(p) != PageState::Valid
                            || f.tag(p).key != lpn)
                    {
                        return Err(EngineError::Invariant(format!(
                            "{scheme}: the sub-table slot of LPN {lpn} names PPN {p}, which holds {:?}",
                            f.tag(p.min(f.blocks() * f.pages_per_block() - 1))
                        )));
                    }
                }
            }
        }
        for b in blocks {
            let first = f.first_ppn(b);
            for p in first..first + f.programmed_count(b) {
                let tag = f.tag(p);
                if f.state(p) == PageState::Valid
                    && tag.kind == PageKind::Data
                    && self.peek(dev, tag.key) != Some(p)
                {
                    return Err(EngineError::Invariant(format!(
                        "{scheme}: PPN {p} holds LPN {} but its sub-table slot says {:?}",
                        tag.key,
                        self.peek(dev, tag.key)
                    )));
                }
            }
        }
        Ok(())
    }

    /// Feeds the pointers into a hash.
    pub fn hash_into(&self, h: &mut StateHasher) {
        for home in &self.homes {
            match home {
                Home::Nowhere => h.u32(NONE),
                Home::Page(p) => h.u32(*p),
                Home::Ram(t) => {
                    h.u32(NONE - 1);
                    h.u32s(t);
                }
            }
        }
    }
}
