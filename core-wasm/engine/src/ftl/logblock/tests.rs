//! The shared log-block pieces on their own, on seed 004's small device (4-page blocks,
//! 4 logical blocks).

use super::*;
use crate::ftl::{BlockRole, BuildCtx};
use crate::inspect::{InspectQuery, Row, Structure};

fn map_and_device() -> (BlockMap, Device) {
    let config = seed004::config();
    let dev = seed004::device(&config);
    (BlockMap::new(&BuildCtx::of(&config), "test", 2).unwrap(), dev)
}

fn log(block: BlockId, lpns: &[u32]) -> LogBlock {
    LogBlock { block, lpns: lpns.to_vec() }
}

/// The rows of the table `id` as (key, value) pairs, and whether it was cut short.
fn table(structures: &[Structure], id: &str) -> (Vec<(u32, Option<u32>)>, bool) {
    structures
        .iter()
        .find_map(|s| match s {
            Structure::Table { id: i, rows, truncated, .. } if i == id => {
                Some((rows.iter().map(|r: &Row| (r.key, r.value)).collect(), *truncated))
            }
            _ => None,
        })
        .unwrap_or_else(|| panic!("no table {id}"))
}

#[test]
fn a_log_block_names_each_logical_block_it_holds_pages_of_once_in_order() {
    assert_eq!(log(7, &[9, 1, 5, 2, 10]).lbns(4), [0, 1, 2]);
    assert_eq!(log(7, &[]).lbns(4), Vec::<u32>::new());
    assert_eq!(log(7, &[4, 5, 6]).in_order(4), Some(1));
    assert_eq!(log(7, &[4, 6]).in_order(4), None);
}

#[test]
fn the_association_tables_pair_each_log_block_with_the_blocks_it_serves() {
    let (mut map, mut dev) = map_and_device();
    map.write_in_place(&mut dev, 1, 1).unwrap(); // LBN 0 gets a data block; LBN 2 has none
    let data0 = map.data_block(0).unwrap();
    let (a, b) = (log(6, &[1, 9, 1]), log(5, &[2]));
    let query = InspectQuery { limit: InspectQuery::DEFAULT_LIMIT, touched: &[], focus: None };
    let s = map_structures(&map, &[&a, &b], &query);
    assert!(matches!(&s[0], Structure::Table { id, .. } if id == "block-map"), "the block map first");
    assert_eq!(table(&s, "log-association"), (vec![(6, Some(0)), (6, Some(2)), (5, Some(0))], false));
    assert_eq!(table(&s, "log-data-blocks"), (vec![(6, Some(data0)), (6, None), (5, Some(data0))], false));
}

#[test]
fn the_grid_table_keeps_every_pair_the_shown_log_blocks_can_hold() {
    // With a limit of one, the LBN table is a summary of one row; the grid's table keeps up
    // to P rows a shown log block (one log block can serve P logical blocks).
    let (map, _) = map_and_device();
    let wide = log(6, &[0, 4, 8, 12]);
    let query = InspectQuery { limit: 1, touched: &[], focus: None };
    let s = map_structures(&map, &[&wide], &query);
    assert_eq!(table(&s, "log-association"), (vec![(6, Some(0))], true));
    assert_eq!(table(&s, "log-data-blocks").0.len(), 4);
    assert!(!table(&s, "log-data-blocks").1);
}

#[test]
fn the_lists_budget_is_what_the_block_map_and_its_table_leave() {
    let (map, _) = map_and_device();
    let b = budgets(&map, map.ram_bytes() + 16, "Log-block list");
    assert_eq!((b[0].bytes, b[1].name.as_str(), b[1].bytes), (map.ram_bytes(), "Log-block list", 16));
}

#[test]
fn the_map_tells_log_data_and_free_blocks_apart_and_reads_the_newest_copy() {
    let (mut map, mut dev) = map_and_device();
    let log = map.take_log(&mut dev).unwrap();
    map.write_in_place(&mut dev, 1, 1).unwrap();
    let data = map.data_block(0).unwrap();
    let free = (0..8).find(|&b| b != data && b != log).unwrap();
    assert_eq!(map.role(&dev, log, BlockRole::Replacement), BlockRole::Replacement);
    assert_eq!(map.role(&dev, data, BlockRole::Log), BlockRole::Data);
    assert_eq!(map.role(&dev, free, BlockRole::Log), BlockRole::Free);
    assert_eq!(map.read(&mut dev, 1).unwrap(), Some(crate::flash::PageTag::data(1, 1)));
    assert_eq!(map.read(&mut dev, 2).unwrap(), None, "never written");
    map.write_log(&mut dev, 1, 2, log, 0).unwrap();
    assert_eq!(map.read(&mut dev, 1).unwrap(), Some(crate::flash::PageTag::data(1, 2)), "the log copy");
}
