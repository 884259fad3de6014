//! The `schemes` and `run` commands.

use ftl_engine::config::TimingMode;
use ftl_engine::{ftl, Sim, SimConfig};
use serde_json::{json, Value};

use crate::args::Args;
pub use crate::input::load as load_trace;

const RUN_HELP: &str = "ftl run --trace FILE --scheme ID [--scheme ID ...] [--preset NAME] [--format NAME]
        [--set KEY=VALUE ...] [selection] [--verify] [--json]

Replays FILE through each scheme and prints one metrics object per scheme
({\"results\": [...]} with --json). A scheme that is refused or stops mid-run does not stop
the others: its error is printed (\"errors\" with --json) and the exit status is 2.

--verify checks the whole state after the last request: the invariants, and every logical
page read back through the scheme (a page lost where the trace never reads it again would
otherwise go unnoticed); a failure exits with status 2.

--preset NAME starts from a device preset of the sources (see `ftl presets`), with its
arrival timing where the source gives one (thesis-rftl: periodic, one request per RFTL's
L(p) = 2,325 µs); a --set of the same field (e.g. --set timing=trace) wins over the preset.
--set KEY=VALUE overrides one configuration field; KEY is a dotted path into the config
(VALUE is JSON, or a bare string). The keys, with their defaults:";

/// The `--set` key list: every field of the default config and every scheme's options,
/// generated so a new field or scheme needs no edit here.
fn set_keys_help() -> String {
    let config = ftl_engine::schema::full_json(&SimConfig::default());
    let mut out = String::new();
    for (key, value) in ftl_engine::schema::leaf_keys(&config) {
        if key != "options" {
            out += &format!("  {key} = {value}\n");
        }
    }
    for spec in ftl::SCHEMES {
        for row in spec.option_docs() {
            let key = row["key"].as_str().unwrap_or_default();
            let default = &spec.default_options()[key];
            out += &format!(
                "  options.{key} = {default}   (scheme {}) {}\n",
                spec.info.id,
                row["doc"].as_str().unwrap_or("")
            );
        }
    }
    out
}

/// `ftl presets [--json]`.
pub fn presets(argv: &[String]) -> Result<(), String> {
    let args = Args::parse(argv, &[], &["json"])?;
    let all = ftl_engine::presets::presets();
    if args.has("json") {
        println!("{}", serde_json::to_string_pretty(&all).map_err(|e| e.to_string())?);
    } else {
        for p in &all {
            let d = &p.device;
            let timing = match p.timing {
                Some(TimingMode::Periodic(ns)) => format!("  [arrivals every {} µs]", ns as f64 / 1_000.0),
                Some(t) => format!("  [timing {t:?}]"),
                None => String::new(),
            };
            println!(
                "{:<24} {:>6} B pages x {:>4} x {:>8} blocks, {}x{} units  {}{timing}",
                p.name, d.page_bytes, d.pages_per_block, d.blocks, d.channels, d.ways, p.source
            );
        }
    }
    Ok(())
}

/// `ftl schemes [--json]`.
pub fn schemes(argv: &[String]) -> Result<(), String> {
    let args = Args::parse(argv, &[], &["json"])?;
    if args.has("json") {
        let all: Vec<Value> = ftl::SCHEMES.iter().map(|s| s.to_json()).collect();
        println!("{}", serde_json::to_string_pretty(&all).map_err(|e| e.to_string())?);
    } else {
        for s in ftl::SCHEMES {
            println!("{:<10} {:<34} {}", s.info.id, s.info.name, s.info.source);
        }
    }
    Ok(())
}

/// Applies `KEY=VALUE` to the JSON form of `config`. The key must name an existing field.
fn apply_set(config: &mut Value, assignment: &str) -> Result<(), String> {
    let (key, raw) = assignment
        .split_once('=')
        .ok_or_else(|| format!("ftl: --set expects KEY=VALUE, got '{assignment}'"))?;
    // The scheme picks which options exist, so it is chosen by its own flag.
    if key.trim() == "scheme" {
        return Err(format!("ftl: --set {assignment}: choose the scheme with --scheme ID, not --set"));
    }
    let value: Value = serde_json::from_str(raw).unwrap_or_else(|_| Value::String(raw.to_string()));
    ftl_engine::schema::set_path(config, key, value).map_err(|e| {
        if e.starts_with("unknown config key") && !e.contains("options.KEY") {
            format!("ftl: {e} (see ftl run --help)")
        } else {
            format!("ftl: {e}")
        }
    })
}

/// Builds the configuration for one scheme from a preset (or the defaults) plus `--set`
/// overrides.
pub fn config_for(scheme: &str, preset: Option<&str>, sets: &[String]) -> Result<SimConfig, String> {
    let base = match preset {
        Some(name) => ftl_engine::presets::config(name).map_err(|e| format!("ftl: {e}"))?,
        None => SimConfig::default(),
    };
    let mut value = ftl_engine::schema::full_json(&base);
    // The scheme's options start from its defaults, so `--set options.KEY=...` finds KEY.
    let spec = ftl::spec(scheme).map_err(|e| format!("ftl: {e} (see ftl schemes)"))?;
    value["scheme"] = Value::String(scheme.to_string());
    value["options"] = spec.default_options();
    for s in sets {
        apply_set(&mut value, s)?;
        // Check after each assignment, so an error names the key that caused it.
        let mut c =
            serde_json::from_value::<SimConfig>(value.clone()).map_err(|e| format!("ftl: --set {s}: {e}"))?;
        ftl::resolve_options(&mut c).map_err(|e| format!("ftl: --set {s}: {e}"))?;
    }
    serde_json::from_value(value).map_err(|e| format!("ftl: invalid configuration: {e}"))
}

/// The base configuration of a sweep, as JSON: a preset (or the defaults) plus `--set`
/// overrides of shared fields. Scheme options differ per scheme, so they are refused here
/// (sweep one with `--param options.KEY`).
pub fn base_json(preset: Option<&str>, sets: &[String]) -> Result<Value, String> {
    let base = match preset {
        Some(name) => ftl_engine::presets::config(name).map_err(|e| format!("ftl: {e}"))?,
        None => SimConfig::default(),
    };
    let mut value = ftl_engine::schema::full_json(&base);
    for s in sets {
        if s.starts_with("options.") {
            return Err(format!("ftl: sweep: --set {s}: scheme options differ per scheme; sweep one with --param options.KEY, or use ftl run"));
        }
        apply_set(&mut value, s)?;
        serde_json::from_value::<SimConfig>(value.clone()).map_err(|e| format!("ftl: --set {s}: {e}"))?;
    }
    Ok(value)
}

/// `ftl run ...`.
pub fn run(argv: &[String]) -> Result<(), String> {
    if argv.iter().any(|a| a == "--help" || a == "-h") {
        println!("{RUN_HELP}\n{}\n{}", set_keys_help(), crate::select::HELP);
        return Ok(());
    }
    let flags: Vec<&str> = ["trace", "scheme", "preset", "format", "set"]
        .into_iter()
        .chain(crate::select::FLAGS.iter().copied())
        .collect();
    let switches: Vec<&str> =
        ["json", "verify"].into_iter().chain(crate::select::SWITCHES.iter().copied()).collect();
    let args = Args::parse(argv, &flags, &switches)?;
    let options = crate::select::parse_options(&args)?;
    let path = args.one("trace").ok_or("ftl: run needs --trace FILE")?;
    let schemes = args.all("scheme");
    if schemes.is_empty() {
        return Err("ftl: run needs at least one --scheme ID (see ftl schemes)".into());
    }
    let configs: Vec<_> =
        schemes.iter().map(|s| config_for(s, args.one("preset"), args.all("set"))).collect();
    let max = crate::select::max_requests(&args)?;
    let workloads = crate::input::load_workloads(path, args.one("format"), &options, max, &configs)?;
    // Like `sweep`, one scheme's refusal or mid-run failure does not stop the others: each is
    // reported, the served schemes are printed, and the exit status says something failed.
    let mut results = Vec::new();
    let mut failures = Vec::new();
    for ((scheme, config), workload) in schemes.iter().zip(configs).zip(workloads) {
        let built = config
            .and_then(|config| Sim::with_workload(config, workload?, path).map_err(|e| format!("ftl: {e}")));
        let mut sim = match built {
            Ok(sim) => sim,
            Err(e) => {
                failures.push(e);
                continue;
            }
        };
        match serve_all(&mut sim, args.has("verify")) {
            Ok(()) => results.push(sim.metrics()),
            Err(e) => {
                // Stopped mid-run: what was served is still measured; print it with the error.
                failures.push(format!(
                    "ftl: {scheme}: {e}; the metrics of the {} requests served are printed",
                    sim.cursor()
                ));
                results.push(sim.metrics());
            }
        }
    }
    let failure = (!failures.is_empty()).then(|| failures.join("\n"));
    if results.is_empty() {
        return failure.map_or(Ok(()), Err);
    }
    if args.has("json") {
        let mut out = json!({ "results": results });
        if !failures.is_empty() {
            out["error"] = json!(failure);
            out["errors"] = json!(failures);
        }
        println!("{}", serde_json::to_string_pretty(&out).map_err(|e| e.to_string())?);
    } else {
        print_table(&results);
        if results.iter().any(|m| m.metadata.is_some()) {
            print_breakdown(&results);
        }
    }
    failure.map_or(Ok(()), Err)
}

/// Serves the whole trace; with `verify`, then checks the end state.
fn serve_all(sim: &mut Sim, verify: bool) -> Result<(), String> {
    while !sim.done() {
        sim.step(4096).map_err(|e| e.to_string())?;
    }
    if verify {
        let wrong = sim.verify().map_err(|e| format!("end-of-run check: {e}"))?;
        if wrong > 0 {
            return Err(format!("end-of-run check: {wrong} pages read back wrong"));
        }
    }
    Ok(())
}

fn print_table(results: &[ftl_engine::Metrics]) {
    println!(
        "{:<10} {:>9} {:>11} {:>11} {:>8} {:>8} {:>6} {:>12}",
        "scheme", "requests", "flash reads", "flash progs", "erases", "gc runs", "waf", "mean resp us"
    );
    for m in results {
        println!(
            "{:<10} {:>9} {:>11} {:>11} {:>8} {:>8} {:>6.3} {:>12.1}",
            m.scheme,
            m.requests_done,
            m.flash.page_reads,
            m.flash.page_writes,
            m.flash.erases,
            m.gc.runs,
            m.waf,
            m.response_us.mean
        );
    }
}

/// Seed 003's four-part split of the service time (µs, and each part's share).
fn print_breakdown(results: &[ftl_engine::Metrics]) {
    println!(
        "\n{:<10} {:<14} {:>16} {:>18} {:>16} {:>18}",
        "scheme", "metadata", "host transfer", "metadata loading", "FTL execution", "user-data transfer"
    );
    for m in results {
        let b = &m.time_breakdown_us;
        let parts = [b.host_transfer, b.metadata_loading, b.ftl_execution, b.user_data_transfer];
        let total: f64 = parts.iter().sum();
        let cell = |v: f64| format!("{v:.0} ({:.1}%)", 100.0 * v / total.max(f64::MIN_POSITIVE));
        let model = m.metadata.as_ref().map_or("flat", |s| s.model.as_str());
        println!(
            "{:<10} {:<14} {:>16} {:>18} {:>16} {:>18}",
            m.scheme,
            model,
            cell(parts[0]),
            cell(parts[1]),
            cell(parts[2]),
            cell(parts[3])
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_overrides_known_keys_only() {
        let c = config_for("page", None, &["device.blocks=64".into(), "device.cell=mlc".into()]).unwrap();
        assert_eq!(c.device.blocks, 64);
        assert_eq!(c.device.cell, ftl_engine::config::CellType::Mlc);
        assert!(config_for("page", None, &["device.nope=1".into()]).unwrap_err().contains("device.nope"));
        assert!(config_for("page", None, &["device=1".into()]).unwrap_err().contains("section"));
        assert!(config_for("page", None, &["device.blocks=many".into()])
            .unwrap_err()
            .contains("--set device.blocks=many"));
        let t = config_for("page", None, &[r#"timing={"periodic":5000}"#.into(), "ram.bytes=4096".into()])
            .unwrap();
        assert_eq!(t.timing, ftl_engine::config::TimingMode::Periodic(5000));
        assert_eq!(t.ram.bytes, 4096);
    }

    #[test]
    fn scheme_options_are_set_under_options_and_the_old_key_points_there() {
        let c = config_for("dftl", None, &["options.batch_update=false".into()]).unwrap();
        assert_eq!(c.options["batch_update"], false);
        let e = config_for("dftl", None, &["dftl.batch_update=false".into()]).unwrap_err();
        assert!(e.contains("options.batch_update"), "{e}");
        let e = config_for("page", None, &["options.batch_update=false".into()]).unwrap_err();
        assert!(e.contains("options.batch_update"), "{e}");
        assert!(config_for("nope", None, &[]).unwrap_err().contains("unknown scheme"));
        let e = config_for("page", None, &["scheme=dftl".into()]).unwrap_err();
        assert!(e.contains("--set scheme=dftl: choose the scheme with --scheme ID"), "{e}");
        let e = base_json(None, &["scheme=dftl".into()]).unwrap_err();
        assert!(e.contains("with --scheme ID"), "{e}");
    }

    #[test]
    fn the_help_lists_every_config_key_and_every_scheme_option() {
        let help = set_keys_help();
        for key in ["device.latency.erase_ns", "gc.victim", "timing", "options.batch_update"] {
            assert!(help.contains(key), "{key} missing from\n{help}");
        }
    }

    #[test]
    fn presets_start_the_config_and_sets_override_them() {
        let c = config_for("page", Some("thesis-mnftl"), &["device.blocks=100".into()]).unwrap();
        assert_eq!(c.device.cell, ftl_engine::config::CellType::Mlc);
        assert_eq!(c.device.latency.program_ns, 800_000);
        assert_eq!(c.device.blocks, 100);
        assert!(config_for("page", Some("nope"), &[]).unwrap_err().contains("unknown preset 'nope'"));
    }

    #[test]
    fn a_presets_timing_applies_unless_set_explicitly() {
        let preset = config_for("rftl", Some("thesis-rftl"), &[]).unwrap();
        assert_eq!(preset.timing, TimingMode::Periodic(2_325_000));
        let own = config_for("rftl", Some("thesis-rftl"), &["timing=closed".into()]).unwrap();
        assert_eq!(own.timing, TimingMode::Closed);
        assert_eq!(config_for("rftl", Some("thesis-mnftl"), &[]).unwrap().timing, TimingMode::Trace);
    }
}
