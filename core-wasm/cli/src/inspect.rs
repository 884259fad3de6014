//! The `inspect` command: a scheme's RAM structures after N requests.

use ftl_engine::inspect::{InspectQuery, Structure};
use ftl_engine::Sim;

use crate::args::Args;
use crate::run::{config_for, load_trace};

const HELP: &str = "ftl inspect --trace FILE --scheme ID --at N [--preset NAME] [--format NAME]
        [--set KEY=VALUE ...] [--limit N] [--block B] [--max-requests N] [--json]

Serves the first N requests of FILE under scheme ID and prints its RAM structures (lists in
their order, tables, trees, ranges) and how its RAM budget is split. Large structures show
their first --limit entries (default 64) plus those the N-th request touched. --block B adds
what physical block B does for its logical block (primary, replacement, buffer, …) and that
logical block's GC state, for the schemes that say (rftl, gftl, nftl, mnftl, dac and the
log-block schemes). The whole
trace is read (pre-fill looks at all of it), holding at most --max-requests requests
(default 16777216).";

/// `ftl inspect ...`.
pub fn inspect(argv: &[String]) -> Result<(), String> {
    if argv.iter().any(|a| a == "--help" || a == "-h") {
        println!("{HELP}");
        return Ok(());
    }
    let args = Args::parse(
        argv,
        &["trace", "scheme", "preset", "format", "set", "at", "limit", "block", "max-requests"],
        &["json"],
    )?;
    let path = args.one("trace").ok_or("ftl: inspect needs --trace FILE")?;
    let scheme = args.one("scheme").ok_or("ftl: inspect needs --scheme ID (see ftl schemes)")?;
    let number = |flag: &str, default: Option<usize>| -> Result<usize, String> {
        match args.one(flag) {
            Some(v) => v.parse().map_err(|_| format!("ftl: --{flag} expects a count, got '{v}'")),
            None => default.ok_or_else(|| format!("ftl: inspect needs --{flag} N")),
        }
    };
    let at = number("at", None)?;
    let limit = number("limit", Some(InspectQuery::DEFAULT_LIMIT))?;
    let trace =
        load_trace(path, args.one("format"), &Default::default(), crate::select::max_requests(&args)?)?;
    let config = config_for(scheme, args.one("preset"), args.all("set"))?;
    let mut sim = Sim::new(config, &trace, path).map_err(|e| format!("ftl: {e}"))?;
    let served = sim.step(at).map_err(|e| format!("ftl: {scheme}: {e}"))?;
    if served < at {
        return Err(format!("ftl: --at {at}: the trace has only {served} requests"));
    }
    let block = match args.one("block") {
        Some(v) => {
            Some(v.parse::<u32>().map_err(|_| format!("ftl: --block expects a block number, got '{v}'"))?)
        }
        None => None,
    };
    let ins = sim.inspect_block(limit, None, block);
    if args.has("json") {
        println!("{}", serde_json::to_string_pretty(&ins).map_err(|e| e.to_string())?);
        return Ok(());
    }
    println!("{scheme} after {at} requests: RAM {} of {} bytes", ins.ram_used, ins.ram_budget);
    for b in &ins.budgets {
        println!("  {:<24} {:>12} bytes", b.name, b.bytes);
    }
    for s in &ins.structures {
        match s {
            Structure::List { name, len, capacity, entries, .. } => {
                let shown: Vec<String> =
                    entries.iter().map(|e| format!("{}{}", e.key, if e.dirty { "*" } else { "" })).collect();
                println!(
                    "{name}: {len} of {capacity} entries, most recent first (* dirty): {}",
                    shown.join(" ")
                );
            }
            Structure::Table { name, len, rows, .. } => println!("{name}: {len} rows, {} shown", rows.len()),
            Structure::Tree { name, .. } => println!("{name}: tree"),
            Structure::Ranges { name, len, .. } => println!("{name}: {len} ranges"),
        }
    }
    if let Some(b) = block {
        match &ins.block {
            Some(d) => {
                let lbn = d.lbn.map(|l| format!(" of logical block {l}")).unwrap_or_default();
                println!("block {b}: {}{lbn}", d.role);
                if let Some(gc) = &d.gc {
                    println!("  GC: {gc}");
                }
            }
            None => println!("block {b}: nothing more than its grid role (free, or {scheme} says no more)"),
        }
    }
    Ok(())
}
