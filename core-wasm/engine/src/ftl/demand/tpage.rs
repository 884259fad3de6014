//! Reading and writing translation pages, for every demand-paged scheme: the counted read,
//! the read-modify-write of a few changed entries, and the program of a whole page.

use super::{DemandScheme, TpCause, GTD_ENTRY_BYTES, TRANSLATION, UNMAPPED};
use crate::device::Device;
use crate::error::Result;
use crate::events::Purpose;
use crate::flash::{PageKind, PageTag, Ppn};
use crate::ftl::pool::next_page;
use crate::meta::MetaKind;

/// Reads the translation page at `at`, counting it by cause.
pub fn read_tpage(at: Ppn, purpose: Purpose, cause: TpCause, dev: &mut Device) -> Result<()> {
    dev.read(at, purpose)?;
    dev.stats.tpage_reads[cause as usize] += 1;
    Ok(())
}

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
    let tag = PageTag { kind: PageKind::Translation, key: t, version: core.tpage_version };
    dev.program_words(dest, tag, core.image(t), purpose)?;
    dev.stats.tpage_writes[cause as usize] += 1;
    // Allocation may have run GC, which may have moved page t: invalidate where it is now.
    if core.gtd[t as usize] != UNMAPPED {
        dev.invalidate(core.gtd[t as usize])?;
    }
    core.gtd[t as usize] = dest;
    dev.meta_write(MetaKind::Directory, t, GTD_ENTRY_BYTES as u32);
    Ok(())
}

/// Writes back one dirty entry leaving RAM (`lpn` → `ppn`): its translation page is read,
/// updated and programmed, counted as an eviction. The on-flash image takes the entry
/// first: GC during the program's allocation may move data pages and must see (and fix) the
/// newest mapping.
pub fn write_back_entry<S: DemandScheme>(s: &mut S, lpn: u32, ppn: Ppn, dev: &mut Device) -> Result<()> {
    let core = s.core_mut();
    core.on_flash[lpn as usize] = ppn;
    let t = core.tpage_of(lpn);
    rewrite_tpage(s, t, Purpose::Translation, TpCause::Eviction, dev)
}

/// Programs translation page `t` whole from `entries`, RAM's copy of every entry of it, for
/// `cause`: nothing is read first. The on-flash image takes the entries first, so GC during
/// the program fixes any page it moves there.
pub fn write_back_page<S: DemandScheme>(
    s: &mut S,
    t: u32,
    entries: &[Ppn],
    cause: TpCause,
    dev: &mut Device,
) -> Result<()> {
    s.core_mut().image_mut(t).copy_from_slice(entries);
    program_tpage(s, t, Purpose::Translation, cause, false, dev)
}
