//! Turns byte-addressed requests into page operations on the device's logical space.
//!
//! A request covers every page its byte range touches; a partial page counts as a whole
//! page operation. Each request remembers which of its end pages it covers only in part, so
//! a device with `device.read_modify_write` reads such a page's old data before writing it.

use std::collections::HashMap;

mod stream;
mod window;

pub use stream::Cursor;
use stream::RequestStream;
pub use window::{pages_into, PageWalk, Window};

use crate::bits::Bits;
use crate::config::{AddressMap, SimConfig};
use crate::error::{EngineError, Result};
use crate::trace::HostOp;
use crate::trace::Request;

/// Most page operations (pages of all requests together) a workload holds: well inside the
/// 28 bits [`PageRequest`] keeps a request's page count in, and the `u32` index a densely
/// mapped request's first page is.
pub const MAX_WORKLOAD_PAGES: u64 = 1 << 27;

/// About what a request of a timed trace costs a workload, for estimates made before the
/// trace is resolved: a header byte, a first page of 3 bytes and an arrival gap of 2-4
/// (a sequential run at a steady rate costs one byte; the `dense` map adds 4 bytes a page).
pub const ESTIMATED_BYTES_PER_REQUEST: usize = 8;

/// A request resolved to logical pages (a [`Workload`] holds them encoded, a few bytes
/// each, and gives them out decoded). Its pages are a run of consecutive
/// logical pages from its first (wrapping at the device's end under the
/// `modulo` address map), or under the `dense` map a run of [`Workload`]'s page list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PageRequest {
    /// The first logical page, or (`dense` map) the index of the first page in the
    /// workload's page list.
    start: u32,
    /// Page count (low 28 bits), operation (2 bits), partial end pages (top 2 bits).
    packed: u32,
}

const PAGES_BITS: u32 = 28;

/// The operation (2 bits) and partial end pages (2 bits) as the top 4 bits of
/// [`PageRequest`]'s packed word hold them.
#[inline(always)]
fn op_partial(op: HostOp, partial: u8) -> u8 {
    let op = match op {
        HostOp::Read => 0,
        HostOp::Write => 1,
        HostOp::Trim => 2,
    };
    op | partial << 2
}
const PAGES_MASK: u32 = (1 << PAGES_BITS) - 1;

/// [`PageRequest::partial`]: the first page is covered only in part.
pub const PARTIAL_FIRST: u8 = 1;
/// [`PageRequest::partial`]: the last page is covered only in part.
pub const PARTIAL_LAST: u8 = 2;

impl PageRequest {
    fn new(start: u32, pages: u32, op: HostOp, partial: u8) -> Self {
        debug_assert!(pages <= PAGES_MASK && partial < 4);
        PageRequest { start, packed: pages | u32::from(op_partial(op, partial)) << PAGES_BITS }
    }

    /// Operation.
    pub fn op(&self) -> HostOp {
        match (self.packed >> PAGES_BITS) & 3 {
            0 => HostOp::Read,
            1 => HostOp::Write,
            _ => HostOp::Trim,
        }
    }

    /// Number of pages.
    pub fn pages(&self) -> u32 {
        self.packed & PAGES_MASK
    }

    /// Which end pages the request covers only in part: [`PARTIAL_FIRST`] | [`PARTIAL_LAST`].
    pub fn partial(&self) -> u8 {
        (self.packed >> (PAGES_BITS + 2)) as u8
    }

    /// Whether page `i` of the request (0-based) is covered only in part.
    pub fn is_partial(&self, i: u32) -> bool {
        let partial = self.partial();
        (i == 0 && partial & PARTIAL_FIRST != 0) || (i + 1 == self.pages() && partial & PARTIAL_LAST != 0)
    }

