//! Every shipped lesson (`public/lessons/*.json`) is true of the engine: its stops' positions
//! exist, its `expect` claims match the engine's facts there, its text's `{fact}` placeholders
//! name facts the stop has, and its questions have answers. And the check is real: the same
//! lesson run with another GC victim policy fails it.

use std::path::{Path, PathBuf};

use ftl_engine::lesson::{check, Lesson};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn lessons() -> Vec<(Lesson, Vec<u8>)> {
    let dir = root().join("public/lessons");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.extension().is_some_and(|x| x == "json") && p.file_name().is_some_and(|n| n != "index.json")
        })
        .collect();
    paths.sort();
    paths
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(&p).unwrap();
            let lesson: Lesson =
                serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            assert_eq!(
                Some(lesson.id.as_str()),
                p.file_stem().and_then(|s| s.to_str()),
                "{}: id is not the file name",
                p.display()
            );
            let trace = root().join("public/traces").join(&lesson.experiment.trace.shipped);
            let bytes = std::fs::read(&trace).unwrap_or_else(|e| panic!("{}: {e}", trace.display()));
            (lesson, bytes)
        })
        .collect()
}

#[test]
fn every_shipped_lesson_is_true_of_the_engine() {
    let all = lessons();
    assert!(all.len() >= 8, "{} lessons ship", all.len());
    let mut problems = Vec::new();
    for (lesson, trace) in &all {
        assert!(!lesson.stops.is_empty(), "{} has no stops", lesson.id);
        problems.extend(check(lesson, trace).unwrap_or_else(|e| panic!("{}: {e}", lesson.id)));
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_index_lists_every_lesson_once() {
    let index: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(root().join("public/lessons/index.json")).unwrap())
            .unwrap();
    let mut listed: Vec<String> =
        index["lessons"].as_array().unwrap().iter().map(|l| l["id"].as_str().unwrap().to_string()).collect();
    let mut shipped: Vec<String> = lessons().into_iter().map(|(l, _)| l.id).collect();
    listed.sort();
    shipped.sort();
    assert_eq!(listed, shipped);
}

#[test]
fn another_victim_policy_fails_a_lessons_check() {
    let (lesson, trace) =
        lessons().into_iter().find(|(l, _)| l.id == "waf-utilization").expect("waf-utilization ships");
    assert!(check(&lesson, &trace).unwrap().is_empty());
    for policy in ["fifo", "cost-benefit"] {
        let mut changed = lesson.clone();
        let config = changed.experiment.config.get_or_insert_with(|| serde_json::json!({}));
        config["gc"] = serde_json::json!({ "victim": policy });
        let problems = check(&changed, &trace).unwrap();
        assert!(problems.iter().any(|p| p.contains("gc_victim")), "{policy}: {problems:?}");
    }
}

#[test]
fn a_wrong_claim_a_missing_fact_and_a_stop_past_the_end_are_named() {
    let (mut lesson, trace) = lessons().into_iter().find(|(l, _)| l.id == "page-gc").expect("page-gc ships");
    lesson.stops[0].expect.insert("data_programs".into(), serde_json::json!(7));
    lesson.stops[1].text.push_str(" {merge}");
    let mut past = lesson.stops[5].clone();
    past.at = [13, 0];
    past.expect.clear();
    lesson.stops.push(past);
    let problems = check(&lesson, &trace).unwrap();
    assert!(
        problems.iter().any(|p| p.contains("stop 1") && p.contains("data_programs = 7, the engine says 8")),
        "{problems:?}"
    );
    assert!(problems.iter().any(|p| p.contains("stop 2") && p.contains("{merge}")), "{problems:?}");
    assert!(problems.iter().any(|p| p.contains("stop 7") && p.contains("only 12 requests")), "{problems:?}");
}

/// The simulation of `id`'s experiment after `served` requests.
fn sim_after(id: &str, served: usize) -> ftl_engine::sim::Sim {
    let (lesson, trace) = lessons().into_iter().find(|(l, _)| l.id == id).unwrap();
    let config = ftl_engine::lesson::experiment_config(&lesson.experiment).unwrap();
    let mut sim =
        ftl_engine::sim::Sim::from_bytes(config, &trace, None, &lesson.experiment.trace.shipped).unwrap();
    sim.step(served).unwrap();
    sim
}

fn answer(id: &str, served: usize, q: serde_json::Value) -> ftl_engine::lesson::Answer {
    let sim = sim_after(id, served);
    let q: ftl_engine::lesson::Question = serde_json::from_value(q).unwrap();
    let a = ftl_engine::lesson::ask(&sim, &q, 100_000).unwrap();
    assert_eq!(sim.cursor(), served, "asking moved the simulation");
    a
}

#[test]
fn questions_are_answered_by_the_engine_where_the_teaching_readme_says() {
    // teaching/README.md: GC first takes block 0 (4 valid pages) in request 10, after its GC start.
    let a = answer("page-gc", 0, serde_json::json!({ "kind": "gc_victim" }));
    assert_eq!((a.answer, a.reveal, a.request), (serde_json::json!(0), [9, 1], Some(9)));
    assert_eq!(
        answer("page-gc", 10, serde_json::json!({ "kind": "gc_copies" })).answer,
        serde_json::json!(4)
    );
    // 64 host pages and 72 programs after the last write (request 11): WAF 1.125, to two decimals.
    assert_eq!(
        answer("page-gc", 0, serde_json::json!({ "kind": "waf_after", "n": 11 })).answer,
        serde_json::json!(1.13)
    );
    // teaching/README.md's merges.csv: BAST's first merge, in request 13, is a switch; then partial, full.
    let kinds: Vec<_> = (12..15)
        .map(|at| answer("bast-merges", at, serde_json::json!({ "kind": "merge_kind" })).answer)
        .collect();
    assert_eq!(kinds, [serde_json::json!("switch"), serde_json::json!("partial"), serde_json::json!("full")]);
    // A DFTL CMT starts empty: the first read misses.
    assert_eq!(
        answer("dftl-miss", 0, serde_json::json!({ "kind": "cmt_hit" })).answer,
        serde_json::json!("miss")
    );
    // Asked partway through request 10, after its GC start: the next victim is request 11's.
    let sim = sim_after("page-gc", 9);
    let q = serde_json::from_value(serde_json::json!({ "kind": "gc_victim" })).unwrap();
    assert_eq!(ftl_engine::lesson::ask_after(&sim, 1, &q, 100).unwrap().answer, serde_json::json!(1));
    // page never merges: not found, said so.
    let none = answer("page-gc", 0, serde_json::json!({ "kind": "merge_kind" }));
    assert!(!none.found && none.answer.is_null());
}

#[test]
fn the_rftl_lesson_runs_on_the_thesis_timings_and_names_their_bound() {
    let (lesson, _) =
        lessons().into_iter().find(|(l, _)| l.id == "rftl-partial-gc").expect("rftl-partial-gc ships");
    assert_eq!(lesson.experiment.preset.as_deref(), Some("thesis-rftl"));
    assert!(lesson.stops.iter().any(|s| s.text.contains("{bound_us}")), "no stop names the bound");
    // The bound is the scheme's own L(p) on the preset's timings (thesis Table 4.2: 2,325 µs).
    let sim = sim_after("rftl-partial-gc", 0);
    assert_eq!(sim.ftl().response_bound_us(), Some(2_325.0));
    let facts = ftl_engine::lesson::stop_facts(&sim, None).unwrap().unwrap();
    assert_eq!(facts.bound_us, Some(2_325.0));
    // A scheme without a bound reports none.
    let page = ftl_engine::lesson::stop_facts(&sim_after("page-gc", 0), None).unwrap().unwrap();
    assert_eq!(page.bound_us, None);
}

#[test]
fn the_waf_question_honours_n_and_says_when_the_trace_is_too_short() {
    let ask = |served: usize, n: usize| {
        let q = serde_json::from_value(serde_json::json!({ "kind": "waf_after", "n": n })).unwrap();
        ftl_engine::lesson::ask(&sim_after("page-gc", served), &q, 100)
    };
    // page-gc's trace has 12 requests: after 3 of them, 2 more reach request 5.
    let two = ask(3, 2).unwrap();
    assert!(two.found);
    assert_eq!((two.reveal, two.request), ([5, 0], Some(4)));
    assert_ne!(ask(0, 11).unwrap().answer, ask(0, 5).unwrap().answer, "n changes the answer");
    // Past the trace's end: not found, and the explanation says how many requests are left.
    let past = ask(10, 5).unwrap();
    assert!(!past.found && past.answer.is_null(), "{past:?}");
    assert!(past.explain.contains("only 2 more requests"), "{}", past.explain);
    // Past the engine's look-ahead, or none: refused, naming the limit.
    let too_far = ask(0, ftl_engine::lesson::MAX_LOOKAHEAD + 1).unwrap_err().to_string();
    assert!(too_far.contains("n = 200001") && too_far.contains("1 to 200000"), "{too_far}");
    assert!(ask(0, 0).is_err());
}
