//! Streams a generated trace of `TRACE_LARGE_MB` MiB (default 1024) through the chunked
//! reader without ever holding the file: a throughput and peak-memory check, ignored by
//! default. Run:
//! `cargo test --release -p ftl-engine --test trace_large -- --ignored --nocapture`
//! (under `/usr/bin/time -v` for peak memory). `TRACE_LARGE_KEEP=1` keeps every request
//! in memory, as a simulation would, instead of draining them.

use std::time::Instant;

use ftl_engine::trace::{ParseOptions, TraceReader};

#[test]
#[ignore]
fn stream_a_large_generated_trace() {
    let mb: u64 = std::env::var("TRACE_LARGE_MB").ok().and_then(|v| v.parse().ok()).unwrap_or(1024);
    let keep = std::env::var("TRACE_LARGE_KEEP").is_ok_and(|v| v == "1");
    let total = mb << 20;
    // One 8 MiB block of lines, generated once and fed over and over, so the timing is the
    // parser's alone. Times restart with every block (counted as `reordered`).
    let mut block = Vec::with_capacity(8 << 20);
    let mut block_lines = 0u64;
    while block.len() < (8 << 20) - 64 {
        let i = block_lines;
        let line =
            format!("{} {} {} {} {}\n", i * 1000, i % 4, (i * 7919) % 50_000_000, 8 + i % 64, i % 3 % 2);
        block.extend_from_slice(line.as_bytes());
        block_lines += 1;
    }
    let mut reader = TraceReader::new(Some("mqsim"), ParseOptions::default()).unwrap();
    let (mut fed, mut lines, mut drained) = (0u64, 0u64, 0usize);
    let started = Instant::now();
    while fed < total {
        // Feed in 1 MiB chunks that end mid-line: the reader must stitch lines across chunks.
        for chunk in block.chunks((1 << 20) + 13) {
            reader.feed(chunk).unwrap();
        }
        fed += block.len() as u64;
        lines += block_lines;
        if !keep {
            drained += reader.take_requests().len();
        }
    }
    let parsed = reader.finish().unwrap();
    let secs = started.elapsed().as_secs_f64();
    let requests = drained + parsed.trace.requests.len();
    assert_eq!(requests as u64, lines);
    println!(
        "{:.0} MiB, {lines} lines in {secs:.2} s ({:.0} MiB/s); requests kept in memory: {}",
        fed as f64 / (1u64 << 20) as f64,
        fed as f64 / (1u64 << 20) as f64 / secs,
        parsed.trace.requests.len()
    );
}
