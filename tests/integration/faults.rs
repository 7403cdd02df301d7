//! Integration tests: `local` under faults, on real Gradle and the fixture
//! build. Each fault is Gradle's own (a settings file that does not compile, a
//! resource it cannot copy, an UP-TO-DATE test task, a test JVM out of heap) or
//! a process of a real build killed by the test (the daemon, the client); each
//! run asserts its exit code, what the report and stderr say, and that no
//! process of the run survives (every process of the run carries a marker in
//! its environment).

use crate::common::{fixture_copy, gradle_flaky, in_suite_home, run, text, uncompiled_copy};
use crate::run::{
    add_hanging_test, force_single_use_daemon, json_report, local_command, processes_with,
    read_layout_first, run_dirs, wait_for_test_worker,
};
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};

/// `local` in `build`, isolated (`FLAKINESS_ISOLATE`): these faults are
/// checked on runs of which no process may survive. On the user's daemon,
/// which is kept by design, the same stops are tested in `run.rs`.
fn isolated(build: &Path, args: &[&str], extra: &[&str]) -> Command {
    let mut cmd = local_command(build, args, extra);
    cmd.env("FLAKINESS_ISOLATE", "1");
    cmd
}

/// `local` in `build`, isolated and marked with `marker`.
fn marked_local(build: &Path, marker: &str, args: &[&str], extra: &[&str]) -> Output {
    run(isolated(build, args, extra).env("GRADLE_FLAKY_TEST_MARKER", marker))
}

