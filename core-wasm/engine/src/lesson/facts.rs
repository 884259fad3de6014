//! What happened in the request a lesson stop shows, read from the engine's events.

use serde::Serialize;

use crate::error::Result;
use crate::events::{CacheLevel, Event, MergeKind, Purpose};
use crate::sim::Sim;
use crate::trace::HostOp;

/// The request on screen at a stop, as the engine served it. Counts cover the operations
/// shown (the first `shown_ops` of the request); `prunes` and `waf` are of the whole request.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[allow(missing_docs)] // grouped fields share the doc comment above them
pub struct StopFacts {
    /// The request's index in the trace (0-based).
    pub request: u64,
    /// Its number as the timeline counts (1-based: "request 10" is index 9).
    pub number: u64,
    /// `read`, `write` or `trim`.
    pub op: &'static str,
    /// First logical page and page count.
    pub lpn: u32,
    pub pages: u32,
    /// Operations (events after the request marker) of the whole request, and those shown.
    pub ops: u32,
    pub shown_ops: u32,
    /// First GC victim block, every victim, and the valid pages they held when picked.
    pub gc_victim: Option<u32>,
    pub gc_victims: Vec<u32>,
    pub gc_valid: u32,
    /// Valid-page copies (programs for GC or a merge).
    pub copies: u32,
    /// Erases, page programs and page reads of any purpose.
    pub erases: u32,
    pub programs: u32,
    pub reads: u32,
    /// Host-data programs, and the block the first of them went to.
    pub data_programs: u32,
    pub data_block: Option<u32>,
    /// Translation-page reads and programs.
    pub translation_reads: u32,
    pub translation_programs: u32,
    /// Programs of HCFTL's dynamic translation pages, and cache inserts (entries loaded).
    pub dtp_programs: u32,
    pub inserts: u32,
    /// Spare-area-only reads.
    pub oob_reads: u32,
    /// The first mapping lookup: `hit` or `miss` in the entry cache (CMT), else in the
    /// cached translation pages (TreeFTL's CTPs); absent when the request looked nothing up.
    pub cmt: Option<&'static str>,
    /// The key (LPN or translation-page number) of that lookup.
    pub cmt_key: Option<u32>,
    /// Cache lookups by outcome, every level.
    pub cache_hits: u32,
    pub cache_misses: u32,
    /// Cache evictions, and those that had to be written back.
    pub evictions: u32,
    pub dirty_evictions: u32,
    /// First merge's kind, logical block, log block and association degree; every kind.
    pub merge: Option<&'static str>,
    pub merge_lbn: Option<u32>,
    pub merge_log_block: Option<u32>,
    pub merge_degree: Option<u32>,
    pub merges: Vec<&'static str>,
    /// RAM prunes during the whole request (TreeFTL's caching groups, …).
    pub prunes: u64,
    /// The whole request's response time and its wait in the queue (µs, one decimal).
    pub response_us: f64,
    pub queue_us: f64,
    /// Response minus queueing: the time the device spent on it (µs, one decimal).
    pub service_us: f64,
    /// Pages the host has written and pages the flash has programmed, over the run up to
    /// the end of the request (their ratio is `waf`).
    pub host_pages: u64,
    pub flash_programs: u64,
    /// Write amplification after the whole request, to two decimals.
    pub waf: f64,
    /// The scheme's worst-case response bound (µs; RFTL's and GFTL's L(p)), absent for a
    /// scheme without one.
    pub bound_us: Option<f64>,
}

/// Stable name of a host operation.
pub(crate) fn op_name(op: HostOp) -> &'static str {
    match op {
        HostOp::Read => "read",
        HostOp::Write => "write",
        HostOp::Trim => "trim",
    }
}

/// Stable name of a merge kind.
pub(crate) fn merge_name(kind: MergeKind) -> &'static str {
    match kind {
        MergeKind::Switch => "switch",
        MergeKind::Partial => "partial",
        MergeKind::Full => "full",
    }
}

/// A cache lookup the questions and facts call "the mapping lookup": the entry cache, or
/// whole translation pages for schemes that cache those (TreeFTL).
pub(crate) fn mapping_lookup(e: &Event) -> Option<(bool, u32, CacheLevel)> {
    match *e {
        Event::CacheHit { level, key } => Some((true, key, level)),
        Event::CacheMiss { level, key } => Some((false, key, level)),
        _ => None,
    }
    .filter(|&(_, _, level)| matches!(level, CacheLevel::Entry | CacheLevel::TranslationPage))
}

