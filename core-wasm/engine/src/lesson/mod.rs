//! Teaching mode: what a lesson's stop shows, and questions whose answer the engine knows.
//!
//! A lesson (`public/lessons/*.json`, documented in `docs/lessons.md`) is an experiment and
//! an ordered list of stops, each at a timeline position `[requests served, operations of the
//! next request applied]`. At a stop the engine reports the [`StopFacts`] of the request on
//! screen (GC victim, copies, cache hit or miss, merge kind, …); a lesson's `expect` claims
//! and the `{name}` placeholders of its text are checked against them ([`check`]), so a
//! lesson stays true when the engine changes, or its test fails.
//!
//! A [`Question`] (which block will GC pick next, will the next read hit the CMT, …) is
//! answered by stepping a clone of the simulation forward ([`ask`]): the answer comes from
//! the engine, never from the lesson file.

mod ask;
mod check;
mod facts;
mod file;
mod query;

pub use ask::{ask, ask_after, Answer, Question, MAX_LOOKAHEAD};
pub use check::{check, experiment_config};
pub use facts::{stop_facts, StopFacts};
pub use file::{Lesson, LessonExperiment, LessonStop};
pub use query::query;
