//! The sequential bypass TreeFTL describes (seed 000 §III) and says JTL does the same: a
//! request of more than a threshold of pages (half a block by default) is sequential, and
//! its data goes to and from flash directly. A trim moves no data, so it never bypasses.

use crate::trace::HostOp;

/// The threshold, and whether the current request is sequential.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SequentialBypass {
    pages: usize,
    on: bool,
}

impl SequentialBypass {
    /// A threshold of `option` pages; 0 = half a block of `pages_per_block`.
    pub fn new(option: u32, pages_per_block: u32) -> Self {
        let pages = if option == 0 { pages_per_block / 2 } else { option };
        SequentialBypass { pages: pages as usize, on: false }
    }

    /// A request of `pages` pages begins.
    pub fn begin(&mut self, op: HostOp, pages: usize) {
        self.on = op != HostOp::Trim && pages > self.pages;
    }

    /// The request ended.
    pub fn end(&mut self) {
        self.on = false;
    }

    /// Whether the current request's data bypasses RAM.
    pub fn on(&self) -> bool {
        self.on
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Half a block of 8 pages: 5 pages are sequential, 4 are not, a trim never is, and the
    /// end of a request clears it; a threshold of 2 makes 3 pages sequential.
    #[test]
    fn more_pages_than_the_threshold_bypass_except_a_trim() {
        let mut b = SequentialBypass::new(0, 8);
        b.begin(HostOp::Write, 5);
        assert!(b.on());
        b.end();
        assert!(!b.on());
        b.begin(HostOp::Read, 4);
        assert!(!b.on());
        b.begin(HostOp::Trim, 50);
        assert!(!b.on());
        let mut b = SequentialBypass::new(2, 8);
        b.begin(HostOp::Read, 3);
        assert!(b.on());
    }
}
