//! The device as schemes see it: the flash array plus cost accounting, counters and events.
//! Every flash operation of every scheme goes through here, so time, counters and the event
//! stream come from one code path.

use crate::ages::BlockAges;
use crate::config::Latencies;
use crate::error::Result;
use crate::events::{CacheLevel, Event, EventCost, MergeKind, MergeWhy, Purpose};
use crate::flash::{BlockId, FlashArray, PageContent, PageKind, PageTag, Ppn};
use crate::meta::{MetaHook, MetaKind};

mod counters;
pub use counters::*;
pub mod flash;
pub mod meta;
mod unit_map;
pub mod valid_index;

use unit_map::UnitMap;

/// Busy-until times of the controller, each flash unit (channel x way) and each channel bus.
///
/// The model: the controller serves requests in arrival order. Each operation runs on the
/// unit that holds its block (`block % units`) once that unit is free; transfers also need
/// the unit's channel. By default (strict, `device.posted_programs = false`) every operation
/// blocks the controller: it starts when the previous one ended, so a request's service time
/// is the sum of its operations' costs (flash, RAM and cache work alike) and requests
/// complete in arrival order. That is how the source documents account time (the thesis,
/// TreeFTL, HCFTL over DiskSim), checked in `tests/timing.rs` against a hand count. With
/// posted programs, programs and erases are handed to their unit (the channel moves the data
/// by DMA) and the controller goes on; reads and RAM work still block it. Units then work in
/// parallel, RAM work after a posted program overlaps it, and a request needing no flash can
/// complete before an earlier posted write.
///
/// Strict timing needs no `max` of the cursor with the unit's and the channel's busy-until
/// times: each operation ends with the cursor at its end, later than anything it made busy,
/// and the cursor never goes back (RAM work and arrivals only move it on), so every unit and
/// channel is free by the cursor and an operation starts there. The timing functions take
/// that shortcut (the golden state hashes, which hold every busy-until time, predate it).
#[derive(Debug, Clone, Default)]
struct Timeline {
    posted: bool,
    controller_free: u64,
    unit_free: Vec<u64>,
    channel_free: Vec<u64>,
    cursor: u64,
    span: RequestSpan,
}

/// Flash array + accounting.
#[derive(Debug, Clone)]
pub struct Device {
    /// The array; schemes see it through [`Device::flash`] and change it only through the
    /// charged operations below, so time, counters, ages and events cannot be skipped.
    flash: FlashArray,
    latency: Latencies,
    /// A page read's and a page program's flash time (array + transfer), summed once.
    read_ns: u64,
    program_ns: u64,
    /// The unit and channel of a block.
    units: UnitMap,
    time: Timeline,
    /// Per-block ages for cost-benefit and FIFO victim selection, kept here so no scheme
    /// can forget to update them.
    pub ages: BlockAges,
    /// Totals since the start of measurement.
    pub counters: FlashCounters,
    /// GC, merge and cache counters since the start of measurement.
    pub stats: SchemeCounters,
    /// The most recent GC victim (for views); survives counter resets.
    pub last_victim: Option<BlockId>,
    /// Cost of the request being served.
    pub cost: RequestCost,
    events: Option<Vec<Event>>,
    /// RAM and LRU time charged between recorded events (recording only; not hashed): the
    /// binary channel's cost records, so the narration can give each operation its RAM and
    /// LRU time.
    event_costs: Vec<EventCost>,
    /// Where metadata accesses go instead of the default RAM charge ([`crate::meta`]).
    pub(crate) meta_hook: Option<Box<dyn MetaHook>>,
    /// Tag of the last host data page read from flash (not hashed): the simulator checks a
    /// read's answer against it (review engine-model §4.3, fabricated reads).
    last_data_read: Option<PageTag>,
}

impl Device {
    /// A fresh single-unit device; `record_events` turns the event stream on.
    pub fn new(flash: FlashArray, latency: Latencies, record_events: bool) -> Self {
        Device::with_units(flash, latency, 1, 1, record_events)
    }

