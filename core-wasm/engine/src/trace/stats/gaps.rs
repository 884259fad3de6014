//! Inter-arrival gaps: exact percentiles while they fit in a bounded buffer, a fixed-size
//! log-linear histogram after that, so memory stays bounded on any trace.

use super::InterArrival;

/// Gaps kept exactly (8 MiB); beyond this the histogram takes over.
const EXACT_GAPS: usize = 1 << 20;

/// Log-linear histogram index: exact below 128, then 128 sub-buckets per power of two, so a
/// bucket's floor is within 1/128 of every value in it.
fn bucket(v: u64) -> usize {
    if v < 128 {
        return v as usize;
    }
    let k = 63 - v.leading_zeros();
    128 + (k as usize - 7) * 128 + ((v >> (k - 7)) & 127) as usize
}

/// Smallest value of a [`bucket`].
fn bucket_floor(i: usize) -> u64 {
    if i < 128 {
        return i as u64;
    }
    let k = (i - 128) / 128 + 7;
    let sub = ((i - 128) % 128) as u64;
    (128 + sub) << (k - 7)
}

/// Nearest-rank index (0-based) of percentile `p`/100 among `n` sorted values.
fn rank(n: u64, p: u64) -> u64 {
    (n * p).div_ceil(100).max(1) - 1
}

/// Gap accumulator.
#[derive(Debug, Clone, Default)]
pub(super) struct Gaps {
    exact: Vec<u64>,
    hist: Option<Vec<u64>>,
    count: u64,
    sum: u128,
    max: u64,
}

impl Gaps {
    /// Adds one gap, in ns.
    pub(super) fn add(&mut self, gap: u64) {
        self.count += 1;
        self.sum += u128::from(gap);
        self.max = self.max.max(gap);
        match &mut self.hist {
            Some(h) => h[bucket(gap)] += 1,
            None if self.exact.len() < EXACT_GAPS => self.exact.push(gap),
            None => {
                // Too many to keep: switch to the histogram for good.
                let mut h = vec![0u64; bucket(u64::MAX) + 1];
                for &g in self.exact.iter().chain(std::iter::once(&gap)) {
                    h[bucket(g)] += 1;
                }
                self.exact = Vec::new();
                self.hist = Some(h);
            }
        }
    }

    /// Mean, nearest-rank p50 and p99, and max.
    pub(super) fn summary(&self) -> InterArrival {
        let count = self.count;
        if count == 0 {
            return InterArrival { count, mean: 0.0, p50: 0, p99: 0, max: 0, exact: true };
        }
        let mean = self.sum as f64 / count as f64;
        let (p50, p99, exact) = match &self.hist {
            None => {
                let mut sorted = self.exact.clone();
                sorted.sort_unstable();
                let at = |p| sorted.get(rank(count, p) as usize).copied().unwrap_or(0);
                (at(50), at(99), true)
            }
            Some(h) => {
                let at = |p| {
                    let want = rank(count, p);
                    let mut seen = 0;
                    for (i, &c) in h.iter().enumerate() {
                        seen += c;
                        if seen > want {
                            return bucket_floor(i);
                        }
                    }
                    self.max
                };
                (at(50), at(99), false)
            }
        };
        InterArrival { count, mean, p50, p99, max: self.max, exact }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_round_down_within_one_part_in_128() {
        for v in [0, 1, 127, 128, 129, 255, 256, 1000, 5000, 123_456_789, u64::MAX] {
            let f = bucket_floor(bucket(v));
            assert!(f <= v && v - f <= v / 128, "{v} -> {f}");
        }
        assert_eq!(bucket_floor(bucket(5000)), 4992);
    }

    #[test]
    fn nearest_rank() {
        // Among 5 values: p50 is the 3rd (index 2), p99 the 5th (index 4).
        assert_eq!((rank(5, 50), rank(5, 99)), (2, 4));
        assert_eq!((rank(1, 50), rank(100, 99), rank(101, 99)), (0, 98, 99));
    }
}
