//! `ftl sweep --experiment NAME`: a paper experiment of the engine's registry, run natively,
//! with the paper's numbers beside ours.

use ftl_engine::experiments::{self, Experiment, RunResult, TraceSource};
use ftl_engine::trace::Trace;
use serde_json::json;

use crate::args::Args;

/// Where shipped traces are, relative to the repository root (`npm run ftl` runs there).
const SHIPPED: &str = "public/traces";

fn load(e: &Experiment) -> Result<Vec<(String, Trace)>, String> {
    e.traces
        .iter()
        .map(|t| {
            let trace = match t.source {
                TraceSource::Shipped(file) => {
                    let path = format!("{SHIPPED}/{file}");
                    if !std::path::Path::new(&path).is_file() {
                        return Err(format!("ftl: {path} not found: run from the repository root"));
                    }
                    crate::run::load_trace(
                        &path,
                        None,
                        &crate::sweep::first(t.max_requests),
                        crate::input::DEFAULT_MAX_REQUESTS,
                    )?
                }
                TraceSource::Generated(_) => e.generated(t.id).map_err(|err| format!("ftl: {err}"))?,
            };
            Ok((t.id.to_string(), trace))
        })
        .collect()
}

fn list() {
    for e in experiments::EXPERIMENTS {
        println!("{:<18} {}", e.name, e.title);
        let missing = e.missing_schemes();
        if !missing.is_empty() {
            println!("{:<18} (not registered yet: {})", "", missing.join(", "));
        }
    }
}

/// Runs experiment `name` (or lists them for `list`).
pub fn run(name: &str, args: &Args) -> Result<(), String> {
    if name == "list" {
        list();
        return Ok(());
    }
    let e = experiments::experiment(name).map_err(|err| format!("ftl: {err}"))?;
    let points = e.points().map_err(|err| format!("ftl: {err}"))?;
    let traces = load(e)?;
    let runs = crate::sweep::run_all(&points, &traces);
    // The report compares what ran; a failed point is reported as such and leaves its cells empty.
    let results: Vec<RunResult> = runs
        .iter()
        .filter_map(|(t, p, m)| {
            Some(RunResult {
                trace: traces[*t].0.clone(),
                scheme: p.scheme.clone(),
                index: p.index,
                metrics: serde_json::to_value(m.as_ref().ok()?).unwrap_or_default(),
            })
        })
        .collect();
    let report = experiments::report(e, &results);
    let key = points.first().map(|p| p.key.clone()).unwrap_or_default();
    if args.has("json") {
        let rows: Vec<_> = runs.iter().map(|(t, p, m)| crate::sweep::json_row(p, &traces[*t].0, m)).collect();
        let mut info = e.to_json().map_err(|err| format!("ftl: {err}"))?;
        if let Some(o) = info.as_object_mut() {
            o.remove("points");
        }
        let out = json!({"experiment": info, "param": key, "results": rows, "report": report});
        println!("{}", serde_json::to_string_pretty(&out).map_err(|err| err.to_string())?);
        return crate::sweep::failures(&runs);
    }
    println!("{} — {}\n", e.title, e.source);
    let printed = crate::sweep::print_runs(&key, &traces, &runs, false);
    println!("\n{:<64} {:>16} {:>16}  paper's traces / ours", "reported (%)", "paper", "ours");
    let range = |(lo, hi): (f64, f64)| {
        if (hi - lo).abs() < 0.05 {
            format!("{lo:.1}")
        } else {
            format!("{lo:.1} – {hi:.1}")
        }
    };
    for r in &report {
        let ours = r.ours.map_or("–".to_string(), range);
        println!("{:<64} {:>16} {:>16}  {} / {}", r.what, range(r.paper), ours, r.paper_on, r.note);
    }
    println!("\nDifferences: {}", e.differences);
    printed
}