    /// A fresh device with `channels` x `ways` independent units.
    pub fn with_units(
        flash: FlashArray,
        latency: Latencies,
        channels: u32,
        ways: u32,
        record_events: bool,
    ) -> Self {
        let units = (channels * ways).max(1) as usize;
        let ages = BlockAges::new(flash.blocks());
        Device {
            ages,
            flash,
            read_ns: latency.page_read_ns + latency.transfer_ns_per_page,
            program_ns: latency.program_ns + latency.transfer_ns_per_page,
            latency,
            units: UnitMap::new(units as u32, channels.max(1)),
            time: Timeline {
                unit_free: vec![0; units],
                channel_free: vec![0; channels.max(1) as usize],
                ..Timeline::default()
            },
            counters: FlashCounters::default(),
            stats: SchemeCounters::default(),
            last_victim: None,
            cost: RequestCost::default(),
            events: record_events.then(Vec::new),
            event_costs: Vec::new(),
            meta_hook: None,
            last_data_read: None,
        }
    }

    /// The tag of the last host data page read from flash since the previous call (and
    /// forgets it): what a scheme's answer to a host read must be, unless the page is held
    /// in RAM.
    pub fn take_last_data_read(&mut self) -> Option<PageTag> {
        self.last_data_read.take()
    }

    /// Chooses posted programs and erases (`true`) or strict in-order sum of costs (`false`,
    /// the default); see [`DeviceConfig::posted_programs`](crate::config::DeviceConfig).
    pub fn with_posted_programs(mut self, on: bool) -> Self {
        self.time.posted = on;
        self
    }

    /// The flash array, read-only.
    pub fn flash(&self) -> &FlashArray {
        &self.flash
    }

    /// The flash array, for crate-internal tests that corrupt state on purpose.
    #[cfg(test)]
    pub(crate) fn flash_mut(&mut self) -> &mut FlashArray {
        &mut self.flash
    }

    /// Latencies in force.
    pub fn latency(&self) -> &Latencies {
        &self.latency
    }

    /// Records an event if recording is on.
    pub fn emit(&mut self, e: impl FnOnce() -> Event) {
        if let Some(ev) = self.events.as_mut() {
            ev.push(e());
        }
    }

    /// Takes the events recorded since the last call.
    pub fn take_events(&mut self) -> Vec<Event> {
        self.event_costs.clear();
        self.events.as_mut().map(std::mem::take).unwrap_or_default()
    }

    /// Takes the events recorded since the last call with the RAM and LRU time charged
    /// between them (each [`EventCost::after`] counts the events recorded before it).
    pub fn take_events_costed(&mut self) -> (Vec<Event>, Vec<EventCost>) {
        let costs = std::mem::take(&mut self.event_costs);
        (self.events.as_mut().map(std::mem::take).unwrap_or_default(), costs)
    }

    /// Notes RAM / LRU time against the position in the event stream (recording only).
    fn note_cost(&mut self, ram_ns: u64, lru_ns: u64) {
        let Some(ev) = self.events.as_ref().filter(|_| ram_ns + lru_ns > 0) else { return };
        let after = ev.len() as u32;
        match self.event_costs.last_mut() {
            Some(c) if c.after == after => {
                c.ram_ns += ram_ns;
                c.lru_ns += lru_ns;
            }
            _ => self.event_costs.push(EventCost { after, ram_ns, lru_ns }),
        }
    }

    /// Whether events are being recorded.
    pub fn recording(&self) -> bool {
        self.events.is_some()
    }

    /// Turns event recording on (keeping what is recorded) or off (dropping it).
    pub fn set_recording(&mut self, on: bool) {
        if on != self.recording() {
            self.events = on.then(Vec::new);
            self.event_costs.clear();
        }
    }

    fn charge(&mut self, purpose: Purpose, ns: u64) {
        let total = &mut self.cost.flash_ns[purpose as usize];
        *total = total.saturating_add(ns);
    }

    /// Starts timing a request that arrives at `arrival` (ns).
    pub fn begin_request(&mut self, arrival: u64) {
        self.cost = RequestCost::default();
        let start = arrival.max(self.time.controller_free);
        self.time.cursor = start;
        self.time.span = RequestSpan { arrival, start, completion: start };
    }

    /// Finishes timing the current request and returns its span.
    pub fn end_request(&mut self) -> RequestSpan {
        let t = &mut self.time;
        t.span.completion = t.span.completion.max(t.cursor);
        t.controller_free = t.cursor;
        t.span
    }

