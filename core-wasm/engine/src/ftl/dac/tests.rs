//! DAC on hand-built cases: the thesis' worked example (Fig 2.4), Eq. 2.1's RAM saving, the
//! miss costs of §2.4.3, Algorithm 2.3.2's cases and the cost-aware LRU's refusal.

use super::*;
use crate::config::SimConfig;
use crate::events::Purpose;
use crate::flash::{FlashArray, PageContent, PageKind};
use crate::ftl::demand::TpCause;

/// The thesis' geometry (2 KB pages, 64-page blocks, 8-byte entries: 256 per translation
/// page) on `blocks` blocks, 10 % spare, with the given cache sizes in bytes.
fn setup(blocks: u32, dbmtc: u64, tprlc: u64, tpafc: u64) -> (Dac, Device) {
    let mut config = SimConfig::default();
    config.device.page_bytes = 2048;
    config.device.pages_per_block = 64;
    config.device.blocks = blocks;
    config.device.translation_page_entries = 0;
    config.device.over_provisioning = 0.1;
    config.ram.bytes = 64 * 1024;
    let options =
        DacOptions { dbmtc_bytes: dbmtc, tprlc_bytes: tprlc, tpafc_bytes: tpafc, ..DacOptions::default() };
    let dac = Dac::new(&BuildCtx::of(&config), options).unwrap();
    let dev = Device::new(FlashArray::new(blocks, 64, config.device.cell), config.device.latency, true);
    (dac, dev)
}

const PAGE: u64 = 2048;

fn entry(primary: u32, replacement: u32) -> BlockEntry {
    BlockEntry { primary, replacement }
}

/// Programs translation page `t` at `ppn` holding `entries` (the rest empty), as the TPMT's
/// TPPA.
fn place_tpage(dac: &mut Dac, dev: &mut Device, ppn: u32, t: u32, entries: &[(u32, BlockEntry)]) {
    let mut page = vec![BlockEntry::EMPTY; dac.per_tpage as usize];
    for &(lbn, e) in entries {
        page[dac.tvpa(lbn).1] = e;
    }
    let data = levels::encode(&page, 8);
    let tag = PageTag { kind: PageKind::Translation, key: t, version: ppn + 1 };
    dev.program_with(ppn, tag, PageContent { data, oob: Vec::new() }, Purpose::Translation).unwrap();
    dac.tpmt[t as usize].tppa = ppn;
}

fn tpage_io(dev: &Device) -> (u64, u64) {
    let k = &dev.counters.by_kind[PageKind::Translation as usize];
    (k.page_reads.iter().sum(), k.page_writes.iter().sum())
}

