//! The Ghost-CMT's LPNs as a sorted set built for its packing question, "which `n` held
//! keys have the smallest spread (max − min)?", asked once per DTP written.
//!
//! Walking every held key per question (a sorted tree, as before) cost `O(G)` for a
//! Ghost-CMT of `G` entries, tens of thousands of steps for each DTP of a few hundred
//! entries. Here the keys are a bitmap over the LPN space with a count per bucket of
//! [`BUCKET`] LPNs: a window of `n` keys with spread `s` lies within the buckets from its
//! first key's to `s / BUCKET + 1` further, so a bucket from which that stretch holds fewer
//! than `n` keys cannot start a window as tight as the best one found so far. The answer is
//! exactly [`crate::cache::tightest_window`]'s (smallest spread, ties to the lowest keys);
//! the search starts in the densest stretch so the bound prunes early, a group of
//! [`GROUP`] buckets too sparse for the bound is skipped whole, and a window's last key is
//! found by counting, not by walking the `n` keys before it. Inserting and removing a key
//! are O(1).

use std::cmp::Reverse;

/// LPNs per bucket (a power of two): 4 bitmap words.
const BUCKET: u32 = 256;
/// Buckets per group.
const GROUP: usize = 16;

/// A set of `u32` keys from a dense range (LPNs), with per-bucket and per-group counts.
#[derive(Debug, Clone, Default)]
pub struct KeySet {
    words: Vec<u64>,
    counts: Vec<u32>,
    groups: Vec<u32>,
    len: usize,
}

impl KeySet {
    /// Keys held.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether `key` is held.
    pub fn contains(&self, key: u32) -> bool {
        self.words.get(key as usize / 64).is_some_and(|w| w >> (key % 64) & 1 == 1)
    }

    /// Adds `key`; false when it was held already.
    #[inline]
    pub fn insert(&mut self, key: u32) -> bool {
        let w = key as usize / 64;
        if w >= self.words.len() {
            self.grow(w);
        }
        let bit = 1u64 << (key % 64);
        if self.words[w] & bit != 0 {
            return false;
        }
        self.words[w] |= bit;
        self.counts[(key / BUCKET) as usize] += 1;
        self.groups[(key / BUCKET) as usize / GROUP] += 1;
        self.len += 1;
        true
    }

    /// Adds `keys`, none of them held (the CMT's victims, runs of ascending LPNs): keys of
    /// one bitmap word that come one after another are set together, and that word's bucket
    /// and group counts raised once.
    pub fn insert_new(&mut self, keys: impl IntoIterator<Item = u32>) {
        let (mut w, mut mask) = (usize::MAX, 0u64);
        for key in keys {
            let kw = key as usize / 64;
            if kw != w {
                self.set_new(w, mask);
                (w, mask) = (kw, 0);
            }
            mask |= 1 << (key % 64);
        }
        self.set_new(w, mask);
    }

    /// Sets the keys of `mask` in word `w`, none of them held.
    fn set_new(&mut self, w: usize, mask: u64) {
        if mask == 0 {
            return;
        }
        if w >= self.words.len() {
            self.grow(w);
        }
        debug_assert_eq!(self.words[w] & mask, 0, "a key held already");
        self.words[w] |= mask;
        let (ones, b) = (mask.count_ones(), w / (BUCKET as usize / 64));
        self.counts[b] += ones;
        self.groups[b / GROUP] += ones;
        self.len += ones as usize;
    }

    /// Makes room for the keys of word `w`.
    #[cold]
    #[inline(never)]
    fn grow(&mut self, w: usize) {
        let words = (w + 1).next_power_of_two().max(BUCKET as usize / 64);
        self.words.resize(words, 0);
        self.counts.resize(words / (BUCKET as usize / 64), 0);
        self.groups.resize(self.counts.len().div_ceil(GROUP), 0);
    }

    /// Removes `key`; false when it was not held.
    pub fn remove(&mut self, key: u32) -> bool {
        if !self.contains(key) {
            return false;
        }
        self.words[key as usize / 64] &= !(1u64 << (key % 64));
        self.counts[(key / BUCKET) as usize] -= 1;
        self.groups[(key / BUCKET) as usize / GROUP] -= 1;
        self.len -= 1;
        true
    }

