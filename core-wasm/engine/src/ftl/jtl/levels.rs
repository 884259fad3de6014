//! JTL's multi-level structure of mapping entries (seed 000 §II.B): level `n` holds up to
//! `2^n` entries, the newest entry enters level 0, and a full level passes a randomly chosen
//! entry one level down. This file is the structure alone (no flash); [`super::scheme`]
//! adds what happens when an entry crosses from group 0 to group 1 or leaves the last level.

use crate::flash::Ppn;
use crate::hash::StateHasher;
use crate::trace::generate::rng::SplitMix64;

/// A data page cached with its entry: the version RAM holds, and whether flash lacks it
/// (a buffered write) or has it too (a page cached by a read).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Data {
    /// Version of the page's content in RAM.
    pub version: u32,
    /// Written in RAM: flash holds no copy of this version.
    pub dirty: bool,
}

/// One mapping entry of the structure, in 16 bytes: a push moves one per level through
/// megabytes of levels, and an `Option<Data>` field made it 20 (a quarter of them across
/// two cache lines).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Slot {
    /// Logical page.
    pub lpn: u32,
    /// Its flash page (unmapped while a dirty data page stands in for it).
    pub ppn: Ppn,
    /// The entry differs from its translation page on flash.
    pub dirty: bool,
    /// The data page, while RAM caches it (group 0 only): [`Slot::data`].
    page: Page,
    /// The cached page's version (0 without one).
    version: u32,
}

/// Whether a slot caches its data page, and how.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Page {
    None,
    Clean,
    Dirty,
}

impl Slot {
    /// An entry without its data page.
    pub fn new(lpn: u32, ppn: Ppn, dirty: bool) -> Self {
        Slot { lpn, ppn, dirty, page: Page::None, version: 0 }
    }

    /// The data page, while RAM caches it (group 0 only).
    pub fn data(&self) -> Option<Data> {
        match self.page {
            Page::None => None,
            Page::Clean => Some(Data { version: self.version, dirty: false }),
            Page::Dirty => Some(Data { version: self.version, dirty: true }),
        }
    }

    /// Caches `data` (or none).
    pub fn set_data(&mut self, data: Option<Data>) {
        (self.page, self.version) = match data {
            None => (Page::None, 0),
            Some(d) => (if d.dirty { Page::Dirty } else { Page::Clean }, d.version),
        };
    }

    /// Drops the cached page, returning it.
    pub fn take_data(&mut self) -> Option<Data> {
        let d = self.data();
        self.set_data(None);
        d
    }
}

/// LPN → (level, position in it), as an array over the LPNs seen (8 bytes each): one load
/// per look-up where a hash map cost a hash and a probe (a third of JTL's time).
#[derive(Debug, Clone, Default)]
struct Positions {
    at: Vec<u64>,
    len: usize,
}

impl Positions {
    const NONE: u64 = u64::MAX;

    fn len(&self) -> usize {
        self.len
    }

    fn get(&self, lpn: u32) -> Option<(usize, usize)> {
        let v = *self.at.get(lpn as usize)?;
        (v != Self::NONE).then_some(((v >> 32) as usize, (v & 0xFFFF_FFFF) as usize))
    }

    /// Makes room for `lpn` (a page the index has not seen).
    #[inline]
    fn reserve(&mut self, lpn: u32) {
        let k = lpn as usize;
        if k >= self.at.len() {
            self.at.resize((k + 1).next_power_of_two(), Self::NONE);
        }
    }

    #[inline]
    fn insert(&mut self, lpn: u32, (n, i): (usize, usize)) {
        self.reserve(lpn);
        let k = lpn as usize;
        if self.at[k] == Self::NONE {
            self.len += 1;
        }
        self.at[k] = (n as u64) << 32 | i as u64;
    }

    /// `lpn_in` takes `lpn_out`'s place (held, `lpn_in` not; both seen): the count stays.
    #[inline]
    fn swap(&mut self, lpn_out: u32, lpn_in: u32, (n, i): (usize, usize)) {
        self.at[lpn_out as usize] = Self::NONE;
        self.at[lpn_in as usize] = (n as u64) << 32 | i as u64;
    }

