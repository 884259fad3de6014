//! The stand-ins with correlated re-reference (requests in visits to groups of scattered
//! extents): reproducible from their seed, with Table II's mean request and read share, the
//! correlation built in, and every series of the HCFTL experiments under the integrity oracle
//! on them.

use ftl_engine::experiments::{experiment, standins};
use ftl_engine::trace::generate::{generate, GenParams, Generator};
use ftl_engine::trace::{HostOp, Request};
use ftl_engine::Sim;

const REGION: u64 = standins::GROUP_REGION;

fn first(p: GenParams, n: usize) -> Vec<Request> {
    Generator::new(p).unwrap().take(n).collect()
}

#[test]
fn the_same_seed_gives_the_same_trace_and_another_seed_another() {
    let p = standins::proj_3_grouped();
    assert_eq!(first(p.clone(), 20_000), first(p.clone(), 20_000));
    let other = GenParams { seed: p.seed + 1, ..p.clone() };
    assert_ne!(first(p, 20_000), first(other, 20_000));
}

/// Table II's mean request size and read ratio, within a few per cent over 200,000 requests.
#[test]
fn the_grouped_stand_ins_keep_table_ii_s_mean_request_and_read_share() {
    for (p, kb, reads) in [(standins::proj_3_grouped(), 9.75, 0.95), (standins::hm_0_grouped(), 8.89, 0.35)] {
        let r = first(p, 200_000);
        let mean = r.iter().map(|q| f64::from(q.size)).sum::<f64>() / r.len() as f64 / 1024.0;
        let share = r.iter().filter(|q| q.op == HostOp::Read).count() as f64 / r.len() as f64;
        assert!((mean / kb - 1.0).abs() < 0.05, "mean request {mean:.2} KB against Table II's {kb}");
        assert!((share - reads).abs() < 0.01, "read share {share:.3} against Table II's {reads}");
        assert!(r.iter().all(|q| q.offset + u64::from(q.size) <= standins::GROUPED_ADDRESS_SPACE));
    }
    // The groups' pages together cover four times the reach of 1.26 MB of 8-byte entries.
    let groups = standins::GROUPED_ADDRESS_SPACE / REGION;
    assert_eq!(groups as f64 * standins::GROUP_DENSITY * 1024.0, 4.0 * 1_260_000.0 / 8.0);
}

/// The correlation: consecutive requests stay in one group's region for a visit (the
/// independent Zipf stand-in far less often), a region's requests only ever touch its
/// group's extents (about 150 of its 1024 pages, however often it is visited), and groups
/// are visited again.
#[test]
fn requests_come_in_visits_to_fixed_groups_of_scattered_pages() {
    let same_region = |r: &[Request]| {
        r.windows(2).filter(|w| w[0].offset / REGION == w[1].offset / REGION).count() as f64
            / (r.len() - 1) as f64
    };
    let grouped = first(standins::proj_3_grouped(), 200_000);
    let independent = first(standins::proj_3_hcftl(), 200_000);
    assert!(same_region(&grouped) > 0.95, "grouped: {}", same_region(&grouped));
    // Independent Zipf draws share a region mostly when both fall in the hottest one (rank 1
    // is offset 0): about 0.28 here.
    assert!(same_region(&independent) < 0.5, "independent: {}", same_region(&independent));

    let mut pages: std::collections::BTreeMap<u64, std::collections::BTreeSet<u64>> = Default::default();
    let mut visits: std::collections::BTreeMap<u64, u32> = Default::default();
    let mut prev = u64::MAX;
    for q in &grouped {
        let region = q.offset / REGION;
        let set = pages.entry(region).or_default();
        set.extend(q.offset / 4096..(q.offset + u64::from(q.size)).div_ceil(4096));
        if region != prev {
            *visits.entry(region).or_default() += 1;
        }
        prev = region;
    }
    let limit = (standins::GROUP_DENSITY * 1024.0).round() as usize;
    assert!(pages.values().all(|s| s.len() <= limit), "a region's pages stay within its group's {limit}");
    let hottest = visits.iter().max_by_key(|(_, &n)| n).map(|(&r, &n)| (r, n)).unwrap();
    assert!(hottest.1 >= 20, "the hottest group is visited again and again: {hottest:?}");
    // Visited many times, it still touches no more than its extents (and most of them).
    let touched = pages[&hottest.0].len();
    assert!(touched > limit * 3 / 4, "the hottest group's visits cover its extents: {touched}");
}

/// Every series of the two HCFTL experiments, on a scaled-down grouped stand-in (256 groups,
/// 20,000 requests) and a device around it with 64 KiB of RAM, so that CMT evictions, DTP
/// packing, DTP loads and GC all happen, under the integrity oracle with invariant checks.
#[test]
fn every_hcftl_experiment_series_keeps_every_page_on_the_grouped_stand_in() {
    let p = GenParams { count: 20_000, address_space: 256 * REGION, ..standins::proj_3_grouped() };
    let p = GenParams { read_share: 0.5, ..p };
    let trace = generate(p).unwrap();
    for name in ["hcftl-figs-4-5", "hcftl-long-run"] {
        let e = experiment(name).unwrap();
        let points = e.points().unwrap();
        for point in points.iter().filter(|pt| pt.index == 0) {
            let mut config = point.config.clone();
            config.device.blocks = 1200; // 300 MiB: the 256 MiB space and room for GC
            config.device.over_provisioning = 0.1;
            config.device.utilization = 0.0;
            config.ram.bytes = 64 << 10;
            let label = format!("{name} / {}", point.series);
            let mut sim = Sim::new(config, &trace, "grouped").unwrap_or_else(|e| panic!("{label}: {e}"));
            let mut steps = 0;
            while !sim.done() {
                sim.step(1).unwrap_or_else(|e| panic!("{label}: request {}: {e}", sim.cursor()));
                steps += 1;
                if steps % 500 == 0 {
                    sim.check_invariants().unwrap_or_else(|e| panic!("{label}: after {steps}: {e}"));
                }
            }
            sim.check_invariants().unwrap_or_else(|e| panic!("{label}: at the end: {e}"));
            assert_eq!(sim.oracle().errors(), 0, "{label}: {:?}", sim.oracle().first_error());
            let j = serde_json::to_value(sim.metrics()).unwrap();
            assert!(j["mapping"]["hit_ratio"].as_f64().unwrap() < 1.0, "{label}: the CMT overflows");
            if point.scheme == "hcftl" {
                let loads = j["translation_pages"]["reads"]["dtp_load"].as_u64().unwrap();
                assert!(loads > 0, "{label}: DTPs are loaded");
            }
        }
    }
}
