//! Integration tests: a CI batch job runs the repetition engine, as `local`
//! does (real Gradle, the recording `buildkite-agent` stand-in, each step run
//! as the agent runs it): stop on proof, a budget's chunks within the job's
//! timeout, the switch to Gradle runs, the fallback beside a suite timeout,
//! and what a run learned reaching the next build's plan and report.

use crate::buildkite::{interpolated, run_job, steps, Buildkite};
use crate::common::{
    executions, files_named, fixture_copy, git, git_main, gradle_flaky, read_json, run, slow_copy,
    text,
};
use serde_json::Value;
use std::path::Path;
use std::process::Command;

const FLAKY: &str = "org.example.slow.SlowFlakyTests";
const STABLE: &str = "org.example.slow.SlowStableTests";
const GROWING: &str = "org.example.slow.SlowGrowingTests";
const FLAKY_SOURCE: &str = "src/test/java/org/example/slow/SlowFlakyTests.java";

/// `gradle-flaky ARGS` in `dir` as job `job-plan` of a Buildkite build, its
/// batches run by `gradle` (offline) with `properties`.
fn planning(bk: &Buildkite, dir: &Path, properties: &str, args: &[&str]) -> Command {
    let mut cmd = gradle_flaky();
    bk.job(&mut cmd, "job-plan")
        .current_dir(dir)
        .env("FLAKINESS_GRADLE", format!("gradle --offline {properties}"))
        .env(
            "FLAKINESS_AGENT_BIN",
            shell_words::quote(env!("CARGO_BIN_EXE_gradle-flaky")).as_ref(),
        )
        .args(args);
    cmd
}

/// The uploaded pipeline, after `planning` ran.
fn uploaded(bk: &Buildkite) -> Value {
    let uploads = bk.calls_of(&["pipeline", "upload"]);
    serde_json::from_str(&uploads.last().expect("an upload").stdin).unwrap()
}

/// Runs the pipeline's batch steps (each job in a checkout of `source`,
/// `edit` applied to the step first) and then its report step; returns
/// each job's status file and the report step's folder and annotation.
fn run_pipeline(
    bk: &Buildkite,
    source: &Path,
    pipeline: &Value,
    edit: impl Fn(&mut Value),
) -> (Vec<Value>, tempfile::TempDir, String) {
    let mut statuses = Vec::new();
    let (batches, report) = steps(pipeline).split_at(steps(pipeline).len() - 1);
    for step in batches {
        let mut step = step.clone();
        edit(&mut step);
        let jobs = step["parallelism"].as_u64().map(|n| n as u32);
        for n in 0..jobs.unwrap_or(1) {
            let job_id = format!(
                "job-{}-{n}",
                step["key"].as_str().unwrap().replace(':', "-")
            );
            let (checkout, out) = run_job(bk, Some(source), &step, jobs.map(|_| n), &job_id);
            assert_eq!(out.status.code(), Some(0), "{job_id}: {}", text(&out));
            let status = checkout
                .path()
                .join(format!("flakiness-status/status-{job_id}.json"));
            statuses.push(read_json(&status));
        }
    }
    let (report_dir, out) = run_job(bk, None, &report[0], None, "job-analyze");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let annotations = bk.calls_of(&["annotate", "--style"]);
    let annotation = annotations
        .iter()
        .rev()
        .find(|c| c.argv.contains(&"flakiness-detection".to_string()))
        .map(|c| c.stdin.clone())
        .unwrap_or_default();
    (statuses, report_dir, annotation)
}

/// The slow fixture as a repository whose branch `pr` changes the slow
/// flaky test.
fn slow_pr() -> tempfile::TempDir {
    let repo = slow_copy();
    git_main(repo.path());
    crate::common::branch_touching(repo.path(), "pr", &[FLAKY_SOURCE]);
    repo
}

