//! The simulation: a trace replayed through one scheme on one device, one request per step.

use std::sync::Arc;

use crate::config::{SimConfig, TimingMode};
use crate::device::{Device, FlashCounters};
use crate::error::{EngineError, Result};
use crate::events::{Event, Purpose};
use crate::flash::FlashArray;
use crate::ftl::{self, Ftl};
use crate::invariants;
use crate::metrics::*;
use crate::oracle::Oracle;
use crate::series::{SeriesPoint, SeriesRecorder};
use crate::trace::HostOp;
use crate::trace::{self, Trace};
use crate::workload::{PageRequest, PageWalk, Window, Workload, WorkloadBuilder, WorkloadShape};

/// What happened to the last request served: where its response time went.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct RequestReport {
    /// Index in the trace.
    pub index: u64,
    /// Operation.
    pub op: Option<HostOp>,
    /// First logical page.
    pub lpn: u32,
    /// Pages.
    pub pages: u32,
    /// Arrival at the device (µs of simulated time).
    pub arrival_us: f64,
    /// Start of service (µs).
    pub start_us: f64,
    /// Completion of the last operation (µs).
    pub completion_us: f64,
    /// Completion − arrival.
    pub response_us: f64,
    /// Waiting for the controller (start − arrival).
    pub queue_us: f64,
    /// Flash time per purpose (µs): data, translation, log, buffer, gc, merge.
    pub flash_us: std::collections::BTreeMap<&'static str, f64>,
    /// RAM accesses (µs).
    pub ram_us: f64,
    /// Cache management (µs).
    pub lru_us: f64,
    /// Host-interface transfers (µs).
    pub host_us: f64,
    /// Moving metadata pages between SRAM, DRAM and NAND (seed 003's metadata loading).
    pub meta_us: f64,
}

/// The raw figures of the last request served.
#[derive(Debug, Clone)]
struct LastRequest {
    index: u64,
    op: HostOp,
    lpn: u32,
    pages: u32,
    span: crate::device::RequestSpan,
    cost: crate::device::RequestCost,
}

impl Default for LastRequest {
    fn default() -> Self {
        LastRequest {
            index: 0,
            op: HostOp::Read,
            lpn: 0,
            pages: 0,
            span: Default::default(),
            cost: Default::default(),
        }
    }
}

pub use crate::vocab::StopAt;

/// How many costs the run's time sums take by plain adds, each part below [`PLAIN_ADDEND`]
/// ([`Sim::account_cost`]).
const PLAIN_SUMS: u32 = 1 << 28;
/// See [`PLAIN_SUMS`].
const PLAIN_ADDEND: u64 = 1 << 32;

/// Pages per prefetch burst ([`Sim::prefetch_ahead`]).
const PREFETCH_BURST: usize = 8;
/// How far ahead of the page being served a burst's far pages start, in pages; its near
/// pages are the [`PREFETCH_BURST`] before them (the last burst's far ones).
const PREFETCH_DISTANCE: usize = 16;

/// The pages of one prefetch burst ([`Sim::prefetch_burst`]).
#[derive(Debug, Clone, Copy, Default)]
struct AheadPages {
    pages: [u32; PREFETCH_BURST],
    /// How many (fewer at the end of the workload).
    n: usize,
    /// Whether any may be read.
    reads: bool,
}

impl AheadPages {
    /// The next [`PREFETCH_BURST`] pages of `walk`.
    #[inline(always)]
    fn take(&mut self, w: &Workload, window: &mut Window, walk: &mut PageWalk) {
        (self.n, self.reads) = window.walk(w, walk, &mut self.pages);
    }
}

