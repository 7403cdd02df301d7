//! Integration tests: stopping runs on real Gradle 4.4.1 without leaving a
//! process behind or losing the user's daemon: Ctrl-C and any number of
//! signals, a closed stderr, a Gradle client killed from outside, a build
//! whose configuration hangs while the layout is read.
//!
//! Every test has its own Gradle home (`Sandbox`), whose daemon plays the
//! user's own: `local` runs on it by default, and the tests check that it is
//! still alive, runs no test JVM of the run, and serves the next build.

use crate::common::{self, run, text};
use crate::run::{in_batch, json_report, row, run_dirs, signal, wait_for_test_worker, Sandbox};
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// A test class that sleeps ten minutes, added to the private copy of the build.
fn add_hanging_test(build: &Path) {
    add_test(build, "HangTests", "Thread.sleep(600_000);");
}

/// A test class named `name` whose one test runs `body`.
fn add_test(build: &Path, name: &str, body: &str) {
    let dir = build.join("server/src/test/java/org/elasticsearch");
    std::fs::write(
        dir.join(format!("{name}.java")),
        format!(
            "package org.elasticsearch;\n\
             import org.elasticsearch.test.ESTestCase;\n\
             import org.junit.Test;\n\
             public class {name} extends ESTestCase {{\n\
             @Test public void testIt() throws Exception {{ {body} }}\n}}\n"
        ),
    )
    .unwrap();
}

/// Waits for the run `child` and checks what every stop must leave: its exit
/// code, no process of the run, and the user's daemon alive without test JVMs.
fn finished(sandbox: &Sandbox, child: std::process::Child, daemon: u32, code: i32) -> Output {
    let out = child.wait_with_output().unwrap();
    assert_eq!(sandbox.survivors(), Vec::<String>::new(), "{}", text(&out));
    sandbox.assert_daemon_kept(daemon);
    assert_eq!(out.status.code(), Some(code), "{}", text(&out));
    out
}

const STRINGS: &str = "org.elasticsearch.common.StringsTests";
const HANG: &str = "org.elasticsearch.HangTests";

/// Ctrl-C on a build that runs on the user's daemon (issue: `local` on the
/// user's warm daemon), then signals in quick succession: a second SIGINT to
/// the process group right after the first (coreutils `timeout -s INT` at
/// expiry), and five SIGINTs with stdout closed. Every time: exit 130, the
/// partial report (printed, or kept in the run folder when stdout is gone), no
/// process of the run left, and the same daemon, alive, without test JVMs,
/// serving the next run warm.
#[test]
fn signals_stop_a_build_on_the_users_daemon_and_keep_it_warm() {
    let sandbox = Sandbox::new("signals");
    add_hanging_test(sandbox.path());
    let daemon = sandbox.read_layout_first();
    let json = ["--iters", "3", "--cap", "unit=1", "--format", "json"];

    // One Ctrl-C during the second batch, the hanging one.
    let child = sandbox
        .local(&[&json[..], &[STRINGS, HANG]].concat(), &[])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    wait_for_test_worker(&sandbox.marker, || in_batch(sandbox.path(), 2));
    signal(child.id(), libc::SIGINT);
    let out = finished(&sandbox, child, daemon, 130);
    let report = json_report(&out);
    assert_eq!(report["partial"], true);
    assert_eq!(
        row(&report, STRINGS, "testHasText")["runs"],
        3,
        "batch 1 counts"
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(&format!(
            "test JVM process(es) of this build on the Gradle daemon (pid {daemon})"
        )),
        "{stderr}"
    );

    // coreutils `timeout --preserve-status -s INT`: at expiry (here brought
    // forward with SIGALRM, which is how `timeout` learns it) it signals the
    // child, then the child's process group, which holds gradle-flaky too.
    let mut timeout = Command::new("timeout");
    timeout.args(["--preserve-status", "-s", "INT", "3600"]);
    let inner = sandbox.local(&[&json[..], &[HANG]].concat(), &[]);
    timeout
        .arg(inner.get_program())
        .args(inner.get_args())
        .envs(inner.get_envs().filter_map(|(k, v)| Some((k, v?))));
    for (k, v) in inner.get_envs() {
        if v.is_none() {
            timeout.env_remove(k);
        }
    }
    let child = timeout
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let runs_before = run_dirs(sandbox.path()).len();
    wait_for_test_worker(&sandbox.marker, || {
        run_dirs(sandbox.path()).len() > runs_before && in_batch(sandbox.path(), 1)
    });
    signal(child.id(), libc::SIGALRM);
    let out = finished(&sandbox, child, daemon, 130);
    assert_eq!(json_report(&out)["partial"], true, "{}", text(&out));
    let log = std::fs::read_to_string(run_dirs(sandbox.path())[1].join("batch-1.log")).unwrap();
    assert!(
        !log.contains("Starting a Gradle Daemon"),
        "the daemon served the next run, warm: {log}"
    );

    // Five signals, stdout gone: the report is kept in the run folder.
    let mut child = sandbox
        .local(&[&json[..], &[HANG]].concat(), &[])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    wait_for_test_worker(&sandbox.marker, || {
        run_dirs(sandbox.path()).len() > runs_before + 1 && in_batch(sandbox.path(), 1)
    });
    for _ in 0..5 {
        signal(child.id(), libc::SIGINT);
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = finished(&sandbox, child, daemon, 130);
    let kept = run_dirs(sandbox.path())[2].join("report.json");
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&kept).unwrap()).unwrap();
    assert_eq!(report["partial"], true);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(&format!(
            "stdout is closed; the report is kept in {}",
            kept.display()
        )),
        "{stderr}"
    );

    // And the daemon still serves a build by hand.
    let out = run(sandbox
        .home
        .gradle()
        .args(["--offline", "-q", "help"])
        .current_dir(sandbox.path()));
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(sandbox.home.daemons(), [daemon]);
}

