//! Budgets, chunks and stop on proof on real Gradle (`tests/fixtures/slow`):
//! a batch stopped by its budget ends cleanly between chunks and claims no
//! more than ran; stop on proof takes a proven-flaky test out of later chunks.
//! One build copy and few Gradle runs: the fixture's iterations are slow.

use crate::common::{files_named, gradle_flaky, run, slow_copy, text};
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::Path;
use std::process::Output;

const STABLE: &str = "org.example.slow.SlowStableTests";
const FLAKY: &str = "org.example.slow.SlowFlakyTests";

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
/// (`test {seed=[MASTER:METHOD]}`).
fn master_seeds(dir: &Path, class: &str) -> BTreeSet<String> {
    let mut seeds = BTreeSet::new();
    for xml in files_named(dir, &format!("TEST-{class}.xml")) {
        let body = std::fs::read_to_string(xml).unwrap();
        for part in body.split("{seed=[").skip(1) {
            seeds.insert(part.split(':').next().unwrap().to_string());
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
    // a probe of one iteration, then the chunks that fit, then a clean stop.
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
    assert!((2..100).contains(&ran), "{ran}: {log}");
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
    // Every chunk had a seed of its own, and the XML shows it (in the names
    // of repeated tests: a chunk of one iteration names none).
    let chunks = chunk_seeds(&String::from_utf8_lossy(&out.stderr));
    assert!(chunks.len() >= 2, "{log}");
    let seeds: BTreeSet<&str> = chunks.iter().map(|(_, s)| s.as_str()).collect();
    assert_eq!(seeds.len(), chunks.len(), "{log}");
    let repeated: BTreeSet<String> = chunks
        .iter()
        .filter(|(k, _)| *k > 1)
        .map(|(_, s)| s.clone())
        .collect();
    assert!(!repeated.is_empty(), "{log}");
    let runs = b.join(".gradle/gradle-flaky/runs");
    assert_eq!(master_seeds(&runs, STABLE), repeated, "{log}");
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