/// A running simulation. Cloning it is a checkpoint: the trace is shared, everything else
/// is copied.
#[derive(Debug, Clone)]
pub struct Sim {
    config: SimConfig,
    trace_name: String,
    workload: Arc<Workload>,
    device: Device,
    ftl: Box<dyn Ftl>,
    oracle: Oracle,
    cursor: usize,
    /// The requests from the cursor to where the prefetch look-ahead has reached, decoded.
    window: Window,
    /// Page operations of the requests before `cursor` (the stream index of the next
    /// request's first page).
    page_cursor: usize,
    /// The next prefetch burst's far pages start here, at stream index `ahead_at`.
    ahead: PageWalk,
    ahead_at: usize,
    /// The last two bursts' far pages: the last one's are the next burst's near ones, and
    /// the next burst's far ones replace the other's. Two buffers taken in
    /// turn (`ahead_far` says which is next), not one copied into the other: a copy reads
    /// back pages just stored one by one, and a wide load over narrow stores still in flight
    /// waits for them all.
    ahead_pages: [AheadPages; 2],
    ahead_far: usize,
    /// The pages of the request being served (reused, so no allocation per request).
    pages: Vec<u32>,
    host: HostCounters,
    /// Response times by operation and of all requests (the state hash takes all
    /// requests': each sample's op comes from the trace).
    response: ResponseTimes,
    /// The run sampled over the trace (`metrics.series`; not hashed, see [`crate::series`]).
    series: SeriesRecorder,
    last_completion_ns: u64,
    sim_time_ns: u64,
    last_response_ns: u64,
    last: LastRequest,
    /// Costs taken by plain adds so far ([`Sim::account_cost`]); [`PLAIN_SUMS`] once a
    /// saturating sum has been used.
    plain_sums: u32,
    check_every_step: bool,
    failed: Option<EngineError>,
    /// What the pre-fill did ([`Sim::prefill_summary`]).
    prefill_summary: PrefillSummary,
}

impl Sim {
    /// Builds a simulation of `trace` under `config`, pre-filling the pages the trace reads
    /// before writing them when the config asks for it.
    pub fn new(config: SimConfig, trace: &Trace, trace_name: &str) -> Result<Sim> {
        let mut builder = Sim::workload_builder(&config)?;
        builder.requests_hint(trace.requests.len());
        builder.extend(&trace.requests)?;
        Sim::with_workload(config, Arc::new(builder.finish()), trace_name)
    }

    /// A builder of the workload `config` needs, to feed a trace into while it is parsed
    /// (then [`Sim::with_workload`]): the trace need not be held whole beside it.
    pub fn workload_builder(config: &SimConfig) -> Result<WorkloadBuilder> {
        let mut config = config.clone();
        ftl::validate(&config)?;
        ftl::resolve_options(&mut config)?;
        Ok(WorkloadBuilder::new(WorkloadShape::of(&config)))
    }

    /// Builds a simulation of a trace already resolved to pages ([`Sim::workload_builder`]);
    /// simulations of configurations of the same shape can share one workload.
    pub fn with_workload(mut config: SimConfig, workload: Arc<Workload>, trace_name: &str) -> Result<Sim> {
        ftl::validate(&config)?;
        ftl::resolve_options(&mut config)?;
        // A trace without timestamps (every arrival at 0) would measure its position in one
        // long queue, not a response time: replay it closed loop, as DESIGN §3 says. The
        // metrics' config shows the mode actually used.
        if config.timing == TimingMode::Trace && workload.untimed() {
            config.timing = TimingMode::Closed;
        }
        if !workload.shape().serves(&WorkloadShape::of(&config)) {
            return Err(EngineError::Config(format!(
                "the workload was resolved for {:?}, not for this configuration's {:?}",
                workload.shape(),
                WorkloadShape::of(&config)
            )));
        }
        let dev_cfg = &config.device;
        let flash = FlashArray::new(dev_cfg.blocks, dev_cfg.pages_per_block, dev_cfg.cell)
            .with_sizes(dev_cfg.page_bytes, dev_cfg.oob_bytes);
        let mut device = Device::with_units(
            flash,
            dev_cfg.latency.clone(),
            dev_cfg.channels,
            dev_cfg.ways,
            config.record_events,
        )
        .with_posted_programs(dev_cfg.posted_programs);
        device.set_meta_hook(config.metadata.hook(dev_cfg.page_bytes, &dev_cfg.latency)?);
        let ftl = ftl::build(&config)?;
        let series = SeriesRecorder::new(workload.len() as u64);
        let oracle = Oracle::new(dev_cfg.logical_pages());
        let mut sim = Sim {
            trace_name: trace_name.to_string(),
            workload,
            device,
            ftl,
            oracle,
            cursor: 0,
            window: Window::default(),
            page_cursor: 0,
            ahead: PageWalk::default(),
            ahead_at: 0,
            ahead_pages: Default::default(),
            ahead_far: 0,
            pages: Vec::new(),
            host: HostCounters::default(),
            response: ResponseTimes::default(),
            series,
            last_completion_ns: 0,
            sim_time_ns: 0,
            last_response_ns: 0,
            last: LastRequest::default(),
            plain_sums: 0,
            check_every_step: false,
            failed: None,
            prefill_summary: PrefillSummary::default(),
            config,
        };
        sim.prefill().map_err(|e| e.while_doing("while pre-filling the device, before the first request"))?;
        Ok(sim)
    }