    fn remove(&mut self, lpn: u32) -> Option<(usize, usize)> {
        let old = self.get(lpn)?;
        self.at[lpn as usize] = Self::NONE;
        self.len -= 1;
        Some(old)
    }
}

/// `rng.below(2^n)`, the draw of a full level `n`: the top `n` bits of one draw (no draw is
/// rejected for a power of two), without the 128-bit product.
fn draw_full(rng: &mut SplitMix64, n: usize) -> usize {
    // Two shifts, so that level 0 (one entry) takes no bits and still uses one draw.
    ((rng.next_u64() >> 1) >> (63 - n)) as usize
}

/// More levels than any RAM could fill (level n holds 2^n entries of 8 bytes; a depth is the
/// log of a 64-bit count).
pub const MAX_DEPTH: usize = 64;

/// A push's way down ([`Levels::path`]): from level `from`, `full` full levels, in the
/// `k`-th of which the entry at `picks[k]` is passed one level down.
pub struct Path {
    from: usize,
    picks: [u32; MAX_DEPTH],
    full: usize,
}

impl Path {
    /// Full levels the push passes through.
    pub fn full(&self) -> usize {
        self.full
    }

    /// The level of the `k`-th full level.
    pub fn level(&self, k: usize) -> usize {
        self.from + k
    }
}

/// The levels, an index from LPN to position, and the seeded generator that picks the
/// entry a full level passes down (same seed, same run; cloned with a checkpoint).
#[derive(Debug, Clone)]
pub struct Levels {
    levels: Vec<Vec<Slot>>,
    /// LPN → (level, position in it).
    index: Positions,
    /// Levels 0..group0 form group 0: their entries may have their data page in RAM.
    group0: usize,
    rng: SplitMix64,
}

impl Levels {
    /// `depth` empty levels (level n holds 2^n entries), the first `group0` of them group 0.
    pub fn new(depth: usize, group0: usize, seed: u64) -> Self {
        Levels {
            levels: vec![Vec::new(); depth],
            index: Positions::default(),
            group0: group0.min(depth),
            rng: SplitMix64::new(seed),
        }
    }

    /// Number of levels.
    pub fn depth(&self) -> usize {
        self.levels.len()
    }

    /// Levels in group 0 (whose entries may keep their data page in RAM).
    pub fn group0(&self) -> usize {
        self.group0
    }

    /// Entries level `n` may hold.
    pub fn capacity(n: usize) -> usize {
        1 << n
    }

    /// Entries held.
    pub fn len(&self) -> usize {
        self.index.len()
    }

    /// Data pages held (all in group 0).
    pub fn data_pages(&self) -> usize {
        self.levels[..self.group0].iter().flatten().filter(|s| s.data().is_some()).count()
    }

    /// Level `n`'s entries (in no particular order: a level is a set of similar recency).
    pub fn level(&self, n: usize) -> &[Slot] {
        &self.levels[n]
    }

    /// Every entry, top level first.
    pub fn iter(&self) -> impl Iterator<Item = &Slot> {
        self.levels.iter().flatten()
    }

    /// The level holding `lpn`'s entry (tests).
    #[cfg(test)]
    pub fn level_of(&self, lpn: u32) -> Option<usize> {
        self.index.get(lpn).map(|(n, _)| n)
    }

    /// `lpn`'s entry.
    pub fn get(&self, lpn: u32) -> Option<&Slot> {
        self.index.get(lpn).map(|(n, i)| &self.levels[n][i])
    }

    /// `lpn`'s entry, mutable.
    pub fn get_mut(&mut self, lpn: u32) -> Option<&mut Slot> {
        let (n, i) = self.index.get(lpn)?;
        Some(&mut self.levels[n][i])
    }

    /// Takes `lpn`'s entry out, leaving a vacancy in its level.
    pub fn take(&mut self, lpn: u32) -> Option<Slot> {
        let (n, i) = self.index.remove(lpn)?;
        let slot = self.levels[n].swap_remove(i);
        if let Some(moved) = self.levels[n].get(i) {
            self.index.insert(moved.lpn, (n, i));
        }
        Some(slot)
    }

