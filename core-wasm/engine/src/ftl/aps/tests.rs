use super::*;
use crate::config::SimConfig;
use crate::ftl::demand::testing::{device_of, small_config};
use crate::invariants::check;
use crate::oracle::Oracle;
use crate::trace::HostOp;

/// 32 blocks x 8 pages of 32 bytes (8 entries per translation page, a 96-byte GTD) and a
/// 320-byte cache: 5 buffer pages, 20 mapping entries; a step is one page (32 bytes).
fn setup(interval: u32) -> (Aps, Device, Oracle) {
    setup_with(ApsOptions { interval, ..ApsOptions::default() })
}

fn setup_with(options: ApsOptions) -> (Aps, Device, Oracle) {
    let config = small_config(32, 8, 32, 96 + 320);
    let ftl = Aps::new(&BuildCtx::of(&config), options).unwrap();
    assert_eq!(ftl.partitions(), (160, 160));
    (ftl, device_of(&config), Oracle::new(config.device.logical_pages()))
}

fn write(ftl: &mut Aps, dev: &mut Device, oracle: &mut Oracle, lpn: u32) {
    ftl.begin_request(HostOp::Write, &[lpn], dev).unwrap();
    let v = oracle.write(lpn).unwrap();
    ftl.write(lpn, v, dev).unwrap();
    ftl.end_request(dev).unwrap();
    check(ftl, dev, oracle).unwrap();
}

/// Writes are buffered (no flash) until the buffer is full; the LRU page is then written to
/// flash and remembered by the data ghost. Rewriting it is a buffer miss that hits the ghost;
/// at the end of the interval (8 requests) the estimate sees one data-ghost hit and no
/// mapping-ghost hit, and the buffer grows by one step (a page) at the mapping's expense.
#[test]
fn a_data_ghost_hit_moves_the_boundary_towards_the_buffer() {
    let (mut ftl, mut dev, mut oracle) = setup(8);
    for lpn in 0..5 {
        write(&mut ftl, &mut dev, &mut oracle, lpn);
    }
    assert_eq!(dev.counters.page_writes.iter().sum::<u64>(), 0, "all five buffered");
    let split = ftl.ram_split().unwrap();
    assert_eq!((split.mapping_bytes, split.buffer_bytes), (96, 5 * 32), "the GTD; five pages");
    write(&mut ftl, &mut dev, &mut oracle, 5); // evicts LPN 0 to flash
    assert!(!ftl.holds_in_ram(0) && ftl.buf.ghost_contains(&0));
    assert_eq!(dev.counters.page_writes[Purpose::Data as usize], 1);
    write(&mut ftl, &mut dev, &mut oracle, 0); // miss, ghost hit
    assert_eq!(ftl.hits.data_writes, 1);
    assert_eq!(ftl.partitions(), (160, 160), "no move before the interval ends");
    write(&mut ftl, &mut dev, &mut oracle, 6); // the eighth request
    assert_eq!(ftl.partitions(), (128, 192));
    assert_eq!(ftl.moves, (0, 1));
    assert_eq!(ftl.hits, GhostHits::default(), "counts restart each interval");
    // An interval of buffer hits (no ghost hit) moves nothing.
    for lpn in [3, 4, 5, 0, 6, 3, 4, 5] {
        write(&mut ftl, &mut dev, &mut oracle, lpn);
    }
    assert_eq!(ftl.partitions(), (128, 192));
}

/// A mapping-ghost hit outweighs nothing on the data side: the mapping partition grows, and
/// the buffer's LRU page is written to flash as it shrinks.
#[test]
fn a_mapping_ghost_hit_moves_the_boundary_towards_mapping() {
    let (mut ftl, mut dev, mut oracle) = setup(1000);
    // Reads of 21 never-written pages fill the 20-entry mapping partition and evict LPN 0.
    for lpn in 0..21 {
        assert_eq!(ftl.read(lpn * 8, &mut dev).unwrap(), None);
    }
    write(&mut ftl, &mut dev, &mut oracle, 100);
    ftl.read(0, &mut dev).unwrap(); // mapping miss, ghost hit
    assert_eq!(ftl.hits.mapping, 1);
    ftl.adapt(&mut dev).unwrap();
    assert_eq!(ftl.partitions(), (192, 128));
    check(&ftl, &dev, &oracle).unwrap();
}

#[test]
fn bad_options_and_too_little_ram_are_refused() {
    let config = SimConfig::default();
    let e =
        Aps::new(&BuildCtx::of(&config), ApsOptions { interval: 0, ..ApsOptions::default() }).unwrap_err();
    assert!(e.to_string().contains("interval"), "{e}");
    let mut config = SimConfig::default();
    config.ram.bytes = 100;
    assert!(Aps::new(&BuildCtx::of(&config), ApsOptions::default()).unwrap_err().to_string().contains("APS"));
}