    /// When the controller finishes the work it has been given (ns).
    pub fn controller_free(&self) -> u64 {
        self.time.controller_free
    }

    /// The span of the current (or last finished) request.
    pub fn span(&self) -> RequestSpan {
        self.time.span
    }

    /// Unit and channel that hold `block`.
    fn unit_of(&self, block: BlockId) -> (usize, usize) {
        let units = self.time.unit_free.len();
        if units == 1 {
            return (0, 0); // no division on the single-unit hot path
        }
        self.units.of(block)
    }

    /// Array operation `array_ns` on the unit, then `xfer_ns` on the channel; blocks the
    /// controller until done, except a host data read with posted programs: the host needs
    /// no result to issue the request's next page, so a multi-page read uses the units in
    /// parallel as writes do (the request completes with its last page).
    #[inline(always)] // hot path: see docs/perf.md, "Calls on the hot path"
    fn time_read(&mut self, block: BlockId, array_ns: u64, xfer_ns: u64, host_data: bool) {
        if !self.time.posted {
            // Strict: the operation starts at the cursor (see [`Timeline`]).
            let end = self.time.cursor.saturating_add(array_ns).saturating_add(xfer_ns);
            self.time_strict(block, end, end);
            return;
        }
        let (u, ch) = self.unit_of(block);
        let t = &mut self.time;
        let sensed = t.cursor.max(t.unit_free[u]).saturating_add(array_ns);
        let end = sensed.max(t.channel_free[ch]).saturating_add(xfer_ns);
        t.channel_free[ch] = end;
        t.unit_free[u] = end;
        if !(t.posted && host_data) {
            t.cursor = end;
        }
        t.span.completion = t.span.completion.max(end);
    }

    /// A strict-timing operation on `block`'s unit that started at the cursor (see
    /// [`Timeline`]): its channel is busy until `channel_end`, its unit and the controller
    /// until `end`.
    #[inline(always)] // hot path: see docs/perf.md, "Calls on the hot path"
    fn time_strict(&mut self, block: BlockId, channel_end: u64, end: u64) {
        let t = &mut self.time;
        t.span.completion = t.span.completion.max(end);
        t.cursor = end;
        let (u, ch) = self.unit_of(block);
        let t = &mut self.time;
        // One unit (and so one channel): its times without a unit to find or an index to
        // check.
        if let ([unit], [channel]) = (&mut t.unit_free[..], &mut t.channel_free[..]) {
            (*channel, *unit) = (channel_end, end);
        } else {
            (t.channel_free[ch], t.unit_free[u]) = (channel_end, end);
        }
    }

    /// Transfer `xfer_ns` on the channel, then `array_ns` on the unit; posted when the
    /// timeline posts programs, else the controller waits for the end.
    #[inline(always)] // hot path: see docs/perf.md, "Calls on the hot path"
    fn time_program(&mut self, block: BlockId, xfer_ns: u64, array_ns: u64) {
        if !self.time.posted {
            // Strict: the operation starts at the cursor (see [`Timeline`]).
            let on_bus = self.time.cursor.saturating_add(xfer_ns);
            self.time_strict(block, on_bus, on_bus.saturating_add(array_ns));
            return;
        }
        let (u, ch) = self.unit_of(block);
        let t = &mut self.time;
        let on_bus = t.cursor.max(t.unit_free[u]).max(t.channel_free[ch]).saturating_add(xfer_ns);
        let end = on_bus.saturating_add(array_ns);
        t.channel_free[ch] = on_bus;
        t.unit_free[u] = end;
        t.span.completion = t.span.completion.max(end);
        if !t.posted {
            t.cursor = end;
        }
    }

    /// An erase on the unit; posted when programs are.
    fn time_erase(&mut self, block: BlockId, ns: u64) {
        let (u, _) = self.unit_of(block);
        let t = &mut self.time;
        let end = t.cursor.max(t.unit_free[u]).saturating_add(ns);
        t.unit_free[u] = end;
        t.span.completion = t.span.completion.max(end);
        if !t.posted {
            t.cursor = end;
        }
    }

