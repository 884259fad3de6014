//! NFTL on hand-built cases (4-page blocks).

use super::*;
use crate::config::Latencies;
use crate::events::{MergeCause, MergeKind};
use crate::flash::PageKind;
use crate::ftl::logblock::seed004::{self, assert_reads, merges_of, write_all};

/// Seed 004's small array (8 blocks of 4 pages, 4 logical blocks) with a 1 µs spare-area
/// read and no transfer time, so a read's cost counts pages: 25 µs a page, 1 µs a spare area.
fn setup() -> (Nftl, Device) {
    let config = seed004::config();
    let lat = Latencies { oob_read_ns: 1_000, transfer_ns_per_page: 0, ..seed004::latencies() };
    (Nftl::new(&BuildCtx::of(&config)).unwrap(), seed004::device_with(&config, lat))
}

/// Thesis Fig 2.2's situation: the primary page is stale, so the replacement block is
/// searched from its first page (spare areas only) and the newest copy read.
#[test]
fn a_read_of_an_updated_page_scans_the_replacement_blocks_spare_areas() {
    let (mut ftl, mut dev) = setup();
    let mut v = 0;
    write_all(&mut ftl, &mut dev, &[0, 1, 2, 3], &mut v);
    write_all(&mut ftl, &mut dev, &[3, 1, 3], &mut v); // replacement: 3, 1, 3
    dev.cost = Default::default();
    let oob = dev.counters.oob_reads[Purpose::Data as usize];
    let scans = dev.stats.log.oob_scans;
    assert_eq!(ftl.read(3, &mut dev).unwrap(), Some(PageTag::data(3, 7)));
    // The primary page's spare area, then 3 written pages and the first erased one.
    assert_eq!(dev.counters.oob_reads[Purpose::Data as usize] - oob, 1 + 4);
    assert_eq!(dev.stats.log.oob_scans - scans, 1);
    assert_eq!(dev.cost.total_ns(), 5 * 1_000 + 25_000);
    // A page still valid in the primary: its spare area, then the page; no scan.
    assert_eq!(ftl.read(0, &mut dev).unwrap(), Some(PageTag::data(0, 1)));
    assert_eq!(dev.stats.log.oob_scans - scans, 1);
}

#[test]
fn a_full_replacement_block_is_folded_into_a_new_primary() {
    let (mut ftl, mut dev) = setup();
    let mut v = 0;
    write_all(&mut ftl, &mut dev, &[0, 1, 2, 3], &mut v);
    let primary = ftl.map.data_block(0).unwrap();
    write_all(&mut ftl, &mut dev, &[1, 1, 2, 3], &mut v); // replacement full
    let replacement = ftl.repl[0].1.block;
    assert_eq!(dev.stats.gc_runs, 0);
    let merges = merges_of(&mut dev, |dev| write_all(&mut ftl, dev, &[2], &mut v));
    assert_eq!((dev.stats.gc_runs, dev.stats.merges), (1, [0, 0, 1]));
    assert_eq!(
        merges,
        [(MergeKind::Full, MergeCause::Fold, 4, 1)],
        "the merge event tells a fold of a replacement block with all 4 pages written"
    );
    assert_eq!(
        dev.stats.log.merge_copies.iter().sum::<u64>(),
        4,
        "0 from the primary, 1, 2, 3 from the replacement"
    );
    assert_eq!(dev.stats.log.merge_erases[2], 2, "primary and replacement erased");
    let new = ftl.map.data_block(0).unwrap();
    assert!(new != primary && new != replacement);
    assert_eq!(dev.flash().programmed_count(primary), 0);
    assert_reads(&mut ftl, &mut dev, &[(0, 1), (1, 6), (2, 9), (3, 8)]);
    // The write after the fold went to a fresh replacement block.
    assert_eq!(ftl.repl.len(), 1);
    assert_ne!(ftl.repl[0].1.block, replacement);
}

/// Thesis §2.3.4's write: the primary page's spare area says whether the slot is free, and
/// an update searches the replacement block sequentially for its free page. OOB reads per
/// write: a first write into a fresh primary none; into an existing primary one; the first
/// update one (its replacement block is new, so nothing to search); the next updates one plus
/// the replacement's written pages plus its first erased page.
#[test]
fn a_write_charges_the_primary_spare_read_and_the_replacement_search() {
    let (mut ftl, mut dev) = setup();
    let mut v = 0;
    let mut oob_of = |lpns: &[u32], ftl: &mut Nftl, dev: &mut Device| {
        let before = dev.counters.oob_reads.iter().sum::<u64>();
        write_all(ftl, dev, lpns, &mut v);
        dev.counters.oob_reads.iter().sum::<u64>() - before
    };
    assert_eq!(oob_of(&[0], &mut ftl, &mut dev), 0, "fresh primary block");
    assert_eq!(oob_of(&[1, 2, 3], &mut ftl, &mut dev), 3, "one primary spare area each");
    assert_eq!(oob_of(&[3], &mut ftl, &mut dev), 1, "primary occupied; new replacement block");
    assert_eq!(oob_of(&[1], &mut ftl, &mut dev), 1 + 2, "primary, replacement page 0, first erased");
    assert_eq!(oob_of(&[3], &mut ftl, &mut dev), 1 + 3);
    assert_eq!(oob_of(&[2], &mut ftl, &mut dev), 1 + 4);
    assert_eq!(dev.stats.log.oob_scans, 0, "oob_scans counts the reads' searches");
    // Full replacement block: primary, 4 written pages, then the fold and the write starts
    // over: primary again (occupied after the fold), and a fresh replacement block.
    assert_eq!(oob_of(&[0], &mut ftl, &mut dev), 1 + 4 + 1);
    assert_eq!(dev.stats.merges, [0, 0, 1]);
    // By kind: erased spare areas (free primary slots of 1, 2, 3 and the three searches' end
    // markers) count as erased pages, the rest as data; the kinds add up to the total.
    let k = |kind: PageKind| dev.counters.by_kind[kind as usize].oob_reads.iter().sum::<u64>();
    assert_eq!((k(PageKind::None), k(PageKind::Data)), (6, 16));
    assert_eq!(dev.counters.oob_reads.iter().sum::<u64>(), 22);
    assert_reads(&mut ftl, &mut dev, &[(0, 9), (1, 6), (2, 8), (3, 7)]);
}
