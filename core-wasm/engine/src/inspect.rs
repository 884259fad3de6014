//! RAM inspection: a scheme's RAM structures described as a few generic shapes (an ordered
//! list, a table, a tree, ranges) plus how its RAM budget is split, so a view can draw any
//! scheme's caches without knowing the scheme. Read-only: inspecting never changes the
//! state (or its hash).
//!
//! Large structures are summarised: the first [`InspectQuery::limit`] entries in order plus
//! every entry the current request touched (`touched: true`); `len` is the full size and
//! `truncated` says whether anything was left out.

use serde::{Deserialize, Serialize};

/// What a view asks: the one typed question that travels from a view to the scheme. The app
/// sends it as JSON and the facade deserializes it once ([`InspectQuery::from_json`]); the
/// simulation adds [`InspectQuery::touched`]. A new question is a field here plus the answer
/// of the schemes that understand it (the others ignore it).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct InspectQuery {
    /// Entries shown in order before the summary cuts off.
    pub limit: usize,
    /// Logical pages of the current request (shown even past `limit`); set by the simulation.
    #[serde(skip)]
    pub touched: Vec<u32>,
    /// A node id of a tree shape the viewer zoomed into (an id the scheme gave out): the
    /// scheme shows that node's part of the tree in full (or in windows, when still large).
    /// Shapes without such nodes ignore it.
    pub focus: Option<String>,
    /// A physical block the viewer points at: the answer's [`Inspection::block`] says what it
    /// does for the logical block owning it and that block's GC state (set by the simulation
    /// from [`crate::ftl::Ftl::block_duty`]; a block past the device is ignored).
    pub block: Option<u32>,
    /// Rows a tree view has room for: a tree that shows groups one by one before banding the
    /// colder rest (TreeFTL) shows up to this many (at most [`InspectQuery::MAX_ROWS`]);
    /// `None` keeps the scheme's own window. Shapes without such rows ignore it.
    pub rows: Option<usize>,
}

impl Default for InspectQuery {
    fn default() -> Self {
        Self { limit: Self::DEFAULT_LIMIT, touched: Vec::new(), focus: None, block: None, rows: None }
    }
}

impl InspectQuery {
    /// Entries shown in order by default.
    pub const DEFAULT_LIMIT: usize = 64;

    /// The most rows a view may ask for one by one (a redraw's cost grows with them).
    pub const MAX_ROWS: usize = 96;

    /// The default question with at most `limit` entries in order.
    pub fn with_limit(limit: usize) -> Self {
        Self { limit, ..Self::default() }
    }

    /// A view's question from its JSON (`{}` is the default question); unknown fields are
    /// refused by name, so a question the engine does not know yet fails loudly.
    pub fn from_json(json: &str) -> Result<Self, String> {
        serde_json::from_str(json).map_err(|e| format!("inspection query {json}: {e}"))
    }

    /// The zoom focus, if any.
    pub fn focus(&self) -> Option<&str> {
        self.focus.as_deref()
    }

    /// Whether logical page `lpn` belongs to the current request.
    pub fn touches(&self, lpn: u32) -> bool {
        self.touched.contains(&lpn)
    }
}

/// A scheme's RAM, described.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Inspection {
    /// The configured RAM budget in bytes.
    pub ram_budget: u64,
    /// Bytes the scheme's structures occupy now.
    pub ram_used: u64,
    /// How the RAM is split now, by structure.
    pub budgets: Vec<Budget>,
    /// The structures.
    pub structures: Vec<Structure>,
    /// What the block the viewer points at does (asked with [`InspectQuery::block`]), when the
    /// scheme says ([`crate::ftl::Ftl::block_duty`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub block: Option<BlockDuty>,
}

/// What one physical block does for the logical block owning it, in the scheme's words
/// (primary / replacement / buffer, data / log, a list position, a GC queue place), and the
/// collection that logical block is in, for the schemes that collect per logical block.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BlockDuty {
    /// The physical block.
    pub block: u32,
    /// The logical block it serves, when one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lbn: Option<u32>,
    /// Its role for that logical block ("primary", "replacement", "buffer", "data", "log",
    /// "block 2 of 3 in the list", …).
    pub role: String,
    /// The logical block's garbage-collection state in words ("idle", "collecting the
    /// primary: step 2 of 3", …); `None` for schemes without one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gc: Option<String>,
}

/// Bytes one structure occupies.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Budget {
    /// Structure name.
    pub name: String,
    /// Bytes.
    pub bytes: u64,
}

/// Order of a list's entries (first = most recent / most frequent / top level).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Order {
    /// Least recently used last.
    Lru,
    /// Least frequently used last.
    Lfu,
    /// Oldest last.
    Fifo,
    /// By level.
    Level,
}

