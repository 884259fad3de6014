//! The binary event records (the hot channel) carry exactly what the JSON events carry, on
//! real runs of every scheme.

mod common;

use std::collections::BTreeSet;

use common::shipped_trace;
use ftl_engine::events::record::{decode, encode, encode_costed, COST, EVENT_WORDS, KINDS};
use ftl_engine::ftl::SCHEMES;
use ftl_engine::vocab::TpCause;
use ftl_engine::{Sim, SimConfig};
use serde_json::Value;

#[test]
fn binary_records_decode_to_the_json_events_of_a_real_run() {
    let bytes = shipped_trace("msr-cambridge_hm_0_first1000.csv");
    let mut kinds_seen = BTreeSet::new();
    for s in SCHEMES {
        let config = SimConfig { scheme: s.info.id.into(), record_events: true, ..SimConfig::default() };
        let mut sim = Sim::from_bytes(config, &bytes, None, "hm_0").unwrap();
        sim.step(1000).unwrap();
        let events = sim.take_events();
        assert!(events.len() > 1000, "{}: a real run records events", s.info.id);
        let mut words = Vec::new();
        encode(&events, &mut words);
        assert_eq!(words.len(), events.len() * EVENT_WORDS);
        let json = serde_json::to_value(&events).unwrap();
        let back = serde_json::to_value(decode(&words).unwrap()).unwrap();
        assert_eq!(json, back, "{}: binary and JSON disagree", s.info.id);
        // The kind code names the JSON "type".
        for (record, event) in words.chunks_exact(EVENT_WORDS).zip(json.as_array().unwrap()) {
            assert_eq!(Value::from(KINDS[record[0] as usize]), event["type"]);
            kinds_seen.insert(record[0]);
        }
    }
    // Every kind went through the check (merges from the log-block schemes, OOB reads from
    // NFTL's replacement-block scans), but `cost`, which is no event (next test).
    assert_eq!(kinds_seen.len(), KINDS.len() - 1, "{kinds_seen:?}");
    assert!(!kinds_seen.contains(&COST));
}

/// The `cost` records (RAM and LRU time per tree operation) add up to the RAM and
/// LRU service time the metrics report, sit between the events they were charged between,
/// and leave the events and the state hash as they were.
#[test]
fn cost_records_sum_to_the_ram_and_lru_time_and_leave_events_alone() {
    let bytes = shipped_trace("msr-cambridge_hm_0_first1000.csv");
    for id in ["treeftl", "tree-pl", "aps", "jtl", "dftl"] {
        let run = |record_events| {
            let mut config = SimConfig { scheme: id.into(), record_events, ..SimConfig::default() };
            // The treeftl-slc preset's 2 µs per RAM and per cache operation (the defaults are 0).
            config.device.latency.ram_access_ns = 2000;
            config.device.latency.cache_op_ns = 2000;
            let mut sim = Sim::from_bytes(config, &bytes, None, "hm_0").unwrap();
            sim.step(1000).unwrap();
            sim
        };
        let mut sim = run(true);
        assert_eq!(sim.state_hash(), run(false).state_hash(), "{id}: recording costs changes no state");
        let (events, costs) = sim.take_events_costed();
        let mut words = Vec::new();
        encode_costed(&events, &costs, &mut words);
        assert_eq!(words.len(), (events.len() + costs.len()) * EVENT_WORDS);
        assert_eq!(decode(&words).unwrap(), events, "{id}: decode skips the cost records");
        let join = |lo: u32, hi: u32| u64::from(lo) | u64::from(hi) << 32;
        let (mut ram, mut lru, mut seen) = (0u64, 0u64, 0usize);
        for r in words.chunks_exact(EVENT_WORDS) {
            if r[0] == COST {
                ram += join(r[1], r[2]);
                lru += join(r[3], r[4]);
                assert!(join(r[1], r[2]) + join(r[3], r[4]) > 0, "{id}: a cost record charges something");
            } else {
                seen += 1;
            }
        }
        assert_eq!(seen, events.len());
        let m = serde_json::to_value(sim.metrics()).unwrap();
        let us = |k: &str| m["service_time_us"][k].as_f64().unwrap();
        assert!(ram > 0 && lru > 0, "{id}: RAM and LRU time are charged");
        assert!(
            (ram as f64 / 1000.0 - us("ram")).abs() < 1e-6 * us("ram").max(1.0),
            "{id}: RAM {ram} ns vs {}",
            us("ram")
        );
        assert!(
            (lru as f64 / 1000.0 - us("lru")).abs() < 1e-6 * us("lru").max(1.0),
            "{id}: LRU {lru} ns vs {}",
            us("lru")
        );
        assert!(costs.windows(2).all(|w| w[0].after < w[1].after), "{id}: one record per gap");
    }
}

