//! The family's map as the reconstruction check reads it, and the invariants every
//! demand-paged scheme keeps.

use super::{DemandScheme, UNMAPPED};
use crate::device::Device;
use crate::error::{EngineError, Result};
use crate::flash::{PageKind, PageState, Ppn};
use crate::ftl::MapView;

/// The scheme's map as the reconstruction check reads it: translation pages through the GTD,
/// overridden by the scheme's entry pages, then by the dirty entries RAM holds; the pages
/// only RAM holds.
pub fn map_view<S: DemandScheme>(s: &S) -> MapView<'_> {
    let core = s.core();
    let (entry_pages, entry_words) = s.entry_pages();
    let held = s.held();
    MapView { entry_pages, entry_words, held, ..MapView::paged(&core.gtd, core.per_tpage, s.ram_entries()) }
}

/// The family's invariants (errors prefixed with `scheme`): a clean RAM entry equals its
/// translation page; every mapping points to a valid data page holding its LPN; the GTD
/// points to valid translation pages, one per valid translation page on flash; the pool.
pub fn check<S: DemandScheme>(s: &S, dev: &Device, scheme: &str) -> Result<()> {
    let bad = |m: String| Err(EngineError::Invariant(format!("{scheme}: {m}")));
    let core = s.core();
    let flash = dev.flash();
    let mut map = core.on_flash.clone();
    // Pages of self-describing entries override the translation pages, newest last.
    let (entry_pages, words) = s.entry_pages();
    for ppn in entry_pages {
        for e in flash.content(ppn).map_or(&[][..], |c| &c.data[..]).chunks_exact(words.max(2)) {
            match map.get_mut(e[0] as usize) {
                Some(slot) => *slot = e[1],
                None => {
                    return bad(format!(
                        "page {ppn} holds an entry for LPN {}, outside the logical space",
                        e[0]
                    ))
                }
            }
        }
    }
    for (lpn, ppn, dirty) in s.ram_entries() {
        let Some(slot) = map.get_mut(lpn as usize) else {
            return bad(format!("RAM holds an entry for LPN {lpn}, outside the logical space"));
        };
        if dirty {
            *slot = ppn;
        } else if *slot != ppn {
            return bad(format!("clean cached entry for LPN {lpn} differs from its translation page"));
        }
    }
    for (lpn, &ppn) in map.iter().enumerate() {
        if ppn == UNMAPPED {
            continue;
        }
        let tag = flash.tag(ppn);
        if flash.state(ppn) != PageState::Valid || tag.kind != PageKind::Data || tag.key != lpn as u32 {
            return bad(format!("LPN {lpn} maps to PPN {ppn}, which does not hold it"));
        }
    }
    for (t, &ppn) in core.gtd.iter().enumerate() {
        if ppn == UNMAPPED {
            continue;
        }
        let tag = flash.tag(ppn);
        if flash.state(ppn) != PageState::Valid || tag.kind != PageKind::Translation || tag.key != t as u32 {
            return bad(format!("GTD entry {t} points to PPN {ppn}, which is not that translation page"));
        }
    }
    let valid_tpages = flash
        .states()
        .enumerate()
        .filter(|&(p, st)| st == PageState::Valid && flash.tag(p as Ppn).kind == PageKind::Translation)
        .count();
    let mapped = core.gtd.iter().filter(|&&p| p != UNMAPPED).count();
    if valid_tpages != mapped {
        return bad(format!("{valid_tpages} valid translation pages but {mapped} GTD entries"));
    }
    core.pool.check(dev).or_else(bad)
}
