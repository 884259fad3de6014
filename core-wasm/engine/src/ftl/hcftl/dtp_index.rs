//! HCFTL's DTP index (DTPI, seed 001 §III.C): one record per dynamic translation page on
//! flash, with its physical page (TPPN), the smallest and largest LPN it holds and a bloom
//! filter of its LPNs. Records form a list, the newest at the tail; a lookup scans from the
//! tail to the head because recently written DTPs are the likeliest to be asked for again.
//!
//! A record says "maybe here" when the LPN is inside `[min, max]` and its filter says maybe
//! (the paper's design). Seed 001 Fig. 7(a) compares this with the filter alone and the range
//! alone; [`IndexDesign`] offers all three. A "maybe" that the DTP read disproves is a false
//! positive: a wasted flash read the scheme counts.

use std::collections::VecDeque;
use std::sync::Arc;

use super::ranges::Ranges;
use super::slots::Slots;
use crate::cache::bloom::{has_positions, set_positions};
use crate::cache::BloomFilter;
use crate::flash::Ppn;
use crate::hash::StateHasher;

/// Which tests decide that a DTP may hold an LPN.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IndexDesign {
    /// Range check, then the bloom filter (the paper's DTPI).
    RangeAndBloom,
    /// The bloom filter only ("BF" in Fig. 7(a)).
    Bloom,
    /// The `[min, max]` range only ("MM" in Fig. 7(a)).
    Range,
}

/// One index record (its LPNs and filter are in the index's slots).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Dtpi {
    /// Stable id of the DTP (its spare-area key; ids grow, so the list is sorted by id).
    pub id: u32,
    /// Where the DTP is now.
    pub tppn: Ppn,
    /// Smallest LPN it holds.
    pub min: u32,
    /// Largest LPN it holds.
    pub max: u32,
    /// Its slot in [`DtpIndex::slots`]: the DTP's LPNs, ascending (what the filter is built
    /// from, and what answers a lookup of one of them without it), and its filter, built
    /// when first needed: most DTPs are loaded or merged before any lookup of an LPN they
    /// do not hold passes their range (on the 4 GiB workload about 3 in 4), and a lookup of
    /// an LPN they hold is a "maybe" whatever the bits (a bloom filter has no false
    /// negatives).
    slot: u32,
}

/// The list of records, oldest first.
#[derive(Debug, Clone)]
pub struct DtpIndex {
    /// A deque: merges take the oldest record, which a vector would pay for by moving all
    /// the others (a loaded one is usually near the newest end).
    list: VecDeque<Dtpi>,
    /// The records' ranges by LPN: a lookup finds the records whose range holds its LPN
    /// without checking every record's.
    ranges: Ranges,
    capacity: usize,
    filter_bits: usize,
    hashes: u32,
    design: IndexDesign,
    next_id: u32,
    /// The LPNs the records have held cover `0..lpns_seen` (grown as the arrays over the
    /// LPNs grow; the position table follows it).
    lpns_seen: usize,
    /// The LPNs there are (`lpns_seen` never grows past them).
    key_space: usize,
    /// Each LPN's filter bit positions, `hashes` of them a row, computed once per LPN
    /// (every record's filter has the same size and k): building a filter and testing an
    /// LPN against many filters then only set and test bits. Empty when the positions do
    /// not fit 16 bits or k exceeds [`TABLE_HASHES`], and short of LPNs beyond
    /// [`TABLE_LPNS`]; their positions are computed each time. Shared between the copies
    /// of a simulation (checkpoints): it depends only on the filters' shape, and it takes up
    /// to 32 MB.
    positions: Arc<Vec<u16>>,
    /// An empty filter of the records' size and k: what computes positions.
    shape: BloomFilter,
    /// Each record's LPNs and filter bits, in slots reused from record to record.
    slots: Slots,
    /// The most LPNs the table covers ([`TABLE_LPNS`]; less in tests).
    table_lpns: usize,
}

/// Keys ahead whose position-table rows a filter build asks for.
const PREFETCH_AHEAD: usize = 64;

/// The most LPNs the position table covers: 32 MB at k = 4, a 16 GiB device of 4 KiB pages
/// (host memory stays bounded on the large presets).
const TABLE_LPNS: usize = 1 << 22;

