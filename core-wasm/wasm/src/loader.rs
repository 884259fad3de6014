//! `TraceLoader`: parses a trace chunk by chunk (a `File` read as a stream in the worker),
//! collecting statistics on the way, so a large upload is never held whole in memory and
//! its progress can be shown. The parsed requests then go to `Simulation.fromLoader`.

use ftl_engine::trace::stats::TraceStats;
use ftl_engine::trace::{ParseOptions, Request, TraceReader};
use serde_json::json;
use wasm_bindgen::prelude::*;

use crate::js_err;

/// A streaming trace parser with statistics.
#[wasm_bindgen(js_name = TraceLoader)]
pub struct WasmTraceLoader {
    reader: Option<TraceReader>,
    stats: TraceStats,
    requests: Vec<Request>,
    name: String,
    format: String,
}

#[wasm_bindgen(js_class = TraceLoader)]
impl WasmTraceLoader {
    /// A loader for the file `name`; `format` overrides detection; `options_json` holds
    /// `ParseOptions` fields (selection, units, `skip_bad_lines`), `{}` for defaults.
    #[wasm_bindgen(constructor)]
    pub fn new(name: &str, format: Option<String>, options_json: &str) -> Result<WasmTraceLoader, JsError> {
        let options: ParseOptions =
            serde_json::from_str(options_json).map_err(|e| JsError::new(&format!("trace options: {e}")))?;
        let reader = TraceReader::new(format.as_deref(), options).map_err(js_err)?.with_file(name);
        Ok(WasmTraceLoader {
            reader: Some(reader),
            stats: TraceStats::default(),
            requests: Vec::new(),
            name: name.to_string(),
            format: String::new(),
        })
    }

    /// Parses the next chunk; returns progress as JSON `{bytes, lines, requests, done}`.
    /// `done` means the request limit was reached and further chunks are ignored.
    pub fn feed(&mut self, chunk: &[u8]) -> Result<String, JsError> {
        let reader = self.reader.as_mut().ok_or_else(|| JsError::new("trace already finished"))?;
        let progress = reader.feed(chunk).map_err(js_err)?;
        for r in reader.take_requests() {
            self.stats.add(&r);
            self.requests.push(r);
        }
        serde_json::to_string(&progress).map_err(js_err)
    }

    /// Ends the input; returns `{format, report, summary}` as JSON (parse report with skipped
    /// lines, and the trace statistics).
    pub fn finish(&mut self) -> Result<String, JsError> {
        let reader = self.reader.take().ok_or_else(|| JsError::new("trace already finished"))?;
        let parsed = reader.finish().map_err(js_err)?;
        for r in &parsed.trace.requests {
            self.stats.add(r);
        }
        self.requests.extend(parsed.trace.requests);
        self.format = parsed.trace.format.clone();
        let out =
            json!({ "format": parsed.trace.format, "report": parsed.report, "summary": self.stats.finish() });
        serde_json::to_string(&out).map_err(js_err)
    }

    /// Requests parsed so far.
    pub fn requests(&self) -> u32 {
        self.requests.len() as u32
    }
}

impl WasmTraceLoader {
    /// Hands the parsed trace over (the loader is empty afterwards).
    pub(crate) fn take_trace(&mut self) -> Result<(ftl_engine::trace::Trace, String), JsError> {
        if self.reader.is_some() {
            return Err(JsError::new("finish() the trace before building a simulation"));
        }
        if self.requests.is_empty() {
            return Err(JsError::new("this trace was already handed to a simulation; load it again"));
        }
        let requests = std::mem::take(&mut self.requests);
        Ok((ftl_engine::trace::Trace { format: self.format.clone(), requests }, self.name.clone()))
    }
}
