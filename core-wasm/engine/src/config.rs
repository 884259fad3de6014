//! Configuration: the device (geometry, cell type, latencies), the scheme, GC, timing and
//! workload mapping, as one serialisable value. Every field has a default so a JSON config
//! may name only what it changes.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::error::{EngineError, Result};

mod metadata;
pub use metadata::{MetadataConfig, MetadataModel};

/// Most physical pages a device may have.
pub const MAX_PAGES: u64 = 1 << 27;

/// Longest cost one operation may have (10 s; real NAND erases take a few ms): with this
/// bound, the ns clock (2^64 ns, 584 years) holds billions of operations. A longer one could
/// wrap the clock's sums and report responses shorter than the flash work done.
pub const MAX_LATENCY_NS: u64 = 10_000_000_000;

/// Longest arrival period of `timing: {"periodic": ns}` (2^40 ns, about 18 minutes), so
/// request i's arrival, i x period, stays on the clock for millions of requests.
pub const MAX_PERIOD_NS: u64 = 1 << 40;

pub use crate::ids::CellType;

/// Operation costs in nanoseconds of simulated time.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct Latencies {
    /// Read one page (array to register).
    #[schemars(extend("x-units" = "ns"))]
    pub page_read_ns: u64,
    /// Read only the spare (OOB) area of a page.
    #[schemars(extend("x-units" = "ns"))]
    pub oob_read_ns: u64,
    /// Program one page.
    #[schemars(extend("x-units" = "ns"))]
    pub program_ns: u64,
    /// Erase one block.
    #[schemars(extend("x-units" = "ns"))]
    pub erase_ns: u64,
    /// Move one page over the bus (register to controller), charged with reads and programs.
    #[schemars(extend("x-units" = "ns"))]
    pub transfer_ns_per_page: u64,
    /// One access to a mapping table or buffer in RAM.
    #[schemars(extend("x-units" = "ns"))]
    pub ram_access_ns: u64,
    /// One cache-management operation (search / LRU update) in RAM.
    #[schemars(extend("x-units" = "ns"))]
    pub cache_op_ns: u64,
    /// Move one page between the host and the controller over the host interface, charged
    /// once per page a host read or write moves (seed 003's four-part breakdown: host
    /// transfer, metadata load, FTL execution, user data transfer). 0 = not modelled.
    #[schemars(extend("x-units" = "ns"))]
    pub host_transfer_ns_per_page: u64,
}

