//! HCFTL's CMT and Ghost-CMT (seed 001 §III.D) held as one log of entries in the order they
//! entered the CMT.
//!
//! **Why one log.** The CMT is an LRU list and the Ghost-CMT takes its victims, most recent
//! first. An LRU list is a queue in which a hit re-enters the entry at the front, so its
//! victim is always the live entry that entered it longest ago; and the Ghost-CMT's order
//! (by eviction) is therefore the order in which its entries entered the CMT. So both are
//! one log: an entry entering the CMT is appended; a hit, a Ghost-CMT hit or packing into a
//! DTP kills the entry's slot (a hit appends it again); the live slots below a `boundary`
//! are the Ghost-CMT and those at or above it the CMT. An eviction only moves the boundary
//! past the CMT's oldest live slot: the entry stays where it is. A loaded DTP's 512 entries
//! are 512 appends and 512 boundary steps, where two linked lists and their key → slot
//! indexes took a few random memory accesses per entry each way.
//!
//! The log holds LPNs only. One array over the LPNs gives each held entry and its slot, and
//! a slot is live exactly when its LPN's slot number names it, so killing a slot writes
//! nothing to the log and every entry is read and written where its LPN puts it: a loaded
//! DTP's entries, the CMT's victims (runs of loaded DTPs) and a packed window (an LPN range)
//! are runs of neighbouring LPNs, not slots scattered over the log. Dead slots are squeezed
//! out when they outnumber the live ones several times over (the live slots keep their
//! order).
//!
//! The order of every operation, every victim and every iteration is the one two
//! [`crate::cache::Lru`] lists (CMT, then the Ghost-CMT as an unbounded LRU list) give; the
//! tests drive both with random operations and compare.

use super::dtp_index::NO_DTP;
use super::ghost_cmt::Packing;
use super::key_set::KeySet;
use super::DTP_WORDS;
// The family's cached entry; its dirty bit is the DTP's one-bit flag (seed 001 §III.B).
use crate::bits::Bits;
use crate::flash::Ppn;
use crate::ftl::demand::MapEntry;

/// No slot: the LPN is not held. Slot numbers take the low 31 bits of [`Held::tag`].
const NIL: u32 = (1 << 31) - 1;
/// The dirty flag's bit in [`Held::tag`].
const DIRTY: u32 = 1 << 31;
/// The log is compacted when it holds more than this many slots per live entry.
const SLOTS_PER_LIVE: usize = 8;
/// ... and at least this many slots (small caches are not compacted at every append).
const MIN_COMPACT: usize = 4096;
/// ... and at most this many: slot numbers stay below [`NIL`] (the live entries, at most
/// one per LPN, are far fewer).
const MAX_COMPACT: usize = 1 << 30;
/// Entries ahead whose LPN's slot and entry a loop over a run asks for: a DTP's LPNs are
/// ascending but spread over thousands of LPNs on a large device, a cache miss every few
/// entries; far enough ahead that a dozen or so misses are under way at once.
const AHEAD: usize = 64;

/// What the log knows of one LPN: its slot ([`NIL`] when not held) and its entry, in 8
/// bytes (the array over the LPNs is read for every entry moved, so its size is its cost).
/// While the entry is not held, the PPN's word names the last DTP the entry was packed
/// into ([`NO_DTP`] when none): packing reads and writes this record anyway, so keeping
/// the DTP index's "which DTP holds this LPN" here costs no cache line of its own.
#[derive(Debug, Clone, Copy)]
struct Held {
    /// The slot number, and the entry's dirty flag in the top bit ([`DIRTY`]).
    tag: u32,
    /// The entry's PPN while held; the last DTP holding it otherwise.
    ppn: u32,
}

const NOT_HELD: Held = Held { tag: NIL, ppn: NO_DTP };

impl Held {
    /// Slot `slot` holding PPN `ppn` with its dirty flag (raw, not a [`MapEntry`]: moving a
    /// held entry to a new slot need not unpack and repack its word).
    #[inline]
    fn new(slot: usize, ppn: Ppn, dirty: bool) -> Self {
        Held { tag: slot as u32 | if dirty { DIRTY } else { 0 }, ppn }
    }

    fn slot(&self) -> u32 {
        self.tag & NIL
    }

