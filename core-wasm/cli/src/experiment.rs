//! `ftl sweep --experiment NAME`: a paper experiment of the engine's registry, run natively,
//! with the paper's numbers beside ours and whether they agree. `--trace-file ID=PATH` puts
//! the user's own copy of a paper trace (the whole MSR hm_0, say) in slot ID; `--markdown`
//! prints the tables the results pages in `docs/results/` are made of.

use ftl_engine::experiments::{self, Axis, Experiment, Reading, ReportRow, RunResult, TraceSource};
use ftl_engine::sweep::Point;
use ftl_engine::trace::Trace;
use ftl_engine::{Metrics, Sim};
use serde_json::{json, Value};

use crate::args::Args;

/// Where shipped traces are, relative to the repository root (`npm run ftl` runs there).
const SHIPPED: &str = "public/traces";

/// One trace slot of a run: its id, the trace, and the user's file when they brought it.
struct Slot {
    id: String,
    trace: Trace,
    user_file: Option<String>,
}

/// Parses the `--trace-file ID=PATH` flags against `e`'s trace slots.
fn user_files(e: &Experiment, args: &Args) -> Result<Vec<(String, String)>, String> {
    let ids: Vec<&str> = e.traces.iter().map(|t| t.id).collect();
    args.all("trace-file")
        .iter()
        .map(|spec| {
            let (id, path) = spec.split_once('=').ok_or_else(|| {
                format!(
                    "ftl: --trace-file {spec}: expected ID=PATH (slots of {}: {})",
                    e.name,
                    ids.join(", ")
                )
            })?;
            if !ids.contains(&id) {
                return Err(format!(
                    "ftl: --trace-file {spec}: experiment {} has no trace '{id}' (its traces: {})",
                    e.name,
                    ids.join(", ")
                ));
            }
            if !std::path::Path::new(path).is_file() {
                return Err(format!("ftl: --trace-file {spec}: {path} is not a readable file"));
            }
            Ok((id.to_string(), path.to_string()))
        })
        .collect()
}

fn load(e: &Experiment, args: &Args) -> Result<Vec<Slot>, String> {
    let user = user_files(e, args)?;
    let options = crate::select::parse_options(args)?;
    e.traces
        .iter()
        .map(|t| {
            if let Some((_, path)) = user.iter().find(|(id, _)| id == t.id) {
                let trace = crate::run::load_trace(
                    path,
                    args.one("format"),
                    &options,
                    crate::select::max_requests(args)?,
                )?;
                return Ok(Slot { id: t.id.to_string(), trace, user_file: Some(path.clone()) });
            }
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
            Ok(Slot { id: t.id.to_string(), trace, user_file: None })
        })
        .collect()
}

/// Bytes a trace addresses from 0 (the footprint a user's trace brings to the footprint axis).
fn extent(trace: &Trace) -> u64 {
    trace.requests.iter().map(|r| r.offset + u64::from(r.size)).max().unwrap_or(0)
}

/// One finished point on one slot.
struct Run {
    slot: usize,
    point: Point,
    metrics: Result<Metrics, String>,
    readings: Vec<Reading>,
}

fn run_point(point: &Point, slot: &Slot, over_time: &[&str]) -> (Result<Metrics, String>, Vec<Reading>) {
    let what = format!("{} {} = {} on {}", point.series, point.key, point.label, slot.id);
    let mut sim = match Sim::new(point.config.clone(), &slot.trace, &slot.id) {
        Ok(s) => s,
        Err(err) => return (Err(format!("ftl: {what}: {err}")), Vec::new()),
    };
    let chunk =
        if over_time.is_empty() { 4096 } else { sim.total().div_ceil(experiments::OVER_TIME_POINTS).max(1) };
    let mut readings = Vec::new();
    while !sim.done() {
        if let Err(err) = sim.step(chunk) {
            return (Err(format!("ftl: {what}: {err}")), readings);
        }
        if !over_time.is_empty() {
            readings.push(experiments::reading(&sim, over_time));
        }
    }
    (Ok(sim.metrics()), readings)
}