/// The case: a pull request changes a slow test that fails half its
/// executions, 60 iterations. Its CI job runs the engine: the first chunk
/// (a tenth) or the next proves it flaky and the job stops there, as
/// `local --changed` does on the same branch; the status file, the jobs
/// section and the Cost section say what was saved.
#[test]
fn a_changed_slow_flaky_test_is_stopped_on_proof_in_its_ci_job_as_locally() {
    let repo = slow_pr();
    let dir = repo.path();
    let properties = "-Dtests.fixture.sleep=200 -Dtests.fixture.probability=0.5";
    let bk = Buildkite::new();
    let args = [
        "pr",
        "--target",
        "buildkite",
        "--base",
        "main",
        "--unit-iters",
        "60",
    ];
    let out = run(&mut planning(&bk, dir, properties, &args));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let pipeline = uploaded(&bk);
    let (statuses, report_dir, annotation) = run_pipeline(&bk, dir, &pipeline, |_| {});
    assert_eq!(statuses.len(), 1, "{statuses:#?}");
    let engine = &statuses[0]["engine"];
    let proven = &engine["proven"][0];
    assert_eq!(proven["test"], FLAKY, "{engine:#}");
    let after = proven["after"].as_u64().unwrap();
    // Proven in the first chunk (6) or the second (12 more): 2 × 0.5^18 misses.
    assert!(after <= 18, "{engine:#}");
    assert_eq!(proven["saved"].as_u64(), Some(60 - after), "{engine:#}");
    assert_eq!(engine["ran"], serde_json::json!([after]), "{engine:#}");
    assert!(engine["savedSec"].as_u64().unwrap() > 0, "{engine:#}");
    let jobs = report_dir.path().join("flakiness-jobs");
    assert_eq!(
        executions(&jobs, FLAKY) as u64,
        after,
        "the XML says what ran"
    );
    for said in [
        "**What the repetition engine did**",
        &format!("proven flaky after {after} iteration(s): its other {}", 60 - after),
        &format!("iterations: {after} of 60 requested ran ({} saved by stop on proof)", 60 - after),
        "job-minutes saved",
        &format!("`{FLAKY}` was proven flaky after {after} iteration(s) in job `job-flakiness-detection-unit-0`"),
    ] {
        assert!(annotation.contains(said), "{said}\n{annotation}");
    }
    // `local` on the same branch stops as soon, by the same rule.
    let local = run(gradle_flaky()
        .current_dir(dir)
        .args(["local", "--changed", "--base", "main", "--unit-iters", "60"])
        .args(["--format", "json", "--", "--offline"])
        .args(properties.split(' ')));
    assert_eq!(local.status.code(), Some(1), "{}", text(&local));
    let report: Value = serde_json::from_slice(&local.stdout).unwrap();
    let local_after = report["cost"]["proven"][0]["afterIterations"]
        .as_u64()
        .unwrap();
    assert!(local_after <= 18, "{report:#}");
}

/// A budget the job's timeout cuts (10 minutes asked, the job stopped after
/// 2 minutes): the job sizes its chunks to what the timeout leaves (its
/// first chunk, a probe, pays the checkout's compilation too), stops
/// cleanly before it (rc 0, no timeout), and says so; the report counts what
/// ran, never more.
#[test]
fn a_budget_smaller_than_the_batch_runs_chunks_and_stops_cleanly_within_the_job_timeout() {
    let build = slow_copy();
    let dir = build.path();
    let bk = Buildkite::new();
    let args = [
        "buildkite",
        "upload",
        "--iters",
        "100",
        "--budget",
        "10m",
        STABLE,
    ];
    // 2 s an execution: 100 of them cannot fit the 60 s the job leaves its
    // batch, even spread over fresh JVMs side by side on two cores.
    let out = run(&mut planning(&bk, dir, "-Dtests.fixture.sleep=2000", &args));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let pipeline = uploaded(&bk);
    let short = |step: &mut Value| {
        let command = step["command"]
            .as_str()
            .unwrap()
            .replace("--timeout 58m", "--timeout 120s");
        step["command"] = Value::String(command);
    };
    let (statuses, report_dir, annotation) = run_pipeline(&bk, dir, &pipeline, short);
    let status = &statuses[0];
    assert_eq!(
        (status["rc"].as_i64(), status["timeoutSec"].as_u64()),
        (Some(0), Some(120)),
        "{status:#}"
    );
    assert!(status["durationSec"].as_u64().unwrap() < 120, "{status:#}");
    let engine = &status["engine"];
    let stop = &engine["budgetStop"];
    // What the job's 120 s leave a batch (settings::within): 60 s.
    assert_eq!(stop["budgetSec"], 60, "{engine:#}");
    let ran = stop["iterationsRun"].as_u64().unwrap();
    assert!(ran > 0 && ran < 100, "{engine:#}");
    assert!(
        engine["invocations"].as_u64().unwrap() >= 2,
        "chunks: {engine:#}"
    );
    let outcomes = read_json(&report_dir.path().join("flakiness-outcomes.json"));
    assert_eq!(outcomes[0]["outcome"], "clean_pass", "{outcomes:#}");
    assert_eq!(outcomes[0]["timedOut"], false, "{outcomes:#}");
    let jobs = report_dir.path().join("flakiness-jobs");
    assert_eq!(executions(&jobs, STABLE) as u64, ran);
    assert!(
        annotation.contains(&format!(
            "stopped by its budget (60s) after {ran} of 100 iterations"
        )),
        "{annotation}"
    );
}