    /// Draws the path of a push of `lpn`'s entry from level `from`: each full level it
    /// passes, in order, with the position the generator picks there (the draws placing one
    /// entry at a time would make: a full level keeps its size while a push passes through,
    /// so every draw is known before the first move). Starts loading each picked slot:
    /// random places in megabytes that the moves would otherwise meet one level at a time.
    /// Not the index entries of the slots' pages: finding them waits for the slots, which
    /// held the push up (a move only stores to those entries, and stores wait in the store
    /// buffer; 5 % faster without).
    pub fn path(&mut self, lpn: u32, from: usize) -> Path {
        self.index.reserve(lpn);
        let mut path = Path { from, picks: [0; MAX_DEPTH], full: 0 };
        for n in from..self.levels.len() {
            let level = &self.levels[n];
            if level.len() < Self::capacity(n) {
                break;
            }
            let i = draw_full(&mut self.rng, n);
            crate::prefetch::element(level, i);
            path.picks[path.full] = i as u32;
            path.full += 1;
        }
        path
    }

    /// The entry `path` picks in its `k`-th full level, which [`Levels::pass`] will pass
    /// down (read before the push moves anything).
    pub fn picked(&self, path: &Path, k: usize) -> &Slot {
        &self.levels[path.from + k][path.picks[k] as usize]
    }

    /// Puts `slot` in place of the entry `path` picked in its `k`-th full level and returns
    /// that entry, now outside the structure (its index entry cleared).
    pub fn pass(&mut self, path: &Path, k: usize, slot: Slot) -> Slot {
        let (n, i) = (path.from + k, path.picks[k] as usize);
        let out = std::mem::replace(&mut self.levels[n][i], slot);
        self.index.swap(out.lpn, slot.lpn, (n, i));
        out
    }

    /// Puts `slot` in the level where `path` stops, which has room; `false` (and nothing
    /// done) when the path passes every level.
    pub fn settle(&mut self, path: &Path, slot: Slot) -> bool {
        let n = path.from + path.full;
        let Some(level) = self.levels.get_mut(n) else { return false };
        self.index.insert(slot.lpn, (n, level.len()));
        level.push(slot);
        true
    }

    /// Starts loading `lpn`'s index entry (the first step of a look-up); changes nothing.
    pub fn prefetch_index(&self, lpn: u32) {
        crate::prefetch::element(&self.index.at, lpn as usize);
    }

    /// Starts loading `lpn`'s slot, when held (its index entry should be loaded already:
    /// [`Levels::prefetch_index`] a little earlier); changes nothing.
    pub fn prefetch_slot(&self, lpn: u32) {
        if let Some((n, i)) = self.index.get(lpn) {
            crate::prefetch::element(&self.levels[n], i);
        }
    }

    /// The general form of one step of a push, which [`Levels::path`], [`Levels::pass`] and
    /// [`Levels::settle`] must match (tests). Puts `slot` in level `n`. A level with room
    /// keeps it (`None`); a full one keeps it in place of a randomly chosen entry, which it
    /// returns (to go one level down).
    #[cfg(test)]
    pub fn place(&mut self, n: usize, slot: Slot) -> Option<Slot> {
        let level = &mut self.levels[n];
        if level.len() < Self::capacity(n) {
            self.index.insert(slot.lpn, (n, level.len()));
            level.push(slot);
            return None;
        }
        let i = self.rng.below(level.len() as u64) as usize;
        let out = std::mem::replace(&mut level[i], slot);
        self.index.remove(out.lpn);
        self.index.insert(slot.lpn, (n, i));
        Some(out)
    }

    /// Feeds the levels (in order) and the generator's state into a hash.
    pub fn hash_into(&self, h: &mut StateHasher) {
        for level in &self.levels {
            h.u64(level.len() as u64);
            for s in level {
                h.u32(s.lpn);
                h.u32(s.ppn);
                h.bytes(&[s.dirty as u8]);
                match s.data() {
                    Some(d) => {
                        h.u32(d.version);
                        h.bytes(&[1 + d.dirty as u8]);
                    }
                    None => h.bytes(&[0]),
                }
            }
        }
        // The next draw stands for the generator's state.
        h.u64(self.rng.clone().next_u64());
    }