/// The most hash functions the position table serves.
const TABLE_HASHES: usize = 8;

/// No DTP holds the LPN.
pub const NO_DTP: u32 = u32::MAX;

/// Bytes of a record besides its filter: TPPN, min and max, four bytes each.
pub const RECORD_HEADER_BYTES: u64 = 12;

impl DtpIndex {
    /// An empty index of at most `capacity` records, each with a filter of `filter_bits`
    /// bits sized for `keys_per_dtp` keys (k = round(bits per key · ln 2), at least 1).
    pub fn new(capacity: usize, filter_bits: usize, keys_per_dtp: usize, design: IndexDesign) -> Self {
        // As `BloomFilter::for_entries`, in integers so every target sizes alike.
        let per_key_millionths = filter_bits as u64 * 693_147 / keys_per_dtp.max(1) as u64;
        let k = ((per_key_millionths + 500_000) / 1_000_000).max(1) as u32;
        let shape = BloomFilter::new(filter_bits, k);
        DtpIndex {
            list: VecDeque::new(),
            ranges: Ranges::default(),
            capacity,
            filter_bits,
            hashes: k,
            design,
            next_id: 0,
            lpns_seen: 0,
            key_space: usize::MAX,
            positions: Arc::default(),
            slots: Slots::new(keys_per_dtp, shape.words().len()),
            shape,
            table_lpns: TABLE_LPNS,
        }
    }

    /// The same, for LPNs below `key_space` (the device's logical pages).
    pub fn with_key_space(mut self, key_space: usize) -> Self {
        self.key_space = key_space;
        self
    }

    /// Records held.
    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// Most records the RAM holds.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// Hash functions per filter.
    #[cfg(test)]
    pub fn hashes(&self) -> u32 {
        self.hashes
    }

    /// RAM of one record in bytes.
    pub fn record_bytes(&self) -> u64 {
        RECORD_HEADER_BYTES + (self.filter_bits as u64).div_ceil(8)
    }

    /// The id the next DTP will get (its spare-area key, known before it is written).
    pub fn next_id(&self) -> u32 {
        self.next_id
    }

    /// Adds the record of a DTP written at `tppn` holding `lpns` (non-empty, at most the
    /// `keys_per_dtp` the index was made for); returns its id. The caller keeps
    /// which DTP each LPN went to (its holder, [`DtpIndex::next_candidate`]): the scheme
    /// keeps it beside the LPN's CMT entry, whose cache line packing reads anyway.
    pub fn add(&mut self, tppn: Ppn, lpns: &[u32]) -> u32 {
        let sorted;
        let lpns = if lpns.is_sorted() {
            lpns
        } else {
            sorted = {
                let mut v = lpns.to_vec();
                v.sort_unstable();
                v
            };
            &sorted[..]
        };
        let id = self.next_id;
        self.next_id += 1;
        if let Some(&last) = lpns.last() {
            if last as usize >= self.lpns_seen {
                self.lpns_seen = super::grown_len(last as usize, self.key_space);
            }
        }
        self.cover_positions(self.lpns_seen);
        let (min, max) = (lpns.first().copied().unwrap_or(0), lpns.last().copied().unwrap_or(0));
        let slot = self.slots.take(lpns);
        self.list.push_back(Dtpi { id, tppn, min, max, slot });
        self.ranges.add(id, min, max);
        id
    }

    /// The next record below position `before` (scanning towards the head) that may hold
    /// `lpn`, and the filter tests spent finding it (one per range check, one per bloom
    /// test). Start with `before = len()`. `holder` is the id of the last DTP written with
    /// `lpn`'s entry ([`NO_DTP`] if none): that record holds it exactly when it is still in
    /// the index (ids are never reused, an LPN is in at most one DTP), so its filter need
    /// not be built to say "maybe".
    pub fn next_candidate(&mut self, lpn: u32, holder: u32, before: usize) -> (Option<usize>, u64) {
        let before = before.min(self.list.len());
        let probe = Probe::new(self, lpn, holder);
        if self.design == IndexDesign::Bloom {
            let found = (0..before).rev().find(|&pos| self.may_hold(pos, &probe));
            return (found, (before - found.unwrap_or(0)) as u64);
        }
        // The records from `below` down to the one found each had their range checked.
        let mut tests = 0;
        let mut below = before;
        loop {
            let below_id = self.list.get(below).map_or(u32::MAX, |r| r.id);
            let Some(id) = self.ranges.last_holding(lpn, below_id) else { break };
            let pos = self.position(id).expect("every listed range is a record's");
            tests += (below - pos) as u64;
            if self.design == IndexDesign::Range {
                return (Some(pos), tests);
            }
            tests += 1;
            if self.may_hold(pos, &probe) {
                return (Some(pos), tests);
            }
            below = pos;
        }
        (None, tests + below as u64)
    }

