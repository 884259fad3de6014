//! How the log-block schemes (`bast`, `sbast`, `fast`, `fast-do`, `nftl`) show their log
//! blocks: the block map with the association of each log block to the logical and data
//! blocks it serves, and each scheme's lists of log blocks.

use super::LogBlock;
use crate::ftl::blockmap::BlockMap;
use crate::inspect::{Budget, Entry, InspectQuery, Order, Row, Structure};
use crate::vocab::cache_level_id;

/// Log blocks as a list in `order` (first = most recent), each with the logical blocks it
/// holds pages of (the first as the entry's value, the degree as its group).
pub fn log_list(
    id: &str,
    name: &str,
    order: Order,
    capacity: usize,
    logs: &[&LogBlock],
    map: &BlockMap,
    query: &InspectQuery,
) -> Structure {
    let ppb = map.ppb();
    let entries: Vec<Entry> = logs
        .iter()
        .take(query.limit.max(1))
        .map(|l| {
            let lbns = l.lbns(ppb);
            Entry {
                key: l.block,
                value: lbns.first().copied(),
                dirty: false,
                group: Some(lbns.len() as u32),
                touched: l.lpns.iter().any(|&p| query.touches(p)),
            }
        })
        .collect();
    Structure::List {
        id: id.into(),
        name: name.into(),
        level: cache_level_id(crate::events::CacheLevel::BlockMap),
        capacity: capacity as u64,
        len: logs.len() as u64,
        order,
        truncated: entries.len() < logs.len(),
        entries,
    }
}

/// What every log-block scheme shows of its mapping, whatever its log blocks: the block map
/// (LBN → data block), then which logical blocks and which data blocks each of `logs`
/// serves.
pub fn map_structures(map: &BlockMap, logs: &[&LogBlock], query: &InspectQuery) -> Vec<Structure> {
    let keep = query.limit.max(1);
    vec![
        map.block_table(query),
        association(
            ("log-association", "Log block → data block (LBN) it holds pages of"),
            logs,
            map.ppb(),
            keep,
            Some,
        ),
        // The same in physical blocks, for the block grid (`None` when that logical block has
        // no data block yet): the grid shows which data blocks a log block serves
        // without knowing the block map. Every pair, not a summary: the grid outlines them
        // (a log block holds at most P pages).
        association(
            ("log-data-blocks", "Log block → data block it serves"),
            logs,
            map.ppb(),
            keep * map.ppb() as usize,
            |lbn| map.data_block(lbn),
        ),
    ]
}

/// The RAM of a scheme that keeps a log-page table: the block map with that table, and
/// (the rest of `ram_used`) its lists of log blocks, called `lists`.
pub fn budgets(map: &BlockMap, ram_used: u64, lists: &str) -> Vec<Budget> {
    let table_bytes = map.ram_bytes();
    vec![
        Budget { name: "Block map and log-page table".into(), bytes: table_bytes },
        Budget { name: lists.into(), bytes: ram_used - table_bytes },
    ]
}

/// A table of one row per (log block, logical block it holds pages of), the row's value
/// `value(lbn)`; the first `keep` rows.
fn association(
    (id, name): (&str, &str),
    logs: &[&LogBlock],
    ppb: u32,
    keep: usize,
    value: impl Fn(u32) -> Option<u32>,
) -> Structure {
    let mut rows: Vec<Row> = logs
        .iter()
        .flat_map(|l| {
            l.lbns(ppb).into_iter().map(|lbn| Row { key: l.block, value: value(lbn), in_ram: true })
        })
        .collect();
    let len = rows.len() as u64;
    let truncated = rows.len() > keep;
    rows.truncate(keep);
    Structure::Table { id: id.into(), name: name.into(), len, rows, truncated }
}
