use super::*;
use crate::config::SimConfig;
use crate::events::Purpose;
use crate::flash::PageTag;
use crate::ftl::demand::testing::device_of;
use crate::ftl::demand::DemandScheme;
use crate::ftl::BlockRole;

/// A device of 32 blocks x 8 pages of 4 KB with full translation pages (one covers
/// everything) and a CMT of two entries (4-byte GTD + 2 x 8 bytes).
fn setup(batch_update: bool) -> (Dftl, Device) {
    let mut config = SimConfig::default();
    config.device.blocks = 32;
    config.device.pages_per_block = 8;
    config.device.translation_page_entries = 0;
    config.ram.bytes = 4 + 2 * 8;
    let ftl =
        Dftl::new(&BuildCtx::of(&config), DftlOptions { batch_update, ..DftlOptions::default() }).unwrap();
    assert_eq!(ftl.cmt_capacity(), 2);
    let dev = device_of(&config);
    (ftl, dev)
}

fn translation_ops(dev: &Device) -> (u64, u64) {
    let t = Purpose::Translation as usize;
    (dev.counters.page_reads[t], dev.counters.page_writes[t])
}

/// Write 0, 1, 2 then read 0. Writing 2 evicts dirty LPN 0: its translation page (never
/// written, so nothing to read) is programmed. Reading 0 misses: one translation-page
/// read, and the LRU victim is LPN 1. With batching, 1 was written back with 0 and is
/// clean, so nothing more; without, 1 is dirty: another read and program.
#[test]
fn dirty_evictions_write_back_translation_pages_batched_or_not() {
    for (batch, want) in [(true, (1, 1)), (false, (2, 2))] {
        let (mut ftl, mut dev) = setup(batch);
        for (v, lpn) in [0u32, 1, 2].into_iter().enumerate() {
            ftl.write(lpn, v as u32 + 1, &mut dev).unwrap();
        }
        assert_eq!(ftl.read(0, &mut dev).unwrap(), Some(PageTag::data(0, 1)));
        assert_eq!(translation_ops(&dev), want, "batch_update = {batch}");
        assert_eq!((dev.stats.mapping_hits, dev.stats.mapping_misses), (0, 4));
        ftl.check(&dev).unwrap();
    }
}

#[test]
fn the_open_translation_block_shows_as_translation() {
    let (mut ftl, mut dev) = setup(true);
    for (v, lpn) in [0u32, 1, 2].into_iter().enumerate() {
        ftl.write(lpn, v as u32 + 1, &mut dev).unwrap(); // the third evicts: a translation page
    }
    let [data, trans] = [0, 1].map(|s| ftl.core.pool.open(s).unwrap());
    assert_eq!(ftl.block_role(data, &dev), BlockRole::Active);
    assert_eq!(ftl.block_role(trans, &dev), BlockRole::Translation);
}

#[test]
fn hits_cost_no_flash_translation_and_ram_too_small_is_refused() {
    let (mut ftl, mut dev) = setup(true);
    ftl.write(5, 1, &mut dev).unwrap();
    ftl.read(5, &mut dev).unwrap();
    ftl.write(5, 2, &mut dev).unwrap();
    assert_eq!((dev.stats.mapping_hits, dev.stats.mapping_misses), (2, 1));
    assert_eq!(translation_ops(&dev), (0, 0));
    assert_eq!(dev.flash().valid_counts().iter().sum::<u32>(), 1);
    let mut config = SimConfig::default();
    config.ram.bytes = 8;
    let e = Dftl::new(&BuildCtx::of(&config), DftlOptions::default()).unwrap_err();
    assert!(e.to_string().contains("GTD"));
}

/// A DFTL that skips one translation-page rewrite passes the scheme's own check and the
/// data-page invariants (the data page is still there), but the mapping rebuilt from flash
/// loses LPN 0: the mapping reconstruction check catches it.
#[test]
fn a_skipped_translation_page_rewrite_is_caught_by_the_reconstruction_check() {
    use crate::invariants::{check, check_mapping};
    use crate::oracle::Oracle;
    for skip in [0, 1] {
        let (mut ftl, mut dev) = setup(false);
        ftl.core.skip_rewrites = skip;
        let mut oracle = Oracle::new(192);
        for lpn in [0u32, 1, 2] {
            let v = oracle.write(lpn).unwrap();
            ftl.write(lpn, v, &mut dev).unwrap(); // the third evicts dirty LPN 0
        }
        ftl.check(&dev).unwrap();
        let got = check(&ftl, &dev, &oracle);
        if skip == 0 {
            got.unwrap();
        } else {
            let e = check_mapping(&ftl, &dev, &oracle).unwrap_err().to_string();
            assert!(e.contains("LPN 0 (version 1) maps to nothing"), "{e}");
            assert_eq!(got.unwrap_err().to_string(), e);
        }
    }
}

