//! The CLI's allocator: the system's, with large blocks placed on 2 MiB boundaries and
//! Linux asked to back them with transparent huge pages.
//!
//! A simulation of a large device keeps a few arrays of megabytes (the flash array's page
//! tags and states, the page map, the oracle's stamps, the workload) and touches each at a
//! random place for every page it serves. In 4 KiB pages, filling them costs a page fault
//! per 4 KiB (about 1.5 µs each here, a tenth of `page`'s whole run on a 4 GiB device) and
//! nearly every random touch misses the TLB. `madvise(MADV_HUGEPAGE)` lets the kernel map
//! them 2 MiB at a time where transparent huge pages are in `madvise` mode (Debian's
//! default); where they are off or always on it changes nothing, and a refusal is ignored:
//! it is advice. Only whole 2 MiB pages inside a block are advised (its partial ends stay in
//! small pages), but a huge page is resident as a whole once any byte of it is touched: a
//! block touched sparsely holds more memory than in small pages (HCFTL's 4 GiB run: 64 ->
//! 70 MB; page's: the same, its arrays are touched throughout). See docs/perf.md ("Tenth pass").

use std::alloc::{GlobalAlloc, Layout, System};

/// A huge page.
const HUGE: usize = 2 << 20;

/// Blocks this large or larger are aligned and advised: at least one whole huge page inside.
const LARGE: usize = HUGE;

/// [`System`], with large blocks on huge-page boundaries and advised to use huge pages.
pub struct HugePages;

/// The layout a block of `layout` is allocated with: large ones aligned to a huge page.
fn placed(layout: Layout) -> Layout {
    if layout.size() >= LARGE && layout.align() < HUGE {
        Layout::from_size_align(layout.size(), HUGE).unwrap_or(layout)
    } else {
        layout
    }
}

// SAFETY: every block comes from `System` with a layout at least as aligned as asked and is
// returned to it with the layout it was allocated with (`placed` is a function of the
// caller's layout, which the caller passes back unchanged); the advice changes no contents.
unsafe impl GlobalAlloc for HugePages {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        advise(System.alloc(placed(layout)), layout.size())
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        advise(System.alloc_zeroed(placed(layout)), layout.size())
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, placed(layout))
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let new = Layout::from_size_align_unchecked(new_size, layout.align());
        if placed(layout) == layout && placed(new) == new {
            // Small before and after: the system's own realloc.
            return System.realloc(ptr, layout, new_size);
        }
        // Either side is placed on a huge page: move it by hand.
        let fresh = self.alloc(new);
        if !fresh.is_null() {
            std::ptr::copy_nonoverlapping(ptr, fresh, layout.size().min(new_size));
            self.dealloc(ptr, layout);
        }
        fresh
    }
}

/// Advises huge pages for the whole huge pages inside `len` bytes at `ptr`; returns `ptr`.
fn advise(ptr: *mut u8, len: usize) -> *mut u8 {
    #[cfg(target_os = "linux")]
    if len >= LARGE && !ptr.is_null() {
        let start = (ptr as usize).next_multiple_of(HUGE);
        let end = (ptr as usize).saturating_add(len) / HUGE * HUGE;
        if end > start {
            // SAFETY: the range lies inside a block the allocator just handed out;
            // MADV_HUGEPAGE changes no contents and no permissions, and its failure is harmless.
            unsafe {
                libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE);
            }
        }
    }
    ptr
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Fills `n` bytes at `p` with a pattern seeded by `seed`.
    unsafe fn fill(p: *mut u8, n: usize, seed: u8) {
        for i in 0..n {
            *p.add(i) = (i as u8).wrapping_mul(31).wrapping_add(seed);
        }
    }

    unsafe fn holds(p: *const u8, n: usize, seed: u8) -> bool {
        (0..n).all(|i| *p.add(i) == (i as u8).wrapping_mul(31).wrapping_add(seed))
    }

    #[test]
    fn large_blocks_sit_on_huge_pages_and_keep_their_contents_when_resized() {
        let a = HugePages;
        unsafe {
            let small = Layout::from_size_align(1000, 8).unwrap();
            let p = a.alloc(small);
            fill(p, 1000, 1);
            // small -> large: moved onto a huge-page boundary, contents kept
            let p = a.realloc(p, small, 3 << 20);
            assert_eq!(p as usize % HUGE, 0);
            assert!(holds(p, 1000, 1));
            let large = Layout::from_size_align(3 << 20, 8).unwrap();
            fill(p, 3 << 20, 2);
            // large -> larger, then -> small
            let p = a.realloc(p, large, 5 << 20);
            assert_eq!(p as usize % HUGE, 0);
            assert!(holds(p, 3 << 20, 2));
            let larger = Layout::from_size_align(5 << 20, 8).unwrap();
            let p = a.realloc(p, larger, 100);
            assert!(holds(p, 100, 2));
            a.dealloc(p, Layout::from_size_align(100, 8).unwrap());
            // zeroed and over-aligned requests keep their promises
            let z = Layout::from_size_align(LARGE, 4 * HUGE).unwrap();
            let q = a.alloc_zeroed(z);
            assert_eq!(q as usize % (4 * HUGE), 0);
            assert!((0..LARGE).step_by(4093).all(|i| *q.add(i) == 0));
            a.dealloc(q, z);
        }
    }

    /// The kernel's flags of the mapping that holds `addr` (`/proc/self/smaps`).
    #[cfg(target_os = "linux")]
    fn vm_flags(addr: usize) -> Option<String> {
        let smaps = std::fs::read_to_string("/proc/self/smaps").ok()?;
        let mut inside = false;
        for line in smaps.lines() {
            if let Some((range, _)) = line.split_once(' ') {
                if let Some((lo, hi)) = range.split_once('-') {
                    if let (Ok(lo), Ok(hi)) = (usize::from_str_radix(lo, 16), usize::from_str_radix(hi, 16)) {
                        inside = lo <= addr && addr < hi;
                        continue;
                    }
                }
            }
            if inside {
                if let Some(flags) = line.strip_prefix("VmFlags:") {
                    return Some(flags.to_string());
                }
            }
        }
        None
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn large_blocks_are_advised_to_use_huge_pages_and_small_ones_are_not() {
        if !std::path::Path::new("/sys/kernel/mm/transparent_hugepage/enabled").exists() {
            return; // a kernel without transparent huge pages: nothing to advise
        }
        let a = HugePages;
        unsafe {
            let large = Layout::from_size_align(3 * HUGE, 8).unwrap();
            let p = a.alloc(large);
            let flags = vm_flags(p as usize + HUGE).expect("the block is mapped");
            assert!(flags.split_whitespace().any(|f| f == "hg"), "flags: {flags}");
            let small = Layout::from_size_align(64 << 10, 8).unwrap();
            let q = a.alloc(small);
            if let Some(flags) = vm_flags(q as usize) {
                assert!(!flags.split_whitespace().any(|f| f == "hg"), "flags: {flags}");
            }
            a.dealloc(q, small);
            a.dealloc(p, large);
        }
    }
}
