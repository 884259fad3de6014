//! Parameter sweeps: one field of the configuration over a list of values, for
//! several schemes, expanded into the list of configurations to run. The CLI (`ftl sweep`)
//! and the app (through the wasm facade) both expand here, so a sweep means the same runs in
//! both.
//!
//! The parameter is any dotted configuration key (`ram.bytes`, `device.utilization`,
//! `options.level_two_percent`, `device.latency.erase_ns`, ...) or one of the short names of
//! [`PARAMS`]. A scheme option applies only to the schemes that have it: sweeping
//! `options.level_two_percent` over `dftl` is refused, naming both.
//!
//! Values are written as text (`8MiB`, `0.4`, `"cost-benefit"`): a key ending in `bytes`
//! takes byte counts with binary suffixes (K, M, G, T, with or without `iB`/`B`); anything
//! else is JSON, or a bare string when it is not JSON (so `cost-benefit` needs no quotes).

use serde::Serialize;
use serde_json::Value;

use crate::config::SimConfig;
use crate::error::{EngineError, Result};

/// A parameter with a short name, as offered in the app's list.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct NamedParam {
    /// Short name (`--param ram_bytes`).
    pub name: &'static str,
    /// The configuration key it sets.
    pub key: &'static str,
    /// What it is, for menus and axis titles.
    pub label: &'static str,
    /// Unit of the values (for axis titles).
    pub unit: &'static str,
    /// A value list to start from.
    pub example: &'static str,
}

/// The usual sweep axes of the sources: RAM size (TreeFTL Figs 4–5), device utilization
/// (Shin Fig 3), pages per block (thesis ch. 4), over-provisioning, and cache splits.
pub const PARAMS: &[NamedParam] = &[
    NamedParam {
        name: "ram_bytes",
        key: "ram.bytes",
        label: "RAM budget",
        unit: "bytes",
        example: "8KiB,16KiB,32KiB,64KiB",
    },
    NamedParam {
        name: "utilization",
        key: "device.utilization",
        label: "Device utilization (pre-filled share of the logical space)",
        unit: "fraction",
        example: "0.4,0.5,0.6,0.7,0.8,0.9",
    },
    NamedParam {
        name: "pages_per_block",
        key: "device.pages_per_block",
        label: "Pages per block",
        unit: "pages",
        example: "16,32,64",
    },
    NamedParam {
        name: "over_provisioning",
        key: "device.over_provisioning",
        label: "Over-provisioning",
        unit: "fraction",
        example: "0.07,0.15,0.25",
    },
    NamedParam {
        name: "blocks",
        key: "device.blocks",
        label: "Physical blocks",
        unit: "blocks",
        example: "64,128,256",
    },
    NamedParam {
        name: "level_two_percent",
        key: "options.level_two_percent",
        label: "CDFTL cache split: share of RAM for cached translation pages",
        unit: "%",
        example: "25,50,75",
    },
    NamedParam {
        name: "ghost_ratio",
        key: "options.ghost_ratio",
        label: "HCFTL Ghost-CMT share of RAM",
        unit: "fraction",
        example: "0.02,0.06,0.1",
    },
];

/// The configuration key a parameter name stands for: a short name of [`PARAMS`] or a
/// dotted key that exists in the default configuration or in some scheme's options.
pub fn param_key(name: &str) -> Result<String> {
    let name = name.trim();
    if let Some(p) = PARAMS.iter().find(|p| p.name == name) {
        return Ok(p.key.to_string());
    }
    let bad = || {
        let names: Vec<_> = PARAMS.iter().map(|p| p.name).collect();
        EngineError::Config(format!(
            "sweep parameter '{name}' is neither a short name ({}) nor a configuration key (see ftl run --help)",
            names.join(", ")
        ))
    };
    let known = match name.strip_prefix("options.") {
        Some(option) => crate::ftl::SCHEMES.iter().any(|s| s.default_options().get(option).is_some()),
        None => {
            let config = crate::schema::full_json(&SimConfig::default());
            crate::schema::leaf_keys(&config)
                .iter()
                .any(|(k, _)| k == name && k != "options" && k != "scheme")
        }
    };
    if known {
        Ok(name.to_string())
    } else {
        Err(bad())
    }
}

