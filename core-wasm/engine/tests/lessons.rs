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
