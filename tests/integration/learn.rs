//! Learning from ordinary builds: six real Gradle builds' XML over five
//! commits (tests/data/builds) recorded with `gradle-flaky record`, then
//! `suspects` (markdown, JSON, and the HTML page rendered in headless
//! Chromium); and the co-failure clusters of `local`'s own Gradle runs (the
//! `cofail` fixture, Gradle 4.4.1).

use crate::common::{cofail_copy, flaky_offline, gradle_flaky, repo_root, run, text};
use std::path::{Path, PathBuf};
use std::process::Output;

/// 2026-03-01T00:00:00Z: build-N's reports are dated its minute after it.
const EPOCH: u64 = 1_772_323_200;

/// (folder, commit, minute) of each recorded build, from builds.tsv.
fn builds() -> Vec<(String, String, u64)> {
    let tsv = std::fs::read_to_string(repo_root().join("tests/data/builds/builds.tsv")).unwrap();
    tsv.lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (f[0].to_string(), f[1].to_string(), f[2].parse().unwrap())
        })
        .collect()
}

/// The build's tree as `gradle test` leaves it after build `name`: its
/// reports in `server/build/test-results/test/`, dated as it ran.
fn place(build: &Path, name: &str, minute: u64) {
    std::fs::write(build.join("settings.gradle"), "include 'server'\n").unwrap();
    let dest = build.join("server/build/test-results/test");
    let _ = std::fs::remove_dir_all(&dest);
    std::fs::create_dir_all(&dest).unwrap();
    let when = std::time::UNIX_EPOCH + std::time::Duration::from_secs(EPOCH + minute * 60);
    for entry in std::fs::read_dir(repo_root().join("tests/data/builds").join(name)).unwrap() {
        let entry = entry.unwrap();
        let to = dest.join(entry.file_name());
        std::fs::copy(entry.path(), &to).unwrap();
        let file = std::fs::File::options().write(true).open(&to).unwrap();
        file.set_modified(when).unwrap();
    }
}

fn flaky(build: &Path, args: &[&str]) -> Output {
    let mut cmd = gradle_flaky();
    cmd.arg("--project-dir").arg(build).args(args);
    run(&mut cmd)
}

/// Every build recorded once, as a main branch's pipeline would, and the
/// last one twice.
fn recorded() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let builds = builds();
    for (name, commit, minute) in &builds {
        place(dir.path(), name, *minute);
        let out = flaky(
            dir.path(),
            &["record", "--commit", commit, "--branch", "main"],
        );
        assert_eq!(out.status.code(), Some(0), "{}", text(&out));
        assert!(text(&out).contains("added to"), "{}", text(&out));
    }
    let out = flaky(
        dir.path(),
        &["record", "--commit", &builds[5].1, "--branch", "main"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert!(
        text(&out).contains("is already in") && text(&out).contains("nothing added"),
        "{}",
        text(&out)
    );
    dir
}

fn ledger_lines(dir: &Path) -> usize {
    let file = dir.join(".gradle/gradle-flaky/ledger/ledger-000001.jsonl");
    std::fs::read_to_string(file).unwrap().lines().count()
}

fn kinds(json: &serde_json::Value) -> Vec<(String, String)> {
    json["suspects"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            let t = &s["test"];
            let name = format!(
                "{}#{}",
                t["class"].as_str().unwrap(),
                t["method"].as_str().unwrap()
            );
            (s["kind"].as_str().unwrap().to_string(), name)
        })
        .collect()
}

