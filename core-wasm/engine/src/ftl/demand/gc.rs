//! Writing translation pages and collecting blocks, for every demand-paged scheme.

use std::collections::BTreeSet;

use super::{read_tpage, DemandScheme, TpCause, GTD_ENTRY_BYTES, TRANSLATION, UNMAPPED};
use crate::device::Device;
use crate::error::Result;
use crate::events::Purpose;
use crate::flash::{BlockId, PageContent, PageKind, PageState, PageTag};
use crate::ftl::pool::next_page;
use crate::gc::{pick_victim, VictimPolicy};
use crate::meta::MetaKind;

/// Reads translation page `t` (if it exists) and programs its current image
/// ([`super::DemandCore::on_flash`]) to a new translation page, updating the GTD: the
/// read-modify-write of a few changed entries. Both operations are counted for `cause`.
pub fn rewrite_tpage<S: DemandScheme>(
    s: &mut S,
    t: u32,
    purpose: Purpose,
    cause: TpCause,
    dev: &mut Device,
) -> Result<()> {
    program_tpage(s, t, purpose, cause, true, dev)
}

/// Programs translation page `t`'s image to a new page (updating the GTD), reading the old
/// page first only when `read_old` (a scheme that caches the whole page has nothing to read).
pub fn program_tpage<S: DemandScheme>(
    s: &mut S,
    t: u32,
    purpose: Purpose,
    cause: TpCause,
    read_old: bool,
    dev: &mut Device,
) -> Result<()> {
    #[cfg(test)]
    if s.core().skip_rewrites > 0 {
        s.core_mut().skip_rewrites -= 1;
        return Ok(());
    }
    let at = s.core().gtd[t as usize];
    if read_old && at != UNMAPPED {
        read_tpage(at, purpose, cause, dev)?;
    }
    let dest = next_page(s, TRANSLATION, dev, purpose == Purpose::Gc)?;
    let core = s.core_mut();
    core.tpage_version += 1;
    // The page holds its entries (the last one may be partly beyond the logical space).
    let range = core.lpns_of(t);
    let entries = core.on_flash[range.start as usize..range.end as usize].to_vec();
    dev.program_with(
        dest,
        PageTag { kind: PageKind::Translation, key: t, version: core.tpage_version },
        PageContent { data: entries, oob: Vec::new() },
        purpose,
    )?;
    dev.stats.tpage_writes[cause as usize] += 1;
    // Allocation may have run GC, which may have moved page t: invalidate where it is now.
    if core.gtd[t as usize] != UNMAPPED {
        dev.invalidate(core.gtd[t as usize])?;
    }
    core.gtd[t as usize] = dest;
    dev.meta_write(MetaKind::Directory, t, GTD_ENTRY_BYTES as u32);
    Ok(())
}

/// Pages a collection of `block` would write: its valid pages plus one translation page per
/// translation page its data pages map through when RAM does not hold their entries (the
/// batch update).
fn collection_cost<S: DemandScheme>(s: &S, block: BlockId, dev: &Device) -> u32 {
    let flash = dev.flash();
    let first = flash.first_ppn(block);
    let mut tpages = BTreeSet::new();
    let mut valid = 0;
    for ppn in first..first + flash.pages_per_block() {
        if flash.state(ppn) != PageState::Valid {
            continue;
        }
        valid += 1;
        let tag = flash.tag(ppn);
        if tag.kind == PageKind::Data && s.cached(tag.key).is_none() {
            tpages.insert(s.core().tpage_of(tag.key));
        }
    }
    valid + tpages.len() as u32
}

/// Collects one victim (data or translation block); `false` when none is worth it.
pub fn collect<S: DemandScheme>(s: &mut S, dev: &mut Device) -> Result<bool> {
    let policy = s.core().victim;
    let victim = {
        let pool = &s.core().pool;
        let collectable = |b| !pool.is_open(b);
        let mut victim = pick_victim(policy, dev, collectable);
        // A victim whose copies and batch update write a whole block or more gains nothing
        // (the collection loop would spend the pool). FIFO and cost-benefit can pick one;
        // then take the greedy victim instead.
        if let Some(v) = victim {
            if policy != VictimPolicy::Greedy && collection_cost(s, v, dev) >= dev.flash().pages_per_block() {
                victim = pick_victim(VictimPolicy::Greedy, dev, collectable);
            }
        }
        victim
    };
    let Some(victim) = victim else { return Ok(false) };
    dev.gc_start(victim);
    let first = dev.flash().first_ppn(victim);
    let mut stale = BTreeSet::new();
    for ppn in first..first + dev.flash().pages_per_block() {
        if dev.flash().state(ppn) != PageState::Valid {
            continue;
        }
        let tag = dev.read(ppn, Purpose::Gc)?;
        let slot = match tag.kind {
            PageKind::Translation => TRANSLATION,
            PageKind::Data => s.core().data_slot_of(victim),
            kind => s.stream_for(kind),
        };
        let dest = next_page(s, slot, dev, true)?;
        let content = dev.flash().content(ppn).cloned().unwrap_or_default();
        dev.program_with(dest, tag, content, Purpose::Gc)?;
        dev.invalidate(ppn)?;
        dev.gc_copied();
        match tag.kind {
            PageKind::Translation => {
                dev.stats.tpage_reads[TpCause::GcCopy as usize] += 1;
                dev.stats.tpage_writes[TpCause::GcCopy as usize] += 1;
                s.core_mut().gtd[tag.key as usize] = dest;
                dev.meta_write(MetaKind::Directory, tag.key, GTD_ENTRY_BYTES as u32);
            }
            PageKind::Data => {
                if !s.set_cached(tag.key, dest, dev) {
                    // Not in RAM: fix the translation page, once per page after the copies.
                    let core = s.core_mut();
                    core.on_flash[tag.key as usize] = dest;
                    stale.insert(core.tpage_of(tag.key));
                } // else lazy copying: the cache holds the new mapping; it reaches flash when evicted.
            }
            _ => s.moved(tag, dest, dev)?,
        }
    }
    dev.erase(victim, Purpose::Gc)?;
    s.core_mut().pool.release(victim);
    // Batch update: one translation-page rewrite per page whose entries moved. Dirty cached
    // entries of those pages are not folded in and stay dirty (review engine-model D7), as
    // in FlashSim's `opm_gc_run`, which groups only the moved pages whose mappings are not cached.
    for t in stale {
        rewrite_tpage(s, t, Purpose::Gc, TpCause::GcBatch, dev)?;
    }
    s.after_collect(dev)?;
    dev.gc_end(victim);
    Ok(true)
}
