//! `ftl trace-info FILE`: a trace's statistics, computed while the file streams through the
//! parser, so a trace larger than memory still works.

use ftl_engine::trace::stats::{
    StatsOptions, TraceStats, TraceSummary, DEFAULT_HEAT_BUCKETS, DEFAULT_PAGE_BYTES,
};
use ftl_engine::trace::ParseOptions;
use serde_json::{json, Value};

use crate::args::Args;
use crate::select;

const HELP: &str =
    "ftl trace-info FILE [--format NAME] [--page-bytes N] [--heat-buckets N] [--skip-bad-lines] [--json]

Prints a trace's statistics: request mix and bytes, request-size histogram, footprint
(distinct pages of --page-bytes, default 4096), logical-address heat (--heat-buckets,
default 64), sequentiality, duration and inter-arrival times. The format is detected
unless --format names it. --skip-bad-lines counts and skips lines that do not parse.";

/// A counted flag value, with its name in the error.
fn number(args: &Args, name: &str, default: u64) -> Result<u64, String> {
    match args.one(name) {
        None => Ok(default),
        Some(v) => v.parse().map_err(|_| format!("ftl: --{name} expects a whole number, got '{v}'")),
    }
}

/// Splits `FILE` (the first argument that is not a flag or a flag's value) from the flags.
fn split_file(argv: &[String], with_value: &[&str]) -> (Option<String>, Vec<String>) {
    let (mut file, mut rest) = (None, Vec::new());
    let mut it = argv.iter();
    while let Some(a) = it.next() {
        if let Some(name) = a.strip_prefix("--") {
            rest.push(a.clone());
            if with_value.contains(&name) {
                rest.extend(it.next().cloned());
            }
        } else if file.is_none() {
            file = Some(a.clone());
        } else {
            rest.push(a.clone());
        }
    }
    (file, rest)
}

/// Streams `path` through the parser into the accumulator; returns the format name, the
/// parse report as JSON, and the summary.
fn measure(
    path: &str,
    format: Option<&str>,
    options: ParseOptions,
    stats: StatsOptions,
) -> Result<(String, Value, TraceSummary), String> {
    let mut acc = TraceStats::with_options(stats).map_err(|e| format!("ftl: {e}"))?;
    let parsed = crate::input::stream(path, format, &options, |reader| {
        acc.add_all(&reader.take_requests());
        Ok(())
    })?;
    acc.add_all(&parsed.trace.requests);
    let r = &parsed.report;
    let errors: Vec<String> = r.errors.iter().map(ToString::to_string).collect();
    let report = json!({
        "lines": r.lines, "ignored": r.ignored, "skipped": r.skipped, "reordered": r.reordered,
        "errors": errors, "warnings": r.warnings,
    });
    for w in &r.warnings {
        eprintln!("ftl: warning: {path}: {w}");
    }
    Ok((parsed.trace.format, report, acc.finish()))
}

/// `ftl trace-info ...`.
pub fn trace_info(argv: &[String]) -> Result<(), String> {
    if argv.iter().any(|a| a == "--help" || a == "-h") {
        println!("{HELP}");
        return Ok(());
    }
    let with_value: Vec<&str> =
        ["format", "page-bytes", "heat-buckets"].into_iter().chain(select::FLAGS.iter().copied()).collect();
    let (file, rest) = split_file(argv, &with_value);
    let switches: Vec<&str> = ["json"].into_iter().chain(select::SWITCHES.iter().copied()).collect();
    let args = Args::parse(&rest, &with_value, &switches)?;
    let path = file.ok_or("ftl: trace-info needs a trace FILE (see ftl trace-info --help)")?;
    let page_bytes = number(&args, "page-bytes", u64::from(DEFAULT_PAGE_BYTES))?;
    let heat_buckets = number(&args, "heat-buckets", DEFAULT_HEAT_BUCKETS as u64)?;
    let stats = StatsOptions {
        page_bytes: u32::try_from(page_bytes)
            .map_err(|_| format!("ftl: --page-bytes {page_bytes} is too large"))?,
        heat_buckets: usize::try_from(heat_buckets).unwrap_or(usize::MAX),
    };
    let options = select::parse_options(&args)?;
    let (format, report, s) = measure(&path, args.one("format"), options, stats)?;
    if args.has("json") {
        let mut v = json!({ "file": path, "format": format });
        if let (Some(obj), Ok(Value::Object(fields))) = (v.as_object_mut(), serde_json::to_value(&s)) {
            obj.extend(fields);
            obj.insert("parse".into(), report);
        }
        println!("{}", serde_json::to_string_pretty(&v).map_err(|e| format!("ftl: {e}"))?);
    } else {
        print_table(&path, &format, &report, &s);
    }
    Ok(())
}

