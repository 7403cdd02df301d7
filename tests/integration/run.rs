//! Integration tests: running Gradle for real on the fixture build: `repeat`,
//! the runner core with hand-built commands, and `local` end to end.

use crate::common::{fixture_copy, gradle_flaky, run, text};
use gradle_flaky::domain::{Command, TestKind};
use gradle_flaky::run::local::{self, Options};
use gradle_flaky::run::progress::Progress;
use gradle_flaky::run::repeat::Verdict;
use std::path::{Path, PathBuf};
use std::time::Duration;

fn words(s: &[&str]) -> Vec<String> {
    s.iter().map(|w| w.to_string()).collect()
}

/// Every file under `root`, relative, sorted.
fn files_under(root: &Path) -> Vec<String> {
    fn walk(dir: &Path, root: &Path, out: &mut Vec<String>) {
        for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(&p, root, out);
            } else {
                out.push(p.strip_prefix(root).unwrap().display().to_string());
            }
        }
    }
    let mut out = Vec::new();
    walk(root, root, &mut out);
    out.sort();
    out
}

fn testcases(xml: &Path) -> usize {
    std::fs::read_to_string(xml)
        .unwrap()
        .matches("<testcase ")
        .count()
}

/// Processes whose environment holds `marker` (every process of a build we
/// start inherits it: the client, a single-use daemon, test workers).
fn processes_with(marker: &str) -> Vec<String> {
    let needle = format!("GRADLE_FLAKY_TEST_MARKER={marker}");
    let mut found = Vec::new();
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        let env = std::fs::read(e.path().join("environ")).unwrap_or_default();
        let has = env.split(|b| *b == 0).any(|kv| kv == needle.as_bytes());
        if has {
            let cmd = std::fs::read(e.path().join("cmdline")).unwrap_or_default();
            found.push(format!(
                "{}: {}",
                e.file_name().to_string_lossy(),
                String::from_utf8_lossy(&cmd).replace('\0', " ")
            ));
        }
    }
    found
}

/// Makes Gradle fork a single-use daemon even under `--no-daemon` (the JVM
/// arguments differ from the client's), as Elasticsearch's gradle.properties
/// does: the daemon calls setsid, the hard case for stopping a build.
fn force_single_use_daemon(build: &Path) {
    std::fs::write(
        build.join("gradle.properties"),
        "org.gradle.jvmargs=-Xmx400m\n",
    )
    .unwrap();
}

#[test]
fn repeat_keeps_every_iteration_and_never_counts_a_run_without_tests() {
    let build = fixture_copy();
    let repeat = |times: &str, gradle_args: &[&str]| {
        let out = run(gradle_flaky()
            .args(["--project-dir"])
            .arg(build.path())
            .args([
                "repeat",
                "--times",
                times,
                "--",
                "gradle",
                "--offline",
                "-q",
            ])
            .args(gradle_args));
        (out.status.code(), text(&out))
    };
    let suite = "-Dtests.rest.suite=painless/10_basic";

    // A --tests filter that matches nothing: Gradle 4.4.1 fails without XML.
    let (code, out) = repeat("1", &[":server:test", "--tests", "org.nope.NoSuchTests"]);
    assert_eq!(code, Some(3), "{out}");
    assert!(out.contains("Iteration 1/1: no tests executed"), "{out}");
    assert!(out.contains("Results: 0/1 passed, 1 failed"), "{out}");

    // A task already run by hand is UP-TO-DATE when nothing forces it: Gradle
    // writes no XML, and the report left by the earlier build is not taken.
    let by_hand = run(std::process::Command::new("gradle")
        .args([
            "--no-daemon",
            "--offline",
            "-q",
            ":modules:lang-painless:yamlRestTest",
            suite,
        ])
        .current_dir(build.path()));
    assert!(by_hand.status.success(), "{}", text(&by_hand));
    let (code, out) = repeat("1", &[":modules:lang-painless:yamlRestTest", suite]);
    assert_eq!(code, Some(3), "{out}");
    assert!(out.contains("Iteration 1/1: no tests executed"), "{out}");
    assert!(!build.path().join("flakiness-iters/iter-1").exists());

    let (code, out) = repeat(
        "3",
        &[
            ":modules:lang-painless:cleanYamlRestTest",
            ":modules:lang-painless:yamlRestTest",
            suite,
        ],
    );
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("--- Iteration 3/3"), "{out}");
    assert!(out.contains("Results: 3/3 passed, 0 failed"), "{out}");
    let report = "modules/lang-painless/build/test-results/yamlRestTest/\
                  TEST-org.elasticsearch.painless.LangPainlessClientYamlTestSuiteIT.xml";
    let kept = files_under(&build.path().join("flakiness-iters"));
    assert_eq!(
        kept,
        (1..=3)
            .map(|i| format!("iter-{i}/{report}"))
            .collect::<Vec<_>>()
    );
    for k in &kept {
        let xml = build.path().join("flakiness-iters").join(k);
        assert_eq!(testcases(&xml), 3, "the three sections of 10_basic in {k}");
    }
    assert!(
        !build.path().join(report).exists(),
        "the live report is moved, not copied"
    );

    // Results of an earlier loop are never mixed with a new one.
    let (code, out) = repeat("1", &[":server:test"]);
    assert_eq!(code, Some(2), "{out}");
    assert!(out.contains("earlier run"), "{out}");
}

