//! A fixed-size set of small integers, one bit each: pages or blocks seen or chosen, at an
//! eighth of a `Vec<bool>`'s memory, and whose words a bitmap walk can intersect with its own
//! (see [`crate::flash::FlashArray::min_block_with_valid_among`]).

/// A set of the integers below the length it was made with.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Bits(Vec<u64>);

impl Bits {
    /// An empty set of the integers below `len`.
    pub fn new(len: u64) -> Self {
        Bits(vec![0; len.div_ceil(64) as usize])
    }

    /// Adds `i`; whether it was new.
    #[inline]
    pub fn insert(&mut self, i: u64) -> bool {
        let (word, bit) = (&mut self.0[(i / 64) as usize], 1u64 << (i % 64));
        let new = *word & bit == 0;
        *word |= bit;
        new
    }

    /// Takes `i` out (if it was in).
    #[inline]
    pub fn remove(&mut self, i: u64) {
        self.0[(i / 64) as usize] &= !(1u64 << (i % 64));
    }

    /// Whether `i` is in the set (an integer past the length is not).
    #[inline]
    pub fn contains(&self, i: u64) -> bool {
        self.0.get((i / 64) as usize).is_some_and(|w| w >> (i % 64) & 1 == 1)
    }

    /// Makes room for the integers below `len` (never shrinks; the new ones are out).
    #[inline]
    pub fn grow(&mut self, len: u64) {
        let words = len.div_ceil(64) as usize;
        if words > self.0.len() {
            self.0.resize(words, 0);
        }
    }

    /// Empties the set and its room (the memory is kept for growing again).
    pub fn clear(&mut self) {
        self.0.clear();
    }

    /// The words: bit `i % 64` of word `i / 64` is integer `i`.
    pub fn words(&self) -> &[u64] {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use super::Bits;

    #[test]
    fn holds_what_was_inserted_and_not_what_was_removed() {
        let mut s = Bits::new(130);
        assert!(s.insert(0) && s.insert(64) && s.insert(129));
        assert!(!s.insert(64), "a second insert is not new");
        s.remove(64);
        s.remove(5); // absent: no change
        let held: Vec<u64> = (0..140).filter(|&i| s.contains(i)).collect();
        assert_eq!(held, [0, 129]);
        assert_eq!(s.words(), [1, 0, 2]);
    }

    #[test]
    fn grows_keeping_what_it_holds_and_clears_to_no_room() {
        let mut s = Bits::new(10);
        s.insert(3);
        s.grow(5); // smaller: no change
        assert_eq!(s.words().len(), 1);
        assert!(!s.contains(200), "past the room: out");
        s.grow(201);
        assert_eq!(s.words().len(), 4);
        assert!(s.insert(200) && s.contains(3));
        s.clear();
        assert!(s.words().is_empty() && !s.contains(3) && !s.contains(200));
        s.grow(64);
        assert_eq!(s.words(), [0], "grown again from nothing: empty");
    }
}
