//! Collecting blocks, for every demand-paged scheme: victims over data and translation
//! blocks, and the batch update of translation pages for moved data pages.

use std::collections::BTreeSet;

use super::{rewrite_tpage, DemandScheme, TpCause, GTD_ENTRY_BYTES, TRANSLATION};
use crate::device::Device;
use crate::error::Result;
use crate::events::Purpose;
use crate::flash::{BlockId, PageKind, PageState, PageTag, Ppn};
use crate::ftl::pool::next_page;
use crate::gc::{pick_victim, pick_victim_skipping, VictimPolicy};
use crate::meta::MetaKind;

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

/// Asks the scheme for the cached entries of the data pages a run of copies just put at
/// `dest..dest + moved`, all at once, before their mappings are fixed one by one: their
/// tags are in cache (the run wrote them), the entries are random places whose misses then
/// overlap. (A pass over the victim's tags before the copies, as there was, stalled on
/// those cold tags first: the bench stepping of dftl, aps and jtl 3-8 % slower.)
fn prefetch_run<S: DemandScheme>(s: &S, dest: Ppn, moved: u32, dev: &Device) {
    let flash = dev.flash();
    let mut lpns = [0u32; 256];
    for first in (dest..dest + moved).step_by(lpns.len()) {
        let end = (first + lpns.len() as u32).min(dest + moved);
        let mut n = 0;
        for d in first..end {
            let tag = flash.tag(d);
            lpns[n] = tag.key;
            n += usize::from(tag.kind == PageKind::Data);
        }
        s.prefetch_cached(&lpns[..n]);
    }
}

/// Counts GC's copy of the page tagged `tag` to `dest` and points its mapping there: a
/// translation page through the directory, a data page through the cache when it holds the
/// entry, else by its translation page, added to `stale` for the batch update.
#[inline(always)] // once per copied page, most of them in a run's loop
fn remap_copy<S: DemandScheme>(
    s: &mut S,
    tag: PageTag,
    dest: Ppn,
    stale: &mut Vec<u32>,
    dev: &mut Device,
) -> Result<()> {
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
                stale.push(core.tpage_of(tag.key));
            } // else lazy copying: the cache holds the new mapping; it reaches flash when evicted.
        }
        _ => s.moved(tag, dest, dev)?,
    }
    Ok(())
}

/// Collects one victim (data or translation block); `false` when none is worth it.
pub fn collect<S: DemandScheme>(s: &mut S, dev: &mut Device) -> Result<bool> {
    let policy = s.core().victim;
    let victim = {
        let pool = &s.core().pool;
        let collectable = |b| !pool.is_open(b);
        let mut victim = pick_victim_skipping(policy, dev, pool.open_blocks(), collectable);
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
    // Translation pages of moved data pages RAM does not map: a list, sorted and deduplicated
    // after the copies (at most a block's pages; a set's node per insert cost more). The
    // core keeps the list's allocation between collections, empty.
    let mut stale = std::mem::take(&mut s.core_mut().gc_stale);
    let end = first + dev.flash().pages_per_block();
    let mut next = first;
    while let Some(ppn) = (next..end).find(|&p| dev.flash().state(p) == PageState::Valid) {
        next = ppn + 1;
        // The destination's slot follows the page's kind, known from its tag before the read
        // is charged. When that slot's open block has room, the read, the program and the
        // invalidation are one step; else the read comes first, then the block is opened,
        // as the order of their costs and events has it.
        let tag_kind = dev.flash().tag(ppn).kind;
        let slot = match tag_kind {
            PageKind::Translation => TRANSLATION,
            PageKind::Data => s.core().data_slot_of(victim),
            kind => s.stream_for(kind),
        };
        let (tag, dest) = match s.core_mut().pool.page_in_open(slot, dev) {
            // Data and translation pages that fit the open block go as one run (when nothing
            // between the copies costs time: `copy_run` says), their mappings fixed after it
            // in the same order: fixing one touches only RAM, at no cost then.
            Some(dest) if matches!(tag_kind, PageKind::Data | PageKind::Translation) => {
                let (moved, stop) = dev.copy_run(ppn, dest, Purpose::Gc);
                if moved > 0 {
                    prefetch_run(s, dest, moved, dev);
                    for d in dest..dest + moved {
                        let tag = dev.flash().tag(d);
                        remap_copy(s, tag, d, &mut stale, dev)?;
                    }
                    next = stop;
                    continue;
                }
                (dev.copy_page(ppn, dest, Purpose::Gc)?, dest)
            }
            Some(dest) => (dev.copy_page(ppn, dest, Purpose::Gc)?, dest),
            None => {
                let tag = dev.read(ppn, Purpose::Gc)?;
                let dest = next_page(s, slot, dev, true)?;
                dev.program_moved(dest, tag, ppn, Purpose::Gc)?;
                dev.invalidate(ppn)?;
                (tag, dest)
            }
        };
        remap_copy(s, tag, dest, &mut stale, dev)?;
    }
    dev.erase(victim, Purpose::Gc)?;
    s.core_mut().pool.release(victim);
    stale.sort_unstable();
    stale.dedup();
    // Batch update: one translation-page rewrite per page whose entries moved, in page order. Dirty cached
    // entries of those pages are not folded in and stay dirty (review engine-model D7), as
    // in FlashSim's `opm_gc_run`, which groups only the moved pages whose mappings are not cached.
    // Each rewrite touches the old page's state and the image at random places: the next
    // page's start loading while one is rewritten.
    if let Some(&t) = stale.first() {
        s.core().prefetch_rewrite(t, dev);
    }
    for (i, &t) in stale.iter().enumerate() {
        if let Some(&next) = stale.get(i + 1) {
            s.core().prefetch_rewrite(next, dev);
        }
        rewrite_tpage(s, t, Purpose::Gc, TpCause::GcBatch, dev)?;
    }
    // Kept for its buffer, emptied so checkpoints do not copy the list.
    stale.clear();
    s.core_mut().gc_stale = stale;
    s.after_collect(dev)?;
    dev.gc_end(victim);
    Ok(true)
}