fn list() {
    for e in experiments::EXPERIMENTS {
        println!("{:<20} {}", e.name, e.title);
        let missing = e.missing_schemes();
        if !missing.is_empty() {
            println!("{:<20} (not registered yet: {})", "", missing.join(", "));
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
    let slots = load(e, args)?;
    let mut runs = Vec::new();
    for (i, slot) in slots.iter().enumerate() {
        // A user's trace on the footprint axis sizes the device around its own footprint.
        let footprint = match (e.axis, &slot.user_file) {
            (Axis::FootprintUtilization { .. }, Some(_)) => Some(extent(&slot.trace)),
            _ => None,
        };
        let points = e.points_with_footprint(footprint).map_err(|err| format!("ftl: {err}"))?;
        for point in points {
            let (metrics, readings) = run_point(&point, slot, e.over_time);
            runs.push(Run { slot: i, point, metrics, readings });
        }
    }
    // The report compares what ran; a failed point is reported as such and leaves its cells empty.
    let results: Vec<RunResult> = runs
        .iter()
        .filter_map(|r| {
            Some(RunResult {
                trace: slots[r.slot].id.clone(),
                series: r.point.series.clone(),
                index: r.point.index,
                metrics: serde_json::to_value(r.metrics.as_ref().ok()?).unwrap_or_default(),
            })
        })
        .collect();
    let user: Vec<String> = slots.iter().filter(|s| s.user_file.is_some()).map(|s| s.id.clone()).collect();
    let report = experiments::report_for(e, &results, &user);
    let key = e.param_key().map_err(|err| format!("ftl: {err}"))?;
    let failed = runs.iter().filter(|r| r.metrics.is_err()).count();
    if args.has("json") {
        print_json(e, &key, &slots, &runs, &report)?;
    } else if args.has("markdown") {
        print_markdown(e, &key, &slots, &runs, &report, args);
    } else {
        print_text(e, &key, &slots, &runs, &report);
    }
    match failed {
        0 => Ok(()),
        n => Err(format!("ftl: {n} of {} experiment points failed (each is reported above)", runs.len())),
    }
}

fn traces_json(e: &Experiment, slots: &[Slot]) -> Vec<Value> {
    e.traces
        .iter()
        .zip(slots)
        .map(|(t, s)| {
            json!({"id": t.id, "requests": s.trace.requests.len(), "carries_effect": t.carries_effect || s.user_file.is_some(),
                   "user_file": s.user_file, "stands_in_for": if s.user_file.is_some() { "YOUR TRACE (--trace-file)" } else { t.stands_in_for }})
        })
        .collect()
}

fn print_json(
    e: &Experiment,
    key: &str,
    slots: &[Slot],
    runs: &[Run],
    report: &[ReportRow],
) -> Result<(), String> {
    let rows: Vec<Value> = runs
        .iter()
        .map(|r| {
            let mut row = crate::sweep::json_row(&r.point, &slots[r.slot].id, &r.metrics);
            if !r.readings.is_empty() {
                row["over_time"] = json!(r.readings);
            }
            row
        })
        .collect();
    let mut info = e.to_json().map_err(|err| format!("ftl: {err}"))?;
    if let Some(o) = info.as_object_mut() {
        o.remove("points");
        o.insert("traces".into(), json!(traces_json(e, slots)));
    }
    let out = json!({"experiment": info, "param": key, "results": rows, "report": report});
    println!("{}", serde_json::to_string_pretty(&out).map_err(|err| err.to_string())?);
    Ok(())
}

fn range((lo, hi): (f64, f64)) -> String {
    if (hi - lo).abs() < 0.05 {
        format!("{lo:.1}")
    } else {
        format!("{lo:.1} – {hi:.1}")
    }
}

/// The agreement as a short mark: `agrees`, `direction only (×3.2)`, `DISAGREES`, ...
fn mark(r: &ReportRow) -> String {
    let a = &r.agreement;
    let factor = a.factor.filter(|f| f.is_finite()).map(|f| format!(" ×{f:.1}")).unwrap_or_default();
    match a.status {
        "agrees" if a.within.is_some() => format!("agrees (within ×{}){factor}", a.within.unwrap_or(1.0)),
        "agrees" => "agrees in direction".into(),
        "direction" => format!("direction only, magnitude{factor}"),
        "disagrees" => "DISAGREES".into(),
        "value" => format!("value{factor}"),
        other => other.into(),
    }
}

fn print_text(e: &Experiment, key: &str, slots: &[Slot], runs: &[Run], report: &[ReportRow]) {
    println!("{} — {}\n", e.title, e.source);
    println!(
        "{:<14} {:<20} {:<22} {:>12} {:>7} {:>8} {:>8} {:>8}",
        key, "series", "trace", "mean resp us", "waf", "erases", "map hit", "buf hit"
    );
    let ratio = |h: &Option<ftl_engine::metrics::HitRatio>| {
        h.as_ref().map_or("-".into(), |h| format!("{:.3}", h.hit_ratio))
    };
    for r in runs {
        let trace = &slots[r.slot].id;
        match &r.metrics {
            Ok(m) => println!(
                "{:<14} {:<20} {:<22} {:>12.1} {:>7.3} {:>8} {:>8} {:>8}",
                r.point.label,
                r.point.series,
                trace,
                m.response_us.mean,
                m.waf,
                m.flash.erases,
                ratio(&m.mapping),
                ratio(&m.buffer)
            ),
            Err(err) => println!("{:<14} {:<20} {:<22} failed: {err}", r.point.label, r.point.series, trace),
        }
    }
    println!(
        "\n{:<62} {:>14} {:>14}  {:<30} paper's traces / ours",
        "reported (% unless stated)", "paper", "ours", "agreement"
    );
    for r in report {
        let ours = r.ours.map_or("–".to_string(), range);
        println!(
            "{:<62} {:>14} {:>14}  {:<30} {} / {}",
            r.what,
            range(r.paper),
            ours,
            mark(r),
            r.paper_on,
            r.note
        );
        if let Some(reason) = &r.agreement.reason {
            println!("{:<62} why: {reason}", "");
        }
    }
    println!("\nTraces (rows cover those marked *):");
    for (t, s) in e.traces.iter().zip(slots) {
        let star = if t.carries_effect || s.user_file.is_some() { "*" } else { " " };
        let what = s.user_file.as_deref().map_or(t.stands_in_for.to_string(), |f| format!("YOUR TRACE {f}"));
        println!("{star} {} ({} requests): {what}", t.id, s.trace.requests.len());
    }
    println!("\nDifferences: {}", e.differences);
}

/// A metric of a finished run by path, formatted for a table cell.
fn cell(m: &Result<Metrics, String>, path: &str) -> String {
    let Ok(m) = m else { return "failed".into() };
    let v = serde_json::to_value(m).unwrap_or_default();
    let got = path.split('.').try_fold(&v, |v, k| v.get(k)).and_then(Value::as_f64);
    got.map_or("–".into(), |x| if x.abs() >= 1000.0 { format!("{x:.0}") } else { format!("{x:.3}") })
}

fn print_markdown(
    e: &Experiment,
    key: &str,
    slots: &[Slot],
    runs: &[Run],
    report: &[ReportRow],
    args: &Args,
) {
    let user: String = args.all("trace-file").iter().map(|t| format!(" --trace-file {t}")).collect();
    println!(
        "<!-- generated by `ftl sweep --experiment {}{user} --markdown`; do not edit by hand -->\n",
        e.name
    );
    println!("### Paper beside ours\n");
    println!(
        "| reported (% unless stated) | paper | ours | agreement | why not | paper's traces | ours covers |"
    );
    println!("|---|---|---|---|---|---|---|");
    for r in report {
        let ours = r.ours.map_or("–".to_string(), range);
        let why = r.agreement.reason.clone().unwrap_or_default();
        println!(
            "| {} | {} | {} | {} | {} | {} | {} |",
            r.what,
            range(r.paper),
            ours,
            mark(r),
            why,
            r.paper_on,
            r.note
        );
    }
    println!("\n### Traces\n");
    for (t, s) in e.traces.iter().zip(slots) {
        let what = s.user_file.as_deref().map_or(t.stands_in_for.to_string(), |f| format!("YOUR TRACE {f}"));
        println!(
            "- **{}** ({} requests{}): {what}",
            t.id,
            s.trace.requests.len(),
            if t.carries_effect { ", rows" } else { "" }
        );
    }
    let labels: Vec<String> = {
        let mut l: Vec<String> = runs.iter().map(|r| r.point.label.clone()).collect();
        l.dedup();
        let mut seen = Vec::new();
        l.retain(|x| {
            if seen.contains(x) {
                false
            } else {
                seen.push(x.clone());
                true
            }
        });
        l
    };
    for metric in e.metrics {
        println!("\n### {metric} ({key})\n");
        println!("| trace | series | {} |", labels.join(" | "));
        println!("|---|---|{}", "---|".repeat(labels.len()));
        for (i, s) in slots.iter().enumerate() {
            let mut series: Vec<&str> =
                runs.iter().filter(|r| r.slot == i).map(|r| r.point.series.as_str()).collect();
            let mut seen = Vec::new();
            series.retain(|x| {
                if seen.contains(x) {
                    false
                } else {
                    seen.push(*x);
                    true
                }
            });
            for sid in series {
                let cells: Vec<String> = labels
                    .iter()
                    .map(|l| {
                        runs.iter()
                            .find(|r| r.slot == i && r.point.series == sid && &r.point.label == l)
                            .map_or("–".into(), |r| cell(&r.metrics, metric))
                    })
                    .collect();
                println!("| {} | {sid} | {} |", s.id, cells.join(" | "));
            }
        }
    }
    if !e.over_time.is_empty() {
        println!("\n### Over time (readings at each tenth of the run, traces behind the rows)\n");
        println!("| trace | series | {key} | requests | {} |", e.over_time.join(" | "));
        println!("|---|---|---|---|{}", "---|".repeat(e.over_time.len()));
        let rows_trace = |r: &&Run| e.traces[r.slot].carries_effect || slots[r.slot].user_file.is_some();
        for r in runs.iter().filter(rows_trace) {
            for reading in &r.readings {
                let vals: Vec<String> = e
                    .over_time
                    .iter()
                    .map(|p| {
                        reading.values.get(*p).copied().flatten().map_or("–".into(), |x| {
                            if x.abs() >= 1000.0 {
                                format!("{x:.0}")
                            } else {
                                format!("{x:.3}")
                            }
                        })
                    })
                    .collect();
                println!(
                    "| {} | {} | {} | {} | {} |",
                    slots[r.slot].id,
                    r.point.series,
                    r.point.label,
                    reading.requests_done,
                    vals.join(" | ")
                );
            }
        }
    }
    println!("\n**Differences from the paper's setup:** {}", e.differences);
}

#[cfg(test)]
mod tests {
    use super::*;

    const HM_0: &str =
        concat!(env!("CARGO_MANIFEST_DIR"), "/../../public/traces/msr-cambridge_hm_0_first1000.csv");

    fn args(extra: &[&str]) -> Args {
        let argv: Vec<String> = extra.iter().map(|s| s.to_string()).collect();
        let flags: Vec<&str> =
            ["trace-file", "format"].into_iter().chain(crate::select::FLAGS.iter().copied()).collect();
        Args::parse(&argv, &flags, &["json", "markdown"]).unwrap()
    }

    #[test]
    fn a_users_trace_takes_its_slot_whole_and_counts_as_carrying_the_effect() {
        let e = experiments::experiment("shin-prefill-share").unwrap();
        let spec = format!("desktop-standin={HM_0}");
        let slots = load(e, &args(&["--trace-file", &spec, "--first", "300"])).unwrap();
        assert_eq!(slots.len(), 1);
        assert_eq!(slots[0].user_file.as_deref(), Some(HM_0));
        assert_eq!(slots[0].trace.requests.len(), 300, "read with the selection flags");
        // Its points run, and the report counts it where no shipped trace of the slot would.
        let points = e.points().unwrap();
        let (m, readings) = run_point(&points[0], &slots[0], &["waf"]);
        assert_eq!(m.unwrap().trace.requests, 300);
        assert_eq!(readings.len(), experiments::OVER_TIME_POINTS);
        assert_eq!(readings.last().unwrap().requests_done, 300);
        let listed = traces_json(e, &slots);
        assert_eq!(listed[0]["carries_effect"], true);
        assert_eq!(listed[0]["user_file"], HM_0);
    }

    #[test]
    fn bad_trace_files_are_refused_naming_the_slot_and_the_path() {
        let e = experiments::experiment("treeftl-figs-4-5").unwrap();
        let err = |spec: &str| load(e, &args(&["--trace-file", spec])).err().unwrap();
        let m = err("hm_0");
        assert!(m.contains("expected ID=PATH") && m.contains("hm_0-synthetic"), "{m}");
        let m = err(&format!("hm0={HM_0}"));
        assert!(m.contains("no trace 'hm0'") && m.contains("cloudphysics"), "{m}");
        let m = err("hm_0=/no/such/file.csv");
        assert!(m.contains("/no/such/file.csv is not a readable file"), "{m}");
    }
}