    /// Whether serving the request may read a page: a read, or a write covering a page only
    /// in part (read first under read-modify-write).
    pub fn may_read(&self) -> bool {
        // A bit for each value of the top 4 bits (operation, partial ends): set where the
        // operation is a read (0) or an end is partial (the upper two bits not 0).
        const MAY_READ: u32 = 0xfff1;
        (MAY_READ >> (self.packed >> PAGES_BITS)) & 1 != 0
    }
}

/// What a workload's page numbers depend on: the device's page size and logical space and
/// the address map. A workload serves every configuration of the same shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WorkloadShape {
    /// Bytes per page.
    pub page_bytes: u32,
    /// Logical pages of the device.
    pub logical_pages: u64,
    /// How trace pages become logical pages.
    pub map: AddressMap,
    /// Whether the arrival times are kept (only trace timing replays them).
    pub times: bool,
}

impl WorkloadShape {
    /// The shape `config` needs.
    pub fn of(config: &SimConfig) -> Self {
        WorkloadShape {
            page_bytes: config.device.page_bytes,
            logical_pages: config.device.logical_pages(),
            map: config.workload.address_map,
            times: config.timing == crate::config::TimingMode::Trace,
        }
    }

    /// Whether a workload of this shape serves a configuration that needs `need`.
    pub fn serves(&self, need: &WorkloadShape) -> bool {
        self.page_bytes == need.page_bytes
            && self.logical_pages == need.logical_pages
            && self.map == need.map
            && (self.times || !need.times)
    }
}

/// All requests of a trace, resolved once when the simulation is built. Immutable and
/// shared between checkpoints (and between simulations of the same shape).
#[derive(Debug, Clone)]
pub struct Workload {
    shape: WorkloadShape,
    /// Requests in trace order, with their arrival times (ns since the first request; all 0
    /// unless the shape keeps them), encoded compactly ([`stream`]).
    requests: RequestStream,
    /// The `dense` map's logical pages of all requests, back to back (empty otherwise: the
    /// other maps give each request a run of consecutive pages).
    lpns: Vec<u32>,
    /// Distinct logical pages touched.
    footprint: u64,
    /// Whether every arrival is at 0 (a trace without timestamps).
    untimed: bool,
    /// Whether any request reads: a trace of writes alone has no page read before it is
    /// written, which [`Workload::read_before_write`] then answers without a pass.
    reads: bool,
}

/// Builds a [`Workload`] one request at a time, so a trace can be resolved while it is
/// parsed instead of held whole beside it.
#[derive(Debug)]
pub struct WorkloadBuilder {
    w: Workload,
    /// Page operations so far.
    total_pages: u64,
    /// The `dense` map: trace page to logical page, in first-touch order.
    dense: HashMap<u64, u32>,
    /// Logical pages touched (other maps), for the footprint.
    touched: Bits,
    /// Bytes to pages by a shift, for a page size that is a power of two (as configurations
    /// are; a division costs several times a shift, twice a request).
    page_shift: Option<u32>,
}

impl WorkloadBuilder {
    /// An empty workload of `shape`.
    pub fn new(shape: WorkloadShape) -> Self {
        let dense = shape.map == AddressMap::Dense;
        let touched = Bits::new(if dense { 0 } else { shape.logical_pages });
        WorkloadBuilder {
            w: Workload {
                shape,
                requests: RequestStream::new((!dense).then_some(shape.logical_pages)),
                lpns: Vec::new(),
                footprint: 0,
                untimed: true,
                reads: false,
            },
            total_pages: 0,
            dense: HashMap::new(),
            touched,
            page_shift: shape.page_bytes.is_power_of_two().then(|| shape.page_bytes.trailing_zeros()),
        }
    }

    /// Resolves and appends `r`, the next request of the trace.
    pub fn push(&mut self, r: &Request) -> Result<()> {
        self.resolve(r)
    }