    /// Reads a page (array read + bus transfer).
    #[inline(always)] // hot path: see docs/perf.md, "Calls on the hot path"
    pub fn read(&mut self, ppn: Ppn, purpose: Purpose) -> Result<PageTag> {
        let tag = self.flash.read(ppn)?;
        let ns = self.read_ns;
        self.charge(purpose, ns);
        // A read changes no block count: its block is needed only to find its unit (one
        // unit: none to find) and for the event.
        let block = if self.time.unit_free.len() == 1 { 0 } else { self.flash.block_of(ppn) };
        self.time_read(
            block,
            self.latency.page_read_ns,
            self.latency.transfer_ns_per_page,
            purpose == Purpose::Data,
        );
        self.counters.page_reads[purpose as usize] += 1;
        self.counters.by_kind[tag.kind as usize].page_reads[purpose as usize] += 1;
        if purpose == Purpose::Data {
            self.last_data_read = Some(tag);
        }
        if self.recording() {
            let (block, page) = self.flash.split(ppn);
            self.emit(|| Event::FlashRead { ppn, block, page, purpose, key: tag.key, ns });
        }
        Ok(tag)
    }

    /// Reads only a page's spare area (an erased page reads as an empty tag, kind `None`).
    /// Spare-area content besides the tag is then in `flash().content(ppn)`.
    pub fn read_oob(&mut self, ppn: Ppn, purpose: Purpose) -> Result<PageTag> {
        let tag = self.flash.read_oob(ppn)?;
        let ns = self.latency.oob_read_ns;
        self.charge(purpose, ns);
        let (block, page) = self.flash.split(ppn);
        self.time_read(block, ns, 0, false);
        self.counters.oob_reads[purpose as usize] += 1;
        self.counters.by_kind[tag.kind as usize].oob_reads[purpose as usize] += 1;
        self.emit(|| Event::OobRead { ppn, block, page, purpose, ns });
        Ok(tag)
    }

    /// Programs a page (bus transfer + program).
    #[inline(always)] // hot path: see docs/perf.md, "Calls on the hot path"
    pub fn program(&mut self, ppn: Ppn, tag: PageTag, purpose: Purpose) -> Result<()> {
        // The common case carries only a tag: no contents to check, move or drop. The page's
        // block is found once for the array and the accounting.
        let (block, page) = self.flash.split(ppn);
        self.flash.program_split(ppn, block, page, tag)?;
        self.programmed_in(ppn, block, page, tag, purpose);
        Ok(())
    }

    /// Programs a page with contents besides its tag (a translation page's entries, an OOB
    /// sub-table), within the page's sizes; a later read finds them in `flash().content`.
    pub fn program_with(
        &mut self,
        ppn: Ppn,
        tag: PageTag,
        content: PageContent,
        purpose: Purpose,
    ) -> Result<()> {
        self.flash.program_with(ppn, tag, content)?;
        self.programmed(ppn, tag, purpose);
        Ok(())
    }

    /// Forgets the contents of valid page `ppn` (the flash array's `forget_content`): a
    /// superseded copy of metadata kept beside data that stays valid. Costs nothing.
    pub fn forget_content(&mut self, ppn: Ppn) {
        self.flash.forget_content(ppn);
    }

    /// As [`Device::program_with`], with the contents of valid page `from`, which the caller
    /// invalidates next (GC's copy of a page): they move rather than being copied.
    #[inline(always)] // every demand scheme's GC copy: see docs/perf.md, "Calls on the hot path"
    pub fn program_moved(&mut self, dest: Ppn, tag: PageTag, from: Ppn, purpose: Purpose) -> Result<()> {
        self.flash.program_moved(dest, tag, from)?;
        self.programmed(dest, tag, purpose);
        Ok(())
    }

