//! The scheme trait and the registry of schemes.
//!
//! A scheme (an FTL) turns logical-page reads, writes and trims into flash operations on a
//! [`Device`]. Every implementation must uphold, after every call:
//!
//! 1. **No lost or stale data.** A read of a logical page returns the tag of the newest write
//!    of that page (checked by [`crate::oracle::Oracle`]), or `None` if it was never written
//!    or was trimmed.
//! 2. **No double mapping.** At most one valid data page exists per logical page, and each
//!    written logical page has a valid data page (or is held in the scheme's RAM).
//! 3. **Flash rules.** All flash access goes through [`Device`], which refuses illegal
//!    operations; schemes surface those refusals as errors, never panics.
//!
//! [`crate::invariants::check`] verifies 2 and the flash bookkeeping; tests run it after every
//! request on every scheme.
//!
//! How the schemes of DESIGN §5 fit this one trait:
//! - **Tables and caches** are the scheme's own state; RAM costs go through
//!   [`Device::ram`] / [`Device::cache_ops`], cache events through `Device::cache_*`, hit
//!   ratios through [`Device::mapping_lookup`] / [`Device::buffer_lookup`].
//! - **Translation pages and OOB-stored sub-tables** (DFTL family, MNFTL, RFTL): the scheme
//!   keeps what it wrote to flash (keyed by page or PPN) and charges the flash operations
//!   ([`Device::read`], [`Device::read_oob`], [`Device::program`]); the tag in the spare
//!   area says what a page holds, which is all the invariant checks need.
//! - **Per-logical-block block sets and log blocks** (NFTL, BAST, FAST, RFTL, SFTL) are the
//!   scheme's bookkeeping over block numbers; merges are reported with [`Device::merge`].
//! - **Whole-request behaviour** (TreeFTL's and JTL's sequential bypass) uses
//!   [`Ftl::begin_request`], which sees every page of a request before they are served.
//! - **GC in partial steps** (RFTL, GFTL) does a bounded amount of collection work inside
//!   each write, or in [`Ftl::end_request`].

mod aps;
mod bast;
mod block;
pub mod blockmap;
mod cdftl;
mod dac;
pub mod demand;
mod dftl;
mod fast;
mod fast_do;
pub(crate) mod gftl;
mod hcftl;
mod jtl;
pub mod logblock;
mod map_view;
mod mnftl;
mod nftl;
pub mod oobmap;
mod page;
pub mod pool;
pub mod rftl;
mod sbast;
mod sftl;
mod spec;
mod tpftl;
mod treeftl;

use crate::config::SimConfig;
use crate::device::Device;
use crate::error::{EngineError, Result};
use crate::flash::{BlockId, PageTag};
use crate::hash::StateHasher;
use crate::inspect::{BlockDuty, InspectQuery, Inspection};
use crate::trace::HostOp;

pub use cdftl::{Cdftl, CdftlOptions};
pub use dftl::{Dftl, DftlOptions};
pub use map_view::MapView;
pub use page::{PageFtl, PageGc, PageOptions};
pub use pool::{BlockPool, Collects};
pub use spec::{parse_options, BuildCtx, NoOptions, OpenBlocks, OptionsSpec, SchemeInfo, SchemeSpec};
pub use tpftl::{Tpftl, TpftlOptions};

/// Every scheme the engine implements: one line per scheme, in listing order.
pub static SCHEMES: &[&SchemeSpec] = &[
    &page::SPEC,
    &dftl::SPEC,
    &cdftl::SPEC,
    &tpftl::SPEC,
    &hcftl::SPEC,
    &treeftl::SPEC,
    &treeftl::SPEC_PL,
    &aps::SPEC,
    &jtl::SPEC,
    &block::SPEC,
    &bast::SPEC,
    &fast::SPEC,
    &fast_do::SPEC,
    &sbast::SPEC,
    &nftl::SPEC,
    &mnftl::SPEC,
    &gftl::SPEC,
    &sftl::SPEC,
    &rftl::SPEC,
    &dac::SPEC,
];

