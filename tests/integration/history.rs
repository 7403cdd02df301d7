//! Integration tests: the run ledger written through the library's API from
//! recorded Gradle XML (tests/data/junit-gradle), read back by `gradle-flaky
//! history` in a git checkout whose commits the ledger lines name. No Gradle
//! runs.

use crate::common::{git, gradle_flaky, repo_root, run, text};
use gradle_flaky::analyze::{analyze_root, AnalyzeOptions};
use gradle_flaky::ledger::{self, Condition, Context, Origin, Repetition, RunMeta};
use std::path::Path;
use std::time::{Duration, UNIX_EPOCH};

const FLAKY: &str = "org.elasticsearch.flaky.AssertionFlakyTests#testFlakyAssertion";

/// A build holding the recorded flaky-unit reports as `:server:test` wrote
/// them, with every `<failure>` taken out when `fixed`.
fn build_with_reports(dir: &Path, fixed: bool) {
    let src = repo_root().join("tests/data/junit-gradle/flaky-unit");
    let dest = dir.join("server/build/test-results/test");
    let _ = std::fs::remove_dir_all(&dest);
    std::fs::create_dir_all(&dest).unwrap();
    std::fs::write(dir.join("settings.gradle"), "include 'server'\n").unwrap();
    for entry in std::fs::read_dir(src).unwrap() {
        let entry = entry.unwrap();
        let xml = std::fs::read_to_string(entry.path()).unwrap();
        let xml = if fixed { without_failures(&xml) } else { xml };
        std::fs::write(dest.join(entry.file_name()), xml).unwrap();
    }
}

/// The XML with each `<failure …>…</failure>` element removed: the same cases, all passing.
fn without_failures(xml: &str) -> String {
    let mut out = String::new();
    let mut rest = xml;
    while let Some(start) = rest.find("<failure") {
        out += &rest[..start];
        let end = rest[start..].find("</failure>").unwrap() + start + "</failure>".len();
        rest = &rest[end..];
    }
    out + rest
}

fn meta(commit: &str, minute: u64) -> RunMeta {
    RunMeta {
        commit: Some(commit.to_string()),
        branch: Some("fix-flake".into()),
        dirty: false,
        condition: Condition {
            context: Context::Alone,
            repetition: Repetition::InJvm,
            mechanism: Some(gradle_flaky::condition::InJvm::TestsIters),
            execution: None,
        },
        run_id: format!("run-{commit}"),
        origin: Origin::Local,
        time: UNIX_EPOCH + Duration::from_secs(1_772_323_200 + minute * 60),
    }
}

/// A commit on the checked-out branch of the repository at `dir` (made
/// when there is none); its hash.
fn commit(dir: &Path, name: &str) -> String {
    if !dir.join(".git").exists() {
        git(dir, &["init", "-q", "-b", "main"]);
    }
    git(dir, &["commit", "-q", "--allow-empty", "-m", name]);
    git(dir, &["rev-parse", "HEAD"]).trim().to_string()
}

/// Appends to the build's own ledger a local run of the recorded reports
/// (their failures taken out when `fixed`) on `commit`, at `minute`.
fn append_run(dir: &Path, commit: &str, minute: u64, fixed: bool) {
    build_with_reports(dir, fixed);
    let report = analyze_root(dir, &AnalyzeOptions::default());
    let records = ledger::records_of(&report, &meta(commit, minute));
    ledger::append_to_dir(&ledger::local_dir(dir), &records, ledger::Limits::LOCAL).unwrap();
}

/// Two local runs appended to the build's own ledger: the flaky test on
/// commit A, then with its failures gone on its child B; their hashes.
fn two_runs() -> (tempfile::TempDir, [String; 2]) {
    let dir = tempfile::tempdir().unwrap();
    let a = commit(dir.path(), "A");
    let b = commit(dir.path(), "B");
    append_run(dir.path(), &a, 0, false);
    append_run(dir.path(), &b, 30, true);
    (dir, [a, b])
}

/// The ledger line of `method` in the ledger file `path` (the first).
pub(crate) fn ledger_line(path: &Path, method: &str) -> serde_json::Value {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("no ledger at {}: {e}", path.display()));
    text.lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .find(|r| r["test"]["method"] == method)
        .unwrap_or_else(|| panic!("no line of {method} in {text}"))
}

