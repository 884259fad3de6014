//! Garbage collection building blocks: victim-selection policies ([`VictimPolicy`]: greedy,
//! cost-benefit, FIFO) and [`pick_victim`] over a device, the per-block ages they read
//! ([`BlockAges`], kept by the device beside the flash array). The algorithms live here; the
//! policy names a config chooses ([`VictimPolicy`], [`UnitAllocation`]) live in the config,
//! and the device only keeps the bookkeeping.

pub mod victim;

pub use crate::ages::BlockAges;
pub use crate::config::{UnitAllocation, VictimPolicy};
pub use victim::{cost_benefit, fifo};

use crate::device::Device;
use crate::flash::{BlockId, FlashArray};

/// Picks a GC victim of `dev` under `policy` among the blocks `collectable` allows.
pub fn pick_victim(
    policy: VictimPolicy,
    dev: &Device,
    collectable: impl Fn(BlockId) -> bool,
) -> Option<BlockId> {
    policy.select(dev.flash(), &dev.ages, collectable)
}

/// As [`pick_victim`], where no block of `skipped` is collectable (the caller's open
/// blocks; `collectable` refuses them too): greedy passes over the buckets of the
/// valid-count index that hold only such blocks without walking them. With an open block
/// per unit (16 x 8 units: 128, at every fill level) most buckets below the victim's hold
/// one, and the search walked them all, refusing each.
pub fn pick_victim_skipping(
    policy: VictimPolicy,
    dev: &Device,
    skipped: impl Iterator<Item = BlockId>,
    collectable: impl Fn(BlockId) -> bool,
) -> Option<BlockId> {
    match policy {
        VictimPolicy::Greedy => greedy_skipping(dev.flash(), skipped, collectable),
        _ => pick_victim(policy, dev, collectable),
    }
}

/// [`greedy`] when no block of `skipped` is collectable (see [`pick_victim_skipping`]).
pub fn greedy_skipping(
    flash: &FlashArray,
    skipped: impl Iterator<Item = BlockId>,
    collectable: impl Fn(BlockId) -> bool,
) -> Option<BlockId> {
    let below = flash.pages_per_block();
    // The skipped blocks per valid count, of those the index holds (written ones); on the
    // stack for blocks of up to 256 pages.
    let (mut small, mut large) = ([0u32; 257], Vec::new());
    let per_count: &mut [u32] = if below < 257 {
        &mut small[..=below as usize]
    } else {
        large.resize(below as usize + 1, 0);
        &mut large
    };
    for b in skipped.filter(|&b| flash.programmed_count(b) > 0) {
        per_count[flash.valid_count(b) as usize] += 1;
    }
    (flash.fewest_valid_bound()..below).find_map(|valid| {
        let skip = per_count[valid as usize];
        if skip > 0 && flash.blocks_with_valid(valid) <= skip {
            return None; // only skipped blocks
        }
        flash.min_block_with_valid(valid, &collectable)
    })
}

/// As [`pick_victim`], among the blocks of unit `unit` of `units` (`block % units == unit`)
/// only: the victim [`pick_victim`] gives when `collectable` also asks for the unit, found
/// without asking every block's unit.
pub fn pick_victim_on(
    policy: VictimPolicy,
    dev: &Device,
    unit: usize,
    units: usize,
    collectable: impl Fn(BlockId) -> bool,
) -> Option<BlockId> {
    policy.select_on(dev.flash(), &dev.ages, UnitBlocks::new(dev.flash(), unit, units), collectable)
}

/// The blocks of one unit: `unit`, `unit + units`, … below the array's block count.
#[derive(Debug, Clone, Copy)]
pub struct UnitBlocks {
    unit: u32,
    units: u32,
    blocks: u32,
}

impl UnitBlocks {
    /// Unit `unit` of `units` over `flash`'s blocks (`units` of 0 counts as 1).
    pub fn new(flash: &FlashArray, unit: usize, units: usize) -> Self {
        UnitBlocks { unit: unit as u32, units: units.max(1) as u32, blocks: flash.blocks() }
    }

    /// The unit's blocks, lowest first.
    fn iter(self) -> impl Iterator<Item = BlockId> {
        (self.unit..self.blocks).step_by(self.units as usize)
    }

    /// Whether `block` is one of the unit's.
    fn holds(self, block: BlockId) -> bool {
        block % self.units == self.unit
    }

    /// Whether reading the unit's own blocks costs less than a search of the valid-count
    /// index that asks every filed block for its unit: the index's walk meets about `units`
    /// blocks per block of the unit it finds, in each bucket it looks at, so with many units
    /// and few blocks each (16 x 8 units: 40 blocks of 5,120) the unit's blocks are fewer.
    fn scan_is_cheaper(self) -> bool {
        self.blocks.div_ceil(self.units) <= 4 * self.units
    }
}