    /// Parses `bytes` (format detected unless given) and builds a simulation.
    pub fn from_bytes(
        config: SimConfig,
        bytes: &[u8],
        format: Option<&str>,
        trace_name: &str,
    ) -> Result<Sim> {
        let trace = trace::parse(bytes, format).map_err(|e| e.in_file(trace_name))?;
        Sim::new(config, &trace, trace_name)
    }

    /// Writes what the scheme holds only in RAM to flash now, as controller work after the
    /// last completion (counted in the metrics; no host request).
    pub fn flush(&mut self) -> Result<()> {
        if let Some(e) = &self.failed {
            return Err(e.clone());
        }
        self.device.begin_request(self.last_completion_ns.max(self.sim_time_ns));
        let done = self.ftl.flush(&mut self.device);
        let span = self.device.end_request();
        self.sim_time_ns = self.sim_time_ns.max(span.completion);
        self.account_cost(span);
        done.and_then(|()| self.check_clock(span.completion)).inspect_err(|e| self.failed = Some(e.clone()))
    }

    /// Adds the device's cost of the request (or flush) just served to the run's totals.
    /// Sums saturate; [`Sim::check_clock`] refuses to go on once one has reached the end.
    /// The first [`PLAIN_SUMS`] costs whose every part is below [`PLAIN_ADDEND`] (4.3 s) are
    /// plain adds: no total can wrap then (2^28 parts below 2^32 each add up to less than
    /// 2^60), and one test per cost is all they need. Any other cost, and every one after
    /// it, goes through the saturating sums.
    #[inline(always)] // one call site per request; the cold path is the call
    fn account_cost(&mut self, span: crate::device::RequestSpan) {
        let busy = span.completion.saturating_sub(span.start);
        let c = &self.device.cost;
        let flash = c.flash_ns.iter().fold(0, |any, &ns| any | ns);
        let parts = busy | flash | c.ram_ns | c.lru_ns | c.host_ns | c.meta_ns;
        if parts >= PLAIN_ADDEND || self.plain_sums >= PLAIN_SUMS {
            self.account_cost_saturating(busy);
            return;
        }
        self.plain_sums += 1;
        self.host.busy_ns += busy;
        self.host.service.add_with(c, |total, ns| total + ns);
    }

    /// [`Sim::account_cost`] with every sum saturating (a part of the cost past
    /// [`PLAIN_ADDEND`], or after [`PLAIN_SUMS`] plain ones).
    #[cold]
    #[inline(never)]
    fn account_cost_saturating(&mut self, busy: u64) {
        // A total may now be past what a plain add can take.
        self.plain_sums = PLAIN_SUMS;
        self.host.busy_ns = self.host.busy_ns.saturating_add(busy);
        self.host.service.add_with(&self.device.cost, u64::saturating_add);
    }

    /// The device's time sums saturate at the end of the ns clock (2^64 ns, 584 years)
    /// instead of wrapping; a run that gets there would report responses shorter than the
    /// work done, so it stops with an error ([`Sim::step`] names the request). Latencies and
    /// periods are bounded by the configuration check, so only an enormous run gets here.
    fn check_clock(&self, completion: u64) -> Result<()> {
        // While the sums are plain adds, every total is below 2^60: only the clock to test.
        if completion == u64::MAX || self.plain_sums >= PLAIN_SUMS && self.saturated() {
            return Err(EngineError::Config(
                "the simulated clock reached its end (2^64 ns, 584 years); lower the latencies, the arrival period or the time scale".into(),
            ));
        }
        Ok(())
    }

