//! `tpftl`: TPFTL (Zhou, Wu, Xie, Jiang, Feng, "An efficient page-level FTL to optimize
//! address translation in flash memory", EuroSys'15), the baseline HCFTL (seed 001 §II, §IV)
//! is measured against.
//!
//! Cached entries are clustered by translation page into **TP nodes** (a node per cached
//! translation page, holding only the cached entries of that page). Two-level LRU: entries
//! within a node are LRU; nodes are ordered by **page-level hotness**, the average hotness
//! (last-access time) of their entries. Replacement takes the coldest node's LRU entry,
//! clean first; when it must evict a dirty entry, every dirty entry of that node's
//! translation page is written back in one translation-page update (**batch-update
//! replacement**), leaving the node clean. Loading: **request-level prefetching** loads, on
//! a miss, the entries of the rest of the request too (one read per translation page), and
//! **selective prefetching** loads the rest of the missed entry's translation page when the
//! number of TP nodes has been falling (sequential access). The notes below give the trigger
//! and the other choices.
//!
#![doc = concat!(include_str!("notes.md"), "\n", include_str!("../demand/many_units.md"))]

use std::collections::BTreeSet;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::demand::{self, rewrite_tpage, DemandCore, DemandScheme, TpCause};
use super::{BuildCtx, Ftl, OpenBlocks, OptionsSpec, SchemeInfo, SchemeSpec};
use crate::device::Device;
use crate::error::{EngineError, Result};
use crate::events::{CacheLevel, Purpose};
use crate::flash::Ppn;
use crate::hash::StateHasher;
use crate::inspect::{InspectQuery, Inspection};
use crate::trace::HostOp;
use crate::vocab::StopAt;
use entries::{Entry, NodeEntries, Slot};

/// The scheme's registry entry.
pub static SPEC: SchemeSpec = SchemeSpec {
    info: SchemeInfo {
        id: "tpftl",
        name: "TPFTL: translation-page nodes, batch write-back, prefetching",
        family: "demand",
        source: "Zhou et al. EuroSys'15; the baseline of HCFTL (seed 001) §II, §IV",
    },
    notes: concat!(include_str!("notes.md"), "\n", include_str!("../demand/many_units.md")),
    stops: &[StopAt::Gc, StopAt::MappingMiss],
    caches: &[(CacheLevel::Entry, "TP nodes")],
    options: OptionsSpec::of::<TpftlOptions>(),
    open_blocks: OpenBlocks::DEMAND,
    variants: || {
        vec![
            ("paper (clean first, both prefetchings)", json!({})),
            // Seed 001 §II.A: the baselines "read the corresponding translation page but only
            // load[] the requested mapping entry into cache" — no request-level and no
            // selective prefetching; TPFTL's clean-first, batch-update replacement stays.
            (BASELINE_VARIANT, json!({"request_prefetch": false, "sequential_threshold": 0})),
            ("LRU victim, dirty or not", json!({"clean_first": false})),
        ]
    },
    build: |ctx, options| {
        let options = super::parse_options::<TpftlOptions>("tpftl", options)?;
        Ok(Box::new(Tpftl::new(ctx, options)?))
    },
};

/// The variant in seed 001's baseline form (HCFTL's comparison): one entry loaded per miss.
pub const BASELINE_VARIANT: &str = "seed001-baseline";

/// An entry node: the entry's offset in its page (2 bytes, dirty flag in its top bit) and
/// its PPN; the LPN is the node's page number and the offset (TPFTL's compression).
const ENTRY_BYTES: u64 = 6;
/// A TP node's header: its translation-page number and list links.
const NODE_BYTES: u64 = 8;

/// TPFTL options (`options.*` in the config when `scheme` is `tpftl`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct TpftlOptions {
    /// Evict the coldest node's least recently used clean entry before a dirty one (the
    /// paper's clean-first replacement); off, its LRU entry whatever its state.
    pub clean_first: bool,
    /// On a miss, load the entries of the request's remaining pages too (request-level
    /// prefetching; one translation-page read per page they live in).
    pub request_prefetch: bool,
    /// Misses in a row at which the number of TP nodes has fallen that count as sequential
    /// access and switch on selective prefetching (the rest of the missed entry's
    /// translation page is loaded); 0 turns selective prefetching off.
    pub sequential_threshold: u32,
}

impl Default for TpftlOptions {
    fn default() -> Self {
        TpftlOptions { clean_first: true, request_prefetch: true, sequential_threshold: 3 }
    }
}

