//! The checklist of the reference tool's command tests (commands.test.ts), on argv.
//!
//! Deliberate differences, each marked `DIFFERENCE` where it shows:
//! - argv elements are joined with spaces here only to compare with the
//!   reference strings; a YAML case filter is ONE element, without the
//!   reference's literal double quotes;
//! - every command ends with `--continue`, so one failing task does not stop
//!   the other tasks of the batch;
//! - REST commands have no `repeat-rest-test.sh N` prefix: `restLoops` says how
//!   many times the runner invokes the command (natively, XML kept per loop);
//! - YAML suites use the plain `-Dtests.rest.suite` with at most one task per
//!   command (the per-task property only works on newer runners);
//! - forcing: `--rerun` after each task (as the reference) only from Gradle 7.6;
//!   older or unknown versions get `clean<Task>` before each task instead, for
//!   every kind;
//! - reduction drops what another selected test covers: a YAML runner covers
//!   that task's suites and cases (the reference ran both); YAML cases are keyed
//!   by runner class too (the reference merged cases of different runners); a
//!   runner batch above cap 1 keeps every runner (the reference kept the first);
//! - in-JVM batches (`-Dtests.iters`, the unit and internal-cluster kinds
//!   here) also name gradle-flaky's helper and the classes it loads
//!   (`-Dflaky.repeat.task|classes.<task>`) and spread each class's
//!   iterations over fresh test JVMs (`-Dflaky.repeat.jvms`,
//!   `-Dflaky.repeat.maxSlices`): one JVM per class samples a test's first
//!   execution (what CI runs) once. Its init script moves the `--tests`
//!   filters into the test JVMs; without it the line runs as the reference's.

use super::{case, ctx, runner, suite, test, unit};
use gradle_flaky::domain::{BatchingConfig, ClassifiedTest, GradleCommand, TestKind};
use gradle_flaky::plan::{commands, plan, reduce, PlanContext};
use std::time::Duration;

const G: &str = ".ci/scripts/run-gradle.sh";

fn es() -> PlanContext {
    ctx(G, Some("8.10.2"))
}

fn line(c: &GradleCommand) -> String {
    c.argv().join(" ")
}

fn planned(tests: &[ClassifiedTest], cfg: &BatchingConfig) -> Vec<GradleCommand> {
    plan(tests, cfg, &es()).commands
}

/// The reference's `generateBatchCommand`: one batch, no reduction.
fn batch_command(batch: &[ClassifiedTest]) -> GradleCommand {
    let mut cfg = BatchingConfig::default();
    cfg.caps.insert(batch[0].kind.clone(), batch.len());
    let mut out = commands(batch, &cfg, &es());
    assert_eq!(out.len(), 1, "{out:?}");
    out.remove(0)
}

/// The properties that give gradle-flaky's helper on `task` its `classes`,
/// followed by a space.
fn helper(task: &str, classes: &str) -> String {
    format!("-Dflaky.repeat.task.{task}=randomized -Dflaky.repeat.classes.{task}={classes} ")
}

fn suites_of(tests: &[ClassifiedTest]) -> Vec<String> {
    tests.iter().filter_map(|t| t.yaml_suite.clone()).collect()
}

// ---- collapseYamlSuites (5) -------------------------------------------------------------------

#[test]
fn collapses_multiple_yaml_files_in_the_same_directory() {
    let r = reduce(&[
        suite(":ml", "ml/anomaly_detectors_get"),
        suite(":ml", "ml/anomaly_detectors_put"),
    ]);
    assert_eq!(suites_of(&r.tests), ["ml"]);
}

#[test]
fn keeps_a_single_yaml_file_in_a_directory_uncollapsed() {
    assert_eq!(suites_of(&reduce(&[suite(":ml", "ml/a")]).tests), ["ml/a"]);
}

#[test]
fn collapses_per_directory_independently() {
    let r = reduce(&[
        suite(":ml", "ml/a"),
        suite(":ml", "ml/b"),
        suite(":ml", "search/search_basic"),
    ]);
    assert_eq!(suites_of(&r.tests), ["ml", "search/search_basic"]);
}

#[test]
fn does_not_collapse_across_different_projects() {
    let r = reduce(&[suite(":ml", "ml/test1"), suite(":security", "ml/test2")]);
    assert_eq!(suites_of(&r.tests), ["ml/test1", "ml/test2"]);
}

#[test]
fn preserves_non_yaml_suite_tests() {
    let (t, s) = (unit(":server", "org.A"), suite(":ml", "ml/a"));
    assert_eq!(reduce(&[t.clone(), s.clone()]).tests, [t, s]);
}

