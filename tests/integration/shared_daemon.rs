//! Integration tests: a run on a Gradle daemon that other builds use too (the
//! user's own, another gradle-flaky run's: one Gradle home) stops only its own
//! build's processes, on real Gradle 4.4.1 and the `plain-java` fixture.

use crate::common::{plain_java_copy, run, text, GradleHome};
use crate::plain_java::{flake_probability, json};
use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

/// Waits until `path` exists, at most `limit`.
fn wait_for(path: &Path, limit: Duration) {
    let deadline = Instant::now() + limit;
    while !path.exists() {
        assert!(
            Instant::now() < deadline,
            "{} never appeared",
            path.display()
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// The case ("11 of 12" iterations under load): a `local` run whose
/// Gradle client ends some time after its build did (here a wrapper that
/// waits; on a loaded machine, a slow JVM exit), while the daemon already runs
/// another build, which is running a test. Once the client has ended, the run
/// stops nothing of that build: its test passes, and the run stopped no test
/// JVM. Before the fix, the run took that test JVM for its own build's (it
/// started on the run's daemon after the run's client did) and stopped it,
/// failing the other build. Handshakes through files, not delays, order it.
#[test]
fn a_run_stops_no_test_jvm_of_another_build_on_its_daemon() {
    let home = GradleHome::new();
    let ours = plain_java_copy();
    let other = plain_java_copy();
    let flags = tempfile::tempdir().unwrap();
    let flag = |name: &str| flags.path().join(name);
    flake_probability(ours.path(), "0");

    // Our run's Gradle: the client lingers after a test build until the other
    // build's test runs (at most 2 minutes).
    let wrapper = ours.path().join("gradlew");
    std::fs::write(
        &wrapper,
        format!(
            "#!/bin/sh\ngradle \"$@\"; rc=$?\n\
             case \"$*\" in *cleanTest*)\n  touch '{ended}'\n  i=0\n  \
             while [ ! -e '{running}' ] && [ $i -lt 1200 ]; do sleep 0.1; i=$((i+1)); done;;\nesac\n\
             exit $rc\n",
            ended = flag("our-build-ended").display(),
            running = flag("other-test-running").display(),
        ),
    )
    .unwrap();
    std::fs::set_permissions(
        &wrapper,
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .unwrap();
    // The other build's test: says it runs, then lasts until our run is over.
    std::fs::write(
        other
            .path()
            .join("core/src/test/java/com/example/core/NeighbourTest.java"),
        format!(
            "package com.example.core;\n\
             import java.nio.file.*;\n\
             import org.junit.Test;\n\
             public class NeighbourTest {{\n\
             @Test public void outlastsTheOtherRun() throws Exception {{\n\
             Files.write(Paths.get(\"{running}\"), new byte[0]);\n\
             Path done = Paths.get(\"{done}\");\n\
             for (int i = 0; i < 1200 && !Files.exists(done); i++) Thread.sleep(100);\n\
             }}\n}}\n",
            running = flag("other-test-running").display(),
            done = flag("our-run-done").display(),
        ),
    )
    .unwrap();
    // Compiled now, on the home's one daemon, which our run then uses.
    let compiled = run(home
        .gradle()
        .args(["--offline", "-q", ":core:testClasses"])
        .current_dir(other.path()));
    assert!(compiled.status.success(), "{}", text(&compiled));

    let our_run = crate::common::gradle_flaky()
        .env("GRADLE_USER_HOME", home.path())
        .arg("--project-dir")
        .arg(ours.path())
        .args([
            "local",
            "--iters",
            "1",
            "--format",
            "json",
            "com.example.core.LruCacheTest",
            "--",
            "--offline",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    wait_for(&flag("our-build-ended"), Duration::from_secs(300));
    // The daemon is idle: the other build runs on it.
    let other_build = home
        .gradle()
        .args([
            "--offline",
            ":core:test",
            "--tests",
            "com.example.core.NeighbourTest",
        ])
        .current_dir(other.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let ours_out = our_run.wait_with_output().unwrap();
    std::fs::write(flag("our-run-done"), "").unwrap();
    let other_out = other_build.wait_with_output().unwrap();

    assert!(
        flag("other-test-running").exists(),
        "the other build's test never ran: {}",
        text(&other_out)
    );
    assert_eq!(home.daemons().len(), 1, "both builds ran on one daemon");
    assert!(
        other_out.status.success(),
        "the other build's test JVM was stopped: {}\n--- our run:\n{}",
        text(&other_out),
        text(&ours_out)
    );
    assert_eq!(ours_out.status.code(), Some(0), "{}", text(&ours_out));
    // Nothing said of a test JVM stopped (the environment's JVM options
    // warning, which names test JVMs too, aside).
    let stderr = String::from_utf8_lossy(&ours_out.stderr);
    let said = stderr
        .lines()
        .filter(|l| !l.contains("JAVA_TOOL_OPTIONS") && !l.contains("_JAVA_OPTIONS"))
        .any(|l| l.contains("test JVM"));
    assert!(!said, "{stderr}");
    let report = json(&ours_out);
    for t in report["tests"].as_array().unwrap() {
        assert_eq!(t["runs"], t["plannedRuns"], "{t:#}");
    }
}

/// Issue 44's environment: a daemon started with `JAVA_TOOL_OPTIONS` (as the
/// suite's own test command once left in the user's home) is reused by a run
/// whose environment has none, and the test JVMs it forks pick the options
/// up. The run says so once, from Gradle's output, and its report flags it;
/// a run whose own environment sets them says that instead, once.
#[test]
fn jvm_options_the_test_jvms_pick_up_are_said_once_and_flagged() {
    let home = GradleHome::new();
    let build = plain_java_copy();
    flake_probability(build.path(), "0");
    let warmed = run(home
        .gradle()
        .env("JAVA_TOOL_OPTIONS", "-Dgradle-flaky.probe=daemon")
        .args(["--offline", "-q", "help"])
        .current_dir(build.path()));
    assert!(warmed.status.success(), "{}", text(&warmed));
    let local = |tool_options: Option<&str>| {
        let mut cmd = crate::common::gradle_flaky();
        cmd.env("GRADLE_USER_HOME", home.path())
            .env_remove("_JAVA_OPTIONS")
            .env_remove("JAVA_TOOL_OPTIONS");
        if let Some(options) = tool_options {
            cmd.env("JAVA_TOOL_OPTIONS", options);
        }
        let args = ["local", "--iters", "2", "--format", "json"];
        let out = run(cmd.arg("--project-dir").arg(build.path()).args(args).args([
            "com.example.core.LruCacheTest",
            "--",
            "--offline",
        ]));
        assert_eq!(out.status.code(), Some(0), "{}", text(&out));
        out
    };
    let stderr = |out: &std::process::Output| String::from_utf8_lossy(&out.stderr).into_owned();

    let reused = local(None);
    assert_eq!(home.daemons().len(), 1, "the daemon was reused");
    let said = stderr(&reused);
    assert_eq!(
        said.matches("picked up JAVA_TOOL_OPTIONS").count(),
        1,
        "{said}"
    );
    assert!(said.contains("-Dgradle-flaky.probe=daemon"), "{said}");
    assert!(said.contains("a Gradle daemon started with it"), "{said}");
    assert_eq!(
        json(&reused)["inheritedJvmOptions"],
        serde_json::json!([{"variable": "JAVA_TOOL_OPTIONS", "seenIn": "gradle-output"}])
    );

    let set = local(Some("-Dgradle-flaky.probe=client"));
    let said = stderr(&set);
    assert_eq!(
        said.matches("JAVA_TOOL_OPTIONS is set").count(),
        1,
        "{said}"
    );
    assert!(!said.contains("picked up JAVA_TOOL_OPTIONS"), "{said}");
    assert_eq!(
        json(&set)["inheritedJvmOptions"],
        serde_json::json!([{"variable": "JAVA_TOOL_OPTIONS", "seenIn": "environment"}])
    );
    let run_dir = std::fs::read_dir(build.path().join(".gradle/gradle-flaky/runs"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .max()
        .unwrap();
    let analyzed = run(crate::common::gradle_flaky()
        .args(["analyze", "--format", "json"])
        .arg(&run_dir));
    assert_eq!(
        json(&analyzed)["inheritedJvmOptions"],
        json(&set)["inheritedJvmOptions"],
        "the run folder keeps it: {}",
        text(&analyzed)
    );
}