    /// GC's copy of valid page `from` to free page `dest`: [`Device::read`] of `from`,
    /// [`Device::program_moved`] of `dest` and [`Device::invalidate`] of `from`, one after
    /// another, with the same effects on the array, time, counters, ages and events. With
    /// strict timing and no events recording (a measured run), the three are one step:
    /// each page checked once, one charge and one clock update. Returns the page's tag.
    #[inline(always)] // every scheme's GC copy: see docs/perf.md, "Calls on the hot path"
    pub fn copy_page(&mut self, from: Ppn, dest: Ppn, purpose: Purpose) -> Result<PageTag> {
        if self.time.posted || self.recording() {
            return self.copy_page_stepwise(from, dest, purpose);
        }
        let Some((tag, from_block, dest_block)) = self.flash.move_page(from, dest) else {
            return self.copy_page_stepwise(from, dest, purpose);
        };
        self.ages.on_program(dest_block);
        self.ages.on_invalidate(from_block);
        // Saturating sums of non-negative costs: one sum of both is the two sums in turn.
        self.charge(purpose, self.read_ns.saturating_add(self.program_ns));
        // The read, then the program, each starting at the cursor (see [`Timeline`]).
        let read_end = self
            .time
            .cursor
            .saturating_add(self.latency.page_read_ns)
            .saturating_add(self.latency.transfer_ns_per_page);
        self.time_strict(from_block, read_end, read_end);
        let on_bus = read_end.saturating_add(self.latency.transfer_ns_per_page);
        self.time_strict(dest_block, on_bus, on_bus.saturating_add(self.latency.program_ns));
        let (p, kind) = (purpose as usize, tag.kind as usize);
        self.counters.page_reads[p] += 1;
        self.counters.by_kind[kind].page_reads[p] += 1;
        self.counters.page_writes[p] += 1;
        self.counters.by_kind[kind].page_writes[p] += 1;
        if purpose == Purpose::Data {
            self.last_data_read = Some(tag);
        }
        Ok(tag)
    }

    /// GC's copies of a run of pages: [`Device::copy_page`] of each valid page from `from` to
    /// the end of its block, in order, to `dest` and the pages after it, until either block
    /// runs out, a destination page is not free or a page's kind differs from `from`'s (a
    /// scheme picks a copy's block by its kind), with the same effects as those copies one
    /// by one. Returns how many pages moved (to `dest` onwards, in order) and the
    /// first page of `from`'s block not moved.
    ///
    /// Moves nothing when a copy at a time is needed: with events recorded, posted timing, or
    /// metadata or cache accesses that cost time (a metadata hook, a RAM latency or a cache
    /// operation's), since the caller's map updates between the copies would then move the
    /// clock; or when some time
    /// sum could saturate. Otherwise the costs, the clock, the counters and the ages of the
    /// run are added at once: with no sum saturating, each copy starts where the last ended.
    pub fn copy_run(&mut self, from: Ppn, dest: Ppn, purpose: Purpose) -> (u32, Ppn) {
        let l = &self.latency;
        let (sense_ns, xfer_ns, array_ns) = (l.page_read_ns, l.transfer_ns_per_page, l.program_ns);
        let costs_time = self.meta_hook.is_some() || l.ram_access_ns != 0 || l.cache_op_ns != 0;
        if self.time.posted || self.recording() || costs_time {
            return (0, from);
        }
        // The most copies the run can make: the rest of `dest`'s block.
        let ppb = self.flash.pages_per_block();
        let most = u128::from(ppb - self.flash.split(dest).1);
        let copy_ns = u128::from(sense_ns) + 2 * u128::from(xfer_ns) + u128::from(array_ns);
        if u128::from(self.time.cursor) + most * copy_ns > u128::from(u64::MAX) {
            return (0, from);
        }
        let (kinds, next) = self.flash.move_run(from, dest);
        let moved: u32 = kinds.iter().sum();
        if moved == 0 {
            return (0, next);
        }
        let (from_block, dest_block) = (self.flash.block_of(from), self.flash.block_of(dest));
        self.ages.on_copies(dest_block, from_block, u64::from(moved));
        self.charge(purpose, self.read_ns.saturating_add(self.program_ns).saturating_mul(u64::from(moved)));
        // The last copy's read and program, each starting at the cursor (see [`Timeline`]);
        // the copies before it set the same unit and channel times, which it overwrites.
        let end = self.time.cursor + u64::from(moved) * (copy_ns as u64);
        let on_bus = end - array_ns;
        self.time_strict(from_block, on_bus - xfer_ns, on_bus - xfer_ns);
        self.time_strict(dest_block, on_bus, end);
        let p = purpose as usize;
        self.counters.page_reads[p] += u64::from(moved);
        self.counters.page_writes[p] += u64::from(moved);
        for (kind, &n) in kinds.iter().enumerate() {
            self.counters.by_kind[kind].page_reads[p] += u64::from(n);
            self.counters.by_kind[kind].page_writes[p] += u64::from(n);
        }
        if purpose == Purpose::Data {
            self.last_data_read = Some(self.flash.tag(dest + moved - 1));
        }
        (moved, next)
    }

