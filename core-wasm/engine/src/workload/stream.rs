//! A workload's requests and arrival times as one compact byte stream.
//!
//! Most requests of a trace resemble the one before: a sequential run starts where the last
//! request ended, and generated or periodic arrivals keep the same gap. Each request is a
//! header byte followed by only what it does not say:
//!
//! - bits 0-3 the operation and the partial end pages, as [`PageRequest`] packs them;
//! - bit 4 set: one page; else the page count follows as a varint;
//! - bits 5-6: 0 when the request starts where the one before ended (wrapping under the
//!   `modulo` map); else its first page follows whole, in 1 + that many bytes (little
//!   endian): read with one load and a mask, no loop and no branch on its length;
//! - bit 7 set: the same arrival gap as the request before; else the gap follows as a
//!   zigzag varint (of an `i128`, so any order of `u64` times is kept exactly).
//!
//! A sequential one-page write at a steady rate is one byte; a random one on a device of
//! fewer than 2^24 logical pages is four.
//!
//! Decoding is sequential, so a [`Cursor`] carries what the next request is told relative
//! to; the cursor at every [`CHUNK`]-th request is kept, so request `i` is found by decoding
//! at most `CHUNK - 1` requests from the nearest.

use super::PageRequest;

/// Requests between two kept cursors: random access decodes at most this many, and the
/// kept cursors cost `size_of::<Cursor>() / CHUNK` bytes a request (0.19).
pub const CHUNK: usize = 256;

/// The operation and partial end pages: the top 4 bits of [`PageRequest`]'s packed word.
const OP_PARTIAL: u8 = 0b1111;
const ONE_PAGE: u8 = 1 << 4;
const START_SHIFT: u32 = 5;
const SAME_GAP: u8 = 1 << 7;
/// Zero bytes kept after the last request, so a start is read as one 4-byte load.
const PAD: usize = 3;

/// Where a decoder stands: before request `index`, whose encoding starts at byte `at`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Cursor {
    index: usize,
    at: usize,
    /// Where the request before ended: the next start, if it follows on.
    next_start: u64,
    /// The arrival of the request before (0 before the first).
    time: u64,
    /// The arrival gap of the request before (0 before the first).
    gap: i128,
}

impl Cursor {
    /// The request this cursor decodes next.
    pub fn index(&self) -> usize {
        self.index
    }
}

/// The encoded requests.
#[derive(Debug, Clone)]
pub struct RequestStream {
    /// The requests' encodings back to back, then [`PAD`] zero bytes.
    bytes: Vec<u8>,
    /// The cursor before request `k * CHUNK`, for each `k`.
    kept: Vec<Cursor>,
    /// The end of the stream so far: where the next request is appended.
    end: Cursor,
    /// Starts at or past this wrap around to 0: the device's logical pages under the
    /// `modulo` and `refuse` maps, no limit (`u64::MAX`) for the `dense` map's indices into
    /// its page list.
    wrap: u64,
}

impl RequestStream {
    /// An empty stream whose starts wrap at `wrap` (`None`: never; see the field).
    pub fn new(wrap: Option<u64>) -> Self {
        RequestStream {
            bytes: vec![0; PAD],
            kept: Vec::new(),
            end: Cursor::default(),
            wrap: wrap.unwrap_or(u64::MAX),
        }
    }

    /// Number of requests.
    pub fn len(&self) -> usize {
        self.end.index
    }

    /// Bytes held (capacity, as the allocator sees it).
    pub fn heap_bytes(&self) -> usize {
        self.bytes.capacity() + self.kept.capacity() * std::mem::size_of::<Cursor>()
    }

    /// Reserves the kept cursors of `n` more requests (their bytes are not known ahead).
    pub fn reserve(&mut self, n: usize) {
        self.kept.reserve_exact((self.len() + n).div_ceil(CHUNK).saturating_sub(self.kept.len()));
    }

    /// Frees the spare capacity.
    pub fn shrink_to_fit(&mut self) {
        self.bytes.shrink_to_fit();
        self.kept.shrink_to_fit();
    }

    /// Where a request starting at `start` of `pages` pages leaves the next one.
    #[inline(always)]
    fn end_of(&self, start: u64, pages: u32) -> u64 {
        let end = start + u64::from(pages);
        // A division only for a request that wraps (modulo map): most never do.
        if end >= self.wrap {
            end % self.wrap
        } else {
            end
        }
    }