/// With the segmented-LRU CMT, an entry hit a second time is protected, so
/// a scan of new LPNs through a two-entry CMT (one protected slot) evicts only the
/// probationary ones; with plain LRU the scan flushes it.
#[test]
fn a_segmented_cmt_keeps_a_reused_entry_through_a_scan() {
    for (cmt, kept) in [(CmtPolicy::SegmentedLru, true), (CmtPolicy::Lru, false)] {
        let mut config = SimConfig::default();
        config.device.blocks = 32;
        config.device.pages_per_block = 8;
        config.device.translation_page_entries = 0;
        config.ram.bytes = 4 + 2 * 8;
        let options = DftlOptions { cmt, ..DftlOptions::default() };
        let mut ftl = Dftl::new(&BuildCtx::of(&config), options).unwrap();
        let mut dev = device_of(&config);
        ftl.read(7, &mut dev).unwrap();
        ftl.read(7, &mut dev).unwrap(); // second access: promoted
        for lpn in 20..26 {
            ftl.read(lpn, &mut dev).unwrap();
        }
        assert_eq!(ftl.cmt.peek(&7).is_some(), kept, "{cmt:?}");
        ftl.check(&dev).unwrap();
    }
}

/// On 2 units each unit has its own open data block and host writes take
/// turns, so consecutive writes land on different units (`block % 2`); translation pages
/// share one frontier.
#[test]
fn host_writes_alternate_over_per_unit_frontiers() {
    let mut config = SimConfig::default();
    config.device.blocks = 32;
    config.device.pages_per_block = 8;
    config.device.channels = 2;
    config.ram.bytes = 4 + 2 * 8;
    let mut ftl = Dftl::new(&BuildCtx::of(&config), DftlOptions::default()).unwrap();
    let mut dev = device_of(&config);
    let mut units = Vec::new();
    for lpn in 0..4u32 {
        ftl.write(lpn, 1, &mut dev).unwrap();
        let ppn = ftl.cached(lpn).unwrap_or(ftl.core.on_flash[lpn as usize]);
        units.push(dev.flash().block_of(ppn) % 2);
    }
    assert_eq!(units, [0, 1, 0, 1]);
    let [a, b] = [0, 3].map(|s| ftl.core.pool.open(s).unwrap());
    assert_eq!((a % 2, b % 2), (0, 1));
    assert_eq!(ftl.block_role(a, &dev), BlockRole::Active);
    assert_eq!(ftl.block_role(b, &dev), BlockRole::Active);
    ftl.check(&dev).unwrap();
}

/// Review engine-model D7: a GC batch update rewrites a translation page from its on-flash
/// image plus the moved pages; a *dirty cached* entry of the same page is not folded in (the
/// DFTL authors' simulator, FlashSim `opm_gc_run`, groups only the moved pages whose
/// mappings are not cached). It stays dirty and costs its own write-back later.
#[test]
fn a_gc_batch_update_leaves_dirty_cached_entries_of_its_page_dirty() {
    let (mut ftl, mut dev) = setup(false);
    // LPNs 0-7 fill one data block; rewriting 0 leaves 7 valid pages there, and the CMT
    // holds 7 and 0, both dirty (one translation page covers every LPN).
    for (v, lpn) in (0..8u32).chain([0]).enumerate() {
        ftl.write(lpn, v as u32 + 1, &mut dev).unwrap();
    }
    assert!(ftl.cmt.peek(&1).is_none());
    let victim = dev.flash().block_of(ftl.core.on_flash[1]);
    assert!(ftl.cmt.peek(&0).unwrap().dirty());
    assert!(demand::collect(&mut ftl, &mut dev).unwrap());
    assert_eq!(dev.last_victim, Some(victim), "the data block of LPNs 1-7 is the greedy victim");
    assert_eq!(dev.stats.tpage_writes[TpCause::GcBatch as usize], 1, "one batch update");
    // The rewrite carried the moved, uncached LPN 1, but not cached LPN 0's newer mapping.
    let e = *ftl.cmt.peek(&0).unwrap();
    assert!(e.dirty(), "LPN 0 is still dirty after its translation page was rewritten");
    assert_ne!(ftl.core.on_flash[0], e.ppn());
    let moved = ftl.core.on_flash[1];
    assert_ne!(dev.flash().block_of(moved), victim);
    assert_eq!(dev.flash().tag(moved), PageTag::data(1, 2));
    ftl.check(&dev).unwrap();
}
