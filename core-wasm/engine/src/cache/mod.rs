//! RAM cache building blocks shared by the schemes: [`Lru`] (and [`QueueLru`], the same
//! order over small integer keys with a cheaper hit), segmented LRU ([`Slru`]),
//! [`Lfu`], keys-only [`Ghost`] caches and [`BloomFilter`]s.
//!
//! Conventions shared by every structure:
//!
//! - **Capacity counts entries**, whatever their size; a scheme converts its RAM budget.
//! - **Deterministic.** Lookups go through [`KeyBuild`], a fixed hasher (no per-process
//!   seed), and no behaviour depends on hash-map iteration order: order lives in explicit
//!   lists, so a run is bit-identical natively and in wasm and across checkpoints.
//! - **Events-friendly results.** Inserting returns [`Inserted`], which hands back an
//!   evicted entry (so the caller can write back a dirty one and emit an evict event) or the
//!   replaced value; lookups that count as accesses report hit or miss.
//! - **Views.** `iter()` goes from the entry kept longest to the next victim (for LRU: most
//!   to least recently used), so the UI can draw a cache as a list whose end is evicted next.
//! - **Clone** is cheap enough for checkpoints and copies the exact state.
//!
//! Schemes that need a RAM cache store their own entry type as the value, e.g. a DFTL CMT
//! is `Lru<u32, CmtEntry { ppn, dirty }>`.

pub mod bloom;
pub mod ghost;
pub mod lfu;
pub mod lru;
pub mod queue_lru;
pub mod slru;

pub use bloom::BloomFilter;
pub use ghost::{DenseGhost, Ghost};
pub use lfu::Lfu;
pub use lru::{DenseIndex, Lru, RangeIndex};
pub use queue_lru::QueueLru;
pub use slru::{Segment, Slru};

use std::hash::{BuildHasherDefault, Hasher};

/// What an insert did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Inserted<K, V> {
    /// The key was new and there was room for it.
    Added,
    /// The key was already cached: its value was replaced (the old one is returned) and the
    /// insert counted as an access.
    Replaced(V),
    /// The key was new and the cache was full, so this entry was evicted to make room. With
    /// capacity 0 nothing fits and the evicted entry is the inserted one itself.
    Evicted(K, V),
}

impl<K, V> Inserted<K, V> {
    /// The evicted entry, if any (what a write-back cache must flush).
    pub fn evicted(self) -> Option<(K, V)> {
        match self {
            Inserted::Evicted(k, v) => Some((k, v)),
            _ => None,
        }
    }
}

/// SplitMix64's finaliser: a bijective 64-bit mix. Used for hashing keys because it is
/// fixed (the same on every target, unlike `std`'s seeded `RandomState`) and cheap.
pub fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A fast, fixed hasher for integer-like keys (LPNs, translation-page numbers, tuples of
/// them). `std`'s SipHash is several times slower and seeds itself from the OS; neither
/// matters for correctness here (maps are only looked up, never iterated), but speed does.
#[derive(Debug, Clone, Copy, Default)]
pub struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
    }

    fn write_u64(&mut self, n: u64) {
        // Multiply-rotate combining (as in FxHash); `finish` does the avalanche.
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }

    fn write_u32(&mut self, n: u32) {
        self.write_u64(u64::from(n));
    }

    fn write_u16(&mut self, n: u16) {
        self.write_u64(u64::from(n));
    }

    fn write_u8(&mut self, n: u8) {
        self.write_u64(u64::from(n));
    }

    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }

    fn finish(&self) -> u64 {
        mix64(self.0)
    }
}

/// `BuildHasher` for [`KeyHasher`], for `HashMap<K, V, KeyBuild>`.
pub type KeyBuild = BuildHasherDefault<KeyHasher>;

/// The `n` keys with the smallest spread (max − min) among `keys`: HCFTL packs a dynamic
/// translation page from its Ghost-CMT this way so the page's [min, max] range check rules
/// out most lookups before its bloom filter is consulted. Ties go to the window with the
/// lowest keys. Returns the keys ascending; all of them (sorted, deduplicated) if there are
/// `n` or fewer.
pub fn tightest_window(keys: impl IntoIterator<Item = u32>, n: usize) -> Vec<u32> {
    let mut sorted: Vec<u32> = keys.into_iter().collect();
    sorted.sort_unstable();
    sorted.dedup();
    if n == 0 {
        return Vec::new();
    }
    if sorted.len() <= n {
        return sorted;
    }
    let start = (0..=sorted.len() - n).min_by_key(|&i| (sorted[i + n - 1] - sorted[i], i)).unwrap_or(0);
    sorted[start..start + n].to_vec()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::{BuildHasher, Hash};

    fn hash<T: Hash>(t: T) -> u64 {
        KeyBuild::default().hash_one(t)
    }

    #[test]
    fn key_hasher_is_fixed_and_spreads_small_keys() {
        // Fixed: the same value on every run and target (no random seed).
        assert_eq!(hash(7u32), mix64(7u64.wrapping_mul(0x9E37_79B9_7F4A_7C15)));
        // Consecutive keys land in different low-bit buckets (what hashbrown indexes by).
        let buckets: std::collections::BTreeSet<u64> = (0u32..64).map(|k| hash(k) & 1023).collect();
        assert!(buckets.len() > 55, "only {} distinct buckets", buckets.len());
        assert_ne!(hash((1u32, 2u32)), hash((2u32, 1u32)));
    }

    #[test]
    fn tightest_window_picks_smallest_spread_lowest_first() {
        assert_eq!(tightest_window([50, 1, 9, 3, 52, 51, 100], 3), vec![50, 51, 52]);
        // {50, 51} (spread 1) beats {1, 3} (spread 2) although its keys are higher.
        assert_eq!(tightest_window([1, 3, 50, 51], 2), vec![50, 51]);
        assert_eq!(tightest_window([10, 1, 4, 7], 2), vec![1, 4], "equal spreads: lowest wins");
        assert_eq!(tightest_window([5, 5, 2], 4), vec![2, 5]);
        assert!(tightest_window([1, 2], 0).is_empty());
    }

    #[test]
    fn inserted_evicted_extracts_only_evictions() {
        assert_eq!(Inserted::<u32, u32>::Evicted(1, 2).evicted(), Some((1, 2)));
        assert_eq!(Inserted::<u32, u32>::Replaced(2).evicted(), None);
        assert_eq!(Inserted::<u32, u32>::Added.evicted(), None);
    }
}