/// `4096`, `4K`, `64MiB`, `1g` as bytes (binary multiples); None when it is not one.
pub fn parse_bytes(text: &str) -> Option<u64> {
    let t = text.trim();
    let split = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (digits, suffix) = t.split_at(split);
    let shift = match suffix.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 0,
        "k" | "kb" | "kib" => 10,
        "m" | "mb" | "mib" => 20,
        "g" | "gb" | "gib" => 30,
        "t" | "tb" | "tib" => 40,
        _ => return None,
    };
    digits.parse::<u64>().ok().and_then(|v| v.checked_mul(1 << shift))
}

/// A byte count in the largest binary unit that divides it (`8 MiB`, `1536 KiB`, `100 B`).
pub fn format_bytes(v: u64) -> String {
    for (shift, unit) in [(40, "TiB"), (30, "GiB"), (20, "MiB"), (10, "KiB")] {
        if v >= 1 << shift && v.is_multiple_of(1 << shift) {
            return format!("{} {unit}", v >> shift);
        }
    }
    format!("{v} B")
}

fn is_bytes_key(key: &str) -> bool {
    key.rsplit('.').next().is_some_and(|last| last.ends_with("bytes"))
}

/// Parses a comma-separated value list for `key` (see the module docs). Empty items are
/// refused, naming their position.
pub fn parse_values(key: &str, text: &str) -> Result<Vec<Value>> {
    let items: Vec<&str> = split_values(text);
    if items.iter().all(|s| s.trim().is_empty()) {
        return Err(EngineError::Config(format!("sweep of {key}: no values given")));
    }
    items
        .iter()
        .enumerate()
        .map(|(i, raw)| {
            let t = raw.trim();
            if t.is_empty() {
                return Err(EngineError::Config(format!("sweep of {key}: value {} is empty", i + 1)));
            }
            if is_bytes_key(key) {
                return parse_bytes(t).map(Value::from).ok_or_else(|| {
                    EngineError::Config(format!(
                        "sweep of {key}: value '{t}' is not a byte count (like 4096, 64KiB or 8M)"
                    ))
                });
            }
            Ok(serde_json::from_str(t).unwrap_or_else(|_| Value::String(t.to_string())))
        })
        .collect()
}

