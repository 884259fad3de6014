//! Stepping backwards: a [`Sim`] plus checkpoints (clones) taken every `interval` requests.
//! Seeking to an earlier request restores the nearest checkpoint at or before it and replays
//! forward, so a step back costs at most `interval` requests of replay anywhere in the trace.
//!
//! Memory stays bounded: when more than `max_checkpoints` exist, every other one is dropped
//! and the interval doubles (so checkpoints stay evenly spaced over the part already run).
//! A host that can count its heap adds a [`HeapGuard`]: a checkpoint is taken only when it
//! and one more copy (a step back's) fit under the guard's limit; checkpoints are dropped
//! (the oldest first, the start kept) to keep room for that copy; and stepping stops with
//! [`EngineError::HostMemory`] while the heap is past the limit even so, rather than the host
//! running out part-way (in wasm32, a trap that loses the simulation). Up to then the limit
//! is only a ceiling: the plan above, from [`Sim::approx_bytes`], decides the checkpoints.

use crate::error::{EngineError, Result};
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

/// How a host keeps a timeline within its memory: a function giving the bytes its heap holds
/// now (a counting allocator's figure), and the most the timeline may let it hold.
#[derive(Debug, Clone, Copy)]
pub struct HeapGuard {
    /// Bytes allocated now.
    pub allocated: fn() -> u64,
    /// The most the heap may hold: checkpoints are dropped, then stepping stops, above it.
    pub limit: u64,
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
    heap: Option<HeapGuard>,
    /// The furthest the simulation has been (requests served): the heap held what the state
    /// up to there needs, so a replay below it is never stopped by the heap guard.
    reached: usize,
    /// What the last checkpoint took of the heap (measured under a guard; the simulation may
    /// have grown since), else the estimate.
    copy_bytes: u64,
}

impl Timeline {
    /// Wraps `sim` (at the start of its trace) with a checkpoint every `interval` requests,
    /// keeping at most `max_checkpoints` (at least 2).
    pub fn new(sim: Sim, interval: usize, max_checkpoints: usize) -> Self {
        Timeline {
            checkpoints: vec![sim.clone()],
            copy_bytes: sim.approx_bytes(),
            sim,
            interval: interval.max(1),
            max_checkpoints: max_checkpoints.max(2),
            responses: Vec::new(),
            heap: None,
            reached: 0,
        }
    }

    /// Keeps the timeline within `guard`'s limit (see the module docs). The start's copy is
    /// taken again, measured, so the first room check has a measured size.
    pub fn with_heap_guard(mut self, guard: HeapGuard) -> Self {
        let before = (guard.allocated)();
        let start = self.checkpoints[0].clone();
        self.copy_bytes = (guard.allocated)().saturating_sub(before).max(1);
        self.checkpoints[0] = start;
        self.heap = Some(guard);
        self
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

    /// Where the checkpoints held stand (requests served before each), in order.
    pub fn checkpoint_cursors(&self) -> impl Iterator<Item = usize> + '_ {
        self.checkpoints.iter().map(Sim::cursor)
    }

