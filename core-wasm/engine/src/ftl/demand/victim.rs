//! Which entry leaves a full first-level mapping cache: plain LRU, or the "cost-aware LRU" of
//! the thesis' DAC (Ch.2 §2.3, first-level replacement).
//!
//! The cost-aware rule walks the cache from its LRU end and takes the first entry whose
//! eviction costs no flash write: a clean one (dropped), or a dirty one whose translation
//! page is cached in the second level (its entry is "kicked out" into that page, which turns
//! dirty). The thesis: "If all of the mapping entries in the first-level cache violate the
//! rules, no victim is selected and no fetch-in operation is performed in the first-level
//! cache" — that is DAC's own answer ([`pop_cost_aware`] answers `None`); CDFTL's option
//! takes the LRU entry then ([`Cmt::admit_by`](super::Cmt::admit_by)).
//!
//! Cost: a dirty candidate's second-level search is one cache operation. The rule charges
//! one for each dirty candidate it passes over; the taken victim's search is the scheme's
//! (it is the search that absorbs the entry), so each search is charged once. A clean
//! candidate's dirty bit comes with the entry and costs nothing more.

use std::hash::Hash;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::cache::lru::SlotIndex;
use crate::cache::{Lru, QueueLru, Slru};
use crate::device::Device;

/// How a full first-level cache picks its victim (CDFTL's `cmt_victim` option).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum CmtVictim {
    /// The least recently used entry, whatever its eviction costs.
    #[default]
    Lru,
    /// The thesis' DAC rule: the least recently used entry that is clean or whose
    /// translation page is cached; the LRU entry only when none is.
    CostAware,
}

/// A cache of entries that the cost-aware rule can scan from its victim end.
pub trait VictimScan<K, V> {
    /// Removes and returns the first entry, in victim order, that `accept` takes.
    fn pop_first_where(&mut self, accept: &mut dyn FnMut(&K, &V) -> bool) -> Option<(K, V)>;
}

impl<K: Copy + Eq + Hash, V, I: SlotIndex<K>> VictimScan<K, V> for Lru<K, V, I> {
    fn pop_first_where(&mut self, accept: &mut dyn FnMut(&K, &V) -> bool) -> Option<(K, V)> {
        self.pop_lru_where(accept)
    }
}

impl<V: Copy + Default> VictimScan<u32, V> for QueueLru<V> {
    fn pop_first_where(&mut self, accept: &mut dyn FnMut(&u32, &V) -> bool) -> Option<(u32, V)> {
        self.pop_lru_where(accept)
    }
}

impl<K: Copy + Eq + Hash, V, I: SlotIndex<K>> VictimScan<K, V> for Slru<K, V, I> {
    fn pop_first_where(&mut self, accept: &mut dyn FnMut(&K, &V) -> bool) -> Option<(K, V)> {
        self.pop_lru_where(accept)
    }
}

/// The thesis' DAC level-one victim: removes and returns the entry nearest the LRU end that
/// is clean (`is_dirty` false) or whose translation page the second level holds
/// (`page_cached` on its key); `None` when every entry is dirty with its page uncached (DAC
/// then admits nothing). Charges one cache operation per dirty candidate passed over.
pub fn pop_cost_aware<K, V>(
    cache: &mut impl VictimScan<K, V>,
    is_dirty: impl Fn(&V) -> bool,
    mut page_cached: impl FnMut(&K) -> bool,
    dev: &mut Device,
) -> Option<(K, V)> {
    let mut passed_over = 0;
    let victim = cache.pop_first_where(&mut |k, v| {
        if !is_dirty(v) {
            return true;
        }
        let cheap = page_cached(k);
        passed_over += u64::from(!cheap);
        cheap
    });
    dev.cache_ops(passed_over);
    victim
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ftl::demand::testing::{device_of, small_config};

    /// LRU → MRU: 1 (dirty, page uncached), 2 (dirty, page cached), 3 (clean). The rule
    /// passes over 1 (one search), takes 2; then takes 3; then finds nothing and leaves 1.
    #[test]
    fn takes_the_first_clean_or_page_cached_entry_from_the_lru_end() {
        let mut config = small_config(32, 4, 32, 1024);
        config.device.latency.cache_op_ns = 7;
        let mut dev = device_of(&config);
        let mut lru: Lru<u32, bool> = Lru::new(3);
        for (k, dirty) in [(1, true), (2, true), (3, false)] {
            lru.insert(k, dirty);
        }
        let cached_pages = [2u32];
        let pick = |lru: &mut Lru<u32, bool>, dev: &mut Device| {
            pop_cost_aware(lru, |d| *d, |k| cached_pages.contains(k), dev)
        };
        assert_eq!(pick(&mut lru, &mut dev), Some((2, true)));
        assert_eq!(dev.cost.lru_ns, 7, "passing over entry 1 costs one search");
        assert_eq!(pick(&mut lru, &mut dev), Some((3, false)));
        assert_eq!(pick(&mut lru, &mut dev), None, "DAC: no victim, nothing admitted");
        assert_eq!(lru.iter().map(|(k, _)| *k).collect::<Vec<_>>(), [1]);
        assert_eq!(dev.cost.lru_ns, 3 * 7, "entry 1 passed over three times");
    }
}
