//! Integration tests: plan. Snapshots of whole plans, the reference's command
//! checklist (`plan/checklist.rs`), shell round trips (`plan/shell.rs`), the CLI's
//! option errors, and forced re-execution on real Gradle.

mod checklist;
mod shell;

use crate::common::{
    fixture_copy, git, gradle_flaky, in_suite_home, run, text, use_recorded_layout,
};
use gradle_flaky::cli::{BatchingArgs, PlanFormat};
use gradle_flaky::commands::options::{batching, Batching};
use gradle_flaky::commands::plan::render_plan;
use gradle_flaky::domain::{ClassifiedTest, Origin, ReasonCode, SkippedFile, TestKind, Unresolved};
use gradle_flaky::plan::{GradleVersion, PlanContext};
use gradle_flaky::select::Selection;
use std::path::Path;
use std::process::Command;

// ---- building selections by hand -------------------------------------------------------------

/// A test of `kind` in `project`, whose task is named after its source set.
pub fn test(project: &str, kind: TestKind, class: Option<&str>) -> ClassifiedTest {
    let source_set = match &kind {
        TestKind::Unit => "test".to_string(),
        TestKind::InternalClusterTest => "internalClusterTest".into(),
        TestKind::JavaRestTest => "javaRestTest".into(),
        TestKind::Other(name) => name.clone(),
        _ => "yamlRestTest".into(),
    };
    ClassifiedTest {
        project: project.into(),
        task: format!("{project}:{source_set}"),
        source_set,
        kind,
        class: class.map(Into::into),
        method: None,
        yaml_suite: None,
        origin: Origin::Changed,
        nested_classes: false,
        is_suite: false,
        via_suite: None,
        mute: None,
    }
}

pub fn unit(project: &str, class: &str) -> ClassifiedTest {
    test(project, TestKind::Unit, Some(class))
}

pub fn method(mut t: ClassifiedTest, name: &str) -> ClassifiedTest {
    t.method = Some(name.into());
    t
}

pub fn from(mut t: ClassifiedTest, origin: Origin) -> ClassifiedTest {
    t.origin = origin;
    t
}

pub fn runner(project: &str) -> ClassifiedTest {
    test(project, TestKind::YamlRestTestRunner, None)
}

pub fn suite(project: &str, path: &str) -> ClassifiedTest {
    let mut t = test(project, TestKind::YamlRestTestSuite, None);
    t.yaml_suite = Some(path.into());
    t
}

/// A YAML case `Runner.test {yaml=name}`.
pub fn case(project: &str, runner: &str, name: &str) -> ClassifiedTest {
    method(
        test(project, TestKind::YamlRestTestCase, Some(runner)),
        &format!("test {{yaml={name}}}"),
    )
}

pub fn ctx(gradle: &str, version: Option<&str>) -> PlanContext {
    PlanContext {
        gradle: vec![gradle.into()],
        gradle_version: version.and_then(GradleVersion::parse),
        extra_args: vec![],
        tasks: Default::default(),
        start_on_gradle_runs: Default::default(),
        fresh_jvm_each: Default::default(),
        commit: None,
    }
}

fn default_batching() -> Batching {
    batching(&BatchingArgs {
        confidence: 0.95,
        ..BatchingArgs::default()
    })
    .unwrap()
}

// ---- snapshots -------------------------------------------------------------------------------

/// Snapshots the text and the JSON plan of a selection.
fn snapshot(name: &str, selection: &Selection, batching: &Batching, ctx: &PlanContext) {
    let text = render_plan(selection, batching, ctx, PlanFormat::Text);
    let json = render_plan(selection, batching, ctx, PlanFormat::Json);
    let json: serde_json::Value = serde_json::from_str(&json).expect("plan JSON parses");
    insta::assert_snapshot!(format!("{name}__text"), text);
    insta::assert_json_snapshot!(format!("{name}__json"), json);
}

fn selected(tests: Vec<ClassifiedTest>) -> Selection {
    Selection {
        tests,
        ..Selection::default()
    }
}