impl Latencies {
    /// Every latency with its configuration key.
    fn named(&self) -> [(&'static str, u64); 8] {
        [
            ("page_read_ns", self.page_read_ns),
            ("oob_read_ns", self.oob_read_ns),
            ("program_ns", self.program_ns),
            ("erase_ns", self.erase_ns),
            ("transfer_ns_per_page", self.transfer_ns_per_page),
            ("ram_access_ns", self.ram_access_ns),
            ("cache_op_ns", self.cache_op_ns),
            ("host_transfer_ns_per_page", self.host_transfer_ns_per_page),
        ]
    }

    /// Refuses a latency above [`MAX_LATENCY_NS`], naming its key.
    pub fn validate(&self) -> Result<()> {
        match self.named().into_iter().find(|&(_, ns)| ns > MAX_LATENCY_NS) {
            Some((key, ns)) => Err(EngineError::Config(format!(
                "device.latency.{key} must be at most {MAX_LATENCY_NS} ns (10 s), got {ns}"
            ))),
            None => Ok(()),
        }
    }
}

impl Default for Latencies {
    fn default() -> Self {
        // TreeFTL's SLC table (seed 000): 25 µs read, 200 µs program, 700 µs erase.
        Latencies {
            page_read_ns: 25_000,
            oob_read_ns: 25_000,
            program_ns: 200_000,
            erase_ns: 700_000,
            transfer_ns_per_page: 0,
            ram_access_ns: 0,
            cache_op_ns: 0,
            host_transfer_ns_per_page: 0,
        }
    }
}

/// Geometry, cell type and latencies of the simulated device.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct DeviceConfig {
    /// Bytes in a page's data area.
    #[schemars(extend("x-units" = "bytes"))]
    pub page_bytes: u32,
    /// Pages in an erase block.
    #[schemars(extend("x-units" = "pages"))]
    pub pages_per_block: u32,
    /// Physical blocks in the device.
    #[schemars(extend("x-units" = "blocks"))]
    pub blocks: u32,
    /// Bytes in a page's spare (OOB) area.
    #[schemars(extend("x-units" = "bytes"))]
    pub oob_bytes: u32,
    /// Mapping entries one translation page holds (demand-paged schemes): at most
    /// `page_bytes / 4` (a full page of 4-byte PPNs, what the sources assume); 0 means a full
    /// page. The teaching device uses 64, so its 768 logical pages span 12 translation pages
    /// and a demand-paged scheme's misses, write-backs and batch updates are visible. On a
    /// large device of several units, pages this small can leave GC unable to keep up with a
    /// demand-paged scheme whose RAM holds part of the map (its notes, "Known limit"): use 0
    /// there.
    #[schemars(extend("x-units" = "entries"))]
    pub translation_page_entries: u32,
    /// Independent channels (parallelism; 1 = none).
    pub channels: u32,
    /// Chips (ways) per channel.
    pub ways: u32,
    /// Fraction of physical capacity hidden from the host (0.0 ..< 1.0).
    #[schemars(extend("x-units" = "fraction"))]
    pub over_provisioning: f64,
    /// Cell type.
    pub cell: CellType,
    /// Operation costs.
    pub latency: Latencies,
    /// Before measuring, write this fraction of the logical pages once (Shin's utilization
    /// axis, seed 004); 0 = no pre-fill beyond what the workload config asks.
    #[schemars(extend("x-units" = "fraction"))]
    pub utilization: f64,
    /// How the controller waits for flash. `false` (the default, and every source preset's):
    /// strict in-order sum of costs, as the thesis, TreeFTL and HCFTL over DiskSim account
    /// time: each operation, RAM and cache work included, starts when the previous one ends,
    /// and a request starts when the previous one has finished. `true`: programs and erases
    /// are posted to their unit and the controller goes on, so units (channels x ways) work
    /// in parallel; RAM work issued after a posted program then overlaps it, and a request
    /// needing no flash may complete before an earlier write (a deviation from the sources,
    /// for multi-unit studies).
    pub posted_programs: bool,
    /// A host write covering only part of a flash page reads the page's old data first
    /// (read-modify-write) when the page holds data, so the rest of the page survives: the
    /// read goes through the scheme like a host read (purpose `data`) and is counted in
    /// `requests.pages_rmw_read`. `false` (the default, as the thesis, TreeFTL and HCFTL
    /// count): a partial page is programmed whole without a read. On for `shin-2x4`, whose
    /// 16 KB virtual pages keep each sector's offset inside the page (seed 004 §2), so 4 KB
    /// host writes must carry the page's other sectors over.
    pub read_modify_write: bool,
}

impl Default for DeviceConfig {
    fn default() -> Self {
        // A small teaching device: 64 blocks x 16 pages of 4 KB (4 MiB), SLC, 25 % OP, so a
        // grid fits a projector and GC shows up within the first thousand requests.
        DeviceConfig {
            page_bytes: 4096,
            pages_per_block: 16,
            blocks: 64,
            oob_bytes: 128,
            // Small translation pages: several of them on this small device.
            translation_page_entries: 64,
            channels: 1,
            ways: 1,
            over_provisioning: 0.25,
            cell: CellType::Slc,
            latency: Latencies::default(),
            utilization: 0.0,
            posted_programs: false,
            read_modify_write: false,
        }
    }
}

impl DeviceConfig {
    /// Independent flash units (channels x ways; valid configs keep it at most `blocks`).
    pub fn units(&self) -> u32 {
        self.channels.saturating_mul(self.ways)
    }

    /// Entries per translation page: `translation_page_entries`, capped at a full page
    /// (`page_bytes / 4`), 0 meaning a full page.
    pub fn entries_per_translation_page(&self) -> u32 {
        let full = self.page_bytes / 4;
        match self.translation_page_entries {
            0 => full,
            n => n.min(full),
        }
    }

    /// Total physical pages.
    pub fn physical_pages(&self) -> u64 {
        u64::from(self.blocks) * u64::from(self.pages_per_block)
    }