    /// Whether one of the run's time sums has reached the end of the clock.
    #[cold]
    fn saturated(&self) -> bool {
        let (h, t) = (&self.host, &self.host.service);
        [h.flash_ns(), t.ram_ns, t.lru_ns, t.host_ns, t.meta_ns].contains(&u64::MAX)
    }

    /// Runs invariant checks after every step (tests and debugging; slow).
    pub fn set_check_every_step(&mut self, on: bool) {
        self.check_every_step = on;
    }

    /// Serves up to `n` requests; returns how many were served (0 at the end of the trace).
    pub fn step(&mut self, n: usize) -> Result<usize> {
        if let Some(e) = &self.failed {
            return Err(e.clone());
        }
        let mut done = 0;
        while done < n && self.cursor < self.workload.len() {
            if let Err(e) = self.serve_one() {
                // Name the request: the metrics of those served before it stay readable.
                let e = e.at_request(self.cursor as u64 + 1, self.workload.len() as u64);
                self.failed = Some(e.clone());
                return Err(e);
            }
            done += 1;
            if self.done() && self.config.workload.flush_at_end {
                self.flush()?;
            }
            if self.check_every_step {
                // A failed check leaves a state nobody should step on from: stop here, as
                // for a failed request.
                if let Err(e) = self.check_invariants() {
                    self.failed = Some(e.clone());
                    return Err(e);
                }
            }
        }
        Ok(done)
    }

    /// Reads `lpn` through the scheme and checks the answer with the oracle. With checks on
    /// every step, a page the scheme answers with must also be the one it read from flash
    /// for this read (review engine-model §4.3: a scheme answering from a RAM shadow, or
    /// reading one page and answering with another, passed the oracle with a wrong cost),
    /// unless the scheme holds the page in RAM.
    fn read_page(&mut self, lpn: u32) -> Result<()> {
        if self.check_every_step {
            self.device.take_last_data_read();
        }
        let got = self.ftl.read(lpn, &mut self.device)?;
        self.oracle.check_read(lpn, got);
        if self.check_every_step {
            if let Some(tag) = got {
                let read = self.device.take_last_data_read();
                if read != Some(tag) && !self.ftl.holds_in_ram(lpn) {
                    return Err(EngineError::Invariant(format!(
                        "read of LPN {lpn} answered {tag:?}, but the last data page it read from flash was {read:?}"
                    )));
                }
            }
        }
        Ok(())
    }

    fn serve_one(&mut self) -> Result<()> {
        let Some((req, time_ns)) = self.window.request(&self.workload, self.cursor) else { return Ok(()) };
        let mut pages = std::mem::take(&mut self.pages);
        crate::workload::pages_into(&self.workload, &req, &mut pages);
        let served = self.serve(req, time_ns, &pages);
        self.pages = pages;
        served
    }

