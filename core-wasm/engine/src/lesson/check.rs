//! Checking a lesson against the engine: every stop's position exists, every `expect` claim
//! matches the facts the engine reports there, every `{fact}` placeholder of a text names a
//! fact the stop has, and every question has an answer.

use crate::config::SimConfig;
use crate::error::{EngineError, Result};
use crate::sim::Sim;

use super::ask::{ask, MAX_LOOKAHEAD};
use super::facts::stop_facts;
use super::file::{Lesson, LessonExperiment};

type Obj = serde_json::Map<String, serde_json::Value>;

/// `over` laid on `base`: objects merge key by key, anything else replaces (the app's
/// `applyDiff`, so a lesson's config means the same here and in a link).
fn apply_diff(base: &mut serde_json::Value, over: &serde_json::Value) {
    match (base, over) {
        (serde_json::Value::Object(b), serde_json::Value::Object(o)) => {
            for (k, v) in o {
                match b.get_mut(k) {
                    Some(slot) => apply_diff(slot, v),
                    None => {
                        b.insert(k.clone(), v.clone());
                    }
                }
            }
        }
        (b, o) => *b = o.clone(),
    }
}

/// The engine config of a lesson's experiment, built as the app builds a link's: the default
/// config (with the preset's device and RAM), the config changes, the scheme and its options.
pub fn experiment_config(e: &LessonExperiment) -> Result<SimConfig> {
    let mut base =
        serde_json::to_value(SimConfig::default()).map_err(|err| EngineError::Config(err.to_string()))?;
    if let Some(name) = &e.preset {
        let p = crate::presets::preset(name)
            .ok_or_else(|| EngineError::Config(format!("unknown preset '{name}'")))?;
        let mut over = serde_json::json!({ "device": p.device, "ram": { "bytes": p.ram_bytes } });
        // The preset's arrivals, as the app applies them when a link names the preset.
        if let Some(t) = p.timing {
            over["timing"] = serde_json::to_value(t).map_err(|err| EngineError::Config(err.to_string()))?;
        }
        apply_diff(&mut base, &over);
    }
    if let Some(diff) = &e.config {
        apply_diff(&mut base, diff);
    }
    let obj = base.as_object_mut().expect("a config is an object");
    obj.insert("scheme".into(), e.scheme.clone().into());
    obj.insert("options".into(), e.options.clone().unwrap_or_else(|| Obj::new().into()));
    SimConfig::from_json(&base.to_string())
}

/// Whether the engine's `fact` satisfies the lesson's `claim` (numbers within 0.005, so a
/// WAF claim of 1.13 holds for 1.125 rounded).
fn holds(claim: &serde_json::Value, fact: &serde_json::Value) -> bool {
    match (claim.as_f64(), fact.as_f64()) {
        (Some(c), Some(f)) => (c - f).abs() < 0.005 + 1e-9,
        _ => claim == fact,
    }
}

/// The `{name}` placeholders of a text.
pub(crate) fn placeholders(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        let Some(len) = rest[open..].find('}') else { break };
        out.push(&rest[open + 1..open + len]);
        rest = &rest[open + len + 1..];
    }
    out
}

/// Runs `lesson` on `trace` (the bytes of its shipped trace) and lists what does not hold,
/// each naming its stop (empty: the lesson is true of the engine).
pub fn check(lesson: &Lesson, trace: &[u8]) -> Result<Vec<String>> {
    let config = experiment_config(&lesson.experiment)?;
    let mut sim = Sim::from_bytes(config, trace, None, &lesson.experiment.trace.shipped)?;
    sim.set_recording(false);
    let mut problems = Vec::new();
    let mut last = [0u64, 0u64];
    for (i, stop) in lesson.stops.iter().enumerate() {
        let name = format!("{}: stop {} at {:?}", lesson.id, i + 1, stop.at);
        let mut say = |p: String| problems.push(format!("{name}: {p}"));
        let [r, k] = stop.at;
        if stop.at < last {
            say(format!("comes before the stop ahead of it ({last:?})"));
        }
        last = stop.at;
        if r as usize > sim.total() {
            say(format!("the trace has only {} requests", sim.total()));
            continue;
        }
        // The request on screen: the one in progress, or the last one served.
        let shown = if k > 0 { r } else { r.saturating_sub(1) };
        let mut here = sim.clone();
        if (shown as usize) < here.cursor() {
            here = Sim::from_bytes(sim.config().clone(), trace, None, &lesson.experiment.trace.shipped)?;
            here.set_recording(false);
        }
        here.step(shown as usize - here.cursor())?;
        let facts = if r == 0 && k == 0 { None } else { stop_facts(&here, (k > 0).then_some(k as u32))? };
        if let Some(f) = &facts {
            if k > 0 && k >= u64::from(f.ops) {
                say(format!("request {} has only {} operations", f.number, f.ops));
            }
        }
        let json = facts.as_ref().map(|f| serde_json::to_value(f).expect("facts serialise"));
        let fact = |key: &str| json.as_ref().and_then(|j| j.get(key)).filter(|v| !v.is_null());
        for (key, claim) in &stop.expect {
            match fact(key) {
                // A null claim says the stop has no such fact (no GC, no merge).
                None if claim.is_null() => {}
                Some(f) if claim.is_null() => say(format!("claims no {key}, the engine says {f}")),
                None => say(format!("claims {key} = {claim}, but the engine has no {key} here")),
                Some(f) if !holds(claim, f) => say(format!("claims {key} = {claim}, the engine says {f}")),
                _ => {}
            }
        }
        for key in placeholders(&stop.text) {
            if fact(key).is_none() {
                say(format!("its text names {{{key}}}, which the engine does not report here"));
            }
        }
        if let Some(q) = &stop.question {
            if k > 0 {
                say("a question goes at a stop between requests (operation 0)".into());
            } else {
                // Asked from the stop's position: `r` requests served.
                let mut from = here.clone();
                from.step(r as usize - from.cursor())?;
                if !ask(&from, &q.ask, MAX_LOOKAHEAD)?.found {
                    say(format!("its question ({:?}) has no answer in the rest of the trace", q.ask));
                }
            }
        }
        sim = here;
    }
    Ok(problems)
}