    /// The filter answer of the record at `pos` for the probed LPN: "maybe" for its own LPNs
    /// whatever the bits (a bloom filter has no false negatives, so a filter nobody needed
    /// yet is not built for them), the bits for the others.
    fn may_hold(&mut self, pos: usize, probe: &Probe) -> bool {
        let r = self.list[pos];
        if probe.holder == r.id && self.slots.filter(r.slot).is_none() {
            return true;
        }
        let (positions, shape) = (&self.positions, &self.shape);
        let words =
            self.slots.filter_or_build(r.slot, |lpns, words| build_filter(positions, shape, lpns, words));
        match probe.positions() {
            Some(bits) => has_positions(words, bits.iter().copied()),
            None => has_positions(words, shape.positions(u64::from(probe.lpn))),
        }
    }

    /// The bloom filter of record `r` (its bits as built, or as they would be).
    pub fn bloom(&self, r: &Dtpi) -> BloomFilter {
        let lpns = self.slots.lpns(r.slot);
        let words = match self.slots.filter(r.slot) {
            Some(words) => words.to_vec(),
            None => {
                let mut words = vec![0; self.shape.words().len()];
                build_filter(&self.positions, &self.shape, lpns, &mut words);
                words
            }
        };
        BloomFilter::from_words(self.shape.bits(), self.shape.hashes(), lpns.len() as u64, words)
    }

    /// The LPNs of record `r`, ascending.
    pub fn lpns(&self, r: &Dtpi) -> &[u32] {
        self.slots.lpns(r.slot)
    }

    /// Extends the position table to the LPNs below `lpns` (when it is kept; at most
    /// [`TABLE_LPNS`] of them, the rest computed each time).
    fn cover_positions(&mut self, lpns: usize) {
        let k = self.hashes as usize;
        if k > TABLE_HASHES || self.filter_bits > 1 << 16 {
            return;
        }
        let lpns = lpns.min(self.table_lpns);
        let mut lpn = self.positions.len() / k;
        if lpn >= lpns {
            return;
        }
        // A copy shares the table until one of them extends it (its own copy then).
        let table = Arc::make_mut(&mut self.positions);
        table.reserve((lpns - lpn) * k);
        while lpn < lpns {
            table.extend(self.shape.positions(lpn as u64).map(|b| b as u16));
            lpn += 1;
        }
    }

    /// Starts loading what a lookup of `lpn` reads first ([`crate::prefetch`]): its row of
    /// filter positions, at a random place in an array over the LPNs. Changes nothing.
    pub fn prefetch_lookup(&self, lpn: u32) {
        crate::prefetch::element(self.positions.as_slice(), lpn as usize * self.hashes as usize);
    }

    /// The record at position `pos` (0 = oldest).
    pub fn at(&self, pos: usize) -> &Dtpi {
        &self.list[pos]
    }

    /// Position of DTP `id`.
    pub fn position(&self, id: u32) -> Option<usize> {
        self.list.binary_search_by_key(&id, |r| r.id).ok()
    }

    /// Where DTP `id` is, if it is held.
    pub fn tppn_of(&self, id: u32) -> Option<Ppn> {
        self.position(id).map(|p| self.list[p].tppn)
    }

    /// Moves DTP `id` to `tppn` (GC copied it, or a batch update rewrote it).
    pub fn set_tppn(&mut self, id: u32, tppn: Ppn) {
        if let Some(p) = self.position(id) {
            self.list[p].tppn = tppn;
        }
    }

