//! How each Test task's tests are repeated, chosen from evidence about the
//! build, and the check of that choice against the first run's reports.
//!
//! In one test JVM where the task's framework has a mechanism
//! ([`InJvm`]): `-Dtests.iters=N` where the randomizedtesting runner runs the
//! tests *and* the property reaches the test JVM; gradle-flaky's TestNG
//! annotation transformer (`invocationCount`) for TestNG; gradle-flaky's JUnit 4
//! runner for plain JUnit 4 (and JUnit 3 classes); its JUnit Platform engine
//! when `--repetition in-jvm` asks. The helpers are Java sources of this
//! repository (`java/repeat/`), compiled and applied for one invocation by
//! `gradle/flaky-repeat.gradle`. Everywhere else, and with `--repetition
//! gradle-runs`, the command is run N times (each test once per Gradle run,
//! every run's reports kept).
//!
//! The evidence is the layout's: the task's test framework, whether its source
//! set's runtime classpath declares randomizedtesting-runner, and whether a
//! probe value of `-Dtests.iters` reached the task's JVM arguments. Whatever
//! the mechanism, the repetition engine checks the first run: a class that
//! ran each test once (the layout could not tell, the helper could not be
//! compiled) runs the rest as Gradle runs (`GradleCommand::fallback`).

use crate::domain::{ClassifiedTest, InJvm, Repeating, RepetitionMode, TestKind};
use crate::invocation::FreshJvms;
use crate::layout::Layout;
use crate::test_filter::RunnerTraits;
use std::collections::BTreeMap;

/// What the layout says about one Test task's runner (its JSON travels to a
/// CI job with a batch, `plan::replan`, without the classes).
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct TaskFacts {
    /// `junit`, `testng`, `junitPlatform`, another class name; `None`: unknown.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub framework: Option<String>,
    /// The task's source set declares randomizedtesting-runner on its runtime classpath.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub randomized_testing: Option<bool>,
    /// `-Dtests.iters` given to Gradle reaches the test JVM.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub forwards_tests_iters: Option<bool>,
    /// Its compiled test classes that its patterns accept (what a sample of
    /// a whole-task run draws from); empty when unknown.
    #[serde(skip)]
    pub classes: Vec<String>,
}

impl TaskFacts {
    /// The facts of its runner alone.
    pub(crate) fn without_classes(&self) -> TaskFacts {
        TaskFacts {
            classes: Vec::new(),
            ..self.clone()
        }
    }
}

/// The facts of every Test task of the layout, by task path.
pub(crate) fn task_facts(layout: &Layout) -> BTreeMap<String, TaskFacts> {
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
                classes: Vec::new(),
            },
        );
    }
    out
}

/// How one task's tests of one kind are repeated, and why, in a few words
/// (`plain JUnit ignores -Dtests.iters`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Strategy {
    pub repetition: Repeating,
    /// The mechanism of an in-JVM choice.
    pub in_jvm: Option<InJvm>,
    pub reason: String,
    /// How the task's runner reads `--tests` filters.
    pub runner: RunnerTraits,
    /// How many fresh test JVMs an in-JVM choice spreads each class's
    /// iterations over.
    pub fresh_jvms: FreshJvms,
}

/// The repetition of `kind`'s tests on a task with these facts (`None`: the
/// task is not in the layout, or there is no layout), as `mode` asks.
pub(crate) fn choose(kind: &TestKind, facts: Option<&TaskFacts>, mode: RepetitionMode) -> Strategy {
    let facts = facts.cloned().unwrap_or_default();
    let make = Make {
        testng: facts.framework.as_deref() == Some("testng"),
    };
    if kind.is_rest() {
        return Strategy {
            runner: RunnerTraits::default(),
            ..make.gradle_runs("each Gradle run runs every REST test once")
        };
    }
    if mode == RepetitionMode::GradleRuns {
        return make.gradle_runs(
            "--repetition gradle-runs: a fresh Gradle run (and test JVM) per iteration",
        );
    }
    match facts.framework.as_deref() {
        Some("testng") => make.in_jvm(
            InJvm::TestngInvocationCount,
            "TestNG repeats each selected method in a few fresh test JVMs per class \
             (invocationCount, set by gradle-flaky's annotation transformer)",
        ),
        Some("junitPlatform") if mode == RepetitionMode::InJvm => make.in_jvm(
            InJvm::PlatformEngine,
            "gradle-flaky's JUnit Platform engine repeats the selection in a few fresh test \
             JVMs per class (--repetition in-jvm)",
        ),
        Some("junitPlatform") => make.gradle_runs(
            "the JUnit Platform repeats by Gradle runs unless --repetition in-jvm asks for \
             gradle-flaky's engine (verified with the console launcher, not on Gradle)",
        ),
        Some("junit") | None => junit(&facts, make),
        Some(other) => make.gradle_runs(&format!(
            "the test framework `{other}` has no in-JVM repetition gradle-flaky knows"
        )),
    }
}

