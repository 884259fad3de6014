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
    /// Scheme id.
    pub scheme: String,
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
}

fn at<'a>(v: &'a Value, path: &str) -> Option<&'a Value> {
    path.split('.').try_fold(v, |v, k| v.get(k))
}

fn measure_name(m: Measure) -> String {
    match m {
        Measure::Percent => "value".into(),
        Measure::ReductionVs(v) => format!("reduction vs {v}"),
        Measure::GainVs(v) => format!("gain vs {v}"),
    }
}

/// A reported entry as JSON (for the app's listing).
pub fn reported_json(r: &Reported) -> Value {
    json!({"what": r.what, "metric": r.metric, "scheme": r.scheme, "measure": measure_name(r.measure),
           "values": r.values, "paper": [r.paper.0, r.paper.1], "paper_on": r.paper_on})
}

/// The metric of `scheme` at value `index`, on `trace` or summed over every trace (Total).
fn metric(
    results: &[RunResult],
    exp: &Experiment,
    path: &str,
    scheme: &str,
    index: usize,
    trace: Option<&str>,
) -> Option<f64> {
    match trace {
        Some(t) => results
            .iter()
            .find(|r| r.trace == t && r.scheme == scheme && r.index == index)
            .and_then(|r| at(&r.metrics, path))
            .and_then(Value::as_f64),
        None => exp.traces.iter().map(|t| metric(results, exp, path, scheme, index, Some(t.id))).sum(),
    }
}

fn measured(
    r: &Reported,
    results: &[RunResult],
    exp: &Experiment,
    index: usize,
    trace: Option<&str>,
) -> Option<f64> {
    let x = metric(results, exp, r.metric, r.scheme, index, trace)?;
    let vs = |other: &str| metric(results, exp, r.metric, other, index, trace).filter(|b| *b != 0.0);
    Some(match r.measure {
        Measure::Percent => 100.0 * x,
        Measure::ReductionVs(other) => 100.0 * (1.0 - x / vs(other)?),
        Measure::GainVs(other) => 100.0 * (x / vs(other)? - 1.0),
    })
}

/// Our number for each of `exp`'s reported ones, from whatever results are finished.
pub fn report(exp: &Experiment, results: &[RunResult]) -> Vec<ReportRow> {
    exp.reported
        .iter()
        .map(|r| {
            let traces: Vec<Option<&str>> = match r.scope {
                Scope::EachTrace => exp.traces.iter().map(|t| Some(t.id)).collect(),
                Scope::Trace(t) => vec![Some(t)],
                Scope::Total => vec![None],
            };
            let mut cells = Vec::new();
            for &index in r.values {
                for &trace in &traces {
                    cells.push(measured(r, results, exp, index, trace));
                }
            }
            let missing: Vec<&str> = [Some(r.scheme), versus(r.measure)]
                .into_iter()
                .flatten()
                .filter(|s| crate::ftl::spec(s).is_err())
                .collect();
            let ours = if cells.iter().all(Option::is_some) && !cells.is_empty() {
                let v: Vec<f64> = cells.into_iter().flatten().collect();
                Some((
                    v.iter().copied().fold(f64::INFINITY, f64::min),
                    v.iter().copied().fold(f64::NEG_INFINITY, f64::max),
                ))
            } else {
                None
            };
            let note = if !missing.is_empty() {
                format!("{} not registered yet", missing.join(", "))
            } else if ours.is_none() {
                "runs not finished".into()
            } else {
                match r.scope {
                    Scope::EachTrace => format!("range over our {} trace(s)", exp.traces.len()),
                    Scope::Trace(t) => format!("our {t}"),
                    Scope::Total => "sum over our traces".into(),
                }
            };
            ReportRow {
                what: r.what.into(),
                paper: r.paper,
                paper_on: r.paper_on.into(),
                ours,
                unit: "%",
                note,
            }
        })
        .collect()
}

fn versus(m: Measure) -> Option<&'static str> {
    match m {
        Measure::Percent => None,
        Measure::ReductionVs(v) | Measure::GainVs(v) => Some(v),
    }
}
