//! Suspects of generated records: each kind, what is left out, duplicates,
//! merging, clusters, and the markdown and JSON (snapshots).

use super::{render, Kind, Query, SuspectBuilder, Suspects};
use crate::ledger::read::{self, End};
use crate::ledger::record::{Condition, Context, LineView, Origin, Record};
use crate::ledger::store_tests::record;
use crate::ledger::Summary;

/// A build's record of `method`: `failures` of `runs` on commit `c…`, run
/// `run`, at minute `minute` of 2026-03-01.
pub(crate) fn build(
    method: &str,
    commit: char,
    run: &str,
    minute: u64,
    runs: u64,
    failures: u64,
) -> Record {
    let mut r = record("a.FooTests", method, runs, failures);
    r.commit = Some(commit.to_string().repeat(40));
    r.branch = Some("main".into());
    r.condition = Condition::fresh(Context::Task);
    r.run_id = run.into();
    r.time = humantime::format_rfc3339_seconds(
        std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_772_323_200 + minute * 60),
    )
    .to_string();
    if failures > 0 {
        r.signature = Some(format!("java.lang.AssertionError: {method} <n>"));
    }
    r
}

fn feed(builder: &mut SuspectBuilder, records: &[Record]) {
    for r in records {
        let line = serde_json::to_string(r).unwrap();
        let (view, secs) = read::parse::<LineView>(line.as_bytes(), End::Whole)
            .unwrap()
            .unwrap();
        builder.add(&view, secs);
    }
}

pub(crate) fn suspects(query: Query, records: &[Record]) -> Suspects {
    let mut b = SuspectBuilder::new(query);
    feed(&mut b, records);
    b.finish()
}

/// Six builds on five commits: a flip, a break, a rare failure, a clean test.
pub(crate) fn builds() -> Vec<Record> {
    let mut r = Vec::new();
    let plan: [(char, &str, u64, &[&str]); 6] = [
        ('1', "b1", 0, &["testRare"]),
        ('2', "b2", 10, &["testFlip"]),
        ('2', "b3", 20, &[]),
        ('3', "b4", 30, &["testBroken"]),
        ('4', "b5", 40, &["testBroken", "testRare"]),
        ('5', "b6", 50, &["testBroken"]),
    ];
    for (commit, run, minute, failing) in plan {
        for m in ["testFlip", "testBroken", "testRare", "testClean"] {
            let failed = u64::from(failing.contains(&m));
            r.push(build(m, commit, run, minute, 1, failed));
        }
    }
    r
}

fn kind_of(s: &Suspects, method: &str) -> Option<Kind> {
    s.suspects
        .iter()
        .find(|x| x.test.method == method)
        .map(|x| x.kind)
}

#[test]
fn a_flip_is_flaky_a_row_of_failures_broken_a_clean_test_absent() {
    let s = suspects(Query::default(), &builds());
    assert_eq!(kind_of(&s, "testFlip"), Some(Kind::Flaky));
    assert_eq!(kind_of(&s, "testBroken"), Some(Kind::Broken));
    assert_eq!(kind_of(&s, "testRare"), Some(Kind::Intermittent));
    assert_eq!(kind_of(&s, "testClean"), None);
    assert!(s.any_flaky());
    let broken = s.suspects.iter().find(|x| x.kind == Kind::Broken).unwrap();
    let since = broken.since.as_ref().unwrap();
    assert_eq!((since.commit.as_str(), since.runs), (&*"3".repeat(40), 3));
    assert_eq!(
        broken.last_passed.as_ref().unwrap().commit,
        Some("2".repeat(40))
    );
    let flip = s.suspects.iter().find(|x| x.kind == Kind::Flaky).unwrap();
    assert_eq!(flip.flipped_on, ["2".repeat(40)]);
    assert!(flip.mute.as_deref().unwrap().contains("method: testFlip"));
    assert_eq!(
        flip.confirm,
        "gradle-flaky local --iters 17 'a.FooTests#testFlip'"
    );
    assert_eq!((s.tests, s.runs), (4, 6));
}

#[test]
fn two_failures_in_a_row_are_not_yet_broken() {
    let mut records = builds();
    records.retain(|r| r.run_id != "b6");
    let s = suspects(Query::default(), &records);
    assert_eq!(kind_of(&s, "testBroken"), Some(Kind::Intermittent));
}

