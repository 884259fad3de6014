//! Seed 004's device on a hand-sized array, for the log-block schemes' worked examples:
//! 8 blocks of 4 pages, half of them spare (4 logical blocks), with T_read = 25 + 4 × 70 µs,
//! T_write = 200 + 4 × 70 µs and T_erase = 2 ms, so merge costs come out in Eq. (2)/(3) terms.

use crate::config::{Latencies, SimConfig};
use crate::device::Device;
use crate::events::{Event, MergeCause, MergeKind};
use crate::flash::FlashArray;

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

/// An erased device of `config` with seed 004's latencies, recording events (the merge
/// events say why each merge had its kind: [`merges`]).
pub fn device(config: &SimConfig) -> Device {
    let lat = Latencies {
        page_read_ns: 25_000,
        program_ns: 200_000,
        transfer_ns_per_page: 280_000,
        erase_ns: T_ERASE,
        ..Latencies::default()
    };
    Device::new(FlashArray::new(8, 4, config.device.cell), lat, true)
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
