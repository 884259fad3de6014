//! Our numbers beside the paper's: each [`Reported`] entry measured on a run's results.

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use super::{Experiment, Measure, Reported, Scope};

/// One finished point of an experiment: which trace, scheme and value, and its metrics
/// object (as JSON, so the app can hand back what the workers gave it).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RunResult {
    /// Trace id.
    pub trace: String,
    /// Series id (the scheme id for a plain series; `scheme` is accepted as its old name).
    #[serde(alias = "scheme")]
    pub series: String,
    /// Index of the parameter value.
    pub index: usize,
    /// The metrics object.
    pub metrics: Value,
}

/// A paper number and ours.
#[derive(Debug, Clone, Serialize)]
pub struct ReportRow {
    /// What it is.
    pub what: String,
    /// The paper's number or range, in `unit`.
    pub paper: (f64, f64),
    /// The paper's traces and setup behind it.
    pub paper_on: String,
    /// Ours, or its range over the cells it covers; None when a run it needs is missing.
    pub ours: Option<(f64, f64)>,
    /// Unit of both (`%`).
    pub unit: &'static str,
    /// Why ours is missing, or which of our cells it covers.
    pub note: String,
    /// Whether ours agrees with the paper.
    pub agreement: Agreement,
}

/// How ours compares with the paper's number.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Agreement {
    /// `agrees` (direction, and magnitude where the row checks it), `direction` (direction
    /// agrees, magnitude outside its factor), `disagrees` (direction differs somewhere),
    /// `value` (a single scheme's value, no direction to compare), `open` (runs missing).
    pub status: &'static str,
    /// For rows comparing two series: every cell of ours has the paper's sign (a difference
    /// under `SAME` % counts as none, so not agreeing). None for value rows or open rows.
    pub direction: Option<bool>,
    /// The largest ratio between a cell of ours and the paper's range (1 inside it; both
    /// magnitudes taken absolute). None when open or a sign differs.
    pub factor: Option<f64>,
    /// The factor the row checks magnitude within (stand-ins built for the magnitude).
    pub within: Option<f64>,
    /// Why ours does not agree (the row's measured, stated reason), when it does not.
    pub reason: Option<String>,
}

/// Differences smaller than this (in %) count as no difference in direction.
pub const SAME: f64 = 0.5;

/// Compares our cells with the paper's range for reported entry `r`.
pub fn agreement(r: &Reported, cells: Option<&[f64]>) -> Agreement {
    let within = r.factor;
    let Some(cells) = cells.filter(|c| !c.is_empty()) else {
        return Agreement { status: "open", direction: None, factor: None, within, reason: None };
    };
    let compares = !matches!(r.measure, Measure::Percent | Measure::Value(_));
    let paper_sign = (r.paper.0 + r.paper.1).signum();
    let direction = compares.then(|| cells.iter().all(|&c| c.abs() >= SAME && c.signum() == paper_sign));
    let factor = (direction != Some(false)).then(|| {
        let (lo, hi) = (r.paper.0.abs().min(r.paper.1.abs()), r.paper.0.abs().max(r.paper.1.abs()));
        cells
            .iter()
            .map(|c| {
                let c = c.abs();
                if c < lo {
                    if c == 0.0 {
                        f64::INFINITY
                    } else {
                        lo / c
                    }
                } else if c > hi {
                    if hi == 0.0 {
                        f64::INFINITY
                    } else {
                        c / hi
                    }
                } else {
                    1.0
                }
            })
            .fold(1.0, f64::max)
    });
    let magnitude_ok = match (within, factor) {
        (Some(w), Some(f)) => Some(f <= w),
        _ => None,
    };
    let status = match (direction, magnitude_ok) {
        (Some(false), _) => "disagrees",
        (_, Some(false)) if direction.is_some() => "direction",
        (_, Some(false)) => "disagrees",
        (Some(true), _) => "agrees",
        (None, Some(true)) => "agrees",
        (None, None) => "value",
    };
    let reason = matches!(status, "disagrees" | "direction").then(|| {
        if r.why_not.is_empty() {
            "no measured reason stated yet".to_string()
        } else {
            r.why_not.to_string()
        }
    });
    Agreement { status, direction, factor, within, reason }
}

pub(super) fn at<'a>(v: &'a Value, path: &str) -> Option<&'a Value> {
    path.split('.').try_fold(v, |v, k| v.get(k))
}

fn measure_name(m: Measure) -> String {
    match m {
        Measure::Percent | Measure::Value(_) => "value".into(),
        Measure::ReductionVs(v) => format!("reduction vs {v}"),
        Measure::GainVs(v) => format!("gain vs {v}"),
    }
}

/// A reported entry as JSON (for the app's listing).
pub fn reported_json(r: &Reported) -> Value {
    json!({"what": r.what, "metric": r.metric, "series": r.scheme, "measure": measure_name(r.measure),
           "values": r.values, "paper": [r.paper.0, r.paper.1], "paper_on": r.paper_on,
           "factor": r.factor, "why_not": r.why_not})
}

