//! Paper experiments: each source's comparison as a registry entry the CLI (`ftl sweep
//! --experiment NAME`) and the app's Presets menu run the same way: a device preset with
//! stated changes, the compared **series** (a scheme with the options the source describes:
//! TPFTL in seed 001's baseline form and the prefetching TPFTL are two series), the traces
//! (shipped real excerpts, or labelled SYNTHETIC stand-ins built from what the papers publish,
//! or the user's own copy of a paper trace), the swept axis and its values, and the paper's
//! reported numbers with what differs in our setup. [`report()`] puts our numbers beside the
//! paper's, each row with an [`Agreement`]: direction, magnitude where the stand-in is built
//! for it, and the measured reason when it does not agree.
//!
//! Rows cover the traces built to carry the paper's effect (re-reference of evicted entries, a
//! footprint rewritten several times); a short excerpt that fits in RAM is shown but behind no
//! row. Runs are sized to take about a minute natively (each entry's `differences` says what
//! was scaled); `hcftl-long-run` is longer by design.

mod bang_metadata;
mod dac_tables;
mod mnftl_figs;
mod registry;
mod report;
mod rftl_tables;
pub mod standins;

use serde_json::{json, Value};

use crate::error::{EngineError, Result};
use crate::sweep::{self, Point};
use crate::trace::generate::GenParams;

pub use registry::EXPERIMENTS;
pub use report::{agreement, report, report_for, Agreement, ReportRow, RunResult};

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
    /// Whether it is built to carry the paper's effect: rows scoped to each trace cover only
    /// these (a short excerpt that fits in RAM is shown in the results, behind no row).
    pub carries_effect: bool,
}

impl ExperimentTrace {
    /// A seeded synthetic stand-in built to carry the paper's effect, read whole.
    pub const fn stand_in(id: &'static str, params: fn() -> GenParams, stands_in_for: &'static str) -> Self {
        Self {
            id,
            source: TraceSource::Generated(params),
            max_requests: None,
            stands_in_for,
            carries_effect: true,
        }
    }
}

/// One compared series: a scheme with stated options (TPFTL in seed 001's baseline form and
/// the prefetching TPFTL are two series of one scheme).
#[derive(Debug, Clone, Copy)]
pub struct Series {
    /// Id used in results and reports (`tpftl-baseline`).
    pub id: &'static str,
    /// The engine's scheme id.
    pub scheme: &'static str,
    /// Options set on that scheme, as `KEY=JSON` below `options.` (`request_prefetch=false`).
    pub options: &'static [&'static str],
    /// What it is, for legends and tables.
    pub label: &'static str,
}

impl Series {
    /// A scheme with its default options.
    pub const fn plain(scheme: &'static str, label: &'static str) -> Series {
        Series { id: scheme, scheme, options: &[], label }
    }
}

/// The swept axis.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Axis {
    /// A [`sweep::param_key`] name, as `ftl sweep --param`.
    Param(&'static str),
    /// Seed 004's utilization: the trace's footprint over the device's (physical) capacity.
    /// Each value sizes `device.blocks` so that `footprint_bytes / capacity` is (just under) it,
    /// and pre-fills the whole footprint (the first `footprint_bytes` of the logical space).
    FootprintUtilization {
        /// Bytes the trace addresses (it must lie in `[0, footprint_bytes)`).
        footprint_bytes: u64,
    },
}

/// Name of [`Axis::FootprintUtilization`] in results (`param`, `key`).
pub const FOOTPRINT_UTILIZATION: &str = "footprint_utilization";

