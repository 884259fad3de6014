//! Blocks bucketed by valid-page count, so greedy GC finds its victim without scanning every
//! block. Each bucket is a bitmap over block numbers with a summary bitmap over its words:
//! filing a block is a few bit operations on two words (no linked-list neighbours to touch,
//! which were random memory accesses), and the lowest-numbered block of a bucket — greedy's
//! tie-break — is the first set bit, found through the summary without walking the bucket.
//! The bitmaps take one bit per block per bucket: about one bit per page.
//!
//! Programs hit the same open block page after page. Refiling it one bucket per page would
//! cost two bitmap edits each time, so the [`RECENT`] blocks most recently opened (programmed
//! first since their erase) or collected are held aside with their counts instead (as a
//! simulator keeps its active block out of the buckets) and filed when they drop out. A
//! filed block that is programmed (more blocks open at once than slots: one per unit on
//! many units) is refiled where it is. Queries look at both, so answers never depend on
//! what is held aside.
//!
//! Greedy GC asks for the lowest bucket with a block, and the buckets below it are empty:
//! [`ValidIndex::lowest_bound`] says where that search can start, from a bound on the lowest
//! filed bucket kept as blocks are filed and the counts of the blocks held aside.

use crate::ids::BlockId;

const NIL: u32 = u32::MAX;
/// `bucket` mark of a block held aside.
const ASIDE: u32 = u32::MAX - 1;

/// Blocks held aside: more than the open blocks any scheme programs at once.
pub const RECENT: usize = 8;

/// Written blocks (programmed since their last erase) by valid count.
#[derive(Debug, Clone)]
pub struct ValidIndex {
    /// Words per bucket bitmap, and summary words per bucket.
    words: usize,
    summary_words: usize,
    /// Bucket bitmaps, bucket-major: bit `b` of bucket `v` is set when block `b` is filed there.
    bits: Vec<u64>,
    /// Bit `w` of bucket `v`'s summary is set when word `w` of its bitmap is non-zero.
    summary: Vec<u64>,
    /// Blocks filed per bucket.
    count: Vec<u32>,
    /// No bucket below this one has a block filed (held-aside blocks are not filed): lowered
    /// when a block is filed lower, raised past buckets emptied by taking a block out.
    low: u32,
    /// Bucket of each block: a valid count, NIL (not indexed) or ASIDE.
    bucket: Vec<u32>,
    /// Blocks held aside (NIL: empty slot), their valid counts (`NIL` for an empty slot, which
    /// no bucket asked matches) and when each last became the
    /// most recently used slot (blocks are programmed only through the slot they are in, so
    /// this orders the slots as their last use does, and the clock moves only when the slot
    /// in use changes, not at every program).
    recent: [u32; RECENT],
    recent_valid: [u32; RECENT],
    recent_used: [u64; RECENT],
    clock: u64,
    /// Slot of the last block held aside or updated there (checked first).
    mru: usize,
    /// The slot `mru` held before (a block programmed and a GC victim's invalidations take
    /// turns: both are found without a search).
    mru_before: usize,
}

impl ValidIndex {
    /// An empty index for `blocks` blocks of at most `max_valid` valid pages.
    pub fn new(blocks: u32, max_valid: u32) -> Self {
        let buckets = max_valid as usize + 1;
        let words = (blocks as usize).div_ceil(64).max(1);
        let summary_words = words.div_ceil(64);
        ValidIndex {
            words,
            summary_words,
            bits: vec![0; buckets * words],
            summary: vec![0; buckets * summary_words],
            count: vec![0; buckets],
            low: buckets as u32,
            bucket: vec![NIL; blocks as usize],
            recent: [NIL; RECENT],
            recent_valid: [NIL; RECENT],
            recent_used: [0; RECENT],
            clock: 0,
            mru: 0,
            mru_before: 0,
        }
    }

    #[inline(always)] // hot path: see docs/perf.md, "Calls on the hot path"
    fn file(&mut self, block: BlockId, valid: u32) {
        let (v, b) = (valid as usize, block as usize);
        let w = b / 64;
        self.bits[v * self.words + w] |= 1 << (b % 64);
        self.summary[v * self.summary_words + w / 64] |= 1 << (w % 64);
        self.count[v] += 1;
        self.low = self.low.min(valid);
        self.bucket[b] = valid;
    }

