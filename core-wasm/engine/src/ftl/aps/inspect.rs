//! APS's RAM as the generic inspection shapes: the two partitions as LRU lists with their
//! budgets (the split as it stands), the two ghosts as lists, and the GTD.

use super::Aps;
use crate::events::CacheLevel;
use crate::ftl::demand::{entry_list, gtd_table, ram_budgets, ENTRY_BYTES};
use crate::inspect::{summarise, Entry, InspectQuery, Inspection, Order, Structure};
use crate::vocab::cache_level_id;

impl Aps {
    fn key_list(
        &self,
        q: &InspectQuery,
        (id, name): (&str, &str),
        level: CacheLevel,
        cap: usize,
        keys: Vec<(u32, Option<u32>, bool)>,
    ) -> Structure {
        let len = keys.len() as u64;
        let (shown, truncated) = summarise(keys.into_iter(), q.limit, |&(k, _, _)| q.touches(k));
        let entries = shown
            .into_iter()
            .map(|(key, value, dirty)| Entry { key, value, dirty, group: None, touched: q.touches(key) })
            .collect();
        Structure::List {
            id: id.into(),
            name: name.into(),
            level: cache_level_id(level),
            capacity: cap as u64,
            len,
            order: Order::Lru,
            entries,
            truncated,
        }
    }

    /// Partitions, ghosts, GTD, and the split.
    pub(super) fn inspection(&self, q: &InspectQuery) -> Inspection {
        let (map, buf) = self.partitions();
        let map_used = self.cmt.len() as u64 * ENTRY_BYTES;
        let buf_used = self.buf.len() as u64 * self.page_bytes;
        let pages = self.buf.iter().map(|(&l, b)| (l, Some(b.version), b.dirty)).collect();
        let partitions = [("Mapping partition", map_used, map), ("Data buffer", buf_used, buf)];
        let (ram_used, budgets) = ram_budgets(&self.core, &partitions);
        Inspection {
            ram_used,
            budgets,
            structures: vec![
                entry_list(
                    &self.core,
                    q,
                    ("mapping", "Mapping partition (entries)"),
                    CacheLevel::Entry,
                    Order::Lru,
                    (self.cmt.capacity() as u64, self.cmt.len() as u64),
                    self.cmt.iter().map(|(&l, e)| (l, e.ppn(), e.dirty())),
                ),
                self.key_list(
                    q,
                    ("buffer", "Data buffer (page → version)"),
                    CacheLevel::DataPage,
                    self.buf.capacity(),
                    pages,
                ),
                self.key_list(
                    q,
                    ("map-ghost", "Mapping ghost"),
                    CacheLevel::Ghost,
                    self.map_ghost.capacity(),
                    ghost_keys(self.map_ghost.iter()),
                ),
                self.key_list(
                    q,
                    ("data-ghost", "Data ghost"),
                    CacheLevel::Ghost,
                    self.buf.ghost_capacity(),
                    ghost_keys(self.buf.ghost_iter()),
                ),
                gtd_table(&self.core, q, |_| false),
            ],
            ..Inspection::default()
        }
    }
}

/// A ghost's keys as list entries: no value, never dirty.
fn ghost_keys<'a>(keys: impl Iterator<Item = &'a u32>) -> Vec<(u32, Option<u32>, bool)> {
    keys.map(|&k| (k, None, false)).collect()
}