    /// Serves request `req` (the one at the cursor, arriving at `time_ns` of the trace),
    /// whose logical pages are `pages`.
    fn serve(&mut self, req: PageRequest, time_ns: u64, pages: &[u32]) -> Result<()> {
        let index = self.cursor as u64;
        let op = req.op();
        let arrival = match self.config.timing {
            TimingMode::Trace => time_ns,
            TimingMode::Closed => self.last_completion_ns,
            TimingMode::Periodic(period) => index.checked_mul(period).ok_or_else(|| {
                EngineError::Config(format!(
                    "arrival {index} x timing.periodic {period} ns is past the end of the clock (2^64 ns)"
                ))
            })?,
        };
        // A gap before this arrival is the scheme's idle time.
        let free = self.device.controller_free();
        if arrival > free && !self.ftl.works_when_idle() {
            // No idle work: an empty span from `free` would end there, charging nothing.
            #[cfg(debug_assertions)]
            self.check_no_idle_work(free, arrival)?;
            self.sim_time_ns = self.sim_time_ns.max(free);
        } else if arrival > free {
            self.device.begin_request(free);
            self.ftl.idle(&mut self.device, arrival)?;
            let span = self.device.end_request();
            self.sim_time_ns = self.sim_time_ns.max(span.completion);
            // Most gaps of most schemes hold no work: nothing to add then.
            if span.completion != span.start || !self.device.cost.is_zero() {
                self.account_cost(span);
            }
        }
        self.device.begin_request(arrival);
        self.device.emit(|| Event::Request { index, op, lpn: pages[0], pages: req.pages() });
        self.ftl.begin_request(op, pages, &mut self.device)?;
        let first = self.page_cursor;
        match op {
            HostOp::Read => {
                self.host.reads += 1;
                for (k, &lpn) in pages.iter().enumerate() {
                    self.prefetch_ahead(first + k);
                    self.read_page(lpn)?;
                }
                // The data goes out to the host after it is read.
                self.device.host_transfer(u64::from(req.pages()));
                self.host.pages_read += u64::from(req.pages());
            }
            HostOp::Write => {
                self.host.writes += 1;
                // The data comes in from the host before it is written.
                self.device.host_transfer(u64::from(req.pages()));
                let rmw = self.config.device.read_modify_write;
                for (i, &lpn) in pages.iter().enumerate() {
                    self.prefetch_ahead(first + i);
                    // Read-modify-write: a partly covered page keeps its other bytes, so its
                    // old data is read first (through the scheme, checked like a host read).
                    if rmw && req.is_partial(i as u32) && self.oracle.expected(lpn) != 0 {
                        self.read_page(lpn)?;
                        self.host.pages_rmw_read += 1;
                    }
                    let v = self.oracle.write(lpn)?;
                    self.ftl.write(lpn, v, &mut self.device)?;
                }
                self.host.pages_written += u64::from(req.pages());
            }
            HostOp::Trim => {
                self.host.trims += 1;
                for (k, &lpn) in pages.iter().enumerate() {
                    self.prefetch_ahead(first + k);
                    self.oracle.trim(lpn);
                    self.ftl.trim(lpn, &mut self.device)?;
                }
                self.host.pages_trimmed += u64::from(req.pages());
            }
        }
        self.ftl.end_request(&mut self.device)?;
        let span = self.device.end_request();
        self.account_cost(span);
        self.check_clock(span.completion)?;
        self.last_completion_ns = span.completion;
        self.sim_time_ns = self.sim_time_ns.max(span.completion);
        self.last_response_ns = span.completion - span.arrival;
        self.response.record(op, self.last_response_ns);
        let done = index + 1;
        if let Some((mean_ns, max_ns)) = self.series.record(done, self.last_response_ns) {
            self.series.push(SeriesPoint {
                requests_done: done,
                sim_time_us: self.sim_time_ns as f64 / 1000.0,
                mean_response_us: mean_ns / 1000.0,
                max_response_us: max_ns as f64 / 1000.0,
                free_blocks: self.erased_blocks(),
                ram: self.ftl.ram_split(),
            });
        }
        // Keep the raw figures; the report is built only when asked for (no allocation per
        // request on the hot path).
        self.last = LastRequest {
            index,
            op,
            lpn: pages[0],
            pages: req.pages(),
            span,
            cost: self.device.cost.clone(),
        };
        self.cursor += 1;
        self.page_cursor += pages.len();
        Ok(())
    }

    /// Asks for the memory the pages a little after page `p` of the workload will touch:
    /// their oracle stamps and map entries well ahead, what those entries point to shortly
    /// before (see [`crate::prefetch`]). Random page numbers make each of these a cache miss
    /// on a large device; fetched early, they overlap instead of stalling one by one.
    /// The hints go out in bursts, once every [`PREFETCH_BURST`] pages: where there is no prefetch
    /// instruction (wasm) a hint is a plain load that holds the CPU back until it arrives,
    /// and loads issued back to back wait for their misses together, not one after another.
    #[inline(always)] // a test per page in the caller; the burst itself is a call
    fn prefetch_ahead(&mut self, p: usize) {
        if p.is_multiple_of(PREFETCH_BURST) {
            self.prefetch_burst(p);
        }
    }