const ES: &str = "8.10.2";

/// Snapshots a plan made with the defaults for an Elasticsearch-like build.
fn snapshot_es(name: &str, tests: Vec<ClassifiedTest>) {
    snapshot(
        name,
        &selected(tests),
        &default_batching(),
        &ctx("./gradlew", Some(ES)),
    );
}

#[test]
fn snapshot_unit_tests() {
    let tests = vec![
        unit(":server", "org.elasticsearch.common.StringsTests"),
        from(
            method(
                unit(":server", "org.elasticsearch.flaky.AssertionFlakyTests"),
                "testFlakyAssertion",
            ),
            Origin::Unmuted,
        ),
        from(
            unit(
                ":x-pack:plugin:ml",
                "org.elasticsearch.xpack.ml.MlConfigTests",
            ),
            Origin::Explicit,
        ),
    ];
    snapshot_es("kind_unit", tests);
}

#[test]
fn snapshot_internal_cluster_tests() {
    let ict = |c| test(":server", TestKind::InternalClusterTest, Some(c));
    let tests = vec![
        ict("org.elasticsearch.cluster.ClusterHealthIT"),
        method(
            ict("org.elasticsearch.search.SearchFlakyIT"),
            "testFlakySearch",
        ),
    ];
    snapshot_es("kind_internal_cluster_test", tests);
}

#[test]
fn snapshot_java_rest_tests() {
    let apm = ":test:external-modules:test-apm-integration";
    let tests = vec![
        test(
            apm,
            TestKind::JavaRestTest,
            Some("org.elasticsearch.test.apmintegration.MetricsApmIT"),
        ),
        test(
            apm,
            TestKind::JavaRestTest,
            Some("org.elasticsearch.test.apmintegration.TracesApmIT"),
        ),
    ];
    snapshot_es("kind_java_rest_test", tests);
}

#[test]
fn snapshot_yaml_runner() {
    snapshot_es("kind_yaml_runner", vec![runner(":modules:lang-painless")]);
}

#[test]
fn snapshot_yaml_suites() {
    let tests = vec![
        suite(":modules:lang-painless", "painless_execute/20_with,comma"),
        suite(":modules:lang-painless", "painless/10_basic"),
        suite(":x-pack:plugin:ml", "10_ml_info"),
    ];
    snapshot_es("kind_yaml_suite", tests);
}

#[test]
fn snapshot_yaml_cases() {
    let tests = vec![case(
        ":modules:lang-painless",
        "org.elasticsearch.painless.LangPainlessClientYamlTestSuiteIT",
        "painless/30_flaky/Sometimes fails",
    )];
    snapshot_es("kind_yaml_case", tests);
}

#[test]
fn snapshot_custom_kind() {
    let tests = vec![test(
        ":x-pack:plugin:ml",
        TestKind::Other("slowTest".into()),
        Some("org.elasticsearch.xpack.ml.slow.SuiteTimeoutTests"),
    )];
    snapshot_es("kind_custom", tests);
}

/// Duplicates across origins, a method under its selected class, YAML cases
/// that differ only by runner, suites that collapse, on Gradle 4.4.1.
#[test]
fn snapshot_mixed_dedupe_and_collapse() {
    let painless = ":modules:lang-painless";
    let tests = vec![
        unit(":server", "org.elasticsearch.common.StringsTests"),
        from(
            unit(":server", "org.elasticsearch.common.StringsTests"),
            Origin::Unmuted,
        ),
        from(
            method(
                unit(":server", "org.elasticsearch.common.StringsTests"),
                "testHasText",
            ),
            Origin::Explicit,
        ),
        suite(painless, "painless/10_basic"),
        suite(painless, "painless/20_scriptfield"),
        suite(painless, "painless_execute/10_execute"),
        suite(painless, "painless/10_basic"),
        case(
            painless,
            "org.elasticsearch.painless.LangPainlessClientYamlTestSuiteIT",
            "painless/30_flaky/Sometimes fails",
        ),
        case(
            painless,
            "org.elasticsearch.painless.OtherYamlIT",
            "painless/30_flaky/Sometimes fails",
        ),
    ];
    snapshot(
        "mixed_dedupe_and_collapse",
        &selected(tests),
        &default_batching(),
        &ctx("gradle", Some("4.4.1")),
    );
}

