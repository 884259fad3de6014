use super::*;

/// SplitMix64 stream (seeded; the seed is printed).
use crate::test_rng::Rng;

/// Inserts `members`, probes `probes` non-members, returns (measured rate, theory).
fn measure(mut f: BloomFilter, members: &[u64], probes: impl Iterator<Item = u64>) -> (f64, f64) {
    for &k in members {
        f.insert(k);
    }
    for &k in members {
        assert!(f.contains(k), "false negative for {k}");
    }
    let (mut fp, mut n) = (0u64, 0u64);
    for k in probes {
        n += 1;
        fp += u64::from(f.contains(k));
    }
    (fp as f64 / n as f64, f.expected_false_positive_rate())
}

#[test]
fn random_keys_never_false_negative_and_fp_rate_matches_theory() {
    let seed = 0xB100_F11E;
    println!("bloom seed = {seed:#x}");
    let mut rng = Rng(seed);
    let members: Vec<u64> = (0..1000).map(|_| rng.next()).collect();
    let set: std::collections::HashSet<u64> = members.iter().copied().collect();
    let probes: Vec<u64> = (0..200_000).map(|_| rng.next()).filter(|k| !set.contains(k)).collect();
    // m/n = 10, k = 7: theory (1 − e^−0.7)^7 ≈ 0.82 %.
    let (rate, theory) = measure(BloomFilter::new(10_000, 7), &members, probes.iter().copied());
    assert!((theory - 0.00819).abs() < 0.0002, "theory {theory}");
    assert!((rate - theory).abs() < 0.2 * theory, "measured {rate} vs theory {theory}");
    // m/n = 4, k = 3: theory (1 − e^−0.75)^3 ≈ 14.7 %.
    let (rate, theory) = measure(BloomFilter::new(4000, 3), &members, probes.iter().copied());
    assert!((rate - theory).abs() < 0.1 * theory, "measured {rate} vs theory {theory}");
}

#[test]
fn clustered_lpns_behave_like_random_keys() {
    // HCFTL filters hold LPNs packed to a tight range, and lookups probe nearby LPNs: the
    // fixed mix must not let consecutive integers collide more than random keys do.
    let members: Vec<u64> = (5000..5512).collect();
    let mut f = BloomFilter::for_entries(members.len(), 8);
    assert_eq!((f.bits(), f.hashes()), (4096, 6));
    let probes = (0..5000).chain(5512..100_000);
    let (rate, theory) = measure(f.clone(), &members, probes);
    assert!((rate - theory).abs() < 0.2 * theory, "measured {rate} vs theory {theory}");
    for &k in &members {
        f.insert(k);
    }
    assert_eq!(f.inserted(), 512);
}

#[test]
fn insert_reports_change_and_clear_resets() {
    let mut f = BloomFilter::new(1024, 4);
    assert!(f.is_empty() && !f.contains(42));
    assert!(f.insert(42), "a new key sets bits");
    assert!(!f.insert(42), "the same key sets nothing new");
    assert!(f.contains(42));
    assert!(f.ones() >= 1 && f.ones() <= 4);
    assert_eq!(f.words().iter().map(|w| w.count_ones() as u64).sum::<u64>(), f.ones());
    assert_eq!(f.bytes(), 128);
    let mut before = crate::hash::StateHasher::default();
    f.hash_into(&mut before);
    f.clear();
    assert!(f.is_empty() && f.ones() == 0 && !f.contains(42));
    let mut after = crate::hash::StateHasher::default();
    f.hash_into(&mut after);
    assert_ne!(before.finish(), after.finish());
}

#[test]
fn degenerate_sizes_do_not_panic() {
    let mut tiny = BloomFilter::new(0, 0);
    assert_eq!((tiny.bits(), tiny.hashes()), (1, 1));
    assert!(!tiny.contains(3));
    tiny.insert(3);
    assert!(tiny.contains(3) && tiny.contains(4), "one bit: everything is 'maybe' once set");
    let none = BloomFilter::for_entries(0, 10);
    assert_eq!((none.bits(), none.hashes()), (1, 7));
    assert_eq!(BloomFilter::for_entries(100, 1).hashes(), 1);
    assert_eq!(BloomFilter::for_entries(100, 0).hashes(), 1);
    assert!(BloomFilter::new(64, 3).expected_false_positive_rate() == 0.0);
}

