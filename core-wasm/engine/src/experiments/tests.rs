use serde_json::json;

use super::*;

fn result(trace: &str, series: &str, index: usize, metrics: Value) -> RunResult {
    RunResult { trace: trace.into(), series: series.into(), index, metrics }
}

#[test]
fn every_entry_expands_to_valid_configs_and_its_reported_numbers_point_at_its_own_runs() {
    let shipped = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../public/traces");
    for e in EXPERIMENTS {
        let points = e.points().unwrap_or_else(|err| panic!("{}: {err}", e.name));
        let values = crate::sweep::parse_values(&e.param_key().unwrap(), e.values).unwrap();
        assert_eq!(points.len(), values.len() * e.registered_series().len(), "{}", e.name);
        assert!(!e.registered_series().is_empty(), "{}", e.name);
        assert!(e.series_by_id(e.baseline).is_some(), "{}: baseline is one of its series", e.name);
        let mut ids: Vec<&str> = e.series.iter().map(|s| s.id).collect();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), e.series.len(), "{}: series ids are unique", e.name);
        for r in e.reported {
            assert!(e.series_by_id(r.scheme).is_some(), "{}: {}", e.name, r.what);
            if let Measure::ReductionVs(v) | Measure::GainVs(v) = r.measure {
                assert!(e.series_by_id(v).is_some(), "{}: {} against {v}", e.name, r.what);
            }
            assert!(r.values.iter().all(|&i| i < values.len()), "{}: {}", e.name, r.what);
            assert!(r.paper.0 <= r.paper.1, "{}: {}", e.name, r.what);
            let named: &[&str] = match &r.scope {
                Scope::Trace(t) => std::slice::from_ref(t),
                Scope::Traces(ts) => ts,
                _ => &[],
            };
            for t in named {
                assert!(e.traces.iter().any(|x| x.id == *t), "{}: {} names trace {t}", e.name, r.what);
            }
        }
        if !e.reported.is_empty() {
            assert!(e.effect_traces().next().is_some(), "{}: rows need a trace carrying the effect", e.name);
        }
        for t in e.traces {
            match t.source {
                TraceSource::Shipped(f) => {
                    assert!(shipped.join(f).is_file(), "{}: {f} is not shipped", e.name)
                }
                TraceSource::Generated(_) => {
                    assert!(
                        t.stands_in_for.contains("SYNTHETIC"),
                        "{}: {} is labelled synthetic",
                        e.name,
                        t.id
                    );
                }
            }
        }
        let j = e.to_json().unwrap();
        assert_eq!(j["points"].as_array().unwrap().len(), points.len());
        assert!(!e.differences.is_empty());
    }
    assert!(experiment("nope").unwrap_err().to_string().contains("treeftl-figs-4-5"));
}

/// Share of the footprint's 16 KB pages (the Shin device's) that `requests` write.
fn written_share(requests: &[crate::trace::Request], footprint: u64) -> f64 {
    let page = 16 * 1024;
    let mut written = std::collections::BTreeSet::new();
    for r in requests.iter().filter(|r| r.op == crate::trace::HostOp::Write) {
        written.extend(r.offset / page..(r.offset + u64::from(r.size)).div_ceil(page));
    }
    written.len() as f64 / (footprint / page) as f64
}

