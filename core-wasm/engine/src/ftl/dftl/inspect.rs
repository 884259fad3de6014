//! DFTL's RAM as the generic inspection shapes: the CMT as an LRU list, the GTD as a table.

use super::Dftl;
use crate::events::CacheLevel;
use crate::ftl::demand::{entry_list, gtd_table, ram_budgets, ENTRY_BYTES};
use crate::inspect::{InspectQuery, Inspection, Order};

impl Dftl {
    /// The CMT in LRU order (MRU first, with dirty bits and translation page as group),
    /// the GTD, and the RAM split between them.
    pub(super) fn inspection(&self, q: &InspectQuery) -> Inspection {
        let cmt = self.cmt.entries();
        let size = (self.cmt.capacity() as u64, self.cmt.len() as u64);
        let (ram_used, budgets) =
            ram_budgets(&self.core, &[("CMT", size.1 * ENTRY_BYTES, size.0 * ENTRY_BYTES)]);
        Inspection {
            ram_used,
            budgets,
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
