//! Planning: dedupe, collapse YAML suites, one YAML runner per task, batch by
//! kind, build each batch's Gradle argv. A pure function of the selected tests,
//! the batching knobs and what we know of the build's Gradle.

mod batch;
pub mod proof;
mod reduce;
pub mod render;
pub mod shell;

pub use batch::{clean_task, Forcing, GradleVersion, PlanContext};
pub use proof::{Evidence, Proof};
pub use reduce::{describe, reduce, target, Reduced};

use crate::domain::{BatchingConfig, ClassifiedTest, Command, TestKind};

/// What will run: the reduced tests, notes about how they were reduced and
/// forced, and one command per batch.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Plan {
    pub tests: Vec<ClassifiedTest>,
    pub notes: Vec<String>,
    pub commands: Vec<Command>,
}

/// Plans the runs of `tests`.
pub fn plan(tests: &[ClassifiedTest], cfg: &BatchingConfig, ctx: &PlanContext) -> Plan {
    let Reduced { tests, mut notes } = reduce(tests);
    let commands = batch::commands(&tests, cfg, ctx);
    if !commands.is_empty() {
        notes.push(forcing_note(ctx));
    }
    notes.extend(unused_cap_notes(&tests, cfg));
    Plan {
        tests,
        notes,
        commands,
    }
}

/// Executions of each test in one command: iterations × Gradle runs.
pub fn executions(c: &Command) -> u64 {
    u64::from(c.iterations) * u64::from(c.rest_loops)
}

fn forcing_note(ctx: &PlanContext) -> String {
    match (ctx.gradle_version, ctx.forcing()) {
        (Some(v), Forcing::Rerun) => format!(
            "Gradle {}.{} re-runs up-to-date test tasks with `--rerun` after each task",
            v.major, v.minor
        ),
        (Some(v), Forcing::CleanTask) => format!(
            "Gradle {}.{} has no `--rerun` (7.6+): each test task is preceded by its \
             `clean<Task>` task so it always runs",
            v.major, v.minor
        ),
        (None, _) => "the build's Gradle version is unknown: each test task is preceded by its \
                      `clean<Task>` task, which forces it to run on every Gradle version"
            .to_string(),
    }
}

