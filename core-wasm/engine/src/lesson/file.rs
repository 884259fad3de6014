//! A lesson file's shape (`docs/lessons.md`): what the engine needs of it to check it. The
//! app reads the same file and also uses the fields the engine leaves alone (views, titles).

use serde::Deserialize;

use super::ask::Question;

/// A lesson: an experiment and its stops.
#[derive(Debug, Clone, Deserialize)]
#[allow(missing_docs)]
pub struct Lesson {
    /// Stable id (the file name without `.json`; links name a shipped lesson by it).
    pub id: String,
    pub title: String,
    pub experiment: LessonExperiment,
    pub stops: Vec<LessonStop>,
}

/// The experiment, in the shape a link's state uses (`web/src/share/state.ts`).
#[derive(Debug, Clone, Deserialize)]
#[allow(missing_docs)]
#[serde(deny_unknown_fields)]
pub struct LessonExperiment {
    pub scheme: String,
    /// Device preset the config is based on (absent: the engine's default config).
    pub preset: Option<String>,
    /// Config changes from that base.
    pub config: Option<serde_json::Value>,
    /// The scheme's options that differ from its defaults.
    pub options: Option<serde_json::Value>,
    /// `{"shipped": "teaching/gc.csv"}`: a trace under `public/traces`.
    pub trace: LessonTrace,
}

/// A lesson's trace: a shipped one (a lesson must run offline and be checkable).
#[derive(Debug, Clone, Deserialize)]
#[allow(missing_docs)]
#[serde(deny_unknown_fields)]
pub struct LessonTrace {
    pub shipped: String,
}

/// One stop.
#[derive(Debug, Clone, Deserialize)]
#[allow(missing_docs)]
pub struct LessonStop {
    /// `[requests served, operations of the next request applied]`.
    pub at: [u64; 2],
    /// The text, with `{fact}` placeholders filled from the engine's [`super::StopFacts`].
    pub text: String,
    /// Claims about the stop's facts, checked by the lesson's test.
    #[serde(default)]
    pub expect: serde_json::Map<String, serde_json::Value>,
    /// A question asked at this stop.
    pub question: Option<StopQuestion>,
}

/// A question at a stop: what to ask; the engine answers it ([`super::ask`]).
#[derive(Debug, Clone, Deserialize)]
#[allow(missing_docs)]
pub struct StopQuestion {
    #[serde(flatten)]
    pub ask: Question,
    /// The question as the students read it.
    pub prompt: String,
}
