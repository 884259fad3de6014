//! The requests near the simulation's cursor, each decoded once: the one being served and
//! those the prefetch look-ahead has reached.
//!
//! The look-ahead walks the stream of page operations (all requests' pages back to back) a
//! few pages ahead of the request being served, and that request is served a moment later;
//! decoding it twice from the workload's compact stream cost `page` 8 % of its stepping.
//! A small ring keeps the decoded requests between the two.

use super::{Cursor, PageRequest, Workload};
use crate::config::AddressMap;

/// Requests the ring holds: more than the look-ahead's reach in requests (at most one a
/// page) and a [`BATCH`] beyond it, so the request being served is still held when the
/// look-ahead has gone ahead. A power of two (the slot is a mask).
const HELD: usize = 64;

/// Requests decoded at once when the ring runs out: one call's overhead for several.
const BATCH: usize = 16;

/// A position in a workload's stream of page operations.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PagePos {
    /// Request.
    pub request: usize,
    /// Page within the request.
    pub page: u32,
}

/// The last 64 requests decoded, and where decoding goes on.
#[derive(Debug, Clone)]
pub struct Window {
    /// Request `i` at `i % HELD`, for `i` in `end.index() - held..end.index()`.
    requests: [PageRequest; HELD],
    /// Its arrival time, apart: the look-ahead reads only the requests, and a load that
    /// spans two recent stores waits for both to reach the cache.
    times: [u64; HELD],
    held: usize,
    /// Before the next request to decode.
    end: Cursor,
}

impl Default for Window {
    fn default() -> Self {
        let none = PageRequest::new(0, 0, crate::trace::HostOp::Read, 0);
        Window { requests: [none; HELD], times: [0; HELD], held: 0, end: Cursor::default() }
    }
}

impl Window {
    /// Request `i` of `w` and its arrival time ([`Workload::next`]); `None` past the last.
    /// Cheap for a request at or a little after the last one asked for: the ring, or a
    /// decode onwards; anywhere before, a seek.
    #[inline(always)]
    pub fn request(&mut self, w: &Workload, i: usize) -> Option<(PageRequest, u64)> {
        if !self.holds(i) {
            self.decode_to(w, i);
        }
        self.holds(i).then(|| (self.requests[i % HELD], self.times[i % HELD]))
    }

    /// [`Window::request`] without the time.
    #[inline(always)]
    fn page_request(&mut self, w: &Workload, i: usize) -> Option<PageRequest> {
        if !self.holds(i) {
            self.decode_to(w, i);
            if !self.holds(i) {
                return None;
            }
        }
        Some(self.requests[i % HELD])
    }

    /// Whether request `i` is in the ring.
    #[inline(always)]
    fn holds(&self, i: usize) -> bool {
        let end = self.end.index();
        i < end && i + self.held >= end
    }

    /// Decodes up to request `i` and a few beyond (to the end at most).
    #[inline(never)]
    fn decode_to(&mut self, w: &Workload, i: usize) {
        let end = self.end.index();
        if i < end || i > end + HELD {
            // Behind the ring (a caller stepping back) or far ahead: from the nearest kept
            // cursor.
            self.end = w.seek(i);
            self.held = 0;
        }
        // The cursor in a local: kept in registers, not stored back at every request.
        let mut end = self.end;
        while end.index() <= i + BATCH {
            let at = end.index();
            let Some((r, t)) = w.next(&mut end) else { break };
            (self.requests[at % HELD], self.times[at % HELD]) = (r, t);
            self.held = (self.held + 1).min(HELD);
        }
        self.end = end;
    }

    /// The position `n` page operations after `pos` (past the end: the end).
    pub fn advance(&mut self, w: &Workload, mut pos: PagePos, mut n: usize) -> PagePos {
        while let Some(r) = self.page_request(w, pos.request) {
            let left = (r.pages() - pos.page) as usize;
            if n < left {
                pos.page += n as u32;
                return pos;
            }
            n -= left;
            pos = PagePos { request: pos.request + 1, page: 0 };
        }
        pos
    }

