//! Integration tests on `tests/fixtures/suites`, a build whose `test` task
//! includes only `**/AllTests.class`: a JUnit 4 `@RunWith(Suite.class)` suite
//! (with the nested suite `codec.CodecSuite`) and a JUnit 3 `suite()` suite
//! (with the nested suite `legacy.io.AllIoTests`); every other test class
//! runs inside one. Members are planned on `:test` and run exactly, 12 times
//! when asked 12, on Gradle 4.4.1.

use crate::common::use_recorded_layout;
use crate::common::{
    branch_touching, flaky_offline as flaky, git, git_main, gradle_flaky, run, suites_copy, text,
};
use crate::plain_java::plan_only;
use serde_json::Value;
use std::path::Path;
use std::process::Output;

const PKG: &str = "com.example.suites";

/// `local` on a private daemon: another gradle-flaky whose Gradle client
/// ends on the shared daemon while this run's build starts there can take
/// this build's test JVM for its own leftover and stop it (seen when tests run
/// in parallel), and these runs count every execution.
fn local(build: &Path, args: &[&str]) -> Output {
    run(gradle_flaky()
        .args(["--isolate", "--project-dir"])
        .arg(build)
        .arg("local")
        .args(args)
        .args(["--", "--offline"]))
}

fn json(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", text(out)))
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap().to_string())
        .collect()
}

fn row<'a>(report: &'a Value, class: &str, method: &str) -> &'a Value {
    report["tests"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["class"] == class && t["method"] == method)
        .unwrap_or_else(|| panic!("no row {class}.{method} in {report:#}"))
}

fn route(test: &Value) -> &str {
    test["viaSuite"]["route"]["reasonCode"].as_str().unwrap()
}

