//! `gradle-flaky analyze` as a user runs it: output formats, files, exit codes.

use super::{place, read, suite};
use crate::common::{gradle_flaky, run, text};
use gradle_flaky::analyze::read::junit::State;
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
        .filter(|e| {
            matches!(
                e.result,
                gradle_flaky::analyze::read::junit::CaseResult::Failed(_)
            )
        })
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
    assert!(stdout.contains("- `A.testA`: 0/1 ⇒ failure rate < 95% at 95%"));
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

/// `analyze --format json BIG_DIR | head -1`: the reader of stdout goes away
/// after one line; the command ends quietly with the code it would have had.
#[test]
fn a_closed_stdout_ends_the_output_quietly_with_the_commands_exit_code() {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;
    let root = tempfile::tempdir().unwrap();
    // 400 classes of 25 methods, one failure: far more JSON than a pipe holds.
    for c in 0..400 {
        let mut cases = String::new();
        for m in 0..25 {
            let failure = if c == 7 && m == 3 {
                "<failure message=\"boom\" type=\"java.lang.AssertionError\">boom</failure>"
            } else {
                ""
            };
            cases.push_str(&format!(
                "<testcase name=\"testMethod{m}\" classname=\"org.example.Class{c}Tests\" time=\"0.01\">{failure}</testcase>\n"
            ));
        }
        place(
            root.path(),
            &format!("server/build/test-results/test/TEST-org.example.Class{c}Tests.xml"),
            suite(&cases),
        );
    }
    let mut child = gradle_flaky()
        .args(["analyze", "--format", "json"])
        .arg(root.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert_eq!(first, "{\n");
    // The pipe's reader is gone now (dropped above), as with `| head -1`.
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "a real failure: {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(!stderr.contains("Broken pipe"), "{stderr}");
}

/// `repeat` keeps reports under `flakiness-iters/iter-<i>/<path in the build>`;
/// analyzing that folder itself must still find the project that wrote them.
#[test]
fn a_repeat_folder_analyzed_on_its_own_names_the_real_project() {
    let root = tempfile::tempdir().unwrap();
    let failing = "<testcase name=\"testRetry\" classname=\"org.example.RetryingClientTest\" time=\"0.01\">\
                   <failure message=\"flaky\" type=\"java.lang.AssertionError\">flaky</failure></testcase>";
    let passing =
        "<testcase name=\"testRetry\" classname=\"org.example.RetryingClientTest\" time=\"0.01\"/>";
    for (i, case) in [(1, failing), (2, passing)] {
        place(
            root.path(),
            &format!(
                "flakiness-iters/iter-{i}/core/build/test-results/test/TEST-org.example.RetryingClientTest.xml"
            ),
            suite(case),
        );
    }
    for dir in [
        root.path().join("flakiness-iters"),
        root.path().join("flakiness-iters/iter-1"),
        root.path().to_path_buf(),
    ] {
        let out = analyze(&dir, &["--format", "json"]);
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
        let reproduce = json["tests"][0]["reproduce"].as_str().unwrap_or_default();
        assert!(
            reproduce.contains(":core:test") && !reproduce.contains("iter-"),
            "{}: {reproduce}\n{}",
            dir.display(),
            text(&out)
        );
    }
}
