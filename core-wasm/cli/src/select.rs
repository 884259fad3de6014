//! Trace selection flags shared by `run`, `bench` and `trace-info`: which requests of a file
//! to keep, and how to read it. They map one to one onto the engine's `ParseOptions`.

use ftl_engine::trace::{BlkEvent, ParseOptions};

use crate::args::Args;

/// Selection flags that take a value.
pub const FLAGS: &[&str] = &[
    "device",
    "only",
    "first",
    "from-s",
    "until-s",
    "time-scale",
    "blkparse-event",
    "sector-size",
    "max-requests",
];
/// Selection switches.
pub const SWITCHES: &[&str] = &["skip-bad-lines"];

/// Help text for the selection flags.
pub const HELP: &str = "trace selection:
  --device ID          keep one device / volume / ASU / LUN (repeatable)
  --only reads|writes|trims   keep one kind of request (repeatable)
  --first N            keep the first N requests
  --from-s S --until-s S      keep requests in this time window (seconds from the first)
  --time-scale F       multiply inter-arrival times (0.5 = twice as fast)
  --blkparse-event Q|D replay queued or dispatched blkparse events (default D)
  --sector-size BYTES  bytes per sector for sector-addressed formats (default 512)
  --skip-bad-lines     skip malformed lines (counted) instead of failing
  --max-requests N     most requests a run holds in memory (default 16777216); a larger
                       selection is refused (trace-info streams any size)";

fn number<T: std::str::FromStr>(args: &Args, flag: &str) -> Result<Option<T>, String> {
    args.one(flag)
        .map(|v| v.parse::<T>().map_err(|_| format!("ftl: --{flag} expects a number, got '{v}'")))
        .transpose()
}

fn seconds_to_ns(args: &Args, flag: &str) -> Result<Option<u64>, String> {
    match number::<f64>(args, flag)? {
        Some(s) if s.is_finite() && s >= 0.0 => Ok(Some((s * 1e9).round() as u64)),
        Some(s) => Err(format!("ftl: --{flag} expects seconds >= 0, got {s}")),
        None => Ok(None),
    }
}

/// The most requests a run may hold in memory (`--max-requests`, at least 1).
pub fn max_requests(args: &Args) -> Result<u64, String> {
    match number::<u64>(args, "max-requests")? {
        Some(0) => Err("ftl: --max-requests expects at least 1, got 0".into()),
        Some(n) => Ok(n),
        None => Ok(crate::input::DEFAULT_MAX_REQUESTS),
    }
}

/// The parse options the flags ask for.
pub fn parse_options(args: &Args) -> Result<ParseOptions, String> {
    let mut o = ParseOptions { devices: args.all("device").to_vec(), ..ParseOptions::default() };
    let only = args.all("only");
    if !only.is_empty() {
        o.reads = false;
        o.writes = false;
        o.trims = false;
        for kind in only {
            match kind.as_str() {
                "reads" => o.reads = true,
                "writes" => o.writes = true,
                "trims" => o.trims = true,
                other => return Err(format!("ftl: --only expects reads, writes or trims, got '{other}'")),
            }
        }
    }
    o.max_requests = number(args, "first")?;
    o.start_ns = seconds_to_ns(args, "from-s")?;
    o.end_ns = seconds_to_ns(args, "until-s")?;
    if let Some(f) = number::<f64>(args, "time-scale")? {
        o.time_scale = f;
    }
    o.blkparse_event = match args.one("blkparse-event") {
        None | Some("D") | Some("d") => BlkEvent::Dispatch,
        Some("Q") | Some("q") => BlkEvent::Queue,
        Some(other) => return Err(format!("ftl: --blkparse-event expects Q or D, got '{other}'")),
    };
    if let Some(s) = number(args, "sector-size")? {
        o.sector_size = s;
    }
    o.skip_bad_lines = args.has("skip-bad-lines");
    // Said with the value, as a line's errors are ("ftl: a time scale >= 0" named neither).
    o.validate().map_err(|e| format!("ftl: trace selection: expected {}, got '{}'", e.expected, e.found))?;
    Ok(o)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(v: &[&str]) -> Args {
        let v: Vec<String> = v.iter().map(|s| s.to_string()).collect();
        Args::parse(&v, FLAGS, SWITCHES).unwrap()
    }

    #[test]
    fn flags_map_onto_parse_options() {
        let o = parse_options(&args(&[
            "--device",
            "2",
            "--device",
            "3",
            "--only",
            "writes",
            "--first",
            "10",
            "--from-s",
            "1.5",
            "--until-s",
            "2",
            "--time-scale",
            "0.5",
            "--blkparse-event",
            "Q",
            "--skip-bad-lines",
        ]))
        .unwrap();
        assert_eq!(o.devices, vec!["2", "3"]);
        assert!(!o.reads && o.writes && !o.trims);
        assert_eq!(
            (o.max_requests, o.start_ns, o.end_ns),
            (Some(10), Some(1_500_000_000), Some(2_000_000_000))
        );
        assert_eq!(o.time_scale, 0.5);
        assert_eq!(o.blkparse_event, BlkEvent::Queue);
        assert!(o.skip_bad_lines);
        assert_eq!(parse_options(&args(&[])).unwrap(), ParseOptions::default());
        assert!(parse_options(&args(&["--only", "reeds"])).unwrap_err().contains("'reeds'"));
        assert!(parse_options(&args(&["--first", "ten"])).unwrap_err().contains("--first"));
        let e = parse_options(&args(&["--time-scale", "-1"])).unwrap_err();
        assert_eq!(e, "ftl: trace selection: expected a finite time scale >= 0, got '-1'");
        let e = parse_options(&args(&["--time-scale", "inf"])).unwrap_err();
        assert!(e.ends_with("got 'inf'"), "{e}");
    }
}
