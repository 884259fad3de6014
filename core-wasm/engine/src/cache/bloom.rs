//! Bloom filter: a set of keys in `m` bits that answers "maybe present" or "certainly
//! absent". HCFTL keeps one per dynamic translation page in its DTP index (seed 001 §III.C),
//! so a lookup reads a DTP from flash only when its filter says maybe; a false positive
//! costs a wasted flash read, which is why the rate must behave like the textbook
//! (1 − e^(−kn/m))^k.
//!
//! The k bit positions come from double hashing (Kirsch & Mitzenmacher): `h1 + i·h2 mod m`
//! with two fixed 64-bit mixes of the key, so results are identical on every target. The
//! `mod m` is a multiplication by a precomputed reciprocal ([`Modulus`]), exact for every
//! 64-bit value: a hardware division per probe made building a filter a division-bound loop.

use super::mix64;
use crate::hash::StateHasher;

/// A Bloom filter over `u64` keys (LPNs widen losslessly).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BloomFilter {
    words: Vec<u64>,
    bits: u64,
    modulus: Modulus,
    hashes: u32,
    inserted: u64,
}

/// Word and mask of bit position `bit` in a filter's words: bit `bit % 64` of word
/// `bit / 64` (the one place of the layout; [`BloomFilter::words`] exposes it).
#[inline(always)]
fn locate(bit: u64) -> (usize, u64) {
    ((bit / 64) as usize, 1u64 << (bit % 64))
}

/// Sets bit positions `bits` in filter words `words`: [`BloomFilter::insert_positions`] on
/// a filter's bare words (for callers that keep many filters of one shape as word slices).
#[inline]
pub fn set_positions(words: &mut [u64], bits: impl IntoIterator<Item = u64>) {
    for bit in bits {
        let (w, mask) = locate(bit);
        words[w] |= mask;
    }
}

/// Whether all of bit positions `bits` are set in filter words `words`:
/// [`BloomFilter::contains_positions`] on a filter's bare words.
#[inline]
pub fn has_positions(words: &[u64], bits: impl IntoIterator<Item = u64>) -> bool {
    bits.into_iter().all(|bit| {
        let (w, mask) = locate(bit);
        words[w] & mask != 0
    })
}

impl BloomFilter {
    /// An empty filter of `bits` bits probed by `hashes` hash functions (each at least 1, so
    /// a zero-sized config cannot divide by zero; it just answers "maybe" more often).
    pub fn new(bits: usize, hashes: u32) -> Self {
        let bits = bits.max(1) as u64;
        BloomFilter {
            words: vec![0; bits.div_ceil(64) as usize],
            bits,
            modulus: Modulus::new(bits),
            hashes: hashes.max(1),
            inserted: 0,
        }
    }

    /// A filter sized for `entries` keys at `bits_per_entry` bits each, with the optimal
    /// k = round(bits_per_entry · ln 2), computed in integers so sizing is exact everywhere.
    /// (10 bits per entry gives k = 7 and about 0.8 % false positives.)
    pub fn for_entries(entries: usize, bits_per_entry: u32) -> Self {
        let k = (u64::from(bits_per_entry) * 693_147 + 500_000) / 1_000_000;
        Self::new(entries.saturating_mul(bits_per_entry as usize), k as u32)
    }

    /// A filter of `bits` bits probed by `hashes` hash functions whose bit array is `words`
    /// (as [`BloomFilter::words`] gives it) after `inserted` insertions: a filter whose bits
    /// were kept elsewhere, as HCFTL's DTP index keeps its records' filters side by side.
    pub fn from_words(bits: u64, hashes: u32, inserted: u64, words: Vec<u64>) -> Self {
        assert!(bits >= 1 && hashes >= 1, "a filter of {bits} bits and {hashes} hashes");
        assert_eq!(words.len() as u64, bits.div_ceil(64), "words of a {bits}-bit filter");
        BloomFilter { words, bits, modulus: Modulus::new(bits), hashes, inserted }
    }

    /// Number of bits (m).
    pub fn bits(&self) -> u64 {
        self.bits
    }

    /// Number of hash functions (k).
    pub fn hashes(&self) -> u32 {
        self.hashes
    }

    /// RAM the bit array occupies, in bytes (for a scheme's RAM accounting).
    pub fn bytes(&self) -> u64 {
        self.bits.div_ceil(8)
    }