/// Thesis Fig 2.4 (notes §2.5.6), both levels missing: DLPA 65 → DVBA 1 → TVPA 0, at TPPA
/// 12, not cached, FREQ 2 → 3; the DBMTC's victim is DVBA 511's (dirty) entry, kicked into
/// its page cached in the TPRLC; FREQ 3 is below the TPAFC victim's 4, so the TPRLC's LRU
/// page, TPPA 18 (dirty), is written to the new translation page 39 and the TPMT follows;
/// TPPA 12 enters the TPRLC and the entry is returned.
#[test]
fn fig_2_4_both_levels_miss() {
    // A 2-entry DBMTC and one page in each part of level two.
    let (mut dac, mut dev) = setup(600, 16, PAGE, PAGE);
    assert_eq!(dac.per_tpage, 256);
    assert_eq!(dac.capacities(), (2, 1, 1));
    // Translation block 0 is open with pages 0..=38 written: TVPA 0 at 12, TVPA 1 at 18,
    // TVPA 2 at 20, the others stale.
    let b = dac.map.take(&mut dev).unwrap();
    assert_eq!(b, 0);
    dac.tblocks.push(b);
    let requested = entry(100, NONE);
    place_tpage(&mut dac, &mut dev, 12, 0, &[(1, requested)]);
    place_tpage(&mut dac, &mut dev, 18, 1, &[(511, entry(200, NONE))]);
    place_tpage(&mut dac, &mut dev, 20, 2, &[]);
    for p in (0..39).filter(|p| ![12, 18, 20].contains(p)) {
        dev.program(p, PageTag { kind: PageKind::Translation, key: 3, version: p }, Purpose::Translation)
            .unwrap();
        dev.invalidate(p).unwrap();
    }
    // Level two: TVPA 1 in the TPRLC, TVPA 2 (FREQ 4) in the TPAFC; FREQ of TVPA 0 is 2.
    dac.tprlc.insert(1, CachedPage { entries: dac.flash_entries(&dev, 1), dirty: false });
    dac.tpmt[1].loca = Loca::Tprlc;
    dac.tpafc.push((2, CachedPage { entries: dac.flash_entries(&dev, 2), dirty: false }));
    dac.tpmt[2] = TpmtRow { loca: Loca::Tpafc, freq: 4, ..dac.tpmt[2] };
    dac.tpmt[0].freq = 2;
    // The DBMTC: DVBA 511's entry updated (dirty, least recent), then DVBA 300's (clean).
    let updated = entry(200, 201);
    dac.dbmtc[0].insert(511, CachedEntry { entry: updated, dirty: true });
    dac.dbmtc[0].insert(300, CachedEntry { entry: entry(7, NONE), dirty: false });
    let io = tpage_io(&dev);

    assert_eq!(dac.translate(65 / 64, &mut dev).unwrap(), requested);

    assert_eq!(dac.tpmt[0], TpmtRow { tppa: 12, loca: Loca::Tprlc, freq: 3 });
    assert!(dac.dbmtc_entry(1).is_some() && dac.dbmtc_entry(511).is_none(), "511 was the victim");
    assert_eq!(dac.tpmt[1], TpmtRow { tppa: 39, loca: Loca::Flash, freq: 0 }, "TPPA 18 → 39");
    assert_eq!(dev.flash().state(18), crate::flash::PageState::Invalid);
    assert_eq!(dac.flash_entries(&dev, 1)[dac.tvpa(511).1], updated, "the kicked entry reached flash");
    assert_eq!(dac.tpmt[2].loca, Loca::Tpafc, "the TPAFC keeps its more frequent page");
    assert_eq!(tpage_io(&dev), (io.0 + 1, io.1 + 1), "one translation-page read, one write");
}

/// Eq. 2.1 with the engine's own RAM figures: on 32 GB (262,144 logical blocks, 1,024
/// translation pages, a 4 KB TPMT) against NFTL's 1.5 MB table, a 64 KB cache saves 95.57 %
/// and a 128 KB cache 91.41 %.
#[test]
fn eq_2_1_ram_saving_on_32_gb() {
    let mut config = SimConfig::default();
    config.device.page_bytes = 2048;
    config.device.pages_per_block = 64;
    config.device.translation_page_entries = 0;
    config.device.blocks = 262_144 + 8_192;
    config.device.over_provisioning = 8_192.0 / f64::from(config.device.blocks);
    let nftl = crate::ftl::spec("nftl").unwrap();
    let table = (nftl.build)(&BuildCtx::of(&config), &json!({})).unwrap().ram_bytes();
    assert_eq!(table, 1536 * 1024, "S_mt: NFTL's whole table");
    let mut saving = |cache_kb: u64| {
        config.ram.bytes = 4 * 1024 + cache_kb * 1024;
        let dac = Dac::new(&BuildCtx::of(&config), DacOptions::default()).unwrap();
        assert_eq!(dac.tpmt.len(), 1024);
        format!("{:.2}", (1.0 - dac.ram_bytes() as f64 / table as f64) * 100.0)
    };
    assert_eq!(saving(64), "95.57");
    assert_eq!(saving(128), "91.41");
}

