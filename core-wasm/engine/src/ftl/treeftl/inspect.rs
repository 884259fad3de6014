//! TreeFTL's RAM as the generic inspection shapes: the **tree** (GTD → CTPs → CDPs, one
//! CTP and its CDPs per caching group, groups in LRU order, most recent first, dirty nodes
//! marked), the GTD as a table, and the implicit split between mapping and buffering.
//!
//! A 64 MB cache holds tens of thousands of nodes, so the tree is summarised in windows of
//! LRU ranks: the first [`WINDOW`] groups of a window (each with its first `limit` CDPs,
//! plus those the request touched) and the colder rest as at most [`BANDS`] **band** nodes
//! (kind `cold`, id `cold-<from>-<to>`: the groups of LRU ranks `from..to`, with their
//! counts). A viewer zooms by passing a node id back as [`InspectQuery::focus`]: a band id
//! shows that window of ranks the same way, a group id (`ctp-<t>`) that group with every
//! CDP. Band ids are rank windows, so they stay meaningful as the tree changes.

use super::tree::{Group, TreeFtl};
use super::Victims;
use crate::ftl::demand::{gtd_table, touches_tpage};
use crate::inspect::{summarise, Budget, InspectQuery, Inspection, Node, Order, Structure};

/// Bands the colder groups of a window are summarised into.
pub(super) const BANDS: usize = 8;
/// Groups a window shows one by one (at most the query's limit): the top of the LRU order
/// is where a request acts, and a tree view redrawn twice a second at full speed replaces
/// most of them each time, so fewer rows keep its redraws cheap; the rest are a click away.
pub(super) const WINDOW: usize = 16;

/// What the tree shows (parsed from [`InspectQuery::focus`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Focus {
    /// The groups of LRU ranks `from..to` (the whole tree: `0..len`).
    Window(usize, usize),
    /// One group, every CDP.
    Group(u32),
}

fn parse_focus(focus: Option<&str>, len: usize) -> Focus {
    let whole = Focus::Window(0, len);
    let Some(f) = focus else { return whole };
    if let Some(t) = f.strip_prefix("ctp-").and_then(|t| t.parse().ok()) {
        return Focus::Group(t);
    }
    let window = f.strip_prefix("cold-").and_then(|r| r.split_once('-'));
    match window.map(|(a, b)| (a.parse::<usize>(), b.parse::<usize>())) {
        Some((Ok(a), Ok(b))) if a < b => Focus::Window(a.min(len), b.min(len)),
        _ => whole,
    }
}

