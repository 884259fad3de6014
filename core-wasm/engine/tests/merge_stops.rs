//! "Next merge": stepping until a merge stops at the request of each merge kind,
//! on a hand-made BAST case (4-page blocks, one log block, 4 logical blocks).

use ftl_engine::config::SimConfig;
use ftl_engine::sim::StopAt;
use ftl_engine::{Sim, Timeline};
use serde_json::json;

#[test]
fn next_merge_finds_the_switch_the_partial_and_the_full_merge() {
    // LPNs written in order: the 16 pages in place, LBN 0 rewritten front to back (its log
    // block complete and in order), LPN 4 (LBN 1 needs the only log block: switch), LPN 9
    // (LBN 1's log holds offset 0 only: partial), 10 and 9 again (out of order), 13 (full).
    let lpns: Vec<u32> = (0..16).chain([0, 1, 2, 3, 4, 9, 10, 9, 13]).collect();
    let mut csv = String::from("op,offset,size,time_us\n");
    for (i, l) in lpns.iter().enumerate() {
        csv += &format!("W,{},4096,{}\n", l * 4096, i * 1000);
    }
    let mut config =
        SimConfig { scheme: "bast".into(), options: json!({"log_blocks": 1}), ..SimConfig::default() };
    config.device.blocks = 8;
    config.device.pages_per_block = 4;
    config.device.over_provisioning = 0.5;
    let sim = Sim::from_bytes(config, csv.as_bytes(), None, "merges").unwrap();
    let mut t = Timeline::new(sim, 100, 8);
    let mut stops = Vec::new();
    loop {
        let before = t.sim().metrics().gc.merges;
        let (_, hit) = t.step_until(StopAt::Merge, usize::MAX).unwrap();
        if !hit {
            break;
        }
        let after = t.sim().metrics().gc.merges;
        let kind = [
            ("switch", after.switch - before.switch),
            ("partial", after.partial - before.partial),
            ("full", after.full - before.full),
        ]
        .into_iter()
        .filter(|&(_, n)| n > 0)
        .map(|(k, _)| k)
        .collect::<Vec<_>>();
        stops.push((t.sim().last_request().lpn, kind));
    }
    assert_eq!(
        stops,
        vec![(4, vec!["switch"]), (9, vec!["partial"]), (13, vec!["full"])],
        "each stop is the request whose merge it names"
    );
}
