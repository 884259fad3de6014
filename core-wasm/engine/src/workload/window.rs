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

/// A walk along a workload's stream of page operations (all requests' pages back to back),
/// for the prefetch look-ahead ([`Window::walk`]). Where it is is held as what is left of the
/// request it is in, so a page costs neither a look-up of its request nor a position to
/// carry from one request to the next.
#[derive(Debug, Clone, Copy, Default)]
pub struct PageWalk {
    /// The request after the one being walked.
    request: usize,
    /// The next page of the one being walked: its first page plus the pages walked, not
    /// yet wrapped (see [`Workload::page`]).
    next: u64,
    /// Its pages not walked yet.
    left: u32,
    /// Whether it may read ([`PageRequest::may_read`]).
    reads: bool,
}

impl PageWalk {
    /// A walk from the first page of request `i`.
    pub fn at(i: usize) -> Self {
        PageWalk { request: i, ..PageWalk::default() }
    }

    /// At the first page of `r`, request `i`.
    #[inline(always)]
    fn first_of(i: usize, r: &PageRequest) -> Self {
        PageWalk { request: i + 1, next: u64::from(r.start), left: r.pages(), reads: r.may_read() }
    }
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
        // The cursor in a local: kept in registers, not stored back at every request; the
        // count held added once.
        let mut end = self.end;
        let from = end.index();
        let stop = (i + BATCH + 1).min(w.len());
        while end.index() < stop {
            let at = end.index();
            let Some((r, t)) = w.next(&mut end) else { break };
            (self.requests[at % HELD], self.times[at % HELD]) = (r, t);
        }
        self.held = (self.held + (end.index() - from)).min(HELD);
        self.end = end;
    }

    /// Moves `walk` `n` page operations on (past the end: to the end).
    pub fn skip(&mut self, w: &Workload, walk: &mut PageWalk, mut n: usize) {
        loop {
            if n <= walk.left as usize {
                walk.left -= n as u32;
                walk.next += n as u64;
                return;
            }
            n -= walk.left as usize;
            let Some(r) = self.page_request(w, walk.request) else {
                walk.left = 0;
                return;
            };
            *walk = PageWalk::first_of(walk.request, &r);
        }
    }

    /// The logical pages of the next `out.len()` page operations of `walk` into `out`,
    /// moving it past them; returns how many there were (fewer at the end of the workload)
    /// and whether any of them may be read ([`PageRequest::may_read`]).
    #[inline(always)] // one caller, per burst; the one-page request's path is a few instructions
    pub fn walk(&mut self, w: &Workload, walk: &mut PageWalk, out: &mut [u32]) -> (usize, bool) {
        let (mut n, mut reads) = (0, false);
        while n < out.len() {
            if walk.left == 0 {
                let Some(r) = self.page_request(w, walk.request) else { break };
                if r.pages() == 1 {
                    // One page (most requests): straight out, no run to keep.
                    walk.request += 1;
                    out[n] = w.first_page(&r);
                    reads |= r.may_read();
                    n += 1;
                } else {
                    *walk = PageWalk::first_of(walk.request, &r);
                }
                continue;
            }
            let take = (walk.left as usize).min(out.len() - n);
            reads |= walk.reads;
            fill(w, walk.next, &mut out[n..n + take]);
            n += take;
            walk.next += take as u64;
            walk.left -= take as u32;
        }
        (n, reads)
    }
}

/// Logical pages `first..first + out.len()` of a request into `out`, `first` being its
/// start plus the pages before ([`Workload::page`] of each), with the address map's
/// questions asked once for the run: a request that does not wrap around the device holds
/// consecutive pages, a `dense` one a run of the page list.
#[inline(always)] // per request piece: the one-page case is a few instructions, a call more
fn fill(w: &Workload, first: u64, out: &mut [u32]) {
    if let [slot] = out {
        // One page (most requests): no run to set up.
        *slot = w.page_at(first);
        return;
    }
    let end = first + out.len() as u64;
    if w.shape.map == AddressMap::Dense {
        out.copy_from_slice(&w.lpns[first as usize..end as usize]);
    } else if end <= w.shape.logical_pages {
        for (slot, lpn) in out.iter_mut().zip(first as u32..) {
            *slot = lpn;
        }
    } else {
        for (slot, k) in out.iter_mut().zip(first..) {
            *slot = w.page_at(k);
        }
    }
}

