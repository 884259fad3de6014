//! JTL's RAM as the generic inspection shapes: the **levels** as a tree (one node per level,
//! top level first, its entries below it; group 0 entries carry their data page), the two
//! halves as budgets, and the GTD.

use super::levels::{Levels, Slot};
use super::scheme::Jtl;
use crate::ftl::demand::{gtd_table, ram_budgets, UNMAPPED};
use crate::inspect::{summarise, InspectQuery, Inspection, Node, Order, Structure};

fn entry_node(s: &Slot) -> Node {
    let label = match (s.data(), s.ppn) {
        (Some(d), _) if d.dirty => format!("LPN {} → data in RAM (v{}, written)", s.lpn, d.version),
        (Some(d), p) => format!("LPN {} → PPN {p} (v{} cached)", s.lpn, d.version),
        (None, UNMAPPED) => format!("LPN {} → unmapped", s.lpn),
        (None, p) => format!("LPN {} → PPN {p}", s.lpn),
    };
    Node {
        id: format!("entry-{}", s.lpn),
        label,
        kind: if s.data().is_some() { "cdp".into() } else { "entry".into() },
        dirty: Some(s.dirty),
        children: None,
        count: None,
    }
}

impl Jtl {
    fn level_node(&self, n: usize, q: &InspectQuery) -> Node {
        let level = self.levels.level(n);
        let (shown, _) = summarise(level.iter(), q.limit, |s| q.touches(s.lpn));
        let group = if n < self.levels.group0() { "group 0, data in RAM" } else { "group 1, data on flash" };
        Node {
            id: format!("level-{n}"),
            label: format!("Level {n} ({group}): {} of {}", level.len(), Levels::capacity(n)),
            kind: "level".into(),
            dirty: None,
            children: Some(shown.into_iter().map(entry_node).collect()),
            count: Some(level.len() as u64),
        }
    }

    /// The levels, the GTD and the two halves.
    pub(super) fn inspection(&self, q: &InspectQuery) -> Inspection {
        let (map, buf) = self.used();
        let (map_half, buf_half) = self.halves;
        // Every level down to the deepest one in use (empty levels below it say nothing).
        let deepest = (0..self.levels.depth()).rev().find(|&n| !self.levels.level(n).is_empty());
        let shown = deepest.map_or(1, |n| n + 1);
        let root = Node {
            id: "levels".into(),
            label: format!(
                "Levels 0–{} (group 0: levels 0–{}; {} entries, {} data pages)",
                self.levels.depth() - 1,
                self.levels.group0() - 1,
                self.levels.len(),
                self.cached_pages
            ),
            kind: "levels".into(),
            dirty: None,
            children: Some((0..shown).map(|n| self.level_node(n, q)).collect()),
            count: Some(self.levels.depth() as u64),
        };
        let truncated = (0..shown).any(|n| self.levels.level(n).len() > q.limit);
        let (ram_used, budgets) =
            ram_budgets(&self.core, &[("Mapping half", map, map_half), ("Data half", buf, buf_half)]);
        Inspection {
            ram_used,
            budgets,
            structures: vec![
                Structure::Tree {
                    id: "levels".into(),
                    name: "Multi-level entries".into(),
                    root,
                    order: Some(Order::Level),
                    truncated,
                },
                gtd_table(&self.core, q, |_| false),
            ],
            ..Inspection::default()
        }
    }
}