    /// The index agrees with the levels, no level is over capacity, and only group 0 holds
    /// data pages. Returns what is wrong.
    pub fn check(&self) -> std::result::Result<(), String> {
        let mut n_entries = 0;
        for (n, level) in self.levels.iter().enumerate() {
            if level.len() > Self::capacity(n) {
                return Err(format!("level {n} holds {} entries, over {}", level.len(), Self::capacity(n)));
            }
            for (i, s) in level.iter().enumerate() {
                if self.index.get(s.lpn) != Some((n, i)) {
                    return Err(format!("the index misplaces LPN {} (level {n})", s.lpn));
                }
                if n >= self.group0 && s.data().is_some() {
                    return Err(format!("LPN {} keeps its data page in level {n}, below group 0", s.lpn));
                }
            }
            n_entries += level.len();
        }
        if n_entries != self.index.len() {
            return Err(format!("{} entries but {} indexed", n_entries, self.index.len()));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A full level's draw is exactly the generator's `below(2^n)`, and leaves the generator
    /// in the same state, at every level a depth allows.
    #[test]
    fn draw_full_matches_below() {
        let (mut a, mut b) = (SplitMix64::new(24), SplitMix64::new(24));
        for n in 0..MAX_DEPTH {
            for _ in 0..50 {
                assert_eq!(draw_full(&mut a, n), b.below(1 << n) as usize, "level {n}");
            }
        }
        assert_eq!(a.next_u64(), b.next_u64());
    }

    /// A slot keeps what its `Option<Data>` said, in 16 bytes.
    #[test]
    fn a_slot_keeps_its_page_in_16_bytes() {
        assert_eq!(std::mem::size_of::<Slot>(), 16);
        let mut s = Slot::new(3, 9, true);
        assert_eq!(s.data(), None);
        for d in [Data { version: u32::MAX, dirty: true }, Data { version: 0, dirty: false }] {
            s.set_data(Some(d));
            assert_eq!(s.data(), Some(d));
            assert_eq!((s.lpn, s.ppn, s.dirty), (3, 9, true));
        }
        assert_eq!(s.take_data(), Some(Data { version: 0, dirty: false }));
        assert_eq!(s, Slot::new(3, 9, true));
    }

    fn slot(lpn: u32) -> Slot {
        Slot::new(lpn, lpn + 7, lpn.is_multiple_of(3))
    }

    /// A push along a drawn path (every draw first, then the moves) leaves the structure, the
    /// index and the generator as placing the entry one level at a time does, and passes the
    /// same entry out of the last level; through hits (an entry taken out first) and misses,
    /// from the top level and from a lower one.
    #[test]
    fn path_push_matches_placing_level_by_level() {
        let (mut fast, mut general) = (Levels::new(7, 3, 24), Levels::new(7, 3, 24));
        let mut pick = SplitMix64::new(5);
        for step in 0..3000u32 {
            let lpn = pick.below(400) as u32;
            let from = if step % 5 == 0 { 3 } else { 0 };
            let entry = fast.take(lpn).unwrap_or_else(|| slot(lpn));
            assert_eq!(general.take(lpn).unwrap_or_else(|| slot(lpn)), entry);
            let path = fast.path(lpn, from);
            // What the push will pass out of each level, named before it moves (the
            // eviction's hint reads the last one).
            let picked: Vec<Slot> = (0..path.full()).map(|k| *fast.picked(&path, k)).collect();
            let mut carry = entry;
            for (k, &out) in picked.iter().enumerate() {
                carry = fast.pass(&path, k, carry);
                assert_eq!(carry, out, "step {step}");
            }
            let fast_out = (!fast.settle(&path, carry)).then_some(carry);
            let mut carry = Some(entry);
            for n in from..general.depth() {
                carry = general.place(n, carry.expect("still passing"));
                if carry.is_none() {
                    break;
                }
            }
            assert_eq!(fast_out, carry, "step {step}");
            assert_eq!(fast.levels, general.levels, "step {step}");
            assert_eq!(fast.len(), general.len());
            assert_eq!(fast.rng, general.rng);
            fast.check().unwrap();
        }
        assert_eq!(fast.len(), 127, "the levels filled up");
    }
}