    /// Deletes the record of DTP `id` (loaded into the CMT or merged) and returns where the
    /// DTP is. Not the record itself: its slot goes back for reuse now, so its LPNs and
    /// filter are no longer its own.
    pub fn remove(&mut self, id: u32) -> Option<Ppn> {
        let p = self.position(id)?;
        self.ranges.remove(id, self.list[p].min, self.list[p].max);
        // Its LPNs' holders (kept by the caller) name an id no record has any more.
        let r = self.list.remove(p)?;
        self.slots.give_back(r.slot);
        Some(r.tppn)
    }

    /// Records, oldest first.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = &Dtpi> + ExactSizeIterator + '_ {
        self.list.iter()
    }

    /// Feeds the index into a hash.
    pub fn hash_into(&self, h: &mut StateHasher) {
        h.u32(self.next_id);
        for r in self.list.iter() {
            h.u32(r.id);
            h.u32(r.tppn);
            h.u32(r.min);
            h.u32(r.max);
            self.bloom(r).hash_into(h);
        }
    }
}

/// Sets the filter bits `words` (of `shape`'s size and k, zeroed) of `lpns`, from each
/// LPN's row of the position table `positions` where it has one (the same bits as inserting
/// each LPN into a [`BloomFilter`] of that shape).
fn build_filter(positions: &[u16], shape: &BloomFilter, lpns: &[u32], words: &mut [u64]) {
    let k = shape.hashes() as usize;
    for (i, &lpn) in lpns.iter().enumerate() {
        // The rows are scattered over the table (a cache miss each): ask for the ones a few
        // keys ahead while setting these.
        if let Some(&ahead) = lpns.get(i + PREFETCH_AHEAD) {
            crate::prefetch::element(positions, ahead as usize * k);
        }
        match positions.get(lpn as usize * k..(lpn as usize + 1) * k) {
            Some(row) => set_positions(words, row.iter().map(|&b| u64::from(b))),
            None => set_positions(words, shape.positions(u64::from(lpn))),
        }
    }
}

/// One lookup's LPN, its holder and its filter positions, found once for all the records
/// it is tested against.
struct Probe {
    lpn: u32,
    holder: u32,
    /// The positions (the first `k`), when k is at most [`TABLE_HASHES`].
    bits: [u64; TABLE_HASHES],
    k: usize,
}

impl Probe {
    fn new(ix: &DtpIndex, lpn: u32, holder: u32) -> Self {
        let mut probe = Probe { lpn, holder, bits: [0; TABLE_HASHES], k: 0 };
        let k = ix.hashes as usize;
        if k <= TABLE_HASHES {
            match ix.positions.get(lpn as usize * k..(lpn as usize + 1) * k) {
                Some(row) => probe.bits.iter_mut().zip(row).for_each(|(b, &p)| *b = u64::from(p)),
                None => {
                    probe.bits.iter_mut().zip(ix.shape.positions(u64::from(lpn))).for_each(|(b, p)| *b = p)
                }
            }
            probe.k = k;
        }
        probe
    }

