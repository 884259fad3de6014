use super::*;

fn order(c: &Lfu<char, u32>) -> Vec<(char, u64)> {
    c.iter().map(|(k, _, f)| (*k, f)).collect()
}

#[test]
fn evicts_least_frequent_then_least_recent_by_hand() {
    let mut c = Lfu::new(3);
    for (i, k) in ['a', 'b', 'c'].into_iter().enumerate() {
        assert_eq!(c.insert(k, i as u32), Inserted::Added);
    }
    assert_eq!(c.touch(&'a'), Some(2));
    assert_eq!(c.touch(&'a'), Some(3));
    assert_eq!(c.touch(&'c'), Some(2));
    // Counts a3 b1 c2: b is the only least-frequent entry.
    assert_eq!(c.insert('d', 3), Inserted::Evicted('b', 1));
    assert_eq!(c.touch(&'d'), Some(2));
    // c2 and d2 tie; c was accessed longer ago, so c goes.
    assert_eq!(c.peek_victim(), Some((&'c', &2, 2)));
    assert_eq!(c.insert('e', 4), Inserted::Evicted('c', 2));
    assert_eq!(order(&c), [('a', 3), ('d', 2), ('e', 1)]);
    assert_eq!(c.iter().rev().map(|(k, _, _)| *k).collect::<String>(), "eda");
}

#[test]
fn ties_at_equal_count_follow_access_recency_not_insertion() {
    let mut c = Lfu::new(2);
    c.insert('x', 0);
    c.insert('y', 0);
    // Both at count 1; x is older. Raising then matching counts re-stamps recency.
    c.set_freq(&'x', 5);
    c.set_freq(&'y', 5);
    c.set_freq(&'x', 5);
    assert_eq!(c.pop_victim(), Some(('y', 0, 5)), "y was accessed less recently");
    assert!(!c.set_freq(&'q', 1), "a miss is reported");
}

#[test]
fn dac_tpafc_compares_requested_freq_with_victim_freq() {
    // Thesis Fig 2.4: the TPAFC's LFU victim has FREQ 4 and the requested translation page
    // has FREQ 3, so the request goes to the TPRLC and the TPAFC is left alone.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    struct Tp {
        dirty: bool,
    }
    let mut tpafc = Lfu::new(2);
    tpafc.insert_with_freq(7u32, Tp { dirty: true }, 4);
    tpafc.insert_with_freq(9u32, Tp { dirty: false }, 6);
    let requested_freq = 3;
    let (&victim, _, victim_freq) = tpafc.peek_victim().unwrap();
    assert_eq!((victim, victim_freq), (7, 4));
    assert!(requested_freq < victim_freq);
    // With FREQ 5 > 4 the victim is kicked out; being dirty, the caller writes it back.
    assert_eq!(tpafc.insert_with_freq(12, Tp { dirty: false }, 5), Inserted::Evicted(7, Tp { dirty: true }));
    assert_eq!(tpafc.freq(&12), Some(5));
    assert!(tpafc.is_full() && tpafc.len() == 2 && tpafc.capacity() == 2);
    // A present key gets the new value and the given count.
    assert_eq!(tpafc.insert_with_freq(9, Tp { dirty: true }, 8), Inserted::Replaced(Tp { dirty: false }));
    assert_eq!(tpafc.peek_victim().map(|(k, _, f)| (*k, f)), Some((12, 5)));
}

#[test]
fn insert_of_present_key_counts_an_access() {
    let mut c = Lfu::new(2);
    c.insert('a', 1);
    assert_eq!(c.insert('a', 2), Inserted::Replaced(1));
    assert_eq!(c.freq(&'a'), Some(2));
    c.insert('b', 3);
    assert_eq!(c.insert('c', 4), Inserted::Evicted('b', 3));
    assert_eq!(c.get(&'a'), Some(&2));
    assert_eq!(c.freq(&'a'), Some(3));
    *c.get_mut(&'c').unwrap() = 40;
    assert_eq!(c.freq(&'c'), Some(2));
    *c.peek_mut(&'c').unwrap() += 1;
    assert_eq!((c.peek(&'c'), c.freq(&'c')), (Some(&41), Some(2)), "peeks are not accesses");
    assert_eq!(c.get(&'z'), None);
    assert_eq!(c.touch(&'z'), None);
}

#[test]
fn capacity_edges_and_removal() {
    let mut zero: Lfu<char, u32> = Lfu::new(0);
    assert_eq!(zero.insert('a', 1), Inserted::Evicted('a', 1));
    assert!(zero.is_empty() && zero.peek_victim().is_none() && zero.pop_victim().is_none());

    let mut one = Lfu::new(1);
    one.insert_with_freq('a', 1, 100);
    assert_eq!(one.insert('b', 2), Inserted::Evicted('a', 1), "a full cache evicts whatever the counts");
    assert_eq!(one.remove(&'b'), Some(2));
    assert_eq!(one.remove(&'b'), None);
    assert!(one.is_empty() && !one.contains(&'b'));
    one.insert('c', 3);
    one.clear();
    assert!(one.is_empty() && one.iter().next().is_none());
}

#[test]
fn counts_saturate_instead_of_overflowing() {
    let mut c = Lfu::new(1);
    c.insert_with_freq(1u8, (), u64::MAX);
    assert_eq!(c.touch(&1), Some(u64::MAX));
    assert_eq!(c.insert(1, ()), Inserted::Replaced(()));
    assert_eq!(c.freq(&1), Some(u64::MAX));
}