    /// Removes `keys` (ascending, all held): a word's keys are cleared together, and its
    /// bucket and group counts lowered once. When they are every key held from the first
    /// to the last (a tightest window always is), the words between are cleared whole, with
    /// no pass over the keys (whose word changes mispredicted a branch each).
    pub fn remove_sorted(&mut self, keys: &[u32]) {
        debug_assert!(keys.is_sorted() && keys.iter().all(|&k| self.contains(k)));
        if let (Some(&lo), Some(&hi)) = (keys.first(), keys.last()) {
            if self.count_between(lo, hi) == keys.len() {
                self.clear_between(lo, hi);
                self.len -= keys.len();
                return;
            }
        }
        let mut i = 0;
        while i < keys.len() {
            let w = keys[i] as usize / 64;
            let mut mask = 0u64;
            while i < keys.len() && keys[i] as usize / 64 == w {
                mask |= 1u64 << (keys[i] % 64);
                i += 1;
            }
            self.words[w] &= !mask;
            let (ones, b) = (mask.count_ones(), w / (BUCKET as usize / 64));
            self.counts[b] -= ones;
            self.groups[b / GROUP] -= ones;
        }
        self.len -= keys.len();
    }

    /// The bits of word `w` that stand for keys `lo..=hi`.
    fn mask_between(w: usize, lo: u32, hi: u32) -> u64 {
        let first = if w == lo as usize / 64 { lo % 64 } else { 0 };
        let last = if w == hi as usize / 64 { hi % 64 } else { 63 };
        (u64::MAX >> (63 - last)) & (u64::MAX << first)
    }

    /// How many keys `lo..=hi` (held ones, `lo <= hi`) are held.
    fn count_between(&self, lo: u32, hi: u32) -> usize {
        let (a, b) = (lo as usize / 64, hi as usize / 64);
        (a..=b).map(|w| (self.words[w] & Self::mask_between(w, lo, hi)).count_ones() as usize).sum()
    }

    /// Removes every held key of `lo..=hi` (held ones), a word at a time; the caller
    /// lowers `len`.
    fn clear_between(&mut self, lo: u32, hi: u32) {
        for w in lo as usize / 64..=hi as usize / 64 {
            let mask = Self::mask_between(w, lo, hi);
            let ones = (self.words[w] & mask).count_ones();
            self.words[w] &= !mask;
            let b = w / (BUCKET as usize / 64);
            self.counts[b] -= ones;
            self.groups[b / GROUP] -= ones;
        }
    }