// ---- deduplicateYamlRunners (3) -------------------------------------------------------------------

#[test]
fn two_runners_in_the_same_project_become_one() {
    assert_eq!(
        reduce(&[runner(":ml"), runner(":ml")]).tests,
        [runner(":ml")]
    );
}

#[test]
fn runners_in_different_projects_stay_two() {
    assert_eq!(reduce(&[runner(":a"), runner(":b")]).tests.len(), 2);
}

#[test]
fn other_kinds_are_untouched_by_the_runner_rule() {
    let tests = [unit(":server", "org.A"), unit(":server", "org.B")];
    assert_eq!(reduce(&tests).tests, tests);
}

// ---- generateBatchCommand (16) ----------------------------------------------------------------------

#[test]
fn unit_test() {
    let c = batch_command(&[unit(":server", "org.elasticsearch.index.IndexTests")]);
    assert_eq!(
        line(&c),
        // DIFFERENCE: the helper's selection and fresh JVMs (see the module's notes).
        format!("{G} -Dtests.iters=100 -Dflaky.repeat.jvms=10 -Dflaky.repeat.maxSlices=32 -Dtests.timeoutSuite=3600000! :server:test --tests org.elasticsearch.index.IndexTests --rerun {}--continue", helper(":server:test", "org.elasticsearch.index.IndexTests"))
    );
    assert_eq!((c.iterations(), c.rest_loops()), (100, 1));
}

#[test]
fn unit_tests_across_projects() {
    let c = batch_command(&[
        unit(":server", "org.elasticsearch.index.FooTests"),
        unit(":libs:core", "org.elasticsearch.core.BarTests"),
    ]);
    assert_eq!(
        line(&c),
        // DIFFERENCE: the helper's selection and fresh JVMs.
        format!(
            "{G} -Dtests.iters=100 -Dflaky.repeat.jvms=10 -Dflaky.repeat.maxSlices=32 -Dtests.timeoutSuite=3600000! :server:test --tests org.elasticsearch.index.FooTests --rerun {}:libs:core:test --tests org.elasticsearch.core.BarTests --rerun {}--continue",
            helper(":server:test", "org.elasticsearch.index.FooTests"),
            helper(":libs:core:test", "org.elasticsearch.core.BarTests")
        )
    );
}

#[test]
fn unit_tests_of_one_project_share_the_task() {
    let c = batch_command(&[
        unit(":server", "org.elasticsearch.FooTests"),
        unit(":server", "org.elasticsearch.BarTests"),
    ]);
    assert_eq!(
        line(&c),
        // DIFFERENCE: the helper's selection and fresh JVMs.
        format!("{G} -Dtests.iters=100 -Dflaky.repeat.jvms=10 -Dflaky.repeat.maxSlices=32 -Dtests.timeoutSuite=3600000! :server:test --tests org.elasticsearch.FooTests --tests org.elasticsearch.BarTests --rerun {}--continue", helper(":server:test", "org.elasticsearch.FooTests,org.elasticsearch.BarTests"))
    );
}

#[test]
fn internal_cluster_test() {
    let c = batch_command(&[test(
        ":server",
        TestKind::InternalClusterTest,
        Some("org.elasticsearch.cluster.ClusterIT"),
    )]);
    assert_eq!(
        line(&c),
        // DIFFERENCE: the helper's selection and fresh JVMs.
        format!("{G} -Dtests.iters=20 -Dflaky.repeat.jvms=7 -Dflaky.repeat.maxSlices=32 -Dtests.timeoutSuite=3600000! :server:internalClusterTest --tests org.elasticsearch.cluster.ClusterIT --rerun {}--continue", helper(":server:internalClusterTest", "org.elasticsearch.cluster.ClusterIT"))
    );
}

#[test]
fn java_rest_test() {
    // DIFFERENCE: no `repeat-rest-test.sh 10` prefix; restLoops = 10.
    let c = batch_command(&[test(
        ":modules:transport-netty4",
        TestKind::JavaRestTest,
        Some("org.elasticsearch.rest.RestIT"),
    )]);
    assert_eq!(line(&c), format!("{G} :modules:transport-netty4:javaRestTest --tests org.elasticsearch.rest.RestIT --rerun --continue"));
    assert_eq!((c.iterations(), c.rest_loops()), (1, 10));
}

#[test]
fn java_rest_tests_across_projects() {
    let c = batch_command(&[
        test(":mod:a", TestKind::JavaRestTest, Some("org.es.FooIT")),
        test(":mod:b", TestKind::JavaRestTest, Some("org.es.BarIT")),
    ]);
    assert_eq!(
        line(&c),
        format!("{G} :mod:a:javaRestTest --tests org.es.FooIT --rerun :mod:b:javaRestTest --tests org.es.BarIT --rerun --continue")
    );
}

