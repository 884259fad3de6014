//! The pre-fill: what is on the device before request 0, and the summary of what it did.
//! Split from `sim.rs`, which serves requests.

use super::Sim;
use crate::device::FlashCounters;
use crate::error::Result;
use crate::flash::{PageKind, PageState};
use crate::trace::HostOp;

/// How the pre-fill put its pages on the device.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PrefillMethod {
    /// Nothing was pre-filled.
    #[default]
    None,
    /// Laid out by the scheme directly ([`crate::ftl::Ftl::place_prefill`]): pages in LPN
    /// order, metadata written once, caches empty.
    Placed,
    /// Served as block-sized write requests through the scheme's request path, then flushed
    /// (`workload.warm_up`, or a scheme that does not place).
    Requests,
}

/// What the pre-fill did (`metrics.prefill`): read before request 0, all counted before the
/// counters were reset for the measurement.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct PrefillSummary {
    /// Logical pages written before request 0.
    pub pages: u64,
    /// How they were written.
    pub method: PrefillMethod,
    /// Whether `workload.warm_up` asked for the request path.
    pub warm_up: bool,
    /// Whether the scheme's caches or buffers start the measurement holding what the
    /// pre-fill left in them (only through the request path, on a scheme that has some).
    pub caches_warm: bool,
    /// Blocks holding programmed pages at request 0.
    pub blocks_used: u64,
    /// Data pages programmed (more than `pages` when the pre-fill collected garbage).
    pub data_pages_written: u64,
    /// Translation pages programmed (demand-paged schemes).
    pub translation_pages_written: u64,
    /// Pages left invalid at request 0 (superseded copies).
    pub invalid_pages: u64,
    /// Blocks erased by the pre-fill: counted in `erase_count` (the blocks' wear) and not in
    /// `flash.erases` (the run's), so `erase_count.mean × blocks = flash.erases + this`.
    pub erases: u64,
}

impl Sim {
    /// Writes what must be on the device before measurement: the first `utilization` share
    /// of the logical pages, then the pages the trace reads before writing them. Unless
    /// `workload.warm_up` asks for a warm start, the scheme places them directly (every scheme
    /// starts from the same layout, its caches empty); otherwise, or when the scheme does not
    /// place, they go through the request path and the scheme flushes. Counters and the clock
    /// are reset afterwards, so metrics cover the trace alone.
    pub(super) fn prefill(&mut self) -> Result<()> {
        let logical = self.oracle.logical_pages();
        let upto = (self.config.device.utilization * logical as f64).floor() as u32;
        let mut lpns: Vec<u32> = (0..upto).collect();
        if self.config.workload.prefill_read_pages {
            lpns.extend(self.workload.read_before_write(logical).into_iter().filter(|&l| l >= upto));
        }
        let warm_up = self.config.workload.warm_up;
        self.prefill_summary = PrefillSummary { warm_up, ..PrefillSummary::default() };
        if lpns.is_empty() {
            return Ok(());
        }
        // A warm start keeps the order the pre-fill always had (the trace's first reads);
        // a placement is in LPN order, block after block.
        if !warm_up {
            lpns.sort_unstable();
        }
        let pages: Vec<(u32, u32)> =
            lpns.iter().map(|&lpn| self.oracle.write(lpn).map(|v| (lpn, v))).collect::<Result<_>>()?;
        let placed = !warm_up && {
            self.device.begin_request(0);
            let placed = self.ftl.place_prefill(&pages, &mut self.device)?;
            self.device.end_request();
            placed
        };
        if !placed {
            self.prefill_requests(&pages)?;
        }
        let has_caches = crate::ftl::spec(&self.config.scheme).is_ok_and(|s| !s.caches.is_empty());
        self.prefill_summary = self.summarize_prefill(pages.len() as u64, placed, !placed && has_caches);
        self.device.reset_counters();
        Ok(())
    }

    /// Serves `pages` through the scheme's request path (its request hooks see them), as
    /// block-sized write requests; then the scheme flushes what it holds only in RAM, so the
    /// measured run starts from a device whose state is on flash (no pre-fill write-backs
    /// billed to the trace).
    fn prefill_requests(&mut self, pages: &[(u32, u32)]) -> Result<()> {
        let chunk = self.config.device.pages_per_block as usize;
        for chunk in pages.chunks(chunk) {
            let lpns: Vec<u32> = chunk.iter().map(|&(lpn, _)| lpn).collect();
            self.device.begin_request(0);
            self.ftl.begin_request(HostOp::Write, &lpns, &mut self.device)?;
            for &(lpn, v) in chunk {
                self.ftl.write(lpn, v, &mut self.device)?;
            }
            self.ftl.end_request(&mut self.device)?;
            self.device.end_request();
        }
        self.device.begin_request(0);
        self.ftl.flush(&mut self.device)?;
        self.device.end_request();
        Ok(())
    }

    /// The summary of a pre-fill of `pages` pages, from the counters and the flash array
    /// before the counters are reset.
    fn summarize_prefill(&self, pages: u64, placed: bool, caches_warm: bool) -> PrefillSummary {
        let c = &self.device.counters;
        let flash = self.device.flash();
        let written = |k: PageKind| FlashCounters::total(&c.by_kind[k as usize].page_writes);
        PrefillSummary {
            pages,
            method: if placed { PrefillMethod::Placed } else { PrefillMethod::Requests },
            warm_up: self.config.workload.warm_up,
            caches_warm,
            blocks_used: (0..flash.blocks()).filter(|&b| flash.programmed_count(b) > 0).count() as u64,
            data_pages_written: written(PageKind::Data),
            translation_pages_written: written(PageKind::Translation),
            invalid_pages: flash.states().filter(|&s| s == PageState::Invalid).count() as u64,
            erases: FlashCounters::total(&c.erases),
        }
    }

    /// What the pre-fill did.
    pub fn prefill_summary(&self) -> &PrefillSummary {
        &self.prefill_summary
    }
}