/// The inspection counts the bytes the partitions use, not their whole sizes (as every
/// scheme's `ram_used` does): after two buffered writes, the GTD plus two buffer pages.
#[test]
fn inspection_counts_used_bytes_not_partition_sizes() {
    let (mut ftl, mut dev, mut oracle) = setup(1000);
    let empty = ftl.inspect(&InspectQuery::with_limit(10));
    assert_eq!(empty.ram_used, 96, "only the GTD before any request");
    write(&mut ftl, &mut dev, &mut oracle, 3);
    write(&mut ftl, &mut dev, &mut oracle, 4);
    let ins = ftl.inspect(&InspectQuery::with_limit(10));
    let used: u64 = ins.budgets.iter().filter(|b| !b.name.ends_with("(free)")).map(|b| b.bytes).sum();
    assert_eq!(ins.ram_used, used);
    assert!(ins.ram_used < 96 + 320, "{} counts free space", ins.ram_used);
}

fn flash_reads(dev: &Device) -> u64 {
    dev.counters.page_reads[Purpose::Data as usize]
}

fn read(ftl: &mut Aps, dev: &mut Device, oracle: &Oracle, lpn: u32) {
    ftl.begin_request(HostOp::Read, &[lpn], dev).unwrap();
    assert_eq!(ftl.read(lpn, dev).unwrap(), Some(PageTag::data(lpn, oracle.expected(lpn))));
    ftl.end_request(dev).unwrap();
    check(ftl, dev, oracle).unwrap();
}

/// Seed 000 §II.B lets read misses meet the data ghost; whether reads fill the buffer is
/// `cache_reads`. Five pages written then flushed to flash; LPN 0 read twice. Default: both
/// reads go to flash. With `cache_reads`: the second is a buffer hit, and the clean page
/// leaves the full buffer without a program.
#[test]
fn cache_reads_buffers_a_read_page_clean() {
    let run = |cache_reads| {
        let (mut ftl, mut dev, mut oracle) = setup_with(ApsOptions { cache_reads, ..ApsOptions::default() });
        for lpn in 0..5 {
            write(&mut ftl, &mut dev, &mut oracle, lpn);
        }
        ftl.flush(&mut dev).unwrap();
        read(&mut ftl, &mut dev, &oracle, 0);
        read(&mut ftl, &mut dev, &oracle, 0);
        let reads = flash_reads(&dev);
        let programs = dev.counters.page_writes[Purpose::Data as usize];
        for lpn in 10..15 {
            write(&mut ftl, &mut dev, &mut oracle, lpn); // fills the buffer, evicting LPN 0
        }
        let evicted_programs = dev.counters.page_writes[Purpose::Data as usize] - programs;
        (reads, dev.stats.buffer_hits, ftl.holds_in_ram(0), evicted_programs)
    };
    assert_eq!(run(false), (2, 0, false, 0));
    assert_eq!(run(true), (1, 1, false, 0), "one flash read, one hit; LPN 0 left unwritten");
}

/// `read_in` (TreeFTL's option, the same meaning): a write that misses the buffer reads the
/// page's old flash copy first; a page never written has none to read.
#[test]
fn read_in_reads_the_old_copy_on_a_write_miss() {
    let run = |read_in| {
        let (mut ftl, mut dev, mut oracle) = setup_with(ApsOptions { read_in, ..ApsOptions::default() });
        write(&mut ftl, &mut dev, &mut oracle, 0);
        ftl.flush(&mut dev).unwrap();
        let before = flash_reads(&dev);
        write(&mut ftl, &mut dev, &mut oracle, 0); // miss, old copy on flash
        write(&mut ftl, &mut dev, &mut oracle, 1); // miss, never written
        write(&mut ftl, &mut dev, &mut oracle, 0); // hit
        flash_reads(&dev) - before
    };
    assert_eq!((run(false), run(true)), (0, 1));
}

/// A mapping entry's update goes through the metadata path (as DFTL's), so a placement
/// model places it: a buffered write touches no entry; the page evicted to flash updates
/// its cached entry (a write of LPN 0's entry).
#[test]
fn an_entry_update_reaches_the_metadata_path() {
    use crate::meta::MetaKind::MapCache;
    let (mut ftl, mut dev, mut oracle) = setup(1000);
    let rec = crate::ftl::demand::testing::MetaRecorder::install(&mut dev);
    for lpn in 0..5 {
        write(&mut ftl, &mut dev, &mut oracle, lpn);
    }
    assert!(rec.take().iter().all(|a| a.0 != MapCache), "buffered: no entry touched");
    write(&mut ftl, &mut dev, &mut oracle, 5); // evicts LPN 0 to flash
    assert_eq!(
        rec.take().into_iter().filter(|a| a.0 == MapCache).collect::<Vec<_>>(),
        vec![(MapCache, true, 0)]
    );
}

