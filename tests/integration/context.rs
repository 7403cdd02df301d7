//! `--context` on real runs (the `neighbours` and `conditions` fixtures, Gradle 4.4.1): the
//! selected test alone and in its whole test task, as CI runs it, counted
//! apart in the report's conditions.

use crate::common::{conditions_copy, git, git_main, gradle_flaky, neighbours_copy, run, text};
use serde_json::{json, Value};
use std::path::Path;

/// `local` on the fixture with `args`, offline; the JSON report.
fn local(build: &Path, args: &[&str]) -> (std::process::Output, Value) {
    let out = run(gradle_flaky()
        .arg("--project-dir")
        .arg(build)
        .arg("local")
        .args(args)
        .args(["--format", "json", "--", "--offline"]));
    let json =
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", text(&out)));
    (out, json)
}

fn test<'a>(report: &'a Value, class: &str) -> &'a Value {
    report["tests"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["class"] == class)
        .unwrap_or_else(|| panic!("no {class} in {report:#}"))
}

/// `(context, repetition, runs, failures)` of each of a test's conditions.
fn rows(t: &Value) -> Vec<(String, String, u64, u64)> {
    let s = |v: &Value| v.as_str().unwrap().to_string();
    t["conditions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let n = |k: &str| c[k].as_u64().unwrap();
            (
                s(&c["context"]),
                s(&c["repetition"]),
                n("runs"),
                n("failures"),
            )
        })
        .collect()
}

