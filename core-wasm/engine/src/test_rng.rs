//! The unit tests' random numbers: SplitMix64, seeded, the same on every machine. (Integration
//! tests have their own in `tests/common`, a separate crate.)

/// A seeded SplitMix64 generator.
pub(crate) struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits.
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        crate::cache::mix64(self.0)
    }

    /// A number below `n` (`n` > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}
