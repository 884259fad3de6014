use super::*;

fn keys(c: &Slru<u32, u32>) -> Vec<(Segment, u32)> {
    c.iter().map(|(s, k, _)| (s, *k)).collect()
}

use Segment::{Probationary as Prob, Protected as Prot};

#[test]
fn second_access_protects_entries_from_a_scan() {
    let mut c = Slru::new(4, 2);
    c.insert(1, 10);
    c.insert(2, 20);
    assert_eq!(c.touch(&1), Some(Prob), "hit in probation, promoted");
    assert_eq!(c.touch(&2), Some(Prob));
    assert_eq!(c.touch(&1), Some(Prot), "now a protected hit");
    // A scan of five one-off keys only churns probation (room for 2).
    let evicted: Vec<_> = (100..105).filter_map(|k| c.insert(k, k).evicted()).map(|(k, _)| k).collect();
    assert_eq!(evicted, [100, 101, 102]);
    assert_eq!(keys(&c), [(Prot, 1), (Prot, 2), (Prob, 104), (Prob, 103)]);
    // A plain LRU of 4 would have lost both 1 and 2.
}

#[test]
fn overflowing_protected_demotes_to_probation_front() {
    let mut c = Slru::new(3, 1);
    for k in 1..=3 {
        assert_eq!(c.insert(k, k * 10), Inserted::Added);
    }
    c.touch(&1); // prot [1], prob [3 2]
    assert_eq!(keys(&c), [(Prot, 1), (Prob, 3), (Prob, 2)]);
    assert_eq!(c.touch(&2), Some(Prob)); // 2 promoted, 1 demoted to probation front
    assert_eq!(keys(&c), [(Prot, 2), (Prob, 1), (Prob, 3)]);
    assert_eq!(c.segment_of(&1), Some(Prob));
    assert_eq!(c.insert(4, 40), Inserted::Evicted(3, 30));
    assert_eq!(c.peek_lru(), Some((&1, &10)));
}

#[test]
fn victims_come_from_protected_only_when_probation_is_empty() {
    let mut c = Slru::new(2, 2);
    c.insert(1, 1);
    c.touch(&1);
    c.insert(2, 2);
    c.touch(&2); // prot [2 1], prob []
    assert!(c.probationary().is_empty());
    assert_eq!(c.insert(3, 3), Inserted::Evicted(1, 1));
    assert_eq!(keys(&c), [(Prot, 2), (Prob, 3)]);
    assert_eq!(c.pop_lru(), Some((3, 3)));
    assert_eq!(c.pop_lru(), Some((2, 2)));
    assert_eq!(c.pop_lru(), None);
}

#[test]
fn pop_lru_where_scans_probation_before_protected() {
    let mut c = Slru::new(4, 2);
    for k in 1..=4 {
        c.insert(k, k);
    }
    c.touch(&1);
    c.touch(&2); // prot [2 1], prob [4 3]
    assert_eq!(c.pop_lru_where(|_, v| v % 2 == 0), Some((4, 4)), "probation's even entry first");
    assert_eq!(c.pop_lru_where(|_, v| v % 2 == 0), Some((2, 2)), "then the protected one");
    assert_eq!(c.pop_lru_where(|_, v| *v > 5), None);
    assert_eq!(keys(&c), [(Prot, 1), (Prob, 3)]);
}

#[test]
fn insert_of_present_key_replaces_and_promotes() {
    let mut c = Slru::new(2, 1);
    c.insert(1, 10);
    c.insert(2, 20);
    assert_eq!(c.insert(1, 11), Inserted::Replaced(10));
    assert_eq!(keys(&c), [(Prot, 1), (Prob, 2)]);
    assert_eq!(c.insert(1, 12), Inserted::Replaced(11));
    assert_eq!(c.peek(&1), Some(&12));
    // Dirty write-back: the evicted value comes back to the caller.
    *c.get_mut(&2).unwrap() += 1; // promotes 2, demotes 1
    assert_eq!(c.insert(3, 30), Inserted::Evicted(1, 12));
    assert_eq!(c.get(&2), Some(&21));
    *c.peek_mut(&3).unwrap() = 31;
    assert_eq!(c.remove(&3), Some(31));
    assert_eq!(c.remove(&3), None);
}

#[test]
fn capacity_edges() {
    let mut zero = Slru::new(0, 5);
    assert_eq!(zero.protected_capacity(), 0, "protected part is clamped to the total");
    assert_eq!(zero.insert(1, 1), Inserted::Evicted(1, 1));
    assert!(zero.is_empty());

    // No protected segment: a plain LRU.
    let mut plain = Slru::new(2, 0);
    plain.insert(1, 1);
    plain.insert(2, 2);
    assert_eq!(plain.touch(&1), Some(Prob));
    assert_eq!(plain.insert(3, 3), Inserted::Evicted(2, 2));
    assert!(plain.protected().is_empty());
    assert!(plain.is_full() && plain.len() == 2 && plain.capacity() == 2);
    assert_eq!(plain.touch(&9), None);
    plain.clear();
    assert!(plain.is_empty());
}

/// SplitMix64 (seeded; the seed is printed).
use crate::test_rng::Rng;

#[test]
fn randomized_differential_against_two_vec_model() {
    for seed in 0..30u64 {
        println!("slru differential seed = {seed}");
        let mut rng = Rng(seed);
        let cap = rng.below(6) as usize;
        let pcap = rng.below(cap as u64 + 1) as usize;
        let mut c = Slru::new(cap, pcap);
        // MRU-first vectors.
        let (mut prot, mut prob): (Vec<u32>, Vec<u32>) = (Vec::new(), Vec::new());
        for step in 0..2000 {
            let k = rng.below(10) as u32;
            let hit = if let Some(i) = prot.iter().position(|&x| x == k) {
                prot.remove(i);
                prot.insert(0, k);
                Some(Prot)
            } else if let Some(i) = prob.iter().position(|&x| x == k) {
                prob.remove(i);
                if pcap == 0 {
                    prob.insert(0, k);
                } else {
                    if prot.len() == pcap {
                        prob.insert(0, prot.pop().unwrap());
                    }
                    prot.insert(0, k);
                }
                Some(Prob)
            } else {
                None
            };
            if rng.below(2) == 0 {
                assert_eq!(c.touch(&k), hit, "seed {seed} step {step}: touch {k}");
            } else {
                let want = match hit {
                    Some(_) => Inserted::Replaced(k),
                    None if cap == 0 => Inserted::Evicted(k, k),
                    None => {
                        let out = if prob.len() + prot.len() == cap {
                            prob.pop().or_else(|| prot.pop())
                        } else {
                            None
                        };
                        prob.insert(0, k);
                        out.map_or(Inserted::Added, |v| Inserted::Evicted(v, v))
                    }
                };
                assert_eq!(c.insert(k, k), want, "seed {seed} step {step}: insert {k}");
            }
            let want: Vec<_> =
                prot.iter().map(|&k| (Prot, k)).chain(prob.iter().map(|&k| (Prob, k))).collect();
            assert_eq!(keys(&c), want, "seed {seed} step {step}");
        }
    }
}
