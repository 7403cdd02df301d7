//! How each Test task's tests are repeated, chosen from evidence about the
//! build, and the check of that choice against the first run's reports.
//!
//! `-Dtests.iters=N` repeats tests only where the randomizedtesting runner runs
//! them *and* the property reaches the test JVM; plain JUnit 4, TestNG and the
//! JUnit Platform ignore it, and a build that does not forward `tests.*`
//! properties never shows it to the tests. Everywhere else the command is run N
//! times (each test once per Gradle run, every run's reports kept).
//!
//! The evidence is the layout's: the task's test framework, whether its source
//! set's runtime classpath declares randomizedtesting-runner, and whether a
//! probe value of `-Dtests.iters` reached the task's JVM arguments. When the
//! layout cannot tell (no layout, an unreadable classpath), `-Dtests.iters` is
//! tried and [`ignored_iters`] checks the first run: if it ran each test once,
//! the remaining runs are Gradle runs (`Command::fallback`).

use crate::domain::{Repetition, TestKind};
use crate::layout::Layout;
use crate::test_filter::RunnerTraits;
use std::collections::BTreeMap;

/// What the layout says about one Test task's runner.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TaskFacts {
    /// `junit`, `testng`, `junitPlatform`, another class name; `None`: unknown.
    pub framework: Option<String>,
    /// The task's source set declares randomizedtesting-runner on its runtime classpath.
    pub randomized_testing: Option<bool>,
    /// `-Dtests.iters` given to Gradle reaches the test JVM.
    pub forwards_tests_iters: Option<bool>,
}

/// The facts of every Test task of the layout, by task path.
pub fn task_facts(layout: &Layout) -> BTreeMap<String, TaskFacts> {
    let sets: Vec<_> = layout
        .projects
        .iter()
        .flat_map(|p| &p.source_sets)
        .collect();
    let mut out = BTreeMap::new();
    for task in layout.projects.iter().flat_map(|p| &p.test_tasks) {
        // The source sets whose classes the task runs: tied by output dirs.
        let randomized: Vec<Option<bool>> = sets
            .iter()
            .filter(|s| {
                s.classes_dirs
                    .iter()
                    .any(|d| task.test_classes_dirs.contains(d))
            })
            .map(|s| s.randomized_testing)
            .collect();
        let randomized_testing = if randomized.contains(&Some(true)) {
            Some(true)
        } else if !randomized.is_empty() && randomized.iter().all(|r| *r == Some(false)) {
            Some(false)
        } else {
            None
        };
        out.insert(
            task.path.clone(),
            TaskFacts {
                framework: task.framework.clone(),
                randomized_testing,
                forwards_tests_iters: task.forwards_tests_iters,
            },
        );
    }
    out
}

/// How one task's tests of one kind are repeated, and why, in a few words
/// (`plain JUnit ignores -Dtests.iters`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Strategy {
    pub repetition: Repetition,
    pub reason: String,
    /// How the task's runner reads `--tests` filters.
    pub runner: RunnerTraits,
}

/// The repetition of `kind`'s tests on a task with these facts (`None`: the
/// task is not in the layout, or there is no layout).
pub fn choose(kind: &TestKind, facts: Option<&TaskFacts>) -> Strategy {
    let facts = facts.cloned().unwrap_or_default();
    let testng = facts.framework.as_deref() == Some("testng");
    let gradle_runs = |reason: &str| Strategy {
        repetition: Repetition::GradleRuns,
        reason: reason.to_string(),
        runner: RunnerTraits {
            testng,
            parameterized_cases: true,
        },
    };
    if kind.is_rest() {
        return Strategy {
            runner: RunnerTraits::default(),
            ..gradle_runs("each Gradle run runs every REST test once")
        };
    }
    match facts.framework.as_deref() {
        Some("testng") => return gradle_runs("TestNG ignores -Dtests.iters"),
        Some("junitPlatform") => return gradle_runs("the JUnit Platform ignores -Dtests.iters"),
        Some("junit") | None => {}
        Some(other) => {
            return gradle_runs(&format!(
                "the test framework `{other}` is not known to honour -Dtests.iters"
            ))
        }
    }
    if facts.randomized_testing == Some(false) {
        return gradle_runs(
            "plain JUnit ignores -Dtests.iters (no randomizedtesting runner on the test classpath)",
        );
    }
    if facts.forwards_tests_iters == Some(false) {
        return gradle_runs(
            "-Dtests.iters does not reach the test JVM (the task does not forward tests.* \
             properties)",
        );
    }
    let reason = if facts.randomized_testing == Some(true)
        && facts.forwards_tests_iters == Some(true)
    {
        "the randomizedtesting runner repeats each test in the test JVM (-Dtests.iters)"
    } else {
        "-Dtests.iters, not confirmed by the layout: if the first run ignores it, Gradle runs follow"
    };
    Strategy {
        repetition: Repetition::InJvm,
        reason: reason.to_string(),
        runner: RunnerTraits::default(),
    }
}

