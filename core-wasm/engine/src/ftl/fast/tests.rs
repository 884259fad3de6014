//! FAST on hand-built cases (4-page blocks), costed with seed 004's device:
//! T_read = 25 + 4 × 70 µs, T_write = 200 + 4 × 70 µs, T_erase = 2 ms.

use super::*;
use crate::config::Latencies;
use crate::events::{HostOp, MergeCause, MergeKind, Purpose};
use crate::ftl::logblock::seed004::{self, assert_reads, merges_of, write_all, T_ERASE, T_READ, T_WRITE};

/// Seed 004's small device; `dynamic` for FAST-DO.
pub(crate) fn setup(log_blocks: u32, dynamic: bool) -> (FastFtl, Device) {
    setup_with(log_blocks, SeqTrigger::Offset0, dynamic)
}

/// The same with the sequential-log trigger `trigger`.
pub(crate) fn setup_with(log_blocks: u32, trigger: SeqTrigger, dynamic: bool) -> (FastFtl, Device) {
    seed004::setup(|ctx| FastFtl::new(ctx, "fast", log_blocks, LogLookup::Hashed, trigger, dynamic))
}

#[test]
fn a_victim_shared_by_three_data_blocks_costs_seed_004_eq_3() {
    let (mut ftl, mut dev) = setup(1, false);
    let mut v = 0;
    write_all(&mut ftl, &mut dev, &(0..16).collect::<Vec<_>>(), &mut v); // in place
    write_all(&mut ftl, &mut dev, &[1, 5, 9, 2], &mut v); // one random log block, LBNs 0, 1, 2
    assert_eq!(ftl.rw.len(), 1);
    assert_eq!(dev.stats.gc_runs, 0);
    // No room: the FIFO victim is merged.
    let merges = merges_of(&mut dev, |dev| write_all(&mut ftl, dev, &[13], &mut v));
    assert_eq!((dev.stats.gc_runs, dev.stats.merges), (1, [0, 0, 3]), "one victim, A = 3 full merges");
    // Each of the A = 3 merge events says the log block was shared by 3 logical blocks.
    assert_eq!(merges, [(MergeKind::Full, MergeCause::Shared, 4, 3); 3]);
    assert_eq!(dev.stats.gc_valid_copies, 12);
    // Eq. (3): A × (N × (T_read + T_write) + T_erase) + T_erase with A = 3, N = 4.
    let merge_ns = dev.cost.flash_ns[Purpose::Merge as usize];
    assert_eq!(merge_ns, 3 * (4 * (T_READ + T_WRITE) + T_ERASE) + T_ERASE);
    assert_reads(&mut ftl, &mut dev, &[(1, 17), (2, 20), (5, 18), (9, 19), (13, 21), (0, 1)]);
}

#[test]
fn a_block_rewritten_from_offset_0_switches_its_sequential_log_block() {
    let (mut ftl, mut dev) = setup(0, false);
    let mut v = 0;
    write_all(&mut ftl, &mut dev, &(0..8).collect::<Vec<_>>(), &mut v);
    write_all(&mut ftl, &mut dev, &[4, 5, 6], &mut v);
    let sw = ftl.sw.as_ref().expect("offset 0 opens the sequential log block").block;
    assert!(ftl.rw.is_empty(), "in-order updates stay in the sequential log block");
    dev.cost = Default::default();
    write_all(&mut ftl, &mut dev, &[7], &mut v);
    assert_eq!(dev.stats.merges[MergeKind::Switch as usize], 1);
    assert_eq!(dev.stats.gc_valid_copies, 0);
    assert_eq!(ftl.map.data_block(1), Some(sw), "the sequential log block became the data block");
    assert_eq!(dev.cost.flash_ns[Purpose::Merge as usize], T_ERASE, "a switch only erases the old block");
    assert!(ftl.sw.is_none());
}

#[test]
fn reads_scanning_the_log_blocks_pay_one_ram_access_per_log_page() {
    let (mut ftl, mut dev) = setup(0, false);
    ftl.lookup = LogLookup::Scan;
    let mut v = 0;
    write_all(&mut ftl, &mut dev, &(0..8).collect::<Vec<_>>(), &mut v);
    write_all(&mut ftl, &mut dev, &[1, 5, 6], &mut v);
    dev.cost = Default::default();
    let lat = Latencies { ram_access_ns: 100, ..dev.latency().clone() };
    let mut dev2 = Device::new(dev.flash().clone(), lat, false);
    ftl.read(5, &mut dev2).unwrap();
    // One block-map access and a scan of the 3 log pages.
    assert_eq!(dev2.cost.ram_ns, 4 * 100);
}

#[test]
fn the_inspection_pairs_each_log_block_with_the_data_blocks_it_serves() {
    let (mut ftl, mut dev) = setup(0, false);
    let mut v = 0;
    write_all(&mut ftl, &mut dev, &(0..16).collect::<Vec<_>>(), &mut v);
    write_all(&mut ftl, &mut dev, &[1, 5, 9], &mut v); // one random log block, LBNs 0, 1, 2
    let log = ftl.rw[0].block;
    let query = InspectQuery::default();
    let inspection = ftl.inspect(&query);
    let table = inspection.structures.iter().find_map(|s| match s {
        crate::inspect::Structure::Table { id, rows, .. } if id == "log-data-blocks" => Some(rows),
        _ => None,
    });
    let pairs: Vec<(u32, Option<u32>)> =
        table.expect("the table is there").iter().map(|r| (r.key, r.value)).collect();
    let data = |lbn| ftl.map.data_block(lbn);
    assert_eq!(pairs, [(log, data(0)), (log, data(1)), (log, data(2))]);
    assert!(data(0).is_some() && data(0) != data(1));
}