    /// Serves up to `n` requests, taking checkpoints on the way; returns how many were served.
    pub fn step(&mut self, n: usize) -> Result<usize> {
        let mut done = 0;
        while done < n && !self.sim.done() {
            if let Err(e) = self.within_heap() {
                // What was served stands; the next call reports the error serving nothing.
                return if done == 0 { Err(e) } else { Ok(done) };
            }
            let to_boundary = self.interval - self.sim.cursor() % self.interval;
            let served = self.step_recorded(to_boundary.min(n - done))?;
            done += served;
            let at = self.sim.cursor();
            self.reached = self.reached.max(at);
            let last = self.checkpoints.last().map_or(0, Sim::cursor);
            if at.is_multiple_of(self.interval) && at > last && self.room_for_checkpoint() {
                self.take_checkpoint();
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

    /// The heap guard's limit, if the timeline has one.
    pub fn heap_limit(&self) -> Option<u64> {
        self.heap.map(|g| g.limit)
    }

    /// Serves up to `n` requests without taking checkpoints or recording response times
    /// (the engine alone, for headless runs), within the heap guard; returns how many.
    pub fn step_untracked(&mut self, n: usize) -> Result<usize> {
        let mut done = 0;
        while done < n && !self.sim.done() {
            if let Err(e) = self.within_heap() {
                return if done == 0 { Err(e) } else { Ok(done) };
            }
            // Chunks of the checkpoint interval, so the heap is looked at as often.
            let served = self.sim.step((n - done).min(self.interval))?;
            done += served;
            self.reached = self.reached.max(self.sim.cursor());
            if served == 0 {
                break;
            }
        }
        Ok(done)
    }

    /// Bytes one copy of the simulation took when last measured (a checkpoint's clone under
    /// a heap guard), else the estimate ([`Sim::approx_bytes`]).
    pub fn checkpoint_bytes(&self) -> u64 {
        self.copy_bytes
    }

    /// Whether a checkpoint and one more copy fit under the heap guard (always, without one).
    fn room_for_checkpoint(&self) -> bool {
        self.heap.is_none_or(|g| (g.allocated)().saturating_add(self.copy_bytes.saturating_mul(2)) <= g.limit)
    }

    /// Clones the simulation into a checkpoint, measuring what it took under a heap guard.
    fn take_checkpoint(&mut self) {
        let before = self.heap.map(|g| (g.allocated)());
        self.checkpoints.push(self.sim.clone());
        if let (Some(g), Some(before)) = (self.heap, before) {
            self.copy_bytes = (g.allocated)().saturating_sub(before).max(1);
        }
    }

    /// Keeps room for a step back's copy under the heap guard's limit by dropping
    /// checkpoints: the oldest first (a step back is most often a short one), never the
    /// start. When the heap is past the limit even so, the simulation may not go further
    /// than it has been: an error. Replaying what it has served before (a step back) goes
    /// on: the heap held that state once, and stopping there would leave the simulation
    /// neither where it was nor where it was asked to go.
    fn within_heap(&mut self) -> Result<()> {
        let Some(g) = self.heap else { return Ok(()) };
        while (g.allocated)().saturating_add(self.copy_bytes) > g.limit && self.checkpoints.len() > 1 {
            self.checkpoints.remove(1);
        }
        let held = (g.allocated)();
        if held <= g.limit || self.sim.cursor() < self.reached {
            return Ok(());
        }
        Err(self.out_of_memory(held, g.limit))
    }

    fn out_of_memory(&self, held: u64, limit: u64) -> EngineError {
        let mib = |b: u64| b.div_ceil(1 << 20);
        EngineError::HostMemory(format!(
            "the engine holds {} MiB after {} requests (the simulation, its trace and its \
             checkpoints), more than the {} MiB it may use here; step back to look at what \
             ran (from the start: the checkpoints between were dropped to make room), or \
             lower device.blocks (the ftl command line has no such limit)",
            mib(held),
            self.sim.cursor(),
            mib(limit)
        ))
    }

    fn thin(&mut self) {
        if self.checkpoints.len() <= self.max_checkpoints {
            return;
        }
        self.interval *= 2;
        let interval = self.interval;
        self.checkpoints.retain(|c| c.cursor().is_multiple_of(interval));
    }

    /// The last checkpoint at or before `cursor` requests (the start's, at 0, is always held).
    fn checkpoint_at(&self, cursor: usize) -> &Sim {
        let i = self.checkpoints.partition_point(|c| c.cursor() <= cursor);
        &self.checkpoints[i.saturating_sub(1)]
    }

    /// A copy of the simulation as it stands after `cursor` requests (clamped to the trace
    /// length), from the nearest checkpoint (or the live simulation) at or before it: one
    /// copy, whatever the checkpoints hold. It records events as the live simulation does,
    /// with none recorded yet.
    pub fn sim_at(&self, cursor: usize) -> Result<Sim> {
        let cursor = cursor.min(self.sim.total());
        let from = if cursor >= self.sim.cursor() { &self.sim } else { self.checkpoint_at(cursor) };
        let mut copy = from.clone();
        copy.set_recording(false);
        copy.step(cursor - copy.cursor())?;
        copy.set_recording(self.sim.recording());
        copy.take_events();
        Ok(copy)
    }

    /// Moves to the state just after `target` requests (clamped to the trace length).
    /// Events recorded while replaying are discarded.
    pub fn seek(&mut self, target: usize) -> Result<()> {
        let target = target.min(self.sim.total());
        // Whether events are recorded belongs to the caller, not to the checkpoint restored
        // below (checkpoints taken during a replay were cloned with recording off).
        let recording = self.sim.recording();
        if target < self.sim.cursor() {
            self.sim = self.checkpoint_at(target).clone();
        }
        let ahead = target - self.sim.cursor();
        // Replayed requests' events would be thrown away: don't record them.
        self.sim.set_recording(false);
        let stepped = self.step(ahead);
        self.sim.set_recording(recording);
        let stepped = stepped?;
        self.sim.take_events();
        // The heap guard stopped the replay short of the target.
        if let Some(g) = self.heap.filter(|_| stepped < ahead && !self.sim.done()) {
            return Err(self.out_of_memory((g.allocated)(), g.limit));
        }
        Ok(())
    }
}
