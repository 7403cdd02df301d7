//! Integration tests: triage on real Gradle 4.4.1. A seed-driven flake
//! (es-mini's `AssertionFlakyTests.testFlakyAssertion`, drawn from the
//! runner's random) and a clock-driven one (`ClockFlakyTests.testClockFlaky`)
//! told apart by replaying their failing seeds; plain JUnit tests replayed
//! alone (the plain-java fixture's flake, forced to always fail, and its
//! order-dependent test); the budget, the time limit and Ctrl-C.

use crate::common::{fixture_copy, gradle_flaky, in_suite_home, plain_java_copy, run, text};
use crate::run::{interrupt, json_report, processes_with, read_layout_first, row, run_dirs};
use serde_json::Value;
use std::path::Path;
use std::process::Command;

const SEEDED: &str = "org.elasticsearch.flaky.AssertionFlakyTests";
const CLOCK: &str = "org.elasticsearch.flaky.ClockFlakyTests";

fn triage_of<'a>(report: &'a Value, class: &str, method: &str) -> &'a Value {
    let t = &row(report, class, method)["triage"];
    assert!(t.is_object(), "no triage for {class}.{method}: {report:#}");
    t
}

fn seeds(triage: &Value) -> &Vec<Value> {
    triage["seeds"].as_array().unwrap()
}