/// The request marker of one request's events and the operations after it. Work done before
/// the marker (idle-time work between arrivals) is not the request's, as in the app's timeline.
pub(crate) fn split_request(events: &[Event]) -> Option<(u64, HostOp, u32, u32, &[Event])> {
    let at = events.iter().position(|e| matches!(e, Event::Request { .. }))?;
    match events[at] {
        Event::Request { index, op, lpn, pages } => Some((index, op, lpn, pages, &events[at + 1..])),
        _ => None,
    }
}

/// Serves one request from a copy of `sim` with events recorded; returns the copy after it,
/// the events (the request marker first) and the RAM prunes it made.
pub(crate) fn serve_one(sim: &Sim) -> Result<(Sim, Vec<Event>, u64)> {
    let mut s = sim.clone();
    // Events the original recorded but nobody took yet belong to an earlier request.
    s.take_events();
    s.set_recording(true);
    let prunes = s.device().stats.prunes;
    s.step(1)?;
    let events = s.take_events();
    let prunes = s.device().stats.prunes - prunes;
    Ok((s, events, prunes))
}

/// The facts of the request `sim` serves next (at `sim.cursor()`), counting its first
/// `shown` operations (all when `None`). `None` at the end of the trace.
pub fn stop_facts(sim: &Sim, shown: Option<u32>) -> Result<Option<StopFacts>> {
    if sim.done() {
        return Ok(None);
    }
    let (after, events, prunes) = serve_one(sim)?;
    let Some((index, op, lpn, pages, ops)) = split_request(&events) else {
        return Ok(None);
    };
    let mut f = StopFacts {
        request: index,
        number: index + 1,
        op: op_name(op),
        lpn,
        pages,
        ops: ops.len() as u32,
        prunes,
        waf: (after.waf() * 100.0).round() / 100.0,
        bound_us: after.ftl().response_bound_us(),
        host_pages: after.host().pages_written,
        flash_programs: crate::device::FlashCounters::total(&after.device().counters.page_writes),
        response_us: (after.last_request().response_us * 10.0).round() / 10.0,
        queue_us: (after.last_request().queue_us * 10.0).round() / 10.0,
        service_us: ((after.last_request().response_us - after.last_request().queue_us) * 10.0).round()
            / 10.0,
        ..StopFacts::default()
    };
    let shown = shown.map_or(ops.len(), |k| (k as usize).min(ops.len()));
    f.shown_ops = shown as u32;
    for e in &ops[..shown] {
        count(&mut f, e);
    }
    Ok(Some(f))
}

fn count(f: &mut StopFacts, e: &Event) {
    if let Some((hit, key, _)) = mapping_lookup(e) {
        if f.cmt.is_none() {
            f.cmt = Some(if hit { "hit" } else { "miss" });
            f.cmt_key = Some(key);
        }
    }
    match *e {
        Event::FlashRead { purpose, .. } => {
            f.reads += 1;
            f.translation_reads += u32::from(purpose == Purpose::Translation);
        }
        Event::OobRead { .. } => f.oob_reads += 1,
        Event::FlashProgram { purpose, kind, block, .. } => {
            f.programs += 1;
            if purpose == Purpose::Data {
                f.data_block.get_or_insert(block);
            }
            f.dtp_programs += u32::from(kind == crate::flash::PageKind::Dtp);
            f.copies += u32::from(matches!(purpose, Purpose::Gc | Purpose::Merge));
            f.data_programs += u32::from(purpose == Purpose::Data);
            f.translation_programs += u32::from(purpose == Purpose::Translation);
        }
        Event::Erase { .. } => f.erases += 1,
        Event::GcStart { victim, valid } => {
            f.gc_victim.get_or_insert(victim);
            f.gc_victims.push(victim);
            f.gc_valid += valid;
        }
        Event::CacheHit { .. } => f.cache_hits += 1,
        Event::CacheMiss { .. } => f.cache_misses += 1,
        Event::CacheInsert { .. } => f.inserts += 1,
        Event::CacheEvict { dirty, .. } => {
            f.evictions += 1;
            f.dirty_evictions += u32::from(dirty);
        }
        Event::Merge { kind, lbn, log_block, degree, .. } => {
            if f.merge.is_none() {
                f.merge = Some(merge_name(kind));
                f.merge_lbn = Some(lbn);
                f.merge_log_block = Some(log_block);
                f.merge_degree = Some(degree);
            }
            f.merges.push(merge_name(kind));
        }
        _ => {}
    }
}
