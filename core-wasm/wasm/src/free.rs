//! The facade's free functions: the cold-path listings and checks, as JSON strings.

use ftl_engine::{ftl, presets, SimConfig, COUNTER_NAMES};
use serde_json::json;
use wasm_bindgen::prelude::*;

/// Names of the frame's `counters` entries, in order.
#[wasm_bindgen(js_name = counterNames)]
pub fn counter_names() -> Vec<String> {
    COUNTER_NAMES.iter().map(|s| s.to_string()).collect()
}

/// The schemes the engine implements, each with its whole spec (notes, stops, caches,
/// options and variants), as a JSON array.
#[wasm_bindgen(js_name = schemesJson)]
pub fn schemes_json() -> String {
    let all: Vec<serde_json::Value> = ftl::SCHEMES.iter().map(|s| s.to_json()).collect();
    serde_json::to_string(&all).unwrap_or_else(|_| "[]".into())
}

/// The trace formats the engine parses, as a JSON array of names.
#[wasm_bindgen(js_name = formatsJson)]
pub fn formats_json() -> String {
    serde_json::to_string(ftl_engine::trace::FORMATS).unwrap_or_else(|_| "[]".into())
}

/// The device presets of the source documents, as JSON.
#[wasm_bindgen(js_name = presetsJson)]
pub fn presets_json() -> String {
    serde_json::to_string(&presets::presets()).unwrap_or_else(|_| "[]".into())
}

/// The closed vocabularies (stops, block roles, page kinds and states, purposes, cache
/// levels, event kinds) as one JSON object.
#[wasm_bindgen(js_name = vocabJson)]
pub fn vocab_json() -> String {
    ftl_engine::vocab::vocab_json().to_string()
}

/// The JSON Schema of the configuration (without the scheme options: see `schemesJson()`).
#[wasm_bindgen(js_name = configSchemaJson)]
pub fn config_schema_json() -> String {
    ftl_engine::schema::config_schema().to_string()
}

/// Checks a JSON configuration as building a simulation would: `{"ok":true}` or
/// `{"ok":false,"field":"device.blocks","message":"…"}` (`field` when known).
#[wasm_bindgen(js_name = validateConfigJson)]
pub fn validate_config_json(config: &str) -> String {
    // Memory is checked for the shortest trace; building checks again with the real one.
    let checked = ftl_engine::schema::validate_json(config).and_then(|c| {
        crate::memory::check_fits(&c, 0)
            .map_err(|message| ftl_engine::schema::Refusal { field: Some("device.blocks".into()), message })
    });
    match checked {
        Ok(()) => json!({"ok": true}),
        Err(r) => match r.field {
            Some(field) => json!({"ok": false, "field": field, "message": r.message}),
            None => json!({"ok": false, "message": r.message}),
        },
    }
    .to_string()
}

/// The default configuration, as JSON.
#[wasm_bindgen(js_name = defaultConfigJson)]
pub fn default_config_json() -> String {
    // Every section, the default metadata placement included, so the settings show it.
    ftl_engine::schema::full_json(&SimConfig::default()).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    fn parse(text: String) -> Value {
        serde_json::from_str(&text).unwrap()
    }

    #[test]
    fn validate_names_the_field_or_says_ok() {
        assert_eq!(parse(validate_config_json(r#"{"scheme":"dftl"}"#)), json!({"ok": true}));
        let r = parse(validate_config_json(r#"{"device":{"blocks":2}}"#));
        assert_eq!((r["ok"].clone(), r["field"].clone()), (json!(false), json!("device.blocks")));
        assert!(r["message"].as_str().unwrap().contains("at least 4"), "{r}");
        let r = parse(validate_config_json(r#"{"scheme":"nope"}"#));
        assert!(r["message"].as_str().unwrap().contains("unknown scheme"), "{r}");
    }

    #[test]
    fn specs_and_vocab_carry_what_the_app_renders() {
        let schemes = parse(schemes_json());
        for s in schemes.as_array().unwrap() {
            assert!(!s["notes"].as_str().unwrap().is_empty(), "{}: notes", s["id"]);
            assert!(s["stops"].as_array().unwrap().contains(&json!("gc")));
        }
        let dftl = schemes.as_array().unwrap().iter().find(|s| s["id"] == "dftl").unwrap();
        assert_eq!(dftl["caches"], json!([{"level": "entry", "name": "CMT"}]));
        // DFTL paper default: no batch write-back on eviction (TPFTL's contribution); the
        // CMT is plain LRU unless the segmented option is chosen.
        assert_eq!(
            dftl["default_options"],
            json!({"batch_update": false, "cmt": "lru", "protected_percent": 50})
        );
        assert_eq!(dftl["option_docs"][0]["key"], "batch_update");
        assert_eq!(dftl["variants"].as_array().unwrap().len(), 3);
        let vocab = parse(vocab_json());
        // Found by id: stops are listed in the timeline's order, which grows.
        let miss = vocab["stops"].as_array().unwrap().iter().find(|s| s["id"] == "miss").unwrap();
        assert_eq!(miss, &json!({"id": "miss", "label": "Next miss", "key": "m", "doc": miss["doc"]}));
        assert_eq!(vocab["block_roles"][7]["id"], "active");
        assert_eq!(vocab["block_roles"][8]["id"], "primary");
        assert_eq!(parse(config_schema_json())["$schema"], "https://json-schema.org/draft/2020-12/schema");
    }
}

/// The upload preview of a file's start (`ftl_engine::trace::preview`): format (detected when
/// `format` is `None`), each field's meaning, units in force and the first `max_lines` lines
/// as the parser reads them. `complete` says `sample` is the whole file (else its cut last
/// line is left out); `options_json` holds `ParseOptions` fields.
#[wasm_bindgen(js_name = previewTraceJson)]
pub fn preview_trace_json(
    sample: &[u8],
    complete: bool,
    format: Option<String>,
    options_json: &str,
    max_lines: u32,
) -> Result<String, JsError> {
    let options: ftl_engine::trace::ParseOptions =
        serde_json::from_str(options_json).map_err(|e| JsError::new(&format!("trace options: {e}")))?;
    let p = ftl_engine::trace::preview::preview(
        sample,
        complete,
        format.as_deref(),
        &options,
        max_lines as usize,
    );
    serde_json::to_string(&p).map_err(|e| JsError::new(&e.to_string()))
}
