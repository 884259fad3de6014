//! CDFTL's RAM as the generic inspection shapes: the CMT and the cached translation pages
//! as LRU lists, the GTD as a table (rows of cached pages marked "in RAM").

use super::Cdftl;
use crate::events::CacheLevel;
use crate::ftl::demand::{cmt_list, gtd_table, ram_budgets, touches_tpage, ENTRY_BYTES, UNMAPPED};
use crate::inspect::{summarise, Entry, InspectQuery, Inspection, Order, Structure};

impl Cdftl {
    /// Level one (entries) and level two (pages, keyed by translation-page number, valued by
    /// where the page is on flash), the GTD, and the RAM split.
    pub(super) fn inspection(&self, q: &InspectQuery) -> Inspection {
        let entry = |n: usize| n as u64 * ENTRY_BYTES;
        let page = |n: usize| n as u64 * self.ctp_bytes;
        let (cmt_cap, cmt_len) = (self.cmt.capacity(), self.cmt.len());
        let (ctp_cap, ctp_len) = (self.ctp.capacity(), self.ctp.len());
        let touched = |t: u32| touches_tpage(&self.core, q, t);
        let (pages, truncated) = summarise(self.ctp.iter(), q.limit, |p| touched(p.tpage));
        let pages = pages
            .into_iter()
            .map(|p| {
                let at = self.core.gtd[p.tpage as usize];
                Entry {
                    key: p.tpage,
                    value: (at != UNMAPPED).then_some(at),
                    dirty: p.dirty,
                    group: None,
                    touched: touched(p.tpage),
                }
            })
            .collect();
        let (ram_used, budgets) = ram_budgets(
            &self.core,
            &[
                ("CMT", entry(cmt_len), entry(cmt_cap)),
                ("Cached translation pages", page(ctp_len), page(ctp_cap)),
            ],
        );
        Inspection {
            ram_used,
            budgets,
            structures: vec![
                cmt_list(&self.core, q, "CMT (level one)", &self.cmt),
                Structure::List {
                    id: "ctp".into(),
                    name: "Cached translation pages (level two)".into(),
                    level: crate::vocab::cache_level_id(CacheLevel::TranslationPage),
                    capacity: ctp_cap as u64,
                    len: ctp_len as u64,
                    order: Order::Lru,
                    entries: pages,
                    truncated,
                },
                gtd_table(&self.core, q, |t| self.ctp.contains(t)),
            ],
            ..Inspection::default()
        }
    }
}
