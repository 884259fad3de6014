//! Shared test helpers: a seeded generator and random workloads.
#![allow(dead_code)]

pub mod laws;

use ftl_engine::trace::HostOp;
use ftl_engine::trace::{Request, Trace};

/// SplitMix64: small, seeded, identical everywhere.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// `n` random page-aligned requests over `pages` pages of `page_bytes`, mixing reads,
/// writes and trims, with a hot tenth of the space getting half the traffic; at most 3 pages
/// each, 100 µs apart.
pub fn random_trace(seed: u64, n: usize, pages: u64, page_bytes: u32) -> Trace {
    random_requests(seed, n, pages, page_bytes, 3, 100_000)
}

/// As [`random_trace`], with requests of 1..=`max_len` pages arriving `gap_ns` apart.
pub fn random_requests(seed: u64, n: usize, pages: u64, page_bytes: u32, max_len: u64, gap_ns: u64) -> Trace {
    let mut rng = Rng(seed);
    let requests = (0..n)
        .map(|i| {
            let op = match rng.below(10) {
                0..=3 => HostOp::Read,
                4..=8 => HostOp::Write,
                _ => HostOp::Trim,
            };
            let span = if rng.below(2) == 0 { (pages / 10).max(1) } else { pages };
            let page = rng.below(span);
            let len = (1 + rng.below(max_len)).min(pages - page);
            Request {
                time_ns: i as u64 * gap_ns,
                op,
                offset: page * u64::from(page_bytes),
                size: (len * u64::from(page_bytes)) as u32,
            }
        })
        .collect();
    Trace { format: "synthetic".into(), requests }
}

pub fn shipped_trace(name: &str) -> Vec<u8> {
    let path = format!("{}/../../public/traces/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}