    /// Pages the host may address: physical pages less over-provisioning.
    pub fn logical_pages(&self) -> u64 {
        let usable = (self.physical_pages() as f64) * (1.0 - self.over_provisioning);
        usable.floor() as u64
    }

    /// Checks the geometry is possible, naming the first field that is not.
    pub fn validate(&self) -> Result<()> {
        let bad = |m: String| Err(EngineError::Config(m));
        if self.page_bytes < 16 || !self.page_bytes.is_power_of_two() {
            return bad(format!(
                "device.page_bytes must be a power of two of at least 16, got {}",
                self.page_bytes
            ));
        }
        if self.pages_per_block > 65_536 {
            return bad(format!(
                "device.pages_per_block must be at most 65536, got {}",
                self.pages_per_block
            ));
        }
        if self.oob_bytes < crate::flash::TAG_OOB_BYTES {
            return bad(format!(
                "device.oob_bytes must be at least {} (the logical address and page kind every page carries), got {}",
                crate::flash::TAG_OOB_BYTES,
                self.oob_bytes
            ));
        }
        if self.pages_per_block < 2 {
            return bad(format!("device.pages_per_block must be at least 2, got {}", self.pages_per_block));
        }
        if self.blocks < 4 {
            return bad(format!("device.blocks must be at least 4, got {}", self.blocks));
        }
        // About 13 bytes of state a page, cloned for checkpoints: 2^27 pages (512 GiB of 4 KiB
        // pages) is about 1.7 GB, the most a browser tab can hold.
        if self.physical_pages() > MAX_PAGES {
            return bad(format!(
                "device has {} pages; at most {MAX_PAGES} are supported (lower device.blocks)",
                self.physical_pages()
            ));
        }
        if !(0.0..0.95).contains(&self.over_provisioning) || self.over_provisioning.is_nan() {
            return bad(format!(
                "device.over_provisioning must be in [0, 0.95), got {}",
                self.over_provisioning
            ));
        }
        if !(0.0..=1.0).contains(&self.utilization) || self.utilization.is_nan() {
            return bad(format!("device.utilization must be in [0, 1], got {}", self.utilization));
        }
        // Every logical-address computation (the `modulo` map, the oracle, the schemes' tables)
        // needs at least one logical page; 4 blocks x 2 pages at 90 % OP would have none.
        if self.logical_pages() == 0 {
            return bad(format!(
                "device has no logical pages ({} physical pages at over_provisioning {}); lower device.over_provisioning or raise device.blocks",
                self.physical_pages(),
                self.over_provisioning
            ));
        }
        if self.channels == 0 || self.ways == 0 {
            return bad("device.channels and device.ways must be at least 1".into());
        }
        self.latency.validate()?;
        if u64::from(self.channels) * u64::from(self.ways) > u64::from(self.blocks) {
            return bad(format!(
                "device.channels x device.ways ({} x {}) exceeds device.blocks ({}): every unit needs a block",
                self.channels, self.ways, self.blocks
            ));
        }
        Ok(())
    }
}

/// A GC victim-selection policy (config value: `"greedy"`, `"cost-benefit"`, `"fifo"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum VictimPolicy {
    /// Fewest valid pages.
    #[default]
    Greedy,
    /// Highest age × (1 − u) / 2u.
    CostBenefit,
    /// Oldest first-written block.
    Fifo,
}

impl VictimPolicy {
    /// Every policy, for listings and `--help`.
    pub const ALL: [VictimPolicy; 3] = [VictimPolicy::Greedy, VictimPolicy::CostBenefit, VictimPolicy::Fifo];

    /// The stable config name.
    pub fn name(self) -> &'static str {
        match self {
            VictimPolicy::Greedy => "greedy",
            VictimPolicy::CostBenefit => "cost-benefit",
            VictimPolicy::Fifo => "fifo",
        }
    }

    /// The policy with config name `name`.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|p| p.name() == name)
    }
}

/// Which unit (channel x way) a host page write goes to (config `gc.unit_allocation`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum UnitAllocation {
    /// Dynamic: successive page writes rotate over the units, whatever their address.
    #[default]
    RoundRobin,
    /// Static: logical page n goes to unit n mod units (the low logical-address bits choose
    /// the channel and way; seed 003's striping).
    Static,
}

