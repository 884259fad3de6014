//! Predict, then reveal: questions about what the simulation does next, answered by serving
//! requests on a copy of it (the simulation asked about does not move).

use serde::{Deserialize, Serialize};

use crate::error::{EngineError, Result};
use crate::events::{Event, MergeCause};
use crate::sim::Sim;

use super::facts::{mapping_lookup, merge_name, serve_one, split_request};

/// A question about what comes next.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Question {
    /// Which block will the next garbage collection pick?
    GcVictim,
    /// How many valid pages will the next victim hold (and GC copy)?
    GcCopies,
    /// Will the next read's mapping lookup hit the cache (CMT, or TreeFTL's CTPs)?
    CmtHit,
    /// Which kind will the next log-block merge be (switch, partial, full)?
    MergeKind,
    /// What will the write amplification be after `n` more requests?
    WafAfter {
        /// Requests to serve (at least 1).
        n: u32,
    },
}

/// The engine's answer and where the user sees it happen.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Answer {
    /// Whether the event asked about happens within the requests searched.
    pub found: bool,
    /// The answer: a block number, a page count, `hit`/`miss`, a merge kind, or a WAF (two
    /// decimals). Null when not found.
    pub answer: serde_json::Value,
    /// The timeline position that shows it: `[requests served, operations applied]`.
    pub reveal: [u64; 2],
    /// The request (0-based index) in which it happens.
    pub request: Option<u64>,
    /// One sentence saying what happened, for the reveal.
    pub explain: String,
}

/// Requests served at most while looking for the event asked about.
pub const MAX_LOOKAHEAD: usize = 200_000;

/// Answers `q` about the simulation `sim` from where it stands, serving at most `limit`
/// requests on a copy.
pub fn ask(sim: &Sim, q: &Question, limit: usize) -> Result<Answer> {
    ask_after(sim, 0, q, limit)
}

/// [`ask`] from partway through the next request: its first `skip` operations are already on
/// screen, so they are not the answer (a timeline position `[r, skip]`).
pub fn ask_after(sim: &Sim, skip: usize, q: &Question, limit: usize) -> Result<Answer> {
    if let Question::WafAfter { n } = *q {
        let n = n as usize;
        if n == 0 || n > MAX_LOOKAHEAD {
            return Err(EngineError::Config(format!(
                "waf_after: n = {n} requests ahead; ask for 1 to {MAX_LOOKAHEAD}"
            )));
        }
        let left = sim.total() - sim.cursor();
        let mut s = sim.clone();
        s.set_recording(false);
        let served = s.step(n.min(left))?;
        let waf = (s.waf() * 100.0).round() / 100.0;
        let found = served == n;
        return Ok(Answer {
            found,
            answer: if found { serde_json::json!(waf) } else { serde_json::Value::Null },
            reveal: [s.cursor() as u64, 0],
            request: Some(s.cursor().saturating_sub(1) as u64),
            explain: if found {
                format!("After {n} more requests the flash has programmed {waf:.2} pages per page the host wrote.")
            } else {
                format!(
                    "The trace has only {left} more requests from here, not {n}: ask for at most {left} (at its end the WAF is {waf:.2})."
                )
            },
        });
    }
    let mut s = sim.clone();
    let mut skip = skip;
    for _ in 0..limit {
        if s.done() {
            break;
        }
        let (next, events, _) = serve_one(&s)?;
        let Some((index, op, _, _, ops)) = split_request(&events) else { break };
        for (j, e) in ops.iter().enumerate().skip(std::mem::take(&mut skip)) {
            if let Some((answer, explain)) = matches(q, op == crate::trace::HostOp::Read, e) {
                // The state after operation j: request `index` with j + 1 operations applied
                // (the next request's start when that was its last operation).
                let reveal = if j + 1 == ops.len() { [index + 1, 0] } else { [index, j as u64 + 1] };
                return Ok(Answer {
                    found: true,
                    answer,
                    reveal,
                    request: Some(index),
                    explain: format!("Request #{index}: {explain}"),
                });
            }
        }
        s = next;
    }
    Ok(Answer {
        found: false,
        answer: serde_json::Value::Null,
        reveal: [s.cursor() as u64, 0],
        request: None,
        explain: "It does not happen in the rest of the trace.".into(),
    })
}

/// The answer `e` gives to `q`, if it is the event asked about.
fn matches(q: &Question, read: bool, e: &Event) -> Option<(serde_json::Value, String)> {
    match (q, e) {
        (Question::GcVictim, Event::GcStart { victim, valid }) => Some((
            serde_json::json!(victim),
            format!("GC picked block {victim}, holding {valid} valid pages."),
        )),
        (Question::GcCopies, Event::GcStart { victim, valid }) => Some((
            serde_json::json!(valid),
            format!("GC picked block {victim}; it held {valid} valid pages to copy."),
        )),
        (Question::CmtHit, _) if read => mapping_lookup(e).map(|(hit, key, _)| {
            let word = if hit { "hit" } else { "miss" };
            (serde_json::json!(word), format!("the read's mapping lookup for key {key} was a {word}."))
        }),
        (Question::MergeKind, Event::Merge { kind, lbn, cause, degree, .. }) => {
            let why = match cause {
                MergeCause::InOrder => "its log block was written in order",
                MergeCause::OutOfOrder => "its log block was written out of order",
                MergeCause::Shared => "its log block was shared by several logical blocks",
                MergeCause::Superseded => "a later write went to the data block",
                MergeCause::Fold => "the replacement block folded into its primary",
            };
            let name = merge_name(*kind);
            Some((
                serde_json::json!(name),
                format!("a {name} merge of logical block {lbn} ({why}; {degree} logical block(s) merged)."),
            ))
        }
        _ => None,
    }
}
