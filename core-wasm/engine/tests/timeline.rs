//! Stepping backwards: seeking to any earlier request gives exactly the state (hash) the
//! simulation had when it first passed that request.

mod common;
#[path = "common/counting.rs"]
mod counting;

use common::{random_trace, shipped_trace, Rng};
use ftl_engine::config::SimConfig;
use ftl_engine::trace::Trace;
use ftl_engine::{Sim, Timeline};

#[test]
fn seeking_back_reproduces_every_earlier_state() {
    for s in ftl_engine::ftl::SCHEMES {
        seek_back_check(s.info.id);
    }
}

fn seek_back_check(scheme: &str) {
    let bytes = shipped_trace("msr-cambridge_hm_0_first1000.csv");
    let config = SimConfig { scheme: scheme.into(), ..SimConfig::default() };
    let sim = Sim::from_bytes(config, &bytes, None, "hm_0").unwrap();
    let mut hashes = vec![sim.state_hash()];
    let mut t = Timeline::new(sim, 64, 6);
    while !t.sim().done() {
        t.step(1).unwrap();
        hashes.push(t.sim().state_hash());
    }
    assert!(t.checkpoints() <= 6, "checkpoints are thinned");
    assert!(t.interval() > 64, "interval doubles when thinning");
    let seed = 7;
    let mut rng = Rng(seed);
    for _ in 0..40 {
        let target = rng.below(hashes.len() as u64) as usize;
        t.seek(target).unwrap();
        assert_eq!(t.sim().cursor(), target);
        assert_eq!(
            t.sim().state_hash(),
            hashes[target],
            "{scheme} seed {seed}: state after {target} requests"
        );
    }
    t.seek(usize::MAX).unwrap();
    assert!(t.sim().done());
    assert_eq!(t.sim().state_hash(), *hashes.last().unwrap());
}

#[test]
fn stepping_in_any_chunking_gives_the_same_state() {
    let mut config = SimConfig::default();
    config.device.blocks = 16;
    config.device.pages_per_block = 8;
    let trace = random_trace(42, 500, config.device.logical_pages(), 4096);
    let mut a = Sim::new(config.clone(), &trace, "r").unwrap();
    let mut b = Timeline::new(Sim::new(config, &trace, "r").unwrap(), 10, 4);
    a.step(500).unwrap();
    for n in [1, 2, 3, 50, 7, 1000] {
        b.step(n).unwrap();
    }
    assert!(b.sim().done());
    assert_eq!(a.state_hash(), b.sim().state_hash());
    assert_eq!(a.metrics(), b.sim().metrics());
}

#[test]
fn step_until_gc_stops_at_the_request_that_collected_and_records_responses() {
    use ftl_engine::sim::StopAt;
    let bytes = shipped_trace("msr-cambridge_hm_0_first1000.csv");
    let sim = Sim::from_bytes(SimConfig::default(), &bytes, None, "hm_0").unwrap();
    let mut t = Timeline::new(sim.clone(), 100, 8);
    let (served, hit) = t.step_until(StopAt::Gc, usize::MAX).unwrap();
    assert!(hit);
    let at = t.sim().cursor();
    assert_eq!(served, at);
    assert_eq!(t.sim().metrics().gc.runs, 1, "stops at the first GC");
    // The same request, reached by plain stepping, is the first with a GC.
    let mut plain = sim;
    plain.step(at - 1).unwrap();
    assert_eq!(plain.metrics().gc.runs, 0);
    plain.step(1).unwrap();
    assert_eq!(plain.state_hash(), t.sim().state_hash());
    let report = t.sim().last_request();
    assert_eq!(report.index as usize, at - 1);
    assert!(report.flash_us["gc"] > 0.0);
    assert_eq!(t.responses(0, usize::MAX).len(), at);
    assert_eq!(*t.responses(at - 1, at).first().unwrap() as f64, (report.response_us as f32) as f64);
    assert!((report.response_us - (report.completion_us - report.arrival_us)).abs() < 1e-6);
    // No mapping cache in `page`: stepping until a miss runs to the end without a hit.
    let (_, hit) = t.step_until(StopAt::MappingMiss, usize::MAX).unwrap();
    assert!(!hit);
    assert!(t.sim().done());
}

#[test]
fn seeking_keeps_event_recording_as_the_caller_had_it() {
    let bytes = shipped_trace("msr-cambridge_hm_0_first1000.csv");
    let config = SimConfig { record_events: true, ..SimConfig::default() };
    let sim = Sim::from_bytes(config, &bytes, None, "hm_0").unwrap();
    let mut t = Timeline::new(sim, 16, 8);
    // A long forward seek replays (and checkpoints) with recording off ...
    t.seek(900).unwrap();
    // ... and a seek back restores one of those checkpoints: recording must still be on.
    t.seek(100).unwrap();
    assert!(t.sim().recording());
    t.step(1).unwrap();
    assert!(!t.sim_mut().take_events().is_empty(), "the next request's events are recorded");
}

