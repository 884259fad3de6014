//! APS's data buffer and its ghost as two LRU lists over one node array and one index from
//! LPN to node. A page the buffer evicts goes to the ghost in its own node: its index slot
//! stays as it is, where a buffer and a ghost of their own each index every LPN (4 bytes a
//! page each) and an eviction touches both indexes' random slots of the victim. A page is in
//! the buffer or in the ghost, never both (the buffer takes a page only after its ghost
//! forgot it). Same answers and order as an [`crate::cache::Lru`] buffer beside a
//! [`crate::cache::DenseGhost`] (tested against them).

use crate::prefetch;

use super::Buffered;

const NIL: u32 = u32::MAX;

#[derive(Debug, Clone, Copy)]
struct Node {
    lpn: u32,
    page: Buffered,
    ghost: bool,
    prev: u32,
    next: u32,
}

/// One LRU list: its most recent node (`head`), its least recent (`tail`), its length.
#[derive(Debug, Clone, Copy)]
struct List {
    head: u32,
    tail: u32,
    len: usize,
}

impl List {
    const EMPTY: List = List { head: NIL, tail: NIL, len: 0 };
}

/// The data buffer (pages with their versions) and its ghost (LPNs it evicted).
#[derive(Debug, Clone)]
pub struct BufferedPages {
    nodes: Vec<Node>,
    /// Nodes no list holds.
    free: Vec<u32>,
    /// LPN → node (in either list), [`NIL`] for neither.
    index: Vec<u32>,
    buffer: List,
    ghost: List,
    capacity: usize,
    ghost_capacity: usize,
}

impl BufferedPages {
    /// A buffer of `capacity` pages and a ghost of `ghost_capacity` LPNs, over LPNs below
    /// `lpns`.
    pub fn new(capacity: usize, ghost_capacity: usize, lpns: usize) -> Self {
        BufferedPages {
            nodes: Vec::new(),
            free: Vec::new(),
            index: vec![NIL; lpns],
            buffer: List::EMPTY,
            ghost: List::EMPTY,
            capacity,
            ghost_capacity,
        }
    }

    /// Buffer capacity in pages.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// Pages buffered.
    pub fn len(&self) -> usize {
        self.buffer.len
    }

    pub fn is_full(&self) -> bool {
        self.buffer.len >= self.capacity
    }

    /// The ghost's capacity in LPNs.
    pub fn ghost_capacity(&self) -> usize {
        self.ghost_capacity
    }

    #[inline]
    fn node_of(&self, lpn: u32, ghost: bool) -> Option<u32> {
        let i = *self.index.get(lpn as usize)?;
        (i != NIL && self.nodes[i as usize].ghost == ghost).then_some(i)
    }

    /// True if `lpn` is buffered (not an access).
    pub fn contains(&self, lpn: &u32) -> bool {
        self.node_of(*lpn, false).is_some()
    }

    /// True if the ghost remembers `lpn`.
    #[cfg(test)]
    pub fn ghost_contains(&self, lpn: &u32) -> bool {
        self.node_of(*lpn, true).is_some()
    }

    /// Accesses buffered `lpn`: it becomes the most recent.
    #[inline]
    pub fn get(&mut self, lpn: &u32) -> Option<&Buffered> {
        self.get_mut(lpn).map(|p| &*p)
    }

    /// Accesses buffered `lpn`, its page mutable.
    #[inline]
    pub fn get_mut(&mut self, lpn: &u32) -> Option<&mut Buffered> {
        let i = self.node_of(*lpn, false)?;
        if i != self.buffer.head {
            self.unlink(i);
            self.link_front(i);
        }
        Some(&mut self.nodes[i as usize].page)
    }

    /// Forgets `lpn` from the ghost; true if it remembered it (a ghost hit).
    #[inline]
    pub fn ghost_remove(&mut self, lpn: &u32) -> bool {
        let Some(i) = self.node_of(*lpn, true) else { return false };
        self.drop_node(i);
        true
    }

