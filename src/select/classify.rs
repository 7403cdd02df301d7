//! Classification: which project, source set, Test task and kind a file or a
//! class name belongs to. Through the layout when Gradle gave us one, else
//! through Elasticsearch's conventional path rules (`<project>/src/<set>/<lang>/…`).
//!
//! All paths here are relative to the build root. Files are reached only
//! through [`Files`], so this stays a pure function of its inputs.

use super::{Selection, TestRef};
use crate::domain::{ClassifiedTest, Origin, Reason, ReasonCode, TestKind, Unresolved};
use crate::layout::{Layout, Project, SourceSet, TestTask};
use std::cell::OnceCell;
use std::collections::{BTreeSet, HashMap};
use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// Read-only access to the build's files, relative to the build root.
pub trait Files {
    fn is_file(&self, path: &Path) -> bool;
    /// The file's text; `None` when it cannot be read as UTF-8.
    fn read(&self, path: &Path) -> Option<String>;
    /// Every file under `dir` (recursively), without build output or VCS folders.
    fn walk(&self, dir: &Path) -> Vec<PathBuf>;
}

/// Why a file or class yields no runnable test.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Skip {
    /// Not a test at all (main code, a helper, a resource): a changed file like
    /// this is simply not selected.
    NotATest(String),
    /// A test that cannot be run as asked; reported as unresolved with this reason.
    Unresolved(Reason),
}

type Outcome = Result<ClassifiedTest, Skip>;

/// The four source sets the reference knows, in its kind order.
const KNOWN_SOURCE_SETS: [&str; 4] = [
    "test",
    "internalClusterTest",
    "javaRestTest",
    "yamlRestTest",
];
const CLASS_EXTENSIONS: [&str; 3] = ["java", "groovy", "kt"];
const YAML_SUITE_DIR: &str = "rest-api-spec/test";

/// A source or resource directory of one source set.
#[derive(Clone, Debug)]
struct Root {
    dir: PathBuf,
    resources: bool,
    project: String,
    source_set: String,
    tie: Tie,
}

/// How a source set's tests are run.
#[derive(Clone, Debug)]
enum Tie {
    /// By this enabled Test task (full Gradle path).
    Task(String),
    /// They cannot be run; the reason.
    Unavailable(Reason),
    /// No Test task runs this source set: it is not test code (e.g. `main`).
    NotTest,
}

enum Mode {
    Layout(Vec<Root>),
    PathRules,
}

pub struct Classifier<'a> {
    mode: Mode,
    files: &'a dyn Files,
    /// Files of the searchable source dirs by file name, built on first class lookup.
    by_name: OnceCell<HashMap<OsString, Vec<PathBuf>>>,
}

impl<'a> Classifier<'a> {
    /// Classifies through the layout Gradle reported.
    pub fn from_layout(layout: &Layout, files: &'a dyn Files) -> Self {
        let mut roots = Vec::new();
        for project in &layout.projects {
            for set in &project.source_sets {
                let tie = tie(project, set, &layout.tasks_for(set));
                let relative =
                    |d: &PathBuf| d.strip_prefix(&layout.root_dir).unwrap_or(d).to_path_buf();
                let dirs = set.source_dirs().map(|d| (d, false));
                for (dir, resources) in dirs.chain(set.resources.iter().map(|d| (d, true))) {
                    roots.push(Root {
                        dir: relative(dir),
                        resources,
                        project: project.path.clone(),
                        source_set: set.name.clone(),
                        tie: tie.clone(),
                    });
                }
            }
        }
        Self::new(Mode::Layout(roots), files)
    }

    /// Classifies by the reference's path rules, for when no layout can be had.
    pub fn path_rules(files: &'a dyn Files) -> Self {
        Self::new(Mode::PathRules, files)
    }

    fn new(mode: Mode, files: &'a dyn Files) -> Self {
        Classifier {
            mode,
            files,
            by_name: OnceCell::new(),
        }
    }

    pub fn files(&self) -> &dyn Files {
        self.files
    }

    /// What a file is: one outcome per source set it belongs to (a source dir
    /// may be shared by several projects); empty when it is in none.
    pub fn classify_path(&self, path: &Path, origin: Origin) -> Vec<Outcome> {
        self.roots_containing(path)
            .iter()
            .map(|root| self.classify_file(root, path, &Target::whole(origin)))
            .collect()
    }