    /// Keys ascending.
    pub fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        self.keys_in(0, self.counts.len())
    }

    /// Keys of buckets `from..to`, ascending.
    fn keys_in(&self, from: usize, to: usize) -> impl Iterator<Item = u32> + '_ {
        let per = BUCKET as usize / 64;
        let words = &self.words[from * per..to.min(self.counts.len()) * per];
        words.iter().enumerate().flat_map(move |(i, &w)| {
            let base = ((from * per + i) * 64) as u32;
            BitIter(w).map(move |b| base + b)
        })
    }

    /// The `n` keys with the smallest spread, ascending; ties go to the lowest keys; all
    /// keys when `n` or fewer are held. The same answer as
    /// [`tightest_window`](crate::cache::tightest_window) over [`KeySet::iter`].
    #[cfg(test)]
    pub fn tightest(&self, n: usize) -> Vec<u32> {
        let mut keys = Vec::new();
        self.tightest_into(n, &mut keys);
        keys
    }

    /// [`KeySet::tightest`] into `keys` (emptied first; a buffer kept from one DTP to the
    /// next, so packing allocates nothing).
    pub fn tightest_into(&self, n: usize, keys: &mut Vec<u32>) {
        keys.clear();
        if n == 0 {
            return;
        }
        if self.len <= n {
            keys.extend(self.iter());
            return;
        }
        let buckets = self.counts.len();
        let mut search = Search { set: self, n, best: None };
        // A first bound from the group that, with the next one, holds the most keys.
        let pair = |g: usize| self.groups[g] + self.groups.get(g + 1).copied().unwrap_or(0);
        let densest = (0..self.groups.len()).max_by_key(|&g| (pair(g), Reverse(g))).unwrap_or(0);
        for a in densest * GROUP..((densest + 2) * GROUP).min(buckets) {
            search.visit(a);
        }
        // Then every group in order, the end of each bucket's first window found by a
        // sliding sum (its end bucket never moves back as the start moves on).
        let mut slide = Slide { a: 0, b: 0, keys: 0 };
        for (g, &held) in self.groups.iter().enumerate() {
            // The first bound's groups had all their windows tried already, under a bound no
            // tighter than any later one.
            if held == 0 || g == densest || g == densest + 1 {
                continue;
            }
            // The keys a window from this group can reach within the bound: too few, and no
            // bucket of the group can start one.
            let (first, end) = (g * GROUP, ((g + 1) * GROUP).min(buckets));
            if (held as usize) < n && self.keys_between(end, search.reach(end - 1), n - held as usize) {
                continue;
            }
            for a in first..end {
                search.visit_in_order(a, &mut slide);
            }
        }
        let (spread, first) = search.best.expect("more than n keys held");
        keys.reserve(n);
        self.keys_from_rank((first / BUCKET) as usize, self.rank_in_bucket(first), buckets, n, keys);
        debug_assert_eq!(keys.first(), Some(&first));
        debug_assert_eq!(keys.last().map(|&k| k - first), Some(spread));
    }

    /// True when buckets `from..to` hold fewer than `wanted` keys (`from` a group's first
    /// bucket): whole groups are summed from their counts, then the buckets of the last,
    /// partial one (summing bucket by bucket cost a tenth of the run on large devices).
    fn keys_between(&self, from: usize, to: usize, wanted: usize) -> bool {
        debug_assert_eq!(from % GROUP, 0);
        // First the whole groups that cover them: most groups are far from any cluster of
        // keys, and their next group alone shows it.
        let cover: u32 = self.groups[from / GROUP..to.div_ceil(GROUP)].iter().sum();
        if (cover as usize) < wanted {
            return true;
        }
        let mut keys = 0;
        let mut b = from;
        while b + GROUP <= to {
            keys += self.groups[b / GROUP] as usize;
            if keys >= wanted {
                return false;
            }
            b += GROUP;
        }
        keys += self.counts[b.min(to)..to].iter().map(|&c| c as usize).sum::<usize>();
        keys < wanted
    }

    /// How many held keys of `key`'s bucket are below it.
    fn rank_in_bucket(&self, key: u32) -> usize {
        let per = BUCKET as usize / 64;
        let w = key as usize / 64;
        let below: u32 = self.words[w / per * per..w].iter().map(|x| x.count_ones()).sum();
        (below + (self.words[w] & ((1u64 << (key % 64)) - 1)).count_ones()) as usize
    }

    /// The word holding the key of rank `rank` within bucket `b` (0: its first; the bucket
    /// holds more than `rank` keys).
    fn word_of_rank(&self, b: usize, mut rank: usize) -> usize {
        let per = BUCKET as usize / 64;
        let mut w = b * per;
        loop {
            let ones = self.words[w].count_ones() as usize;
            if rank < ones {
                return w;
            }
            rank -= ones;
            w += 1;
        }
    }

    /// A mask of word `w` (found by [`KeySet::word_of_rank`] for `b`, `rank`) without the
    /// keys below the one of that rank.
    fn drop_lowest(&self, w: usize, b: usize, rank: usize) -> u64 {
        let per = BUCKET as usize / 64;
        let below: usize = self.words[b * per..w].iter().map(|x| x.count_ones() as usize).sum();
        let mut bits = self.words[w];
        for _ in 0..rank - below {
            bits &= bits - 1;
        }
        bits
    }

    /// Appends to `out`, ascending, at most `most` keys from the one of rank `rank` within
    /// bucket `b` (0: its first) to the end of bucket `end - 1`.
    fn keys_from_rank(&self, b: usize, rank: usize, end: usize, most: usize, out: &mut Vec<u32>) {
        let per = BUCKET as usize / 64;
        let mut w = self.word_of_rank(b, rank);
        let mut bits = self.drop_lowest(w, b, rank);
        let limit = end * per;
        loop {
            for bit in BitIter(bits).take(most - out.len()) {
                out.push((w * 64) as u32 + bit);
            }
            w += 1;
            if out.len() == most || w == limit {
                return;
            }
            bits = self.words[w];
        }
    }
}

/// One tightest-window search: the best window so far.
struct Search<'a> {
    set: &'a KeySet,
    n: usize,
    /// (spread, first key) of the best window so far.
    best: Option<(u32, u32)>,
}