    /// Takes a filed block out of its bucket.
    #[inline(always)] // hot path: see docs/perf.md, "Calls on the hot path"
    fn unfile(&mut self, block: BlockId) {
        let b = block as usize;
        let v = self.bucket[b] as usize;
        let w = b / 64;
        let word = &mut self.bits[v * self.words + w];
        *word &= !(1 << (b % 64));
        if *word == 0 {
            self.summary[v * self.summary_words + w / 64] &= !(1 << (w % 64));
        }
        self.count[v] -= 1;
        self.bucket[b] = NIL;
        if self.count[v] == 0 && v == self.low as usize {
            self.raise_low();
        }
    }

    /// Moves the bound up past empty buckets (after the lowest one lost its last block).
    fn raise_low(&mut self) {
        let buckets = self.count.len();
        let mut low = self.low as usize;
        while low < buckets && self.count[low] == 0 {
            low += 1;
        }
        self.low = low as u32;
    }

    fn slot_of(&self, block: BlockId) -> Option<usize> {
        // `% RECENT` keeps the slots in range without a bounds check (they always are).
        let (mru, before) = (self.mru % RECENT, self.mru_before % RECENT);
        if self.recent[mru] == block {
            return Some(mru);
        }
        if self.recent[before] == block {
            return Some(before);
        }
        self.recent.iter().position(|&b| b == block)
    }

    /// `block` was programmed and now holds `valid` valid pages: update its slot, refile it
    /// if it is filed, else (its first program since its erase) hold it aside, filing the
    /// least recently used block held there if the slots are full.
    #[inline(always)] // hot path: see docs/perf.md, "Calls on the hot path"
    pub fn programmed(&mut self, block: BlockId, valid: u32) {
        // Page after page goes to the block programmed last: its slot, without looking up
        // its bucket (a block in a slot is held aside; no block is NIL), and already the
        // latest set.
        let mru = self.mru % RECENT;
        if self.recent[mru] == block {
            self.recent_valid[mru] = valid;
            return;
        }
        match self.bucket[block as usize] {
            ASIDE => {
                if let Some(i) = self.slot_of(block) {
                    self.clock += 1;
                    (self.recent_valid[i], self.recent_used[i]) = (valid, self.clock);
                    self.touch(i);
                    return;
                }
            }
            // A filed block, programmed again after other blocks took its slot: more blocks
            // are programmed in turn than there are slots (an open block per unit, 16 x 8
            // units, written round-robin). Setting it aside would file another block only to
            // be undone before its next program, so it moves to its new bucket where it is.
            // Only a block programmed for the first time since its erase is set aside, so a
            // run of programs ends as one program of the run's last count does.
            NIL => {}
            v => {
                if v != valid {
                    self.refile(block, v as usize, valid);
                }
                return;
            }
        }
        self.set_aside(block, valid);
    }

    /// Holds `block`, which has `valid` valid pages, aside in the least recently set slot
    /// (filing the block held there), taking it out of its bucket.
    fn set_aside(&mut self, block: BlockId, valid: u32) {
        self.clock += 1;
        let i = (0..RECENT).min_by_key(|&i| self.recent_used[i]).unwrap_or(0);
        let old = self.recent[i];
        if old != NIL {
            self.file(old, self.recent_valid[i]);
        }
        if self.bucket[block as usize] != NIL {
            self.unfile(block);
        }
        self.bucket[block as usize] = ASIDE;
        (self.recent[i], self.recent_valid[i], self.recent_used[i]) = (block, valid, self.clock);
        self.touch(i);
    }

    /// Slot `i` is the most recently used.
    fn touch(&mut self, i: usize) {
        if i != self.mru {
            (self.mru_before, self.mru) = (self.mru, i);
        }
    }

    /// `block`, holding `valid` valid pages, is a GC victim: its count falls page by page
    /// until it is erased, so it is held aside (a slot update per page) rather than refiled
    /// one bucket down each time.
    pub fn collecting(&mut self, block: BlockId, valid: u32) {
        if self.bucket[block as usize] != ASIDE {
            self.set_aside(block, valid);
        }
    }