/// A class whose executions grow slower in one JVM (each scans what the
/// ones before it left): its CI job weighs it as `local` does, and its
/// iterations, spread over fresh JVMs (a chunk of two runs one in each), cost
/// no more than fresh runs there, so it stays on the engine's in-JVM way,
/// and runs no more than planned. (The next test's chunk of four carries
/// the growth and switches.)
#[test]
fn a_class_whose_in_jvm_iterations_grow_is_weighed_in_its_ci_job_over_fresh_jvms() {
    let (engine, jobs, _) = growing_in_a_ci_job("4", "-Dtests.fixture.grow=12000");
    assert_eq!(
        engine["cheaper"],
        serde_json::json!([GROWING]),
        "{engine:#}"
    );
    assert!(engine["dearer"].is_null(), "{engine:#}");
    assert_eq!(engine["ran"], serde_json::json!([4]), "{engine:#}");
    assert_eq!(executions(&jobs.path(), GROWING), 4, "no more than planned");
}

/// The same class at more iterations: its chunks grow (1, 2, then 4), and
/// the chunk of four, spread over two fresh JVMs of two iterations each,
/// carries the growth (30 s for a second execution in a JVM). Its CI job
/// weighs that chunk dearer than fresh runs and runs what it still owes as
/// Gradle runs, as `local` does (`budget::auto_switches_…`); the status file
/// and the annotation say so and the XML holds the planned eight.
#[test]
fn a_class_whose_growth_shows_over_fresh_jvms_switches_to_gradle_runs_in_its_ci_job() {
    let (engine, jobs, annotation) = growing_in_a_ci_job("8", "-Dtests.fixture.grow=30000");
    let dearer = &engine["dearer"][0];
    assert_eq!(dearer["class"], GROWING, "{engine:#}");
    assert_eq!(dearer["switched"], true, "{engine:#}");
    assert!(engine["cheaper"].is_null(), "{engine:#}");
    let line = engine["lines"][0].as_str().unwrap_or_default();
    assert!(line.ends_with("the rest run as Gradle runs"), "{engine:#}");
    assert_eq!(executions(&jobs.path(), GROWING), 8, "no more than planned");
    let said = format!("in-JVM iterations of {GROWING} took ");
    assert!(annotation.contains(&said), "{annotation}");
}

/// The growing class at `iters` under a 5m budget with stop on proof,
/// through its pipeline: the job's engine record, the report step's job
/// folder (kept with its temp dir) and the annotation.
fn growing_in_a_ci_job(iters: &str, properties: &str) -> (Value, TempJobs, String) {
    let build = slow_copy();
    let dir = build.path();
    let bk = Buildkite::new();
    let args = [
        "buildkite",
        "upload",
        "--budget",
        "5m",
        "--stop-on-flaky",
        "--iters",
        iters,
        GROWING,
    ];
    let out = run(&mut planning(&bk, dir, properties, &args));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let pipeline = uploaded(&bk);
    let (statuses, report_dir, annotation) = run_pipeline(&bk, dir, &pipeline, |_| {});
    let engine = statuses[0]["engine"].clone();
    (engine, TempJobs(report_dir), annotation)
}

/// The report step's folder; `path()` is its `flakiness-jobs/`.
struct TempJobs(tempfile::TempDir);

impl TempJobs {
    fn path(&self) -> std::path::PathBuf {
        self.0.path().join("flakiness-jobs")
    }
}

/// One batch of three classes, as `local` runs them: gradle-flaky's runner
/// repeats a plain JUnit class itself (no fallback to Gradle runs), a class
/// the suite timeout cuts is cut once in each of its fresh JVMs and never
/// run again, and the randomized class runs its count and no more, all in
/// one invocation.
#[test]
fn a_plain_class_and_a_suite_timeout_run_in_a_ci_job_as_locally() {
    let build = fixture_copy();
    let dir = build.path();
    crate::run::add_hanging_test(dir);
    std::fs::write(
        dir.join("server/src/test/java/org/elasticsearch/PlainJUnitTests.java"),
        "package org.elasticsearch;\n\
         import org.junit.Test;\n\
         public class PlainJUnitTests {\n\
         @Test public void testPlain() { org.junit.Assert.assertEquals(2, 1 + 1); }\n}\n",
    )
    .unwrap();
    let (plain, hang, strings) = (
        "org.elasticsearch.PlainJUnitTests",
        "org.elasticsearch.HangTests",
        "org.elasticsearch.common.StringsTests",
    );
    let bk = Buildkite::new();
    let args = [
        "buildkite",
        "upload",
        "--iters",
        "3",
        "--suite-timeout",
        "15s",
        plain,
        hang,
        strings,
    ];
    let out = run(&mut planning(&bk, dir, "", &args));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let pipeline = uploaded(&bk);
    let unit = steps(&pipeline)
        .iter()
        .find(|s| s["key"] == "flakiness-detection:unit")
        .unwrap();
    assert!(unit.get("parallelism").is_none(), "one batch: {unit:#}");
    let (statuses, report_dir, _) = run_pipeline(&bk, dir, &pipeline, |_| {});
    let engine = &statuses[0]["engine"];
    assert!(engine["lines"].is_null(), "no fallback: {engine:#}");
    assert_eq!(engine["invocations"], 1, "{engine:#}");
    let jobs = report_dir.path().join("flakiness-jobs");
    assert_eq!(executions(&jobs, plain), 3);
    assert_eq!(executions(&jobs, strings), 3 * 3, "three methods, 3 times");
    let hangs: usize = files_named(&jobs, &format!("TEST-{hang}.xml"))
        .iter()
        .map(|xml| {
            std::fs::read_to_string(xml)
                .unwrap()
                .matches("name=\"testHang")
                .count()
        })
        .sum();
    assert_eq!(
        hangs, 2,
        "cut once in each of its 2 fresh JVMs, never run again"
    );
}

