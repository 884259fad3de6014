//! GFTL on small hand-built cases with the thesis' large-block SLC timings.

use super::*;
use crate::config::SimConfig;
use crate::flash::FlashArray;
use crate::presets;

const US: u64 = 1_000;

/// `thesis-rftl`'s timings (25/25/300/2000 µs) on 24 blocks of 8 pages, 64 logical pages
/// (8 logical blocks), the Ch.4 buffer (as many buffer blocks as data blocks).
fn setup() -> (Gftl, Device) {
    let mut c: SimConfig = presets::config("thesis-rftl").unwrap();
    (c.device.blocks, c.device.pages_per_block, c.device.over_provisioning) = (24, 8, 2.0 / 3.0);
    let ftl = Gftl::new(&BuildCtx::of(&c), &GftlOptions { buffer_percent: 100 }).unwrap();
    let d = &c.device;
    (ftl, Device::new(FlashArray::new(d.blocks, d.pages_per_block, d.cell), d.latency.clone(), true))
}

/// One request: the page operation, then the queue's step.
fn request(ftl: &mut Gftl, dev: &mut Device, write: Option<u32>, lpn: u32) -> (u64, u64, u64) {
    dev.cost = Default::default();
    let (copies, erases) = (dev.stats.gc_valid_copies, dev.counters.erases.iter().sum::<u64>());
    match write {
        Some(v) => ftl.write(lpn, v, dev).unwrap(),
        None => {
            ftl.read(lpn, dev).unwrap();
        }
    }
    ftl.end_request(dev).unwrap();
    ftl.check(dev).unwrap();
    (
        dev.cost.total_ns() / US,
        dev.stats.gc_valid_copies - copies,
        dev.counters.erases.iter().sum::<u64>() - erases,
    )
}

/// Pages are appended to the data block; a read scans its spare areas (U(e_r) = T_rdpg +
/// π·T_rdoob when full); a full data block is queued, later writes go to the buffer, and
/// each request runs one step of at most β = ⌊2000 / 325⌋ = 6 copies or one erase.
#[test]
fn reads_scan_the_data_block_and_cleaning_runs_in_steps() {
    let (mut ftl, mut dev) = setup();
    assert_eq!(ftl.beta, 6);
    // LBN 0: LPNs 0..7 appended; the 8th fills the block, which is queued at once, and
    // the same request runs the cleaning's first step: β = 6 copies.
    for (i, lpn) in (0..7).enumerate() {
        assert_eq!(request(&mut ftl, &mut dev, Some(i as u32 + 1), lpn), (300, 0, 0));
    }
    assert_eq!(request(&mut ftl, &mut dev, Some(8), 7), (300 + 6 * 325, 6, 0));
    // A read of LPN 7, not yet moved, scans the full block's 8 spare areas, then reads the
    // page (8·25 + 25 µs); the step copies the last 2 pages.
    assert_eq!(request(&mut ftl, &mut dev, None, 7), (8 * 25 + 25 + 2 * 325, 2, 0));
    // A write of LBN 0 goes to the buffer while its block is being cleaned (it came after
    // the cleaning took its list of buffer pages, so it stays there); the step erases the
    // old block: the longest write, T_wrpg + T_er.
    assert_eq!(request(&mut ftl, &mut dev, Some(9), 5), (300 + 2000, 0, 1));
    assert_eq!(ftl.buffer_map.len(), 1, "only LPN 5's buffer page is left in the page map");
    // The new data block holds 8 copies: full, but queued only when a write finds it so.
    assert!(ftl.queue.is_empty());
    assert_eq!(request(&mut ftl, &mut dev, None, 3), (8 * 25 + 25, 0, 0));
    assert_eq!(
        request(&mut ftl, &mut dev, Some(10), 6),
        (300 + 6 * 325, 6, 0),
        "buffered, and cleaning begins"
    );
    for (lpn, v) in [(0, 1), (3, 4), (5, 9), (6, 10), (7, 8)] {
        assert_eq!(ftl.read(lpn, &mut dev).unwrap(), Some(PageTag::data(lpn, v)));
    }
}

/// The block under the pointer: a data block's logical block and its place in the GC
/// queue, the cleaning's destination, and a buffer block.
#[test]
fn a_block_tells_its_part_and_its_place_in_the_gc_queue() {
    let (mut ftl, mut dev) = setup();
    let duty =
        |ftl: &Gftl, dev: &Device, b: BlockId| ftl.block_duty(b, dev).map(|d| (d.lbn, d.role, d.gc.unwrap()));
    for (i, lpn) in (0..7).enumerate() {
        request(&mut ftl, &mut dev, Some(i as u32 + 1), lpn);
    }
    let data = ftl.data[0];
    assert_eq!(
        duty(&ftl, &dev, data),
        Some((Some(0), "data block".into(), "not in the GC queue (0 jobs queued)".into()))
    );
    // The 8th page fills it: queued and cleaned at once, 6 of 8 pages copied so far.
    request(&mut ftl, &mut dev, Some(8), 7);
    assert_eq!(
        duty(&ftl, &dev, data),
        Some((
            Some(0),
            "full data block".into(),
            "being cleaned, first in the GC queue of 1: data block copied up to page 6 of 8".into()
        ))
    );
    let Some(Job::Clean { dest, .. }) = ftl.queue.front().cloned() else { panic!("a cleaning") };
    assert_eq!(
        duty(&ftl, &dev, dest).map(|d| (d.0, d.1)),
        Some((Some(0), "cleaning destination (next data block)".into()))
    );
    // The grid colours them the same way.
    assert_eq!(
        (ftl.block_role(data, &dev), ftl.block_role(dest, &dev)),
        (BlockRole::Data, BlockRole::Cleaning)
    );
    // A write of LBN 0 while it is cleaned goes to a buffer block.
    request(&mut ftl, &mut dev, None, 7);
    request(&mut ftl, &mut dev, Some(9), 5);
    let buffer = ftl.buffers[0];
    assert_eq!(ftl.block_role(buffer, &dev), BlockRole::Buffer);
    assert_eq!(
        duty(&ftl, &dev, buffer),
        Some((
            None,
            "buffer block 1 of 1 (page-mapped write buffer)".into(),
            "not in the GC queue (0 jobs queued)".into()
        ))
    );
}
