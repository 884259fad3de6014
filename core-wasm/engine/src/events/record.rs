//! Fixed-width binary event records: the layout table is in the parent module's docs.

use super::{CacheLevel, Event, EventCost, HostOp, MergeCause, MergeKind, Purpose};
use crate::error::{EngineError, Result};
use crate::events::CACHE_LEVELS;
use crate::ids::PageKind;

/// `u32` words per record.
pub const EVENT_WORDS: usize = 8;

/// A merge's data-block word when the logical block had no data block.
pub const NO_BLOCK: u32 = u32::MAX;

/// Kind ids by code (a record's first word).
pub const KINDS: [&str; 14] = [
    "request",
    "flash_read",
    "oob_read",
    "flash_program",
    "invalidate",
    "erase",
    "gc_start",
    "gc_end",
    "cache_hit",
    "cache_miss",
    "cache_insert",
    "cache_evict",
    "merge",
    "cost",
];

/// The `cost` record's kind code.
pub const COST: u32 = 13;

/// [`encode`] with a `cost` record after each event that RAM or LRU time was charged after
/// (`costs` in increasing `after`, as [`crate::device::Device::take_events_costed`] gives).
pub fn encode_costed(events: &[Event], costs: &[EventCost], out: &mut Vec<u32>) {
    let mut c = costs.iter().peekable();
    let mut costs_at = |n: usize, out: &mut Vec<u32>| {
        while let Some(k) = c.next_if(|k| k.after as usize <= n) {
            let (rl, rh) = split(k.ram_ns);
            let (ll, lh) = split(k.lru_ns);
            out.extend_from_slice(&[COST, rl, rh, ll, lh, 0, 0, 0]);
        }
    };
    costs_at(0, out);
    for (i, e) in events.iter().enumerate() {
        encode(std::slice::from_ref(e), out);
        costs_at(i + 1, out);
    }
    costs_at(usize::MAX, out);
}

fn split(v: u64) -> (u32, u32) {
    (v as u32, (v >> 32) as u32)
}

fn page_word(page: u32, purpose: Purpose, kind: PageKind) -> u32 {
    page | (purpose as u32) << 16 | (kind as u32) << 24
}

/// Appends the records of `events` to `out`.
pub fn encode(events: &[Event], out: &mut Vec<u32>) {
    out.reserve(events.len() * EVENT_WORDS);
    for e in events {
        let r: [u32; EVENT_WORDS] = match *e {
            Event::Request { index, op, lpn, pages } => {
                let (lo, hi) = split(index);
                [0, lo, hi, op as u32, lpn, pages, 0, 0]
            }
            Event::FlashRead { ppn, block, page, purpose, key, ns } => {
                let (lo, hi) = split(ns);
                [1, ppn, block, page_word(page, purpose, PageKind::None), key, 0, lo, hi]
            }
            Event::OobRead { ppn, block, page, purpose, ns } => {
                let (lo, hi) = split(ns);
                [2, ppn, block, page_word(page, purpose, PageKind::None), 0, 0, lo, hi]
            }
            Event::FlashProgram { ppn, block, page, purpose, kind, key, version, ns } => {
                let (lo, hi) = split(ns);
                [3, ppn, block, page_word(page, purpose, kind), key, version, lo, hi]
            }
            Event::Invalidate { ppn } => [4, ppn, 0, 0, 0, 0, 0, 0],
            Event::Erase { block, purpose, ns } => {
                let (lo, hi) = split(ns);
                [5, block, purpose as u32, 0, 0, 0, lo, hi]
            }
            Event::GcStart { victim, valid } => [6, victim, valid, 0, 0, 0, 0, 0],
            Event::GcEnd { victim } => [7, victim, 0, 0, 0, 0, 0, 0],
            Event::CacheHit { level, key } => [8, level as u32, key, 0, 0, 0, 0, 0],
            Event::CacheMiss { level, key } => [9, level as u32, key, 0, 0, 0, 0, 0],
            Event::CacheInsert { level, key, bytes } => [10, level as u32, key, bytes, 0, 0, 0, 0],
            Event::CacheEvict { level, key, dirty, bytes } => {
                [11, level as u32, key, bytes, dirty as u32, 0, 0, 0]
            }
            Event::Merge { kind, lbn, data_block, log_block, result_block, cause, written, degree } => {
                let a = kind as u32 | (cause as u32) << 8;
                [12, a, lbn, data_block.unwrap_or(NO_BLOCK), log_block, result_block, written, degree]
            }
        };
        out.extend_from_slice(&r);
    }
}

