//! The conditions of real runs (the `conditions` fixture, Gradle 4.4.1):
//! gradle-flaky's JUnit 4 runner spreads a class's iterations over fresh
//! JVMs, so a test failing only on its first execution in a JVM is found,
//! and the report gives each test's counts per condition.

use crate::common::{conditions_copy, fixture_copy, gradle_flaky, run, text};
use serde_json::Value;
use std::path::Path;

/// `local` on the fixture with `args`, offline, the cold-start failure's
/// probability `p`; the JSON report.
fn local(build: &Path, p: &str, args: &[&str]) -> (std::process::Output, Value) {
    local_with(build, p, args, &[])
}

/// [`local`] with more arguments for Gradle (`gradle`).
fn local_with(
    build: &Path,
    p: &str,
    args: &[&str],
    gradle: &[&str],
) -> (std::process::Output, Value) {
    let out = run(gradle_flaky()
        .arg("--project-dir")
        .arg(build)
        .arg("local")
        .args(args)
        .args(["--format", "json", "--", "--offline"])
        .arg(format!("-Dfixture.cold.probability={p}"))
        .args(gradle));
    let json =
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", text(&out)));
    (out, json)
}

fn test<'a>(report: &'a Value, method: &str) -> &'a Value {
    report["tests"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["method"] == method)
        .unwrap_or_else(|| panic!("no {method} in {report:#}"))
}

/// `(execution, runs, failures)` of each of a test's conditions, checking
/// that all are `alone` and repeated as `repetition` says.
fn rows(t: &Value, repetition: &str) -> Vec<(String, u64, u64)> {
    t["conditions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            assert_eq!(
                (&c["context"], &c["repetition"]),
                (&"alone".into(), &repetition.into()),
                "{c:#}"
            );
            (
                c["execution"].as_str().unwrap().to_string(),
                c["runs"].as_u64().unwrap(),
                c["failures"].as_u64().unwrap(),
            )
        })
        .collect()
}

