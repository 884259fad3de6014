//! The reserve the notes state is the reserve the code uses (review
//! engine-model P1, D5, §5.6): `page` collects when a write needs a block and
//! `gc.reserve_blocks` blocks are free, `dftl` one block earlier (`gc.reserve_blocks + 1`).

use ftl_engine::config::TimingMode;
use ftl_engine::events::Event;
use ftl_engine::trace::HostOp;
use ftl_engine::trace::{Request, Trace};
use ftl_engine::{Sim, SimConfig};

/// Free blocks when the first GC starts: blocks never programmed before its `GcStart`.
fn free_blocks_at_first_gc(scheme: &str, reserve: u32) -> u32 {
    let mut c = SimConfig {
        scheme: scheme.into(),
        record_events: true,
        timing: TimingMode::Closed,
        ..SimConfig::default()
    };
    c.gc.reserve_blocks = reserve;
    let logical = c.device.logical_pages();
    // Write the logical space twice over, page by page: the second pass needs GC.
    let requests = (0..2 * logical)
        .map(|i| Request { time_ns: 0, op: HostOp::Write, offset: (i % logical) * 4096, size: 4096 })
        .collect();
    let blocks = c.device.blocks;
    let mut sim = Sim::new(c, &Trace { format: "t".into(), requests }, "t").unwrap();
    let mut used = vec![false; blocks as usize];
    while sim.step(1).unwrap() == 1 {
        for e in sim.take_events() {
            match e {
                Event::FlashProgram { block, .. } => used[block as usize] = true,
                Event::GcStart { .. } => return used.iter().filter(|&&u| !u).count() as u32,
                _ => {}
            }
        }
    }
    panic!("{scheme}: no GC");
}

#[test]
fn page_collects_at_the_reserve_and_dftl_one_block_earlier() {
    for reserve in [1, 2, 4] {
        assert_eq!(free_blocks_at_first_gc("page", reserve), reserve, "page, reserve {reserve}");
        assert_eq!(free_blocks_at_first_gc("dftl", reserve), reserve + 1, "dftl, reserve {reserve}");
    }
}