/// The failures of every line of `method` in the ledger file at `path`:
/// a test repeated in chunks has a line per condition (first executions in
/// their JVM apart from repeats).
pub(crate) fn ledger_failures(path: &Path, method: &str) -> u64 {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|r| r["test"]["method"] == method)
        .map(|r| r["failures"].as_u64().unwrap_or(0))
        .sum()
}

fn history(dir: &Path, args: &[&str]) -> std::process::Output {
    let mut cmd = gradle_flaky();
    cmd.arg("--project-dir").arg(dir).arg("history").args(args);
    run(&mut cmd)
}

#[test]
fn history_shows_both_commits_of_a_recorded_fix() {
    let (dir, [a, b]) = two_runs();
    let out = history(dir.path(), &[FLAKY]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert!(stdout.contains("1 test(s); 12 record(s) read from 1 ledger file(s); 8 line(s) of other tests passed over"), "{stdout}");
    assert!(stdout.contains("Pooled: 3 of 20 run(s) failed"), "{stdout}");
    assert!(stdout.contains(&format!("| `{}` |", &a[..12])), "{stdout}");
    assert!(stdout.contains(&format!("| `{}` |", &b[..12])), "{stdout}");
    // 3/10 then 0/10: one-sided Fisher p = C(10,3)/C(20,3) = 120/1140 = 0.105.
    assert!(
        stdout.contains(&format!(
            "not shown: 0/10 on `{}`, 3/10 on its first-parent ancestors (`{}`), p = 0.105",
            &b[..12],
            &a[..12]
        )),
        "{stdout}"
    );
    assert!(out.stderr.is_empty(), "{}", text(&out));
}

/// Issue 44: a fix tried on a branch beside another is no "before" of it.
/// main A (flaky) → B (flaky); `fix` from A with C (fixed); `nofix` from B
/// with D (flaky, newest). D is compared with B and A, never C; C, when it
/// is the newest, with A alone.
#[test]
fn history_compares_the_newest_commit_with_its_ancestors_never_a_sibling_branch() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let a = commit(d, "A");
    let b = commit(d, "B");
    git(d, &["checkout", "-qb", "fix", &a]);
    let c = commit(d, "C");
    git(d, &["checkout", "-qb", "nofix", &b]);
    let dd = commit(d, "D");
    append_run(d, &a, 0, false);
    append_run(d, &b, 10, false);
    append_run(d, &c, 20, true);
    append_run(d, &dd, 30, false);
    let out = history(d, &["--format", "json", FLAKY]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let newest = &json["tests"][0]["newest"];
    assert_eq!(newest["commit"], dd.as_str(), "{newest:#}");
    assert_eq!(newest["beforeCommits"], serde_json::json!([b, a]));
    assert_eq!(
        (
            newest["before"]["failures"].as_u64(),
            newest["before"]["runs"].as_u64()
        ),
        (Some(6), Some(20))
    );
    assert_eq!(newest["verdict"], "same");
    // C's clean runs are left out, not pooled as "before".
    assert_eq!(newest["leftOut"]["runs"], 10);
    assert_eq!(newest["leftOut"]["failures"], 0);
    let md = history(d, &[FLAKY]);
    let stdout = String::from_utf8_lossy(&md.stdout);
    assert!(
        stdout.contains(&format!(
            "same: 3/10 on `{}`, 6/20 on its first-parent ancestors (`{}`, `{}`)",
            &dd[..12],
            &b[..12],
            &a[..12]
        )),
        "{stdout}"
    );
    assert!(
        stdout.contains("0/10 of other branches or changes left out"),
        "{stdout}"
    );

    // The fix, run again as the newest: its line is A alone.
    git(d, &["checkout", "-q", "fix"]);
    append_run(d, &c, 40, true);
    let out = history(d, &["--format", "json", FLAKY]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let newest = &json["tests"][0]["newest"];
    assert_eq!(newest["commit"], c.as_str(), "{newest:#}");
    assert_eq!(newest["beforeCommits"], serde_json::json!([a]));
    assert_eq!(newest["after"]["runs"], 20, "both of C's runs: {newest:#}");
    assert_eq!(newest["leftOut"]["runs"], 20, "B and D: {newest:#}");
}

#[test]
fn history_json_has_every_test_of_a_class() {
    let (dir, _) = two_runs();
    let out = history(
        dir.path(),
        &[
            "--format",
            "json",
            "org.elasticsearch.flaky.AssertionFlakyTests",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let tests = json["tests"].as_array().unwrap();
    let methods: Vec<&str> = tests
        .iter()
        .map(|t| t["method"].as_str().unwrap())
        .collect();
    assert_eq!(
        methods,
        [
            "testFlakyAssertion",
            "testStableAddition",
            "testStableConcat"
        ]
    );
    let flaky = &tests[0];
    assert_eq!(
        (flaky["runs"].as_u64(), flaky["failures"].as_u64()),
        (Some(20), Some(3))
    );
    assert_eq!(flaky["newest"]["verdict"], "not-shown");
    assert_eq!(flaky["rows"].as_array().unwrap().len(), 2);
    // The other class's lines were passed over, not counted as records
    // read; each run's first executions and repeats are a line each.
    assert_eq!(json["sources"]["records"], 12);
    assert_eq!(json["sources"]["otherLines"], 8);
    assert_eq!(
        (flaky["firstRuns"].as_u64(), flaky["firstFailures"].as_u64()),
        (Some(2), Some(0))
    );
}

#[test]
fn a_ci_artifact_with_a_torn_line_is_read_with_a_warning() {
    let (dir, _) = two_runs();
    let artifacts = tempfile::tempdir().unwrap();
    let job = ledger::ci_file(&artifacts.path().join("job-7"));
    std::fs::create_dir_all(job.parent().unwrap()).unwrap();
    build_with_reports(dir.path(), false);
    let report = analyze_root(dir.path(), &AnalyzeOptions::default());
    ledger::append_to_file(
        &job,
        &ledger::records_of(&report, &meta(&"c".repeat(40), 60)),
    )
    .unwrap();
    // A run killed halfway through a line of the asked class.
    let mut text_of_job = std::fs::read_to_string(&job).unwrap();
    let whole = text_of_job
        .lines()
        .find(|l| l.contains("AssertionFlakyTests"))
        .unwrap()
        .to_string();
    text_of_job += &whole[..whole.len() / 2];
    std::fs::write(&job, text_of_job).unwrap();
    let out = history(
        dir.path(),
        &["--ledger", artifacts.path().to_str().unwrap(), FLAKY],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(&format!(
            "gradle-flaky: warning: {}:11: torn last line",
            job.display()
        )),
        "{}",
        text(&out)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("Pooled: 6 of 30 run(s) failed"), "{stdout}");
}

#[test]
fn hostile_names_in_a_ledger_reach_the_terminal_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let kept = dir.path().join("kept.jsonl");
    let line = serde_json::json!({
        "schema": 1,
        "test": {"class": "x.`Evil`|<img src=x>", "method": "t\u{1b}]0;pwned\u{7}", "task": "test"},
        "commit": "\u{1b}[2J", "branch": "b|`",
        "condition": {"context": "alone", "repetition": "fresh-jvm"},
        "runs": 3, "failures": 1, "failureKinds": {}, "failingSeeds": [],
        "durationSec": null, "tool": "0", "time": "2026-03-01T00:00:00Z",
        "runId": "r", "where": "github"
    });
    std::fs::write(&kept, format!("{line}\n")).unwrap();
    let out = history(dir.path(), &["--ledger", kept.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        !stdout.chars().any(|c| c.is_control() && c != '\n'),
        "{stdout:?}"
    );
    // In a code span whose fence outlasts the backticks inside; control
    // characters as blanks; the branch's `|` escaped in its table cell.
    assert!(
        stdout.contains("### ``x.`Evil`|<img src=x>#t ]0;pwned ``\n"),
        "{stdout}"
    );
    assert!(stdout.contains("| ` [2J` | `` b\\|` `` |"), "{stdout}");
    assert!(stdout.contains("1 of 3 run(s) failed"), "{stdout}");
}

#[test]
fn bad_arguments_are_usage_errors_naming_them() {
    let dir = tempfile::tempdir().unwrap();
    let out = history(dir.path(), &["--ledger", "no/such/ledger"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("--ledger no/such/ledger"),
        "{}",
        text(&out)
    );
    let out = history(dir.path(), &["server/src/test/java/FooTests.java"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("not paths"),
        "{}",
        text(&out)
    );
    // No ledger at all: said on stderr, an empty history on stdout.
    let out = history(dir.path(), &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("no ledger found"),
        "{}",
        text(&out)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("0 test(s); 0 record(s) read"));
}