/// Garbage-collection settings shared by the schemes that collect blocks.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct GcConfig {
    /// GC runs when the free-block count falls to this reserve.
    #[schemars(extend("x-units" = "blocks"))]
    pub reserve_blocks: u32,
    /// Victim selection: `greedy` (the thesis' and Shin's choice), `cost-benefit` (the
    /// original DFTL paper's), or `fifo`.
    pub victim: VictimPolicy,
    /// Which unit (channel x way) a host page write goes to: `round-robin` (dynamic:
    /// successive page writes rotate over the units) or `static` (logical page n on unit n
    /// mod units: the low logical-address bits pick the channel and way, as Bang et al.
    /// (seed 003) stripe). The page-mapped schemes (`page` and the demand-based family) place
    /// each host page by it; the block-mapped and hybrid schemes take whole blocks from the
    /// units in turn and ignore it (`static` still makes the start-up check give every unit
    /// spare blocks of its own).
    pub unit_allocation: UnitAllocation,
    /// When a unit needs a block and none of its own is free: `true` (the default) takes
    /// another unit's free block, counted in the metrics as `gc.cross_unit_blocks` (that
    /// block's programs then run on the other unit), for every scheme (all take their blocks
    /// from the shared pool); `false` refuses with an error naming the unit.
    pub borrow_blocks: bool,
}

impl Default for GcConfig {
    fn default() -> Self {
        GcConfig {
            reserve_blocks: 2,
            victim: VictimPolicy::Greedy,
            unit_allocation: UnitAllocation::RoundRobin,
            borrow_blocks: true,
        }
    }
}

/// How trace addresses are placed into the device's logical space.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum AddressMap {
    /// Each distinct touched page gets the next free logical page, in order of first touch.
    Dense,
    /// Logical page = trace page modulo the device's logical pages.
    Modulo,
    /// Refuse traces whose pages do not fit the logical space.
    Refuse,
}

/// How trace requests become page operations.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct WorkloadConfig {
    /// Logical-space placement.
    pub address_map: AddressMap,
    /// Before measuring, write every page the trace reads before it writes it, so reads find
    /// data on flash as they would on a device in use. Counters are reset afterwards.
    pub prefill_read_pages: bool,
    /// Pre-fill through the scheme's own request path, so its caches and buffers start the
    /// measurement holding what the pre-fill left in them (a warm start). Off (the default):
    /// every scheme starts from the same placement, pre-filled pages laid out in LPN order
    /// with the scheme's metadata written once and its caches empty.
    pub warm_up: bool,
    /// After the last request, flush what the scheme holds only in RAM (dirty mapping
    /// entries, buffered pages) and count that work in the metrics, so schemes that buffer
    /// are compared on the same footing.
    pub flush_at_end: bool,
}

impl Default for WorkloadConfig {
    fn default() -> Self {
        // Modulo works for any trace on any device; Dense and Refuse are for devices sized to
        // the trace's footprint (Dense keeps distinct pages distinct).
        WorkloadConfig {
            address_map: AddressMap::Modulo,
            prefill_read_pages: true,
            warm_up: false,
            flush_at_end: false,
        }
    }
}

/// When requests arrive.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum TimingMode {
    /// At their trace timestamps; requests queue FIFO behind a busy device.
    Trace,
    /// Each request arrives when the previous one completes (response = service time).
    Closed,
    /// Request i arrives at i x period (ns), as in RFTL's evaluation (thesis §4.4).
    Periodic(u64),
}

/// The FTL's RAM.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct RamConfig {
    /// Total RAM budget of the FTL in bytes, for schemes that cache (DFTL family, hybrids'
    /// buffers). 0 = the default: a quarter of a full page map (4 bytes per logical page),
    /// plus 16 whole pages for a scheme that buffers data pages.
    #[schemars(extend("x-units" = "bytes"))]
    pub bytes: u64,
}

