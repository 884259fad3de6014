//! Per-frame snapshots for the views: flat struct-of-arrays buffers, cheap to copy across
//! the wasm boundary and to transfer between threads.

use crate::device::FlashCounters;
use crate::sim::Sim;

/// Names of [`Frame::counters`], in order. The web app reads this list from the engine, so
/// this is the one place the layout is defined.
pub const COUNTER_NAMES: &[&str] = &[
    "requests_done",
    "requests_total",
    "reads",
    "writes",
    "trims",
    "pages_read",
    "pages_written",
    "flash_page_reads",
    "flash_page_writes",
    "flash_oob_reads",
    "flash_erases",
    "gc_runs",
    "gc_valid_copies",
    "waf",
    "integrity_errors",
    "sim_time_us",
    "response_mean_us",
    "last_response_us",
    "last_gc_victim",
    "ram_bytes",
];

/// The state the views draw.
#[derive(Debug, Clone, PartialEq)]
pub struct Frame {
    /// One byte per physical page, block-major: 0 free, 1 valid, 2 invalid.
    pub page_states: Vec<u8>,
    /// One byte per block: [`crate::ftl::BlockRole`].
    pub block_roles: Vec<u8>,
    /// Valid pages per block.
    pub valid_counts: Vec<u32>,
    /// Erase count per block.
    pub erase_counts: Vec<u32>,
    /// Counters named by [`COUNTER_NAMES`].
    pub counters: Vec<f64>,
}

impl Frame {
    /// Captures `sim`'s current state.
    pub fn capture(sim: &Sim) -> Frame {
        let dev = sim.device();
        let flash = dev.flash();
        let page_states = flash.states().map(|s| s as u8).collect();
        let block_roles = (0..flash.blocks()).map(|b| sim.ftl().block_role(b, dev) as u8).collect();
        // Read the counters directly: this runs every animation frame, and `Sim::metrics`
        // builds the whole report (config JSON, percentiles) that a frame does not show.
        let host = sim.host();
        let c = &dev.counters;
        let counters = vec![
            sim.cursor() as f64,
            sim.total() as f64,
            host.reads as f64,
            host.writes as f64,
            host.trims as f64,
            host.pages_read as f64,
            host.pages_written as f64,
            FlashCounters::total(&c.page_reads) as f64,
            FlashCounters::total(&c.page_writes) as f64,
            FlashCounters::total(&c.oob_reads) as f64,
            FlashCounters::total(&c.erases) as f64,
            dev.stats.gc_runs as f64,
            dev.stats.gc_valid_copies as f64,
            sim.waf(),
            sim.oracle().errors() as f64,
            sim.sim_time_us(),
            sim.mean_response_us(),
            sim.last_response_ns() as f64 / 1000.0,
            dev.last_victim.map_or(-1.0, f64::from),
            sim.ftl().ram_bytes() as f64,
        ];
        debug_assert_eq!(counters.len(), COUNTER_NAMES.len());
        Frame {
            page_states,
            block_roles,
            valid_counts: flash.valid_counts().to_vec(),
            erase_counts: flash.erase_counts().to_vec(),
            counters,
        }
    }
}