/// A write miss into a full buffer replaces the LRU page in place; the general path (evict,
/// then insert) must give the same run: the same events in the same order with the same
/// costs, counters, scheme state and flash, over random writes, reads and trims with GC and
/// boundary moves both ways.
#[test]
fn replacing_the_lru_page_in_place_matches_evicting_first() {
    let config = small_config(32, 8, 32, 96 + 320);
    let ctx = BuildCtx::of(&config);
    let options = ApsOptions { interval: 5, ..ApsOptions::default() };
    let rig = |evict_first| {
        let mut ftl = Aps::new(&ctx, options.clone()).unwrap();
        ftl.evict_first = evict_first;
        let d = &config.device;
        let flash = crate::flash::FlashArray::new(d.blocks, d.pages_per_block, d.cell);
        let dev = Device::with_units(flash, d.latency.clone(), d.channels, d.ways, true);
        (ftl, dev, Oracle::new(d.logical_pages()))
    };
    let (mut fast, mut general) = (rig(false), rig(true));
    let lpns = config.device.logical_pages();
    let mut rng = crate::test_rng::Rng(24);
    let mut moves = (0, 0);
    for i in 0..4000 {
        let x = rng.next();
        // Hot and cold halves by turns, so that either ghost hits more for a while.
        let lpn = if (i / 400) % 2 == 0 { (x >> 33) % 12 } else { (x >> 33) % lpns } as u32;
        let op = (x >> 8) % 10;
        for (ftl, dev, oracle) in [&mut fast, &mut general] {
            match op {
                0 => {
                    ftl.begin_request(HostOp::Read, &[lpn], dev).unwrap();
                    ftl.read(lpn, dev).unwrap();
                }
                1 => {
                    ftl.begin_request(HostOp::Trim, &[lpn], dev).unwrap();
                    oracle.trim(lpn);
                    ftl.trim(lpn, dev).unwrap();
                }
                _ => {
                    ftl.begin_request(HostOp::Write, &[lpn], dev).unwrap();
                    let v = oracle.write(lpn).unwrap();
                    ftl.write(lpn, v, dev).unwrap();
                }
            }
            ftl.end_request(dev).unwrap();
            check(&*ftl, dev, oracle).unwrap();
        }
        assert_eq!(fast.1.take_events_costed(), general.1.take_events_costed(), "request {i}");
        let hash = |(ftl, dev, _): &(Aps, Device, Oracle)| {
            let mut h = StateHasher::default();
            ftl.hash_into(&mut h);
            dev.flash().hash_into(&mut h);
            (h.finish(), format!("{:?} {:?}", dev.counters, dev.stats))
        };
        assert_eq!(hash(&fast), hash(&general), "request {i}");
        moves = fast.0.moves;
    }
    assert!(moves.0 > 0 && moves.1 > 0, "the boundary moved both ways: {moves:?}");
}

/// While writes miss the buffer, the look-ahead's record of insertions names the pages the
/// buffer evicts next, in order (its hint for their old copies would otherwise go astray). A
/// buffer hit reorders the list and leaves the record off; once the buffer's every page came
/// in by a miss since, it is exact again.
#[test]
fn the_insertion_record_names_the_buffers_next_victims() {
    let (mut ftl, mut dev, mut oracle) = setup(1000);
    let mut rng = crate::test_rng::Rng(11);
    let (mut misses_in_a_row, mut checked) = (0, 0);
    for i in 0..600 {
        // Mostly fresh pages, with a rewrite of a recent one now and then (a hit).
        let lpn = if i % 13 == 0 { (rng.next() >> 33) as u32 % 60 } else { i % 60 };
        let hit = ftl.buf.contains(&lpn);
        write(&mut ftl, &mut dev, &mut oracle, lpn);
        misses_in_a_row = if hit { 0 } else { misses_in_a_row + 1 };
        let lru: Vec<u32> = ftl.buf.iter().rev().map(|(&l, _)| l).collect();
        let predicted: Vec<u32> = (0..lru.len()).map(|k| ftl.predicted_victim(k)).collect();
        if misses_in_a_row >= lru.len() {
            assert_eq!(lru, predicted, "after write {i}");
            checked += 1;
        }
    }
    assert!(checked > 300, "{checked}");
}