/// The spec of scheme `id`.
pub fn spec(id: &str) -> Result<&'static SchemeSpec> {
    SCHEMES
        .iter()
        .copied()
        .find(|s| s.info.id == id)
        .ok_or_else(|| EngineError::UnknownScheme(id.to_string()))
}

/// Checks `config.options` against its scheme and fills in the defaults.
pub fn resolve_options(config: &mut SimConfig) -> Result<()> {
    let spec = spec(&config.scheme)?;
    config.options = (spec.options.resolve)(spec.info.id, &config.options)?;
    Ok(())
}

/// Checks the whole configuration against the open blocks of its scheme (an unknown scheme
/// is checked as keeping one per unit, and refused when it is built).
pub fn validate(config: &SimConfig) -> Result<()> {
    config.validate(spec(&config.scheme).map_or(OpenBlocks::ONE_PER_UNIT, |s| s.open_blocks))
}

/// Pages of RAM the default budget adds for a scheme that buffers data pages.
pub const DEFAULT_BUFFER_PAGES: u64 = 16;

/// The RAM budget of `config`'s scheme in bytes: `ram.bytes`, or when that is 0 the default,
/// a quarter of a full page map, plus [`DEFAULT_BUFFER_PAGES`] whole pages for a scheme that
/// buffers data pages (a quarter map is smaller than one page on most devices, and such a
/// scheme caches pages).
pub fn ram_budget(config: &SimConfig) -> u64 {
    if config.ram.bytes > 0 {
        return config.ram.bytes;
    }
    // A full page map is 4 bytes per logical page; a quarter of it is one byte each.
    let quarter_map = config.device.logical_pages().max(64);
    let buffers = spec(&config.scheme).is_ok_and(|s| s.has_data_buffer());
    if buffers {
        quarter_map + DEFAULT_BUFFER_PAGES * u64::from(config.device.page_bytes)
    } else {
        quarter_map
    }
}

/// Builds the scheme named in `config` with its options.
pub fn build(config: &SimConfig) -> Result<Box<dyn Ftl>> {
    let spec = spec(&config.scheme)?;
    (spec.build)(&BuildCtx::of(config), &config.options)
}

/// What a block is used for, as shown in the block grid.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum BlockRole {
    /// Erased, in the free pool.
    Free = 0,
    /// Holds data pages.
    Data = 1,
    /// Holds translation pages.
    Translation = 2,
    /// Log block (hybrid schemes).
    Log = 3,
    /// Replacement block of a logical block (NFTL, DAC, RFTL).
    Replacement = 4,
    /// Buffer block (GFTL, RFTL).
    Buffer = 5,
    /// Dynamic translation page block (HCFTL).
    Dtp = 6,
    /// The block currently open for writes.
    Active = 7,
    /// Primary block of a logical block (NFTL, DAC, RFTL): what these schemes call the
    /// data block that its replacement (and RFTL's buffer) back up.
    Primary = 8,
    /// The block a partial collection is copying a logical block into (GFTL's cleaning
    /// destination, the logical block's next data block).
    Cleaning = 9,
}

/// How the scheme's RAM is used now, for the RAM-over-time chart: bytes holding
/// mapping information (tables, cached entries and translation pages, the GTD included) and
/// bytes holding buffered data pages. What the structures hold, not their capacity, so a
/// cache filling up or an adaptive split moving shows; together at most [`Ftl::ram_bytes`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct RamSplit {
    /// Mapping information in RAM (bytes).
    pub mapping_bytes: u64,
    /// Buffered data pages in RAM (bytes).
    pub buffer_bytes: u64,
}