/// §2.4.3: a miss in both levels costs one translation-page read when level two's victim is
/// clean, one write and one read when it is dirty.
#[test]
fn a_miss_costs_one_read_or_with_a_dirty_victim_one_write_and_one_read() {
    // No DBMTC (less than an entry), a one-page TPRLC, no TPAFC.
    let (mut dac, mut dev) = setup(600, 1, PAGE, 0);
    for t in 0..3 {
        dac.write_tpage(t, &vec![BlockEntry::EMPTY; 256], TpCause::Flush, Purpose::Translation, &mut dev)
            .unwrap();
    }
    dac.translate(0, &mut dev).unwrap(); // TVPA 0 into the empty TPRLC
    let io = tpage_io(&dev);
    dac.translate(256, &mut dev).unwrap(); // TVPA 1: clean TVPA 0 dropped
    assert_eq!(tpage_io(&dev), (io.0 + 1, io.1), "clean victim: one read");
    dac.update_entry(256, Purpose::Translation, &mut dev).unwrap(); // its cached page is dirty now
    assert!(dac.tprlc.peek(&1).unwrap().dirty);
    let io = tpage_io(&dev);
    dac.translate(512, &mut dev).unwrap();
    assert_eq!(tpage_io(&dev), (io.0 + 1, io.1 + 1), "dirty victim: one write and one read");
    assert_eq!(dev.stats.tpage_writes[TpCause::Eviction as usize], 1);
}

/// Level two with one page in each part: TVPA 0 in the TPRLC, TVPA 1 in the TPAFC with FREQ
/// 4 (`dirty` or not); then TVPA 2 with FREQ `freq` is fetched in.
fn fetch_case(freq: u32, dirty: bool) -> (Dac, Device, (u64, u64)) {
    let (mut dac, mut dev) = setup(600, 16, PAGE, PAGE);
    let empty = || vec![BlockEntry::EMPTY; 256];
    dac.fetch_in(0, empty(), &mut dev).unwrap();
    dac.fetch_in(1, empty(), &mut dev).unwrap();
    assert_eq!((dac.tpmt[0].loca, dac.tpmt[1].loca), (Loca::Tprlc, Loca::Tpafc), "room first");
    dac.tpafc[0].1.dirty = dirty;
    dac.tprlc.peek_mut(&0).unwrap().dirty = true;
    dac.tpmt[1].freq = 4;
    dac.tpmt[2].freq = freq;
    let io = tpage_io(&dev);
    dac.fetch_in(2, empty(), &mut dev).unwrap();
    (dac, dev, io)
}

/// Algorithm 2.3.2 case (a): a page more frequent than the TPAFC's least frequent one
/// replaces it in the TPAFC (kicked out: written when dirty).
#[test]
fn fetch_in_case_a_more_frequent_page_replaces_the_tpafc_victim() {
    let (dac, dev, io) = fetch_case(5, true);
    assert_eq!(dac.tpmt[2].loca, Loca::Tpafc);
    assert_eq!(dac.tpmt[1].loca, Loca::Flash);
    assert_eq!(dac.tpmt[0].loca, Loca::Tprlc, "the TPRLC is untouched");
    assert_eq!(tpage_io(&dev), (io.0, io.1 + 1), "the dirty TPAFC victim is written");
}

/// Case (b): equal FREQ. A clean TPAFC victim is dropped and the page enters the TPAFC; a
/// dirty one stays, and the TPRLC's LRU page is kicked out for the page instead.
#[test]
fn fetch_in_case_b_equal_frequency_depends_on_the_tpafc_victim_being_clean() {
    let (dac, dev, io) = fetch_case(4, false);
    assert_eq!(
        (dac.tpmt[2].loca, dac.tpmt[1].loca, dac.tpmt[0].loca),
        (Loca::Tpafc, Loca::Flash, Loca::Tprlc)
    );
    assert_eq!(tpage_io(&dev), io, "a clean victim is dropped: nothing written");
    let (dac, dev, io) = fetch_case(4, true);
    assert_eq!(
        (dac.tpmt[2].loca, dac.tpmt[1].loca, dac.tpmt[0].loca),
        (Loca::Tprlc, Loca::Tpafc, Loca::Flash)
    );
    assert_eq!(tpage_io(&dev), (io.0, io.1 + 1), "the TPRLC's dirty victim is written");
}

