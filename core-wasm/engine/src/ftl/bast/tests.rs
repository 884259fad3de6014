//! BAST's merges on hand-built cases (4-page blocks), costed with seed 004's device:
//! T_read = 25 + 4 × 70 µs, T_write = 200 + 4 × 70 µs, T_erase = 2 ms.

use super::*;
use crate::events::{MergeCause, MergeKind, Purpose};
use crate::ftl::logblock::seed004::{self, assert_reads, merges_of, write_all, T_ERASE, T_READ, T_WRITE};

/// Seed 004's small device; `log_blocks` log blocks, each shared by up to `share` data blocks.
pub(crate) fn setup(log_blocks: u32, share: usize) -> (LogFtl, Device) {
    seed004::setup(|ctx| LogFtl::new(ctx, "bast", log_blocks, LogVictim::Lru, share))
}

fn merge_ns(dev: &Device) -> u64 {
    dev.cost.flash_ns[Purpose::Merge as usize]
}

#[test]
fn a_full_merge_costs_seed_004_eq_2() {
    let (mut ftl, mut dev) = setup(1, 1);
    let mut v = 0;
    write_all(&mut ftl, &mut dev, &(0..8).collect::<Vec<_>>(), &mut v); // in place
    write_all(&mut ftl, &mut dev, &[3, 1], &mut v); // LBN 0's log block, out of order
    assert_eq!(dev.stats.merges, [0, 0, 0]);
    // LBN 1 needs the only log block: the LRU victim is merged.
    let merges = merges_of(&mut dev, |dev| write_all(&mut ftl, dev, &[5], &mut v));
    assert_eq!(dev.stats.merges, [0, 0, 1]);
    // Full because the log block holds LBN 0's pages out of order (2 of 4 written).
    assert_eq!(merges, [(MergeKind::Full, MergeCause::OutOfOrder, 2, 1)]);
    assert_eq!(dev.stats.gc_valid_copies, 4);
    // Eq. (2): N × (T_read + T_write) + 2 × T_erase with N = 4.
    assert_eq!(merge_ns(&dev), 4 * (T_READ + T_WRITE) + 2 * T_ERASE);
    assert_reads(&mut ftl, &mut dev, &[(0, 1), (1, 10), (2, 3), (3, 9), (5, 11)]);
}

#[test]
fn a_complete_in_order_log_block_switches() {
    let (mut ftl, mut dev) = setup(1, 1);
    let mut v = 0;
    write_all(&mut ftl, &mut dev, &[0, 1, 2, 3, 0, 1, 2, 3], &mut v);
    let log = ftl.logs().next().unwrap().block;
    // The full log block is merged before LBN 0 takes another update.
    let merges = merges_of(&mut dev, |dev| write_all(&mut ftl, dev, &[2], &mut v));
    assert_eq!(merges, [(MergeKind::Switch, MergeCause::InOrder, 4, 1)]);
    assert_eq!(dev.stats.merges[MergeKind::Switch as usize], 1);
    assert_eq!(dev.stats.gc_valid_copies, 0);
    assert_eq!(ftl.map.data_block(0), Some(log), "the log block became the data block");
    assert_eq!(merge_ns(&dev), T_ERASE, "a switch only erases the old data block");
    assert_eq!(ftl.read(2, &mut dev).unwrap(), Some(PageTag::data(2, 9)));
    ftl.check(&dev).unwrap();
}

#[test]
fn an_incomplete_in_order_log_block_takes_a_partial_merge() {
    let (mut ftl, mut dev) = setup(1, 1);
    let mut v = 0;
    write_all(&mut ftl, &mut dev, &[0, 1, 2, 3, 4, 0, 1], &mut v);
    let log = ftl.logs().next().unwrap().block;
    // LBN 1 takes the only log block: LBN 0's, written in order up to offset 1, is merged.
    let merges = merges_of(&mut dev, |dev| write_all(&mut ftl, dev, &[4], &mut v));
    assert_eq!(merges, [(MergeKind::Partial, MergeCause::InOrder, 2, 1)]);
    assert_eq!(dev.stats.merges[MergeKind::Partial as usize], 1);
    assert_eq!(dev.stats.gc_valid_copies, 2, "offsets 2 and 3 copied behind");
    assert_eq!(ftl.map.data_block(0), Some(log));
    assert_eq!(merge_ns(&dev), 2 * (T_READ + T_WRITE) + T_ERASE);
    assert_reads(&mut ftl, &mut dev, &[(0, 6), (1, 7), (2, 3), (3, 4), (4, 8)]);
}

