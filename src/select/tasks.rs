//! Which Test tasks run a test class: chosen among the tasks the layout ties to
//! its source set (by output dirs, never by name), class by class.
//!
//! The rules, in order:
//! 1. **Candidates** are the enabled Test tasks tied to the source set, those of
//!    the source set's own project when it has any (another project's task
//!    that happens to run these classes is a last resort).
//! 2. **Patterns**: a task whose include/exclude patterns leave the class file
//!    out (Gradle's ant-style patterns on `a/b/Outer$Inner.class`) would run
//!    nothing; a class every candidate leaves out is refused
//!    (`excluded-by-task-patterns`).
//! 3. **Host-mutating tasks** (named `destructive*`, as Elasticsearch's
//!    packaging tasks, which install packages and change services on the host)
//!    are never chosen unless the user opts in; a class only they run is
//!    refused (`requires-packaging-host`).
//! 4. The **bare task**, named like the source set in its project, runs the
//!    class when it is a candidate.
//! 5. Otherwise (a BWC source set whose bare task is disabled) the candidates
//!    are ordered newest version first, numerically (`v9.0.0`, `v8.19.10`,
//!    `v8.19.9`; a pre-release after its release), tasks without a version
//!    after them by name, and the first `cap` are chosen, each its own test.
//!    Whenever several candidates were weighed, a [`TaskSelection`] record says
//!    what was chosen and what was not.

use crate::domain::{Reason, ReasonCode};
use crate::layout::TestTask;
use crate::test_filter::{class_file, Patterns};
use serde::Serialize;
use std::cmp::Ordering;

/// How tasks are chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TaskChoice {
    /// The most alternative tasks (BWC versions) chosen for one class.
    pub cap: usize,
    /// Host-mutating tasks may be chosen (`--allow-host-mutating-tasks`).
    pub allow_host_mutating: bool,
}

/// The default of `--task-cap`.
pub(crate) const DEFAULT_TASK_CAP: usize = 2;

impl Default for TaskChoice {
    fn default() -> Self {
        TaskChoice {
            cap: DEFAULT_TASK_CAP,
            allow_host_mutating: false,
        }
    }
}

/// The Test tasks tied to one source set, as the layout reports them.
#[derive(Clone, Debug)]
pub(crate) struct SourceSetTasks {
    pub project: String,
    pub source_set: String,
    pub tasks: Vec<TestTask>,
}

/// What was chosen for a source set when several tasks could run it (plan
/// JSON `taskSelections`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TaskSelection {
    pub project: String,
    pub source_set: String,
    /// Task paths chosen, in the order above.
    pub chosen: Vec<String>,
    /// Candidates there were to choose from.
    pub total: usize,
    pub cap: usize,
    /// Candidates refused because they mutate the host.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub host_mutating: Vec<String>,
}

/// The outcome of choosing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum TaskDecision {
    /// Run by these tasks (full paths); the record when several were weighed.
    Run(Vec<String>, Option<TaskSelection>),
    /// It cannot be run here.
    Refused(Reason),
}

/// Chooses the tasks that run `class` (binary name, `None` for a YAML suite,
/// whose runner is not known here) of the source set `tied` describes.
/// `tied.tasks` is not empty.
pub(crate) fn choose(
    tied: &SourceSetTasks,
    class: Option<&str>,
    choice: TaskChoice,
) -> TaskDecision {
    let where_ = format!("`{}` source set `{}`", tied.project, tied.source_set);
    let enabled: Vec<&TestTask> = tied.tasks.iter().filter(|t| t.enabled).collect();
    if enabled.is_empty() {
        let disabled: Vec<String> = tied.tasks.iter().map(|t| format!("`{}`", t.path)).collect();
        return TaskDecision::Refused(Reason::new(
            ReasonCode::NoRunnableTask,
            format!(
                "not applicable: no enabled Test task runs {where_} ({} disabled)",
                disabled.join(", ")
            ),
        ));
    }
    let own: Vec<&TestTask> = enabled
        .iter()
        .copied()
        .filter(|t| task_project(&t.path) == tied.project)
        .collect();
    let candidates = if own.is_empty() { enabled } else { own };

    let admitted: Vec<&TestTask> = match class {
        Some(class) => {
            let file = class_file(class);
            let admitted: Vec<&TestTask> = candidates
                .iter()
                .copied()
                .filter(|t| patterns_of(t).accepts(&file))
                .collect();
            if admitted.is_empty() {
                return TaskDecision::Refused(excluded(class, &file, &candidates));
            }
            admitted
        }
        None => candidates,
    };

    let (mutating, safe): (Vec<&TestTask>, Vec<&TestTask>) = admitted
        .iter()
        .copied()
        .partition(|t| is_host_mutating(&t.name));
    let (mut pool, refused) = if choice.allow_host_mutating {
        (admitted, Vec::new())
    } else {
        (safe, mutating)
    };
    if pool.is_empty() {
        let tasks: Vec<String> = refused.iter().map(|t| format!("`{}`", t.path)).collect();
        return TaskDecision::Refused(Reason::new(
            ReasonCode::RequiresPackagingHost,
            format!(
                "only host-mutating tasks run {where_} ({}): they install packages and change \
                 services on the machine that runs them; run them only on a disposable packaging \
                 host, with --allow-host-mutating-tasks",
                tasks.join(", ")
            ),
        ));
    }
    if let Some(bare) = pool
        .iter()
        .find(|t| t.name == tied.source_set && task_project(&t.path) == tied.project)
    {
        return TaskDecision::Run(vec![bare.path.clone()], None);
    }
    pool.sort_by(|a, b| newest_first(&a.name, &b.name));
    let cap = choice.cap.max(1);
    let chosen: Vec<String> = pool.iter().take(cap).map(|t| t.path.clone()).collect();
    let record = (pool.len() > 1 || !refused.is_empty()).then(|| TaskSelection {
        project: tied.project.clone(),
        source_set: tied.source_set.clone(),
        chosen: chosen.clone(),
        total: pool.len(),
        cap,
        host_mutating: refused.iter().map(|t| t.path.clone()).collect(),
    });
    TaskDecision::Run(chosen, record)
}

