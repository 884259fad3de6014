//! `gftl`: GFTL (Choudhuri & Givargis), as the thesis characterises it (seed 002, §4.2.2,
//! §4.4, Table 4.2; notes §2.8): block-level mapping where a logical block's pages are
//! appended to its data block in order (no fixed offsets, so MLC-safe), a write buffer of
//! page-mapped buffer blocks for writes while the data block is full, and a GC queue: a
//! data block that fills is queued, and the queue is cleaned in partial steps of at most one
//! erase time, one after every page served, as long as it is not empty. A read finds its page
//! by scanning the data block's spare areas (U(e_r) = T_rdpg + π·T_rdoob).
//!
#![doc = include_str!("notes.md")]

use std::collections::VecDeque;

use serde::{Deserialize, Serialize};
use serde_json::json;

use super::rftl::{Bounds, StepCount};
use super::{BlockPool, BlockRole, BuildCtx, Ftl, OpenBlocks, OptionsSpec, SchemeInfo, SchemeSpec};
use crate::device::Device;
use crate::error::{EngineError, Result};
use crate::events::Purpose;
use crate::flash::{BlockId, PageKind, PageState, PageTag, Ppn};
use crate::hash::StateHasher;
use crate::inspect::{indexed_keys, BlockDuty, Budget, InspectQuery, Inspection, Row, Structure};
use crate::meta::MetaKind;
use crate::vocab::StopAt;

/// The scheme's registry entry.
pub static SPEC: SchemeSpec = SchemeSpec {
    info: SchemeInfo {
        id: "gftl",
        name: "GFTL (GC queue, partial block cleaning)",
        family: "realtime",
        source: "thesis (seed 002) §4.2.2, §4.4, Table 4.2 (Choudhuri & Givargis); notes §2.8",
    },
    notes: include_str!("notes.md"),
    stops: &[StopAt::Gc, StopAt::GcStep],
    caches: &[],
    options: OptionsSpec::of::<GftlOptions>(),
    open_blocks: OpenBlocks::ONE_PER_UNIT,
    // The Ch.4 buffer (`buffer_percent: 100`) needs twice the data blocks, more than the
    // default device has, so it is an option but no variant.
    variants: || vec![("GFTL", json!({}))],
    build: |ctx, options| {
        let o: GftlOptions = super::parse_options("gftl", options)?;
        super::spec::check_percent("gftl", "buffer_percent", o.buffer_percent)?;
        Ok(Box::new(Gftl::new(ctx, &o)?))
    },
};

/// GFTL's options.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct GftlOptions {
    /// Buffer blocks as a percentage of the data blocks: 16 as in the thesis' Ch.3 ("about
    /// 16 % of all data blocks", the default), 100 as in its Ch.4 ("the same as that of
    /// data blocks", which needs over-provisioning of at least one half).
    #[schemars(extend("x-units" = "percent"))]
    pub buffer_percent: u8,
}

impl Default for GftlOptions {
    fn default() -> Self {
        GftlOptions { buffer_percent: 16 }
    }
}

const NO_BLOCK: BlockId = u32::MAX;
/// RAM per logical block: its data block number.
const LBN_ENTRY_BYTES: u64 = 4;
/// RAM per buffer page-map entry (LPN and PPN).
const BUFFER_ENTRY_BYTES: u64 = 8;

/// One job of the GC queue.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Job {
    /// A full data block: its logical block's valid pages (data block from `page` on,
    /// then the buffer pages listed in `todo` when that phase began) go to a fresh data
    /// block, then the old one is erased.
    Clean { lbn: u32, dest: BlockId, page: u32, todo: Option<Vec<u32>>, started: bool },
    /// A full buffer block whose logical blocks were queued: erase it once it holds no
    /// valid page (else drain it again).
    EraseBuffer(BlockId),
    /// A full buffer block with valid pages: queue its logical blocks, then erase it.
    DrainBuffer(BlockId),
}

