//! DAC's RAM as the generic inspection shapes: the DBMTC (LRU list of block-level entries,
//! grouped by translation page), the TPRLC (LRU list of pages), the TPAFC (pages by FREQ,
//! least frequent last) and the TPMT as tables (TPPA with "in RAM" = cached in level two;
//! LOCA; FREQ).

use super::{Dac, TPMT_ROW_BYTES};
use crate::events::CacheLevel;
use crate::inspect::{
    indexed_keys, summarise, Budget, Entry, InspectQuery, Inspection, Order, Row, Structure,
};
use crate::vocab::cache_level_id;

impl Dac {
    fn touched_lbn(&self, q: &InspectQuery, lbn: u32) -> bool {
        let ppb = self.map.ppb();
        q.touched.iter().any(|&l| l / ppb == lbn)
    }

    fn touched_tpage(&self, q: &InspectQuery, t: u32) -> bool {
        let per = self.map.ppb() * self.per_tpage;
        q.touched.iter().any(|&l| l / per == t)
    }

    pub(super) fn inspection(&self, q: &InspectQuery) -> Inspection {
        let (entries_cap, rlc_cap, afc_cap) = self.capacities();
        // Level one: every set's entries, most recent first within a set.
        let all = self.dbmtc.iter().flat_map(|s| s.iter());
        let (shown, truncated) = summarise(all, q.limit, |(k, _)| self.touched_lbn(q, **k));
        let dbmtc_len: usize = self.dbmtc.iter().map(|s| s.len()).sum();
        let dbmtc = Structure::List {
            id: "dbmtc".into(),
            name: "DBMTC (DVBA → primary block, level one)".into(),
            level: cache_level_id(CacheLevel::BlockMap),
            capacity: entries_cap as u64,
            len: dbmtc_len as u64,
            order: Order::Lru,
            entries: shown
                .into_iter()
                .map(|(&k, c)| Entry {
                    key: k,
                    value: (c.entry.primary != super::super::blockmap::NONE).then_some(c.entry.primary),
                    dirty: c.dirty,
                    group: Some(self.tvpa(k).0),
                    touched: self.touched_lbn(q, k),
                })
                .collect(),
            truncated,
        };
        let page_entry = |t: u32, dirty: bool, value: Option<u32>| Entry {
            key: t,
            value,
            dirty,
            group: None,
            touched: self.touched_tpage(q, t),
        };
        let tppa = |t: u32| {
            let at = self.tpmt[t as usize].tppa;
            (at != super::UNWRITTEN).then_some(at)
        };
        let (rlc, rlc_trunc) = summarise(self.tprlc.iter(), q.limit, |(t, _)| self.touched_tpage(q, **t));
        let tprlc = Structure::List {
            id: "tprlc".into(),
            name: "TPRLC (TVPA → TPPA, level two, recency)".into(),
            level: cache_level_id(CacheLevel::Recency),
            capacity: rlc_cap as u64,
            len: self.tprlc.len() as u64,
            order: Order::Lru,
            entries: rlc.into_iter().map(|(&t, p)| page_entry(t, p.dirty, tppa(t))).collect(),
            truncated: rlc_trunc,
        };
        let mut afc: Vec<(u32, bool, u32)> =
            self.tpafc.iter().map(|(t, p)| (*t, p.dirty, self.tpmt[*t as usize].freq)).collect();
        // Most frequent first; the victim (lowest FREQ, earliest entered) last.
        afc.reverse();
        afc.sort_by_key(|&(_, _, f)| std::cmp::Reverse(f));
        let tpafc = Structure::List {
            id: "tpafc".into(),
            name: "TPAFC (TVPA → FREQ, level two, frequency)".into(),
            level: cache_level_id(CacheLevel::Frequency),
            capacity: afc_cap as u64,
            len: afc.len() as u64,
            order: Order::Lfu,
            entries: afc.into_iter().map(|(t, d, f)| page_entry(t, d, Some(f))).collect(),
            truncated: false,
        };
        let touched = q.touched.iter().map(|&l| l / (self.map.ppb() * self.per_tpage));
        let (keys, trunc) = indexed_keys(self.tpmt.len(), q.limit, touched);
        let table = |id: &str, name: &str, value: &dyn Fn(u32) -> Option<u32>| Structure::Table {
            id: id.into(),
            name: name.into(),
            len: self.tpmt.len() as u64,
            rows: keys
                .iter()
                .map(|&t| Row { key: t, value: value(t), in_ram: self.in_level_two(t) })
                .collect(),
            truncated: trunc,
        };
        let entry = u64::from(self.options.entry_bytes);
        let page = u64::from(self.per_tpage) * entry;
        let tpmt_bytes = self.tpmt.len() as u64 * TPMT_ROW_BYTES;
        Inspection {
            ram_used: tpmt_bytes
                + dbmtc_len as u64 * entry
                + (self.tprlc.len() + self.tpafc.len()) as u64 * page,
            budgets: vec![
                Budget { name: "TPMT (always in RAM)".into(), bytes: tpmt_bytes },
                Budget { name: "DBMTC".into(), bytes: self.level_bytes[0] },
                Budget { name: "TPRLC".into(), bytes: self.level_bytes[1] },
                Budget { name: "TPAFC".into(), bytes: self.level_bytes[2] },
            ],
            structures: vec![
                dbmtc,
                tprlc,
                tpafc,
                table("tpmt", "TPMT: TVPA → TPPA (in RAM: LOCA = TPRLC or TPAFC)", &tppa),
                table("tpmt-loca", "TPMT: TVPA → LOCA (0 TPRLC, 1 TPAFC, 2 flash)", &|t| {
                    Some(self.tpmt[t as usize].loca as u32)
                }),
                table("tpmt-freq", "TPMT: TVPA → FREQ", &|t| Some(self.tpmt[t as usize].freq)),
            ],
            ..Inspection::default()
        }
    }
}
