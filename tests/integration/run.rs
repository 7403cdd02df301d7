//! Integration tests: running Gradle for real on the fixture build: `repeat`,
//! the runner core with hand-built commands, and `local` end to end.

use crate::common::{self, fixture_copy, gradle_flaky, in_suite_home, run, text, GradleHome};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Duration;

/// Every file under `root`, relative, sorted.
pub(crate) fn files_under(root: &Path) -> Vec<String> {
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

/// Processes of the runs marked `marker`, alive: those whose environment
/// holds it (every process gradle-flaky starts inherits it: clients, a private
/// or single-use daemon, its test workers) and those whose command line holds
/// it (test JVMs of any daemon, since the fixture forwards `tests.*`
/// properties to them; see [`Sandbox::local`]).
pub(crate) fn processes_with(marker: &str) -> Vec<String> {
    let needle = format!("GRADLE_FLAKY_TEST_MARKER={marker}");
    let mut found = Vec::new();
    for (pid, cmdline) in common::processes() {
        let env = std::fs::read(format!("/proc/{pid}/environ")).unwrap_or_default();
        let has = env.split(|b| *b == 0).any(|kv| kv == needle.as_bytes())
            || cmdline.contains(&format!("tests.gf_marker={marker}"));
        if has && common::alive(pid) {
            found.push(format!("{pid}: {}", cmdline.replace('\0', " ")));
        }
    }
    found
}

/// A private copy of the fixture with a Gradle home of its own (the "user's"
/// daemon lives there) and a marker that every process of its runs carries.
pub(crate) struct Sandbox {
    pub build: tempfile::TempDir,
    pub home: GradleHome,
    pub marker: String,
}

impl Sandbox {
    pub fn new(name: &str) -> Sandbox {
        Sandbox {
            build: fixture_copy(),
            home: GradleHome::new(),
            marker: format!("{name}-{}", std::process::id()),
        }
    }

    pub fn path(&self) -> &Path {
        self.build.path()
    }

    /// gradle-flaky with this sandbox's Gradle home and marker.
    pub fn gradle_flaky(&self) -> Command {
        let mut cmd = gradle_flaky();
        cmd.env("GRADLE_USER_HOME", self.home.path())
            .env("GRADLE_FLAKY_TEST_MARKER", &self.marker)
            .arg("--project-dir")
            .arg(self.path());
        cmd
    }

    /// `gradle-flaky local ARGS -- --offline -Dtests.gf_marker=MARKER EXTRA`:
    /// the marker reaches the test JVMs, whichever daemon runs them.
    pub fn local(&self, args: &[&str], extra: &[&str]) -> Command {
        let mut cmd = self.gradle_flaky();
        cmd.arg("local")
            .args(args)
            .args(["--", "--offline"])
            .arg(format!("-Dtests.gf_marker={}", self.marker))
            .args(extra);
        cmd
    }

    /// Processes of this sandbox's runs still alive.
    pub fn survivors(&self) -> Vec<String> {
        processes_with(&self.marker)
    }

    /// Reads the layout now, so that the marked runs that follow start no
    /// Gradle but their batches; it also starts the home's daemon, as a
    /// user's earlier build would have (it does not carry the marker).
    /// Returns the daemon's pid.
    pub fn read_layout_first(&self) -> u32 {
        let out = run(gradle_flaky()
            .env("GRADLE_USER_HOME", self.home.path())
            .arg("--project-dir")
            .arg(self.path())
            .arg("layout"));
        assert!(out.status.success(), "{}", text(&out));
        let daemons = self.home.daemons();
        assert_eq!(
            daemons.len(),
            1,
            "the layout read used one daemon: {daemons:?}"
        );
        daemons[0]
    }

    /// The user's daemon survived the run, warm, and runs no test JVM of it.
    pub fn assert_daemon_kept(&self, daemon: u32) {
        assert!(common::alive(daemon), "the user's daemon {daemon} was lost");
        assert_eq!(
            common::test_executors(daemon),
            Vec::<u32>::new(),
            "a test JVM of the run is left on the user's daemon"
        );
        assert_eq!(self.home.daemons(), [daemon], "no other daemon was started");
    }
}

/// Makes Gradle fork a single-use daemon under `--no-daemon` (the JVM
/// arguments differ from the client's), as Elasticsearch's gradle.properties
/// would: that daemon calls setsid, a hard case for stopping a build.
pub(crate) fn force_single_use_daemon(build: &Path) {
    std::fs::write(
        build.join("gradle.properties"),
        "org.gradle.jvmargs=-Xmx400m\n",
    )
    .unwrap();
}

#[test]
fn repeat_keeps_every_iteration_and_never_counts_a_run_without_tests() {
    let sandbox = Sandbox::new("repeat");
    let build = &sandbox.build;
    let repeat = |times: &str, gradle_args: &[&str]| {
        let out = run(sandbox
            .gradle_flaky()
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
    // The user's daemon, warm from an earlier build (it carries no marker).
    let daemon = sandbox.home.warm(build.path());

    // A --tests filter that matches nothing: Gradle 4.4.1 fails without XML.
    let (code, out) = repeat("1", &[":server:test", "--tests", "org.nope.NoSuchTests"]);
    assert_eq!(code, Some(3), "{out}");
    assert!(out.contains("Iteration 1/1: no tests executed"), "{out}");
    assert!(out.contains("Results: 0/1 passed, 1 failed"), "{out}");

    // A task already run by hand is UP-TO-DATE when nothing forces it: Gradle
    // writes no XML, and the report left by the earlier build is not taken.
    let by_hand = run(sandbox
        .home
        .gradle()
        .args([
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
        "2",
        &[
            ":modules:lang-painless:cleanYamlRestTest",
            ":modules:lang-painless:yamlRestTest",
            suite,
        ],
    );
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("--- Iteration 2/2"), "{out}");
    assert!(out.contains("Results: 2/2 passed, 0 failed"), "{out}");
    let report = "modules/lang-painless/build/test-results/yamlRestTest/\
                  TEST-org.elasticsearch.painless.LangPainlessClientYamlTestSuiteIT.xml";
    let kept = files_under(&build.path().join("flakiness-iters"));
    assert_eq!(
        kept,
        (1..=2)
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

    // Every iteration ran on the user's daemon, warm from the earlier build.
    sandbox.assert_daemon_kept(daemon);
    assert_eq!(sandbox.survivors(), Vec::<String>::new());

    // Results of an earlier loop are never mixed with a new one.
    let (code, out) = repeat("1", &[":server:test"]);
    assert_eq!(code, Some(2), "{out}");
    assert!(out.contains("earlier run"), "{out}");
}

/// `gradle-flaky local ARGS -- --offline EXTRA` in `build`.
fn local(build: &Path, args: &[&str], extra: &[&str]) -> Output {
    run(&mut local_command(build, args, extra))
}

pub(crate) fn local_command(build: &Path, args: &[&str], extra: &[&str]) -> std::process::Command {
    let mut cmd = gradle_flaky();
    cmd.arg("--project-dir")
        .arg(build)
        .arg("local")
        .args(args)
        .args(["--", "--offline"])
        .args(extra);
    cmd
}

pub(crate) fn json_report(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", text(out)))
}

/// The report row of `class`/`method`.
pub(crate) fn row<'a>(report: &'a Value, class: &str, method: &str) -> &'a Value {
    report["tests"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["class"] == class && t["method"] == method)
        .unwrap_or_else(|| panic!("no row {class}#{method} in {report:#}"))
}

/// The run folders `local` created in `build`, oldest first.
pub(crate) fn run_dirs(build: &Path) -> Vec<PathBuf> {
    let mut dirs: Vec<_> = std::fs::read_dir(build.join(".gradle/gradle-flaky/runs"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    dirs.sort();
    dirs
}

/// (a) a known flake at --iters 40 is proven, and (d) a second run counts
/// only itself.
#[test]
fn local_proves_a_flaky_class_and_counts_only_its_own_run() {
    let sandbox = Sandbox::new("flaky");
    let build = &sandbox.build;
    let class = "org.elasticsearch.flaky.AssertionFlakyTests";
    for attempt in 1..=2 {
        let out = run(&mut sandbox.local(&["--iters", "40", "--format", "json", class], &[]));
        assert_eq!(out.status.code(), Some(1), "run {attempt}: {}", text(&out));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("1 of 1 batch(es), 1 Gradle invocation(s)"),
            "-Dtests.iters repeats in one Gradle run here: {stderr}"
        );
        let report = json_report(&out);
        let flaky = row(&report, class, "testFlakyAssertion");
        assert_eq!(flaky["runs"], 40, "run {attempt}: {flaky:#}");
        assert_eq!(flaky["plannedRuns"], 40, "run {attempt}: {flaky:#}");
        assert!(flaky["failures"].as_u64().unwrap() > 0, "{flaky:#}");
        assert!(flaky["passes"].as_u64().unwrap() > 0, "{flaky:#}");
        // The reproduce line names this build's Gradle (no ./gradlew here)
        // with the run's own arguments (`-- --offline -Dtests.gf_marker=…`),
        // its task forced to run, and a failing seed.
        let reproduce = flaky["reproduce"].as_str().unwrap();
        let marker = format!("-Dtests.gf_marker={}", sandbox.marker);
        assert!(
            reproduce.starts_with(&format!(
                "gradle --offline {marker} :server:cleanTest :server:test --tests \
                 org.elasticsearch.flaky.AssertionFlakyTests.testFlakyAssertion -Dtests.seed="
            )),
            "{reproduce}"
        );
        assert_eq!(row(&report, class, "testStableAddition")["runs"], 40);
        assert!(report["summary"]["flakyTests"].as_u64().unwrap() >= 1);
        assert_eq!(report["summary"]["executions"], 120, "3 methods x 40");
        assert_eq!(report["files"]["read"], 1);
    }
    assert_eq!(run_dirs(build.path()).len(), 2, "one folder per run");
}

/// (b) a stable class is clean, with what its clean runs prove.
#[test]
fn local_reports_a_stable_class_clean_with_its_bound() {
    let sandbox = Sandbox::new("stable");
    let build = &sandbox.build;
    let scratch = tempfile::tempdir().unwrap();
    let (md, junit) = (scratch.path().join("r.md"), scratch.path().join("r.xml"));
    let out = run(&mut sandbox.local(
        &[
            "--iters",
            "20",
            "--report",
            md.to_str().unwrap(),
            "--junit",
            junit.to_str().unwrap(),
            "org.elasticsearch.common.StringsTests",
        ],
        &[],
    ));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    for method in ["testHasText", "testCapitalize", "testOutput"] {
        // One-sided 95% bound of 0 failures in 20: 1 - 0.05^(1/20) = 13.9%, as
        // `plan` states it (two digits, rounded up).
        let line = format!(
            "`org.elasticsearch.common.StringsTests.{method}`: 0/20 \u{21d2} failure rate < 14% at 95%"
        );
        assert!(stdout.contains(&line), "{line} in {stdout}");
    }
    assert_eq!(std::fs::read_to_string(&md).unwrap(), stdout);
    let kept = run_dirs(build.path())[0].join("report.md");
    assert_eq!(
        std::fs::read_to_string(kept).unwrap(),
        stdout,
        "the run folder keeps the report"
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains(">>> [1/1] unit tests (log: "), "{stderr}");
    // The command as planned, without gradle-flaky's own arguments (the log has them).
    assert!(
        stderr.contains(
            ">>> gradle -Dtests.iters=20 -Dflaky.repeat.jvms=7 -Dflaky.repeat.maxSlices=32 \
             '-Dtests.timeoutSuite=3600000!' :server:cleanTest :server:test --tests \
             org.elasticsearch.common.StringsTests -Dflaky.repeat.task.:server:test=randomized \
             -Dflaky.repeat.classes.:server:test=org.elasticsearch.common.StringsTests --continue \
             --offline"
        ),
        "{stderr}"
    );
    assert!(!stderr.contains("gradle-flaky.run="), "{stderr}");
    assert!(
        !stderr.contains('\x1b'),
        "no progress display or colour when stderr is not a terminal: {stderr}"
    );

    // A named test that does not exist stops everything before any run.
    let out = run(&mut sandbox.local(&["org.nope.NoSuchTests"], &[]));
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("not run: org.nope.NoSuchTests"), "{stderr}");
    assert_eq!(run_dirs(build.path()).len(), 1, "no run folder for it");
    let merged = std::fs::read_to_string(&junit).unwrap();
    assert_eq!(merged.matches("<testcase ").count(), 3, "{merged}");
    assert!(!stdout.contains("Partial"), "{stdout}");
}

/// (c) REST batches loop natively and keep every iteration, and (e) a Test task
/// that Gradle would find UP-TO-DATE still runs in every iteration.
#[test]
fn local_loops_rest_batches_and_keeps_every_iteration() {
    let sandbox = Sandbox::new("rest");
    let build = &sandbox.build;
    let suite =
        "modules/lang-painless/src/yamlRestTest/resources/rest-api-spec/test/painless/10_basic.yml";
    let java = "org.elasticsearch.test.apmintegration.TracesApmIT";
    // Run both test tasks by hand first, with the same inputs as the planned
    // commands: unforced, Gradle would now skip them as UP-TO-DATE.
    for args in [
        &[
            ":modules:lang-painless:yamlRestTest",
            "-Dtests.rest.suite=painless/10_basic",
        ][..],
        &[
            ":test:external-modules:test-apm-integration:javaRestTest",
            "--tests",
            java,
        ][..],
    ] {
        let by_hand = run(sandbox
            .home
            .gradle()
            .args(["--offline", "-q"])
            .args(args)
            .current_dir(build.path()));
        assert!(by_hand.status.success(), "{}", text(&by_hand));
    }
    let daemon = sandbox.read_layout_first();
    let out = run(&mut sandbox.local(&["--rest-iters", "2", "--format", "json", suite, java], &[]));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert_eq!(sandbox.survivors(), Vec::<String>::new());
    sandbox.assert_daemon_kept(daemon);
    let report = json_report(&out);
    let yaml_runner = "org.elasticsearch.painless.LangPainlessClientYamlTestSuiteIT";
    for section in [
        "Basic painless script",
        "Script with params",
        "Script returning null",
    ] {
        let method = format!("test {{yaml=painless/10_basic/{section}}}");
        assert_eq!(row(&report, yaml_runner, &method)["runs"], 2);
    }
    assert_eq!(row(&report, java, "testTracesExported")["runs"], 2);
    assert_eq!(report["summary"]["executions"], 2 * (3 + 1));

    let runs = run_dirs(build.path());
    let kept = files_under(&runs[0]);
    let reports: Vec<&String> = kept.iter().filter(|f| f.ends_with(".xml")).collect();
    let expected: Vec<String> = [
        ("batch-1", "test/external-modules/apm-integration/build/test-results/javaRestTest/TEST-org.elasticsearch.test.apmintegration.TracesApmIT.xml"),
        ("batch-2", "modules/lang-painless/build/test-results/yamlRestTest/TEST-org.elasticsearch.painless.LangPainlessClientYamlTestSuiteIT.xml"),
    ]
    .iter()
    .flat_map(|(batch, path)| (1..=2).map(move |i| format!("{batch}/flakiness-iters/iter-{i}/{path}")))
    .collect();
    assert_eq!(reports, expected.iter().collect::<Vec<_>>());
    assert!(kept.contains(&"batch-1.log".to_string()), "{kept:?}");
    let logs: Vec<String> = ["batch-1.log", "batch-2.log"]
        .iter()
        .map(|l| std::fs::read_to_string(runs[0].join(l)).unwrap())
        .collect();
    assert_eq!(logs[1].matches("--- Iteration ").count(), 2, "{}", logs[1]);
    let starts: usize = logs
        .iter()
        .map(|l| l.matches("Starting a Gradle Daemon").count())
        .sum();
    assert_eq!(
        starts, 0,
        "all four invocations ran on the user's daemon, warm from the builds by hand"
    );
}

/// (e) a filter that matches no test and (f) a suite timeout: neither is a
/// pass nor a real failure; both give exit 3, each named for what it is.
/// With --verbose, Gradle's output goes to stderr and stdout stays the report.
#[test]
fn local_without_a_verdict_exits_3_naming_why() {
    let sandbox = Sandbox::new("no-verdict");
    let out = run(&mut sandbox.local(
        &[
            "--verbose",
            "--iters",
            "3",
            "--suite-timeout",
            "2s",
            "--format",
            "json",
            // A word of the source (a helper it calls), so it passes the
            // method check, but no test of that name exists.
            "org.elasticsearch.common.StringsTests#hasText",
            "org.elasticsearch.xpack.ml.slow.SuiteTimeoutTests",
        ],
        // Every execution of testSometimesSlow sleeps 3 s: past the 2 s suite timeout.
        &["-Dtests.fixture.probability=1"],
    ));
    assert_eq!(out.status.code(), Some(3), "{}", text(&out));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(
            "batch 1 (unit tests): no tests executed: the --tests filter matched no test"
        ),
        "{stderr}"
    );
    assert!(
        stderr.contains("batch 2 (slowTest tests): suite timeout"),
        "{stderr}"
    );
    // Gradle's `> ` and its message may be split by its other stream's lines.
    assert!(
        stderr.contains("No tests found for given includes"),
        "--verbose streams Gradle's output to stderr: {stderr}"
    );
    let report = json_report(&out);
    assert_eq!(
        report["summary"]["failed"], 0,
        "a timeout is not a real failure"
    );
    assert!(
        report["summary"]["suiteTimeouts"].as_u64().unwrap() > 0,
        "{report:#}"
    );
}

/// A plain JUnit 4 class in this randomizedtesting build: `-Dtests.iters`
/// means nothing to it, but gradle-flaky's runner repeats a class that does
/// not repeat itself, over the same fresh JVMs: one Gradle invocation. Where
/// the runner cannot be compiled (a jar on the task's classpath the JDK's
/// compiler cannot read), the task runs as the build runs it: the randomized
/// class repeats by `-Dtests.iters`, the plain one once, and the batch's
/// first run shows that: the plain class goes on alone with Gradle runs until
/// it has run as often as planned; the class that repeated runs no more.
#[test]
fn an_in_jvm_batch_that_ignored_tests_iters_goes_on_with_gradle_runs() {
    let build = fixture_copy();
    std::fs::write(
        build
            .path()
            .join("server/src/test/java/org/elasticsearch/PlainJUnitTests.java"),
        "package org.elasticsearch;\n\
         import org.junit.Test;\n\
         public class PlainJUnitTests {\n\
         @Test public void testPlain() { org.junit.Assert.assertEquals(2, 1 + 1); }\n}\n",
    )
    .unwrap();
    let plain = "org.elasticsearch.PlainJUnitTests";
    let strings = "org.elasticsearch.common.StringsTests";
    let args = ["--iters", "3", "--format", "json", plain, strings];
    let out = local(build.path(), &args, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("1 of 1 batch(es), 1 Gradle invocation(s)"),
        "{stderr}"
    );
    let report = json_report(&out);
    for (class, method) in [(plain, "testPlain"), (strings, "testHasText")] {
        let t = row(&report, class, method);
        assert_eq!(t["runs"], 3, "{t:#}");
        assert_eq!(t["repeatedBy"], serde_json::json!(["tests-iters"]), "{t:#}");
    }

    let server = build.path().join("server");
    std::fs::write(server.join("broken.jar"), "").unwrap();
    let mut script = std::fs::read_to_string(server.join("build.gradle")).unwrap();
    script.push_str("\ndependencies { testRuntime files('broken.jar') }\n");
    std::fs::write(server.join("build.gradle"), script).unwrap();
    let out = local(build.path(), &args, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(
            "the first run executed a class's tests once each: -Dtests.iters was ignored; \
             2 more Gradle runs"
        ),
        "{stderr}"
    );
    assert!(
        stderr.contains("1 of 1 batch(es), 3 Gradle invocation(s)"),
        "{stderr}"
    );
    let report = json_report(&out);
    let t = row(&report, plain, "testPlain");
    assert_eq!(
        (&t["runs"], &t["plannedRuns"]),
        (&3.into(), &3.into()),
        "{t:#}"
    );
    // The randomized class ran its 3 in the first run, and no more.
    assert_eq!(row(&report, strings, "testHasText")["runs"], 3);
    assert!(report.get("notExecuted").is_none(), "{report:#}");
}

/// The case: a class the suite timeout cuts on its first execution
/// ran its test once, which says nothing of `-Dtests.iters`. The batch is not
/// taken for one that ignored it: no Gradle runs follow, and the other class
/// runs as often as planned, never more (it ran 59 times for 30 when the
/// whole batch fell back).
#[test]
fn a_class_the_suite_timeout_cuts_is_no_reason_for_gradle_runs() {
    let build = fixture_copy();
    add_hanging_test(build.path());
    let hang = "org.elasticsearch.HangTests";
    let strings = "org.elasticsearch.common.StringsTests";
    let out = local(
        build.path(),
        &[
            "--iters",
            "30",
            "--suite-timeout",
            "15s",
            "--format",
            "json",
            hang,
            strings,
        ],
        &[],
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("more Gradle run"), "{stderr}");
    assert!(
        stderr.contains("1 of 1 batch(es), 1 Gradle invocation(s)"),
        "{stderr}"
    );
    let report = json_report(&out);
    assert_eq!(
        row(&report, strings, "testHasText")["runs"],
        30,
        "{report:#}"
    );
    assert!(
        row(&report, hang, "testHang")["suiteTimeouts"].as_u64() >= Some(1),
        "{report:#}"
    );
}

/// A reproduce line runs its test every time it is pasted: the line forces
/// the Test task (`clean<Task>` before it on this Gradle 4.4.1), so the second
/// paste is no `UP-TO-DATE` pass that never ran.
#[test]
fn a_reproduce_line_pasted_twice_runs_its_test_twice() {
    let build = fixture_copy();
    let flaky = "org.elasticsearch.flaky.AssertionFlakyTests";
    let out = local(
        build.path(),
        &[
            "--iters",
            "2",
            "--format",
            "json",
            &format!("{flaky}#testFlakyAssertion"),
        ],
        &["-Dtests.fixture.probability=1"],
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let report = json_report(&out);
    let line = row(&report, flaky, "testFlakyAssertion")["reproduce"]
        .as_str()
        .expect("a reproduce line")
        .to_string();
    assert!(
        line.contains(":server:cleanTest :server:test --tests"),
        "{line}"
    );
    let xml = build
        .path()
        .join(format!("server/build/test-results/test/TEST-{flaky}.xml"));
    for paste in 1..=2 {
        let _ = std::fs::remove_file(&xml);
        let ran = run(in_suite_home(&mut Command::new("sh"))
            .args(["-c", &line])
            .current_dir(build.path()));
        assert_eq!(ran.status.code(), Some(1), "paste {paste}: {}", text(&ran));
        assert!(
            testcases(&xml) >= 1,
            "paste {paste} ran the test: {}",
            text(&ran)
        );
    }
}

/// A test class that sleeps ten minutes, added to the private copy of the build.
pub(crate) fn add_hanging_test(build: &Path) {
    let dir = build.join("server/src/test/java/org/elasticsearch");
    std::fs::write(
        dir.join("HangTests.java"),
        "package org.elasticsearch;\n\
         import org.elasticsearch.test.ESTestCase;\n\
         import org.junit.Test;\n\
         public class HangTests extends ESTestCase {\n\
         @Test public void testHang() throws Exception { Thread.sleep(600_000); }\n}\n",
    )
    .unwrap();
}

/// Reads the layout now, so that the marked `local` run that follows starts no
/// Gradle but its batches (reading the layout may leave a shared Gradle daemon
/// running, which would carry the marker). Without a daemon: this build's
/// JVM arguments may be its own, and no daemon of them should outlive the test.
pub(crate) fn read_layout_first(build: &Path) {
    crate::common::layout_read_once(build, &["gradle"], || ask_gradle_for_the_layout(build));
}

/// Reads the layout from Gradle, which also builds buildSrc: for a test whose
/// first batch must spend its time limit in a test, not in compiling.
fn ask_gradle_for_the_layout(build: &Path) {
    let out = run(gradle_flaky()
        .env("GRADLE_OPTS", "-Dorg.gradle.daemon=false")
        .arg("--project-dir")
        .arg(build)
        .arg("layout"));
    assert!(out.status.success(), "{}", text(&out));
}

/// (g) a batch past --batch-timeout is stopped (on the user's daemon: its
/// client is interrupted and its test JVM stopped, the daemon kept), reported
/// as timed out, and the next batch still runs, on the same warm daemon.
#[test]
fn local_stops_a_batch_past_its_time_limit_whole_and_goes_on() {
    let sandbox = Sandbox::new("batch-timeout");
    add_hanging_test(sandbox.path());
    let daemon = sandbox.read_layout_first();
    let out = run(&mut sandbox.local(
        &[
            "--iters",
            "5",
            "--cap",
            "unit=1",
            "--batch-timeout",
            "40s",
            "--format",
            "json",
            "org.elasticsearch.HangTests",
            "org.elasticsearch.common.StringsTests",
        ],
        &[],
    ));
    let left = sandbox.survivors();
    assert!(
        left.is_empty(),
        "processes of the batches survived: {left:#?}"
    );
    sandbox.assert_daemon_kept(daemon);
    assert_eq!(out.status.code(), Some(3), "{}", text(&out));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("batch 1 (unit tests): timed out (limit 40s); its processes were stopped"),
        "{stderr}"
    );
    // Its class's iterations over fresh JVMs: however many of them were running.
    assert!(
        stderr.contains("the build was cancelled: stopped ")
            && stderr.contains(&format!(
                " test JVM process(es) of this build on the Gradle daemon (pid {daemon})"
            )),
        "{stderr}"
    );
    let report = json_report(&out);
    assert_eq!(
        row(
            &report,
            "org.elasticsearch.common.StringsTests",
            "testHasText"
        )["runs"],
        5,
        "the batch after the timeout ran"
    );
    // The timed-out batch ran its test fewer times than planned, and the report says why.
    let not_executed = &report["notExecuted"];
    assert_eq!(not_executed.as_array().map(Vec::len), Some(1), "{report:#}");
    assert_eq!(not_executed[0]["test"], "org.elasticsearch.HangTests");
    assert_eq!(not_executed[0]["plannedRuns"], 5);
    let reason = not_executed[0]["reason"].as_str().unwrap();
    assert!(
        reason.starts_with("batch 1 (unit tests): timed out (limit 40s)"),
        "{reason}"
    );
    let runs = run_dirs(sandbox.path());
    for batch in ["batch-1.log", "batch-2.log"] {
        let log = std::fs::read_to_string(runs[0].join(batch)).unwrap();
        assert!(
            !log.contains("Starting a Gradle Daemon"),
            "{batch} ran on the user's warm daemon: {log}"
        );
    }
}

/// Waits (up to ten minutes: a loaded CI machine starts a daemon, compiles
/// and forks a worker slowly) until `ready` holds and a test worker of the
/// build marked `marker` runs.
pub(crate) fn wait_for_test_worker(marker: &str, ready: impl Fn() -> bool) {
    let deadline = std::time::Instant::now() + Duration::from_secs(600);
    while std::time::Instant::now() < deadline {
        let worker = || {
            processes_with(marker)
                .iter()
                .any(|p| p.contains("GradleWorkerMain"))
        };
        if ready() && worker() {
            return;
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    panic!("no test worker started: {:#?}", processes_with(marker));
}

/// Presses Ctrl-C on `child` (a gradle-flaky whose processes carry
/// `marker`) and returns its output, once it has exited 130 leaving no
/// process behind.
pub(crate) fn interrupt(child: std::process::Child, marker: &str) -> Output {
    // SAFETY: kill(2) on the pid of our own child.
    unsafe {
        libc::kill(child.id() as libc::pid_t, libc::SIGINT);
    }
    let out = child.wait_with_output().unwrap();
    let left = processes_with(marker);
    assert!(
        left.is_empty(),
        "processes of the build survived: {left:#?}"
    );
    assert_eq!(out.status.code(), Some(130), "{}", text(&out));
    out
}

/// Whether the newest run of `build` has reached batch `n`.
pub(crate) fn in_batch(build: &Path, n: usize) -> bool {
    let runs = build.join(".gradle/gradle-flaky/runs");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&runs)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .collect();
    dirs.sort();
    dirs.last()
        .is_some_and(|run| run.join(format!("batch-{n}.log")).exists())
}

pub(crate) fn signal(pid: u32, sig: libc::c_int) {
    // SAFETY: kill(2) on a process this test started.
    unsafe {
        libc::kill(pid as libc::pid_t, sig);
    }
}

/// Isolated (`--isolate`), Ctrl-C stops the whole build (here run with
/// --no-daemon, so in a single-use daemon that calls setsid, and its test
/// worker), also when a second signal follows at once (a terminal's double
/// Ctrl-C; SIGTERM after SIGINT); then the report of what ran is printed,
/// marked partial, and the exit code is 130. The layout is read isolated
/// too: without a daemon that would outlive it.
#[test]
fn ctrl_c_stops_the_whole_isolated_build_and_prints_a_partial_report() {
    let sandbox = Sandbox::new("ctrl-c-isolated");
    force_single_use_daemon(sandbox.path());
    add_hanging_test(sandbox.path());
    let out = run(gradle_flaky()
        .env("GRADLE_USER_HOME", sandbox.home.path())
        .args(["--isolate", "--project-dir"])
        .arg(sandbox.path())
        .arg("layout"));
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(
        sandbox.home.daemons(),
        Vec::<u32>::new(),
        "an isolated layout read leaves no daemon"
    );
    let child = sandbox
        .local(
            &[
                "--isolate",
                "--iters",
                "5",
                "--cap",
                "unit=1",
                "--format",
                "json",
                "org.elasticsearch.common.StringsTests",
                "org.elasticsearch.HangTests",
            ],
            &["--no-daemon"],
        )
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Interrupt the second batch, the hanging one.
    wait_for_test_worker(&sandbox.marker, || in_batch(sandbox.path(), 2));
    signal(child.id(), libc::SIGINT);
    std::thread::sleep(Duration::from_millis(30));
    signal(child.id(), libc::SIGTERM);
    let out = child.wait_with_output().unwrap();
    let left = sandbox.survivors();
    assert!(
        left.is_empty(),
        "processes of the build survived: {left:#?}"
    );
    assert_eq!(sandbox.home.daemons(), Vec::<u32>::new());
    assert_eq!(out.status.code(), Some(130), "{}", text(&out));
    let report = json_report(&out);
    assert_eq!(report["partial"], true);
    let first = row(
        &report,
        "org.elasticsearch.common.StringsTests",
        "testHasText",
    );
    assert_eq!(first["runs"], 5, "the batch that ran before is counted");
    let log = std::fs::read_to_string(run_dirs(sandbox.path())[0].join("batch-2.log")).unwrap();
    assert!(
        log.contains("a new JVM will be forked"),
        "the hard case (a single-use daemon) was exercised: {log}"
    );
}