/// JUnit 4 (or an unknown framework): the randomized runner's `-Dtests.iters`
/// where it runs the tests and the property reaches the test JVM, else
/// gradle-flaky's JUnit 4 runner.
fn junit(facts: &TaskFacts, make: Make) -> Strategy {
    if facts.randomized_testing == Some(false) {
        return make.in_jvm(
            InJvm::Junit4Runner,
            "plain JUnit 4 ignores -Dtests.iters: gradle-flaky's JUnit 4 runner repeats the \
             selected classes in a few fresh test JVMs, one class after the other",
        );
    }
    if facts.forwards_tests_iters == Some(false) {
        return make.in_jvm(
            InJvm::Junit4Runner,
            "-Dtests.iters does not reach the test JVM (the task does not forward tests.* \
             properties): gradle-flaky's JUnit 4 runner repeats the selected classes in a few \
             fresh test JVMs, one class after the other",
        );
    }
    let reason = if facts.randomized_testing == Some(true)
        && facts.forwards_tests_iters == Some(true)
    {
        "the randomizedtesting runner repeats each test (-Dtests.iters) in a few fresh test JVMs \
         per class"
    } else {
        "-Dtests.iters, not confirmed by the layout: if the first run ignores it, Gradle runs follow"
    };
    Strategy {
        runner: RunnerTraits::default(),
        ..make.in_jvm(InJvm::TestsIters, reason)
    }
}

/// Builds the strategies of one task.
#[derive(Clone, Copy)]
struct Make {
    /// The task runs TestNG.
    testng: bool,
}

impl Make {
    fn gradle_runs(self, reason: &str) -> Strategy {
        Strategy {
            repetition: Repeating::GradleRuns,
            in_jvm: None,
            reason: reason.to_string(),
            runner: RunnerTraits {
                testng: self.testng,
                parameterized_cases: true,
            },
            fresh_jvms: FreshJvms::Sampled,
        }
    }

    fn in_jvm(self, mechanism: InJvm, reason: &str) -> Strategy {
        Strategy {
            repetition: Repeating::InJvm,
            in_jvm: Some(mechanism),
            reason: reason.to_string(),
            runner: RunnerTraits {
                testng: self.testng,
                parameterized_cases: mechanism != InJvm::TestsIters,
            },
            fresh_jvms: FreshJvms::Sampled,
        }
    }
}

/// `choice` on Gradle runs instead, for `reason`.
pub(crate) fn on_gradle_runs(choice: Strategy, reason: String) -> Strategy {
    Strategy {
        reason,
        ..Make {
            testng: choice.runner.testng,
        }
        .gradle_runs("")
    }
}

/// `choice` in the JVM still, but a fresh JVM per execution, for `reason`.
pub(crate) fn on_fresh_jvm_each(choice: Strategy, reason: String) -> Strategy {
    Strategy {
        reason,
        fresh_jvms: FreshJvms::PerExecution,
        ..choice
    }
}