/// Case (c): a less frequent page goes to the TPRLC, whose LRU page is kicked out.
#[test]
fn fetch_in_case_c_less_frequent_page_goes_to_the_tprlc() {
    let (dac, dev, io) = fetch_case(3, false);
    assert_eq!(
        (dac.tpmt[2].loca, dac.tpmt[1].loca, dac.tpmt[0].loca),
        (Loca::Tprlc, Loca::Tpafc, Loca::Flash)
    );
    assert_eq!(tpage_io(&dev), (io.0, io.1 + 1));
    assert_eq!(dac.tpmt[0].tppa, dev.flash().first_ppn(dac.tblocks[0]));
}

/// The cost-aware LRU (§2.5.3): a dirty entry whose translation page is not cached is never
/// a victim; when every entry is such, nothing is evicted and the new entry is not cached
/// in the DBMTC, with no flash access.
#[test]
fn a_dbmtc_of_dirty_entries_without_cached_pages_selects_no_victim() {
    let (mut dac, mut dev) = setup(600, 16, PAGE, 0);
    let dirty = |e| CachedEntry { entry: e, dirty: true };
    assert!(dac.dbmtc_fetch_in(0, dirty(entry(1, NONE)), &mut dev));
    assert!(dac.dbmtc_fetch_in(300, dirty(entry(2, NONE)), &mut dev));
    let io = tpage_io(&dev);
    assert!(!dac.dbmtc_fetch_in(600, CachedEntry { entry: entry(3, NONE), dirty: false }, &mut dev));
    assert!(dac.dbmtc_entry(0).is_some() && dac.dbmtc_entry(300).is_some() && dac.dbmtc_entry(600).is_none());
    assert_eq!(tpage_io(&dev), io);
    // With DVBA 300's page cached, it becomes the victim although DVBA 0 is less recent,
    // and its entry goes into that page.
    dac.fetch_in(1, vec![BlockEntry::EMPTY; 256], &mut dev).unwrap();
    assert!(dac.dbmtc_fetch_in(600, CachedEntry { entry: entry(3, NONE), dirty: false }, &mut dev));
    assert!(dac.dbmtc_entry(0).is_some() && dac.dbmtc_entry(300).is_none());
    let page = dac.tprlc.peek(&1).unwrap();
    assert!(page.dirty && page.entries[dac.tvpa(300).1] == entry(2, NONE));
    assert_eq!(tpage_io(&dev), io, "level one never writes flash");
}

/// End to end: every mapping change lands in the levels, a flush writes them back, and the
/// levels agree with the data blocks throughout (the checks run after each write).
#[test]
fn writes_and_a_flush_keep_the_levels_in_step_with_the_data_blocks() {
    let (mut dac, mut dev) = setup(600, 16, PAGE, PAGE);
    let mut v = 0;
    for round in 0..3 {
        for lpn in (0..40 * 64).step_by(61) {
            v += 1;
            dac.write(lpn + round, v, &mut dev).unwrap();
            dac.check(&dev).unwrap();
        }
    }
    assert!(dev.stats.mapping_hits > 0 && dev.stats.mapping_misses > 0);
    dac.flush(&mut dev).unwrap();
    dac.check(&dev).unwrap();
    assert!(dac.dbmtc.iter().all(|s| s.iter().all(|(_, c)| !c.dirty)));
    assert!(dac.tprlc.iter().all(|(_, p)| !p.dirty) && dac.tpafc.iter().all(|(_, p)| !p.dirty));
}

/// Six-byte entries pack two 24-bit block numbers, so a page of them fits its flash page and
/// reads back unchanged (an empty entry included).
#[test]
fn six_byte_entries_fit_their_page_and_read_back() {
    let entries = [entry(0, NONE), entry(0xAB_CDEF, 3), BlockEntry::EMPTY, entry(7, 0xFF_FFFE), entry(1, 2)];
    let words = levels::encode(&entries, 6);
    assert_eq!(words.len() * 4, 32, "5 entries of 6 bytes in a 32-byte page");
    assert_eq!(levels::decode(&words, 6)[..5], entries);
    assert_eq!(levels::decode(&levels::encode(&entries, 8), 8), entries);
}

