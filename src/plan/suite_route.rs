//! How a test that its task runs only inside a suite ([`ViaSuite`]) is made to
//! run, exactly it and once, chosen by the build's Gradle version:
//! - `runs-through-suite`: the plain `--tests` filter, which this Gradle
//!   applies inside the suite (Gradle before 4.7, JUnit 4 `@SuiteClasses`
//!   all the way down: its runner filters each member class and method; a
//!   member that is a suite itself is not reached so: the filter is matched
//!   against the tests inside it, never against its name);
//! - `included-for-this-run`: the class is added to the task's includes for
//!   this invocation, and the suites that would also run it left out, by
//!   gradle-flaky's init script `gradle/flaky-suite-members.gradle` (what
//!   Surefire's `-Dtest` does), through `-Dflaky.include.<task>=<classes>`
//!   and `-Dflaky.exclude.<task>=<suites>`; then `--tests` selects it. On
//!   Gradle 4.7+, where the suite never runs under a filter that does not
//!   name it, and on older Gradle for JUnit 3 `suite()`s, whose child suites
//!   its filter keeps whole (measured on 4.4.1: `--tests` naming one class
//!   ran the 2519 tests of its package's suite); but not for tests the
//!   included suite's `suite()` adds as instances (`addTest(new X("testFoo"))`),
//!   which are no child suites: the filter matches each (measured on 4.4.1),
//!   and the class may have no constructor JUnit could run it by alone.
//!
//! A wrong guess shows in the first run: a filter that ran nothing fails the
//! run ("no tests executed"), and the selected test is "never executed".

use super::gradle_version::GradleVersion;
use crate::domain::{ClassifiedTest, Route, RouteCode, ViaSuite};
use crate::invocation::Members;

/// From Gradle 4.7 a Test task drops, before running anything, every class
/// whose name cannot match a `--tests` filter: `PatternMatchTestClassProcessor`
/// asks `TestSelectionMatcher.mayIncludeClass` for each scanned class
/// (gradle/gradle#4597, released in 4.7 as gradle/gradle#6812 states;
/// `subprojects/testing-base/.../processors/PatternMatchTestClassProcessor.java`).
/// A suite whose own name the filter does not match never runs, so `--tests`
/// cannot reach its members. Before 4.7 the suite runs and the filter is
/// applied inside it (`JUnitTestClassExecuter`).
pub(crate) const CLASS_NAME_PREFILTER: GradleVersion = GradleVersion {
    major: 4,
    minor: 7,
    patch: None,
};

/// How `class` of `task` (a suite itself when `is_suite`), run by its
/// suites as `via` says, is run on Gradle `version` (`None`: unknown), and why.
pub(crate) fn choose(
    via: &ViaSuite,
    class: &str,
    is_suite: bool,
    task: &str,
    version: Option<GradleVersion>,
) -> Route {
    let suites = quoted(&via.suites);
    let through = |reason| Route {
        reason_code: RouteCode::RunsThroughSuite,
        reason,
    };
    let included = |why: String| {
        if !passable(task) || !is_binary_name(class) {
            return through(format!(
                "{why}; but `{task}` or `{class}` cannot be passed to the init script, so it \
                 runs through {suites} as the build runs it"
            ));
        }
        Route {
            reason_code: RouteCode::IncludedForThisRun,
            reason: format!(
                "{why}: it is added to `{task}`'s includes for this run, and {suites} left out \
                 (gradle-flaky's init script)"
            ),
        }
    };
    match version {
        Some(v) if v < CLASS_NAME_PREFILTER && is_suite => included(format!(
            "Gradle {v} matches `--tests` against the tests inside a suite, never against the \
             suite's name: through {suites} this suite would run nothing"
        )),
        Some(v) if v < CLASS_NAME_PREFILTER && via.junit4 => through(format!(
            "Gradle {v} applies `--tests` inside JUnit 4 suites: it runs through {suites}"
        )),
        Some(v) if v < CLASS_NAME_PREFILTER && created_by_included(via) => through(format!(
            "{suites} adds it as instances (`addTest(new …)`), each a test of the suite itself, \
             which Gradle {v} filters one by one: it runs through {suites}, as the build runs it"
        )),
        Some(v) if v < CLASS_NAME_PREFILTER && !via.created_by.is_empty() => {
            let creators = quoted(&via.created_by);
            let mut route = included(format!(
                "{creators} adds it as instances (`addTest(new …)`), each a test of that suite, \
                 which Gradle {v} filters one by one, inside a child suite of {suites} it keeps \
                 whole: {creators} runs it instead of the class itself (JUnit may have no \
                 constructor to run it by alone)"
            ));
            if route.reason_code == RouteCode::IncludedForThisRun {
                route.reason_code = RouteCode::SuiteIncludedForThisRun;
            }
            route
        }
        Some(v) if v < CLASS_NAME_PREFILTER => included(format!(
            "Gradle {v} keeps the child suites of a JUnit 3 `suite()` whole: through {suites}, \
             `--tests` would run every test of the child suite that holds it"
        )),
        Some(v) => included(format!(
            "Gradle {v} drops the classes a `--tests` filter does not name before running any \
             (4.7+): through {suites} it would run nothing"
        )),
        None => included(
            "the build's Gradle version is unknown, and adding the class to the includes works \
             on every version"
                .into(),
        ),
    }
}

