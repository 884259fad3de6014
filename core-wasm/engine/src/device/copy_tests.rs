//! GC's one-step copy ([`Device::copy_page`]) against its three operations one by one, on
//! random devices: the same answer (tag or error) and the same device afterwards.

use super::*;
use crate::config::CellType;
use crate::flash::{PageContent, PageState};
use crate::test_rng::Rng;

/// Everything a copy can change: the whole device, as its debug form prints it (the array's
/// pages, counts and valid-count index with its held-aside slots, time, ages, counters).
fn snapshot(dev: &Device) -> String {
    format!("{dev:?}")
}

/// A device of random shape and latencies (some near the top of `u64`, so sums saturate)
/// with random pages programmed (some with contents), invalidated and erased.
fn random_device(rng: &mut Rng) -> Device {
    let (blocks, ppb) = (3 + rng.below(8) as u32, [2, 3, 4, 6, 8][rng.below(5) as usize]);
    let cell = if rng.below(2) == 0 { CellType::Slc } else { CellType::Mlc };
    let big = |rng: &mut Rng| if rng.below(8) == 0 { u64::MAX / 3 } else { rng.below(100_000) };
    let latency = Latencies {
        page_read_ns: big(rng),
        program_ns: big(rng),
        transfer_ns_per_page: big(rng),
        ram_access_ns: rng.below(3),
        ..Latencies::default()
    };
    let (channels, ways) = [(1, 1), (2, 1), (2, 2), (3, 1)][rng.below(4) as usize];
    let flash = FlashArray::new(blocks, ppb, cell).with_sizes(64, 32);
    let mut dev = Device::with_units(flash, latency, channels, ways, false);
    for version in 0..rng.below(u64::from(blocks * ppb) * 2) as u32 {
        let ppn = rng.below(u64::from(blocks * ppb)) as Ppn;
        let block = dev.flash.block_of(ppn);
        match dev.flash.state(ppn) {
            PageState::Free => {
                // In order on MLC: the block's next page instead.
                let ppn = dev.flash.first_ppn(block) + dev.flash.programmed_count(block);
                if dev.flash.programmed_count(block) == ppb {
                    continue;
                }
                let kind = [PageKind::Data, PageKind::Translation, PageKind::Dtp][rng.below(3) as usize];
                let tag = PageTag { kind, key: rng.below(1000) as u32, version };
                if rng.below(3) == 0 {
                    let content = PageContent { data: vec![version; 3], oob: vec![7] };
                    dev.program_with(ppn, tag, content, Purpose::Data).unwrap();
                } else {
                    dev.program(ppn, tag, Purpose::Data).unwrap();
                }
            }
            PageState::Valid => dev.invalidate(ppn).unwrap(),
            PageState::Invalid if dev.flash.valid_count(block) == 0 => dev.erase(block, Purpose::Gc).unwrap(),
            PageState::Invalid => {}
        }
        // A GC victim, held aside in the valid-count index while collected.
        let victim = rng.below(u64::from(blocks)) as BlockId;
        if rng.below(5) == 0 && dev.flash.programmed_count(victim) > 0 {
            dev.flash.collecting(victim);
        }
    }
    dev.reset_counters();
    dev
}

#[test]
fn a_copy_in_one_step_is_its_three_operations() {
    let mut rng = Rng(2024);
    let (mut fast_paths, mut refusals) = (0, 0);
    for round in 0..300 {
        let mut dev = random_device(&mut rng);
        let pages = u64::from(dev.flash.blocks() * dev.flash.pages_per_block());
        for step in 0..40 {
            dev.begin_request(rng.below(1_000_000));
            // Mostly a valid page to a block's next free page (a GC copy); sometimes any page,
            // or one past the device, for the refusals.
            let any = |rng: &mut Rng| rng.below(pages + 2) as Ppn;
            let from =
                (0..pages as Ppn).filter(|&p| dev.flash.is_valid(p)).nth(rng.below(pages) as usize % 7);
            let dest = (0..dev.flash.blocks())
                .filter(|&b| dev.flash.programmed_count(b) < dev.flash.pages_per_block())
                .nth(rng.below(4) as usize)
                .map(|b| dev.flash.first_ppn(b) + dev.flash.programmed_count(b));
            let (from, dest) = match (from, dest, rng.below(6)) {
                (Some(f), Some(d), 1..) => (f, d),
                _ => (any(&mut rng), any(&mut rng)),
            };
            let purpose = [Purpose::Gc, Purpose::Data, Purpose::Translation][rng.below(3) as usize];
            let mut stepwise = dev.clone();
            let want = stepwise.copy_page_stepwise(from, dest, purpose).map_err(|e| e.to_string());
            let got = dev.copy_page(from, dest, purpose).map_err(|e| e.to_string());
            assert_eq!(got, want, "round {round} step {step}: copy {from} -> {dest}");
            assert_eq!(snapshot(&dev), snapshot(&stepwise), "round {round} step {step}: {from} -> {dest}");
            dev.flash.check().unwrap();
            if got.is_ok() {
                fast_paths += 1;
            } else {
                refusals += 1;
            }
            dev.end_request();
        }
    }
    assert!(fast_paths > 1000 && refusals > 1000, "{fast_paths} copies, {refusals} refusals");
}

