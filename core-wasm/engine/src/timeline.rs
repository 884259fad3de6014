//! Stepping backwards: a [`Sim`] plus checkpoints (clones) taken every `interval` requests.
//! Seeking to an earlier request restores the nearest checkpoint at or before it and replays
//! forward, so a step back costs at most `interval` requests of replay anywhere in the trace.
//!
//! Memory stays bounded: when more than `max_checkpoints` exist, every other one is dropped
//! and the interval doubles (so checkpoints stay evenly spaced over the part already run).

use crate::error::Result;
use crate::sim::{Sim, StopAt};

/// Checkpoint spacing (requests) and most checkpoints kept, for a simulation whose copy takes
/// `each` bytes: as many as fit in `budget_bytes` (at least the start plus one more, even
/// when a copy alone exceeds the budget), 256 requests apart or more on big devices.
fn checkpoint_plan(each: u64, budget_bytes: u64) -> (usize, usize) {
    let each = each.max(1);
    let most = (budget_bytes / each).clamp(2, 64) as usize;
    let interval = (each / 64).max(256) as usize;
    (interval, most)
}

/// A simulation with checkpoints.
#[derive(Debug, Clone)]
pub struct Timeline {
    sim: Sim,
    /// Checkpoints in increasing cursor order; the first is the state before request 0.
    checkpoints: Vec<Sim>,
    interval: usize,
    max_checkpoints: usize,
    /// Response time (µs) of every request served so far, for charts; kept here rather than
    /// in `Sim` so checkpoints stay small.
    responses: Vec<f32>,
}

impl Timeline {
    /// Wraps `sim` (at the start of its trace) with a checkpoint every `interval` requests,
    /// keeping at most `max_checkpoints` (at least 2).
    pub fn new(sim: Sim, interval: usize, max_checkpoints: usize) -> Self {
        Timeline {
            checkpoints: vec![sim.clone()],
            sim,
            interval: interval.max(1),
            max_checkpoints: max_checkpoints.max(2),
            responses: Vec::new(),
        }
    }

    /// A timeline whose checkpoints fit in about `budget_bytes`: as many as fit (2 to 64).
    /// They start 256 requests apart, or further on big devices so that copying a checkpoint
    /// costs at most about 64 bytes per request served (a 1 GiB device: ~85,000 requests
    /// apart, which replays in well under 0.1 s).
    pub fn with_memory_budget(sim: Sim, budget_bytes: u64) -> Self {
        let (interval, n) = checkpoint_plan(sim.approx_bytes(), budget_bytes);
        Timeline::new(sim, interval, n)
    }

    /// The most memory [`Self::with_memory_budget`] holds at once for a simulation whose copy
    /// takes `each` bytes ([`Sim::approx_bytes`]) over a trace of `requests` requests: the
    /// live simulation, the checkpoints the trace reaches (one at its start, one per interval,
    /// thinned to the most kept), and one more copy: a checkpoint taken just before thinning,
    /// or the one cloned to step back. Lets a host refuse a device it cannot hold before
    /// building it.
    pub fn peak_bytes(each: u64, budget_bytes: u64, requests: u64) -> u64 {
        let (interval, most) = checkpoint_plan(each, budget_bytes);
        let reached = (1 + requests / interval as u64).min(most as u64);
        each.max(1).saturating_mul(2 + reached)
    }

    /// The current simulation.
    pub fn sim(&self) -> &Sim {
        &self.sim
    }

    /// The current simulation, mutably (stepping it directly skips checkpointing).
    pub fn sim_mut(&mut self) -> &mut Sim {
        &mut self.sim
    }

    /// Current checkpoint spacing in requests.
    pub fn interval(&self) -> usize {
        self.interval
    }

    /// Checkpoints held.
    pub fn checkpoints(&self) -> usize {
        self.checkpoints.len()
    }

    /// Serves up to `n` requests, taking checkpoints on the way; returns how many were served.
    pub fn step(&mut self, n: usize) -> Result<usize> {
        let mut done = 0;
        while done < n && !self.sim.done() {
            let to_boundary = self.interval - self.sim.cursor() % self.interval;
            let served = self.step_recorded(to_boundary.min(n - done))?;
            done += served;
            let at = self.sim.cursor();
            let last = self.checkpoints.last().map_or(0, Sim::cursor);
            if at.is_multiple_of(self.interval) && at > last {
                self.checkpoints.push(self.sim.clone());
                self.thin();
            }
            if served == 0 {
                break;
            }
        }
        Ok(done)
    }

    /// Steps `n` requests one at a time, recording response times not yet recorded. One at a
    /// time costs nothing extra: `Sim::step` serves one request per loop turn anyway.
    fn step_recorded(&mut self, n: usize) -> Result<usize> {
        let mut done = 0;
        while done < n && self.sim.step(1)? == 1 {
            done += 1;
            let at = self.sim.cursor();
            if at > self.responses.len() {
                // Requests stepped without recording (engine-only stepping) are unknown.
                self.responses.resize(at - 1, f32::NAN);
                self.responses.push((self.sim.last_response_ns() as f64 / 1000.0) as f32);
            }
        }
        Ok(done)
    }

    /// Response times (µs) of requests `from..to` (clamped to those served so far).
    pub fn responses(&self, from: usize, to: usize) -> &[f32] {
        let to = to.min(self.responses.len());
        &self.responses[from.min(to)..to]
    }

    /// Serves requests until one in which `what` happens (at most `max`), taking
    /// checkpoints and recording response times on the way; returns how many were served and
    /// whether it stopped at `what`.
    pub fn step_until(&mut self, what: StopAt, max: usize) -> Result<(usize, bool)> {
        let mut done = 0;
        while done < max && !self.sim.done() {
            let before = self.sim.stop_count(what);
            done += self.step(1)?;
            if self.sim.stop_count(what) != before {
                return Ok((done, true));
            }
        }
        Ok((done, false))
    }

    fn thin(&mut self) {
        if self.checkpoints.len() <= self.max_checkpoints {
            return;
        }
        self.interval *= 2;
        let interval = self.interval;
        self.checkpoints.retain(|c| c.cursor().is_multiple_of(interval));
    }

    /// Moves to the state just after `target` requests (clamped to the trace length).
    /// Events recorded while replaying are discarded.
    pub fn seek(&mut self, target: usize) -> Result<()> {
        let target = target.min(self.sim.total());
        // Whether events are recorded belongs to the caller, not to the checkpoint restored
        // below (checkpoints taken during a replay were cloned with recording off).
        let recording = self.sim.recording();
        if target < self.sim.cursor() {
            let i = self.checkpoints.partition_point(|c| c.cursor() <= target);
            // checkpoints[0] has cursor 0, so i >= 1.
            self.sim = self.checkpoints[i.saturating_sub(1)].clone();
        }
        let ahead = target - self.sim.cursor();
        // Replayed requests' events would be thrown away: don't record them.
        self.sim.set_recording(false);
        let stepped = self.step(ahead);
        self.sim.set_recording(recording);
        stepped?;
        self.sim.take_events();
        Ok(())
    }
}
