//! HCFTL's distinctive rules on tiny hand-made cases: a CMT of two entries, a Ghost-CMT of
//! four, DTPs of two entries, two DTP records.

use super::options::{MergeWhen, PackingRule};
use super::*;
use crate::config::SimConfig;
use crate::flash::FlashArray;
use crate::vocab::TpCause;

const SPLIT: RamSplit =
    RamSplit { cmt: 2, ghost: 4, per_dtp: 2, dtps: 2, filter_bits: 64, merge_threshold: 1 };

fn setup(options: HcftlOptions, split: RamSplit) -> (Hcftl, Device) {
    let config = SimConfig::default();
    let ftl = Hcftl::with_split(&BuildCtx::of(&config), options, split).unwrap();
    let dev = crate::ftl::demand::testing::device_of(&config);
    (ftl, dev)
}

fn write_all(ftl: &mut Hcftl, dev: &mut Device, lpns: &[u32]) {
    for &lpn in lpns {
        ftl.write(lpn, 1, dev).unwrap();
    }
}

fn records(ftl: &Hcftl) -> Vec<(u32, u32)> {
    ftl.index.iter().map(|r| (r.min, r.max)).collect()
}

/// Writes 10, 50, 11, 90, 51, 12 through a two-entry CMT: 10, 50, 11, 90 are evicted into
/// the Ghost-CMT, which is then full. Its tightest pair is 10, 11 (spread 1; 11..50 spreads
/// 39, 50..90 40): they become DTP 0, dirty. The oldest-first rule would pack 10, 50.
#[test]
fn a_full_ghost_cmt_packs_its_tightest_window_into_a_dtp() {
    for (rule, want) in [(PackingRule::Tightest, (10, 11)), (PackingRule::Oldest, (10, 50))] {
        let (mut ftl, mut dev) = setup(HcftlOptions { packing: rule, ..HcftlOptions::default() }, SPLIT);
        write_all(&mut ftl, &mut dev, &[10, 50, 11, 90, 51, 12]);
        assert_eq!(records(&ftl), vec![want], "{rule:?}");
        let at = ftl.index.at(0).tppn;
        let entries = dtp::entries_at(&dev, at);
        assert_eq!(entries.iter().map(|e| e.0).collect::<Vec<_>>(), [want.0, want.1]);
        assert!(entries.iter().all(|e| e.1.dirty()), "written pages: the STP is stale for them");
        assert_eq!(dev.flash().tag(at).kind, PageKind::Dtp);
        assert_eq!(dev.stats.tpage_writes[TpCause::DtpWrite as usize], 1);
        assert_eq!(ftl.ram.ghost_len(), 2);
        ftl.check(&dev).unwrap();
    }
}

/// After the packing above, reading 11 misses the CMT and the Ghost-CMT; the index offers
/// DTP 0 (the only record), one flash read finds 11 there, and the whole DTP (10 and 11)
/// moves to the CMT; the DTP is invalidated and its record deleted. The CMT's two victims
/// (51, 12) fill the Ghost-CMT again, which packs 50, 51 into a new DTP.
#[test]
fn a_dtp_index_hit_loads_the_whole_dtp_into_the_cmt() {
    let (mut ftl, mut dev) = setup(HcftlOptions::default(), SPLIT);
    write_all(&mut ftl, &mut dev, &[10, 50, 11, 90, 51, 12]);
    let dtp0 = ftl.index.at(0).tppn;
    let misses = dev.stats.mapping_misses;
    assert_eq!(ftl.read(11, &mut dev).unwrap(), Some(PageTag::data(11, 1)));
    assert_eq!(dev.stats.mapping_misses, misses + 1);
    assert_eq!(dev.stats.tpage_reads[TpCause::DtpLoad as usize], 1);
    assert_eq!(dev.stats.tpage_reads[TpCause::Miss as usize], 0, "the STP was never written");
    assert_eq!(dev.flash().state(dtp0), PageState::Invalid);
    let cmt: Vec<u32> = ftl.ram.cmt_iter().map(|(l, _)| l).collect();
    assert_eq!(cmt, [11, 10], "11 last, so most recent");
    assert!(ftl.ram.cmt_peek(10).unwrap().dirty(), "the flag travels with the entry");
    assert_eq!(records(&ftl), vec![(50, 51)]);
    assert_eq!(dev.stats.bloom_false_positives, 0);
    // 10 is now a CMT hit: no flash read.
    assert_eq!(ftl.read(10, &mut dev).unwrap(), Some(PageTag::data(10, 1)));
    assert_eq!(dev.stats.mapping_hits, 1);
    ftl.check(&dev).unwrap();
}

