//! The DTP index's ranges by LPN: which records' `[min, max]` hold an LPN, newest first,
//! without a range check of every record.
//!
//! A lookup used to test all the records' ranges (about 1,600 of them, 32 at a time), while
//! only the few dozen whose range reaches the LPN matter. Here each record is listed in the
//! buckets of `2^BUCKET_SHIFT` LPNs its range touches, so a lookup reads one bucket's list. A
//! record touching more than [`WIDE_BUCKETS`] buckets (a sparse DTP) is listed once, among
//! the wide ones every lookup checks, so no record costs more than that many list entries.
//!
//! Only where the records are found changes: the scheme still charges one range check per
//! record the paper's list scan passes (positions in the list, counted by the caller).

/// A bucket holds `1 << BUCKET_SHIFT` LPNs.
const BUCKET_SHIFT: u32 = 11;
/// The most buckets a record is listed in; wider records are checked by every lookup.
const WIDE_BUCKETS: u32 = 64;

/// A record's id and range (`max − min` as the width: one wrapping subtraction tests it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Span {
    id: u32,
    min: u32,
    width: u32,
}

impl Span {
    fn holds(&self, lpn: u32) -> bool {
        lpn.wrapping_sub(self.min) <= self.width
    }
}

/// The records' ranges, listed by bucket; each list sorted by id (ids grow as records are
/// added, so a list is appended to and searched by id).
#[derive(Debug, Clone, Default)]
pub struct Ranges {
    buckets: Vec<Vec<Span>>,
    wide: Vec<Span>,
}

impl Ranges {
    /// The buckets `min..=max` touches, or `None` when the record is a wide one.
    fn buckets_of(min: u32, max: u32) -> Option<std::ops::RangeInclusive<usize>> {
        let (first, last) = (min >> BUCKET_SHIFT, max >> BUCKET_SHIFT);
        (last - first < WIDE_BUCKETS).then_some(first as usize..=last as usize)
    }

    /// Adds record `id` (larger than every id held) with range `min..=max`.
    pub fn add(&mut self, id: u32, min: u32, max: u32) {
        let span = Span { id, min, width: max - min };
        match Self::buckets_of(min, max) {
            Some(buckets) => {
                if *buckets.end() >= self.buckets.len() {
                    self.buckets.resize_with(buckets.end() + 1, Vec::new);
                }
                for b in buckets {
                    debug_assert!(self.buckets[b].last().is_none_or(|s| s.id < id), "ids grow");
                    self.buckets[b].push(span);
                }
            }
            None => self.wide.push(span),
        }
    }

    /// Removes record `id`, added with range `min..=max`.
    pub fn remove(&mut self, id: u32, min: u32, max: u32) {
        let drop = |list: &mut Vec<Span>| {
            if let Ok(i) = list.binary_search_by_key(&id, |s| s.id) {
                list.remove(i);
            }
        };
        match Self::buckets_of(min, max) {
            Some(buckets) => self.buckets[buckets].iter_mut().for_each(drop),
            None => drop(&mut self.wide),
        }
    }

    /// The largest id below `below` whose range holds `lpn`.
    pub fn last_holding(&self, lpn: u32, below: u32) -> Option<u32> {
        let last = |list: &[Span]| {
            let end = list.partition_point(|s| s.id < below);
            list[..end].iter().rev().find(|s| s.holds(lpn)).map(|s| s.id)
        };
        let listed = self.buckets.get((lpn >> BUCKET_SHIFT) as usize).and_then(|l| last(l));
        listed.max(last(&self.wide))
    }

    /// List entries held (each record once per bucket it is listed in).
    #[cfg(test)]
    pub fn entries(&self) -> usize {
        self.buckets.iter().map(Vec::len).sum::<usize>() + self.wide.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Random records added (ids growing) and removed, narrow and wide, near bucket edges:
    /// every answer is the one a check of every record gives.
    #[test]
    fn finds_the_newest_record_holding_an_lpn_below_an_id_as_a_full_scan_does() {
        let mut rng = crate::test_rng::Rng(11);
        let mut ranges = Ranges::default();
        let mut all: Vec<(u32, u32, u32)> = Vec::new();
        let bucket_lpns = 1u32 << BUCKET_SHIFT;
        let space = 64 * bucket_lpns * 3;
        for id in 0..3000u32 {
            if all.len() < 200 && rng.below(3) != 0 {
                let min = rng.below(u64::from(space)) as u32;
                let width = match rng.below(4) {
                    0 => rng.below(8) as u32,
                    1 => rng.below(u64::from(bucket_lpns) * 2) as u32,
                    2 => rng.below(u64::from(bucket_lpns * WIDE_BUCKETS) + 10) as u32,
                    _ => rng.below(u64::from(space)) as u32,
                };
                ranges.add(id, min, min + width);
                all.push((id, min, min + width));
            } else if !all.is_empty() {
                let (id, min, max) = all.remove(rng.below(all.len() as u64) as usize);
                ranges.remove(id, min, max);
            }
            for _ in 0..10 {
                let lpn = rng.below(u64::from(space) * 2) as u32;
                let below = if rng.below(2) == 0 { u32::MAX } else { rng.below(u64::from(id) + 2) as u32 };
                let full = all.iter().rev().find(|&&(i, lo, hi)| i < below && (lo..=hi).contains(&lpn));
                assert_eq!(ranges.last_holding(lpn, below), full.map(|r| r.0), "LPN {lpn} below id {below}");
            }
        }
        // Removing every record leaves no list entry.
        for (id, min, max) in all.drain(..) {
            ranges.remove(id, min, max);
        }
        assert_eq!(ranges.entries(), 0);
    }
}