/// A failure the seed decides reproduces on every replay of its seed; one the
/// clock decides does not. Each failing seed (at most three) is replayed ten
/// times in one test JVM; the run's own counts are untouched by the replays.
#[test]
fn local_triage_tells_a_seed_driven_flake_from_a_clock_driven_one() {
    let build = fixture_copy();
    let out = run(gradle_flaky()
        .arg("--project-dir")
        .arg(build.path())
        .args([
            "local", "--iters", "40", "--triage", "10", "--format", "json",
        ])
        .args([&format!("{SEEDED}#testFlakyAssertion"), CLOCK])
        .args(["--", "--offline"]));
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let report = json_report(&out);

    let seeded = row(&report, SEEDED, "testFlakyAssertion");
    let failing: Vec<&str> = seeded["failingSeeds"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap())
        .collect();
    let triage = triage_of(&report, SEEDED, "testFlakyAssertion");
    assert_eq!(triage["verdict"], "seed-deterministic", "{triage:#}");
    let replayed = failing.len().min(3);
    assert_eq!(seeds(triage).len(), replayed, "{triage:#}");
    for (s, seed) in seeds(triage).iter().zip(&failing) {
        assert_eq!(s["seed"], *seed, "the first failing seeds, in order");
        assert_eq!(
            (s["replays"].as_u64(), s["reproduced"].as_u64()),
            (Some(10), Some(10))
        );
        assert!(
            s["reproduce"].as_str().unwrap().ends_with(&format!(
                "--tests {SEEDED}.testFlakyAssertion -Dtests.seed={seed}"
            )),
            "{s:#}"
        );
    }
    let all = 10 * replayed as u64;
    assert_eq!(
        (triage["replays"].as_u64(), triage["reproduced"].as_u64()),
        (Some(all), Some(all))
    );
    assert!(triage.get("partial").is_none(), "{triage:#}");

    let clock = triage_of(&report, CLOCK, "testClockFlaky");
    assert_eq!(clock["verdict"], "nondeterministic", "{clock:#}");
    let replays = clock["replays"].as_u64().unwrap();
    assert_eq!(replays, 10 * seeds(clock).len() as u64, "{clock:#}");
    assert!(clock["reproduced"].as_u64().unwrap() < replays, "{clock:#}");

    // The replays are evidence, not more executions of the run.
    assert_eq!(seeded["runs"], 40);
    assert_eq!(report["summary"]["executions"], 80);
    let dir = &run_dirs(build.path())[0];
    let again = run(gradle_flaky()
        .args(["analyze", "--format", "json"])
        .arg(dir));
    assert_eq!(
        json_report(&again)["summary"]["executions"],
        80,
        "{}",
        text(&again)
    );
    // The report before triage was written first, where Ctrl-C cannot take it.
    let before: Value = serde_json::from_str(
        &std::fs::read_to_string(dir.join("report-before-triage.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(before["summary"], report["summary"]);
    assert!(row(&before, SEEDED, "testFlakyAssertion")
        .get("triage")
        .is_none());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(&format!(
            "gradle-flaky: triage: 2 failing test(s), {} replay(s) in {} Gradle invocation(s)",
            all + replays,
            replayed + seeds(clock).len()
        )),
        "one Gradle invocation per seed: {stderr}"
    );
}

/// Runs Gradle by hand in `build` (its output is not the point).
fn gradle(build: &Path, args: &[&str]) -> std::process::Output {
    run(in_suite_home(&mut Command::new("gradle"))
        .args(["--offline", "--no-daemon", "-q"])
        .args(args)
        .current_dir(build))
}

/// Plain JUnit tests have no seed: each is replayed alone. The designed flake,
/// forced to fail always, fails alone too; the test that fails only when it
/// shares a JVM with the test leaking a system property passes alone. The
/// reports come as CI artifacts would: a folder apart from the build.
#[test]
fn triage_replays_plain_junit_tests_alone() {
    let build = plain_java_copy();
    std::fs::write(build.path().join("fixture-flake-probability"), "1\n").unwrap();
    let by_hand = gradle(
        build.path(),
        &[
            ":core:test",
            "--tests",
            "com.example.core.RetryingClientTest",
            "--tests",
            "com.example.core.settings.*",
        ],
    );
    assert_eq!(by_hand.status.code(), Some(1), "{}", text(&by_hand));
    let artifacts = tempfile::tempdir().unwrap();
    let results = "core/build/test-results/test";
    let kept = artifacts.path().join(results);
    std::fs::create_dir_all(&kept).unwrap();
    for entry in std::fs::read_dir(build.path().join(results))
        .unwrap()
        .flatten()
    {
        if entry.file_type().unwrap().is_file() {
            std::fs::copy(entry.path(), kept.join(entry.file_name())).unwrap();
        }
    }
    let out = run(gradle_flaky()
        .arg("--project-dir")
        .arg(build.path())
        .args(["triage", "--replays", "2", "--format", "json"])
        .arg(artifacts.path())
        .args(["--", "--offline"]));
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let report = json_report(&out);
    let flake = triage_of(
        &report,
        "com.example.core.RetryingClientTest",
        "retriesUntilSuccess",
    );
    assert_eq!(flake["verdict"], "fails-alone", "{flake:#}");
    assert_eq!(
        (flake["replays"].as_u64(), flake["reproduced"].as_u64()),
        (Some(2), Some(2))
    );
    assert_eq!(flake["seeds"], serde_json::json!([]));
    let order = triage_of(
        &report,
        "com.example.core.settings.defaults.DefaultSettingsTest",
        "defaultModeIsProduction",
    );
    assert_eq!(order["verdict"], "passes-alone", "{order:#}");
    assert_eq!(
        (order["replays"].as_u64(), order["reproduced"].as_u64()),
        (Some(2), Some(0))
    );
    let failing = report["tests"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["failures"].as_u64() > Some(0))
        .count();
    assert_eq!(failing, 2, "only the two failing tests: {report:#}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("4 replay(s) in 4 Gradle invocation(s)"),
        "each replay alone is a Gradle invocation: {stderr}"
    );
}

/// The replay budget and the time limit are never exceeded; what they cut is
/// marked partial and said, and a test nothing was learned about gets no verdict.
#[test]
fn triage_keeps_to_its_budget_and_time_limit_and_says_what_it_skipped() {
    let build = fixture_copy();
    // Every execution fails, so there are five failing seeds and each replay fails.
    let forced = ["--", "--offline", "-Dtests.fixture.probability=1"];
    let out = run(gradle_flaky()
        .arg("--project-dir")
        .arg(build.path())
        .args(["local", "--iters", "5", "--format", "json"])
        .arg(format!("{SEEDED}#testFlakyAssertion"))
        .args(forced));
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let triage = |args: &[&str]| {
        let marker = format!("triage-{}-{}", std::process::id(), args.join(""));
        // Isolated: no process of the replays may survive them.
        let out = run(gradle_flaky()
            .env("GRADLE_FLAKY_TEST_MARKER", &marker)
            .env("FLAKINESS_ISOLATE", "1")
            .arg("--project-dir")
            .arg(build.path())
            .args(["triage", "--format", "json"])
            .args(args)
            .args(forced));
        let left = processes_with(&marker);
        assert!(
            left.is_empty(),
            "processes of the replays survived: {left:#?}"
        );
        assert_eq!(out.status.code(), Some(1), "{}", text(&out));
        json_report(&out)
    };

    let report = triage(&["--replays", "4", "--triage-budget", "6"]);
    let t = triage_of(&report, SEEDED, "testFlakyAssertion");
    let counts: Vec<(u64, u64)> = seeds(t)
        .iter()
        .map(|s| {
            (
                s["replays"].as_u64().unwrap(),
                s["reproduced"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(counts, [(4, 4), (2, 2), (0, 0)], "{t:#}");
    assert_eq!(t["verdict"], "seed-deterministic");
    assert_eq!(t["partial"], true);
    let notes = t["notes"].to_string();
    assert!(
        notes.contains("2 of 4 replay(s) ran: the replay budget of 6 is spent")
            && notes.contains("0 of 4 replay(s) ran: the replay budget of 6 is spent"),
        "{notes}"
    );

    // One second is not enough for the first replay: it is stopped, and
    // nothing is claimed.
    let report = triage(&["--triage-timeout", "1s"]);
    let t = triage_of(&report, SEEDED, "testFlakyAssertion");
    assert_eq!(t["verdict"], Value::Null, "{t:#}");
    assert_eq!(
        (t["replays"].as_u64(), t["partial"].as_bool()),
        (Some(0), Some(true))
    );
    assert!(
        t["notes"]
            .to_string()
            .contains("the triage time limit of 1s was reached"),
        "{t:#}"
    );

    // Triage folders are never counted as runs of the test.
    assert_eq!(row(&report, SEEDED, "testFlakyAssertion")["runs"], 5);
}

/// Ctrl-C during triage stops the replay running (every process of it), keeps
/// what ran, prints the report with the triage marked partial and exits 130;
/// the report from before triage is on disk.
#[test]
fn ctrl_c_during_triage_keeps_the_report() {
    let build = fixture_copy();
    read_layout_first(build.path());
    let marker = format!("triage-ctrl-c-{}", std::process::id());
    // Isolated: no process of the run may survive it (the user's daemon
    // would, by design, and may have been started by this run).
    let child = gradle_flaky()
        .env("GRADLE_FLAKY_TEST_MARKER", &marker)
        .env("FLAKINESS_ISOLATE", "1")
        .arg("--project-dir")
        .arg(build.path())
        .args(["local", "--iters", "3", "--triage", "5", "--format", "json"])
        .arg(format!("{SEEDED}#testFlakyAssertion"))
        .args(["--", "--offline", "-Dtests.fixture.probability=1"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let runs = build.path().join(".gradle/gradle-flaky/runs");
    let replaying = || {
        std::fs::read_dir(&runs)
            .into_iter()
            .flatten()
            .flatten()
            .any(|r| {
                r.path()
                    .join("flakiness-triage/triage-1/job-1.log")
                    .exists()
            })
    };
    for _ in 0..1500 {
        if replaying() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    assert!(replaying(), "triage never started");
    let out = interrupt(child, &marker);
    let report = json_report(&out);
    assert_eq!(
        row(&report, SEEDED, "testFlakyAssertion")["runs"],
        3,
        "the run is all there"
    );
    let t = triage_of(&report, SEEDED, "testFlakyAssertion");
    assert_eq!(t["partial"], true, "{t:#}");
    assert!(t["notes"].to_string().contains("interrupted"), "{t:#}");
    let before = run_dirs(build.path())[0].join("report-before-triage.json");
    let before: Value = serde_json::from_str(&std::fs::read_to_string(before).unwrap()).unwrap();
    assert_eq!(before["summary"], report["summary"]);
}

/// How a test replays depends on what its runner and its build do with the
/// replay's properties, and nothing counts that did not run with the pinned
/// seed. Iterations rename a YAML case (`test {yaml=…}` gains its seed), so
/// Gradle's filter on its name matches nothing: it is replayed one Gradle
/// invocation each. A build that does not pass `tests.iters` to its tests
/// gets one invocation per replay; one that does not pass `tests.seed` either
/// gets no verdict, and a note says why.
#[test]
fn triage_adapts_to_what_the_runner_and_the_build_pass_on() {
    let build = fixture_copy();
    let yaml = "org.elasticsearch.painless.LangPainlessClientYamlTestSuiteIT";
    let case = "test {yaml=painless/30_flaky/Sometimes fails}";
    let forced = ["--", "--offline", "-Dtests.fixture.probability=1"];
    let out = run(gradle_flaky()
        .arg("--project-dir")
        .arg(build.path())
        .args(["local", "--unit-iters", "2", "--rest-iters", "1"])
        .args([
            format!("{SEEDED}#testFlakyAssertion"),
            format!("{yaml}.{case}"),
        ])
        .args(forced));
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let triage = |replays: &str, budget: &str| {
        let out = run(gradle_flaky()
            .arg("--project-dir")
            .arg(build.path())
            .args(["triage", "--format", "json", "--replays", replays])
            .args(["--triage-budget", budget])
            .args(forced));
        assert_eq!(out.status.code(), Some(1), "{}", text(&out));
        (
            json_report(&out),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };

    let (report, stderr) = triage("2", "100");
    let t = triage_of(&report, yaml, case);
    assert_eq!(t["verdict"], "seed-deterministic", "{t:#}");
    assert_eq!(
        (t["replays"].as_u64(), t["reproduced"].as_u64()),
        (Some(2), Some(2))
    );
    assert!(
        seeds(t)[0]["reproduce"]
            .as_str()
            .unwrap()
            .contains(&format!(
                ":modules:lang-painless:yamlRestTest --tests {yaml} '-Dtests.method={case}' -Dtests.seed="
            )),
        "{t:#}"
    );
    let unit = triage_of(&report, SEEDED, "testFlakyAssertion");
    assert_eq!(
        (unit["verdict"].as_str(), unit["replays"].as_u64()),
        (Some("seed-deterministic"), Some(4))
    );
    assert!(
        stderr.contains("no test ran with -Dtests.iters"),
        "{stderr}"
    );
    assert!(
        stderr.contains("6 replay(s) in 5 Gradle invocation(s)"),
        "one per unit seed, then the YAML case's try in one JVM and one per replay: {stderr}"
    );

    // The build stops passing tests.iters on.
    let wiring = build.path().join("gradle/es-test.gradle");
    let forward = "k.toString().startsWith('tests.') &&";
    let script = std::fs::read_to_string(&wiring).unwrap();
    assert!(script.contains(forward));
    let drop = |script: &str, property: &str| {
        script.replace(
            forward,
            &format!("{forward} k.toString() != '{property}' &&"),
        )
    };
    let script = drop(&script, "tests.iters");
    std::fs::write(&wiring, &script).unwrap();
    let (report, stderr) = triage("2", "2");
    let unit = triage_of(&report, SEEDED, "testFlakyAssertion");
    assert_eq!(
        (
            seeds(unit)[0]["replays"].as_u64(),
            seeds(unit)[0]["reproduced"].as_u64()
        ),
        (Some(2), Some(2)),
        "{unit:#}"
    );
    assert_eq!(unit["verdict"], "seed-deterministic");
    assert!(
        stderr.contains("2 replay(s) in 2 Gradle invocation(s)"),
        "{stderr}"
    );

    // Nor tests.seed: the replay runs with a seed of its own, which says nothing.
    std::fs::write(&wiring, drop(&script, "tests.seed")).unwrap();
    let (report, _) = triage("1", "1");
    let unit = triage_of(&report, SEEDED, "testFlakyAssertion");
    assert_eq!(unit["verdict"], Value::Null, "{unit:#}");
    assert_eq!(unit["replays"], 0);
    assert!(
        unit["notes"]
            .to_string()
            .contains("the seed did not reach the test JVM"),
        "{unit:#}"
    );
}