#[test]
fn yaml_rest_test_runner() {
    let c = batch_command(&[runner(":x-pack:plugin:ml")]);
    assert_eq!(
        line(&c),
        format!("{G} :x-pack:plugin:ml:yamlRestTest --rerun --continue")
    );
    assert_eq!(c.rest_loops(), 10);
}

#[test]
fn yaml_rest_test_suite() {
    // DIFFERENCE: the plain property, not `-Dtests.rest.suite.<task>`.
    let c = batch_command(&[suite(":x-pack:plugin:ml", "ml/anomaly_detectors_get")]);
    assert_eq!(
        line(&c),
        format!("{G} :x-pack:plugin:ml:yamlRestTest --rerun -Dtests.rest.suite=ml/anomaly_detectors_get --continue")
    );
}

#[test]
fn yaml_rest_test_suites_batched() {
    let c = batch_command(&[
        suite(":x-pack:plugin:ml", "ml/test1"),
        suite(":x-pack:plugin:ml", "ml/test2"),
    ]);
    assert!(
        line(&c).contains(" -Dtests.rest.suite=ml/test1,ml/test2 "),
        "{}",
        line(&c)
    );
}

#[test]
fn yaml_rest_test_suites_across_projects_get_one_command_each() {
    // DIFFERENCE: the reference puts both tasks in one command with per-task properties.
    let tests = [
        suite(":x-pack:plugin:ml", "ml/test1"),
        suite(":x-pack:plugin:security", "security/test1"),
    ];
    let lines: Vec<_> = planned(&tests, &BatchingConfig::default())
        .iter()
        .map(line)
        .collect();
    assert_eq!(
        lines,
        [
            format!("{G} :x-pack:plugin:ml:yamlRestTest --rerun -Dtests.rest.suite=ml/test1 --continue"),
            format!("{G} :x-pack:plugin:security:yamlRestTest --rerun -Dtests.rest.suite=security/test1 --continue"),
        ]
    );
}

#[test]
fn yaml_rest_test_case_targets_the_exact_parameterized_test() {
    // DIFFERENCE: the filter is one argv element, without literal quotes.
    let c = batch_command(&[case(
        ":x-pack:plugin:apm-data",
        "org.elasticsearch.xpack.apmdata.APMYamlTestSuiteIT",
        "/10_apm/Test template reinstallation",
    )]);
    assert_eq!(
        c.argv(),
        [
            G,
            ":x-pack:plugin:apm-data:yamlRestTest",
            "--tests",
            "org.elasticsearch.xpack.apmdata.APMYamlTestSuiteIT.test {yaml=/10_apm/Test template reinstallation}",
            "--rerun",
            "--continue",
        ]
    );
}

#[test]
fn yaml_rest_test_cases_batched_across_projects() {
    let c = batch_command(&[
        case(
            ":x-pack:plugin:apm-data",
            "org.elasticsearch.xpack.apmdata.APMYamlTestSuiteIT",
            "/10_apm/Test template reinstallation",
        ),
        case(
            ":x-pack:plugin:ml",
            "org.elasticsearch.xpack.ml.MlYamlIT",
            "ml/anomaly_detectors_get/basic",
        ),
    ]);
    assert_eq!(
        c.argv()[5..],
        [
            ":x-pack:plugin:ml:yamlRestTest",
            "--tests",
            "org.elasticsearch.xpack.ml.MlYamlIT.test {yaml=ml/anomaly_detectors_get/basic}",
            "--rerun",
            "--continue",
        ]
    );
}

#[test]
fn local_target_emits_gradlew_for_unit_tests() {
    let c = &plan(
        &[unit(":server", "org.elasticsearch.FooTests")],
        &BatchingConfig::default(),
        &ctx("./gradlew", Some("8.10.2")),
    )
    .commands[0];
    assert_eq!(
        line(c),
        // DIFFERENCE: the helper's selection and fresh JVMs.
        format!("./gradlew -Dtests.iters=100 -Dflaky.repeat.jvms=10 -Dflaky.repeat.maxSlices=32 -Dtests.timeoutSuite=3600000! :server:test --tests org.elasticsearch.FooTests --rerun {}--continue", helper(":server:test", "org.elasticsearch.FooTests"))
    );
}