/// The refusal of a class no candidate's patterns admit, naming the patterns.
fn excluded(class: &str, file: &str, candidates: &[&TestTask]) -> Reason {
    let shown: Vec<String> = candidates
        .iter()
        .map(|t| {
            let mut rules = Vec::new();
            if !t.includes.is_empty() {
                rules.push(format!("includes {}", t.includes.join(", ")));
            }
            if !t.excludes.is_empty() {
                rules.push(format!("excludes {}", t.excludes.join(", ")));
            }
            format!("`{}` {}", t.path, rules.join("; "))
        })
        .collect();
    Reason::new(
        ReasonCode::ExcludedByTaskPatterns,
        format!(
            "`{class}` is left out by the include/exclude patterns of every task that could run \
             it ({file}: {}); Gradle would run no test",
            shown.join("; ")
        ),
    )
}

/// Named like Elasticsearch's packaging tasks, which install packages, add
/// users and change services on the host (`destructiveDistroTest.*`,
/// `destructiveDistroUpgradeTest.*`); ASCII case ignored.
pub(crate) fn is_host_mutating(task_name: &str) -> bool {
    let prefix = "destructive";
    task_name
        .get(..prefix.len())
        .is_some_and(|p| p.eq_ignore_ascii_case(prefix))
}

/// `:a:b:test` → `:a:b`; `:test` → `:`.
pub(crate) fn task_project(task: &str) -> &str {
    match task.rfind(':') {
        Some(0) | None => ":",
        Some(i) => &task[..i],
    }
}

/// A task's include/exclude patterns.
pub(crate) fn patterns_of(task: &TestTask) -> Patterns {
    if task.scan_for_test_classes == Some(false) && task.includes.is_empty() {
        // Gradle's own patterns for a task that does not detect test classes.
        let mut excludes = task.excludes.clone();
        excludes.push("**/Abstract*.class".into());
        return Patterns {
            includes: vec!["**/*Tests.class".into(), "**/*Test.class".into()],
            excludes,
        };
    }
    Patterns {
        includes: task.includes.clone(),
        excludes: task.excludes.clone(),
    }
}

/// A version in a task name: the first run of dot-separated numbers (at least
/// two), e.g. `8.19.10` in `v8.19.10#bwcTest`, and whether a pre-release
/// suffix (`-SNAPSHOT`, `-rc1`) follows it.
fn version_of(name: &str) -> Option<(Vec<u64>, bool)> {
    let bytes = name.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii_digit() && (i == 0 || !bytes[i - 1].is_ascii_digit()) {
            let start = i;
            while i < bytes.len() && (bytes[i].is_ascii_digit() || bytes[i] == b'.') {
                i += 1;
            }
            let run = name[start..i].trim_end_matches('.');
            let parts: Vec<&str> = run.split('.').collect();
            if parts.len() >= 2 && parts.iter().all(|p| !p.is_empty()) {
                let numbers = parts
                    .iter()
                    .map(|p| p.parse::<u64>().unwrap_or(u64::MAX))
                    .collect();
                let pre_release = bytes.get(start + run.len()) == Some(&b'-');
                return Some((numbers, pre_release));
            }
        } else {
            i += 1;
        }
    }
    None
}

