//! Unit-aware allocation (review engine-model P4, §5.4, §2 "static LPN
//! bits"): a unit's pages stay on that unit, static allocation puts logical page n on unit
//! n mod units, and a block borrowed from another unit is counted.

mod common;

use ftl_engine::config::SimConfig;
use ftl_engine::flash::{PageKind, PageState};
use ftl_engine::gc::UnitAllocation;
use ftl_engine::trace::HostOp;
use ftl_engine::trace::{Request, Trace};
use ftl_engine::Sim;
use serde_json::json;

/// 2 x 2 units, 64 blocks x 8 pages, 25 % OP, reserve 4, checks after every request.
fn config(allocation: UnitAllocation, gc: &str) -> SimConfig {
    let mut c = SimConfig::default();
    c.device.blocks = 64;
    c.device.pages_per_block = 8;
    c.device.channels = 2;
    c.device.ways = 2;
    c.gc.reserve_blocks = 4;
    c.gc.unit_allocation = allocation;
    c.options = json!({ "gc": gc });
    c
}

/// Single-page writes: a hot quarter of the space gets most of them.
fn hot_writes(seed: u64, n: usize, pages: u64, hot: impl Fn(u64) -> u64) -> Trace {
    let mut rng = common::Rng(seed);
    let requests = (0..n as u64)
        .map(|i| {
            let p = if rng.below(10) < 8 { hot(rng.below(pages / 4)) } else { rng.below(pages) };
            Request { time_ns: i * 100_000, op: HostOp::Write, offset: p * 4096, size: 4096 }
        })
        .collect();
    Trace { format: "t".into(), requests }
}

fn placements(sim: &Sim) -> Vec<(u32, u32)> {
    let ppb = sim.config().device.pages_per_block;
    let view = sim.ftl().map_view().expect("page declares its map");
    view.ram.iter().map(|&(lpn, ppn, _)| (lpn, ppn / ppb)).collect()
}

#[test]
fn static_allocation_keeps_logical_page_n_on_unit_n_mod_units_through_gc() {
    let c = config(UnitAllocation::Static, "one-victim");
    let logical = c.device.logical_pages();
    let trace = hot_writes(3, 6_000, logical, |p| p);
    let mut sim = Sim::new(c, &trace, "t").unwrap();
    sim.set_check_every_step(true);
    sim.step(usize::MAX).unwrap();
    let m = sim.metrics();
    assert!(m.gc.runs > 100, "GC moved pages ({} runs)", m.gc.runs);
    let placed = placements(&sim);
    assert!(placed.len() as u64 > logical / 2);
    for (lpn, block) in placed {
        assert_eq!(block % 4, lpn % 4, "LPN {lpn} is on block {block}");
    }
    assert_eq!(m.gc.cross_unit_blocks, 0);
}

#[test]
fn round_robin_spreads_one_logical_page_over_the_units() {
    let c = config(UnitAllocation::RoundRobin, "one-victim");
    let trace = Trace {
        format: "t".into(),
        requests: (0..4).map(|i| Request { time_ns: i, op: HostOp::Write, offset: 0, size: 4096 }).collect(),
    };
    let mut sim = Sim::new(c, &trace, "t").unwrap();
    let mut units = vec![];
    while sim.step(1).unwrap() == 1 {
        units.push(placements(&sim)[0].1 % 4);
    }
    assert_eq!(units, [0, 1, 2, 3]);
}

/// The review's repro (§5.4): a hot spot that always lands on one unit. Under one-victim
/// GC each unit collects its own victims and never needs another unit's block; under
/// until-above-reserve the victims come from any unit, the hot unit runs dry and borrows,
/// and every borrow is counted.
#[test]
fn a_hot_unit_never_borrows_under_one_victim_and_borrows_are_counted_otherwise() {
    let hot_on_unit_0 = |p: u64| p * 4; // every hot page is a multiple of 4: unit 0
    let mut borrowed = vec![];
    for gc in ["one-victim", "until-above-reserve"] {
        let c = config(UnitAllocation::Static, gc);
        let trace = hot_writes(5, 6_000, c.device.logical_pages(), hot_on_unit_0);
        let mut sim = Sim::new(c, &trace, "t").unwrap();
        sim.set_check_every_step(true);
        sim.step(usize::MAX).unwrap();
        borrowed.push(sim.metrics().gc.cross_unit_blocks);
    }
    assert_eq!(borrowed[0], 0, "one-victim: units keep their own reserves");
    assert!(borrowed[1] > 0, "until-above-reserve: the hot unit borrows, counted ({borrowed:?})");

    // With borrowing refused the same run stops with an error naming the unit.
    let mut c = config(UnitAllocation::Static, "until-above-reserve");
    c.gc.borrow_blocks = false;
    let trace = hot_writes(5, 6_000, c.device.logical_pages(), hot_on_unit_0);
    let mut sim = Sim::new(c, &trace, "t").unwrap();
    let e = sim.step(usize::MAX).unwrap_err().to_string();
    assert!(e.contains("has no free block") && e.contains("gc.borrow_blocks"), "{e}");
}

/// The demand-paged family routes host writes by the same pool rule: under static
/// allocation logical page n is written on unit n mod units, for each scheme of the family
/// (they once kept their own round-robin and ignored the setting). Before any GC, so the
/// placement is the routing rule's alone: the family's GC still picks victims over all units
/// and may borrow another unit's block (counted in `gc.cross_unit_blocks`).
#[test]
fn demand_family_routes_host_writes_by_static_allocation() {
    let demand = ftl_engine::ftl::SCHEMES.iter().filter(|s| s.info.family == "demand");
    let mut checked = 0;
    for spec in demand {
        let mut c = config(UnitAllocation::Static, "one-victim");
        c.scheme = spec.info.id.into();
        c.options = spec.default_options();
        c.ram.bytes = 0; // each scheme's default budget
        let trace = hot_writes(7, 150, c.device.logical_pages(), |p| p);
        let mut sim = Sim::new(c, &trace, "t").unwrap();
        sim.set_check_every_step(true);
        sim.step(usize::MAX).unwrap();
        assert_eq!(sim.metrics().gc.runs, 0, "{}: placement before any GC", spec.info.id);
        let flash = sim.device().flash();
        let ppb = flash.pages_per_block();
        let mut data_pages = 0;
        for (ppn, state) in flash.states().enumerate() {
            let tag = flash.tag(ppn as u32);
            if state == PageState::Valid && tag.kind == PageKind::Data {
                let block = ppn as u32 / ppb;
                assert_eq!(block % 4, tag.key % 4, "{}: LPN {} on block {block}", spec.info.id, tag.key);
                data_pages += 1;
            }
        }
        assert!(data_pages > 50, "{}: {data_pages} data pages", spec.info.id);
        checked += 1;
    }
    assert!(checked >= 4, "dftl, cdftl, tpftl, hcftl at least");
}
