//! The integrity oracle. Every logical-page write gets a fresh version stamp (a global
//! counter), which the FTL stores in the page's spare area; every read must return the newest
//! stamp for its page, or nothing if the page was never written or was trimmed.

use crate::error::{EngineError, Result};
use crate::flash::{PageKind, PageTag};
use crate::hash::StateHasher;

/// Expected contents of every logical page.
#[derive(Debug, Clone)]
pub struct Oracle {
    expected: Vec<u32>,
    next_version: u32,
    /// Logical pages holding data now, and the most at any time (the utilization reached).
    live: u64,
    peak_live: u64,
    errors: u64,
    first_error: Option<String>,
}

impl Oracle {
    /// An oracle for `logical_pages` pages, all unwritten.
    pub fn new(logical_pages: u64) -> Self {
        Oracle {
            expected: vec![0; logical_pages as usize],
            next_version: 1,
            live: 0,
            peak_live: 0,
            errors: 0,
            first_error: None,
        }
    }

    /// Records a write of `lpn` and returns its version stamp. Stamps are 32-bit (they sit
    /// in every page's tag next to the key); a run that would need stamp 2^32 is refused
    /// rather than wrapping to 0, which means "no data".
    pub fn write(&mut self, lpn: u32) -> Result<u32> {
        let v = self.next_version;
        self.next_version = v.checked_add(1).ok_or_else(|| {
            EngineError::Config(format!(
                "more than {} page writes in one run: the integrity oracle's 32-bit version stamps are exhausted (at LPN {lpn}); use a shorter trace",
                u32::MAX - 1
            ))
        })?;
        if self.expected[lpn as usize] == 0 {
            self.live += 1;
            self.peak_live = self.peak_live.max(self.live);
        }
        self.expected[lpn as usize] = v;
        Ok(v)
    }

    /// The stamps by LPN, for prefetch hints ([`crate::prefetch::Lookahead::also`]).
    pub fn stamps(&self) -> &[u32] {
        &self.expected
    }

    /// Records a trim of `lpn`.
    pub fn trim(&mut self, lpn: u32) {
        if self.expected[lpn as usize] != 0 {
            self.live -= 1;
        }
        self.expected[lpn as usize] = 0;
    }

    /// The version `lpn` must read back (0 = no data).
    pub fn expected(&self, lpn: u32) -> u32 {
        self.expected[lpn as usize]
    }

    /// Checks what a read of `lpn` returned; counts and remembers mismatches.
    pub fn check_read(&mut self, lpn: u32, got: Option<PageTag>) -> bool {
        let want = self.expected[lpn as usize];
        let ok = match got {
            None => want == 0,
            Some(t) => t.kind == PageKind::Data && t.key == lpn && t.version == want && want != 0,
        };
        if !ok {
            self.errors += 1;
            if self.first_error.is_none() {
                self.first_error =
                    Some(format!("read of LPN {lpn} returned {got:?}, expected version {want}"));
            }
        }
        ok
    }

    /// Mismatches seen so far.
    pub fn errors(&self) -> u64 {
        self.errors
    }

    /// The first mismatch, described.
    pub fn first_error(&self) -> Option<&str> {
        self.first_error.as_deref()
    }

    /// Logical pages holding data now (written and not trimmed).
    pub fn live_pages(&self) -> u64 {
        self.live
    }

    /// The most logical pages that held data at once, pre-fill included.
    pub fn peak_live_pages(&self) -> u64 {
        self.peak_live
    }

    /// Logical pages covered.
    pub fn logical_pages(&self) -> u64 {
        self.expected.len() as u64
    }

    /// Feeds the oracle's state into a hash.
    pub fn hash_into(&self, h: &mut StateHasher) {
        h.u32s(&self.expected);
        h.u32(self.next_version);
        h.u64(self.peak_live);
        h.u64(self.errors);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stale_and_lost_reads_are_caught() {
        let mut o = Oracle::new(4);
        assert!(o.check_read(0, None));
        let v1 = o.write(0).unwrap();
        let v2 = o.write(0).unwrap();
        assert!(o.check_read(0, Some(PageTag::data(0, v2))));
        assert!(!o.check_read(0, Some(PageTag::data(0, v1))), "stale version");
        assert!(!o.check_read(0, None), "lost data");
        assert!(!o.check_read(0, Some(PageTag::data(1, v2))), "wrong page");
        o.trim(0);
        assert!(o.check_read(0, None));
        assert_eq!(o.errors(), 3);
        assert_eq!((o.live_pages(), o.peak_live_pages()), (0, 1));
        assert!(o.first_error().unwrap().contains("LPN 0"));
    }

    #[test]
    fn versions_past_2_pow_32_are_an_error_not_a_wrap() {
        // Review (engine-model) §5.10: `next_version += 1` overflowed after 2^32 writes.
        let mut o = Oracle::new(2);
        o.next_version = u32::MAX - 1;
        assert_eq!(o.write(1).unwrap(), u32::MAX - 1);
        let e = o.write(1).unwrap_err().to_string();
        assert!(e.contains("version stamps are exhausted"), "{e}");
        assert_eq!(o.expected(1), u32::MAX - 1, "a refused write leaves the oracle as it was");
    }
}
