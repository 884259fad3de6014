//! Generic invariant checks, run after every request in tests: the flash array's own
//! bookkeeping, no double mapping, and no written page without a current copy.

use crate::device::Device;
use crate::error::{EngineError, Result};
use crate::flash::{PageKind, PageState};
use crate::ftl::Ftl;
use crate::oracle::Oracle;

/// Checks flash bookkeeping, the scheme's own invariants, and that every logical page the
/// oracle expects data for has exactly one valid data page with the newest version (or is
/// held in the scheme's RAM).
pub fn check(ftl: &dyn Ftl, dev: &Device, oracle: &Oracle) -> Result<()> {
    dev.flash().check()?;
    ftl.check(dev)?;
    let logical = oracle.logical_pages() as usize;
    let mut holder: Vec<u32> = vec![u32::MAX; logical];
    for (ppn, state) in dev.flash().states().enumerate() {
        let tag = dev.flash().tag(ppn as u32);
        if state != PageState::Valid || tag.kind != PageKind::Data {
            continue;
        }
        let lpn = tag.key as usize;
        if lpn >= logical {
            return Err(EngineError::Invariant(format!(
                "PPN {ppn} holds LPN {lpn}, outside the logical space"
            )));
        }
        if holder[lpn] != u32::MAX {
            return Err(EngineError::Invariant(format!(
                "LPN {lpn} is double-mapped: valid in PPN {} and PPN {ppn}",
                holder[lpn]
            )));
        }
        holder[lpn] = ppn as u32;
        let want = oracle.expected(lpn as u32);
        if tag.version != want && !ftl.holds_in_ram(lpn as u32) {
            return Err(EngineError::Invariant(format!(
                "LPN {lpn}: valid page {ppn} has version {}, expected {want}",
                tag.version
            )));
        }
    }
    for (lpn, &ppn) in holder.iter().enumerate() {
        let lpn = lpn as u32;
        if ppn == u32::MAX && oracle.expected(lpn) != 0 && !ftl.holds_in_ram(lpn) {
            return Err(EngineError::Invariant(format!(
                "LPN {lpn} was written (version {}) but has no valid page",
                oracle.expected(lpn)
            )));
        }
    }
    Ok(())
}
