//! Logical-address heat while the address range is still unknown (see [`Heat`]).

use super::HeatMap;

/// Fine heat buckets kept while streaming (64 KiB of counters).
pub(super) const FINE_BUCKETS: usize = 8192;

/// Adaptive heat counters. While streaming, the offset range is unknown, so we keep
/// [`FINE_BUCKETS`] counters of width `2^shift` starting at `base` (a multiple of the
/// width). When an offset falls outside, the width doubles (as often as needed) and the
/// counters are merged into the wider buckets; since every old bucket lies inside one new
/// bucket, merging loses nothing. At the end the fine buckets are re-binned into the
/// requested equal-width buckets over `[min, max]`. A fine bucket that straddles an output
/// boundary goes wholly to the bucket holding its start, so a count can move by at most one
/// fine width (under `span / 4095`); while the span fits in the fine buckets at width 1 the
/// result is exact.
#[derive(Debug, Clone, Default)]
pub(super) struct Heat {
    base: u64,
    shift: u32,
    counts: Vec<u64>,
}

impl Heat {
    /// Counts `addr`; `lo..=hi` is the range of every offset seen so far, `addr` included.
    pub(super) fn add(&mut self, addr: u64, lo: u64, hi: u64) {
        if self.counts.is_empty() {
            self.counts = vec![0; FINE_BUCKETS];
            self.base = addr;
        }
        // Compare in u64: on wasm32 a usize cast would truncate large indices.
        if addr < self.base || (addr - self.base) >> self.shift >= FINE_BUCKETS as u64 {
            self.widen(lo, hi);
        }
        let idx = ((addr - self.base) >> self.shift) as usize;
        if let Some(c) = self.counts.get_mut(idx) {
            *c += 1;
        }
    }

    fn widen(&mut self, lo: u64, hi: u64) {
        let mut s = self.shift;
        // In u128 so that a shift by 64 (the widest possible range) is defined.
        while (u128::from(hi) >> s) - (u128::from(lo) >> s) >= FINE_BUCKETS as u128 {
            s += 1;
        }
        let new_base = ((u128::from(lo) >> s) << s) as u64;
        let mut counts = vec![0; FINE_BUCKETS];
        for (i, &c) in self.counts.iter().enumerate().filter(|(_, &c)| c > 0) {
            let start = self.base + ((i as u64) << self.shift);
            let j = ((start - new_base) >> s) as usize;
            if let Some(slot) = counts.get_mut(j) {
                *slot += c;
            }
        }
        self.base = new_base;
        self.shift = s;
        self.counts = counts;
    }

    pub(super) fn finish(&self, lo: u64, hi: u64, buckets: usize) -> HeatMap {
        if self.counts.is_empty() {
            return HeatMap { first_offset: 0, bucket_bytes: 0, counts: Vec::new() };
        }
        let span = u128::from(hi - lo) + 1;
        let width = span.div_ceil(buckets as u128).max(1);
        let n = span.div_ceil(width) as usize;
        let mut out = vec![0u64; n];
        for (i, &c) in self.counts.iter().enumerate().filter(|(_, &c)| c > 0) {
            let start = (u128::from(self.base) + ((i as u128) << self.shift)).max(u128::from(lo));
            let j = (((start - u128::from(lo)) / width) as usize).min(n - 1);
            out[j] += c;
        }
        HeatMap { first_offset: lo, bucket_bytes: width as u64, counts: out }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widening_keeps_every_count() {
        let mut h = Heat::default();
        let (mut lo, mut hi) = (u64::MAX, 0);
        for a in [1_000_000u64, 5, u64::MAX - 1, 0, 77, 1 << 40] {
            lo = lo.min(a);
            hi = hi.max(a);
            h.add(a, lo, hi);
        }
        let m = h.finish(lo, hi, 4);
        assert_eq!(m.counts.iter().sum::<u64>(), 6);
        assert_eq!(m.counts[0], 5);
        assert_eq!(m.counts[3], 1);
    }

    #[test]
    fn exact_while_the_span_fits_at_width_one() {
        let mut h = Heat::default();
        for a in [100u64, 101, 8291] {
            h.add(a, 100, a.max(100));
        }
        let m = h.finish(100, 8291, 8192);
        assert_eq!(m.bucket_bytes, 1);
        assert_eq!((m.counts[0], m.counts[1], m.counts[8191]), (1, 1, 1));
    }
}
