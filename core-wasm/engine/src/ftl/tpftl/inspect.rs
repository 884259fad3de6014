//! TPFTL's RAM as the generic inspection shapes: the cached entries as one list grouped by
//! TP node (hottest node first, each node's entries most recent first), the nodes as a tree,
//! the GTD as a table.

use super::{Tpftl, ENTRY_BYTES, NODE_BYTES};
use crate::events::CacheLevel;
use crate::ftl::demand::{entry_list, gtd_table, touches_tpage};
use crate::inspect::{summarise, Budget, InspectQuery, Inspection, Node, Order, Structure};

impl Tpftl {
    pub(super) fn inspection(&self, q: &InspectQuery) -> Inspection {
        let gtd_bytes = self.core.gtd_bytes();
        // The order's filed keys may lag behind (hits do not re-file): sort by current hotness.
        let mut by_hotness: Vec<(u128, u32)> = self.nodes.iter().map(|(t, n)| (n.hotness(), t)).collect();
        by_hotness.sort_unstable();
        let hottest_first = || by_hotness.iter().rev().map(|&(_, t)| (t, &self.nodes[&t]));
        let entries = hottest_first().flat_map(|(_, n)| n.entries.iter().map(|(l, e)| (l, e.ppn, e.dirty)));
        let len: usize = self.nodes.values().map(|n| n.entries.len()).sum();
        let capacity = self.capacity.saturating_sub(NODE_BYTES) / ENTRY_BYTES;
        let touched = |t: u32| touches_tpage(&self.core, q, t);
        let (shown, truncated) = summarise(hottest_first(), q.limit, |&(t, _)| touched(t));
        let children = shown
            .into_iter()
            .map(|(t, n)| Node {
                id: format!("tp{t}"),
                label: format!("TP node {t}: {} entries", n.entries.len()),
                kind: "tp_node".into(),
                dirty: Some(n.entries.dirty_count() > 0),
                children: None,
                count: Some(n.entries.len() as u64),
            })
            .collect();
        let headers = self.nodes.len() as u64 * NODE_BYTES;
        Inspection {
            ram_used: gtd_bytes + self.used,
            budgets: vec![
                Budget { name: "GTD".into(), bytes: gtd_bytes },
                Budget { name: "TP node headers".into(), bytes: headers },
                Budget { name: "Entry nodes".into(), bytes: self.used - headers },
                Budget { name: "Cache (free)".into(), bytes: self.capacity - self.used },
            ],
            structures: vec![
                entry_list(
                    &self.core,
                    q,
                    ("entries", "Cached entries by TP node (hottest node first)"),
                    CacheLevel::Entry,
                    Order::Lru,
                    (capacity, len as u64),
                    entries,
                ),
                Structure::Tree {
                    id: "tp_nodes".into(),
                    name: "TP nodes by page-level hotness".into(),
                    root: Node {
                        id: "root".into(),
                        label: format!("{} TP nodes", self.nodes.len()),
                        kind: "root".into(),
                        dirty: None,
                        children: Some(children),
                        count: Some(self.nodes.len() as u64),
                    },
                    order: Some(Order::Lru),
                    truncated,
                },
                gtd_table(&self.core, q, |_| false),
            ],
            ..Inspection::default()
        }
    }
}
