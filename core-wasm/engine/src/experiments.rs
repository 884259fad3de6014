//! Paper experiments (issue 13): each source's comparison as a registry entry the CLI
//! (`ftl sweep --experiment NAME`) and the app's Presets menu run the same way: a device
//! preset with stated changes, the schemes (those registered now), the traces (shipped real
//! excerpts or labelled synthetic stand-ins), the swept parameter and its values, and the
//! paper's reported numbers with what differs in our setup. A scheme family that lands later
//! adds its experiment here (one entry) or its id to an entry's `schemes`.
//!
//! Runs are browser-sized: traces are cut to at most a few tens of thousands of requests and
//! devices shrunk to a few GiB, so a whole experiment runs in well under a minute natively
//! (each entry's `differences` says what was scaled). [`report`] puts our numbers beside
//! the paper's.

mod bang_metadata;
mod dac_tables;
mod registry;
mod report;

use serde_json::{json, Value};

use crate::error::{EngineError, Result};
use crate::sweep::{self, Point};
use crate::trace::generate::GenParams;

pub use registry::EXPERIMENTS;
pub use report::{report, ReportRow, RunResult};

/// Where a trace comes from.
#[derive(Debug, Clone, Copy)]
pub enum TraceSource {
    /// A real excerpt shipped in `public/traces/` (path below it).
    Shipped(&'static str),
    /// A seeded synthetic trace from the engine's generator (a labelled stand-in).
    Generated(fn() -> GenParams),
}

/// One trace of an experiment.
#[derive(Debug, Clone, Copy)]
pub struct ExperimentTrace {
    /// Short id used in results and reports.
    pub id: &'static str,
    /// Where its requests come from.
    pub source: TraceSource,
    /// Keep only the first N requests (browser-sized runs); None = the whole file.
    pub max_requests: Option<u64>,
    /// The paper's trace(s) it stands for, and how it differs from them.
    pub stands_in_for: &'static str,
}

/// How a reported number is measured from a metric.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Measure {
    /// The metric × 100 (a ratio shown as a percentage: hit ratios).
    Percent,
    /// `1 - scheme / versus`, in % (how much less the scheme needs).
    ReductionVs(&'static str),
    /// `scheme / versus - 1`, in % (how much more the scheme has).
    GainVs(&'static str),
}

/// Which traces a reported number covers.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Scope {
    /// Each trace on its own: ours is the range over the experiment's traces.
    EachTrace,
    /// One trace (by id).
    Trace(&'static str),
    /// The metric summed over every trace first (the "sum of all traces" bar).
    Total,
}

/// A number the paper reports, and how to measure ours.
#[derive(Debug, Clone, Copy)]
pub struct Reported {
    /// What it is, in words.
    pub what: &'static str,
    /// Path of the metric in the metrics object.
    pub metric: &'static str,
    /// The scheme measured.
    pub scheme: &'static str,
    /// How.
    pub measure: Measure,
    /// Where.
    pub scope: Scope,
    /// Indices of the parameter values it covers (ours is the range over them).
    pub values: &'static [usize],
    /// The paper's number, or its range (low, high), in the measure's unit.
    pub paper: (f64, f64),
    /// The paper's traces and setup behind it.
    pub paper_on: &'static str,
}

/// One paper experiment.
#[derive(Debug, Clone, Copy)]
pub struct Experiment {
    /// Stable name (`--experiment NAME`).
    pub name: &'static str,
    /// Title for menus.
    pub title: &'static str,
    /// Seed, figure / table.
    pub source: &'static str,
    /// Device preset it starts from (`ftl presets`).
    pub preset: &'static str,
    /// Changes to the preset, as `KEY=JSON` (the `--set` syntax).
    pub sets: &'static [&'static str],
    /// Schemes the paper compares (ids; those not registered yet are skipped).
    pub schemes: &'static [&'static str],
    /// Scheme the charts normalise to (the paper's), when registered.
    pub baseline: &'static str,
    /// Traces.
    pub traces: &'static [ExperimentTrace],
    /// Swept parameter (a [`sweep::param_key`] name).
    pub param: &'static str,
    /// Its values ([`sweep::parse_values`] text).
    pub values: &'static str,
    /// Metrics of interest (paths), one chart each.
    pub metrics: &'static [&'static str],
    /// What differs from the paper's setup and traces.
    pub differences: &'static str,
    /// The paper's numbers.
    pub reported: &'static [Reported],
}

