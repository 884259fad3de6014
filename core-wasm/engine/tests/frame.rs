//! The frame's counters are read directly (not through `Sim::metrics`, which is too costly
//! per animation frame): they must still agree with the metrics report.

mod common;

use common::shipped_trace;
use ftl_engine::frame::FrameReader;
use ftl_engine::{Frame, Sim, SimConfig, COUNTER_NAMES};

#[test]
fn frame_counters_agree_with_the_metrics_report() {
    let bytes = shipped_trace("msr-cambridge_hm_0_first1000.csv");
    for scheme in ftl_engine::ftl::SCHEMES.iter().map(|s| s.info.id) {
        let mut sim =
            Sim::from_bytes(SimConfig { scheme: scheme.into(), ..SimConfig::default() }, &bytes, None, "t")
                .unwrap();
        for n in [0, 1, 250, 749] {
            sim.step(n).unwrap();
            let f = Frame::capture(&sim);
            let m = sim.metrics();
            let c = |name: &str| f.counters[COUNTER_NAMES.iter().position(|n| *n == name).unwrap()];
            assert_eq!(c("requests_done"), m.requests_done as f64);
            assert_eq!(c("reads"), m.requests.reads as f64);
            assert_eq!(c("writes"), m.requests.writes as f64);
            assert_eq!(c("pages_written"), m.requests.pages_written as f64);
            assert_eq!(c("flash_page_writes"), m.flash.page_writes as f64);
            assert_eq!(c("flash_erases"), m.flash.erases as f64);
            assert_eq!(c("gc_runs"), m.gc.runs as f64);
            assert_eq!(c("gc_valid_copies"), m.gc.valid_copies as f64);
            assert_eq!(c("waf"), m.waf);
            assert_eq!(c("integrity_errors"), m.integrity_errors as f64);
            assert_eq!(c("sim_time_us"), m.sim_time_us);
            assert_eq!(c("response_mean_us"), m.response_us.mean);
            assert_eq!(c("ram_bytes"), m.ram_bytes as f64);
        }
        assert!(sim.metrics().gc.runs > 0, "{scheme}: the check covers GC counters too");
    }
}

/// The grid colours each block by the role its logical block gives it: RFTL's frame marks a
/// logical block's primary, replacement and buffer, each where the scheme's own account of
/// the block (its duty, the grid's hover text) puts it. Fig 4.5's device and writes (β = 4,
/// k = 3 on 8-page blocks) up to the circular shift (e), when logical block 0 has all three.
#[test]
fn rftl_frame_marks_each_logical_blocks_primary_replacement_and_buffer() {
    use ftl_engine::ftl::BlockRole;
    use ftl_engine::inspect::InspectQuery;

    let mut config = SimConfig { scheme: "rftl".into(), ..SimConfig::default() };
    config.options = serde_json::json!({"reserve": "checked"});
    let d = &mut config.device;
    (d.blocks, d.pages_per_block, d.over_provisioning) = (12, 8, 0.75);
    let l = &mut d.latency;
    (l.page_read_ns, l.oob_read_ns, l.program_ns, l.erase_ns) = (25_000, 50_000, 300_000, 2_000_000);
    // Fill the primary (a), the buffer takes w0–w2 (b), the new primary fills and w5, w6 go
    // to the buffer (c), w7–w9 during the merge (d) and then the shift (e).
    let lpns = [0, 1, 2, 3, 4, 5, 0, 1, 6, 7, 6, 2, 3, 4, 5, 0, 7, 6];
    let page = config.device.page_bytes;
    let mut csv = String::from("op,offset,size,time_us\n");
    for (i, l) in lpns.iter().enumerate() {
        csv += &format!("W,{},{page},{}\n", l * page, i * 10_000);
    }
    let mut sim = Sim::from_bytes(config, csv.as_bytes(), None, "fig 4.5").unwrap();
    sim.step(lpns.len()).unwrap();
    assert_eq!(sim.metrics().integrity_errors, 0);

    let frame = Frame::capture(&sim);
    let mut lbn0 = Vec::new();
    for (block, &role) in frame.block_roles.iter().enumerate() {
        let query = InspectQuery { block: Some(block as u32), ..InspectQuery::with_limit(0) };
        let duty = sim.inspect_query(query).block;
        let said = duty.as_ref().map(|d| d.role.as_str());
        let want = match said {
            Some("primary") => BlockRole::Primary,
            Some("replacement") => BlockRole::Replacement,
            Some("buffer") => BlockRole::Buffer,
            None => BlockRole::Free,
            Some(other) => panic!("block {block}: unexpected duty {other}"),
        };
        assert_eq!(role, want as u8, "block {block} ({said:?})");
        if duty.is_some_and(|d| d.lbn == Some(0)) {
            lbn0.push(role);
        }
    }
    lbn0.sort_unstable();
    let want = [BlockRole::Replacement as u8, BlockRole::Buffer as u8, BlockRole::Primary as u8];
    assert_eq!(lbn0, want, "logical block 0 has one block of each role");
}

