//! Generic invariant checks, run after every request in tests: the flash array's own
//! bookkeeping, no double mapping, and no written page without a current copy.

use crate::device::Device;
use crate::error::{EngineError, Result};
use crate::flash::{PageKind, PageState, Ppn};
use crate::ftl::Ftl;
pub use crate::ftl::MapView;
use crate::oracle::Oracle;

const UNMAPPED: Ppn = u32::MAX;

/// The mapping reconstruction check: the full logical map rebuilt from flash alone (the
/// translation pages' contents) plus what the scheme declares in RAM must send every page
/// the oracle expects data for to a valid data page holding its newest version, and every
/// other page nowhere. A skipped translation-page rewrite, or a clean cached entry that
/// disagrees with flash, fails it. Skipped for schemes that declare no [`MapView`].
pub fn check_mapping(ftl: &dyn Ftl, dev: &Device, oracle: &Oracle) -> Result<()> {
    let Some(view) = ftl.map_view() else { return Ok(()) };
    let flash = dev.flash();
    let bad = |m: String| Err(EngineError::Invariant(format!("mapping reconstruction: {m}")));
    let mut map = vec![UNMAPPED; oracle.logical_pages() as usize];
    if let Some((directory, per)) = view.directory {
        for (t, &ppn) in directory.iter().enumerate() {
            if ppn == UNMAPPED {
                continue;
            }
            let tag = flash.tag(ppn);
            if flash.state(ppn) != PageState::Valid
                || tag.kind != PageKind::Translation
                || tag.key != t as u32
            {
                return bad(format!(
                    "translation page {t} is at PPN {ppn}, which holds {tag:?} ({:?})",
                    flash.state(ppn)
                ));
            }
            let entries = flash.content(ppn).map_or(&[][..], |c| &c.data[..]);
            let first = t * per as usize;
            if entries.len() > per as usize || first + entries.len() > map.len() {
                return bad(format!("translation page {t} (PPN {ppn}) holds {} entries", entries.len()));
            }
            map[first..first + entries.len()].copy_from_slice(entries);
        }
        // A valid translation page the directory does not point to is a leak (review
        // engine-model §4.6): its space is never reclaimed, and nothing else would notice.
        for (ppn, state) in flash.states().enumerate() {
            let tag = flash.tag(ppn as u32);
            if state == PageState::Valid
                && tag.kind == PageKind::Translation
                && directory.get(tag.key as usize) != Some(&(ppn as u32))
            {
                return bad(format!(
                    "PPN {ppn} is a valid copy of translation page {} that the directory does not point to (an orphan: never reclaimed)",
                    tag.key
                ));
            }
        }
    }
    let words = view.entry_words.max(2);
    for &ppn in &view.entry_pages {
        let tag = flash.tag(ppn);
        if flash.state(ppn) != PageState::Valid || tag.kind != PageKind::Dtp {
            return bad(format!("entry page at PPN {ppn} holds {tag:?} ({:?})", flash.state(ppn)));
        }
        for e in flash.content(ppn).map_or(&[][..], |c| &c.data[..]).chunks_exact(words) {
            let Some(slot) = map.get_mut(e[0] as usize) else {
                return bad(format!(
                    "entry page {} (PPN {ppn}) names LPN {}, outside the logical space",
                    tag.key, e[0]
                ));
            };
            *slot = e[1];
        }
    }
    for &b in &view.blocks {
        let first = flash.first_ppn(b);
        for ppn in first..first + flash.pages_per_block() {
            let tag = flash.tag(ppn);
            if flash.state(ppn) != PageState::Valid || tag.kind != PageKind::Data {
                continue;
            }
            match map.get_mut(tag.key as usize) {
                Some(slot) if *slot == UNMAPPED => *slot = ppn,
                Some(slot) => {
                    return bad(format!(
                        "LPN {} is in PPN {} and PPN {ppn} of the declared blocks",
                        tag.key, *slot
                    ))
                }
                None => return bad(format!("PPN {ppn} holds LPN {}, outside the logical space", tag.key)),
            }
        }
    }
    for &(lpn, ppn, dirty) in &view.ram {
        let Some(slot) = map.get_mut(lpn as usize) else {
            return bad(format!("RAM holds an entry for LPN {lpn}, outside the logical space"));
        };
        if dirty || view.directory.is_none() {
            *slot = ppn;
        } else if *slot != ppn {
            return bad(format!("clean cached entry LPN {lpn} → PPN {ppn}, but flash says PPN {}", *slot));
        }
    }
    let mut in_ram = vec![false; map.len()];
    for &(lpn, version) in &view.held {
        let want = oracle.expected(lpn);
        if lpn as usize >= map.len() || want == 0 || version != want {
            return bad(format!("RAM holds LPN {lpn} at version {version}; expected version {want}"));
        }
        in_ram[lpn as usize] = true;
    }
    for (lpn, &ppn) in map.iter().enumerate() {
        if in_ram[lpn] {
            continue;
        }
        let want = oracle.expected(lpn as u32);
        if want == 0 {
            if ppn != UNMAPPED {
                return bad(format!("LPN {lpn} holds no data but maps to PPN {ppn}"));
            }
            continue;
        }
        if ppn == UNMAPPED || ppn as u64 >= u64::from(flash.blocks()) * u64::from(flash.pages_per_block()) {
            return bad(format!("LPN {lpn} (version {want}) maps to nothing ({ppn:#x})"));
        }
        let tag = flash.tag(ppn);
        if flash.state(ppn) != PageState::Valid || tag != crate::flash::PageTag::data(lpn as u32, want) {
            return bad(format!(
                "LPN {lpn} maps to PPN {ppn}, which holds {tag:?} ({:?}); expected version {want}",
                flash.state(ppn)
            ));
        }
    }
    Ok(())
}