/// `a`, `b`: names for a reason.
pub(crate) fn quoted(names: &[String]) -> String {
    names
        .iter()
        .map(|s| format!("`{s}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Every way to the class is an instance an included suite's own `suite()` adds.
fn created_by_included(via: &ViaSuite) -> bool {
    !via.created_by.is_empty() && via.created_by.iter().all(|c| via.suites.contains(c))
}

/// What the init script adds to a task's includes to run `t`: the class, or
/// the suites that add it as instances (its tests are theirs).
fn to_include(t: &ClassifiedTest) -> Vec<&str> {
    match &t.via_suite {
        Some(via) if route_code(t) == Some(RouteCode::SuiteIncludedForThisRun) => {
            via.created_by.iter().map(String::as_str).collect()
        }
        _ => t.class.as_deref().into_iter().collect(),
    }
}

/// Chooses the route of every test run through suites.
pub(crate) fn choose_all(tests: &mut [ClassifiedTest], version: Option<GradleVersion>) {
    for t in tests {
        let (Some(via), Some(class)) = (t.via_suite.as_mut(), t.class.as_deref()) else {
            continue;
        };
        via.route = Some(choose(via, class, t.is_suite, &t.task, version));
    }
}

/// Whether `test` (or the suite that creates it) is added to its task's includes.
pub(crate) fn included(t: &ClassifiedTest) -> bool {
    matches!(
        route_code(t),
        Some(RouteCode::IncludedForThisRun | RouteCode::SuiteIncludedForThisRun)
    )
}

fn route_code(t: &ClassifiedTest) -> Option<RouteCode> {
    Some(t.via_suite.as_ref()?.route.as_ref()?.reason_code)
}

/// What makes a task run its included tests of this command (`tests`, all
/// of that task): the classes to include and the suites to leave out, except
/// the suites the command runs itself or through which it runs other tests.
/// Empty when no test is included.
pub(crate) fn members(tests: &[&ClassifiedTest]) -> Members {
    let mut include: Vec<&str> = tests
        .iter()
        .filter(|t| included(t))
        .flat_map(|t| to_include(t))
        .collect();
    include.sort_unstable();
    include.dedup();
    if include.is_empty() {
        return Members::default();
    }
    let needed: Vec<&str> = tests
        .iter()
        .flat_map(|t| {
            let through = match &t.via_suite {
                Some(via) if !included(t) => via.suites.iter().map(String::as_str).collect(),
                _ => Vec::new(),
            };
            t.class
                .as_deref()
                .into_iter()
                .chain(through)
                .chain(to_include(t))
        })
        .collect();
    let mut exclude: Vec<&str> = tests
        .iter()
        .filter(|t| included(t))
        .flat_map(|t| t.via_suite.iter().flat_map(|v| &v.suites))
        .map(String::as_str)
        .filter(|s| !needed.contains(s) && is_binary_name(s))
        .collect();
    exclude.sort_unstable();
    exclude.dedup();
    let owned = |v: Vec<&str>| v.into_iter().map(String::from).collect();
    Members {
        include: owned(include),
        exclude: owned(exclude),
    }
}

/// A task path that can end a `-D` property's name (`-Dname=value` splits at
/// the first `=`).
fn passable(task: &str) -> bool {
    !task.is_empty() && !task.contains('=') && !task.chars().any(char::is_control)
}

/// A Java binary name: identifiers (`$` allowed) joined by `.`.
pub(crate) fn is_binary_name(name: &str) -> bool {
    name.split('.').all(|part| {
        let mut chars = part.chars();
        chars
            .next()
            .is_some_and(|c| c.is_alphabetic() || c == '_' || c == '$')
            && chars.all(|c| c.is_alphanumeric() || c == '_' || c == '$')
    })
}

/// One note per test run through suites: which way, and why.
pub(crate) fn notes(tests: &[ClassifiedTest]) -> Vec<String> {
    let mut notes: Vec<String> = tests
        .iter()
        .filter_map(|t| {
            let route = t.via_suite.as_ref()?.route.as_ref()?;
            let class = t.class.as_deref()?;
            Some(format!(
                "`{class}` ({}) runs in a suite: {} ({})",
                t.task,
                route.reason,
                route.reason_code.as_str()
            ))
        })
        .collect();
    if tests.iter().any(included) {
        notes.push(
            "the -Dflaky.include.* and -Dflaky.exclude.* properties are read by gradle-flaky's \
             init script, which gradle-flaky adds to the commands it runs: a printed command \
             run alone runs those classes through their suites"
                .into(),
        );
    }
    notes
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::reduce::tests::unit;

    fn via(junit4: bool) -> ViaSuite {
        ViaSuite {
            suites: vec!["a.AllTests".into()],
            junit4,
            created_by: vec![],
            route: None,
        }
    }

    /// A test the included JUnit 3 suite adds as an instance is filtered one
    /// by one before 4.7: it runs through the suite, as the build runs it.
    #[test]
    fn an_instance_the_suite_adds_runs_through_it_before_4_7() {
        let instance = ViaSuite {
            created_by: vec!["a.AllTests".into()],
            ..via(false)
        };
        let route = |v: &str| {
            choose(
                &instance,
                "a.MainTest",
                false,
                ":test",
                GradleVersion::parse(v),
            )
        };
        assert_eq!(route("4.4.1").reason_code, RouteCode::RunsThroughSuite);
        assert!(
            route("4.4.1").reason.contains("adds it as instances"),
            "{}",
            route("4.4.1").reason
        );
        assert_eq!(route("4.7").reason_code, RouteCode::IncludedForThisRun);
        // Created by a nested suite (a child suite the included one keeps
        // whole): that suite is included for the run, not the class.
        let nested = ViaSuite {
            suites: vec!["a.TestAllPackages".into()],
            created_by: vec!["a.gj.TestAll".into()],
            ..via(false)
        };
        let on = |v: &str| {
            choose(
                &nested,
                "a.gj.MainTest",
                false,
                ":test",
                GradleVersion::parse(v),
            )
        };
        let r = on("4.4.1");
        assert_eq!(r.reason_code, RouteCode::SuiteIncludedForThisRun);
        assert!(
            r.reason.contains("`a.gj.TestAll` runs it instead"),
            "{}",
            r.reason
        );
        // From 4.7 the class itself is included (the suite would be dropped).
        let later = on("8.10");
        assert_eq!(later.reason_code, RouteCode::IncludedForThisRun);
        let mut on_8 = unit("a.gj.MainTest");
        on_8.via_suite = Some(ViaSuite {
            route: Some(later),
            ..nested.clone()
        });
        assert_eq!(members(&[&on_8]).include, ["a.gj.MainTest"]);
        let mut member = unit("a.gj.MainTest");
        member.via_suite = Some(ViaSuite {
            route: Some(r),
            ..nested
        });
        let m = members(&[&member]);
        assert_eq!(
            (m.include, m.exclude),
            (
                vec!["a.gj.TestAll".to_string()],
                vec!["a.TestAllPackages".to_string()]
            )
        );
    }

    fn code(junit4: bool, version: Option<&str>) -> RouteCode {
        let v = version.and_then(GradleVersion::parse);
        choose(&via(junit4), "a.MemberTest", false, ":test", v).reason_code
    }

    /// The choice by Gradle version: only before the class-name pre-filter
    /// (4.7) does `--tests` reach a suite's members, and exactly only through
    /// JUnit 4 suites.
    #[test]
    fn the_route_follows_the_gradle_version_and_the_kind_of_suite() {
        use RouteCode::*;
        assert_eq!(code(true, Some("4.4.1")), RunsThroughSuite);
        assert_eq!(code(true, Some("4.6")), RunsThroughSuite);
        assert_eq!(code(true, Some("4.7")), IncludedForThisRun);
        assert_eq!(code(true, Some("8.10.2")), IncludedForThisRun);
        assert_eq!(code(false, Some("4.4.1")), IncludedForThisRun);
        assert_eq!(code(false, Some("9.1")), IncludedForThisRun);
        assert_eq!(code(true, None), IncludedForThisRun);
        let r = choose(
            &via(false),
            "a.MemberTest",
            false,
            ":test",
            GradleVersion::parse("4.4.1"),
        );
        assert!(
            r.reason.starts_with("Gradle 4.4.1 keeps the child suites"),
            "{}",
            r.reason
        );
        assert!(r.reason.contains("`a.AllTests` left out"), "{}", r.reason);
        let r = choose(
            &via(true),
            "a.MemberTest",
            false,
            ":test",
            GradleVersion::parse("8.10"),
        );
        assert!(r.reason.contains("(4.7+)"), "{}", r.reason);
        // a suite inside the suite (measured on 4.4.1: through it, no test found)
        let r = choose(
            &via(true),
            "a.AllRulesTests",
            true,
            ":test",
            GradleVersion::parse("4.4.1"),
        );
        assert_eq!(r.reason_code, IncludedForThisRun);
        assert!(
            r.reason.contains("never against the suite's name"),
            "{}",
            r.reason
        );
        // a task path that cannot name a property: through the suite, and why
        let r = choose(&via(false), "a.MemberTest", false, ":a=b:test", None);
        assert_eq!(r.reason_code, RunsThroughSuite);
        assert!(r.reason.contains("cannot be passed"), "{}", r.reason);
    }

    fn member(class: &str, junit4: bool, version: &str) -> ClassifiedTest {
        let mut t = unit(class);
        t.via_suite = Some(via(junit4));
        choose_all(std::slice::from_mut(&mut t), GradleVersion::parse(version));
        t
    }

    #[test]
    fn included_members_name_their_classes_and_the_suites_left_out() {
        let a = member("a.B$C", false, "4.4.1");
        let b = member("a.ATest", true, "8.0");
        let of = |include: &[&str], exclude: &[&str]| Members {
            include: include.iter().map(|s| s.to_string()).collect(),
            exclude: exclude.iter().map(|s| s.to_string()).collect(),
        };
        assert_eq!(
            members(&[&a, &b]),
            of(&["a.ATest", "a.B$C"], &["a.AllTests"])
        );
        // a member through the suite, or the suite itself, keeps it in
        let through = member("a.DTest", true, "4.4.1");
        assert_eq!(members(&[&a, &through]), of(&["a.B$C"], &[]));
        assert_eq!(members(&[&a, &unit("a.AllTests")]), of(&["a.B$C"], &[]));
        assert!(members(&[&through, &unit("a.X")]).is_empty());
        let notes = notes(&[a, through]);
        assert!(notes[0].starts_with("`a.B$C` (:server:test) runs in a suite: Gradle 4.4.1"));
        assert!(
            notes[0].ends_with("(included-for-this-run)"),
            "{}",
            notes[0]
        );
        assert!(notes[1].ends_with("(runs-through-suite)"), "{}", notes[1]);
        assert!(notes[2].contains("init script"), "{notes:?}");
    }

    #[test]
    fn binary_names_are_java_identifiers_joined_by_dots() {
        assert!(is_binary_name("a.b.Outer$Inner"));
        assert!(is_binary_name("été.Ünïcode_1"));
        for bad in [
            "",
            "a..b",
            "a.1b",
            "a/b",
            "a b",
            "a.*",
            "$(touch x)",
            "a.b,c",
        ] {
            assert!(!is_binary_name(bad), "{bad}");
        }
    }
}