#[test]
fn the_lru_log_block_is_the_victim() {
    let (mut ftl, mut dev) = setup(2, 1);
    let mut v = 0;
    write_all(&mut ftl, &mut dev, &(0..12).collect::<Vec<_>>(), &mut v);
    write_all(&mut ftl, &mut dev, &[1, 5, 2], &mut v); // LBN 1's log is now least recent
    write_all(&mut ftl, &mut dev, &[9], &mut v);
    assert_eq!(dev.stats.gc_runs, 1);
    assert!(ftl.log_of(0).is_some() && ftl.log_of(1).is_none(), "LBN 1's log was merged");
    ftl.check(&dev).unwrap();
}

#[test]
fn an_update_writes_the_new_copy_before_invalidating_the_old() {
    // The narration pairs a write with the invalidation right after it ("the old copy … is
    // now invalid"): the old copy must be the updated page's, not the next page's.
    let (mut ftl, mut dev) = setup(1, 1);
    let mut v = 0;
    write_all(&mut ftl, &mut dev, &[0, 1, 2, 3], &mut v);
    let old = ftl.map.locate(&dev, 1).unwrap();
    dev.take_events();
    write_all(&mut ftl, &mut dev, &[1], &mut v);
    let ops: Vec<_> = dev
        .take_events()
        .into_iter()
        .filter(|e| {
            matches!(e, crate::events::Event::FlashProgram { .. } | crate::events::Event::Invalidate { .. })
        })
        .collect();
    assert!(
        matches!(ops.as_slice(), [crate::events::Event::FlashProgram { key: 1, .. }, crate::events::Event::Invalidate { ppn }] if *ppn == old),
        "{ops:?}"
    );
}

/// `merges = full-only` (seed 004's Eq. (2) read literally): the complete, in-order log block
/// that Kim et al.'s BAST switches (one erase, no copy) takes a full merge instead: 4 copies
/// into a fresh block and both old blocks erased, N × (T_read + T_write) + 2 × T_erase.
#[test]
fn full_merges_only_merges_an_in_order_log_block_in_full() {
    let (ftl, mut dev) = setup(1, 1);
    let mut ftl = ftl.with_merges(MergeKinds::FullOnly);
    let mut v = 0;
    write_all(&mut ftl, &mut dev, &[0, 1, 2, 3, 0, 1, 2, 3], &mut v);
    let log = ftl.logs().next().unwrap().block;
    let merges = merges_of(&mut dev, |dev| write_all(&mut ftl, dev, &[2], &mut v));
    assert_eq!(merges, [(MergeKind::Full, MergeCause::InOrder, 4, 1)]);
    assert_eq!(dev.stats.merges, [0, 0, 1]);
    assert_eq!(dev.stats.gc_valid_copies, 4);
    assert_ne!(ftl.map.data_block(0), Some(log), "a fresh block, not the log block");
    assert_eq!(merge_ns(&dev), 4 * (T_READ + T_WRITE) + 2 * T_ERASE);
    assert_reads(&mut ftl, &mut dev, &[(0, 5), (1, 6), (2, 9), (3, 8)]);
}

/// The block map's own updates reach the metadata path, so a placement model places them:
/// the first write of a logical block assigns its data block, and a merge moves it to the
/// merged block (both writes of that logical block's entry).
#[test]
fn block_map_updates_reach_the_metadata_path() {
    use crate::meta::MetaKind::BlockMap;
    let (mut ftl, mut dev) = setup(1, 1);
    let rec = crate::ftl::demand::testing::MetaRecorder::install(&mut dev);
    let mut v = 0;
    let entry_writes = |rec: &crate::ftl::demand::testing::MetaRecorder| -> Vec<u32> {
        rec.take().into_iter().filter(|a| a.0 == BlockMap && a.1).map(|a| a.2).collect()
    };
    write_all(&mut ftl, &mut dev, &(0..8).collect::<Vec<_>>(), &mut v); // in place
    assert_eq!(entry_writes(&rec), [0, 1], "assigning LBN 0's and LBN 1's data blocks");
    write_all(&mut ftl, &mut dev, &[3, 1], &mut v); // LBN 0's log block, out of order
    entry_writes(&rec);
    // LBN 1 needs the only log block: LBN 0 is merged into a new data block.
    write_all(&mut ftl, &mut dev, &[5], &mut v);
    assert_eq!(dev.stats.merges, [0, 0, 1]);
    assert_eq!(entry_writes(&rec), [0], "the merge moves LBN 0's entry");
}