    /// Appends `r`, arriving at `time_ns`.
    pub fn push(&mut self, r: PageRequest, time_ns: u64) {
        if self.end.index.is_multiple_of(CHUNK) {
            self.kept.push(self.end);
        }
        let c = self.end;
        let (start, pages) = (r.start, r.pages());
        let gap = i128::from(time_ns) - i128::from(c.time);
        // Whole, in 2 to 4 bytes (a 1-byte start takes 2: kind 0 is "follows on").
        let start_len = if u64::from(start) == c.next_start {
            0
        } else {
            (32 - start.leading_zeros()).div_ceil(8).max(2)
        };
        let mut header = (r.packed >> super::PAGES_BITS) as u8 & OP_PARTIAL;
        header |= if pages == 1 { ONE_PAGE } else { 0 };
        header |= (start_len.saturating_sub(1) as u8) << START_SHIFT;
        header |= if gap == c.gap { SAME_GAP } else { 0 };
        // At most a header, a 5-byte page count, a 4-byte start and a 19-byte gap, and
        // zeros for the padding after them: written in place (a buffer on the stack written
        // a byte at a time and then copied whole stalls the copy's wide loads), then cut to
        // the encoding and the padding.
        const MOST: usize = 1 + 5 + 4 + 19 + PAD;
        self.bytes.truncate(c.at);
        // A copy of a constant (inline stores, where `resize` calls `memset`).
        self.bytes.extend_from_slice(&[0; MOST]);
        let out = &mut self.bytes[c.at..];
        out[0] = header;
        let mut n = 1;
        if pages != 1 {
            n += put(&mut out[n..], u128::from(pages));
        }
        if start_len > 0 {
            // All 4 bytes, in one store (a copy of `start_len` bytes is a call to `memcpy`):
            // those past `start_len` are zeros, as the buffer's were.
            out[n..n + 4].copy_from_slice(&start.to_le_bytes());
            n += start_len as usize;
        }
        if gap != c.gap {
            n += put(&mut out[n..], zigzag(gap));
        }
        self.bytes.truncate(c.at + n + PAD);
        self.end = Cursor {
            index: c.index + 1,
            at: c.at + n,
            next_start: self.end_of(u64::from(start), pages),
            time: time_ns,
            gap,
        };
    }

    /// The request at `c` and its arrival time, moving `c` past it; `None` at the end.
    #[inline(always)]
    pub fn next(&self, c: &mut Cursor) -> Option<(PageRequest, u64)> {
        if c.index >= self.end.index {
            return None;
        }
        let header = self.bytes[c.at];
        c.at += 1;
        let pages = if header & ONE_PAGE != 0 { 1 } else { self.take(&mut c.at) as u32 };
        let kind = u32::from(header >> START_SHIFT) & 3;
        let start = if kind == 0 {
            c.next_start as u32
        } else {
            let word: [u8; 4] = self.bytes[c.at..c.at + 4].try_into().expect("4 bytes");
            let len = kind + 1;
            c.at += len as usize;
            u32::from_le_bytes(word) & (u32::MAX >> (32 - 8 * len))
        };
        if header & SAME_GAP == 0 {
            c.gap = unzigzag(self.take(&mut c.at));
        }
        // Exact: the encoder took this gap between two `u64` times.
        c.time = (i128::from(c.time) + c.gap) as u64;
        c.next_start = self.end_of(u64::from(start), pages);
        c.index += 1;
        let r = PageRequest { start, packed: pages | u32::from(header & OP_PARTIAL) << super::PAGES_BITS };
        Some((r, c.time))
    }

    /// The cursor before request `i` (the end's, past the last).
    pub fn seek(&self, i: usize) -> Cursor {
        if i >= self.len() {
            return self.end;
        }
        let mut c = self.kept[i / CHUNK];
        while c.index < i {
            self.next(&mut c);
        }
        c
    }

    /// Reads the varint at `*at`, moving past it.
    fn take(&self, at: &mut usize) -> u128 {
        let (mut v, mut shift) = (0u128, 0);
        loop {
            let b = self.bytes[*at];
            *at += 1;
            v |= u128::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return v;
            }
            shift += 7;
        }
    }
}

/// Writes `v` as a varint at the start of `out`: 7 bits a byte, low first, the top bit set
/// on all but the last. Returns its length.
fn put(out: &mut [u8], mut v: u128) -> usize {
    let mut n = 0;
    while v >= 0x80 {
        out[n] = v as u8 | 0x80;
        v >>= 7;
        n += 1;
    }
    out[n] = v as u8;
    n + 1
}

/// Small magnitudes of either sign to small numbers: 0, -1, 1, -2, ... to 0, 1, 2, 3, ...
fn zigzag(v: i128) -> u128 {
    ((v << 1) ^ (v >> 127)) as u128
}