    /// [`Device::copy_page`] as its three operations.
    #[inline(never)]
    fn copy_page_stepwise(&mut self, from: Ppn, dest: Ppn, purpose: Purpose) -> Result<PageTag> {
        let tag = self.read(from, purpose)?;
        self.program_moved(dest, tag, from, purpose)?;
        self.invalidate(from)?;
        Ok(tag)
    }

    /// As [`Device::program_moved`], with the contents changed by `edit` on the way: the
    /// read-modify-write of a page whose old copy the caller invalidates next, without
    /// copying what stays the same.
    pub fn program_moved_with(
        &mut self,
        dest: Ppn,
        tag: PageTag,
        from: Ppn,
        purpose: Purpose,
        edit: impl FnOnce(&mut PageContent),
    ) -> Result<()> {
        self.flash.program_moved_with(dest, tag, from, edit)?;
        self.programmed(dest, tag, purpose);
        Ok(())
    }

    /// As [`Device::program_with`], with main-area words `data` only (a translation page's
    /// entries), copied into a buffer the flash recycles.
    pub fn program_words(&mut self, ppn: Ppn, tag: PageTag, data: &[u32], purpose: Purpose) -> Result<()> {
        self.program_parts(ppn, tag, data, &[], purpose)
    }

    /// As [`Device::program_with`], with main-area words `data` and spare-area words `oob`
    /// copied into buffers the flash recycles (a scheme that writes many such pages keeps
    /// its own buffers, so no page write allocates).
    pub fn program_parts(
        &mut self,
        ppn: Ppn,
        tag: PageTag,
        data: &[u32],
        oob: &[u32],
        purpose: Purpose,
    ) -> Result<()> {
        self.flash.program_parts(ppn, tag, data, oob)?;
        self.programmed(ppn, tag, purpose);
        Ok(())
    }

    /// Ages, cost, time, counters and the event of a page program that succeeded.
    #[inline(always)] // hot path: see docs/perf.md, "Calls on the hot path"
    fn programmed(&mut self, ppn: Ppn, tag: PageTag, purpose: Purpose) {
        let (block, page) = self.flash.split(ppn);
        self.programmed_in(ppn, block, page, tag, purpose);
    }

    /// [`Device::programmed`] of `ppn`, page `page` of `block`.
    #[inline(always)] // hot path: see docs/perf.md, "Calls on the hot path"
    fn programmed_in(&mut self, ppn: Ppn, block: BlockId, page: u32, tag: PageTag, purpose: Purpose) {
        self.ages.on_program(block);
        let ns = self.program_ns;
        self.charge(purpose, ns);
        self.time_program(block, self.latency.transfer_ns_per_page, self.latency.program_ns);
        self.counters.page_writes[purpose as usize] += 1;
        self.counters.by_kind[tag.kind as usize].page_writes[purpose as usize] += 1;
        self.emit(|| Event::FlashProgram {
            ppn,
            block,
            page,
            purpose,
            kind: tag.kind,
            key: tag.key,
            version: tag.version,
            ns,
        });
    }

    /// Marks a page invalid (a RAM-side bookkeeping change; no flash time).
    #[inline(always)] // hot path: see docs/perf.md, "Calls on the hot path"
    pub fn invalidate(&mut self, ppn: Ppn) -> Result<()> {
        let block = self.flash.block_of(ppn);
        self.flash.invalidate_in(ppn, block)?;
        self.ages.on_invalidate(block);
        self.emit(|| Event::Invalidate { ppn });
        Ok(())
    }

    /// Erases a block.
    pub fn erase(&mut self, block: BlockId, purpose: Purpose) -> Result<()> {
        let held = self.block_kind(block);
        self.flash.erase(block)?;
        self.counters.by_kind[held as usize].erases[purpose as usize] += 1;
        self.ages.on_erase(block);
        let ns = self.latency.erase_ns;
        self.charge(purpose, ns);
        self.time_erase(block, ns);
        self.counters.erases[purpose as usize] += 1;
        self.emit(|| Event::Erase { block, purpose, ns });
        // The block's erase count and its place on the free list are FTL metadata too (seed
        // 003): a placement model sees their updates (no charge without one, as before).
        self.device_meta(MetaKind::EraseCount, block);
        Ok(())
    }