/// The metric of series `scheme` at value `index`, on `trace` or summed over the traces
/// built to carry the effect (Total).
fn metric(
    results: &[RunResult],
    effect: &[&str],
    path: &str,
    scheme: &str,
    index: usize,
    trace: Option<&str>,
) -> Option<f64> {
    match trace {
        Some(t) => results
            .iter()
            .find(|r| r.trace == t && r.series == scheme && r.index == index)
            .and_then(|r| at(&r.metrics, path))
            .and_then(Value::as_f64),
        None => effect.iter().map(|t| metric(results, effect, path, scheme, index, Some(t))).sum(),
    }
}

fn measured(
    r: &Reported,
    results: &[RunResult],
    effect: &[&str],
    index: usize,
    trace: Option<&str>,
) -> Option<f64> {
    let x = metric(results, effect, r.metric, r.scheme, index, trace)?;
    let vs = |other: &str| metric(results, effect, r.metric, other, index, trace).filter(|b| *b != 0.0);
    Some(match r.measure {
        Measure::Percent => 100.0 * x,
        Measure::Value(_) => x,
        Measure::ReductionVs(other) => 100.0 * (1.0 - x / vs(other)?),
        Measure::GainVs(other) => 100.0 * (x / vs(other)? - 1.0),
    })
}

/// Our number for each of `exp`'s reported ones, from whatever results are finished.
pub fn report(exp: &Experiment, results: &[RunResult]) -> Vec<ReportRow> {
    report_for(exp, results, &[])
}

/// As [`report`], where the traces `user` (ids of the experiment's slots) are the user's own
/// copies of the paper's traces: they count as carrying the effect.
pub fn report_for(exp: &Experiment, results: &[RunResult], user: &[String]) -> Vec<ReportRow> {
    let effect: Vec<&str> = exp
        .traces
        .iter()
        .filter(|t| t.carries_effect || user.iter().any(|u| u == t.id))
        .map(|t| t.id)
        .collect();
    let is_user = |t: &str| user.iter().any(|u| u == t);
    let named = |ts: &[&str]| {
        ts.iter()
            .map(|&t| if is_user(t) { format!("{t} (your trace)") } else { t.to_string() })
            .collect::<Vec<_>>()
            .join(", ")
    };
    let names = named(&effect);
    // A row over named traces also covers the user's own traces (of any slot).
    let listed_and_user = |ts: &[&'static str]| -> Vec<&'static str> {
        let mut v = ts.to_vec();
        v.extend(effect.iter().copied().filter(|&t| is_user(t) && !ts.contains(&t)));
        v
    };
    exp.reported
        .iter()
        .map(|r| {
            let traces: Vec<Option<&str>> = match r.scope {
                Scope::EachTrace => effect.iter().map(|&t| Some(t)).collect(),
                Scope::Trace(t) => vec![Some(t)],
                Scope::Traces(ts) => listed_and_user(ts).into_iter().map(Some).collect(),
                Scope::Total => vec![None],
            };
            let mut cells = Vec::new();
            for &index in r.values {
                for &trace in &traces {
                    cells.push(measured(r, results, &effect, index, trace));
                }
            }
            let missing: Vec<&str> = [Some(r.scheme), versus(r.measure)]
                .into_iter()
                .flatten()
                .filter(|s| exp.series_by_id(s).is_none_or(|s| crate::ftl::spec(s.scheme).is_err()))
                .collect();
            let complete: Option<Vec<f64>> = (cells.iter().all(Option::is_some) && !cells.is_empty())
                .then(|| cells.into_iter().flatten().collect());
            let ours = complete.as_ref().map(|v| {
                (
                    v.iter().copied().fold(f64::INFINITY, f64::min),
                    v.iter().copied().fold(f64::NEG_INFINITY, f64::max),
                )
            });
            let note = if !missing.is_empty() {
                format!("{} not registered yet", missing.join(", "))
            } else if ours.is_none() {
                "runs not finished".into()
            } else {
                match r.scope {
                    Scope::EachTrace => format!("range over {names}"),
                    Scope::Trace(t) => format!("our {t}"),
                    Scope::Traces(ts) => format!("range over {}", named(&listed_and_user(ts))),
                    Scope::Total => format!("sum over {names}"),
                }
            };
            ReportRow {
                what: r.what.into(),
                paper: r.paper,
                paper_on: r.paper_on.into(),
                ours,
                unit: match r.measure {
                    Measure::Value(unit) => unit,
                    _ => "%",
                },
                note,
                agreement: agreement(r, complete.as_deref()),
            }
        })
        .collect()
}

fn versus(m: Measure) -> Option<&'static str> {
    match m {
        Measure::Percent | Measure::Value(_) => None,
        Measure::ReductionVs(v) | Measure::GainVs(v) => Some(v),
    }
}