impl Search<'_> {
    /// The bucket after the last one a window starting in bucket `a` reaches with a spread
    /// no wider than the best one's.
    fn reach(&self, a: usize) -> usize {
        let buckets = self.set.counts.len();
        match self.best {
            None => buckets,
            Some((spread, _)) => {
                let last = (a as u64 + 1) * u64::from(BUCKET) - 1 + u64::from(spread);
                ((last / u64::from(BUCKET)) as usize + 1).min(buckets)
            }
        }
    }

    /// Tries the windows starting in bucket `a` that may beat the best one: the window from
    /// a's `i`-th key ends at the key `n - 1` further, found by counts and then read off the
    /// bitmap, so a visit reads a's keys and as many last keys, not the `n` keys between.
    fn visit(&mut self, a: usize) {
        let set = self.set;
        if set.counts[a] == 0 {
            return;
        }
        let reach = self.reach(a);
        let (mut b, mut rank) = (a, self.n - 1);
        while b < reach && rank >= set.counts[b] as usize {
            rank -= set.counts[b] as usize;
            b += 1;
        }
        if b < reach {
            self.try_windows(a, b, rank, reach);
        }
    }

    /// [`Search::visit`] of buckets in ascending order, `slide` carried from one to the
    /// next: the bucket where the window from a's first key ends is found by moving the
    /// previous one on, not by counting from `a` (a visit counted a few dozen buckets).
    fn visit_in_order(&mut self, a: usize, slide: &mut Slide) {
        let set = self.set;
        let buckets = set.counts.len();
        debug_assert!(a >= slide.a);
        // Start at a: the keys of buckets a..b.
        if slide.b <= a {
            *slide = Slide { a, b: a, keys: 0 };
        } else {
            while slide.a < a {
                slide.keys -= set.counts[slide.a] as usize;
                slide.a += 1;
            }
        }
        if set.counts[a] == 0 {
            return;
        }
        // End at the first bucket b where a..=b holds n keys.
        let n = self.n;
        while slide.b < buckets && slide.keys + (set.counts[slide.b] as usize) < n {
            slide.keys += set.counts[slide.b] as usize;
            slide.b += 1;
        }
        let reach = self.reach(a);
        if slide.b < reach {
            self.try_windows(a, slide.b, n - 1 - slide.keys, reach);
        }
    }

    /// Tries every window starting in bucket `a`: the first ends at the key of rank `rank`
    /// within bucket `b`; none may end at or beyond bucket `reach`.
    fn try_windows(&mut self, a: usize, b: usize, rank: usize, reach: usize) {
        let set = self.set;
        let starts = set.counts[a] as usize;
        // Two cursors over the bitmap, the windows' first keys (bucket a's) and their last
        // keys (from rank `rank` of bucket b on), advanced together.
        let per = BUCKET as usize / 64;
        let (mut fw, mut lw) = (a * per, set.word_of_rank(b, rank));
        let mut fbits = set.words[fw];
        let mut lbits = set.drop_lowest(lw, b, rank);
        let limit = reach * per;
        let mut best = self.best.unwrap_or((u32::MAX, u32::MAX));
        for _ in 0..starts {
            while fbits == 0 {
                fw += 1;
                fbits = set.words[fw];
            }
            while lbits == 0 {
                lw += 1;
                if lw == limit {
                    break;
                }
                lbits = set.words[lw];
            }
            if lbits == 0 {
                break;
            }
            let first = (fw * 64) as u32 + fbits.trailing_zeros();
            let last = (lw * 64) as u32 + lbits.trailing_zeros();
            fbits &= fbits - 1;
            lbits &= lbits - 1;
            let cand = (last - first, first);
            if cand < best {
                best = cand;
                self.best = Some(cand);
            }
        }
    }
}

/// A sliding sum for [`Search::visit_in_order`]: buckets `a..b` hold `keys` keys.
struct Slide {
    a: usize,
    b: usize,
    keys: usize,
}

/// Set bit positions of a word, ascending.
struct BitIter(u64);

impl Iterator for BitIter {
    type Item = u32;

