use super::*;
use crate::flash::PageTag;
use crate::ftl::demand::testing::{device_of, small_config};

/// 32 blocks x 4 pages of 32 bytes: 8 entries per translation page, 96 logical pages in 12
/// pages (GTD 48 bytes). Cache: `cache` bytes after the GTD.
fn setup(cache: u64, options: TpftlOptions) -> (Tpftl, Device) {
    let config = small_config(32, 4, 32, 48 + cache);
    let ftl = Tpftl::new(&BuildCtx::of(&config), options).unwrap();
    (ftl, device_of(&config))
}

fn tp(dev: &Device, cause: TpCause) -> (u64, u64) {
    (dev.stats.tpage_reads[cause as usize], dev.stats.tpage_writes[cause as usize])
}

fn no_prefetch() -> TpftlOptions {
    TpftlOptions { request_prefetch: false, sequential_threshold: 0, ..TpftlOptions::default() }
}

/// The worked example "a TPFTL batch write-back": a node of three dirty entries (LPNs 0, 1, 2 of page
/// 0) in a cache of 28 bytes (a node and three entries take 8 + 18). Writing LPN 8 (page 1)
/// needs a node and an entry (14 bytes): page 0's node is the coldest, all dirty, so its
/// three dirty entries go to flash in one translation-page write; two evictions make room
/// (LRU 0, then 1), and the second costs nothing. LPN 2 stays, clean.
#[test]
fn a_batch_write_back_cleans_the_whole_node_with_one_translation_page_write() {
    let (mut ftl, mut dev) = setup(28, no_prefetch());
    for (v, lpn) in [0u32, 1, 2].into_iter().enumerate() {
        ftl.write(lpn, v as u32 + 1, &mut dev).unwrap();
    }
    assert_eq!(ftl.nodes[&0].entries.len(), 3);
    ftl.write(8, 4, &mut dev).unwrap();
    assert_eq!(tp(&dev, TpCause::Eviction), (0, 1), "one program (page 0 was never written: no read)");
    assert_eq!(ftl.nodes[&0].entries.len(), 1);
    assert_eq!(ftl.nodes[&0].entries.peek(&2).map(|e| e.dirty), Some(false));
    assert!(ftl.core.on_flash[..3].iter().all(|&p| p != crate::ftl::demand::UNMAPPED));
    ftl.check(&dev).unwrap();
    // The clean entry goes next at no cost; 0 and 1 come back from the page just written.
    assert_eq!(ftl.read(0, &mut dev).unwrap(), Some(PageTag::data(0, 1)));
    assert_eq!(tp(&dev, TpCause::Eviction), (0, 1));
    assert_eq!(tp(&dev, TpCause::Miss), (1, 0));
    ftl.check(&dev).unwrap();
}

/// Page-level hotness decides the victim even though a hit does not re-file its node: page
/// 0's node is loaded first, then page 1's; a hit on LPN 0 makes page 0 the hotter, so a
/// third page's entry evicts page 1's (the order still files page 0 under its first load).
#[test]
fn a_hit_makes_its_node_hotter_without_being_refiled() {
    let (mut ftl, mut dev) = setup(28, no_prefetch());
    ftl.read(0, &mut dev).unwrap();
    ftl.read(8, &mut dev).unwrap();
    ftl.read(0, &mut dev).unwrap(); // a hit
    assert_eq!(ftl.order.first().map(|&(_, t)| t), Some(0), "page 0 stays filed under its first load");
    assert!(ftl.nodes[&0].filed < ftl.nodes[&0].hotness());
    ftl.check(&dev).unwrap();
    ftl.read(16, &mut dev).unwrap(); // page 2: room for one node and entry
    assert!(ftl.cached(0).is_some() && ftl.cached(8).is_none() && ftl.cached(16).is_some());
    ftl.check(&dev).unwrap();
}

/// Clean first: with a clean entry in the coldest node, it is evicted instead of the LRU
/// dirty one, and nothing is written.
#[test]
fn clean_entries_of_the_coldest_node_go_first() {
    let (mut ftl, mut dev) = setup(26, no_prefetch());
    ftl.write(0, 1, &mut dev).unwrap(); // dirty, least recently used
    ftl.read(1, &mut dev).unwrap(); // clean (unmapped)
    ftl.read(2, &mut dev).unwrap(); // clean
    ftl.read(3, &mut dev).unwrap(); // page 0 again: a fourth entry evicts clean LPN 1
    assert_eq!(tp(&dev, TpCause::Eviction), (0, 0));
    assert!(ftl.cached(0).is_some() && ftl.cached(1).is_none());
    ftl.check(&dev).unwrap();
}