/// One runner per task, and a runner's task makes its suites and cases redundant.
#[test]
fn snapshot_mixed_one_runner() {
    let painless = ":modules:lang-painless";
    let mut named = runner(painless);
    named.class = Some("org.elasticsearch.painless.LangPainlessClientYamlTestSuiteIT".into());
    let tests = vec![
        suite(painless, "painless/10_basic"),
        runner(painless),
        named,
        case(
            painless,
            "org.elasticsearch.painless.LangPainlessClientYamlTestSuiteIT",
            "painless/30_flaky/Sometimes fails",
        ),
        from(runner(":x-pack:plugin:ml"), Origin::Unmuted),
        suite(":x-pack:plugin:ml", "ml/10_anomaly_detectors"),
        suite(":x-pack:plugin:ml", "ml/20_datafeeds"),
    ];
    snapshot_es("mixed_one_runner", tests);
}

/// Caps, custom kinds after the reference kinds, `--detect-rate`, extra Gradle
/// args, unresolved inputs and selection notes, with an unknown Gradle version.
#[test]
fn snapshot_mixed_caps_custom_kinds_and_detect_rate() {
    let batching = batching(&BatchingArgs {
        caps: vec!["unit=2".into(), "slowTest=1".into()],
        detect_rate: Some("2%".into()),
        confidence: 0.95,
        ..BatchingArgs::default()
    })
    .unwrap();
    let slow = |c| {
        test(
            ":x-pack:plugin:ml",
            TestKind::Other("slowTest".into()),
            Some(c),
        )
    };
    let tests = vec![
        slow("org.elasticsearch.xpack.ml.slow.SuiteTimeoutTests"),
        unit(":server", "org.elasticsearch.common.StringsTests"),
        unit(":server", "org.elasticsearch.flaky.AssertionFlakyTests"),
        unit(":server", "org.elasticsearch.flaky.ExceptionFlakyTests"),
        unit(
            ":x-pack:plugin:ml",
            "org.elasticsearch.xpack.ml.MlConfigTests",
        ),
        unit(
            ":test:framework",
            "org.elasticsearch.test.GroovyStableTests",
        ),
        test(
            ":qa:rolling-upgrade",
            TestKind::JavaRestTest,
            Some("org.elasticsearch.upgrades.IndexingIT"),
        ),
        slow("org.elasticsearch.xpack.ml.slow.OtherSlowTests"),
    ];
    let selection = Selection {
        tests,
        unresolved: vec![
            Unresolved {
                input: "org.elasticsearch.Missing".into(),
                reason_code: ReasonCode::NoSuchClass,
                reason: "no test class of that name in any source set".into(),
                origin: Origin::Explicit,
            },
            Unresolved {
                input: "org.elasticsearch.painless.AbstractPainlessTests".into(),
                reason_code: ReasonCode::AbstractNoConcreteSubclass,
                reason: "abstract class: no concrete subclass runs it".into(),
                origin: Origin::Changed,
            },
        ],
        skipped: vec![SkippedFile {
            path: "server/src/test/java/org/elasticsearch/TestUtils.java".into(),
            reason: "`TestUtils` declares no tests and is not named like a test class".into(),
        }],
        notes: vec!["the layout could not be read: path rules stood in for it".into()],
        ..Selection::default()
    };
    let mut ctx = ctx("gradle", None);
    ctx.extra_args = vec!["--offline".into(), "-Dtests.seed=ABC".into()];
    snapshot(
        "mixed_caps_custom_kinds_and_detect_rate",
        &selection,
        &batching,
        &ctx,
    );
}