/// Newest version first (numbers compared as numbers, a pre-release after its
/// release), then the names without a version, by name.
pub(crate) fn newest_first(a: &str, b: &str) -> Ordering {
    match (version_of(a), version_of(b)) {
        (Some((va, pa)), Some((vb, pb))) => vb.cmp(&va).then(pa.cmp(&pb)).then(a.cmp(b)),
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) => a.cmp(b),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn task(path: &str, enabled: bool, includes: &[&str], excludes: &[&str]) -> TestTask {
        TestTask {
            path: path.into(),
            name: path.rsplit(':').next().unwrap().into(),
            test_classes_dirs: vec![],
            includes: includes.iter().map(|s| s.to_string()).collect(),
            excludes: excludes.iter().map(|s| s.to_string()).collect(),
            enabled,
            framework: None,
            forwards_tests_iters: None,
            heap_dump_path: None,
            runtime_classpath: None,
            scan_for_test_classes: None,
        }
    }

    fn tied(project: &str, set: &str, tasks: Vec<TestTask>) -> SourceSetTasks {
        SourceSetTasks {
            project: project.into(),
            source_set: set.into(),
            tasks,
        }
    }

    fn bwc() -> SourceSetTasks {
        let it = &["**/*IT.class"][..];
        // created in neither string nor version order, as in the fixture
        tied(
            ":qa:rolling-upgrade",
            "javaRestTest",
            vec![
                task(":qa:rolling-upgrade:javaRestTest", false, it, &[]),
                task(":qa:rolling-upgrade:v8.19.9#bwcTest", true, it, &[]),
                task(":qa:rolling-upgrade:v9.0.0#bwcTest", true, it, &[]),
                task(":qa:rolling-upgrade:v8.19.10#bwcTest", true, it, &[]),
            ],
        )
    }

    #[test]
    fn bwc_versions_are_chosen_newest_first_by_number_and_capped() {
        let TaskDecision::Run(tasks, Some(record)) =
            choose(&bwc(), Some("org.e.IndexingIT"), TaskChoice::default())
        else {
            panic!("runs")
        };
        assert_eq!(
            tasks,
            [
                ":qa:rolling-upgrade:v9.0.0#bwcTest",
                ":qa:rolling-upgrade:v8.19.10#bwcTest"
            ]
        );
        assert_eq!((record.total, record.cap), (3, 2));
        assert_eq!(record.chosen, tasks);
        let all = TaskChoice {
            cap: 5,
            ..TaskChoice::default()
        };
        let TaskDecision::Run(tasks, Some(record)) = choose(&bwc(), Some("org.e.IndexingIT"), all)
        else {
            panic!("runs")
        };
        assert_eq!(tasks.len(), 3);
        assert_eq!(tasks[2], ":qa:rolling-upgrade:v8.19.9#bwcTest");
        assert_eq!((record.total, record.cap), (3, 5));
    }

    #[test]
    fn the_bare_task_wins_and_is_not_recorded() {
        let t = tied(
            ":p",
            "yamlRestTest",
            vec![
                task(":p:yamlRestCompatTest", true, &[], &[]),
                task(":p:yamlRestTest", true, &[], &[]),
            ],
        );
        assert_eq!(
            choose(&t, Some("a.RunnerIT"), TaskChoice::default()),
            TaskDecision::Run(vec![":p:yamlRestTest".into()], None)
        );
        // one task of another name (slowTests for slowTest): nothing weighed, nothing recorded
        let t = tied(
            ":ml",
            "slowTest",
            vec![task(":ml:slowTests", true, &[], &[])],
        );
        assert_eq!(
            choose(&t, Some("a.SlowTests"), TaskChoice::default()),
            TaskDecision::Run(vec![":ml:slowTests".into()], None)
        );
    }

    #[test]
    fn host_mutating_tasks_are_refused_unless_allowed() {
        let tests = &["**/*Tests.class"][..];
        let t = tied(
            ":qa:packaging",
            "test",
            vec![
                task(":qa:packaging:test", false, tests, &[]),
                task(
                    ":qa:packaging:destructiveDistroTest.default-rpm",
                    true,
                    tests,
                    &[],
                ),
                task(
                    ":qa:packaging:destructiveDistroTest.default-deb",
                    true,
                    tests,
                    &[],
                ),
            ],
        );
        let TaskDecision::Refused(reason) =
            choose(&t, Some("a.PackageTests"), TaskChoice::default())
        else {
            panic!("refused")
        };
        assert_eq!(reason.code, ReasonCode::RequiresPackagingHost);
        assert!(
            reason.text.contains("--allow-host-mutating-tasks"),
            "{}",
            reason.text
        );
        assert!(reason.text.contains("destructiveDistroTest.default-deb"));
        let allowed = TaskChoice {
            allow_host_mutating: true,
            ..TaskChoice::default()
        };
        let TaskDecision::Run(tasks, Some(record)) = choose(&t, Some("a.PackageTests"), allowed)
        else {
            panic!("runs when allowed")
        };
        assert_eq!(
            tasks,
            [
                ":qa:packaging:destructiveDistroTest.default-deb",
                ":qa:packaging:destructiveDistroTest.default-rpm"
            ]
        );
        assert!(record.host_mutating.is_empty());
        // a safe variant beside a destructive one: the safe one runs, the other is recorded
        let t = tied(
            ":p",
            "test",
            vec![
                task(":p:destructiveX", true, &[], &[]),
                task(":p:v1.0#safe", true, &[], &[]),
            ],
        );
        let TaskDecision::Run(tasks, Some(record)) =
            choose(&t, Some("a.XTests"), TaskChoice::default())
        else {
            panic!("runs")
        };
        assert_eq!(tasks, [":p:v1.0#safe"]);
        assert_eq!(record.host_mutating, [":p:destructiveX"]);
        assert!(is_host_mutating(
            "DestructiveDistroUpgradeTest.v8.0.0.default-deb"
        ));
        assert!(!is_host_mutating("test"));
    }

    #[test]
    fn a_class_every_task_pattern_leaves_out_is_refused() {
        let t = tied(
            ":server",
            "test",
            vec![task(
                ":server:test",
                true,
                &["**/*Tests.class"],
                &["**/Slow*"],
            )],
        );
        let refused = |class: &str| match choose(&t, Some(class), TaskChoice::default()) {
            TaskDecision::Refused(r) => Some(r),
            TaskDecision::Run(..) => None,
        };
        assert!(refused("org.e.FooTests").is_none());
        let nested = refused("org.e.FooTests$InnerWire").expect("nested class file");
        assert_eq!(nested.code, ReasonCode::ExcludedByTaskPatterns);
        assert!(
            nested.text.contains("org/e/FooTests$InnerWire.class"),
            "{}",
            nested.text
        );
        assert!(
            nested.text.contains("includes **/*Tests.class"),
            "{}",
            nested.text
        );
        assert!(refused("org.e.SlowTests").is_some(), "excluded");
        // a YAML suite has no class to check
        assert!(matches!(
            choose(&t, None, TaskChoice::default()),
            TaskDecision::Run(..)
        ));
    }

    #[test]
    fn disabled_tasks_only_are_not_applicable() {
        let t = tied(":p", "test", vec![task(":p:test", false, &[], &[])]);
        let TaskDecision::Refused(r) = choose(&t, Some("a.BTests"), TaskChoice::default()) else {
            panic!()
        };
        assert_eq!(r.code, ReasonCode::NoRunnableTask);
        assert!(r.text.contains("(`:p:test` disabled)"), "{}", r.text);
    }

    #[test]
    fn another_projects_task_runs_a_source_set_only_without_one_of_its_own() {
        let t = tied(
            ":a",
            "test",
            vec![
                task(":b:check", true, &[], &[]),
                task(":a:other", true, &[], &[]),
            ],
        );
        let TaskDecision::Run(tasks, _) = choose(&t, Some("x.YTests"), TaskChoice::default())
        else {
            panic!()
        };
        assert_eq!(tasks, [":a:other"]);
        let t = tied(":a", "test", vec![task(":b:check", true, &[], &[])]);
        let TaskDecision::Run(tasks, _) = choose(&t, Some("x.YTests"), TaskChoice::default())
        else {
            panic!()
        };
        assert_eq!(tasks, [":b:check"]);
    }

    #[test]
    fn versions_order_numerically_and_before_unversioned_names() {
        let mut names = vec![
            "bcUpgradeTest",
            "v8.19.10#bwcTest",
            "yamlRestCompatTest",
            "v9.1.0-SNAPSHOT#bwcTest",
            "v8.19.9#bwcTest",
            "v9.1.0#bwcTest",
            "v10.0.0#bwcTest",
        ];
        names.sort_by(|a, b| newest_first(a, b));
        assert_eq!(
            names,
            [
                "v10.0.0#bwcTest",
                "v9.1.0#bwcTest",
                "v9.1.0-SNAPSHOT#bwcTest",
                "v8.19.10#bwcTest",
                "v8.19.9#bwcTest",
                "bcUpgradeTest",
                "yamlRestCompatTest",
            ]
        );
        assert_eq!(
            version_of("destructiveDistroUpgradeTest.v8.0.0.default-deb"),
            Some((vec![8, 0, 0], false))
        );
        assert_eq!(version_of("java17Test"), None);
        assert_eq!(
            version_of("v99999999999999999999999.1"),
            Some((vec![u64::MAX, 1], false))
        );
    }
}
