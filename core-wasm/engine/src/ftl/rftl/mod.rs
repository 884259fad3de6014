//! `rftl`: RFTL, a real-time FTL with distributed partial GC (thesis, seed 002, Ch.4; notes
//! §2.7). Each logical block has a primary block (writes, in order from page 0), a buffer
//! block (writes while the primary is full or being collected) and a replacement block (the
//! destination of a collection). Its page map lives in sub-tables in the spare areas of its
//! own pages ([`super::oobmap`]). A collection is cut into steps of at most one erase time,
//! one after each write to *that* logical block (Fig 4.5): collect the full primary into the
//! replacement and exchange the two; later, when the buffer has only k free pages, collect
//! primary and buffer into the replacement, then shift the three roles and collect the old
//! buffer into the new one. Every request then finishes within L(p) (Table 4.2).
//!
#![doc = include_str!("notes.md")]

mod bounds;

use serde::{Deserialize, Serialize};
use serde_json::json;

use super::oobmap::OobMap;
use super::{BlockPool, BlockRole, BuildCtx, Ftl, OpenBlocks, OptionsSpec, SchemeInfo, SchemeSpec};
use crate::device::Device;
use crate::error::{EngineError, Result};
use crate::events::Purpose;
use crate::flash::{BlockId, PageKind, PageState, PageTag, Ppn};
use crate::hash::StateHasher;
use crate::inspect::{indexed_keys, BlockDuty, Budget, InspectQuery, Inspection, Row, Structure};
use crate::meta::MetaKind;
use crate::vocab::StopAt;

pub use bounds::{Bounds, StepCount};

/// The scheme's registry entry.
pub static SPEC: SchemeSpec = SchemeSpec {
    info: SchemeInfo {
        id: "rftl",
        name: "RFTL (distributed partial GC)",
        family: "realtime",
        source: "thesis (seed 002) Ch.4 §4.3, Fig 4.5, Eqs 4.1-4.3, Table 4.2; notes §2.7",
    },
    notes: include_str!("notes.md"),
    stops: &[StopAt::Gc, StopAt::GcStep],
    caches: &[],
    options: OptionsSpec::of::<RftlOptions>(),
    open_blocks: OpenBlocks::ONE_PER_UNIT,
    variants: || {
        vec![
            // `reserve: "checked"` is no variant: it refuses the default device by design.
            ("RFTL", json!({})),
            ("RFTL, literal Eqs 4.1/4.3", json!({"steps": "literal"})),
        ]
    },
    build: |ctx, options| {
        let o: RftlOptions = super::parse_options("rftl", options)?;
        Ok(Box::new(Rftl::new(ctx, &o)?))
    },
};

/// Whether the device must keep Theorem 4.3.1's reserve for every logical block.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Reserve {
    /// Run on any device: replacement and buffer blocks come from a shared pool when
    /// needed. When the pool runs dry, another logical block is collected whole at once
    /// (counted as a bound overrun), so the L(p) bound holds only while blocks last.
    #[default]
    BestEffort,
    /// Refuse a device that cannot keep the reserve of Theorem 4.3.1 for every logical
    /// block: three blocks each (Lemma 4.3.2) and π ≥ 2k + j buffer pages (Lemma 4.3.1).
    Checked,
}

/// RFTL's options.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct RftlOptions {
    /// Mapping slots per spare area (α); 0 = as many 4-byte slots as fit besides the tag.
    #[schemars(extend("x-units" = "slots"))]
    pub slots_per_oob: u32,
    /// How Eqs. 4.1 and 4.3 become whole steps: `packed` (⌈π/β⌉ + 1, what the scheduler
    /// needs) or `literal` (the equations as printed).
    pub steps: StepCount,
    /// `best-effort` (any device) or `checked` (refuse one without Theorem 4.3.1's reserve).
    pub reserve: Reserve,
}

const NO_BLOCK: BlockId = u32::MAX;

/// Bytes of a logical block's entry besides its sub-table pointers: three block numbers and
/// three next-free-page indices (§4.3.3).
const LBN_ENTRY_BYTES: u64 = 3 * 4 + 3 * 2;