/// What a run learns reaches the next build with no server: the report step
/// of a build on main keeps `flakiness-learned/` (durations, ledger) as an
/// artifact; a pull request's build started from it (`--learned-build`)
/// plans from main's durations (the batch's predicted time), and its report
/// step fetches main's ledger: the flaky test is known flaky on main.
#[test]
fn a_pull_requests_build_plans_and_reports_from_what_main_learned() {
    let repo = slow_pr();
    let dir = repo.path();
    let properties = "-Dtests.fixture.sleep=100 -Dtests.fixture.probability=0.5";
    // A build of main, by hand (`manual`).
    git(dir, &["checkout", "-q", "main"]);
    let main = Buildkite::new();
    let mut manual = planning(&main, dir, properties, &["manual", "--iters", "20"]);
    manual
        .env("FLAKINESS_CLASSES", FLAKY)
        .env("BUILDKITE_BRANCH", "main");
    let out = run(&mut manual);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let branch = |step: &mut Value| {
        step["env"]["BUILDKITE_BRANCH"] = "main".into();
    };
    let pipeline = with_env(&uploaded(&main), branch);
    let (_, main_report, _) = run_pipeline(&main, dir, &pipeline, |_| {});
    let learned = main_report.path().join("flakiness-learned");
    let durations = read_json(&learned.join("flakiness-durations.json"));
    assert!(
        durations["classes"][FLAKY].as_f64().unwrap() > 0.0,
        "{durations:#}"
    );
    assert!(
        std::fs::read_to_string(learned.join("flakiness-ledger.jsonl"))
            .unwrap()
            .contains("\"branch\":\"main\"")
    );

    // The pull request's build, started from main's.
    git(dir, &["checkout", "-q", "pr"]);
    let pr = Buildkite::new();
    let build_id = "0190b2c3-d4e5-f607-1829-3a4b5c6d7e8f";
    pr.keep_build(build_id, &main);
    let mut plan = planning(
        &pr,
        dir,
        properties,
        &[
            "pr",
            "--target",
            "buildkite",
            "--base",
            "main",
            "--unit-iters",
            "20",
        ],
    );
    plan.env("FLAKINESS_LEARNED_BUILD", build_id);
    let out = run(&mut plan);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("durations: given: flakiness-learned/flakiness-durations.json"),
        "{said}"
    );
    let pipeline = uploaded(&pr);
    let unit = interpolated(&steps(&pipeline)[0]);
    let spec: Value =
        serde_json::from_str(unit["env"]["FLAKINESS_BATCH_0"].as_str().unwrap()).unwrap();
    assert!(
        spec["command"]["predictedSec"].is_u64(),
        "main's durations predict it: {spec:#}"
    );
    let report = steps(&pipeline).last().unwrap();
    assert_eq!(report["env"]["FLAKINESS_LEARNED_BUILD"], build_id);
    let base = |step: &mut Value| {
        step["env"]["BUILDKITE_PULL_REQUEST_BASE_BRANCH"] = "main".into();
        step["env"]["BUILDKITE_BRANCH"] = "pr".into();
    };
    let (_, pr_report, annotation) = run_pipeline(&pr, dir, &with_env(&pipeline, base), |_| {});
    assert!(
        annotation.contains(&format!(
            "`{FLAKY}#testSlowAndFlaky`: known flaky on `main`"
        )),
        "{annotation}"
    );
    // It learned over main's: the ledger holds both builds' lines.
    let ledger = std::fs::read_to_string(
        pr_report
            .path()
            .join("flakiness-learned/flakiness-ledger.jsonl"),
    )
    .unwrap();
    assert!(
        ledger.contains("\"branch\":\"main\"") && ledger.contains("\"branch\":\"pr\""),
        "{ledger}"
    );
}

/// `pipeline` with `edit` applied to every step.
fn with_env(pipeline: &Value, edit: impl Fn(&mut Value)) -> Value {
    let mut pipeline = pipeline.clone();
    for step in pipeline["steps"][0]["steps"].as_array_mut().unwrap() {
        edit(step);
    }
    pipeline
}
