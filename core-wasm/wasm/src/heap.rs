//! The bytes the engine holds, counted at the allocator, so a simulation's timeline can stop
//! short of the wasm32 heap's 4 GiB (a failed allocation there is a trap that loses the
//! simulation). The estimate checked before building ([`crate::memory`]) depends on how far
//! a trace fills the device; this count does not.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU64, Ordering};

use ftl_engine::timeline::HeapGuard;

/// The system allocator, counting the bytes in use.
struct Counting;

static ALLOCATED: AtomicU64 = AtomicU64::new(0);

// SAFETY: every call is forwarded to `System` unchanged; the count is a side effect.
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc(layout);
        if !p.is_null() {
            ALLOCATED.fetch_add(layout.size() as u64, Ordering::Relaxed);
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc_zeroed(layout);
        if !p.is_null() {
            ALLOCATED.fetch_add(layout.size() as u64, Ordering::Relaxed);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout);
        ALLOCATED.fetch_sub(layout.size() as u64, Ordering::Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = System.realloc(ptr, layout, new_size);
        if !p.is_null() {
            ALLOCATED.fetch_add(new_size as u64, Ordering::Relaxed);
            ALLOCATED.fetch_sub(layout.size() as u64, Ordering::Relaxed);
        }
        p
    }
}

#[global_allocator]
static COUNTING: Counting = Counting;

/// Bytes allocated now.
pub(crate) fn allocated() -> u64 {
    ALLOCATED.load(Ordering::Relaxed)
}

/// The guard every browser timeline runs under: the heap the memory check plans for
/// ([`crate::memory::HEAP_BUDGET_BYTES`]), leaving the rest of the 4 GiB for one step's
/// growth, the frames copied out and allocator slack.
pub(crate) fn guard() -> HeapGuard {
    HeapGuard { allocated, limit: crate::memory::HEAP_BUDGET_BYTES }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_browser_simulation_runs_under_the_guard() {
        let sim = ftl_engine::Sim::from_bytes(
            ftl_engine::SimConfig::default(),
            b"op,offset,size\nW,0,4096\nW,4096,4096\n",
            None,
            "t",
        )
        .unwrap();
        assert_eq!(crate::WasmSim::of(sim).0.heap_limit(), Some(crate::memory::HEAP_BUDGET_BYTES));
    }

    #[test]
    fn counts_what_is_allocated_and_freed() {
        // Other tests allocate on other threads meanwhile: sizes far above theirs.
        const BIG: u64 = 256 << 20;
        let before = allocated();
        let v = vec![0u8; BIG as usize];
        assert!(allocated() >= before + BIG - (64 << 20));
        let mut w = Vec::with_capacity(16);
        w.push(1u8);
        w.reserve(BIG as usize);
        assert!(allocated() >= before + 2 * BIG - (64 << 20));
        drop(v);
        drop(w);
        assert!(allocated() < before + (64 << 20));
    }
}
