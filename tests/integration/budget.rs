//! Budgets, chunks and stop on proof on real Gradle (`tests/fixtures/slow`):
//! a batch stopped by its budget ends cleanly between chunks and claims no
//! more than ran; stop on proof takes a proven-flaky test out of later chunks.
//! One build copy and few Gradle runs: the fixture's iterations are slow.

use crate::common::{batch_argv, files_named, git, git_main, gradle_flaky, run, slow_copy, text};
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::Path;
use std::process::Output;

const STABLE: &str = "org.example.slow.SlowStableTests";
const FLAKY: &str = "org.example.slow.SlowFlakyTests";
const GROWING: &str = "org.example.slow.SlowGrowingTests";

/// `local` on the build, offline, each execution sleeping `sleep_ms`.
fn local(build: &Path, args: &[&str], sleep_ms: u32) -> Output {
    run(gradle_flaky()
        .arg("--project-dir")
        .arg(build)
        .args(["local", "--format", "json"])
        .args(args)
        .args([
            "--",
            "--offline",
            &format!("-Dtests.fixture.sleep={sleep_ms}"),
        ]))
}

fn json(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", text(out)))
}

fn row<'a>(report: &'a Value, class: &str) -> &'a Value {
    report["tests"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["class"] == class)
        .unwrap_or_else(|| panic!("no row of {class} in {report:#}"))
}

/// The master seeds in the names of `class`'s executions below `dir`
/// (`test {seed=[MASTER:METHOD]}`), in gradle-flaky's 16-digit form: the
/// runner prints a seed without its leading zeros (`8A18…` for `08A18…`).
fn master_seeds(dir: &Path, class: &str) -> BTreeSet<String> {
    let mut seeds = BTreeSet::new();
    for xml in files_named(dir, &format!("TEST-{class}.xml")) {
        let body = std::fs::read_to_string(xml).unwrap();
        for part in body.split("{seed=[").skip(1) {
            seeds.insert(format!("{:0>16}", part.split(':').next().unwrap()));
        }
    }
    seeds
}

/// Each chunk's iterations and seed, from the progress lines
/// (`chunk 2: 14 iteration(s), seed 4431B47FA115D2C1`).
fn chunk_seeds(stderr: &str) -> Vec<(u32, String)> {
    stderr
        .lines()
        .filter_map(|l| l.trim().strip_prefix("chunk "))
        .filter_map(|l| {
            let (_, rest) = l.split_once(": ")?;
            let (k, seed) = rest.split_once(" iteration(s), seed ")?;
            Some((k.parse().ok()?, seed.to_string()))
        })
        .collect()
}