    /// Files `block` under `valid` (indexing it if it was not).
    #[inline(always)] // hot path: see docs/perf.md, "Calls on the hot path"
    pub fn set(&mut self, block: BlockId, valid: u32) {
        match self.bucket[block as usize] {
            ASIDE => {
                if let Some(i) = self.slot_of(block) {
                    self.recent_valid[i] = valid;
                }
            }
            v if v == valid => {}
            NIL => self.file(block, valid),
            v => self.refile(block, v as usize, valid),
        }
    }

    /// [`ValidIndex::unfile`] of `block` from bucket `from`, then [`ValidIndex::file`] under
    /// `valid`, with its bitmap word and bit found once (an invalidation moves a block one
    /// bucket down).
    #[inline(always)] // hot path: see docs/perf.md, "Calls on the hot path"
    fn refile(&mut self, block: BlockId, from: usize, valid: u32) {
        let b = block as usize;
        let (w, bit, summary_bit) = (b / 64, 1u64 << (b % 64), 1u64 << ((b / 64) % 64));
        let word = &mut self.bits[from * self.words + w];
        *word &= !bit;
        if *word == 0 {
            self.summary[from * self.summary_words + w / 64] &= !summary_bit;
        }
        self.count[from] -= 1;
        let to = valid as usize;
        self.bits[to * self.words + w] |= bit;
        self.summary[to * self.summary_words + w / 64] |= summary_bit;
        self.count[to] += 1;
        // An invalidation moves a block down, so the bound can only fall here (a bucket
        // emptied above the bound leaves it a bound).
        self.low = self.low.min(valid);
        self.bucket[b] = valid;
    }

    /// Drops `block` from the index (it was erased).
    pub fn remove(&mut self, block: BlockId) {
        match self.bucket[block as usize] {
            ASIDE => {
                if let Some(i) = self.slot_of(block) {
                    (self.recent[i], self.recent_valid[i], self.recent_used[i]) = (NIL, NIL, 0);
                }
                self.bucket[block as usize] = NIL;
            }
            NIL => {}
            _ => self.unfile(block),
        }
    }

    /// No block, filed or held aside, has fewer valid pages than this: greedy's search from
    /// here finds what a search from 0 finds, without asking the empty buckets below.
    #[inline]
    pub fn lowest_bound(&self) -> u32 {
        self.recent_valid.iter().fold(self.low, |low, &n| low.min(n))
    }