    /// Removes buffered `lpn` (not to the ghost), returning its page.
    pub fn remove(&mut self, lpn: &u32) -> Option<Buffered> {
        let i = self.node_of(*lpn, false)?;
        let page = self.nodes[i as usize].page;
        self.drop_node(i);
        Some(page)
    }

    /// Inserts `lpn`, which neither list holds, as the most recent page; in a full buffer the
    /// least recent page leaves to the ghost and is returned.
    #[inline]
    pub fn insert_absent(&mut self, lpn: u32, page: Buffered) -> Option<(u32, Buffered)> {
        debug_assert!(self.index[lpn as usize] == NIL, "insert_absent of a held LPN");
        if self.buffer.len >= self.capacity && self.buffer.len > 0 && self.ghost.len >= self.ghost_capacity {
            return Some(self.replace_lru(lpn, page));
        }
        let evicted = if self.is_full() { self.evict() } else { None };
        if self.capacity == 0 {
            // Nothing to hold it: it passes through the buffer to the ghost.
            let i = self.new_node(lpn, page);
            self.link_front(i);
            self.evict();
            return Some((lpn, page));
        }
        let i = self.new_node(lpn, page);
        self.link_front(i);
        evicted
    }

    /// Evicts the least recent page to the ghost, returning it.
    pub fn pop_lru(&mut self) -> Option<(u32, Buffered)> {
        self.evict()
    }

    /// Removes the least recent page without remembering it (a flush).
    pub fn pop_lru_forget(&mut self) -> Option<(u32, Buffered)> {
        let i = self.buffer.tail;
        if i == NIL {
            return None;
        }
        let n = self.nodes[i as usize];
        self.drop_node(i);
        Some((n.lpn, n.page))
    }

    /// Changes the buffer's capacity; when it shrinks below the pages held, the least recent
    /// go to the ghost and are returned, least recent first.
    pub fn set_capacity(&mut self, capacity: usize) -> Vec<(u32, Buffered)> {
        self.capacity = capacity;
        let mut evicted = Vec::new();
        while self.buffer.len > self.capacity {
            match self.evict() {
                Some(e) => evicted.push(e),
                None => break,
            }
        }
        evicted
    }

