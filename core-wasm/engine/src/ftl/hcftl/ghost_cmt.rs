//! HCFTL's Ghost-CMT (seed 001 §III.D): a small second cache of whole mapping entries
//! (LPN, PPN, dirty flag) evicted from the CMT. When it is full, a fixed number of its
//! entries is packed into one dynamic translation page (DTP): by default the entries whose
//! `max − min` LPN is smallest, so the DTP's index range rules out most lookups before its
//! bloom filter is tested.
//!
//! **Finding the window.** The entries' LPNs are also kept in a sorted set
//! ([`super::key_set::KeySet`]), whose search skips the stretches of LPNs too sparse to beat the best window
//! found (the same answer as one pass over the sorted keys, [`crate::cache::tightest_window`],
//! which a Ghost-CMT of `G` entries made `O(G)` host work per DTP written). The scheme still
//! charges the modelled pass as `G` cache operations. Ties go to the lowest LPNs.
//!
//! Despite its name this is not a [`crate::cache::Ghost`] (keys only): entries are real and
//! a lookup that finds one is a hit in RAM. The entries live with the CMT's in one log
//! ([`super::entry_log`]); this module says which of them form a DTP.

/// Which entries form the next DTP.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Packing {
    /// The `n` entries whose `max − min` LPN is smallest (the paper's rule).
    Tightest,
    /// The `n` entries evicted earliest: what packing evicted entries without a Ghost-CMT
    /// amounts to (seed 001 Fig. 7(a)'s configurations without it).
    Oldest,
}