#[test]
fn local_target_emits_gradlew_for_rest_loops() {
    let c = &plan(
        &[runner(":x-pack:plugin:ml")],
        &BatchingConfig::default(),
        &ctx("./gradlew", Some("8.10.2")),
    )
    .commands[0];
    assert_eq!(
        line(c),
        "./gradlew :x-pack:plugin:ml:yamlRestTest --rerun --continue"
    );
    assert_eq!(c.rest_loops(), 10);
}

#[test]
fn threads_the_rest_iters_override() {
    // Two checklist items: restIters 3 and restIters 2 (the reference's `repeat-rest-test.sh N`).
    for loops in [3, 2] {
        let cfg = BatchingConfig {
            rest_loops: loops,
            ..BatchingConfig::default()
        };
        assert_eq!(planned(&[runner(":ml")], &cfg)[0].rest_loops(), loops);
    }
}

#[test]
fn yaml_cases_of_one_project_share_the_task() {
    let c = batch_command(&[
        case(":ml", "org.MlYamlIT", "ml/a/x"),
        case(":ml", "org.MlYamlIT", "ml/b/y"),
    ]);
    assert_eq!(
        c.argv(),
        [
            G,
            ":ml:yamlRestTest",
            "--tests",
            "org.MlYamlIT.test {yaml=ml/a/x}",
            "--tests",
            "org.MlYamlIT.test {yaml=ml/b/y}",
            "--rerun",
            "--continue"
        ]
    );
}

// ---- dedupeTests (6) ----------------------------------------------------------------------------

#[test]
fn removes_a_duplicate_unit_test() {
    assert_eq!(reduce(&[unit(":s", "A"), unit(":s", "A")]).tests.len(), 1);
}

#[test]
fn keeps_a_different_class() {
    assert_eq!(reduce(&[unit(":s", "A"), unit(":s", "B")]).tests.len(), 2);
}

#[test]
fn a_runner_makes_the_suites_of_its_task_redundant() {
    // DIFFERENCE: the reference kept both and ran the suite twice.
    let r = reduce(&[runner(":ml"), suite(":ml", "ml/a")]);
    assert_eq!(r.tests, [runner(":ml")]);
    assert_eq!(r.notes, ["YAML suite `ml/a` in `:ml:yamlRestTest` is covered by the whole `:ml:yamlRestTest` task"]);
}

#[test]
fn removes_a_duplicate_suite() {
    assert_eq!(
        suites_of(&reduce(&[suite(":ml", "ml/a"), suite(":ml", "ml/a")]).tests),
        ["ml/a"]
    );
}

#[test]
fn distinguishes_yaml_cases_by_descriptor() {
    let (a, b) = (case(":p", "org.R", "a/b/c"), case(":p", "org.R", "a/b/d"));
    assert_eq!(reduce(&[a.clone(), a.clone(), b.clone()]).tests, [a, b]);
}

#[test]
fn preserves_input_order() {
    let (a, b) = (unit(":s", "A"), unit(":s", "B"));
    assert_eq!(reduce(&[a.clone(), b.clone(), a.clone()]).tests, [a, b]);
}

// ---- buildCommands (10) --------------------------------------------------------------------------

#[test]
fn grouped_by_kind() {
    let cmds = planned(
        &[
            unit(":s", "A"),
            unit(":s", "B"),
            test(":s", TestKind::InternalClusterTest, Some("C")),
        ],
        &BatchingConfig::default(),
    );
    let kinds: Vec<_> = cmds
        .iter()
        .map(|c| (c.kind.clone(), c.key.as_str()))
        .collect();
    assert_eq!(
        kinds,
        [
            (TestKind::Unit, "flakiness-detection:unit"),
            (TestKind::InternalClusterTest, "flakiness-detection:integ")
        ]
    );
    assert!(line(&cmds[0]).contains("--tests A") && line(&cmds[0]).contains("--tests B"));
}

#[test]
fn default_caps() {
    let mut tests = Vec::new();
    tests.extend(["A", "B", "C", "D"].map(|c| unit(":s", c)));
    tests.extend(["E", "F", "G"].map(|c| test(":s", TestKind::InternalClusterTest, Some(c))));
    tests.extend(["H", "I"].map(|c| test(":s", TestKind::JavaRestTest, Some(c))));
    tests.extend(["a", "b", "c", "d", "e"].map(|d| suite(":ml", &format!("ml/{d}/test"))));
    tests.extend([runner(":r1"), runner(":r2")]);
    tests.extend(["1", "2", "3", "4", "5"].map(|n| case(":cases", "org.R", &format!("x/y/{n}"))));
    let per_kind = |kind: TestKind| {
        planned(&tests, &BatchingConfig::default())
            .iter()
            .filter(|c| c.kind == kind)
            .count()
    };
    for kind in TestKind::ORDER {
        assert_eq!(per_kind(kind.clone()), 2, "{kind}");
    }
}