    /// Debug builds (every test) still call the idle hook of a scheme that says it has no
    /// idle work, and fail if it did any: a scheme overriding [`Ftl::idle`] without saying
    /// so in [`Ftl::works_when_idle`] would have its idle work skipped in release builds.
    #[cfg(debug_assertions)]
    fn check_no_idle_work(&mut self, free: u64, arrival: u64) -> Result<()> {
        let before = self.device.counters.clone();
        self.device.begin_request(free);
        self.ftl.idle(&mut self.device, arrival)?;
        let span = self.device.end_request();
        assert!(
            span.completion == span.start && self.device.cost.is_zero() && self.device.counters == before,
            "{} works when idle but says it does not (Ftl::works_when_idle)",
            self.config.scheme
        );
        Ok(())
    }

    /// [`Sim::prefetch_ahead`] at the start of a burst.
    #[inline(never)]
    fn prefetch_burst(&mut self, p: usize) {
        const N: usize = PREFETCH_BURST;
        const D: usize = PREFETCH_DISTANCE;
        let (w, window) = (&self.workload, &mut self.window);
        let [a, b] = &mut self.ahead_pages;
        let (far, near) = if self.ahead_far == 0 { (a, b) } else { (b, a) };
        // Bursts come every N pages, so the last one's far pages are this one's near ones
        // and its walk is where this one's far pages start; anywhere else (the first
        // burst) both are found from the cursor.
        if self.ahead_at != p + D {
            let mut walk = PageWalk::at(self.cursor);
            window.skip(w, &mut walk, p + D - N - self.page_cursor);
            near.take(w, window, &mut walk);
            self.ahead = walk;
        }
        far.take(w, window, &mut self.ahead);
        self.ahead_at = p + N + D;
        self.ahead_far ^= 1;
        let ahead = crate::prefetch::Lookahead {
            far: &far.pages[..far.n],
            near: &near.pages[..near.n],
            reads: near.reads,
            also: self.oracle.stamps(),
        };
        self.ftl.prefetch(&ahead, &self.device);
    }

    /// The counter `step_until` watches for `what`.
    pub fn stop_count(&self, what: StopAt) -> u64 {
        what.count(&self.device.stats)
    }

    /// Where the last request's time went.
    pub fn last_request(&self) -> RequestReport {
        let l = &self.last;
        let us = |ns: u64| ns as f64 / 1000.0;
        RequestReport {
            index: l.index,
            op: (l.pages > 0).then_some(l.op),
            lpn: l.lpn,
            pages: l.pages,
            arrival_us: us(l.span.arrival),
            start_us: us(l.span.start),
            completion_us: us(l.span.completion),
            response_us: us(l.span.completion - l.span.arrival),
            queue_us: us(l.span.start - l.span.arrival),
            flash_us: Purpose::ALL.iter().map(|&p| (p.name(), us(l.cost.flash_ns[p as usize]))).collect(),
            ram_us: us(l.cost.ram_ns),
            lru_us: us(l.cost.lru_ns),
            host_us: us(l.cost.host_ns),
            meta_us: us(l.cost.meta_ns),
        }
    }

    /// The scheme's RAM structures, the first `limit` entries of each plus those the last
    /// request touched (see [`crate::inspect`]). Read-only.
    pub fn inspect(&self, limit: usize) -> crate::inspect::Inspection {
        self.inspect_query(crate::inspect::InspectQuery::with_limit(limit))
    }

    /// The answer to a view's question (see [`crate::inspect::InspectQuery`]); the pages of
    /// the last request served become its `touched`. Read-only.
    pub fn inspect_query(&self, mut query: crate::inspect::InspectQuery) -> crate::inspect::Inspection {
        query.touched = match self.cursor.checked_sub(1).and_then(|i| self.workload.request(i)) {
            Some(r) => self.workload.pages_of(&r).collect(),
            None => Vec::new(),
        };
        let mut ins = self.ftl.inspect(&query);
        let block = query.block.filter(|&b| b < self.device.flash().blocks());
        ins.block = block.and_then(|b| self.ftl.block_duty(b, &self.device));
        ins.ram_budget = ftl::ram_budget(&self.config);
        if let Some(hook) = self.device.meta_hook() {
            ins.structures.extend(hook.structures(query.limit));
        }
        ins
    }

