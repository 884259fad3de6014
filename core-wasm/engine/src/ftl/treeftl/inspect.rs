//! TreeFTL's RAM as the generic inspection shapes: the **tree** (GTD → CTPs → CDPs, one
//! CTP and its CDPs per caching group, groups in LRU order, most recent first, dirty nodes
//! marked), the GTD as a table, and the implicit split between mapping and buffering.

use super::tree::{Group, TreeFtl};
use super::Victims;
use crate::ftl::demand::gtd_table;
use crate::inspect::{summarise, Budget, InspectQuery, Inspection, Node, Structure};

impl TreeFtl {
    fn group_node(&self, t: u32, g: &Group, q: &InspectQuery) -> Node {
        let lpns = self.core.lpns_of(t);
        let (cdps, _) = summarise(g.cdps.iter(), q.limit, |(lpn, _)| q.touches(**lpn));
        let children = cdps
            .into_iter()
            .map(|(&lpn, &v)| Node {
                id: format!("cdp-{lpn}"),
                label: format!("LPN {lpn} (v{v})"),
                kind: "cdp".into(),
                dirty: Some(true),
                children: None,
                count: None,
            })
            .collect();
        Node {
            id: format!("ctp-{t}"),
            label: format!("CTP {t} (LPN {}–{}, {} CDPs)", lpns.start, lpns.end - 1, g.cdps.len()),
            kind: "ctp".into(),
            dirty: Some(g.dirty),
            children: Some(children),
            count: Some(g.cdps.len() as u64),
        }
    }

    /// The tree, the GTD and the RAM split.
    pub(super) fn inspection(&self, q: &InspectQuery) -> Inspection {
        let (ctps, cdps) = self.counts();
        let page = self.page_bytes;
        let gtd_bytes = self.core.gtd_bytes();
        let touched = |t: u32| q.touched.iter().any(|&lpn| self.core.tpage_of(lpn) == t);
        let (groups, truncated) = summarise(self.groups.iter(), q.limit, |(t, _)| touched(**t));
        let order = match self.victims {
            Victims::Group => "caching groups, least recently used last",
            Victims::Page => "caching groups (victims are chosen per page)",
        };
        let root = Node {
            id: "gtd".into(),
            label: format!("GTD ({} translation pages; {order})", self.core.gtd.len()),
            kind: "gtd".into(),
            dirty: None,
            children: Some(groups.into_iter().map(|(&t, g)| self.group_node(t, g, q)).collect()),
            count: Some(ctps as u64),
        };
        Inspection {
            ram_used: gtd_bytes + self.used,
            budgets: vec![
                Budget { name: "GTD".into(), bytes: gtd_bytes },
                Budget { name: "CTPs (mapping)".into(), bytes: ctps as u64 * self.ctp_bytes },
                Budget { name: "CDPs (buffering)".into(), bytes: cdps as u64 * page },
                Budget { name: "Free".into(), bytes: self.capacity() - self.used },
            ],
            structures: vec![
                Structure::Tree {
                    id: "tree".into(), name: "GTD → CTP → CDP tree".into(), root, truncated
                },
                gtd_table(&self.core, q, |t| self.groups.contains(&t)),
            ],
            ..Inspection::default()
        }
    }
}