#[test]
fn a_run_read_twice_counts_once_and_parts_merge_alike() {
    let records = builds();
    let once = suspects(Query::default(), &records);
    let mut twice = SuspectBuilder::new(Query::default());
    for part in [&records[..], &records[..10], &records[10..]] {
        let mut b = SuspectBuilder::new(Query::default());
        feed(&mut b, part);
        twice.merge(b);
    }
    let twice = twice.finish();
    assert_eq!(twice.left_out.duplicates, records.len() as u64);
    assert_eq!(twice.suspects, once.suspects);
    assert_eq!(twice.runs, once.runs);
}

#[test]
fn triage_changes_other_branches_and_old_runs_are_left_out() {
    let mut records = builds();
    let mut replay = build("testClean", '5', "t1", 55, 10, 10);
    replay.origin = Origin::Triage;
    let mut dirty = build("testClean", '5', "d1", 56, 1, 1);
    dirty.dirty = true;
    let mut other = build("testClean", '5', "o1", 57, 1, 1);
    other.branch = Some("feature".into());
    records.extend([replay, dirty, other]);
    let query = Query {
        branch: Some("main".into()),
        since: Some(1_772_323_200 + 30 * 60),
        ..Query::default()
    };
    let s = suspects(query, &records);
    assert_eq!(kind_of(&s, "testClean"), None);
    assert_eq!(
        (
            s.left_out.triage,
            s.left_out.not_a_commit,
            s.left_out.other_branch,
            s.left_out.older
        ),
        (1, 1, 1, 12)
    );
    // Since minute 30: the break's three runs only, and nothing before them.
    assert_eq!(kind_of(&s, "testBroken"), Some(Kind::Broken));
    assert_eq!(kind_of(&s, "testFlip"), None);
}

#[test]
fn tests_failing_in_the_same_runs_are_a_cluster_with_their_signature() {
    let mut records = builds();
    for (run, minute, port) in [("b2", 10, 41234), ("b4", 30, 38211)] {
        for m in ["testGet", "testPut", "testDelete"] {
            let mut r = build(m, '9', run, minute, 1, 1);
            r.signature = Some(crate::analyze::rules::clusters::signature(
                "java.net.ConnectException",
                &format!("Connection refused: localhost/127.0.0.1:{port}"),
            ));
            records.push(r);
        }
    }
    let s = suspects(Query::default(), &records);
    assert_eq!(s.clusters.len(), 1, "{:?}", s.clusters);
    let c = &s.clusters[0];
    let names: Vec<&str> = c.tests.iter().map(|t| t.method.as_str()).collect();
    assert_eq!(names, ["testDelete", "testGet", "testPut"]);
    assert_eq!(c.runs, ["b2", "b4"]);
    assert_eq!(
        c.signature.as_deref(),
        Some("java.net.ConnectException: Connection refused: localhost/<ip>:<n>")
    );
}

#[test]
fn suspects_markdown_and_json() {
    let s = suspects(Query::default(), &builds());
    insta::assert_snapshot!("suspects_markdown", render::markdown(&s));
    insta::assert_snapshot!("suspects_json", render::json(&s));
}

#[test]
fn hostile_names_stay_text_on_the_page_and_in_the_mute_entry() {
    let mut records = builds();
    let mut r = build("test`|<b>x</b>", '5', "b6", 50, 2, 1);
    r.test.class = "a.<script>alert(1)</script>".into();
    r.signature = Some("boom ``` <img src=x>".into());
    records.push(r);
    let s = suspects(Query::default(), &records);
    let mute = s
        .suspects
        .iter()
        .find_map(|x| x.mute.as_deref().filter(|m| m.contains("script")));
    // The entry quotes what is not a plain name, as YAML and JSON read alike.
    assert_eq!(
        mute,
        Some(
            "- class: \"a.<script>alert(1)</script>\"\n  method: \"test`|<b>x</b>\"\n  issue: \"TODO: the issue's link\"\n"
        )
    );
    let html = crate::ledger::html::page(&Default::default(), &s, "Suspects");
    assert!(!html.contains("<script>") && !html.contains("<b>x") && !html.contains("<img"));
    assert!(html.contains("a.&lt;script&gt;alert(1)&lt;/script&gt;"));
}
