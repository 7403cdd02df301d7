//! Classification: which project, source set, Test task and kind a file or a
//! class name belongs to, through the build's source roots (`roots`).
//!
//! All paths here are relative to the build root. Files are reached only
//! through [`Files`], so this stays a pure function of its inputs.
//!
//! Which Test tasks run a class is [`super::tasks`]' rule; an abstract class
//! is expanded into its concrete subclasses by [`super::expand`], each
//! classified on its own project's task. What was chosen among several tasks
//! and how bases were expanded is recorded ([`Decisions`]) for the plan.

use super::bytecode::Compiled;
use super::expand::{self, Hierarchy, SourceFile};
use super::expansion::Expansion;
use super::roots::{Root, SourceRoots, TaskBinding, CLASS_EXTENSIONS};
use super::selection::TestRef;
use super::source::{self, Language, Unit};
use super::suites::{self, SuiteIndex};
use super::tasks::{self, TaskChoice, TaskDecision, TaskSelection};
use super::test_class::{self, Detection, Detector};
use crate::domain::{ClassifiedTest, Origin, Reason, ReasonCode, TestKind, ViaSuite};
use crate::layout::Layout;
use crate::test_filter::{class_file, Patterns};
use std::cell::{OnceCell, RefCell};
use std::collections::HashSet;
use std::path::{Path, PathBuf};

pub use super::files::Files;
pub(crate) use super::outcome::Classification;
pub use super::outcome::Skip;

const YAML_SUITE_DIR: &str = "rest-api-spec/test";

/// How tests are chosen: tasks per class, subclasses per abstract base.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Policy {
    pub tasks: TaskChoice,
    /// The most concrete subclasses run for one abstract base (`--subclass-cap`).
    pub subclass_cap: usize,
}

impl Default for Policy {
    fn default() -> Self {
        Policy {
            tasks: TaskChoice::default(),
            subclass_cap: expand::DEFAULT_SUBCLASS_CAP,
        }
    }
}

/// What classification decided beyond the tests themselves.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Decisions {
    pub task_selections: Vec<TaskSelection>,
    pub expansions: Vec<Expansion>,
}

pub struct Classifier<'a> {
    roots: SourceRoots<'a>,
    files: &'a dyn Files,
    choice: Policy,
    /// Every class hierarchy of the build, read on the first class whose
    /// own source does not tell whether it is a test, or the first abstract class.
    hierarchy: OnceCell<Hierarchy>,
    /// The build's compiled classes, for superclasses without sources.
    compiled: Compiled<'a>,
    /// The suites of the source sets, read when a class might run in one.
    suites: SuiteIndex,
    records: RefCell<Decisions>,
}

impl<'a> Classifier<'a> {
    /// Classifies through the layout Gradle reported.
    pub fn from_layout(layout: &Layout, files: &'a dyn Files) -> Self {
        let classes_dirs = layout
            .projects
            .iter()
            .flat_map(|p| &p.source_sets)
            .flat_map(|s| s.classes_dirs.iter().cloned())
            .collect();
        Self::new(
            SourceRoots::from_layout(layout, files),
            Compiled::new(classes_dirs, files),
            files,
        )
    }

    /// Classifies by the path rules, for when no layout can be had.
    pub fn path_rules(files: &'a dyn Files) -> Self {
        Self::new(
            SourceRoots::path_rules(files),
            Compiled::new(Vec::new(), files),
            files,
        )
    }

    fn new(roots: SourceRoots<'a>, compiled: Compiled<'a>, files: &'a dyn Files) -> Self {
        Classifier {
            roots,
            files,
            choice: Policy::default(),
            hierarchy: OnceCell::new(),
            compiled,
            suites: SuiteIndex::default(),
            records: RefCell::new(Decisions::default()),
        }
    }

    /// Chooses tasks and expands bases with these knobs instead of the defaults.
    pub fn with_choice(mut self, choice: Policy) -> Self {
        self.choice = choice;
        self
    }

    pub fn files(&self) -> &dyn Files {
        self.files
    }