/// Applies a packed change list (FrameReader::changes) to a whole frame's arrays.
fn apply(f: &mut Frame, packed: &[u8], ppb: usize) -> Vec<u32> {
    let n = packed.len() / (13 + ppb);
    assert_eq!(packed.len(), n * (13 + ppb), "the packed length is whole blocks");
    let word = |i: usize| u32::from_le_bytes(packed[4 * i..4 * i + 4].try_into().unwrap());
    let blocks: Vec<u32> = (0..n).map(word).collect();
    for (k, &b) in blocks.iter().enumerate() {
        let b = b as usize;
        f.valid_counts[b] = word(n + k);
        f.erase_counts[b] = word(2 * n + k);
        f.block_roles[b] = packed[12 * n + k];
        let pages = &packed[13 * n + k * ppb..13 * n + (k + 1) * ppb];
        f.page_states[b * ppb..(b + 1) * ppb].copy_from_slice(pages);
    }
    blocks
}

/// The blocks a batch of events names (programs, invalidations, erases).
fn touched(sim: &mut Sim, ppb: u32) -> Vec<u32> {
    use ftl_engine::events::Event;
    let mut out = Vec::new();
    for e in sim.take_events() {
        match e {
            Event::FlashProgram { block, .. } => out.push(block),
            Event::Invalidate { ppn } => out.push(ppn / ppb),
            Event::Erase { block, .. } => out.push(block),
            _ => {}
        }
    }
    out
}

#[test]
fn change_lists_from_the_touched_blocks_rebuild_every_frame() {
    let bytes = shipped_trace("msr-cambridge_hm_0_first1000.csv");
    for scheme in ftl_engine::ftl::SCHEMES.iter().map(|s| s.info.id) {
        let config = SimConfig { scheme: scheme.into(), record_events: true, ..SimConfig::default() };
        let mut sim = Sim::from_bytes(config, &bytes, None, "t").unwrap();
        let ppb = sim.config().device.pages_per_block;
        let mut reader = FrameReader::new();
        let mut mirror = reader.whole(&sim);
        let mut some_changed = false;
        for n in [1, 3, 40, 200, 500] {
            sim.step(n).unwrap();
            let t = touched(&mut sim, ppb);
            let changed = apply(&mut mirror, reader.changes(&sim, &t).unwrap(), ppb as usize);
            some_changed |= !changed.is_empty();
            assert!(changed.windows(2).all(|w| w[0] < w[1]), "{scheme}: blocks increasing, each once");
            assert_eq!(
                mirror,
                Frame { counters: mirror.counters.clone(), ..Frame::capture(&sim) },
                "{scheme} after {n}"
            );
        }
        assert!(some_changed, "{scheme}: the run changed something");
    }
}

#[test]
fn without_a_baseline_every_block_is_a_change() {
    let bytes = shipped_trace("msr-cambridge_hm_0_first1000.csv");
    let mut sim = Sim::from_bytes(SimConfig::default(), &bytes, None, "t").unwrap();
    let (blocks, ppb) = (sim.config().device.blocks as usize, sim.config().device.pages_per_block as usize);
    let mut reader = FrameReader::new();
    assert_eq!(reader.changes(&sim, &[]).unwrap().len(), blocks * (13 + ppb));
    assert!(reader.changes(&sim, &[]).unwrap().is_empty(), "nothing moved since");
    sim.step(10).unwrap();
    reader.forget();
    assert_eq!(reader.changes(&sim, &[]).unwrap().len(), blocks * (13 + ppb));
    let err = reader.changes(&sim, &[blocks as u32]).unwrap_err();
    assert!(err.contains(&format!("block {blocks}")), "{err}");
}