fn assert_nothing_left(marker: &str) {
    let left = processes_with(marker);
    assert!(left.is_empty(), "processes of the run survived: {left:#?}");
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Runs the planned unit command of `class` on Gradle runs by hand (without
/// `clean<Task>`), so that Gradle finds the same test task UP-TO-DATE when
/// nothing forces it. Gradle runs: an in-JVM batch's helper configures the
/// task for its invocation (its slices' JVMs), which no hand-typed command does.
fn run_unit_test_by_hand(build: &Path, class: &str) {
    let by_hand = run(in_suite_home(&mut Command::new("gradle"))
        .args(["--no-daemon", "--offline", "-q"])
        .args([":server:test", "--tests", class])
        .args(["--continue"])
        .current_dir(build));
    assert!(by_hand.status.success(), "{}", text(&by_hand));
}

/// Two batches that run no test, each for its own reason: the first's test
/// task is UP-TO-DATE (it ran by hand before, and `-x :server:cleanTest`
/// takes away the forcing); the second's build fails on a test resource
/// Gradle cannot copy. Every Gradle log has `UP-TO-DATE` lines, so only the
/// first may be called UP-TO-DATE.
#[test]
fn local_names_an_up_to_date_test_task_and_an_uncopyable_resource() {
    let build = fixture_copy();
    let strings = "org.elasticsearch.common.StringsTests";
    run_unit_test_by_hand(build.path(), strings);
    read_layout_first(build.path());
    let resources = build.path().join("x-pack/plugin/ml/src/test/resources");
    std::fs::create_dir_all(&resources).unwrap();
    std::os::unix::fs::symlink("/nonexistent/gone.txt", resources.join("dangling.txt")).unwrap();
    let marker = format!("causes-{}", std::process::id());
    let out = marked_local(
        build.path(),
        &marker,
        &[
            "--iters",
            "1",
            "--repetition",
            "gradle-runs",
            "--cap",
            "unit=1",
            "--format",
            "json",
            strings,
            "org.elasticsearch.xpack.ml.MlConfigTests",
        ],
        &["-x", ":server:cleanTest"],
    );
    assert_nothing_left(&marker);
    assert_eq!(out.status.code(), Some(3), "{}", text(&out));
    let err = stderr(&out);
    assert!(
        err.contains(
            "batch 1 (unit tests): no tests executed: the test task :server:test was \
             UP-TO-DATE: Gradle found its inputs unchanged and did not run it"
        ),
        "{err}"
    );
    assert!(
        err.contains(
            "batch 2 (unit tests): no tests executed: the build failed before any test ran: \
             Could not list contents of '"
        ) && err.contains("dangling.txt'. Couldn't follow symbolic link."),
        "{err}"
    );
    assert_eq!(err.matches("UP-TO-DATE").count(), 2, "batch 1 only: {err}");
    let report = json_report(&out);
    assert_eq!(report["summary"]["executions"], 0, "{report:#}");
    let outcomes: Vec<(&str, i64)> = report["batches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| (b["outcome"].as_str().unwrap(), b["rc"].as_i64().unwrap()))
        .collect();
    assert_eq!(outcomes, [("hang", 0), ("infra_fail", 1)], "{report:#}");
}

/// A settings file that does not compile: Gradle fails before any task, and
/// its log still holds `:buildSrc:... UP-TO-DATE` lines.
#[test]
fn local_names_a_settings_file_that_does_not_compile() {
    let build = fixture_copy();
    let settings = build.path().join("settings.gradle");
    let mut text_of = std::fs::read_to_string(&settings).unwrap();
    text_of.push_str("include 'broken' (\n");
    std::fs::write(&settings, text_of).unwrap();
    let marker = format!("settings-{}", std::process::id());
    // The layout read fails too (the path rules stand in); no daemon for it.
    let out = run(isolated(
        build.path(),
        &["--iters", "2", "org.elasticsearch.common.StringsTests"],
        &[],
    )
    .env("GRADLE_OPTS", "-Dorg.gradle.daemon=false")
    .env("GRADLE_FLAKY_TEST_MARKER", &marker));
    assert_nothing_left(&marker);
    assert_eq!(out.status.code(), Some(3), "{}", text(&out));
    let err = stderr(&out);
    assert!(
        err.contains(
            "batch 1 (unit tests): no tests executed: the build failed before any test ran: \
             Could not compile settings file '"
        ),
        "{err}"
    );
    assert!(!err.contains("UP-TO-DATE"), "{err}");
    let log = std::fs::read_to_string(run_dirs(build.path())[0].join("batch-1.log")).unwrap();
    assert!(
        log.contains(":buildSrc:compileJava UP-TO-DATE"),
        "the log does say UP-TO-DATE: {log}"
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("### Batches without a clean result")
            && stdout.contains("Could not compile settings file"),
        "{stdout}"
    );
}

/// Starts `cmd` marked with `marker`, its output captured.
fn spawn_marked(mut cmd: Command, marker: &str) -> Child {
    cmd.env("GRADLE_FLAKY_TEST_MARKER", marker)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// The pid of the marked process whose command line names `main`.
fn pid_of(marker: &str, main: &str) -> Option<i32> {
    processes_with(marker)
        .iter()
        .find(|p| p.contains(main))
        .and_then(|p| p.split(':').next()?.parse().ok())
}

/// Starts `local` on the hanging test (a single invocation: `--no-daemon`,
/// and the fixture's JVM arguments make Gradle fork a single-use daemon),
/// waits until its test worker runs, SIGKILLs the process whose command line
/// names `main`, and returns how `local` ended.
fn kill_during_the_build(build: &Path, marker: &str, main: &str) -> Output {
    let child = spawn_marked(
        isolated(build, &["--iters", "1", "org.elasticsearch.HangTests"], &[]),
        marker,
    );
    wait_for_test_worker(marker, || pid_of(marker, main).is_some());
    let pid = pid_of(marker, main).unwrap();
    // SAFETY: kill(2) on a process of the build this test started.
    unsafe {
        libc::kill(pid, libc::SIGKILL);
    }
    child.wait_with_output().unwrap()
}

/// A Gradle daemon killed in the middle of a build, then a Gradle client
/// killed in the middle of one: real Gradle, the kills sent by the test (by
/// someone other than gradle-flaky, as the OOM killer or a user would).
#[test]
fn local_names_a_vanished_daemon_and_a_killed_client() {
    let build = fixture_copy();
    force_single_use_daemon(build.path());
    add_hanging_test(build.path());
    read_layout_first(build.path());

    let marker = format!("daemon-{}", std::process::id());
    let daemon = "org.gradle.launcher.daemon.bootstrap.GradleDaemon";
    let out = kill_during_the_build(build.path(), &marker, daemon);
    assert_nothing_left(&marker);
    assert_eq!(out.status.code(), Some(3), "{}", text(&out));
    assert!(
        stderr(&out).contains(
            "batch 1 (unit tests): no tests executed: the Gradle daemon running the build \
             disappeared (killed, or crashed; its log is named in the batch log)"
        ),
        "{}",
        text(&out)
    );

    let marker = format!("client-{}", std::process::id());
    let out = kill_during_the_build(build.path(), &marker, "org.gradle.launcher.GradleMain");
    assert_nothing_left(&marker);
    assert_eq!(out.status.code(), Some(3), "{}", text(&out));
    assert!(
        stderr(&out).contains(
            "batch 1 (unit tests): no tests executed: the Gradle client was killed by signal 9 \
             (SIGKILL), sent from outside gradle-flaky"
        ),
        "{}",
        text(&out)
    );
}

/// HeapAttackIT always runs out of heap and leaves a heap dump: like a
/// Buildkite job, the batch is `infra_fail` (`oom`), which proves no
/// flakiness (exit 3, not 1), while the report still shows what failed.
#[test]
fn a_test_jvm_out_of_heap_is_infrastructure_not_flakiness() {
    let build = fixture_copy();
    read_layout_first(build.path());
    let marker = format!("oom-{}", std::process::id());
    let out = marked_local(
        build.path(),
        &marker,
        &[
            "--rest-iters",
            "2",
            "--format",
            "json",
            "org.elasticsearch.xpack.esql.heap_attack.HeapAttackIT",
        ],
        &[],
    );
    assert_nothing_left(&marker);
    assert_eq!(out.status.code(), Some(3), "{}", text(&out));
    let report = json_report(&out);
    assert_eq!(
        report["summary"]["failed"], 2,
        "the OOMs are shown: {report:#}"
    );
    let batch = &report["batches"][0];
    assert_eq!(batch["outcome"], "infra_fail", "{report:#}");
    assert_eq!(batch["infraSubtype"], "oom", "{report:#}");
    assert_eq!(batch["realFailures"], 0, "{report:#}");
    assert_eq!(batch["totalCases"], 4, "{report:#}");
    assert_eq!(batch["jobId"], "batch-1");
    let err = stderr(&out);
    assert!(
        err.contains("batch 1 (java rest tests): infra_fail (oom): a test JVM ran out of heap and wrote test/external-modules/esql-heap-attack/build/heapdump/java_pid")
            && err.contains(".hprof; its 2 OutOfMemoryError failure(s) are heap exhaustion (infrastructure), not flakiness"),
        "{err}"
    );
}

/// The JVM's own `java.lang.OutOfMemoryError` is heap exhaustion wherever
/// the dump goes: a `-XX:HeapDumpPath` naming a file (the layout reports it,
/// and the JVM writes exactly that file), and no dump at all. Both are
/// `infra_fail` (`oom`), exit 3, and the report says heap exhaustion.
#[test]
fn a_test_jvm_out_of_heap_is_infrastructure_wherever_its_dump_goes() {
    let cases = [
        (
            "file",
            "tasks.javaRestTest.jvmArgs \"-XX:HeapDumpPath=${buildDir}/oom/heap.bin\"\n\
             tasks.javaRestTest.doFirst { new File(buildDir, 'oom').mkdirs() }",
            "and wrote test/external-modules/esql-heap-attack/build/oom/heap.bin;",
        ),
        (
            "none",
            "tasks.javaRestTest.jvmArgs '-XX:-HeapDumpOnOutOfMemoryError'",
            "(java.lang.OutOfMemoryError; no heap dump found);",
        ),
    ];
    for (name, gradle, said) in cases {
        let build = fixture_copy();
        let script = build
            .path()
            .join("test/external-modules/esql-heap-attack/build.gradle");
        let original = std::fs::read_to_string(&script).unwrap();
        std::fs::write(&script, format!("{original}\n{gradle}\n")).unwrap();
        read_layout_first(build.path());
        let marker = format!("oom-{name}-{}", std::process::id());
        let out = marked_local(
            build.path(),
            &marker,
            &[
                "--rest-iters",
                "1",
                "--format",
                "json",
                "org.elasticsearch.xpack.esql.heap_attack.HeapAttackIT",
            ],
            &[],
        );
        assert_nothing_left(&marker);
        assert_eq!(out.status.code(), Some(3), "{name}: {}", text(&out));
        let report = json_report(&out);
        let batch = &report["batches"][0];
        assert_eq!(
            (
                &batch["outcome"],
                &batch["infraSubtype"],
                &batch["realFailures"]
            ),
            (&"infra_fail".into(), &"oom".into(), &0.into()),
            "{name}: {report:#}"
        );
        let err = stderr(&out);
        assert!(
            err.contains(&format!(
                "batch 1 (java rest tests): infra_fail (oom): a test JVM ran out of heap {said} \
                 its 1 OutOfMemoryError failure(s) are heap exhaustion (infrastructure), not \
                 flakiness"
            )),
            "{name}: {err}"
        );
        let dumps = build
            .path()
            .join("test/external-modules/esql-heap-attack/build/heapdump");
        let default_dumps = std::fs::read_dir(&dumps).map_or(0, |d| d.count());
        assert_eq!(default_dumps, 0, "{name}: nothing under build/heapdump/");
        // The markdown report of the run's XML says it too, its reproduce
        // lines running Gradle as the run did (`--offline` kept).
        let run_dir = run_dirs(build.path()).pop().expect("a run folder");
        let analyzed = run(gradle_flaky()
            .current_dir(build.path())
            .arg("analyze")
            .arg(&run_dir));
        let md = String::from_utf8_lossy(&analyzed.stdout);
        assert!(
            md.contains("- Heap exhaustion (java.lang.OutOfMemoryError): 1 of those failures")
                && md.contains("| **out of heap** |")
                && md.contains(
                    "gradle --offline :test:external-modules:test-esql-heap-attack:cleanJavaRestTest \
                     :test:external-modules:test-esql-heap-attack:javaRestTest"
                ),
            "{name}: {md}"
        );
    }
}

/// `--report` and `--junit` are checked before anything runs (exit 2, the
/// flag named, no run folder); a report that still cannot be written at the
/// end does not hide proven flakiness (exit 1, said on stderr).
#[test]
fn report_files_are_checked_first_and_a_late_failure_keeps_the_verdict() {
    let build = uncompiled_copy();
    let scratch = tempfile::tempdir().unwrap();
    let missing = scratch.path().join("no-such-dir/r.md");
    let class = "org.elasticsearch.flaky.AssertionFlakyTests";
    let cases: [(&str, &Path, &str); 2] = [
        ("--report", &missing, "its directory"),
        ("--junit", scratch.path(), "is a directory"),
    ];
    for (flag, path, why) in cases {
        let out = run(&mut isolated(
            build.path(),
            &[flag, path.to_str().unwrap(), class],
            &[],
        ));
        assert_eq!(out.status.code(), Some(2), "{}", text(&out));
        let err = stderr(&out);
        assert!(
            err.contains(&format!("{flag} {}: ", path.display())) && err.contains(why),
            "{err}"
        );
        assert!(
            !build.path().join(".gradle").exists(),
            "no Gradle ran, not even to read the layout"
        );
    }

    read_layout_first(build.path());
    let report = scratch.path().join("r.md");
    let marker = format!("late-{}", std::process::id());
    let child = spawn_marked(
        isolated(
            build.path(),
            &["--iters", "3", "--report", report.to_str().unwrap(), class],
            &["-Dtests.fixture.probability=1"],
        ),
        &marker,
    );
    // Once the batch runs, the report's path becomes a directory.
    wait_for_test_worker(&marker, || true);
    std::fs::create_dir(&report).unwrap();
    let out = child.wait_with_output().unwrap();
    assert_nothing_left(&marker);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let err = stderr(&out);
    assert!(
        err.contains(&format!("could not write --report {}", report.display())),
        "{err}"
    );
    assert!(
        err.contains("flakiness was proven all the same: exit 1"),
        "{err}"
    );
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("testFlakyAssertion"),
        "the report is still printed"
    );
}

/// A YAML suite whose file name holds ESC is refused before anything runs
/// (reason code `unsupported-characters`); a path with `..` that stays
/// inside the build selects its test.
#[test]
fn names_gradle_cannot_carry_are_refused_and_dotdot_inside_the_build_resolves() {
    let build = fixture_copy();
    let suites = "modules/lang-painless/src/yamlRestTest/resources/rest-api-spec/test/painless";
    let esc = format!("{suites}/40_esc\u{1b}[31mred.yml");
    std::fs::copy(
        build.path().join(suites).join("10_basic.yml"),
        build.path().join(&esc),
    )
    .unwrap();
    let dotdot = "server/../server/src/test/java/org/elasticsearch/common/StringsTests.java";
    let out = run(gradle_flaky()
        .env("GRADLE_OPTS", "-Dorg.gradle.daemon=false")
        .arg("--project-dir")
        .arg(build.path())
        .args(["plan", "--format", "json", &esc, dotdot]));
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    let plan = json_report(&out);
    assert_eq!(plan["unresolved"][0]["input"], esc.as_str(), "{plan:#}");
    assert_eq!(
        plan["unresolved"][0]["reasonCode"], "unsupported-characters",
        "{plan:#}"
    );
    assert_eq!(plan["unresolved"].as_array().unwrap().len(), 1, "{plan:#}");
    assert_eq!(
        plan["tests"][0]["class"], "org.elasticsearch.common.StringsTests",
        "{plan:#}"
    );

    let marker = format!("esc-{}", std::process::id());
    let out = marked_local(build.path(), &marker, &["--rest-iters", "1", &esc], &[]);
    assert_nothing_left(&marker);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(
        stderr(&out).contains(
            "U+001B, which Gradle and JUnit XML cannot carry intact (unsupported-characters)"
        ),
        "{}",
        text(&out)
    );
    assert!(
        !build.path().join(".gradle/gradle-flaky/runs").exists(),
        "no batch ran"
    );
}

/// A report directory that cannot be listed is named (stderr, the JSON's
/// `files.unreadableDirs`, the markdown) instead of being skipped in silence.
/// As root, read permission is ignored unless the capabilities that bypass it
/// are dropped, which `setpriv` does here.
#[test]
fn an_unreadable_report_directory_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let xml = r#"<testsuite name="a.ATests"><testcase classname="a.ATests" name="t"/></testsuite>"#;
    for project in ["open", "locked"] {
        let results = dir.path().join(project).join("build/test-results/test");
        std::fs::create_dir_all(&results).unwrap();
        std::fs::write(results.join("TEST-a.ATests.xml"), xml).unwrap();
    }
    let locked = dir.path().join("locked/build");
    let mode = |m| {
        std::fs::set_permissions(&locked, std::os::unix::fs::PermissionsExt::from_mode(m)).unwrap()
    };
    mode(0o000);
    // SAFETY: geteuid has no preconditions.
    let root = unsafe { libc::geteuid() } == 0;
    let analyze = |args: &[&str]| {
        let bin = env!("CARGO_BIN_EXE_gradle-flaky");
        let mut cmd = Command::new(if root { "setpriv" } else { bin });
        if root {
            cmd.args(["--bounding-set", "-dac_override,-dac_read_search", bin]);
        }
        run(cmd.arg("analyze").arg(dir.path()).args(args))
    };
    let json = analyze(&["--format", "json"]);
    let md = analyze(&[]);
    mode(0o755);
    assert_eq!(json.status.code(), Some(0), "{}", text(&json));
    let report = json_report(&json);
    assert_eq!(report["files"]["read"], 1, "{report:#}");
    assert_eq!(
        report["files"]["unreadableDirs"][0]["path"], "locked/build",
        "{report:#}"
    );
    assert_eq!(report["summary"]["severity"], "warning", "{report:#}");
    assert!(
        stderr(&json).contains(
            "warning: locked/build: directory not readable (Permission denied (os error 13)); \
             reports in it were not counted"
        ),
        "{}",
        text(&json)
    );
    let md = String::from_utf8_lossy(&md.stdout);
    assert!(
        md.contains("- `locked/build`: directory not readable (Permission denied (os error 13)); reports in it were not counted"),
        "{md}"
    );
}
