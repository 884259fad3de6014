use super::*;
use crate::config::CellType;
use crate::flash::PageTag;

/// A flash array and its ages, updated together as a scheme would.
struct Rig {
    flash: FlashArray,
    ages: BlockAges,
}

impl Rig {
    fn new(blocks: u32, ppb: u32) -> Self {
        Rig { flash: FlashArray::new(blocks, ppb, CellType::Slc), ages: BlockAges::new(blocks) }
    }

    fn fill(&mut self, block: BlockId) {
        let ppb = self.flash.pages_per_block();
        for ppn in block * ppb..(block + 1) * ppb {
            self.flash.program(ppn, PageTag::data(ppn, 1)).unwrap();
            self.ages.on_program(block);
        }
    }

    /// Invalidates the first `pages` still-valid pages of `block`.
    fn invalidate(&mut self, block: BlockId, pages: usize) {
        let first = self.flash.first_ppn(block);
        let valid: Vec<_> = (first..first + self.flash.pages_per_block())
            .filter(|&p| self.flash.state(p) == crate::flash::PageState::Valid)
            .take(pages)
            .collect();
        for ppn in valid {
            self.flash.invalidate(ppn).unwrap();
            self.ages.on_invalidate(block);
        }
    }

    /// Advances the clock with `n` events on an uninvolved block.
    fn elsewhere(&mut self, n: u32) {
        for _ in 0..n {
            self.ages.on_program(self.flash.blocks() - 1);
        }
    }

    fn pick(&self, policy: VictimPolicy) -> Option<BlockId> {
        policy.select(&self.flash, &self.ages, |_| true)
    }
}

/// Three 8-page blocks written in order 0, 1, 2, then (clock in brackets):
/// block 2 loses 5 pages [25–29], block 0 loses 2 [30–31], block 1 loses 6 [32–37];
/// block 3 is filled [38–45] and is entirely valid. At clock 45:
///
/// | block | valid | age | (1−u)/2u × age     | first written |
/// |-------|-------|-----|--------------------|---------------|
/// | 0     | 6     | 14  | 14 × 2 / 12 ≈ 2.3  | 1 (oldest)    |
/// | 1     | 2     | 8   | 8 × 6 / 4 = 12     | 9             |
/// | 2     | 3     | 16  | 16 × 5 / 6 ≈ 13.3  | 17            |
fn three_way_rig() -> Rig {
    let mut r = Rig::new(5, 8);
    for b in 0..3 {
        r.fill(b);
    }
    r.invalidate(2, 5);
    r.invalidate(0, 2);
    r.invalidate(1, 6);
    r.fill(3);
    assert_eq!(r.ages.now(), 45);
    assert_eq!([r.ages.age(0), r.ages.age(1), r.ages.age(2)], [14, 8, 16]);
    r
}

#[test]
fn greedy_cost_benefit_and_fifo_pick_different_victims() {
    let r = three_way_rig();
    assert_eq!(r.pick(VictimPolicy::Greedy), Some(1), "fewest valid pages");
    assert_eq!(r.pick(VictimPolicy::CostBenefit), Some(2), "old, mostly invalid block");
    assert_eq!(r.pick(VictimPolicy::Fifo), Some(0), "written first");
    assert_eq!(VictimPolicy::Greedy.select(&r.flash, &r.ages, |b| b != 1), greedy(&r.flash, |b| b != 1));
}

#[test]
fn cost_benefit_turns_to_greedy_choice_once_the_hot_block_ages() {
    // 20 more events elsewhere: block 1 ages to 28 (score 42) and block 2 to 36 (score 30).
    let mut r = three_way_rig();
    r.elsewhere(20);
    assert_eq!(r.pick(VictimPolicy::CostBenefit), Some(1));
}

#[test]
fn cost_benefit_prefers_fully_invalid_blocks_then_older_ones() {
    let mut r = three_way_rig();
    r.invalidate(0, 6);
    assert_eq!(r.flash.valid_count(0), 0);
    assert_eq!(r.ages.age(0), 0);
    assert_eq!(r.pick(VictimPolicy::CostBenefit), Some(0), "u = 0 is infinite benefit, however young");
    // Two fully invalid blocks: the one emptied longer ago wins.
    let mut r = three_way_rig();
    r.invalidate(2, 3);
    r.invalidate(1, 2);
    assert_eq!((r.flash.valid_count(1), r.flash.valid_count(2)), (0, 0));
    assert_eq!(r.pick(VictimPolicy::CostBenefit), Some(2));
}

#[test]
fn equal_scores_go_to_fewer_valid_pages() {
    // 4-page blocks. Block 0 keeps 2 valid (stamped at clock 10), block 1 keeps 1 valid
    // (stamped at 14). After k more events: score0 = (4 + k) · 2/2, score1 = k · 3/1.
    let mut r = Rig::new(3, 4);
    r.fill(0);
    r.fill(1);
    r.invalidate(0, 2);
    r.elsewhere(1);
    r.invalidate(1, 3);
    assert_eq!(r.ages.now(), 14);
    r.elsewhere(1); // 5 vs 3
    assert_eq!(r.pick(VictimPolicy::CostBenefit), Some(0));
    r.elsewhere(1); // 6 vs 6: a tie, and block 1 has fewer valid pages
    assert_eq!(r.pick(VictimPolicy::CostBenefit), Some(1));
    assert_eq!(r.pick(VictimPolicy::Greedy), Some(1));
    assert_eq!(r.pick(VictimPolicy::Fifo), Some(0));
}

#[test]
fn fifo_follows_write_order_and_rewritten_blocks_go_to_the_back() {
    let mut r = three_way_rig();
    // Empty block 0 entirely, erase it, write it again: now it is the youngest.
    r.invalidate(0, 6);
    r.flash.erase(0).unwrap();
    r.ages.on_erase(0);
    assert_eq!(r.pick(VictimPolicy::Fifo), Some(1));
    r.fill(0);
    r.invalidate(0, 1);
    assert_eq!(r.pick(VictimPolicy::Fifo), Some(1));
    assert_eq!(VictimPolicy::Fifo.select(&r.flash, &r.ages, |b| b != 1), Some(2));
    assert_eq!(VictimPolicy::Fifo.select(&r.flash, &r.ages, |b| b == 3), None, "all valid: frees nothing");
}

#[test]
fn no_candidate_means_none_for_every_policy() {
    let mut r = Rig::new(2, 4);
    for p in VictimPolicy::ALL {
        assert_eq!(r.pick(p), None, "{p:?} on an erased device");
    }
    r.fill(0);
    for p in VictimPolicy::ALL {
        assert_eq!(r.pick(p), None, "{p:?}: a full valid block frees nothing");
    }
}

#[test]
fn names_round_trip_through_config_and_serde() {
    for p in VictimPolicy::ALL {
        assert_eq!(VictimPolicy::from_name(p.name()), Some(p));
        assert_eq!(serde_json::to_string(&p).unwrap(), format!("\"{}\"", p.name()));
        assert_eq!(serde_json::from_str::<VictimPolicy>(&format!("\"{}\"", p.name())).unwrap(), p);
    }
    assert_eq!(VictimPolicy::from_name("lru"), None);
    assert_eq!(VictimPolicy::default(), VictimPolicy::Greedy);
}