    /// Where a class lives: one outcome per file that defines it; empty when
    /// no source dir has it.
    pub fn locate(&self, test: &TestRef, origin: Origin) -> Vec<Outcome> {
        let class = test.class.as_str();
        if class.contains('*') {
            return vec![Err(Skip::Unresolved(Reason::new(
                ReasonCode::Wildcard,
                format!("`{class}` is a wildcard class pattern; name the classes to re-run"),
            )))];
        }
        let (outer, binary_nested) = match class.split_once('$') {
            Some((outer, nested)) => (outer, Some(nested)),
            None => (class, None),
        };
        let segments: Vec<&str> = outer.split('.').collect();
        if segments
            .iter()
            .any(|s| s.is_empty() || s.contains(['/', '\\']))
        {
            return vec![Err(Skip::Unresolved(Reason::new(
                ReasonCode::NotAClassName,
                format!("`{class}` is not a class name"),
            )))];
        }
        // `Outer.Inner` is a nested class when no file `Outer/Inner.java` exists:
        // try the longest file path first, peeling off capitalised segments.
        for k in (1..=segments.len()).rev() {
            let nested_dotted = &segments[k..];
            if k < segments.len()
                && ![segments[k - 1], segments[k]]
                    .iter()
                    .all(|s| starts_upper(s))
            {
                break;
            }
            let nested = join_nested(nested_dotted, binary_nested);
            let found = self.files_for(&segments[..k], false);
            if !found.is_empty() {
                return self.classify_all(found, &Target::nested(nested.as_deref(), test, origin));
            }
        }
        // No exact package path: a simple name or a partial package, as the
        // reference's suffix match allowed.
        let found = self.files_for(&segments, true);
        let nested = join_nested(&[], binary_nested);
        self.classify_all(found, &Target::nested(nested.as_deref(), test, origin))
    }

    fn classify_all(&self, found: Vec<(Root, PathBuf)>, target: &Target) -> Vec<Outcome> {
        found
            .iter()
            .map(|(root, path)| self.classify_file(root, path, target))
            .collect()
    }

    /// Files whose path inside a source dir is `segments` joined by `/` plus a
    /// class extension (or, with `suffix`, ends with it), with their source dir.
    fn files_for(&self, segments: &[&str], suffix: bool) -> Vec<(Root, PathBuf)> {
        let package_path = segments.join("/");
        let mut found = Vec::new();
        for ext in CLASS_EXTENSIONS {
            let name = OsString::from(format!("{}.{ext}", segments[segments.len() - 1]));
            let wanted = format!("{package_path}.{ext}");
            for path in self.index().get(&name).into_iter().flatten() {
                for root in self.roots_containing(path) {
                    let Some(inside) = path.strip_prefix(&root.dir).ok().and_then(Path::to_str)
                    else {
                        continue;
                    };
                    let hit = if suffix {
                        inside.len() > wanted.len() && inside.ends_with(&format!("/{wanted}"))
                    } else {
                        inside == wanted
                    };
                    if hit && !root.resources {
                        found.push((root, path.clone()));
                    }
                }
            }
        }
        found
    }

    fn index(&self) -> &HashMap<OsString, Vec<PathBuf>> {
        self.by_name.get_or_init(|| {
            let dirs: BTreeSet<&Path> = match &self.mode {
                Mode::Layout(roots) => roots
                    .iter()
                    .filter(|r| !r.resources)
                    .map(|r| r.dir.as_path())
                    .collect(),
                Mode::PathRules => BTreeSet::from([Path::new("")]),
            };
            let mut index: HashMap<OsString, Vec<PathBuf>> = HashMap::new();
            let files: BTreeSet<PathBuf> =
                dirs.into_iter().flat_map(|d| self.files.walk(d)).collect();
            for file in files {
                if let Some(name) = file.file_name() {
                    index
                        .entry(name.to_os_string())
                        .or_default()
                        .push(file.clone());
                }
            }
            index
        })
    }

    /// The source dirs holding `path`: the deepest ones (several when shared).
    fn roots_containing(&self, path: &Path) -> Vec<Root> {
        match &self.mode {
            Mode::Layout(roots) => {
                let holding: Vec<&Root> = roots
                    .iter()
                    .filter(|r| path.starts_with(&r.dir) && path != r.dir)
                    .collect();
                let depth = holding.iter().map(|r| r.dir.components().count()).max();
                holding
                    .into_iter()
                    .filter(|r| Some(r.dir.components().count()) == depth)
                    .cloned()
                    .collect()
            }
            Mode::PathRules => rule_root(path).into_iter().collect(),
        }
    }