/// `local … 2>&1 | head -4`: stderr (and stdout) closed early. No panic, the
/// run goes on to its end, writes its report file and the run folder's copy,
/// exits with its own code, and leaves no process: on the user's daemon
/// (kept), and isolated (its private daemon, our descendant, stopped).
#[test]
fn a_closed_stderr_neither_panics_nor_leaves_a_process_behind() {
    let sandbox = Sandbox::new("closed-stderr");
    let daemon = sandbox.read_layout_first();
    let scratch = tempfile::tempdir().unwrap();
    for isolate in [false, true] {
        let md = scratch.path().join(format!("report-{isolate}.md"));
        let mut args = vec![
            "--iters",
            "2",
            "--cap",
            "unit=1",
            "--report",
            md.to_str().unwrap(),
            STRINGS,
            "org.elasticsearch.flaky.ExceptionFlakyTests",
        ];
        if isolate {
            args.insert(0, "--isolate");
        }
        let local = sandbox.local(&args, &["-Dtests.fixture.probability=0"]);
        let mut piped = Command::new("bash");
        piped
            .arg("-c")
            .arg(r#""$0" "$@" 2>&1 | head -4; exit "${PIPESTATUS[0]}""#)
            .arg(local.get_program())
            .args(local.get_args());
        for (k, v) in local.get_envs() {
            match v {
                Some(v) => piped.env(k, v),
                None => piped.env_remove(k),
            };
        }
        let out = run(&mut piped);
        let shown = String::from_utf8_lossy(&out.stdout);
        assert_eq!(
            out.status.code(),
            Some(0),
            "isolate={isolate}: {}",
            text(&out)
        );
        assert_eq!(shown.lines().count(), 4, "{shown}");
        assert!(!shown.contains("panicked"), "{shown}");
        let left = sandbox.survivors();
        assert!(left.is_empty(), "isolate={isolate}: left behind: {left:#?}");
        sandbox.assert_daemon_kept(daemon);
        let report = std::fs::read_to_string(&md).unwrap();
        assert!(
            report.contains("StringsTests.testHasText`: 0/2"),
            "{report}"
        );
        let kept = run_dirs(sandbox.path()).last().unwrap().join("report.md");
        assert_eq!(std::fs::read_to_string(kept).unwrap(), report);
    }
}

/// The Gradle client of batch 2 is killed from outside (SIGKILL) while its
/// build runs a test on the daemon. That build is stopped before batch 3
/// starts, so batch 3 counts only its own reports (before: the daemon
/// finished batch 2's build and its XML was counted in batch 3); batch 2 has
/// no result; the daemon is kept.
#[test]
fn a_killed_client_leaves_no_build_to_count_in_the_next_batch() {
    let sandbox = Sandbox::new("killed-client");
    // Long enough to be killed in, short enough that the daemon would finish
    // it within its 10 s cancel grace if nobody stopped it.
    add_test(sandbox.path(), "SlowPassTests", "Thread.sleep(7_000);");
    let daemon = sandbox.read_layout_first();
    let child = sandbox
        .local(
            &[
                "--iters",
                "1",
                "--cap",
                "unit=1",
                "--format",
                "json",
                STRINGS,
                "org.elasticsearch.SlowPassTests",
                "org.elasticsearch.flaky.ExceptionFlakyTests",
            ],
            &["-Dtests.fixture.probability=0"],
        )
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    wait_for_test_worker(&sandbox.marker, || in_batch(sandbox.path(), 2));
    // The client of batch 2: the JVM whose command line names its test.
    let client = common::processes()
        .into_iter()
        .find(|(_, c)| c.contains("GradleMain") && c.contains("SlowPassTests"))
        .map(|(pid, _)| pid);
    let worker_of_batch_2 = || {
        common::test_executors(daemon)
            .iter()
            .any(|w| client.is_some_and(|c| started_after(*w, c)))
    };
    let deadline = Instant::now() + Duration::from_secs(240);
    while !worker_of_batch_2() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(100));
    }
    assert!(worker_of_batch_2(), "batch 2 never ran its test");
    std::thread::sleep(Duration::from_secs(2));
    signal(client.unwrap(), libc::SIGKILL);
    let out = finished(&sandbox, child, daemon, 3);
    let report = json_report(&out);
    let classes = crate::common::report_classes(&report);
    assert!(
        !classes.contains(&"org.elasticsearch.SlowPassTests"),
        "{report:#}"
    );
    assert_eq!(row(&report, STRINGS, "testHasText")["runs"], 1);
    assert_eq!(
        row(
            &report,
            "org.elasticsearch.flaky.ExceptionFlakyTests",
            "testStable"
        )["runs"],
        1,
        "batch 3 counted once, on its own"
    );
    assert_eq!(report["files"]["read"], 2, "{report:#}");
    let batch3 = run_dirs(sandbox.path())[0].join("batch-3");
    let xml: Vec<String> = walk(&batch3);
    assert_eq!(xml.len(), 1, "batch 3 kept only its own report: {xml:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(&format!(
            "its client ended while it ran: stopped 1 test JVM process(es) of this build on the \
             Gradle daemon (pid {daemon})"
        )),
        "{stderr}"
    );
}