/// The collectable written block with the fewest valid pages, fully valid blocks included:
/// for hybrid schemes, whose switch merge reclaims a fully valid, in-order log block without
/// copying (review engine-model §3(b)); [`pick_victim`] skips such blocks because erasing
/// them frees nothing. Ties go to the lowest block number.
pub fn fewest_valid_including_full(dev: &Device, collectable: impl Fn(BlockId) -> bool) -> Option<BlockId> {
    fewest_valid_below(dev.flash(), dev.flash().pages_per_block() + 1, &collectable)
}

/// The collectable written block with the fewest valid pages, fewer than `below`, lowest
/// number first: bucket by bucket from the flash array's valid-count index (an empty bucket
/// is one comparison there), starting at the index's bound on the fewest valid pages any
/// block has (the buckets below it are empty). Walking the buckets in order, rather than
/// jumping to the next count some block has, keeps a per-unit search (16 x 8 units: most
/// filled buckets hold only other units' blocks) from scanning the counts again after each
/// refused bucket.
fn fewest_valid_below(
    flash: &FlashArray,
    below: u32,
    collectable: &impl Fn(BlockId) -> bool,
) -> Option<BlockId> {
    (flash.fewest_valid_bound()..below).find_map(|valid| flash.min_block_with_valid(valid, collectable))
}

/// Blocks a collection could reclaim: programmed since their last erase, not entirely
/// valid (erasing them frees at least one page), and allowed by `collectable`.
fn candidates<'a>(
    flash: &'a FlashArray,
    collectable: impl Fn(BlockId) -> bool + 'a,
) -> impl Iterator<Item = BlockId> + 'a {
    candidates_among(flash, 0..flash.blocks(), collectable)
}

/// [`candidates`] among `blocks` (in their order).
fn candidates_among<'a>(
    flash: &'a FlashArray,
    blocks: impl Iterator<Item = BlockId> + 'a,
    collectable: impl Fn(BlockId) -> bool + 'a,
) -> impl Iterator<Item = BlockId> + 'a {
    let full = flash.pages_per_block();
    blocks.filter(move |&b| flash.programmed_count(b) > 0 && flash.valid_count(b) < full && collectable(b))
}

/// Greedy victim selection: the collectable block with the fewest valid pages (ties go to the
/// lowest block number, so runs are deterministic). `collectable` says which blocks may be
/// chosen (e.g. not open for writing); erased blocks are never chosen. Returns `None` when no block would free a page.
pub fn greedy(flash: &FlashArray, collectable: impl Fn(BlockId) -> bool) -> Option<BlockId> {
    // Same result as `candidates(..).min_by_key(|&b| (valid, b))`, found bucket by bucket
    // from the flash array's valid-count index instead of scanning every block.
    fewest_valid_below(flash, flash.pages_per_block(), &collectable)
}

