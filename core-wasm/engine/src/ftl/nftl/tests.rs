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

/// Seed 004's array as MLC: NFTL's default placement there is in order.
fn setup_mlc() -> (Nftl, Device) {
    let mut config = seed004::config();
    config.device.cell = crate::config::CellType::Mlc;
    let lat = Latencies { oob_read_ns: 1_000, transfer_ns_per_page: 0, ..seed004::latencies() };
    (Nftl::new(&BuildCtx::of(&config)).unwrap(), seed004::device_with(&config, lat))
}

/// On MLC a first write takes its primary slot only when the slot is the primary's next
/// page; the others go to the replacement block in order, so the device's program-order
/// check never refuses a write.
#[test]
fn on_mlc_a_first_write_out_of_order_goes_to_the_replacement_block() {
    let (mut ftl, mut dev) = setup_mlc();
    let mut v = 0;
    write_all(&mut ftl, &mut dev, &[1, 0, 2, 1], &mut v);
    let primary = ftl.map.data_block(0).unwrap();
    let first = dev.flash().first_ppn(primary);
    // LPN 1 found the primary's page 0 next, so it went to the replacement; LPN 0 then took
    // page 0, LPN 2 (offset 2, next page 1) the replacement; the update of LPN 1 found its
    // slot next, so it went there and its replacement copy became invalid.
    assert_eq!(dev.flash().programmed_count(primary), 2);
    assert_eq!(dev.flash().tag(first), PageTag::data(0, 2));
    assert_eq!(dev.flash().tag(first + 1), PageTag::data(1, 4));
    assert_eq!(ftl.repl[0].1.lpns, [1, 2]);
    let repl = dev.flash().first_ppn(ftl.repl[0].1.block);
    assert_eq!(dev.flash().state(repl), PageState::Invalid);
    assert_reads(&mut ftl, &mut dev, &[(0, 2), (1, 4), (2, 3)]);
}

/// A fold on MLC programs the new primary in offset order up to the last page it keeps,
/// padding an offset with no page (LPN 3 never written, LPN 1 trimmed): the padding is
/// invalid at once, reads of the hole find nothing, and a later first write of the hole
/// goes to the replacement block since its slot is programmed.
#[test]
fn on_mlc_a_fold_programs_in_order_and_pads_the_holes() {
    let (mut ftl, mut dev) = setup_mlc();
    let mut v = 0;
    write_all(&mut ftl, &mut dev, &[0, 1, 2], &mut v);
    ftl.trim(1, &mut dev).unwrap();
    write_all(&mut ftl, &mut dev, &[2, 2, 0, 2], &mut v); // replacement full
    write_all(&mut ftl, &mut dev, &[0], &mut v); // folds, then goes to a fresh replacement
    assert_eq!(dev.stats.merges, [0, 0, 1]);
    let primary = ftl.map.data_block(0).unwrap();
    let first = dev.flash().first_ppn(primary);
    assert_eq!(dev.flash().programmed_count(primary), 3, "offsets 0, 1 (padding), 2");
    assert_eq!(dev.flash().state(first + 1), PageState::Invalid);
    assert_eq!(dev.flash().tag(first + 1), PageTag::data(1, 0));
    assert_eq!(ftl.read(1, &mut dev).unwrap(), None);
    assert_eq!(ftl.read(3, &mut dev).unwrap(), None);
    // The fold copied two pages (0 and 2); the padding is a program, not a copy.
    assert_eq!(dev.stats.log.merge_copies.iter().sum::<u64>(), 2);
    assert_eq!(dev.stats.log.padding_pages, 1);
    // Offset 3 is the new primary's next page: a first write of LPN 3 goes there.
    write_all(&mut ftl, &mut dev, &[3, 1], &mut v);
    assert_eq!(dev.flash().tag(first + 3), PageTag::data(3, 9));
    assert_eq!(ftl.repl[0].1.lpns, [0, 1]);
    assert_reads(&mut ftl, &mut dev, &[(0, 8), (1, 10), (2, 7), (3, 9)]);
}

/// Offset placement on MLC is refused at build time, naming MLC and the option.
#[test]
fn offset_placement_refuses_mlc() {
    let mut config = seed004::config();
    config.device.cell = crate::config::CellType::Mlc;
    let e = Nftl::with(&BuildCtx::of(&config), Placement::Offset).unwrap_err().to_string();
    assert!(e.contains("MLC") && e.contains("options.placement"), "{e}");
}