/// Which collection a logical block is running.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Fig 4.5 (a)–(b): the full primary into the replacement, then exchange them.
    Primary,
    /// Fig 4.5 (d)–(e): primary and the buffer's first `limit` pages into the replacement,
    /// then the circular shift.
    Merge,
    /// Fig 4.5 (f)–(g): the replacement (the old buffer) into the buffer.
    Replacement,
}

/// A collection in progress: its kind, where its copying has got to (source, page), and
/// whether its first step ran.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Collecting {
    /// The collection.
    pub kind: Kind,
    source: u8,
    page: u32,
    limit: u32,
    started: bool,
    /// Steps run so far (for the views; follows from the rest, so not hashed).
    steps: u32,
}

/// One logical block's three blocks and its collection.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Group {
    /// Primary block.
    pub p: BlockId,
    /// Replacement block.
    pub r: BlockId,
    /// Buffer block.
    pub b: BlockId,
    /// The collection running, if any.
    pub gc: Option<Collecting>,
}

impl Default for Group {
    fn default() -> Self {
        Group { p: NO_BLOCK, r: NO_BLOCK, b: NO_BLOCK, gc: None }
    }
}

/// RFTL state.
#[derive(Debug, Clone)]
pub struct Rftl {
    pub(crate) bounds: Bounds,
    reserve: Reserve,
    ppb: u32,
    pub(crate) map: OobMap,
    pub(crate) groups: Vec<Group>,
    pool: BlockPool,
    /// Block → logical block holding it (`u32::MAX`: free).
    owner: Vec<u32>,
    /// Collections finished at once rather than in steps (a buffer full before its GC ended,
    /// or blocks taken back from another logical block): each broke the L(p) bound.
    pub(crate) overruns: u64,
}

impl Rftl {
    /// An RFTL over an erased device.
    pub fn new(ctx: &BuildCtx, o: &RftlOptions) -> Result<Self> {
        let d = ctx.device;
        let ppb = d.pages_per_block;
        let lbns = (d.logical_pages() as u32).div_ceil(ppb);
        let bounds = Bounds::of(&d.latency, ppb, o.steps);
        let map = OobMap::new("rftl", lbns, ppb, o.slots_per_oob, d.oob_bytes)?;
        if d.blocks < lbns + 3 {
            return Err(EngineError::Config(format!(
                "scheme 'rftl' needs a primary block for each of the {lbns} logical blocks and three more (a buffer, a replacement and one to collect into), but the device has {} blocks; raise device.over_provisioning or device.blocks",
                d.blocks
            )));
        }
        if o.reserve == Reserve::Checked {
            if o.steps == StepCount::Literal {
                return Err(EngineError::Config(
                    "scheme 'rftl': options.steps = \"literal\" cannot keep Theorem 4.3.1's reserve with options.reserve = \"checked\" (Eq. 4.1 as printed can be one step short of what the scheduler needs); use options.steps = \"packed\"".into(),
                ));
            }
            check_reserve(&bounds, lbns, d.blocks)?;
        }
        let units = d.units() as usize;
        Ok(Rftl {
            bounds,
            reserve: o.reserve,
            ppb,
            map,
            groups: vec![Group::default(); lbns as usize],
            pool: BlockPool::new(d.blocks, 0, 0, units).with_gc(ctx.gc),
            owner: vec![u32::MAX; d.blocks as usize],
            overruns: 0,
        })
    }

    fn used(&self, dev: &Device, b: BlockId) -> u32 {
        if b == NO_BLOCK {
            0
        } else {
            dev.flash().programmed_count(b)
        }
    }

    fn has_room(&self, dev: &Device, b: BlockId) -> bool {
        b != NO_BLOCK && self.used(dev, b) < self.ppb
    }

    fn take(&mut self, lbn: u32, dev: &mut Device) -> Result<BlockId> {
        let unit = (0..self.pool.units()).find(|&u| self.pool.free_on(u) > 0).unwrap_or(0);
        let b = self.pool.take(unit, dev)?;
        self.owner[b as usize] = lbn;
        Ok(b)
    }

    fn release(&mut self, b: BlockId) {
        self.owner[b as usize] = u32::MAX;
        self.pool.release(b);
    }

