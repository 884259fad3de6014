//! `fast-do`: FAST with dynamic over-provisioning (Shin, seed 004 §3). FAST's log blocks
//! are a fixed share of the device; here every free block — the spare blocks and the data
//! blocks the data does not need yet — may serve as a log block, so merging is postponed
//! while clean blocks remain and starts when they run out (one block is always kept as the
//! merge target). When the data grows into a logical block without a data block and only
//! the merge target is free, the FIFO victim is merged to make room.
//!
#![doc = include_str!("notes.md")]

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::fast::{FastFtl, LogLookup, SeqTrigger, SeqTriggerKind};
use super::{OpenBlocks, OptionsSpec, SchemeInfo, SchemeSpec};
use crate::vocab::StopAt;

/// The scheme's registry entry.
pub static SPEC: SchemeSpec = SchemeSpec {
    info: SchemeInfo {
        id: "fast-do",
        name: "FAST with dynamic over-provisioning (FAST-DO)",
        family: "hybrid",
        source: "Shin (seed 004) §3, Figure 3",
    },
    notes: include_str!("notes.md"),
    stops: &[StopAt::Gc, StopAt::Merge],
    caches: &[],
    options: OptionsSpec::of::<FastDoOptions>(),
    open_blocks: OpenBlocks::ONE_PER_UNIT,
    variants: || {
        vec![
            ("hashed page table", json!({})),
            ("reads scan the log blocks", json!({"lookup": "scan"})),
            ("sequential log for requests of half a block from offset 0", json!({"seq_trigger": "request"})),
        ]
    },
    build: |ctx, options| {
        let o = super::parse_options::<FastDoOptions>("fast-do", options)?;
        let trigger = SeqTrigger::of(o.seq_trigger, o.seq_min_pages);
        Ok(Box::new(FastFtl::new(ctx, "fast-do", 0, o.lookup, trigger, true)?))
    },
};

/// `fast-do` options.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct FastDoOptions {
    /// Reads find log pages through a `hashed` page table (default) or a `scan`.
    pub lookup: LogLookup,
    /// What opens the sequential log block: `offset0` (default, FAST's own paper: any update
    /// at block offset 0) or `request` (only one whose request covers `seq_min_pages` pages
    /// from it on).
    pub seq_trigger: SeqTriggerKind,
    /// With `seq_trigger = request`: pages the request must cover from the offset-0 page on;
    /// 0 (default) = half a block (the threshold TreeFTL and JTL call sequential).
    #[schemars(extend("x-units" = "pages"))]
    pub seq_min_pages: u32,
}

#[cfg(test)]
mod tests {
    use super::super::fast::tests::setup;
    use super::super::fast::FastFtl;
    use super::super::logblock::seed004::write_all;
    use super::super::Ftl;
    use crate::device::Device;
    use crate::flash::PageTag;

    /// Twenty random updates of LBNs 0 and 1's pages 1-3, after writing them once.
    fn updates() -> Vec<u32> {
        [1, 2, 3, 5, 6, 7].iter().copied().cycle().take(20).collect()
    }

    /// Two of four logical blocks written, then [`updates`] (under FAST-DO every clean block
    /// but the merge target then holds log pages): the scheme, its device and the last
    /// version written.
    fn written_then_updated(dynamic: bool) -> (FastFtl, Device, u32) {
        let (mut ftl, mut dev) = setup(0, dynamic);
        let mut v = 0;
        write_all(&mut ftl, &mut dev, &(0..8).collect::<Vec<_>>(), &mut v);
        write_all(&mut ftl, &mut dev, &updates(), &mut v);
        (ftl, dev, v)
    }

    /// Two of four logical blocks hold data: besides the merge target, five free blocks can
    /// be log blocks, so 20 random updates merge nothing (FAST's fixed pool of 3 would have
    /// merged); the 21st finds no clean block and merges the FIFO victim.
    #[test]
    fn merging_waits_while_clean_blocks_remain_and_starts_once_they_are_gone() {
        let (mut ftl, mut dev, mut v) = written_then_updated(true);
        assert_eq!(ftl.rw.len(), 5);
        assert_eq!(dev.stats.gc_runs, 0, "postponed while clean blocks remain");
        assert_eq!(ftl.map.free_len(), 1, "only the merge target is left");
        write_all(&mut ftl, &mut dev, &[1], &mut v);
        assert_eq!(dev.stats.gc_runs, 1, "merged once they are gone");
        assert_eq!(ftl.read(1, &mut dev).unwrap(), Some(PageTag::data(1, v)));

        // The same updates under FAST's fixed pool (every spare block but one: 3) merge early.
        let (_, dev, _) = written_then_updated(false);
        assert!(dev.stats.gc_runs > 0);
    }

    /// Data growing into a logical block without a data block when only the merge target is
    /// free: the victim is merged first to make room.
    #[test]
    fn new_data_takes_blocks_back_from_the_logs() {
        let (mut ftl, mut dev, mut v) = written_then_updated(true);
        assert_eq!(dev.stats.gc_runs, 0);
        write_all(&mut ftl, &mut dev, &[8], &mut v);
        assert_eq!(dev.stats.gc_runs, 1);
        assert!(ftl.map.data_block(2).is_some());
        assert_eq!(ftl.read(8, &mut dev).unwrap(), Some(PageTag::data(8, v)));
    }
}
