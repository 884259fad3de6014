//! `ftl sweep`: one parameter over a list of values for several schemes (the engine's
//! [`ftl_engine::sweep`] expansion, the same the app uses), or a paper experiment of the
//! registry ([`ftl_engine::experiments`]).

use ftl_engine::sweep::{self, Point};
use ftl_engine::trace::{ParseOptions, Trace};
use ftl_engine::{Metrics, Sim};
use serde_json::{json, Value};

use crate::args::Args;

const HELP: &str = "ftl sweep --trace FILE --scheme ID [--scheme ID ...] --param NAME --values V1,V2,...
          [--preset NAME] [--format NAME] [--set KEY=VALUE ...] [selection] [--json]
ftl sweep --experiment NAME [--trace-file ID=PATH ...] [selection] [--json | --markdown]
          (NAME `list`: the paper experiments)

Runs every scheme at every value of one configuration parameter (values outer, schemes
inner) and prints one result per point: {\"param\": KEY, \"results\": [{\"index\", \"scheme\",
\"key\", \"value\", \"label\", \"trace\", \"metrics\"}]} with --json, where metrics is the object
`ftl run --json` prints for that configuration. A point the engine refuses or that fails
while running gets \"error\" instead of \"metrics\"; the other points still run, and the
exit status is 2.

--param NAME   a short name or any dotted configuration key (`ftl run --help`), e.g.
               ram.bytes, device.latency.erase_ns, options.level_two_percent
--values LIST  comma-separated; keys ending in `bytes` take 4096, 64KiB, 8M; others JSON
               or bare strings (cost-benefit)
--experiment NAME  a source's experiment from the engine's registry (preset, series of
               schemes with stated options, real excerpts and labelled SYNTHETIC stand-ins,
               swept values), printed beside the paper's numbers with an agreement mark per
               row (in --json, each report row's \"agreement\": status, direction, factor,
               reason)
--trace-file ID=PATH  with --experiment: your own copy of a paper's trace (the whole MSR
               hm_0, say) in the experiment's trace slot ID, read with the selection flags
               and --format; it counts as a trace carrying the effect (repeatable)
--markdown     with --experiment: the report and results as Markdown tables (docs/results/)

Short names:";

/// The flags `ftl sweep` takes besides the trace selection's (each is in [`HELP`]).
const FLAGS: [&str; 9] =
    ["trace", "scheme", "preset", "format", "set", "param", "values", "experiment", "trace-file"];

/// One finished point: what was run, and its metrics or why it failed.
struct Done<'a> {
    point: &'a Point,
    trace: &'a str,
    metrics: Result<Metrics, String>,
}

fn run_point(point: &Point, trace: &Trace, name: &str) -> Result<Metrics, String> {
    let what = format!("{} {} = {}", point.scheme, point.key, point.label);
    let mut sim = Sim::new(point.config.clone(), trace, name).map_err(|e| format!("ftl: {what}: {e}"))?;
    while !sim.done() {
        sim.step(4096).map_err(|e| format!("ftl: {what}: {e}"))?;
    }
    Ok(sim.metrics())
}

/// Prints `done`; then, if any point failed, says how many (an error: exit status 2).
fn print(param: &str, done: &[Done], json_out: bool) -> Result<(), String> {
    print_table(param, done, json_out)?;
    failed_count(done.iter().map(|d| &d.metrics))
}

fn failed_count<'a>(
    results: impl ExactSizeIterator<Item = &'a Result<Metrics, String>>,
) -> Result<(), String> {
    let total = results.len();
    match results.filter(|r| r.is_err()).count() {
        0 => Ok(()),
        failed => Err(format!("ftl: {failed} of {total} sweep points failed (each is reported above)")),
    }
}

/// One point in `--json` output: what was run, then its metrics or its error.
pub fn json_row(point: &Point, trace: &str, metrics: &Result<Metrics, String>) -> Value {
    let mut row = json!({"index": point.index, "scheme": point.scheme, "series": point.series, "key": point.key,
                         "value": point.value, "label": point.label, "trace": trace});
    match metrics {
        Ok(m) => row["metrics"] = json!(m),
        Err(e) => row["error"] = json!(e),
    }
    row
}

