//! The pre-fill: what is on the device before request 0, and the summary of what it did.
//! Split from `sim/mod.rs`, which serves requests.

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
        // Beyond `0..upto`, only the trace's pages (bounded by the trace, not the device): the
        // pre-filled pages themselves are never held in a list, so a large device's pre-fill
        // costs no memory beyond the device's own state.
        let mut extra: Vec<u32> = if self.config.workload.prefill_read_pages {
            self.workload.read_before_write(logical).into_iter().filter(|&l| l >= upto).collect()
        } else {
            Vec::new()
        };
        let warm_up = self.config.workload.warm_up;
        self.prefill_summary = PrefillSummary { warm_up, ..PrefillSummary::default() };
        if upto == 0 && extra.is_empty() {
            return Ok(());
        }
        // A warm start keeps the order the pre-fill always had (the trace's first reads);
        // a placement is in LPN order, block after block (`0..upto` is already).
        if !warm_up {
            extra.sort_unstable();
        }
        let mut pages =
            Stamped { lpns: (0..upto).chain(extra), oracle: &mut self.oracle, failed: None, count: 0 };
        let placed = !warm_up && {
            self.device.begin_request(0);
            let placed = self.ftl.place_prefill(&mut pages, &mut self.device);
            self.device.end_request();
            placed?
        };
        if !placed {
            if pages.count > 0 {
                return Err(crate::error::EngineError::Invariant(format!(
                    "{}: declined to place the pre-fill after taking {} of its pages",
                    self.config.scheme, pages.count
                )));
            }
            Self::prefill_requests(
                self.ftl.as_mut(),
                &mut self.device,
                &mut pages,
                self.config.device.pages_per_block as usize,
            )?;
        }
        if let Some(e) = pages.failed.take() {
            return Err(e);
        }
        let count = pages.count;
        let has_caches = crate::ftl::spec(&self.config.scheme).is_ok_and(|s| !s.caches.is_empty());
        self.prefill_summary = self.summarize_prefill(count, placed, !placed && has_caches);
        self.device.reset_counters();
        Ok(())
    }

    /// Serves `pages` through the scheme's request path (its request hooks see them), as
    /// block-sized write requests; then the scheme flushes what it holds only in RAM, so the
    /// measured run starts from a device whose state is on flash (no pre-fill write-backs
    /// billed to the trace).
    fn prefill_requests(
        ftl: &mut dyn crate::ftl::Ftl,
        device: &mut crate::device::Device,
        pages: &mut dyn Iterator<Item = (u32, u32)>,
        chunk: usize,
    ) -> Result<()> {
        let mut batch: Vec<(u32, u32)> = Vec::with_capacity(chunk);
        let mut lpns: Vec<u32> = Vec::with_capacity(chunk);
        loop {
            batch.clear();
            batch.extend((&mut *pages).take(chunk));
            if batch.is_empty() {
                break;
            }
            lpns.clear();
            lpns.extend(batch.iter().map(|&(lpn, _)| lpn));
            device.begin_request(0);
            ftl.begin_request(HostOp::Write, &lpns, device)?;
            for &(lpn, v) in &batch {
                ftl.write(lpn, v, device)?;
            }
            ftl.end_request(device)?;
            device.end_request();
        }
        device.begin_request(0);
        ftl.flush(device)?;
        device.end_request();
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

/// The pre-filled pages with their version stamps, taken from the oracle one at a time as
/// the scheme consumes them (`(lpn, version)`); the first oracle refusal ends the pages and is
/// kept in `failed`.
struct Stamped<'a, I> {
    lpns: I,
    oracle: &'a mut crate::oracle::Oracle,
    failed: Option<crate::error::EngineError>,
    count: u64,
}

impl<I: Iterator<Item = u32>> Iterator for Stamped<'_, I> {
    type Item = (u32, u32);

    fn next(&mut self) -> Option<(u32, u32)> {
        if self.failed.is_some() {
            return None;
        }
        let lpn = self.lpns.next()?;
        match self.oracle.write(lpn) {
            Ok(v) => {
                self.count += 1;
                Some((lpn, v))
            }
            Err(e) => {
                self.failed = Some(e);
                None
            }
        }
    }
}