/// How a reported number is measured from a metric.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Measure {
    /// The metric × 100 (a ratio shown as a percentage: hit ratios).
    Percent,
    /// `1 - scheme / versus`, in % (how much less the scheme needs).
    ReductionVs(&'static str),
    /// `scheme / versus - 1`, in % (how much more the scheme has).
    GainVs(&'static str),
    /// The metric as it is, in the unit given (`µs`: RFTL's worst-case response time).
    Value(&'static str),
}

/// Which traces a reported number covers.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Scope {
    /// Each trace built to carry the effect ([`ExperimentTrace::carries_effect`]) on its
    /// own: ours is the range over them.
    EachTrace,
    /// One trace (by id).
    Trace(&'static str),
    /// These traces (by id), each on its own: ours is the range over them (one kind of
    /// stand-in when an experiment has several).
    Traces(&'static [&'static str]),
    /// The metric summed over every trace built to carry the effect first (the "sum of all
    /// traces" bar).
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
    /// Where a stand-in is built to reproduce the paper's magnitude: ours agrees in magnitude
    /// when within this factor of the paper's range. None: direction only.
    pub factor: Option<f64>,
    /// The measured, stated reason shown when ours does not agree (empty: none known).
    pub why_not: &'static str,
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
    /// Series compared (those whose scheme is not registered yet are skipped).
    pub series: &'static [Series],
    /// Series the charts normalise to (the paper's), when registered.
    pub baseline: &'static str,
    /// Traces.
    pub traces: &'static [ExperimentTrace],
    /// Swept axis.
    pub axis: Axis,
    /// Its values ([`sweep::parse_values`] text).
    pub values: &'static str,
    /// Record these metric paths at ten points through each run (over-time readings for
    /// runs long enough to saturate a structure); empty: only at the end.
    pub over_time: &'static [&'static str],
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
    /// The series the engine can run now (their scheme is registered), in the paper's order.
    pub fn registered_series(&self) -> Vec<&'static Series> {
        self.series.iter().filter(|s| crate::ftl::spec(s.scheme).is_ok()).collect()
    }

    /// The series `id`, if the experiment has it.
    pub fn series_by_id(&self, id: &str) -> Option<&'static Series> {
        self.series.iter().find(|s| s.id == id)
    }

    /// The series the charts normalise to: the paper's when registered, else the last
    /// registered series of the list.
    pub fn chart_baseline(&self) -> Option<String> {
        let registered = self.registered_series();
        if registered.iter().any(|s| s.id == self.baseline) {
            Some(self.baseline.to_string())
        } else {
            registered.last().map(|s| s.id.to_string())
        }
    }

    /// The schemes the paper compares that the engine does not have yet.
    pub fn missing_schemes(&self) -> Vec<&'static str> {
        let mut out: Vec<&'static str> =
            self.series.iter().map(|s| s.scheme).filter(|s| crate::ftl::spec(s).is_err()).collect();
        out.dedup();
        out
    }

    /// The traces rows scoped to each trace cover (those built to carry the effect).
    pub fn effect_traces(&self) -> impl Iterator<Item = &'static ExperimentTrace> {
        self.traces.iter().filter(|t| t.carries_effect)
    }

    /// The swept parameter's name in results: the configuration key, or
    /// [`FOOTPRINT_UTILIZATION`].
    pub fn param_key(&self) -> Result<String> {
        match self.axis {
            Axis::Param(p) => sweep::param_key(p),
            Axis::FootprintUtilization { .. } => Ok(FOOTPRINT_UTILIZATION.to_string()),
        }
    }

    /// The base configuration: the preset with the experiment's changes.
    pub fn base(&self) -> Result<Value> {
        let mut value = crate::schema::full_json(&crate::presets::config(self.preset)?);
        for set in self.sets {
            apply_set(&mut value, set)
                .map_err(|e| EngineError::Config(format!("experiment {}: {e}", self.name)))?;
        }
        Ok(value)
    }

    /// The configurations to run on each trace (values outer, series inner).
    pub fn points(&self) -> Result<Vec<Point>> {
        self.points_with_footprint(None)
    }

    /// As [`Experiment::points`]; on the footprint axis, sized around `footprint` bytes
    /// instead of the experiment's own (a user's trace with another footprint).
    pub fn points_with_footprint(&self, footprint: Option<u64>) -> Result<Vec<Point>> {
        let (key, values, bases) = match self.axis {
            Axis::Param(p) => {
                let key = sweep::param_key(p)?;
                let values = sweep::parse_values(&key, self.values)?;
                let base = self.base()?;
                (key, values.clone(), values.iter().map(|_| base.clone()).collect::<Vec<_>>())
            }
            Axis::FootprintUtilization { footprint_bytes } => {
                let values = sweep::parse_values("device.utilization", self.values)?;
                let bases = values
                    .iter()
                    .map(|u| {
                        let bytes = footprint.unwrap_or(footprint_bytes);
                        footprint_base(self.base()?, bytes, u.as_f64().unwrap_or(f64::NAN))
                    })
                    .collect::<Result<Vec<_>>>()?;
                ("device.utilization".to_string(), values, bases)
            }
        };
        let mut points = Vec::new();
        for (index, (value, base)) in values.iter().zip(&bases).enumerate() {
            for series in self.registered_series() {
                let mut b = base.clone();
                b["scheme"] = Value::String(series.scheme.to_string());
                b["options"] = crate::ftl::spec(series.scheme)?.default_options();
                for set in series.options {
                    apply_set(&mut b, &format!("options.{set}")).map_err(|e| {
                        EngineError::Config(format!("experiment {}, series {}: {e}", self.name, series.id))
                    })?;
                }
                // The footprint axis sets the pre-filled share itself (just under u when the
                // block count rounds up); the point keeps u as its value.
                let set_value = match self.axis {
                    Axis::Param(_) => value.clone(),
                    Axis::FootprintUtilization { .. } => b["device"]["utilization"].clone(),
                };
                let mut p =
                    sweep::expand(&b, &key, &[set_value], &[series.scheme.to_string()])?.pop().ok_or_else(
                        || EngineError::Config(format!("experiment {}: empty expansion", self.name)),
                    )?;
                p.index = index;
                p.series = series.id.to_string();
                if let Axis::FootprintUtilization { .. } = self.axis {
                    p.key = FOOTPRINT_UTILIZATION.to_string();
                    p.value = value.clone();
                    p.label = sweep::value_label(FOOTPRINT_UTILIZATION, value);
                }
                points.push(p);
            }
        }
        Ok(points)
    }

    /// Everything the app shows and needs to run it, as JSON (configs per point included).
    pub fn to_json(&self) -> Result<Value> {
        let key = self.param_key()?;
        let points: Vec<Value> = self
            .points()?
            .into_iter()
            .map(|p| json!({"index": p.index, "scheme": p.scheme, "series": p.series, "key": p.key, "value": p.value, "label": p.label, "config": p.config}))
            .collect();
        let traces: Vec<Value> = self
            .traces
            .iter()
            .map(|t| {
                let (kind, file) = match t.source {
                    TraceSource::Shipped(f) => ("shipped", Some(f)),
                    TraceSource::Generated(_) => ("generated", None),
                };
                json!({"id": t.id, "kind": kind, "file": file, "max_requests": t.max_requests,
                       "stands_in_for": t.stands_in_for, "carries_effect": t.carries_effect})
            })
            .collect();
        let series: Vec<Value> = self
            .registered_series()
            .iter()
            .map(|s| json!({"id": s.id, "scheme": s.scheme, "options": s.options, "label": s.label}))
            .collect();
        let reported: Vec<Value> = self.reported.iter().map(report::reported_json).collect();
        let baseline = self.chart_baseline();
        Ok(json!({
            "name": self.name, "title": self.title, "source": self.source, "preset": self.preset,
            "sets": self.sets, "schemes": series.iter().map(|s| s["id"].clone()).collect::<Vec<_>>(),
            "series": series, "missing_schemes": self.missing_schemes(),
            "baseline": baseline, "param": key, "values": self.values, "metrics": self.metrics,
            "over_time": self.over_time,
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

/// Readings taken through a run, for experiments with [`Experiment::over_time`].
pub const OVER_TIME_POINTS: usize = 10;

/// The experiment's over-time metrics at one point of a run.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Reading {
    /// Requests served so far.
    pub requests_done: u64,
    /// Each path's value (None when the run has no such metric).
    pub values: std::collections::BTreeMap<String, Option<f64>>,
}

/// Reads `paths` from `sim` now. Besides metric paths, `dtp_index_occupancy` is the share
/// of HCFTL's DTP index in use (from the scheme's RAM budgets).
pub fn reading(sim: &crate::Sim, paths: &[&str]) -> Reading {
    let metrics = serde_json::to_value(sim.metrics()).unwrap_or_default();
    let values = paths
        .iter()
        .map(|&p| {
            let v = if p == "dtp_index_occupancy" {
                budget_share(sim, "DTP index")
            } else {
                report::at(&metrics, p).and_then(Value::as_f64)
            };
            (p.to_string(), v)
        })
        .collect();
    Reading { requests_done: sim.cursor() as u64, values }
}

/// Used share of structure `name` among the scheme's RAM budgets (`name` and `name (free)`).
fn budget_share(sim: &crate::Sim, name: &str) -> Option<f64> {
    let budgets = sim.inspect(0).budgets;
    let bytes = |n: &str| budgets.iter().find(|b| b.name == n).map(|b| b.bytes as f64);
    let used = bytes(name)?;
    let free = bytes(&format!("{name} (free)"))?;
    (used + free > 0.0).then(|| used / (used + free))
}

/// Sets `KEY=JSON` (a bare string when not JSON) in a configuration's JSON form.
fn apply_set(config: &mut Value, set: &str) -> std::result::Result<(), String> {
    let (key, raw) = set.split_once('=').ok_or_else(|| format!("bad set '{set}' (KEY=VALUE)"))?;
    let v: Value = serde_json::from_str(raw).unwrap_or_else(|_| Value::String(raw.to_string()));
    crate::schema::set_path(config, key, v)
}

/// `base` sized for seed 004's utilization `u`: the fewest blocks whose **physical** capacity
/// holds `footprint_bytes` at a share of at most `u`, with the footprint pre-filled. Seed 004
/// §4 divides the footprint by the device's capacity (62 GB over 78-155 GB) and §3 says a
/// page-mapped device hides only GC's one extra block, so the capacity is the whole device,
/// not the logical space left after the configured over-provisioning (which would give page
/// mapping `1 - (1 - op) u` of free room instead of `1 - u`).
pub fn footprint_base(mut base: Value, footprint_bytes: u64, u: f64) -> Result<Value> {
    if !(u > 0.0 && u <= 1.0) {
        return Err(EngineError::Config(format!("footprint utilization must be in (0, 1], got {u}")));
    }
    let device: crate::config::DeviceConfig = serde_json::from_value(base["device"].clone())
        .map_err(|e| EngineError::Config(format!("footprint utilization: device: {e}")))?;
    let block_bytes = u64::from(device.page_bytes) * u64::from(device.pages_per_block);
    let blocks = (footprint_bytes as f64 / (u * block_bytes as f64)).ceil().max(1.0) as u64;
    let sized = crate::config::DeviceConfig { blocks: blocks as u32, ..device.clone() };
    let (footprint_pages, logical_pages) =
        (footprint_bytes.div_ceil(u64::from(device.page_bytes)), sized.logical_pages());
    if footprint_pages > logical_pages {
        return Err(EngineError::Config(format!(
            "footprint utilization {u}: {footprint_pages} footprint pages do not fit the {logical_pages} logical pages left by device.over_provisioning = {}",
            device.over_provisioning
        )));
    }
    base["device"]["blocks"] = json!(blocks);
    // Half a page over, so the pre-fill's floor lands on the footprint's last page.
    base["device"]["utilization"] = json!(((footprint_pages as f64 + 0.5) / logical_pages as f64).min(1.0));
    Ok(base)
}

#[cfg(test)]
mod tests;