/// `choice` for one test, as `mode` asks: gradle-flaky's JUnit 4 runner runs
/// named classes, so a suite, a class its task runs only inside a suite, or
/// a whole task, is repeated by Gradle runs (as the build runs it); unless
/// `--repetition in-jvm` asks, when a member class runs by the runner as
/// named, outside its suite (as `included-for-this-run` runs it), but never
/// an instance a suite creates (it may have no constructor to run it alone).
pub(crate) fn for_test(choice: Strategy, test: &ClassifiedTest, mode: RepetitionMode) -> Strategy {
    let class = test.class.is_some() && !test.is_suite;
    let named = class && test.via_suite.is_none();
    let member = class
        && mode == RepetitionMode::InJvm
        && test
            .via_suite
            .as_ref()
            .is_some_and(|via| via.created_by.is_empty());
    if choice.in_jvm != Some(InJvm::Junit4Runner) || named {
        return choice;
    }
    if member {
        return Strategy {
            reason: "gradle-flaky's JUnit 4 runner repeats the member class by name in one test \
                     JVM, outside its suite (--repetition in-jvm)"
                .into(),
            ..choice
        };
    }
    let created = test
        .via_suite
        .as_ref()
        .map_or(&[][..], |via| &via.created_by[..]);
    let reason = match created {
        [] => "suites, the classes run inside one and whole tasks repeat by Gradle runs \
               (gradle-flaky's JUnit 4 runner runs named classes)"
            .to_string(),
        suites => format!(
            "{} creates it as instances (`addTest(new …)`), which may have no constructor to \
             run alone: it repeats by Gradle runs, through the suite",
            suites.join(", ")
        ),
    };
    // The runner's filter traits are those of Gradle runs already.
    on_gradle_runs(choice, reason)
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
            classes: Vec::new(),
        }
    }

    #[test]
    fn each_framework_gets_its_in_jvm_mechanism() {
        let unit = TestKind::Unit;
        let auto = RepetitionMode::Auto;
        let choose = |f: TaskFacts, mode| {
            let c = choose(&unit, Some(&f), mode);
            (c.repetition, c.in_jvm, c.reason)
        };
        let (r, m, why) = choose(facts(Some("junit"), Some(true), Some(true)), auto);
        assert_eq!((r, m), (Repeating::InJvm, Some(InJvm::TestsIters)));
        assert!(why.contains("randomizedtesting"), "{why}");
        let (r, m, why) = choose(facts(Some("junit"), Some(false), Some(false)), auto);
        assert_eq!((r, m), (Repeating::InJvm, Some(InJvm::Junit4Runner)));
        assert!(
            why.starts_with("plain JUnit 4 ignores -Dtests.iters"),
            "{why}"
        );
        let (_, m, why) = choose(facts(Some("junit"), Some(true), Some(false)), auto);
        assert_eq!(m, Some(InJvm::Junit4Runner));
        assert!(why.contains("does not reach the test JVM"), "{why}");
        let (r, m, _) = choose(facts(Some("testng"), Some(true), Some(true)), auto);
        assert_eq!(
            (r, m),
            (Repeating::InJvm, Some(InJvm::TestngInvocationCount))
        );
        let (r, _, _) = choose(facts(Some("junitPlatform"), None, None), auto);
        assert_eq!(r, Repeating::GradleRuns, "auto: not verified on Gradle");
        let (r, m, _) = choose(
            facts(Some("junitPlatform"), None, None),
            RepetitionMode::InJvm,
        );
        assert_eq!((r, m), (Repeating::InJvm, Some(InJvm::PlatformEngine)));
        let (r, _, _) = choose(
            facts(Some("org.example.Custom"), Some(true), Some(true)),
            auto,
        );
        assert_eq!(r, Repeating::GradleRuns);
        for f in [Some("testng"), Some("junit"), None] {
            let (r, m, why) = choose(facts(f, Some(false), None), RepetitionMode::GradleRuns);
            assert_eq!((r, m), (Repeating::GradleRuns, None));
            assert!(why.starts_with("--repetition gradle-runs"), "{why}");
        }
        let unknown = super::choose(&unit, None, auto);
        assert_eq!(unknown.in_jvm, Some(InJvm::TestsIters));
        assert!(
            unknown.reason.contains("not confirmed"),
            "{}",
            unknown.reason
        );
        let rest = super::choose(&TestKind::JavaRestTest, None, RepetitionMode::InJvm);
        assert_eq!(rest.repetition, Repeating::GradleRuns);
        let testng = super::choose(&unit, Some(&facts(Some("testng"), None, None)), auto);
        assert!(testng.runner.testng);
    }

    #[test]
    fn suites_and_whole_tasks_leave_the_junit4_runner_for_gradle_runs() {
        let junit4 = choose(
            &TestKind::Unit,
            Some(&facts(Some("junit"), Some(false), None)),
            RepetitionMode::Auto,
        );
        let mut t = crate::plan::reduce::tests::unit("a.B");
        assert_eq!(
            for_test(junit4.clone(), &t, RepetitionMode::Auto).in_jvm,
            Some(InJvm::Junit4Runner)
        );
        t.is_suite = true;
        let c = for_test(junit4.clone(), &t, RepetitionMode::InJvm);
        assert_eq!((c.repetition, c.in_jvm), (Repeating::GradleRuns, None));
        t.is_suite = false;
        t.class = None;
        let c = for_test(junit4.clone(), &t, RepetitionMode::InJvm);
        assert_eq!(c.repetition, Repeating::GradleRuns);
    }

    /// A member class runs by the runner, outside its suite, only when
    /// `--repetition in-jvm` asks, and never an instance a suite creates.
    #[test]
    fn a_member_class_uses_the_runner_only_when_in_jvm_is_asked() {
        let junit4 = choose(
            &TestKind::Unit,
            Some(&facts(Some("junit"), Some(false), None)),
            RepetitionMode::InJvm,
        );
        let mut t = crate::plan::reduce::tests::unit("a.Member");
        t.via_suite = Some(crate::domain::ViaSuite {
            suites: vec!["a.AllTests".into()],
            junit4: true,
            created_by: vec![],
            route: None,
        });
        let auto = for_test(junit4.clone(), &t, RepetitionMode::Auto);
        assert_eq!(auto.repetition, Repeating::GradleRuns);
        let asked = for_test(junit4.clone(), &t, RepetitionMode::InJvm);
        assert_eq!(asked.in_jvm, Some(InJvm::Junit4Runner));
        assert!(
            asked.reason.contains("outside its suite"),
            "{}",
            asked.reason
        );
        t.via_suite.as_mut().unwrap().created_by = vec!["a.AllTests".into()];
        let created = for_test(junit4, &t, RepetitionMode::InJvm);
        assert_eq!(created.repetition, Repeating::GradleRuns);
    }
}
