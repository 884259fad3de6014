//! A caching group's CDPs: LPN -> version of the data RAM holds, kept as a `Vec` sorted by
//! LPN. A group holds at most one translation page's worth of LPNs and usually a handful,
//! so a binary search and a short shift beat a `BTreeMap`, which allocated a node for a
//! group's first CDP and freed it when the group left (every CTP load and eviction).
//! Iteration is in LPN order, as the map's was: flushes and the state hash rely on it.

/// The CDPs of one group, in LPN order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct Cdps {
    sorted: Vec<(u32, u32)>,
}

impl Cdps {
    fn find(&self, lpn: u32) -> Result<usize, usize> {
        self.sorted.binary_search_by_key(&lpn, |&(l, _)| l)
    }

    pub(super) fn get(&self, lpn: &u32) -> Option<&u32> {
        self.find(*lpn).ok().map(|i| &self.sorted[i].1)
    }

    pub(super) fn get_mut(&mut self, lpn: &u32) -> Option<&mut u32> {
        self.find(*lpn).ok().map(|i| &mut self.sorted[i].1)
    }

    pub(super) fn contains_key(&self, lpn: &u32) -> bool {
        self.find(*lpn).is_ok()
    }

    /// Sets `lpn`'s version; answers the one it replaced.
    pub(super) fn insert(&mut self, lpn: u32, version: u32) -> Option<u32> {
        match self.find(lpn) {
            Ok(i) => Some(std::mem::replace(&mut self.sorted[i].1, version)),
            Err(i) => {
                self.sorted.insert(i, (lpn, version));
                None
            }
        }
    }

    pub(super) fn remove(&mut self, lpn: &u32) -> Option<u32> {
        self.find(*lpn).ok().map(|i| self.sorted.remove(i).1)
    }

    pub(super) fn len(&self) -> usize {
        self.sorted.len()
    }

    pub(super) fn is_empty(&self) -> bool {
        self.sorted.is_empty()
    }

    /// (LPN, version) in LPN order.
    pub(super) fn iter(&self) -> impl Iterator<Item = (&u32, &u32)> {
        self.sorted.iter().map(|(l, v)| (l, v))
    }

    /// The LPNs in order.
    pub(super) fn keys(&self) -> impl Iterator<Item = &u32> {
        self.sorted.iter().map(|(l, _)| l)
    }
}

#[cfg(test)]
mod tests {
    use super::Cdps;
    use std::collections::BTreeMap;

    /// Random inserts, overwrites, look-ups and removes answer as a `BTreeMap` does, and
    /// iterate in the same order.
    #[test]
    fn answers_as_a_btree_map_does() {
        let mut cdps = Cdps::default();
        let mut map = BTreeMap::new();
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        for step in 0..20_000u32 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let lpn = (x % 97) as u32;
            match x >> 60 {
                0..=7 => assert_eq!(cdps.insert(lpn, step), map.insert(lpn, step)),
                8..=12 => assert_eq!(cdps.remove(&lpn), map.remove(&lpn)),
                13 => {
                    if let (Some(a), Some(b)) = (cdps.get_mut(&lpn), map.get_mut(&lpn)) {
                        *a += 1;
                        *b += 1;
                    }
                }
                _ => assert_eq!(cdps.get(&lpn), map.get(&lpn)),
            }
            assert_eq!(cdps.contains_key(&lpn), map.contains_key(&lpn));
            assert_eq!((cdps.len(), cdps.is_empty()), (map.len(), map.is_empty()));
            if step % 97 == 0 {
                assert!(cdps.iter().eq(map.iter()));
                assert!(cdps.keys().eq(map.keys()));
            }
        }
        assert!(cdps.iter().eq(map.iter()));
    }
}