/// Everything needed to build a simulation, besides the trace.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct SimConfig {
    /// Scheme id (one of `ftl::SCHEMES`; the config knows no scheme types).
    pub scheme: String,
    /// The device.
    pub device: DeviceConfig,
    /// Garbage collection.
    pub gc: GcConfig,
    /// RAM budget.
    pub ram: RamConfig,
    /// The scheme's own options (only that scheme's; see its spec in `ftl::SCHEMES`),
    /// checked and completed with defaults by the scheme when the simulation is built.
    pub options: serde_json::Value,
    /// Seed for schemes that make random choices (same seed, same run).
    pub seed: u64,
    /// Trace-to-device mapping.
    pub workload: WorkloadConfig,
    /// Arrival model.
    pub timing: TimingMode,
    /// Record typed events for each step (off = fast mode, counters only).
    pub record_events: bool,
    /// Where the scheme's metadata lives (seed 003's placement model; `flat` by default, left
    /// out of a serialised config then).
    #[serde(skip_serializing_if = "MetadataConfig::is_default")]
    pub metadata: MetadataConfig,
}

impl Default for SimConfig {
    fn default() -> Self {
        SimConfig {
            scheme: "page".into(),
            device: DeviceConfig::default(),
            gc: GcConfig::default(),
            ram: RamConfig::default(),
            options: serde_json::Value::Object(Default::default()),
            seed: 0,
            workload: WorkloadConfig::default(),
            timing: TimingMode::Trace,
            record_events: false,
            metadata: Default::default(),
        }
    }
}

/// The open blocks a scheme keeps (blocks taken from the free list and being filled), for
/// the start-up check that the spare blocks cover them besides the GC reserve: a device
/// where they do not would stop mid-run with "device full".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct OpenBlocks {
    /// Open blocks on every unit (channel x way): a page-mapped scheme's data block.
    pub per_unit: u32,
    /// Open blocks of streams the scheme keeps once for the device (translation pages,
    /// HCFTL's DTPs), each on one unit.
    pub shared: u32,
    /// Whether each unit stays supplied by collecting its own blocks, so the scheme can run
    /// with `gc.borrow_blocks = false` on a multi-unit device. A scheme that collects
    /// device-wide, or keeps a stream on one unit, lets a unit run dry while others hold
    /// free blocks: without borrowing it needs a single-unit device.
    pub without_borrowing: bool,
}

impl OpenBlocks {
    /// The safe default for a scheme that states nothing else: one open block per unit
    /// (what the configuration check always assumed), and borrowing needed on multi-unit
    /// devices.
    pub const ONE_PER_UNIT: OpenBlocks = OpenBlocks { per_unit: 1, shared: 0, without_borrowing: false };
    /// Page mapping: one data block per unit, collected per unit.
    pub const PAGE_MAPPED: OpenBlocks = OpenBlocks { per_unit: 1, shared: 0, without_borrowing: true };
    /// The demand-paged family: one data block per unit and the translation-page block.
    pub const DEMAND: OpenBlocks = OpenBlocks { per_unit: 1, shared: 1, without_borrowing: false };

    /// All open blocks on a device of `units` units.
    pub fn total(&self, units: u32) -> u64 {
        u64::from(self.per_unit) * u64::from(units) + u64::from(self.shared)
    }
}

impl SimConfig {
    /// Parses a JSON config; missing fields take their defaults.
    pub fn from_json(text: &str) -> Result<SimConfig> {
        serde_json::from_str(text).map_err(|e| EngineError::Config(format!("config JSON: {e}")))
    }