/// [`greedy`] among the blocks of one unit: from the unit's own blocks when they are few
/// (with many units and few blocks each), else from the valid-count index.
pub fn greedy_on(
    flash: &FlashArray,
    unit: UnitBlocks,
    collectable: impl Fn(BlockId) -> bool,
) -> Option<BlockId> {
    if unit.units == 1 {
        return greedy(flash, collectable);
    }
    if !unit.scan_is_cheaper() {
        return greedy(flash, |b| unit.holds(b) && collectable(b));
    }
    // The unit's blocks in order: the first with the fewest valid pages is greedy's tie-break.
    let mut best: Option<(u32, BlockId)> = None;
    for b in candidates_among(flash, unit.iter(), collectable) {
        let valid = flash.valid_count(b);
        if best.is_none_or(|(v, _)| valid < v) {
            best = Some((valid, b));
        }
    }
    best.map(|(_, b)| b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::CellType;
    use crate::flash::PageTag;

    #[test]
    fn fully_valid_blocks_are_visible_to_merge_victim_selection() {
        let mut f = FlashArray::new(4, 4, CellType::Slc);
        for p in 0..8 {
            f.program(p, PageTag::data(p, 1)).unwrap();
        }
        let dev = Device::new(f, Default::default(), false);
        assert_eq!(greedy(dev.flash(), |_| true), None, "erasing a full block frees nothing");
        assert_eq!(fewest_valid_including_full(&dev, |_| true), Some(0));
        assert_eq!(fewest_valid_including_full(&dev, |b| b != 0), Some(1));
        assert_eq!(fewest_valid_including_full(&dev, |b| b > 1), None, "erased blocks never");
    }

    #[test]
    fn picks_fewest_valid_and_skips_excluded() {
        let mut f = FlashArray::new(4, 4, CellType::Slc);
        for b in 0..3u32 {
            for p in 0..4 {
                f.program(b * 4 + p, PageTag::data(b * 4 + p, 1)).unwrap();
            }
        }
        f.invalidate(0).unwrap();
        f.invalidate(5).unwrap();
        f.invalidate(6).unwrap();
        assert_eq!(greedy(&f, |_| true), Some(1));
        assert_eq!(greedy(&f, |b| b != 1), Some(0));
        assert_eq!(greedy(&f, |b| b == 2), None, "a block with every page valid frees nothing");
    }

    /// The index-based greedy search equals a brute-force scan on random flash states.
    #[test]
    fn greedy_matches_a_brute_force_scan() {
        use crate::flash::PageState;
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for round in 0..200 {
            let (blocks, ppb) = (3 + next() as u32 % 20, 2 + next() as u32 % 8);
            let mut f = FlashArray::new(blocks, ppb, CellType::Slc);
            let mut version = 0;
            for _ in 0..(next() % (u64::from(blocks * ppb) * 2)) {
                let ppn = (next() % u64::from(blocks * ppb)) as u32;
                match f.state(ppn) {
                    PageState::Free => {
                        version += 1;
                        f.program(ppn, PageTag::data(ppn, version)).unwrap();
                    }
                    PageState::Valid => f.invalidate(ppn).unwrap(),
                    PageState::Invalid if f.valid_count(f.block_of(ppn)) == 0 => {
                        f.erase(f.block_of(ppn)).unwrap()
                    }
                    PageState::Invalid => {}
                }
            }
            f.check().unwrap();
            let excluded = (next() % u64::from(blocks)) as u32;
            let allow = |b: BlockId| b != excluded;
            let brute = (0..blocks)
                .filter(|&b| f.programmed_count(b) > 0 && f.valid_count(b) < ppb && allow(b))
                .min_by_key(|&b| (f.valid_count(b), b));
            assert_eq!(greedy(&f, allow), brute, "round {round}");
        }
    }

    /// Greedy skipping blocks of more pages than its count table on the stack holds.
    #[test]
    fn skipping_works_for_large_blocks() {
        let mut f = FlashArray::new(4, 300, CellType::Slc);
        for (b, valid) in [(0u32, 120u32), (1, 5), (2, 120)] {
            for p in 0..300 {
                f.program(b * 300 + p, PageTag::data(b * 300 + p, 1)).unwrap();
            }
            for p in valid..300 {
                f.invalidate(b * 300 + p).unwrap();
            }
        }
        let skipping =
            |skipped: &[BlockId]| greedy_skipping(&f, skipped.iter().copied(), |b| !skipped.contains(&b));
        assert_eq!(skipping(&[1]), Some(0));
        assert_eq!(skipping(&[1, 0]), Some(2));
        assert_eq!(skipping(&[3]), Some(1), "an erased block skipped changes nothing");
    }

    /// A unit's victim, from its own blocks or from the index (whichever the unit count
    /// chooses), is the one every policy picks with the unit asked of each block; greedy
    /// skipping blocks picks what greedy refusing them picks.
    #[test]
    fn a_units_victim_matches_the_search_that_asks_each_block() {
        use crate::flash::PageState;
        let mut rng = crate::test_rng::Rng(2024);
        for round in 0..300 {
            let blocks = 3 + rng.next() as u32 % 300;
            let ppb = 2 + rng.next() as u32 % 8;
            let mut f = FlashArray::new(blocks, ppb, CellType::Slc);
            let mut ages = BlockAges::new(blocks);
            let mut version = 0;
            for _ in 0..(rng.next() % (u64::from(blocks * ppb) * 2)) {
                let ppn = (rng.next() % u64::from(blocks * ppb)) as u32;
                let b = f.block_of(ppn);
                match f.state(ppn) {
                    PageState::Free => {
                        version += 1;
                        f.program(ppn, PageTag::data(ppn, version)).unwrap();
                        ages.on_program(b);
                    }
                    PageState::Valid => {
                        f.invalidate(ppn).unwrap();
                        ages.on_invalidate(b);
                    }
                    PageState::Invalid if f.valid_count(b) == 0 => {
                        f.erase(b).unwrap();
                        ages.on_erase(b);
                    }
                    PageState::Invalid => {}
                }
            }
            // From one unit to more units than blocks: both of greedy's ways are taken.
            let units = 1 + rng.next() as usize % (blocks as usize + 2);
            let unit = rng.next() as usize % units;
            let unit_blocks = UnitBlocks::new(&f, unit, units);
            let excluded = (rng.next() % u64::from(blocks)) as u32;
            let allow = |b: BlockId| b != excluded;
            // Some blocks skipped (as open blocks are), refused by `collectable` too.
            let skipped: Vec<BlockId> = (0..blocks).filter(|_| rng.next().is_multiple_of(4)).collect();
            let not_skipped = |b: BlockId| !skipped.contains(&b) && allow(b);
            assert_eq!(
                greedy_skipping(&f, skipped.iter().copied(), not_skipped),
                greedy(&f, not_skipped),
                "round {round}: skipping {skipped:?}"
            );
            for policy in VictimPolicy::ALL {
                let asked = policy.select(&f, &ages, |b| b as usize % units == unit && allow(b));
                let got = policy.select_on(&f, &ages, unit_blocks, allow);
                assert_eq!(got, asked, "round {round}: {policy:?}, unit {unit} of {units}, {blocks} blocks");
            }
        }
    }
}
