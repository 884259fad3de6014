//! The metadata-access path (review engine-model §2(a)): a wrapper
//! installed on the device sees every mapping-table access of `page` and `dftl`, and no
//! table access is charged behind its back.

mod common;

use std::cell::RefCell;
use std::rc::Rc;

use ftl_engine::device::Device;
use ftl_engine::meta::{MetaAccess, MetaHook, MetaKind};
use ftl_engine::{Sim, SimConfig};

/// Records every access and charges nothing.
#[derive(Debug, Clone, Default)]
struct Recorder(Rc<RefCell<Vec<MetaAccess>>>);

impl MetaHook for Recorder {
    fn access(&mut self, access: MetaAccess, _dev: &mut Device) {
        self.0.borrow_mut().push(access);
    }
    fn clone_box(&self) -> Box<dyn MetaHook> {
        Box::new(self.clone())
    }
}

fn config(scheme: &str) -> SimConfig {
    let mut c = SimConfig { scheme: scheme.into(), ..SimConfig::default() };
    c.device.blocks = 32;
    c.device.pages_per_block = 8;
    c.device.latency.ram_access_ns = 1_000;
    c.ram.bytes = 200; // a small CMT, so dftl misses, evicts dirty entries and writes back
    c
}

#[test]
fn a_wrapper_sees_every_table_access_of_page_and_dftl() {
    let trace = common::random_trace(7, 600, 200, 4096);
    for scheme in ["page", "dftl"] {
        let mut plain = Sim::new(config(scheme), &trace, "t").unwrap();
        plain.step(usize::MAX).unwrap();
        let ram_accesses = (plain.metrics().service_time_us.ram * 1000.0).round() as usize / 1_000;
        assert!(ram_accesses > 0, "{scheme}: the run charges table accesses");

        let mut wrapped = Sim::new(config(scheme), &trace, "t").unwrap();
        let seen = Recorder::default();
        wrapped.set_meta_hook(Some(Box::new(seen.clone())));
        wrapped.step(usize::MAX).unwrap();
        let m = wrapped.metrics();
        assert_eq!(m.service_time_us.ram, 0.0, "{scheme}: a table access bypassed the hook");
        let all = seen.0.borrow();
        // The device's own metadata (erase counts, the free list) reaches a hook only: it
        // costs nothing without one. One erase-count update per erase.
        let device_wide = |a: &&MetaAccess| matches!(a.kind, MetaKind::EraseCount | MetaKind::FreeList);
        let erases = all.iter().filter(|a| a.kind == MetaKind::EraseCount).count() as u64;
        assert_eq!(erases, m.flash.erases, "{scheme}: one erase-count update per erase");
        let seen: Vec<&MetaAccess> = all.iter().filter(|a| !device_wide(a)).collect();
        assert_eq!(seen.len(), ram_accesses, "{scheme}: one hooked access per RAM access");
        // Same flash work: the hook changed only where table accesses are charged.
        assert_eq!(m.flash, plain.metrics().flash, "{scheme}");
        if scheme == "page" {
            // Every host read looks its page up, every host write updates its entry.
            let reads = seen.iter().filter(|a| a.kind == MetaKind::PageMap && !a.write).count() as u64;
            assert_eq!(reads, m.requests.pages_read, "page: one lookup per page read");
            assert!(seen.iter().all(|a| a.kind == MetaKind::PageMap && a.bytes == 4));
        } else {
            assert!(seen.iter().any(|a| a.kind == MetaKind::MapCache && a.write));
            assert!(seen.iter().any(|a| a.kind == MetaKind::Directory && a.write));
        }
    }
}
