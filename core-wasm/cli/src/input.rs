//! Opening and streaming a trace file: gzip-compressed files (MSR Cambridge and SNIA
//! distribute their traces as `.gz`) are decompressed while they are read, recognised by
//! their first bytes rather than their name, so the parser sees text either way. Nothing
//! reads a whole file into memory: the parser gets it in chunks, sniffs binary content on
//! the first line, and stops reading when the request limit (`--first N`) is reached.

use std::fs::File;
use std::io::{BufRead, BufReader, Read};

use flate2::bufread::MultiGzDecoder;
use ftl_engine::trace::binary::is_gzip;
use std::sync::Arc;

use ftl_engine::trace::{ParseError, ParseOptions, Parsed, Request, Trace, TraceReader};
use ftl_engine::workload::{Workload, WorkloadBuilder, WorkloadShape};
use ftl_engine::{Sim, SimConfig};

/// Bytes read per chunk: large enough to be fast, small enough to stay out of the way.
const CHUNK: usize = 1 << 16;

/// Most requests a run holds in memory by default (`--max-requests`): 400 MB of parsed
/// requests (24 bytes each) where a command keeps the parsed trace, 130 MB or more (8 bytes
/// each, and the pages of `dense`-mapped ones) where `run` and `bench` resolve it while
/// it streams.
/// A larger selection is refused with a message naming the line, rather than aborting when
/// memory runs out.
pub const DEFAULT_MAX_REQUESTS: u64 = 1 << 24;

/// A reader over `path`'s content, decompressed when it is gzip; errors are CLI messages.
pub fn open(path: &str) -> Result<Box<dyn Read>, String> {
    let file = File::open(path).map_err(|e| format!("ftl: {path}: cannot read: {e}"))?;
    let mut buf = BufReader::with_capacity(1 << 16, file);
    let head = buf.fill_buf().map_err(|e| format!("ftl: {path}: cannot read: {e}"))?;
    if is_gzip(head) {
        // Multi-member: `cat a.gz b.gz` and bgzip files are one stream of several members.
        Ok(Box::new(MultiGzDecoder::new(buf)))
    } else {
        Ok(Box::new(buf))
    }
}

/// Streams `path` through a parser for `format` with `options`. After every chunk,
/// `after_chunk` sees the reader (to drain or count its requests); reading stops at the end
/// of the file or when the request limit is reached. Errors are the CLI's one-line messages.
pub fn stream(
    path: &str,
    format: Option<&str>,
    options: &ParseOptions,
    mut after_chunk: impl FnMut(&mut TraceReader) -> Result<(), String>,
) -> Result<Parsed, String> {
    let located = |e: ParseError| e.in_file(path).to_string();
    let mut file = open(path)?;
    let mut reader = TraceReader::new(format, options.clone()).map_err(located)?.with_file(path);
    let mut buf = vec![0u8; CHUNK];
    loop {
        let n = match file.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(format!("ftl: {path}: cannot read: {e}")),
        };
        let progress = reader.feed(&buf[..n]).map_err(located)?;
        after_chunk(&mut reader)?;
        if progress.done {
            break;
        }
    }
    reader.finish().map_err(located)
}

/// Streams and parses `path`, keeping at most `max_requests` requests in memory; more is
/// refused naming the line where the limit was passed. Warnings go to stderr.
pub fn load(
    path: &str,
    format: Option<&str>,
    options: &ParseOptions,
    max_requests: u64,
) -> Result<Trace, String> {
    let options = capped(options, max_requests);
    let parsed = stream(path, format, &options, |reader| {
        let p = reader.progress();
        if p.requests > max_requests {
            return Err(too_many(path, p.lines, max_requests));
        }
        Ok(())
    })?;
    if parsed.trace.requests.len() as u64 > max_requests {
        return Err(too_many(path, parsed.report.lines, max_requests));
    }
    for w in &parsed.report.warnings {
        eprintln!("ftl: warning: {path}: {w}");
    }
    Ok(parsed.trace)
}

/// Streams `path` like [`load`], resolving the requests to pages for every configuration of
/// `configs` as each chunk is parsed, so the parsed trace is never held whole (a
/// configuration's workload takes 8 bytes a request, the trace 24). Configurations of the
/// same shape share one workload. Each configuration gets its workload, or the error that
/// refuses it (its own configuration's, or a request its device cannot take); errors of
/// the trace itself stop everything, as [`load`]'s do.
pub fn load_workloads(
    path: &str,
    format: Option<&str>,
    options: &ParseOptions,
    max_requests: u64,
    configs: &[Result<SimConfig, String>],
) -> Result<Vec<Result<Arc<Workload>, String>>, String> {
    let mut shapes: Vec<WorkloadShape> = Vec::new();
    let mut builders = Vec::new();
    // Per configuration: its builder's index, or its error.
    let slots: Vec<Result<usize, String>> = configs
        .iter()
        .map(|config| {
            let builder = Sim::workload_builder(config.as_ref()?).map_err(|e| format!("ftl: {e}"))?;
            let shape = *builder.shape();
            Ok(shapes.iter().position(|s| *s == shape).unwrap_or_else(|| {
                shapes.push(shape);
                builders.push(Ok(builder));
                builders.len() - 1
            }))
        })
        .collect();
    let feed = |builders: &mut Vec<Result<WorkloadBuilder, String>>, requests: &[Request]| {
        for b in builders.iter_mut() {
            if let Ok(builder) = b {
                if let Err(e) = builder.extend(requests) {
                    *b = Err(format!("ftl: {e}"));
                }
            }
        }
    };
    let options = capped(options, max_requests);
    let parsed = stream(path, format, &options, |reader| {
        let p = reader.progress();
        if p.requests > max_requests {
            return Err(too_many(path, p.lines, max_requests));
        }
        feed(&mut builders, &reader.take_requests());
        Ok(())
    })?;
    if parsed.report.requests > max_requests {
        return Err(too_many(path, parsed.report.lines, max_requests));
    }
    feed(&mut builders, &parsed.trace.requests);
    drop(parsed.trace);
    for w in &parsed.report.warnings {
        eprintln!("ftl: warning: {path}: {w}");
    }
    let workloads: Vec<Result<Arc<Workload>, String>> =
        builders.into_iter().map(|b| b.map(|b| Arc::new(b.finish()))).collect();
    Ok(slots.into_iter().map(|slot| workloads[slot?].clone()).collect())
}

fn too_many(path: &str, line: u64, max: u64) -> String {
    format!(
        "{path}:{line}:1: more than {max} requests by this line, the most a run holds in memory \
         (--max-requests); keep part of the trace with --first N or --from-s/--until-s, or raise \
         --max-requests (trace-info streams any size)"
    )
}

/// `options` with the parser stopping at the first request past `max_requests` (or at
/// `--first N`, if fewer), so no more than that is held and the refusal names the very line
/// that passed the cap.
fn capped(options: &ParseOptions, max_requests: u64) -> ParseOptions {
    let past_cap = max_requests.saturating_add(1);
    ParseOptions {
        max_requests: Some(options.max_requests.map_or(past_cap, |n| n.min(past_cap))),
        ..options.clone()
    }
}