/// A DTP of 50 and 60 with a 4-bit filter: some LPN between them that it does not hold
/// passes the range and the filter (found, not assumed). Reading it (after a flush, so the
/// STP exists) costs a wasted DTP read (a bloom false positive) before the STP read.
#[test]
fn a_bloom_false_positive_costs_a_wasted_dtp_read() {
    let split = RamSplit { filter_bits: 4, ..SPLIT };
    let (mut ftl, mut dev) = setup(HcftlOptions::default(), split);
    write_all(&mut ftl, &mut dev, &[50, 200, 60, 300, 7, 8]);
    assert_eq!(records(&ftl), vec![(50, 60)]);
    let bloom = ftl.index.bloom(ftl.index.at(0));
    let lpn = (51..60).find(|&l| bloom.contains(u64::from(l))).expect("a 4-bit filter holding two keys");
    ftl.flush(&mut dev).unwrap();
    let before =
        (dev.stats.tpage_reads[TpCause::DtpLoad as usize], dev.stats.tpage_reads[TpCause::Miss as usize]);
    assert_eq!(ftl.read(lpn, &mut dev).unwrap(), None, "never written");
    assert_eq!(dev.stats.bloom_false_positives, 1);
    assert_eq!(dev.stats.tpage_reads[TpCause::DtpLoad as usize], before.0 + 1);
    assert_eq!(dev.stats.tpage_reads[TpCause::Miss as usize], before.1 + 1);
    assert_eq!(records(&ftl).len(), 1, "the DTP stays: it did not hold the entry");
    ftl.check(&dev).unwrap();
}

/// Two DTPs with a merge threshold of 0 (packing as above, then 200 and 300 push 51 and 12
/// out: 50, 51 is the tightest pair): idle time merges them, oldest first, into the STPs
/// (their dirty entries written to the one STP of this device: no read before its first
/// write); a read then finds the entry in the STP. With no idle time (the next request already due) nothing is merged.
/// Merging on the spot does the same right after each DTP write.
#[test]
fn dtps_above_the_threshold_merge_into_the_stps_in_idle_time_or_at_once() {
    let split = RamSplit { merge_threshold: 0, ..SPLIT };
    let writes = [10, 50, 11, 90, 51, 12, 200, 300];
    let (mut ftl, mut dev) = setup(HcftlOptions::default(), split);
    write_all(&mut ftl, &mut dev, &writes);
    assert_eq!(records(&ftl), vec![(10, 11), (50, 51)]);
    ftl.idle(&mut dev, 0).unwrap();
    assert_eq!(records(&ftl).len(), 2, "no idle time, no merge");
    ftl.idle(&mut dev, u64::MAX).unwrap();
    assert!(records(&ftl).is_empty());
    assert_eq!(
        dev.stats.tpage_reads[TpCause::DtpMerge as usize],
        2 + 1,
        "two DTPs, the STP before its rewrite"
    );
    assert_eq!(dev.stats.tpage_writes[TpCause::DtpMerge as usize], 2);
    ftl.check(&dev).unwrap();
    let misses = dev.stats.tpage_reads[TpCause::Miss as usize];
    assert_eq!(ftl.read(51, &mut dev).unwrap(), Some(PageTag::data(51, 1)));
    assert_eq!(dev.stats.tpage_reads[TpCause::Miss as usize], misses + 1);

    let at_once = HcftlOptions { merge: MergeWhen::OnTheSpot, ..HcftlOptions::default() };
    let (mut ftl, mut dev) = setup(at_once, split);
    write_all(&mut ftl, &mut dev, &writes);
    assert!(records(&ftl).is_empty());
    assert_eq!(dev.stats.tpage_writes[TpCause::DtpMerge as usize], 2);
    ftl.check(&dev).unwrap();
}

