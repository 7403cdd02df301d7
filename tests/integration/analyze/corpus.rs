//! The 37 real reports of other tools (tests/data/junit-real, copied from the
//! shared corpus with its MANIFEST.tsv): the reader reproduces every count.

use super::{data, place, read};
use gradle_flaky::analyze::model::report::FileCounts;
use gradle_flaky::analyze::read::junit::State;
use gradle_flaky::analyze::{self, AnalyzeOptions};

struct Row {
    path: String,
    counts: FileCounts,
    parses: String,
}

fn manifest() -> Vec<Row> {
    let text = std::fs::read_to_string(data("junit-real/MANIFEST.tsv")).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split('\t').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
    lines
        .map(|line| {
            let f: Vec<&str> = line.split('\t').collect();
            let n = |name: &str| f[col(name)].parse::<u64>().unwrap();
            Row {
                path: f[col("relpath")].to_string(),
                counts: FileCounts {
                    cases: n("testcases"),
                    with_failure: n("with_failure"),
                    with_error: n("with_error"),
                    with_skipped: n("with_skipped"),
                    flaky: n("flaky_elems"),
                    rerun: n("rerun_elems"),
                },
                parses: f[col("etree_parse")].to_string(),
            }
        })
        .collect()
}

#[test]
fn reproduces_the_manifest_counts_of_every_real_report() {
    let rows = manifest();
    assert_eq!(rows.len(), 37);
    let mut mismatches = Vec::new();
    for row in &rows {
        let file = std::fs::File::open(data(&format!("junit-real/{}", row.path))).unwrap();
        let (_, read) = read(file);
        if read.counts != row.counts {
            mismatches.push(format!(
                "{}: read {:?}, manifest {:?}",
                row.path, read.counts, row.counts
            ));
        }
        let state_ok = match &read.state {
            State::Complete => row.parses == "yes",
            State::Truncated => {
                row.parses.contains("unclosed") || row.parses.contains("no element found")
            }
            State::Malformed { .. } => row.parses.contains("not well-formed"),
            State::Unreadable(_) => false,
        };
        if !state_ok {
            mismatches.push(format!("{}: {:?} but {}", row.path, read.state, row.parses));
        }
    }
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
}

#[test]
fn the_malformed_real_report_names_the_offending_byte() {
    let path = data("junit-real/web-test-runner/mikepenz-expectedRetries.xml");
    let bytes = std::fs::read(&path).unwrap();
    let (_, read) = read(&bytes[..]);
    let State::Malformed { offset, .. } = read.state else {
        panic!("{:?}", read.state)
    };
    // etree: line 9, column 58 (0-based) — the `<` that opens `time="<<computed>>"`.
    let line9 = bytes
        .split(|&b| b == b'\n')
        .take(8)
        .map(|l| l.len() + 1)
        .sum::<usize>();
    assert_eq!(offset as usize, line9 + 58);
    assert_eq!(bytes[offset as usize], b'<');
}

#[test]
fn surefire_reruns_count_as_executions() {
    let root = tempfile::tempdir().unwrap();
    let xml = std::fs::read(data("junit-real/maven-surefire/enricomi-flaky-rerun.xml")).unwrap();
    place(
        root.path(),
        "p/build/test-results/test/TEST-example.ExampleTests.xml",
        xml,
    );
    let report = analyze::analyze_root(root.path(), &AnalyzeOptions::default());
    let runs: Vec<(&str, u64, u64)> = report
        .tests
        .iter()
        .map(|t| (t.method.as_str(), t.passes, t.failures))
        .collect();
    assert_eq!(
        runs,
        vec![
            ("failsAssertionAlways", 0, 4),
            ("throwsAlways", 0, 4),
            ("failsAssertionOnlyFirstAttempt", 1, 1),
            ("throwsOnlyFirstAttempt", 1, 1),
        ]
    );
    assert_eq!(report.summary.flaky_tests, 2);
    // JUnit 5's AssertionFailedError is an assertion.
    let kinds = &report.tests[0].failure_kinds.0;
    assert_eq!(
        kinds,
        &vec![(analyze::model::report::FailureKind::Assertion, 4)]
    );
}

#[test]
fn every_real_report_is_analyzed_in_one_run_despite_the_broken_ones() {
    let root = tempfile::tempdir().unwrap();
    let rows = manifest();
    for (i, row) in rows.iter().enumerate() {
        let xml = std::fs::read(data(&format!("junit-real/{}", row.path))).unwrap();
        place(
            root.path(),
            &format!("p{i:02}/build/test-results/test/TEST-{i}.xml"),
            xml,
        );
    }
    let report = analyze::analyze_root(root.path(), &AnalyzeOptions::default());
    assert_eq!(report.files.read, 37);
    assert_eq!(report.files.truncated.len(), 2);
    assert_eq!(report.files.malformed.len(), 1);
    let cases: u64 = report.files.reports.iter().map(|f| f.counts.cases).sum();
    assert_eq!(cases, rows.iter().map(|r| r.counts.cases).sum::<u64>());
}
