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
    let query = InspectQuery::default();
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
    let query = InspectQuery::with_limit(1);
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
    assert_eq!(map.role(&dev, log, BlockRole::Primary, BlockRole::Replacement), BlockRole::Replacement);
    assert_eq!(map.role(&dev, data, BlockRole::Data, BlockRole::Log), BlockRole::Data);
    assert_eq!(map.role(&dev, data, BlockRole::Primary, BlockRole::Replacement), BlockRole::Primary);
    assert_eq!(map.role(&dev, free, BlockRole::Data, BlockRole::Log), BlockRole::Free);
    assert_eq!(map.read(&mut dev, 1).unwrap(), Some(crate::flash::PageTag::data(1, 1)));
    assert_eq!(map.read(&mut dev, 2).unwrap(), None, "never written");
    map.write_log(&mut dev, 1, 2, log, 0).unwrap();
    assert_eq!(map.read(&mut dev, 1).unwrap(), Some(crate::flash::PageTag::data(1, 2)), "the log copy");
    // The block under the pointer: what it does for which logical block.
    let duty = |b| map.duty(&dev, b, "data", "log").map(|d| (d.lbn, d.role));
    assert_eq!(duty(data), Some((Some(0), "data block".into())));
    assert_eq!(duty(log), Some((Some(0), "log block".into())));
    assert_eq!(duty(free), None);
    let ppb = map.ppb();
    map.write_log(&mut dev, ppb + 1, 3, log, 1).unwrap();
    assert_eq!(
        map.duty(&dev, log, "primary", "replacement").map(|d| (d.lbn, d.role)),
        Some((None, "replacement block holding pages of logical blocks 0, 1".into()))
    );
}

#[test]
fn a_fixed_pool_is_what_was_asked_for_at_most_every_spare_block_but_the_merge_target() {
    assert_eq!(pool_size(4, 0), 3, "0: all the room there is");
    assert_eq!(pool_size(4, 2), 2);
    assert_eq!(pool_size(4, 9), 3, "clamped");
}

#[test]
fn an_append_fills_the_next_page_and_supersedes_the_old_copy() {
    let (mut map, mut dev) = map_and_device();
    map.write_in_place(&mut dev, 5, 1).unwrap();
    let old = map.locate(&dev, 5).unwrap();
    let mut lb = LogBlock::take(&mut map, &mut dev).unwrap();
    assert!(map.is_log(lb.block));
    lb.append(&mut map, &mut dev, 5, 2).unwrap();
    lb.append(&mut map, &mut dev, 6, 3).unwrap();
    let first = dev.flash().first_ppn(lb.block);
    assert_eq!(lb.lpns, [5, 6]);
    assert_eq!((map.log_copy(5), map.log_copy(6)), (Some(first), Some(first + 1)));
    assert_eq!(dev.flash().state(old), crate::flash::PageState::Invalid);
    check(&map, &dev, [&lb].into_iter(), Some(1)).unwrap();
}

#[test]
fn the_check_finds_a_pool_over_its_limit_and_a_page_list_out_of_step() {
    let (mut map, mut dev) = map_and_device();
    let mut a = LogBlock::take(&mut map, &mut dev).unwrap();
    let b = LogBlock::take(&mut map, &mut dev).unwrap();
    check(&map, &dev, [&a, &b].into_iter(), None).unwrap();
    let e = check(&map, &dev, [&a, &b].into_iter(), Some(1)).unwrap_err().to_string();
    assert!(e.contains("2 log blocks, over the limit of 1"), "{e}");
    a.lpns.push(3); // listed, never written
    let e = check(&map, &dev, [&a, &b].into_iter(), None).unwrap_err().to_string();
    assert!(e.contains(&format!("log block {} lists 1 pages", a.block)), "{e}");
}

#[test]
fn a_full_merge_gathers_the_newest_pages_and_erases_the_log_block_only_when_asked() {
    let (mut map, mut dev) = map_and_device();
    for lpn in [0, 1, 4] {
        map.write_in_place(&mut dev, lpn, 1).unwrap();
    }
    let mut lb = LogBlock::take(&mut map, &mut dev).unwrap();
    lb.append(&mut map, &mut dev, 1, 2).unwrap();
    lb.append(&mut map, &mut dev, 4, 2).unwrap();
    let old = map.data_block(0).unwrap();
    seed004::merges(&mut dev);
    let why = MergeWhy { cause: MergeCause::Shared, written: 2, degree: 2 };
    // LBN 0 first: the log block still holds LBN 1's page, so it is not erased yet.
    assert_eq!(full_merge(&mut map, &mut dev, 0, lb.block, false, why).unwrap(), 2);
    assert_ne!(map.data_block(0), Some(old));
    assert_eq!(dev.flash().programmed_count(old), 0, "the old data block is erased");
    assert_eq!(dev.flash().programmed_count(lb.block), 2, "the log block is not");
    assert_eq!(full_merge(&mut map, &mut dev, 1, lb.block, true, why).unwrap(), 1);
    assert_eq!(dev.flash().programmed_count(lb.block), 0, "erased with its last logical block");
    assert_eq!(seed004::merges(&mut dev), [(MergeKind::Full, MergeCause::Shared, 2, 2); 2]);
    assert_eq!(map.read(&mut dev, 1).unwrap(), Some(crate::flash::PageTag::data(1, 2)));
    assert_eq!(map.read(&mut dev, 4).unwrap(), Some(crate::flash::PageTag::data(4, 2)));
}