    /// What was chosen and expanded so far; the log is emptied.
    pub fn take_records(&self) -> Decisions {
        std::mem::take(&mut *self.records.borrow_mut())
    }

    /// What a file is: the outcomes for every source set it belongs to (a
    /// source dir may be shared by several projects) and every task chosen to
    /// run it; empty when it is in none.
    pub fn classify_path(&self, path: &Path, origin: Origin) -> Vec<Classification> {
        self.roots
            .containing(path)
            .iter()
            .flat_map(|root| self.classify_file(root, path, &Target::whole(origin)))
            .collect()
    }

    /// Where a class lives: one outcome per file that defines it; empty when
    /// no source dir has it.
    pub fn locate(&self, test: &TestRef, origin: Origin) -> Vec<Classification> {
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
            let found = self.roots.files_for(&segments[..k], false);
            if !found.is_empty() {
                return self.classify_all(found, &Target::nested(nested.as_deref(), test, origin));
            }
        }
        // No exact package path: a simple name or a partial package, as the
        // suffix match of Elasticsearch's allowed.
        let found = self.roots.files_for(&segments, true);
        let nested = join_nested(&[], binary_nested);
        self.classify_all(found, &Target::nested(nested.as_deref(), test, origin))
    }

    fn classify_all(&self, found: Vec<(Root, PathBuf)>, target: &Target) -> Vec<Classification> {
        found
            .iter()
            .flat_map(|(root, path)| self.classify_file(root, path, target))
            .collect()
    }

    /// Every class file of the build's source dirs named like a test
    /// ([`test_class::NAME_RULE`]), as (simple name, path): what a
    /// misspelled class is compared with.
    pub fn test_like_classes(&self) -> Vec<(String, PathBuf)> {
        self.roots.test_like_classes()
    }

    /// The class a source file defines, by its path inside its source dir.
    pub fn class_name_of(&self, path: &Path) -> Option<String> {
        self.roots.class_name_of(path)
    }

    /// The files of every source dir that define a top-level class `simple`.
    pub fn files_of_class(&self, simple: &str) -> Vec<PathBuf> {
        self.roots.files_of_class(simple)
    }

    fn hierarchy(&self) -> &Hierarchy {
        self.hierarchy
            .get_or_init(|| Hierarchy::read(self.files, &self.roots.source_files()))
    }

    /// Classifies the concrete subclasses of the abstract class `base`, each
    /// through its own file and source set, and records the expansion.
    /// Returns the outcomes of the chosen ones, or why none can run.
    fn expand(&self, base: &str, target: &Target) -> Result<Vec<Classification>, Skip> {
        let hierarchy = self.hierarchy();
        let classify = |d: &expand::Descendant| {
            let sub = Target {
                nested: None,
                binary: Some(d.binary.clone()),
                method: target.method.clone(),
                origin: target.origin,
            };
            self.roots
                .containing(&d.path)
                .iter()
                .filter(|r| !r.resources)
                .flat_map(|root| self.classify_file(root, &d.path, &sub))
                .collect()
        };
        let (outcomes, expansion) =
            expand::expand(hierarchy, base, self.choice.subclass_cap, classify)?;
        self.records.borrow_mut().expansions.push(expansion);
        Ok(outcomes)
    }

    /// The outcomes for one file of one source dir: one per task chosen to
    /// run it, or the outcomes of an abstract class's chosen subclasses.
    fn classify_file(&self, root: &Root, path: &Path, target: &Target) -> Vec<Classification> {
        match self.classify_one(root, path, target) {
            Ok(outcomes) => outcomes,
            Err(skip) => vec![Err(skip)],
        }
    }

    fn classify_one(
        &self,
        root: &Root,
        path: &Path,
        target: &Target,
    ) -> Result<Vec<Classification>, Skip> {
        let subject = if root.resources {
            yaml_suite(root, path)?
        } else {
            match self.class_in(root, path, target)? {
                ClassFile::AbstractBase(class) => return self.abstract_class(root, &class, target),
                ClassFile::Test(subject) => subject,
            }
        };
        let tasks: Vec<(String, Option<ViaSuite>)> = match self.tasks_for(root, &subject) {
            Ok(tasks) => tasks.into_iter().map(|t| (t, None)).collect(),
            // Left out by the patterns, but run by a suite they include.
            Err(skip) => match subject.class.as_deref().map(|c| self.via_suites(root, c)) {
                Some(via) if !via.is_empty() => {
                    via.into_iter().map(|(t, v)| (t, Some(v))).collect()
                }
                _ => return Err(skip),
            },
        };
        let kind = kind_of(
            &root.source_set,
            subject.yaml_suite.is_some(),
            target.method.is_some(),
        );
        Ok(tasks
            .into_iter()
            .map(|(task, via_suite)| {
                let nested_classes = match (&subject.nested_source, &subject.class) {
                    (Some((simple, unit)), Some(class)) => test_class::has_nested_classes(
                        &self.task_patterns(root, &task),
                        class,
                        simple,
                        unit,
                    ),
                    _ => false,
                };
                Ok(ClassifiedTest {
                    project: root.project.clone(),
                    source_set: root.source_set.clone(),
                    task,
                    kind: kind.clone(),
                    class: subject.class.clone(),
                    method: target.method.clone(),
                    yaml_suite: subject.yaml_suite.clone(),
                    origin: target.origin,
                    nested_classes,
                    is_suite: subject.is_suite,
                    via_suite,
                })
            })
            .collect())
    }

    /// The class a class file holds, as the target names it: an abstract
    /// base, a test, or why it is neither.
    fn class_in(&self, root: &Root, path: &Path, target: &Target) -> Result<ClassFile, Skip> {
        if !CLASS_EXTENSIONS.contains(&extension(path)) {
            return Err(not_a_test());
        }
        self.compiled_by_its_source_set(root, path)?;
        let inside = path.strip_prefix(&root.dir).unwrap_or(path);
        let stem = utf8(Path::new(path.file_stem().unwrap_or_default()))?;
        let from_path = utf8(&inside.with_extension(""))?.replace('/', ".");
        // The class: named by an expansion, or the file's (with a nested part).
        let class = match (&target.binary, &target.nested) {
            (Some(binary), _) => binary.clone(),
            (None, Some(nested)) => format!("{from_path}${nested}"),
            (None, None) => from_path,
        };
        let unit = self.parse(path);
        if target.binary.is_none() {
            let local = match &target.nested {
                Some(nested) => format!("{stem}${nested}"),
                None => stem.clone(),
            };
            if expand::is_abstract_in(&unit, &local) {
                return Ok(ClassFile::AbstractBase(class));
            }
        }
        if let TaskBinding::NotTest = root.tie {
            return Err(not_run(root));
        }
        // Expanded subclasses by their own simple name, others by their file's.
        let simple = match &target.binary {
            Some(binary) => binary.rsplit(['.', '$']).next().unwrap_or(binary),
            None => stem.as_str(),
        };
        // What the task's patterns admit is decided with the task choice;
        // here only whether Gradle's detection would run the class at all,
        // or whether it is a suite or runs in one the task includes.
        let set = (root.project.as_str(), root.source_set.as_str());
        let is_suite = self.suites.is_suite(set, &unit, &class, &|| {
            self.roots.classes_of_set(set.0, set.1)
        });
        let outer = target.nested.is_none() && target.binary.is_none();
        let shows_tests = match self.is_test(root, path, &unit, &class, simple, outer) {
            Ok(shows) => shows,
            // Not a test by Gradle's detection, yet a suite, or run by one.
            Err(_) if is_suite || !self.via_suites(root, &class).is_empty() => false,
            Err(skip) => return Err(skip),
        };
        Ok(ClassFile::Test(Subject {
            nested_source: outer.then(|| (simple.to_string(), unit)),
            class: Some(class),
            yaml_suite: None,
            shows_tests,
            is_suite,
        }))
    }

    /// Whether Gradle's test detection would run the concrete class `class`
    /// of the file `path` ([`test_class`]): `Ok(true)` when it shows tests,
    /// `Ok(false)` when that cannot be decided here (accepted), else why it
    /// is no test. An `outer` class whose nested classes declare tests is
    /// accepted for them.
    fn is_test(
        &self,
        root: &Root,
        path: &Path,
        unit: &Unit,
        class: &str,
        simple: &str,
        outer: bool,
    ) -> Result<bool, Skip> {
        let local = match unit.package.as_str() {
            "" => class,
            package => class
                .strip_prefix(package)
                .and_then(|c| c.strip_prefix('.'))
                .unwrap_or(class),
        };
        let Some(t) = unit.types.iter().find(|t| t.local == local) else {
            // The file cannot be read, or declares the class under another
            // name: its name is all there is.
            return match test_class::is_test_name(simple) {
                true => Ok(false),
                false => Err(Skip::NotATest(format!(
                    "`{simple}` declares no tests and is not named like a test class ({})",
                    test_class::NAME_RULE
                ))),
            };
        };
        if let Some(what) = test_class::never_run(t.kind) {
            return Err(Skip::NotATest(format!(
                "`{simple}` is {what}: Gradle runs only concrete classes"
            )));
        }
        let lang = Language::of_path(path).unwrap_or(Language::Java);
        if test_class::evidently_a_test(unit, lang, t)
            || (outer && test_class::nested_shows_tests(unit, local))
        {
            return Ok(true);
        }
        match self.detect(class, path, may_use_junit_platform(root)) {
            Detection::Test => Ok(true),
            Detection::Undecided => Ok(false),
            Detection::NotTest(chain) => Err(Skip::NotATest(test_class::not_a_test_reason(
                simple, &chain,
            ))),
        }
    }

    /// Walks the chain of `class` (file `path`) through the build's whole
    /// hierarchy when it was read, else through a hierarchy of the files the
    /// chain reaches, grown by the sources of every supertype the last walk
    /// did not find, until none is left: reading every file of a large build
    /// for one class would cost seconds. A supertype whose file is named
    /// otherwise stays outside, so undecided (accepted), never refused.
    fn detect(&self, class: &str, path: &Path, platform: bool) -> Detection {
        if let Some(full) = self.hierarchy.get() {
            return Detector::new(full, &self.compiled, platform).detect(class, path);
        }
        let mut read: HashSet<PathBuf> = HashSet::from([path.to_path_buf()]);
        let mut files: Vec<SourceFile> = self.source_file(path).into_iter().collect();
        loop {
            let part = Hierarchy::build(files.clone());
            let detector = Detector::new(&part, &self.compiled, platform);
            let verdict = detector.detect(class, path);
            let more: Vec<PathBuf> = detector
                .take_misses()
                .iter()
                .flat_map(|binary| self.sources_of(binary))
                .filter(|p| read.insert(p.clone()))
                .collect();
            if verdict == Detection::Test || more.is_empty() {
                return verdict;
            }
            files.extend(more.iter().filter_map(|p| self.source_file(p)));
        }
    }

    fn source_file(&self, path: &Path) -> Option<SourceFile> {
        SourceFile::parse(path.to_path_buf(), &self.files.read(path)?)
    }

    /// The source files that can declare the top-level class of `binary`
    /// (`a.b.Outer$Inner` → `a/b/Outer.java`, … in any source dir).
    fn sources_of(&self, binary: &str) -> Vec<PathBuf> {
        let top = binary.split('$').next().unwrap_or(binary);
        let segments: Vec<&str> = top.split('.').collect();
        self.roots
            .files_for(&segments, false)
            .into_iter()
            .map(|(_, path)| path)
            .collect()
    }

    /// Refuses a file its source set's own include/exclude patterns leave out
    /// of compilation (`sourceSets.test.java.exclude '**/enum/*'`): Gradle
    /// never compiles it, so no task can run it.
    fn compiled_by_its_source_set(&self, root: &Root, path: &Path) -> Result<(), Skip> {
        let ext = extension(path);
        let compilers: Vec<Root> = self
            .roots
            .containing(path)
            .into_iter()
            .filter(|r| r.project == root.project && r.source_set == root.source_set)
            .filter(|r| r.compiles(ext))
            .collect();
        let inside = |r: &Root| {
            let inside = path.strip_prefix(&r.dir).unwrap_or(path);
            inside.to_string_lossy().replace('\\', "/")
        };
        let compiled = compilers.iter().any(|r| {
            let (_, patterns) = r.compiled_as.as_ref().expect("a compiling root");
            patterns.accepts(&inside(r))
        });
        match compilers.first() {
            Some(r) if !compiled => {
                let (lang, patterns) = r.compiled_as.as_ref().expect("a compiling root");
                Err(Skip::Unresolved(Reason::new(
                    ReasonCode::NotCompiled,
                    format!(
                        "`{}` is left out of the compilation of `{}` source set `{}` by its \
                         {lang} source patterns ({}): Gradle never compiles it, so no task runs it",
                        inside(r),
                        r.project,
                        r.source_set,
                        patterns.describe()
                    ),
                )))
            }
            _ => Ok(()),
        }
    }

    /// The tasks of `root` that run `class` only through suites their
    /// patterns include, each with how ([`suites`]).
    fn via_suites(&self, root: &Root, class: &str) -> Vec<(String, ViaSuite)> {
        let TaskBinding::Tasks(tied) = &root.tie else {
            return Vec::new();
        };
        let set = (root.project.as_str(), root.source_set.as_str());
        let classes = || self.roots.classes_of_set(set.0, set.1);
        suites::tasks_running(tied, class, self.choice.tasks, &|task| {
            self.suites.membership(set, task, &classes, self.files)
        })
    }

    /// What a class file declares; nothing when it cannot be read.
    fn parse(&self, path: &Path) -> Unit {
        Language::of_path(path)
            .and_then(|lang| Some(source::parse(&self.files.read(path)?, lang)))
            .unwrap_or_default()
    }

    /// The tasks chosen to run the subject (recording a choice among several),
    /// or why none does.
    fn tasks_for(&self, root: &Root, subject: &Subject) -> Result<Vec<String>, Skip> {
        let class = subject.class.as_deref();
        match &root.tie {
            TaskBinding::Tasks(tied) => match tasks::choose(tied, class, self.choice.tasks) {
                TaskDecision::Run(tasks, record) => {
                    if let Some(record) = record {
                        let mut records = self.records.borrow_mut();
                        if !records.task_selections.contains(&record) {
                            records.task_selections.push(record);
                        }
                    }
                    Ok(tasks)
                }
                TaskDecision::Refused(reason)
                    if reason.code == ReasonCode::ExcludedByTaskPatterns
                        && !subject.shows_tests =>
                {
                    Err(Skip::NotATest(reason.text))
                }
                TaskDecision::Refused(reason) => Err(Skip::Unresolved(reason)),
            },
            TaskBinding::Task(task) => {
                // Without a layout, the convention's patterns decide, as in a build.
                let patterns = self.task_patterns(root, task);
                if let Some(class) = class.filter(|c| !patterns.accepts(&class_file(c))) {
                    let text = format!(
                        "`{class}` is left out by the patterns of `{task}` ({}); Gradle would run \
                         no test",
                        patterns.describe()
                    );
                    return Err(if subject.shows_tests {
                        Skip::Unresolved(Reason::new(ReasonCode::ExcludedByTaskPatterns, text))
                    } else {
                        Skip::NotATest(text)
                    });
                }
                Ok(vec![task.clone()])
            }
            TaskBinding::Unavailable(reason) => Err(Skip::Unresolved(reason.clone())),
            TaskBinding::NotTest => Err(not_run(root)),
        }
    }

    /// The include/exclude patterns of `task`: the layout's, or the path rules'
    /// convention (Elasticsearch's test tasks run `*Tests` and `*IT` classes).
    fn task_patterns(&self, root: &Root, task: &str) -> Patterns {
        match &root.tie {
            TaskBinding::Tasks(tied) => tied
                .tasks
                .iter()
                .find(|t| t.path == task)
                .map(tasks::patterns_of)
                .unwrap_or_default(),
            _ => Patterns {
                includes: vec!["**/*Tests.class".into(), "**/*IT.class".into()],
                excludes: vec![],
            },
        }
    }

    /// An abstract class runs through its concrete subclasses. When none can
    /// run, a changed file of code no Test task runs (main code) is simply not
    /// a test; anything else is unresolved with the reason.
    fn abstract_class(
        &self,
        root: &Root,
        class: &str,
        target: &Target,
    ) -> Result<Vec<Classification>, Skip> {
        match self.expand(class, target) {
            Err(Skip::Unresolved(reason))
                if target.origin == Origin::Changed && matches!(root.tie, TaskBinding::NotTest) =>
            {
                Err(Skip::NotATest(reason.text))
            }
            other => other,
        }
    }
}