    /// Blocks filed under `valid`, lowest first (not those held aside).
    fn filed(&self, valid: u32) -> impl Iterator<Item = BlockId> + '_ {
        let v = valid as usize;
        let bits = &self.bits[v * self.words..(v + 1) * self.words];
        let summary = &self.summary[v * self.summary_words..(v + 1) * self.summary_words];
        let non_empty = self.count[v] > 0;
        summary
            .iter()
            .enumerate()
            .filter(move |_| non_empty)
            .flat_map(|(s, &sw)| set_bits(sw).map(move |i| s * 64 + i))
            .flat_map(move |w| set_bits(bits[w]).map(move |i| (w * 64 + i) as BlockId))
    }

    /// The lowest-numbered block with `valid` valid pages that `accept` allows.
    ///
    /// Greedy GC asks bucket after bucket, most of them empty, so an empty bucket answers
    /// before any walk starts, and the walk is plain loops over the summary and bitmap
    /// words: the iterator chain of `ValidIndex::filed` is a 120-byte value that wasm moves with
    /// a `memory.copy`, which V8 runs as a call into C, once per bucket asked.
    pub fn min_in(&self, valid: u32, accept: &impl Fn(BlockId) -> bool) -> Option<BlockId> {
        self.min_in_among(valid, None, accept)
    }

    /// As [`ValidIndex::min_in`], among the blocks set in `among` (bit `b % 64` of word
    /// `b / 64`; blocks past its end are not among them) when given: the walk skips the
    /// others 64 at a time, without asking `accept`.
    #[inline(always)] // `min_in` passes `None`, which then costs nothing
    pub fn min_in_among(
        &self,
        valid: u32,
        among: Option<&[u64]>,
        accept: &impl Fn(BlockId) -> bool,
    ) -> Option<BlockId> {
        let v = valid as usize;
        // Greedy asks bucket after bucket, most of them empty and holding no block aside:
        // one comparison of all the slots' counts at once (no branch per slot) answers those.
        let maybe_aside = self.recent_valid.iter().fold(false, |any, &n| any | (n == valid));
        if !maybe_aside && self.count[v] == 0 {
            return None;
        }
        let mask = |w: usize| among.map_or(u64::MAX, |m| m.get(w).copied().unwrap_or(0));
        let aside = (0..RECENT).filter(|&i| {
            let b = self.recent[i];
            b != NIL && self.recent_valid[i] == valid && mask(b as usize / 64) >> (b % 64) & 1 == 1
        });
        let best = aside.map(|i| self.recent[i]).filter(|&b| accept(b)).min();
        if self.count[v] == 0 {
            return best;
        }
        let bits = &self.bits[v * self.words..(v + 1) * self.words];
        let summary = &self.summary[v * self.summary_words..(v + 1) * self.summary_words];
        for (s, &sw) in summary.iter().enumerate() {
            let mut sw = sw;
            while sw != 0 {
                let w = s * 64 + sw.trailing_zeros() as usize;
                sw &= sw - 1;
                let mut word = bits[w] & mask(w);
                while word != 0 {
                    let b = (w * 64 + word.trailing_zeros() as usize) as BlockId;
                    word &= word - 1;
                    if best.is_some_and(|x| b >= x) {
                        return best;
                    }
                    if accept(b) {
                        return Some(b);
                    }
                }
            }
        }
        best
    }

    /// Starts loading `block`'s bucket entry (see [`crate::prefetch`]).
    pub fn prefetch(&self, block: BlockId) {
        crate::prefetch::element(&self.bucket, block as usize);
    }

    /// Which bucket `block` is filed under (`None` when not indexed), for consistency checks.
    pub fn bucket_of(&self, block: BlockId) -> Option<u32> {
        match self.bucket[block as usize] {
            ASIDE => self.slot_of(block).map(|i| self.recent_valid[i]),
            NIL => None,
            v => Some(v),
        }
    }

    /// How many blocks, filed or held aside, have `valid` valid pages.
    pub fn len_of(&self, valid: u32) -> u32 {
        let aside = (0..RECENT).filter(|&i| self.recent[i] != NIL && self.recent_valid[i] == valid).count();
        self.count.get(valid as usize).copied().unwrap_or(0) + aside as u32
    }

    /// Blocks filed under `valid`: those held aside, then the bucket's, lowest first.
    pub fn blocks_in(&self, valid: u32) -> Vec<BlockId> {
        let aside = (0..RECENT).filter(|&i| self.recent[i] != NIL && self.recent_valid[i] == valid);
        aside.map(|i| self.recent[i]).chain(self.filed(valid)).collect()
    }
}