/// Merge erases by kind, the empty reclaims included, against the flash's merge erases.
fn merge_erases_add_up(dev: &Device) -> bool {
    let l = &dev.stats.log;
    l.merge_erases.iter().sum::<u64>() + l.empty_erases == dev.counters.erases[Purpose::Merge as usize]
}

/// Writes `requests`, each through the request hooks, with increasing versions after `v`.
fn write_requests(ftl: &mut FastFtl, dev: &mut Device, requests: &[&[u32]], v: &mut u32) {
    for lpns in requests {
        ftl.begin_request(HostOp::Write, lpns, dev).unwrap();
        write_all(ftl, dev, lpns, v);
        ftl.end_request(dev).unwrap();
    }
}

/// The sequential-log trigger. `offset0` (FAST's paper): a one-page update at offset 0 opens
/// the sequential log block. `request` with `seq_min_pages = 2`: it goes to a random log
/// block, and a request of two pages from offset 0 opens the sequential log block.
#[test]
fn the_sequential_log_trigger_is_offset_0_or_a_long_enough_request() {
    let one_page_at_offset_0 = |trigger| {
        let (mut ftl, mut dev) = setup_with(0, trigger, false);
        let mut v = 0;
        write_all(&mut ftl, &mut dev, &(0..8).collect::<Vec<_>>(), &mut v);
        write_requests(&mut ftl, &mut dev, &[&[4]], &mut v);
        (ftl, dev, v)
    };
    let (ftl, ..) = one_page_at_offset_0(SeqTrigger::Offset0);
    assert!(ftl.sw.is_some() && ftl.rw.is_empty());
    let (mut ftl, mut dev, mut v) = one_page_at_offset_0(SeqTrigger::Request(2));
    assert!(ftl.sw.is_none() && ftl.rw.len() == 1, "a one-page write is random");
    write_requests(&mut ftl, &mut dev, &[&[0, 1]], &mut v);
    assert_eq!(ftl.sw.as_ref().map(|s| s.lpns.clone()), Some(vec![0, 1]));
    assert_reads(&mut ftl, &mut dev, &[(4, 9), (0, 10), (1, 11)]);
}

/// One-page updates alternating between offset 0 of two blocks: under `offset0` each closes
/// the other's sequential log block with a partial merge; under `request` (2 pages) none
/// does: the random log blocks are reclaimed instead (here every page of the oldest is
/// superseded by then, so it is erased as kind `empty`). Under both the merge erases by kind
/// add up to the flash's merge erases.
#[test]
fn merges_by_kind_under_each_trigger_and_their_erases_add_up() {
    let run = |trigger| {
        let (mut ftl, mut dev) = setup_with(0, trigger, false);
        let mut v = 0;
        write_all(&mut ftl, &mut dev, &(0..8).collect::<Vec<_>>(), &mut v);
        let updates: Vec<[u32; 1]> = [0u32, 4].iter().copied().cycle().take(16).map(|l| [l]).collect();
        let requests: Vec<&[u32]> = updates.iter().map(|r| &r[..]).collect();
        write_requests(&mut ftl, &mut dev, &requests, &mut v);
        assert!(merge_erases_add_up(&dev), "{trigger:?}");
        assert_reads(&mut ftl, &mut dev, &[(0, v - 1), (4, v)]);
        (dev.stats.merges, dev.stats.log.empty_erases)
    };
    let ([_, partial, _], _) = run(SeqTrigger::Offset0);
    assert!(partial >= 10, "each offset-0 write closes the other block's sequential log");
    let ([switch, partial, full], empty) = run(SeqTrigger::Request(2));
    assert_eq!((switch, partial), (0, 0));
    assert!(full + empty > 0, "random log blocks reclaimed");
}

/// A random log block whose pages were all superseded is erased with no merge: its erase
/// counts as kind `empty`, so merge erases add up (law L3b of the stress tests).
#[test]
fn a_log_block_with_no_live_page_is_erased_as_kind_empty() {
    let (mut ftl, mut dev) = setup(2, false);
    let mut v = 0;
    write_all(&mut ftl, &mut dev, &(0..8).collect::<Vec<_>>(), &mut v);
    write_all(&mut ftl, &mut dev, &[1, 1, 1, 1], &mut v); // log A
    write_all(&mut ftl, &mut dev, &[1, 1, 1, 1], &mut v); // log B supersedes all of A
    assert_eq!(dev.counters.erases[Purpose::Merge as usize], 0);
    write_all(&mut ftl, &mut dev, &[1], &mut v); // no room: A is reclaimed, nothing live
    assert_eq!(dev.stats.merges, [0, 0, 0], "no merge");
    assert_eq!(dev.stats.log.empty_erases, 1);
    assert!(merge_erases_add_up(&dev));
    assert_reads(&mut ftl, &mut dev, &[(1, v)]);
}
