//! A known limit of the demand-paged family: on a device of several units whose translation
//! pages hold far fewer entries than a page can, a scheme whose cache holds only part of the
//! map (TreeFTL here; APS, JTL, and DFTL and TPFTL at 1 MiB, on the bench device) stops with
//! "device full" part-way through a fill followed by uniform overwrites, though 20 % of the
//! flash is spare.
//!
//! Why (measured, see `ftl/demand/many_units.md`, which the schemes' notes include): host
//! pages go round-robin over the units, so a block holds logical pages `units` apart, each in
//! a different translation page when the pages are small. Collecting such a block then
//! rewrites one translation page per copied page (the batch update, for entries the cache
//! does not hold): a data-block collection writes about twice its valid pages, more than the
//! block it frees, and greedy GC lets the translation blocks fill to the same density. On
//! one unit blocks keep the fill's locality, and with full translation pages each block's
//! pages share a few translation pages: both runs complete.

mod common;

use ftl_engine::config::SimConfig;
use ftl_engine::trace::{HostOp, Request, Trace};
use ftl_engine::Sim;

/// 1280 blocks of 16 pages, 20 % over-provisioning, `channels` x `ways`
/// units, `entries` entries per translation page.
fn config(scheme: &str, channels: u32, ways: u32, entries: u32) -> SimConfig {
    let mut c = SimConfig { scheme: scheme.into(), ..SimConfig::default() };
    c.device.blocks = 1280;
    c.device.pages_per_block = 16;
    c.device.page_bytes = 4096;
    c.device.over_provisioning = 0.2;
    c.device.translation_page_entries = entries;
    c.device.channels = channels;
    c.device.ways = ways;
    c
}

/// Every logical page written once in order, then `overwrites` uniform single-page writes.
fn fill_then_uniform(logical: u64, overwrites: usize) -> Trace {
    let mut rng = common::Rng(24);
    let fill = (0..logical).map(|p| p * 4096);
    let random = (0..overwrites).map(|_| rng.below(logical) * 4096);
    let requests = fill
        .chain(random)
        .enumerate()
        .map(|(i, offset)| Request { time_ns: i as u64 * 100_000, op: HostOp::Write, offset, size: 4096 })
        .collect();
    Trace { format: "t".into(), requests }
}

fn run(mut c: SimConfig, ram_bytes: u64) -> (Sim, ftl_engine::error::Result<()>) {
    c.ram.bytes = ram_bytes;
    let trace = fill_then_uniform(c.device.logical_pages(), 40_000);
    let mut sim = Sim::new(c, &trace, "t").unwrap();
    let done = sim.step(usize::MAX).map(|_| ());
    (sim, done)
}

fn runs_to_the_end(c: SimConfig, ram_bytes: u64) {
    let scheme = c.scheme.clone();
    let (sim, done) = run(c, ram_bytes);
    if let Err(e) = done {
        panic!("{scheme}: {e}");
    }
    sim.ftl().check(sim.device()).unwrap();
}

/// Until the family's allocation or batch update changes, the run stops, and the error says
/// why and what would give GC room, instead of a bare "no free block left".
#[test]
fn treeftl_on_32_units_stops_saying_why_gc_cannot_keep_up() {
    // 40 blocks per unit, 8 of them spare; a filled block spans 16 translation pages.
    let (_, done) = run(config("treeftl", 8, 4, 16), 131_072);
    let e = done
        .expect_err("the known limit no longer holds: make this a test that the run completes")
        .to_string();
    assert!(e.contains("did not lift the free blocks above the GC reserve"), "{e}");
    assert!(e.contains("device.over_provisioning"), "{e}");
    assert!(e.contains("at request"), "{e}");
}

/// The control: the same device and workload on one unit runs to the end.
#[test]
fn treeftl_runs_a_fill_and_uniform_overwrites_on_one_unit() {
    runs_to_the_end(config("treeftl", 1, 1, 16), 131_072);
}

/// The limit needs translation pages far smaller than a page holds: with full pages (4 KiB,
/// 1024 entries, what the sources assume) the same 32-unit run completes, with RAM for only
/// half of the map, so GC's batch updates still go to flash.
#[test]
fn treeftl_on_32_units_runs_to_the_end_with_full_translation_pages() {
    runs_to_the_end(config("treeftl", 8, 4, 0), 32_768);
}
