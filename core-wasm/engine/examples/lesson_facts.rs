//! Prints the facts of every request of a lesson's experiment, one JSON line each, to find
//! where a lesson's stops go: `cargo run -p ftl-engine --example lesson_facts -- LESSON.json`
//! (run from the repository root; the trace is read from `public/traces`).

use ftl_engine::lesson::{experiment_config, stop_facts, Lesson};
use ftl_engine::sim::Sim;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args().nth(1).ok_or("usage: lesson_facts LESSON.json")?;
    let lesson: Lesson = serde_json::from_str(&std::fs::read_to_string(&path)?)?;
    let trace_path = format!("public/traces/{}", lesson.experiment.trace.shipped);
    let trace = std::fs::read(&trace_path).map_err(|e| format!("{trace_path}: {e}"))?;
    let mut sim = Sim::from_bytes(experiment_config(&lesson.experiment)?, &trace, None, &trace_path)?;
    sim.set_recording(false);
    while let Some(f) = stop_facts(&sim, None)? {
        println!("{}", serde_json::to_string(&f)?);
        sim.step(1)?;
    }
    Ok(())
}