#[test]
fn the_shin_device_is_sized_so_the_footprint_over_capacity_is_the_utilization() {
    let shin = experiment("shin-fig-3").unwrap();
    let points = shin.points().unwrap();
    let page: Vec<&Point> = points.iter().filter(|p| p.series == "page").collect();
    let u: Vec<f64> = page.iter().map(|p| p.value.as_f64().unwrap()).collect();
    assert_eq!(u, vec![0.4, 0.5, 0.6, 0.7, 0.8, 0.85, 0.9]);
    let footprint = standins::SHIN_FOOTPRINT;
    let mut last_blocks = u32::MAX;
    for p in &page {
        let d = &p.config.device;
        // Seed 004's capacity is the whole device (page mapping hides only GC's block).
        let capacity = u64::from(d.blocks) * u64::from(d.pages_per_block) * u64::from(d.page_bytes);
        let want = p.value.as_f64().unwrap();
        let got = footprint as f64 / capacity as f64;
        // Whole blocks: just under u, and one block fewer would be over it.
        assert!(got <= want && got > want * 0.97, "u {want}: footprint / capacity {got}");
        let smaller = capacity - u64::from(d.pages_per_block) * u64::from(d.page_bytes);
        assert!(footprint as f64 > want * smaller as f64, "u {want}: one block fewer would do");
        assert!(d.blocks < last_blocks, "higher utilization, smaller device");
        last_blocks = d.blocks;
        // The whole footprint is pre-filled, and nothing beyond it.
        let prefilled = (d.utilization * d.logical_pages() as f64).floor() as u64;
        assert_eq!(prefilled, footprint / d.page_bytes as u64, "u {want}");
    }
    // Each stand-in stays inside the footprint and writes at least three times it.
    for t in shin.traces {
        let trace = shin.generated(t.id).unwrap();
        let end = trace.requests.iter().map(|r| r.offset + u64::from(r.size)).max().unwrap();
        assert!(end <= footprint, "{}: {end}", t.id);
        let written: u64 = trace
            .requests
            .iter()
            .filter(|r| r.op == crate::trace::HostOp::Write)
            .map(|r| u64::from(r.size))
            .sum();
        assert!(written >= 3 * footprint, "{}: writes {written}", t.id);
        // Seed 004's footprint is what the trace writes (62 of 66 GB): nearly all of it.
        assert!(written_share(&trace.requests, footprint) > 0.95, "{}", t.id);
    }
    // The first stand-ins' 80/20 skew left over a quarter of the footprint unwritten.
    for old in [standins::shin_a_8020(), standins::shin_b_8020()] {
        let r = crate::trace::generate::generate(old).unwrap().requests;
        assert!(written_share(&r, footprint) < 0.8);
    }
    // The pre-fill axis is kept under its own name, on a fixed device.
    let prefill = experiment("shin-prefill-share").unwrap().points().unwrap();
    assert!(prefill.iter().all(|p| p.config.device.blocks == 512 && p.key == "device.utilization"));
    // A user's trace brings its own footprint.
    let big = shin.points_with_footprint(Some(2 * footprint)).unwrap();
    assert!(big[0].config.device.blocks > points[0].config.device.blocks);
}

#[test]
fn the_hcftl_comparison_runs_tpftl_in_seed_001s_baseline_form_and_prefetching_tpftl_apart() {
    let e = experiment("hcftl-figs-4-5").unwrap();
    let points = e.points().unwrap();
    let of = |series: &str| points.iter().find(|p| p.series == series).unwrap();
    let baseline = of("tpftl-baseline");
    assert_eq!(baseline.scheme, "tpftl");
    assert_eq!(baseline.config.options["request_prefetch"], false);
    assert_eq!(baseline.config.options["sequential_threshold"], 0);
    // The same options as the scheme's named seed001-baseline variant.
    let variants = (crate::ftl::spec("tpftl").unwrap().variants)();
    let (_, form) = variants.iter().find(|(n, _)| *n == "seed001-baseline").unwrap();
    for (k, v) in form.as_object().unwrap() {
        assert_eq!(&baseline.config.options[k], v, "{k}");
    }
    let prefetch = of("tpftl-prefetch");
    assert_eq!(prefetch.config.options, crate::ftl::spec("tpftl").unwrap().default_options());
    assert_eq!(prefetch.config.options["request_prefetch"], true);
    // Every row against TPFTL is against the baseline form; 2 MB at the paper's 128 GB device.
    for r in e.reported {
        assert_ne!(r.measure, Measure::GainVs("tpftl-prefetch"), "{}", r.what);
        assert_ne!(r.measure, Measure::ReductionVs("tpftl-prefetch"), "{}", r.what);
    }
    assert!(points.iter().all(|p| p.config.ram.bytes == 2 << 20), "2 MB for every scheme");
    // The TreeFTL experiment flushes at the end and shows both LRU cost models.
    let tree = experiment("treeftl-figs-4-5").unwrap().points().unwrap();
    assert!(tree.iter().all(|p| p.config.workload.flush_at_end));
    let scan = tree.iter().find(|p| p.series == "aps-scan").unwrap();
    assert_eq!(scan.config.options["lru_items_per_op"], 64);
    assert_ne!(tree.iter().find(|p| p.series == "aps").unwrap().config.options["lru_items_per_op"], 64);
}

fn row(measure: Measure, paper: (f64, f64), factor: Option<f64>) -> Reported {
    Reported {
        what: "x",
        metric: "m",
        scheme: "a",
        measure,
        scope: Scope::EachTrace,
        values: &[0],
        paper,
        paper_on: "",
        factor,
        why_not: "measured reason",
    }
}