    /// What a block holds, from its programmed pages' tags (the first that says; `None` for
    /// an erased block). Schemes keep data and translation pages in separate blocks.
    fn block_kind(&self, block: BlockId) -> PageKind {
        let first = self.flash.first_ppn(block);
        (first..first + self.flash.pages_per_block())
            .map(|p| self.flash.tag(p).kind)
            .find(|&k| k != PageKind::None)
            .unwrap_or(PageKind::None)
    }

    /// Marks the start of collecting `victim` (holding `valid` valid pages).
    pub fn gc_start(&mut self, victim: BlockId) {
        let valid = self.flash.valid_count(victim);
        self.flash.collecting(victim);
        self.stats.gc_runs += 1;
        self.last_victim = Some(victim);
        self.emit(|| Event::GcStart { victim, valid });
    }

    /// Counts a block that unit `unit` took from another unit because it had no free block
    /// of its own (the shared pool's fallback, `gc.borrow_blocks`).
    pub fn cross_unit_block(&mut self, _unit: usize, _block: BlockId) {
        self.stats.cross_unit_blocks += 1;
    }

    /// Counts one partial GC step (a bounded scheme's slice of a collection).
    pub fn gc_step(&mut self) {
        self.stats.gc_steps += 1;
    }

    /// Counts one valid page moved by GC.
    pub fn gc_copied(&mut self) {
        self.stats.gc_valid_copies += 1;
    }

    /// Counts `n` valid pages moved by GC.
    pub fn gc_copied_many(&mut self, n: u64) {
        self.stats.gc_valid_copies += n;
    }

    /// Marks the end of collecting `victim`.
    pub fn gc_end(&mut self, victim: BlockId) {
        self.emit(|| Event::GcEnd { victim });
    }

    /// Records a cache hit (event only; hit ratios come from [`Device::mapping_lookup`] and
    /// [`Device::buffer_lookup`], since one lookup may consult several levels).
    pub fn cache_hit(&mut self, level: CacheLevel, key: u32) {
        self.emit(|| Event::CacheHit { level, key });
    }

    /// Records a cache miss.
    pub fn cache_miss(&mut self, level: CacheLevel, key: u32) {
        self.emit(|| Event::CacheMiss { level, key });
    }

    /// Records a cache insertion of an entry taking `bytes` of RAM.
    pub fn cache_insert(&mut self, level: CacheLevel, key: u32, bytes: u32) {
        self.emit(|| Event::CacheInsert { level, key, bytes });
    }

    /// Records a cache eviction freeing `bytes` of RAM.
    pub fn cache_evict(&mut self, level: CacheLevel, key: u32, dirty: bool, bytes: u32) {
        self.emit(|| Event::CacheEvict { level, key, dirty, bytes });
    }

    /// Counts the outcome of one address-translation lookup in the mapping cache(s).
    pub fn mapping_lookup(&mut self, hit: bool) {
        if hit {
            self.stats.mapping_hits += 1;
        } else {
            self.stats.mapping_misses += 1;
        }
    }

    /// Counts the outcome of one data-buffer lookup.
    pub fn buffer_lookup(&mut self, hit: bool) {
        if hit {
            self.stats.buffer_hits += 1;
        } else {
            self.stats.buffer_misses += 1;
        }
    }

    /// Counts and records a merge of logical block `lbn`: its data block (if it had one), the
    /// log block merged in, the block holding it afterwards, and why it had its kind.
    #[allow(clippy::too_many_arguments)]
    pub fn merge(
        &mut self,
        kind: MergeKind,
        lbn: u32,
        data_block: Option<BlockId>,
        log_block: BlockId,
        result_block: BlockId,
        why: MergeWhy,
    ) {
        self.stats.merges[kind as usize] += 1;
        let MergeWhy { cause, written, degree } = why;
        self.emit(|| Event::Merge { kind, lbn, data_block, log_block, result_block, cause, written, degree });
    }

