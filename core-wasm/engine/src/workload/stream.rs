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
    /// The requests' encodings back to back, then [`PAD`] zero bytes (or more zeros,
    /// left by appends until [`RequestStream::shrink_to_fit`]).
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

    /// Frees the spare capacity (and the zeros appends leave past the padding).
    pub fn shrink_to_fit(&mut self) {
        self.bytes.truncate(self.end.at + PAD);
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

    /// Appends `r`, arriving at `time_ns` (see [`Appender::push`]).
    #[inline(always)]
    pub fn push(&mut self, r: PageRequest, time_ns: u64) {
        self.appender().push(r, time_ns);
    }

    /// The stream's bytes and end, taken out of it for a run of appends (given back when
    /// the appender is dropped).
    #[inline(always)]
    pub fn appender(&mut self) -> Appender<'_> {
        Appender { bytes: std::mem::take(&mut self.bytes), end: self.end, wrap: self.wrap, stream: self }
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

/// Appends to a [`RequestStream`], holding its bytes and end apart from it until dropped:
/// a loop of appends keeps them in registers, where appending to the stream itself loads
/// and stores them around every request (the bytes' stores might overwrite them, as far
/// as the compiler knows; the cold calls take and give back the bytes by value for the
/// same reason). The bytes run on past the end with zeros (at least [`WORD`] of them
/// while appending, [`SLACK`] added when they run short), so a request is one store of a
/// word whose zeros past the encoding are the next one's; [`RequestStream::shrink_to_fit`]
/// cuts them to the padding.
pub struct Appender<'s> {
    /// The stream's bytes, taken out of it meanwhile.
    bytes: Vec<u8>,
    end: Cursor,
    wrap: u64,
    stream: &'s mut RequestStream,
}

/// Bytes a request's encoding is put together in by [`Appender::push`].
const WORD: usize = 16;
/// Zeros added past the end when fewer than a [`WORD`] are left: a few hundred requests'
/// worth, so clearing them is rare.
const SLACK: usize = 1024;

impl Appender<'_> {
    /// Appends `r`, arriving at `time_ns`. The encoding is put together in a 16-byte word
    /// and stored whole: room for the header, a page count and a start (4 bytes each at
    /// most), and an arrival gap whose zigzag is below 2^28 (a change of gap under 134 ms).
    /// A larger change of gap is written byte by byte ([`write_general`], same bytes).
    #[inline(always)]
    pub fn push(&mut self, r: PageRequest, time_ns: u64) {
        self.push_parts(r.start, r.pages(), (r.packed >> super::PAGES_BITS) as u8, time_ns);
    }

    /// [`Appender::push`] of the request of `pages` pages from `start` whose operation and
    /// partial end pages are `op_partial` (the top 4 bits of [`PageRequest`]'s packed word).
    #[inline(always)]
    pub fn push_parts(&mut self, start: u32, pages: u32, op_partial: u8, time_ns: u64) {
        self.push_with(start, pages, op_partial, time_ns, false);
    }

    /// [`Appender::push_parts`], or with `general` the byte-by-byte writer for every
    /// request.
    #[inline(always)]
    fn push_with(&mut self, start: u32, pages: u32, op_partial: u8, time_ns: u64, general: bool) {
        let c = self.end;
        if c.index.is_multiple_of(CHUNK) {
            keep(&mut self.stream.kept, c);
        }
        let gap = i128::from(time_ns) - i128::from(c.time);
        let same_gap = gap == c.gap;
        let start_len = start_len(start, c.next_start);
        let header = header(op_partial, pages, start_len, same_gap);

        let n = if general || !same_gap && zigzag(gap) >= 1 << 28 {
            let n;
            (self.bytes, n) = write_general(
                std::mem::take(&mut self.bytes),
                c.at,
                header,
                pages,
                start,
                start_len,
                (!same_gap).then_some(gap),
            );
            n
        } else {
            let mut word = u128::from(header);
            let mut n = 1;
            if pages != 1 {
                let (varint, len) = varint28(pages);
                word |= u128::from(varint) << (8 * n);
                n += len;
            }
            if start_len > 0 {
                // All 4 bytes: those past `start_len` are zeros.
                word |= u128::from(start) << (8 * n);
                n += start_len;
            }
            if !same_gap {
                let (varint, len) = varint28(zigzag(gap) as u32);
                word |= u128::from(varint) << (8 * n);
                n += len;
            }
            if self.bytes.get(c.at..c.at + WORD).is_none() {
                self.bytes = more_zeros(std::mem::take(&mut self.bytes), c.at + WORD);
            }
            let slot = &mut self.bytes[c.at..c.at + WORD];
            slot.copy_from_slice(&word.to_le_bytes());
            n as usize
        };
        self.end = Cursor {
            index: c.index + 1,
            at: c.at + n,
            next_start: wrapped(u64::from(start) + u64::from(pages), self.wrap),
            time: time_ns,
            gap,
        };
    }

    /// How many requests the stream holds with those appended so far.
    pub fn len(&self) -> usize {
        self.end.index
    }
}

