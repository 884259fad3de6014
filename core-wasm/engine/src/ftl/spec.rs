//! A scheme's self-description: everything the rest of the engine, the CLI and the app need
//! to know about a scheme, kept in the scheme's own folder. The registry
//! ([`super::SCHEMES`]) is a list of these.

use schemars::{JsonSchema, Schema};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

use super::Ftl;
pub use crate::config::OpenBlocks;
use crate::config::{DeviceConfig, GcConfig, SimConfig};
use crate::error::{EngineError, Result};
use crate::events::CacheLevel;
use crate::vocab::{cache_level_id, StopAt};

/// A scheme's identity, for listings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct SchemeInfo {
    /// Stable lower-case id.
    pub id: &'static str,
    /// Display name.
    pub name: &'static str,
    /// Family: page, block, hybrid, demand, realtime.
    pub family: &'static str,
    /// Source document and section it follows.
    pub source: &'static str,
}

/// What a scheme is built from: the shared parts of the configuration it may read. Its own
/// options come separately, already parsed.
#[derive(Debug, Clone, Copy)]
pub struct BuildCtx<'a> {
    /// The device.
    pub device: &'a DeviceConfig,
    /// GC reserve and victim policy.
    pub gc: &'a GcConfig,
    /// The FTL's RAM budget in bytes (0 resolved to the default).
    pub ram_budget: u64,
    /// Seed for schemes that make random choices, so runs stay reproducible.
    pub seed: u64,
}

impl<'a> BuildCtx<'a> {
    /// The context for `config`.
    pub fn of(config: &'a SimConfig) -> Self {
        BuildCtx {
            device: &config.device,
            gc: &config.gc,
            ram_budget: super::ram_budget(config),
            seed: config.seed,
        }
    }
}

/// A scheme's options type, erased: its JSON schema and a validator that fills defaults.
#[derive(Debug, Clone, Copy)]
pub struct OptionsSpec {
    /// The options' JSON schema (doc comments become descriptions).
    pub schema: fn() -> Schema,
    /// Parses options (unknown keys refused, missing ones defaulted) and returns them whole.
    pub resolve: fn(scheme: &str, options: &Value) -> Result<Value>,
}

impl OptionsSpec {
    /// The spec of options type `T`.
    pub const fn of<T: JsonSchema + Serialize + DeserializeOwned>() -> Self {
        OptionsSpec { schema: schema_of::<T>, resolve: resolve::<T> }
    }
}

fn schema_of<T: JsonSchema>() -> Schema {
    schemars::schema_for!(T)
}

/// Parses a scheme's options (`null` counts as `{}`), naming the scheme in errors.
pub fn parse_options<T: DeserializeOwned>(scheme: &str, options: &Value) -> Result<T> {
    let v = if options.is_null() { Value::Object(Map::new()) } else { options.clone() };
    serde_json::from_value(v).map_err(|e| EngineError::Config(format!("options of scheme '{scheme}': {e}")))
}

/// Refuses a percentage option above 100 (the schema says so too, but a config may not have
/// been checked against it), naming the scheme and the option.
pub fn check_percent(scheme: &str, key: &str, value: u8) -> Result<()> {
    if value > 100 {
        return Err(EngineError::Config(format!(
            "options.{key} of scheme '{scheme}' is {value}; it must be at most 100"
        )));
    }
    Ok(())
}

fn resolve<T: Serialize + DeserializeOwned>(scheme: &str, options: &Value) -> Result<Value> {
    let parsed: T = parse_options(scheme, options)?;
    serde_json::to_value(parsed)
        .map_err(|e| EngineError::Config(format!("options of scheme '{scheme}': {e}")))
}

/// A scheme without options.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NoOptions {}

/// Everything about one scheme.
#[derive(Debug, Clone, Copy)]
pub struct SchemeSpec {
    /// Identity.
    pub info: SchemeInfo,
    /// Markdown notes: how it works, sources, our choices, what to watch (`notes.md`).
    pub notes: &'static str,
    /// The stops this scheme can produce.
    pub stops: &'static [StopAt],
    /// What the scheme calls its RAM structures, by cache level (e.g. "CMT").
    pub caches: &'static [(CacheLevel, &'static str)],
    /// Its options type.
    pub options: OptionsSpec,
    /// The open blocks it keeps, for the start-up check ([`OpenBlocks::ONE_PER_UNIT`] when
    /// it states nothing else).
    pub open_blocks: OpenBlocks,
    /// Named option sets worth comparing (the integrity tests sweep every one).
    pub variants: fn() -> Vec<(&'static str, Value)>,
    /// Builds the scheme over an erased device from the context and its resolved options.
    pub build: fn(&BuildCtx, &Value) -> Result<Box<dyn Ftl>>,
}

