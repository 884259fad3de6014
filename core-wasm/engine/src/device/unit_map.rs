//! Which unit and channel hold a block, found with multiplications instead of divisions.
//!
//! Every flash operation on a device of several units asks for its block's unit (`block %
//! units`) and that unit's channel (`unit % channels`): two divisions by numbers fixed when
//! the device is made, each tens of cycles on the hot path (16 x 8 units: two per page read
//! or program). A remainder by a fixed divisor is two multiplications instead (Lemire,
//! Kaser and Kurz, "Faster remainder by direct computation", 2019), exact for every 32-bit
//! dividend.

/// A remainder by a fixed divisor.
#[derive(Debug, Clone, Copy)]
pub(super) struct Modulus {
    divisor: u32,
    /// `ceil(2^64 / divisor)` modulo 2^64 (0 for a divisor of 1, whose remainders are 0).
    inverse: u64,
}

impl Modulus {
    /// Remainders by `divisor` (at least 1).
    pub(super) fn new(divisor: u32) -> Self {
        let divisor = divisor.max(1);
        Modulus { divisor, inverse: (u64::MAX / u64::from(divisor)).wrapping_add(1) }
    }

    /// `n % divisor`.
    #[inline(always)] // hot path: see docs/perf.md, "Calls on the hot path"
    pub(super) fn of(self, n: u32) -> u32 {
        let fraction = self.inverse.wrapping_mul(u64::from(n));
        ((u128::from(fraction) * u128::from(self.divisor)) >> 64) as u32
    }
}

/// Blocks to units (`block % units`) and units to channels (`unit % channels`).
#[derive(Debug, Clone, Copy)]
pub(super) struct UnitMap {
    units: Modulus,
    channels: Modulus,
}

impl UnitMap {
    /// `units` units over `channels` channels (each at least 1).
    pub(super) fn new(units: u32, channels: u32) -> Self {
        UnitMap { units: Modulus::new(units), channels: Modulus::new(channels) }
    }

    /// The unit and the channel that hold `block`.
    #[inline(always)] // hot path: see docs/perf.md, "Calls on the hot path"
    pub(super) fn of(self, block: u32) -> (usize, usize) {
        let unit = self.units.of(block);
        (unit as usize, self.channels.of(unit) as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remainders_match_the_division() {
        let mut rng = crate::test_rng::Rng(99);
        let divisors = (1..=300).chain([511, 512, 1000, 4096, 65_535, 1 << 20, u32::MAX - 1, u32::MAX]);
        for d in divisors {
            let m = Modulus::new(d);
            let edges = [0, 1, d - 1, d, d.wrapping_add(1), u32::MAX - 1, u32::MAX];
            for n in edges.into_iter().chain((0..200).map(|_| rng.next() as u32)) {
                assert_eq!(m.of(n), n % d, "{n} % {d}");
            }
        }
    }

    #[test]
    fn a_block_maps_to_its_unit_and_that_units_channel() {
        for (channels, ways) in [(1, 1), (2, 1), (4, 2), (3, 5), (16, 8)] {
            let map = UnitMap::new(channels * ways, channels);
            for block in 0..5_000u32 {
                let unit = block % (channels * ways);
                assert_eq!(map.of(block), (unit as usize, (unit % channels) as usize));
            }
        }
    }
}
