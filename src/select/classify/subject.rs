//! What a lookup asks for and what a file holds that a task could run,
//! with the small rules that read them from paths.

use crate::domain::{Origin, Reason, ReasonCode, TestKind};
use crate::select::outcome::Skip;
use crate::select::roots::{Root, TaskBinding};
use crate::select::selection::TestRef;
use crate::select::source::Unit;
use crate::select::tasks::SourceSetTasks;
use crate::select::test_class;
use std::collections::BTreeSet;
use std::path::Path;

pub(super) const YAML_SUITE_DIR: &str = "rest-api-spec/test";

/// What a lookup asks for beyond the file: a nested class, a method.
pub(super) struct ClassTarget {
    pub(super) nested: Option<String>,
    /// The class's binary name, when an expansion found it (then it is
    /// known to be concrete, and its file may be named otherwise).
    pub(super) binary: Option<String>,
    pub(super) method: Option<String>,
    pub(super) origin: Origin,
    /// The only Test tasks it may run in (a test unmuted in these); `None`:
    /// any.
    pub(super) only: Option<BTreeSet<String>>,
}

impl ClassTarget {
    pub(super) fn whole(origin: Origin) -> Self {
        ClassTarget {
            nested: None,
            binary: None,
            method: None,
            origin,
            only: None,
        }
    }

    pub(super) fn nested(
        nested: Option<&str>,
        test: &TestRef,
        origin: Origin,
        only: Option<&BTreeSet<String>>,
    ) -> Self {
        ClassTarget {
            nested: nested.map(str::to_string),
            binary: None,
            method: test.method.clone(),
            origin,
            only: only.cloned(),
        }
    }
}

/// What a file of a source dir holds that a task could run.
pub(super) struct Subject {
    pub(super) class: Option<String>,
    pub(super) yaml_suite: Option<String>,
    /// The class's source shows tests: a class the task patterns leave out
    /// is then unresolved, else it is support code, not a test.
    pub(super) shows_tests: bool,
    /// The class is a suite of other classes.
    pub(super) is_suite: bool,
    /// A JUnit 3 suite that runs only these members, never its own `test*`
    /// methods ([`SuiteIndex::leaves_out_own_tests`]).
    ///
    /// [`SuiteIndex::leaves_out_own_tests`]: crate::select::suites::SuiteIndex::leaves_out_own_tests
    pub(super) leaves_out_own: Option<Vec<String>>,
    /// The outer class's simple name and source, to tell whether its task
    /// runs nested classes.
    pub(super) nested_source: Option<(String, Unit)>,
    /// The class declares tests of its own (`test_class::declares_tests`).
    pub(super) own_tests: bool,
}

pub(super) enum ClassFile {
    /// An abstract class: it runs through its concrete subclasses.
    AbstractBase(String),
    Test(Subject),
    /// A concrete class Gradle's detection would never run, and why.
    NeverRun(NeverRun),
}

/// A concrete class Gradle never runs here: a base, when it changed.
pub(super) struct NeverRun {
    pub(super) class: String,
    /// It declares tests of its own (which cannot run).
    pub(super) own_tests: bool,
    pub(super) skip: Skip,
}

/// Whether the class `class` (binary name) of `unit` declares tests of its
/// own; not when its declaration is not found.
pub(super) fn declares_tests(unit: &Unit, class: &str) -> bool {
    let local = unit.local_of(class);
    let declared = unit.types.iter().find(|t| t.local == local);
    declared.is_some_and(|t| test_class::declares_tests(unit, t))
}

/// Whether Gradle leaves a class out for what `skip` says: its tasks'
/// patterns, or its detection (not a test); not for a task that is
/// disabled, host-mutating or not among an unmute's.
pub(super) fn left_out_by_gradle(skip: &Skip) -> bool {
    match skip {
        Skip::NotATest(_) => true,
        Skip::Unresolved(reason) => reason.code == ReasonCode::ExcludedByTaskPatterns,
    }
}

/// A JUnit 3 suite's own test methods, which its `suite()` never runs: not
/// checked, whatever its members show.
pub(super) fn own_tests_not_run(class: &str, members: &[String]) -> Skip {
    let shown: Vec<String> = members.iter().take(3).map(|m| format!("`{m}`")).collect();
    let more = match members.len() - shown.len() {
        0 => String::new(),
        more => format!(" and {more} more"),
    };
    Skip::Unresolved(Reason::new(
        ReasonCode::OwnTestsNotInSuite,
        format!(
            "the own test methods of `{class}` never run: its `suite()` runs {}{more}, not the \
             class itself (so under Gradle too); add the class to its suite to check them",
            shown.join(", ")
        ),
    ))
}