/// The reciprocal remainder equals `%` on random and edge values for small, odd, power-of-two
/// and huge divisors (a wrong bit position would change every HCFTL run).
#[test]
fn reciprocal_remainder_equals_the_division() {
    let mut rng = Rng(24);
    let mut divisors =
        vec![1, 2, 3, 7, 64, 1000, 3048, 4096, 65_537, u64::from(u32::MAX), 1 << 40, u64::MAX - 1, u64::MAX];
    divisors.extend((0..200).map(|i| rng.next() >> (i % 64)).filter(|&d| d > 0));
    for d in divisors {
        let m = Modulus::new(d);
        let edges = [0, 1, d - 1, d, d.wrapping_add(1), u64::MAX, u64::MAX - 1, u64::MAX / d * d];
        for x in edges.into_iter().chain((0..500).map(|_| rng.next())) {
            assert_eq!(m.of(x), x % d, "{x} mod {d}");
        }
    }
}

/// The positions, each from the one before, are the double-hashing formula's
/// `h1 + i·h2 mod m` (64-bit wrapping sums) for any size, any k.
#[test]
fn positions_follow_the_double_hashing_formula() {
    let mut rng = Rng(7);
    for bits in [1, 2, 63, 64, 1000, 3048, 4096, 1 << 20] {
        for hashes in [1, 4, 7, 40] {
            let f = BloomFilter::new(bits, hashes);
            for _ in 0..200 {
                let key = rng.next();
                let (h1, h2) = (mix64(key), mix64(key ^ 0x6A09_E667_F3BC_C909) | 1);
                let want: Vec<u64> = (0..u64::from(hashes))
                    .map(|i| h1.wrapping_add(i.wrapping_mul(h2)) % bits as u64)
                    .collect();
                assert_eq!(f.positions(key).collect::<Vec<_>>(), want, "{key} in {bits} bits, k {hashes}");
            }
        }
    }
}

/// A key inserted by its positions sets the same bits and count as the key itself, and a
/// test by positions answers as a test by key (members and random probes).
#[test]
fn inserting_by_positions_equals_inserting_the_key() {
    let mut rng = Rng(11);
    for (bits, hashes) in [(64, 1), (3048, 4), (1000, 7)] {
        let (mut by_key, mut by_positions) = (BloomFilter::new(bits, hashes), BloomFilter::new(bits, hashes));
        let keys: Vec<u64> = (0..300).map(|_| rng.next() % 100_000).collect();
        for &k in &keys {
            by_key.insert(k);
            by_positions.insert_positions(by_key.positions(k).collect::<Vec<_>>());
        }
        assert_eq!(by_key, by_positions);
        for k in keys.iter().copied().chain((0..2000).map(|_| rng.next() % 100_000)) {
            assert_eq!(
                by_positions.contains_positions(by_key.positions(k).collect::<Vec<_>>()),
                by_key.contains(k)
            );
        }
    }
}

/// The slice helpers set and test the same bits as the filter: a bare word array filled by
/// [`set_positions`] is the filter's words, and [`has_positions`] on it answers as `contains`.
#[test]
fn slice_helpers_share_the_filters_bit_layout() {
    let mut rng = Rng(12);
    for (bits, hashes) in [(64, 1), (3048, 4), (1000, 7)] {
        let mut f = BloomFilter::new(bits, hashes);
        let mut words = vec![0u64; f.words().len()];
        for _ in 0..200 {
            let k = rng.next() % 100_000;
            f.insert(k);
            set_positions(&mut words, f.positions(k));
        }
        assert_eq!(words, f.words());
        for k in (0..2000).map(|_| rng.next() % 100_000) {
            assert_eq!(has_positions(&words, f.positions(k)), f.contains(k));
        }
    }
}

/// A filter rebuilt from another's words, size, k and count equals it (and answers alike);
/// words of the wrong length are refused.
#[test]
fn a_filter_from_its_words_equals_the_filter() {
    let mut rng = Rng(12);
    for (bits, hashes) in [(1, 1), (64, 1), (3048, 4), (1000, 7)] {
        let mut f = BloomFilter::new(bits, hashes);
        for _ in 0..200 {
            f.insert(rng.next() % 50_000);
        }
        let copy = BloomFilter::from_words(f.bits(), f.hashes(), f.inserted(), f.words().to_vec());
        assert_eq!(copy, f);
    }
    let short = std::panic::catch_unwind(|| BloomFilter::from_words(3048, 4, 0, vec![0; 47]));
    assert!(short.is_err(), "47 words cannot hold 3048 bits");
}
