//! Reproduce lines: which `REPRODUCE WITH:` line of the output names a test, and
//! the command we build when there is none.

use crate::analyze::model::report::TestReport;
use crate::invocation::{Body, Forcing, Invocation, Members, Repeat, TaskRun, Tasks};

/// The Gradle program of built reproduce lines when the caller names none.
const GRADLE: &str = "./gradlew";

/// How a reproduce line runs Gradle: the program and the arguments the run
/// passed to every invocation, and how an up-to-date Test task is forced to
/// run (a line pasted twice runs twice): `clean<Task>` unless the build's
/// Gradle is known to have `--rerun` (7.6+).
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Rerun {
    pub gradle: Vec<String>,
    pub forcing: Forcing,
}

/// Whether a `REPRODUCE WITH:` line re-runs `class`'s `method`: it names
/// `class.method` as the `--tests` filter, or `class` plus `-Dtests.method=method`
/// (the form used for YAML cases), or just `class` for a suite-level failure.
pub(crate) fn line_names_test(line: &str, class: &str, method: &str) -> bool {
    if class.is_empty() {
        return false;
    }
    let mut class_alone = false;
    let mut from = 0;
    while let Some(i) = line[from..].find(class).map(|i| from + i) {
        let after = &line[i + class.len()..];
        from = i + class.len();
        let before = line[..i].chars().next_back();
        if is_ident_char(before) || before == Some('.') {
            continue;
        }
        if let Some(rest) = after.strip_prefix('.') {
            if rest.starts_with(method) && !is_ident_char(rest[method.len()..].chars().next()) {
                return true;
            }
        } else if !is_ident_char(after.chars().next()) {
            class_alone = true;
        }
    }
    if !class_alone {
        return false;
    }
    let named_method = ["tests.method=\"", "tests.method='", "tests.method="]
        .iter()
        .find_map(|p| line.find(p).map(|i| (p, &line[i + p.len()..])));
    match named_method {
        Some((p, rest)) => {
            rest.starts_with(method) && {
                let next = rest[method.len()..].chars().next();
                if p.ends_with('=') {
                    next.is_none_or(char::is_whitespace)
                } else {
                    next == p.chars().last()
                }
            }
        }
        None => method == "classMethod",
    }
}

fn is_ident_char(c: Option<char>) -> bool {
    c.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$')
}

/// Says, for each failing test whose reproduce line re-runs it alone, the run
/// it failed in: the other tests of its class, and the other classes its
/// task ran, which it may depend on (run as printed, it may pass), with the
/// command that re-runs its whole class.
pub(crate) fn add_context(reports: &mut [TestReport], rerun: &Rerun) {
    let contexts: Vec<Option<String>> =
        reports.iter().map(|t| context(t, reports, rerun)).collect();
    for (t, context) in reports.iter_mut().zip(contexts) {
        t.reproduce_context = context;
    }
}

fn context(t: &TestReport, all: &[TestReport], rerun: &Rerun) -> Option<String> {
    let task = t.failing_task.as_deref()?;
    let alone = t.reproduce.is_some()
        && t.failures > 0
        && crate::test_filter::reproduce(&t.class, &t.method).0 != t.class;
    if !alone {
        return None;
    }
    let ran = |o: &&TestReport| o.runs + o.suite_timeouts > 0 && o.kinds == t.kinds;
    let of_class = all
        .iter()
        .filter(ran)
        .filter(|o| o.class == t.class)
        .count()
        - 1;
    let classes: std::collections::BTreeSet<&str> =
        all.iter().filter(ran).map(|o| o.class.as_str()).collect();
    let other_classes = classes.len().saturating_sub(1);
    if of_class == 0 && other_classes == 0 {
        return None;
    }
    let mut with = Vec::new();
    if of_class > 0 {
        with.push(format!("{of_class} other test(s) of its class"));
    }
    if other_classes > 0 {
        with.push(format!("{other_classes} other class(es) of {task}"));
    }
    let seed = t.failing_seeds.first().map(String::as_str);
    Some(format!(
        "it failed in a run with {}: if it passes alone, it may depend on them; its class: {}",
        with.join(" and "),
        build(rerun, task, &t.class, "", seed)
    ))
}