fn unzigzag(v: u128) -> i128 {
    (v >> 1) as i128 ^ -((v & 1) as i128)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::HostOp;

    #[test]
    fn zigzag_round_trips_at_the_extremes() {
        // A gap is the difference of two `u64` times: within ±(2^64 - 1).
        let edge = i128::from(u64::MAX);
        for v in [0, 1, -1, 63, -64, 64, i128::from(u32::MAX), -edge, edge, i128::MAX, i128::MIN] {
            assert_eq!(unzigzag(zigzag(v)), v, "{v}");
            let mut bytes = vec![0; 20];
            let n = put(&mut bytes, zigzag(v));
            bytes.truncate(n);
            let s = RequestStream { bytes, ..RequestStream::new(None) };
            let mut at = 0;
            assert_eq!(unzigzag(s.take(&mut at)), v);
            assert_eq!(at, n);
        }
        assert_eq!((zigzag(0), zigzag(-1), zigzag(1), zigzag(-2)), (0, 1, 2, 3));
    }

    /// A small deterministic generator (no dependency for a test).
    use crate::test_rng::Rng;

    fn round_trip(wrap: Option<u64>, items: &[(PageRequest, u64)]) {
        let mut s = RequestStream::new(wrap);
        for &(r, t) in items {
            s.push(r, t);
        }
        assert_eq!(s.len(), items.len());
        let mut c = Cursor::default();
        let decoded: Vec<_> = std::iter::from_fn(|| s.next(&mut c)).collect();
        assert_eq!(decoded, items);
        assert_eq!(c, s.seek(items.len()), "the end");
        for i in (0..items.len()).step_by(37).chain(items.len().checked_sub(1)) {
            let mut c = s.seek(i);
            assert_eq!(c.index(), i);
            assert_eq!(s.next(&mut c), Some(items[i]), "request {i} found by seeking");
        }
    }

    #[test]
    fn random_requests_and_times_round_trip() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let ops = [HostOp::Read, HostOp::Write, HostOp::Trim];
        for (wrap, max_start) in [(Some(1000), 1000), (Some(1 << 32), u32::MAX), (None, 1 << 27)] {
            let mut items = Vec::new();
            let mut next = 0u64;
            for i in 0..3 * CHUNK + 5 {
                let x = rng.next();
                let pages = [1, 2, 64, super::super::PAGES_MASK][(x % 4) as usize];
                // Mostly following on (always, for a dense page list), sometimes anywhere.
                let start = if wrap.is_none() || x.is_multiple_of(3) {
                    next
                } else {
                    (x >> 8) % (u64::from(max_start) + 1)
                };
                let r = PageRequest::new(start as u32, pages, ops[(x >> 2) as usize % 3], (x >> 4) as u8 & 3);
                next = match wrap {
                    Some(w) => (start + u64::from(pages)) % w,
                    None => start + u64::from(pages),
                };
                // Times in any order, with the high 32 bits changing, and the extremes.
                let t = match i % 7 {
                    0 => 0,
                    1 => u64::MAX,
                    2 => rng.next(),
                    3 => rng.next() & 0xffff_ffff,
                    _ => (i as u64) << 31,
                };
                items.push((r, t));
            }
            round_trip(wrap, &items);
        }
    }

    #[test]
    fn edge_requests_round_trip() {
        round_trip(Some(16), &[]);
        let w = HostOp::Write;
        round_trip(
            Some(1 << 32),
            &[
                (PageRequest::new(u32::MAX, 1, w, 0), 0),
                // Wraps past 2^32 - 1 to 0: follows on.
                (PageRequest::new(0, 3, HostOp::Read, 3), u64::MAX),
                (PageRequest::new(u32::MAX, super::super::PAGES_MASK, HostOp::Trim, 1), 0),
                (PageRequest::new(0, 1, w, 2), u64::MAX),
                (PageRequest::new(0, 1, w, 0), u64::MAX),
            ],
        );
        // Under a small modulo map a sequential run wraps at the device's end.
        let items: Vec<_> =
            (0..40).map(|i| (PageRequest::new((i * 3) % 16, 3, w, 0), 5 * i as u64)).collect();
        round_trip(Some(16), &items);
        let mut s = RequestStream::new(Some(16));
        items.iter().for_each(|&(r, t)| s.push(r, t));
        // A header and a page count each, and the second request's gap.
        assert_eq!(s.bytes.len(), 40 * 2 + 1 + PAD);
    }
}