/// A TP node: the cached entries of one translation page, LRU.
#[derive(Debug, Clone)]
struct Node {
    entries: NodeEntries,
    stamp_sum: u64,
    /// The hotness this node is filed under in the page-level order: at most its current
    /// hotness (a hit only raises a node's hotness, so a hit leaves the filing alone).
    filed: u128,
}

impl Node {
    /// Page-level hotness as a sortable key: the mean stamp in fixed point.
    fn hotness(&self) -> u128 {
        (u128::from(self.stamp_sum) << 20) / self.entries.len().max(1) as u128
    }
}

/// TP nodes by translation-page number: an array over the pages (a tree once took a fifth
/// of TPFTL's time), iterated in page order as the tree was.
#[derive(Debug, Clone, Default)]
struct Nodes {
    by_page: Vec<Option<Node>>,
    len: usize,
    /// Entries per translation page (each node's array).
    per_tpage: u32,
    /// The arrays of nodes that emptied (all slots empty again), for the next new node: a
    /// node is created on a miss, and a fresh array would be allocated and filled each time.
    spare: Vec<Box<[Slot]>>,
}

impl Nodes {
    fn len(&self) -> usize {
        self.len
    }

    fn get(&self, t: &u32) -> Option<&Node> {
        self.by_page.get(*t as usize)?.as_ref()
    }

    fn get_mut(&mut self, t: &u32) -> Option<&mut Node> {
        self.by_page.get_mut(*t as usize)?.as_mut()
    }

    fn contains_key(&self, t: &u32) -> bool {
        self.get(t).is_some()
    }

    /// Adds an empty node for page `t`; false when it has one.
    fn insert_empty(&mut self, t: u32) -> bool {
        if self.contains_key(&t) {
            return false;
        }
        if t as usize >= self.by_page.len() {
            self.by_page.resize_with(t as usize + 1, || None);
        }
        let per = self.per_tpage as usize;
        let slots = self.spare.pop().unwrap_or_else(|| NodeEntries::empty_slots(per));
        let entries = NodeEntries::new(t * self.per_tpage, slots);
        self.by_page[t as usize] = Some(Node { entries, stamp_sum: 0, filed: 0 });
        self.len += 1;
        true
    }

    /// Removes page `t`'s node (empty), keeping its array for the next one.
    fn remove(&mut self, t: &u32) {
        if let Some(node) = self.by_page.get_mut(*t as usize).and_then(Option::take) {
            self.len -= 1;
            self.spare.push(node.entries.into_slots());
        }
    }

    /// `(page, node)` in page order.
    fn iter(&self) -> impl Iterator<Item = (u32, &Node)> {
        self.by_page.iter().enumerate().filter_map(|(t, n)| Some((t as u32, n.as_ref()?)))
    }

    fn values(&self) -> impl Iterator<Item = &Node> {
        self.by_page.iter().flatten()
    }
}

impl std::ops::Index<&u32> for Nodes {
    type Output = Node;

    fn index(&self, t: &u32) -> &Node {
        self.get(t).expect("a TP node of the page-level order")
    }
}

/// TPFTL state.
#[derive(Debug, Clone)]
pub struct Tpftl {
    core: DemandCore,
    /// TP nodes by translation-page number.
    nodes: Nodes,
    /// Page-level order: (filed hotness, page), coldest first. A node's filed hotness may lag
    /// behind its hotness (see [`Tpftl::coldest`]): a hit or a load re-files nothing.
    order: BTreeSet<(u128, u32)>,
    clock: u64,
    used: u64,
    capacity: u64,
    /// The current request's pages (request-level prefetching).
    request: Vec<u32>,
    /// What a miss loads, `(page, lpn)` (kept to reuse its allocation; empty between misses).
    plan: Vec<(u32, u32)>,
    /// Misses in a row at which the node count had fallen, and the count at the last miss.
    falling: u32,
    last_nodes: usize,
    options: TpftlOptions,
}

impl Tpftl {
    /// TPFTL over an erased device; fails when the RAM budget cannot hold the GTD plus one
    /// node with one entry.
    pub fn new(ctx: &BuildCtx, options: TpftlOptions) -> Result<Self> {
        let (core, cache) =
            DemandCore::new(ctx, "TPFTL", NODE_BYTES + ENTRY_BYTES, "one TP node with one entry")?;
        Ok(Tpftl {
            nodes: Nodes { per_tpage: core.per_tpage, ..Nodes::default() },
            core,
            order: BTreeSet::new(),
            clock: 0,
            used: 0,
            capacity: cache,
            request: Vec::new(),
            plan: Vec::new(),
            falling: 0,
            last_nodes: 0,
            options,
        })
    }