/// `12345678` as `11.8 MiB`.
fn bytes(n: u64) -> String {
    const UNITS: [&str; 6] = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"];
    let mut v = n as f64;
    let mut u = 0;
    while v >= 1024.0 && u + 1 < UNITS.len() {
        v /= 1024.0;
        u += 1;
    }
    if u == 0 {
        format!("{n} B")
    } else {
        format!("{v:.1} {}", UNITS[u])
    }
}

/// Nanoseconds in the largest unit that keeps the number readable.
fn time(ns: f64) -> String {
    match ns {
        n if n >= 1e9 => format!("{:.3} s", n / 1e9),
        n if n >= 1e6 => format!("{:.3} ms", n / 1e6),
        n if n >= 1e3 => format!("{:.1} µs", n / 1e3),
        n => format!("{n:.0} ns"),
    }
}

fn pct(part: u64, whole: u64) -> String {
    if whole == 0 {
        "0.0 %".into()
    } else {
        format!("{:.1} %", part as f64 * 100.0 / whole as f64)
    }
}

/// One character per heat bucket, darker for more requests.
fn heat_strip(counts: &[u64]) -> String {
    const SHADES: [char; 9] = [' ', '.', ':', '-', '=', '+', '*', '#', '@'];
    let max = counts.iter().copied().max().unwrap_or(0).max(1);
    counts.iter().map(|&c| if c == 0 { SHADES[0] } else { SHADES[1 + (c * 7 / max) as usize] }).collect()
}

fn print_table(path: &str, format: &str, report: &Value, s: &TraceSummary) {
    let n = s.requests;
    let ia = &s.inter_arrival_ns;
    println!("{:<16} {path}", "file");
    println!("{:<16} {format}", "format");
    println!("{:<16} {n}", "requests");
    println!("{:<16} {} ({}), {}", "reads", s.reads, pct(s.reads, n), bytes(s.bytes_read));
    println!("{:<16} {} ({}), {}", "writes", s.writes, pct(s.writes, n), bytes(s.bytes_written));
    println!("{:<16} {} ({}), {}", "trims", s.trims, pct(s.trims, n), bytes(s.bytes_trimmed));
    println!(
        "{:<16} min {}, mean {}, max {}",
        "request size",
        bytes(s.size_min),
        bytes(s.size_mean.round() as u64),
        bytes(s.size_max)
    );
    println!(
        "{:<16} {} pages of {} = {}",
        "footprint",
        s.footprint_pages,
        bytes(u64::from(s.page_bytes)),
        bytes(s.footprint_bytes)
    );
    println!("{:<16} {} .. {} (end {})", "offsets", s.offset_min, s.offset_max, s.end_max);
    println!(
        "{:<16} {:.2} % ({} of {})",
        "sequential",
        s.sequential_share * 100.0,
        s.sequential_requests,
        n.saturating_sub(1)
    );
    println!("{:<16} {}", "duration", time(s.duration_ns as f64));
    println!(
        "{:<16} mean {}, p50 {}, p99 {}, max {}{}",
        "inter-arrival",
        time(ia.mean),
        time(ia.p50 as f64),
        time(ia.p99 as f64),
        time(ia.max as f64),
        if ia.exact { "" } else { " (percentiles within 1 %)" }
    );
    if s.out_of_order > 0 {
        println!("{:<16} {}", "out of order", s.out_of_order);
    }
    let skipped = report["skipped"].as_u64().unwrap_or(0);
    if skipped > 0 {
        println!("{:<16} {skipped}", "skipped lines");
        for e in report["errors"].as_array().into_iter().flatten().take(3) {
            println!("  {}", e.as_str().unwrap_or_default());
        }
    }
    println!("size histogram");
    let top = s.size_histogram.iter().map(|b| b.count).max().unwrap_or(0).max(1);
    for b in &s.size_histogram {
        let bar = "#".repeat((b.count * 40).div_ceil(top) as usize);
        // Half-open, so the bucket edges read as round numbers.
        let range = format!("[{}, {})", bytes(b.min_bytes), bytes(b.max_bytes + 1));
        println!("  {range:<22} {:>9}  {bar}", b.count);
    }
    let h = &s.heat;
    println!("heat ({} buckets of {} from offset {})", h.counts.len(), bytes(h.bucket_bytes), h.first_offset);
    println!("  [{}]", heat_strip(&h.counts));
}