/// The buffer page map, LPN -> PPN: an array over the logical pages, in LPN order like the
/// ordered map it replaces (whose inserts and removals were 40 % of GFTL's host time).
#[derive(Debug, Clone)]
struct BufferMap {
    ppns: Vec<Ppn>,
    len: usize,
}

impl BufferMap {
    const NONE: Ppn = Ppn::MAX;

    fn new(logical_pages: usize) -> Self {
        BufferMap { ppns: vec![Self::NONE; logical_pages], len: 0 }
    }

    fn get(&self, lpn: &u32) -> Option<&Ppn> {
        self.ppns.get(*lpn as usize).filter(|&&p| p != Self::NONE)
    }

    fn insert(&mut self, lpn: u32, ppn: Ppn) {
        let slot = &mut self.ppns[lpn as usize];
        self.len += usize::from(*slot == Self::NONE);
        *slot = ppn;
    }

    fn remove(&mut self, lpn: &u32) {
        if let Some(slot) = self.ppns.get_mut(*lpn as usize) {
            self.len -= usize::from(*slot != Self::NONE);
            *slot = Self::NONE;
        }
    }

    fn len(&self) -> usize {
        self.len
    }

    /// Entries (LPN, PPN) with LPNs in `lpns`, in LPN order.
    fn range(&self, lpns: std::ops::Range<u32>) -> impl Iterator<Item = (u32, Ppn)> + '_ {
        let end = (lpns.end as usize).min(self.ppns.len());
        let start = (lpns.start as usize).min(end);
        self.entries(start, end)
    }

    /// Every entry (LPN, PPN), in LPN order.
    fn iter(&self) -> impl Iterator<Item = (u32, Ppn)> + '_ {
        self.entries(0, self.ppns.len())
    }

    fn entries(&self, start: usize, end: usize) -> impl Iterator<Item = (u32, Ppn)> + '_ {
        (start..end).map(|i| (i as u32, self.ppns[i])).filter(|&(_, p)| p != Self::NONE)
    }
}

/// GFTL state.
#[derive(Debug, Clone)]
pub struct Gftl {
    ppb: u32,
    data: Vec<BlockId>,
    /// Page map of the buffer (and of pages a cleaning has moved so far): LPN → PPN.
    buffer_map: BufferMap,
    /// Buffer blocks, the one being written last.
    buffers: Vec<BlockId>,
    buffer_blocks: usize,
    queue: VecDeque<Job>,
    queued: Vec<bool>,
    pool: BlockPool,
    beta: u32,
    /// Writes that found the buffer full and waited for whole GC jobs (bound overruns).
    overruns: u64,
    /// Table 4.2's L(p) for GFTL on this device: T_er + max{U(e_r), U(e_w)}.
    bound_ns: u64,
}

impl Gftl {
    /// A GFTL over an erased device.
    pub fn new(ctx: &BuildCtx, o: &GftlOptions) -> Result<Self> {
        let d = ctx.device;
        let ppb = d.pages_per_block;
        let lbns = (d.logical_pages() as u32).div_ceil(ppb);
        let buffer_blocks = ((u64::from(lbns) * u64::from(o.buffer_percent)).div_ceil(100) as usize).max(2);
        if u64::from(d.blocks) < u64::from(lbns) + buffer_blocks as u64 + 2 {
            return Err(EngineError::Config(format!(
                "scheme 'gftl' needs a data block for each of the {lbns} logical blocks, {buffer_blocks} buffer blocks ({} % of them, at least 2) and two more to clean into, but the device has {} blocks; raise device.over_provisioning or lower options.buffer_percent",
                o.buffer_percent, d.blocks
            )));
        }
        let lat = &d.latency;
        let copy = lat.page_read_ns + lat.program_ns + 2 * lat.transfer_ns_per_page;
        Ok(Gftl {
            ppb,
            data: vec![NO_BLOCK; lbns as usize],
            buffer_map: BufferMap::new(d.logical_pages() as usize),
            buffers: Vec::new(),
            buffer_blocks,
            queue: VecDeque::new(),
            queued: vec![false; lbns as usize],
            pool: BlockPool::new(d.blocks, 0, 0, d.units() as usize).with_gc(ctx.gc),
            beta: (lat.erase_ns / copy.max(1)).max(1) as u32,
            overruns: 0,
            bound_ns: Bounds::of(lat, ppb, StepCount::default()).gftl_period_ns,
        })
    }