/// The tasks of `tied` among `only` (a test unmuted in these tasks), or
/// why none of them runs `what` here.
pub(super) fn in_scope(
    tied: &SourceSetTasks,
    only: &BTreeSet<String>,
    what: Option<&str>,
) -> Result<SourceSetTasks, Skip> {
    let tasks: Vec<_> = tied
        .tasks
        .iter()
        .filter(|t| only.contains(&t.path))
        .cloned()
        .collect();
    if tasks.is_empty() {
        return Err(not_in_scope(only, what, &tied.project, &tied.source_set));
    }
    Ok(SourceSetTasks {
        tasks,
        ..tied.clone()
    })
}

/// A test unmuted only in tasks that do not run its source set.
pub(super) fn not_in_scope(
    only: &BTreeSet<String>,
    what: Option<&str>,
    project: &str,
    set: &str,
) -> Skip {
    let only: Vec<String> = only.iter().map(|t| format!("`{t}`")).collect();
    let what = what.map_or("it".to_string(), |c| format!("`{c}`"));
    Skip::Unresolved(Reason::new(
        ReasonCode::NoRunnableTask,
        format!(
            "unmuted only in {}, which does not run {what} here (it is in `{project}` source set \
             `{set}`)",
            only.join(", ")
        ),
    ))
}

/// A YAML suite of a resources dir (under `rest-api-spec/test/`): it runs on
/// its own only in a `yamlRestTest` source set.
pub(super) fn yaml_suite(root: &Root, path: &Path) -> Result<Subject, Skip> {
    let (project, set) = (&root.project, &root.source_set);
    if let TaskBinding::NotTest = root.tie {
        return Err(not_run(root));
    }
    let inside = path.strip_prefix(&root.dir).unwrap_or(path);
    let suite = inside
        .strip_prefix(YAML_SUITE_DIR)
        .map_err(|_| not_a_test())?;
    if !matches!(extension(path), "yml" | "yaml") {
        return Err(not_a_test());
    }
    if set != "yamlRestTest" {
        return Err(Skip::Unresolved(Reason::new(
            ReasonCode::YamlSuiteNotRunnable,
            format!(
                "a YAML suite of `{project}` source set `{set}`: only yamlRestTest suites \
                 run on their own; name the runner class that runs it"
            ),
        )));
    }
    Ok(Subject {
        class: None,
        yaml_suite: Some(utf8(&suite.with_extension(""))?),
        shows_tests: false,
        is_suite: false,
        leaves_out_own: None,
        nested_source: None,
        own_tests: false,
    })
}

/// Whether a task that may run the root's classes uses the JUnit Platform,
/// or a framework not known here: then interfaces' test methods count.
pub(super) fn may_use_junit_platform(root: &Root) -> bool {
    match &root.tie {
        TaskBinding::Tasks(tied) => tied
            .tasks
            .iter()
            .any(|t| !matches!(t.framework.as_deref(), Some("junit" | "testng"))),
        _ => false,
    }
}

pub(super) fn extension(path: &Path) -> &str {
    path.extension().and_then(|e| e.to_str()).unwrap_or("")
}

pub(super) fn not_run(root: &Root) -> Skip {
    Skip::NotATest(format!(
        "in `{}` source set `{}`, which no Test task runs",
        root.project, root.source_set
    ))
}

pub(super) fn not_a_test() -> Skip {
    Skip::NotATest("not a test class or YAML suite".into())
}

pub(super) fn utf8(p: &Path) -> Result<String, Skip> {
    p.to_str().map(str::to_string).ok_or_else(|| {
        Skip::Unresolved(Reason::new(
            ReasonCode::NotUtf8,
            "the path is not valid UTF-8",
        ))
    })
}

/// The binary name of a nested class below its file: `Inner$Deep`.
pub(super) fn join_nested(dotted: &[&str], binary: Option<&str>) -> Option<String> {
    let parts: Vec<&str> = dotted.iter().copied().chain(binary).collect();
    (!parts.is_empty()).then(|| parts.join("$"))
}

pub(super) fn starts_upper(s: &str) -> bool {
    s.chars().next().is_some_and(char::is_uppercase)
}

pub(super) fn kind_of(source_set: &str, suite: bool, method: bool) -> TestKind {
    match source_set {
        "yamlRestTest" if suite => TestKind::YamlRestTestSuite,
        "yamlRestTest" if method => TestKind::YamlRestTestCase,
        "yamlRestTest" => TestKind::YamlRestTestRunner,
        other => TestKind::parse(other),
    }
}
