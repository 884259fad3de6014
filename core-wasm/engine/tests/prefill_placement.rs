//! The pre-fill starts every scheme from the same device: pre-filled pages laid out in LPN
//! order, each translation page written once, caches and buffers empty, unless
//! `workload.warm_up` asks for the request path (and the summary says so).

mod common;

use ftl_engine::config::SimConfig;
use ftl_engine::flash::{PageKind, PageState, Ppn};
use ftl_engine::inspect::{Node, Structure};
use ftl_engine::sim::PrefillMethod;
use ftl_engine::Sim;

const TRACE: &str = "msr-cambridge_hm_0_first1000.csv";

/// Every scheme on a 1024-block device at utilization 0.9, with a RAM (16 KiB) far smaller
/// than the pre-filled map, so that a pre-fill through the request path would evict.
fn sim(scheme: &str, warm_up: bool) -> Sim {
    let mut c = SimConfig { scheme: scheme.into(), ..SimConfig::default() };
    c.device.blocks = 1024;
    c.device.utilization = 0.9;
    c.ram.bytes = 16 * 1024;
    c.workload.warm_up = warm_up;
    let sim = Sim::from_bytes(c, &common::shipped_trace(TRACE), None, TRACE).unwrap();
    sim.check_invariants().unwrap_or_else(|e| panic!("{scheme}: {e}"));
    sim
}

/// The data page of every LPN (`u32::MAX`: none), and how many pages are invalid, hold
/// translation pages, and were erased.
fn layout(sim: &Sim) -> (Vec<Ppn>, u64, u64, u64) {
    let flash = sim.device().flash();
    let mut data = vec![u32::MAX; sim.oracle().logical_pages() as usize];
    let (mut invalid, mut translation) = (0, 0);
    for ppn in 0..flash.blocks() * flash.pages_per_block() {
        let tag = flash.tag(ppn);
        match flash.state(ppn) {
            PageState::Valid if tag.kind == PageKind::Data => data[tag.key as usize] = ppn,
            PageState::Valid if tag.kind == PageKind::Translation => translation += 1,
            PageState::Invalid => invalid += 1,
            _ => {}
        }
    }
    let erases = flash.erase_counts().iter().map(|&e| u64::from(e)).sum();
    (data, invalid, translation, erases)
}

#[test]
fn every_scheme_starts_with_the_same_data_and_nothing_superseded() {
    let page = sim("page", false);
    let (page_data, ..) = layout(&page);
    let prefilled = page.prefill_summary().pages;
    assert!(prefilled > 9000, "{prefilled}");
    for s in ftl_engine::ftl::SCHEMES {
        let id = s.info.id;
        let sim = sim(id, false);
        let (data, invalid, translation, erases) = layout(&sim);
        let valid = data.iter().filter(|&&p| p != u32::MAX).count() as u64;
        assert_eq!(valid, prefilled, "{id}: valid data pages at request 0");
        assert_eq!(invalid, 0, "{id}: no superseded page (translation or data) at request 0");
        assert_eq!(erases, 0, "{id}: the pre-fill erases nothing");
        let summary = sim.prefill_summary();
        assert_eq!((summary.pages, summary.invalid_pages, summary.erases), (prefilled, 0, 0), "{id}");
        assert_eq!(summary.translation_pages_written, translation, "{id}: each translation page once");
        if s.info.family == "demand" {
            assert_eq!(summary.method, PrefillMethod::Placed, "{id}");
            // Page-mapped schemes put every LPN on the same physical page.
            assert!(data == page_data, "{id}: the data pages sit where page mapping puts them");
        }
    }
}

/// Nodes below `node`, a JTL level counting as a container of its entries, not an entry.
fn entries(node: &Node) -> usize {
    let children = node.children.iter().flatten();
    children.map(|c| if c.kind == "level" { entries(c) } else { 1 }).sum()
}