/// A `--cap` for a custom kind no selected test has is most likely a typo.
fn unused_cap_notes(tests: &[ClassifiedTest], cfg: &BatchingConfig) -> Vec<String> {
    cfg.caps
        .keys()
        .filter(|k| matches!(k, TestKind::Other(_)))
        .filter(|k| !tests.iter().any(|t| &t.kind == *k))
        .map(|k| format!("`--cap {k}=...` names a kind no selected test has"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::reduce::tests::{case, runner, suite, test, unit};
    use super::*;
    use std::time::Duration;

    fn ctx(version: Option<&str>) -> PlanContext {
        PlanContext {
            gradle: vec![".ci/scripts/run-gradle.sh".into()],
            gradle_version: version.and_then(GradleVersion::parse),
            extra_args: vec![],
        }
    }

    fn line(c: &Command) -> String {
        c.argv.join(" ")
    }

    fn lines(tests: &[ClassifiedTest], version: Option<&str>) -> Vec<String> {
        plan(tests, &BatchingConfig::default(), &ctx(version))
            .commands
            .iter()
            .map(line)
            .collect()
    }

    const G: &str = ".ci/scripts/run-gradle.sh";
    const NEW: Option<&str> = Some("8.10");

    #[test]
    fn unit_and_integ_commands_match_the_reference_plus_continue() {
        let mut ict = test(
            ":server",
            TestKind::InternalClusterTest,
            Some("org.elasticsearch.cluster.ClusterIT"),
        );
        ict.origin = crate::domain::Origin::Explicit;
        assert_eq!(
            lines(&[unit("org.elasticsearch.index.IndexTests"), ict], NEW),
            vec![
                format!("{G} -Dtests.iters=100 -Dtests.timeoutSuite=3600000! :server:test --tests org.elasticsearch.index.IndexTests --rerun --continue"),
                format!("{G} -Dtests.iters=20 -Dtests.timeoutSuite=3600000! :server:internalClusterTest --tests org.elasticsearch.cluster.ClusterIT --rerun --continue"),
            ]
        );
    }

    #[test]
    fn old_gradle_and_unknown_versions_clean_the_task_first() {
        for version in [Some("4.4.1"), None] {
            assert_eq!(
                lines(&[unit("org.A")], version),
                vec![format!("{G} -Dtests.iters=100 -Dtests.timeoutSuite=3600000! :server:cleanTest :server:test --tests org.A --continue")]
            );
        }
        let unknown = plan(&[unit("A")], &BatchingConfig::default(), &ctx(None));
        assert!(unknown
            .notes
            .iter()
            .any(|n| n.contains("version is unknown")));
    }

    #[test]
    fn yaml_suites_use_the_plain_property_with_one_task_per_command() {
        let tests = [
            suite(":x-pack:plugin:ml", "ml/test1"),
            suite(":x-pack:plugin:security", "security/test1"),
            suite(":x-pack:plugin:ml", "a,b/c d"),
        ];
        assert_eq!(
            lines(&tests, NEW),
            vec![
                format!("{G} :x-pack:plugin:ml:yamlRestTest --rerun -Dtests.rest.suite=ml/test1,a\\,b/c d --continue"),
                format!("{G} :x-pack:plugin:security:yamlRestTest --rerun -Dtests.rest.suite=security/test1 --continue"),
            ]
        );
    }

    #[test]
    fn yaml_cases_are_one_argv_element_each_and_share_their_task() {
        let tests = [
            case(":a", "org.A", "/10_apm/Test template reinstallation"),
            case(":b", "org.B", "ml/x/basic"),
            case(":a", "org.A", "other/y/z"),
        ];
        let p = plan(&tests, &BatchingConfig::default(), &ctx(NEW));
        assert_eq!(p.commands.len(), 1);
        assert_eq!(
            p.commands[0].argv,
            [
                G,
                ":a:yamlRestTest",
                "--tests",
                "org.A.test {yaml=/10_apm/Test template reinstallation}",
                "--tests",
                "org.A.test {yaml=other/y/z}",
                "--rerun",
                ":b:yamlRestTest",
                "--tests",
                "org.B.test {yaml=ml/x/basic}",
                "--rerun",
                "--continue",
            ]
        );
        assert_eq!(
            (p.commands[0].iterations, p.commands[0].rest_loops),
            (1, 10)
        );
    }

    #[test]
    fn runners_above_cap_one_are_all_kept() {
        // Reference §13.10 used only batch[0] of a runner batch.
        let mut cfg = BatchingConfig::default();
        cfg.caps.insert(TestKind::YamlRestTestRunner, 3);
        let p = plan(&[runner(":a"), runner(":b")], &cfg, &ctx(NEW));
        assert_eq!(
            p.commands.iter().map(line).collect::<Vec<_>>(),
            vec![format!(
                "{G} :a:yamlRestTest --rerun :b:yamlRestTest --rerun --continue"
            )]
        );
    }

    #[test]
    fn methods_are_targeted_and_extra_args_come_last() {
        let mut t = unit("org.A");
        t.method = Some("testX".into());
        let mut c = ctx(NEW);
        c.extra_args = vec!["--offline".into(), "-Dfoo=bar".into()];
        let p = plan(&[t], &BatchingConfig::default(), &c);
        assert!(line(&p.commands[0])
            .ends_with(":server:test --tests org.A.testX --rerun --continue --offline -Dfoo=bar"));
    }

    #[test]
    fn caps_iterations_and_timeout_come_from_the_config() {
        let mut cfg = BatchingConfig {
            unit_iters: 5,
            suite_timeout: Duration::from_secs(60),
            ..BatchingConfig::default()
        };
        cfg.caps.insert(TestKind::Unit, 2);
        let tests: Vec<_> = ["A", "B", "C", "D", "E"].into_iter().map(unit).collect();
        let p = plan(&tests, &cfg, &ctx(NEW));
        assert_eq!(p.commands.len(), 3);
        assert!(line(&p.commands[0]).contains("-Dtests.iters=5 -Dtests.timeoutSuite=60000! "));
        assert_eq!(
            p.commands[2].argv[p.commands[2].argv.len() - 4..],
            ["--tests", "E", "--rerun", "--continue"]
        );
    }

    #[test]
    fn custom_kinds_come_last_by_name_and_iterate_like_unit_tests() {
        let slow = test(":server", TestKind::Other("slowTest".into()), Some("org.S"));
        let fast = test(":server", TestKind::Other("aTest".into()), Some("org.F"));
        let p = plan(
            &[slow, fast, unit("org.U")],
            &BatchingConfig::default(),
            &ctx(NEW),
        );
        let kinds: Vec<_> = p.commands.iter().map(|c| c.kind.to_string()).collect();
        assert_eq!(kinds, ["unit", "aTest", "slowTest"]);
        assert_eq!(p.commands[2].key, "flakiness-detection:slow-test");
        assert!(line(&p.commands[2]).contains(
            "-Dtests.iters=100 -Dtests.timeoutSuite=3600000! :server:slowTest --tests org.S"
        ));
    }

    #[test]
    fn a_cap_for_a_kind_nobody_has_is_noted() {
        let mut cfg = BatchingConfig::default();
        cfg.caps.insert(TestKind::Other("unti".into()), 5);
        let p = plan(&[unit("A")], &cfg, &ctx(NEW));
        assert!(
            p.notes.iter().any(|n| n.contains("`--cap unti=...`")),
            "{:?}",
            p.notes
        );
    }

    #[test]
    fn nothing_selected_plans_nothing() {
        assert_eq!(
            plan(&[], &BatchingConfig::default(), &ctx(NEW)),
            Plan::default()
        );
    }
}
