//! `block`: pure block-level mapping (thesis §1.2, notes §2.2; Shin seed 004 §2). Logical
//! block `lpn / P` maps to one physical block and the page keeps its offset `lpn % P`. A
//! write to a page still erased in its data block goes there; an update of a written page
//! copies the block's other valid pages, with the new one, into a free block at their
//! offsets and erases the old block — the whole block for one page, which is why block
//! mapping suffers under small random writes (seed 004).
//!
//! A request that updates several pages of one block rewrites that block once (seed 004
//! §2: the new data goes to a clean block "together with the unmodified pages of the
//! previous block"): the request's pages of the block are held until the request leaves the
//! block or ends, then programmed with one copy of the pages they leave unmodified.
//!
//! That copy is this scheme's garbage collection (a GC run: victim = the old data block).
//! Only one spare block is needed (the copy's target). Offsets are fixed, so pages are
//! programmed out of order: SLC only (see [`super::blockmap`]).
//!
#![doc = include_str!("notes.md")]

use serde_json::json;

use super::blockmap::{BlockMap, BLOCK_ENTRY_BYTES};
use super::{BlockRole, BuildCtx, Ftl, NoOptions, OpenBlocks, OptionsSpec, SchemeInfo, SchemeSpec};
use crate::device::Device;
use crate::error::Result;
use crate::events::HostOp;
use crate::flash::{BlockId, PageState, PageTag};
use crate::hash::StateHasher;
use crate::inspect::{Budget, InspectQuery, Inspection};
use crate::vocab::StopAt;

/// The scheme's registry entry.
pub static SPEC: SchemeSpec = SchemeSpec {
    info: SchemeInfo {
        id: "block",
        name: "Block-level mapping",
        family: "block",
        source: "thesis (seed 002) §1.2 / §2.2; Shin (seed 004) §2 block mapping",
    },
    notes: include_str!("notes.md"),
    stops: &[StopAt::Gc],
    caches: &[],
    options: OptionsSpec::of::<NoOptions>(),
    open_blocks: OpenBlocks::ONE_PER_UNIT,
    variants: || vec![("block mapping", json!({}))],
    build: |ctx, options| {
        super::parse_options::<NoOptions>("block", options)?;
        Ok(Box::new(BlockFtl::new(ctx)?))
    },
};

/// Block-level FTL state: the block map and the free blocks.
#[derive(Debug, Clone)]
pub struct BlockFtl {
    map: BlockMap,
    /// The logical blocks the current write request updates (any of its pages there was
    /// written before the request), found when it begins; empty between requests.
    updated: Vec<u32>,
    /// The logical block the current request is writing, and how: `None` pages (in place)
    /// or the updates held until the block is rewritten once with all of them. Always
    /// `None` between requests.
    current: Option<(u32, Option<Updates>)>,
}

/// A request's new pages of one logical block, `(lpn, version)`.
type Updates = Vec<(u32, u32)>;

impl BlockFtl {
    /// A block-mapped FTL over an erased device; refuses MLC and devices without a spare block.
    pub fn new(ctx: &BuildCtx) -> Result<Self> {
        Ok(BlockFtl { map: BlockMap::new(ctx, "block", 1)?, updated: Vec::new(), current: None })
    }

    /// Whether `lpn`'s slot in its data block was written (so writing it is an update).
    fn written(&self, dev: &Device, lpn: u32) -> bool {
        self.map.data_slot(dev, lpn).is_some_and(|p| dev.flash().state(p) != PageState::Free)
    }

    /// The updates held for the current block.
    fn held(&self) -> Option<&Updates> {
        self.current.as_ref().and_then(|(_, held)| held.as_ref())
    }

    /// Leaves the current block: rewrites it when updates are held, one copy for all of them.
    fn rewrite_pending(&mut self, dev: &mut Device) -> Result<()> {
        let Some((lbn, Some(pages))) = self.current.take() else { return Ok(()) };
        let old = self.map.data_block(lbn).expect("an updated page has a data block");
        dev.gc_start(old);
        self.map.rewrite_block_with(dev, lbn, &pages)?;
        dev.meta_write(crate::meta::MetaKind::BlockMap, lbn, BLOCK_ENTRY_BYTES as u32);
        dev.gc_end(old);
        Ok(())
    }
}

