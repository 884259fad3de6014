//! The DTP index's per-record storage: each record's LPNs and the bits of its bloom filter,
//! in numbered slots of one shape that records take and give back.
//!
//! Every DTP is written and later loaded or merged, some 750,000 times on a 4 GiB run: a
//! separately allocated LPN list, filter box and bit array per record made the allocator
//! a twentieth of the run (allocations of a few KiB each, freed in another order). Here a
//! record's storage is a slot reused by a later record: nothing is allocated once as many
//! slots exist as records were ever held at once (at most the index's capacity, so host
//! memory follows what the device's index holds).

/// Slots of at most `per` LPNs and a filter of `words` 64-bit words each.
#[derive(Debug, Clone)]
pub struct Slots {
    /// LPNs a slot holds at most.
    per: usize,
    /// Filter words per slot.
    words: usize,
    /// Slot `s`'s LPNs: `lpns[s * per..][..len_and_built[s] & !BUILT]`.
    lpns: Vec<u32>,
    /// Per slot: LPNs held, and whether its filter is built (top bit).
    len_and_built: Vec<u32>,
    /// Slot `s`'s filter bits: `bits[s * words..][..words]` (zero until built).
    bits: Vec<u64>,
    /// Slots not in use.
    free: Vec<u32>,
}

/// The "filter built" flag in [`Slots::len_and_built`].
const BUILT: u32 = 1 << 31;

impl Slots {
    /// No slots yet; each will hold up to `per` LPNs and a filter of `words` words.
    pub fn new(per: usize, words: usize) -> Self {
        Slots {
            per: per.max(1),
            words,
            lpns: Vec::new(),
            len_and_built: Vec::new(),
            bits: Vec::new(),
            free: Vec::new(),
        }
    }

    /// A slot holding `lpns` (at most `per` of them), its filter not built.
    pub fn take(&mut self, lpns: &[u32]) -> u32 {
        assert!(lpns.len() <= self.per, "a record of {} LPNs in slots of {}", lpns.len(), self.per);
        let s = match self.free.pop() {
            Some(s) => s,
            None => {
                let s = self.len_and_built.len();
                self.len_and_built.push(0);
                self.lpns.resize((s + 1) * self.per, 0);
                self.bits.resize((s + 1) * self.words, 0);
                s as u32
            }
        };
        let at = s as usize * self.per;
        self.lpns[at..at + lpns.len()].copy_from_slice(lpns);
        self.len_and_built[s as usize] = lpns.len() as u32;
        s
    }

    /// Gives slot `s` back (its record is gone); its filter bits are cleared for the next.
    pub fn give_back(&mut self, s: u32) {
        let i = s as usize;
        if self.len_and_built[i] & BUILT != 0 {
            self.bits[i * self.words..(i + 1) * self.words].fill(0);
        }
        self.len_and_built[i] = 0;
        self.free.push(s);
    }

    /// Slot `s`'s LPNs.
    pub fn lpns(&self, s: u32) -> &[u32] {
        let i = s as usize;
        &self.lpns[i * self.per..][..(self.len_and_built[i] & !BUILT) as usize]
    }

    /// Slot `s`'s filter bits, once built.
    pub fn filter(&self, s: u32) -> Option<&[u64]> {
        let i = s as usize;
        (self.len_and_built[i] & BUILT != 0).then(|| &self.bits[i * self.words..(i + 1) * self.words])
    }

    /// Slot `s`'s filter bits, built now by `build` (from the slot's LPNs into its zeroed
    /// bits) unless built before.
    pub fn filter_or_build(&mut self, s: u32, build: impl FnOnce(&[u32], &mut [u64])) -> &[u64] {
        let i = s as usize;
        let bits = &mut self.bits[i * self.words..(i + 1) * self.words];
        if self.len_and_built[i] & BUILT == 0 {
            build(&self.lpns[i * self.per..][..self.len_and_built[i] as usize], bits);
            self.len_and_built[i] |= BUILT;
        }
        bits
    }

    /// Slots in existence (in use or free).
    #[cfg(test)]
    pub fn count(&self) -> usize {
        self.len_and_built.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Random takes and give-backs against a model of separately held records: every slot
    /// in use keeps its LPNs and filter, a fresh one has an unbuilt, zeroed filter, and no
    /// more slots exist than records were held at once.
    #[test]
    fn slots_keep_their_records_and_are_reused() {
        let mut rng = crate::test_rng::Rng(5);
        let mut slots = Slots::new(6, 3);
        let mut held: Vec<(u32, Vec<u32>, Option<Vec<u64>>)> = Vec::new();
        let mut peak = 0;
        for step in 0..5000u32 {
            if held.len() < 40 && rng.below(2) == 0 {
                let lpns: Vec<u32> = (0..rng.below(7) as u32).map(|i| step * 8 + i).collect();
                let s = slots.take(&lpns);
                assert!(held.iter().all(|h| h.0 != s), "slot {s} handed out twice");
                assert_eq!(slots.filter(s), None, "a fresh slot's filter is not built");
                held.push((s, lpns, None));
            } else if !held.is_empty() {
                let (s, _, _) = held.swap_remove(rng.below(held.len() as u64) as usize);
                slots.give_back(s);
            }
            peak = peak.max(held.len());
            if let Some(h) = held.get_mut(rng.below(50) as usize) {
                // Build (or ask again for) a filter: the bits start zeroed, and stay.
                let mark = u64::from(h.0) << 8 | 1;
                let bits = slots.filter_or_build(h.0, |lpns, bits| {
                    assert_eq!(lpns, &h.1[..]);
                    assert!(bits.iter().all(|&b| b == 0), "a filter built over old bits");
                    bits.fill(mark);
                });
                let want = h.2.get_or_insert(vec![mark; 3]);
                assert_eq!(bits, &want[..]);
            }
            for (s, lpns, filter) in &held {
                assert_eq!(slots.lpns(*s), &lpns[..]);
                assert_eq!(slots.filter(*s), filter.as_deref());
            }
            assert!(slots.count() <= peak, "{} slots for at most {peak} records", slots.count());
        }
    }

    #[test]
    #[should_panic(expected = "a record of 7 LPNs in slots of 6")]
    fn refuses_a_record_larger_than_a_slot() {
        Slots::new(6, 1).take(&[1, 2, 3, 4, 5, 6, 7]);
    }
}
