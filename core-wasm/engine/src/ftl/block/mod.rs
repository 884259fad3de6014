//! `block`: pure block-level mapping (thesis §1.2, notes §2.2; Shin seed 004 §2). Logical
//! block `lpn / P` maps to one physical block and the page keeps its offset `lpn % P`. A
//! write to a page still erased in its data block goes there; an update of a written page
//! copies the block's other valid pages, with the new one, into a free block at their
//! offsets and erases the old block — the whole block for one page, which is why block
//! mapping suffers under small random writes (seed 004).
//!
//! That copy is this scheme's garbage collection (a GC run: victim = the old data block).
//! Only one spare block is needed (the copy's target). Offsets are fixed, so pages are
//! programmed out of order: SLC only (see [`super::blockmap`]).

use serde_json::json;

use super::blockmap::{BlockMap, BLOCK_ENTRY_BYTES};
use super::{BlockRole, BuildCtx, Ftl, NoOptions, OpenBlocks, OptionsSpec, SchemeInfo, SchemeSpec};
use crate::device::Device;
use crate::error::Result;
use crate::flash::{BlockId, PageTag};
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
}

impl BlockFtl {
    /// A block-mapped FTL over an erased device; refuses MLC and devices without a spare block.
    pub fn new(ctx: &BuildCtx) -> Result<Self> {
        Ok(BlockFtl { map: BlockMap::new(ctx, "block", 1)? })
    }
}

impl Ftl for BlockFtl {
    fn read(&mut self, lpn: u32, dev: &mut Device) -> Result<Option<PageTag>> {
        self.map.look_up(dev, lpn);
        self.map.read(dev, lpn)
    }

    fn write(&mut self, lpn: u32, version: u32, dev: &mut Device) -> Result<()> {
        let (lbn, _) = self.map.look_up(dev, lpn);
        if self.map.write_in_place(dev, lpn, version)? {
            return Ok(());
        }
        let old = self.map.data_block(lbn).expect("a written page has a data block");
        dev.gc_start(old);
        self.map.rewrite_block(dev, lpn, version)?;
        dev.meta_write(crate::meta::MetaKind::BlockMap, lbn, BLOCK_ENTRY_BYTES as u32);
        dev.gc_end(old);
        Ok(())
    }

    fn trim(&mut self, lpn: u32, dev: &mut Device) -> Result<()> {
        // The page is invalidated; the block keeps its place until its next rewrite.
        self.map.drop_copy(dev, lpn)
    }

    fn ram_bytes(&self) -> u64 {
        self.map.ram_bytes()
    }

    fn block_role(&self, block: BlockId, dev: &Device) -> BlockRole {
        // Block mapping takes no log blocks, so this is data or free.
        self.map.role(dev, block, BlockRole::Log)
    }

    fn map_view(&self) -> Option<crate::invariants::MapView<'_>> {
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
        ftl.write(2, 2, &mut dev).unwrap();
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