/// Builds `GRADLE TASK --tests FILTER [-Dtests.method=M] [-Dtests.seed=S]`,
/// every word POSIX-quoted. The filter is what Gradle can select
/// (`test_filter::reproduce`): `Class.method`, a JUnit 4 case as named, the
/// method of a TestNG row; a randomizedtesting descriptor (`test {yaml=...}`)
/// is passed as `-Dtests.method`, which that runner matches exactly; a
/// suite-level failure re-runs the class. The seed is there only when the
/// runner reported one (randomizedtesting).
pub(crate) fn build(
    rerun: &Rerun,
    task_path: &str,
    class: &str,
    method: &str,
    seed: Option<&str>,
) -> String {
    let line = once(rerun, task_path, class, method, seed, Members::default());
    crate::shell::join(&line.argv())
}

/// The invocation that runs one test once, as a person would, every time it
/// is pasted: `gradle` (or `./gradlew`), the task forced to run with the
/// filter that selects the test, the members its run included, the seed it
/// failed with.
pub(crate) fn once(
    rerun: &Rerun,
    task_path: &str,
    class: &str,
    method: &str,
    seed: Option<&str>,
    members: Members,
) -> Invocation {
    let gradle = if rerun.gradle.is_empty() {
        vec![GRADLE.to_string()]
    } else {
        rerun.gradle.clone()
    };
    let (filter, method_property) = crate::test_filter::reproduce(class, method);
    let task = TaskRun {
        members,
        ..TaskRun::filtered(task_path, vec![filter])
    };
    Invocation {
        gradle,
        body: Body::Tasks(Tasks {
            method: method_property,
            ..Tasks::of(vec![task], Some(rerun.forcing))
        }),
        repeat: Repeat::GradleRuns(1),
        seed: seed.map(String::from),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failure_rerun_alone_names_the_run_it_failed_in() {
        let dir = tempfile::tempdir().unwrap();
        let results = dir.path().join("p/build/test-results/test");
        std::fs::create_dir_all(&results).unwrap();
        let suite = |class: &str, cases: &str| {
            let xml = format!(r#"<testsuite name="{class}">{cases}</testsuite>"#);
            std::fs::write(results.join(format!("TEST-{class}.xml")), xml).unwrap();
        };
        suite(
            "a.OrderTests",
            r#"<testcase classname="a.OrderTests" name="testSetup"/>
               <testcase classname="a.OrderTests" name="testUsesState"><failure type="java.lang.AssertionError" message="x"/></testcase>"#,
        );
        suite(
            "a.OtherTests",
            r#"<testcase classname="a.OtherTests" name="testFine"/>"#,
        );
        let opts = crate::analyze::AnalyzeOptions {
            rerun: rerun(&["gradle"]),
            ..Default::default()
        };
        let report = crate::analyze::analyze_root(dir.path(), &opts);
        let failing = &report.tests[0];
        assert_eq!(
            failing.reproduce.as_deref(),
            Some("gradle :p:cleanTest :p:test --tests a.OrderTests.testUsesState")
        );
        assert_eq!(
            failing.reproduce_context.as_deref(),
            Some(
                "it failed in a run with 1 other test(s) of its class and 1 other class(es) of \
                 :p:test: if it passes alone, it may depend on them; its class: gradle \
                 :p:cleanTest :p:test --tests a.OrderTests"
            )
        );
        let md = crate::analyze::render::markdown(&report);
        assert!(
            md.contains("# a.OrderTests.testUsesState (1 of 1 failed)\n# it failed in a run with"),
            "{md}"
        );
    }

    #[test]
    fn matches_the_line_of_the_test_and_not_of_a_longer_name() {
        let line =
            r#"./gradlew ':server:test' --tests "org.example.FooTests.testFoo" -Dtests.seed=ABC"#;
        assert!(line_names_test(line, "org.example.FooTests", "testFoo"));
        assert!(!line_names_test(line, "org.example.FooTests", "testFo"));
        assert!(!line_names_test(line, "example.FooTests", "testFoo"));
        assert!(!line_names_test(
            line,
            "org.example.FooTests",
            "classMethod"
        ));
        let bar = r#"./gradlew ':server:test' --tests "org.example.FooTests.testFooBar""#;
        assert!(!line_names_test(bar, "org.example.FooTests", "testFoo"));
    }

    #[test]
    fn matches_yaml_cases_by_tests_method_and_suites_by_class() {
        let line = r#"./gradlew ":m:yamlRestTest" --tests "org.example.FooIT" -Dtests.method="test {yaml=a/10_b/c d}" -Dtests.seed=1"#;
        assert!(line_names_test(
            line,
            "org.example.FooIT",
            "test {yaml=a/10_b/c d}"
        ));
        assert!(!line_names_test(
            line,
            "org.example.FooIT",
            "test {yaml=a/10_b/c}"
        ));
        let suite = r#"./gradlew ":m:test" --tests "org.example.FooIT" -Dtests.seed=1"#;
        assert!(line_names_test(suite, "org.example.FooIT", "classMethod"));
        assert!(!line_names_test(suite, "org.example.FooIT", "testX"));
    }

    fn rerun(gradle: &[&str]) -> Rerun {
        Rerun {
            gradle: gradle.iter().map(|s| s.to_string()).collect(),
            forcing: Forcing::CleanTask,
        }
    }

    /// Every line forces its Test task to run, so that it runs each time it
    /// is pasted: `clean<Task>` before it, or `--rerun` after it on 7.6+.
    #[test]
    fn builds_a_quoted_command_with_the_failing_seed() {
        assert_eq!(
            build(
                &rerun(&[]),
                ":server:test",
                "org.example.FooTests",
                "testFoo",
                Some("A:B")
            ),
            "./gradlew :server:cleanTest :server:test --tests org.example.FooTests.testFoo \
             -Dtests.seed=A:B"
        );
        let rerun_7_6 = Rerun {
            forcing: Forcing::Rerun,
            ..rerun(&[])
        };
        assert_eq!(
            build(&rerun_7_6, ":server:test", "a.FooTests", "testFoo", None),
            "./gradlew :server:test --tests a.FooTests.testFoo --rerun"
        );
        assert_eq!(
            build(
                &rerun(&[]),
                ":m:yamlRestTest",
                "org.example.FooIT",
                "test {yaml=a/10_b/it's}",
                None
            ),
            r#"./gradlew :m:cleanYamlRestTest :m:yamlRestTest --tests org.example.FooIT '-Dtests.method=test {yaml=a/10_b/it'\''s}'"#
        );
        assert_eq!(
            build(
                &rerun(&["gradle", "--offline"]),
                ":t:test",
                "Foo",
                "testX",
                Some("S")
            ),
            "gradle --offline :t:cleanTest :t:test --tests Foo.testX -Dtests.seed=S",
            "the build's own Gradle program, when the caller names it"
        );
        assert_eq!(
            build(&rerun(&[]), ":test", "Foo", "classMethod", None),
            "./gradlew :cleanTest :test --tests Foo"
        );
        let gradle = rerun(&["gradle"]);
        assert_eq!(
            build(
                &gradle,
                ":core:test",
                "a.KeyValueParserTest",
                "parses[2: flaky]",
                None
            ),
            "gradle :core:cleanTest :core:test --tests 'a.KeyValueParserTest.parses[2: flaky]'",
            "a JUnit 4 case is selected as named; plain JUnit has no seed"
        );
        assert_eq!(
            build(
                &gradle,
                ":client:test",
                "a.RequestEncoderTest",
                "encodes[2](flaky, x&y)",
                None
            ),
            "gradle :client:cleanTest :client:test --tests a.RequestEncoderTest.encodes",
            "one TestNG row cannot be selected: its method can"
        );
        assert_eq!(
            build(
                &gradle,
                ":core:test",
                "a.LruCacheTest$EvictionTest",
                "evicts",
                None
            ),
            "gradle :core:cleanTest :core:test --tests 'a.LruCacheTest$EvictionTest.evicts'"
        );
    }
}