    fn positions(&self) -> Option<&[u64]> {
        (self.k > 0).then(|| &self.bits[..self.k])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    impl DtpIndex {
        /// [`DtpIndex::next_candidate`] with the holder the scheme would pass: the newest
        /// record whose LPNs hold `lpn` (the scheme keeps the last DTP written with it, which
        /// is that record while it is in the index; any record holding it serves, since a
        /// filter has no false negatives).
        fn lookup(&mut self, lpn: u32, before: usize) -> (Option<usize>, u64) {
            let holder =
                self.list.iter().rev().find(|r| self.lpns(r).contains(&lpn)).map_or(NO_DTP, |r| r.id);
            self.next_candidate(lpn, holder, before)
        }

        /// Record `pos`'s filter as inserting its LPNs key by key builds it (the reference for
        /// the filters the index builds from its position table).
        fn by_keys(&self, pos: usize) -> BloomFilter {
            let mut bloom = BloomFilter::new(self.filter_bits, self.hashes);
            for &lpn in self.lpns(self.at(pos)) {
                bloom.insert(u64::from(lpn));
            }
            bloom
        }
    }

    /// Three DTPs: [10..12], [40..43], [11..41]. LPN 41 is in the newest (position 2) and
    /// the middle one: the scan from the tail finds the newest first, having tested only it.
    #[test]
    fn a_lookup_scans_from_the_newest_and_skips_ranges_without_testing_the_filter() {
        let mut ix = DtpIndex::new(4, 64, 3, IndexDesign::RangeAndBloom);
        let a = ix.add(7, &[10, 11, 12]);
        ix.add(8, &[40, 42, 43]);
        ix.add(9, &[11, 30, 41]);
        assert_eq!(ix.lookup(41, ix.len()), (Some(2), 2), "range + filter of the newest");
        // LPN 100 is outside every range: three range checks, no filter test, no candidate.
        assert_eq!(ix.lookup(100, ix.len()), (None, 3));
        // LPN 12 is only in the oldest: the newest's range holds it but its filter says no
        // (64 bits for 3 keys; checked, not assumed), the middle's range excludes it.
        assert!(!ix.by_keys(2).contains(12));
        assert_eq!(ix.lookup(12, ix.len()), (Some(0), 5));
        assert_eq!(ix.remove(a), Some(7));
        assert_eq!(ix.position(2), Some(1));
        ix.set_tppn(2, 99);
        assert_eq!(ix.at(1).tppn, 99);
    }

    /// A bloom false positive: a 4-bit filter holding 40 and 60 answers "maybe" for some
    /// LPN between them that it does not hold (found, not assumed); the index offers that
    /// DTP, whose read will disprove it. The range-only design offers it for any LPN inside.
    #[test]
    fn a_bloom_false_positive_offers_a_dtp_that_does_not_hold_the_lpn() {
        let mut ix = DtpIndex::new(1, 4, 2, IndexDesign::RangeAndBloom);
        ix.add(5, &[40, 60]);
        let lpn = (41..60).find(|&l| ix.by_keys(0).contains(u64::from(l))).expect("a 4-bit filter fills up");
        assert_eq!(ix.lookup(lpn, 1), (Some(0), 2));
        let absent = (41..60).find(|&l| !ix.by_keys(0).contains(u64::from(l))).expect("but not wholly");
        assert_eq!(ix.lookup(absent, 1), (None, 2));
        let mut range = DtpIndex::new(1, 4, 2, IndexDesign::Range);
        range.add(5, &[40, 60]);
        assert_eq!(range.lookup(absent, 1), (Some(0), 1));
        assert_eq!(range.lookup(61, 1), (None, 1));
    }

    /// The record-by-record scan of the paper's list, each filter built key by key: the
    /// reference for the scan by ranges.
    fn scan_one_by_one(ix: &DtpIndex, lpn: u32, before: usize) -> (Option<usize>, u64) {
        let mut tests = 0;
        for pos in (0..before.min(ix.len())).rev() {
            let r = ix.at(pos);
            if ix.design != IndexDesign::Bloom {
                tests += 1;
                if lpn < r.min || lpn > r.max {
                    continue;
                }
            }
            if ix.design != IndexDesign::Range {
                tests += 1;
                if !ix.by_keys(pos).contains(u64::from(lpn)) {
                    continue;
                }
            }
            return (Some(pos), tests);
        }
        (None, tests)
    }

    /// Random indexes of every design, records added and removed (the oldest half the time,
    /// as merges remove them): every lookup
    /// (from every start) finds the same record with the same test count as the one-by-one scan over a
    /// twin index whose filters were all built when their records were added.
    #[test]
    fn the_scan_by_ranges_answers_as_the_one_by_one_scan() {
        let mut rng = crate::test_rng::Rng(9);
        let mut next = |m: u64| rng.below(m);
        for design in [IndexDesign::RangeAndBloom, IndexDesign::Bloom, IndexDesign::Range] {
            let mut ix = DtpIndex::new(64, 40, 4, design);
            let mut eager = DtpIndex::new(64, 40, 4, design);
            for step in 0..2000 {
                if ix.len() < 50 && next(3) != 0 {
                    let base = next(1000) as u32;
                    let lpns: Vec<u32> = (0..1 + next(4)).map(|_| base + next(60) as u32).collect();
                    ix.add(step, &lpns);
                    eager.add(step, &lpns);
                } else if ix.len() > 0 {
                    // The oldest half the time, as merges take it.
                    let pos = if next(2) == 0 { 0 } else { next(ix.len() as u64) as usize };
                    let id = ix.at(pos).id;
                    ix.remove(id);
                    eager.remove(id);
                }
                for _ in 0..20 {
                    let lpn = next(1100) as u32;
                    let before = next(ix.len() as u64 + 2) as usize;
                    assert_eq!(ix.lookup(lpn, before), scan_one_by_one(&eager, lpn, before));
                }
            }
        }
    }

    /// As the scheme uses it (each LPN in at most one DTP; DTPs written, loaded and merged
    /// at random; ids never reused): every
    /// lookup offers what the one-by-one scan over eagerly built filters offers, and each
    /// filter a lookup built from the position table equals the one built key by key.
    #[test]
    fn offers_as_the_one_by_one_scan_and_builds_filters_from_the_table_as_from_the_keys() {
        let mut rng = crate::test_rng::Rng(24);
        // The last shape's table covers only part of the LPNs.
        for (design, bits, keys, table_lpns) in [
            (IndexDesign::RangeAndBloom, 3048, 512, TABLE_LPNS),
            (IndexDesign::Bloom, 200, 20, TABLE_LPNS),
            (IndexDesign::RangeAndBloom, 70_000, 20, TABLE_LPNS),
            (IndexDesign::RangeAndBloom, 3048, 512, 6000),
        ] {
            let mut ix = DtpIndex::new(40, bits, keys, design);
            ix.table_lpns = table_lpns;
            let mut eager = DtpIndex::new(40, bits, keys, design);
            let mut free: Vec<u32> = (0..20_000).collect();
            for _ in 0..600 {
                if ix.len() < 30 && rng.below(3) != 0 {
                    // A cluster of free LPNs, as packing takes them.
                    let start = rng.below(free.len() as u64) as usize;
                    let take = (1 + rng.below(keys as u64) as usize).min(free.len() - start);
                    let lpns: Vec<u32> = free.drain(start..start + take).collect();
                    ix.add(1, &lpns);
                    eager.add(1, &lpns);
                } else if ix.len() > 0 {
                    let pos = rng.below(ix.len() as u64) as usize;
                    let id = ix.at(pos).id;
                    free.extend_from_slice(ix.lpns(ix.at(pos)));
                    ix.remove(id);
                    eager.remove(id);
                    free.sort_unstable();
                }
                for _ in 0..30 {
                    let lpn = rng.below(21_000) as u32;
                    let before = rng.below(ix.len() as u64 + 1) as usize;
                    assert_eq!(ix.lookup(lpn, before), scan_one_by_one(&eager, lpn, before));
                }
                // Built by lookups or not, each record's filter is the one built key by key.
                for (pos, r) in ix.iter().enumerate() {
                    assert_eq!(ix.bloom(r), eager.by_keys(pos), "a filter built from the table");
                }
            }
            let kept = bits <= 1 << 16 && ix.hashes as usize <= TABLE_HASHES;
            let rows = if kept { ix.lpns_seen.min(table_lpns) } else { 0 };
            assert_eq!(ix.positions.len(), rows * ix.hashes as usize, "the table's rows");
        }
    }

    #[test]
    fn copies_share_the_position_table_until_one_extends_it() {
        let mut ix = DtpIndex::new(8, 3048, 512, IndexDesign::RangeAndBloom);
        ix.add(1, &[3, 9, 700]);
        assert!(!ix.positions.is_empty(), "this shape keeps a table");
        let copy = ix.clone();
        assert!(Arc::ptr_eq(&ix.positions, &copy.positions), "a checkpoint does not copy the table");
        let rows = copy.positions.len();
        ix.add(2, &[5_000]);
        assert!(!Arc::ptr_eq(&ix.positions, &copy.positions));
        assert_eq!(copy.positions.len(), rows, "the copy keeps its own rows");
        assert_eq!(ix.positions[..rows], copy.positions[..], "the same rows below");
    }

    #[test]
    fn records_cost_twelve_bytes_plus_the_filter() {
        // The paper's 0.6 MB for 1600 records leaves 381 filter bytes each: 3048 bits for a
        // 512-entry DTP, k = round(5.95 · ln 2) = 4.
        let ix = DtpIndex::new(1600, 3048, 512, IndexDesign::RangeAndBloom);
        assert_eq!((ix.record_bytes(), ix.hashes()), (393, 4));
        assert_eq!(DtpIndex::new(1, 10, 1, IndexDesign::Bloom).hashes(), 7);
    }
}