/// The experiment called `name`.
pub fn experiment(name: &str) -> Result<&'static Experiment> {
    EXPERIMENTS.iter().find(|e| e.name == name).ok_or_else(|| {
        let names: Vec<_> = EXPERIMENTS.iter().map(|e| e.name).collect();
        EngineError::Config(format!("unknown experiment '{name}' (known: {})", names.join(", ")))
    })
}

impl Experiment {
    /// The schemes of the experiment the engine has now, in the paper's order.
    pub fn registered_schemes(&self) -> Vec<String> {
        self.schemes.iter().filter(|s| crate::ftl::spec(s).is_ok()).map(|s| s.to_string()).collect()
    }

    /// The scheme the charts normalise to: the paper's when registered, else the last
    /// registered scheme of the list (APS for TreeFTL's figures until JTL lands).
    pub fn chart_baseline(&self) -> Option<String> {
        let registered = self.registered_schemes();
        if registered.iter().any(|s| s == self.baseline) {
            Some(self.baseline.to_string())
        } else {
            registered.last().cloned()
        }
    }

    /// The schemes the paper compares that the engine does not have yet.
    pub fn missing_schemes(&self) -> Vec<&'static str> {
        self.schemes.iter().copied().filter(|s| crate::ftl::spec(s).is_err()).collect()
    }

    /// The base configuration: the preset with the experiment's changes.
    pub fn base(&self) -> Result<Value> {
        let mut value = crate::schema::full_json(&crate::presets::config(self.preset)?);
        for set in self.sets {
            let (key, raw) = set
                .split_once('=')
                .ok_or_else(|| EngineError::Config(format!("experiment {}: bad set '{set}'", self.name)))?;
            let v: Value = serde_json::from_str(raw).unwrap_or_else(|_| Value::String(raw.to_string()));
            crate::schema::set_path(&mut value, key, v)
                .map_err(|e| EngineError::Config(format!("experiment {}: {e}", self.name)))?;
        }
        Ok(value)
    }

    /// The configurations to run on each trace (values outer, schemes inner).
    pub fn points(&self) -> Result<Vec<Point>> {
        let key = sweep::param_key(self.param)?;
        let values = sweep::parse_values(&key, self.values)?;
        sweep::expand(&self.base()?, &key, &values, &self.registered_schemes())
    }

    /// Everything the app shows and needs to run it, as JSON (configs per point included).
    pub fn to_json(&self) -> Result<Value> {
        let key = sweep::param_key(self.param)?;
        let points: Vec<Value> = self
            .points()?
            .into_iter()
            .map(|p| json!({"index": p.index, "scheme": p.scheme, "key": p.key, "value": p.value, "label": p.label, "config": p.config}))
            .collect();
        let traces: Vec<Value> = self
            .traces
            .iter()
            .map(|t| {
                let (kind, file) = match t.source {
                    TraceSource::Shipped(f) => ("shipped", Some(f)),
                    TraceSource::Generated(_) => ("generated", None),
                };
                json!({"id": t.id, "kind": kind, "file": file, "max_requests": t.max_requests, "stands_in_for": t.stands_in_for})
            })
            .collect();
        let reported: Vec<Value> = self.reported.iter().map(report::reported_json).collect();
        let baseline = self.chart_baseline();
        Ok(json!({
            "name": self.name, "title": self.title, "source": self.source, "preset": self.preset,
            "sets": self.sets, "schemes": self.registered_schemes(), "missing_schemes": self.missing_schemes(),
            "baseline": baseline, "param": key, "values": self.values, "metrics": self.metrics,
            "differences": self.differences, "traces": traces, "points": points, "reported": reported,
        }))
    }

    /// The generated trace `id` as plain CSV (what the app replays; the CLI uses the
    /// requests directly). Errors for a shipped trace or an unknown id.
    pub fn generated_csv(&self, id: &str) -> Result<String> {
        Ok(crate::trace::generate::to_csv(&self.generated(id)?.requests))
    }

    /// The generated trace `id`.
    pub fn generated(&self, id: &str) -> Result<crate::trace::Trace> {
        let t = self
            .traces
            .iter()
            .find(|t| t.id == id)
            .ok_or_else(|| EngineError::Config(format!("experiment {}: no trace '{id}'", self.name)))?;
        match t.source {
            TraceSource::Generated(params) => crate::trace::generate::generate(params())
                .map_err(|e| EngineError::Config(format!("trace {id}: {e}"))),
            TraceSource::Shipped(f) => {
                Err(EngineError::Config(format!("trace {id} is the shipped file {f}, not generated")))
            }
        }
    }
}

#[cfg(test)]
mod tests;