fn command(kind: TestKind, label: &str, argv: &[&str], rest_loops: u32) -> Command {
    Command {
        key: kind.key(),
        kind,
        label: label.into(),
        argv: words(argv),
        iterations: 1,
        rest_loops,
    }
}

/// (g) at the runner core: a batch past its limit is stopped with its single-use
/// daemon and test workers, and the next batch still runs.
#[test]
fn a_batch_past_its_time_limit_is_stopped_whole_and_the_next_batch_runs() {
    let build = fixture_copy();
    force_single_use_daemon(build.path());
    let marker = format!("core-{}", std::process::id());
    // SAFETY (edition 2021: safe fn): nextest runs each test in its own process.
    std::env::set_var("GRADLE_FLAKY_TEST_MARKER", &marker);
    // 200 executions of a test that sleeps 3 s each: ten minutes.
    let hang = command(
        TestKind::Other("slowTest".into()),
        "slow tests",
        &[
            "gradle",
            "--offline",
            "-Dtests.fixture.probability=1",
            "-Dtests.iters=200",
            "-Dtests.timeoutSuite=3600000!",
            ":x-pack:plugin:ml:slowTests",
        ],
        1,
    );
    let quick = command(
        TestKind::Unit,
        "unit tests",
        &[
            "gradle",
            "--offline",
            ":server:test",
            "--tests",
            "org.elasticsearch.common.StringsTests",
        ],
        1,
    );
    let run_dir = local::create_run_dir(build.path()).unwrap();
    let runs = local::run_all(
        &[hang, quick],
        &Options {
            project_dir: build.path(),
            run_dir: &run_dir,
            timeout: Duration::from_secs(45),
            verbose: false,
        },
        &|_| None,
        &Progress::new(false),
    );
    let left = processes_with(&marker);
    assert!(
        left.is_empty(),
        "processes of the batches survived: {left:#?}"
    );
    assert_eq!(runs.len(), 2);
    assert_eq!(runs[0].verdicts, vec![Verdict::TimedOut]);
    assert_eq!(runs[1].verdicts, vec![Verdict::Passed]);
    let log = std::fs::read_to_string(&runs[0].log).unwrap();
    assert!(
        log.contains("a new JVM will be forked"),
        "the hard case (a single-use daemon) was exercised: {log}"
    );
    let kept: Vec<PathBuf> = runs[1].iterations[0].reports.clone();
    assert_eq!(
        kept,
        [PathBuf::from(
            "server/build/test-results/test/TEST-org.elasticsearch.common.StringsTests.xml"
        )]
    );
    assert!(run_dir
        .join("batch-2/flakiness-iters/iter-1")
        .join(&kept[0])
        .is_file());
    let problems = local::problems(&runs, Duration::from_secs(45));
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(problems[0].starts_with("batch 1 (slow tests): timed out (limit 45s)"));
}

/// Waits (up to two minutes) until a test worker of the build marked `marker` runs.
fn wait_for_test_worker(marker: &str) {
    for _ in 0..600 {
        if processes_with(marker)
            .iter()
            .any(|p| p.contains("GradleWorkerMain"))
        {
            return;
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    panic!("no test worker started: {:#?}", processes_with(marker));
}

fn interrupt(child: &std::process::Child) {
    // SAFETY: kill(2) on the pid of our own child.
    unsafe {
        libc::kill(child.id() as libc::pid_t, libc::SIGINT);
    }
}

#[test]
fn ctrl_c_stops_the_whole_build_and_reports_what_ran() {
    let build = fixture_copy();
    force_single_use_daemon(build.path());
    let marker = format!("ctrl-c-{}", std::process::id());
    let child = gradle_flaky()
        .env("GRADLE_FLAKY_TEST_MARKER", &marker)
        .arg("--project-dir")
        .arg(build.path())
        .args(["repeat", "--times", "3", "--", "gradle", "--offline"])
        .args([
            "-Dtests.fixture.probability=1",
            "-Dtests.iters=200",
            ":x-pack:plugin:ml:slowTests",
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    wait_for_test_worker(&marker);
    interrupt(&child);
    let out = child.wait_with_output().unwrap();
    let left = processes_with(&marker);
    assert!(
        left.is_empty(),
        "processes of the build survived: {left:#?}"
    );
    assert_eq!(out.status.code(), Some(130), "{}", text(&out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("Iteration 1/3: interrupted"), "{stdout}");
    assert!(stdout.contains("Results: 0/1 passed, 1 failed"), "{stdout}");
    assert!(!stdout.contains("Iteration 2/3"), "{stdout}");
}