    fn next(&mut self) -> Option<u32> {
        if self.0 == 0 {
            return None;
        }
        let b = self.0.trailing_zeros();
        self.0 &= self.0 - 1;
        Some(b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cache::tightest_window;

    /// The pruned search answers as the plain pass does, on random sets of every density,
    /// window sizes from 1 to beyond the set, keys across many buckets.
    #[test]
    fn answers_as_the_plain_pass_on_random_sets() {
        let mut rng = crate::test_rng::Rng(7);
        let mut next = |m: u64| rng.below(m);
        for round in 0..330 {
            // The last rounds as a Ghost-CMT of the 4 GiB workload: 20,000 keys over a
            // million LPNs, many groups of buckets to skip.
            let space = [50, 3000, 40_000, 300_000, 1 << 20][if round < 300 { round % 4 } else { 4 }];
            let count = 1 + next(if round < 300 { 600 } else { 20_000 }) as usize;
            let mut set = KeySet::default();
            let mut keys = Vec::new();
            for _ in 0..count {
                // Clusters as well as uniform keys, so ties and dense stretches occur.
                let (centres, stride, width) = if round < 300 { (20, 997, 40) } else { (50, 20_011, 2000) };
                let k = if next(3) == 0 {
                    next(space) as u32
                } else {
                    ((next(centres) * stride + next(width)) % space) as u32
                };
                if set.insert(k) {
                    keys.push(k);
                }
            }
            keys.retain(|&k| next(5) != 0 || !set.remove(k));
            assert_eq!(set.len(), keys.len());
            for n in [1, 2, 3, 17, 64, 300, 700] {
                assert_eq!(set.tightest(n), tightest_window(keys.iter().copied(), n), "round {round}, n {n}");
            }
        }
    }

    /// Two equal sets of `n` random keys below `space`: one to change key by key, one at once.
    fn twin_sets(rng: &mut crate::test_rng::Rng, space: u64, n: u64) -> (KeySet, KeySet) {
        let (mut one, mut all) = (KeySet::default(), KeySet::default());
        for _ in 0..n {
            let k = rng.below(space) as u32;
            one.insert(k);
            all.insert(k);
        }
        (one, all)
    }

    /// `all` (changed at once) holds what `one` (changed key by key) holds, with the same
    /// counts, and answers the packing question alike.
    fn assert_same(all: &KeySet, one: &KeySet) {
        assert_eq!(
            (&all.words, &all.counts, &all.groups, all.len),
            (&one.words, &one.counts, &one.groups, one.len)
        );
        for n in [1, 5, 64, 512] {
            assert_eq!(all.tightest(n), one.tightest(n));
        }
    }

    /// Removing sorted keys at once leaves the set, its counts and its answers as removing
    /// them one by one does.
    #[test]
    fn removing_sorted_keys_at_once_equals_one_by_one() {
        let mut rng = crate::test_rng::Rng(5);
        for round in 0..200 {
            let space = [300, 5000, 1 << 18][round % 3];
            let n = 1 + rng.below(3000);
            let (mut one, mut all) = twin_sets(&mut rng, space, n);
            let held: Vec<u32> = one.iter().collect();
            let gone: Vec<u32> = if round % 2 == 0 {
                held.iter().copied().filter(|_| rng.below(3) == 0).collect()
            } else {
                let from = rng.below(held.len() as u64) as usize;
                held[from..(from + 1 + rng.below(600) as usize).min(held.len())].to_vec()
            };
            for &k in &gone {
                one.remove(k);
            }
            all.remove_sorted(&gone);
            assert_same(&all, &one);
        }
    }

    /// Adding new keys at once (runs of ascending keys, in any order between runs) leaves
    /// the set, its counts and its answers as adding them one by one does.
    #[test]
    fn inserting_new_keys_at_once_equals_one_by_one() {
        let mut rng = crate::test_rng::Rng(11);
        for round in 0..200 {
            let space = [300, 5000, 1 << 18][round % 3];
            let n = rng.below(2000);
            let (mut one, mut all) = twin_sets(&mut rng, space, n);
            let mut new = Vec::new();
            for _ in 0..1 + rng.below(12) {
                // A run: ascending keys from one stretch, none held.
                let (from, width) = (rng.below(space) as u32, 1 + rng.below(space / 4) as u32);
                let mut run: Vec<u32> = (0..1 + rng.below(200))
                    .map(|_| from.saturating_add(rng.below(u64::from(width)) as u32))
                    .filter(|&k| !one.contains(k) && !new.contains(&k))
                    .collect();
                run.sort_unstable();
                run.dedup();
                new.extend(run);
            }
            for &k in &new {
                one.insert(k);
            }
            all.insert_new(new.iter().copied());
            assert_same(&all, &one);
        }
    }

    #[test]
    fn holds_each_key_once() {
        let mut s = KeySet::default();
        assert!(s.insert(5000) && !s.insert(5000) && s.insert(3));
        assert_eq!(s.iter().collect::<Vec<_>>(), [3, 5000]);
        assert!(s.remove(3) && !s.remove(3) && !s.remove(1 << 30));
        assert!(s.contains(5000) && !s.contains(4999));
        assert_eq!(s.len(), 1);
    }
}