/// Splits on commas outside JSON brackets and quotes (so `{"periodic":5},{"periodic":9}`
/// is two values).
fn split_values(text: &str) -> Vec<&str> {
    let (mut out, mut depth, mut quoted, mut start) = (Vec::new(), 0i32, false, 0);
    let mut prev = ' ';
    for (i, c) in text.char_indices() {
        match c {
            '"' if prev != '\\' => quoted = !quoted,
            '{' | '[' if !quoted => depth += 1,
            '}' | ']' if !quoted => depth -= 1,
            ',' if !quoted && depth == 0 => {
                out.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
        prev = c;
    }
    out.push(&text[start..]);
    out
}

/// A value as shown on an axis and in tables: byte counts in binary units, strings bare.
pub fn value_label(key: &str, value: &Value) -> String {
    match value {
        Value::Number(n) if is_bytes_key(key) => n.as_u64().map_or_else(|| n.to_string(), format_bytes),
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// One run of a sweep: a scheme at one value of the parameter.
#[derive(Debug, Clone, Serialize)]
pub struct Point {
    /// Index of the value in the sweep's list (points of one value share it).
    pub index: usize,
    /// Scheme id.
    pub scheme: String,
    /// The compared series it belongs to: the scheme id, or a paper experiment's series id
    /// (a scheme with stated options, `tpftl-baseline`).
    pub series: String,
    /// The parameter's configuration key.
    pub key: String,
    /// The value, as set in the configuration.
    pub value: Value,
    /// The value as shown ([`value_label`]).
    pub label: String,
    /// The whole configuration of the run (scheme options resolved). A point whose value
    /// the configuration checks refuse keeps it unresolved: building its simulation fails
    /// with the reason, as that point's error.
    pub config: SimConfig,
}

/// Expands a sweep: for each value (outer) and each scheme (inner), `base` with the scheme
/// and the value set, checked as building a simulation would check it. `base` is a config's
/// JSON form; its `options` go only to its own scheme, the other schemes take their defaults
/// (as the comparison lab does). A value that does not fit the key (a word for a count, an
/// option the scheme lacks) refuses the whole sweep, naming the value and the scheme; a value
/// the configuration checks refuse for one point (too few blocks for a scheme, a share
/// above 1) leaves that point to fail when it is built, so the other points still run.
pub fn expand(base: &Value, param: &str, values: &[Value], schemes: &[String]) -> Result<Vec<Point>> {
    let key = param_key(param)?;
    if schemes.is_empty() {
        return Err(EngineError::Config("sweep: no schemes given".into()));
    }
    if values.is_empty() {
        return Err(EngineError::Config(format!("sweep of {key}: no values given")));
    }
    // The base with every default filled in, so each key the parameter names is present.
    let full: SimConfig = serde_json::from_value(base.clone())
        .map_err(|e| EngineError::Config(format!("sweep: base configuration: {e}")))?;
    let base = &serde_json::to_value(full).map_err(|e| EngineError::Config(e.to_string()))?;
    let base_scheme = base.get("scheme").and_then(Value::as_str).unwrap_or("page");
    let mut points = Vec::with_capacity(values.len() * schemes.len());
    for (index, value) in values.iter().enumerate() {
        let label = value_label(&key, value);
        for scheme in schemes {
            let spec = crate::ftl::spec(scheme)?;
            let refuse = |m: String| EngineError::Config(format!("sweep {key} = {label} for {scheme}: {m}"));
            let mut c = base.clone();
            let own = base_scheme == scheme
                && base.get("options").is_some_and(|o| o.as_object().is_some_and(|m| !m.is_empty()));
            let mut options = spec.default_options();
            if own {
                if let (Some(into), Some(from)) = (options.as_object_mut(), base["options"].as_object()) {
                    into.extend(from.clone());
                }
            }
            c["scheme"] = Value::String(scheme.clone());
            c["options"] = options;
            if let Some(option) = key.strip_prefix("options.") {
                if c["options"].get(option).is_none() {
                    return Err(refuse(format!("the scheme has no option '{option}'")));
                }
            }
            crate::schema::set_path(&mut c, &key, value.clone()).map_err(refuse)?;
            let mut config: SimConfig = serde_json::from_value(c).map_err(|e| refuse(e.to_string()))?;
            // `Sim::new` checks again and refuses this point alone (its error names why).
            if crate::ftl::validate(&config).is_ok() {
                let _ = crate::ftl::resolve_options(&mut config);
            }
            points.push(Point {
                index,
                scheme: scheme.clone(),
                series: scheme.clone(),
                key: key.clone(),
                value: value.clone(),
                label: label.clone(),
                config,
            });
        }
    }
    Ok(points)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn schemes(ids: &[&str]) -> Vec<String> {
        ids.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn values_parse_by_key_bytes_with_suffixes_others_as_json_or_bare_strings() {
        assert_eq!(
            parse_values("ram.bytes", "8MiB, 16M,4096 ,1k").unwrap(),
            vec![json!(8 << 20), json!(16 << 20), json!(4096), json!(1024)]
        );
        assert_eq!(parse_values("device.utilization", "0.4,0.9").unwrap(), vec![json!(0.4), json!(0.9)]);
        assert_eq!(
            parse_values("gc.victim", "greedy,cost-benefit").unwrap(),
            vec![json!("greedy"), json!("cost-benefit")]
        );
        assert_eq!(
            parse_values("timing", r#"{"periodic":5},"closed""#).unwrap(),
            vec![json!({"periodic": 5}), json!("closed")]
        );
        let e = parse_values("ram.bytes", "8MiB,lots").unwrap_err().to_string();
        assert!(e.contains("'lots'") && e.contains("ram.bytes"), "{e}");
        let e = parse_values("ram.bytes", "8MiB,,16MiB").unwrap_err().to_string();
        assert!(e.contains("value 2 is empty"), "{e}");
        assert!(parse_values("ram.bytes", " ").unwrap_err().to_string().contains("no values"));
        assert_eq!(format_bytes(8 << 20), "8 MiB");
        assert_eq!(format_bytes(1536 << 10), "1536 KiB");
        assert_eq!(format_bytes(100), "100 B");
    }

    #[test]
    fn parameters_are_short_names_or_existing_keys() {
        assert_eq!(param_key("ram_bytes").unwrap(), "ram.bytes");
        assert_eq!(param_key("device.latency.erase_ns").unwrap(), "device.latency.erase_ns");
        assert_eq!(param_key("options.level_two_percent").unwrap(), "options.level_two_percent");
        for bad in ["ram", "device.blokcs", "options.nope", "scheme", "device"] {
            let e = param_key(bad).unwrap_err().to_string();
            assert!(e.contains(&format!("'{bad}'")), "{bad}: {e}");
        }
        for p in PARAMS {
            assert_eq!(param_key(p.key).unwrap(), p.key, "{}: its key must exist", p.name);
            parse_values(p.key, p.example).unwrap_or_else(|e| panic!("{}: {e}", p.name));
        }
    }

    #[test]
    fn expansion_is_values_times_schemes_with_the_value_set_and_options_kept_for_their_own_scheme() {
        let base = json!({"scheme": "dftl", "device": {"blocks": 128}, "options": {"batch_update": true}});
        let values = parse_values("ram.bytes", "2KiB,4KiB,8KiB").unwrap();
        let points = expand(&base, "ram_bytes", &values, &schemes(&["page", "dftl"])).unwrap();
        assert_eq!(points.len(), 6);
        let got: Vec<_> = points
            .iter()
            .map(|p| (p.index, p.scheme.as_str(), p.config.ram.bytes, p.label.as_str()))
            .collect();
        assert_eq!(
            got,
            vec![
                (0, "page", 2048, "2 KiB"),
                (0, "dftl", 2048, "2 KiB"),
                (1, "page", 4096, "4 KiB"),
                (1, "dftl", 4096, "4 KiB"),
                (2, "page", 8192, "8 KiB"),
                (2, "dftl", 8192, "8 KiB")
            ]
        );
        assert!(points.iter().all(|p| p.config.device.blocks == 128));
        assert_eq!(points[1].config.options["batch_update"], true, "the base's options go to its own scheme");
        let page_defaults = crate::ftl::spec("page").unwrap().default_options();
        assert_eq!(points[0].config.options, page_defaults, "page takes its own defaults");
        // A scheme option applies to the schemes that have it, with their other defaults.
        let split =
            expand(&json!({}), "level_two_percent", &[json!(25), json!(75)], &schemes(&["cdftl"])).unwrap();
        assert_eq!(split[1].config.options["level_two_percent"], 75);
    }

    #[test]
    fn a_value_the_checks_refuse_fails_its_own_point_only() {
        let trace = crate::trace::parse(b"op,offset,size,time_ns\nW,0,4096,0\n", Some("csv")).unwrap();
        let build =
            |p: &Point| crate::Sim::new(p.config.clone(), &trace, "t").map(|_| ()).map_err(|e| e.to_string());
        let points =
            expand(&json!({}), "utilization", &[json!(0.5), json!(1.5)], &schemes(&["page"])).unwrap();
        assert!(build(&points[0]).is_ok());
        let e = build(&points[1]).unwrap_err();
        assert!(e.contains("utilization") && e.contains("[0, 1]"), "{e}");
        let points = expand(&json!({}), "blocks", &[json!(64), json!(3)], &schemes(&["page"])).unwrap();
        assert!(build(&points[0]).is_ok());
        assert!(build(&points[1]).unwrap_err().contains("at least 4"));
        let points = expand(&json!({}), "level_two_percent", &[json!(500)], &schemes(&["cdftl"])).unwrap();
        let e = build(&points[0]).unwrap_err();
        assert!(e.contains("cdftl") && e.contains("500"), "{e}");
    }

    #[test]
    fn refusals_name_the_value_and_the_scheme() {
        let base = json!({});
        let e = expand(&base, "level_two_percent", &[json!(50)], &schemes(&["cdftl", "dftl"]))
            .unwrap_err()
            .to_string();
        assert!(e.contains("for dftl") && e.contains("no option 'level_two_percent'"), "{e}");
        let e = expand(&base, "blocks", &[json!("many")], &schemes(&["page"])).unwrap_err().to_string();
        assert!(e.contains("device.blocks = many for page"), "{e}");
        let e = expand(&base, "blocks", &[json!(64)], &schemes(&["nope"])).unwrap_err().to_string();
        assert!(e.contains("unknown scheme"), "{e}");
        assert!(expand(&base, "blocks", &[json!(64)], &[]).unwrap_err().to_string().contains("no schemes"));
    }
}