/// Names from a branch are data: the JSON keeps them exactly, the text escapes
/// control characters, every command quotes them.
#[test]
fn snapshot_hostile_names() {
    let tests = vec![
        method(
            unit(":server", "org.x.$(touch pwned)Tests"),
            "test `id` \"q\" 'it's'\nline2",
        ),
        suite(":modules:lang-painless", "dir with space/a,b \u{1b}[31mred"),
        case(
            ":modules:lang-painless",
            "org.x.YamlIT",
            "api/é/\"quoted\" $HOME",
        ),
    ];
    snapshot_es("hostile_names", tests);
}

#[test]
fn snapshot_nothing_selected() {
    let selection = Selection {
        unresolved: vec![Unresolved {
            input: "org.elasticsearch.Missing".into(),
            reason_code: ReasonCode::NoSuchClass,
            reason: "no test class of that name".into(),
            origin: Origin::Explicit,
        }],
        ..Selection::default()
    };
    snapshot(
        "nothing_selected",
        &selection,
        &default_batching(),
        &ctx("gradle", None),
    );
    let shell = render_plan(
        &selection,
        &default_batching(),
        &ctx("gradle", None),
        PlanFormat::Shell,
    );
    assert_eq!(shell, "");
}

// ---- the binary: option errors name the flag and exit 2 --------------------------------------

#[test]
fn bad_batching_options_exit_2_naming_the_flag() {
    let dir = tempfile::tempdir().unwrap();
    let cases: [(&[&str], &str); 4] = [
        (
            &["--detect-rate", "2"],
            "--detect-rate: `2` is not between 0 and 100%",
        ),
        (&["--cap", "unit=0"], "--cap: `unit=0`"),
        (
            &["--detect-rate", "2%", "--confidence", "95"],
            "--confidence: `95`",
        ),
        (
            &["--iters", "3", "--detect-rate", "1%"],
            "--iters and --detect-rate",
        ),
    ];
    for (args, message) in cases {
        let out = run(gradle_flaky()
            .arg("--project-dir")
            .arg(dir.path())
            .arg("plan")
            .args(args)
            .arg("org.example.FooTests"));
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", text(&out));
        assert!(
            String::from_utf8_lossy(&out.stderr).contains(message),
            "{args:?}: {}",
            text(&out)
        );
    }
    let out = run(gradle_flaky().args(["plan", "--iters", "3x", "org.example.FooTests"]));
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("--iters"),
        "{}",
        text(&out)
    );
}

/// A branch without test changes: `plan` says nothing is selected and exits 0,
/// in every format (JSON stays parseable, shell prints no command).
#[test]
fn nothing_selected_says_so_and_exits_0() {
    let fixture = fixture_copy();
    let dir = fixture.path();
    git(dir, &["init", "-q", "-b", "main"]);
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-qm", "base"]);
    use_recorded_layout(dir, "es-mini", &["gradle"]);
    let plan = |format: &str| {
        run(gradle_flaky().arg("--project-dir").arg(dir).args([
            "plan",
            "--changed",
            "--base",
            "main",
            "--format",
            format,
        ]))
    };
    let out = plan("text");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert!(
        String::from_utf8_lossy(&out.stdout).starts_with("Nothing selected"),
        "{}",
        text(&out)
    );
    let out = plan("json");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("plan JSON");
    assert_eq!(json["commands"], serde_json::json!([]));
    let out = plan("shell");
    assert_eq!(
        (out.status.code(), out.stdout.as_slice()),
        (Some(0), &b""[..]),
        "{}",
        text(&out)
    );
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("nothing selected"),
        "{}",
        text(&out)
    );
}

// ---- real Gradle: the planned command re-runs an up-to-date Test task --------------------------