    /// Buffered pages from most to least recently used.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = (&u32, &Buffered)> + '_ {
        self.walk(self.buffer).map(|n| (&n.lpn, &n.page))
    }

    /// The ghost's LPNs from most to least recently remembered.
    pub fn ghost_iter(&self) -> impl DoubleEndedIterator<Item = &u32> + '_ {
        self.walk(self.ghost).map(|n| &n.lpn)
    }

    /// Starts loading `lpn`'s index slot ([`crate::prefetch`]); changes nothing.
    pub fn prefetch_key(&self, lpn: u32) {
        prefetch::element(&self.index, lpn as usize);
    }

    /// Starts loading `lpn`'s node when it has one (its slot loaded a little earlier).
    pub fn prefetch_entry(&self, lpn: u32) {
        if let Some(&i) = self.index.get(lpn as usize) {
            if i != NIL {
                prefetch::element(&self.nodes, i as usize);
            }
        }
    }

    /// The structure agrees with itself: each index entry names a node holding its LPN; each
    /// list walks (both ways) to its length over nodes of its kind that the index names;
    /// every node is on one list or free, once; the ghost is within its capacity. Returns
    /// what is wrong.
    pub fn check(&self) -> std::result::Result<(), String> {
        let mut indexed = 0;
        for (lpn, &i) in self.index.iter().enumerate() {
            if i == NIL {
                continue;
            }
            indexed += 1;
            match self.nodes.get(i as usize) {
                Some(n) if n.lpn as usize == lpn => {}
                Some(n) => return Err(format!("LPN {lpn} indexes node {i}, which holds LPN {}", n.lpn)),
                None => return Err(format!("LPN {lpn} indexes node {i} of {}", self.nodes.len())),
            }
        }
        let mut seen = vec![false; self.nodes.len()];
        for (list, ghost, name) in [(self.buffer, false, "buffer"), (self.ghost, true, "ghost")] {
            let (mut len, mut prev, mut i) = (0, NIL, list.head);
            while i != NIL {
                match seen.get_mut(i as usize) {
                    None => return Err(format!("the {name} links to node {i} of {}", self.nodes.len())),
                    Some(true) => return Err(format!("the {name} reaches node {i} a second time")),
                    Some(s) => *s = true,
                }
                let n = &self.nodes[i as usize];
                if n.ghost != ghost {
                    return Err(format!(
                        "node {i} (LPN {}) in the {name} has its ghost mark {}",
                        n.lpn, n.ghost
                    ));
                }
                if n.prev != prev {
                    return Err(format!("node {i} in the {name} links back to {}, not {prev}", n.prev));
                }
                if self.index.get(n.lpn as usize) != Some(&i) {
                    return Err(format!(
                        "node {i} in the {name} holds LPN {}, which does not index it",
                        n.lpn
                    ));
                }
                len += 1;
                prev = i;
                i = n.next;
            }
            if len != list.len || prev != list.tail {
                return Err(format!(
                    "the {name} walks {len} nodes to tail {prev}; it says {} to tail {}",
                    list.len, list.tail
                ));
            }
        }
        if indexed != self.buffer.len + self.ghost.len {
            return Err(format!(
                "{indexed} LPNs indexed, {} buffered + {} ghosts",
                self.buffer.len, self.ghost.len
            ));
        }
        for &f in &self.free {
            match seen.get_mut(f as usize) {
                None => return Err(format!("free node {f} of {}", self.nodes.len())),
                Some(true) => return Err(format!("free node {f} is on a list or freed twice")),
                Some(s) => *s = true,
            }
        }
        if let Some(i) = seen.iter().position(|&s| !s) {
            return Err(format!("node {i} is on no list and not free"));
        }
        if self.ghost.len > self.ghost_capacity {
            return Err(format!("the ghost holds {} LPNs, over its {}", self.ghost.len, self.ghost_capacity));
        }
        Ok(())
    }

    fn walk(&self, list: List) -> impl DoubleEndedIterator<Item = &Node> + '_ {
        let mut order = Vec::with_capacity(list.len);
        let mut i = list.head;
        while i != NIL {
            order.push(&self.nodes[i as usize]);
            i = self.nodes[i as usize].next;
        }
        order.into_iter()
    }

    /// [`BufferedPages::insert_absent`] into a full buffer beside a full ghost (a run of
    /// write misses): the least recent page moves to the ghost's front, the ghost's oldest
    /// node takes `lpn` at the buffer's front. The lists' ends are known: no general unlink.
    fn replace_lru(&mut self, lpn: u32, page: Buffered) -> (u32, Buffered) {
        // The least recent page leaves the buffer's end for the ghost's front...
        let v = self.buffer.tail;
        let victim = pop_tail(&mut self.nodes, &mut self.buffer);
        self.nodes[v as usize].ghost = true;
        push_front(&mut self.nodes, &mut self.ghost, v);
        // ...and the ghost's oldest is forgotten; its node takes `lpn`.
        let g = self.ghost.tail;
        let oldest = pop_tail(&mut self.nodes, &mut self.ghost);
        self.index[oldest.lpn as usize] = NIL;
        self.index[lpn as usize] = g;
        self.nodes[g as usize] = Node { lpn, page, ghost: false, prev: NIL, next: NIL };
        push_front(&mut self.nodes, &mut self.buffer, g);
        (victim.lpn, victim.page)
    }

    /// Moves the buffer's least recent page to the ghost (forgetting the ghost's oldest
    /// when full); returns the page.
    fn evict(&mut self) -> Option<(u32, Buffered)> {
        let i = self.buffer.tail;
        if i == NIL {
            return None;
        }
        // Read first: a ghost of capacity 0 frees this very node at once.
        let evicted = (self.nodes[i as usize].lpn, self.nodes[i as usize].page);
        self.unlink(i);
        self.nodes[i as usize].ghost = true;
        self.link_front(i);
        if self.ghost.len > self.ghost_capacity {
            self.drop_node(self.ghost.tail);
        }
        Some(evicted)
    }

    fn new_node(&mut self, lpn: u32, page: Buffered) -> u32 {
        let node = Node { lpn, page, ghost: false, prev: NIL, next: NIL };
        let i = match self.free.pop() {
            Some(i) => {
                self.nodes[i as usize] = node;
                i
            }
            None => {
                self.nodes.push(node);
                (self.nodes.len() - 1) as u32
            }
        };
        self.index[lpn as usize] = i;
        i
    }

    /// Unlinks node `i` from its list, forgets its LPN and frees it.
    fn drop_node(&mut self, i: u32) {
        self.unlink(i);
        self.index[self.nodes[i as usize].lpn as usize] = NIL;
        self.free.push(i);
    }

    fn list_mut(&mut self, ghost: bool) -> &mut List {
        if ghost {
            &mut self.ghost
        } else {
            &mut self.buffer
        }
    }

    fn link_front(&mut self, i: u32) {
        let list = if self.nodes[i as usize].ghost { &mut self.ghost } else { &mut self.buffer };
        push_front(&mut self.nodes, list, i);
    }

    fn unlink(&mut self, i: u32) {
        let Node { prev, next, ghost, .. } = self.nodes[i as usize];
        if prev != NIL {
            self.nodes[prev as usize].next = next;
        }
        if next != NIL {
            self.nodes[next as usize].prev = prev;
        }
        let list = self.list_mut(ghost);
        if prev == NIL {
            list.head = next;
        }
        if next == NIL {
            list.tail = prev;
        }
        list.len -= 1;
    }
}

