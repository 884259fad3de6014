//! The host operations and flush every demand-paged scheme shares: they go through the
//! scheme's cache policy ([`DemandScheme::translate`], `cached`, `set_cached`).

use std::collections::BTreeMap;

use super::{rewrite_tpage, DemandScheme, TpCause, UNMAPPED};
use crate::device::Device;
use crate::error::Result;
use crate::events::Purpose;
use crate::flash::PageTag;
use crate::ftl::pool::next_page;

/// Reads `lpn` (after translating it).
pub fn read<S: DemandScheme>(s: &mut S, lpn: u32, dev: &mut Device) -> Result<Option<PageTag>> {
    let ppn = s.translate(lpn, dev)?;
    if ppn == UNMAPPED {
        return Ok(None);
    }
    dev.read(ppn, Purpose::Data).map(Some)
}

/// Writes `lpn`: the entry is made resident first (to learn the page to invalidate), the
/// data goes to the open data block, and the resident entry is updated and marked dirty.
pub fn write<S: DemandScheme>(s: &mut S, lpn: u32, version: u32, dev: &mut Device) -> Result<()> {
    s.translate(lpn, dev)?;
    let slot = s.core_mut().host_slot(lpn);
    let dest = next_page(s, slot, dev, false)?;
    dev.program(dest, PageTag::data(lpn, version), Purpose::Data)?;
    // GC may have moved the old copy (and updated the resident entry): read it now.
    let old = s.cached(lpn).unwrap_or(UNMAPPED);
    if old != UNMAPPED {
        dev.invalidate(old)?;
    }
    s.set_cached(lpn, dest, dev);
    Ok(())
}

/// Trims `lpn`: its page is invalidated and its resident entry unmapped (dirty).
pub fn trim<S: DemandScheme>(s: &mut S, lpn: u32, dev: &mut Device) -> Result<()> {
    let old = s.translate(lpn, dev)?;
    if old != UNMAPPED {
        dev.invalidate(old)?;
        s.set_cached(lpn, UNMAPPED, dev);
    }
    Ok(())
}

/// Writes every dirty entry RAM holds to its translation page: one rewrite per translation
/// page, in page order. GC during a rewrite may dirty entries again (lazy copying): repeat
/// until none is left.
pub fn flush_entries<S: DemandScheme>(s: &mut S, dev: &mut Device) -> Result<()> {
    loop {
        let mut by_tpage: BTreeMap<u32, Vec<u32>> = BTreeMap::new();
        for (lpn, _, dirty) in s.ram_entries() {
            if dirty {
                by_tpage.entry(s.core().tpage_of(lpn)).or_default().push(lpn);
            }
        }
        if by_tpage.is_empty() {
            return Ok(());
        }
        for (t, lpns) in by_tpage {
            for &lpn in &lpns {
                if let Some(ppn) = s.cached(lpn) {
                    s.core_mut().on_flash[lpn as usize] = ppn;
                }
            }
            s.mark_clean(t, &lpns);
            rewrite_tpage(s, t, Purpose::Translation, TpCause::Flush, dev)?;
        }
    }
}
