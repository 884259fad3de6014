//! DFTL's RAM as the generic inspection shapes: the CMT as an LRU list, the GTD as a table.

use super::Dftl;
use crate::events::CacheLevel;
use crate::ftl::demand::{entry_list, gtd_table, ENTRY_BYTES};
use crate::inspect::{Budget, InspectQuery, Inspection, Order};

impl Dftl {
    /// The CMT in LRU order (MRU first, with dirty bits and translation page as group),
    /// the GTD, and the RAM split between them.
    pub(super) fn inspection(&self, q: &InspectQuery) -> Inspection {
        let gtd_bytes = self.core.gtd_bytes();
        let cmt_used = self.cmt.len() as u64 * ENTRY_BYTES;
        let cmt_free = (self.cmt.capacity() - self.cmt.len()) as u64 * ENTRY_BYTES;
        let cmt = self.cmt.entries();
        let size = (self.cmt.capacity() as u64, self.cmt.len() as u64);
        Inspection {
            ram_used: gtd_bytes + cmt_used,
            budgets: vec![
                Budget { name: "GTD".into(), bytes: gtd_bytes },
                Budget { name: "CMT".into(), bytes: cmt_used },
                Budget { name: "CMT (free)".into(), bytes: cmt_free },
            ],
            structures: vec![
                entry_list(&self.core, q, ("cmt", "CMT"), CacheLevel::Entry, Order::Lru, size, cmt),
                // DFTL caches single entries, never whole translation pages: no GTD row is
                // "in RAM".
                gtd_table(&self.core, q, |_| false),
            ],
            ..Inspection::default()
        }
    }
}