/// One shape.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "shape", rename_all = "snake_case")]
pub enum Structure {
    /// An ordered cache (entries in `order`, first = most recent).
    List {
        /// Stable id.
        id: String,
        /// Display name (the scheme's vocabulary: "CMT").
        name: String,
        /// Cache level id (see `vocab::CACHE_LEVELS`).
        level: String,
        /// Most entries it may hold.
        capacity: u64,
        /// Entries it holds.
        len: u64,
        /// Entry order.
        order: Order,
        /// Entries shown, in order.
        entries: Vec<Entry>,
        /// Whether entries were left out.
        truncated: bool,
    },
    /// A key → value table (a page map, a GTD).
    Table {
        /// Stable id.
        id: String,
        /// Display name.
        name: String,
        /// Rows in the whole table.
        len: u64,
        /// Rows shown, by key.
        rows: Vec<Row>,
        /// Whether rows were left out.
        truncated: bool,
    },
    /// A tree (root → nodes → leaves).
    Tree {
        /// Stable id.
        id: String,
        /// Display name.
        name: String,
        /// The root.
        root: Node,
        /// Order of the root's children (first = most recent …), when they have one: a view
        /// ranks them and marks the next victim.
        #[serde(skip_serializing_if = "Option::is_none")]
        order: Option<Order>,
        /// Whether nodes were left out.
        truncated: bool,
    },
    /// Key ranges with a filter (index entries with min / max).
    Ranges {
        /// Stable id.
        id: String,
        /// Display name.
        name: String,
        /// Ranges in all.
        len: u64,
        /// Ranges shown.
        ranges: Vec<Range>,
        /// Whether ranges were left out.
        truncated: bool,
    },
}

/// A list entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Entry {
    /// Key (LPN, translation-page number …).
    pub key: u32,
    /// Value (PPN), `None` when unmapped.
    pub value: Option<u32>,
    /// Differs from flash; must be written back on eviction.
    pub dirty: bool,
    /// Group (e.g. translation page) when the scheme groups entries.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub group: Option<u32>,
    /// Touched by the current request.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub touched: bool,
}

/// A table row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Row {
    /// Key.
    pub key: u32,
    /// Value (a PPN), `None` when unmapped or held only in RAM.
    pub value: Option<u32>,
    /// Whether the row's content is in RAM.
    pub in_ram: bool,
}

/// A tree node.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Node {
    /// Stable id.
    pub id: String,
    /// Label.
    pub label: String,
    /// Node kind (scheme vocabulary).
    pub kind: String,
    /// Differs from flash.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dirty: Option<bool>,
    /// Children shown.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub children: Option<Vec<Node>>,
    /// Children in all, when not all are shown.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub count: Option<u64>,
}

/// An index range.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Range {
    /// Range id.
    pub id: u32,
    /// Smallest key.
    pub min: u32,
    /// Largest key.
    pub max: u32,
    /// Where it lives.
    pub ppn: u32,
    /// The filter in front of it, if any (e.g. a bloom filter summary).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub filter: Option<String>,
}

/// The first `limit` items of `items` (in order) plus any later ones `keep` selects:
/// the summarising rule every shape follows. Returns the kept items and whether any were
/// left out.
pub fn summarise<T>(
    items: impl Iterator<Item = T>,
    limit: usize,
    keep: impl Fn(&T) -> bool,
) -> (Vec<T>, bool) {
    let mut out = Vec::new();
    let mut truncated = false;
    for (i, item) in items.enumerate() {
        if i < limit || keep(&item) {
            out.push(item);
        } else {
            truncated = true;
        }
    }
    (out, truncated)
}

/// Keys `0..len` summarised: the first `limit` plus the `extra` keys (sorted, once each);
/// and whether any were left out. For tables indexed by key, without visiting every row.
pub fn indexed_keys(len: usize, limit: usize, extra: impl Iterator<Item = u32>) -> (Vec<u32>, bool) {
    let mut keys: Vec<u32> = (0..len.min(limit) as u32).collect();
    let mut more: Vec<u32> = extra.filter(|&k| (k as usize) < len && k as usize >= limit).collect();
    more.sort_unstable();
    more.dedup();
    keys.extend(more);
    let truncated = keys.len() < len;
    (keys, truncated)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_query_is_read_once_from_json_and_refuses_what_it_does_not_know() {
        assert_eq!(InspectQuery::from_json("{}").unwrap(), InspectQuery::default());
        let q = InspectQuery::from_json(r#"{"limit":5,"focus":"ctp-3"}"#).unwrap();
        assert_eq!((q.limit, q.focus()), (5, Some("ctp-3")));
        // `touched` comes from the simulation, never from the view.
        assert!(InspectQuery::from_json(r#"{"touched":[1]}"#).unwrap_err().contains("touched"));
        assert!(InspectQuery::from_json(r#"{"zoom":"x"}"#).unwrap_err().contains("zoom"));
    }

    #[test]
    fn summarise_keeps_the_first_n_and_the_touched() {
        let (kept, cut) = summarise(0..10u32, 3, |&x| x == 8);
        assert_eq!((kept, cut), (vec![0, 1, 2, 8], true));
        let (kept, cut) = summarise(0..3u32, 3, |_| false);
        assert_eq!((kept.len(), cut), (3, false));
    }

    #[test]
    fn indexed_keys_adds_the_extra_keys_in_range_once() {
        assert_eq!(indexed_keys(10, 2, [7, 1, 7, 42].into_iter()), (vec![0, 1, 7], true));
        assert_eq!(indexed_keys(2, 5, std::iter::empty()), (vec![0, 1], false));
    }

    #[test]
    fn shapes_serialise_as_the_facade_contract_says() {
        let s = Structure::List {
            id: "cmt".into(),
            name: "CMT".into(),
            level: "entry".into(),
            capacity: 2,
            len: 1,
            order: Order::Lru,
            entries: vec![Entry { key: 5, value: None, dirty: true, group: Some(0), touched: true }],
            truncated: false,
        };
        let v = serde_json::to_value(&s).unwrap();
        assert_eq!(v["shape"], "list");
        assert_eq!(v["order"], "lru");
        assert_eq!(
            v["entries"][0],
            serde_json::json!({"key": 5, "value": null, "dirty": true, "group": 0, "touched": true})
        );
    }
}
