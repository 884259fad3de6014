//! Turns byte-addressed requests into page operations on the device's logical space.
//!
//! A request covers every page its byte range touches; a partial page counts as a whole
//! page operation. Each request remembers which of its end pages it covers only in part, so
//! a device with `device.read_modify_write` reads such a page's old data before writing it.

use std::collections::HashMap;

use crate::config::AddressMap;
use crate::error::{EngineError, Result};
use crate::trace::HostOp;
use crate::trace::Request;

/// Most page operations (pages of all requests together) a workload holds: 512 MiB of page
/// numbers, and well inside the `u32` index [`PageRequest::first`] is.
pub const MAX_WORKLOAD_PAGES: u64 = 1 << 27;

/// A request resolved to logical pages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PageRequest {
    /// Arrival time (ns since the first request).
    pub time_ns: u64,
    /// Operation.
    pub op: HostOp,
    /// Index of the first page in [`Workload::lpns`].
    pub first: u32,
    /// Number of pages.
    pub pages: u32,
    /// Which end pages the request covers only in part: [`PARTIAL_FIRST`] | [`PARTIAL_LAST`].
    pub partial: u8,
}

/// [`PageRequest::partial`]: the first page is covered only in part.
pub const PARTIAL_FIRST: u8 = 1;
/// [`PageRequest::partial`]: the last page is covered only in part.
pub const PARTIAL_LAST: u8 = 2;

impl PageRequest {
    /// Whether page `i` of the request (0-based) is covered only in part.
    pub fn is_partial(&self, i: u32) -> bool {
        (i == 0 && self.partial & PARTIAL_FIRST != 0)
            || (i + 1 == self.pages && self.partial & PARTIAL_LAST != 0)
    }
}

/// All requests of a trace, resolved once when the simulation is built. Immutable and
/// shared between checkpoints.
#[derive(Debug, Clone, Default)]
pub struct Workload {
    /// Requests in trace order.
    pub requests: Vec<PageRequest>,
    /// Logical pages of all requests, back to back.
    pub lpns: Vec<u32>,
    /// Distinct logical pages touched.
    pub footprint: u64,
}

impl Workload {
    /// Whether a request from number `from` on reads any of `pages` (indices into
    /// [`Workload::lpns`]): a read, or a write covering a page only in part, which may read
    /// it first. For prefetch hints ([`crate::prefetch::Lookahead::reads`]).
    pub fn reads_among(&self, from: usize, pages: std::ops::Range<usize>) -> bool {
        let reads = |r: &PageRequest| r.op == HostOp::Read || r.partial != 0;
        self.requests
            .get(from..)
            .unwrap_or_default()
            .iter()
            .take_while(|r| (r.first as usize) < pages.end)
            .any(|r| reads(r) && (r.first + r.pages) as usize > pages.start)
    }

    /// Resolves `requests` for a device with `page_bytes` pages and `logical_pages` logical
    /// pages.
    pub fn build(requests: &[Request], page_bytes: u32, logical_pages: u64, map: AddressMap) -> Result<Self> {
        let pb = u64::from(page_bytes);
        let mut dense: HashMap<u64, u32> = HashMap::new();
        let mut lpns = Vec::new();
        let mut out = Vec::with_capacity(requests.len());
        let mut touched = vec![false; if map == AddressMap::Dense { 0 } else { logical_pages as usize }];
        let mut footprint = 0u64;
        for (i, r) in requests.iter().enumerate() {
            // Parsers and generators drop empty requests; a trace built through the API may not.
            if r.size == 0 {
                return Err(EngineError::Config(format!("request {} has size 0", i + 1)));
            }
            let end = r.offset.checked_add(u64::from(r.size) - 1).ok_or_else(|| {
                EngineError::Config(format!("request {} ends beyond 2^64 bytes (offset {})", i + 1, r.offset))
            })?;
            let first_page = r.offset / pb;
            let last_page = end / pb;
            if lpns.len() as u64 + (last_page - first_page + 1) > MAX_WORKLOAD_PAGES {
                return Err(EngineError::Config(format!(
                    "request {} takes the trace past {MAX_WORKLOAD_PAGES} page operations in all, more than a simulation holds; replay fewer requests or use larger pages",
                    i + 1
                )));
            }
            let first = lpns.len() as u32;
            for page in first_page..=last_page {
                let lpn = match map {
                    AddressMap::Dense => {
                        let next = dense.len() as u64;
                        let lpn = *dense.entry(page).or_insert(next as u32);
                        if u64::from(lpn) >= logical_pages {
                            return Err(EngineError::Config(format!(
                                "request {} touches {} distinct pages, more than the device's {logical_pages} logical pages; use a larger device or address_map 'modulo'",
                                i + 1,
                                next + 1
                            )));
                        }
                        lpn
                    }
                    AddressMap::Modulo => (page % logical_pages) as u32,
                    AddressMap::Refuse => {
                        if page >= logical_pages {
                            return Err(EngineError::Config(format!(
                                "request {} addresses page {page}, beyond the device's {logical_pages} logical pages",
                                i + 1
                            )));
                        }
                        page as u32
                    }
                };
                if map != AddressMap::Dense && !touched[lpn as usize] {
                    touched[lpn as usize] = true;
                    footprint += 1;
                }
                lpns.push(lpn);
            }
            let partial = if r.offset % pb != 0 { PARTIAL_FIRST } else { 0 }
                | if (end + 1) % pb != 0 { PARTIAL_LAST } else { 0 };
            out.push(PageRequest {
                time_ns: r.time_ns,
                op: r.op,
                first,
                pages: lpns.len() as u32 - first,
                partial,
            });
        }
        if map == AddressMap::Dense {
            footprint = dense.len() as u64;
        }
        Ok(Workload { requests: out, lpns, footprint })
    }

