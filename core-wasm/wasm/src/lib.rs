//! Thin wasm-bindgen facade over `ftl-engine`: argument conversion, error mapping and flat
//! typed-array frames. No simulation logic lives here.
//!
//! Cold path (config, metrics, scheme list) crosses as JSON strings; hot path (per frame) is
//! one `frame()` call returning typed arrays copied out of wasm memory, so they stay valid
//! after memory grows and can be transferred between threads.

mod free;
mod heap;
mod loader;
mod memory;
pub use memory::run_bytes;
mod sweep;

pub use free::*;
use ftl_engine::frame::FrameReader;
use ftl_engine::vocab::StopAt;
use ftl_engine::{ftl, Frame, Sim, SimConfig, Timeline};
use js_sys::{Float64Array, Object, Reflect, Uint32Array, Uint8Array};
pub use loader::WasmTraceLoader;
use serde_json::json;
pub use sweep::*;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TS_TYPES: &str = r#"
/** One frame: flat copies of the engine state the views draw. */
export interface WasmFrame {
  /** One byte per physical page, block-major: 0 free, 1 valid, 2 invalid. */
  pageStates: Uint8Array;
  /** One byte per block: the engine's BlockRole. */
  blockRoles: Uint8Array;
  validCounts: Uint32Array;
  eraseCounts: Uint32Array;
  /** Values named by counterNames(). */
  counters: Float64Array;
}
/** What stepUntil did: requests served, and whether it stopped at what it looked for. */
export interface StepUntilResult {
  served: number;
  found: boolean;
}
"#;

/// The one place engine errors become JS errors.
pub(crate) fn js_err(e: impl std::fmt::Display) -> JsError {
    JsError::new(&e.to_string())
}

/// Memory the checkpoints of one simulation may use (stepping back replays from them).
pub(crate) const CHECKPOINT_BUDGET_BYTES: u64 = 192 * 1024 * 1024;

/// A simulation: one trace, one scheme, one device, with checkpoints for stepping back.
#[wasm_bindgen(js_name = Simulation)]
pub struct WasmSim(Timeline, FrameReader);

impl WasmSim {
    /// A built simulation with its checkpoints, within the heap guard.
    fn of(sim: Sim) -> Self {
        WasmSim(
            Timeline::with_memory_budget(sim, CHECKPOINT_BUDGET_BYTES).with_heap_guard(heap::guard()),
            FrameReader::new(),
        )
    }
}

#[wasm_bindgen(js_class = Simulation)]
impl WasmSim {
    /// Builds a simulation from a JSON config (missing fields take defaults) and the raw
    /// bytes of a trace file. `format` overrides detection.
    #[wasm_bindgen(constructor)]
    pub fn new(
        config_json: &str,
        trace: &[u8],
        trace_name: &str,
        format: Option<String>,
    ) -> Result<WasmSim, JsError> {
        let config = SimConfig::from_json(config_json).map_err(js_err)?;
        memory::check_fits(&config, 0).map_err(js_err)?;
        let sim = Sim::from_bytes(config, trace, format.as_deref(), trace_name).map_err(js_err)?;
        memory::check_fits(sim.config(), sim.total() as u64).map_err(js_err)?;
        Ok(WasmSim::of(sim))
    }

    /// Builds a simulation from a finished `TraceLoader` (taking its requests).
    #[wasm_bindgen(js_name = fromLoader)]
    pub fn from_loader(config_json: &str, loader: &mut WasmTraceLoader) -> Result<WasmSim, JsError> {
        let config = SimConfig::from_json(config_json).map_err(js_err)?;
        memory::check_fits(&config, u64::from(loader.requests())).map_err(js_err)?;
        let (trace, name) = loader.take_trace()?;
        let sim = Sim::new(config, &trace, &name).map_err(js_err)?;
        Ok(WasmSim::of(sim))
    }

    /// Serves up to `n` requests; returns how many were served.
    pub fn step(&mut self, n: u32) -> Result<u32, JsError> {
        self.0.step(n as usize).map(|d| d as u32).map_err(js_err)
    }

    /// Serves requests until one in which `what` happens (a stop id of `vocabJson()`), at
    /// most `max`; returns `{served, found}` (when found, the last request served is the one
    /// where it happened).
    #[wasm_bindgen(js_name = stepUntil, unchecked_return_type = "StepUntilResult")]
    pub fn step_until(&mut self, what: &str, max: u32) -> Result<Object, JsError> {
        let stop = StopAt::from_name(what).ok_or_else(|| {
            let ids: Vec<_> = StopAt::ALL.iter().map(|s| s.id()).collect();
            JsError::new(&format!("unknown stop '{what}' ({})", ids.join(", ")))
        })?;
        let (served, found) = self.0.step_until(stop, max as usize).map_err(js_err)?;
        let o = Object::new();
        Reflect::set(&o, &"served".into(), &JsValue::from(served as u32))
            .and_then(|_| Reflect::set(&o, &"found".into(), &JsValue::from(found)))
            .map_err(|_| JsError::new("could not build stepUntil result"))?;
        Ok(o)
    }

