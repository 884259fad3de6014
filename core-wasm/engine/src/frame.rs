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
        Frame {
            page_states,
            block_roles,
            valid_counts: flash.valid_counts().to_vec(),
            erase_counts: flash.erase_counts().to_vec(),
            counters: Frame::counters(sim),
        }
    }

    /// The values of [`COUNTER_NAMES`] for `sim` now.
    pub fn counters(sim: &Sim) -> Vec<f64> {
        let dev = sim.device();
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
        counters
    }
}

/// Reads frames piecewise, for a caller that keeps its own copy of the last frame it read
/// (the web worker): after a whole frame, only the blocks the caller names (those its events
/// say were touched: programs, invalidations and erases are every way a page, a valid count
/// or an erase count changes) and every block whose role changed. A role is the scheme's own
/// state (which block is open, in a GC queue, a log block), so no event need announce it: the
/// roles are compared here, in wasm, which costs a role lookup a block but copies nothing
/// (in the shipped schemes' test runs every role change came with an event on its block).
/// On the paper's device a whole frame is 19 MB; a step's changes are a few hundred blocks.
#[derive(Debug, Default)]
pub struct FrameReader {
    /// Block roles at the last read; `None` before one, or after the state moved in a way
    /// no event told (a seek, dropped events): then every block is a change.
    roles: Option<Vec<u8>>,
    /// The last change list, packed as [`FrameReader::changes`] says.
    packed: Vec<u8>,
}

impl FrameReader {
    /// A reader with no baseline: its first change list holds every block.
    pub fn new() -> Self {
        FrameReader::default()
    }

    /// The whole frame; it becomes the baseline of the next change list.
    pub fn whole(&mut self, sim: &Sim) -> Frame {
        let f = Frame::capture(sim);
        self.roles = Some(f.block_roles.clone());
        f
    }

    /// The last change list (as [`FrameReader::changes`] returned it).
    pub fn packed(&self) -> &[u8] {
        &self.packed
    }

    /// Forgets the baseline: the state moved without events naming what changed.
    pub fn forget(&mut self) {
        self.roles = None;
    }

    /// The blocks that changed since the last read: `touched` (blocks the events since
    /// then name, any order, repeats allowed) and every block whose role changed, in
    /// increasing order, packed little-endian in one buffer: `n` block numbers, their valid
    /// counts and erase counts (u32 each), their roles (u8), then their pages (`n` ×
    /// pages per block state bytes, as [`Frame::page_states`]). With no baseline, every
    /// block. The state read becomes the baseline.
    pub fn changes(&mut self, sim: &Sim, touched: &[u32]) -> Result<&[u8], String> {
        let dev = sim.device();
        let flash = dev.flash();
        let blocks = flash.blocks();
        if let Some(&b) = touched.iter().find(|&&b| b >= blocks) {
            return Err(format!(
                "frame changes: block {b} named as touched, but the device has {blocks} blocks"
            ));
        }
        let mut mark = vec![false; blocks as usize];
        let roles = self.roles.get_or_insert_with(|| vec![u8::MAX; blocks as usize]);
        for b in 0..blocks {
            let role = sim.ftl().block_role(b, dev) as u8;
            if roles[b as usize] != role {
                roles[b as usize] = role;
                mark[b as usize] = true;
            }
        }
        for &b in touched {
            mark[b as usize] = true;
        }
        let changed: Vec<u32> = (0..blocks).filter(|&b| mark[b as usize]).collect();
        let ppb = flash.pages_per_block();
        let n = changed.len();
        let out = &mut self.packed;
        out.clear();
        out.reserve(n * (13 + ppb as usize));
        let words = |f: &dyn Fn(u32) -> u32, out: &mut Vec<u8>| {
            changed.iter().for_each(|&b| out.extend_from_slice(&f(b).to_le_bytes()));
        };
        words(&|b| b, out);
        words(&|b| flash.valid_counts()[b as usize], out);
        words(&|b| flash.erase_counts()[b as usize], out);
        out.extend(changed.iter().map(|&b| roles[b as usize]));
        for &b in &changed {
            out.extend((b * ppb..(b + 1) * ppb).map(|p| flash.state(p) as u8));
        }
        Ok(out)
    }
}