/// The worked example "a TPFTL prefetch": a 6-page read (LPNs 6..12) spans translation pages 0 and 1.
/// With request-level prefetching its first page's miss loads all six entries: one read of
/// page 0 (a miss) and one of page 1 (a prefetch); the other five look-ups hit. Without it,
/// the request misses once per page.
#[test]
fn request_level_prefetching_loads_the_rest_of_the_request() {
    for (prefetch, misses) in [(true, 1), (false, 6)] {
        let options =
            TpftlOptions { request_prefetch: prefetch, sequential_threshold: 0, ..TpftlOptions::default() };
        let (mut ftl, mut dev) = setup(120, options);
        // Put translation pages 0 and 1 on flash so loading them costs a read.
        for lpn in [0u32, 15] {
            ftl.write(lpn, 1, &mut dev).unwrap();
        }
        ftl.flush(&mut dev).unwrap();
        dev.reset_counters();
        let lpns: Vec<u32> = (6..12).collect();
        ftl.begin_request(HostOp::Read, &lpns, &mut dev).unwrap();
        for &lpn in &lpns {
            ftl.read(lpn, &mut dev).unwrap();
        }
        assert_eq!(dev.stats.mapping_misses, misses, "prefetch = {prefetch}");
        assert_eq!(dev.stats.mapping_hits, 6 - misses);
        if prefetch {
            assert_eq!((tp(&dev, TpCause::Miss).0, tp(&dev, TpCause::Prefetch).0), (1, 1));
        }
        ftl.check(&dev).unwrap();
    }
}

/// Selective prefetching: in a cache of 40 bytes, reads of 0, 8, 16 (evicting node 0), 17,
/// 18 and 19 (evicting node 1) leave one node where the previous miss saw two: the count
/// fell. With a threshold of 1 the next miss (20) also loads the rest of page 2 as far as
/// the prefetch budget goes ((40 - 14) / 2 = 13 bytes: two entries), so 21 and 22 hit.
#[test]
fn selective_prefetching_loads_the_rest_of_the_page_once_nodes_keep_falling() {
    let options =
        TpftlOptions { request_prefetch: false, sequential_threshold: 1, ..TpftlOptions::default() };
    let (mut ftl, mut dev) = setup(40, options);
    for lpn in [0u32, 8, 16, 17, 18, 19] {
        ftl.read(lpn, &mut dev).unwrap();
    }
    assert_eq!(ftl.nodes.len(), 1);
    assert_eq!(ftl.falling, 0, "not yet seen by a miss");
    ftl.read(20, &mut dev).unwrap();
    assert_eq!(ftl.falling, 1);
    let misses = dev.stats.mapping_misses;
    ftl.read(21, &mut dev).unwrap();
    ftl.read(22, &mut dev).unwrap();
    assert_eq!(dev.stats.mapping_misses, misses, "21 and 22 were prefetched");
    ftl.read(23, &mut dev).unwrap();
    assert_eq!(dev.stats.mapping_misses, misses + 1, "23 was beyond the budget");
    ftl.check(&dev).unwrap();
}

/// Seed 001's baseline form (the registered `seed001-baseline` variant): a miss reads the
/// translation page but loads only the requested entry. A 6-page read request over pages 0
/// and 1, then single reads walking page 2 (what triggers selective prefetching in the
/// default form): every look-up misses and adds exactly one entry; nothing is prefetched.
#[test]
fn the_seed001_baseline_loads_one_entry_per_miss() {
    let variants = (SPEC.variants)();
    let (_, options) = variants.iter().find(|(name, _)| *name == BASELINE_VARIANT).expect("registered");
    let options: TpftlOptions = serde_json::from_value(options.clone()).unwrap();
    assert_eq!(
        (options.request_prefetch, options.sequential_threshold, options.clean_first),
        (false, 0, true)
    );
    let (mut ftl, mut dev) = setup(400, options);
    for lpn in [0u32, 15, 16] {
        ftl.write(lpn, 1, &mut dev).unwrap();
    }
    ftl.flush(&mut dev).unwrap();
    dev.reset_counters();
    let lpns: Vec<u32> = (6..12).collect();
    ftl.begin_request(HostOp::Read, &lpns, &mut dev).unwrap();
    for &lpn in &lpns {
        let before = ftl.ram_entries().len();
        ftl.read(lpn, &mut dev).unwrap();
        assert_eq!(ftl.ram_entries().len(), before + 1, "LPN {lpn}");
    }
    ftl.end_request(&mut dev).unwrap();
    for lpn in 17..23 {
        ftl.begin_request(HostOp::Read, &[lpn], &mut dev).unwrap();
        let before = ftl.ram_entries().len();
        ftl.read(lpn, &mut dev).unwrap();
        assert_eq!(ftl.ram_entries().len(), before + 1, "LPN {lpn}");
        ftl.end_request(&mut dev).unwrap();
    }
    assert_eq!((dev.stats.mapping_misses, dev.stats.mapping_hits), (12, 0));
    assert_eq!(tp(&dev, TpCause::Prefetch), (0, 0));
    ftl.check(&dev).unwrap();
}
