//! DFTL's CMT: plain LRU (the default) or segmented LRU (the DFTL paper's, issue 10 item 6),
//! behind one small interface so the policy code does not care which.

use crate::cache::{Inserted, Lru, Slru};

use super::Entry;

/// The cached mapping table.
#[derive(Debug, Clone)]
pub(super) enum Cmt {
    /// One LRU list.
    Lru(Lru<u32, Entry>),
    /// Probationary and protected segments.
    Segmented(Slru<u32, Entry>),
}

impl Cmt {
    /// Looks `lpn` up as an access (recency updated, promotion in the segmented form).
    pub fn get(&mut self, lpn: &u32) -> Option<Entry> {
        match self {
            Cmt::Lru(c) => c.get(lpn).copied(),
            Cmt::Segmented(c) => c.get(lpn).copied(),
        }
    }

    pub fn peek(&self, lpn: &u32) -> Option<&Entry> {
        match self {
            Cmt::Lru(c) => c.peek(lpn),
            Cmt::Segmented(c) => c.peek(lpn),
        }
    }

    pub fn peek_mut(&mut self, lpn: &u32) -> Option<&mut Entry> {
        match self {
            Cmt::Lru(c) => c.peek_mut(lpn),
            Cmt::Segmented(c) => c.peek_mut(lpn),
        }
    }

    pub fn insert(&mut self, lpn: u32, e: Entry) -> Inserted<u32, Entry> {
        match self {
            Cmt::Lru(c) => c.insert(lpn, e),
            Cmt::Segmented(c) => c.insert(lpn, e),
        }
    }

    pub fn len(&self) -> usize {
        match self {
            Cmt::Lru(c) => c.len(),
            Cmt::Segmented(c) => c.len(),
        }
    }

    pub fn capacity(&self) -> usize {
        match self {
            Cmt::Lru(c) => c.capacity(),
            Cmt::Segmented(c) => c.capacity(),
        }
    }

    /// Entries from kept-longest to next victim (segmented: protected, then probationary).
    pub fn iter(&self) -> Box<dyn Iterator<Item = (&u32, &Entry)> + '_> {
        match self {
            Cmt::Lru(c) => Box::new(c.iter()),
            Cmt::Segmented(c) => Box::new(c.iter().map(|(_, k, v)| (k, v))),
        }
    }
}