/// A bounded scheme spreads each collection over several requests: "next GC step" stops at
/// every request that runs a step (copies or the erase), "next GC" only where a collection
/// starts, so the first stops more often and never at a request without GC work.
#[test]
fn step_until_gc_step_stops_at_each_partial_step_of_a_bounded_scheme() {
    use ftl_engine::sim::StopAt;
    let bytes = shipped_trace("msr-cambridge_hm_0_first1000.csv");
    let config = SimConfig { scheme: "rftl".into(), ..SimConfig::default() };
    let sim = Sim::from_bytes(config, &bytes, None, "hm_0").unwrap();
    let stops = |stop: StopAt| {
        let mut t = Timeline::new(sim.clone(), 100, 8);
        let mut at = Vec::new();
        while t.step_until(stop, usize::MAX).unwrap().1 {
            let r = t.sim().last_request();
            assert!(r.flash_us["gc"] > 0.0, "{stop:?} stop at request {} without GC work", r.index);
            at.push(r.index);
        }
        at
    };
    let (runs, steps) = (stops(StopAt::Gc), stops(StopAt::GcStep));
    assert!(!runs.is_empty());
    assert!(steps.len() > runs.len(), "steps {} vs collections {}", steps.len(), runs.len());
}

thread_local! {
    /// What the fake heap of the guard tests holds.
    static HEAP: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

thread_local! {
    /// Calls for which the fake heap reads as over any limit, then as before.
    static OVER_FOR: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

thread_local! {
    /// Reads of the fake heap left before it reads as over any limit for good (`None`: never).
    static TURN_OVER_AFTER: std::cell::Cell<Option<u32>> = const { std::cell::Cell::new(None) };
}

fn fake_heap() -> u64 {
    let turned = TURN_OVER_AFTER.with(|c| match c.get() {
        Some(0) => true,
        Some(n) => {
            c.set(Some(n - 1));
            false
        }
        None => false,
    });
    if turned {
        return u64::MAX;
    }
    let over = OVER_FOR.with(|c| {
        let n = c.get();
        c.set(n.saturating_sub(1));
        n > 0
    });
    if over {
        u64::MAX
    } else {
        HEAP.with(std::cell::Cell::get)
    }
}

/// The state hash before the first request and after each one, stepping `sim` one by one.
fn hashes_of(mut sim: Sim) -> Vec<u64> {
    let mut hashes = vec![sim.state_hash()];
    while sim.step(1).unwrap() == 1 {
        hashes.push(sim.state_hash());
    }
    hashes
}

/// DFTL on `blocks` blocks of 16 pages, and `requests` random requests over its pages (its
/// tables grow as the trace goes).
fn dftl_run(blocks: u32, seed: u64, requests: usize) -> (SimConfig, Trace) {
    let mut config = SimConfig { scheme: "dftl".into(), ..SimConfig::default() };
    config.device.blocks = blocks;
    config.device.pages_per_block = 16;
    let trace = random_trace(seed, requests, config.device.logical_pages(), 4096);
    (config, trace)
}

/// A 500-request random run on a small device, with a checkpoint every 10 requests.
fn guarded(limit: u64) -> (Timeline, Vec<u64>) {
    let mut config = SimConfig::default();
    config.device.blocks = 16;
    config.device.pages_per_block = 8;
    let trace = random_trace(5, 500, config.device.logical_pages(), 4096);
    let sim = Sim::new(config.clone(), &trace, "r").unwrap();
    let hashes = hashes_of(Sim::new(config, &trace, "r").unwrap());
    let guard = ftl_engine::HeapGuard { allocated: fake_heap, limit };
    (Timeline::new(sim, 10, 64).with_heap_guard(guard), hashes)
}

#[test]
fn a_guarded_timeline_takes_only_the_checkpoints_that_fit() {
    let (mut t, hashes) = guarded(1 << 30);
    HEAP.with(|h| h.set(0));
    t.step(100).unwrap();
    let taken = t.checkpoints();
    assert!(taken > 5, "checkpoints while the heap has room: {taken}");
    // Close to the limit: room for a step back's copy (the fake heap measures copies as
    // 1 byte), none for a checkpoint and that copy.
    assert_eq!(t.checkpoint_bytes(), 1);
    HEAP.with(|h| h.set((1 << 30) - 1));
    t.step(100).unwrap();
    assert_eq!(t.checkpoints(), taken, "no checkpoint without room for it");
    HEAP.with(|h| h.set(0));
    t.step(100).unwrap();
    assert!(t.checkpoints() > taken, "checkpoints again once there is room");
    t.seek(150).unwrap();
    assert_eq!(t.sim().state_hash(), hashes[150], "a gap between checkpoints only replays longer");
}

#[test]
fn past_the_limit_checkpoints_go_then_stepping_stops_and_nothing_is_lost() {
    let (mut t, hashes) = guarded(1 << 30);
    HEAP.with(|h| h.set(0));
    t.step(200).unwrap();
    assert!(t.checkpoints() > 5);
    HEAP.with(|h| h.set((1 << 30) + 1));
    let e = t.step(10).unwrap_err();
    assert!(matches!(e, ftl_engine::error::EngineError::HostMemory(_)), "{e}");
    let message = e.to_string();
    let at = format!("after {} requests", t.sim().cursor());
    assert!(message.contains(&at) && message.contains("lower device.blocks"), "{message}");
    assert_eq!(t.checkpoints(), 1, "checkpoints are dropped first, the start kept");
    // Every later step reports it again and serves nothing: the simulation may not grow.
    let at = t.sim().cursor();
    assert!(t.step(10).is_err() && t.step_untracked(10).is_err(), "headless stepping stops too");
    assert!(t.step_until(ftl_engine::vocab::StopAt::Gc, 10).is_err());
    assert_eq!(t.sim().cursor(), at, "nothing served past the limit");
    assert!(t.seek(at + 5).is_err(), "nor replayed forward");
    // What ran stays: stepping back replays from the start.
    HEAP.with(|h| h.set(0));
    t.seek(120).unwrap();
    assert_eq!(t.sim().state_hash(), hashes[120]);
    t.step(usize::MAX).unwrap();
    assert_eq!(t.sim().state_hash(), *hashes.last().unwrap());
}

#[test]
fn a_step_that_reaches_the_limit_keeps_what_it_served() {
    let (mut t, _) = guarded(1 << 30);
    HEAP.with(|h| h.set(0));
    t.step(15).unwrap();
    // Under the limit for one look (two reads), over it from then on: the chunk to the
    // checkpoint boundary is served and kept; the next look ends the step without an error,
    // and the next step reports it.
    TURN_OVER_AFTER.with(|c| c.set(Some(2)));
    assert_eq!(t.step(100).unwrap(), 5);
    assert_eq!(t.sim().cursor(), 20);
    assert!(t.step(1).is_err());
    assert_eq!(t.sim().cursor(), 20);
    TURN_OVER_AFTER.with(|c| c.set(None));
}

#[test]
fn past_the_limit_the_oldest_checkpoints_go_first() {
    let (mut t, hashes) = guarded(1 << 30);
    HEAP.with(|h| h.set(0));
    t.step(100).unwrap();
    let before: Vec<usize> = t.checkpoint_cursors().collect();
    // Over the limit for two looks: two checkpoints go, and the heap is under it again.
    OVER_FOR.with(|c| c.set(2));
    t.step(1).unwrap();
    let after: Vec<usize> = t.checkpoint_cursors().collect();
    let kept: Vec<usize> = before.iter().copied().take(1).chain(before.iter().copied().skip(3)).collect();
    assert_eq!(after, kept, "the two oldest after the start go");
    // The start and the newest stay: a step back of a few requests replays a few requests.
    t.seek(95).unwrap();
    assert_eq!(t.sim().state_hash(), hashes[95]);
    t.seek(0).unwrap();
    assert_eq!(t.sim().state_hash(), hashes[0]);
}

#[test]
fn a_guarded_timeline_measures_what_a_copy_takes() {
    // DFTL on a small device: its tables fill as the trace goes, so a copy late in the run
    // is much larger than the start's.
    let (config, trace) = dftl_run(512, 9, 3_000);
    let sim = Sim::new(config, &trace, "r").unwrap();
    let guard = ftl_engine::HeapGuard { allocated: counting::live, limit: u64::MAX / 2 };
    let mut t = Timeline::new(sim, 500, 64).with_heap_guard(guard);
    let at_start = t.checkpoint_bytes();
    t.step(3_000).unwrap();
    let measured = t.checkpoint_bytes();
    let (copy, bytes) = counting::peak_of(|| t.sim().clone());
    drop(copy);
    assert!(bytes > at_start * 3 / 2, "the run grows the simulation: {at_start} -> {bytes}");
    assert!(
        measured.abs_diff(bytes) * 4 <= bytes,
        "the last checkpoint's measured copy ({measured}) is within a quarter of a copy ({bytes})"
    );
}

#[test]
fn after_the_heap_guard_stops_a_run_every_step_back_lands_where_it_was_asked() {
    // DFTL's tables grow as the trace goes, so a limit between its start and its end stops
    // the run part-way; replaying up to there may hold a little more than the first pass
    // did (the responses kept, vectors cloned to their length and grown again), so the
    // replay of a step back passes the limit where the first pass did not.
    let (config, trace) = dftl_run(512, 9, 6_000);
    let timeline = |limit| {
        let sim = Sim::new(config.clone(), &trace, "r").unwrap();
        Timeline::new(sim, 256, 64)
            .with_heap_guard(ftl_engine::HeapGuard { allocated: counting::live, limit })
    };
    // State hashes, and what the simulation grows by, request by request.
    let (mut hashes, mut grown) = (vec![], vec![]);
    {
        let mut plain = Sim::new(config.clone(), &trace, "r").unwrap();
        let built = counting::live();
        hashes.push(plain.state_hash());
        while plain.step(1).unwrap() == 1 {
            hashes.push(plain.state_hash());
            grown.push(counting::live().saturating_sub(built));
        }
    }
    let before = counting::live();
    let start = {
        let _t = timeline(u64::MAX / 2);
        counting::live() - before
    };
    // Limits meant to stop the run at several places in it (where the tables stop growing,
    // a run may also complete).
    let (mut stopped, mut refused) = (0, 0);
    let mut levels = grown.clone();
    levels.dedup();
    for level in (1..8).map(|i| levels[levels.len() * i / 8]) {
        let limit = before + start + level;
        let mut t = timeline(limit);
        let e = loop {
            match t.step(1) {
                Ok(_) if t.sim().done() => break None,
                Ok(_) => {}
                Err(e) => break Some(e),
            }
        };
        let Some(e) = e else { continue };
        stopped += 1;
        assert!(matches!(e, ftl_engine::error::EngineError::HostMemory(_)), "{e}");
        let at = t.sim().cursor();
        for back in [1, 2, 10, 100, 300, at].into_iter().filter(|&b| b <= at) {
            t.seek(at - back).unwrap_or_else(|e| panic!("seek back {back} from {at}: {e}"));
            assert_eq!(t.sim().state_hash(), hashes[at - back], "back {back} from {at}");
            // The app's step back to a request boundary: one before, then the request.
            if back >= 2 {
                t.step(1).unwrap_or_else(|e| panic!("step after seeking back {back} from {at}: {e}"));
                assert_eq!(t.sim().state_hash(), hashes[at - back + 1]);
            }
            t.seek(at).unwrap_or_else(|e| panic!("seek forward again to {at}: {e}"));
            assert_eq!(t.sim().state_hash(), hashes[at]);
        }
        // New ground past the limit stays refused. A replay holds a little less than the
        // first pass did (a copy's vectors hold only their length: about 3 KB less here), so
        // after one the heap may be back under the limit by that much, and the documented
        // rule ("stepping stops while the heap is past the limit") lets the run go on.
        if counting::live() > limit && t.checkpoints() == 1 {
            assert!(t.step(1).is_err(), "new ground past the limit stays refused");
            assert_eq!(t.sim().cursor(), at);
            refused += 1;
        }
    }
    assert!(stopped >= 4, "only {stopped} of the limits stopped the run");
    assert!(refused >= 1, "no limit was still past after a replay");
}

#[test]
fn a_copy_at_any_request_costs_one_copy_and_leaves_the_timeline_alone() {
    let (config, trace) = dftl_run(128, 4, 2_000);
    let hashes = hashes_of(Sim::new(config.clone(), &trace, "r").unwrap());
    let mut t = Timeline::new(Sim::new(config, &trace, "r").unwrap(), 50, 64);
    t.step(1_200).unwrap();
    assert!(t.checkpoints() > 10);
    let (one, copy_bytes) = counting::peak_of(|| t.sim().clone());
    drop(one);
    for at in [0, 1, 49, 50, 777, 1_199, 1_200, 1_500, 2_000, 9_999] {
        let (copy, peak) = counting::peak_of(|| t.sim_at(at).unwrap());
        assert_eq!(copy.state_hash(), hashes[at.min(2_000)], "at {at}");
        assert_eq!(copy.cursor(), at.min(2_000));
        assert!(
            peak < copy_bytes * 3,
            "a copy at {at} took {peak} bytes at its peak; one copy is {copy_bytes}"
        );
    }
    assert_eq!(t.sim().cursor(), 1_200, "the timeline stays where it was");
    assert_eq!(t.sim().state_hash(), hashes[1_200]);
}