#[test]
fn a_budget_stops_between_chunks_and_stop_on_proof_saves_iterations() {
    let build = slow_copy();
    let b = build.path();

    // Durations unknown, a budget far too small for 100 iterations of ~1 s:
    // a probe of two iterations, then the chunks that fit, then a clean stop.
    let out = local(b, &["--budget", "30s", "--iters", "100", STABLE], 1000);
    let log = text(&out);
    assert_eq!(
        out.status.code(),
        Some(3),
        "a shortfall is no clean pass: {log}"
    );
    assert!(log.contains("durations: none"), "{log}");
    let report = json(&out);
    let ran = row(&report, STABLE)["runs"].as_u64().unwrap();
    assert!((1..100).contains(&ran), "{ran}: {log}");
    let cost = &report["cost"];
    assert_eq!(cost["executionsRun"], ran);
    assert_eq!(cost["executionsRequested"], 100);
    assert_eq!(cost["budgetStops"][0]["iterationsRun"], ran);
    let below = row(&report, STABLE)["belowPlan"].as_str().unwrap();
    assert!(
        below.contains("stopped by its budget (30s)") && below.contains("what ran proves: clean ⇒"),
        "{below}"
    );
    let batch = &report["batches"][0];
    assert_ne!(batch["outcome"], "timeout", "{batch:#}");
    assert_eq!(batch["timedOut"], false);
    // Checked before each chunk: the batch ends within its budget, give or
    // take one Gradle start (generous: the machine is shared).
    let job_secs = cost["jobMinutes"].as_f64().unwrap() * 60.0;
    assert!(job_secs < 30.0 + 45.0, "{job_secs}s: {log}");
    // Every chunk had a seed of its own, and the XML shows it: each chunk's
    // first JVM runs with it, its other JVMs with masters mixed from it (the
    // names carry each JVM's master, a single iteration's too).
    // (How many chunks fit depends on how fast Gradle starts on this machine:
    // a loaded one may leave room for the probe alone.)
    let chunks = chunk_seeds(&String::from_utf8_lossy(&out.stderr));
    assert!(!chunks.is_empty(), "{log}");
    assert_eq!(
        chunks.iter().map(|(k, _)| u64::from(*k)).sum::<u64>(),
        ran,
        "{log}"
    );
    let seeds: BTreeSet<String> = chunks.iter().map(|(_, s)| s.clone()).collect();
    assert_eq!(seeds.len(), chunks.len(), "{log}");
    let runs = b.join(".gradle/gradle-flaky/runs");
    let masters = master_seeds(&runs, STABLE);
    assert!(seeds.is_subset(&masters), "{masters:?} {log}");
    let jvms: usize = String::from_utf8_lossy(&out.stderr)
        .lines()
        .filter(|l| l.starts_with(">>> gradle "))
        .map(|l| {
            l.split_whitespace()
                .find_map(|a| a.strip_prefix("-Dflaky.repeat.jvms="))
                .map_or(1, |n| n.parse().unwrap())
        })
        .sum();
    assert_eq!(masters.len(), jvms, "{masters:?} {log}");
    // What it measured is recorded for the next run.
    let recorded = b.join(".gradle/gradle-flaky/flakiness-durations.json");
    let durations: Value = serde_json::from_slice(&std::fs::read(&recorded).unwrap()).unwrap();
    let secs = durations["classes"][STABLE].as_f64().unwrap();
    assert!(secs >= 1.0, "{durations:#}");

    // Stop on proof: the 30% flake leaves the batch once it failed and
    // passed; the stable test gets its full count.
    let out = local(b, &["--stop-on-flaky", "--iters", "100", FLAKY, STABLE], 50);
    let log = text(&out);
    assert_eq!(out.status.code(), Some(1), "{log}");
    assert!(log.contains("durations: recorded"), "{log}");
    let report = json(&out);
    let proven = &report["cost"]["proven"][0];
    assert_eq!(proven["test"], FLAKY, "{report:#}");
    let after = proven["afterIterations"].as_u64().unwrap();
    // Chunks of 10, 20, 40: a 30% flake is proven within them but once in 10^10.
    assert!((10..=70).contains(&after), "{after}");
    assert_eq!(proven["savedIterations"].as_u64().unwrap(), 100 - after);
    assert_eq!(
        report["cost"]["iterationsSaved"].as_u64().unwrap(),
        100 - after
    );
    assert_eq!(row(&report, FLAKY)["runs"].as_u64().unwrap(), after);
    assert!(row(&report, FLAKY)["failures"].as_u64().unwrap() > 0);
    assert_eq!(row(&report, STABLE)["runs"], 100);
    assert!(
        row(&report, STABLE).get("belowPlan").is_none(),
        "{report:#}"
    );
}