impl Ftl for BlockFtl {
    fn begin_request(&mut self, op: HostOp, lpns: &[u32], dev: &mut Device) -> Result<()> {
        self.updated.clear();
        if op == HostOp::Write {
            for &lpn in lpns {
                let lbn = self.map.split(lpn).0;
                if !self.updated.contains(&lbn) && self.written(dev, lpn) {
                    self.updated.push(lbn);
                }
            }
        }
        Ok(())
    }

    fn end_request(&mut self, dev: &mut Device) -> Result<()> {
        self.updated.clear();
        self.rewrite_pending(dev)
    }

    fn flush(&mut self, dev: &mut Device) -> Result<()> {
        self.rewrite_pending(dev)
    }

    fn read(&mut self, lpn: u32, dev: &mut Device) -> Result<Option<PageTag>> {
        // A held update of this page (a request that names it twice) reaches flash first.
        if self.held().is_some_and(|pages| pages.iter().any(|&(l, _)| l == lpn)) {
            self.rewrite_pending(dev)?;
        }
        self.map.look_up(dev, lpn);
        self.map.read(dev, lpn)
    }

    fn write(&mut self, lpn: u32, version: u32, dev: &mut Device) -> Result<()> {
        let (lbn, _) = self.map.look_up(dev, lpn);
        if self.current.as_ref().is_some_and(|(block, _)| *block != lbn) {
            self.rewrite_pending(dev)?;
        }
        if self.current.is_none() {
            // Decided per block by what it held when the request began (a write outside a
            // request: by this page alone).
            let held = (self.updated.contains(&lbn) || self.written(dev, lpn)).then(Vec::new);
            self.current = Some((lbn, held));
        }
        let Some((_, held)) = &mut self.current else { unreachable!("set above") };
        if held.is_none() && self.map.write_in_place(dev, lpn, version)? {
            return Ok(());
        }
        // An update (or a page the request names twice): into the block's one rewrite.
        let pages = held.get_or_insert_with(Vec::new);
        match pages.iter_mut().find(|(l, _)| *l == lpn) {
            Some(page) => page.1 = version,
            None => pages.push((lpn, version)),
        }
        Ok(())
    }

    fn trim(&mut self, lpn: u32, dev: &mut Device) -> Result<()> {
        self.rewrite_pending(dev)?;
        // The page is invalidated; the block keeps its place until its next rewrite.
        self.map.drop_copy(dev, lpn)
    }

    fn ram_bytes(&self) -> u64 {
        self.map.ram_bytes()
    }

    fn block_role(&self, block: BlockId, dev: &Device) -> BlockRole {
        // Block mapping takes no log blocks, so this is data or free.
        self.map.role(dev, block, BlockRole::Data, BlockRole::Log)
    }

    fn block_duty(&self, block: BlockId, dev: &Device) -> Option<crate::inspect::BlockDuty> {
        self.map.duty(dev, block, "data", "log")
    }

