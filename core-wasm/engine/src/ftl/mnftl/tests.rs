//! MNFTL on the thesis' worked example (Fig 3.5) and GC cost (§3.3.3).

use super::*;
use crate::config::SimConfig;
use crate::flash::FlashArray;
use crate::presets;

const US: u64 = 1_000;

/// `thesis-mnftl`'s timings and MLC cells on `blocks` blocks of 8 pages, 4 slots per spare
/// area (Fig 3.5's N = 2).
fn setup(blocks: u32) -> (Mnftl, Device) {
    let mut c = presets::config("thesis-mnftl").unwrap();
    (c.device.blocks, c.device.pages_per_block, c.device.over_provisioning) = (blocks, 8, 0.5);
    c.gc.reserve_blocks = 1;
    let o = MnftlOptions { slots_per_oob: 4, ..MnftlOptions::default() };
    let ftl = Mnftl::new(&BuildCtx::of(&c), &o).unwrap();
    let d = &c.device;
    let flash = FlashArray::new(d.blocks, d.pages_per_block, d.cell).with_sizes(d.page_bytes, d.oob_bytes);
    (ftl, Device::new(flash, d.latency.clone(), true))
}

fn config_mlc() -> SimConfig {
    presets::config("thesis-mnftl").unwrap()
}

/// Fig 3.5: writes of A…K to LBN 4 (LPNs 32–39); A lands on PPN 88 (PBN 11, page 0) with
/// PMT_0; after 8 writes PBN 11 is full and PBN 17 (PPNs 136–143) is added; after 11
/// writes the list is {11, 17}, PPN_0 = 136, PPN_1 = 138, and read(39) reads PMT_1 from
/// 138's spare area, which sends it to PPN 137 ("J").
#[test]
fn fig_3_5_worked_example() {
    let (mut ftl, mut dev) = setup(24);
    assert_eq!((ftl.map.slots(), ftl.map.per_lbn()), (4, 2));
    // Other logical blocks' allocations so far: the pool hands PBN 11 to LBN 4 first.
    let aside: Vec<_> = (0..11).map(|_| ftl.pool.take(0, &mut dev).unwrap()).collect();
    let writes = [35, 33, 36, 37, 32, 34, 38, 39, 35, 39, 36]; // A … K
    for (i, &lpn) in writes.iter().enumerate() {
        if i == 8 {
            for _ in 12..17 {
                ftl.pool.take(0, &mut dev).unwrap();
            }
        }
        ftl.write(lpn, i as u32 + 1, &mut dev).unwrap();
        ftl.check(&dev).unwrap();
        if i == 0 {
            assert_eq!(ftl.map.peek(&dev, 35), Some(88));
            assert_eq!(ftl.map.pointer(4, 0), Some(88), "PMT_0 in PPN 88's spare area");
        }
    }
    assert_eq!(aside.len(), 11);
    assert_eq!(ftl.lists[4], vec![11, 17]);
    assert_eq!((ftl.map.pointer(4, 0), ftl.map.pointer(4, 1)), (Some(136), Some(138)));
    dev.take_events();
    dev.cost = Default::default();
    assert_eq!(ftl.read(39, &mut dev).unwrap(), Some(PageTag::data(39, 10)), "J");
    let reads: Vec<_> = dev
        .take_events()
        .into_iter()
        .filter_map(|e| match e {
            crate::events::Event::OobRead { ppn, .. } => Some(("oob", ppn)),
            crate::events::Event::FlashRead { ppn, .. } => Some(("page", ppn)),
            _ => None,
        })
        .collect();
    assert_eq!(reads, [("oob", 138), ("page", 137)]);
    assert_eq!(dev.cost.total_ns(), (5 + 20 + 60) * US, "RAM table access + T_rdoob + T_rdpg");
    // A write costs the RAM access + T_rdoob + T_wrpg.
    dev.cost = Default::default();
    ftl.write(33, 12, &mut dev).unwrap();
    assert_eq!(dev.cost.total_ns(), (5 + 20 + 800) * US);
}

