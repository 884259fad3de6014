//! HCFTL's RAM as the generic inspection shapes: the CMT and the Ghost-CMT as lists, the
//! DTP index as ranges with a filter (newest first, the order a lookup scans them), the GTD
//! as a table, and the RAM split between them.

use super::{Hcftl, ENTRY_BYTES};
use crate::events::CacheLevel;
use crate::ftl::demand::{entry_list, gtd_table, ram_budgets};
use crate::inspect::{summarise, InspectQuery, Inspection, Order, Range, Structure};

impl Hcftl {
    /// The CMT (MRU first) and the Ghost-CMT (most recently evicted first), with dirty bits
    /// and STP as group; the DTP index; the GTD; the RAM split.
    pub(super) fn inspection(&self, q: &InspectQuery) -> Inspection {
        let records = self.index.iter().rev();
        let touched_in = |min: u32, max: u32| q.touched.iter().any(|&l| (min..=max).contains(&l));
        let (ranges, index_cut) = summarise(records, q.limit, |r| touched_in(r.min, r.max));
        let ranges = ranges
            .into_iter()
            .map(|r| {
                let bloom = self.index.bloom(r);
                Range {
                    id: r.id,
                    min: r.min,
                    max: r.max,
                    ppn: r.tppn,
                    filter: Some(format!(
                        "bloom: {} bits, k = {}, {} keys, {} bits set",
                        bloom.bits(),
                        bloom.hashes(),
                        bloom.inserted(),
                        bloom.ones()
                    )),
                }
            })
            .collect();
        let mut gtd = gtd_table(&self.core, q, |_| false);
        // The paper calls the family's translation pages static ones (STPs), against its DTPs.
        if let Structure::Table { name, .. } = &mut gtd {
            *name = "GTD (STP → PPN)".into();
        }
        let bytes = |n: usize| n as u64 * ENTRY_BYTES;
        let record = self.index.record_bytes();
        let (ram_used, budgets) = ram_budgets(
            &self.core,
            &[
                ("CMT", bytes(self.ram.cmt_len()), bytes(self.ram.cmt_capacity())),
                ("Ghost-CMT", bytes(self.ram.ghost_len()), bytes(self.ram.ghost_capacity())),
                ("DTP index", self.index.len() as u64 * record, self.index.capacity() as u64 * record),
            ],
        );
        Inspection {
            ram_used,
            budgets,
            structures: vec![
                entry_list(
                    &self.core,
                    q,
                    ("cmt", "CMT"),
                    CacheLevel::Entry,
                    Order::Lru,
                    (self.ram.cmt_capacity() as u64, self.ram.cmt_len() as u64),
                    self.ram.cmt_iter().map(|(l, e)| (l, e.ppn(), e.dirty())),
                ),
                entry_list(
                    &self.core,
                    q,
                    ("ghost_cmt", "Ghost-CMT (evicted from the CMT, packed into DTPs when full)"),
                    CacheLevel::Ghost,
                    Order::Fifo,
                    (self.ram.ghost_capacity() as u64, self.ram.ghost_len() as u64),
                    self.ram.ghost_iter().map(|(l, e)| (l, e.ppn(), e.dirty())),
                ),
                Structure::Ranges {
                    id: "dtp_index".into(),
                    name: "DTP index (newest first: TPPN, min..max, bloom filter)".into(),
                    len: self.index.len() as u64,
                    ranges,
                    truncated: index_cut,
                },
                gtd,
            ],
            ..Inspection::default()
        }
    }
}
