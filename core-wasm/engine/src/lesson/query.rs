//! One entry point for hosts (the wasm facade): a stop's facts or a question's answer at a
//! timeline position, as JSON, computed on copies (the timeline asked does not move).

use serde::Deserialize;

use crate::error::{EngineError, Result};
use crate::timeline::Timeline;

use super::ask::{ask_after, Question, MAX_LOOKAHEAD};
use super::facts::stop_facts;

/// `{"at": [r, k]}` asks for the facts of the stop there; `{"at": [r, k], "question": {…}}`
/// for the answer to a question asked there (`r` requests served, `k` operations of the next
/// one on screen).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct LessonQuery {
    at: [u64; 2],
    question: Option<Question>,
}

/// Answers `query_json` (`{"at": [r, k]}`, with a `"question"` to ask one) about `t`: facts
/// as [`super::StopFacts`] JSON (`null` at the start or past the end), or an
/// [`super::Answer`].
pub fn query(t: &Timeline, query_json: &str) -> Result<String> {
    let q: LessonQuery =
        serde_json::from_str(query_json).map_err(|e| EngineError::Config(format!("lesson query: {e}")))?;
    let [r, k] = q.at;
    let json = match q.question {
        Some(question) => {
            serde_json::to_string(&ask_after(&t.sim_at(r as usize)?, k as usize, &question, MAX_LOOKAHEAD)?)
        }
        None if r == 0 && k == 0 => Ok("null".into()),
        None => {
            let shown = if k > 0 { r } else { r - 1 };
            let sim = t.sim_at(shown as usize)?;
            serde_json::to_string(&stop_facts(&sim, (k > 0).then_some(k as u32))?)
        }
    };
    json.map_err(|e| EngineError::Config(e.to_string()))
}