/// A run of copies against [`Device::copy_page_stepwise`] page by page, stopping where the
/// run's rules say (the end of either block, a destination page not free, a page of another
/// kind than the first's), each copy followed by the caller's map-entry write; a refused run
/// (events, posted timing, metadata or cache accesses that cost time, sums that could
/// saturate, the same block, MLC out of order) changes nothing.
#[test]
fn a_run_of_copies_is_its_copies_one_by_one() {
    let mut rng = Rng(99);
    let (mut runs, mut refused) = (0, 0);
    for round in 0..400 {
        let mut dev = random_device(&mut rng);
        match rng.below(8) {
            0 => dev.set_recording(true),
            1 => dev = dev.with_posted_programs(true),
            // Cache operations that cost time: the caller's between the copies would move the clock.
            2 => {
                dev.latency.ram_access_ns = 0;
                dev.latency.cache_op_ns = 1 + rng.below(5);
            }
            // Free metadata accesses (the default), so that most runs can go.
            _ => dev.latency.ram_access_ns = 0,
        }
        let (blocks, ppb) = (dev.flash.blocks(), dev.flash.pages_per_block());
        for step in 0..20 {
            dev.begin_request(rng.below(1_000_000));
            // Mostly from a block's first valid page, as GC starts.
            let from_block = rng.below(u64::from(blocks)) as BlockId;
            let first = dev.flash.first_ppn(from_block);
            let first_valid = (first..first + ppb).find(|&p| dev.flash.is_valid(p));
            let from = match first_valid.filter(|_| rng.below(4) != 0) {
                Some(p) => p,
                None => first + rng.below(u64::from(ppb)) as Ppn,
            };
            let dest_block = rng.below(u64::from(blocks)) as BlockId;
            let used = dev.flash.programmed_count(dest_block);
            let dest = dev.flash.first_ppn(dest_block)
                + if rng.below(4) == 0 { rng.below(u64::from(ppb)) as u32 } else { used.min(ppb - 1) };
            let purpose = [Purpose::Gc, Purpose::Data][rng.below(2) as usize];
            let mut stepwise = dev.clone();
            let (moved, next) = dev.copy_run(from, dest, purpose);
            for d in dest..dest + moved {
                dev.meta_write(MetaKind::PageMap, dev.flash.tag(d).key, 4);
            }
            if moved == 0 {
                refused += 1;
                assert_eq!(
                    snapshot(&dev),
                    snapshot(&stepwise),
                    "round {round} step {step}: nothing moved, nothing changed"
                );
                continue;
            }
            runs += 1;
            let (from_end, dest_end) =
                (dev.flash.first_ppn(from_block) + ppb, dev.flash.first_ppn(dest_block) + ppb);
            let (mut p, mut d) = (from, dest);
            let kind = stepwise.flash.tag(from).kind;
            while p < from_end {
                if stepwise.flash.is_valid(p) {
                    let other_kind = stepwise.flash.tag(p).kind != kind;
                    if d == dest_end || stepwise.flash.state(d) != PageState::Free || other_kind {
                        break;
                    }
                    let tag = stepwise.copy_page_stepwise(p, d, purpose).unwrap();
                    stepwise.meta_write(MetaKind::PageMap, tag.key, 4);
                    d += 1;
                }
                p += 1;
            }
            assert_eq!((moved, next), (d - dest, p), "round {round} step {step}: run {from} -> {dest}");
            assert_eq!(
                snapshot(&dev),
                snapshot(&stepwise),
                "round {round} step {step}: run {from} -> {dest}"
            );
            dev.flash.check().unwrap();
            dev.end_request();
        }
    }
    assert!(runs > 500 && refused > 1000, "{runs} runs, {refused} refused");
}