    /// The logical pages of request `i`.
    pub fn pages_of(&self, r: &PageRequest) -> &[u32] {
        &self.lpns[r.first as usize..(r.first + r.pages) as usize]
    }

    /// Pages the trace reads before it ever writes or trims them, in first-read order: the
    /// data that must already be on the device for the trace to make sense.
    pub fn read_before_write(&self, logical_pages: u64) -> Vec<u32> {
        let mut seen = vec![false; logical_pages as usize];
        let mut out = Vec::new();
        for r in &self.requests {
            for &lpn in self.pages_of(r) {
                if !seen[lpn as usize] {
                    seen[lpn as usize] = true;
                    if r.op == HostOp::Read {
                        out.push(lpn);
                    }
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn req(op: HostOp, offset: u64, size: u32) -> Request {
        Request { time_ns: 0, op, offset, size }
    }

    #[test]
    fn more_page_operations_than_a_workload_holds_are_refused_before_they_are_held() {
        // One 4 GiB request of 16-byte pages is 2^28 page operations.
        let huge = [req(HostOp::Write, 0, 4096), req(HostOp::Read, 0, u32::MAX)];
        let e = Workload::build(&huge, 16, 1024, AddressMap::Modulo).unwrap_err().to_string();
        assert!(e.contains("request 2 takes the trace past 134217728 page operations"), "{e}");
        assert!(Workload::build(&huge[..1], 16, 1024, AddressMap::Modulo).is_ok());
    }

    #[test]
    fn splits_into_pages_and_remaps_densely() {
        let reqs = [req(HostOp::Write, 8192 * 100 + 10, 8192), req(HostOp::Read, 8192 * 100, 1)];
        let w = Workload::build(&reqs, 4096, 16, AddressMap::Dense).unwrap();
        // 8192*100+10 .. +8192 touches trace pages 200, 201, 202.
        assert_eq!(w.pages_of(&w.requests[0]), &[0, 1, 2]);
        assert_eq!(w.pages_of(&w.requests[1]), &[0]);
        assert_eq!(w.footprint, 3);
    }

    #[test]
    fn partial_end_pages_are_marked() {
        let reqs = [
            req(HostOp::Write, 0, 8192),    // whole pages 0, 1
            req(HostOp::Write, 1024, 1024), // inside page 0
            req(HostOp::Write, 2048, 8192), // pages 0 (from 2 KB), 1, 2 (to 2 KB)
            req(HostOp::Write, 4096, 6144), // page 1 whole, page 2 to 2 KB
        ];
        let w = Workload::build(&reqs, 4096, 16, AddressMap::Refuse).unwrap();
        let partial: Vec<Vec<bool>> =
            w.requests.iter().map(|r| (0..r.pages).map(|i| r.is_partial(i)).collect()).collect();
        assert_eq!(partial, [vec![false, false], vec![true], vec![true, false, true], vec![false, true]]);
    }

    #[test]
    fn modulo_and_refuse() {
        let reqs = [req(HostOp::Write, 4096 * 20, 4096)];
        let w = Workload::build(&reqs, 4096, 16, AddressMap::Modulo).unwrap();
        assert_eq!(w.lpns, vec![4]);
        assert!(Workload::build(&reqs, 4096, 16, AddressMap::Refuse).is_err());
        let big: Vec<_> = (0..20).map(|i| req(HostOp::Write, i * 4096, 4096)).collect();
        let e = Workload::build(&big, 4096, 16, AddressMap::Dense).unwrap_err();
        assert!(e.to_string().contains("request 17"), "{e}");
    }

    #[test]
    fn empty_and_overflowing_requests_are_errors() {
        // Review (engine-model) §5.10: a zero-size request underflowed `offset + size - 1`.
        let e = Workload::build(&[req(HostOp::Write, 4096, 0)], 4096, 16, AddressMap::Modulo).unwrap_err();
        assert!(e.to_string().contains("request 1 has size 0"), "{e}");
        let e = Workload::build(&[req(HostOp::Read, u64::MAX, 2)], 4096, 16, AddressMap::Modulo).unwrap_err();
        assert!(e.to_string().contains("beyond 2^64"), "{e}");
    }

    #[test]
    fn read_before_write_lists_prefill_pages() {
        let reqs = [req(HostOp::Write, 0, 4096), req(HostOp::Read, 0, 8192), req(HostOp::Read, 8192, 4096)];
        let w = Workload::build(&reqs, 4096, 16, AddressMap::Dense).unwrap();
        assert_eq!(w.read_before_write(16), vec![1, 2]);
    }

    #[test]
    fn reads_among_finds_the_requests_that_read_a_page_range() {
        let reqs = [
            req(HostOp::Write, 0, 8192),    // pages 0, 1 (indices 0, 1)
            req(HostOp::Read, 0, 12288),    // pages 0..3 (indices 2..5)
            req(HostOp::Write, 4096, 4096), // index 5
            req(HostOp::Write, 1024, 1024), // index 6, partly covered
            req(HostOp::Trim, 0, 4096),     // index 7
        ];
        let w = Workload::build(&reqs, 4096, 16, AddressMap::Refuse).unwrap();
        assert!(!w.reads_among(0, 0..2));
        assert!(w.reads_among(0, 1..3), "the read's first page");
        assert!(w.reads_among(1, 4..6), "the read's last page");
        assert!(!w.reads_among(2, 5..6));
        assert!(w.reads_among(2, 5..7), "a partly covered write may read its page first");
        assert!(!w.reads_among(4, 7..16), "a trim reads nothing");
        assert!(!w.reads_among(9, 0..16), "past the last request");
    }
}