    /// Copies the logical pages of up to `out.len()` page operations from `pos` into `out`;
    /// returns how many there were, whether any of the first `reads_in` of them may be
    /// read ([`PageRequest::may_read`]), and the position after them.
    pub fn copy_pages(
        &mut self,
        w: &Workload,
        mut pos: PagePos,
        out: &mut [u32],
        reads_in: usize,
    ) -> (usize, bool, PagePos) {
        let (mut n, mut reads) = (0, false);
        while n < out.len() {
            let Some(r) = self.page_request(w, pos.request) else { break };
            let take = ((r.pages() - pos.page) as usize).min(out.len() - n);
            if n < reads_in && r.may_read() {
                reads = true;
            }
            fill(w, &r, pos.page, &mut out[n..n + take]);
            n += take;
            pos = if pos.page + take as u32 == r.pages() {
                PagePos { request: pos.request + 1, page: 0 }
            } else {
                PagePos { page: pos.page + take as u32, ..pos }
            };
        }
        (n, reads, pos)
    }
}

/// Logical pages `from..from + out.len()` of `r` into `out` ([`Workload::page`] of each),
/// with the address map's questions asked once for the run: a request that does not wrap
/// around the device holds consecutive pages, a `dense` one a run of the page list.
#[inline(always)] // per request piece: the one-page case is a few instructions, a call more
fn fill(w: &Workload, r: &PageRequest, from: u32, out: &mut [u32]) {
    if let [slot] = out {
        // One page (most requests): no run to set up.
        *slot = w.page(r, from);
        return;
    }
    let first = u64::from(r.start) + u64::from(from);
    let end = first + out.len() as u64;
    if w.shape.map == AddressMap::Dense {
        out.copy_from_slice(&w.lpns[first as usize..end as usize]);
    } else if end <= w.shape.logical_pages {
        for (slot, lpn) in out.iter_mut().zip(first as u32..) {
            *slot = lpn;
        }
    } else {
        for (k, slot) in out.iter_mut().enumerate() {
            *slot = w.page(r, from + k as u32);
        }
    }
}