#[test]
fn a_custom_cap() {
    let mut cfg = BatchingConfig::default();
    cfg.caps.insert(TestKind::Unit, 2);
    let tests = ["A", "B", "C", "D", "E"].map(|c| unit(":s", c));
    assert_eq!(planned(&tests, &cfg).len(), 3);
}

#[test]
fn iterations_override() {
    let cfg = BatchingConfig {
        unit_iters: 5,
        ..BatchingConfig::default()
    };
    assert!(line(&planned(&[unit(":s", "A")], &cfg)[0]).contains(" -Dtests.iters=5 "));
}

#[test]
fn suite_timeout_override() {
    let cfg = BatchingConfig {
        suite_timeout: Duration::from_millis(60000),
        ..BatchingConfig::default()
    };
    assert!(line(&planned(&[unit(":s", "A")], &cfg)[0]).contains(" -Dtests.timeoutSuite=60000! "));
}

#[test]
fn labels() {
    let cmds = planned(
        &[
            unit(":s", "A"),
            test(":s", TestKind::InternalClusterTest, Some("C")),
        ],
        &BatchingConfig::default(),
    );
    let labels: Vec<_> = cmds.iter().map(|c| c.label.as_str()).collect();
    assert_eq!(labels, ["unit tests", "integ tests"]);
}

#[test]
fn identical_tests_collapse() {
    let l = line(
        &planned(
            &[unit(":s", "Same"), unit(":s", "Same")],
            &BatchingConfig::default(),
        )[0],
    );
    assert_eq!(l.matches("--tests Same").count(), 1, "{l}");
}

#[test]
fn suites_of_one_directory_run_as_the_directory() {
    let l = line(
        &planned(
            &[suite(":ml", "ml/foo/a"), suite(":ml", "ml/foo/b")],
            &BatchingConfig::default(),
        )[0],
    );
    assert!(
        l.contains("ml/foo") && !l.contains("ml/foo/a") && !l.contains("ml/foo/b"),
        "{l}"
    );
}

#[test]
fn duplicate_runners_of_one_project_give_one_command() {
    assert_eq!(
        planned(&[runner(":ml"), runner(":ml")], &BatchingConfig::default()).len(),
        1
    );
}

// ---- beyond the checklist ---------------------------------------------------------------------

/// Gradle before 7.6 (and unknown versions) force every kind with `clean<Task>`.
#[test]
fn old_gradle_forces_every_kind_with_its_clean_task() {
    let tests = [
        unit(":server", "A"),
        test(":server", TestKind::InternalClusterTest, Some("B")),
        test(":qa", TestKind::JavaRestTest, Some("C")),
        runner(":r"),
        suite(":s", "api/x"),
        case(":c", "org.R", "a/b/c"),
        test(":ml", TestKind::Other("slowTest".into()), Some("D")),
    ];
    for version in [Some("4.4.1"), Some("7.5"), None] {
        let cmds = plan(&tests, &BatchingConfig::default(), &ctx("gradle", version)).commands;
        assert_eq!(cmds.len(), tests.len());
        for (c, t) in cmds.iter().zip(&tests) {
            let task = c
                .argv()
                .iter()
                .position(|a| *a == t.task)
                .expect("task in argv");
            // The base plugin's rule: `:server:test` → `:server:cleanTest`.
            let (project, name) = t.task.rsplit_once(':').unwrap();
            let clean = format!("{project}:clean{}{}", name[..1].to_uppercase(), &name[1..]);
            assert_eq!(c.argv()[task - 1], clean, "{version:?} {:?}", c.argv());
            assert!(
                !c.argv().contains(&"--rerun".into()),
                "{version:?} {:?}",
                c.argv()
            );
        }
    }
}

#[test]
fn a_runner_batch_above_cap_one_keeps_every_runner() {
    // DIFFERENCE: the reference used only batch[0].
    let mut cfg = BatchingConfig::default();
    cfg.caps.insert(TestKind::YamlRestTestRunner, 3);
    let cmds = planned(&[runner(":a"), runner(":b")], &cfg);
    assert_eq!(
        line(&cmds[0]),
        format!("{G} :a:yamlRestTest --rerun :b:yamlRestTest --rerun --continue")
    );
}

#[test]
fn yaml_cases_with_one_descriptor_under_two_runners_both_run() {
    // DIFFERENCE: the reference merged them.
    let (a, b) = (case(":p", "org.A", "x/y/z"), case(":p", "org.B", "x/y/z"));
    assert_eq!(reduce(&[a.clone(), b.clone()]).tests, [a, b]);
}