/// §3.3.3's GC on a hand-built block with full invalid, partial valid and full valid pages:
/// N × T_rdoob + S × (T_rdpg + T_wrpg) + T_er = 2·20 + 4·(60 + 800) + 1500 = 4,980 µs.
#[test]
fn gc_cost_formula_on_full_valid_full_invalid_and_partial_valid_pages() {
    let (mut ftl, mut dev) = setup(24);
    // Block A (LBN 0): LPNs 0 1 2 3 0 1 2 4; then block B: LPN 0.
    for (i, lpn) in [0, 1, 2, 3, 0, 1, 2, 4, 0].into_iter().enumerate() {
        ftl.write(lpn, i as u32 + 1, &mut dev).unwrap();
    }
    let (a, b) = (ftl.lists[0][0], ftl.lists[0][1]);
    let first = dev.flash().first_ppn(a);
    let state = |dev: &Device, k: u32| dev.flash().state(first + k);
    // Full invalid: pages 0, 1, 2, 4 (superseded).
    for k in [0, 1, 2, 4] {
        assert_eq!(state(&dev, k), PageState::Invalid, "page {k}");
    }
    // Partial valid: pages 3, 5, 6 hold current data, but PMT_0's newest copy is in B.
    assert_eq!(ftl.map.pointer(0, 0), Some(dev.flash().first_ppn(b)));
    // Full valid: page 7 (LPN 4) holds current data and PMT_1's newest copy.
    assert_eq!(ftl.map.pointer(0, 1), Some(first + 7));
    assert_eq!(dev.flash().valid_count(a), 4);
    dev.cost = Default::default();
    ftl.collect(a, &mut dev).unwrap();
    assert_eq!(dev.cost.total_ns(), (2 * 20 + 4 * (60 + 800) + 1500) * US);
    assert_eq!(dev.stats.gc_valid_copies, 4);
    assert_eq!(ftl.lists[0], vec![b], "the victim left the list (M = 1)");
    assert_eq!(dev.flash().programmed_count(b), 5);
    ftl.check(&dev).unwrap();
    for (lpn, v) in [(0, 9), (1, 6), (2, 7), (3, 4), (4, 8)] {
        assert_eq!(ftl.read(lpn, &mut dev).unwrap(), Some(PageTag::data(lpn, v)));
    }
}

/// No GC while free blocks remain ("postponed"); then the victim comes from the logical
/// block with the most blocks, and it had no valid page left.
#[test]
fn gc_waits_for_the_last_free_block_and_picks_the_most_mapped_logical_block() {
    let (mut ftl, mut dev) = setup(16); // 64 logical pages = 8 logical blocks
    let mut v = 0;
    for lbn in 0..8 {
        v += 1;
        ftl.write(lbn * 8, v, &mut dev).unwrap();
    }
    // LBN 3 rewrites one page: 7 more blocks fill up (8 + 7 = 15 in use, 1 free = reserve).
    while ftl.pool.free_len() > 1 {
        v += 1;
        ftl.write(24, v, &mut dev).unwrap();
        assert_eq!(dev.stats.gc_runs, 0);
    }
    assert_eq!(ftl.lists[3].len(), 8);
    // The next block needed triggers GC: a block of LBN 3 with no valid page.
    for _ in 0..8 {
        v += 1;
        ftl.write(24, v, &mut dev).unwrap();
    }
    assert_eq!(dev.stats.gc_runs, 1);
    assert_eq!(dev.stats.gc_valid_copies, 0);
    ftl.check(&dev).unwrap();
}

/// MNFTL builds on the MLC preset; programs are in order (the device would refuse otherwise).
#[test]
fn runs_on_mlc() {
    let c = config_mlc();
    assert_eq!(c.device.cell, crate::config::CellType::Mlc);
    let (mut ftl, mut dev) = setup(16);
    for i in 0..500u32 {
        ftl.write((i * 7) % 64, i + 1, &mut dev).unwrap();
    }
    ftl.check(&dev).unwrap();
}

/// The victim heuristic's logical block, kept in an index of list lengths, is the one a
/// pass over every list names (the most blocks, the lowest LBN on ties), through random
/// writes, collections and idle reclamation; `check` compares the two after each request.
#[test]
fn the_most_mapped_logical_block_matches_a_pass_over_the_lists() {
    let (mut ftl, mut dev) = setup(40);
    ftl.idle_reclaim = true;
    let logical = ftl.lists.len() as u32 * ftl.ppb;
    let mut rng = crate::test_rng::Rng(0x2545_F491_4F6C_DD1D);
    let mut collected_while_idle = false;
    for v in 1..4000u32 {
        let x = rng.next();
        // Most writes to a few logical blocks, so their lists grow and ties change hands.
        let lpn =
            if x.is_multiple_of(3) { (x >> 8) as u32 % logical } else { (x >> 8) as u32 % (2 * ftl.ppb) };
        ftl.write(lpn, v, &mut dev).unwrap();
        if v.is_multiple_of(97) {
            let runs = dev.stats.gc_runs;
            let until = dev.span().completion + 50_000_000;
            ftl.idle(&mut dev, until).unwrap();
            collected_while_idle |= dev.stats.gc_runs > runs;
        }
        ftl.check(&dev).unwrap();
        let scan = (0..ftl.lists.len()).max_by_key(|&l| (ftl.lists[l].len(), std::cmp::Reverse(l)));
        assert_eq!(ftl.most_mapped(), scan, "write {v}");
    }
    assert!(dev.stats.gc_runs > 100 && collected_while_idle);
}