    /// Checks the whole configuration, given the open blocks its scheme keeps
    /// ([`crate::ftl::validate`] looks them up in the scheme's spec).
    pub fn validate(&self, open: OpenBlocks) -> Result<()> {
        self.device.validate()?;
        if let TimingMode::Periodic(period) = self.timing {
            if period > MAX_PERIOD_NS {
                return Err(EngineError::Config(format!(
                    "timing.periodic must be at most {MAX_PERIOD_NS} ns (2^40, about 18 minutes), got {period}"
                )));
            }
        }
        let reserve = u64::from(self.gc.reserve_blocks);
        if reserve == 0 {
            return Err(EngineError::Config("gc.reserve_blocks must be at least 1".into()));
        }
        let spare_blocks = (self.device.physical_pages() - self.device.logical_pages())
            / u64::from(self.device.pages_per_block);
        // Besides the reserve, the scheme's open blocks (one per unit, plus its own streams);
        // all but one may be partly written.
        let units = self.device.units();
        let needed = reserve + open.total(units) - 1;
        if spare_blocks <= needed {
            return Err(EngineError::Config(format!(
                "over-provisioning leaves {spare_blocks} spare blocks, but GC needs more than {needed} (its reserve of {reserve} plus {} open blocks of '{}', less one); raise device.over_provisioning or device.blocks",
                open.total(units),
                self.scheme
            )));
        }
        // A scheme with its own streams (translation pages, DTPs) writes GC's map updates to
        // a stream block that may sit on another unit while the victim's unit is being
        // collected, so one reserved block can be used up before the victim is erased.
        // Measured on hm_0 over 2-16 units: 12 of 224 runs with a reserve of 1 stopped with
        // "device full" mid-run (hcftl, treeftl; dftl and tpftl on CloudPhysics), none of
        // 288 with 2.
        if open.shared > 0 && units > 1 && reserve < 2 {
            return Err(EngineError::Config(format!(
                "gc.reserve_blocks = {reserve} on a device of {units} units: '{}' writes GC's map updates to its own stream while a unit's victim is collected, and one reserved block can run out first; use gc.reserve_blocks = 2 (the default) or one unit",
                self.scheme
            )));
        }
        if !self.gc.borrow_blocks && units > 1 {
            if !open.without_borrowing {
                return Err(EngineError::Config(format!(
                    "gc.borrow_blocks = false: '{}' collects device-wide or keeps a stream on one unit, so one of the {units} units would run out of blocks while others have free ones; use one unit (device.channels = device.ways = 1) or leave gc.borrow_blocks on",
                    self.scheme
                )));
            }
            // Without borrowing each unit lives on its own blocks: check each as static
            // allocation does.
            return self.validate_units();
        }
        if self.gc.unit_allocation == UnitAllocation::Static {
            self.validate_units()?;
        }
        Ok(())
    }

