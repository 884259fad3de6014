//! HCFTL's RAM as the generic inspection shapes: the CMT and the Ghost-CMT as lists, the
//! DTP index as ranges with a filter (newest first, the order a lookup scans them), the GTD
//! as a table, and the RAM split between them.

use super::{Hcftl, ENTRY_BYTES};
use crate::events::CacheLevel;
use crate::flash::Ppn;
use crate::ftl::demand::UNMAPPED;
use crate::inspect::{
    indexed_keys, summarise, Budget, Entry, InspectQuery, Inspection, Order, Range, Row, Structure,
};
use crate::vocab::cache_level_id;

impl Hcftl {
    /// The CMT (MRU first) and the Ghost-CMT (most recently evicted first), with dirty bits
    /// and STP as group; the DTP index; the GTD; the RAM split.
    pub(super) fn inspection(&self, q: &InspectQuery) -> Inspection {
        let mapped = |ppn: Ppn| (ppn != UNMAPPED).then_some(ppn);
        let entry = |lpn: u32, ppn: Ppn, dirty: bool| Entry {
            key: lpn,
            value: mapped(ppn),
            dirty,
            group: Some(self.core.tpage_of(lpn)),
            touched: q.touches(lpn),
        };
        let (cmt, cmt_cut) = summarise(self.cmt.iter(), q.limit, |(lpn, _)| q.touches(**lpn));
        let (ghost, ghost_cut) = summarise(self.ghost.iter(), q.limit, |(lpn, _)| q.touches(*lpn));
        let records = self.index.iter().rev();
        let touched_in = |min: u32, max: u32| q.touched.iter().any(|&l| (min..=max).contains(&l));
        let (ranges, index_cut) = summarise(records, q.limit, |r| touched_in(r.min, r.max));
        let ranges = ranges
            .into_iter()
            .map(|r| Range {
                id: r.id,
                min: r.min,
                max: r.max,
                ppn: r.tppn,
                filter: Some(format!(
                    "bloom: {} bits, k = {}, {} keys, {} bits set",
                    r.bloom.bits(),
                    r.bloom.hashes(),
                    r.bloom.inserted(),
                    r.bloom.ones()
                )),
            })
            .collect();
        let gtd = &self.core.gtd;
        let (tpages, gtd_cut) =
            indexed_keys(gtd.len(), q.limit, q.touched.iter().map(|&l| self.core.tpage_of(l)));
        let rows = tpages
            .into_iter()
            .map(|t| Row { key: t, value: mapped(gtd[t as usize]), in_ram: false })
            .collect();
        let bytes = |n: usize| n as u64 * ENTRY_BYTES;
        let record = self.index.record_bytes();
        let budgets = vec![
            Budget { name: "GTD".into(), bytes: self.core.gtd_bytes() },
            Budget { name: "CMT".into(), bytes: bytes(self.cmt.len()) },
            Budget { name: "CMT (free)".into(), bytes: bytes(self.cmt.capacity() - self.cmt.len()) },
            Budget { name: "Ghost-CMT".into(), bytes: bytes(self.ghost.len()) },
            Budget {
                name: "Ghost-CMT (free)".into(),
                bytes: bytes(self.ghost.capacity() - self.ghost.len()),
            },
            Budget { name: "DTP index".into(), bytes: self.index.len() as u64 * record },
            Budget {
                name: "DTP index (free)".into(),
                bytes: (self.index.capacity() - self.index.len()) as u64 * record,
            },
        ];
        Inspection {
            ram_used: budgets.iter().filter(|b| !b.name.ends_with("(free)")).map(|b| b.bytes).sum(),
            budgets,
            structures: vec![
                Structure::List {
                    id: "cmt".into(),
                    name: "CMT".into(),
                    level: cache_level_id(CacheLevel::Entry),
                    capacity: self.cmt.capacity() as u64,
                    len: self.cmt.len() as u64,
                    order: Order::Lru,
                    entries: cmt.into_iter().map(|(&l, e)| entry(l, e.ppn, e.dirty)).collect(),
                    truncated: cmt_cut,
                },
                Structure::List {
                    id: "ghost_cmt".into(),
                    name: "Ghost-CMT (evicted from the CMT, packed into DTPs when full)".into(),
                    level: cache_level_id(CacheLevel::Ghost),
                    capacity: self.ghost.capacity() as u64,
                    len: self.ghost.len() as u64,
                    order: Order::Fifo,
                    entries: ghost.into_iter().map(|(l, e)| entry(l, e.ppn, e.dirty)).collect(),
                    truncated: ghost_cut,
                },
                Structure::Ranges {
                    id: "dtp_index".into(),
                    name: "DTP index (newest first: TPPN, min..max, bloom filter)".into(),
                    len: self.index.len() as u64,
                    ranges,
                    truncated: index_cut,
                },
                Structure::Table {
                    id: "gtd".into(),
                    name: "GTD (STP → PPN)".into(),
                    len: gtd.len() as u64,
                    rows,
                    truncated: gtd_cut,
                },
            ],
            ..Inspection::default()
        }
    }
}