    /// Resolves and appends every request of `requests`.
    pub fn extend(&mut self, mut requests: &[Request]) -> Result<()> {
        match (self.page_shift, self.w.shape.map) {
            (Some(shift), AddressMap::Modulo | AddressMap::Refuse) => loop {
                requests = &requests[self.extend_runs(requests, shift)..];
                // The request `extend_runs` left (if any) takes the general way.
                let Some((r, rest)) = requests.split_first() else { return Ok(()) };
                self.resolve(r)?;
                requests = rest;
            },
            _ => requests.iter().try_for_each(|r| self.resolve(r)),
        }
    }

    /// [`WorkloadBuilder::resolve`]'s work for a map of runs of consecutive pages and pages
    /// of `1 << shift` bytes, for the requests at the front of `requests` whose pages are
    /// all inside the device (as a trace's usually are); returns how many it took. The
    /// first it does not take (one that wraps or is refused) is the general way's. What
    /// the loop changes is held in locals meanwhile (in registers: the stores of the
    /// stream's bytes might overwrite fields of `self`, as far as the compiler knows).
    fn extend_runs(&mut self, requests: &[Request], shift: u32) -> usize {
        let logical_pages = self.w.shape.logical_pages;
        // Arrival times kept, or all 0.
        let time_mask = if self.w.shape.times { u64::MAX } else { 0 };
        let mask = (1 << shift) - 1;
        let mut touched = std::mem::take(&mut self.touched);
        let mut total_pages = self.total_pages;
        let mut out = self.w.requests.appender();
        let before = out.len();
        for r in requests {
            let (end, overflow) = r.offset.overflowing_add(u64::from(r.size).wrapping_sub(1));
            let (first_page, last_page) = (r.offset >> shift, end >> shift);
            let pages = last_page.wrapping_sub(first_page).wrapping_add(1);
            if r.size == 0
                || overflow
                || last_page >= logical_pages
                || total_pages + pages > MAX_WORKLOAD_PAGES
            {
                break;
            }
            // The first page before the loop, which most requests (of one page) then skip.
            touched.insert(first_page);
            for page in first_page + 1..last_page + 1 {
                touched.insert(page);
            }
            total_pages += pages;
            let partial = if r.offset & mask != 0 { PARTIAL_FIRST } else { 0 }
                | if end.wrapping_add(1) & mask != 0 { PARTIAL_LAST } else { 0 };
            out.push_parts(first_page as u32, pages as u32, op_partial(r.op, partial), r.time_ns & time_mask);
        }
        let taken = out.len() - before;
        drop(out);
        self.touched = touched;
        self.total_pages = total_pages;
        // Looked for apart from the loop, which has registers enough to fill without
        // them: each look stops at the first it finds (a timed trace's second request),
        // and looks through a few requests a step, without a branch for each (a trace of
        // writes alone, or without times, is looked through whole).
        let taken_requests = &requests[..taken];
        self.w.untimed &= !taken_requests.chunks(8).any(|rs| rs.iter().fold(0, |t, r| t | r.time_ns) != 0);
        self.w.reads |=
            taken_requests.chunks(8).any(|rs| rs.iter().fold(false, |read, r| read | (r.op == HostOp::Read)));
        taken
    }