/// What a lookup asks for beyond the file: a nested class, a method.
struct Target {
    nested: Option<String>,
    /// The class's binary name, when an expansion found it (then it is
    /// known to be concrete, and its file may be named otherwise).
    binary: Option<String>,
    method: Option<String>,
    origin: Origin,
}

impl Target {
    fn whole(origin: Origin) -> Self {
        Target {
            nested: None,
            binary: None,
            method: None,
            origin,
        }
    }

    fn nested(nested: Option<&str>, test: &TestRef, origin: Origin) -> Self {
        Target {
            nested: nested.map(str::to_string),
            binary: None,
            method: test.method.clone(),
            origin,
        }
    }
}

/// What a file of a source dir holds that a task could run.
struct Subject {
    class: Option<String>,
    yaml_suite: Option<String>,
    /// The class's source shows tests: a class the task patterns leave out
    /// is then unresolved, else it is support code, not a test.
    shows_tests: bool,
    /// The class is a suite of other classes.
    is_suite: bool,
    /// The outer class's simple name and source, to tell whether its task
    /// runs nested classes.
    nested_source: Option<(String, Unit)>,
}

enum ClassFile {
    /// An abstract class: it runs through its concrete subclasses.
    AbstractBase(String),
    Test(Subject),
}

/// A YAML suite of a resources dir (under `rest-api-spec/test/`): it runs on
/// its own only in a `yamlRestTest` source set.
fn yaml_suite(root: &Root, path: &Path) -> Result<Subject, Skip> {
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
        nested_source: None,
    })
}

