//! Small devices and a request rig for the family's unit tests.

use crate::config::SimConfig;
use crate::device::Device;
use crate::events::HostOp;
use crate::flash::FlashArray;
use crate::ftl::Ftl;
use crate::invariants::check;
use crate::oracle::Oracle;

/// `blocks` x `pages_per_block` pages of `page_bytes` bytes (so `page_bytes / 4` entries per
/// translation page), one GC reserve block and `ram` bytes of RAM.
pub fn small_config(blocks: u32, pages_per_block: u32, page_bytes: u32, ram: u64) -> SimConfig {
    let mut config = SimConfig::default();
    config.device.blocks = blocks;
    config.device.pages_per_block = pages_per_block;
    config.device.page_bytes = page_bytes;
    config.gc.reserve_blocks = 1;
    config.ram.bytes = ram;
    config
}

/// An erased device of `config`'s geometry, units (channels x ways) and latencies, not
/// recording events.
pub fn device_of(config: &SimConfig) -> Device {
    let d = &config.device;
    let flash = FlashArray::new(d.blocks, d.pages_per_block, d.cell);
    Device::with_units(flash, d.latency.clone(), d.channels, d.ways, false)
}

/// A scheme on its device with the oracle of what was written.
pub struct Rig<F> {
    pub ftl: F,
    pub dev: Device,
    pub oracle: Oracle,
}

impl<F: Ftl> Rig<F> {
    /// `ftl` on an erased device of `config`.
    pub fn new(ftl: F, config: &SimConfig) -> Self {
        Rig { ftl, dev: device_of(config), oracle: Oracle::new(config.device.logical_pages()) }
    }

    /// Writes `lpns` as one request, checking every invariant after it.
    pub fn write(&mut self, lpns: &[u32]) {
        self.ftl.begin_request(HostOp::Write, lpns, &mut self.dev).unwrap();
        for &lpn in lpns {
            let v = self.oracle.write(lpn).unwrap();
            self.ftl.write(lpn, v, &mut self.dev).unwrap();
        }
        self.ftl.end_request(&mut self.dev).unwrap();
        check(&self.ftl, &self.dev, &self.oracle).unwrap();
    }
}

/// Records the metadata accesses (table, update, key) a placement model would see: install
/// it on a device, then `take` what was recorded since the last take.
#[derive(Debug, Clone, Default)]
pub struct MetaRecorder(std::sync::Arc<std::sync::Mutex<Vec<(crate::meta::MetaKind, bool, u32)>>>);

impl MetaRecorder {
    /// A recorder installed as `dev`'s metadata hook (this handle shares its record).
    pub fn install(dev: &mut Device) -> Self {
        let rec = MetaRecorder::default();
        dev.set_meta_hook(Some(Box::new(rec.clone())));
        rec
    }

    /// The accesses recorded since the last call.
    pub fn take(&self) -> Vec<(crate::meta::MetaKind, bool, u32)> {
        std::mem::take(&mut *self.0.lock().unwrap())
    }
}

impl crate::meta::MetaHook for MetaRecorder {
    fn access(&mut self, a: crate::meta::MetaAccess, _dev: &mut Device) {
        self.0.lock().unwrap().push((a.kind, a.write, a.key));
    }
    fn clone_box(&self) -> Box<dyn crate::meta::MetaHook> {
        Box::new(self.clone())
    }
}
