//! DFTL's RAM as the generic inspection shapes: the CMT as an LRU list, the GTD as a table.

use super::Dftl;
use crate::ftl::demand::{cmt_list, gtd_table, ram_budgets, ENTRY_BYTES};
use crate::inspect::{InspectQuery, Inspection};

impl Dftl {
    /// The CMT in LRU order (MRU first, with dirty bits and translation page as group),
    /// the GTD, and the RAM split between them.
    pub(super) fn inspection(&self, q: &InspectQuery) -> Inspection {
        let cmt = (self.cmt.len() as u64 * ENTRY_BYTES, self.cmt.capacity() as u64 * ENTRY_BYTES);
        let (ram_used, budgets) = ram_budgets(&self.core, &[("CMT", cmt.0, cmt.1)]);
        Inspection {
            ram_used,
            budgets,
            structures: vec![
                cmt_list(&self.core, q, "CMT", &self.cmt),
                // DFTL caches single entries, never whole translation pages: no GTD row is
                // "in RAM".
                gtd_table(&self.core, q, |_| false),
            ],
            ..Inspection::default()
        }
    }
}