/// Positions of the set bits of `word`, lowest first.
fn set_bits(mut word: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (word != 0).then(|| {
            let i = word.trailing_zeros() as usize;
            word &= word - 1;
            i
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_follow_moves_and_removals() {
        let mut ix = ValidIndex::new(6, 4);
        for (b, v) in [(0, 3), (1, 1), (2, 1), (3, 4), (5, 1)] {
            ix.set(b, v);
        }
        assert_eq!(ix.min_in(1, &|_| true), Some(1));
        assert_eq!(ix.min_in(1, &|b| b != 1), Some(2));
        ix.set(1, 2);
        ix.remove(2);
        assert_eq!(ix.min_in(1, &|_| true), Some(5));
        assert_eq!(ix.min_in(2, &|_| true), Some(1));
        assert_eq!(ix.min_in(0, &|_| true), None);
        ix.remove(4); // never indexed: no-op
        ix.set(5, 1); // same bucket: no-op
        assert_eq!(ix.min_in(1, &|_| true), Some(5));
    }

    /// The search from the bound finds what a walk of every bucket from 0 finds, for any
    /// accepted set, through random files, refiles, blocks set aside and removals (victims
    /// taken from the lowest bucket, as GC takes them, so that the bound has to move up).
    #[test]
    fn a_search_from_the_bound_matches_a_walk_from_zero() {
        let (blocks, max) = (200u32, 16u32);
        let mut ix = ValidIndex::new(blocks, max);
        let mut rng = crate::test_rng::Rng(777);
        let walk = |ix: &ValidIndex, from: u32, accept: &dyn Fn(BlockId) -> bool| {
            (from..=max).find_map(|v| ix.min_in(v, &|b| accept(b)).map(|b| (v, b)))
        };
        for step in 0..20_000 {
            let x = rng.next();
            let b = (x >> 33) as u32 % blocks;
            match (x >> 20) % 10 {
                0 => ix.remove(b),
                1 => {
                    // GC: the lowest block held aside while collected, then erased.
                    if let Some((v, victim)) = walk(&ix, ix.lowest_bound(), &|_| true) {
                        ix.collecting(victim, v);
                        if x >> 60 & 1 == 0 {
                            ix.remove(victim);
                        }
                    }
                }
                2..=4 => ix.programmed(b, (x >> 40) as u32 % (max + 1)),
                5..=7 => {
                    // An invalidation: one bucket down.
                    if let Some(v) = ix.bucket_of(b).filter(|&v| v > 0) {
                        ix.set(b, v - 1);
                    }
                }
                _ => ix.set(b, (x >> 40) as u32 % (max + 1)),
            }
            let units = 1 + (x >> 50) as u32 % 8;
            let unit = (x >> 45) as u32 % units;
            let accept = move |b: BlockId| b % units == unit;
            assert_eq!(
                walk(&ix, ix.lowest_bound(), &accept),
                walk(&ix, 0, &accept),
                "step {step}, unit {unit} of {units}"
            );
        }
    }

    /// The index answers as a plain map from block to valid count would, whichever blocks
    /// are held aside: random programs, sets, removals and victims about to be collected over
    /// more blocks than the recent slots and than one bitmap word.
    #[test]
    fn answers_match_a_plain_map_through_evictions() {
        let (blocks, max) = (150u32, 6u32);
        let mut ix = ValidIndex::new(blocks, max);
        let mut want: Vec<Option<u32>> = vec![None; blocks as usize];
        let mut rng = crate::test_rng::Rng(12345);
        for step in 0..5000 {
            let x = rng.next();
            let b = (x >> 33) as u32 % blocks;
            let v = (x >> 40) as u32 % (max + 1);
            match (x >> 20) % 8 {
                0 => {
                    ix.remove(b);
                    want[b as usize] = None;
                }
                7 => {
                    // A written block about to be collected (its count unchanged).
                    if let Some(n) = want[b as usize] {
                        ix.collecting(b, n);
                    }
                }
                1..=3 => {
                    ix.programmed(b, v);
                    want[b as usize] = Some(v);
                }
                _ => {
                    ix.set(b, v);
                    want[b as usize] = Some(v);
                }
            }
            // A set of candidates that changes as the run goes, and stops short of the last
            // blocks (past its end a block is not among them).
            let among = |b: BlockId| b < blocks - 20 && !(b / 3 + step / 500).is_multiple_of(4);
            let mut words = vec![0u64; (blocks as usize - 20).div_ceil(64)];
            (0..blocks).filter(|&b| among(b)).for_each(|b| words[b as usize / 64] |= 1 << (b % 64));
            for v in 0..=max {
                let odd = |b: BlockId| b % 2 == 1;
                let held = (0..blocks).filter(|&b| want[b as usize] == Some(v)).count();
                assert_eq!(ix.len_of(v) as usize, held, "step {step}, bucket {v}: its size");
                let expect = (0..blocks).find(|&b| want[b as usize] == Some(v) && odd(b));
                assert_eq!(ix.min_in(v, &odd), expect, "step {step}, bucket {v}");
                let expect = (0..blocks).find(|&b| want[b as usize] == Some(v) && odd(b) && among(b));
                assert_eq!(ix.min_in_among(v, Some(&words), &odd), expect, "among, step {step}, bucket {v}");
            }
            assert_eq!(ix.bucket_of(b), want[b as usize]);
            let fewest = want.iter().flatten().min().copied().unwrap_or(max + 1);
            assert!(ix.lowest_bound() <= fewest, "step {step}: bound {} above {fewest}", ix.lowest_bound());
        }
        for v in 0..=max {
            let mut got = ix.blocks_in(v);
            got.sort_unstable();
            let expect: Vec<BlockId> = (0..blocks).filter(|&b| want[b as usize] == Some(v)).collect();
            assert_eq!(got, expect, "bucket {v}");
        }
    }
}