/// One FTL scheme.
pub trait Ftl: std::fmt::Debug {
    /// Called before a request's pages are served, with all of them (in order). Default:
    /// nothing. Schemes that treat large or sequential requests differently decide here.
    fn begin_request(&mut self, _op: HostOp, _lpns: &[u32], _dev: &mut Device) -> Result<()> {
        Ok(())
    }
    /// Called after a request's pages were served. Default: nothing. Schemes that spread
    /// work over requests (partial GC steps) do it here.
    fn end_request(&mut self, _dev: &mut Device) -> Result<()> {
        Ok(())
    }
    /// Writes to flash whatever the scheme holds only in RAM and would lose at power-off
    /// (dirty mapping entries, buffered pages), charging the work. Called at the end of the
    /// pre-fill, at the end of a run when `workload.flush_at_end` asks, and on demand
    /// ([`crate::Sim::flush`]). Default: nothing to write.
    fn flush(&mut self, _dev: &mut Device) -> Result<()> {
        Ok(())
    }
    /// Lays out pre-filled data directly, on an erased device before any request: `pages`
    /// are `(lpn, version)` in LPN order, each written once. The data goes where the scheme
    /// would put a first write of each page in that order (block after block), and the
    /// scheme's metadata is written once (each translation page programmed once, nothing
    /// superseded), with its caches and buffers left empty. Returns `false` when the scheme
    /// does not place (the default): the caller then serves the pages as write requests and
    /// flushes, which for a scheme without caches gives the same clean layout, and for one
    /// with caches leaves them warm (the caller reports that).
    fn place_prefill(
        &mut self,
        _pages: &mut dyn Iterator<Item = (u32, u32)>,
        _dev: &mut Device,
    ) -> Result<bool> {
        Ok(false)
    }
    /// The device is idle from now until `until_ns` (the next request's arrival): background
    /// work (HCFTL's DTP merge, MNFTL's idle reclamation) goes here, charged like any other.
    /// Work that runs past `until_ns` delays the next request. Default: nothing.
    fn idle(&mut self, _dev: &mut Device, _until_ns: u64) -> Result<()> {
        Ok(())
    }
    /// Whether [`Ftl::idle`] may do any work: a scheme that overrides `idle` must say `true`
    /// here, or release builds never call it. The simulator passes the idle gaps of the
    /// others (one before most requests of a timed trace) without opening and closing an
    /// empty span of device time for each; debug builds (every test) still call their `idle`
    /// and fail if it did any work.
    fn works_when_idle(&self) -> bool {
        false
    }
    /// Reads logical page `lpn`; returns the spare-area tag of what it found (`None` when
    /// unmapped).
    fn read(&mut self, lpn: u32, dev: &mut Device) -> Result<Option<PageTag>>;
    /// Writes logical page `lpn` with version stamp `version`.
    fn write(&mut self, lpn: u32, version: u32, dev: &mut Device) -> Result<()>;
    /// Discards logical page `lpn`.
    fn trim(&mut self, lpn: u32, dev: &mut Device) -> Result<()>;
    /// RAM the scheme's tables and caches occupy, in bytes.
    fn ram_bytes(&self) -> u64;
    /// What that RAM holds now, mapping against buffered data ([`RamSplit`]). Default:
    /// `None` (not reported). Sampled a bounded number of times per run, so it may walk a
    /// structure.
    fn ram_split(&self) -> Option<RamSplit> {
        None
    }
    /// Caching groups now, as the data pages each holds (TreeFTL's CTP and its CDPs), for
    /// the metrics' group count and size distribution. Default: `None` (no groups).
    fn group_sizes(&self) -> Option<Vec<u32>> {
        None
    }
    /// Role of `block` for the views.
    fn block_role(&self, block: BlockId, dev: &Device) -> BlockRole;
    /// What `block` does for the logical block owning it and that logical block's GC state,
    /// in the scheme's words, for the block under the viewer's pointer (see
    /// [`crate::inspect::Inspection::block`]). Default: `None` (the grid's role says all).
    fn block_duty(&self, _block: BlockId, _dev: &Device) -> Option<BlockDuty> {
        None
    }
    /// A hint that the pages of `ahead` will be served soon: the scheme may start loading
    /// the table entries they will touch ([`crate::prefetch`]), together with the caller's
    /// own table `ahead.also`, all in one tight loop so that their misses overlap (in wasm a
    /// hint is a load that stalls, so one burst stalls once). Must not change any state.
    /// Default: only the caller's table.
    fn prefetch(&self, ahead: &crate::prefetch::Lookahead, _dev: &Device) {
        for &lpn in ahead.far {
            crate::prefetch::element(ahead.also, lpn as usize);
        }
    }
    /// Logical pages whose newest data lives only in the scheme's RAM (a write buffer).
    fn holds_in_ram(&self, _lpn: u32) -> bool {
        false
    }
    /// Where the scheme's logical map lives, for the mapping reconstruction check
    /// ([`crate::invariants::check_mapping`]): the map rebuilt from flash and these RAM
    /// entries must give every written page its newest copy. `None`: not declared (the
    /// check is skipped, so every scheme should declare it).
    fn map_view(&self) -> Option<crate::ftl::MapView<'_>> {
        None
    }
    /// The RAM budget the scheme must stay within (`ram_bytes` is checked against it).
    fn ram_budget(&self) -> Option<u64> {
        None
    }
    /// The worst-case response time the scheme guarantees for a one-page request, in
    /// microseconds (a real-time scheme's analytic bound L(p)); `None`: no such bound.
    fn response_bound_us(&self) -> Option<f64> {
        None
    }
    /// The scheme's RAM structures, summarised as `query` asks (see [`crate::inspect`]).
    /// Read-only: the state and its hash do not change. `ram_budget` is filled in by the
    /// caller.
    fn inspect(&self, query: &InspectQuery) -> Inspection;
    /// Scheme-specific invariant checks (the generic ones live in [`crate::invariants`]).
    fn check(&self, dev: &Device) -> Result<()>;
    /// Feeds the scheme's state into a hash.
    fn hash_into(&self, h: &mut StateHasher);
    /// A boxed copy (checkpoints).
    fn clone_box(&self) -> Box<dyn Ftl>;
}