/// Checks flash bookkeeping, the scheme's own invariants, its RAM against its budget, the
/// mapping reconstruction, and that every logical page the oracle expects data for has
/// exactly one valid data page with the newest version (or is held in the scheme's RAM).
pub fn check(ftl: &dyn Ftl, dev: &Device, oracle: &Oracle) -> Result<()> {
    dev.flash().check()?;
    ftl.check(dev)?;
    if let Some(budget) = ftl.ram_budget() {
        if ftl.ram_bytes() > budget {
            return Err(EngineError::Invariant(format!(
                "the scheme uses {} bytes of RAM, over its budget of {budget}",
                ftl.ram_bytes()
            )));
        }
    }
    check_mapping(ftl, dev, oracle)?;
    let logical = oracle.logical_pages() as usize;
    let mut holder: Vec<u32> = vec![u32::MAX; logical];
    for (ppn, state) in dev.flash().states().enumerate() {
        let tag = dev.flash().tag(ppn as u32);
        if state == PageState::Valid && tag.kind == PageKind::None {
            // Every programmed page says what it holds (review engine-model §4.6).
            return Err(EngineError::Invariant(format!(
                "PPN {ppn} is valid but its spare area names no content"
            )));
        }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{CellType, Latencies};
    use crate::events::Purpose;
    use crate::flash::{BlockId, FlashArray, PageContent, PageTag};
    use crate::ftl::BlockRole;
    use crate::hash::StateHasher;
    use crate::inspect::{InspectQuery, Inspection};

    /// A scheme that only declares a directory of one translation page.
    #[derive(Debug, Clone)]
    struct Directory(Vec<Ppn>);

    impl Ftl for Directory {
        fn read(&mut self, _: u32, _: &mut Device) -> Result<Option<PageTag>> {
            Ok(None)
        }
        fn write(&mut self, _: u32, _: u32, _: &mut Device) -> Result<()> {
            Ok(())
        }
        fn trim(&mut self, _: u32, _: &mut Device) -> Result<()> {
            Ok(())
        }
        /// A 4-byte directory entry per translation page, in a budget of one.
        fn ram_bytes(&self) -> u64 {
            4 * self.0.len() as u64
        }
        fn ram_budget(&self) -> Option<u64> {
            Some(4)
        }
        fn block_role(&self, _: BlockId, _: &Device) -> BlockRole {
            BlockRole::Translation
        }
        fn map_view(&self) -> Option<MapView<'_>> {
            Some(MapView::paged(&self.0, 4, vec![]))
        }
        fn inspect(&self, _: &InspectQuery) -> Inspection {
            Inspection::default()
        }
        fn check(&self, _: &Device) -> Result<()> {
            Ok(())
        }
        fn hash_into(&self, _: &mut StateHasher) {}
        fn clone_box(&self) -> Box<dyn Ftl> {
            Box::new(self.clone())
        }
    }

    fn tpage(dev: &mut Device, ppn: Ppn) {
        let tag = PageTag { kind: PageKind::Translation, key: 0, version: ppn + 1 };
        let content = PageContent { data: vec![UNMAPPED; 4], oob: vec![] };
        dev.program_with(ppn, tag, content, Purpose::Translation).unwrap();
    }

    /// Review engine-model §4.7: `ram_bytes() <= ram_budget()` was checked only by DFTL's own
    /// unit test; the generic check refuses a scheme over its budget.
    #[test]
    fn a_scheme_over_its_ram_budget_is_caught() {
        let dev = Device::new(FlashArray::new(4, 4, CellType::Slc), Latencies::default(), false);
        let oracle = Oracle::new(4);
        check(&Directory(vec![UNMAPPED]), &dev, &oracle).unwrap();
        let e = check(&Directory(vec![UNMAPPED; 2]), &dev, &oracle).unwrap_err().to_string();
        assert!(e.contains("uses 8 bytes of RAM, over its budget of 4"), "{e}");
    }

    /// Review engine-model §4.6: an orphan translation page (a rewrite that forgot to
    /// invalidate the old copy) and a valid page naming no content were invisible.
    #[test]
    fn orphan_translation_pages_and_unnamed_valid_pages_are_caught() {
        let mut dev = Device::new(FlashArray::new(4, 4, CellType::Slc), Latencies::default(), false);
        let oracle = Oracle::new(4);
        tpage(&mut dev, 0);
        let ftl = Directory(vec![0]);
        check(&ftl, &dev, &oracle).unwrap();
        tpage(&mut dev, 1); // the new copy; the directory still points to PPN 0
        let e = check(&ftl, &dev, &oracle).unwrap_err().to_string();
        assert!(e.contains("PPN 1 is a valid copy of translation page 0"), "{e}");
        dev.invalidate(1).unwrap();
        check(&ftl, &dev, &oracle).unwrap();
        dev.program(4, PageTag::default(), Purpose::Data).unwrap();
        let e = check(&ftl, &dev, &oracle).unwrap_err().to_string();
        assert!(e.contains("PPN 4 is valid but its spare area names no content"), "{e}");
    }
}