    /// [`WorkloadBuilder::push`]'s work, inlined into [`WorkloadBuilder::extend`]'s loop
    /// (a call per request costs more than the loop around it).
    #[inline(always)]
    fn resolve(&mut self, r: &Request) -> Result<()> {
        let i = self.w.requests.len();
        let shape = self.w.shape;
        let (pb, logical_pages) = (u64::from(shape.page_bytes), shape.logical_pages);
        // Parsers and generators drop empty requests; a trace built through the API may not.
        if r.size == 0 {
            return Err(EngineError::Config(format!("request {} has size 0", i + 1)));
        }
        let end = r.offset.checked_add(u64::from(r.size) - 1).ok_or_else(|| {
            EngineError::Config(format!("request {} ends beyond 2^64 bytes (offset {})", i + 1, r.offset))
        })?;
        let page = |byte: u64| match self.page_shift {
            Some(shift) => byte >> shift,
            None => byte / pb,
        };
        let (first_page, last_page) = (page(r.offset), page(end));
        let pages = last_page - first_page + 1;
        if self.total_pages + pages > MAX_WORKLOAD_PAGES {
            return Err(EngineError::Config(format!(
                "request {} takes the trace past {MAX_WORKLOAD_PAGES} page operations in all, more than a simulation holds; replay fewer requests or use larger pages",
                i + 1
            )));
        }
        let start = match shape.map {
            AddressMap::Dense => {
                let start = self.w.lpns.len() as u32;
                for page in first_page..=last_page {
                    let next = self.dense.len() as u64;
                    let lpn = *self.dense.entry(page).or_insert(next as u32);
                    if u64::from(lpn) >= logical_pages {
                        return Err(EngineError::Config(format!(
                            "request {} touches {} distinct pages, more than the device's {logical_pages} logical pages; use a larger device or address_map 'modulo'",
                            i + 1,
                            next + 1
                        )));
                    }
                    self.w.lpns.push(lpn);
                }
                start
            }
            AddressMap::Modulo | AddressMap::Refuse => {
                if shape.map == AddressMap::Refuse && last_page >= logical_pages {
                    let page = first_page.max(logical_pages);
                    return Err(EngineError::Config(format!(
                        "request {} addresses page {page}, beyond the device's {logical_pages} logical pages",
                        i + 1
                    )));
                }
                // A division only for a page past the device's end (modulo map).
                let start = if first_page < logical_pages { first_page } else { first_page % logical_pages };
                // Consecutive pages, wrapping at the end: no division per page. The first
                // is taken before the loop, which most requests (of one page) then skip;
                // there is one (the size is not 0, and a device without pages refused the
                // request or divided by 0 above).
                self.touched.insert(start);
                let mut lpn = start;
                for _ in 1..pages.min(logical_pages) {
                    lpn += 1;
                    if lpn == logical_pages {
                        lpn = 0;
                    }
                    self.touched.insert(lpn);
                }
                start as u32
            }
        };
        self.total_pages += pages;
        let partial = if r.offset != first_page * pb { PARTIAL_FIRST } else { 0 }
            | if end != last_page * pb + (pb - 1) { PARTIAL_LAST } else { 0 };
        self.w.untimed &= r.time_ns == 0;
        self.w.reads |= r.op == HostOp::Read;
        let time_ns = if shape.times { r.time_ns } else { 0 };
        self.w.requests.push(PageRequest::new(start, pages as u32, r.op, partial), time_ns);
        Ok(())
    }

    /// The finished workload.
    pub fn finish(mut self) -> Workload {
        self.w.footprint = if self.w.shape.map == AddressMap::Dense {
            self.dense.len() as u64
        } else {
            self.touched.words().iter().map(|w| u64::from(w.count_ones())).sum()
        };
        self.w.requests.shrink_to_fit();
        self.w.lpns.shrink_to_fit();
        self.w
    }
}

impl Workload {
    /// Resolves `requests` for a device of `shape`.
    pub fn build(requests: &[Request], shape: WorkloadShape) -> Result<Self> {
        let mut b = WorkloadBuilder::new(shape);
        b.requests_hint(requests.len());
        b.extend(requests)?;
        Ok(b.finish())
    }

    /// What the workload was resolved for.
    pub fn shape(&self) -> &WorkloadShape {
        &self.shape
    }

    /// Number of requests.
    pub fn len(&self) -> usize {
        self.requests.len()
    }

    /// Whether there is no request.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Distinct logical pages touched.
    pub fn footprint(&self) -> u64 {
        self.footprint
    }

    /// Whether every arrival is at 0 (a trace without timestamps).
    pub fn untimed(&self) -> bool {
        self.untimed
    }

