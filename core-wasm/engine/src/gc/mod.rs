//! Garbage-collection victim selection.

use crate::flash::{BlockId, FlashArray};

/// Greedy victim selection: the collectable block with the fewest valid pages (ties go to the
/// lowest block number, so runs are deterministic). `collectable` says which blocks may be
/// chosen (e.g. not open for writing); erased blocks are never chosen. Returns `None` when no block would free a page.
pub fn greedy(flash: &FlashArray, collectable: impl Fn(BlockId) -> bool) -> Option<BlockId> {
    let full = flash.pages_per_block();
    (0..flash.blocks())
        .filter(|&b| flash.programmed_count(b) > 0 && flash.valid_count(b) < full && collectable(b))
        .min_by_key(|&b| (flash.valid_count(b), b))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::CellType;
    use crate::flash::PageTag;

    #[test]
    fn picks_fewest_valid_and_skips_excluded() {
        let mut f = FlashArray::new(4, 4, CellType::Slc);
        for b in 0..3u32 {
            for p in 0..4 {
                f.program(b * 4 + p, PageTag::data(b * 4 + p, 1)).unwrap();
            }
        }
        f.invalidate(0).unwrap();
        f.invalidate(5).unwrap();
        f.invalidate(6).unwrap();
        assert_eq!(greedy(&f, |_| true), Some(1));
        assert_eq!(greedy(&f, |b| b != 1), Some(0));
        assert_eq!(greedy(&f, |b| b == 2), None, "a block with every page valid frees nothing");
    }
}