    /// Leaves its slot (the entry is no longer held, and not in a DTP).
    fn kill(&mut self) {
        self.tag |= NIL;
        self.ppn = NO_DTP;
    }

    fn dirty(&self) -> bool {
        self.tag & DIRTY != 0
    }

    fn entry(&self) -> MapEntry {
        MapEntry::new(self.ppn, self.dirty())
    }
}

/// [`EntryLog::cmt_admit_page`]'s loop: gives each entry of the page (`words`, `flags` as
/// there) its slot from `base` on, and its LPN its place in `log` (the log from `base`); the
/// entries after `at` move down one slot. A function of its own, not inlined: the loop runs
/// for every entry of every loaded DTP, and on its own its state fits in registers (inlined
/// into the scheme, the register allocation of this loop varied with unrelated code).
#[inline(never)]
fn place_page(held: &mut [Held], log: &mut [u32], words: &[u32], flags: &[u32], base: usize, at: usize) {
    const W: usize = DTP_WORDS;
    for (c, pairs) in words.chunks(32 * W).enumerate() {
        let f = flags.get(c).copied().unwrap_or(0);
        for (j, e) in pairs.chunks_exact(W).enumerate() {
            let i = c * 32 + j;
            if let Some(&ahead) = words.get(W * (i + AHEAD)) {
                crate::prefetch::element(held, ahead as usize);
            }
            let k = i - usize::from(i > at);
            held[e[0] as usize] = Held { tag: (base + k) as u32 | ((f >> j & 1) * DIRTY), ppn: e[1] };
            log[k] = e[0];
        }
    }
}

/// The CMT (an LRU list of `cmt_capacity` entries) and the Ghost-CMT (its victims, packed
/// by the caller once `ghost_capacity` are held) over one log; with the Ghost-CMT's LPNs in
/// a sorted set for packing.
///
/// The log holds LPNs only; each entry lives with its slot number in an array over the
/// LPNs, and a slot is live exactly when its LPN's slot number names it (a slot left behind
/// by a hit or a take names an LPN whose number is another or [`NIL`]: killing a slot
/// writes nothing to the log). So the entries of a loaded DTP, of the CMT's victims (runs of
/// loaded DTPs) and of a packed window (an LPN range) are read and written in LPN order,
/// not scattered over the log.
#[derive(Debug, Clone)]
pub struct EntryLog {
    log: Vec<u32>,
    /// LPN → its slot and entry; grows to the largest LPN held.
    held: Vec<Held>,
    /// No live slot is below this one (packing the oldest entries would otherwise walk the
    /// dead slots their predecessors left, again for every DTP).
    first: usize,
    /// Live slots below are the Ghost-CMT's, at or above the CMT's.
    boundary: usize,
    cmt_len: usize,
    ghost_len: usize,
    cmt_capacity: usize,
    ghost_capacity: usize,
    /// The Ghost-CMT's LPNs, for the packing question.
    sorted: KeySet,
    /// One bit per slot: set for the CMT's slots a hit or a new value left (the only way a
    /// slot at or above the boundary dies), so finding the CMT's victims reads these bits,
    /// not each victim's record (a cache miss each: their DTPs were loaded long ago). Bits
    /// below the boundary mean nothing; words past the end are zero.
    left_cmt: Bits,
    /// The LPNs there are (`held` never grows past them).
    key_space: usize,
}

impl EntryLog {
    /// An empty CMT of `cmt_capacity` entries and an empty Ghost-CMT packed at
    /// `ghost_capacity`.
    pub fn new(cmt_capacity: usize, ghost_capacity: usize) -> Self {
        EntryLog {
            log: Vec::new(),
            held: Vec::new(),
            first: 0,
            boundary: 0,
            cmt_len: 0,
            ghost_len: 0,
            cmt_capacity,
            ghost_capacity,
            sorted: KeySet::default(),
            left_cmt: Bits::default(),
            key_space: usize::MAX,
        }
    }

    /// The same, for LPNs below `key_space` (the device's logical pages).
    pub fn with_key_space(mut self, key_space: usize) -> Self {
        self.key_space = key_space;
        self
    }

    /// Entries in the CMT.
    pub fn cmt_len(&self) -> usize {
        self.cmt_len
    }

    /// Most entries the CMT holds.
    pub fn cmt_capacity(&self) -> usize {
        self.cmt_capacity
    }