    /// Counts one merge's page copies and block erases.
    pub fn merge_work(&mut self, kind: MergeKind, copies: u64, erases: u64) {
        self.stats.log.merge_copies[kind as usize] += copies;
        self.stats.log.merge_erases[kind as usize] += erases;
    }

    /// Counts the erases of a log block reclaimed with no live page (no merge).
    pub fn empty_log_erased(&mut self, erases: u64) {
        self.stats.log.empty_erases += erases;
    }

    /// Counts a reclaimed log block that had `pages` written pages and, when it was
    /// reclaimed by full merges, the `degree` data blocks merged for it (0 otherwise).
    pub fn log_merged(&mut self, pages: u64, degree: u64) {
        let l = &mut self.stats.log;
        l.blocks_merged += 1;
        l.pages_at_merge += pages;
        if degree > 0 {
            l.full_victims += 1;
            l.full_degree += degree;
        }
    }

    /// Counts a read that scanned spare areas for the newest copy.
    pub fn oob_scan(&mut self) {
        self.stats.log.oob_scans += 1;
    }

    /// Notes `n` log blocks in use (keeps the peak).
    pub fn log_blocks_in_use(&mut self, n: u64) {
        self.stats.log.peak_blocks = self.stats.log.peak_blocks.max(n);
    }

    /// Clears all counters (used after pre-filling, before measurement starts).
    pub fn reset_counters(&mut self) {
        self.counters = FlashCounters::default();
        self.stats = SchemeCounters::default();
        self.cost = RequestCost::default();
        if let Some(hook) = self.meta_hook.as_mut() {
            hook.reset_counters();
        }
        self.take_events();
        // Measurement starts with an idle device at time 0.
        let t = &mut self.time;
        t.controller_free = 0;
        t.cursor = 0;
        t.unit_free.fill(0);
        t.channel_free.fill(0);
        t.span = RequestSpan::default();
    }

    /// Charges `n` RAM accesses.
    #[inline]
    pub fn ram(&mut self, n: u64) {
        let ns = n.saturating_mul(self.latency.ram_access_ns);
        if ns == 0 {
            return; // free RAM (the default latency) changes no sum, clock or cost record
        }
        self.cost.ram_ns = self.cost.ram_ns.saturating_add(ns);
        self.time.cursor = self.time.cursor.saturating_add(ns);
        self.note_cost(ns, 0);
    }

    /// Charges `ns` of RAM (table access) time: a placement model's SRAM access.
    pub fn ram_time(&mut self, ns: u64) {
        self.cost.ram_ns += ns;
        self.time.cursor += ns;
        self.note_cost(ns, 0);
    }

    /// Charges `ns` of metadata loading: a placement model moving metadata pages between
    /// SRAM, DRAM and NAND ([`crate::metadata`]); the controller waits for it.
    pub fn meta_load_time(&mut self, ns: u64) {
        self.cost.meta_ns += ns;
        self.time.cursor += ns;
        self.note_cost(ns, 0);
    }

    /// Charges moving `pages` pages over the host interface; the controller waits for it.
    pub fn host_transfer(&mut self, pages: u64) {
        let ns = pages.saturating_mul(self.latency.host_transfer_ns_per_page);
        self.cost.host_ns = self.cost.host_ns.saturating_add(ns);
        self.time.cursor = self.time.cursor.saturating_add(ns);
    }

    /// Charges `n` cache-management operations.
    pub fn cache_ops(&mut self, n: u64) {
        let ns = n.saturating_mul(self.latency.cache_op_ns);
        self.cost.lru_ns = self.cost.lru_ns.saturating_add(ns);
        self.time.cursor = self.time.cursor.saturating_add(ns);
        self.note_cost(0, ns);
    }

    /// Units (channels x ways).
    pub fn units(&self) -> u32 {
        self.time.unit_free.len() as u32
    }

    /// Feeds the timing state into a hash.
    pub fn hash_timing(&self, h: &mut crate::hash::StateHasher) {
        self.ages.hash_into(h);
        h.u64(self.time.controller_free);
        for &v in self.time.unit_free.iter().chain(&self.time.channel_free) {
            h.u64(v);
        }
    }
}

#[cfg(test)]
#[path = "copy_tests.rs"]
mod copy_tests;