#[test]
fn agreement_checks_direction_then_magnitude_within_the_rows_factor() {
    let gain = row(Measure::GainVs("b"), (10.0, 40.0), None);
    assert_eq!(agreement(&gain, None).status, "open");
    let a = agreement(&gain, Some(&[5.0, 80.0]));
    assert_eq!((a.status, a.direction, a.reason.as_deref()), ("agrees", Some(true), None));
    assert_eq!(a.factor, Some(2.0), "80 is twice the paper's high end");
    // One cell the other way, or no difference at all, is not agreement in direction.
    for cells in [[5.0, -3.0], [5.0, 0.2]] {
        let a = agreement(&gain, Some(&cells));
        assert_eq!((a.status, a.direction, a.factor), ("disagrees", Some(false), None), "{cells:?}");
        assert_eq!(a.reason.as_deref(), Some("measured reason"));
    }
    // With a factor: inside it agrees, outside it is direction only.
    let built = row(Measure::ReductionVs("b"), (41.1, 41.1), Some(2.0));
    assert_eq!(agreement(&built, Some(&[25.0])).status, "agrees");
    let a = agreement(&built, Some(&[10.0]));
    assert_eq!(a.status, "direction");
    assert!((a.factor.unwrap() - 4.11).abs() < 1e-9);
    assert_eq!(a.reason.as_deref(), Some("measured reason"));
    // A paper range below zero: ours must be below zero too.
    let neg = row(Measure::GainVs("b"), (-30.0, -5.0), None);
    assert_eq!(agreement(&neg, Some(&[-10.0])).status, "agrees");
    assert_eq!(agreement(&neg, Some(&[10.0])).status, "disagrees");
    // A single scheme's value has no direction; magnitude only where the row asks.
    let value = row(Measure::Percent, (99.4, 99.4), None);
    let a = agreement(&value, Some(&[50.0]));
    assert_eq!((a.status, a.direction, a.reason), ("value", None, None));
    let checked = row(Measure::Percent, (99.4, 99.4), Some(1.1));
    assert_eq!(agreement(&checked, Some(&[95.0])).status, "agrees");
    assert_eq!(agreement(&checked, Some(&[50.0])).status, "disagrees");
}

#[test]
fn our_numbers_are_measured_as_the_paper_states_them_on_the_traces_carrying_the_effect() {
    let e = experiment("hcftl-figs-4-5").unwrap();
    // Hand-made metrics: hcftl's hit ratio 0.9 vs dftl's 0.6 on proj_3 (+50 %) and 0.8 vs
    // 0.4 on hm_0 (+100 %); response 30 vs 40 µs (25 % less) on both.
    let m = |hit: f64, resp: f64| json!({"mapping": {"hit_ratio": hit}, "response_us": {"mean": resp, "std": 1.0}});
    let mut results = vec![
        result("proj_3-synthetic", "hcftl", 0, m(0.9, 30.0)),
        result("proj_3-synthetic", "dftl", 0, m(0.6, 40.0)),
        // A trace behind no row: a result there changes nothing.
        result("websearch", "hcftl", 0, m(0.1, 90.0)),
        result("websearch", "dftl", 0, m(0.5, 10.0)),
    ];
    let rows = report(e, &results);
    assert_eq!(rows[0].ours, None, "hm_0-synthetic has not run yet");
    assert_eq!(rows[0].note, "runs not finished");
    assert_eq!(rows[0].agreement.status, "open");
    results.push(result("hm_0-synthetic", "hcftl", 0, m(0.8, 30.0)));
    results.push(result("hm_0-synthetic", "dftl", 0, m(0.4, 40.0)));
    let rows = report(e, &results);
    let (lo, hi) = rows[0].ours.unwrap();
    assert!((lo - 50.0).abs() < 1e-9 && (hi - 100.0).abs() < 1e-9, "{lo} {hi}");
    assert_eq!(rows[0].agreement.status, "agrees");
    let reduction = rows.iter().find(|r| r.what == "HCFTL mean response time below DFTL").unwrap();
    assert_eq!(reduction.ours, Some((25.0, 25.0)));
    assert_eq!(rows[0].paper, (15.5, 800.0));
    // The user's own trace in a slot counts as carrying the effect.
    results.push(result("websearch", "dftl", 0, m(0.5, 10.0)));
    let rows = report_for(e, &results, &["websearch".to_string()]);
    assert_eq!(rows[0].ours.map(|o| o.0.round()), Some(-80.0), "websearch's 0.1 against 0.5 joins the range");
    assert_eq!(rows[0].agreement.status, "disagrees");
    assert!(rows[0].note.contains("websearch (your trace)"), "{}", rows[0].note);
    // A total sums the metric over the traces carrying the effect before the ratio.
    let t = experiment("treeftl-figs-4-5").unwrap();
    let s = |v: f64| json!({"service_time_us": {"total": v}});
    let results: Vec<RunResult> = [("hm_0-synthetic", 3.0, 4.0), ("cloudphysics", 100.0, 1.0)]
        .iter()
        .flat_map(|&(tr, tree, aps)| [result(tr, "treeftl", 3, s(tree)), result(tr, "aps", 3, s(aps))])
        .collect();
    let rows = report(t, &results);
    assert_eq!(rows[0].ours, Some((25.0, 25.0)));
    assert_eq!(rows[0].note, "sum over hm_0-synthetic");
    // The old `scheme` name of a result's series still reads.
    let old: RunResult =
        serde_json::from_value(json!({"trace": "t", "scheme": "dftl", "index": 0, "metrics": {}})).unwrap();
    assert_eq!(old.series, "dftl");
}