    /// Makes sure `need` blocks can be taken for `lbn`, collecting other logical blocks
    /// whole when the shared pool is short. `false`: `lbn` itself was collected, so its
    /// write must look at its blocks again.
    fn ensure_pool(&mut self, lbn: u32, need: usize, dev: &mut Device) -> Result<bool> {
        let keep = match self.reserve {
            Reserve::Checked => 0,
            // One block stays free for the whole-block collection that refills the pool.
            Reserve::BestEffort => 1,
        };
        while self.pool.free_len() < need + keep {
            if self.reserve == Reserve::Checked {
                return Err(EngineError::Invariant(format!(
                    "rftl: logical block {lbn} needs {need} blocks with the reserve checked, but only {} are free",
                    self.pool.free_len()
                )));
            }
            let held = |g: &Group| [g.p, g.r, g.b].iter().filter(|&&b| b != NO_BLOCK).count();
            let victim = (0..self.groups.len() as u32)
                .filter(|&l| l != lbn && held(&self.groups[l as usize]) >= 2)
                .max_by_key(|&l| (held(&self.groups[l as usize]), std::cmp::Reverse(l)))
                .or_else(|| (held(&self.groups[lbn as usize]) >= 2).then_some(lbn))
                .ok_or_else(|| {
                    EngineError::DeviceFull("rftl: no free block and no logical block holding two".into())
                })?;
            self.collect_whole(victim, dev)?;
            if victim == lbn {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Collects `lbn` at once (a bound overrun): finishes its collection, then folds primary
    /// and buffer into a fresh primary and frees both.
    fn collect_whole(&mut self, lbn: u32, dev: &mut Device) -> Result<()> {
        self.overruns += 1;
        self.finish(lbn, dev)?;
        let g = self.groups[lbn as usize].clone();
        if g.b == NO_BLOCK {
            return Ok(());
        }
        let r = self.take(lbn, dev)?;
        dev.gc_start(g.p);
        for src in [g.p, g.b] {
            self.copy_valid(src, 0, self.ppb, r, u32::MAX, dev)?;
        }
        for old in [g.p, g.b] {
            dev.erase(old, Purpose::Gc)?;
            self.release(old);
        }
        dev.gc_end(g.p);
        let g = &mut self.groups[lbn as usize];
        (g.p, g.b) = (r, NO_BLOCK);
        Ok(())
    }

    /// Folds every valid page of `lbn` into a fresh primary at once and frees its other
    /// blocks (a bound overrun): the way out when a collection's destination is full.
    fn fold(&mut self, lbn: u32, dev: &mut Device) -> Result<()> {
        self.overruns += 1;
        let g = self.groups[lbn as usize].clone();
        if self.pool.free_len() == 0 {
            return Err(EngineError::DeviceFull(format!(
                "rftl: logical block {lbn} must be folded, but no block is free"
            )));
        }
        let fresh = self.take(lbn, dev)?;
        if g.gc.is_some_and(|c| c.started) {
            let victim = if g.gc.is_some_and(|c| c.kind == Kind::Replacement) { g.r } else { g.p };
            dev.gc_end(victim);
        }
        dev.gc_start(g.p);
        let held: Vec<BlockId> = [g.p, g.r, g.b].into_iter().filter(|&b| b != NO_BLOCK).collect();
        for &src in &held {
            self.copy_valid(src, 0, self.ppb, fresh, u32::MAX, dev)?;
        }
        for &old in &held {
            if dev.flash().programmed_count(old) > 0 {
                dev.erase(old, Purpose::Gc)?;
            }
            self.release(old);
        }
        dev.gc_end(g.p);
        self.groups[lbn as usize] = Group { p: fresh, ..Group::default() };
        Ok(())
    }

    /// Runs `lbn`'s collection to its end at once (a bound overrun when it had steps left).
    fn finish(&mut self, lbn: u32, dev: &mut Device) -> Result<()> {
        while self.groups[lbn as usize].gc.is_some() {
            self.step(lbn, dev)?;
        }
        Ok(())
    }

    /// Copies the valid pages of `src` from page `from` (below `to`) into `dest`, at most
    /// `max` of them and while `dest` has room; returns how many it copied and where it
    /// stopped.
    fn copy_valid(
        &mut self,
        src: BlockId,
        from: u32,
        to: u32,
        dest: BlockId,
        max: u32,
        dev: &mut Device,
    ) -> Result<(u32, u32)> {
        let first = dev.flash().first_ppn(src);
        let mut copied = 0;
        for page in from..to.min(self.ppb) {
            let p = first + page;
            if dev.flash().state(p) != PageState::Valid || dev.flash().tag(p).kind != PageKind::Data {
                continue;
            }
            if copied == max || !self.has_room(dev, dest) {
                return Ok((copied, page));
            }
            let lpn = dev.flash().tag(p).key;
            let to_ppn = dev.flash().first_ppn(dest) + self.used(dev, dest);
            self.map.copy(dev, lpn, p, to_ppn, true)?;
            copied += 1;
        }
        Ok((copied, to.min(self.ppb)))
    }

    /// Sources of a collection, with how many pages of each it covers.
    fn sources(g: &Group, c: &Collecting, ppb: u32) -> Vec<(BlockId, u32)> {
        match c.kind {
            Kind::Primary => vec![(g.p, ppb)],
            Kind::Merge => vec![(g.p, ppb), (g.b, c.limit)],
            Kind::Replacement => vec![(g.r, ppb)],
        }
    }

    /// One partial step of `lbn`'s collection: up to β valid-page copies, or, when nothing
    /// is left to copy, the erase that ends it (never both: the erase alone takes T_er).
    fn step(&mut self, lbn: u32, dev: &mut Device) -> Result<()> {
        let g = self.groups[lbn as usize].clone();
        let Some(mut c) = g.gc else { return Ok(()) };
        let victim = if c.kind == Kind::Replacement { g.r } else { g.p };
        if !c.started {
            dev.gc_start(victim);
            c.started = true;
        }
        c.steps += 1;
        dev.gc_step();
        let dest = if c.kind == Kind::Replacement { g.b } else { g.r };
        let sources = Self::sources(&g, &c, self.ppb);
        let mut copied = 0;
        while (c.source as usize) < sources.len() {
            let (src, to) = sources[c.source as usize];
            // At least one copy per step, even where the timings fit none in t (best effort).
            let (n, stop) = self.copy_valid(src, c.page, to, dest, self.bounds.beta.max(1) - copied, dev)?;
            copied += n;
            c.page = stop;
            if stop < to.min(self.ppb) && !self.has_room(dev, dest) {
                // The buffer filled with writes before the collection ended (best effort on
                // a device without the reserve): fold the logical block at once.
                return self.fold(lbn, dev);
            }
            if stop < to.min(self.ppb) {
                break; // β copies made
            }
            (c.source, c.page) = (c.source + 1, 0);
        }
        if copied > 0 {
            self.groups[lbn as usize].gc = Some(c);
            return Ok(());
        }
        dev.erase(victim, Purpose::Gc)?;
        dev.gc_end(victim);
        let g = &mut self.groups[lbn as usize];
        match c.kind {
            Kind::Primary => {
                // Exchange: the replacement, holding the copies, becomes the primary; the
                // erased primary goes back to the pool until the next collection.
                (g.p, g.r, g.gc) = (g.r, NO_BLOCK, None);
                self.release(victim);
            }
            Kind::Merge => {
                // Circular shift: erased primary → buffer, buffer → replacement (its pages
                // written during the collection are still valid), replacement → primary;
                // then the new replacement is collected into the new buffer.
                (g.p, g.r, g.b) = (g.r, g.b, g.p);
                g.gc = Some(Collecting {
                    kind: Kind::Replacement,
                    source: 0,
                    page: 0,
                    limit: 0,
                    started: false,
                    steps: 0,
                });
            }
            Kind::Replacement => {
                g.r = NO_BLOCK;
                g.gc = None;
                self.release(victim);
            }
        }
        Ok(())
    }

    /// Where `lbn`'s next write goes, starting a collection when one is due; `None` after
    /// changing something that needs another look.
    fn place(&mut self, lbn: u32, dev: &mut Device) -> Result<Option<(Ppn, Purpose)>> {
        let g = self.groups[lbn as usize].clone();
        let at = |dev: &Device, b: BlockId| dev.flash().first_ppn(b) + dev.flash().programmed_count(b);
        if g.gc.is_some() {
            if self.has_room(dev, g.b) {
                return Ok(Some((at(dev, g.b), Purpose::Buffer)));
            }
            // The buffer filled before the collection ended (k too small for this device).
            self.overruns += 1;
            self.finish(lbn, dev)?;
            return Ok(None);
        }
        if g.p == NO_BLOCK {
            if self.ensure_pool(lbn, 1, dev)? {
                self.groups[lbn as usize].p = self.take(lbn, dev)?;
            }
            return Ok(None);
        }
        if self.has_room(dev, g.p) {
            return Ok(Some((at(dev, g.p), Purpose::Data)));
        }
        let buffered = self.used(dev, g.b);
        let start = if buffered == 0 {
            Some(Kind::Primary)
        } else {
            (self.ppb - buffered <= self.bounds.k).then_some(Kind::Merge)
        };
        let Some(kind) = start else {
            return Ok(Some((at(dev, g.b), Purpose::Buffer)));
        };
        let need = 1 + usize::from(g.b == NO_BLOCK);
        if !self.ensure_pool(lbn, need, dev)? {
            return Ok(None);
        }
        if g.b == NO_BLOCK {
            self.groups[lbn as usize].b = self.take(lbn, dev)?;
        }
        self.groups[lbn as usize].r = self.take(lbn, dev)?;
        self.groups[lbn as usize].gc =
            Some(Collecting { kind, source: 0, page: 0, limit: buffered, started: false, steps: 0 });
        Ok(None)
    }

    /// Valid pages `c` still has to copy (from where its copying has got to).
    fn left_to_copy(&self, g: &Group, c: &Collecting, dev: &Device) -> u32 {
        let sources = Self::sources(g, c, self.ppb);
        let valid = |b: BlockId, from: u32, to: u32| {
            let first = dev.flash().first_ppn(b);
            (from..to.min(self.ppb))
                .filter(|&k| {
                    let p = first + k;
                    dev.flash().state(p) == PageState::Valid && dev.flash().tag(p).kind == PageKind::Data
                })
                .count() as u32
        };
        sources
            .iter()
            .enumerate()
            .skip(c.source as usize)
            .map(|(i, &(b, to))| valid(b, if i == c.source as usize { c.page } else { 0 }, to))
            .sum()
    }

    /// Fig 4.5's state of `lbn` in words: idle, buffering, or which collection and which
    /// of its steps (copies of at most β pages, then the erase that exchanges or shifts).
    pub fn gc_state(&self, lbn: u32, dev: &Device) -> String {
        let g = &self.groups[lbn as usize];
        let Some(c) = g.gc else {
            if g.p == NO_BLOCK {
                return "idle: no block yet".into();
            }
            if self.has_room(dev, g.p) {
                return "idle: writes go to the primary".into();
            }
            let free = self.ppb - self.used(dev, g.b);
            return format!(
                "idle, primary full: the next write starts a collection{}",
                if g.b == NO_BLOCK {
                    String::new()
                } else {
                    format!(" when the buffer has k = {} free pages left (it has {free})", self.bounds.k)
                }
            );
        };
        let left = self.left_to_copy(g, &c, dev);
        let beta = self.bounds.beta.max(1);
        let steps = c.steps + left.div_ceil(beta) + 1;
        let (what, end) = match c.kind {
            Kind::Primary => {
                ("collecting the primary into the replacement (Fig 4.5 a)", "erase, then exchange")
            }
            Kind::Merge => (
                "collecting the primary and the buffer into the replacement (Fig 4.5 d)",
                "erase, then circular shift",
            ),
            Kind::Replacement => ("collecting the replacement into the buffer (Fig 4.5 f)", "erase"),
        };
        let next = if left > 0 {
            format!("next: copy {} of {left} valid pages left", left.min(beta))
        } else {
            format!("next: {end}")
        };
        format!("{what}: {} of {steps} steps done, {next}", c.steps)
    }

    /// The bounds this device gives (Table 4.2, Eqs 4.1–4.3).
    pub fn bounds(&self) -> &Bounds {
        &self.bounds
    }
}

/// Theorem 4.3.1's reserve for `lbns` logical blocks on `blocks` blocks, or why not.
fn check_reserve(b: &Bounds, lbns: u32, blocks: u32) -> Result<()> {
    let us = |ns: u64| ns as f64 / 1000.0;
    if b.beta == 0 {
        return Err(EngineError::Config(format!(
            "scheme 'rftl' with options.reserve = \"checked\": a GC step has t = L(p) − U(e_w) = {} µs, less than one valid-page copy (c = {} µs), so no collection can progress within L(p)",
            us(b.step_ns),
            us(b.copy_ns)
        )));
    }
    if b.shift_reserve() > b.pages_per_block {
        return Err(EngineError::Config(format!(
            "scheme 'rftl' with options.reserve = \"checked\": Theorem 4.3.1 needs k = {} free buffer pages when a collection starts, and after a circular shift the buffer must provide 2k + j = {} pages (Lemma 4.3.1, β = {}, j = {}), but a block has {} pages; raise device.pages_per_block or use options.reserve = \"best-effort\"",
            b.k,
            b.shift_reserve(),
            b.beta,
            b.j,
            b.pages_per_block
        )));
    }
    if u64::from(blocks) < 3 * u64::from(lbns) {
        return Err(EngineError::Config(format!(
            "scheme 'rftl' with options.reserve = \"checked\": each of the {lbns} logical blocks needs three blocks (primary, replacement, buffer; Lemma 4.3.2), {} in all, but the device has {blocks}; raise device.over_provisioning to at least 0.67 or use options.reserve = \"best-effort\"",
            3 * u64::from(lbns)
        )));
    }
    Ok(())
}

impl Ftl for Rftl {
    fn read(&mut self, lpn: u32, dev: &mut Device) -> Result<Option<PageTag>> {
        let (lbn, _, _) = self.map.split(lpn);
        dev.meta_read(MetaKind::BlockMap, lbn, LBN_ENTRY_BYTES as u32);
        match self.map.look_up(dev, lpn)? {
            Some(p) => Ok(Some(dev.read(p, Purpose::Data)?)),
            None => Ok(None),
        }
    }

    fn write(&mut self, lpn: u32, version: u32, dev: &mut Device) -> Result<()> {
        let (lbn, _, _) = self.map.split(lpn);
        dev.meta_read(MetaKind::BlockMap, lbn, LBN_ENTRY_BYTES as u32);
        let (ppn, purpose) = loop {
            if let Some(at) = self.place(lbn, dev)? {
                break at;
            }
        };
        self.map.write(dev, lpn, version, ppn, purpose)?;
        dev.meta_write(MetaKind::BlockMap, lbn, LBN_ENTRY_BYTES as u32);
        // One partial step after the write, in the time left of its period.
        self.step(lbn, dev)
    }

    fn trim(&mut self, lpn: u32, dev: &mut Device) -> Result<()> {
        self.map.trim(dev, lpn).map(|_| ())
    }

    fn ram_bytes(&self) -> u64 {
        self.groups.len() as u64 * LBN_ENTRY_BYTES + self.map.ram_bytes()
    }

    fn response_bound_us(&self) -> Option<f64> {
        Some(self.bounds.period_ns as f64 / 1_000.0)
    }

    fn block_role(&self, block: BlockId, _dev: &Device) -> BlockRole {
        let lbn = self.owner[block as usize];
        let Some(g) = self.groups.get(lbn as usize) else { return BlockRole::Free };
        if block == g.p {
            BlockRole::Primary
        } else if block == g.b {
            BlockRole::Buffer
        } else {
            BlockRole::Replacement
        }
    }

    fn block_duty(&self, block: BlockId, dev: &Device) -> Option<BlockDuty> {
        let lbn = self.owner[block as usize];
        let g = self.groups.get(lbn as usize)?;
        let role = if block == g.p {
            "primary"
        } else if block == g.b {
            "buffer"
        } else {
            "replacement"
        };
        Some(BlockDuty { block, lbn: Some(lbn), role: role.into(), gc: Some(self.gc_state(lbn, dev)) })
    }

    fn map_view(&self) -> Option<crate::ftl::MapView<'_>> {
        // Valid pages name their logical pages in their tags; `check` verifies the
        // sub-tables against them.
        let blocks = self.groups.iter().flat_map(|g| [g.p, g.r, g.b]).filter(|&b| b != NO_BLOCK).collect();
        Some(crate::ftl::MapView::in_blocks(blocks, Vec::new()))
    }

    fn inspect(&self, query: &InspectQuery) -> Inspection {
        let touched = query.touched.iter().map(|&l| l / self.ppb);
        let (keys, truncated) = indexed_keys(self.groups.len(), query.limit, touched);
        let table = |id: &str, name: &str, pick: fn(&Group) -> BlockId| Structure::Table {
            id: id.into(),
            name: name.into(),
            len: self.groups.len() as u64,
            rows: keys
                .iter()
                .map(|&k| {
                    let b = pick(&self.groups[k as usize]);
                    Row { key: k, value: (b != NO_BLOCK).then_some(b), in_ram: true }
                })
                .collect(),
            truncated,
        };
        let lbn_bytes = self.groups.len() as u64 * LBN_ENTRY_BYTES;
        Inspection {
            ram_used: self.ram_bytes(),
            budgets: vec![
                Budget {
                    name: "Block map (primary, replacement, buffer, next free pages)".into(),
                    bytes: lbn_bytes,
                },
                Budget { name: "Sub-table pointers".into(), bytes: self.map.ram_bytes() },
            ],
            structures: vec![
                table("primary", "LBN → primary block", |g| g.p),
                table("replacement", "LBN → replacement block", |g| g.r),
                table("buffer", "LBN → buffer block", |g| g.b),
                super::gftl::overrun_table(self.overruns),
            ],
            ..Inspection::default()
        }
    }

    fn check(&self, dev: &Device) -> Result<()> {
        self.map.check(dev, "rftl")?;
        let blocks = self.groups.iter().flat_map(|g| [g.p, g.r, g.b]).filter(|&b| b != NO_BLOCK);
        self.map.check_pages(dev, blocks, "rftl")?;
        self.pool.check(dev).map_err(|e| EngineError::Invariant(format!("rftl: {e}")))?;
        let mut held = vec![false; self.owner.len()];
        for (lbn, g) in self.groups.iter().enumerate() {
            for b in [g.p, g.r, g.b] {
                if b == NO_BLOCK {
                    continue;
                }
                if held[b as usize] || self.owner[b as usize] != lbn as u32 {
                    return Err(EngineError::Invariant(format!(
                        "rftl: block {b} of LBN {lbn} is held twice"
                    )));
                }
                held[b as usize] = true;
                let first = dev.flash().first_ppn(b);
                for p in first..first + dev.flash().programmed_count(b) {
                    let tag = dev.flash().tag(p);
                    if dev.flash().state(p) == PageState::Valid && tag.key / self.ppb != lbn as u32 {
                        return Err(EngineError::Invariant(format!(
                            "rftl: block {b} of LBN {lbn} holds LPN {}",
                            tag.key
                        )));
                    }
                }
            }
            if g.gc.is_none() && g.r != NO_BLOCK {
                return Err(EngineError::Invariant(format!(
                    "rftl: LBN {lbn} keeps a replacement block with no collection"
                )));
            }
        }
        if self.reserve == Reserve::Checked && self.overruns > 0 {
            return Err(EngineError::Invariant(format!(
                "rftl: {} bound overruns with the reserve checked",
                self.overruns
            )));
        }
        Ok(())
    }

    fn hash_into(&self, h: &mut StateHasher) {
        self.map.hash_into(h);
        for g in &self.groups {
            h.u32s(&[g.p, g.r, g.b]);
            if let Some(c) = g.gc {
                h.u32s(&[c.kind as u32, u32::from(c.source), c.page, c.limit, u32::from(c.started)]);
            }
        }
        self.pool.hash_into(h);
        h.u64(self.overruns);
    }

    fn clone_box(&self) -> Box<dyn Ftl> {
        Box::new(self.clone())
    }
}

#[cfg(test)]
#[path = "tests.rs"]
mod tests;