impl Drop for Appender<'_> {
    fn drop(&mut self) {
        self.stream.bytes = std::mem::take(&mut self.bytes);
        self.stream.end = self.end;
    }
}

/// Keeps `c`, the cursor of every [`CHUNK`]-th request, out of the append's way (taking
/// the cursor by value, the appender's end stays out of memory).
#[cold]
#[inline(never)]
fn keep(kept: &mut Vec<Cursor>, c: Cursor) {
    kept.push(c);
}

/// Runs `bytes` on with zeros to at least `len` and [`SLACK`] more.
#[cold]
#[inline(never)]
fn more_zeros(mut bytes: Vec<u8>, len: usize) -> Vec<u8> {
    bytes.resize(len + SLACK, 0);
    bytes
}

/// Writes a request at `at` over the zeros past the stream's end, a byte at a time: its
/// `header`, its page count and its start as the header says, and the arrival `gap` when
/// it changed. Returns its length. (The reference the tests hold the word against.)
#[cold]
#[inline(never)]
fn write_general(
    mut bytes: Vec<u8>,
    at: usize,
    header: u8,
    pages: u32,
    start: u32,
    start_len: u32,
    gap: Option<i128>,
) -> (Vec<u8>, usize) {
    // At most a header, a 5-byte page count, a 4-byte start and a 19-byte gap.
    const MOST: usize = 1 + 5 + 4 + 19;
    if bytes.len() < at + MOST {
        bytes = more_zeros(bytes, at + MOST);
    }
    let out = &mut bytes[at..];
    out[0] = header;
    let mut n = 1;
    if pages != 1 {
        n += put(&mut out[n..], u128::from(pages));
    }
    if start_len > 0 {
        out[n..n + 4].copy_from_slice(&start.to_le_bytes());
        n += start_len as usize;
    }
    if let Some(gap) = gap {
        n += put(&mut out[n..], zigzag(gap));
    }
    (bytes, n)
}

/// `end` wrapped around at `wrap` (see [`RequestStream::wrap`]); a division only for a
/// request that wraps (modulo map): most never do.
#[inline(always)]
fn wrapped(end: u64, wrap: u64) -> u64 {
    if end >= wrap {
        end % wrap
    } else {
        end
    }
}

/// Bytes a request's start takes: 0 when it follows on from `next_start`, else the start
/// whole, in 2 to 4 bytes (a 1-byte start takes 2: kind 0 is "follows on").
#[inline(always)]
fn start_len(start: u32, next_start: u64) -> u32 {
    if u64::from(start) == next_start {
        0
    } else {
        // Two compares, where counting the leading zeros took eight instructions.
        2 + u32::from(start >= 1 << 16) + u32::from(start >= 1 << 24)
    }
}

/// A request's header byte (see the module's documentation).
#[inline(always)]
fn header(op_partial: u8, pages: u32, start_len: u32, same_gap: bool) -> u8 {
    let mut header = op_partial & OP_PARTIAL;
    header |= if pages == 1 { ONE_PAGE } else { 0 };
    header |= (start_len.saturating_sub(1) as u8) << START_SHIFT;
    header |= if same_gap { SAME_GAP } else { 0 };
    header
}