    fn take(&mut self, dev: &mut Device) -> Result<BlockId> {
        let unit = (0..self.pool.units()).find(|&u| self.pool.free_on(u) > 0).unwrap_or(0);
        self.pool.take(unit, dev)
    }

    fn used(dev: &Device, b: BlockId) -> u32 {
        dev.flash().programmed_count(b)
    }

    fn next_ppn(dev: &Device, b: BlockId) -> Ppn {
        dev.flash().first_ppn(b) + Self::used(dev, b)
    }

    /// The valid copy of `lpn` in `block`, found by reading spare areas from the first page
    /// to the last written one (charged when `dev_charge`); the newest match wins.
    fn scan(&self, dev: &mut Device, block: BlockId, lpn: u32) -> Result<Option<Ppn>> {
        let first = dev.flash().first_ppn(block);
        let mut found = None;
        for p in first..first + Self::used(dev, block) {
            let tag = dev.read_oob(p, Purpose::Data)?;
            if tag.key == lpn && tag.kind == PageKind::Data && dev.flash().state(p) == PageState::Valid {
                found = Some(p);
            }
        }
        dev.oob_scan();
        Ok(found)
    }

    /// Where `lpn`'s valid copy is, without charging.
    fn locate(&self, dev: &Device, lpn: u32) -> Option<Ppn> {
        if let Some(&p) = self.buffer_map.get(&lpn) {
            return Some(p);
        }
        let d = *self.data.get((lpn / self.ppb) as usize)?;
        if d == NO_BLOCK {
            return None;
        }
        let first = dev.flash().first_ppn(d);
        (first..first + Self::used(dev, d))
            .find(|&p| dev.flash().state(p) == PageState::Valid && dev.flash().tag(p).key == lpn)
    }

    fn enqueue_clean(&mut self, lbn: u32) {
        if !self.queued[lbn as usize] {
            self.queued[lbn as usize] = true;
            self.queue.push_back(Job::Clean { lbn, dest: NO_BLOCK, page: 0, todo: None, started: false });
        }
    }

    /// A buffer page for the next write, draining the queue at once when none is left.
    fn buffer_page(&mut self, dev: &mut Device) -> Result<Ppn> {
        loop {
            if let Some(&b) = self.buffers.last() {
                if Self::used(dev, b) < self.ppb {
                    return Ok(Self::next_ppn(dev, b));
                }
            }
            if self.buffers.len() < self.buffer_blocks && self.pool.free_len() > 1 {
                let b = self.take(dev)?;
                self.buffers.push(b);
                continue;
            }
            if self.queue.is_empty() {
                return Err(EngineError::DeviceFull(
                    "gftl: the write buffer is full and the GC queue is empty".into(),
                ));
            }
            self.overruns += 1;
            self.gc_step(dev)?;
        }
    }

