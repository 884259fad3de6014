//! The configuration described as data: its JSON Schema (for forms and validation messages)
//! and its dotted keys (for `--set` help and for naming the field an error is about).
//! Generated from the config types, so a new field appears everywhere with no edit here.

use serde_json::Value;

use crate::config::SimConfig;

/// The JSON Schema (draft 2020-12) of [`SimConfig`] without the scheme options (each
/// scheme's spec describes its own): doc comments as descriptions, defaults, and
/// `x-units` where a field has units.
pub fn config_schema() -> Value {
    let mut schema = schemars::schema_for!(SimConfig).to_value();
    if let Some(props) = schema.get_mut("properties").and_then(Value::as_object_mut) {
        props.remove("options");
    }
    if let Some(Value::Object(defaults)) = schema.get_mut("default") {
        defaults.remove("options");
    }
    schema
}

/// Every leaf of `value` as `(dotted key, value)`, in the value's key order.
pub fn leaf_keys(value: &Value) -> Vec<(String, Value)> {
    fn walk(prefix: &str, v: &Value, out: &mut Vec<(String, Value)>) {
        match v {
            Value::Object(map) if !map.is_empty() => {
                for (k, child) in map {
                    let key = if prefix.is_empty() { k.clone() } else { format!("{prefix}.{k}") };
                    walk(&key, child, out);
                }
            }
            _ => out.push((prefix.to_string(), v.clone())),
        }
    }
    let mut out = Vec::new();
    walk("", value, &mut out);
    out
}

/// `config` as JSON with every section present, so [`set_path`] finds every key: the
/// metadata placement section is left out of a serialised config while it is the default.
pub fn full_json(config: &SimConfig) -> Value {
    let mut value = serde_json::to_value(config).unwrap_or(Value::Null);
    if value.is_object() && value.get("metadata").is_none() {
        value["metadata"] = serde_json::to_value(&config.metadata).unwrap_or(Value::Null);
    }
    value
}

/// Sets the field at dotted `key` of a config's JSON form to `value` (the `--set KEY=VALUE`
/// of the CLI and a sweep's parameter). The key must name an existing leaf: an unknown key
/// or a whole section is refused with a message naming it. Scheme options are found under
/// `options.` only once the scheme's defaults are in `config["options"]`.
pub fn set_path(config: &mut Value, key: &str, value: Value) -> std::result::Result<(), String> {
    let mut slot = &mut *config;
    for part in key.split('.') {
        slot = slot.get_mut(part).ok_or_else(|| {
            let first = key.split('.').next().unwrap_or_default();
            match crate::ftl::SCHEMES.iter().find(|s| s.info.id == first) {
                Some(_) => format!(
                    "unknown config key '{key}': a scheme's own options are set as options.KEY (e.g. options.{})",
                    &key[(first.len() + 1).min(key.len())..]
                ),
                None => format!("unknown config key '{key}'"),
            }
        })?;
    }
    // A section is a key whose default is an object; a field that holds an object now but
    // not by default (`timing` as `{"periodic": ns}`, e.g. from a preset) takes any value.
    let default = full_json(&SimConfig::default());
    let by_default = key.split('.').try_fold(&default, |v, part| v.get(part));
    if by_default.map_or(slot.is_object(), Value::is_object) {
        return Err(format!("config key '{key}' is a section; set one of its fields"));
    }
    *slot = value;
    Ok(())
}

/// The configuration key a message is about: the longest dotted key of the default config
/// (or `options.` key of a scheme) that the message names, if any.
pub fn field_named_in(message: &str) -> Option<String> {
    let config = full_json(&SimConfig::default());
    let mut keys: Vec<String> = leaf_keys(&config).into_iter().map(|(k, _)| k).collect();
    for spec in crate::ftl::SCHEMES {
        keys.extend(leaf_keys(&spec.default_options()).into_iter().map(|(k, _)| format!("options.{k}")));
    }
    let named = |k: &String| {
        let last = k.rsplit('.').next().unwrap_or(k);
        message.contains(k.as_str()) || message.contains(&format!("`{last}`"))
    };
    keys.into_iter().filter(|k| named(k)).max_by_key(|k| (message.contains(k.as_str()), k.len()))
}

/// Why a configuration is refused: the dotted field when known, and the engine's message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// Dotted path of the field (`device.blocks`, `options.batch_update`).
    pub field: Option<String>,
    /// The message.
    pub message: String,
}

/// Checks a JSON configuration as building a simulation would (parse, device and GC limits,
/// the scheme's options), without building one.
pub fn validate_json(text: &str) -> std::result::Result<SimConfig, Refusal> {
    let de = &mut serde_json::Deserializer::from_str(text);
    let mut config: SimConfig = serde_path_to_error::deserialize(de).map_err(|e| {
        let path = e.path().to_string();
        let field = (path != "." && !path.is_empty()).then_some(path);
        Refusal { message: format!("config JSON: {}", e.inner()), field }
    })?;
    let refuse = |e: crate::EngineError| {
        let message = e.to_string();
        Refusal { field: field_named_in(&message), message }
    };
    config.validate().map_err(refuse)?;
    crate::ftl::resolve_options(&mut config).map_err(|e| {
        let mut r = refuse(e);
        if r.field.is_none() || r.message.contains("unknown field") {
            r.field = Some("options".into());
        }
        r
    })?;
    Ok(config)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schema_has_descriptions_defaults_and_units_but_no_scheme_options() {
        let s = config_schema();
        let text = s.to_string();
        assert!(s["properties"].get("options").is_none());
        assert!(text.contains("Physical blocks in the device"), "doc comments become descriptions");
        assert!(text.contains("\"x-units\":\"ns\""), "{text}");
        assert_eq!(s["properties"]["scheme"]["default"], "page");
    }

    #[test]
    fn errors_name_their_field() {
        let e = SimConfig::from_json(r#"{"device": {"blocks": 2}}"#).unwrap().validate().unwrap_err();
        assert_eq!(field_named_in(&e.to_string()).as_deref(), Some("device.blocks"));
        let r = validate_json(r#"{"device": {"latency": {"erase_ns": "x"}}}"#).unwrap_err();
        assert_eq!(r.field.as_deref(), Some("device.latency.erase_ns"), "{r:?}");
        let r = validate_json(r#"{"device": {"blokcs": 16}}"#).unwrap_err();
        assert_eq!(r.field.as_deref(), Some("device.blokcs"), "{r:?}");
        let r = validate_json(r#"{"device": {"blocks": 3}}"#).unwrap_err();
        assert_eq!(r.field.as_deref(), Some("device.blocks"), "{r:?}");
        let r = validate_json(r#"{"scheme": "dftl", "options": {"batch": true}}"#).unwrap_err();
        assert!(r.message.contains("batch") && r.message.contains("dftl"), "{r:?}");
        assert_eq!(r.field.as_deref(), Some("options"));
        let c = validate_json(r#"{"scheme": "dftl"}"#).unwrap();
        assert_eq!(c.options["batch_update"], false, "defaults filled in");
        assert!(leaf_keys(&serde_json::json!({"a": {"b": 1}, "c": {}})).len() == 2);
    }
}