    /// Drops the recorded events without serialising them.
    #[wasm_bindgen(js_name = discardEvents)]
    pub fn discard_events(&mut self) {
        self.1.forget();
        self.0.sim_mut().take_events();
    }

    /// Static facts of this simulation as JSON: `{scheme, blocks, pages_per_block,
    /// page_bytes, logical_pages, ram_budget, spec, prefill, response_bound_us}` (`spec` as
    /// in `schemesJson()`, `prefill` what the pre-fill did, as the metrics' `prefill`,
    /// `response_bound_us` the scheme's worst-case response bound or null).
    #[wasm_bindgen(js_name = infoJson)]
    pub fn info_json(&self) -> Result<String, JsError> {
        let c = self.0.sim().config();
        let spec = ftl::spec(&c.scheme).map_err(js_err)?;
        let d = &c.device;
        let info = json!({
            "scheme": c.scheme, "blocks": d.blocks, "pages_per_block": d.pages_per_block,
            "page_bytes": d.page_bytes, "logical_pages": d.logical_pages(),
            "ram_budget": ftl::ram_budget(c), "spec": spec.to_json(),
            "prefill": self.0.sim().prefill_summary(),
            "response_bound_us": self.0.sim().ftl().response_bound_us(),
        });
        Ok(info.to_string())
    }

    /// Where the last request's time went (queueing, flash per purpose, RAM, LRU), as JSON.
    #[wasm_bindgen(js_name = lastRequestJson)]
    pub fn last_request_json(&self) -> Result<String, JsError> {
        serde_json::to_string(&self.0.sim().last_request()).map_err(js_err)
    }

    /// Response times (µs) of requests `from..to` served so far.
    pub fn responses(&self, from: u32, to: u32) -> Vec<f32> {
        self.0.responses(from as usize, to as usize).to_vec()
    }

    /// Serves up to `n` requests without taking checkpoints or recording response times:
    /// the engine alone, for benchmarks. Stepping back afterwards replays from earlier.
    #[wasm_bindgen(js_name = stepEngineOnly)]
    pub fn step_engine_only(&mut self, n: u32) -> Result<u32, JsError> {
        self.1.forget();
        self.0.step_untracked(n as usize).map(|d| d as u32).map_err(js_err)
    }

    /// Moves to the state after `cursor` requests (backwards: nearest checkpoint + replay).
    pub fn seek(&mut self, cursor: u32) -> Result<(), JsError> {
        // Seeking drops the events it records: the next change list cannot name blocks.
        self.1.forget();
        self.0.seek(cursor as usize).map_err(js_err)
    }

    /// Requests served so far.
    pub fn cursor(&self) -> u32 {
        self.0.sim().cursor() as u32
    }

    /// Requests in the trace.
    pub fn total(&self) -> u32 {
        self.0.sim().total() as u32
    }

    /// True at the end of the trace.
    pub fn done(&self) -> bool {
        self.0.sim().done()
    }

    /// The frame: `{pageStates: Uint8Array, blockRoles: Uint8Array, validCounts: Uint32Array,
    /// eraseCounts: Uint32Array, counters: Float64Array}` (copies; see `counterNames`). It
    /// is the baseline of the next `frameChanges`.
    #[wasm_bindgen(unchecked_return_type = "WasmFrame")]
    pub fn frame(&mut self) -> Result<Object, JsError> {
        let f = self.1.whole(self.0.sim());
        let o = Object::new();
        let set = |k: &str, v: &JsValue| Reflect::set(&o, &JsValue::from_str(k), v).map(|_| ());
        set("pageStates", &Uint8Array::from(&f.page_states[..]))
            .and_then(|_| set("blockRoles", &Uint8Array::from(&f.block_roles[..])))
            .and_then(|_| set("validCounts", &Uint32Array::from(&f.valid_counts[..])))
            .and_then(|_| set("eraseCounts", &Uint32Array::from(&f.erase_counts[..])))
            .and_then(|_| set("counters", &Float64Array::from(&f.counters[..])))
            .map_err(|_| JsError::new("could not build frame object"))?;
        Ok(o)
    }

    /// What changed since the last `frame` or `frameChanges`: the blocks in `touched` (those
    /// the events taken since then name) and every block whose role changed; every block
    /// when the state moved without its events taken (a seek, `discardEvents`). Returns the
    /// packed length in bytes, `n` × (13 + pages per block) for `n` blocks; `copyFrameChanges`
    /// copies them out: `n` block numbers, valid counts and erase counts (u32 little-endian
    /// each), roles (u8), then the blocks' page states (u8). Reading only these keeps a
    /// step's frame the size of the step, not of the device.
    #[wasm_bindgen(js_name = frameChanges)]
    pub fn frame_changes(&mut self, touched: &[u32]) -> Result<u32, JsError> {
        let bytes = self.1.changes(self.0.sim(), touched).map_err(|e| JsError::new(&e))?;
        Ok(bytes.len() as u32)
    }