    fn map_view(&self) -> Option<crate::ftl::MapView<'_>> {
        Some(self.map.map_view())
    }

    fn inspect(&self, query: &InspectQuery) -> Inspection {
        let bytes = self.ram_bytes();
        Inspection {
            ram_used: bytes,
            budgets: vec![Budget { name: "Block map".into(), bytes }],
            structures: vec![self.map.block_table(query)],
            ..Inspection::default()
        }
    }

    fn check(&self, dev: &Device) -> Result<()> {
        self.map.check(dev)
    }

    fn hash_into(&self, h: &mut StateHasher) {
        self.map.hash_into(h);
    }

    fn clone_box(&self) -> Box<dyn Ftl> {
        Box::new(self.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{CellType, SimConfig};
    use crate::ftl::demand::testing::Rig;
    use crate::ftl::logblock::seed004::{self, T_ERASE, T_READ, T_WRITE};

    /// Updating one page of a block with four valid pages (seed 004's device): a free block
    /// gets the new page and the three others at their offsets, the old block is erased:
    /// 3 × (T_read + T_write) + T_write + T_erase.
    #[test]
    fn an_update_moves_the_whole_block() {
        let (mut ftl, mut dev) = seed004::setup(BlockFtl::new);
        for lpn in 0..4 {
            ftl.write(lpn, 1, &mut dev).unwrap();
        }
        let old = ftl.map.data_block(0).unwrap();
        assert_eq!(dev.stats.gc_runs, 0, "first writes go in place");
        dev.cost = Default::default();
        ftl.begin_request(HostOp::Write, &[2], &mut dev).unwrap();
        ftl.write(2, 2, &mut dev).unwrap();
        ftl.end_request(&mut dev).unwrap();
        let new = ftl.map.data_block(0).unwrap();
        assert_ne!(new, old);
        assert_eq!((dev.stats.gc_runs, dev.stats.gc_valid_copies), (1, 3));
        assert_eq!(dev.flash().programmed_count(old), 0, "old block erased");
        assert_eq!(dev.cost.total_ns(), 3 * (T_READ + T_WRITE) + T_WRITE + T_ERASE);
        // Every page sits at its offset in the new block.
        for lpn in 0..4 {
            assert_eq!(ftl.map.locate(&dev, lpn), Some(dev.flash().first_ppn(new) + lpn));
        }
        assert_eq!(ftl.read(2, &mut dev).unwrap(), Some(PageTag::data(2, 2)));
        ftl.check(&dev).unwrap();
    }

    /// Seed 004 §2: a 4-page update inside a full 16-page block is one rewrite: the 4 new
    /// pages and 12 copies of the unmodified ones in a clean block, one erase (not one
    /// rewrite per page: 4 erases).
    #[test]
    fn a_request_rewrites_each_block_it_updates_once() {
        let mut config = SimConfig::default();
        config.device.pages_per_block = 16;
        let ftl = BlockFtl::new(&BuildCtx::of(&config)).unwrap();
        let mut rig = Rig::new(ftl, &config);
        rig.write(&(0..16).collect::<Vec<_>>());
        assert_eq!(rig.dev.stats.gc_runs, 0, "first writes go in place");
        let erases = |d: &Device| d.counters.erases.iter().sum::<u64>();
        rig.write(&[5, 6, 7, 8]);
        assert_eq!((erases(&rig.dev), rig.dev.stats.gc_valid_copies, rig.dev.stats.gc_runs), (1, 12, 1));
        // A request over two blocks (pages 14..18) rewrites the first (2 new, 14 copies); the
        // second block's pages are first writes and go in place.
        rig.write(&[14, 15, 16, 17]);
        assert_eq!((erases(&rig.dev), rig.dev.stats.gc_valid_copies), (2, 26));
        for lpn in [5, 14, 16] {
            assert_eq!(
                rig.ftl.read(lpn, &mut rig.dev).unwrap(),
                Some(PageTag::data(lpn, rig.oracle.expected(lpn)))
            );
        }
    }

    /// A request that first-writes some pages of a block and updates others rewrites the
    /// block once with all of them: the first writes are not programmed in place and then
    /// copied.
    #[test]
    fn first_writes_of_an_updated_block_go_with_the_rewrite() {
        let mut config = SimConfig::default();
        config.device.pages_per_block = 16;
        let ftl = BlockFtl::new(&BuildCtx::of(&config)).unwrap();
        let mut rig = Rig::new(ftl, &config);
        rig.write(&[2, 3]);
        rig.write(&[0, 1, 2, 3]);
        assert_eq!((rig.dev.stats.gc_runs, rig.dev.stats.gc_valid_copies), (1, 0));
        assert_eq!(rig.dev.counters.page_writes.iter().sum::<u64>(), 6, "2 first writes, then 4 pages once");
    }

    #[test]
    fn mlc_and_devices_without_a_spare_block_are_refused() {
        let refusal = |edit: fn(&mut SimConfig)| {
            let mut config = SimConfig::default();
            edit(&mut config);
            BlockFtl::new(&BuildCtx::of(&config)).unwrap_err().to_string()
        };
        assert!(refusal(|c| c.device.cell = CellType::Mlc).contains("MLC"));
        assert!(refusal(|c| c.device.over_provisioning = 0.0).contains("beyond the"));
    }
}