    /// Static allocation pins logical page n to unit n mod units (and without borrowing a
    /// unit lives on its own blocks), so every unit must have spare room of its own: more
    /// whole spare blocks than its share of the reserve.
    fn validate_units(&self) -> Result<()> {
        let d = &self.device;
        let (units, ppb) = (u64::from(d.units()), u64::from(d.pages_per_block));
        let share = u64::from(self.gc.reserve_blocks).div_ceil(units);
        let (why, fix) = if self.gc.unit_allocation == UnitAllocation::Static {
            ("gc.unit_allocation 'static'", "'round-robin'")
        } else {
            ("gc.borrow_blocks = false", "gc.borrow_blocks = true")
        };
        for u in 0..units {
            let blocks = u64::from(d.blocks).saturating_sub(u).div_ceil(units);
            let logical = d.logical_pages().saturating_sub(u).div_ceil(units);
            let spare = (blocks * ppb).saturating_sub(logical) / ppb;
            if spare <= share {
                return Err(EngineError::Config(format!(
                    "{why}: unit {u} has {blocks} blocks for {logical} logical pages, leaving {spare} spare blocks; it needs more than {share} (its share of gc.reserve_blocks); raise device.over_provisioning or device.blocks, or use {fix}"
                )));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_config_is_valid() {
        let c = SimConfig::default();
        crate::ftl::validate(&c).unwrap();
        assert_eq!(c.device.physical_pages(), 1024);
        assert_eq!(c.device.logical_pages(), 768);
    }

    #[test]
    fn partial_json_takes_defaults() {
        let c = SimConfig::from_json(r#"{"device": {"blocks": 16}}"#).unwrap();
        assert_eq!(c.device.blocks, 16);
        assert_eq!(c.device.pages_per_block, 16);
        assert_eq!(c.scheme, "page");
    }

    #[test]
    fn impossible_configs_are_named() {
        let mut c = SimConfig::default();
        c.device.page_bytes = 3000;
        assert!(crate::ftl::validate(&c).unwrap_err().to_string().contains("device.page_bytes"));
        let mut c = SimConfig::default();
        c.device.over_provisioning = 0.01;
        assert!(crate::ftl::validate(&c).unwrap_err().to_string().contains("over-provisioning"));
        assert!(SimConfig::from_json("{").is_err());
        for (key, json) in [
            ("page_bytes", r#"{"device": {"page_bytes": 2}}"#),
            ("channels x device.ways", r#"{"device": {"channels": 65536, "ways": 65536}}"#),
            ("at most", r#"{"device": {"blocks": 4000000000}}"#),
            ("pages_per_block", r#"{"device": {"pages_per_block": 1073741824, "blocks": 4}}"#),
            // Review (engine-model) §5.9: oob_bytes was never read.
            ("device.oob_bytes", r#"{"device": {"oob_bytes": 4}}"#),
            // Review (engine-model) §5.1: passed validation, then `page % 0` in the workload.
            (
                "no logical pages",
                r#"{"device": {"blocks": 4, "pages_per_block": 2, "over_provisioning": 0.9}}"#,
            ),
        ] {
            let e = crate::ftl::validate(&SimConfig::from_json(json).unwrap()).unwrap_err().to_string();
            assert!(e.contains(key), "{json}: {e}");
        }
        // Static allocation: unit 0 of 10 blocks x 16 pages at 50 % OP has 3 blocks for 20
        // logical pages, one spare block of its own, as little as a one-unit device may not have
        // (units 2 and 3 have none: they would borrow until the device is full).
        let e = crate::ftl::validate(
            &SimConfig::from_json(
                r#"{"device": {"blocks": 10, "pages_per_block": 16, "over_provisioning": 0.5, "channels": 2, "ways": 2}, "gc": {"reserve_blocks": 1, "unit_allocation": "static"}}"#,
            )
            .unwrap(),
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("unit 0 has 3 blocks for 20 logical pages"), "{e}");
        // Values that would wrap the ns clock: the key and the limit are named.
        for (key, json) in [
            (
                "device.latency.erase_ns must be at most 10000000000",
                r#"{"device": {"latency": {"erase_ns": 18446744073709551615}}}"#,
            ),
            ("device.latency.program_ns", r#"{"device": {"latency": {"program_ns": 10000000001}}}"#),
            (
                "timing.periodic must be at most 1099511627776",
                r#"{"timing": {"periodic": 18446744073709551615}}"#,
            ),
        ] {
            let e = crate::ftl::validate(&SimConfig::from_json(json).unwrap()).unwrap_err().to_string();
            assert!(e.contains(key), "{json}: {e}");
        }
        let edge =
            r#"{"device": {"latency": {"erase_ns": 10000000000}}, "timing": {"periodic": 1099511627776}}"#;
        crate::ftl::validate(&SimConfig::from_json(edge).unwrap()).unwrap();
        // The scheme's open blocks count: 16 spare blocks cover a reserve of 14 plus page's
        // data block and DFTL's data and translation blocks, not HCFTL's three.
        let with = |scheme: &str| {
            let mut c = SimConfig { scheme: scheme.into(), ..SimConfig::default() };
            c.gc.reserve_blocks = 14;
            crate::ftl::validate(&c).map_err(|e| e.to_string())
        };
        assert!(with("page").is_ok() && with("dftl").is_ok());
        let e = with("hcftl").unwrap_err();
        assert!(e.contains("plus 3 open blocks of 'hcftl'"), "{e}");
        // Without borrowing, a scheme that collects device-wide is refused on several units;
        // page, which collects per unit, has each unit checked.
        let unborrowed = |scheme: &str, channels: u32| {
            let mut c = SimConfig { scheme: scheme.into(), ..SimConfig::default() };
            c.device.blocks = 130;
            c.device.channels = channels;
            c.gc.borrow_blocks = false;
            crate::ftl::validate(&c).map_err(|e| e.to_string())
        };
        assert!(unborrowed("dftl", 1).is_ok() && unborrowed("page", 2).is_ok());
        let e = unborrowed("dftl", 2).unwrap_err();
        assert!(e.contains("gc.borrow_blocks = false: 'dftl'"), "{e}");
        let e = unborrowed("page", 16).unwrap_err();
        // 16 units of 8 or 9 blocks: unit 2 has 8 blocks for 98 logical pages, one spare.
        assert!(e.contains("gc.borrow_blocks = false: unit 2 has 8 blocks for 98 logical pages"), "{e}");
        // A misspelt key is an error, not silently ignored.
        let e = SimConfig::from_json(r#"{"device": {"blokcs": 16}}"#).unwrap_err().to_string();
        assert!(e.contains("blokcs"), "{e}");
    }
}