    /// Runs `f` on node `t` and re-files it in the page-level order (removing it when empty).
    fn with_node<R>(&mut self, t: u32, f: impl FnOnce(&mut Node) -> R) -> Option<R> {
        let node = self.nodes.get_mut(&t)?;
        self.order.remove(&(node.filed, t));
        let r = f(node);
        if node.entries.is_empty() {
            self.nodes.remove(&t);
            self.used -= NODE_BYTES;
        } else {
            node.filed = node.hotness();
            self.order.insert((node.filed, t));
        }
        Some(r)
    }

    /// The coldest node (lowest hotness, then lowest page number). Hits and loads only raise
    /// hotness and are not re-filed (evictions re-file), so filed keys are lower bounds: the first node whose filed key
    /// is current is the coldest (every other node's hotness is at least its filed key, which
    /// is at least this one's). Stale nodes met on the way are re-filed.
    fn coldest(&mut self) -> Option<u32> {
        loop {
            let &(filed, t) = self.order.first()?;
            let node = self.nodes.get_mut(&t).expect("a TP node of the page-level order");
            let hotness = node.hotness();
            if hotness == filed {
                return Some(t);
            }
            node.filed = hotness;
            self.order.pop_first();
            self.order.insert((hotness, t));
        }
    }

    /// Bytes `plan` (`(page, lpn)` to load, by page) still needs beyond what is cached.
    fn bytes_needed(&self, plan: &[(u32, u32)]) -> u64 {
        let new_nodes = plan
            .iter()
            .enumerate()
            .filter(|&(i, &(t, _))| (i == 0 || plan[i - 1].0 != t) && !self.nodes.contains_key(&t))
            .count();
        plan.len() as u64 * ENTRY_BYTES + new_nodes as u64 * NODE_BYTES
    }

    /// Makes room for `plan` (see [`Tpftl::load_plan`]; `t` is the missed entry's page) and
    /// loads it, each entry stamped `clock`.
    fn load(&mut self, plan: &[(u32, u32)], t: u32, clock: u64, dev: &mut Device) -> Result<()> {
        while self.used + self.bytes_needed(plan) > self.capacity {
            self.evict_one(dev)?;
        }
        // Load after making room: write-backs may have run GC, which moves data pages and
        // rewrites their translation pages.
        for run in plan.chunk_by(|a, b| a.0 == b.0) {
            let page = run[0].0;
            let cause = if page == t { TpCause::Miss } else { TpCause::Prefetch };
            let at = self.core.read_page(page, dev, cause)?;
            let new = self.nodes.insert_empty(page);
            let first = page * self.core.per_tpage;
            let n = self.nodes.get_mut(&page).expect("a node for the page");
            for &(_, l) in run {
                let ppn = DemandCore::entry_in(at, (l - first) as usize, dev);
                dev.cache_insert(CacheLevel::Entry, l, ENTRY_BYTES as u32);
                n.entries.insert(l, Entry { ppn, dirty: false, stamp: clock });
                n.stamp_sum += clock;
            }
            // Entries stamped with the clock (at least every stamp held) only raise a node's
            // hotness, so a node keeps its filing (a lower bound, see `coldest`); a new one is
            // filed once, at its hotness.
            if new {
                n.filed = n.hotness();
                self.order.insert((n.filed, page));
                self.used += NODE_BYTES;
            }
            self.used += run.len() as u64 * ENTRY_BYTES;
        }
        Ok(())
    }

    /// Evicts one entry from the coldest node: its LRU clean entry (clean first), else its
    /// LRU entry after writing back every dirty entry of the node's translation page at once.
    fn evict_one(&mut self, dev: &mut Device) -> Result<()> {
        let Some(t) = self.coldest() else {
            return Err(EngineError::Invariant("tpftl: cache full with no TP node".into()));
        };
        let clean_first = self.options.clean_first;
        let entries = &self.nodes[&t].entries;
        let clean = entries.dirty_count() < entries.len();
        let lru_dirty = entries.peek_lru().is_some_and(|(_, e)| e.dirty);
        let batch = lru_dirty && !(clean_first && clean);
        if batch {
            // Batch-update replacement: the node's dirty entries go to flash together.
            let on_flash = &mut self.core.on_flash;
            self.nodes.get_mut(&t).unwrap().entries.clean_all(|lpn, ppn| on_flash[lpn as usize] = ppn);
        }
        let (lpn, _) = self
            .with_node(t, |n| {
                let (lpn, e) = n.entries.pop_lru_where(|_, e| !e.dirty).expect("a clean entry");
                n.stamp_sum -= e.stamp;
                (lpn, e)
            })
            .expect("node exists");
        self.used -= ENTRY_BYTES;
        dev.cache_ops(1);
        dev.cache_evict(CacheLevel::Entry, lpn, batch, ENTRY_BYTES as u32);
        if batch {
            rewrite_tpage(self, t, Purpose::Translation, TpCause::Eviction, dev)?;
        }
        Ok(())
    }

