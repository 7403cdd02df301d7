//! Reducing a selection to what must run: drop duplicates and tests another
//! selected test already covers, and collapse YAML suites that share a directory.
//!
//! "Covers" is decided per Test task: the whole task (a YAML runner, or a test
//! with no class) covers everything in it; a class covers its methods; a YAML
//! suite path covers the suites below it. This is what makes at most one YAML
//! runner run per task, and what drops suites and cases a runner already runs
//! (running both would run the same suites twice).

use super::group_in_order;
use crate::domain::{ClassifiedTest, TestKind};

/// The tests left to run, and what was merged away, for the plan's notes.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Reduced {
    pub tests: Vec<ClassifiedTest>,
    pub notes: Vec<String>,
}

/// Dedupes, collapses YAML suites by directory, then drops what is covered;
/// the selection's order is kept.
pub fn reduce(tests: &[ClassifiedTest]) -> Reduced {
    let mut notes = Vec::new();
    let tests = drop_covered(tests, &mut notes);
    let tests = collapse_yaml_suites(tests, &mut notes);
    let tests = drop_covered(&tests, &mut notes);
    Reduced { tests, notes }
}

/// What part of its Test task a test selects.
#[derive(Debug, PartialEq, Eq)]
enum ReduceScope<'a> {
    Task,
    Class(&'a str),
    Method(&'a str, &'a str),
    Suite(&'a str),
    /// A shape the selectors should not produce (a method without a class):
    /// it only equals itself.
    Odd(&'a str),
}

fn scope(t: &ClassifiedTest) -> ReduceScope<'_> {
    if t.kind == TestKind::YamlRestTestRunner {
        return ReduceScope::Task;
    }
    match (
        t.class.as_deref(),
        t.method.as_deref(),
        t.yaml_suite.as_deref(),
    ) {
        (_, _, Some(suite)) => ReduceScope::Suite(suite),
        (None, None, None) => ReduceScope::Task,
        (Some(class), None, None) => ReduceScope::Class(class),
        (Some(class), Some(method), None) => ReduceScope::Method(class, method),
        (None, Some(method), None) => ReduceScope::Odd(method),
    }
}

/// Does running `a` also run everything `b` selects?
fn covers(a: &ClassifiedTest, b: &ClassifiedTest) -> bool {
    // A muted test runs only with the build's mutes off, in a batch apart.
    if a.task != b.task || (b.muted().is_some() && a.muted().is_none()) {
        return false;
    }
    // A suite runs the classes its task runs only through it.
    let in_suite = |suite: &str| {
        b.via_suite
            .as_ref()
            .is_some_and(|v| v.suites.iter().any(|s| s == suite))
    };
    match (scope(a), scope(b)) {
        (ReduceScope::Task, _) => true,
        (ReduceScope::Class(c), _) if in_suite(c) => true,
        (ReduceScope::Class(c), ReduceScope::Class(d) | ReduceScope::Method(d, _)) => c == d,
        (ReduceScope::Suite(p), ReduceScope::Suite(q)) => {
            q == p || q.strip_prefix(p).is_some_and(|rest| rest.starts_with('/'))
        }
        (x, y) => x == y,
    }
}

/// Keeps each test no other test covers; among equals the first one wins.
fn drop_covered(tests: &[ClassifiedTest], notes: &mut Vec<String>) -> Vec<ClassifiedTest> {
    let is_dropped = |i: usize| {
        let t = &tests[i];
        tests
            .iter()
            .enumerate()
            .any(|(j, o)| j != i && covers(o, t) && (j < i || !covers(t, o)))
    };
    let dropped: Vec<bool> = (0..tests.len()).map(is_dropped).collect();
    let mut kept = Vec::new();
    for (i, t) in tests.iter().enumerate() {
        if !dropped[i] {
            kept.push(t.clone());
            continue;
        }
        // Coverage is transitive, so some kept test covers this one.
        let by = tests
            .iter()
            .enumerate()
            .find(|(j, o)| !dropped[*j] && covers(o, t))
            .map(|(_, o)| o);
        if let Some(by) = by.filter(|by| scope(by) != scope(t)) {
            notes.push(format!("{} is covered by {}", describe(t), describe(by)));
        }
    }
    kept
}

/// Several suites of one task in one directory become that directory (the
/// `collapseYamlSuites` of Elasticsearch's), in the place of the first of them;
/// every other test keeps its place.
fn collapse_yaml_suites(
    tests: Vec<ClassifiedTest>,
    notes: &mut Vec<String>,
) -> Vec<ClassifiedTest> {
    // Suites at the top of `rest-api-spec/test` are never collapsed (that would run them all).
    let dir_of = |t: &ClassifiedTest| {
        let dir = suite_dir(t).filter(|d| !is_root_dir(d))?;
        Some((t.task.clone(), dir.to_string()))
    };
    let suites = tests.iter().filter_map(|t| Some((dir_of(t)?, t)));
    let groups = group_in_order(suites, |(dir, _)| dir.clone());
    let mut collapsed = Vec::new();
    let mut out = Vec::new();
    for t in &tests {
        let group = dir_of(t)
            .and_then(|dir| groups.iter().find(|(g, _)| *g == dir))
            .filter(|(_, members)| members.len() > 1);
        match group {
            None => out.push(t.clone()),
            Some((dir, _)) if collapsed.contains(&dir) => {}
            Some((dir, members)) => {
                collapsed.push(dir);
                let (task, dir) = dir;
                let names: Vec<String> = members
                    .iter()
                    .filter_map(|(_, m)| m.yaml_suite.as_deref())
                    .map(|n| format!("`{n}`"))
                    .collect();
                notes.push(format!(
                    "YAML suites {} of `{task}` share the directory `{dir}`: the whole directory \
                     runs, every suite in it included",
                    names.join(", "),
                ));
                let mut whole = t.clone();
                whole.class = None;
                whole.method = None;
                whole.yaml_suite = Some(dir.clone());
                out.push(whole);
            }
        }
    }
    out
}

/// The POSIX dirname of a suite's path, for suites only.
fn suite_dir(t: &ClassifiedTest) -> Option<&str> {
    if t.kind != TestKind::YamlRestTestSuite {
        return None;
    }
    let suite = t.yaml_suite.as_deref()?;
    Some(suite.rsplit_once('/').map_or(".", |(dir, _)| dir))
}

/// `.`, `` or `/`: the top of `rest-api-spec/test`.
fn is_root_dir(dir: &str) -> bool {
    dir.is_empty() || dir == "." || dir.chars().all(|c| c == '/')
}

/// What a test selects inside its task: `Class`, `Class.method`, a suite path;
/// `None` for the whole task.
pub fn target(t: &ClassifiedTest) -> Option<String> {
    match scope(t) {
        ReduceScope::Task => None,
        ReduceScope::Class(c) | ReduceScope::Suite(c) | ReduceScope::Odd(c) => Some(c.to_string()),
        ReduceScope::Method(c, m) => Some(format!("{c}.{m}")),
    }
}

/// A test as people name it in notes.
pub fn describe(t: &ClassifiedTest) -> String {
    match (target(t), &scope(t)) {
        (None, _) => format!("the whole `{}` task", t.task),
        (Some(s), ReduceScope::Suite(_)) => format!("YAML suite `{s}` in `{}`", t.task),
        (Some(x), _) => format!("`{x}` in `{}`", t.task),
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    pub use crate::domain::testing::{test, unit};
    use crate::domain::Origin;

    fn yaml(project: &str, kind: TestKind, class: Option<&str>) -> ClassifiedTest {
        test(&format!("{project}:yamlRestTest"), kind, class)
    }

    pub fn suite(project: &str, path: &str) -> ClassifiedTest {
        let mut t = yaml(project, TestKind::YamlRestTestSuite, None);
        t.yaml_suite = Some(path.into());
        t
    }

    pub fn case(project: &str, runner: &str, name: &str) -> ClassifiedTest {
        let mut t = yaml(project, TestKind::YamlRestTestCase, Some(runner));
        t.method = Some(format!("test {{yaml={name}}}"));
        t
    }

    pub fn runner(project: &str) -> ClassifiedTest {
        yaml(project, TestKind::YamlRestTestRunner, None)
    }

    fn names(r: &Reduced) -> Vec<String> {
        r.tests
            .iter()
            .map(|t| format!("{} {}", t.kind, describe(t)))
            .collect()
    }

    #[test]
    fn duplicates_go_and_the_first_occurrence_wins_in_order() {
        let mut again = unit("A");
        again.origin = Origin::Unmuted;
        let r = reduce(&[unit("A"), unit("B"), again]);
        assert_eq!(r.tests, vec![unit("A"), unit("B")]);
        assert!(r.notes.is_empty(), "{:?}", r.notes);
    }

    #[test]
    fn yaml_cases_are_keyed_by_runner_class_too() {
        // Same descriptor, different runners: two cases, not one.
        let a = case(":p", "org.A", "api/f/s");
        let b = case(":p", "org.B", "api/f/s");
        let r = reduce(&[a.clone(), b.clone(), a.clone()]);
        assert_eq!(r.tests, vec![a, b]);
    }

    #[test]
    fn a_whole_class_covers_its_methods() {
        let mut m = unit("A");
        m.method = Some("testX".into());
        let mut other = unit("B");
        other.method = Some("testY".into());
        let r = reduce(&[m.clone(), unit("A"), other.clone(), other.clone()]);
        assert_eq!(r.tests, vec![unit("A"), other]);
        assert_eq!(
            r.notes,
            vec!["`A.testX` in `:server:test` is covered by `A` in `:server:test`"]
        );
    }

    #[test]
    fn a_selected_suite_covers_the_classes_run_only_through_it() {
        let mut member = unit("a.MemberTest");
        member.via_suite = Some(crate::domain::ViaSuite {
            suites: vec!["a.AllTests".into()],
            junit4: true,
            created_by: vec![],
            route: None,
        });
        let r = reduce(&[member.clone(), unit("a.AllTests")]);
        assert_eq!(r.tests, vec![unit("a.AllTests")]);
        assert_eq!(
            r.notes,
            ["`a.MemberTest` in `:server:test` is covered by `a.AllTests` in `:server:test`"]
        );
        assert_eq!(reduce(&[member.clone(), unit("a.Other")]).tests.len(), 2);
    }

    #[test]
    fn suites_sharing_a_directory_collapse_per_task_and_directory() {
        let r = reduce(&[
            suite(":ml", "ml/a"),
            unit("A"),
            suite(":ml", "ml/b"),
            suite(":ml", "search/basic"),
            suite(":sec", "ml/c"),
            suite(":sec", "ml/d"),
            suite(":sec", "top"),
            suite(":sec", "other"),
        ]);
        assert_eq!(
            names(&r),
            vec![
                "yamlRestTestSuite YAML suite `ml` in `:ml:yamlRestTest`",
                "unit `A` in `:server:test`",
                "yamlRestTestSuite YAML suite `search/basic` in `:ml:yamlRestTest`",
                "yamlRestTestSuite YAML suite `ml` in `:sec:yamlRestTest`",
                "yamlRestTestSuite YAML suite `top` in `:sec:yamlRestTest`",
                "yamlRestTestSuite YAML suite `other` in `:sec:yamlRestTest`",
            ]
        );
        assert_eq!(r.notes.len(), 2, "{:?}", r.notes);
        assert!(r.notes[0].contains("`ml/a`, `ml/b`"), "{}", r.notes[0]);
    }

    #[test]
    fn a_lone_suite_and_a_duplicated_suite_stay_as_they_are() {
        let r = reduce(&[suite(":ml", "ml/a"), suite(":ml", "ml/a")]);
        assert_eq!(r.tests, vec![suite(":ml", "ml/a")]);
        assert!(r.notes.is_empty());
    }

    #[test]
    fn a_collapsed_directory_covers_the_suites_below_it() {
        let r = reduce(&[
            suite(":ml", "ml/a"),
            suite(":ml", "ml/b"),
            suite(":ml", "ml/deep/c"),
            suite(":ml", "mlx/d"),
        ]);
        let suites: Vec<_> = r
            .tests
            .iter()
            .filter_map(|t| t.yaml_suite.clone())
            .collect();
        assert_eq!(suites, vec!["ml", "mlx/d"]);
        assert!(
            r.notes
                .iter()
                .any(|n| n.contains("`ml/deep/c`") && n.contains("suite `ml` in")),
            "{:?}",
            r.notes
        );
    }

    #[test]
    fn one_runner_per_task_and_it_covers_that_tasks_suites_and_cases() {
        let mut named = runner(":p");
        named.class = Some("org.p.RunnerIT".into());
        let r = reduce(&[
            suite(":p", "api/a"),
            runner(":p"),
            case(":p", "org.p.RunnerIT", "api/a/x"),
            named,
            runner(":q"),
            suite(":q2", "api/a"),
        ]);
        assert_eq!(
            r.tests,
            vec![runner(":p"), runner(":q"), suite(":q2", "api/a")]
        );
        assert_eq!(r.notes.len(), 2, "{:?}", r.notes);
        assert!(r
            .notes
            .iter()
            .all(|n| n.ends_with("the whole `:p:yamlRestTest` task")));
    }

    #[test]
    fn the_same_class_in_two_tasks_is_kept_twice() {
        let a = unit("A");
        let mut b = unit("A");
        b.task = ":server:otherTest".into();
        assert_eq!(reduce(&[a.clone(), b.clone()]).tests, vec![a, b]);
    }
}