    fn classify_file(&self, root: &Root, path: &Path, target: &Target) -> Outcome {
        let (project, set) = (&root.project, &root.source_set);
        let not_run = || {
            Skip::NotATest(format!(
                "in `{project}` source set `{set}`, which no Test task runs"
            ))
        };
        if let Tie::NotTest = root.tie {
            return Err(not_run());
        }
        let inside = path.strip_prefix(&root.dir).unwrap_or(path);
        let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
        let not_a_test = || Skip::NotATest("not a test class or YAML suite".into());
        let utf8 = |p: &Path| {
            p.to_str().map(str::to_string).ok_or_else(|| {
                Skip::Unresolved(Reason::new(
                    ReasonCode::NotUtf8,
                    "the path is not valid UTF-8",
                ))
            })
        };
        let (class, yaml_suite) = if root.resources {
            let suite = inside
                .strip_prefix(YAML_SUITE_DIR)
                .map_err(|_| not_a_test())?;
            if !matches!(ext, "yml" | "yaml") {
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
            (None, Some(utf8(&suite.with_extension(""))?))
        } else {
            if !CLASS_EXTENSIONS.contains(&ext) {
                return Err(not_a_test());
            }
            let stem = utf8(Path::new(path.file_stem().unwrap_or_default()))?;
            if !is_test_name(&stem, set) {
                return Err(Skip::NotATest(format!(
                    "`{stem}` is not named like a test class ({})",
                    test_name_rule(set)
                )));
            }
            let class = utf8(&inside.with_extension(""))?.replace('/', ".");
            let simple = target
                .nested
                .as_deref()
                .map_or(stem.as_str(), |n| n.rsplit('$').next().unwrap_or(n));
            if self
                .files
                .read(path)
                .is_some_and(|text| declares_abstract(&text, simple))
            {
                return Err(Skip::Unresolved(Reason::new(
                    ReasonCode::AbstractClass,
                    format!(
                        "`{simple}` is an abstract class: it runs only through its concrete \
                         subclasses"
                    ),
                )));
            }
            let class = match &target.nested {
                Some(nested) => format!("{class}${nested}"),
                None => class,
            };
            (Some(class), None)
        };
        let task = match &root.tie {
            Tie::Task(task) => task.clone(),
            Tie::Unavailable(reason) => return Err(Skip::Unresolved(reason.clone())),
            Tie::NotTest => return Err(not_run()),
        };
        Ok(ClassifiedTest {
            project: project.clone(),
            source_set: set.clone(),
            task,
            kind: kind_of(set, yaml_suite.is_some(), target.method.is_some()),
            class,
            method: target.method.clone(),
            yaml_suite,
            origin: target.origin,
        })
    }
}

/// What a lookup asks for beyond the file: a nested class, a method.
struct Target {
    nested: Option<String>,
    method: Option<String>,
    origin: Origin,
}

impl Target {
    fn whole(origin: Origin) -> Self {
        Target {
            nested: None,
            method: None,
            origin,
        }
    }

