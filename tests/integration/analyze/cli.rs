//! `gradle-flaky analyze` as a user runs it: output formats, files, exit codes.

use super::{place, read, suite};
use crate::common::{gradle_flaky, run, text};
use gradle_flaky::analyze::junit::State;
use std::path::Path;

fn analyze(dir: &Path, args: &[&str]) -> std::process::Output {
    run(gradle_flaky().arg("analyze").args(args).arg(dir))
}

#[test]
fn failures_exit_1_and_every_output_is_written() {
    let (root, _) = super::snapshots::mixed_report();
    let out_dir = tempfile::tempdir().unwrap();
    let json_file = out_dir.path().join("report.json");
    let junit_file = out_dir.path().join("merged.xml");
    let out = analyze(
        root.path(),
        &[
            "--format",
            "json",
            "--report",
            json_file.to_str().unwrap(),
            "--junit",
            junit_file.to_str().unwrap(),
        ],
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON on stdout");
    assert_eq!(json["summary"]["failed"], 4);
    assert_eq!(json["summary"]["severity"], "error");
    assert_eq!(json["files"]["read"], 4);
    assert_eq!(std::fs::read(&json_file).unwrap(), out.stdout);

    // The merged JUnit file reads back: the flaky test carries flakyFailure
    // elements, the always-failing one a failure plus rerunFailure elements.
    let (execs, merged) = read(std::fs::File::open(&junit_file).unwrap());
    assert_eq!(merged.state, State::Complete);
    assert_eq!((merged.counts.flaky, merged.counts.rerun), (2, 1));
    let failed = execs
        .iter()
        .filter(|e| matches!(e.result, gradle_flaky::analyze::junit::Result::Failed(_)))
        .count();
    assert_eq!(failed, 4, "{execs:#?}");
}

#[test]
fn markdown_is_the_default_and_a_clean_run_exits_0() {
    let root = tempfile::tempdir().unwrap();
    place(
        root.path(),
        "server/build/test-results/test/TEST-a.xml",
        suite(r#"<testcase classname="A" name="testA"/>"#),
    );
    let out = analyze(root.path(), &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.starts_with("## Flakiness summary\n"));
    assert!(stdout.contains("_No real failures recorded._"));
    assert!(stdout.contains("- `A.testA`: 0/1 ⇒ failure rate < 95.0% at 95%"));
}

#[test]
fn broken_files_are_reported_but_do_not_decide_the_exit_code() {
    let root = tempfile::tempdir().unwrap();
    let dir = "server/build/test-results/test";
    place(
        root.path(),
        &format!("{dir}/TEST-ok.xml"),
        suite(r#"<testcase classname="A" name="testA"/>"#),
    );
    place(
        root.path(),
        &format!("{dir}/TEST-cut.xml"),
        r#"<testsuite><testcase classname="B" name="b"/><testcase classname="B" name="c"><fail"#,
    );
    place(
        root.path(),
        &format!("{dir}/TEST-bad.xml"),
        r#"<testsuite><testcase classname="C" name="c"></testsuite>"#,
    );
    let out = analyze(root.path(), &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("TEST-cut.xml: truncated; 1 test case(s)"),
        "{stderr}"
    );
    assert!(
        stderr.contains("TEST-bad.xml: malformed at byte "),
        "{stderr}"
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("### Unreadable report files"), "{stdout}");
    assert!(stdout.contains("`server/build/test-results/test/TEST-bad.xml`: malformed at byte"));
}

#[test]
fn no_execution_at_all_exits_3() {
    let empty = tempfile::tempdir().unwrap();
    let out = analyze(empty.path(), &[]);
    assert_eq!(out.status.code(), Some(3), "{}", text(&out));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no test execution found"));

    let skipped_only = tempfile::tempdir().unwrap();
    place(
        skipped_only.path(),
        "p/build/test-results/test/TEST-s.xml",
        suite(r#"<testcase classname="A" name="a"><skipped/></testcase>"#),
    );
    let out = analyze(skipped_only.path(), &[]);
    assert_eq!(out.status.code(), Some(3), "{}", text(&out));
}

#[test]
fn a_missing_directory_or_a_bad_since_is_a_usage_error() {
    let root = tempfile::tempdir().unwrap();
    let out = analyze(&root.path().join("nope"), &[]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no such directory"));
    let out = analyze(root.path(), &["--since", "last tuesday"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--since"));
}

#[test]
fn since_skips_older_reports_and_counts_them() {
    let root = tempfile::tempdir().unwrap();
    let dir = "p/build/test-results/test";
    place(
        root.path(),
        &format!("{dir}/TEST-old.xml"),
        suite(r#"<testcase classname="Old" name="a"><failure message="stale"/></testcase>"#),
    );
    place(
        root.path(),
        &format!("{dir}/TEST-new.xml"),
        suite(r#"<testcase classname="New" name="a"/>"#),
    );
    let old = std::fs::File::options()
        .write(true)
        .open(root.path().join(dir).join("TEST-old.xml"))
        .unwrap();
    old.set_modified(std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_000_000))
        .unwrap();
    drop(old);
    let marker = root.path().join("marker");
    std::fs::write(&marker, "").unwrap();
    let old_marker = std::fs::File::options().write(true).open(&marker).unwrap();
    old_marker
        .set_modified(std::time::UNIX_EPOCH + std::time::Duration::from_secs(2_000_000))
        .unwrap();
    drop(old_marker);

    for since in ["2000000", "1970-01-24T03:33:20Z", marker.to_str().unwrap()] {
        let out = analyze(root.path(), &["--format", "json", "--since", since]);
        assert_eq!(
            out.status.code(),
            Some(0),
            "--since {since}: {}",
            text(&out)
        );
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(json["files"]["skippedStale"], 1, "--since {since}");
        assert_eq!(json["files"]["read"], 1, "--since {since}");
    }
    let out = analyze(root.path(), &[]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "without --since the stale failure counts"
    );
}