/// The values an option may take, when its schema lists them: an `enum`, or (for an enum
/// whose variants have docs, which schemars writes as a `$ref` to a `oneOf` of `const`s)
/// the consts of the referenced definition.
fn choices_of(property: &Value, schema: &Value) -> Option<Value> {
    let target = match property.get("$ref").and_then(Value::as_str) {
        Some(r) => schema.pointer(r.strip_prefix('#')?)?,
        None => property,
    };
    if let Some(e) = target.get("enum") {
        return Some(e.clone());
    }
    let consts: Option<Vec<Value>> =
        target.get("oneOf")?.as_array()?.iter().map(|v| v.get("const").cloned()).collect();
    consts.map(Value::Array)
}

impl SchemeSpec {
    /// The default options, whole.
    pub fn default_options(&self) -> Value {
        (self.options.resolve)(self.info.id, &Value::Null).unwrap_or(Value::Null)
    }

    /// One row per option: key, doc, unit and choices, read from the options' schema.
    pub fn option_docs(&self) -> Vec<Value> {
        let schema = (self.options.schema)().to_value();
        let Some(props) = schema.get("properties").and_then(Value::as_object) else { return vec![] };
        props
            .iter()
            .map(|(key, p)| {
                let mut row = json!({"key": key, "doc": p.get("description").cloned().unwrap_or(json!(""))});
                if let Some(u) = p.get("x-units") {
                    row["unit"] = u.clone();
                }
                if let Some(choices) = choices_of(p, &schema) {
                    row["choices"] = choices;
                }
                row
            })
            .collect()
    }

    /// Whether the scheme caches mapping information in RAM, so it reports a `mapping` hit
    /// ratio: a static fact read from its cache vocabulary (any level but data pages).
    pub fn has_mapping_cache(&self) -> bool {
        self.caches.iter().any(|&(level, _)| level != CacheLevel::DataPage)
    }

    /// Whether the scheme buffers data pages in RAM, so it reports a `buffer` hit ratio.
    pub fn has_data_buffer(&self) -> bool {
        self.caches.iter().any(|&(level, _)| level == CacheLevel::DataPage)
    }

    /// The whole spec as the facade and `ftl schemes --json` export it.
    pub fn to_json(&self) -> Value {
        let i = &self.info;
        json!({
            "id": i.id, "name": i.name, "family": i.family, "source": i.source,
            "notes": self.notes,
            "stops": self.stops.iter().map(|s| s.id()).collect::<Vec<_>>(),
            "caches": self.caches.iter().map(|&(l, n)| json!({"level": cache_level_id(l), "name": n})).collect::<Vec<_>>(),
            "default_options": self.default_options(),
            "open_blocks": self.open_blocks,
            "option_docs": self.option_docs(),
            "variants": (self.variants)().into_iter().map(|(n, o)| json!({"name": n, "options": o})).collect::<Vec<_>>(),
        })
    }
}

#[cfg(test)]
mod tests {
    /// 100 passes; 101 is refused with the scheme, the option and the value named.
    #[test]
    fn check_percent_refuses_above_100_naming_what_and_where() {
        assert!(super::check_percent("cdftl", "level_two_percent", 100).is_ok());
        let e = super::check_percent("cdftl", "level_two_percent", 101).unwrap_err().to_string();
        assert!(e.contains("options.level_two_percent of scheme 'cdftl' is 101"), "{e}");
    }

    /// An option whose enum variants have docs (page's `gc`) lists its choices too, so forms
    /// offer a choice rather than free text.
    #[test]
    fn option_docs_list_the_choices_of_a_documented_enum() {
        let page = crate::ftl::spec("page").unwrap();
        let gc = page.option_docs().into_iter().find(|r| r["key"] == "gc").unwrap();
        assert_eq!(gc["choices"], serde_json::json!(["one-victim", "until-above-reserve"]));
        for spec in crate::ftl::SCHEMES {
            for row in spec.option_docs() {
                if let Some(c) = row.get("choices") {
                    assert!(
                        c.as_array().is_some_and(|a| a.iter().all(|v| v.is_string())),
                        "{} {row}",
                        spec.info.id
                    );
                }
            }
        }
    }
}