    /// Entries in the Ghost-CMT.
    pub fn ghost_len(&self) -> usize {
        self.ghost_len
    }

    /// Ghost-CMT entries at which a DTP is packed.
    pub fn ghost_capacity(&self) -> usize {
        self.ghost_capacity
    }

    /// True when the Ghost-CMT must be packed.
    pub fn ghost_is_full(&self) -> bool {
        self.ghost_len >= self.ghost_capacity
    }

    fn slot(&self, lpn: u32) -> Option<usize> {
        self.held.get(lpn as usize).map(|h| h.slot()).filter(|&s| s != NIL).map(|s| s as usize)
    }

    fn cmt_slot(&self, lpn: u32) -> Option<usize> {
        self.slot(lpn).filter(|&s| s >= self.boundary)
    }

    fn ghost_slot(&self, lpn: u32) -> Option<usize> {
        self.slot(lpn).filter(|&s| s < self.boundary)
    }

    /// Whether slot `s` holds a live entry.
    fn is_live(&self, s: usize) -> bool {
        self.held[self.log[s] as usize].slot() == s as u32
    }

    /// Whether slot `s`, at or above the boundary, was left (see [`EntryLog::left_cmt`]).
    fn left_the_cmt(left_cmt: &Bits, s: usize) -> bool {
        left_cmt.contains(s as u64)
    }

    /// CMT slot `s` was left by a hit or a new value.
    fn leave_cmt(&mut self, s: usize) {
        self.left_cmt.grow(s as u64 + 1);
        self.left_cmt.insert(s as u64);
    }

    /// `lpn`'s entry in the CMT or the Ghost-CMT, without touching the order.
    pub fn peek(&self, lpn: u32) -> Option<MapEntry> {
        self.slot(lpn).map(|_| self.held[lpn as usize].entry())
    }

    /// Sets `lpn`'s entry in the CMT or the Ghost-CMT to `e`, without touching the order;
    /// false when neither holds it.
    pub fn set(&mut self, lpn: u32, e: MapEntry) -> bool {
        let Some(s) = self.slot(lpn) else { return false };
        self.held[lpn as usize] = Held::new(s, e.ppn(), e.dirty());
        true
    }

    /// The id of the last DTP `lpn`'s entry was packed into ([`EntryLog::ghost_take_sorted`]),
    /// while the CMT and the Ghost-CMT do not hold it; [`NO_DTP`] when it was never packed,
    /// or left the log otherwise since. That DTP holds the entry exactly when its record is
    /// still in the DTP index (ids are never reused, an entry is in one place at a time).
    pub fn dtp_of(&self, lpn: u32) -> u32 {
        match self.held.get(lpn as usize) {
            Some(h) if h.slot() == NIL => h.ppn,
            _ => NO_DTP,
        }
    }

    /// `lpn`'s entry if the CMT holds it, without touching the order.
    pub fn cmt_peek(&self, lpn: u32) -> Option<MapEntry> {
        self.cmt_slot(lpn).map(|_| self.held[lpn as usize].entry())
    }

    /// A CMT access: on a hit the entry moves to the front and is returned.
    pub fn cmt_get(&mut self, lpn: u32) -> Option<MapEntry> {
        let s = self.cmt_slot(lpn)?;
        let h = self.held[lpn as usize];
        if s + 1 != self.log.len() {
            self.held[lpn as usize].kill();
            self.leave_cmt(s);
            self.left(s);
            self.append(lpn, h.ppn, h.dirty());
        }
        Some(h.entry())
    }

    /// Puts `lpn` → `e` at the CMT's front (an LRU insert: a held key gets the new value).
    /// A new key into a full CMT evicts its least recently used entry into the Ghost-CMT
    /// and returns it (with no room at all, the new entry itself).
    pub fn cmt_admit(&mut self, lpn: u32, e: MapEntry) -> Option<(u32, MapEntry)> {
        debug_assert!(
            self.ghost_slot(lpn).is_none(),
            "LPN {lpn} entering the CMT from outside the Ghost-CMT"
        );
        if let Some(s) = self.cmt_slot(lpn) {
            self.held[lpn as usize].kill();
            self.leave_cmt(s);
            self.left(s);
            self.append(lpn, e.ppn(), e.dirty());
            return None;
        }
        self.cmt_len += 1;
        self.append(lpn, e.ppn(), e.dirty());
        if self.cmt_len <= self.cmt_capacity {
            return None;
        }
        // The oldest live CMT slot becomes the Ghost-CMT's most recent one.
        while Self::left_the_cmt(&self.left_cmt, self.boundary) {
            self.boundary += 1;
        }
        let victim = self.log[self.boundary];
        self.boundary += 1;
        self.cmt_len -= 1;
        self.ghost_len += 1;
        self.sorted.insert(victim);
        Some((victim, self.held[victim as usize].entry()))
    }