/// `plan` accepts the members of the included suites, through nested suites
/// too, says which way each runs and why, refuses a class in no suite, and
/// on a newer Gradle (as the layout reports it) adds every member to the
/// task's includes for the run.
#[test]
fn plan_runs_suite_members_on_the_suites_task() {
    let build = suites_copy();
    let b = build.path();
    use_recorded_layout(b, "suites", &["gradle"]);
    let members = [
        format!("{PKG}.ParserTest"),
        format!("{PKG}.codec.EncoderTest"),
        format!("{PKG}.legacy.LegacyMathTest#testRounding"),
        format!("{PKG}.legacy.io.StreamCheck"),
    ];
    let mut args = vec!["plan", "--iters", "12", "--format", "json"];
    args.extend(members.iter().map(String::as_str));
    let orphan = format!("{PKG}.OrphanTest");
    args.push(&orphan);
    // Added by a `suite()` in a class that does not extend TestCase: the
    // patterns include that class, but Gradle's detection never runs it.
    let draft = format!("{PKG}.legacy.drafts.DraftCheck");
    args.push(&draft);
    let out = plan_only(b, &args);
    assert_eq!(out.status.code(), Some(2), "the orphan: {}", text(&out));
    let plan = json(&out);
    for (n, input) in [&orphan, &draft].into_iter().enumerate() {
        let unresolved = &plan["unresolved"][n];
        assert_eq!(unresolved["input"], input.as_str(), "{plan:#}");
        assert_eq!(
            unresolved["reasonCode"], "excluded-by-task-patterns",
            "{plan:#}"
        );
    }
    let tests = plan["tests"].as_array().unwrap();
    assert_eq!(tests.len(), 4, "{plan:#}");
    for t in tests {
        assert_eq!(t["task"], ":test", "{t:#}");
    }
    // Gradle 4.4.1: JUnit 4 suites filter inside; a JUnit 3 suite() does not.
    assert_eq!(route(&tests[0]), "runs-through-suite");
    assert_eq!(tests[0]["viaSuite"]["suites"][0], format!("{PKG}.AllTests"));
    assert_eq!(route(&tests[1]), "runs-through-suite", "through CodecSuite");
    assert_eq!(route(&tests[2]), "included-for-this-run");
    assert_eq!(route(&tests[3]), "included-for-this-run");
    assert!(tests[3]["viaSuite"]["route"]["reason"]
        .as_str()
        .unwrap()
        .starts_with("Gradle 4.4.1 keeps the child suites of a JUnit 3 `suite()` whole"));
    let argv: Vec<String> = plan["commands"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|c| strings(&c["argv"]))
        .collect();
    // (two commands: the batch cap is 3)
    for class in ["legacy.LegacyMathTest", "legacy.io.StreamCheck"] {
        let include = format!("-Dflaky.include.:test={PKG}.{class}");
        assert!(argv.contains(&include), "{include} in {argv:?}");
    }
    assert!(
        argv.contains(&format!("-Dflaky.exclude.:test={PKG}.legacy.AllTests")),
        "{argv:?}"
    );
    let notes = plan["notes"].to_string();
    assert!(notes.contains("(runs-through-suite)"), "{notes}");

    // A suite of its own is a test of the task, marked as a suite.
    let out = plan_only(
        b,
        &[
            "plan",
            "--format",
            "json",
            &format!("{PKG}.legacy.AllTests"),
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert_eq!(json(&out)["tests"][0]["isSuite"], true);

    // The layout says Gradle 8.10.2: members are included for the run.
    let cache = b.join(".gradle/gradle-flaky/layout.json");
    let mut entry: Value = serde_json::from_str(&std::fs::read_to_string(&cache).unwrap()).unwrap();
    entry["layout"]["gradleVersion"] = "8.10.2".into();
    std::fs::write(&cache, entry.to_string()).unwrap();
    let out = plan_only(b, &["plan", "--format", "json", &members[0]]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let plan = json(&out);
    assert_eq!(route(&plan["tests"][0]), "included-for-this-run");
    let argv = strings(&plan["commands"][0]["argv"]);
    assert!(
        argv.contains(&"--rerun".to_string()),
        "the cache was read: {argv:?}"
    );
    assert!(
        argv.contains(&format!("-Dflaky.include.:test={PKG}.ParserTest")),
        "{argv:?}"
    );
    assert!(
        argv.contains(&format!("-Dflaky.exclude.:test={PKG}.AllTests")),
        "{argv:?}"
    );
}

/// The case: `local --iters 12` on suite members, one run through
/// its JUnit 4 suite and two added to the task's includes, executes each of
/// their methods 12 times (no more: the suites do not run them again), finds
/// both designed flakes (exit 1), and the reproduce line of the included one
/// re-runs it alone.
#[test]
fn local_executes_suite_members_as_often_as_planned_and_finds_their_flakes() {
    let build = suites_copy();
    let b = build.path();
    // 0.6 per execution: a designed flake passes 12 runs in a row with probability 2e-5.
    std::fs::write(b.join("fixture-flake-probability"), "0.6").unwrap();
    let out = local(
        b,
        &[
            "--iters",
            "12",
            "--format",
            "json",
            &format!("{PKG}.ParserTest"),
            &format!("{PKG}.legacy.LegacyMathTest"),
            &format!("{PKG}.legacy.io.StreamCheck"),
        ],
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let report = json(&out);
    let tests = report["tests"].as_array().unwrap();
    assert_eq!(tests.len(), 5, "{report:#}");
    for t in tests {
        assert_eq!(
            (&t["runs"], &t["plannedRuns"]),
            (&12.into(), &12.into()),
            "{t:#}"
        );
    }
    assert!(report.get("notExecuted").is_none(), "{report:#}");
    for (class, method) in [
        (format!("{PKG}.ParserTest"), "parsesUnderLoad"),
        (format!("{PKG}.legacy.LegacyMathTest"), "testRounding"),
    ] {
        assert!(row(&report, &class, method)["failures"].as_u64().unwrap() > 0);
    }
    assert_eq!(
        row(&report, &format!("{PKG}.ParserTest"), "parsesNumbers")["failures"],
        0
    );
    let reproduce = row(
        &report,
        &format!("{PKG}.legacy.LegacyMathTest"),
        "testRounding",
    )["reproduce"]
        .as_str()
        .unwrap();
    assert!(
        reproduce.starts_with("gradle --offline -I /"),
        "{reproduce}"
    );
    assert!(
        reproduce.contains("/.gradle/gradle-flaky/scripts/flaky-suite-members.gradle :cleanTest :test --tests com.example.suites.legacy.LegacyMathTest.testRounding -Dflaky.include.:test=com.example.suites.legacy.LegacyMathTest -Dflaky.exclude.:test=com.example.suites.legacy.AllTests"),
        "the script where it outlives the run folder, the task forced: {reproduce}"
    );
    let through = row(&report, &format!("{PKG}.ParserTest"), "parsesUnderLoad")["reproduce"]
        .as_str()
        .unwrap();
    assert_eq!(
        through,
        "gradle --offline :cleanTest :test --tests com.example.suites.ParserTest.parsesUnderLoad"
    );
}

/// A pull request that edits suite members runs them: a JUnit 3 member that
/// is neither named nor declared like a test (only its suite makes it one),
/// and a JUnit 4 member of a nested suite. A suite named beside its member
/// covers it, and the suite's executions are its own.
#[test]
fn a_changed_suite_member_runs() {
    let build = suites_copy();
    let b = build.path();
    std::fs::write(b.join("fixture-flake-probability"), "0").unwrap();
    git(b, &["init", "-q", "-b", "main"]);
    git(b, &["add", "-A"]);
    git(b, &["commit", "-qm", "base"]);
    git(b, &["checkout", "-qb", "pr"]);
    for file in [
        "src/test/java/com/example/suites/legacy/io/StreamCheck.java",
        "src/test/java/com/example/suites/codec/DecoderTest.java",
    ] {
        let path = b.join(file);
        let old = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, format!("{old}// changed on the branch\n")).unwrap();
    }
    git(b, &["commit", "-qam", "edit members"]);
    let out = local(
        b,
        &[
            "--changed",
            "--base",
            "main",
            "--iters",
            "2",
            "--format",
            "json",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let report = json(&out);
    assert_eq!(
        row(
            &report,
            &format!("{PKG}.legacy.io.StreamCheck"),
            "testReadsAll"
        )["runs"],
        2
    );
    assert_eq!(
        row(&report, &format!("{PKG}.codec.DecoderTest"), "decodes")["runs"],
        2
    );
    assert_eq!(report["tests"].as_array().unwrap().len(), 2, "{report:#}");

    // The JUnit 4 suite named with one of its members: the suite runs, once.
    let out = local(
        b,
        &[
            "--iters",
            "2",
            "--format",
            "json",
            &format!("{PKG}.AllTests"),
            &format!("{PKG}.ParserTest"),
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let report = json(&out);
    assert!(report.get("notExecuted").is_none(), "{report:#}");
    for t in report["tests"].as_array().unwrap() {
        assert_eq!(
            (&t["runs"], &t["plannedRuns"]),
            (&2.into(), &2.into()),
            "{t:#}"
        );
    }
    assert_eq!(report["tests"].as_array().unwrap().len(), 4, "{report:#}");
}

/// A JUnit 3 bulk test (Commons Collections' `BulkTest`): the nested class
/// `AbstractListCheck$HeadView`, which only `bulkTestHead()` creates and
/// `BulkTest.makeSuite` runs inside `ArrayListCheck`'s suite. Named as the
/// reports name it, it runs through `ArrayListCheck` (included for the run),
/// 12 times, and its designed flake is found; in the expansion of its
/// abstract outer class it is not run alone (`bulk-test-only`).
#[test]
fn a_bulk_test_runs_through_the_suite_of_the_test_class_that_creates_it() {
    let build = suites_copy();
    let b = build.path();
    std::fs::write(b.join("fixture-flake-probability"), "0.6").unwrap();
    let head = format!("{PKG}.legacy.bulk.AbstractListCheck$HeadView");
    let host = format!("{PKG}.legacy.bulk.ArrayListCheck");
    let out = flaky(
        b,
        &[
            "plan",
            "--format",
            "json",
            &head,
            "src/test/java/com/example/suites/legacy/bulk/AbstractListCheck.java",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let plan = json(&out);
    let tests = plan["tests"].as_array().unwrap();
    assert_eq!(tests.len(), 1, "{plan:#}");
    assert_eq!(tests[0]["class"], host.as_str());
    assert_eq!(route(&tests[0]), "included-for-this-run");
    let not_run = &plan["expansions"][0]["notRun"][0];
    assert_eq!(not_run["class"], head.as_str());
    assert_eq!(not_run["reasonCode"], "bulk-test-only");
    let notes = plan["notes"].to_string();
    assert!(
        notes.contains("AbstractListCheck.bulkTestHead()` creates it"),
        "{notes}"
    );

    let out = local(b, &["--iters", "12", "--format", "json", &head]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let report = json(&out);
    assert!(report.get("notExecuted").is_none(), "{report:#}");
    let flake = row(&report, &head, "testHeadIsPrefix");
    assert_eq!(flake["runs"], 12, "{flake:#}");
    assert!(flake["failures"].as_u64().unwrap() > 0, "{flake:#}");
    assert_eq!(row(&report, &host, "testNotEmpty")["runs"], 12);
}

/// Triage replays a failing suite member the way its run ran it: included
/// for the run (`-Dflaky.include.:test=…`, the suite left out), so the
/// replay runs that test alone, not its suite (which from Gradle 4.7 would
/// run nothing).
#[test]
fn triage_replays_a_suite_member_through_its_route() {
    let build = suites_copy();
    let b = build.path();
    std::fs::write(b.join("fixture-flake-probability"), "1").unwrap();
    let member = format!("{PKG}.legacy.LegacyMathTest");
    let out = local(
        b,
        &["--iters", "2", "--triage", "2", "--format", "json", &member],
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let report = json(&out);
    let triage = &row(&report, &member, "testRounding")["triage"];
    assert_eq!(triage["verdict"], "fails-alone", "{triage:#}");
    assert_eq!(
        (&triage["replays"], &triage["reproduced"]),
        (&2.into(), &2.into()),
        "{triage:#}"
    );
    let logs = String::from_utf8_lossy(&out.stderr);
    let log = logs
        .split_whitespace()
        .find(|w| w.ends_with("/job-1.log)"))
        .map(|w| w.trim_end_matches(')'))
        .unwrap_or_else(|| panic!("no triage log in {logs}"));
    let log = std::fs::read_to_string(log).unwrap();
    assert!(
        log.contains(&format!(
            "--tests {member}.testRounding -Dflaky.include.:test={member} \
             -Dflaky.exclude.:test={PKG}.legacy.AllTests"
        )),
        "{log}"
    );
}

/// The JUnit 3 case: `legacy.AllTests` adds `new MainTest("testFoo")`,
/// so the build runs `MainTest.testFoo` only through it. A pull request
/// changing `MainTest` (a comment) selects it through that suite, runs it
/// through the suite as the build does (Gradle 4.4.1 filters each instance:
/// `testBar`, which the build never runs and which always fails, stays out),
/// and finds its designed flake: exit 1 (stopping on the proof).
#[test]
fn a_member_its_suite_adds_as_an_instance_is_selected_and_its_flake_found() {
    let build = suites_copy();
    let b = build.path();
    std::fs::write(b.join("fixture-flake-probability"), "0.6").unwrap();
    git_main(b);
    branch_touching(
        b,
        "pr",
        &["src/test/java/com/example/suites/legacy/MainTest.java"],
    );
    let args = [
        "--changed",
        "--base",
        "main",
        "--iters",
        "12",
        "--format",
        "json",
    ];
    let out = local(b, &args);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let report = json(&out);
    let main = format!("{PKG}.legacy.MainTest");
    let foo = row(&report, &main, "testFoo");
    assert_eq!(foo["plannedRuns"], 12, "{foo:#}");
    assert!(foo["failures"].as_u64().unwrap() > 0, "{foo:#}");
    // A changed test stops on proof: it ran until its flake was proven.
    let runs = foo["runs"].as_u64().unwrap();
    assert!(
        runs == 12
            || foo["belowPlan"]
                .as_str()
                .unwrap()
                .contains("(stop on proof)"),
        "{foo:#}"
    );
    assert_eq!(
        foo["reproduce"],
        format!("gradle --offline :cleanTest :test --tests {main}.testFoo")
    );
    assert_eq!(report["tests"].as_array().unwrap().len(), 1, "{report:#}");
}

/// `--repetition in-jvm` is honoured where it can be and said where it
/// cannot: a JUnit 4 member class runs by gradle-flaky's runner in one test
/// JVM, outside its suite; a member its JUnit 3 suite creates as an instance
/// (which may have no constructor to run alone) stays on Gradle runs, and
/// the run says so when it starts and in the report, JSON and markdown.
#[test]
fn a_repetition_request_not_honoured_is_said_at_run_time_and_in_the_report() {
    let build = suites_copy();
    let b = build.path();
    std::fs::write(b.join("fixture-flake-probability"), "0").unwrap();
    let parser = format!("{PKG}.ParserTest");
    let main = format!("{PKG}.legacy.MainTest");
    let out = local(
        b,
        &[
            "--repetition",
            "in-jvm",
            "--iters",
            "3",
            "--format",
            "json",
            &parser,
            &format!("{main}#testFoo"),
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("--repetition in-jvm is not honoured: ") && stderr.contains("instance"),
        "said when the run starts: {stderr}"
    );
    let report = json(&out);
    let member = row(&report, &parser, "parsesNumbers");
    assert_eq!(
        member["repeatedBy"],
        serde_json::json!(["junit4-runner"]),
        "{member:#}"
    );
    assert_eq!(
        (&member["runs"], &member["plannedRuns"]),
        (&3.into(), &3.into())
    );
    assert!(member.get("notHonoured").is_none(), "{member:#}");
    let created = row(&report, &main, "testFoo");
    assert_eq!(
        created["repeatedBy"],
        serde_json::json!(["gradle-runs"]),
        "{created:#}"
    );
    assert_eq!(created["runs"], 3, "{created:#}");
    let why = created["notHonoured"].as_str().unwrap_or_default();
    assert!(
        why.starts_with("--repetition in-jvm is not honoured: "),
        "{created:#}"
    );

    let md = local(
        b,
        &[
            "--repetition",
            "in-jvm",
            "--iters",
            "2",
            &format!("{main}#testFoo"),
        ],
    );
    assert_eq!(md.status.code(), Some(0), "{}", text(&md));
    let md = String::from_utf8_lossy(&md.stdout);
    assert!(
        md.contains("- Not as asked: 1 test: --repetition in-jvm is not honoured: "),
        "{md}"
    );
}
