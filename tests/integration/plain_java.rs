//! Integration tests on `tests/fixtures/plain-java`, an ordinary Gradle build
//! (plain JUnit 4 with a Parameterized class and a nested class, TestNG with a
//! data provider, an `integrationTest` source set, a task with include/exclude
//! patterns, `*Test` names, no randomizedtesting, no `tests.*` forwarding):
//! every planned execution happens, by Gradle runs (`--repetition
//! gradle-runs`), and is counted. In-JVM repetition on it: `in_jvm.rs`.

pub use crate::common::flaky_offline as flaky;
use crate::common::{
    assert_layout_from_cache, branch_touching, git, git_main, plain_java_copy, text,
    use_recorded_layout,
};
use serde_json::Value;
use std::path::Path;
use std::process::Output;

const CORE: &str = "com.example.core";
const CLIENT: &str = "com.example.client";

/// `flaky` for a command that only plans on a build given its recorded
/// layout (`use_recorded_layout`): it must start no Gradle.
pub fn plan_only(build: &Path, args: &[&str]) -> Output {
    let out = flaky(build, args);
    assert_layout_from_cache(&out);
    out
}

pub fn json(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", text(out)))
}

/// Every designed flake fails with probability `p` (see the fixture's README).
pub fn flake_probability(build: &Path, p: &str) {
    std::fs::write(build.join("fixture-flake-probability"), p).unwrap();
}

pub fn rows<'a>(report: &'a Value, class: &str) -> Vec<&'a Value> {
    report["tests"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["class"] == class)
        .collect()
}

/// Whether report row `t` is one of the fixture's designed flakes.
pub fn is_designed_flake(t: &Value, designed: &[(String, &str)]) -> bool {
    designed
        .iter()
        .any(|(c, m)| t["class"] == c.as_str() && t["method"] == *m)
}

pub fn row<'a>(report: &'a Value, class: &str, method: &str) -> &'a Value {
    rows(report, class)
        .into_iter()
        .find(|t| t["method"] == method)
        .unwrap_or_else(|| panic!("no row {class}.{method} in {report:#}"))
}