    /// Loads a DTP's page into the CMT: its entries (`words`: LPN and PPN of each, LPNs
    /// ascending; `flags`: their dirty bits, 32 a word) in order, then `lpn`'s as the newest,
    /// each as [`EntryLog::cmt_admit`] would; none of them may be held. The victims are the
    /// same, in the same order, found once all are appended (appended entries are newer than
    /// every live slot). Read straight from the page: no list of decoded entries between.
    /// Returns `lpn`'s entry and how many entries the CMT evicted into the Ghost-CMT (the
    /// newest of its entries, [`EntryLog::ghost_iter`]'s first); `None` when the page does
    /// not have `lpn` (nothing loaded).
    pub fn cmt_admit_page(&mut self, words: &[u32], flags: &[u32], lpn: u32) -> Option<(MapEntry, usize)> {
        const W: usize = DTP_WORDS;
        let words = &words[..words.len() / W * W];
        let n = words.len() / W;
        // `lpn`'s place by counting the smaller LPNs, not by a binary search: the page is cold
        // (written hundreds of DTPs ago), and the search's nine dependent reads each waited
        // for memory, where one pass in order streams the page the loop below reads anyway.
        let at = words.chunks_exact(W).filter(|e| e[0] < lpn).count();
        if words.get(W * at) != Some(&lpn) {
            return None;
        }
        debug_assert!(
            words.chunks_exact(W).all(|e| self.slot(e[0]).is_none()),
            "an entry of the page is held already"
        );
        if self.log.len() + n > self.compact_at() {
            self.compact();
        }
        let top = words[W * (n - 1)] as usize;
        if top >= self.held.len() {
            self.held.resize(super::grown_len(top, self.key_space), NOT_HELD);
        }
        let base = self.log.len();
        self.log.resize(base + n, lpn);
        // Entries before `lpn`'s keep their index; those after it move down one slot (so
        // `lpn`'s own slot and number, written on the way, are overwritten after it).
        place_page(&mut self.held, &mut self.log[base..], words, flags, base, at);
        self.log[base + n - 1] = lpn;
        // `lpn`'s entry read only now, from the page: nothing of it stays live in registers
        // through the loop above (a spill there costs every entry).
        let (ppn, dirty) = (words[W * at + 1], flags.get(at / 32).is_some_and(|f| f >> (at % 32) & 1 == 1));
        self.held[lpn as usize] = Held::new(base + n - 1, ppn, dirty);
        self.cmt_len += n;
        let over = self.cmt_len.saturating_sub(self.cmt_capacity);
        // The victims: the oldest live CMT slots, most of them runs of DTPs loaded earlier.
        let (log, left_cmt, mut s) = (&self.log, &self.left_cmt, self.boundary);
        self.sorted.insert_new((0..over).map(|_| {
            while Self::left_the_cmt(left_cmt, s) {
                s += 1;
            }
            s += 1;
            log[s - 1]
        }));
        self.boundary = s;
        self.cmt_len -= over;
        self.ghost_len += over;
        Some((MapEntry::new(ppn, dirty), over))
    }

    /// Removes and returns `lpn`'s entry from the Ghost-CMT (a hit moving it back to the
    /// CMT, or packing).
    pub fn ghost_take(&mut self, lpn: u32) -> Option<MapEntry> {
        let s = self.ghost_slot(lpn)?;
        let h = &mut self.held[lpn as usize];
        let entry = h.entry();
        h.kill();
        self.left(s);
        self.ghost_len -= 1;
        self.sorted.remove(lpn);
        Some(entry)
    }

