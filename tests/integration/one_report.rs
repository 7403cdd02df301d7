//! One report everywhere: the XML of one `local` run (real Gradle, the
//! es-mini fixture), read by `local` itself, by `analyze` of its run folder,
//! by the Buildkite report step and by the GitHub report job (each from its
//! jobs' artifacts), gives the same test sections.

use super::buildkite::Buildkite;
use super::common::*;
use super::run::run_dirs;
use std::path::Path;

const FLAKY: &str = "org.elasticsearch.flaky.AssertionFlakyTests";

/// The tests' part of a markdown report: from the summary heading to the
/// sections that follow the tests (known flaky, batches without a clean
/// result, the JVM options from the environment, cost), which say what
/// surrounded them.
fn test_sections(md: &str) -> String {
    let start = md
        .find("## Flakiness summary")
        .unwrap_or_else(|| panic!("no summary in {md}"));
    let tests = &md[start..];
    let end = [
        "\n### Known flaky",
        "\n### Batches without",
        "\n**JVM options from the environment",
        "\n<details><summary>Cost</summary>",
        "\n### Cost",
    ]
    .iter()
    .filter_map(|s| tests.find(s))
    .min()
    .unwrap_or(tests.len());
    tests[..end].trim_end().to_string()
}

/// Every `TEST-*.xml` below `from`, copied to the same place below `to` (as
/// a CI job's artifacts keep them).
fn copy_reports(from: &Path, to: &Path) {
    let mut stack = vec![from.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().into_owned();
            if path.is_dir() {
                stack.push(path);
            } else if name.starts_with("TEST-") && name.ends_with(".xml") {
                let dest = to.join(path.strip_prefix(from).unwrap());
                std::fs::create_dir_all(dest.parent().unwrap()).unwrap();
                std::fs::copy(&path, dest).unwrap();
            }
        }
    }
}

/// What the report steps know of the plan: one step of the flaky class, and
/// Gradle run as the local run ran it.
fn report_context() -> String {
    format!(
        r#"{{"jobs":[{{"stepKey":"flakiness-detection:unit","kind":"unit","label":"unit tests","jobs":1,"iterations":10,"selected":[{{"project":":server","sourceSet":"test","task":":server:test","kind":"unit","class":"{FLAKY}","origin":"explicit"}}],"runs":[10],"repeatedBy":["tests-iters"]}}],"gradle":["gradle","--offline"]}}"#
    )
}

const STATUS: &str = r#"{"jobId":"job-a","stepKey":"flakiness-detection:unit","kind":"unit","rc":1,"durationSec":12,"infraSubtype":"","timeoutSec":3480,"parallelJob":0}"#;

fn buildkite_report(run_dir: &Path) -> String {
    let bk = Buildkite::new();
    let store = bk.artifacts();
    std::fs::create_dir_all(store.join("job-a/flakiness-status")).unwrap();
    std::fs::write(
        store.join("job-a/flakiness-status/status-job-a.json"),
        STATUS,
    )
    .unwrap();
    copy_reports(run_dir, &store.join("job-a"));
    let work = tempfile::tempdir().unwrap();
    let mut analyze = gradle_flaky();
    bk.job(&mut analyze, "job-analyze")
        .current_dir(work.path())
        .env("FLAKINESS_REPORT_CONTEXT", report_context())
        .env("FLAKINESS_COMPILE_FAILED", "false")
        .env("FLAKINESS_SKIPPED_COUNT", "0")
        .args(["buildkite", "analyze"]);
    let out = run(&mut analyze);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    bk.calls_of(&["annotate"])
        .pop()
        .expect("the report annotation")
        .stdin
}

fn github_report(run_dir: &Path) -> String {
    let dir = tempfile::tempdir().unwrap();
    let artifacts = dir.path().join("flakiness-artifacts");
    let plan = artifacts.join("flakiness-plan");
    std::fs::create_dir_all(&plan).unwrap();
    std::fs::write(
        plan.join("flakiness-plan.json"),
        format!(r#"{{"batches":[],"report":{}}}"#, report_context()),
    )
    .unwrap();
    let job = artifacts.join("flakiness-batch-0");
    std::fs::create_dir_all(job.join("flakiness-status")).unwrap();
    std::fs::write(
        job.join("flakiness-status/status-batch-0.json"),
        STATUS.replace("job-a", "batch-0"),
    )
    .unwrap();
    copy_reports(run_dir, &job);
    let summary = dir.path().join("summary");
    let out = run(gradle_flaky()
        .current_dir(dir.path())
        .env("GITHUB_STEP_SUMMARY", &summary)
        .env("FLAKINESS_COMPILE_FAILED", "false")
        .env("FLAKINESS_SKIPPED_COUNT", "0")
        .args(["github", "analyze", "flakiness-artifacts"]));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    std::fs::read_to_string(summary).unwrap()
}

#[test]
fn the_same_xml_gives_the_same_test_sections_everywhere() {
    let build = fixture_copy();
    let local = flaky_offline(build.path(), &["local", "--iters", "10", FLAKY]);
    let local_md = String::from_utf8_lossy(&local.stdout).to_string();
    assert!(
        matches!(local.status.code(), Some(0 | 1)),
        "{}",
        text(&local)
    );
    let run_dir = run_dirs(build.path()).pop().unwrap();
    let expected = test_sections(&local_md);
    assert!(expected.contains(FLAKY), "{expected}");

    let analyzed = run(gradle_flaky()
        .arg("--project-dir")
        .arg(build.path())
        .arg("analyze")
        .arg(&run_dir));
    assert_eq!(
        analyzed.status.code(),
        local.status.code(),
        "the exit of the run: {}",
        text(&analyzed)
    );
    let surfaces = [
        (
            "analyze RUN_DIR",
            String::from_utf8_lossy(&analyzed.stdout).to_string(),
        ),
        ("buildkite analyze", buildkite_report(&run_dir)),
        ("github analyze", github_report(&run_dir)),
    ];
    for (surface, md) in surfaces {
        assert_eq!(
            test_sections(&md),
            expected,
            "{surface} against local's report:\n{md}"
        );
    }
}
