//! Pre-filled data laid out directly ([`Ftl::place_prefill`](crate::ftl::Ftl::place_prefill)):
//! the data pages where first writes in LPN order would go, then each translation page they
//! touch programmed once, with the cache untouched (empty).

use std::collections::BTreeSet;

use super::{program_tpage, DemandScheme, TpCause, UNMAPPED};
use crate::device::Device;
use crate::error::{EngineError, Result};
use crate::events::Purpose;
use crate::flash::PageTag;
use crate::ftl::pool::next_page;

/// Places `pages` (`(lpn, version)`, in LPN order, each once) on an erased device before any
/// request: each data page goes to the open data block of the unit a host write of it would
/// use, its entry into the on-flash map, and every translation page touched is programmed
/// once from that map. Nothing is read, nothing superseded, the cache stays as built.
pub fn place_prefill<S: DemandScheme>(
    s: &mut S,
    pages: &mut dyn Iterator<Item = (u32, u32)>,
    dev: &mut Device,
) -> Result<bool> {
    let mut tpages = BTreeSet::new();
    for (lpn, version) in pages {
        if s.core().on_flash[lpn as usize] != UNMAPPED || s.cached(lpn).is_some() {
            return Err(EngineError::Invariant(format!(
                "pre-fill placement of LPN {lpn}: the page is already mapped (placement needs an erased device)"
            )));
        }
        let slot = s.core_mut().host_slot(lpn);
        let dest = next_page(s, slot, dev, false)?;
        dev.program(dest, PageTag::data(lpn, version), Purpose::Data)?;
        s.core_mut().on_flash[lpn as usize] = dest;
        tpages.insert(s.core().tpage_of(lpn));
    }
    for t in tpages {
        program_tpage(s, t, Purpose::Translation, TpCause::Flush, false, dev)?;
    }
    Ok(true)
}
