//! The placement model on hand-made access sequences: each level charges its own time,
//! write-through reaches NAND at once, write-back only at eviction.

use super::*;
use crate::flash::FlashArray;

/// Metadata pages of 4 KB; NAND read 25 µs, program 200 µs (no transfer); SRAM of two pages,
/// DRAM of `lines` lines.
fn setup(model: MetadataModel, lines: u64) -> (Placement, Device) {
    let config = MetadataConfig {
        model,
        sram_page_table_bytes: 2 * 4096,
        dram_bytes: lines * 4096,
        sram_access_ns: 5,
        dram_access_ns: 50,
        dram_page_ns: 4_000,
        ..MetadataConfig::default()
    };
    let lat = Latencies {
        page_read_ns: 25_000,
        program_ns: 200_000,
        transfer_ns_per_page: 0,
        ..Latencies::default()
    };
    let dev = Device::new(FlashArray::new(4, 4, crate::config::CellType::Slc), lat.clone(), false);
    (Placement::new(&config, 4096, &lat).unwrap(), dev)
}

/// An access to page `page` of the block map (1024 four-byte entries a page).
fn access(p: &mut Placement, dev: &mut Device, page: u32, write: bool) -> (u64, u64) {
    let before = dev.cost.clone();
    p.access(MetaAccess { kind: MetaKind::BlockMap, write, key: page * 1024, bytes: 4 }, dev);
    (dev.cost.ram_ns - before.ram_ns, dev.cost.meta_ns - before.meta_ns)
}

/// A page evicted from SRAM is loaded again from DRAM (a page transfer), and once its DRAM
/// line has gone too, from NAND (a page read plus the transfer); SRAM hits cost one access.
#[test]
fn an_evicted_page_comes_back_from_dram_then_from_nand_each_at_its_levels_cost() {
    // Two DRAM lines: pages 0 and 2 share line 0.
    let (mut p, mut dev) = setup(MetadataModel::Cache, 2);
    assert_eq!(access(&mut p, &mut dev, 0, false), (5, 25_000 + 4_000), "cold: NAND, into DRAM, into SRAM");
    assert_eq!(access(&mut p, &mut dev, 0, false), (5, 0), "SRAM hit");
    access(&mut p, &mut dev, 1, false);
    access(&mut p, &mut dev, 3, false); // SRAM holds two pages: 0 is evicted
    assert_eq!(access(&mut p, &mut dev, 0, false), (5, 4_000), "from its DRAM line");
    access(&mut p, &mut dev, 2, false); // takes DRAM line 0 from page 0
    access(&mut p, &mut dev, 3, false); // evicts page 0 from SRAM again
    assert_eq!(access(&mut p, &mut dev, 0, false), (5, 25_000 + 4_000), "from NAND again");
    let s = p.summary().unwrap();
    assert_eq!((s.sram_hits, s.sram_misses, s.nand_reads, s.nand_writes), (1, 7, 5, 0));
}

/// Write-through (`cache`): an update is programmed to NAND at once (and written in its DRAM
/// line). Write-back (`cache_battery`): it only dirties the line, and reaches NAND when the
/// line is evicted.
#[test]
fn write_through_reaches_nand_at_once_and_write_back_only_at_eviction() {
    let (mut p, mut dev) = setup(MetadataModel::Cache, 2);
    access(&mut p, &mut dev, 0, false);
    assert_eq!(access(&mut p, &mut dev, 0, true), (5, 50 + 200_000));
    assert_eq!(p.summary().unwrap().nand_writes, 1);

    let (mut p, mut dev) = setup(MetadataModel::CacheBattery, 2);
    access(&mut p, &mut dev, 0, false);
    assert_eq!(access(&mut p, &mut dev, 0, true), (5, 50), "the DRAM line only");
    assert_eq!(access(&mut p, &mut dev, 0, true), (5, 50));
    let s = p.summary().unwrap();
    assert_eq!((s.nand_writes, s.dirty_dram_lines), (0, 1));
    // Page 2 takes line 0: the dirty page 0 is written back, then page 2 is read.
    assert_eq!(access(&mut p, &mut dev, 2, false), (5, 200_000 + 25_000 + 4_000));
    let s = p.summary().unwrap();
    assert_eq!((s.nand_writes, s.dram_writebacks, s.dirty_dram_lines), (1, 1, 0));
}

/// Without a DRAM cache every SRAM miss reads NAND and every update programs it; the ideal
/// SRAM charges one SRAM access and nothing else.
#[test]
fn no_cache_goes_to_nand_and_ideal_sram_never_loads() {
    let (mut p, mut dev) = setup(MetadataModel::NoCache, 0);
    assert_eq!(access(&mut p, &mut dev, 0, true), (5, 25_000 + 200_000));
    assert_eq!(access(&mut p, &mut dev, 0, true), (5, 200_000));
    let (mut p, mut dev) = setup(MetadataModel::IdealSram, 0);
    for page in 0..10 {
        assert_eq!(access(&mut p, &mut dev, page, true), (5, 0));
    }
}

/// Memories too small for one page are refused, naming the field.
#[test]
fn a_page_table_or_dram_smaller_than_a_page_is_refused() {
    let lat = Latencies::default();
    let c = MetadataConfig {
        model: MetadataModel::NoCache,
        sram_page_table_bytes: 100,
        ..MetadataConfig::default()
    };
    assert!(Placement::new(&c, 4096, &lat)
        .unwrap_err()
        .to_string()
        .contains("metadata.sram_page_table_bytes"));
    let c = MetadataConfig { model: MetadataModel::Cache, dram_bytes: 0, ..MetadataConfig::default() };
    assert!(Placement::new(&c, 4096, &lat).unwrap_err().to_string().contains("metadata.dram_bytes"));
}

/// The inspection shows each level with what it holds: SRAM pages in LRU order, DRAM lines
/// with their dirty bits, the NAND pages touched.
#[test]
fn the_levels_show_what_they_hold() {
    let (mut p, mut dev) = setup(MetadataModel::CacheBattery, 4);
    access(&mut p, &mut dev, 0, true);
    access(&mut p, &mut dev, 1, false);
    let s = p.structures(10);
    let Structure::List { entries, .. } = &s[0] else { panic!("SRAM is a list") };
    assert_eq!(entries.iter().map(|e| e.key).collect::<Vec<_>>(), [1, 0], "most recent first");
    let Structure::List { entries, .. } = &s[1] else { panic!("DRAM is a list") };
    let mut lines: Vec<(u32, bool)> = entries.iter().map(|e| (e.key, e.dirty)).collect();
    lines.sort_unstable();
    assert_eq!(lines, [(0, true), (1, false)]);
    let Structure::Table { len, .. } = &s[2] else { panic!("NAND is a table") };
    assert_eq!(*len, 2);
}