    /// Bytes the workload holds on the heap: its share of a simulation's memory.
    pub fn heap_bytes(&self) -> usize {
        self.requests.heap_bytes() + self.lpns.capacity() * std::mem::size_of::<u32>()
    }

    /// A cursor before the first request (see [`Workload::next`]).
    pub fn first(&self) -> Cursor {
        Cursor::default()
    }

    /// The request at `c` and its arrival time (ns since the first request; 0 where the
    /// times were not kept, see [`WorkloadShape::times`]), moving `c` to the next; `None`
    /// past the last. Stepping through the trace this way decodes each request once.
    #[inline]
    pub fn next(&self, c: &mut Cursor) -> Option<(PageRequest, u64)> {
        self.requests.next(c)
    }

    /// A cursor before request `i` (past the last: the end). Costs a short decode from the
    /// nearest kept cursor; stepping on with [`Workload::next`] is the cheap way.
    pub fn seek(&self, i: usize) -> Cursor {
        self.requests.seek(i)
    }

    /// Request `i`.
    pub fn request(&self, i: usize) -> Option<PageRequest> {
        self.next(&mut self.seek(i)).map(|(r, _)| r)
    }

    /// Arrival time of request `i` (ns since the first request); 0 where the times were not
    /// kept (see [`WorkloadShape::times`]) and past the last.
    pub fn time_ns(&self, i: usize) -> u64 {
        self.next(&mut self.seek(i)).map_or(0, |(_, t)| t)
    }

    /// Every request and its arrival time, in trace order.
    pub fn iter(&self) -> impl Iterator<Item = (PageRequest, u64)> + '_ {
        let mut c = self.first();
        std::iter::from_fn(move || self.next(&mut c))
    }

    /// Logical page `k` (0-based) of request `r`.
    #[inline]
    pub fn page(&self, r: &PageRequest, k: u32) -> u32 {
        self.page_at(u64::from(r.start) + u64::from(k))
    }

    /// The logical page at `lpn`, a request's first page plus `k` not yet wrapped around
    /// the device (under the `dense` map, an index into the page list).
    #[inline]
    fn page_at(&self, lpn: u64) -> u32 {
        if self.shape.map == AddressMap::Dense {
            return self.lpns[lpn as usize];
        }
        // A division only for a request that wraps (modulo map): most never do.
        if lpn < self.shape.logical_pages {
            lpn as u32
        } else {
            (lpn % self.shape.logical_pages) as u32
        }
    }

    /// The first logical page of `r` ([`Workload::page`] of page 0): its start, inside the
    /// device already, or under the `dense` map the page list's entry there.
    #[inline]
    pub fn first_page(&self, r: &PageRequest) -> u32 {
        if self.shape.map == AddressMap::Dense {
            return self.lpns[r.start as usize];
        }
        debug_assert!(u64::from(r.start) < self.shape.logical_pages);
        r.start
    }

    /// The logical pages of `r`, in order.
    pub fn pages_of<'a>(&'a self, r: &'a PageRequest) -> impl ExactSizeIterator<Item = u32> + 'a {
        (0..r.pages()).map(move |k| self.page(r, k))
    }

    /// Pages the trace reads before it ever writes or trims them, in first-read order: the
    /// data that must already be on the device for the trace to make sense.
    pub fn read_before_write(&self, logical_pages: u64) -> Vec<u32> {
        if !self.reads {
            return Vec::new();
        }
        let mut seen = Bits::new(logical_pages);
        let mut out = Vec::new();
        for (r, _) in self.iter() {
            for lpn in self.pages_of(&r) {
                if seen.insert(u64::from(lpn)) && r.op() == HostOp::Read {
                    out.push(lpn);
                }
            }
        }
        out
    }
}

impl WorkloadBuilder {
    /// What the workload is being resolved for.
    pub fn shape(&self) -> &WorkloadShape {
        &self.w.shape
    }