impl Clone for Box<dyn Ftl> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every registered spec is complete: unique id, notes, stops, documented options whose
    /// defaults and variants pass its own validation, and a build that refuses unknown keys.
    #[test]
    fn every_spec_is_complete_and_validates_its_own_options() {
        let mut ids: Vec<&str> = SCHEMES.iter().map(|s| s.info.id).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), SCHEMES.len(), "scheme ids are unique");
        for s in SCHEMES {
            let id = s.info.id;
            // The scheme's own default configuration (its default RAM budget depends on it).
            let config = SimConfig { scheme: id.into(), ..SimConfig::default() };
            assert!(s.notes.starts_with("# ") && s.notes.contains("## Our choices"), "{id}: notes.md");
            assert!(s.stops.contains(&crate::vocab::StopAt::Gc), "{id}: every scheme collects");
            let defaults = s.default_options();
            assert!(defaults.is_object(), "{id}: default options");
            for row in s.option_docs() {
                assert!(
                    !row["doc"].as_str().unwrap_or("").is_empty(),
                    "{id}: option {} has no doc",
                    row["key"]
                );
            }
            for (name, options) in (s.variants)() {
                (s.options.resolve)(id, &options).unwrap_or_else(|e| panic!("{id} variant {name}: {e}"));
                (s.build)(&BuildCtx::of(&config), &options).unwrap_or_else(|e| panic!("{id} {name}: {e}"));
            }
            let e = (s.build)(&BuildCtx::of(&config), &serde_json::json!({"no_such_option": 1})).unwrap_err();
            assert!(e.to_string().contains("no_such_option") && e.to_string().contains(id), "{e}");
        }
    }
}