/// The logical pages of `r`, in order, into `out` (replacing what it held):
/// [`Workload::pages_of`] collected, the address map asked once.
pub fn pages_into(w: &Workload, r: &PageRequest, out: &mut Vec<u32>) {
    out.clear();
    if r.pages() == 1 {
        out.push(w.first_page(r));
        return;
    }
    out.resize(r.pages() as usize, 0);
    fill(w, u64::from(r.start), out);
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

    /// The page stream of `w` (every request's pages back to back, as [`Workload::pages_of`]
    /// gives them) and whether each page's request may read.
    fn stream(w: &Workload) -> Vec<(u32, bool)> {
        w.iter()
            .flat_map(|(r, _)| w.pages_of(&r).map(move |lpn| (lpn, r.may_read())).collect::<Vec<_>>())
            .collect()
    }

    /// Walks `w`'s page stream from page `from`, `len` pages: what [`Window::walk`] gives.
    fn walked(w: &Workload, win: &mut Window, from: usize, len: usize) -> (Vec<u32>, bool, PageWalk) {
        let mut walk = PageWalk::at(0);
        win.skip(w, &mut walk, from);
        let mut out = vec![0; len];
        let (n, reads) = win.walk(w, &mut walk, &mut out);
        out.truncate(n);
        (out, reads, walk)
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
            let pages: Vec<u32> = stream(&w).iter().map(|&(lpn, _)| lpn).collect();
            let mut win = Window::default();
            let mut copy = |from: usize, len: usize| {
                let (out, reads, mut after) = walked(&w, &mut win, from, len);
                assert_eq!(out, pages[from.min(8)..(from + len).min(8)]);
                let mut next = [0; 2];
                let (n, _) = win.walk(&w, &mut after, &mut next);
                let at = (from + len).min(8);
                assert_eq!(next[..n], pages[at..(at + 2).min(8)], "walking on from where it ended");
                reads
            };
            assert!(!copy(0, 2));
            assert!(copy(1, 2), "the read's first page");
            assert!(copy(4, 2), "the read's last page");
            assert!(!copy(5, 1));
            assert!(copy(5, 2), "a partly covered write may read its page first");
            assert!(!copy(7, 9), "a trim reads nothing");
            assert!(!copy(9, 4), "past the last request");
            assert!(!copy(3, 0), "no pages, no reads");
        }
    }

    /// Random requests of every kind, of one page, a few, and many, some partly covering
    /// their end pages, some wrapping around a small device: a request's pages and any run
    /// of the page stream, walked in pieces of any size from anywhere, come out as the
    /// workload gives them one by one ([`Workload::pages_of`], the general way), and so
    /// does whether any of them may be read.
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
                let (offset, size) = match (x >> 30) % 8 {
                    0 => (((x >> 20) % 5000) * 4096 + 1000, pages as u32 * 4096 - 1000),
                    1 => (((x >> 20) % 5000) * 4096, pages as u32 * 4096 - 100),
                    _ => (((x >> 20) % 5000) * 4096, pages as u32 * 4096),
                };
                Request { time_ns: i * 10, ..req(ops[(x >> 4) as usize % 3], offset, size) }
            })
            .collect();
        for map in [AddressMap::Modulo, AddressMap::Dense, AddressMap::Refuse] {
            // Under modulo a page space smaller than the trace's: requests wrap around it.
            let logical_pages = if map == AddressMap::Modulo { 1000 } else { 8192 };
            let shape = WorkloadShape { page_bytes: 4096, logical_pages, map, times: true };
            let w = Workload::build(&reqs, shape).unwrap();
            let all: Vec<_> = w.iter().collect();
            assert!(all.iter().any(|(r, _)| r.pages() == 1) && all.iter().any(|(r, _)| r.partial() != 0));
            let stream = stream(&w);
            let mut pages = vec![7; 3];
            for (r, _) in &all {
                pages_into(&w, r, &mut pages);
                assert_eq!(pages, w.pages_of(r).collect::<Vec<_>>(), "{map:?}");
            }
            // From random places, in random pieces (as the look-ahead's bursts), on one window
            // that goes back and forth.
            let mut win = Window::default();
            for _ in 0..3000 {
                let x = rng.next();
                let from = (x % (stream.len() as u64 + 20)) as usize;
                let mut walk = PageWalk::at(0);
                win.skip(&w, &mut walk, from);
                let mut at = from;
                for piece in 0..(x >> 32) % 5 {
                    let mut out = vec![0; ((x >> (40 + 4 * piece)) % 12) as usize];
                    let (n, reads) = win.walk(&w, &mut walk, &mut out);
                    let end = (at + out.len()).min(stream.len());
                    let want = stream.get(at..end).unwrap_or(&[]);
                    let got: Vec<_> = out[..n].to_vec();
                    assert_eq!(got, want.iter().map(|&(lpn, _)| lpn).collect::<Vec<_>>(), "{map:?} at {at}");
                    assert_eq!(reads, want.iter().any(|&(_, reads)| reads), "{map:?} at {at}");
                    at += out.len();
                }
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
