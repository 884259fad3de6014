use super::*;

/// Keys from most to least recently used.
fn order<V>(c: &Lru<u32, V>) -> Vec<u32> {
    c.iter().map(|(k, _)| *k).collect()
}

#[test]
fn evicts_least_recently_used_in_hand_worked_order() {
    let mut c = Lru::new(3);
    assert_eq!(c.insert(1, 'a'), Inserted::Added);
    assert_eq!(c.insert(2, 'b'), Inserted::Added);
    assert_eq!(c.insert(3, 'c'), Inserted::Added);
    assert_eq!(order(&c), [3, 2, 1]);
    assert_eq!(c.get(&1), Some(&'a')); // 1 becomes MRU: [1, 3, 2]
    assert_eq!(c.insert(4, 'd'), Inserted::Evicted(2, 'b'));
    assert!(c.touch(&3)); // [3, 4, 1]
    assert_eq!(c.insert(5, 'e'), Inserted::Evicted(1, 'a'));
    assert_eq!(order(&c), [5, 3, 4]);
    assert_eq!(c.peek_lru(), Some((&4, &'d')));
    assert_eq!(c.peek_mru(), Some((&5, &'e')));
    assert_eq!(c.iter().rev().map(|(k, _)| *k).collect::<Vec<_>>(), [4, 3, 5]);
    assert_eq!(c.iter().len(), 3);
}

#[test]
fn hit_miss_sequence_matches_hand_computation() {
    // Capacity 2, accesses 1 2 1 3 2 1 3 3 4 1 with insert-on-miss. By hand:
    // 1 miss [1]; 2 miss [2 1]; 1 hit [1 2]; 3 miss, evict 2 [3 1]; 2 miss, evict 1 [2 3];
    // 1 miss, evict 3 [1 2]; 3 miss, evict 2 [3 1]; 3 hit; 4 miss, evict 1 [4 3]; 1 miss, evict 3.
    let mut c = Lru::new(2);
    let mut got = String::new();
    for k in [1, 2, 1, 3, 2, 1, 3, 3, 4, 1] {
        if c.touch(&k) {
            got.push('H');
        } else {
            got.push('M');
            c.insert(k, ());
        }
    }
    assert_eq!(got, "MMHMMMMHMM");
    assert_eq!(order(&c), [1, 4]);
}