/// Whether a task that may run the root's classes uses the JUnit Platform,
/// or a framework not known here: then interfaces' test methods count.
fn may_use_junit_platform(root: &Root) -> bool {
    match &root.tie {
        TaskBinding::Tasks(tied) => tied
            .tasks
            .iter()
            .any(|t| !matches!(t.framework.as_deref(), Some("junit" | "testng"))),
        _ => false,
    }
}

fn extension(path: &Path) -> &str {
    path.extension().and_then(|e| e.to_str()).unwrap_or("")
}

fn not_run(root: &Root) -> Skip {
    Skip::NotATest(format!(
        "in `{}` source set `{}`, which no Test task runs",
        root.project, root.source_set
    ))
}

fn not_a_test() -> Skip {
    Skip::NotATest("not a test class or YAML suite".into())
}

fn utf8(p: &Path) -> Result<String, Skip> {
    p.to_str().map(str::to_string).ok_or_else(|| {
        Skip::Unresolved(Reason::new(
            ReasonCode::NotUtf8,
            "the path is not valid UTF-8",
        ))
    })
}

/// The binary name of a nested class below its file: `Inner$Deep`.
fn join_nested(dotted: &[&str], binary: Option<&str>) -> Option<String> {
    let parts: Vec<&str> = dotted.iter().copied().chain(binary).collect();
    (!parts.is_empty()).then(|| parts.join("$"))
}

fn starts_upper(s: &str) -> bool {
    s.chars().next().is_some_and(char::is_uppercase)
}

fn kind_of(source_set: &str, suite: bool, method: bool) -> TestKind {
    match source_set {
        "yamlRestTest" if suite => TestKind::YamlRestTestSuite,
        "yamlRestTest" if method => TestKind::YamlRestTestCase,
        "yamlRestTest" => TestKind::YamlRestTestRunner,
        other => TestKind::parse(other),
    }
}

#[cfg(test)]
#[path = "classify_tests.rs"]
mod tests;