    /// One partial step of the queue's head: up to β copies, or one erase.
    fn gc_step(&mut self, dev: &mut Device) -> Result<()> {
        let Some(job) = self.queue.front().cloned() else { return Ok(()) };
        match job {
            Job::EraseBuffer(b) => {
                self.queue.pop_front();
                if dev.flash().valid_count(b) > 0 {
                    // A cleaning that had begun before this block filled left pages here.
                    self.queue.push_back(Job::DrainBuffer(b));
                    return Ok(());
                }
                dev.gc_step();
                dev.gc_start(b);
                dev.erase(b, Purpose::Gc)?;
                dev.gc_end(b);
                self.buffers.retain(|&x| x != b);
                self.pool.release(b);
            }
            Job::DrainBuffer(b) => {
                self.queue.pop_front();
                // Its valid pages leave with their logical blocks' cleanings, queued first.
                let first = dev.flash().first_ppn(b);
                let lbns: Vec<u32> = (first..first + self.ppb)
                    .filter(|&p| dev.flash().state(p) == PageState::Valid)
                    .map(|p| dev.flash().tag(p).key / self.ppb)
                    .collect();
                for lbn in lbns {
                    self.enqueue_clean(lbn);
                }
                self.queue.push_back(Job::EraseBuffer(b));
                if !matches!(self.queue.front(), Some(Job::EraseBuffer(x)) if *x == b) {
                    self.gc_step(dev)?;
                }
            }
            Job::Clean { lbn, mut dest, mut page, mut todo, started } => {
                dev.gc_step();
                let old = self.data[lbn as usize];
                if !started {
                    dev.gc_start(old);
                }
                if dest == NO_BLOCK {
                    dest = self.take(dev)?;
                }
                let mut copied = 0;
                let first = dev.flash().first_ppn(old);
                while todo.is_none() && page < self.ppb && copied < self.beta {
                    let p = first + page;
                    page += 1;
                    if dev.flash().state(p) == PageState::Valid && dev.flash().tag(p).kind == PageKind::Data {
                        let lpn = dev.flash().tag(p).key;
                        self.copy(dev, lpn, p, dest)?;
                        copied += 1;
                    }
                }
                if todo.is_none() && page >= self.ppb {
                    // The buffer pages of this logical block now; later writes stay buffered.
                    let lo = lbn * self.ppb;
                    let mut list: Vec<u32> = self
                        .buffer_map
                        .range(lo..lo + self.ppb)
                        .filter(|&(_, p)| dev.flash().block_of(p) != dest)
                        .map(|(l, _)| l)
                        .collect();
                    list.reverse();
                    todo = Some(list);
                }
                if let Some(list) = todo.as_mut() {
                    // A page rewritten after its copy may come again: what does not fit
                    // the new block stays buffered for the next cleaning.
                    while copied < self.beta {
                        if Self::used(dev, dest) == self.ppb {
                            list.clear();
                            break;
                        }
                        let Some(lpn) = list.pop() else { break };
                        if let Some(&p) = self.buffer_map.get(&lpn) {
                            if dev.flash().block_of(p) != dest {
                                self.copy(dev, lpn, p, dest)?;
                                copied += 1;
                            }
                        }
                    }
                }
                if copied > 0 || todo.as_ref().is_none_or(|t| !t.is_empty()) {
                    self.queue[0] = Job::Clean { lbn, dest, page, todo, started: true };
                    return Ok(());
                }
                // All moved: the new data block takes over and the old one is erased.
                self.queue.pop_front();
                self.queued[lbn as usize] = false;
                let lo = lbn * self.ppb;
                let moved: Vec<u32> = self
                    .buffer_map
                    .range(lo..lo + self.ppb)
                    .filter(|&(_, p)| dev.flash().block_of(p) == dest)
                    .map(|(l, _)| l)
                    .collect();
                for l in moved {
                    self.buffer_map.remove(&l);
                }
                dev.erase(old, Purpose::Gc)?;
                dev.gc_end(old);
                self.pool.release(old);
                // A new data block full of copies is queued only when a write finds it full:
                // re-queueing it now would copy its valid pages round and round.
                self.data[lbn as usize] = dest;
            }
        }
        Ok(())
    }

    /// Copies `lpn` from `from` to the next page of `dest`; the cleaning's copies are in the
    /// buffer map until the new data block takes over.
    fn copy(&mut self, dev: &mut Device, lpn: u32, from: Ppn, dest: BlockId) -> Result<()> {
        let to = Self::next_ppn(dev, dest);
        let tag = dev.read(from, Purpose::Gc)?;
        dev.program(to, tag, Purpose::Gc)?;
        dev.invalidate(from)?;
        dev.gc_copied();
        self.buffer_map.insert(lpn, to);
        Ok(())
    }
}