#[test]
fn the_thesis_chapter_3_and_4_experiments_report_the_rows_of_their_tables() {
    let whats = |name: &str| -> Vec<&'static str> {
        experiment(name).unwrap().reported.iter().map(|r| r.what).collect()
    };
    // MNFTL: response, copies and erases below each of DFTL, SFTL and GFTL (Figs 3.8–3.10).
    let m = experiment("mnftl-figs-3-8-3-10").unwrap();
    for metric in ["response_us.mean", "gc.valid_copies", "flash.erases"] {
        for other in ["dftl", "sftl", "gftl"] {
            assert!(
                m.reported.iter().any(|r| r.metric == metric
                    && r.scheme == "mnftl"
                    && r.measure == Measure::ReductionVs(other)),
                "{metric} against {other}"
            );
        }
    }
    let vs_dftl = m
        .reported
        .iter()
        .find(|r| r.metric == "response_us.mean" && r.measure == Measure::ReductionVs("dftl"))
        .unwrap();
    assert_eq!(vs_dftl.paper, (30.92, 30.92));
    assert!(m.points().unwrap().iter().all(|p| p.config.device.cell == crate::config::CellType::Mlc));
    // RFTL: Table 4.4's four bounds in µs, the worst case 36.30 % below GFTL's, on periodic arrivals.
    let r = experiment("rftl-tables-4-4-4-6").unwrap();
    let bound = |metric: &str| r.reported.iter().find(|x| x.metric == metric && x.scheme == "rftl").unwrap();
    assert_eq!(bound("response_by_op_us.read.min").paper, (50.0, 50.0));
    assert_eq!(bound("response_by_op_us.read.max").paper, (50.0, 50.0));
    assert_eq!(bound("response_by_op_us.write.min").paper, (325.0, 325.0));
    assert_eq!(bound("response_by_op_us.write.max").measure, Measure::Value("µs"));
    assert_eq!(bound("response_by_op_us.write.max").paper, (2325.0, 2325.0));
    let worst = r
        .reported
        .iter()
        .find(|x| x.metric == "response_us.max" && x.measure == Measure::ReductionVs("gftl"))
        .unwrap();
    assert_eq!(worst.paper, (36.30, 36.30));
    assert!(whats("rftl-tables-4-4-4-6").iter().any(|w| w.starts_with("NFTL worst-case response")));
    let points = r.points().unwrap();
    assert!(points.iter().all(|p| p.config.timing == crate::config::TimingMode::Periodic(3_625_000)));
    assert!(points
        .iter()
        .all(|p| p.config.device.pages_per_block == 64 && p.config.device.utilization == 1.0));
    // A value row reports the metric itself, in its unit, with no direction to compare.
    let mk = |max: f64| json!({"response_by_op_us": {"write": {"max": max}}, "response_us": {"max": max}});
    let results: Vec<RunResult> = ["multimedia", "financial"]
        .iter()
        .flat_map(|t| [result(t, "rftl", 0, mk(2325.0)), result(t, "gftl", 0, mk(3625.0))])
        .collect();
    let rows = report(r, &results);
    let w = rows.iter().find(|x| x.what == "RFTL write response, worst case (µs)").unwrap();
    assert_eq!((w.ours, w.unit, w.agreement.status), (Some((2325.0, 2325.0)), "µs", "value"));
    let below = rows.iter().find(|x| x.what == "RFTL worst-case response below GFTL").unwrap();
    assert_eq!((below.unit, below.agreement.status), ("%", "agrees"));
    assert!((below.ours.unwrap().0 - 100.0 * (1.0 - 2325.0 / 3625.0)).abs() < 1e-9);
}