/// `plan` on a plain build: `*Test` classes of `src/test` resolve, a class the
/// task's patterns exclude is unresolved with its reason code, and with
/// `--repetition gradle-runs` every command states that it repeats by Gradle
/// runs, and why.
#[test]
fn plan_resolves_star_test_classes_and_repeats_by_gradle_runs() {
    let build = plain_java_copy();
    let b = build.path();
    use_recorded_layout(b, "plain-java", &["gradle"]);
    let out = plan_only(
        b,
        &[
            "plan",
            "--iters",
            "20",
            "--repetition",
            "gradle-runs",
            "RetryingClientTest",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let plan = String::from_utf8_lossy(&out.stdout);
    assert!(
        plan.contains(&format!(
            "unit  :core:test  {CORE}.RetryingClientTest  explicit"
        )),
        "{plan}"
    );
    assert!(
        plan.contains(
            "20 Gradle runs: --repetition gradle-runs: a fresh Gradle run (and test JVM) per \
             iteration\n     clean \u{21d2} failure rate < 14% at 95% (20 executions per test)\n     \
             gradle :core:cleanTest :core:test --tests com.example.core.RetryingClientTest --continue --offline\n"
        ),
        "{plan}"
    );
    assert!(
        !plan.contains("tests.iters="),
        "no -Dtests.iters on the command: {plan}"
    );

    let out = plan_only(
        b,
        &[
            "plan",
            "--iters",
            "12",
            "--repetition",
            "gradle-runs",
            "--format",
            "json",
            &format!("{CORE}.KeyValueParserTest#parses"),
            &format!("{CORE}.LruCacheTest"),
            &format!("{CLIENT}.RequestEncoderTest#encodes[2](flaky, x&y, x%26y)"),
            &format!("{CORE}.ServiceIT"),
            "com.example.app.AppTest",
            "com.example.app.ExcludedManualTest",
        ],
    );
    assert_eq!(
        out.status.code(),
        Some(2),
        "a named test is unresolved: {}",
        text(&out)
    );
    let plan = json(&out);
    let unresolved = &plan["unresolved"][0];
    assert_eq!(unresolved["input"], "com.example.app.ExcludedManualTest");
    assert_eq!(unresolved["reasonCode"], "excluded-by-task-patterns");
    assert_eq!(
        unresolved["reason"],
        "`com.example.app.ExcludedManualTest` is left out by the include/exclude patterns of \
         every task that could run it (com/example/app/ExcludedManualTest.class: `:app:test` \
         includes **/*Test.class; excludes **/*ManualTest.class); Gradle would run no test"
    );
    let commands = plan["commands"].as_array().unwrap();
    let argv = |i: usize| -> Vec<String> {
        commands[i]["argv"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a.as_str().unwrap().to_string())
            .collect()
    };
    for c in commands {
        assert_eq!(c["repetition"], "gradleRuns", "{c:#}");
        assert_eq!(
            (&c["iterations"], &c["restLoops"]),
            (&Value::from(1), &Value::from(12))
        );
        assert_eq!(c["cleanProves"]["executionsPerTest"], 12);
    }
    // The Parameterized method's cases, the nested class, a TestNG row's method.
    let core = argv(0);
    for filter in [
        format!("{CORE}.KeyValueParserTest.parses"),
        format!("{CORE}.KeyValueParserTest.parses[*]"),
        format!("{CORE}.LruCacheTest"),
        format!("{CORE}.LruCacheTest$*"),
    ] {
        assert!(core.contains(&filter), "{filter} in {core:?}");
    }
    // One TestNG row cannot be selected: its method is; TestNG's reason is stated.
    assert!(
        core.contains(&format!("{CLIENT}.RequestEncoderTest.encodes")),
        "{core:?}"
    );
    let reason = commands[0]["repetitionReason"].as_str().unwrap();
    assert!(reason.starts_with("--repetition gradle-runs"), "{reason}");
    let notes = plan["notes"].to_string();
    assert!(notes.contains("every row of `encodes` runs"), "{notes}");
    let integration = commands
        .iter()
        .find(|c| c["kind"] == "integrationTest")
        .unwrap();
    assert_eq!(
        integration["argv"].as_array().unwrap()[1..],
        [
            ":core:cleanIntegrationTest",
            ":core:integrationTest",
            "--tests",
            "com.example.core.ServiceIT",
            "--continue",
            "--offline"
        ]
        .map(Value::from)
    );
}

/// `--changed` on a plain build: a `*Test` file runs; a helper and main code
/// are listed as not run, with why.
#[test]
fn changed_lists_every_source_file_it_does_not_run() {
    let build = plain_java_copy();
    let b = build.path();
    git(b, &["init", "-q", "-b", "main"]);
    git(b, &["add", "-A"]);
    git(b, &["commit", "-qm", "base"]);
    use_recorded_layout(b, "plain-java", &["gradle"]);
    for file in [
        "core/src/test/java/com/example/core/RetryingClientTest.java",
        "core/src/test/java/com/example/testsupport/Flake.java",
        "core/src/main/java/com/example/core/LruCache.java",
        "app/src/test/java/com/example/app/SmokeChecks.java",
    ] {
        let path = b.join(file);
        let old = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, format!("{old}// touched\n")).unwrap();
    }
    let out = plan_only(b, &["plan", "--changed", "--base", "main"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let plan = String::from_utf8_lossy(&out.stdout);
    assert!(plan.contains("1 test in 1 command."), "{plan}");
    assert!(
        plan.contains(&format!("{CORE}.RetryingClientTest  changed")),
        "{plan}"
    );
    assert!(
        plan.contains(
            "Changed files not run:\n  \
             core/src/main/java/com/example/core/LruCache.java: in `:core` source set `main`, which no Test task runs\n  \
             core/src/test/java/com/example/testsupport/Flake.java: `Flake` declares no tests and inherits none \
             (superclasses: java.lang.Object)"
        ),
        "{plan}"
    );
    assert!(
        plan.contains(
            "app/src/test/java/com/example/app/SmokeChecks.java (changed): \
             `com.example.app.SmokeChecks` is left out by the include/exclude patterns"
        ),
        "a test the patterns leave out is unresolved: {plan}"
    );
}

/// The case: `local --iters 12` on a plain build executes every
/// selected method 12 times (every case of a Parameterized method, the nested
/// class, every TestNG row), finds each designed flake, clears the stable
/// tests with 12 runs each, and exits 1.
#[test]
fn local_executes_every_selected_method_as_often_as_planned() {
    let build = plain_java_copy();
    let b = build.path();
    // 0.6 per execution: a designed flake passes 12 runs in a row with probability 2e-5.
    flake_probability(b, "0.6");
    let classes = [
        format!("{CORE}.RetryingClientTest"),
        format!("{CORE}.KeyValueParserTest"),
        format!("{CORE}.LruCacheTest"),
        format!("{CLIENT}.ConnectionPoolTest"),
        format!("{CLIENT}.RequestEncoderTest"),
        "com.example.app.AppTest".to_string(),
        format!("{CORE}.ServiceIT"),
    ];
    let mut args = vec![
        "local",
        "--iters",
        "12",
        "--repetition",
        "gradle-runs",
        "--cap",
        "unit=6",
        "--format",
        "json",
    ];
    args.extend(classes.iter().map(String::as_str));
    let out = flaky(b, &args);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("2 of 2 batch(es), 24 Gradle invocation(s)"),
        "12 Gradle runs per batch: {stderr}"
    );
    let report = json(&out);
    let tests = report["tests"].as_array().unwrap();
    // 3 + 8 Parameterized cases + 2 + 2 nested + 2 + 4 TestNG + 1 + 2
    assert_eq!(tests.len(), 24, "{report:#}");
    for t in tests {
        assert_eq!(t["runs"], 12, "{t:#}");
        assert_eq!(t["plannedRuns"], 12, "{t:#}");
        assert!(t.get("belowPlan").is_none(), "{t:#}");
    }
    assert!(report.get("notExecuted").is_none(), "{report:#}");
    let designed = [
        (format!("{CORE}.RetryingClientTest"), "retriesUntilSuccess"),
        (format!("{CORE}.KeyValueParserTest"), "parses[2: flaky]"),
        (
            format!("{CORE}.LruCacheTest$EvictionTest"),
            "evictsUnderPressure",
        ),
        (
            format!("{CLIENT}.ConnectionPoolTest"),
            "reusesIdleConnection",
        ),
        (
            format!("{CLIENT}.RequestEncoderTest"),
            "encodes[2](flaky, x&y, x%26y)",
        ),
        (format!("{CORE}.ServiceIT"), "handlesConcurrentRequests"),
    ];
    for t in tests {
        let is_flake = is_designed_flake(t, &designed);
        let failures = t["failures"].as_u64().unwrap();
        assert_eq!(failures > 0, is_flake, "{t:#}");
    }
    let reproduce = |class: &str, method: &str| {
        row(&report, class, method)["reproduce"]
            .as_str()
            .unwrap()
            .to_string()
    };
    assert_eq!(
        reproduce(&format!("{CORE}.KeyValueParserTest"), "parses[2: flaky]"),
        "gradle --offline :core:cleanTest :core:test --tests \
         'com.example.core.KeyValueParserTest.parses[2: flaky]'",
        "the real task forced to run, the build's Gradle with the run's own arguments, the case \
         as Gradle selects it, no seed"
    );
    assert_eq!(
        reproduce(
            &format!("{CLIENT}.RequestEncoderTest"),
            "encodes[2](flaky, x&y, x%26y)"
        ),
        "gradle --offline :client:cleanTest :client:test --tests com.example.client.RequestEncoderTest.encodes"
    );
    assert_eq!(
        reproduce(&format!("{CORE}.ServiceIT"), "handlesConcurrentRequests"),
        "gradle --offline :core:cleanIntegrationTest :core:integrationTest --tests com.example.core.ServiceIT.handlesConcurrentRequests"
    );
}

/// A selected test that Gradle never ran, in a batch that otherwise passed: the
/// run is not clean (exit 3), and the report says which test, how many runs
/// were planned, and that nothing explains it.
#[test]
fn a_test_run_fewer_times_than_planned_is_never_clean() {
    let build = plain_java_copy();
    let b = build.path();
    flake_probability(b, "0");
    // A method the class declares but that is no test: it passes the method
    // check, and Gradle runs nothing for it.
    let source = b.join("core/src/test/java/com/example/core/LruCacheTest.java");
    let declared = std::fs::read_to_string(&source).unwrap().replacen(
        "public class LruCacheTest {",
        "public class LruCacheTest {\n    public void noSuchMethod() {}",
        1,
    );
    std::fs::write(&source, declared).unwrap();
    let missing = format!("{CORE}.LruCacheTest#noSuchMethod");
    let retrying = format!("{CORE}.RetryingClientTest");
    let out = flaky(
        b,
        &[
            "local", "--iters", "2", "--format", "json", &retrying, &missing,
        ],
    );
    assert_eq!(out.status.code(), Some(3), "{}", text(&out));
    let report = json(&out);
    assert_eq!(report["summary"]["failed"], 0);
    assert_eq!(
        row(&report, &retrying, "retriesUntilSuccess")["plannedRuns"],
        2
    );
    let not_executed = &report["notExecuted"];
    assert_eq!(not_executed.as_array().map(Vec::len), Some(1), "{report:#}");
    assert_eq!(not_executed[0]["task"], ":core:test");
    assert_eq!(
        not_executed[0]["test"],
        format!("{CORE}.LruCacheTest.noSuchMethod")
    );
    assert_eq!(not_executed[0]["plannedRuns"], 2);
    let reason = not_executed[0]["reason"].as_str().unwrap();
    assert!(
        reason.contains("although batch 1 ended normally"),
        "{reason}"
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("ran fewer times than planned"), "{stderr}");

    // The markdown report says it too, and lists no clean result for it.
    let out = flaky(b, &["local", "--iters", "2", &retrying, &missing]);
    assert_eq!(out.status.code(), Some(3), "{}", text(&out));
    let md = String::from_utf8_lossy(&out.stdout);
    assert!(
        md.contains(
            "### Ran fewer times than planned\n- `com.example.core.LruCacheTest.noSuchMethod` \
             (`:core:test`): never executed, 2 planned: Gradle ran it fewer times than planned"
        ),
        "{md}"
    );
    assert!(
        md.contains("`com.example.core.RetryingClientTest.retriesUntilSuccess`: 0/2 \u{21d2} failure rate < 78% at 95% (2 planned)"),
        "{md}"
    );
}

/// The helper: a comment-only change to a package-private Hamcrest
/// matcher of `:core`'s tests runs nothing and exits 0 (Gradle's detection
/// reads its chain from Hamcrest's jar, on the classpath the layout reports);
/// it used to be taken for a test and exit 1.
#[test]
fn a_comment_on_a_matcher_helper_runs_nothing_and_exits_0() {
    let build = plain_java_copy();
    let b = build.path();
    git_main(b);
    branch_touching(
        b,
        "pr",
        &["core/src/test/java/com/example/core/IsSortedMatcher.java"],
    );
    let out = local_changed(b);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(
            "`IsSortedMatcher` declares no tests and inherits none (superclasses: \
             org.hamcrest.TypeSafeMatcher, org.hamcrest.BaseMatcher, java.lang.Object)"
        ),
        "{err}"
    );
}

/// `local --changed --base main --iters 2` on a private daemon.
fn local_changed(b: &Path) -> Output {
    let args = [
        "--isolate",
        "local",
        "--changed",
        "--base",
        "main",
        "--iters",
        "2",
    ];
    flaky(b, &[&args[..], &["--format", "json"]].concat())
}

/// A task with `scanForTestClasses = false` runs a helper named like a test;
/// JUnit finds no test in it ("No runnable methods"). Changed beside a real
/// test, the helper is reported `not-a-test`, no verdict, and the exit code
/// follows the test that ran: 0. Changed alone, nothing ran: 3, said so.
#[test]
fn a_class_junit_finds_no_test_in_is_not_a_test_and_the_exit_follows_what_ran() {
    let build = plain_java_copy();
    let b = build.path();
    git_main(b);
    let dir = "scanless/src/test/java/com/example/scanless";
    let fixtures = format!("{dir}/FixturesTest.java");
    branch_touching(b, "both", &[&fixtures, &format!("{dir}/CountingTest.java")]);
    let out = local_changed(b);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let report = json(&out);
    let not_a_test = &report["notATest"][0];
    assert_eq!(
        not_a_test["class"], "com.example.scanless.FixturesTest",
        "{report:#}"
    );
    assert_eq!(not_a_test["reasonCode"], "not-a-test");
    assert_eq!(not_a_test["message"], "No runnable methods");
    assert_eq!(
        row(&report, "com.example.scanless.CountingTest", "counts")["runs"],
        2
    );
    assert_eq!(report["summary"]["failed"], 0, "{report:#}");
    assert!(report.get("notExecuted").is_none(), "{report:#}");

    branch_touching(b, "alone", &[&fixtures]);
    let out = local_changed(b);
    assert_eq!(out.status.code(), Some(3), "{}", text(&out));
    let report = json(&out);
    assert_eq!(
        report["notATest"][0]["class"],
        "com.example.scanless.FixturesTest"
    );
    assert_eq!(report["summary"]["executions"], 0, "{report:#}");
}