    /// Runs the generic and scheme invariant checks.
    pub fn check_invariants(&self) -> Result<()> {
        invariants::check(self.ftl.as_ref(), &self.device, &self.oracle)
    }

    /// Approximate memory of one copy of the mutable state (a checkpoint), in bytes: the
    /// flash array (13 bytes a page), the oracle and the scheme's tables (4 bytes a logical
    /// page each).
    pub fn approx_bytes(&self) -> u64 {
        Self::approx_bytes_of(&self.config)
    }

    /// [`Self::approx_bytes`] of a simulation of `config`, before building it.
    pub fn approx_bytes_of(config: &SimConfig) -> u64 {
        let device = &config.device;
        device.physical_pages().saturating_mul(13).saturating_add(device.logical_pages().saturating_mul(8))
    }

    /// Blocks with no page programmed (the free pool, and open blocks not written yet): one
    /// pass over the blocks, done once per series point.
    pub fn erased_blocks(&self) -> u64 {
        let flash = self.device.flash();
        (0..flash.blocks()).filter(|&b| flash.programmed_count(b) == 0).count() as u64
    }

    /// Requests served.
    pub fn cursor(&self) -> usize {
        self.cursor
    }

    /// Requests in the trace.
    pub fn total(&self) -> usize {
        self.workload.len()
    }

    /// True when the whole trace has been served.
    pub fn done(&self) -> bool {
        self.cursor >= self.workload.len()
    }

    /// The configuration.
    pub fn config(&self) -> &SimConfig {
        &self.config
    }

    /// The device (flash array, counters).
    pub fn device(&self) -> &Device {
        &self.device
    }

    /// Installs (or removes) the wrapper that charges the scheme's metadata accesses
    /// ([`crate::meta`]); a placement model (seed 003) sets it before stepping.
    pub fn set_meta_hook(&mut self, hook: Option<Box<dyn crate::meta::MetaHook>>) {
        self.device.set_meta_hook(hook);
    }

    /// The scheme.
    pub fn ftl(&self) -> &dyn Ftl {
        self.ftl.as_ref()
    }

    /// The integrity oracle.
    pub fn oracle(&self) -> &Oracle {
        &self.oracle
    }

    /// Distinct logical pages the trace touches.
    pub fn footprint(&self) -> u64 {
        self.workload.footprint()
    }

    /// What the host asked for so far (requests, pages, service-time parts).
    pub fn host(&self) -> &HostCounters {
        &self.host
    }

    /// Flash page programs per host page written (0 before any write).
    pub fn waf(&self) -> f64 {
        let programs = FlashCounters::total(&self.device.counters.page_writes);
        if self.host.pages_written == 0 {
            0.0
        } else {
            programs as f64 / self.host.pages_written as f64
        }
    }

    /// Mean response time so far (µs).
    pub fn mean_response_us(&self) -> f64 {
        self.response.mean_ns() / 1000.0
    }

    /// Simulated time at the last completion (µs).
    pub fn sim_time_us(&self) -> f64 {
        self.sim_time_ns as f64 / 1000.0
    }

    /// Response time of the last request served (ns).
    pub fn last_response_ns(&self) -> u64 {
        self.last_response_ns
    }

    /// Whether events are being recorded.
    pub fn recording(&self) -> bool {
        self.device.recording()
    }

    /// Turns event recording on or off (fast mode).
    pub fn set_recording(&mut self, on: bool) {
        self.device.set_recording(on);
    }

    /// Events recorded since the last call (empty in fast mode).
    pub fn take_events(&mut self) -> Vec<Event> {
        self.device.take_events()
    }

    /// [`Self::take_events`] with the RAM and LRU time charged between the events.
    pub fn take_events_costed(&mut self) -> (Vec<Event>, Vec<crate::events::EventCost>) {
        self.device.take_events_costed()
    }
}

mod prefill;
pub use prefill::{PrefillMethod, PrefillSummary};

mod readout;

mod verify;

#[cfg(test)]
mod tests;