/// The logical pages of `r`, in order, into `out` (replacing what it held):
/// [`Workload::pages_of`] collected, the address map asked once.
pub fn pages_into(w: &Workload, r: &PageRequest, out: &mut Vec<u32>) {
    out.clear();
    if r.pages() == 1 {
        out.push(w.page(r, 0));
        return;
    }
    out.resize(r.pages() as usize, 0);
    fill(w, r, 0, out);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::AddressMap;
    use crate::trace::{HostOp, Request};
    use crate::workload::WorkloadShape;

    fn req(op: HostOp, offset: u64, size: u32) -> Request {
        Request { time_ns: 0, op, offset, size }
    }

    #[test]
    fn the_page_stream_is_walked_across_requests() {
        let reqs = [
            req(HostOp::Write, 0, 8192),    // pages 0, 1 (stream 0, 1)
            req(HostOp::Read, 0, 12288),    // pages 0..3 (stream 2..5)
            req(HostOp::Write, 4096, 4096), // stream 5
            req(HostOp::Write, 1024, 1024), // stream 6, partly covered
            req(HostOp::Trim, 0, 4096),     // stream 7
        ];
        for map in [AddressMap::Refuse, AddressMap::Dense] {
            let shape = WorkloadShape { page_bytes: 4096, logical_pages: 16, map, times: true };
            let w = Workload::build(&reqs, shape).unwrap();
            let stream: Vec<u32> = w.iter().flat_map(|(r, _)| w.pages_of(&r).collect::<Vec<_>>()).collect();
            let mut win = Window::default();
            let mut at = |n| win.advance(&w, PagePos::default(), n);
            assert_eq!(at(3), PagePos { request: 1, page: 1 });
            assert_eq!(at(8), PagePos { request: 5, page: 0 }, "the end");
            assert_eq!(at(100), PagePos { request: 5, page: 0 });
            let copy = |from, len, reads_in| {
                let mut out = vec![0; len];
                let mut win = Window::default();
                let pos = win.advance(&w, PagePos::default(), from);
                let (n, reads, after) = win.copy_pages(&w, pos, &mut out, reads_in);
                assert_eq!(out[..n], stream[from.min(8)..(from + len).min(8)]);
                assert_eq!(
                    after,
                    win.advance(&w, PagePos::default(), from + len),
                    "copying ends where advancing does"
                );
                reads
            };
            assert!(!copy(0, 2, 2));
            assert!(copy(1, 2, 2), "the read's first page");
            assert!(copy(4, 2, 2), "the read's last page");
            assert!(!copy(5, 1, 1));
            assert!(copy(5, 2, 2), "a partly covered write may read its page first");
            assert!(!copy(5, 3, 1), "only the first pages count");
            assert!(!copy(7, 9, 9), "a trim reads nothing");
            assert!(!copy(9, 4, 4), "past the last request");
        }
    }

    /// Random requests of one page, a few, and many, some wrapping around a small device:
    /// a request's pages and any run of the page stream come out as the workload gives them.
    #[test]
    fn pages_and_runs_of_the_stream_match_the_workload_under_every_map() {
        let mut rng = crate::test_rng::Rng(0x51_7cc1_b727_220a);
        let ops = [HostOp::Read, HostOp::Write, HostOp::Trim];
        let reqs: Vec<_> = (0..2000u64)
            .map(|i| {
                let x = rng.next();
                let pages = match x % 16 {
                    0 => 1 + (x >> 8) % 300,
                    1..=4 => 2 + (x >> 8) % 9,
                    _ => 1,
                };
                let offset = ((x >> 20) % 5000) * 4096 + if x.is_multiple_of(7) { 1000 } else { 0 };
                Request { time_ns: i * 10, ..req(ops[(x >> 4) as usize % 3], offset, pages as u32 * 4096) }
            })
            .collect();
        for map in [AddressMap::Modulo, AddressMap::Dense, AddressMap::Refuse] {
            // Under modulo a page space smaller than the trace's: requests wrap around it.
            let logical_pages = if map == AddressMap::Modulo { 1000 } else { 8192 };
            let shape = WorkloadShape { page_bytes: 4096, logical_pages, map, times: true };
            let w = Workload::build(&reqs, shape).unwrap();
            let all: Vec<_> = w.iter().collect();
            let stream: Vec<u32> = all.iter().flat_map(|(r, _)| w.pages_of(r)).collect();
            let mut pages = vec![7; 3];
            for (r, _) in &all {
                pages_into(&w, r, &mut pages);
                assert_eq!(pages, w.pages_of(r).collect::<Vec<_>>(), "{map:?}");
            }
            let mut win = Window::default();
            for from in (0..stream.len()).step_by(13) {
                let mut out = vec![0; 1 + from % 11];
                let pos = win.advance(&w, PagePos::default(), from);
                let (n, _, _) = win.copy_pages(&w, pos, &mut out, 0);
                let end = (from + out.len()).min(stream.len());
                assert_eq!(out[..n], stream[from..end], "{map:?} from {from}");
            }
        }
    }

    #[test]
    fn any_request_is_found_in_any_order() {
        let reqs: Vec<_> = (0..1000u64)
            .map(|i| Request {
                time_ns: i * i,
                ..req(HostOp::Write, (i * 7919 % 500) * 4096, 4096 * (1 + i as u32 % 3))
            })
            .collect();
        let shape =
            WorkloadShape { page_bytes: 4096, logical_pages: 512, map: AddressMap::Modulo, times: true };
        let w = Workload::build(&reqs, shape).unwrap();
        let all: Vec<_> = w.iter().collect();
        let mut win = Window::default();
        // Forwards, back a little, far back, far ahead, past the end.
        for i in (0..1000).chain([999, 990, 960, 3, 0, 500, 531, 532, 600, 999]) {
            assert_eq!(win.request(&w, i), Some(all[i]), "request {i}");
        }
        assert_eq!(win.request(&w, 1000), None);
        assert_eq!(win.request(&w, 5000), None);
        assert_eq!(win.request(&w, 7), Some(all[7]));
    }
}