#[test]
fn recorded_builds_tell_flaky_from_broken_with_a_cluster() {
    let dir = recorded();
    // 9 tests a build, 10 in build-5 (Surefire's report beside them); the
    // sixth build recorded twice counts once.
    assert_eq!(ledger_lines(dir.path()), 9 * 5 + 10);
    let out = flaky(dir.path(), &["suspects", "--format", "json"]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "a proven flaky test: {}",
        text(&out)
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let learn = |m: &str| format!("org.example.learn.{m}");
    let mut want: Vec<(String, String)> = [
        ("flaky", learn("NetTests#testDelete")),
        ("flaky", learn("NetTests#testGet")),
        ("flaky", learn("NetTests#testPut")),
        ("flaky", "io.olamy.FlakyTest#testApp".to_string()),
        ("flaky", learn("FlipTests#testFlip")),
        ("flaky", learn("RetryTests#testRetried")),
        ("broken", learn("BrokenTests#testBroken")),
        ("intermittent", learn("RareTests#testRare")),
    ]
    .map(|(k, n)| (k.to_string(), n))
    .to_vec();
    want.sort();
    let mut got = kinds(&json);
    got.sort();
    assert_eq!(got, want, "{json:#}");
    let broken = json["suspects"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["kind"] == "broken")
        .unwrap();
    assert_eq!(broken["since"]["commit"], "3".repeat(40));
    assert_eq!(broken["since"]["runs"], 3);
    let clusters = json["clusters"].as_array().unwrap();
    assert_eq!(clusters.len(), 1, "{json:#}");
    let members: Vec<&str> = clusters[0]["tests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["method"].as_str().unwrap())
        .collect();
    assert_eq!(members, ["testDelete", "testGet", "testPut"]);
    assert_eq!(clusters[0]["runs"].as_array().unwrap().len(), 2);
    assert_eq!(
        clusters[0]["signature"],
        "java.net.ConnectException: Connection refused: localhost/<ip>:<n>"
    );
    assert_eq!(
        (json["tests"].as_u64(), json["runs"].as_u64()),
        (Some(10), Some(6))
    );
}

#[test]
fn a_ledger_read_twice_counts_each_run_once() {
    let dir = recorded();
    let once = flaky(dir.path(), &["suspects", "--format", "json"]);
    // The same lines again, as a downloaded artifact beside the build's own.
    let copy = dir.path().join("artifacts");
    std::fs::create_dir_all(&copy).unwrap();
    std::fs::copy(
        dir.path()
            .join(".gradle/gradle-flaky/ledger/ledger-000001.jsonl"),
        copy.join("flakiness-ledger.jsonl"),
    )
    .unwrap();
    let artifacts = copy.to_str().unwrap();
    let twice = flaky(
        dir.path(),
        &["suspects", "--format", "json", "--ledger", artifacts],
    );
    let (a, b): (serde_json::Value, serde_json::Value) = (
        serde_json::from_slice(&once.stdout).unwrap(),
        serde_json::from_slice(&twice.stdout).unwrap(),
    );
    assert_eq!(a["suspects"], b["suspects"]);
    assert_eq!(b["leftOut"]["duplicates"], 55);
    let md = flaky(dir.path(), &["suspects", "--ledger", artifacts]);
    assert!(
        text(&md).contains("55 line(s) read twice (one run, test and condition), counted once"),
        "{}",
        text(&md)
    );
}

/// Debian's Chromium: `scripts/test.sh` installs it when missing.
fn chromium() -> PathBuf {
    let found = ["chromium", "chromium-browser"].iter().find_map(|name| {
        std::env::var_os("PATH").and_then(|paths| {
            std::env::split_paths(&paths)
                .map(|p| p.join(name))
                .find(|p| p.is_file())
        })
    });
    found.unwrap_or_else(|| {
        panic!(
            "this test renders the HTML page in a real browser and needs Debian's `chromium` \
             on PATH: run the suite through scripts/test.sh (it installs it), or \
             `apt-get install -y chromium`"
        )
    })
}

/// The DOM Chromium built of `page`, headless, nothing fetched.
fn rendered(page: &Path) -> String {
    let profile = tempfile::tempdir().unwrap();
    let mut cmd = std::process::Command::new(chromium());
    cmd.args([
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
    ])
    .arg(format!("--user-data-dir={}", profile.path().display()))
    .arg("--dump-dom")
    .arg(format!("file://{}", page.display()));
    let out = run(&mut cmd);
    assert!(out.status.success(), "chromium: {}", text(&out));
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn the_suspects_page_renders_in_headless_chromium() {
    let dir = recorded();
    let out = flaky(dir.path(), &["suspects", "--format", "html"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let page = dir.path().join("suspects.html");
    std::fs::write(&page, &out.stdout).unwrap();
    let html = String::from_utf8(out.stdout).unwrap();
    assert!(!html.contains("<script") && !html.contains("http://") && !html.contains("https://"));
    let dom = rendered(&page);
    for want in [
        "<h1>Suspects</h1>",
        "failing in every run since 333333333333",
        "Failing together",
        "3 tests failed together in 2 runs",
        "java.net.ConnectException: Connection refused: localhost/&lt;ip&gt;:&lt;n&gt;",
        "org.example.learn.FlipTests#testFlip",
        "gradle-flaky local --iters 17 'org.example.learn.FlipTests#testFlip'",
        "method: testFlip",
    ] {
        assert!(
            dom.contains(want),
            "the rendered page lacks {want:?}:\n{dom}"
        );
    }
    // Each suspect's history: a chart (inline SVG, titled points) and its rows.
    assert_eq!(dom.matches("<svg class=\"chart\"").count(), 8, "{dom}");
    assert!(
        dom.contains("<title>3333333333, task, fresh-jvm: 1/1 failed = 100%"),
        "{dom}"
    );
    assert!(
        !dom.contains("StableTests"),
        "a clean test is no suspect:\n{dom}"
    );
}

#[test]
fn the_history_page_renders_every_test_with_its_chart() {
    let dir = recorded();
    let out = flaky(
        dir.path(),
        &[
            "history",
            "--format",
            "html",
            "org.example.learn.StableTests",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let page = dir.path().join("history.html");
    std::fs::write(&page, &out.stdout).unwrap();
    let dom = rendered(&page);
    assert!(dom.contains("<h1>Test history</h1>"), "{dom}");
    assert!(
        dom.contains("org.example.learn.StableTests#testOk"),
        "{dom}"
    );
    assert!(dom.contains("No test failed in the runs read."), "{dom}");
    assert_eq!(dom.matches("<svg class=\"chart\"").count(), 2, "{dom}");
}

/// `local`'s report has the clusters of its own Gradle runs: three tests
/// that lose their service in runs 2 and 4 are one, with their masked
/// message; a test failing alone in run 3 is in none.
#[test]
fn local_reports_the_tests_that_failed_together_in_its_gradle_runs() {
    let build = cofail_copy();
    let args = [
        "local",
        "--repetition",
        "gradle-runs",
        "--iters",
        "4",
        "--format",
        "json",
        "demo.ServiceTests",
        "demo.AloneTests",
    ];
    let out = flaky_offline(build.path(), &args);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let report: serde_json::Value =
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", text(&out)));
    let clusters = report["clusters"].as_array().expect("clusters");
    assert_eq!(clusters.len(), 1, "{report:#}");
    let c = &clusters[0];
    let members: Vec<&str> = c["tests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["method"].as_str().unwrap())
        .collect();
    assert_eq!(members, ["testDelete", "testGet", "testPut"]);
    assert_eq!(
        c["runs"],
        serde_json::json!(["batch-1/iter-2", "batch-1/iter-4"])
    );
    assert_eq!(
        c["signature"],
        "java.net.ConnectException: Connection refused: localhost/<ip>:<n>"
    );
    assert_eq!(c["sharedBy"], 3);
    let md = flaky(build.path(), &["analyze", &latest_run(build.path())]);
    assert!(
        text(&md).contains("3 tests failed together in 2 runs"),
        "{}",
        text(&md)
    );
}

/// The newest run folder of `local` in the build.
fn latest_run(build: &Path) -> String {
    let runs = build.join(".gradle/gradle-flaky/runs");
    let mut all: Vec<PathBuf> = std::fs::read_dir(&runs)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    all.sort();
    all.last().unwrap().display().to_string()
}