impl TreeFtl {
    fn group_node(&self, t: u32, g: &Group, q: &InspectQuery, cdp_limit: usize) -> Node {
        let lpns = self.core.lpns_of(t);
        let (cdps, _) = summarise(g.cdps.iter(), cdp_limit, |(lpn, _)| q.touches(**lpn));
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

    /// The groups of LRU ranks `from..to` not shown one by one, as one node.
    fn band_node(from: usize, to: usize, groups: &[(u32, &Group)]) -> Node {
        let cdps: usize = groups.iter().map(|(_, g)| g.cdps.len()).sum();
        let s = |n: usize| if n == 1 { "" } else { "s" };
        let (n, c) = (groups.len(), cdps);
        Node {
            id: format!("cold-{from}-{to}"),
            label: format!("{n} colder group{} (LRU ranks {}–{to}), {c} CDP{}", s(n), from + 1, s(c)),
            kind: "cold".into(),
            dirty: Some(groups.iter().any(|(_, g)| g.dirty)),
            children: None,
            count: Some(n as u64),
        }
    }

    /// Nodes of the groups of LRU ranks `from..to`: the first `limit` (and the touched)
    /// one by one, the rest in bands; and whether anything was left out.
    fn window(&self, from: usize, to: usize, q: &InspectQuery) -> (Vec<Node>, bool) {
        let shown = q.limit.min(q.rows.map_or(WINDOW, |r| r.min(InspectQuery::MAX_ROWS)));
        let touched = |t: u32| touches_tpage(&self.core, q, t);
        let ranked = self.groups.iter().enumerate().skip(from).take(to - from);
        let mut nodes = Vec::new();
        let mut rest: Vec<(usize, u32, &Group)> = Vec::new();
        for (rank, (&t, g)) in ranked {
            if rank < from + shown || touched(t) {
                nodes.push(self.group_node(t, g, q, q.limit));
            } else {
                rest.push((rank, t, g));
            }
        }
        let cold_from = (from + shown).min(to);
        let band = (to - cold_from).div_ceil(BANDS).max(shown.max(1));
        let mut start = cold_from;
        while start < to {
            let end = (start + band).min(to);
            let members: Vec<(u32, &Group)> =
                rest.iter().filter(|(r, ..)| (start..end).contains(r)).map(|&(_, t, g)| (t, g)).collect();
            if !members.is_empty() {
                nodes.push(Self::band_node(start, end, &members));
            }
            start = end;
        }
        (nodes, !rest.is_empty())
    }

    /// Group `t` alone, every CDP, its rank in the label (no children when not cached).
    fn focused_group(&self, t: u32, q: &InspectQuery) -> Vec<Node> {
        let Some(rank) = self.groups.iter().position(|(&k, _)| k == t) else { return Vec::new() };
        let g = self.groups.peek(&t).expect("found by position");
        let mut node = self.group_node(t, g, q, usize::MAX);
        node.label = format!("{} · LRU rank {} of {}", node.label, rank + 1, self.groups.len());
        vec![node]
    }

    /// The tree, the GTD and the RAM split.
    pub(super) fn inspection(&self, q: &InspectQuery) -> Inspection {
        let (ctps, cdps) = self.counts();
        let page = self.page_bytes;
        let gtd_bytes = self.core.gtd_bytes();
        let (children, truncated) = match parse_focus(q.focus(), self.groups.len()) {
            Focus::Window(from, to) => self.window(from, to, q),
            Focus::Group(t) => (self.focused_group(t, q), ctps > 1),
        };
        let order = match self.victims {
            Victims::Group => "caching groups, least recently used last",
            Victims::Page => "caching groups (victims are chosen per page)",
        };
        let root = Node {
            id: "gtd".into(),
            label: format!("GTD ({} translation pages; {order})", self.core.gtd.len()),
            kind: "gtd".into(),
            dirty: None,
            children: Some(children),
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
                    id: "tree".into(),
                    name: "GTD → CTP → CDP tree".into(),
                    root,
                    order: Some(Order::Lru),
                    truncated,
                },
                gtd_table(&self.core, q, |t| self.groups.contains(&t)),
            ],
            ..Inspection::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn focus_ids_parse_to_windows_and_groups() {
        assert_eq!(parse_focus(None, 10), Focus::Window(0, 10));
        assert_eq!(parse_focus(Some("ctp-7"), 10), Focus::Group(7));
        assert_eq!(parse_focus(Some("cold-4-8"), 10), Focus::Window(4, 8));
        // A window past the end (the tree shrank since) is clamped; nonsense shows all.
        assert_eq!(parse_focus(Some("cold-4-80"), 6), Focus::Window(4, 6));
        assert_eq!(parse_focus(Some("cold-8-4"), 10), Focus::Window(0, 10));
        assert_eq!(parse_focus(Some("gtd"), 10), Focus::Window(0, 10));
    }

    fn tree(ftl: &TreeFtl, focus: Option<&str>) -> (Node, bool) {
        let q = InspectQuery { limit: 4, focus: focus.map(str::to_string), ..InspectQuery::default() };
        match ftl.inspection(&q).structures.into_iter().next() {
            Some(Structure::Tree { root, truncated, .. }) => (root, truncated),
            other => panic!("expected the tree first, got {other:?}"),
        }
    }

    fn ids(n: &Node) -> Vec<&str> {
        n.children.iter().flatten().map(|c| c.id.as_str()).collect()
    }

    /// 24 groups (one CTP each, read in order 0..23, so group 23 is the most recent), then
    /// three CDPs in group 0 (now the most recent). With 4 shown per window, the 20 colder
    /// groups fall into bands of 4 ranks; zooming into a band shows its groups, zooming
    /// into a group shows every CDP.
    #[test]
    fn cold_groups_are_banded_and_any_band_or_group_zooms_in() {
        let mut r = super::super::tests::rig(30, Victims::Group, Default::default());
        for t in 0..24 {
            r.read(t * 8);
        }
        r.write(&[1]);
        r.write(&[2]);
        r.write(&[3]);
        let (root, truncated) = tree(&r.ftl, None);
        assert!(truncated);
        assert_eq!(root.count, Some(24));
        let shown = ids(&root);
        assert_eq!(shown[..4], ["ctp-0", "ctp-23", "ctp-22", "ctp-21"]);
        assert_eq!(shown[4..], ["cold-4-8", "cold-8-12", "cold-12-16", "cold-16-20", "cold-20-24"]);
        let band = &root.children.as_ref().unwrap()[4];
        assert_eq!((band.kind.as_str(), band.count), ("cold", Some(4)));
        assert_eq!(band.label, "4 colder groups (LRU ranks 5–8), 0 CDPs");
        let g0 = &root.children.as_ref().unwrap()[0];
        assert_eq!((g0.count, g0.dirty, ids(g0)), (Some(3), Some(true), vec!["cdp-1", "cdp-2", "cdp-3"]));

        let (zoomed, _) = tree(&r.ftl, Some("cold-4-8"));
        assert_eq!(ids(&zoomed), ["ctp-20", "ctp-19", "ctp-18", "ctp-17"]);
        let (group, _) = tree(&r.ftl, Some("ctp-0"));
        let g = &group.children.as_ref().unwrap()[0];
        assert!(g.label.ends_with("LRU rank 1 of 24"), "{}", g.label);
        assert_eq!(g.children.as_ref().unwrap().len(), 3);
        // With the default limit, a window shows WINDOW groups and bands the rest.
        let q = InspectQuery::default();
        let Some(Structure::Tree { root: wide, .. }) = r.ftl.inspection(&q).structures.into_iter().next()
        else {
            panic!("no tree")
        };
        let kids = wide.children.unwrap();
        assert_eq!(kids.iter().filter(|c| c.kind == "ctp").count(), WINDOW);
        assert_eq!(
            kids.iter().filter(|c| c.kind == "cold").map(|c| c.count.unwrap()).sum::<u64>(),
            24 - WINDOW as u64
        );
        // A view with room for more rows gets more groups one by one (never past MAX_ROWS).
        let roomy = InspectQuery { rows: Some(20), ..InspectQuery::default() };
        let Some(Structure::Tree { root: tall, .. }) = r.ftl.inspection(&roomy).structures.into_iter().next()
        else {
            panic!("a tree")
        };
        assert_eq!(tall.children.unwrap().iter().filter(|c| c.kind == "ctp").count(), 20);
        // A group not in RAM: an empty tree under the root, nothing invented.
        let (gone, _) = tree(&r.ftl, Some("ctp-99"));
        assert!(ids(&gone).is_empty());
    }
}