#[test]
fn peek_does_not_change_recency_but_get_does() {
    let mut c = Lru::new(2);
    c.insert(1, 10);
    c.insert(2, 20);
    assert_eq!(c.peek(&1), Some(&10));
    *c.peek_mut(&1).unwrap() += 1;
    assert!(c.contains(&1));
    assert_eq!(c.insert(3, 30), Inserted::Evicted(1, 11), "peeks left 1 least recent");
    *c.get_mut(&2).unwrap() += 1;
    assert_eq!(c.insert(4, 40), Inserted::Evicted(3, 30));
    assert_eq!(c.peek(&9), None);
    assert_eq!(c.get(&9), None);
    assert!(!c.touch(&9));
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Entry {
    ppn: u32,
    dirty: bool,
}

#[test]
fn dirty_entries_come_back_on_eviction_for_write_back() {
    // A DFTL-style CMT: the caller learns exactly which dirty mapping to write back.
    let mut cmt = Lru::new(2);
    cmt.insert(7, Entry { ppn: 70, dirty: false });
    cmt.insert(8, Entry { ppn: 80, dirty: false });
    cmt.get_mut(&7).unwrap().dirty = true; // a host write updates 7 → [7 8]
    assert_eq!(
        cmt.insert(9, Entry { ppn: 90, dirty: false }),
        Inserted::Evicted(8, Entry { ppn: 80, dirty: false })
    );
    let out = cmt.insert(10, Entry { ppn: 100, dirty: false }).evicted();
    assert_eq!(out, Some((7, Entry { ppn: 70, dirty: true })), "the dirty entry is handed back");
    // Replacing a present key returns the old value and evicts nothing even when full.
    assert_eq!(
        cmt.insert(9, Entry { ppn: 91, dirty: true }),
        Inserted::Replaced(Entry { ppn: 90, dirty: false })
    );
    assert_eq!(order(&cmt), [9, 10]);
}

#[test]
fn capacity_edges() {
    let mut zero = Lru::new(0);
    assert!(zero.is_full());
    assert_eq!(zero.insert(1, 'x'), Inserted::Evicted(1, 'x'), "nothing fits: the entry bounces");
    assert!(zero.is_empty());
    assert_eq!(zero.pop_lru(), None);
    assert_eq!(zero.peek_lru(), None);

    let mut one = Lru::new(1);
    assert_eq!(one.insert(1, 'a'), Inserted::Added);
    assert!(one.is_full());
    assert_eq!(one.insert(1, 'b'), Inserted::Replaced('a'));
    assert_eq!(one.insert(2, 'c'), Inserted::Evicted(1, 'b'));
    assert_eq!((one.len(), one.capacity()), (1, 1));

    let mut unbounded = Lru::unbounded();
    for k in 0..10_000u32 {
        assert_eq!(unbounded.insert(k, ()), Inserted::Added);
    }
    assert_eq!(unbounded.pop_lru(), Some((0, ())));
}

#[test]
fn set_capacity_evicts_least_recent_first() {
    let mut c = Lru::new(4);
    for k in 1..=4 {
        c.insert(k, k * 10);
    }
    c.touch(&1); // [1 4 3 2]
    assert_eq!(c.set_capacity(2), vec![(2, 20), (3, 30)]);
    assert_eq!(order(&c), [1, 4]);
    assert!(c.set_capacity(5).is_empty());
    assert_eq!(c.insert(5, 50), Inserted::Added);
}

#[test]
fn remove_from_middle_keeps_links_and_slots_consistent() {
    let mut c = Lru::new(5);
    for k in 1..=5 {
        c.insert(k, k);
    }
    // Removing slot 0 (key 1) moves the last slot (key 5, the MRU) into it.
    assert_eq!(c.remove(&1), Some(1));
    assert_eq!(c.remove(&3), Some(3));
    assert_eq!(c.remove(&3), None);
    assert_eq!(order(&c), [5, 4, 2]);
    assert!(c.touch(&2));
    assert_eq!(order(&c), [2, 5, 4]);
    assert_eq!(c.pop_lru(), Some((4, 4)));
    assert_eq!(c.pop_lru(), Some((5, 5)));
    assert_eq!(c.pop_lru(), Some((2, 2)));
    assert_eq!(c.pop_lru(), None);
    c.insert(8, 8);
    assert_eq!(order(&c), [8]);
    c.clear();
    assert!(c.is_empty() && c.iter().next().is_none());
}

#[test]
fn pop_lru_where_skips_unacceptable_victims() {
    // DAC cost-aware LRU: a dirty entry is not an acceptable victim.
    let mut c = Lru::new(4);
    c.insert(1, true);
    c.insert(2, false);
    c.insert(3, true);
    c.insert(4, false); // LRU→MRU: 1(d) 2 3(d) 4
    assert_eq!(c.pop_lru_where(|_, dirty| !dirty), Some((2, false)));
    assert_eq!(c.pop_lru_where(|_, dirty| !dirty), Some((4, false)));
    assert_eq!(c.pop_lru_where(|_, dirty| !dirty), None, "every remaining entry is dirty");
    assert_eq!(order(&c), [3, 1]);
}

#[test]
fn for_each_mut_and_clone_are_independent() {
    let mut c = Lru::new(3);
    for k in 1..=3 {
        c.insert(k, true);
    }
    let snapshot = c.clone();
    let mut seen = Vec::new();
    c.for_each_mut(|k, dirty| {
        seen.push(*k);
        *dirty = false;
    });
    assert_eq!(seen, [3, 2, 1]);
    assert!(c.iter().all(|(_, d)| !d));
    assert!(snapshot.iter().all(|(_, d)| *d), "the checkpoint copy kept its own state");
    assert_eq!(order(&snapshot), order(&c));
}

/// SplitMix64, seeded, so a failing case can be replayed from its printed seed.
use crate::test_rng::Rng;

/// Trivially correct model: a `Vec` from most to least recently used.
struct Model {
    items: Vec<(u32, u32)>,
    capacity: usize,
}

impl Model {
    fn pos(&self, k: u32) -> Option<usize> {
        self.items.iter().position(|e| e.0 == k)
    }

    fn touch(&mut self, k: u32) -> Option<u32> {
        let i = self.pos(k)?;
        let e = self.items.remove(i);
        self.items.insert(0, e);
        Some(e.1)
    }

    fn insert(&mut self, k: u32, v: u32) -> Inserted<u32, u32> {
        if let Some(i) = self.pos(k) {
            let old = self.items.remove(i).1;
            self.items.insert(0, (k, v));
            return Inserted::Replaced(old);
        }
        if self.capacity == 0 {
            return Inserted::Evicted(k, v);
        }
        let out = if self.items.len() >= self.capacity { self.items.pop() } else { None };
        self.items.insert(0, (k, v));
        out.map_or(Inserted::Added, |(k, v)| Inserted::Evicted(k, v))
    }
}

#[test]
fn randomized_differential_against_vec_model() {
    differential::<super::HashIndex<u32>>();
}

/// The array indexes give the same cache as the hash map.
#[test]
fn randomized_differential_with_array_indexes() {
    differential::<super::DenseIndex>();
    differential::<super::RangeIndex>();
}

fn differential<I: super::SlotIndex<u32>>() {
    let base: u64 = std::env::var("LRU_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(0x5EED);
    for seed in base..base + 40 {
        println!("lru differential seed = {seed}");
        let mut rng = Rng(seed);
        let capacity = rng.below(7) as usize;
        let mut lru: Lru<u32, u32, I> = Lru::indexed(capacity);
        let mut model = Model { items: Vec::new(), capacity };
        for step in 0..3000 {
            // Keys away from 0, so a range index also moves its base down.
            let k = 100 + rng.below(12) as u32;
            let v = rng.next() as u32;
            let ctx = format!("seed {seed} step {step}");
            match rng.below(9) {
                0 | 1 => assert_eq!(lru.insert(k, v), model.insert(k, v), "{ctx}: insert {k}"),
                2 => assert_eq!(lru.get(&k).copied(), model.touch(k), "{ctx}: get {k}"),
                3 => assert_eq!(lru.touch(&k), model.touch(k).is_some(), "{ctx}: touch {k}"),
                4 => assert_eq!(lru.peek(&k).copied(), model.pos(k).map(|i| model.items[i].1), "{ctx}"),
                5 => {
                    let want = model.pos(k).map(|i| model.items.remove(i).1);
                    assert_eq!(lru.remove(&k), want, "{ctx}: remove {k}");
                }
                6 => assert_eq!(lru.pop_lru(), model.items.pop(), "{ctx}: pop_lru"),
                7 => {
                    let want = model.items.iter().rposition(|e| e.1 % 3 == 0).map(|i| model.items.remove(i));
                    assert_eq!(lru.pop_lru_where(|_, v| v % 3 == 0), want, "{ctx}: pop_lru_where");
                }
                _ => {
                    let cap = rng.below(8) as usize;
                    let mut want = Vec::new();
                    while model.items.len() > cap {
                        want.extend(model.items.pop());
                    }
                    model.capacity = cap;
                    assert_eq!(lru.set_capacity(cap), want, "{ctx}: set_capacity {cap}");
                }
            }
            let got: Vec<(u32, u32)> = lru.iter().map(|(k, v)| (*k, *v)).collect();
            assert_eq!(got, model.items, "{ctx}: order");
            let back: Vec<(u32, u32)> = lru.iter().rev().map(|(k, v)| (*k, *v)).collect();
            assert!(back.iter().rev().eq(model.items.iter()), "{ctx}: reverse order");
            assert_eq!(lru.is_full(), model.items.len() >= model.capacity, "{ctx}");
        }
    }
}

/// `insert_absent`'s precondition (the key is not cached) is checked in debug builds: a held
/// key would be linked twice.
#[cfg(debug_assertions)]
#[test]
#[should_panic(expected = "insert_absent of a cached key")]
fn insert_absent_of_a_cached_key_panics_in_debug_builds() {
    let mut c: Lru<u32, u32, DenseIndex> = Lru::dense(2);
    c.insert_absent(1, 10);
    c.insert_absent(1, 11);
}
