//! APS's mapping partition: one LRU order over LPNs, kept as a queue of accesses
//! ([`QueueLru`]) when the partition may hold a good part of the map, as a linked list
//! ([`Lru`]) when it cannot (the queue's array spans every LPN seen, 8 bytes each, where a
//! small list's nodes stay in the CPU's cache). The same order either way (both are tested
//! against each other in `cache`), so the choice never changes what APS does.

use crate::cache::{DenseIndex, Inserted, Lru, QueueLru};
use crate::ftl::demand::MapEntry;

/// The mapping partition.
#[derive(Debug, Clone)]
pub enum MapPartition {
    Linked(Lru<u32, MapEntry, DenseIndex>),
    Queue(QueueLru<MapEntry>),
}

/// Runs `$body` with `$c` bound to whichever form `$self` has.
macro_rules! either {
    ($self:expr, $c:ident => $body:expr) => {
        match $self {
            MapPartition::Linked($c) => $body,
            MapPartition::Queue($c) => $body,
        }
    };
}

impl MapPartition {
    /// A partition of `entries` over the logical pages `0..lpns`, that may grow to `most`
    /// entries (the whole cache): a queue when `most` is at least a sixteenth of the LPNs.
    pub fn new(entries: usize, most: usize, lpns: usize) -> Self {
        if most.saturating_mul(16) >= lpns {
            MapPartition::Queue(QueueLru::new(entries))
        } else {
            MapPartition::Linked(Lru::dense(entries))
        }
    }

    pub fn capacity(&self) -> usize {
        either!(self, c => c.capacity())
    }

    pub fn len(&self) -> usize {
        either!(self, c => c.len())
    }

    pub fn is_full(&self) -> bool {
        either!(self, c => c.is_full())
    }

    /// An access: a hit becomes the most recent.
    #[inline]
    pub fn get(&mut self, lpn: &u32) -> Option<&MapEntry> {
        either!(self, c => c.get(lpn))
    }

    #[inline]
    pub fn peek(&self, lpn: &u32) -> Option<&MapEntry> {
        either!(self, c => c.peek(lpn))
    }

    #[inline]
    pub fn peek_mut(&mut self, lpn: &u32) -> Option<&mut MapEntry> {
        either!(self, c => c.peek_mut(lpn))
    }

    /// The least recently used LPN (the next victim), without touching it.
    #[inline]
    pub fn peek_lru(&self) -> Option<u32> {
        either!(self, c => c.peek_lru().map(|(&lpn, _)| lpn))
    }

    /// See [`Lru::insert_absent`].
    #[inline]
    pub fn insert_absent(&mut self, lpn: u32, e: MapEntry) -> Inserted<u32, MapEntry> {
        either!(self, c => c.insert_absent(lpn, e))
    }

    /// See [`Lru::set_capacity`].
    pub fn set_capacity(&mut self, capacity: usize) -> Vec<(u32, MapEntry)> {
        either!(self, c => c.set_capacity(capacity))
    }

    /// Entries from most to least recently used.
    pub fn iter(&self) -> Box<dyn Iterator<Item = (&u32, &MapEntry)> + '_> {
        either!(self, c => Box::new(c.iter()))
    }

    /// Starts loading where `lpn` is found ([`crate::prefetch`]); changes nothing.
    pub fn prefetch_key(&self, lpn: u32) {
        either!(self, c => c.prefetch_key(lpn))
    }

    /// Starts loading `lpn`'s entry (its slot loaded a little earlier); changes nothing.
    pub fn prefetch_entry(&self, lpn: u32) {
        either!(self, c => c.prefetch_entry(lpn))
    }
}