    /// What a miss on `lpn` loads, into `plan`: `(page, lpn)` of uncached LPNs by page, the
    /// missed one last in its page.
    fn load_plan(&self, lpn: u32, plan: &mut Vec<(u32, u32)>) {
        let t = self.core.tpage_of(lpn);
        let uncached =
            |l: u32| self.nodes.get(&self.core.tpage_of(l)).is_none_or(|n| !n.entries.contains(&l));
        // Prefetched entries (and their nodes) take at most half of what the missed entry
        // leaves of the cache.
        let mut budget = self.capacity.saturating_sub(NODE_BYTES + ENTRY_BYTES) / 2;
        plan.clear();
        let mut add = |plan: &mut Vec<(u32, u32)>, l: u32| {
            let page = self.core.tpage_of(l);
            let planned = |page: u32| plan.iter().any(|&(p, _)| p == page);
            let new_node = page != t && !self.nodes.contains_key(&page) && !planned(page);
            let cost = ENTRY_BYTES + if new_node { NODE_BYTES } else { 0 };
            if cost <= budget && l != lpn && uncached(l) && !plan.contains(&(page, l)) {
                budget -= cost;
                plan.push((page, l));
            }
        };
        if self.options.request_prefetch {
            if let Some(i) = self.request.iter().position(|&l| l == lpn) {
                for &l in &self.request[i + 1..] {
                    add(plan, l);
                }
            }
        }
        let threshold = self.options.sequential_threshold;
        if threshold > 0 && self.falling >= threshold {
            for l in lpn + 1..self.core.lpns_of(t).end {
                add(plan, l);
            }
        }
        plan.push((t, lpn));
        // By page (stable: each page's entries keep their order), as they are loaded.
        plan.sort_by_key(|&(page, _)| page);
    }
}

impl DemandScheme for Tpftl {
    demand::forward!(core);

    fn translate(&mut self, lpn: u32, dev: &mut Device) -> Result<Ppn> {
        self.clock += 1;
        let clock = self.clock;
        let t = self.core.tpage_of(lpn);
        dev.cache_ops(1);
        if let Some(n) = self.nodes.get_mut(&t) {
            if let Some((old, ppn)) = n.entries.touch(lpn, clock) {
                // A hit raises the node's hotness: its filing stays (see `coldest`).
                n.stamp_sum = n.stamp_sum - old + clock;
                dev.mapping_lookup(true);
                dev.cache_hit(CacheLevel::Entry, lpn);
                return Ok(ppn);
            }
        }
        dev.mapping_lookup(false);
        dev.cache_miss(CacheLevel::Entry, lpn);
        // Selective prefetching's trigger: the node count fell since the previous miss.
        let n = self.nodes.len();
        if n < self.last_nodes {
            self.falling += 1;
        } else if n > self.last_nodes {
            self.falling = 0;
        }
        self.last_nodes = n;
        let mut plan = std::mem::take(&mut self.plan);
        self.load_plan(lpn, &mut plan);
        let loaded = self.load(&plan, t, clock, dev);
        plan.clear();
        self.plan = plan;
        loaded?;
        Ok(self.cached(lpn).expect("just loaded"))
    }

    fn prefetch_cached(&self, lpns: &[u32]) {
        for &lpn in lpns {
            if let Some(n) = self.nodes.get(&self.core.tpage_of(lpn)) {
                n.entries.prefetch(lpn);
            }
        }
    }

    fn cached(&self, lpn: u32) -> Option<Ppn> {
        self.nodes.get(&self.core.tpage_of(lpn))?.entries.ppn(lpn)
    }