/// Thesis §2.3.4's write: the primary page's spare area is read (none when the primary
/// block is new), and an update searches the replacement block's spare areas for its first
/// free page (none when the replacement block is new).
#[test]
fn a_write_reads_the_primary_spare_area_and_searches_the_replacement_block() {
    let (mut dac, mut dev) = setup(600, 0, 0, 0);
    let oob = |dev: &Device| dev.counters.oob_reads.iter().sum::<u64>();
    let mut costs = Vec::new();
    for v in 1..=3 {
        let before = oob(&dev);
        dac.write(0, v, &mut dev).unwrap();
        dac.check(&dev).unwrap();
        costs.push(oob(&dev) - before);
    }
    // New primary; primary occupied + new replacement; primary + 1 written + 1 erased.
    assert_eq!(costs, [0, 1, 3]);
    assert_eq!(dac.read(0, &mut dev).unwrap(), Some(PageTag::data(0, 3)));
}

/// The greedy victim found through the device's valid-count index is the one a pass over
/// every candidate finds, on random states: hot and cold logical blocks, trims (fully
/// written blocks with few valid pages that GC may not reclaim), a small device so that
/// collections, translation-block moves and just-taken replacement blocks all occur.
#[test]
fn indexed_victim_matches_the_scan_on_random_states() {
    use super::data::Victim;
    let (mut indexed, mut fallback, mut translation, mut walked) = (0, 0, 0, 0);
    for seed in 0..12u64 {
        let mut config = SimConfig::default();
        config.device.page_bytes = 512;
        config.device.pages_per_block = 8;
        config.device.blocks = 48 + seed as u32 * 4;
        config.device.translation_page_entries = 4;
        config.device.over_provisioning = 0.25;
        // Room for the TPMT and a page or two per level: translation pages go to flash often.
        config.ram.bytes = 200;
        let options = DacOptions { gc_free_percent: 10 + seed as u8 * 2, ..DacOptions::default() };
        let mut dac = Dac::new(&BuildCtx::of(&config), options).unwrap();
        let blocks = config.device.blocks;
        let logical = config.device.logical_pages() as u32;
        let mut dev =
            Device::new(FlashArray::new(blocks, 8, config.device.cell), config.device.latency, true);
        let mut rng = crate::test_rng::Rng(seed);
        let mut next = move || rng.next();
        for step in 0..3000u32 {
            let r = next();
            // A quarter of the writes to the first eighth of the space: hot blocks.
            let span = if r.is_multiple_of(4) { logical / 8 } else { logical };
            let lpn = (r >> 8) as u32 % span;
            if r % 16 == 1 {
                dac.trim(lpn, &mut dev).unwrap();
            } else {
                dac.write(lpn, step + 1, &mut dev).unwrap();
            }
            let want = dac.victim_by_scan(&dev);
            assert_eq!(dac.victim(&dev), want, "seed {seed}, step {step}");
            // The walk over the candidates alone: where it answers, the pass agrees.
            if let Some(v) = dac.victim_by_index(&dev) {
                assert_eq!(Some(v), want, "walk, seed {seed}, step {step}");
                walked += 1;
            }
            dac.check_candidates().unwrap();
            let full = |b: BlockId| dev.flash().programmed_count(b) == 8;
            match want {
                Some(Victim::Translation(b)) if full(b) => {
                    translation += 1;
                    indexed += 1;
                }
                Some(Victim::Merge(lbn))
                    if full(dac.truth(lbn).replacement) || full(dac.truth(lbn).primary) =>
                {
                    indexed += 1
                }
                _ => fallback += 1,
            }
        }
        dac.check(&dev).unwrap();
    }
    assert!(indexed > 1000 && fallback > 100 && translation > 0, "{indexed} {fallback} {translation}");
    assert!(walked > 1000, "the walk over the candidates answered {walked} times");
}