/// The paper's configuration on its device (seed 001 §IV.A): 1600 DTP records in 0.6 MB
/// (393 bytes each: 381 filter bytes for 512 entries), a 0.14 MB Ghost-CMT, and the CMT
/// gets the rest after the GTD (which the paper leaves out of its 2 MB).
#[test]
fn the_hcftl_preset_gets_the_papers_ram_split() {
    let c = crate::presets::config("hcftl").unwrap();
    let tpages = c.device.logical_pages().div_ceil(1024);
    let s = RamSplit::of(crate::ftl::ram_budget(&c), tpages * 4, 512, u64::MAX, &HcftlOptions::default())
        .unwrap();
    assert_eq!((s.dtps, s.per_dtp, s.filter_bits), (1600, 512, 381 * 8));
    assert_eq!(s.ghost as u64 * 8, (2.0 * 1024.0 * 1024.0 * 0.07) as u64 / 8 * 8);
    assert_eq!(s.cmt as u64, (crate::ftl::ram_budget(&c) - tpages * 4 - s.ghost as u64 * 8 - 1600 * 393) / 8);
    assert_eq!(s.merge_threshold, 1200);
    let e = RamSplit::of(100, 90, 512, 10, &HcftlOptions::default()).unwrap_err().to_string();
    assert!(e.contains("hcftl") && e.contains("Ghost-CMT"), "{e}");
}

/// A full DTP on the paper's 4 KB pages: 512 (LPN, PPN) pairs fill the data area and their
/// flags take 64 of the 120 spare bytes after the tag; flash accepts it and reads it back.
#[test]
fn a_full_dtp_fits_a_4_kb_page_with_its_flags_in_the_spare_area() {
    let entries: Vec<(u32, MapEntry)> = (0..512).map(|l| (l * 3, MapEntry::new(l, l % 5 == 0))).collect();
    let content = dtp::content_of(&entries);
    assert_eq!((content.data.len() * 4, content.oob.len() * 4), (4096, 64));
    let mut dev = Device::new(FlashArray::new(4, 4, crate::config::CellType::Slc), Default::default(), false);
    let tag = PageTag { kind: PageKind::Dtp, key: 0, version: 1 };
    dev.program_with(0, tag, content, crate::events::Purpose::Translation).unwrap();
    assert_eq!(dtp::entries_at(&dev, 0), entries);
}

/// The mapping reconstruction check rebuilds the map from the STPs and the DTPs the scheme
/// declares: with DTP 0 (holding the only copy of LPNs 10 and 11, the STP never written)
/// declared it passes; had the scheme lost the DTP's record, 10 maps to nothing.
#[test]
fn the_reconstruction_check_reads_the_dtps_on_flash() {
    use crate::invariants::check_mapping;
    let (mut ftl, mut dev) = setup(HcftlOptions::default(), SPLIT);
    let mut oracle = crate::oracle::Oracle::new(SimConfig::default().device.logical_pages());
    for lpn in [10, 50, 11, 90, 51, 12] {
        let v = oracle.write(lpn).unwrap();
        ftl.write(lpn, v, &mut dev).unwrap();
    }
    assert_eq!(records(&ftl), vec![(10, 11)]);
    check_mapping(&ftl, &dev, &oracle).unwrap();
    ftl.index.remove(0);
    let e = check_mapping(&ftl, &dev, &oracle).unwrap_err().to_string();
    assert!(e.contains("LPN 10 (version 1) maps to nothing"), "{e}");
}

#[test]
fn arrays_over_the_lpns_double_but_stop_at_the_logical_pages() {
    assert_eq!(super::grown_len(5, 100), 8);
    assert_eq!(super::grown_len(69, 100), 100, "not 128: no LPN reaches past 99");
    assert_eq!(super::grown_len(99, 100), 100);
    assert_eq!(super::grown_len(0, usize::MAX), 1);
}