    /// [`EntryLog::ghost_take`] of each of `lpns` (ascending, all in the Ghost-CMT) as they
    /// are packed into DTP `dtp`, each entry handed to `out` as position in `lpns`, LPN, PPN
    /// and dirty flag (a DTP is written as they are taken: the PPN and flag go to the page
    /// as the record holds them, not through a [`MapEntry`]'s packed word and back); the sorted keys lose them all at once, and each
    /// LPN's record remembers `dtp` ([`EntryLog::dtp_of`]). On an LPN not in the Ghost-CMT,
    /// returns it, the ones before it taken.
    pub fn ghost_take_sorted(
        &mut self,
        lpns: &[u32],
        dtp: u32,
        mut out: impl FnMut(usize, u32, Ppn, bool),
    ) -> Result<(), u32> {
        let mut lowest = usize::MAX;
        let mut taken = lpns.len();
        for (i, &lpn) in lpns.iter().enumerate() {
            if let Some(&ahead) = lpns.get(i + AHEAD) {
                crate::prefetch::element(&self.held, ahead as usize);
            }
            let Some(s) = self.ghost_slot(lpn) else {
                taken = i;
                break;
            };
            let h = &mut self.held[lpn as usize];
            let (ppn, dirty) = (h.ppn, h.dirty());
            *h = Held { tag: NIL, ppn: dtp };
            out(i, lpn, ppn, dirty);
            lowest = lowest.min(s);
        }
        if lowest != usize::MAX {
            self.left(lowest);
        }
        self.ghost_len -= taken;
        self.sorted.remove_sorted(&lpns[..taken]);
        match lpns.get(taken) {
            Some(&lpn) => Err(lpn),
            None => Ok(()),
        }
    }

    /// The LPNs of the next DTP under `packing`, ascending: `n` of them (all when fewer are
    /// held). Does not remove them (the caller allocates the DTP first, which may run GC).
    #[cfg(test)]
    pub fn ghost_choose(&self, n: usize, packing: Packing) -> Vec<u32> {
        let mut keys = Vec::new();
        self.ghost_choose_into(n, packing, &mut keys);
        keys
    }

    /// [`EntryLog::ghost_choose`] into `keys` (emptied first: a buffer the caller keeps).
    pub fn ghost_choose_into(&self, n: usize, packing: Packing, keys: &mut Vec<u32>) {
        match packing {
            Packing::Tightest => self.sorted.tightest_into(n, keys),
            Packing::Oldest => {
                keys.clear();
                keys.extend(self.ghost_iter().rev().take(n).map(|(k, _)| k));
                keys.sort_unstable();
            }
        }
    }