/// A test that fails every first execution in a JVM and never after: in one
/// JVM it would fail 1 of 20; over 7 fresh JVMs it fails 7 of 7 first
/// executions and 0 of 13 repeats, and is first-execution-dependent with
/// the first executions' rate (its CI condition). Its neighbour is clean,
/// with what its 7 first executions bound said.
#[test]
fn a_cold_start_failure_is_found_over_fresh_jvms() {
    let build = conditions_copy();
    let (out, report) = local(build.path(), "1", &["--iters", "20", "demo.ColdStartTest"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(
        text(&out).contains("-Dflaky.repeat.jvms=7"),
        "{}",
        text(&out)
    );
    let cold = test(&report, "coldStart");
    assert_eq!(
        rows(cold, "in-jvm"),
        [("first".into(), 7, 7), ("repeat".into(), 13, 0)]
    );
    assert_eq!(cold["conditions"][0]["mechanism"], "junit4-runner");
    assert_eq!(
        cold["verdict"]["kind"], "first-execution-dependent",
        "{cold:#}"
    );
    assert_eq!(cold["verdict"]["executions"], "first");
    assert_eq!(
        (&cold["verdict"]["runs"], &cold["verdict"]["failures"]),
        (&7.into(), &7.into())
    );
    assert!(
        cold["firstExecution"]["pValue"].as_f64().unwrap() < 0.001,
        "{cold:#}"
    );
    let steady = test(&report, "steady");
    assert_eq!(steady["verdict"]["kind"], "clean");
    assert_eq!(
        rows(steady, "in-jvm"),
        [("first".into(), 7, 0), ("repeat".into(), 13, 0)]
    );
}

/// The cold-start failure as a framework other than plain JUnit 4 repeats
/// it, every first execution failing (`args` ask for it): 20 iterations over
/// 7 fresh JVMs of one Gradle invocation, 7/7 first executions failing and
/// 0/13 repeats, `first-execution-dependent` by `mechanism`; the ledger keeps
/// the first executions on a line of their own, and `history` shows their
/// rate. Returns the report.
fn cold_start_over_fresh_jvms(build: &Path, test: &str, mechanism: &str, args: &[&str]) -> Value {
    let out = run(gradle_flaky()
        .arg("--project-dir")
        .arg(build)
        .args([
            "local",
            "--iters",
            "20",
            "--format",
            "json",
            test,
            "--",
            "--offline",
        ])
        .args(args));
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(
        text(&out).contains("-Dflaky.repeat.jvms=7"),
        "{}",
        text(&out)
    );
    assert!(
        text(&out).contains("1 Gradle invocation(s)"),
        "{}",
        text(&out)
    );
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let (class, method) = test.rsplit_once('.').unwrap();
    let cold = self::test(&report, method);
    assert_eq!(
        rows(cold, "in-jvm"),
        [("first".into(), 7, 7), ("repeat".into(), 13, 0)]
    );
    assert_eq!(cold["conditions"][0]["mechanism"], mechanism);
    assert_eq!(
        cold["verdict"]["kind"], "first-execution-dependent",
        "{cold:#}"
    );
    let ledger =
        std::fs::read_to_string(build.join(".gradle/gradle-flaky/ledger/ledger-000001.jsonl"))
            .unwrap();
    let first: Vec<Value> = ledger
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|r| r.to_string().contains(method) && r["condition"]["execution"] == "first")
        .collect();
    assert_eq!(first.len(), 1, "{ledger}");
    assert_eq!(
        first[0]["condition"]["mechanism"], mechanism,
        "{:#}",
        first[0]
    );
    let history = run(gradle_flaky()
        .arg("--project-dir")
        .arg(build)
        .args(["history", &format!("{class}#{method}")]));
    assert!(
        text(&history)
            .contains("First executions in their JVM (the position CI runs): 7/7 = 100% failed"),
        "{}",
        text(&history)
    );
    report
}

/// TestNG (`invocationCount`) samples fresh JVMs as the JUnit 4 runner does:
/// its slices run the class in 7 of them, each execution named with its
/// iteration in its JVM.
#[test]
fn a_cold_start_failure_under_testng_is_found_over_fresh_jvms() {
    let build = conditions_copy();
    cold_start_over_fresh_jvms(
        build.path(),
        "demo.ng.ColdStartNgTest.coldStart",
        "testng-invocation-count",
        &["-Dfixture.cold.probability=1"],
    );
}

/// Elasticsearch's `-Dtests.iters` samples fresh JVMs too: the randomized
/// runner repeats the class itself in each of 7 JVMs, each JVM with a master
/// seed of its own, which the failures' names (and so their reproduce lines)
/// carry: the seven first executions failed under seven masters.
#[test]
fn a_cold_start_failure_under_tests_iters_is_found_over_fresh_jvms() {
    let build = fixture_copy();
    let report = cold_start_over_fresh_jvms(
        build.path(),
        "org.elasticsearch.flaky.ColdStartTests.testColdStart",
        "tests-iters",
        &["-Dtests.fixture.cold.probability=1"],
    );
    let cold = test(&report, "testColdStart");
    let masters: std::collections::BTreeSet<&str> = cold["failingSeeds"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().split(':').next().unwrap())
        .collect();
    assert_eq!(masters.len(), 7, "{cold:#}");
    let reproduce = cold["reproduce"].as_str().unwrap();
    let seed = reproduce.rsplit_once("-Dtests.seed=").unwrap().1;
    assert!(
        masters.contains(seed.split(':').next().unwrap()),
        "{reproduce}"
    );
}

/// Gradle runs: a fresh JVM per execution, every execution a first one; the
/// test fails each, and nothing is compared.
#[test]
fn gradle_runs_are_first_executions_in_fresh_jvms() {
    let build = conditions_copy();
    let (out, report) = local(
        build.path(),
        "1",
        &[
            "--iters",
            "2",
            "--repetition",
            "gradle-runs",
            "demo.ColdStartTest.coldStart",
        ],
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let cold = test(&report, "coldStart");
    assert_eq!(rows(cold, "fresh-jvm"), [("first".into(), 2, 2)]);
    assert!(cold.get("firstExecution").is_none(), "{cold:#}");
    assert_eq!(cold["verdict"]["kind"], "broken");
    assert_eq!(
        cold["verdict"]["repetition"],
        serde_json::json!(["fresh-jvm"])
    );
}

/// A class that leaves a thread per execution, batched with a neighbour:
/// they share 4 JVMs (12 iterations each), one class after the other in
/// each, too few executions a JVM to show a slowdown, yet the runner counts
/// the threads it left and the report warns `state-accumulates` of it,
/// naming it as the class that leaks; the neighbour, which leaves none, gets
/// no warning. The next run gives the leaking class a fresh JVM per
/// execution. The leaked threads wait rather than spin
/// (`fixture.leak.idle`): a spinning thread would slow the neighbour in its
/// JVM and in the one beside it, which is no state of the neighbour's own
/// (benches/leaking-class.sh measures the busy leak).
#[test]
fn a_class_leaving_a_thread_per_execution_is_warned_of() {
    let build = conditions_copy();
    let idle = ["-Dfixture.leak.idle=true"];
    let (out, report) = local_with(
        build.path(),
        "0",
        &["--iters", "12", "demo.LeakyTest", "demo.NeighbourTest"],
        &idle,
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let warnings = report["warnings"].as_array().unwrap();
    // Whatever else a loaded machine shows, the neighbour leaks nothing.
    assert!(
        warnings.iter().all(|w| w["class"] == "demo.LeakyTest"),
        "{warnings:#?}"
    );
    let threads: Vec<&Value> = warnings
        .iter()
        .filter(|w| w["evidence"] == "threads")
        .collect();
    assert_eq!(threads.len(), 1, "{warnings:#?}");
    let w = threads[0];
    assert_eq!(
        (&w["code"], &w["class"], &w["evidence"], &w["leakingClass"]),
        (
            &"state-accumulates".into(),
            &"demo.LeakyTest".into(),
            &"threads".into(),
            &"demo.LeakyTest".into()
        ),
        "{w:#}"
    );
    // Four JVMs of three executions: two threads left before each third.
    assert_eq!(
        (&w["positions"], &w["threadsLeft"]),
        (&3.into(), &2.0.into()),
        "{w:#}"
    );
    // The leaking class's clean verdict rests on its first executions in a
    // fresh JVM (four); its neighbour's on all twelve.
    for (method, executions, runs) in [("startsAWorker", "first", 4), ("computes", "all", 12)] {
        let verdict = &test(&report, method)["verdict"];
        assert_eq!(
            (&verdict["kind"], &verdict["executions"], &verdict["runs"]),
            (&"clean".into(), &executions.into(), &runs.into()),
            "{method}: {verdict:#}"
        );
    }
    // The run remembered it: the next one runs each of its executions in a
    // fresh JVM of its own, in one Gradle invocation, and keeps the
    // neighbour in a sample of JVMs.
    let (out, report) = local_with(
        build.path(),
        "0",
        &["--iters", "3", "demo.LeakyTest", "demo.NeighbourTest"],
        &idle,
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert!(
        text(&out).contains(
            "demo.LeakyTest accumulated state in one JVM when last run in this build \
             (state-accumulates, threads): each of its executions runs first in a fresh test JVM"
        ),
        "{}",
        text(&out)
    );
    assert!(
        text(&out).contains("2 Gradle invocation(s)"),
        "{}",
        text(&out)
    );
    assert_eq!(
        rows(test(&report, "startsAWorker"), "in-jvm"),
        [("first".into(), 3, 0)],
        "three executions, each first in its JVM"
    );
    assert_eq!(
        rows(test(&report, "computes"), "in-jvm"),
        [("first".into(), 2, 0), ("repeat".into(), 1, 0)]
    );
}