    fn nested(nested: Option<&str>, test: &TestRef, origin: Origin) -> Self {
        Target {
            nested: nested.map(str::to_string),
            method: test.method.clone(),
            origin,
        }
    }
}

/// The binary name of a nested class below its file: `Inner$Deep`.
fn join_nested(dotted: &[&str], binary: Option<&str>) -> Option<String> {
    let parts: Vec<&str> = dotted.iter().copied().chain(binary).collect();
    (!parts.is_empty()).then(|| parts.join("$"))
}

fn starts_upper(s: &str) -> bool {
    s.chars().next().is_some_and(char::is_uppercase)
}

/// The Test task that runs a source set, chosen among those tied to it by
/// output dirs: an enabled one of the same project, preferring the one named
/// like the source set (ES's BWC projects tie many variants to one source set).
fn tie(project: &Project, set: &SourceSet, tasks: &[&TestTask]) -> Tie {
    let mut enabled: Vec<&&TestTask> = tasks.iter().filter(|t| t.enabled).collect();
    enabled.sort_by_key(|t| {
        (
            task_project(&t.path) != project.path,
            t.name != set.name,
            t.path.clone(),
        )
    });
    match (enabled.first(), tasks.is_empty()) {
        (Some(task), _) => Tie::Task(task.path.clone()),
        (None, true) => Tie::NotTest,
        (None, false) => {
            let disabled: Vec<String> = tasks.iter().map(|t| format!("`{}`", t.path)).collect();
            Tie::Unavailable(Reason::new(
                ReasonCode::NoRunnableTask,
                format!(
                    "not applicable: no enabled Test task runs `{}` source set `{}` ({} disabled)",
                    project.path,
                    set.name,
                    disabled.join(", ")
                ),
            ))
        }
    }
}

/// `:a:b:test` → `:a:b`; `:test` → `:`.
fn task_project(task: &str) -> &str {
    match task.rfind(':') {
        Some(0) | None => ":",
        Some(i) => &task[..i],
    }
}

fn kind_of(source_set: &str, suite: bool, method: bool) -> TestKind {
    match source_set {
        "yamlRestTest" if suite => TestKind::YamlRestTestSuite,
        "yamlRestTest" if method => TestKind::YamlRestTestCase,
        "yamlRestTest" => TestKind::YamlRestTestRunner,
        other => TestKind::parse(other),
    }
}

fn is_custom(source_set: &str) -> bool {
    !KNOWN_SOURCE_SETS.contains(&source_set)
}

fn is_test_name(simple: &str, source_set: &str) -> bool {
    let ends = |suffix: &str| simple.len() > suffix.len() && simple.ends_with(suffix);
    ends("Tests") || ends("IT") || (is_custom(source_set) && (ends("Test") || ends("Spec")))
}

fn test_name_rule(source_set: &str) -> &'static str {
    if is_custom(source_set) {
        "*Tests, *IT, *Test or *Spec"
    } else {
        "*Tests or *IT"
    }
}

/// Does the source declare `simple` as an abstract class (Java, Groovy or Kotlin)?
fn declares_abstract(source: &str, simple: &str) -> bool {
    let pattern = format!(
        r"\babstract\s+(?:(?:public|protected|private|static|final|sealed|non-sealed|strictfp|open)\s+)*class\s+{}\b",
        regex::escape(simple)
    );
    regex::Regex::new(&pattern).is_ok_and(|re| re.is_match(source))
}

/// The reference's path rules as a source dir: `<project dir>/src/<set>/<lang>/…`,
/// taking the last `/src/` that fits (its regexes are greedy).
fn rule_root(path: &Path) -> Option<Root> {
    let s = path.to_str()?;
    let (at, set, lang) = s
        .match_indices("/src/")
        .filter_map(|(i, _)| {
            let mut parts = s[i + 5..].splitn(3, '/');
            let (set, lang, rest) = (parts.next()?, parts.next()?, parts.next()?);
            let fits = matches!(lang, "java" | "groovy" | "kotlin" | "resources")
                && !set.is_empty()
                && !rest.is_empty();
            fits.then_some((i, set, lang))
        })
        .last()?;
    let project = crate::reports::fallback_project_path(&s[..at]);
    let tie = match set {
        "main" => Tie::NotTest,
        set if KNOWN_SOURCE_SETS.contains(&set) => Tie::Task(format!("{project}:{set}")),
        set => Tie::Unavailable(Reason::new(
            ReasonCode::UnknownSourceSet,
            format!(
                "source set `{set}` is unknown to the path rules (they know test, \
                 internalClusterTest, javaRestTest and yamlRestTest); its Test task needs the \
                 layout from Gradle"
            ),
        )),
    };
    Some(Root {
        dir: PathBuf::from(format!("{}/src/{set}/{lang}", &s[..at])),
        resources: lang == "resources",
        project,
        source_set: set.to_string(),
        tie,
    })
}

/// Refuses a test whose class, method or YAML suite holds a control character
/// (ESC, BEL, a newline...): a `--tests` filter or `-D` value does not carry
/// it to the test JVM reliably, and JUnit XML cannot hold it (Gradle writes
/// `?`), so the test would run under another name or not at all, and its
/// results would not be found under the name selected.
fn unsupported_characters(test: &ClassifiedTest) -> Option<Reason> {
    let names = [&test.class, &test.method, &test.yaml_suite];
    let bad = names
        .into_iter()
        .flatten()
        .flat_map(|name| name.chars())
        .find(|c| c.is_control())?;
    Some(Reason::new(
        ReasonCode::UnsupportedCharacters,
        format!(
            "its name holds the control character U+{:04X}, which Gradle and JUnit XML cannot \
             carry intact",
            u32::from(bad)
        ),
    ))
}

