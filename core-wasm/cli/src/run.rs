//! The `schemes` and `run` commands.

use ftl_engine::trace::{self, ParseOptions, Trace};
use ftl_engine::{ftl, Sim, SimConfig};
use serde_json::{json, Value};

use crate::args::Args;

const RUN_HELP: &str = "ftl run --trace FILE --scheme ID [--scheme ID ...] [--preset NAME] [--format NAME]
        [--set KEY=VALUE ...] [selection] [--json]

Replays FILE through each scheme and prints one metrics object per scheme
({\"results\": [...]} with --json).

--preset NAME starts from a device preset of the sources (see `ftl presets`).
--set KEY=VALUE overrides one configuration field; KEY is a dotted path into the config:
  device.page_bytes  device.pages_per_block  device.blocks  device.oob_bytes
  device.channels  device.ways  device.over_provisioning  device.cell (slc|mlc)
  device.utilization (0..1: share of logical pages written before measuring)
  device.latency.page_read_ns  .oob_read_ns  .program_ns  .erase_ns
  device.latency.transfer_ns_per_page  .ram_access_ns  .cache_op_ns
  ram.bytes (the FTL's RAM budget; 0 = a quarter of a full page map)
  gc.reserve_blocks  gc.victim (greedy|cost-benefit|fifo)  dftl.batch_update (true|false)
  workload.address_map (modulo|dense|refuse)  workload.prefill_read_pages (true|false)
  timing (trace|closed|{\"periodic\":NS})  record_events (true|false)
";

/// `ftl presets [--json]`.
pub fn presets(argv: &[String]) -> Result<(), String> {
    let args = Args::parse(argv, &[], &["json"])?;
    let all = ftl_engine::presets::presets();
    if args.has("json") {
        println!("{}", serde_json::to_string_pretty(&all).map_err(|e| e.to_string())?);
    } else {
        for p in &all {
            let d = &p.device;
            println!(
                "{:<24} {:>6} B pages x {:>4} x {:>8} blocks, {}x{} units  {}",
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
        println!("{}", serde_json::to_string_pretty(ftl::SCHEMES).map_err(|e| e.to_string())?);
    } else {
        for s in ftl::SCHEMES {
            println!("{:<10} {:<34} {}", s.id, s.name, s.source);
        }
    }
    Ok(())
}

/// Applies `KEY=VALUE` to the JSON form of `config`. The key must name an existing field.
fn apply_set(config: &mut Value, assignment: &str) -> Result<(), String> {
    let (key, raw) = assignment
        .split_once('=')
        .ok_or_else(|| format!("ftl: --set expects KEY=VALUE, got '{assignment}'"))?;
    let mut slot = &mut *config;
    for part in key.split('.') {
        slot = slot
            .get_mut(part)
            .ok_or_else(|| format!("ftl: unknown config key '{key}' (see ftl run --help)"))?;
    }
    let value: Value = serde_json::from_str(raw).unwrap_or_else(|_| Value::String(raw.to_string()));
    if slot.is_object() {
        return Err(format!("ftl: config key '{key}' is a section; set one of its fields"));
    }
    *slot = value;
    Ok(())
}

/// Builds the configuration for one scheme from a preset (or the defaults) plus `--set`
/// overrides.
pub fn config_for(scheme: &str, preset: Option<&str>, sets: &[String]) -> Result<SimConfig, String> {
    let base = match preset {
        Some(name) => SimConfig::from_preset(name).map_err(|e| format!("ftl: {e}"))?,
        None => SimConfig::default(),
    };
    let mut value = serde_json::to_value(base).map_err(|e| e.to_string())?;
    for s in sets {
        apply_set(&mut value, s)?;
        // Check after each assignment, so an error names the key that caused it.
        serde_json::from_value::<SimConfig>(value.clone()).map_err(|e| format!("ftl: --set {s}: {e}"))?;
    }
    value["scheme"] = Value::String(scheme.to_string());
    serde_json::from_value(value).map_err(|e| format!("ftl: invalid configuration: {e}"))
}

/// Reads and parses a whole trace file with the selection `options`; errors are the
/// one-line messages the CLI prints.
pub fn load_trace(path: &str, format: Option<&str>, options: &ParseOptions) -> Result<Trace, String> {
    let bytes = crate::input::read_all(path)?;
    let parsed = trace::parse_with(&bytes, format, options).map_err(|e| e.in_file(path).to_string())?;
    for w in &parsed.report.warnings {
        eprintln!("ftl: warning: {path}: {w}");
    }
    Ok(parsed.trace)
}

/// `ftl run ...`.
pub fn run(argv: &[String]) -> Result<(), String> {
    if argv.iter().any(|a| a == "--help" || a == "-h") {
        println!("{RUN_HELP}\n{}", crate::select::HELP);
        return Ok(());
    }
    let flags: Vec<&str> = ["trace", "scheme", "preset", "format", "set"]
        .into_iter()
        .chain(crate::select::FLAGS.iter().copied())
        .collect();
    let switches: Vec<&str> = ["json"].into_iter().chain(crate::select::SWITCHES.iter().copied()).collect();
    let args = Args::parse(argv, &flags, &switches)?;
    let options = crate::select::parse_options(&args)?;
    let path = args.one("trace").ok_or("ftl: run needs --trace FILE")?;
    let schemes = args.all("scheme");
    if schemes.is_empty() {
        return Err("ftl: run needs at least one --scheme ID (see ftl schemes)".into());
    }
    let trace = load_trace(path, args.one("format"), &options)?;
    let mut results = Vec::new();
    for scheme in schemes {
        let config = config_for(scheme, args.one("preset"), args.all("set"))?;
        let mut sim = Sim::new(config, &trace, path).map_err(|e| format!("ftl: {e}"))?;
        while !sim.done() {
            sim.step(4096).map_err(|e| format!("ftl: {scheme}: {e}"))?;
        }
        results.push(sim.metrics());
    }
    if args.has("json") {
        let out = json!({ "results": results });
        println!("{}", serde_json::to_string_pretty(&out).map_err(|e| e.to_string())?);
    } else {
        println!(
            "{:<10} {:>9} {:>11} {:>11} {:>8} {:>8} {:>6} {:>12}",
            "scheme", "requests", "flash reads", "flash progs", "erases", "gc runs", "waf", "mean resp us"
        );
        for m in &results {
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
    Ok(())
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
    fn presets_start_the_config_and_sets_override_them() {
        let c = config_for("page", Some("thesis-mnftl"), &["device.blocks=100".into()]).unwrap();
        assert_eq!(c.device.cell, ftl_engine::config::CellType::Mlc);
        assert_eq!(c.device.latency.program_ns, 800_000);
        assert_eq!(c.device.blocks, 100);
        assert!(config_for("page", Some("nope"), &[]).unwrap_err().contains("unknown preset 'nope'"));
    }
}
