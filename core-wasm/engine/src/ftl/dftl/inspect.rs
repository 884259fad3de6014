//! DFTL's RAM as the generic inspection shapes: the CMT as an LRU list, the GTD as a table.

use super::{Dftl, CMT_ENTRY_BYTES, UNMAPPED};
use crate::events::CacheLevel;
use crate::flash::Ppn;
use crate::inspect::{
    indexed_keys, summarise, Budget, Entry, InspectQuery, Inspection, Order, Row, Structure,
};

impl Dftl {
    /// The CMT in LRU order (MRU first, with dirty bits and translation page as group),
    /// the GTD, and the RAM split between them.
    pub(super) fn inspection(&self, q: &InspectQuery) -> Inspection {
        let mapped = |ppn: Ppn| (ppn != UNMAPPED).then_some(ppn);
        let (entries, cmt_cut) = summarise(self.cmt.iter(), q.limit, |(lpn, _)| q.touches(**lpn));
        let entries = entries
            .into_iter()
            .map(|(&lpn, e)| Entry {
                key: lpn,
                value: mapped(e.ppn),
                dirty: e.dirty,
                group: Some(self.tpage_of(lpn)),
                touched: q.touches(lpn),
            })
            .collect();
        let touched_tpages = q.touched.iter().map(|&lpn| self.tpage_of(lpn));
        let (tpages, gtd_cut) = indexed_keys(self.core.gtd.len(), q.limit, touched_tpages);
        // DFTL caches single entries, never whole translation pages: no GTD row is "in RAM".
        let rows = tpages
            .into_iter()
            .map(|t| Row { key: t, value: mapped(self.core.gtd[t as usize]), in_ram: false })
            .collect();
        let gtd_bytes = self.core.gtd_bytes();
        let cmt_used = self.cmt.len() as u64 * CMT_ENTRY_BYTES;
        let cmt_free = (self.cmt.capacity() - self.cmt.len()) as u64 * CMT_ENTRY_BYTES;
        Inspection {
            ram_used: gtd_bytes + cmt_used,
            budgets: vec![
                Budget { name: "GTD".into(), bytes: gtd_bytes },
                Budget { name: "CMT".into(), bytes: cmt_used },
                Budget { name: "CMT (free)".into(), bytes: cmt_free },
            ],
            structures: vec![
                Structure::List {
                    id: "cmt".into(),
                    name: "CMT".into(),
                    level: crate::vocab::cache_level_id(CacheLevel::Entry),
                    capacity: self.cmt.capacity() as u64,
                    len: self.cmt.len() as u64,
                    order: Order::Lru,
                    entries,
                    truncated: cmt_cut,
                },
                Structure::Table {
                    id: "gtd".into(),
                    name: "GTD (translation page → PPN)".into(),
                    len: self.core.gtd.len() as u64,
                    rows,
                    truncated: gtd_cut,
                },
            ],
            ..Inspection::default()
        }
    }
}