/// A test that passes only after a neighbour class ran in its test JVM
/// fails every run alone and none in its whole task (where the task's suite
/// runs a neighbour first): `--context both` runs the two, and the report
/// counts them apart, each run of the task in a fresh JVM, and finds it
/// context-dependent. Its neighbours, which only the task runs, are set
/// apart (`neighbours`), out of its tests and counts.
#[test]
fn context_both_counts_a_test_alone_and_in_its_task() {
    let build = neighbours_copy();
    let (out, report) = local(
        build.path(),
        &[
            "--context",
            "both",
            "--iters",
            "4",
            "demo.NeedsNeighbourTest",
        ],
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let log = text(&out);
    assert!(log.contains("in their whole task"), "{log}");
    assert!(
        log.contains(">>> gradle :cleanTest :test --continue"),
        "{log}"
    );
    let needs = test(&report, "demo.NeedsNeighbourTest");
    let fresh =
        |context: &str, runs, failures| (context.into(), "fresh-jvm".into(), runs, failures);
    assert_eq!(
        rows(needs),
        [fresh("alone", 4, 4), fresh("task", 4, 0)],
        "{needs:#}"
    );
    // Its neighbours ran in the task only, and nobody selected them: set
    // apart, never judged, never counted among the report's tests.
    let classes = crate::common::report_classes(&report);
    assert_eq!(classes, ["demo.NeedsNeighbourTest"], "{report:#}");
    assert_eq!(report["summary"]["tests"], 1);
    assert_eq!(
        report["neighbours"],
        serde_json::json!({"tests": 2, "executions": 8}),
        "{report:#}"
    );
    // 4/4 alone against 0/4 in its task: Fisher's two-sided p = 2/70.
    assert_eq!(needs["verdict"]["kind"], "context-dependent", "{needs:#}");
    let p = needs["context"]["pValue"].as_f64().unwrap();
    assert!((p - 2.0 / 70.0).abs() < 1e-4, "{p}");
}

/// `--context task` runs only the whole task: every count is in context
/// task, each whole-task run's reports in a folder of its own.
#[test]
fn context_task_runs_only_the_whole_task() {
    let build = neighbours_copy();
    let (out, report) = local(
        build.path(),
        &[
            "--context",
            "task",
            "--iters",
            "3",
            "demo.NeedsNeighbourTest",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let needs = test(&report, "demo.NeedsNeighbourTest");
    assert_eq!(
        rows(needs),
        [("task".into(), "fresh-jvm".into(), 3, 0)],
        "{needs:#}"
    );
    let runs = build.path().join(".gradle/gradle-flaky/runs");
    let run = std::fs::read_dir(&runs).unwrap().next().unwrap().unwrap();
    for i in 1..=3 {
        let xml = run
            .path()
            .join(format!(
                "batch-1/flakiness-iters/iter-{i}/build/test-results/test"
            ))
            .join("TEST-demo.NeedsNeighbourTest.xml");
        assert!(xml.is_file(), "{} missing", xml.display());
    }
}

/// The unmute gate: a test unmuted on the branch that `local` repeats in one
/// JVM (gradle-flaky's JUnit 4 runner) is backed by `--unmute-check` runs of
/// its whole task, each a fresh JVM, planned without being asked; the report
/// counts them in context task and marks the test. A cold-start failure
/// (every first execution in a JVM) fails all of them.
#[test]
fn context_an_unmuted_test_is_backed_by_fresh_runs_in_its_task() {
    let build = conditions_copy();
    let dir = build.path();
    let muted = "tests:\n  - class: demo.ColdStartTest\n    method: coldStart\n    issue: https://example.com/1\n";
    std::fs::write(dir.join("muted-tests.yml"), muted).unwrap();
    git_main(dir);
    git(dir, &["checkout", "-qb", "unmute"]);
    std::fs::write(dir.join("muted-tests.yml"), "tests: []\n").unwrap();
    git(dir, &["commit", "-qam", "unmute"]);
    let out = run(gradle_flaky()
        .arg("--project-dir")
        .arg(dir)
        .args(["local", "--unmuted", "--base", "main", "--iters", "6"])
        .args(["--unmute-check", "3", "--format", "json", "--", "--offline"])
        .args(["-Dfixture.cold.probability=1", "-Dfixture.work.millis=10"]));
    let log = text(&out);
    assert_eq!(out.status.code(), Some(1), "{log}");
    assert!(
        log.contains("unmute check: demo.ColdStartTest.coldStart"),
        "{log}"
    );
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let cold = report["tests"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["method"] == "coldStart")
        .unwrap();
    assert_eq!(cold["unmuteCheck"], true, "{cold:#}");
    let task: Vec<(String, String, u64, u64)> = rows(cold)
        .into_iter()
        .filter(|(context, ..)| context == "task")
        .collect();
    assert_eq!(
        task,
        [("task".into(), "fresh-jvm".into(), 3, 3)],
        "{cold:#}"
    );
}

/// The Buildkite report step sets apart what a whole-task job ran beside
/// its selected test, as `local` does: with the task's suite running
/// `demo.NeedsNeighbourTest` first, it fails every whole-task run (Gradle's
/// rc 1), but `demo.AlphaTest` was selected, not it. The job is a clean
/// pass, the report's tests are the selected one's, and the neighbour is
/// listed failing, not judged. The agent is played by the Buildkite
/// stand-in; Gradle is the real one.
#[test]
fn context_task_on_buildkite_sets_a_failing_neighbour_apart() {
    use crate::buildkite::{manual_cmd, run_job, steps, Buildkite};
    let build = neighbours_copy();
    let dir = build.path();
    let suite = dir.join("src/test/java/demo/AllTests.java");
    let first = std::fs::read_to_string(&suite).unwrap().replace(
        "{AlphaTest.class, NeedsNeighbourTest.class,",
        "{NeedsNeighbourTest.class, AlphaTest.class,",
    );
    std::fs::write(&suite, first).unwrap();
    let bk = Buildkite::new();
    let bin = shell_words::quote(env!("CARGO_BIN_EXE_gradle-flaky")).into_owned();
    let out = run(manual_cmd(&bk, dir, "demo.AlphaTest", "gradle --offline")
        .env("FLAKINESS_CONTEXT", "task")
        .env("FLAKINESS_ITERS", "2")
        .env("FLAKINESS_AGENT_BIN", bin));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let uploads = bk.calls_of(&["pipeline", "upload"]);
    let pipeline: Value = serde_json::from_str(&uploads[0].stdin).unwrap();
    let step = |key: &str| {
        steps(&pipeline)
            .iter()
            .find(|s| s["key"].as_str().unwrap().ends_with(key))
            .unwrap_or_else(|| panic!("no step {key}: {pipeline:#}"))
            .clone()
    };
    let (_task, out) = run_job(&bk, Some(dir), &step("-task"), None, "job-task");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let (report, out) = run_job(&bk, None, &step(":analyze"), None, "job-report");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));

    let outcomes = crate::common::read_json(&report.path().join("flakiness-outcomes.json"));
    let job = &outcomes[0];
    let got = (
        &job["jobId"],
        &job["rc"],
        &job["outcome"],
        &job["totalCases"],
    );
    assert_eq!(
        got,
        (
            &json!("job-task"),
            &json!(1),
            &json!("clean_pass"),
            &json!(2)
        ),
        "{outcomes:#}"
    );
    assert_eq!(job["failingClasses"], json!([]), "{outcomes:#}");
    let note = bk
        .calls_of(&["annotate"])
        .into_iter()
        .find(|c| c.argv.last().is_some_and(|a| a == "flakiness-detection"))
        .expect("the report's annotation");
    let md = &note.stdin;
    assert!(
        md.contains(
            "- Also ran in their whole tasks (not selected, not judged): 2 tests, 4 executions; \
             1 failed: `demo.NeedsNeighbourTest.needsAWarmJvm` (2/2)"
        ),
        "{md}"
    );
    assert!(md.contains("- Tests: 1 (0 flaky)"), "{md}");
    assert!(md.contains("- `demo.AlphaTest.passes`: 0/2"), "{md}");
}