    /// Number of `insert` calls since creation or `clear` (n in the rate formula; repeated
    /// keys count again, as the filter cannot tell).
    pub fn inserted(&self) -> u64 {
        self.inserted
    }

    /// True when nothing was inserted.
    pub fn is_empty(&self) -> bool {
        self.inserted == 0
    }

    /// Bits set to one (how full the filter is).
    pub fn ones(&self) -> u64 {
        self.words.iter().map(|w| u64::from(w.count_ones())).sum()
    }

    /// The bit array, 64 bits per word, bit `i` at `words[i / 64] >> (i % 64)` (for views).
    pub fn words(&self) -> &[u64] {
        &self.words
    }

    /// Adds `key`. Returns true if any bit changed (the key was certainly not present).
    pub fn insert(&mut self, key: u64) -> bool {
        self.inserted += 1;
        let mut changed = false;
        for bit in self.positions(key) {
            let (w, mask) = locate(bit);
            changed |= self.words[w] & mask == 0;
            self.words[w] |= mask;
        }
        changed
    }

    /// False if `key` was certainly never inserted; true if it may have been.
    pub fn contains(&self, key: u64) -> bool {
        has_positions(&self.words, self.positions(key))
    }

    /// The false-positive probability predicted for the current fill, (1 − e^(−kn/m))^k.
    /// For reporting only: behaviour never depends on this float.
    pub fn expected_false_positive_rate(&self) -> f64 {
        let k = f64::from(self.hashes);
        let fill = 1.0 - (-k * self.inserted as f64 / self.bits as f64).exp();
        fill.powf(k)
    }

    /// Empties the filter (sizes unchanged).
    pub fn clear(&mut self) {
        self.words.fill(0);
        self.inserted = 0;
    }

    /// Feeds the filter's state into a hash.
    pub fn hash_into(&self, h: &mut StateHasher) {
        h.u64(self.bits);
        h.u32(self.hashes);
        h.u64(self.inserted);
        for &w in &self.words {
            h.u64(w);
        }
    }

    /// Adds a key given by its bit positions, as [`BloomFilter::positions`] gives them (for
    /// callers that keep each key's positions, so many filters of one shape share the work).
    pub fn insert_positions(&mut self, bits: impl IntoIterator<Item = u64>) {
        self.inserted += 1;
        set_positions(&mut self.words, bits);
    }

    /// [`BloomFilter::contains`] for a key given by its bit positions.
    pub fn contains_positions(&self, bits: impl IntoIterator<Item = u64>) -> bool {
        has_positions(&self.words, bits)
    }

    /// The k bit positions of `key` (the same for every filter of this size and k).
    pub fn positions(&self, key: u64) -> impl Iterator<Item = u64> {
        let h1 = mix64(key);
        // An odd step never cycles early when m is a power of two.
        let h2 = mix64(key ^ 0x6A09_E667_F3BC_C909) | 1;
        let m = self.modulus;
        (0..u64::from(self.hashes)).map(move |i| m.of(h1.wrapping_add(i.wrapping_mul(h2))))
    }
}

/// `x mod d` for any 64-bit `x` by one fixed `d`, without a division: Lemire, Kaser and
/// Kurz, "Faster remainder by direct computation" (2019): with `c = ceil(2^128 / d)`, the
/// fraction `c·x mod 2^128` times `d`, shifted right by 128 bits, is exactly `x mod d` for
/// every `x < 2^64` and `1 ≤ d ≤ 2^64` (128 fraction bits ≥ 64 bits of `x` plus 64 of `d`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Modulus {
    d: u64,
    c: u128,
}

impl Modulus {
    /// The remainder by `d` (at least 1).
    pub fn new(d: u64) -> Self {
        assert!(d >= 1, "modulus of zero");
        // ceil(2^128 / d); wraps to 0 for d = 1, whose remainders are all 0 as it gives.
        Modulus { d, c: (u128::MAX / u128::from(d)).wrapping_add(1) }
    }

    /// `x mod d`.
    #[inline]
    pub fn of(self, x: u64) -> u64 {
        let frac = self.c.wrapping_mul(u128::from(x));
        let d = u128::from(self.d);
        // The high 128 bits of the 192-bit product frac · d.
        let low = (u128::from(frac as u64) * d) >> 64;
        ((low + (frac >> 64) * d) >> 64) as u64
    }
}

#[cfg(test)]
#[path = "tests/bloom.rs"]
mod tests;
