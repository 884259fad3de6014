//! A hint to the CPU to start loading an element that a coming operation will touch.
//!
//! The simulator's hot loop is bound by random memory accesses (the page map, the oracle's
//! stamps and the page states of a large device are each megabytes, touched at a random
//! place per page write). The requests are known in advance, so the simulation asks for the
//! next few pages' entries early and their loads overlap. A prefetch changes no state and
//! cannot fault. Where there is no prefetch instruction (wasm) it is a plain load whose value
//! is dropped: the CPU still starts the miss early, though it waits for it sooner. So hints go
//! out in bursts, each a tight loop of loads and nothing else, so that a burst's loads all
//! fit in the CPU's reorder window and their misses overlap (see docs/perf.md).

/// The logical pages a simulation will serve next, for [`crate::ftl::Ftl::prefetch`].
#[derive(Debug, Clone, Copy)]
pub struct Lookahead<'a> {
    /// Pages well ahead: fetch the entries their LPNs index (map entries).
    pub far: &'a [u32],
    /// Pages shortly ahead, whose entries `far` fetched a burst ago and are cached now:
    /// fetch what those entries point to.
    pub near: &'a [u32],
    /// Whether any `near` page is to be read (only a read needs what the page holds).
    pub reads: bool,
    /// A table of the caller's indexed by LPN (the oracle's stamps): fetch its entries of
    /// `far` in the same loop.
    pub also: &'a [u32],
}

/// Starts loading `slice[i]` into the cache, if `i` is in range.
#[inline(always)]
pub fn element<T: Copy>(slice: &[T], i: usize) {
    #[cfg(target_arch = "x86_64")]
    {
        // No range check: a prefetch of an address outside the slice is a hint that loads
        // nothing the program reads and cannot fault, so the address is computed without
        // one (`wrapping_add`: no pointer arithmetic that must stay in bounds).
        let x = slice.as_ptr().wrapping_add(i);
        // SAFETY: `_mm_prefetch` needs SSE, which every x86_64 CPU has; it is only a hint
        // and never dereferences its address in a way that can fault, whatever it is.
        #[allow(unsafe_code)]
        unsafe {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            _mm_prefetch::<_MM_HINT_T0>(x.cast());
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    if let Some(x) = slice.get(i) {
        // SAFETY: `x` is a valid reference, so reading its first byte is sound. The read is
        // volatile so that it is not dropped as unused; it is one byte so that it is one load
        // instruction with nothing stored (`black_box` would also spill the value to the stack).
        #[allow(unsafe_code)]
        unsafe {
            std::ptr::read_volatile((x as *const T).cast::<u8>());
        }
    }
}

/// Bytes of a cache line, the unit [`lines`] asks for.
const LINE_BYTES: usize = 64;

/// Starts loading `slice[range]` a cache line at a time ([`element`] of every line's first
/// element), at most `max` lines from the start of the range: for a block the caller will read
/// in order soon (a page image to copy or scan). On wasm every hint is a real load (see the
/// module's note), so `max` also bounds the loads this costs there.
#[inline]
pub fn lines<T: Copy>(slice: &[T], range: std::ops::Range<usize>, max: usize) {
    let per_line = (LINE_BYTES / std::mem::size_of::<T>().max(1)).max(1);
    for i in range.step_by(per_line).take(max) {
        element(slice, i);
    }
}