/// Whether process `a` started after process `b` (both alive).
fn started_after(a: u32, b: u32) -> bool {
    let start = |pid: u32| {
        std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .ok()
            .and_then(|s| {
                s.rsplit_once(')')
                    .and_then(|(_, r)| r.split_whitespace().nth(19)?.parse::<u64>().ok())
            })
    };
    matches!((start(a), start(b)), (Some(a), Some(b)) if a >= b)
}

/// Every report file under `dir`, relative.
fn walk(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            if e.path().is_dir() {
                stack.push(e.path());
            } else if e.file_name().to_string_lossy().ends_with(".xml") {
                out.push(e.path().strip_prefix(dir).unwrap().display().to_string());
            }
        }
    }
    out
}

/// A build whose configuration hangs: reading its layout is stopped at
/// `--layout-timeout` (here from FLAKINESS_LAYOUT_TIMEOUT), says that it is
/// waiting on Gradle's configuration, exits 3 before any batch, leaves no
/// process behind, and follows the batches' daemon policy: isolated, a
/// `--no-daemon` build (the user's daemon untouched); by default, the user's
/// daemon, which Gradle itself stops when a hung configuration ignores the
/// cancel (as after a Ctrl-C by hand), and which the run then reports.
#[test]
fn a_hung_configuration_stops_the_layout_read_at_its_time_limit() {
    let sandbox = Sandbox::new("layout-hang");
    let daemon = sandbox.home.warm(sandbox.path());
    let settings = sandbox.path().join("settings.gradle");
    let mut text_of = std::fs::read_to_string(&settings).unwrap();
    text_of += "\nif (new File(rootDir, 'hang-configuration').exists()) { Thread.sleep(600000) }\n";
    std::fs::write(&settings, text_of).unwrap();
    std::fs::write(sandbox.path().join("hang-configuration"), "").unwrap();
    for isolate in [true, false] {
        let mut cmd = sandbox.local(&[STRINGS], &[]);
        cmd.env("FLAKINESS_LAYOUT_TIMEOUT", "20s");
        if isolate {
            cmd.env("FLAKINESS_ISOLATE", "1");
        }
        let started = Instant::now();
        let out = run(&mut cmd);
        let took = started.elapsed();
        assert_eq!(
            out.status.code(),
            Some(3),
            "isolate={isolate}: {}",
            text(&out)
        );
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("reading the build layout: waiting for Gradle to configure the build"),
            "{stderr}"
        );
        assert!(
            stderr.contains(
                "Gradle did not finish configuring the build within 20s (--layout-timeout, \
                 FLAKINESS_LAYOUT_TIMEOUT)"
            ),
            "{stderr}"
        );
        assert!(
            took < Duration::from_secs(20 + 40),
            "stopped in time: {took:?}"
        );
        assert!(
            !sandbox.path().join(".gradle/gradle-flaky/runs").exists(),
            "no batch ran"
        );
        let left = sandbox.survivors();
        assert!(left.is_empty(), "isolate={isolate}: left behind: {left:#?}");
        if isolate {
            assert!(
                stderr.contains("isolated, --no-daemon; limit 20s"),
                "{stderr}"
            );
            sandbox.assert_daemon_kept(daemon);
        } else {
            // The daemon ran the hung configuration: it either went back to
            // idle or Gradle stopped it, which is said.
            let gone = !common::alive(daemon);
            assert_eq!(
                gone,
                stderr.contains(&format!("Gradle stopped its daemon (pid {daemon})")),
                "{stderr}"
            );
            if !gone {
                sandbox.assert_daemon_kept(daemon);
            }
        }
    }
}