    /// Reserves room for `n` more requests (when their number is known): the index of
    /// their encoding; the encoding's own length is not known ahead.
    pub fn requests_hint(&mut self, n: usize) {
        self.w.requests.reserve(n);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn req(op: HostOp, offset: u64, size: u32) -> Request {
        Request { time_ns: 0, op, offset, size }
    }

    fn build(requests: &[Request], page_bytes: u32, logical_pages: u64, map: AddressMap) -> Result<Workload> {
        Workload::build(requests, WorkloadShape { page_bytes, logical_pages, map, times: true })
    }

    fn pages(w: &Workload, i: usize) -> Vec<u32> {
        w.pages_of(&w.request(i).unwrap()).collect()
    }

    #[test]
    fn a_request_may_read_when_it_reads_or_covers_an_end_page_in_part() {
        for op in [HostOp::Read, HostOp::Write, HostOp::Trim] {
            for partial in 0..4 {
                for pages in [1, 2, PAGES_MASK] {
                    let r = PageRequest::new(7, pages, op, partial);
                    assert_eq!((r.op(), r.partial(), r.pages()), (op, partial, pages));
                    assert_eq!(r.may_read(), op == HostOp::Read || partial != 0, "{op:?} {partial}");
                }
            }
        }
    }

    #[test]
    fn more_page_operations_than_a_workload_holds_are_refused_before_they_are_held() {
        // One 4 GiB request of 16-byte pages is 2^28 page operations.
        let huge = [req(HostOp::Write, 0, 4096), req(HostOp::Read, 0, u32::MAX)];
        let e = build(&huge, 16, 1024, AddressMap::Modulo).unwrap_err().to_string();
        assert!(e.contains("request 2 takes the trace past 134217728 page operations"), "{e}");
        assert!(build(&huge[..1], 16, 1024, AddressMap::Modulo).is_ok());
    }

    #[test]
    fn the_runs_way_resolves_as_the_general_way() {
        // Random requests (inside the device, past its end, wrapping, at the top of the
        // byte range, empty) resolved by `extend`, whose runs take most, and one at a
        // time by `resolve` alone: the same workload, or the same refusal.
        let mut rng = crate::test_rng::Rng(0x5851_f42d_4c95_7f2d);
        let (mut resolved, mut refused) = (0, 0);
        for map in [AddressMap::Modulo, AddressMap::Refuse, AddressMap::Dense] {
            for (page_bytes, logical_pages) in [(4096, 1000), (512, 64), (4096, 1 << 20), (3000, 500)] {
                for times in [true, false] {
                    let shape = WorkloadShape { page_bytes, logical_pages, map, times };
                    let device_bytes = u64::from(page_bytes) * logical_pages;
                    let mut time = 0u64;
                    let reqs: Vec<Request> = (0..3000)
                        .map(|_| {
                            let x = rng.next();
                            // Refusals rare enough for long runs to resolve whole.
                            let offset = match x % 1000 {
                                0 => u64::MAX - x % 5000,
                                1..=20 if map != AddressMap::Refuse => device_bytes + (x >> 8) % device_bytes,
                                21..=60 => device_bytes - 1 - (x >> 8) % 4096,
                                _ => (x >> 8) % device_bytes,
                            };
                            let size = match (x >> 40) % 1000 {
                                0 => 0,
                                1..=600 => page_bytes,
                                _ => 1 + (x >> 20) as u32 % (page_bytes * 9),
                            };
                            time = match (x >> 50) % 6 {
                                0 => 0,
                                1 => rng.next(),
                                _ => time.wrapping_add(1000),
                            };
                            let op = [HostOp::Read, HostOp::Write, HostOp::Trim][(x >> 60) as usize % 3];
                            Request { time_ns: time, op, offset, size }
                        })
                        .collect();
                    // Prefixes too: a refusal ends the comparison at the first bad request.
                    for n in [reqs.len(), 40, 300] {
                        let reqs = &reqs[..n];
                        let mut runs = WorkloadBuilder::new(shape);
                        let runs = runs.extend(reqs).map(|()| runs.finish());
                        let mut general = WorkloadBuilder::new(shape);
                        let general =
                            reqs.iter().try_for_each(|r| general.resolve(r)).map(|()| general.finish());
                        assert_eq!(format!("{runs:?}"), format!("{general:?}"), "{shape:?}, {n} requests");
                        resolved += usize::from(runs.is_ok());
                        refused += usize::from(runs.is_err());
                    }
                }
            }
        }
        assert!(resolved >= 20 && refused >= 10, "{resolved} resolved, {refused} refused");
    }

    #[test]
    fn splits_into_pages_and_remaps_densely() {
        let reqs = [req(HostOp::Write, 8192 * 100 + 10, 8192), req(HostOp::Read, 8192 * 100, 1)];
        let w = build(&reqs, 4096, 16, AddressMap::Dense).unwrap();
        // 8192*100+10 .. +8192 touches trace pages 200, 201, 202.
        assert_eq!(pages(&w, 0), [0, 1, 2]);
        assert_eq!(pages(&w, 1), [0]);
        assert_eq!(w.footprint, 3);
    }

    #[test]
    fn partial_end_pages_are_marked() {
        let reqs = [
            req(HostOp::Write, 0, 8192),    // whole pages 0, 1
            req(HostOp::Write, 1024, 1024), // inside page 0
            req(HostOp::Write, 2048, 8192), // pages 0 (from 2 KB), 1, 2 (to 2 KB)
            req(HostOp::Write, 4096, 6144), // page 1 whole, page 2 to 2 KB
        ];
        let w = build(&reqs, 4096, 16, AddressMap::Refuse).unwrap();
        let partial: Vec<Vec<bool>> =
            w.iter().map(|(r, _)| (0..r.pages()).map(|i| r.is_partial(i)).collect()).collect();
        assert_eq!(partial, [vec![false, false], vec![true], vec![true, false, true], vec![false, true]]);
    }

    #[test]
    fn modulo_and_refuse() {
        let reqs = [req(HostOp::Write, 4096 * 20, 4096)];
        let w = build(&reqs, 4096, 16, AddressMap::Modulo).unwrap();
        assert_eq!(pages(&w, 0), [4]);
        assert!(build(&reqs, 4096, 16, AddressMap::Refuse).is_err());
        let big: Vec<_> = (0..20).map(|i| req(HostOp::Write, i * 4096, 4096)).collect();
        let e = build(&big, 4096, 16, AddressMap::Dense).unwrap_err();
        assert!(e.to_string().contains("request 17"), "{e}");
    }

    #[test]
    fn empty_and_overflowing_requests_are_errors() {
        // Review (engine-model) §5.10: a zero-size request underflowed `offset + size - 1`.
        let e = build(&[req(HostOp::Write, 4096, 0)], 4096, 16, AddressMap::Modulo).unwrap_err();
        assert!(e.to_string().contains("request 1 has size 0"), "{e}");
        let e = build(&[req(HostOp::Read, u64::MAX, 2)], 4096, 16, AddressMap::Modulo).unwrap_err();
        assert!(e.to_string().contains("beyond 2^64"), "{e}");
    }

    #[test]
    fn read_before_write_lists_prefill_pages() {
        let reqs = [req(HostOp::Write, 0, 4096), req(HostOp::Read, 0, 8192), req(HostOp::Read, 8192, 4096)];
        let w = build(&reqs, 4096, 16, AddressMap::Dense).unwrap();
        assert_eq!(w.read_before_write(16), vec![1, 2]);
        let writes = build(&reqs[..1], 4096, 16, AddressMap::Dense).unwrap();
        assert_eq!(writes.read_before_write(16), Vec::<u32>::new());
    }

    #[test]
    fn modulo_wraps_a_request_at_the_end_of_the_logical_space() {
        let w = build(&[req(HostOp::Write, 4096 * 14, 4096 * 4)], 4096, 16, AddressMap::Modulo).unwrap();
        assert_eq!(pages(&w, 0), [14, 15, 0, 1]);
        assert_eq!(w.footprint(), 4);
        let e = build(&[req(HostOp::Write, 4096 * 14, 4096 * 4)], 4096, 16, AddressMap::Refuse).unwrap_err();
        assert!(e.to_string().contains("addresses page 16,"), "{e}");
    }

    #[test]
    fn arrival_times_are_kept_only_when_asked_for_and_not_all_zero() {
        let mut reqs = [req(HostOp::Write, 0, 4096), req(HostOp::Write, 0, 4096), req(HostOp::Read, 0, 4096)];
        reqs[2].time_ns = 7;
        let shape =
            WorkloadShape { page_bytes: 4096, logical_pages: 16, map: AddressMap::Modulo, times: true };
        let w = Workload::build(&reqs, shape).unwrap();
        assert_eq!((0..3).map(|i| w.time_ns(i)).collect::<Vec<_>>(), [0, 0, 7]);
        assert!(!w.untimed());
        let w = Workload::build(&reqs, WorkloadShape { times: false, ..shape }).unwrap();
        assert_eq!(w.time_ns(2), 0);
        assert!(!w.untimed(), "untimed is known without keeping the times");
        assert!(Workload::build(&reqs[..2], shape).unwrap().untimed());
    }

    #[test]
    fn arrival_times_past_32_bits_and_out_of_order_are_kept_exactly() {
        let times = [0, 5, u64::from(u32::MAX), 1 << 32, (1 << 32) + 9, 3, 7 << 40, u64::MAX, 1];
        let reqs: Vec<_> =
            times.iter().map(|&time_ns| Request { time_ns, ..req(HostOp::Write, 0, 4096) }).collect();
        let shape =
            WorkloadShape { page_bytes: 4096, logical_pages: 16, map: AddressMap::Modulo, times: true };
        let w = Workload::build(&reqs, shape).unwrap();
        assert_eq!((0..times.len()).map(|i| w.time_ns(i)).collect::<Vec<_>>(), times);
        assert_eq!(w.time_ns(times.len()), 0, "past the end");
    }

    #[test]
    fn a_page_request_packs_its_fields() {
        for op in [HostOp::Read, HostOp::Write, HostOp::Trim] {
            for partial in 0..4 {
                let r = PageRequest::new(u32::MAX, PAGES_MASK, op, partial);
                assert_eq!((r.start, r.pages(), r.op(), r.partial()), (u32::MAX, PAGES_MASK, op, partial));
            }
        }
        assert_eq!(std::mem::size_of::<PageRequest>(), 8);
    }

    #[test]
    fn a_request_costs_one_byte_in_a_sequential_run_and_four_at_random() {
        let n = 100_000u64;
        let shape =
            WorkloadShape { page_bytes: 4096, logical_pages: 1 << 20, map: AddressMap::Modulo, times: true };
        let per_request = |lpn: &dyn Fn(u64) -> u64| {
            let reqs: Vec<_> = (0..n)
                .map(|i| Request { time_ns: 1000 * (i + 1), ..req(HostOp::Write, lpn(i) * 4096, 4096) })
                .collect();
            let w = Workload::build(&reqs, shape).unwrap();
            assert_eq!(w.iter().map(|(r, t)| (w.page(&r, 0), t)).last(), Some((lpn(n - 1) as u32, 1000 * n)));
            w.heap_bytes() as f64 / n as f64
        };
        // A header byte each, and the kept cursors (0.19 a request).
        let sequential = per_request(&|i| i);
        assert!(sequential < 1.25, "{sequential} bytes a sequential request");
        // A header and a 3-byte first page each.
        let random = per_request(&|i| (i * 0x9e37_79b9) % (1 << 20));
        assert!(random < 4.25, "{random} bytes a random request");
    }
}
