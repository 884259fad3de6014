//! Seed 004's device on a hand-sized array, for the log-block schemes' worked examples:
//! 8 blocks of 4 pages, half of them spare (4 logical blocks), with T_read = 25 + 4 × 70 µs,
//! T_write = 200 + 4 × 70 µs and T_erase = 2 ms, so merge costs come out in Eq. (2)/(3) terms.

use crate::config::{Latencies, SimConfig};
use crate::device::Device;
use crate::error::Result;
use crate::events::{Event, MergeCause, MergeKind};
use crate::flash::{FlashArray, PageTag};
use crate::ftl::{BuildCtx, Ftl};

pub const T_READ: u64 = 305_000;
pub const T_WRITE: u64 = 480_000;
pub const T_ERASE: u64 = 2_000_000;

/// The configuration the schemes are built from.
pub fn config() -> SimConfig {
    let mut config = SimConfig::default();
    config.device.blocks = 8;
    config.device.pages_per_block = 4;
    config.device.over_provisioning = 0.5;
    config
}

/// Seed 004's latencies.
pub fn latencies() -> Latencies {
    Latencies {
        page_read_ns: 25_000,
        program_ns: 200_000,
        transfer_ns_per_page: 280_000,
        erase_ns: T_ERASE,
        ..Latencies::default()
    }
}

/// An erased device of `config` with seed 004's latencies, recording events (the merge
/// events say why each merge had its kind: [`merges`]).
pub fn device(config: &SimConfig) -> Device {
    device_with(config, latencies())
}

/// The same device with other latencies.
pub fn device_with(config: &SimConfig, lat: Latencies) -> Device {
    Device::new(FlashArray::new(8, 4, config.device.cell), lat, true)
}

/// A scheme built by `build` over seed 004's device.
pub fn setup<T>(build: impl FnOnce(&BuildCtx) -> Result<T>) -> (T, Device) {
    let config = config();
    let dev = device(&config);
    (build(&BuildCtx::of(&config)).unwrap(), dev)
}

/// Writes `lpns` with increasing versions after `v`, checking the scheme's invariants after
/// each write.
pub fn write_all(ftl: &mut dyn Ftl, dev: &mut Device, lpns: &[u32], v: &mut u32) {
    for &l in lpns {
        *v += 1;
        ftl.write(l, *v, dev).unwrap();
        ftl.check(dev).unwrap();
    }
}

/// Reads each `(lpn, version)` back and wants that version, then checks the scheme's
/// invariants.
pub fn assert_reads(ftl: &mut dyn Ftl, dev: &mut Device, want: &[(u32, u32)]) {
    for &(lpn, version) in want {
        assert_eq!(ftl.read(lpn, dev).unwrap(), Some(PageTag::data(lpn, version)), "LPN {lpn}");
    }
    ftl.check(dev).unwrap();
}

/// The merges `step` causes, with the cost counters cleared before it, so `dev.cost` then
/// holds what `step` cost.
pub fn merges_of(dev: &mut Device, step: impl FnOnce(&mut Device)) -> Vec<(MergeKind, MergeCause, u32, u32)> {
    dev.cost = Default::default();
    merges(dev);
    step(dev);
    merges(dev)
}

/// The merge events recorded since the last call: (kind, cause, pages written, degree).
pub fn merges(dev: &mut Device) -> Vec<(MergeKind, MergeCause, u32, u32)> {
    dev.take_events()
        .into_iter()
        .filter_map(|e| match e {
            Event::Merge { kind, cause, written, degree, .. } => Some((kind, cause, written, degree)),
            _ => None,
        })
        .collect()
}