#[test]
fn decode_refuses_torn_or_unknown_records() {
    assert!(decode(&[0; EVENT_WORDS + 1]).is_err());
    assert!(decode(&[99, 0, 0, 0, 0, 0, 0, 0]).unwrap_err().to_string().contains("kind 99"));
    assert!(decode(&[1, 0, 0, 9 << 16, 0, 0, 0, 0]).unwrap_err().to_string().contains("purpose 9"));
}

/// Merge events name their blocks (review engine-model §3(b)): the data
/// block (or none), the log block and the result block survive the binary round trip, and
/// the device counts the merge.
#[test]
fn merge_records_name_data_log_and_result_blocks() {
    use ftl_engine::config::{CellType, Latencies};
    use ftl_engine::device::Device;
    use ftl_engine::events::{Event, MergeCause, MergeKind, MergeWhy};
    use ftl_engine::flash::FlashArray;
    let mut dev = Device::new(FlashArray::new(8, 4, CellType::Slc), Latencies::default(), true);
    let why = |cause, written, degree| MergeWhy { cause, written, degree };
    dev.merge(MergeKind::Switch, 3, Some(1), 5, 5, why(MergeCause::InOrder, 4, 1));
    dev.merge(MergeKind::Full, 4, Some(2), 6, 7, why(MergeCause::Shared, 4, 3));
    dev.merge(MergeKind::Partial, 0, None, 0, 0, why(MergeCause::InOrder, 2, 1));
    dev.merge(MergeKind::Full, 1, Some(3), 4, 2, why(MergeCause::Fold, 3, 1));
    assert_eq!(dev.stats.merges, [1, 1, 2]);
    let events = dev.take_events();
    assert_eq!(
        events[1],
        Event::Merge {
            kind: MergeKind::Full,
            lbn: 4,
            data_block: Some(2),
            log_block: 6,
            result_block: 7,
            cause: MergeCause::Shared,
            written: 4,
            degree: 3
        }
    );
    let mut words = Vec::new();
    encode(&events, &mut words);
    // Kind 2 (full) | cause 2 (shared) << 8; 4 pages written; degree 3.
    assert_eq!(&words[8..16], &[12, 2 | 2 << 8, 4, 2, 6, 7, 4, 3]);
    assert_eq!(words[24 + 1], 2 | 4 << 8, "a fold");
    assert_eq!(words[16 + 3], u32::MAX, "no data block");
    assert_eq!(decode(&words).unwrap(), events);
    let json = serde_json::to_value(&events[2]).unwrap();
    assert_eq!(json["data_block"], Value::Null);
    assert_eq!(json["result_block"], 0);
    assert_eq!(json["cause"], "in_order");
    assert_eq!(serde_json::to_value(&events[3]).unwrap()["cause"], "fold");
}

/// Recording events changes nothing but the events: every scheme, and HCFTL with a RAM small
/// enough to load a DTP every few requests (it admits a loaded DTP's entries one by one when
/// recording, for their events, and as one run otherwise), give the same state after every
/// request either way.
#[test]
fn recording_events_changes_no_state() {
    let bytes = shipped_trace("msr-cambridge_hm_0_first1000.csv");
    let mut configs: Vec<SimConfig> =
        SCHEMES.iter().map(|s| SimConfig { scheme: s.info.id.into(), ..SimConfig::default() }).collect();
    for channels in [1, 4] {
        let mut c = SimConfig { scheme: "hcftl".into(), ..SimConfig::default() };
        c.ram.bytes = 4096;
        c.device.channels = channels;
        configs.push(c);
    }
    for config in configs {
        let run = |record_events| {
            let config = SimConfig { record_events, ..config.clone() };
            let mut sim = Sim::from_bytes(config, &bytes, None, "hm_0").unwrap();
            let mut hashes = vec![sim.state_hash()];
            while sim.step(1).unwrap() == 1 {
                hashes.push(sim.state_hash());
                sim.take_events();
            }
            (
                hashes,
                format!("{:?}", sim.device().stats),
                sim.device().stats.tpage_reads[TpCause::DtpLoad as usize],
            )
        };
        let (quiet, recorded) = (run(false), run(true));
        let label = format!("{} on {} channels", config.scheme, config.device.channels);
        assert_eq!(quiet.0.len(), recorded.0.len(), "{label}");
        let first = quiet.0.iter().zip(&recorded.0).position(|(a, b)| a != b);
        assert_eq!(first, None, "{label}: the states part after this many requests");
        assert_eq!(quiet.1, recorded.1, "{label}: the counters differ");
        if config.ram.bytes == 4096 {
            assert!(quiet.2 > 50, "{label}: {} DTP loads, too few to compare the paths", quiet.2);
        }
    }
}
