//! The inspection shapes every demand-paged scheme shows: an entry cache as an ordered list
//! and the GTD as a table.

use super::{Cmt, DemandCore, UNMAPPED};
use crate::events::CacheLevel;
use crate::flash::Ppn;
use crate::inspect::{indexed_keys, summarise, Budget, Entry, InspectQuery, Order, Row, Structure};

fn mapped(ppn: Ppn) -> Option<Ppn> {
    (ppn != UNMAPPED).then_some(ppn)
}

/// A demand scheme's RAM as the cache view shows it: the GTD, then each structure `(name,
/// bytes used, bytes it may hold)` as its used bytes and, as `name (free)`, the rest; and the
/// bytes in use (the GTD and what every structure uses).
pub fn ram_budgets(core: &DemandCore, structures: &[(&str, u64, u64)]) -> (u64, Vec<Budget>) {
    let mut in_use = core.gtd_bytes();
    let mut budgets = vec![Budget { name: "GTD".into(), bytes: in_use }];
    for &(name, used, capacity) in structures {
        in_use += used;
        budgets.push(Budget { name: name.into(), bytes: used });
        budgets.push(Budget { name: format!("{name} (free)"), bytes: capacity - used });
    }
    (in_use, budgets)
}

/// Whether the request `q` describes touched an LPN of translation page `t`.
pub fn touches_tpage(core: &DemandCore, q: &InspectQuery, t: u32) -> bool {
    q.touched.iter().any(|&lpn| core.tpage_of(lpn) == t)
}

/// A cache of mapping entries (`(lpn, ppn, dirty)` in `order`, first = next to stay longest)
/// as a list grouped by translation page, summarised as `q` asks.
#[allow(clippy::too_many_arguments)]
pub fn entry_list(
    core: &DemandCore,
    q: &InspectQuery,
    (id, name): (&str, &str),
    level: CacheLevel,
    order: Order,
    (capacity, len): (u64, u64),
    items: impl Iterator<Item = (u32, Ppn, bool)>,
) -> Structure {
    let (entries, truncated) = summarise(items, q.limit, |&(lpn, _, _)| q.touches(lpn));
    let entries = entries
        .into_iter()
        .map(|(lpn, ppn, dirty)| Entry {
            key: lpn,
            value: mapped(ppn),
            dirty,
            group: Some(core.tpage_of(lpn)),
            touched: q.touches(lpn),
        })
        .collect();
    Structure::List {
        id: id.into(),
        name: name.into(),
        level: crate::vocab::cache_level_id(level),
        capacity,
        len,
        order,
        entries,
        truncated,
    }
}

/// The CMT (id `cmt`) as an LRU list named `name`, its entries grouped by translation page.
pub fn cmt_list(core: &DemandCore, q: &InspectQuery, name: &str, cmt: &Cmt) -> Structure {
    let size = (cmt.capacity() as u64, cmt.len() as u64);
    entry_list(core, q, ("cmt", name), CacheLevel::Entry, Order::Lru, size, cmt.entries())
}

/// The GTD (translation page → its PPN), `in_ram` saying which pages RAM caches whole;
/// summarised as `q` asks (the first rows and the pages the request touched).
pub fn gtd_table(core: &DemandCore, q: &InspectQuery, in_ram: impl Fn(u32) -> bool) -> Structure {
    let touched = q.touched.iter().map(|&lpn| core.tpage_of(lpn));
    let (tpages, truncated) = indexed_keys(core.gtd.len(), q.limit, touched);
    let rows = tpages
        .into_iter()
        .map(|t| Row { key: t, value: mapped(core.gtd[t as usize]), in_ram: in_ram(t) })
        .collect();
    Structure::Table {
        id: "gtd".into(),
        name: "GTD (translation page → PPN)".into(),
        len: core.gtd.len() as u64,
        rows,
        truncated,
    }
}
