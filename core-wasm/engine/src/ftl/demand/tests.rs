//! The family's shared rules, on DFTL as the simplest demand scheme.

use crate::device::Device;
use crate::flash::PageState;
use crate::ftl::demand::testing::{device_of, small_config};
use crate::ftl::demand::{DemandScheme, TpCause, UNMAPPED};
use crate::ftl::{BuildCtx, Dftl, DftlOptions, Ftl};

/// 32 blocks x 4 pages of 64 bytes: 16 entries per translation page, 96 logical pages in 6
/// translation pages; a CMT of one entry.
fn setup() -> (Dftl, Device) {
    let config = small_config(32, 4, 64, 6 * 4 + 8);
    let ftl = Dftl::new(&BuildCtx::of(&config), DftlOptions::default()).unwrap();
    assert_eq!((ftl.core().gtd.len(), ftl.cmt_capacity()), (6, 1));
    (ftl, device_of(&config))
}

/// The worked example "a DFTL batch update writing one translation page for several moved data
/// pages": LPNs 3, 0, 1, 2 (all in translation page 0) fill one data block, each evicting the
/// previous one from the one-entry CMT; rewriting LPN 3 invalidates its page there. The
/// block is then collected: three data pages move, and translation page 0 is rewritten once
/// (one read, one program, counted as a GC batch update), pointing at the new copies.
#[test]
fn gc_batch_update_rewrites_one_translation_page_for_several_moved_pages() {
    let (mut ftl, mut dev) = setup();
    for (v, lpn) in [3u32, 0, 1, 2, 3].into_iter().enumerate() {
        ftl.write(lpn, v as u32 + 1, &mut dev).unwrap();
    }
    let victim = dev.flash().block_of(ftl.core().on_flash[0]);
    assert!((0..3).all(|lpn| ftl.cached(lpn).is_none()), "0, 1, 2 are on flash only");
    assert_eq!(dev.flash().valid_counts()[victim as usize], 3);
    let before = (dev.stats.tpage_reads, dev.stats.tpage_writes);
    assert_eq!(before.1[TpCause::GcBatch as usize], 0);
    assert!(crate::ftl::demand::collect(&mut ftl, &mut dev).unwrap());
    assert_eq!(dev.flash().programmed_count(victim), 0, "the data block was the victim");
    assert_eq!(dev.stats.gc_valid_copies, 3);
    let gc = TpCause::GcBatch as usize;
    assert_eq!((dev.stats.tpage_reads[gc], dev.stats.tpage_writes[gc]), (1, 1));
    for lpn in 0..3u32 {
        let ppn = ftl.core().on_flash[lpn as usize];
        assert_ne!(ppn, UNMAPPED);
        assert_ne!(dev.flash().block_of(ppn), victim);
        assert_eq!(dev.flash().state(ppn), PageState::Valid);
        assert_eq!(dev.flash().tag(ppn).key, lpn);
    }
    // The rewritten page holds the moved entries: a read misses, loads them from flash.
    assert_eq!(ftl.read(1, &mut dev).unwrap().map(|t| t.version), Some(3));
    ftl.check(&dev).unwrap();
}

/// One evicted entry written back: the first write of translation page 0 reads nothing;
/// the second reads the old page once, programs a new one holding both entries (the image
/// is a read-modify-write, not a fresh page) and invalidates the old one; both count as
/// evictions.
#[test]
fn write_back_entry_is_a_read_modify_write_counted_as_an_eviction() {
    let (mut ftl, mut dev) = setup();
    crate::ftl::demand::write_back_entry(&mut ftl, 5, 40, &mut dev).unwrap();
    let first = ftl.core().gtd[0];
    crate::ftl::demand::write_back_entry(&mut ftl, 6, 41, &mut dev).unwrap();
    let at = ftl.core().gtd[0];
    let ev = TpCause::Eviction as usize;
    assert_eq!((dev.stats.tpage_reads[ev], dev.stats.tpage_writes[ev]), (1, 2));
    assert_ne!(at, first);
    assert_eq!(dev.flash().state(first), PageState::Invalid);
    let entries = &dev.flash().content(at).unwrap().data;
    assert_eq!((entries[5], entries[6], entries[7]), (40, 41, UNMAPPED));
}

/// A cached page written back whole: its entries replace the image, and nothing is read
/// even though the page was on flash before.
#[test]
fn write_back_page_programs_the_whole_page_without_reading() {
    let (mut ftl, mut dev) = setup();
    crate::ftl::demand::write_back_entry(&mut ftl, 17, 40, &mut dev).unwrap();
    let page: Vec<u32> = (100..116).collect();
    crate::ftl::demand::write_back_page(&mut ftl, 1, &page, TpCause::Flush, &mut dev).unwrap();
    let flush = TpCause::Flush as usize;
    assert_eq!((dev.stats.tpage_reads[flush], dev.stats.tpage_writes[flush]), (0, 1));
    assert_eq!(ftl.core().image(1), &page[..]);
    assert_eq!(dev.flash().content(ftl.core().gtd[1]).unwrap().data, page);
}

/// Loading into a buffer that held another page's entries gives what a fresh load gives,
/// for a written translation page and a never-written one (all unmapped), with one read each.
#[test]
fn load_page_into_a_used_buffer_equals_a_fresh_load() {
    let (mut ftl, mut dev) = setup();
    let page: Vec<u32> = (100..116).collect();
    crate::ftl::demand::write_back_page(&mut ftl, 1, &page, TpCause::Flush, &mut dev).unwrap();
    let miss = TpCause::Miss as usize;
    for t in [1, 2] {
        let fresh = ftl.core().load_page(t, &mut dev, TpCause::Miss).unwrap();
        let mut buf = vec![7; 40];
        let reads = dev.stats.tpage_reads[miss];
        ftl.core().load_page_into(t, &mut dev, TpCause::Miss, &mut buf).unwrap();
        assert_eq!(buf, fresh);
        assert_eq!(dev.stats.tpage_reads[miss] - reads, u64::from(t == 1));
    }
    assert_eq!(ftl.core().load_page(1, &mut dev, TpCause::Miss).unwrap(), page);
}

/// The RAM budgets: the GTD, then each structure's used bytes and the rest as "(free)"; the
/// bytes in use leave the free ones out.
#[test]
fn ram_budgets_split_each_structure_into_used_and_free() {
    let (ftl, _) = setup();
    let (in_use, budgets) = crate::ftl::demand::ram_budgets(ftl.core(), &[("CMT", 8, 24), ("Pages", 0, 40)]);
    let shown: Vec<(&str, u64)> = budgets.iter().map(|b| (b.name.as_str(), b.bytes)).collect();
    assert_eq!(shown, [("GTD", 24), ("CMT", 8), ("CMT (free)", 16), ("Pages", 0), ("Pages (free)", 40)]);
    assert_eq!(in_use, 24 + 8);
}