/// `auto` never lets in-JVM repetition cost more than fresh runs: a class
/// whose state accumulates in one JVM (each execution scans a cache that
/// only grows, 12 s per entry; its first execution in a JVM, what a fresh
/// run runs, takes no time) is probed with one iteration, then repeated
/// twice in one JVM, which costs more per iteration than a Gradle start:
/// what it still owes runs as a Gradle run, it runs no more than planned,
/// and the run and the report say why; the next run remembers it. (Every
/// iteration in one JVM, `-Dflaky.repeat.jvms=1` given to Gradle: spread
/// over fresh JVMs, a chunk of two would run one iteration in each, where
/// nothing accumulates.)
#[test]
fn auto_switches_a_class_dearer_in_one_jvm_to_gradle_runs() {
    let build = slow_copy();
    let out = run(gradle_flaky()
        .arg("--project-dir")
        .arg(build.path())
        .args([
            "local",
            "--format",
            "json",
            "--budget",
            "5m",
            "--stop-on-flaky",
        ])
        .args(["--iters", "4", GROWING])
        .args(["--", "--offline", "-Dtests.fixture.grow=12000"])
        .arg("-Dflaky.repeat.jvms=1"));
    let log = text(&out);
    assert_eq!(out.status.code(), Some(0), "{log}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let chunks: Vec<&str> = stderr
        .lines()
        .filter_map(|l| l.trim().strip_prefix("chunk "))
        .collect();
    assert_eq!(chunks.len(), 3, "{log}");
    assert!(
        chunks[0].starts_with("1: 1 iteration(s)"),
        "the probe: {log}"
    );
    assert!(chunks[1].starts_with("2: 2 iteration(s)"), "{log}");
    assert_eq!(chunks[2], "3: 1 Gradle run", "{log}");
    let said = format!("in-JVM iterations of {GROWING} took ");
    assert!(
        stderr
            .lines()
            .any(|l| l.trim().starts_with(&said) && l.ends_with(": the rest run as Gradle runs")),
        "{log}"
    );
    let report = json(&out);
    let t = row(&report, GROWING);
    assert_eq!(
        (t["runs"].as_u64(), t["plannedRuns"].as_u64()),
        (Some(4), Some(4))
    );
    assert_eq!(
        t["repeatedBy"],
        serde_json::json!(["tests-iters", "gradle-runs"])
    );
    assert!(t["inJvmCost"].as_str().unwrap().starts_with(&said), "{t:#}");
    // The XML holds exactly the planned executions; the Gradle run counts as
    // a fresh-JVM run (the probe's one execution, named by gradle-flaky's
    // helper with its seed and iteration, as an in-JVM first execution).
    let runs = build.path().join(".gradle/gradle-flaky/runs");
    assert_eq!(crate::common::executions(&runs, GROWING), 4, "{log}");
    let fresh: u64 = t["conditions"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["repetition"] == "fresh-jvm")
        .map(|c| c["runs"].as_u64().unwrap())
        .sum();
    assert_eq!(fresh, 1, "{t:#}");
    remembered_on_the_next_run(build.path());
}

/// The run after remembers it (the build's durations file, on this commit,
/// here outside git): `auto` starts the class on Gradle runs, and the plan,
/// the run and the report say why.
fn remembered_on_the_next_run(build: &Path) {
    let file = build.join(".gradle/gradle-flaky/flakiness-durations.json");
    let recorded: Value = serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
    let dearer = &recorded["dearerInJvm"][GROWING];
    // Dearer by the chunk's average, or by its last iterations when they
    // decided (on a loaded machine the measured start is long and the
    // average stays below it).
    let fresh = dearer["freshRun"].as_f64().unwrap();
    let cost = dearer["last"]
        .as_f64()
        .unwrap_or_else(|| dearer["perIteration"].as_f64().unwrap());
    assert!(cost > fresh, "{dearer:#}");
    let out = run(gradle_flaky()
        .arg("--project-dir")
        .arg(build)
        .args(["local", "--format", "json", "--iters", "2", GROWING])
        .args(["--", "--offline", "-Dtests.fixture.grow=12000"]));
    let log = text(&out);
    assert_eq!(out.status.code(), Some(0), "{log}");
    let why = "for a fresh run when last measured in this build: it starts on Gradle runs";
    assert!(String::from_utf8_lossy(&out.stderr).contains(why), "{log}");
    let report = json(&out);
    let t = row(&report, GROWING);
    assert_eq!(t["repeatedBy"], serde_json::json!(["gradle-runs"]), "{t:#}");
    assert!(t["inJvmCost"].as_str().unwrap().ends_with(why), "{t:#}");
    assert_eq!(t["runs"].as_u64(), Some(2), "{t:#}");
}

/// The issue's case on Buildkite: durations say 100 iterations of the two
/// slow classes cannot fit one job's budget, so the plan splits them into
/// shards of one `parallelism` step; the stand-in agent runs every shard; the
/// report folds them into one row per test with every execution.
#[test]
fn shards_fit_the_budget_on_buildkite_and_fold_into_one_report() {
    use crate::buildkite::{assert_valid_pipeline, interpolated, run_job, steps, Buildkite};
    let build = slow_copy();
    let b = build.path();
    // Stated durations (an earlier run's, say): 1 s per iteration each, so a
    // batch of both needs ~220 s for 100 iterations against a 60 s budget.
    let durations = b.join("flakiness-durations.json");
    std::fs::write(
        &durations,
        format!(r#"{{"classes": {{"{STABLE}": 1.0, "{FLAKY}": 1.0}}}}"#),
    )
    .unwrap();
    let bk = Buildkite::new();
    let mut upload = gradle_flaky();
    bk.job(&mut upload, "job-upload")
        .current_dir(b)
        .env(
            "FLAKINESS_GRADLE",
            "gradle --offline -Dtests.fixture.sleep=50",
        )
        .env(
            "FLAKINESS_AGENT_BIN",
            shell_words::quote(env!("CARGO_BIN_EXE_gradle-flaky")).as_ref(),
        )
        .args(["buildkite", "upload", "--iters", "100", "--budget", "60s"])
        .arg("--durations")
        .arg(&durations)
        .args([STABLE, FLAKY]);
    let out = run(&mut upload);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let uploads = bk.calls_of(&["pipeline", "upload"]);
    let pipeline: Value = serde_json::from_str(&uploads[0].stdin).unwrap();
    assert_valid_pipeline(&pipeline);
    let unit = steps(&pipeline)
        .iter()
        .find(|s| s["key"] == "flakiness-detection:unit")
        .unwrap()
        .clone();
    let shards = unit["parallelism"].as_u64().unwrap() as u32;
    assert!(shards >= 4, "{unit:#}");
    // Each shard's share, seed and predicted time travel in its JobSpec.
    let agent_view = interpolated(&unit);
    let mut iterations = 0;
    let mut shard_seeds = BTreeSet::new();
    let mut jvms = 0;
    for n in 0..shards {
        let spec: Value = serde_json::from_str(
            agent_view["env"][format!("FLAKINESS_BATCH_{n}")]
                .as_str()
                .unwrap(),
        )
        .unwrap();
        let argv = batch_argv(&spec);
        let argv: Vec<&str> = argv.iter().map(String::as_str).collect();
        let iters: u32 = argv
            .iter()
            .find_map(|a| a.strip_prefix("-Dtests.iters="))
            .unwrap()
            .parse()
            .unwrap();
        let seed = argv.iter().find_map(|a| a.strip_prefix("-Dtests.seed="));
        shard_seeds.insert(format!("{:0>16}", seed.expect("a seed of its own")));
        jvms += argv
            .iter()
            .find_map(|a| a.strip_prefix("-Dflaky.repeat.jvms="))
            .map_or(1, |n| n.parse::<usize>().unwrap());
        iterations += iters;
    }
    assert_eq!(iterations, 100);

    let mut job_ids = Vec::new();
    let mut checkouts = Vec::new();
    for n in 0..shards {
        let job_id = format!("job-unit-{n}");
        let (checkout, out) = run_job(&bk, Some(b), &unit, Some(n), &job_id);
        assert_eq!(out.status.code(), Some(0), "{job_id}: {}", text(&out));
        checkouts.push(checkout);
        job_ids.push(job_id);
    }
    let analyze = steps(&pipeline).last().unwrap();
    let (report_dir, out) = run_job(&bk, None, analyze, None, "job-analyze");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let outcomes = crate::common::read_json(&report_dir.path().join("flakiness-outcomes.json"));
    assert_eq!(
        outcomes.as_array().unwrap().len(),
        shards as usize,
        "{outcomes:#}"
    );
    for o in outcomes.as_array().unwrap() {
        assert_ne!(o["outcome"], "timeout", "{o:#}");
        assert_eq!(o["timedOut"], false, "{o:#}");
    }
    // The report folds the shards: one row per test, every execution.
    let folded = run(gradle_flaky()
        .args(["analyze", "--format", "json"])
        .arg(report_dir.path().join("flakiness-jobs")));
    let report = json(&folded);
    assert_eq!(row(&report, STABLE)["runs"], 100, "{report:#}");
    let flaky = row(&report, FLAKY);
    assert_eq!(
        flaky["runs"].as_u64().unwrap() + flaky["suiteTimeouts"].as_u64().unwrap(),
        100
    );
    // Each shard's JVM ran with a master seed of its own, as the XML shows
    // (the job's engine pins a fresh seed for its chunk, as `local` does, in
    // place of the one planned: its first JVM runs with it, its other JVMs
    // with masters mixed from it), so no two shards repeat one randomness.
    let jobs = report_dir.path().join("flakiness-jobs");
    let masters = master_seeds(&jobs, STABLE);
    assert_eq!(masters.len(), jvms, "{masters:?}");
    assert_eq!(shard_seeds.len(), shards as usize, "{shard_seeds:?}");
    // The report step leaves what the jobs measured for the next plan.
    let measured: Value =
        crate::common::read_json(&report_dir.path().join("flakiness-durations.json"));
    assert!(
        measured["classes"][STABLE].as_f64().unwrap() > 0.0,
        "{measured:#}"
    );
}

/// `plan` shows the shards and chunks `local` runs for the same flags (both
/// plan with `plan::for_run`): durations say 100 iterations of 1 s cannot fit
/// a 60 s budget, so the batch is split into three shards, each one chunk
/// that fits; `local` runs exactly those, each chunk with a seed of its own.
#[test]
fn plan_and_local_agree_on_the_shards_and_chunks_of_a_budgeted_run() {
    let build = slow_copy();
    let b = build.path();
    let durations = b.join("flakiness-durations.json");
    std::fs::write(&durations, format!(r#"{{"classes": {{"{STABLE}": 1.0}}}}"#)).unwrap();
    let flags = ["--iters", "100", "--budget", "60s", "--durations"];
    let planned = run(gradle_flaky()
        .arg("--project-dir")
        .arg(b)
        .args(["plan", "--format", "json"])
        .args(flags)
        .arg(&durations)
        .arg(STABLE));
    assert_eq!(planned.status.code(), Some(0), "{}", text(&planned));
    let plan: Value = serde_json::from_slice(&planned.stdout).unwrap();
    let commands = plan["commands"].as_array().unwrap();
    let shards: Vec<(u64, Vec<u64>)> = commands
        .iter()
        .map(|c| {
            let chunks = c["chunks"].as_array().expect("chunks in the plan");
            let chunks = chunks.iter().map(|k| k.as_u64().unwrap()).collect();
            (c["iterations"].as_u64().unwrap(), chunks)
        })
        .collect();
    assert_eq!(
        shards,
        [(34, vec![34]), (33, vec![33]), (33, vec![33])],
        "{plan:#}"
    );
    assert_eq!(commands[2]["shard"]["of"], 3, "{plan:#}");

    let out = run(gradle_flaky()
        .arg("--project-dir")
        .arg(b)
        .args(["local", "--format", "json"])
        .args(flags)
        .arg(&durations)
        .arg(STABLE)
        .args(["--", "--offline", "-Dtests.fixture.sleep=20"]));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let stderr = String::from_utf8_lossy(&out.stderr);
    let ran: Vec<u64> = chunk_seeds(&stderr)
        .iter()
        .map(|(k, _)| u64::from(*k))
        .collect();
    let want: Vec<u64> = shards
        .iter()
        .flat_map(|(_, chunks)| chunks.clone())
        .collect();
    assert_eq!(ran, want, "the chunks the plan showed: {stderr}");
    let seeds: BTreeSet<String> = chunk_seeds(&stderr).into_iter().map(|(_, s)| s).collect();
    assert_eq!(seeds.len(), 3, "a seed per chunk: {stderr}");
    assert_eq!(row(&json(&out), STABLE)["runs"], 100);
}

/// A class of a pull request whose one test fails every execution beside
/// one that passes.
const BROKEN_SOURCE: &str = r#"package org.example.slow;

import org.junit.Test;

public class SlowBrokenTests extends com.carrotsearch.randomizedtesting.RandomizedTest {
    @Test
    public void testBroken() {
        throw new AssertionError("broken on the branch");
    }

    @Test
    public void testFine() {
    }
}
"#;

/// A changed class with a broken test beside a passing one is not proven
/// flaky: stop on proof (on for changed tests) needs one test that failed
/// and passed, so the class runs its whole count and nothing claims a
/// proof. (A class's other tests passing once stopped it after its first
/// chunk, "proven flaky", while its report said "failed every time".)
#[test]
fn a_broken_test_beside_a_passing_one_proves_its_class_nothing() {
    let build = slow_copy();
    let b = build.path();
    git_main(b);
    git(b, &["checkout", "-qb", "pr"]);
    let class = "org.example.slow.SlowBrokenTests";
    let source = b.join("src/test/java/org/example/slow/SlowBrokenTests.java");
    std::fs::write(source, BROKEN_SOURCE).unwrap();
    git(b, &["add", "-A"]);
    git(b, &["commit", "-qm", "a broken test"]);
    let out = local(b, &["--changed", "--base", "main", "--iters", "10"], 10);
    let log = text(&out);
    assert_eq!(out.status.code(), Some(1), "{log}");
    assert!(!log.contains("proven flaky"), "{log}");
    let report = json(&out);
    assert_eq!(
        report["cost"]["iterationsSaved"].as_u64().unwrap_or(0),
        0,
        "{report:#}"
    );
    let runs: Vec<(&str, u64)> = report["tests"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["class"] == class)
        .map(|t| (t["method"].as_str().unwrap(), t["runs"].as_u64().unwrap()))
        .collect();
    assert_eq!(runs, [("testBroken", 10), ("testFine", 10)], "{report:#}");
}