/// A one-row table counting the collections that ran at once rather than in bounded steps
/// (each broke the scheme's L(p) bound), for the real-time schemes' RAM views.
pub(crate) fn overrun_table(overruns: u64) -> Structure {
    Structure::Table {
        id: "bound-overruns".into(),
        name: "Bound overruns (collections run at once)".into(),
        len: 1,
        rows: vec![Row { key: 0, value: Some(overruns.min(u64::from(u32::MAX)) as u32), in_ram: true }],
        truncated: false,
    }
}

impl Ftl for Gftl {
    fn read(&mut self, lpn: u32, dev: &mut Device) -> Result<Option<PageTag>> {
        let lbn = lpn / self.ppb;
        dev.meta_read(MetaKind::BlockMap, lbn, LBN_ENTRY_BYTES as u32);
        let found = match self.buffer_map.get(&lpn) {
            Some(&p) => Some(dev.read(p, Purpose::Data)?),
            None => match self.data[lbn as usize] {
                NO_BLOCK => None,
                d => match self.scan(dev, d, lpn)? {
                    Some(p) => Some(dev.read(p, Purpose::Data)?),
                    None => None,
                },
            },
        };
        // One partial step after each page served (each page has its period), as long as
        // the queue is not empty.
        self.gc_step(dev)?;
        Ok(found)
    }

    fn write(&mut self, lpn: u32, version: u32, dev: &mut Device) -> Result<()> {
        let lbn = lpn / self.ppb;
        dev.meta_read(MetaKind::BlockMap, lbn, LBN_ENTRY_BYTES as u32);
        let old = self.locate(dev, lpn);
        let d = self.data[lbn as usize];
        let (ppn, purpose) = if d == NO_BLOCK {
            let b = self.take(dev)?;
            self.data[lbn as usize] = b;
            (Self::next_ppn(dev, b), Purpose::Data)
        } else if !self.queued[lbn as usize] && Self::used(dev, d) < self.ppb {
            (Self::next_ppn(dev, d), Purpose::Data)
        } else {
            self.enqueue_clean(lbn);
            (self.buffer_page(dev)?, Purpose::Buffer)
        };
        // The buffer drain may have moved the old copy.
        let old = if purpose == Purpose::Buffer { self.locate(dev, lpn) } else { old };
        dev.program(ppn, PageTag::data(lpn, version), purpose)?;
        if let Some(o) = old {
            dev.invalidate(o)?;
        }
        if purpose == Purpose::Buffer {
            self.buffer_map.insert(lpn, ppn);
            let b = dev.flash().block_of(ppn);
            if Self::used(dev, b) == self.ppb {
                self.queue.push_back(Job::DrainBuffer(b));
            }
        } else {
            self.buffer_map.remove(&lpn);
            if Self::used(dev, self.data[lbn as usize]) == self.ppb {
                // "Triggered once a physical block is full".
                self.enqueue_clean(lbn);
            }
        }
        self.gc_step(dev)
    }

    /// Pre-fill goes straight to the logical blocks' data blocks, in the order given: through
    /// the write path every block it fills would be queued for cleaning at once ("triggered
    /// once a physical block is full") and cleaned, so the device would start with erases
    /// and moved pages no other scheme has. A full data block is queued by the first write
    /// the trace makes to it, as on the write path.
    fn place_prefill(
        &mut self,
        pages: &mut dyn Iterator<Item = (u32, u32)>,
        dev: &mut Device,
    ) -> Result<bool> {
        for (lpn, version) in pages {
            let lbn = (lpn / self.ppb) as usize;
            if self.data[lbn] == NO_BLOCK {
                self.data[lbn] = self.take(dev)?;
            }
            let old = self.locate(dev, lpn);
            dev.program(Self::next_ppn(dev, self.data[lbn]), PageTag::data(lpn, version), Purpose::Data)?;
            if let Some(o) = old {
                dev.invalidate(o)?;
            }
        }
        Ok(true)
    }