/// Runs argv (program first) in `dir`, returning its stdout; panics with the output on failure.
fn gradle(dir: &Path, argv: &[String]) -> String {
    let mut cmd = Command::new(&argv[0]);
    let out = run(in_suite_home(&mut cmd).args(&argv[1..]).current_dir(dir));
    assert!(out.status.success(), "{argv:?}: {}", text(&out));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Where Gradle's plain console reports `task`, and what it said about it
/// (`UP-TO-DATE`, or "" when it ran): `:t UP-TO-DATE` on 4.x, `> Task :t` on newer versions.
fn task_line<'a>(out: &'a str, task: &str) -> Option<(usize, &'a str)> {
    out.lines().enumerate().find_map(|(i, l)| {
        let l = l.trim().trim_start_matches("> Task ");
        let status = l.strip_prefix(task)?;
        (status.is_empty() || status.starts_with(' ')).then(|| (i, status.trim()))
    })
}

/// End to end on real Gradle 4.4.1, which has no `--rerun`: `plan` reads the
/// version from the layout and puts `:server:cleanTest` before `:server:test`, so
/// a second identical invocation runs the tests again and rewrites the XML, where
/// the same command without the clean task is UP-TO-DATE. A named test that does
/// not exist is listed, and makes `plan` exit 2 after printing the plan.
#[test]
fn planned_command_reruns_tests_on_gradle_4_4_1() {
    let fixture = fixture_copy();
    let dir = fixture.path();
    let out = run(gradle_flaky().arg("--project-dir").arg(dir).args([
        "plan",
        "--format",
        "json",
        "--unit-iters",
        "2",
        "org.elasticsearch.common.StringsTests",
        "org.elasticsearch.common.MissingTests",
        "--",
        "--offline",
        "--console=plain",
    ]));
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("org.elasticsearch.common.MissingTests"),
        "{}",
        text(&out)
    );
    let plan: serde_json::Value = serde_json::from_slice(&out.stdout).expect("plan JSON");
    assert_eq!(
        plan["unresolved"][0]["input"],
        "org.elasticsearch.common.MissingTests"
    );
    assert_eq!(
        plan["commands"].as_array().map(Vec::len),
        Some(1),
        "{plan:#}"
    );
    let argv: Vec<String> = serde_json::from_value(plan["commands"][0]["argv"].clone()).unwrap();
    let at = |s: &str| argv.iter().position(|a| a == s);
    assert!(
        at(":server:cleanTest") < at(":server:test") && at(":server:cleanTest").is_some(),
        "{argv:?}"
    );
    assert!(
        !argv.contains(&"--rerun".to_string()),
        "Gradle 4.4.1 rejects --rerun: {argv:?}"
    );

    let xml =
        dir.join("server/build/test-results/test/TEST-org.elasticsearch.common.StringsTests.xml");
    let mut seen = Vec::new();
    for round in 1..=2 {
        let out = gradle(dir, &argv);
        let clean = task_line(&out, ":server:cleanTest");
        let test = task_line(&out, ":server:test");
        assert!(
            clean.is_some() && clean < test,
            "round {round}: clean must run before test:\n{out}"
        );
        assert_eq!(
            test.map(|(_, status)| status),
            Some(""),
            "round {round}: the tests ran:\n{out}"
        );
        let modified = std::fs::metadata(&xml).and_then(|m| m.modified());
        let modified =
            modified.unwrap_or_else(|e| panic!("round {round}: no XML at {xml:?}: {e}\n{out}"));
        seen.push((modified, std::fs::read_to_string(&xml).unwrap()));
    }
    assert!(seen[1].0 > seen[0].0, "the second run rewrote the XML");
    assert!(seen[1].1.contains("testcase"), "{}", seen[1].1);

    // The control: without the clean task the same invocation is up to date and runs nothing.
    let bare: Vec<String> = argv
        .iter()
        .filter(|a| *a != ":server:cleanTest")
        .cloned()
        .collect();
    let out = gradle(dir, &bare);
    assert_eq!(
        task_line(&out, ":server:test").map(|(_, s)| s),
        Some("UP-TO-DATE"),
        "{out}"
    );
    let after = std::fs::metadata(&xml).unwrap().modified().unwrap();
    assert_eq!(
        after, seen[1].0,
        "an up-to-date task leaves the XML as it was"
    );
}
