use super::*;
use crate::flash::PageTag;
use crate::ftl::demand::testing::{device_of, small_config};

/// 32 blocks x 4 pages of 32 bytes: 8 entries per translation page, 96 logical pages in 12
/// pages. RAM: the GTD (48 bytes) + one CTP (36 bytes) + two CMT entries (16 bytes).
fn setup() -> (Cdftl, Device) {
    setup_with(CmtVictim::Lru)
}

fn setup_with(cmt_victim: CmtVictim) -> (Cdftl, Device) {
    let config = small_config(32, 4, 32, 48 + 36 + 16);
    let options = CdftlOptions { level_two_percent: 90, cmt_victim };
    let ftl = Cdftl::new(&BuildCtx::of(&config), options).unwrap();
    assert_eq!(ftl.capacities(), (2, 1));
    (ftl, device_of(&config))
}

fn tp(dev: &Device, cause: TpCause) -> (u64, u64) {
    (dev.stats.tpage_reads[cause as usize], dev.stats.tpage_writes[cause as usize])
}

/// The worked example "a CDFTL absorption": LPN 0 is written (dirty in the CMT), then LPN 1 of the
/// same translation page is read: a CMT miss that hits its cached page (loaded by the
/// first miss). Writing LPN 2 (same page) evicts dirty LPN 0 from the two-entry CMT: the
/// entry goes into the cached page, which turns dirty, and no translation page is read or
/// written. A miss on another page (LPN 8) then evicts the dirty CTP: programmed whole,
/// with no read.
#[test]
fn a_dirty_cmt_victim_is_absorbed_by_its_cached_translation_page() {
    let (mut ftl, mut dev) = setup();
    ftl.write(0, 1, &mut dev).unwrap(); // miss: page 0 (never written) cached, no read
    assert_eq!(ftl.read(1, &mut dev).unwrap(), None); // CTP hit
    assert_eq!((dev.stats.mapping_hits, dev.stats.mapping_misses), (1, 1));
    ftl.write(2, 2, &mut dev).unwrap(); // CTP hit; evicts dirty LPN 0: absorbed
    assert_eq!(tp(&dev, TpCause::Eviction), (0, 0), "absorption costs no flash");
    assert_eq!(ftl.ctp.is_dirty(0), Some(true));
    assert_eq!(ftl.ctp.page(0).unwrap()[0], ftl.cached(0).unwrap());
    assert!(ftl.cmt.peek(&0).is_none());
    ftl.check(&dev).unwrap();
    assert_eq!(ftl.read(8, &mut dev).unwrap(), None); // page 1 replaces dirty page 0
    assert_eq!(tp(&dev, TpCause::Eviction), (0, 1), "the whole page is programmed, not read");
    assert_eq!(ftl.core.on_flash[0], dev.flash().first_ppn(ftl.core.pool.open(0).unwrap()));
    // LPN 0 now comes from flash, through a miss that reads translation page 0.
    assert_eq!(ftl.read(0, &mut dev).unwrap(), Some(PageTag::data(0, 1)));
    assert_eq!(tp(&dev, TpCause::Miss), (1, 0));
    ftl.check(&dev).unwrap();
}

/// Without its page cached, a dirty victim is written back as in DFTL: read, update,
/// program (no read while the page was never written). One CTP and two CMT entries: each
/// write below misses a new page, replacing the cached one, and evicts the entry written two
/// steps before, whose page is no longer cached.
#[test]
fn a_dirty_victim_without_its_page_cached_is_written_back() {
    let (mut ftl, mut dev) = setup();
    for (v, lpn) in [0u32, 8, 16, 24].into_iter().enumerate() {
        ftl.write(lpn, v as u32 + 1, &mut dev).unwrap();
    }
    // Victims 0 and 8: pages 0 and 1 were never written, so nothing is read.
    assert_eq!(tp(&dev, TpCause::Eviction), (0, 2));
    for (v, lpn) in [1u32, 9, 17].into_iter().enumerate() {
        ftl.write(lpn, v as u32 + 5, &mut dev).unwrap();
    }
    // Misses read pages 0, 1 and 2 (each written back by then); victims 16 and 24 (pages 2
    // and 3, not yet written) are programmed; victim 1 (page 0, on flash) is read and
    // programmed.
    assert_eq!(tp(&dev, TpCause::Miss), (3, 0));
    assert_eq!(tp(&dev, TpCause::Eviction), (1, 5));
    ftl.check(&dev).unwrap();
}

/// The cost-aware CMT victim (the thesis' DAC rule). LPN 8 is written (page 1 cached), then
/// LPN 0 (page 0 replaces page 1 in the one CTP slot): the CMT holds dirty 0 (page cached)
/// and, at its LRU end, dirty 8 (page not cached). Reading LPN 1 fills the CMT: plain LRU
/// evicts 8 and programs translation page 1; the cost-aware rule passes 8 over and absorbs
/// 0 into its cached page, with no flash access.
#[test]
fn the_cost_aware_victim_is_absorbed_where_lru_writes_back() {
    let run = |rule| {
        let (mut ftl, mut dev) = setup_with(rule);
        ftl.write(8, 1, &mut dev).unwrap();
        ftl.write(0, 2, &mut dev).unwrap();
        assert_eq!(ftl.ctp.iter().map(|p| p.tpage).collect::<Vec<_>>(), [0]);
        ftl.read(1, &mut dev).unwrap();
        ftl.check(&dev).unwrap();
        let cmt: Vec<_> = ftl.cmt.entries().map(|(lpn, _, dirty)| (lpn, dirty)).collect();
        (tp(&dev, TpCause::Eviction), cmt, ftl.ctp.is_dirty(0).unwrap())
    };
    assert_eq!(run(CmtVictim::Lru), ((0, 1), vec![(1, false), (0, true)], false));
    assert_eq!(run(CmtVictim::CostAware), ((0, 0), vec![(1, false), (8, true)], true));
}

/// When every CMT entry is dirty with its page uncached, the cost-aware option still evicts
/// the LRU entry (CDFTL must admit; DAC itself would admit nothing).
#[test]
fn the_cost_aware_victim_falls_back_to_lru() {
    let (mut ftl, mut dev) = setup_with(CmtVictim::CostAware);
    for (v, lpn) in [0u32, 8, 16].into_iter().enumerate() {
        ftl.write(lpn, v as u32 + 1, &mut dev).unwrap();
    }
    // Writing 16 (page 2) found 0 (page 0) and 8 (page 1) dirty with neither page cached.
    assert_eq!(tp(&dev, TpCause::Eviction), (0, 1));
    assert!(ftl.cmt.peek(&0).is_none() && ftl.cmt.peek(&8).is_some());
    ftl.check(&dev).unwrap();
}