/// Turns the outcomes for one input into a `Selection`: the runnable tests,
/// and unresolved entries for tests that cannot run. "Not a test" outcomes are
/// reported only when nothing else came out and the input named a test on
/// purpose (explicit specs and unmutes, not changed files): those pass the
/// reason to give when nothing at all was found, `not_found`.
pub(crate) fn settle(
    input: &str,
    origin: Origin,
    outcomes: Vec<Outcome>,
    not_found: Option<Reason>,
) -> Selection {
    let mut selection = Selection::default();
    let mut reasons: Vec<Reason> = Vec::new();
    let mut not_tests: Vec<String> = Vec::new();
    for outcome in outcomes {
        match outcome {
            Ok(test) => match unsupported_characters(&test) {
                Some(reason) => reasons.push(reason),
                None => selection.tests.push(test),
            },
            Err(Skip::Unresolved(reason)) => reasons.push(reason),
            Err(Skip::NotATest(reason)) => not_tests.push(reason),
        }
    }
    if let (Some(not_found), true) = (not_found, selection.tests.is_empty() && reasons.is_empty()) {
        reasons = if not_tests.is_empty() {
            vec![not_found]
        } else {
            not_tests
                .into_iter()
                .map(|text| Reason::new(ReasonCode::NotATest, text))
                .collect()
        };
    }
    let mut seen = BTreeSet::new();
    for reason in reasons {
        if seen.insert(reason.clone()) {
            selection.unresolved.push(Unresolved {
                input: input.to_string(),
                reason_code: reason.code,
                reason: reason.text,
                origin,
            });
        }
    }
    let mut merged = Selection::default();
    merged.merge(selection);
    merged
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::select::testing::{es_layout, MemFiles};

    fn only(outcomes: Vec<Outcome>) -> Outcome {
        assert_eq!(outcomes.len(), 1, "{outcomes:?}");
        outcomes.into_iter().next().unwrap()
    }

    fn classify(c: &Classifier, path: &str) -> Outcome {
        only(c.classify_path(Path::new(path), Origin::Changed))
    }

    #[test]
    fn abstract_classes_are_recognised_in_every_jvm_language() {
        assert!(declares_abstract(
            "public abstract class AbstractFooTests {",
            "AbstractFooTests"
        ));
        assert!(declares_abstract(
            "abstract class FooTests extends X",
            "FooTests"
        ));
        assert!(declares_abstract(
            "abstract public class FooTests",
            "FooTests"
        ));
        assert!(declares_abstract(
            "abstract class FooSpec extends Specification {",
            "FooSpec"
        ));
        assert!(!declares_abstract("public class FooTests {}", "FooTests"));
        assert!(!declares_abstract(
            "class FooTests { abstract static class Inner {} }",
            "FooTests"
        ));
        assert!(!declares_abstract(
            "class FooTests { abstract void run(); }",
            "FooTests"
        ));
        assert!(declares_abstract(
            "class O { abstract static class In$ner {} }",
            "In$ner"
        ));
        assert!(!declares_abstract(
            "class O { static class In$ner {} }",
            "In$ner"
        ));
        assert!(!declares_abstract(
            "abstract class FooTestsBase",
            "FooTests"
        ));
    }

    #[test]
    fn test_names_follow_the_conventions_per_source_set() {
        assert!(is_test_name("IndexTests", "test"));
        assert!(is_test_name("ClusterIT", "test"));
        assert!(is_test_name("IndexTests", "internalClusterTest"));
        assert!(!is_test_name("IndexTest", "test"));
        assert!(!is_test_name("IndexTestCase", "javaRestTest"));
        assert!(!is_test_name("IT", "javaRestTest"));
        assert!(is_test_name("ReaperPluginFuncTest", "integTest"));
        assert!(is_test_name("ArchUnitSpec", "integTest"));
        assert!(!is_test_name("TestUtils", "integTest"));
    }

    #[test]
    fn files_classify_through_the_layout_by_source_set() {
        let files = MemFiles::default();
        let layout = es_layout();
        let c = Classifier::from_layout(&layout, &files);
        let t = classify(
            &c,
            "server/src/test/java/org/elasticsearch/index/IndexTests.java",
        )
        .unwrap();
        assert_eq!(
            (t.project.as_str(), t.task.as_str(), &t.kind),
            (":server", ":server:test", &TestKind::Unit)
        );
        assert_eq!(
            t.class.as_deref(),
            Some("org.elasticsearch.index.IndexTests")
        );
        let t = classify(
            &c,
            "server/src/internalClusterTest/java/org/elasticsearch/cluster/ClusterIT.java",
        )
        .unwrap();
        assert_eq!(t.kind, TestKind::InternalClusterTest);
        assert_eq!(t.task, ":server:internalClusterTest");
        // the renamed project: path from the layout, not from the directory
        let t = classify(
            &c,
            "test/external-modules/apm-integration/src/javaRestTest/java/org/elasticsearch/test/apm/ApmAgentTracesIT.java",
        )
        .unwrap();
        assert_eq!(t.project, ":test:external-modules:test-apm-integration");
        assert_eq!(
            t.task,
            ":test:external-modules:test-apm-integration:javaRestTest"
        );
        let t = classify(
            &c,
            "x-pack/plugin/ml/src/yamlRestTest/resources/rest-api-spec/test/ml/anomaly_detectors_get.yml",
        )
        .unwrap();
        assert_eq!(t.kind, TestKind::YamlRestTestSuite);
        assert_eq!(t.yaml_suite.as_deref(), Some("ml/anomaly_detectors_get"));
        assert_eq!(t.class, None);
        let t = classify(
            &c,
            "x-pack/plugin/ml/src/yamlRestTest/java/org/elasticsearch/xpack/ml/MlYamlIT.java",
        )
        .unwrap();
        assert_eq!(t.kind, TestKind::YamlRestTestRunner);
        assert_eq!(
            t.class.as_deref(),
            Some("org.elasticsearch.xpack.ml.MlYamlIT")
        );
        // a Groovy test in a custom source set
        let t = classify(
            &c,
            "build-tools/src/integTest/groovy/org/elasticsearch/gradle/ReaperPluginFuncTest.groovy",
        )
        .unwrap();
        assert_eq!(t.kind, TestKind::Other("integTest".into()));
        assert_eq!(t.task, ":build-tools:integTest");
        // a `.yaml` suite counts too, not only `.yml`
        let t = classify(
            &c,
            "x-pack/plugin/ml/src/yamlRestTest/resources/rest-api-spec/test/ml/b c.yaml",
        )
        .unwrap();
        assert_eq!(t.yaml_suite.as_deref(), Some("ml/b c"));
    }

    #[test]
    fn non_tests_and_unrunnable_tests_are_told_apart() {
        let files = MemFiles::with(&[(
            "server/src/test/java/org/elasticsearch/AbstractFooTests.java",
            "public abstract class AbstractFooTests extends ESTestCase {}",
        )]);
        let layout = es_layout();
        let c = Classifier::from_layout(&layout, &files);
        let not_test = |p: &str| matches!(classify(&c, p), Err(Skip::NotATest(_)));
        assert!(not_test(
            "server/src/main/java/org/elasticsearch/Index.java"
        ));
        assert!(not_test(
            "server/src/test/java/org/elasticsearch/TestUtils.java"
        ));
        assert!(not_test(
            "server/src/test/java/org/elasticsearch/IndexTestCase.java"
        ));
        assert!(not_test(
            "x-pack/plugin/ml/src/yamlRestTest/resources/other/x.yml"
        ));
        assert!(not_test(
            "server/src/test/resources/org/elasticsearch/data.json"
        ));
        assert!(c
            .classify_path(Path::new("docs/README.asciidoc"), Origin::Changed)
            .is_empty());
        assert!(c
            .classify_path(Path::new("build.gradle"), Origin::Changed)
            .is_empty());
        assert_eq!(
            classify(
                &c,
                "server/src/test/java/org/elasticsearch/AbstractFooTests.java"
            ),
            Err(Skip::Unresolved(Reason::new(
                ReasonCode::AbstractClass,
                "`AbstractFooTests` is an abstract class: it runs only through its concrete \
                 subclasses"
            )))
        );
        let Err(Skip::Unresolved(reason)) = classify(
            &c,
            "qa/rolling-upgrade/src/javaRestTest/java/org/elasticsearch/upgrades/UpgradeIT.java",
        ) else {
            panic!("a BWC test is not applicable")
        };
        assert_eq!(reason.code, ReasonCode::NoRunnableTask);
        assert_eq!(
            reason.text,
            "not applicable: no enabled Test task runs `:qa:rolling-upgrade` source set `javaRestTest` \
             (`:qa:rolling-upgrade:javaRestTest` disabled)"
        );
    }

    #[test]
    fn classes_are_found_in_every_project_that_has_them() {
        let files = MemFiles::with(&[
            (
                "server/src/test/java/org/elasticsearch/index/IndexTests.java",
                "class IndexTests {}",
            ),
            (
                "src/test/java/org/elasticsearch/index/IndexTests.java",
                "class IndexTests {}",
            ),
            (
                "qa/copy/src/test/java/org/elasticsearch/index/IndexTests.java",
                "class IndexTests {}",
            ),
            (
                "server/src/main/java/org/elasticsearch/index/IndexTests.java",
                "",
            ),
        ]);
        let layout = es_layout();
        let c = Classifier::from_layout(&layout, &files);
        let found = c.locate(
            &TestRef::method("org.elasticsearch.index.IndexTests", "testFoo"),
            Origin::Unmuted,
        );
        let tests: Vec<_> = found.into_iter().filter_map(Result::ok).collect();
        let tasks: Vec<_> = tests.iter().map(|t| t.task.as_str()).collect();
        assert_eq!(tasks, [":qa:copy:test", ":server:test"]);
        assert!(tests.iter().all(|t| t.method.as_deref() == Some("testFoo")));
    }

    #[test]
    fn nested_partial_and_simple_names_resolve_to_the_outer_file() {
        let files = MemFiles::with(&[(
            "server/src/test/java/org/elasticsearch/index/IndexTests.java",
            "class IndexTests { static class InnerTests {} }",
        )]);
        let layout = es_layout();
        let c = Classifier::from_layout(&layout, &files);
        let class_of = |name: &str| {
            let found = c.locate(&TestRef::class(name), Origin::Explicit);
            only(found).unwrap().class.unwrap()
        };
        assert_eq!(
            class_of("org.elasticsearch.index.IndexTests$InnerTests"),
            "org.elasticsearch.index.IndexTests$InnerTests"
        );
        assert_eq!(
            class_of("org.elasticsearch.index.IndexTests.InnerTests"),
            "org.elasticsearch.index.IndexTests$InnerTests"
        );
        assert_eq!(
            class_of("index.IndexTests"),
            "org.elasticsearch.index.IndexTests"
        );
        assert_eq!(class_of("IndexTests"), "org.elasticsearch.index.IndexTests");
        assert!(c
            .locate(
                &TestRef::class("org.elasticsearch.index.Gone"),
                Origin::Explicit
            )
            .is_empty());
        assert!(c
            .locate(
                &TestRef::class("lasticsearch.index.IndexTests"),
                Origin::Explicit
            )
            .is_empty());
    }

    #[test]
    fn wildcards_and_non_names_are_unresolved_with_a_reason() {
        let files = MemFiles::default();
        let layout = es_layout();
        let c = Classifier::from_layout(&layout, &files);
        let reason = |name: &str| match only(c.locate(&TestRef::class(name), Origin::Unmuted)) {
            Err(Skip::Unresolved(r)) => r,
            other => panic!("{other:?}"),
        };
        let wildcard = reason("org.elasticsearch.xpack.esql.**");
        assert_eq!(wildcard.code, ReasonCode::Wildcard);
        assert!(wildcard.text.contains("wildcard"));
        for bad in ["org..Foo", "../../etc/passwd"] {
            let r = reason(bad);
            assert_eq!(r.code, ReasonCode::NotAClassName);
            assert!(r.text.contains("not a class name"));
        }
    }

    #[test]
    fn a_method_on_a_yaml_runner_is_a_yaml_case() {
        let files = MemFiles::with(&[(
            "x-pack/plugin/ml/src/yamlRestTest/java/org/elasticsearch/xpack/ml/MlYamlIT.java",
            "",
        )]);
        let layout = es_layout();
        let c = Classifier::from_layout(&layout, &files);
        let case = TestRef::method(
            "org.elasticsearch.xpack.ml.MlYamlIT",
            "test {yaml=ml/a, b/c d}",
        );
        let t = only(c.locate(&case, Origin::Explicit)).unwrap();
        assert_eq!(t.kind, TestKind::YamlRestTestCase);
        assert_eq!(t.method.as_deref(), Some("test {yaml=ml/a, b/c d}"));
        assert_eq!(
            t.class.as_deref(),
            Some("org.elasticsearch.xpack.ml.MlYamlIT")
        );
    }

    #[test]
    fn the_locator_checklist_holds_with_methods_kept() {
        let files = MemFiles::with(&[
            (
                "modules/transport-netty4/src/javaRestTest/java/org/elasticsearch/rest/RestIT.java",
                "",
            ),
            (
                "x-pack/plugin/ml/src/yamlRestTest/java/org/elasticsearch/xpack/ml/MlYamlIT.java",
                "",
            ),
        ]);
        let layout = es_layout();
        let c = Classifier::from_layout(&layout, &files);
        let locate = |class: &str, method: Option<&str>| {
            let test = TestRef {
                class: class.into(),
                method: method.map(Into::into),
            };
            only(c.locate(&test, Origin::Unmuted)).unwrap()
        };
        let t = locate("org.elasticsearch.rest.RestIT", Some("testFoo"));
        assert_eq!(
            (t.project.as_str(), &t.kind),
            (":modules:transport-netty4", &TestKind::JavaRestTest)
        );
        let t = locate("org.elasticsearch.xpack.ml.MlYamlIT", None);
        assert_eq!(t.kind, TestKind::YamlRestTestRunner);
        assert_eq!(t.task, ":x-pack:plugin:ml:yamlRestTest");
        let t = locate(
            "org.elasticsearch.xpack.ml.MlYamlIT",
            Some("test {yaml=ml/anomaly_detectors_get/basic}"),
        );
        assert_eq!(t.kind, TestKind::YamlRestTestCase);
        assert_eq!(
            t.method.as_deref(),
            Some("test {yaml=ml/anomaly_detectors_get/basic}")
        );
    }

    #[test]
    fn path_rules_stand_in_for_the_layout() {
        let files = MemFiles::with(&[
            (
                "server/src/test/java/org/elasticsearch/index/IndexTests.java",
                "",
            ),
            ("src/test/java/org/foo/BarTests.java", ""),
            ("p/src/test/java/org/foo/BarTests.java", ""),
        ]);
        let c = Classifier::path_rules(&files);
        let t = classify(
            &c,
            "x-pack/plugin/core/src/test/java/org/elasticsearch/xpack/SomeTests.java",
        )
        .unwrap();
        assert_eq!(
            (t.project.as_str(), t.task.as_str()),
            (":x-pack:plugin:core", ":x-pack:plugin:core:test")
        );
        let t = classify(
            &c,
            "test/external-modules/apm-integration/src/javaRestTest/java/a/ApmIT.java",
        )
        .unwrap();
        assert_eq!(
            t.task,
            ":test:external-modules:test-apm-integration:javaRestTest"
        );
        assert!(c
            .classify_path(
                Path::new("src/test/java/org/foo/BarTests.java"),
                Origin::Changed
            )
            .is_empty());
        assert!(matches!(
            classify(&c, "build-tools/src/integTest/groovy/org/e/ReaperPluginFuncTest.groovy"),
            Err(Skip::Unresolved(r)) if r.code == ReasonCode::UnknownSourceSet
                && r.text.contains("unknown to the path rules")
        ));
        // a root-level copy listed first must not hide the project's
        let found = c.locate(&TestRef::class("org.foo.BarTests"), Origin::Explicit);
        assert_eq!(only(found).unwrap().project, ":p");
    }

    #[test]
    fn settle_reports_not_tests_only_for_inputs_that_name_tests() {
        let not_test = || vec![Err(Skip::NotATest("not a test class or YAML suite".into()))];
        let none = || Some(Reason::new(ReasonCode::NoSuchClass, "none"));
        assert!(settle("a", Origin::Changed, not_test(), None).is_empty());
        let s = settle("a", Origin::Explicit, not_test(), none());
        assert_eq!(s.unresolved[0].reason, "not a test class or YAML suite");
        let s = settle(
            "a",
            Origin::Explicit,
            vec![],
            Some(Reason::new(ReasonCode::NoSuchClass, "no such class")),
        );
        assert_eq!(s.unresolved[0].reason, "no such class");
        assert_eq!(s.unresolved[0].origin, Origin::Explicit);
    }
}