#[test]
fn prefill_leaves_caches_and_buffers_empty() {
    // Every scheme with a mapping cache or a data buffer, and `page` (a map wholly in RAM).
    let cached = ftl_engine::ftl::SCHEMES.iter().filter(|s| !s.caches.is_empty() || s.info.id == "page");
    for id in cached.map(|s| s.info.id) {
        let sim = sim(id, false);
        let summary = sim.prefill_summary();
        assert!(!summary.caches_warm && !summary.warm_up, "{id}: {summary:?}");
        let view = sim.ftl().map_view().unwrap();
        if view.directory.is_some() {
            assert!(view.ram.is_empty(), "{id}: {} entries cached", view.ram.len());
        }
        assert!(view.held.is_empty(), "{id}: {} pages buffered", view.held.len());
        assert_eq!(sim.ftl().group_sizes().map_or(0, |g| g.len()), 0, "{id}: caching groups");
        for s in sim.inspect(10).structures {
            match s {
                Structure::List { name, len, .. } | Structure::Ranges { name, len, .. } => {
                    assert_eq!(len, 0, "{id}: {name} holds entries at request 0")
                }
                Structure::Tree { name, root, .. } => {
                    assert_eq!(entries(&root), 0, "{id}: {name} holds entries at request 0")
                }
                Structure::Table { .. } => {}
            }
        }
        // The metrics say so too.
        let m = sim.metrics();
        assert_eq!(m.prefill, *summary);
        assert_eq!(m.config["workload"]["warm_up"], false);
    }
}

#[test]
fn warm_up_serves_the_prefill_through_the_scheme_and_says_so() {
    let cold = sim("dftl", false);
    let warm = sim("dftl", true);
    let (_, invalid, ..) = layout(&warm);
    let summary = warm.prefill_summary();
    assert_eq!(summary.method, PrefillMethod::Requests);
    assert!(summary.warm_up && summary.caches_warm);
    assert!(invalid > 0 && summary.invalid_pages == invalid, "DFTL's evictions supersede translation pages");
    assert!(summary.translation_pages_written > cold.prefill_summary().translation_pages_written);
    assert!(!warm.ftl().map_view().unwrap().ram.is_empty(), "the CMT keeps the pre-fill's entries");
    assert_eq!(warm.metrics().config["workload"]["warm_up"], true);
    // Same pages on the device either way.
    assert_eq!(summary.pages, cold.prefill_summary().pages);
}

#[test]
fn erase_count_is_the_runs_erases_plus_the_prefills() {
    // DFTL's warm pre-fill on a small RAM collects garbage before request 0; the blocks'
    // wear keeps those erases, `flash.erases` counts the run's, the summary the pre-fill's.
    for warm_up in [false, true] {
        let mut sim = sim("dftl", warm_up);
        let before = sim.prefill_summary().erases;
        assert_eq!(before > 0, warm_up, "pre-fill erases with warm_up {warm_up}: {before}");
        sim.step(usize::MAX).unwrap();
        let m = sim.metrics();
        let blocks = f64::from(sim.config().device.blocks);
        assert_eq!((m.erase_count.mean * blocks).round() as u64, m.flash.erases + m.prefill.erases);
    }
}

#[test]
fn every_scheme_keeps_every_page_after_either_prefill() {
    // Checks after every request, from both starting points.
    let trace = common::random_trace(7, 300, 700, 4096);
    for s in ftl_engine::ftl::SCHEMES {
        for warm_up in [false, true] {
            let mut c = SimConfig { scheme: s.info.id.into(), ..SimConfig::default() };
            c.device.blocks = 256;
            c.device.utilization = 0.7;
            c.ram.bytes = 16 * 1024;
            c.workload.warm_up = warm_up;
            let mut sim = Sim::new(c, &trace, "random").unwrap();
            sim.set_check_every_step(true);
            sim.step(usize::MAX).unwrap_or_else(|e| panic!("{} warm_up {warm_up}: {e}", s.info.id));
            assert_eq!(sim.oracle().errors(), 0, "{} warm_up {warm_up}", s.info.id);
        }
    }
}