/// Links node `i` at the front (most recent end) of `list`.
#[inline(always)]
fn push_front(nodes: &mut [Node], list: &mut List, i: u32) {
    let old = list.head;
    let n = &mut nodes[i as usize];
    n.prev = NIL;
    n.next = old;
    if old == NIL {
        list.tail = i;
    } else {
        nodes[old as usize].prev = i;
    }
    list.head = i;
    list.len += 1;
}

/// Unlinks the least recent node of `list` (not empty) and returns a copy of it: the known
/// end of a list needs none of [`BufferedPages::unlink`]'s branches for a middle node.
#[inline(always)]
fn pop_tail(nodes: &mut [Node], list: &mut List) -> Node {
    let node = nodes[list.tail as usize];
    list.tail = node.prev;
    if node.prev == NIL {
        list.head = NIL;
    } else {
        nodes[node.prev as usize].next = NIL;
    }
    list.len -= 1;
    node
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cache::{DenseGhost, DenseIndex, Inserted, Lru};

    /// As APS used them: a buffer [`Lru`] whose evictions go to a [`DenseGhost`].
    #[test]
    fn matches_a_buffer_lru_beside_a_dense_ghost() {
        for (cap, ghost_cap) in [(5, 3), (1, 1), (8, 20), (0, 2), (4, 0)] {
            let mut lru: Lru<u32, Buffered, DenseIndex> = Lru::dense(cap);
            let mut ghost = DenseGhost::new(ghost_cap);
            let mut b = BufferedPages::new(cap, ghost_cap, 64);
            let mut rng = crate::test_rng::Rng(11 + cap as u64);
            for step in 0..6000u32 {
                let x = rng.next();
                let lpn = ((x >> 33) % 40) as u32;
                let page = Buffered { version: step, dirty: x & 1 == 0 };
                match (x >> 20) % 12 {
                    0..=6 => {
                        if let Some(p) = lru.get_mut(&lpn) {
                            *p = page;
                            *b.get_mut(&lpn).expect("buffered in both") = page;
                            continue;
                        }
                        assert!(b.get_mut(&lpn).is_none());
                        assert_eq!(ghost.remove(&lpn), b.ghost_remove(&lpn));
                        let old = lru.insert(lpn, page);
                        let ours = b.insert_absent(lpn, page);
                        match old {
                            Inserted::Evicted(k, v) => {
                                ghost.insert(k);
                                assert_eq!(ours, Some((k, v)));
                            }
                            _ => assert_eq!(ours, None),
                        }
                    }
                    7 => assert_eq!(lru.remove(&lpn), b.remove(&lpn)),
                    8 => {
                        let (old, ours) = (lru.pop_lru(), b.pop_lru());
                        if let Some((k, _)) = old {
                            ghost.insert(k);
                        }
                        assert_eq!(old, ours);
                    }
                    9 => assert_eq!(lru.pop_lru(), b.pop_lru_forget()),
                    10 => {
                        let c = ((x >> 40) % 10) as usize;
                        let old = lru.set_capacity(c);
                        for &(k, _) in &old {
                            ghost.insert(k);
                        }
                        assert_eq!(old, b.set_capacity(c));
                    }
                    _ => assert_eq!(ghost.contains(&lpn), b.ghost_contains(&lpn)),
                }
                assert!(lru.iter().map(|(&k, &v)| (k, v)).eq(b.iter().map(|(&k, &v)| (k, v))));
                assert!(ghost.iter().eq(b.ghost_iter()));
                b.check().unwrap_or_else(|m| panic!("step {step}: {m}"));
                assert_eq!((lru.len(), lru.capacity(), lru.is_full()), (b.len(), b.capacity(), b.is_full()));
            }
        }
    }

    /// A buffer of 3 pages, a ghost of 3 LPNs: pages 5, 4, 3 (most recent first), ghosts 2,
    /// 1, and the node LPN 0 had free.
    fn filled() -> BufferedPages {
        let mut b = BufferedPages::new(3, 3, 16);
        for lpn in 0..6 {
            b.insert_absent(lpn, Buffered { version: lpn, dirty: true });
        }
        assert!(b.ghost_remove(&0));
        b.check().expect("a buffer its own operations built");
        assert!(b.iter().map(|(&l, _)| l).eq([5, 4, 3]) && b.ghost_iter().copied().eq([2, 1]));
        assert_eq!(b.free.len(), 1);
        b
    }

    /// Each kind of damage to the structure is caught by `check`, with what is wrong.
    #[test]
    fn check_finds_a_damaged_structure() {
        type Damage = fn(&mut BufferedPages);
        let damage: [(&str, Damage); 11] = [
            ("indexes node", |b| b.index[9] = b.index[5]),
            ("does not index it", |b| b.index[4] = NIL),
            ("LPNs indexed", |b| b.index[0] = b.free[0]),
            ("ghost mark", |b| {
                let i = b.index[4] as usize;
                b.nodes[i].ghost = true;
            }),
            ("links back", |b| {
                let i = b.index[4] as usize;
                b.nodes[i].prev = NIL;
            }),
            ("walks", |b| b.buffer.len += 1),
            ("walks", |b| b.ghost.tail = b.ghost.head),
            ("a second time", |b| {
                let t = b.ghost.tail as usize;
                b.nodes[t].next = b.ghost.head;
            }),
            ("freed twice", |b| b.free.push(b.buffer.head)),
            ("not free", |b| b.free.clear()),
            ("over its", |b| b.ghost_capacity = 1),
        ];
        let b = filled();
        for (want, damage) in damage {
            let mut bad = b.clone();
            damage(&mut bad);
            let err = bad.check().expect_err(want);
            assert!(err.contains(want), "{want:?} not in {err:?}");
        }
    }

    /// `insert_absent`'s precondition (neither list holds the LPN) is checked in debug builds:
    /// a buffered LPN would get a second node.
    #[cfg(debug_assertions)]
    #[test]
    #[should_panic(expected = "insert_absent of a held LPN")]
    fn insert_absent_of_a_buffered_lpn_panics_in_debug_builds() {
        filled().insert_absent(4, Buffered { version: 9, dirty: true });
    }

    /// As above, for an LPN the ghost remembers (the caller must forget it first).
    #[cfg(debug_assertions)]
    #[test]
    #[should_panic(expected = "insert_absent of a held LPN")]
    fn insert_absent_of_a_ghost_lpn_panics_in_debug_builds() {
        filled().insert_absent(1, Buffered { version: 9, dirty: true });
    }
}
