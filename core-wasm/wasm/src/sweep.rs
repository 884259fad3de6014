//! Sweeps and paper experiments for the app's Sweep mode: the engine expands and
//! checks, the app only runs the configurations it is given. Cold path, JSON strings.

use ftl_engine::{experiments, sweep};
use wasm_bindgen::prelude::*;

use crate::js_err;

/// The named sweep parameters (`[{name, key, label, unit, example}]`).
#[wasm_bindgen(js_name = sweepParamsJson)]
pub fn sweep_params_json() -> String {
    serde_json::to_string(sweep::PARAMS).unwrap_or_else(|_| "[]".into())
}

/// Expands a sweep: `base` (a config's JSON) with `param` (short name or dotted key) at each
/// value of `values` (comma-separated text) for each scheme of `schemes` (a JSON array):
/// `[{index, scheme, key, value, label, config}]`, values outer, schemes inner. Throws with
/// the engine's message naming the bad value.
#[wasm_bindgen(js_name = sweepExpandJson)]
pub fn sweep_expand_json(base: &str, param: &str, values: &str, schemes: &str) -> Result<String, JsError> {
    let base: serde_json::Value =
        serde_json::from_str(base).map_err(|e| js_err(format!("base config JSON: {e}")))?;
    let schemes: Vec<String> =
        serde_json::from_str(schemes).map_err(|e| js_err(format!("schemes JSON: {e}")))?;
    let key = sweep::param_key(param).map_err(js_err)?;
    let values = sweep::parse_values(&key, values).map_err(js_err)?;
    let points = sweep::expand(&base, &key, &values, &schemes).map_err(js_err)?;
    serde_json::to_string(&points).map_err(js_err)
}

/// Every paper experiment with its points, traces and reported numbers, as a JSON array.
#[wasm_bindgen(js_name = experimentsJson)]
pub fn experiments_json() -> Result<String, JsError> {
    let all: Result<Vec<_>, _> = experiments::EXPERIMENTS.iter().map(|e| e.to_json()).collect();
    serde_json::to_string(&all.map_err(js_err)?).map_err(js_err)
}

/// The generated trace `trace` of experiment `name`, as plain CSV.
#[wasm_bindgen(js_name = experimentTraceCsv)]
pub fn experiment_trace_csv(name: &str, trace: &str) -> Result<String, JsError> {
    experiments::experiment(name).and_then(|e| e.generated_csv(trace)).map_err(js_err)
}

/// Our numbers beside the paper's for experiment `name`, from `results` (a JSON array of
/// `{trace, series, index, metrics}`), where `user` (a JSON array of slot ids, or empty)
/// names the slots holding the user's own traces: `[{what, paper, paper_on, ours, unit,
/// note, agreement}]`.
#[wasm_bindgen(js_name = experimentReportJson)]
pub fn experiment_report_json(name: &str, results: &str, user: &str) -> Result<String, JsError> {
    let e = experiments::experiment(name).map_err(js_err)?;
    let results: Vec<experiments::RunResult> =
        serde_json::from_str(results).map_err(|err| js_err(format!("results JSON: {err}")))?;
    let user: Vec<String> = if user.trim().is_empty() {
        Vec::new()
    } else {
        serde_json::from_str(user).map_err(|err| js_err(format!("user slots JSON: {err}")))?
    };
    serde_json::to_string(&experiments::report_for(e, &results, &user)).map_err(js_err)
}

/// The points of experiment `name` on a trace that addresses `footprint_bytes` from 0 (the
/// user's own trace): on the footprint-utilization axis (seed 004's utilization) the device
/// of each point is sized around that footprint, as `ftl sweep --experiment NAME
/// --trace-file` does; on other axes, the experiment's own points. Same shape as the
/// experiment's `points`.
#[wasm_bindgen(js_name = experimentPointsJson)]
pub fn experiment_points_json(name: &str, footprint_bytes: f64) -> Result<String, JsError> {
    if !(footprint_bytes.is_finite() && footprint_bytes >= 1.0) {
        return Err(js_err(format!(
            "experiment {name}: footprint must be at least 1 byte, got {footprint_bytes}"
        )));
    }
    let e = experiments::experiment(name).map_err(js_err)?;
    let footprint = match e.axis {
        experiments::Axis::FootprintUtilization { .. } => Some(footprint_bytes as u64),
        experiments::Axis::Param(_) => None,
    };
    serde_json::to_string(&e.points_with_footprint(footprint).map_err(js_err)?).map_err(js_err)
}

/// Readings an experiment with over-time metrics takes through each run (the CLI's count).
#[wasm_bindgen(js_name = overTimePoints)]
pub fn over_time_points() -> u32 {
    experiments::OVER_TIME_POINTS as u32
}