    /// CMT entries from most to least recently used.
    pub fn cmt_iter(&self) -> impl DoubleEndedIterator<Item = (u32, MapEntry)> + '_ {
        self.live(self.boundary, self.log.len())
    }

    /// Ghost-CMT entries from most to least recently evicted.
    pub fn ghost_iter(&self) -> impl DoubleEndedIterator<Item = (u32, MapEntry)> + '_ {
        self.live(self.first.min(self.boundary), self.boundary)
    }

    /// The live entries of slots `from..to`, newest first.
    fn live(&self, from: usize, to: usize) -> impl DoubleEndedIterator<Item = (u32, MapEntry)> + '_ {
        (from..to).rev().filter(|&s| self.is_live(s)).map(|s| {
            let lpn = self.log[s];
            (lpn, self.held[lpn as usize].entry())
        })
    }

    /// Starts loading `lpn`'s slot number and entry ([`crate::prefetch`]); changes nothing.
    pub fn prefetch_key(&self, lpn: u32) {
        crate::prefetch::element(&self.held, lpn as usize);
    }

    /// Slot `s` was left (its entry taken or moved to a newer slot): when it was the first
    /// live one, finds the next.
    fn left(&mut self, s: usize) {
        if s == self.first {
            while self.first < self.log.len() && !self.is_live(self.first) {
                self.first += 1;
            }
        }
    }

    /// Appends `lpn` → `ppn` (`dirty`) as the newest slot (the caller counts it, and has left any older
    /// slot of it).
    #[inline]
    fn append(&mut self, lpn: u32, ppn: Ppn, dirty: bool) {
        if self.log.len() >= self.compact_at() {
            self.compact();
        }
        let k = lpn as usize;
        if k >= self.held.len() {
            self.held.resize(super::grown_len(k, self.key_space), NOT_HELD);
        }
        self.held[k] = Held::new(self.log.len(), ppn, dirty);
        self.log.push(lpn);
    }

    /// The log length at which it is compacted.
    fn compact_at(&self) -> usize {
        MIN_COMPACT.max(SLOTS_PER_LIVE * (self.cmt_len + self.ghost_len)).min(MAX_COMPACT)
    }

    /// Squeezes the dead slots out, keeping the live ones in order.
    #[cold]
    #[inline(never)]
    fn compact(&mut self) {
        let (first, boundary, end) = (self.first.min(self.boundary), self.boundary, self.log.len());
        let mut kept = 0;
        let mut keep = |log: &mut Vec<u32>, held: &mut Vec<Held>, from: usize, to: usize| {
            for s in from..to {
                let lpn = log[s];
                let h = &mut held[lpn as usize];
                if h.slot() == s as u32 {
                    h.tag = (h.tag & DIRTY) | kept as u32;
                    log[kept] = lpn;
                    kept += 1;
                }
            }
            kept
        };
        self.boundary = keep(&mut self.log, &mut self.held, first, boundary);
        let kept = keep(&mut self.log, &mut self.held, boundary, end);
        // Every slot kept is live.
        self.left_cmt.clear();
        self.log.truncate(kept);
        self.first = 0;
    }

    /// The counts, the slot numbers and the sorted keys agree with the log.
    pub fn check(&self) -> std::result::Result<(), String> {
        let cmt = self.cmt_iter().count();
        let ghost = self.ghost_iter().count();
        if (cmt, ghost) != (self.cmt_len, self.ghost_len) {
            return Err(format!(
                "CMT / Ghost-CMT hold {cmt} / {ghost} entries but count {} / {}",
                self.cmt_len, self.ghost_len
            ));
        }
        let held = self.held.iter().filter(|h| h.slot() != NIL).count();
        if held != cmt + ghost
            || self
                .held
                .iter()
                .enumerate()
                .any(|(l, h)| h.slot() != NIL && self.log.get(h.slot() as usize) != Some(&(l as u32)))
        {
            return Err("CMT / Ghost-CMT: an entry's slot number is wrong".into());
        }
        if (0..self.first).any(|s| self.is_live(s)) {
            return Err("CMT / Ghost-CMT: a live slot below the first live one".into());
        }
        if (self.boundary..self.log.len()).any(|s| Self::left_the_cmt(&self.left_cmt, s) == self.is_live(s)) {
            return Err("CMT: a slot's left bit disagrees with its entry".into());
        }
        if self.left_cmt.words().iter().skip(self.log.len().div_ceil(64)).any(|&w| w != 0) {
            return Err("CMT: a left bit past the log's end".into());
        }
        if self.sorted.len() != ghost || self.ghost_iter().any(|(k, _)| !self.sorted.contains(k)) {
            return Err("Ghost-CMT's sorted keys differ from its entries".into());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cache::{tightest_window, DenseIndex, Inserted, Lru};

    /// The structure this log replaced, kept as the reference: the CMT as an LRU list whose
    /// victims enter the Ghost-CMT, an unbounded LRU list (most recently evicted first).
    struct TwoLists {
        cmt: Lru<u32, MapEntry, DenseIndex>,
        ghost: Lru<u32, MapEntry, DenseIndex>,
    }

    impl TwoLists {
        fn admit(&mut self, lpn: u32, e: MapEntry) -> Option<(u32, MapEntry)> {
            let Inserted::Evicted(k, v) = self.cmt.insert(lpn, e) else { return None };
            self.ghost.insert(k, v);
            Some((k, v))
        }

        fn choose(&self, n: usize, packing: Packing) -> Vec<u32> {
            let mut keys: Vec<u32> = match packing {
                Packing::Tightest => return tightest_window(self.ghost.iter().map(|(&k, _)| k), n),
                Packing::Oldest => self.ghost.iter().rev().take(n).map(|(&k, _)| k).collect(),
            };
            keys.sort_unstable();
            keys
        }
    }

    fn ghost_of(lpns: &[u32]) -> EntryLog {
        // A CMT of one entry: each admit evicts the previous one into the Ghost-CMT.
        let mut log = EntryLog::new(1, lpns.len());
        for (i, &lpn) in lpns.iter().chain(&[1000]).enumerate() {
            log.cmt_admit(lpn, MapEntry::new(100 + i as u32, i % 2 == 0));
        }
        log
    }

    /// The paper's rule on a hand-made Ghost-CMT: of 7, 40, 3, 41, 90, 43, 12 (evicted in
    /// that order), the three with the smallest spread are 40, 41, 43 (spread 3; 3, 7, 12
    /// spreads 9). Packing the oldest three instead gives 3, 7, 40 (spread 37).
    #[test]
    fn packing_takes_the_tightest_window_not_the_oldest() {
        let g = ghost_of(&[7, 40, 3, 41, 90, 43, 12]);
        assert!(g.ghost_is_full());
        assert_eq!(g.ghost_choose(3, Packing::Tightest), vec![40, 41, 43]);
        assert_eq!(g.ghost_choose(3, Packing::Oldest), vec![3, 7, 40]);
        assert_eq!(g.ghost_choose(10, Packing::Tightest), vec![3, 7, 12, 40, 41, 43, 90]);
    }

    /// A CMT hit moves the entry to the front, so the victim is the entry used longest ago
    /// (not the one admitted first); an evicted entry keeps its value in the Ghost-CMT.
    #[test]
    fn a_hit_saves_an_entry_from_eviction_and_victims_keep_their_values() {
        let mut log = EntryLog::new(2, 10);
        assert_eq!(log.cmt_admit(1, MapEntry::clean(11)), None);
        assert_eq!(log.cmt_admit(2, MapEntry::clean(12)), None);
        assert_eq!(log.cmt_get(1), Some(MapEntry::clean(11)));
        assert_eq!(log.cmt_admit(3, MapEntry::clean(13)), Some((2, MapEntry::clean(12))));
        assert!(log.set(2, MapEntry::new(12, true)));
        assert_eq!(log.cmt_get(2), None, "2 is in the Ghost-CMT, not the CMT");
        assert_eq!(log.ghost_take(2), Some(MapEntry::new(12, true)));
        assert_eq!(log.ghost_take(2), None);
        assert_eq!(log.cmt_iter().map(|(k, _)| k).collect::<Vec<_>>(), [3, 1]);
        log.check().unwrap();
    }

    /// Random admits (one by one, and DTP pages of new LPNs at once, up to a few hundred
    /// entries with their flags, the one asked for last, as a loaded DTP enters), hits,
    /// Ghost-CMT hits, packings (both rules), value changes, on small and large caches and
    /// long enough runs to compact the log many times: every victim,
    /// every answer, every packing choice and both orders equal the two lists'.
    #[test]
    fn behaves_as_two_lru_lists_under_random_operations() {
        let mut rng = crate::test_rng::Rng(24);
        let mut next = |m: u64| rng.below(m);
        for round in 0..24 {
            let space = [40, 300, 5000][round % 3];
            let cmt_cap = [0, 1, 7, 60, 400][round % 5];
            let ghost_cap = 1 + next(80) as usize;
            let per_dtp = 1 + next(ghost_cap as u64) as usize;
            let mut log = EntryLog::new(cmt_cap, ghost_cap);
            let mut model =
                TwoLists { cmt: Lru::dense(cmt_cap), ghost: Lru::dense(crate::cache::lru::MAX_CAPACITY) };
            // The DTP each LPN was last packed into, while it is out of the two lists.
            let mut packed_into: std::collections::HashMap<u32, u32> = Default::default();
            let mut dtps = 0;
            for step in 0..20_000 {
                let lpn = next(space) as u32;
                let e = MapEntry::new(next(1 << 20) as u32, next(2) == 0);
                match next(10) {
                    0..=3 => {
                        if model.ghost.peek(&lpn).is_none() {
                            packed_into.remove(&lpn);
                            assert_eq!(
                                log.cmt_admit(lpn, e),
                                model.admit(lpn, e),
                                "round {round} step {step}"
                            );
                        }
                    }
                    4 if next(3) == 0 => {
                        // A loaded DTP: new LPNs ascending, the one asked for last.
                        let mut page: Vec<(u32, MapEntry)> = Vec::new();
                        for _ in 0..1 + next(if round % 2 == 0 { 40 } else { 200 }) {
                            let l = next(space) as u32;
                            let held = model.cmt.peek(&l).is_some() || model.ghost.peek(&l).is_some();
                            if !held && !page.iter().any(|&(k, _)| k == l) {
                                page.push((l, MapEntry::new(next(1 << 20) as u32, next(2) == 0)));
                            }
                        }
                        if page.is_empty() {
                            continue;
                        }
                        page.sort_unstable_by_key(|&(k, _)| k);
                        for (l, _) in &page {
                            packed_into.remove(l);
                        }
                        let c = super::super::dtp::content_of(&page);
                        let absent = (0..space as u32).find(|l| page.iter().all(|&(k, _)| k != *l));
                        if let Some(l) = absent.filter(|_| next(8) == 0) {
                            assert_eq!(log.cmt_admit_page(&c.data, &c.oob, l), None);
                        }
                        let mut order = page.clone();
                        let asked = order.remove(next(order.len() as u64) as usize);
                        order.push(asked);
                        let victims: Vec<(u32, MapEntry)> =
                            order.iter().filter_map(|&(l, e)| model.admit(l, e)).collect();
                        let got = log.cmt_admit_page(&c.data, &c.oob, asked.0);
                        assert_eq!(got, Some((asked.1, victims.len())), "round {round} step {step}");
                        let newest: Vec<_> = log.ghost_iter().take(victims.len()).collect();
                        assert_eq!(newest, victims.into_iter().rev().collect::<Vec<_>>());
                        let cmt: Vec<_> = model.cmt.iter().map(|(&k, &v)| (k, v)).collect();
                        assert_eq!(log.cmt_iter().collect::<Vec<_>>(), cmt);
                    }
                    4..=5 => assert_eq!(log.cmt_get(lpn), model.cmt.get(&lpn).copied()),
                    6 => {
                        if model.ghost.peek(&lpn).is_some() {
                            packed_into.remove(&lpn);
                        }
                        assert_eq!(log.ghost_take(lpn), model.ghost.remove(&lpn));
                    }
                    7 => {
                        let held = model.cmt.peek_mut(&lpn).or_else(|| model.ghost.peek_mut(&lpn));
                        let was = held.is_some();
                        if let Some(x) = held {
                            *x = e;
                        }
                        assert_eq!(log.set(lpn, e), was);
                    }
                    _ => {
                        let packing = if next(4) == 0 { Packing::Oldest } else { Packing::Tightest };
                        while log.ghost_is_full() {
                            let chosen = log.ghost_choose(per_dtp, packing);
                            assert_eq!(chosen, model.choose(per_dtp, packing), "round {round} step {step}");
                            let want: Vec<_> =
                                chosen.iter().map(|l| (*l, model.ghost.remove(l).unwrap())).collect();
                            if next(2) == 0 {
                                let got: Vec<_> =
                                    chosen.iter().map(|&l| (l, log.ghost_take(l).unwrap())).collect();
                                assert_eq!(got, want);
                                chosen.iter().for_each(|l| _ = packed_into.remove(l));
                            } else {
                                dtps += 1;
                                chosen.iter().for_each(|&l| _ = packed_into.insert(l, dtps));
                                let mut got = Vec::new();
                                let taken = log.ghost_take_sorted(&chosen, dtps, |i, l, ppn, dirty| {
                                    assert_eq!(i, got.len());
                                    got.push((l, MapEntry::new(ppn, dirty)));
                                });
                                assert_eq!(taken, Ok(()));
                                assert_eq!(got, want);
                            }
                        }
                    }
                }
                assert_eq!((log.cmt_len(), log.ghost_len()), (model.cmt.len(), model.ghost.len()));
                assert_eq!(log.peek(lpn), model.cmt.peek(&lpn).or_else(|| model.ghost.peek(&lpn)).copied());
                assert_eq!(log.cmt_peek(lpn), model.cmt.peek(&lpn).copied());
                assert_eq!(log.dtp_of(lpn), packed_into.get(&lpn).copied().unwrap_or(NO_DTP));
                if step % 997 == 0 {
                    log.check().unwrap();
                    let cmt: Vec<_> = model.cmt.iter().map(|(&k, &v)| (k, v)).collect();
                    let ghost: Vec<_> = model.ghost.iter().map(|(&k, &v)| (k, v)).collect();
                    assert_eq!(log.cmt_iter().collect::<Vec<_>>(), cmt);
                    assert_eq!(log.ghost_iter().collect::<Vec<_>>(), ghost);
                }
            }
        }
    }
}