fn print_table(param: &str, done: &[Done], json_out: bool) -> Result<(), String> {
    if json_out {
        let results: Vec<Value> = done.iter().map(|d| json_row(d.point, d.trace, &d.metrics)).collect();
        let out = json!({ "param": param, "results": results });
        println!("{}", serde_json::to_string_pretty(&out).map_err(|e| e.to_string())?);
        return Ok(());
    }
    println!(
        "{:<14} {:<10} {:<28} {:>12} {:>7} {:>8} {:>8} {:>8}",
        param, "scheme", "trace", "mean resp us", "waf", "erases", "map hit", "buf hit"
    );
    let ratio = |h: &Option<ftl_engine::metrics::HitRatio>| {
        h.as_ref().map_or("-".into(), |h| format!("{:.3}", h.hit_ratio))
    };
    for d in done {
        let m = match &d.metrics {
            Ok(m) => m,
            Err(e) => {
                println!("{:<14} {:<10} {:<28} failed: {e}", d.point.label, d.point.scheme, d.trace);
                continue;
            }
        };
        println!(
            "{:<14} {:<10} {:<28} {:>12.1} {:>7.3} {:>8} {:>8} {:>8}",
            d.point.label,
            d.point.scheme,
            d.trace,
            m.response_us.mean,
            m.waf,
            m.flash.erases,
            ratio(&m.mapping),
            ratio(&m.buffer)
        );
    }
    Ok(())
}

/// `ftl sweep ...`.
pub fn sweep(argv: &[String]) -> Result<(), String> {
    if argv.iter().any(|a| a == "--help" || a == "-h") {
        println!("{HELP}");
        for p in sweep::PARAMS {
            println!("  {:<18} {:<26} {} (e.g. {})", p.name, p.key, p.label, p.example);
        }
        println!("\n{}", crate::select::HELP);
        return Ok(());
    }
    let flags: Vec<&str> = FLAGS.iter().copied().chain(crate::select::FLAGS.iter().copied()).collect();
    let switches: Vec<&str> =
        ["json", "markdown"].into_iter().chain(crate::select::SWITCHES.iter().copied()).collect();
    let args = Args::parse(argv, &flags, &switches)?;
    if let Some(name) = args.one("experiment") {
        return crate::experiment::run(name, &args);
    }
    let options = crate::select::parse_options(&args)?;
    let path = args.one("trace").ok_or("ftl: sweep needs --trace FILE (or --experiment NAME)")?;
    let param = args.one("param").ok_or("ftl: sweep needs --param NAME (see ftl sweep --help)")?;
    let values = args.one("values").ok_or("ftl: sweep needs --values V1,V2,...")?;
    let schemes: Vec<String> = args.all("scheme").to_vec();
    if schemes.is_empty() {
        return Err("ftl: sweep needs at least one --scheme ID (see ftl schemes)".into());
    }
    let base = crate::run::base_json(args.one("preset"), args.all("set"))?;
    let key = sweep::param_key(param).map_err(|e| format!("ftl: {e}"))?;
    let values = sweep::parse_values(&key, values).map_err(|e| format!("ftl: {e}"))?;
    let points = sweep::expand(&base, &key, &values, &schemes).map_err(|e| format!("ftl: {e}"))?;
    let trace =
        crate::run::load_trace(path, args.one("format"), &options, crate::select::max_requests(&args)?)?;
    let done: Vec<Done> = points
        .iter()
        .map(|point| Done { point, trace: path, metrics: run_point(point, &trace, path) })
        .collect();
    print(&key, &done, args.has("json"))
}

/// Parse options keeping the first `n` requests.
pub fn first(n: Option<u64>) -> ParseOptions {
    ParseOptions { max_requests: n, ..ParseOptions::default() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_help_names_every_flag_sweep_takes() {
        for f in FLAGS {
            assert!(HELP.contains(&format!("--{f} ")), "ftl sweep --help does not mention --{f}");
        }
    }

    #[test]
    fn a_sweep_point_runs_the_configuration_ftl_run_builds_for_the_same_settings() {
        let path =
            concat!(env!("CARGO_MANIFEST_DIR"), "/../../public/traces/msr-cambridge_hm_0_first1000.csv");
        let trace = crate::run::load_trace(path, None, &first(Some(300)), crate::input::DEFAULT_MAX_REQUESTS)
            .unwrap();
        let base = crate::run::base_json(None, &["device.blocks=128".into()]).unwrap();
        let values = sweep::parse_values("ram.bytes", "2KiB,4KiB").unwrap();
        let points = sweep::expand(&base, "ram_bytes", &values, &["page".into(), "dftl".into()]).unwrap();
        for p in &points {
            let sets = ["device.blocks=128".to_string(), format!("ram.bytes={}", p.value)];
            let config = crate::run::config_for(&p.scheme, None, &sets).unwrap();
            assert_eq!(p.config, config, "{} {}", p.scheme, p.label);
            let m = run_point(p, &trace, path).unwrap();
            assert_eq!(m.config["ram"]["bytes"], p.value);
        }
        let e = crate::run::base_json(None, &["options.batch_update=true".into()]).unwrap_err();
        assert!(e.contains("--param options.KEY"), "{e}");
    }
}