    fn trim(&mut self, lpn: u32, dev: &mut Device) -> Result<()> {
        if let Some(p) = self.locate(dev, lpn) {
            self.buffer_map.remove(&lpn);
            dev.invalidate(p)?;
        }
        Ok(())
    }

    fn ram_bytes(&self) -> u64 {
        self.data.len() as u64 * LBN_ENTRY_BYTES + self.buffer_map.len() as u64 * BUFFER_ENTRY_BYTES
    }

    fn response_bound_us(&self) -> Option<f64> {
        Some(self.bound_ns as f64 / 1_000.0)
    }

    fn block_role(&self, block: BlockId, dev: &Device) -> BlockRole {
        // Only the job at the head of the queue has a destination (taken when it starts).
        let cleaning = matches!(self.queue.front(), Some(Job::Clean { dest, .. }) if *dest == block);
        if self.buffers.contains(&block) {
            BlockRole::Buffer
        } else if cleaning {
            BlockRole::Cleaning
        } else if dev.flash().programmed_count(block) > 0 {
            BlockRole::Data
        } else {
            BlockRole::Free
        }
    }

    fn block_duty(&self, block: BlockId, dev: &Device) -> Option<BlockDuty> {
        let len = self.queue.len();
        // Its place in the GC queue (1 = being cleaned next), and the job there.
        let place =
            |hit: &dyn Fn(&Job) -> bool| self.queue.iter().position(hit).map(|i| (i + 1, &self.queue[i]));
        let queue_text = |at: Option<(usize, &Job)>| {
            match at {
            None => format!("not in the GC queue ({len} jobs queued)"),
            Some((1, Job::Clean { page, started: true, todo, .. })) => match todo {
                None => format!("being cleaned, first in the GC queue of {len}: data block copied up to page {page} of {}", self.ppb),
                Some(t) => format!("being cleaned, first in the GC queue of {len}: {} buffer pages left to move", t.len()),
            },
            Some((i, Job::Clean { .. })) => format!("queued for cleaning, {i} of {len} in the GC queue"),
            Some((i, Job::DrainBuffer(_))) => format!("full, {i} of {len} in the GC queue: its logical blocks get queued"),
            Some((i, Job::EraseBuffer(_))) => format!("full, {i} of {len} in the GC queue: erased once it holds no valid page"),
        }
        };
        let buffer_job =
            |b: BlockId| move |j: &Job| matches!(j, Job::DrainBuffer(x) | Job::EraseBuffer(x) if *x == b);
        if let Some(i) = self.buffers.iter().position(|&b| b == block) {
            let role = format!("buffer block {} of {} (page-mapped write buffer)", i + 1, self.buffers.len());
            return Some(BlockDuty {
                block,
                lbn: None,
                role,
                gc: Some(queue_text(place(&buffer_job(block)))),
            });
        }
        if let Some(at) = place(&|j: &Job| matches!(j, Job::Clean { dest, .. } if *dest == block)) {
            let Job::Clean { lbn, .. } = at.1 else { return None };
            let gc = queue_text(Some(at));
            return Some(BlockDuty {
                block,
                lbn: Some(*lbn),
                role: "cleaning destination (next data block)".into(),
                gc: Some(gc),
            });
        }
        let lbn = self.data.iter().position(|&b| b == block)? as u32;
        let gc = queue_text(place(&|j: &Job| matches!(j, Job::Clean { lbn: l, .. } if *l == lbn)));
        let full = if dev.flash().programmed_count(block) == self.ppb { "full " } else { "" };
        Some(BlockDuty { block, lbn: Some(lbn), role: format!("{full}data block"), gc: Some(gc) })
    }