/// `v` (below 2^28) as a varint ([`put`]'s bytes) in the low bytes of a word, and its length.
#[inline(always)]
fn varint28(mut v: u32) -> (u32, u32) {
    debug_assert!(v < 1 << 28);
    let (mut bytes, mut len) = (v & 0x7f, 1);
    v >>= 7;
    while v != 0 {
        bytes |= (0x80 | (v & 0x7f) << 8) << (8 * (len - 1));
        v >>= 7;
        len += 1;
    }
    (bytes, len)
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
    use super::super::{PAGES_BITS, PAGES_MASK};
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

    /// The appends of `items` by [`RequestStream::push`] and, byte by byte, by
    /// [`write_general`] alone: the same stream.
    fn same_as_general(wrap: Option<u64>, items: &[(PageRequest, u64)]) {
        let (mut word, mut general) = (RequestStream::new(wrap), RequestStream::new(wrap));
        for &(r, t) in items {
            word.push(r, t);
            general.appender().push_with(r.start, r.pages(), (r.packed >> PAGES_BITS) as u8, t, true);
        }
        word.shrink_to_fit();
        general.shrink_to_fit();
        let differ = word.bytes.iter().zip(&general.bytes).position(|(a, b)| a != b);
        assert_eq!((differ, word.bytes.len()), (None, general.bytes.len()), "the first byte that differs");
        assert_eq!((word.kept, word.end), (general.kept, general.end));
    }

    #[test]
    fn the_word_append_writes_the_general_appends_bytes() {
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        let ops = [HostOp::Read, HostOp::Write, HostOp::Trim];
        for wrap in [Some(1000), Some(1 << 24), Some(1 << 32), None] {
            let max_start = wrap.map_or(u64::from(u32::MAX), |w| (w - 1).min(u64::from(u32::MAX)));
            let mut items = Vec::new();
            let (mut next, mut time, mut gap) = (0u64, 0u64, 0i128);
            for _ in 0..20 * CHUNK {
                let x = rng.next();
                // Counts across the varint's lengths (1 to 4 bytes) and their edges.
                let pages = match x % 6 {
                    0..=2 => 1,
                    3 => 1 + (x >> 8) as u32 % 200,
                    4 => [127, 128, 16383, 16384, (1 << 21) - 1, 1 << 21, PAGES_MASK][(x >> 8) as usize % 7],
                    _ => 1 + (x >> 8) as u32 % PAGES_MASK,
                };
                // Following on, or a start of each length, the largest near the top.
                let start = match (x >> 40) % 5 {
                    0 | 1 => next,
                    2 => (x >> 12) % 256,
                    3 => max_start - (x >> 12) % 4,
                    _ => (x >> 12) % (max_start + 1),
                };
                let r = PageRequest::new(start as u32, pages, ops[(x >> 2) as usize % 3], (x >> 4) as u8 & 3);
                next = start + u64::from(pages);
                if let Some(w) = wrap {
                    next %= w;
                }
                // The same gap, a small change either way (at the word's 2^28 edge), a
                // large one, times near 2^64 and going back to 0.
                let y = rng.next();
                let t = match y % 8 {
                    0..=2 => (i128::from(time) + gap).clamp(0, i128::from(u64::MAX)) as u64,
                    3 => time.saturating_add((y >> 8) % 1000),
                    4 => time.saturating_sub((y >> 8) % 1000),
                    5 => (i128::from(time)
                        + gap
                        + [-(1 << 27) - 1, -(1 << 27), (1 << 27) - 1, 1 << 27][(y >> 8) as usize % 4])
                        .clamp(0, i128::from(u64::MAX)) as u64,
                    6 => rng.next(),
                    _ => [0, u64::MAX, u64::MAX - 1, 1 << 63][(y >> 8) as usize % 4],
                };
                gap = i128::from(t) - i128::from(time);
                time = t;
                items.push((r, t));
            }
            same_as_general(wrap, &items);
            round_trip(wrap, &items);
        }
    }

    #[test]
    fn a_start_takes_the_fewest_whole_bytes_and_at_least_two() {
        let mut rng = Rng(17);
        let edges = [0, 1, 255, 256, 65535, 65536, (1 << 24) - 1, 1 << 24, u32::MAX];
        for start in edges.into_iter().chain((0..1000).map(|_| rng.next() as u32 >> (rng.next() % 32))) {
            let bytes = (32 - start.leading_zeros()).div_ceil(8).max(2);
            assert_eq!(start_len(start, u64::from(start) + 1), bytes, "{start}");
            assert_eq!(start_len(start, u64::from(start)), 0, "{start} follows on");
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
        s.shrink_to_fit();
        assert_eq!(s.bytes.len(), 40 * 2 + 1 + PAD);
    }
}
