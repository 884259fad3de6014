//! The device as schemes see it: the flash array plus cost accounting, counters and events.
//! Every flash operation of every scheme goes through here, so time, counters and the event
//! stream come from one code path.

use crate::config::Latencies;
use crate::error::Result;
use crate::events::{Event, Purpose};
use crate::flash::{BlockId, FlashArray, PageTag, Ppn};

/// Flash operation counts, one row per [`Purpose`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FlashCounters {
    /// Page reads per purpose.
    pub page_reads: [u64; 6],
    /// Page programs per purpose.
    pub page_writes: [u64; 6],
    /// OOB-only reads per purpose.
    pub oob_reads: [u64; 6],
    /// Block erases per purpose.
    pub erases: [u64; 6],
}

impl FlashCounters {
    /// Sum over purposes.
    pub fn total(row: &[u64; 6]) -> u64 {
        row.iter().sum()
    }
}

/// Scheme-level counters: garbage collection, merges and cache hit rates.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SchemeCounters {
    /// GC runs (victims collected).
    pub gc_runs: u64,
    /// Valid pages copied by GC.
    pub gc_valid_copies: u64,
    /// Merges by kind: switch, partial, full.
    pub merges: [u64; 3],
    /// Mapping-cache hits and misses.
    pub mapping_hits: u64,
    /// Mapping-cache misses.
    pub mapping_misses: u64,
    /// Data-buffer hits.
    pub buffer_hits: u64,
    /// Data-buffer misses.
    pub buffer_misses: u64,
}

/// Simulated time spent on the current request, split by where it went.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RequestCost {
    /// Flash time per purpose (ns).
    pub flash_ns: [u64; 6],
    /// RAM table / buffer accesses (ns).
    pub ram_ns: u64,
    /// Cache management: searches and LRU updates (ns).
    pub lru_ns: u64,
}

impl RequestCost {
    /// Total service time (ns).
    pub fn total_ns(&self) -> u64 {
        self.flash_ns.iter().sum::<u64>() + self.ram_ns + self.lru_ns
    }
}

/// Flash array + accounting.
#[derive(Debug, Clone)]
pub struct Device {
    /// The array itself (read-only access for schemes; mutate through the methods below).
    pub flash: FlashArray,
    latency: Latencies,
    /// Totals since the start of measurement.
    pub counters: FlashCounters,
    /// GC, merge and cache counters since the start of measurement.
    pub stats: SchemeCounters,
    /// The most recent GC victim (for views); survives counter resets.
    pub last_victim: Option<BlockId>,
    /// Cost of the request being served.
    pub cost: RequestCost,
    events: Option<Vec<Event>>,
}

impl Device {
    /// A fresh device; `record_events` turns the event stream on.
    pub fn new(flash: FlashArray, latency: Latencies, record_events: bool) -> Self {
        Device {
            flash,
            latency,
            counters: FlashCounters::default(),
            stats: SchemeCounters::default(),
            last_victim: None,
            cost: RequestCost::default(),
            events: record_events.then(Vec::new),
        }
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
        self.events.as_mut().map(std::mem::take).unwrap_or_default()
    }

    /// Whether events are being recorded.
    pub fn recording(&self) -> bool {
        self.events.is_some()
    }

    fn charge(&mut self, purpose: Purpose, ns: u64) {
        self.cost.flash_ns[purpose as usize] += ns;
    }

    /// Reads a page (array read + bus transfer).
    pub fn read(&mut self, ppn: Ppn, purpose: Purpose) -> Result<PageTag> {
        let tag = self.flash.read(ppn)?;
        let ns = self.latency.page_read_ns + self.latency.transfer_ns_per_page;
        self.charge(purpose, ns);
        self.counters.page_reads[purpose as usize] += 1;
        let ppb = self.flash.pages_per_block();
        self.emit(|| Event::FlashRead { ppn, block: ppn / ppb, page: ppn % ppb, purpose, key: tag.key, ns });
        Ok(tag)
    }

    /// Reads only a page's spare area.
    pub fn read_oob(&mut self, ppn: Ppn, purpose: Purpose) -> Result<PageTag> {
        let tag = self.flash.read(ppn)?;
        let ns = self.latency.oob_read_ns;
        self.charge(purpose, ns);
        self.counters.oob_reads[purpose as usize] += 1;
        let ppb = self.flash.pages_per_block();
        self.emit(|| Event::OobRead { ppn, block: ppn / ppb, page: ppn % ppb, purpose, ns });
        Ok(tag)
    }

    /// Programs a page (bus transfer + program).
    pub fn program(&mut self, ppn: Ppn, tag: PageTag, purpose: Purpose) -> Result<()> {
        self.flash.program(ppn, tag)?;
        let ns = self.latency.program_ns + self.latency.transfer_ns_per_page;
        self.charge(purpose, ns);
        self.counters.page_writes[purpose as usize] += 1;
        let ppb = self.flash.pages_per_block();
        self.emit(|| Event::FlashProgram {
            ppn,
            block: ppn / ppb,
            page: ppn % ppb,
            purpose,
            kind: tag.kind,
            key: tag.key,
            version: tag.version,
            ns,
        });
        Ok(())
    }

    /// Marks a page invalid (a RAM-side bookkeeping change; no flash time).
    pub fn invalidate(&mut self, ppn: Ppn) -> Result<()> {
        self.flash.invalidate(ppn)?;
        self.emit(|| Event::Invalidate { ppn });
        Ok(())
    }

    /// Erases a block.
    pub fn erase(&mut self, block: BlockId, purpose: Purpose) -> Result<()> {
        self.flash.erase(block)?;
        let ns = self.latency.erase_ns;
        self.charge(purpose, ns);
        self.counters.erases[purpose as usize] += 1;
        self.emit(|| Event::Erase { block, purpose, ns });
        Ok(())
    }

    /// Marks the start of collecting `victim` (holding `valid` valid pages).
    pub fn gc_start(&mut self, victim: BlockId) {
        let valid = self.flash.valid_count(victim);
        self.stats.gc_runs += 1;
        self.last_victim = Some(victim);
        self.emit(|| Event::GcStart { victim, valid });
    }

    /// Counts one valid page moved by GC.
    pub fn gc_copied(&mut self) {
        self.stats.gc_valid_copies += 1;
    }

    /// Marks the end of collecting `victim`.
    pub fn gc_end(&mut self, victim: BlockId) {
        self.emit(|| Event::GcEnd { victim });
    }

    /// Clears all counters (used after pre-filling, before measurement starts).
    pub fn reset_counters(&mut self) {
        self.counters = FlashCounters::default();
        self.stats = SchemeCounters::default();
        self.cost = RequestCost::default();
        self.take_events();
    }

    /// Charges `n` RAM accesses.
    pub fn ram(&mut self, n: u64) {
        self.cost.ram_ns += n * self.latency.ram_access_ns;
    }

    /// Charges `n` cache-management operations.
    pub fn cache_ops(&mut self, n: u64) {
        self.cost.lru_ns += n * self.latency.cache_op_ns;
    }
}