    fn set_cached(&mut self, lpn: u32, ppn: Ppn, dev: &mut Device) -> bool {
        let t = self.core.tpage_of(lpn);
        if !self.nodes.get_mut(&t).is_some_and(|n| n.entries.set(lpn, ppn, true)) {
            return false;
        }
        dev.ram(1);
        true
    }

    fn ram_entries(&self) -> Vec<(u32, Ppn, bool)> {
        self.nodes.values().flat_map(|n| n.entries.iter().map(|(l, e)| (l, e.ppn, e.dirty))).collect()
    }

    fn mark_clean(&mut self, t: u32, lpns: &[u32]) {
        if let Some(n) = self.nodes.get_mut(&t) {
            for &l in lpns {
                n.entries.mark_clean(l);
            }
        }
    }
}

impl Ftl for Tpftl {
    fn begin_request(&mut self, _op: HostOp, lpns: &[u32], _dev: &mut Device) -> Result<()> {
        self.request.clear();
        self.request.extend_from_slice(lpns);
        Ok(())
    }

    demand::forward!(read, write, trim, flush, place_prefill, map_view, block_role, ram_budget);

    fn prefetch(&self, ahead: &crate::prefetch::Lookahead, dev: &Device) {
        // Far pages: their entries (the node headers are a small array, read here); near
        // pages: their entries (read: the loop's iterations are independent, so the misses
        // overlap) and the flash page each names, which a write invalidates.
        for i in 0..ahead.far.len().max(ahead.near.len()) {
            if let Some(&lpn) = ahead.far.get(i) {
                crate::prefetch::element(ahead.also, lpn as usize);
                if let Some(n) = self.nodes.get(&self.core.tpage_of(lpn)) {
                    n.entries.prefetch(lpn);
                }
            }
            if let Some(ppn) = ahead.near.get(i).and_then(|&lpn| self.cached(lpn)) {
                if ppn != demand::UNMAPPED {
                    dev.flash().prefetch(ppn, ahead.reads);
                }
            }
        }
    }

    fn ram_bytes(&self) -> u64 {
        self.core.gtd_bytes() + self.capacity
    }

    fn ram_split(&self) -> Option<super::RamSplit> {
        Some(super::RamSplit { mapping_bytes: self.core.gtd_bytes() + self.used, buffer_bytes: 0 })
    }

    fn inspect(&self, q: &InspectQuery) -> Inspection {
        self.inspection(q)
    }

    fn check(&self, dev: &Device) -> Result<()> {
        demand::check(self, dev, "tpftl")?;
        let bad = |m: String| Err(EngineError::Invariant(format!("tpftl: {m}")));
        let bytes: u64 = self.nodes.values().map(|n| NODE_BYTES + n.entries.len() as u64 * ENTRY_BYTES).sum();
        if bytes != self.used || self.used > self.capacity {
            return bad(format!("{} bytes cached, {} counted, capacity {}", bytes, self.used, self.capacity));
        }
        for (t, n) in self.nodes.iter() {
            let sum: u64 = n.entries.iter().map(|(_, e)| e.stamp).sum();
            let dirty = n.entries.iter().filter(|(_, e)| e.dirty).count();
            if dirty != n.entries.dirty_count() || n.entries.iter().count() != n.entries.len() {
                return bad(format!("TP node {t} counts its entries wrong"));
            }
            let filed = n.filed <= n.hotness() && self.order.contains(&(n.filed, t));
            if n.entries.is_empty() || sum != n.stamp_sum || !filed {
                return bad(format!("TP node {t} is empty, or its hotness is out of date"));
            }
            if n.entries.iter().any(|(l, _)| self.core.tpage_of(l) != t) {
                return bad(format!("TP node {t} holds an entry of another translation page"));
            }
        }
        if self.order.len() != self.nodes.len() {
            return bad("the page-level order and the nodes differ".into());
        }
        Ok(())
    }

    fn hash_into(&self, h: &mut StateHasher) {
        self.core.hash_into(h, |h| {
            for (t, n) in self.nodes.iter() {
                h.u32(t);
                for (l, e) in n.entries.iter() {
                    h.u32(l);
                    h.u32(e.ppn);
                    h.bytes(&[e.dirty as u8]);
                    h.u64(e.stamp);
                }
            }
            h.u64(self.clock);
            h.u32(self.falling);
            h.u64(self.last_nodes as u64);
        });
    }

    fn clone_box(&self) -> Box<dyn Ftl> {
        Box::new(self.clone())
    }
}

mod entries;
mod inspect;
#[cfg(test)]
mod tests;
