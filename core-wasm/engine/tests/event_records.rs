//! The binary event records (the hot channel) carry exactly what the JSON events carry, on
//! real runs of every scheme.

mod common;

use std::collections::BTreeSet;

use common::shipped_trace;
use ftl_engine::events::record::{decode, encode, EVENT_WORDS, KINDS};
use ftl_engine::ftl::SCHEMES;
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
    // Everything page and DFTL produce (all but OOB reads and merges) went through the check.
    assert_eq!(kinds_seen.len(), KINDS.len() - 2, "{kinds_seen:?}");
}

#[test]
fn decode_refuses_torn_or_unknown_records() {
    assert!(decode(&[0; EVENT_WORDS + 1]).is_err());
    assert!(decode(&[99, 0, 0, 0, 0, 0, 0, 0]).unwrap_err().to_string().contains("kind 99"));
    assert!(decode(&[1, 0, 0, 9 << 16, 0, 0, 0, 0]).unwrap_err().to_string().contains("purpose 9"));
}