fn bad(what: &str, v: u32) -> EngineError {
    EngineError::Invariant(format!("event record: bad {what} {v}"))
}

fn purpose(v: u32) -> Result<Purpose> {
    Purpose::ALL.get(v as usize).copied().ok_or_else(|| bad("purpose", v))
}

fn level(v: u32) -> Result<CacheLevel> {
    CACHE_LEVELS.get(v as usize).map(|l| l.0).ok_or_else(|| bad("cache level", v))
}

/// Reads records back into events (the inverse of [`encode`]; `cost` records, which are no
/// events, are skipped).
pub fn decode(words: &[u32]) -> Result<Vec<Event>> {
    if !words.len().is_multiple_of(EVENT_WORDS) {
        return Err(bad("length", words.len() as u32));
    }
    let join = |lo: u32, hi: u32| u64::from(lo) | u64::from(hi) << 32;
    words
        .chunks_exact(EVENT_WORDS)
        .filter(|r| r[0] != COST)
        .map(|r| {
            let [kind, a, b, c, d, e, f, g] = [r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7]];
            let (page, purp) = (c & 0xffff, (c >> 16) & 0xff);
            Ok(match kind {
                0 => {
                    let op = [HostOp::Read, HostOp::Write, HostOp::Trim].get(c as usize).copied();
                    Event::Request {
                        index: join(a, b),
                        op: op.ok_or_else(|| bad("op", c))?,
                        lpn: d,
                        pages: e,
                    }
                }
                1 => Event::FlashRead {
                    ppn: a,
                    block: b,
                    page,
                    purpose: purpose(purp)?,
                    key: d,
                    ns: join(f, g),
                },
                2 => Event::OobRead { ppn: a, block: b, page, purpose: purpose(purp)?, ns: join(f, g) },
                3 => {
                    let k = PageKind::ALL.get((c >> 24) as usize);
                    Event::FlashProgram {
                        ppn: a,
                        block: b,
                        page,
                        purpose: purpose(purp)?,
                        kind: *k.ok_or_else(|| bad("page kind", c >> 24))?,
                        key: d,
                        version: e,
                        ns: join(f, g),
                    }
                }
                4 => Event::Invalidate { ppn: a },
                5 => Event::Erase { block: a, purpose: purpose(b)?, ns: join(f, g) },
                6 => Event::GcStart { victim: a, valid: b },
                7 => Event::GcEnd { victim: a },
                8 => Event::CacheHit { level: level(a)?, key: b },
                9 => Event::CacheMiss { level: level(a)?, key: b },
                10 => Event::CacheInsert { level: level(a)?, key: b, bytes: c },
                11 => Event::CacheEvict { level: level(a)?, key: b, bytes: c, dirty: d != 0 },
                12 => {
                    let k = [MergeKind::Switch, MergeKind::Partial, MergeKind::Full].get((a & 0xff) as usize);
                    let cause = MergeCause::ALL.get((a >> 8) as usize);
                    Event::Merge {
                        kind: *k.ok_or_else(|| bad("merge kind", a & 0xff))?,
                        lbn: b,
                        data_block: (c != NO_BLOCK).then_some(c),
                        log_block: d,
                        result_block: e,
                        cause: *cause.ok_or_else(|| bad("merge cause", a >> 8))?,
                        written: f,
                        degree: g,
                    }
                }
                other => return Err(bad("kind", other)),
            })
        })
        .collect()
}