    /// Copies the last `frameChanges` into `out` (exactly its length), so the caller can
    /// reuse one buffer for every step.
    #[wasm_bindgen(js_name = copyFrameChanges)]
    pub fn copy_frame_changes(&self, out: &mut [u8]) -> Result<(), JsError> {
        let packed = self.1.packed();
        if out.len() != packed.len() {
            return Err(JsError::new(&format!(
                "copyFrameChanges: the buffer holds {} bytes, the change list {}",
                out.len(),
                packed.len()
            )));
        }
        out.copy_from_slice(packed);
        Ok(())
    }

    /// Writes the frame's counters now (see `counterNames`) into `out`, a reused buffer.
    #[wasm_bindgen(js_name = countersInto)]
    pub fn counters_into(&self, out: &mut [f64]) -> Result<(), JsError> {
        let c = Frame::counters(self.0.sim());
        if out.len() != c.len() {
            return Err(JsError::new(&format!(
                "countersInto: the buffer holds {} counters, not {}",
                out.len(),
                c.len()
            )));
        }
        out.copy_from_slice(&c);
        Ok(())
    }

    /// Spare-area tags of every page, flattened as `[key, version, kind]` per page (kind 0
    /// none, 1 data, 2 translation): what the views label pages with before any event has
    /// told them (pages written while pre-filling).
    #[wasm_bindgen(js_name = pageTags)]
    pub fn page_tags(&self) -> Vec<u32> {
        let flash = self.0.sim().device().flash();
        let pages = flash.blocks() * flash.pages_per_block();
        let mut out = Vec::with_capacity(pages as usize * 3);
        for ppn in 0..pages {
            let t = flash.tag(ppn);
            out.extend([t.key, t.version, t.kind as u32]);
        }
        out
    }

    /// The metrics object (DESIGN §4) as JSON.
    #[wasm_bindgen(js_name = metricsJson)]
    pub fn metrics_json(&self) -> Result<String, JsError> {
        serde_json::to_string(&self.0.sim().metrics()).map_err(js_err)
    }

    /// Events recorded since the last call as fixed-width binary records (the hot channel):
    /// `event_words` (8) `u32` words per event, layout in `core-wasm/engine/src/events.rs`,
    /// with `cost` records (RAM and LRU time charged between events) interleaved.
    #[wasm_bindgen(js_name = takeEvents)]
    pub fn take_events(&mut self) -> Vec<u32> {
        let (events, costs) = self.0.sim_mut().take_events_costed();
        let mut out = Vec::new();
        ftl_engine::events::record::encode_costed(&events, &costs, &mut out);
        out
    }

    /// Events recorded since the last call, as a JSON array (empty unless the config set
    /// `record_events`).
    #[wasm_bindgen(js_name = takeEventsJson)]
    pub fn take_events_json(&mut self) -> Result<String, JsError> {
        self.1.forget();
        serde_json::to_string(&self.0.sim_mut().take_events()).map_err(js_err)
    }

    /// The scheme's RAM structures as JSON (the facade contract's `Inspection`), answering a
    /// view's question: `queryJson` is an `InspectQuery` (`{}` asks the default: the first 64
    /// entries of each plus those the last request touched). On demand only; never changes
    /// the state.
    #[wasm_bindgen(js_name = inspectJson)]
    pub fn inspect_json(&self, query_json: &str) -> Result<String, JsError> {
        let query = ftl_engine::inspect::InspectQuery::from_json(query_json).map_err(|e| JsError::new(&e))?;
        serde_json::to_string(&self.0.sim().inspect_query(query)).map_err(js_err)
    }

    /// An over-time reading of a paper experiment now (`paths`: a JSON array of its
    /// `over_time` metric paths), as `{requests_done, values}`: the CLI's reading.
    #[wasm_bindgen(js_name = readingJson)]
    pub fn reading_json(&self, paths: &str) -> Result<String, JsError> {
        let paths: Vec<String> =
            serde_json::from_str(paths).map_err(|e| js_err(format!("reading paths JSON: {e}")))?;
        let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
        serde_json::to_string(&ftl_engine::experiments::reading(self.0.sim(), &paths)).map_err(js_err)
    }

    /// Teaching mode: the facts of a lesson stop (`{"at": [r, k]}`) or the engine's answer to
    /// a question asked there (`{"at": [r, 0], "question": {"kind": …}}`), as JSON; computed
    /// on copies, so the simulation does not move.
    #[wasm_bindgen(js_name = lessonJson)]
    pub fn lesson_json(&self, query: &str) -> Result<String, JsError> {
        ftl_engine::lesson::query(&self.0, query).map_err(js_err)
    }

    /// The engine state hash as 16 hex digits.
    #[wasm_bindgen(js_name = stateHash)]
    pub fn state_hash(&self) -> String {
        format!("{:016x}", self.0.sim().state_hash())
    }
}