    fn map_view(&self) -> Option<crate::ftl::MapView<'_>> {
        let mut blocks: Vec<BlockId> = self.data.iter().copied().filter(|&b| b != NO_BLOCK).collect();
        blocks.extend(self.buffers.iter().copied());
        for job in &self.queue {
            match *job {
                Job::Clean { dest, .. } if dest != NO_BLOCK => blocks.push(dest),
                Job::EraseBuffer(b) | Job::DrainBuffer(b) if !blocks.contains(&b) => blocks.push(b),
                _ => {}
            }
        }
        Some(crate::ftl::MapView::in_blocks(blocks, Vec::new()))
    }

    fn inspect(&self, query: &InspectQuery) -> Inspection {
        let touched = query.touched.iter().map(|&l| l / self.ppb);
        let (keys, truncated) = indexed_keys(self.data.len(), query.limit, touched);
        let data = Structure::Table {
            id: "data-blocks".into(),
            name: "LBN → data block".into(),
            len: self.data.len() as u64,
            rows: keys
                .iter()
                .map(|&k| {
                    let b = self.data[k as usize];
                    Row { key: k, value: (b != NO_BLOCK).then_some(b), in_ram: true }
                })
                .collect(),
            truncated,
        };
        let (rows, cut) = crate::inspect::summarise(
            self.buffer_map.iter().map(|(k, p)| Row { key: k, value: Some(p), in_ram: true }),
            query.limit,
            |r| query.touches(r.key),
        );
        let buffer = Structure::Table {
            id: "buffer-map".into(),
            name: "Buffer page map (LPN → PPN)".into(),
            len: self.buffer_map.len() as u64,
            rows,
            truncated: cut,
        };
        let queue = Structure::Table {
            id: "gc-queue".into(),
            name: "GC queue (position → block)".into(),
            len: self.queue.len() as u64,
            rows: self
                .queue
                .iter()
                .take(query.limit)
                .enumerate()
                .map(|(i, j)| {
                    let b = match *j {
                        Job::Clean { lbn, .. } => self.data[lbn as usize],
                        Job::EraseBuffer(b) | Job::DrainBuffer(b) => b,
                    };
                    Row { key: i as u32, value: Some(b), in_ram: true }
                })
                .collect(),
            truncated: self.queue.len() > query.limit,
        };
        Inspection {
            ram_used: self.ram_bytes(),
            budgets: vec![
                Budget { name: "Block map".into(), bytes: self.data.len() as u64 * LBN_ENTRY_BYTES },
                Budget {
                    name: "Buffer page map".into(),
                    bytes: self.buffer_map.len() as u64 * BUFFER_ENTRY_BYTES,
                },
            ],
            structures: vec![data, buffer, queue, overrun_table(self.overruns)],
            ..Inspection::default()
        }
    }

    fn check(&self, dev: &Device) -> Result<()> {
        self.pool.check(dev).map_err(|e| EngineError::Invariant(format!("gftl: {e}")))?;
        for (lpn, p) in self.buffer_map.iter() {
            if dev.flash().state(p) != PageState::Valid || dev.flash().tag(p).key != lpn {
                return Err(EngineError::Invariant(format!(
                    "gftl: buffer map LPN {lpn} → PPN {p}, which holds {:?}",
                    dev.flash().tag(p)
                )));
            }
        }
        if self.buffers.len() > self.buffer_blocks {
            return Err(EngineError::Invariant(format!(
                "gftl: {} buffer blocks, over {}",
                self.buffers.len(),
                self.buffer_blocks
            )));
        }
        Ok(())
    }

    fn hash_into(&self, h: &mut StateHasher) {
        h.u32s(&self.data);
        for (l, p) in self.buffer_map.iter() {
            h.u32s(&[l, p]);
        }
        h.u32s(&self.buffers);
        for job in &self.queue {
            match *job {
                Job::Clean { lbn, dest, page, ref todo, started } => {
                    h.u32s(&[0, lbn, dest, page, u32::from(started)]);
                    if let Some(t) = todo {
                        h.u32(t.len() as u32);
                        h.u32s(t);
                    }
                }
                Job::EraseBuffer(b) => h.u32s(&[1, b]),
                Job::DrainBuffer(b) => h.u32s(&[2, b]),
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