/// Whether an in-JVM run of `iterations` ignored `-Dtests.iters`: some class
/// ran each of its tests at most once. `rows` are the run's tests as
/// (class, method, executions); the suite-level `classMethod` pseudo-case is
/// not a test.
pub fn ignored_iters(iterations: u32, rows: &[(String, String, u64)]) -> bool {
    if iterations <= 1 {
        return false;
    }
    let mut most: BTreeMap<&str, u64> = BTreeMap::new();
    for (class, method, executions) in rows {
        if method == "classMethod" {
            continue;
        }
        let m = most.entry(class.as_str()).or_default();
        *m = (*m).max(*executions);
    }
    most.values().any(|&m| m <= 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts(
        framework: Option<&str>,
        randomized: Option<bool>,
        forwards: Option<bool>,
    ) -> TaskFacts {
        TaskFacts {
            framework: framework.map(String::from),
            randomized_testing: randomized,
            forwards_tests_iters: forwards,
        }
    }

    #[test]
    fn tests_iters_only_where_randomizedtesting_gets_it() {
        let unit = TestKind::Unit;
        let choose = |f: TaskFacts| {
            let c = choose(&unit, Some(&f));
            (c.repetition, c.reason)
        };
        let (r, why) = choose(facts(Some("junit"), Some(true), Some(true)));
        assert_eq!(r, Repetition::InJvm);
        assert!(why.contains("randomizedtesting"), "{why}");
        let (r, why) = choose(facts(Some("junit"), Some(false), Some(false)));
        assert_eq!(r, Repetition::GradleRuns);
        assert!(
            why.starts_with("plain JUnit ignores -Dtests.iters"),
            "{why}"
        );
        let (r, why) = choose(facts(Some("junit"), Some(true), Some(false)));
        assert_eq!(r, Repetition::GradleRuns);
        assert!(why.contains("does not reach the test JVM"), "{why}");
        let (r, why) = choose(facts(Some("testng"), Some(true), Some(true)));
        assert_eq!(
            (r, why.as_str()),
            (Repetition::GradleRuns, "TestNG ignores -Dtests.iters")
        );
        let (r, _) = choose(facts(Some("junitPlatform"), None, None));
        assert_eq!(r, Repetition::GradleRuns);
        let (r, _) = choose(facts(Some("org.example.Custom"), Some(true), Some(true)));
        assert_eq!(r, Repetition::GradleRuns);
        let unknown = super::choose(&unit, None);
        assert_eq!(unknown.repetition, Repetition::InJvm);
        assert!(
            unknown.reason.contains("not confirmed"),
            "{}",
            unknown.reason
        );
        let rest = super::choose(&TestKind::JavaRestTest, None);
        assert_eq!(rest.repetition, Repetition::GradleRuns);
        let testng = super::choose(&unit, Some(&facts(Some("testng"), None, None)));
        assert!(testng.runner.testng);
    }

    #[test]
    fn a_class_run_once_shows_the_iterations_were_ignored() {
        let row = |c: &str, m: &str, n| (c.to_string(), m.to_string(), n);
        assert!(!ignored_iters(5, &[row("A", "a", 5), row("A", "b", 5)]));
        assert!(ignored_iters(5, &[row("A", "a", 5), row("B", "b", 1)]));
        assert!(!ignored_iters(1, &[row("A", "a", 1)]));
        assert!(
            !ignored_iters(5, &[row("A", "a", 5), row("A", "classMethod", 1)]),
            "a suite-level failure is not a test"
        );
        assert!(
            !ignored_iters(5, &[row("A", "a", 5), row("A", "skippedOnce", 1)]),
            "one test of a repeated class may execute less"
        );
    }
}
