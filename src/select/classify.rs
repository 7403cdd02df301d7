//! Classification: which project, source set, Test task and kind a file or a
//! class name belongs to. Through the layout when Gradle gave us one, else
//! through Elasticsearch's conventional path rules (`<project>/src/<set>/<lang>/…`).
//!
//! All paths here are relative to the build root. Files are reached only
//! through [`Files`], so this stays a pure function of its inputs.
//!
//! Which Test tasks run a class is [`super::tasks`]' rule; an abstract class
//! is expanded into its concrete subclasses by [`super::expand`], each
//! classified on its own project's task. What was chosen among several tasks
//! and how bases were expanded is recorded ([`Records`]) for the plan.

use super::expand::{self, Descendant, Expansion, Hierarchy, NotRun, SourceFile};
use super::source::{self, Language};
use super::tasks::{self, Chosen, TaskChoice, TaskSelection, Tied};
use super::{test_class, Selection, TestRef};
use crate::domain::{ClassifiedTest, Origin, Reason, ReasonCode, TestKind, Unresolved};
use crate::layout::Layout;
use crate::test_filter::{class_file, Patterns};
use rayon::prelude::*;
use std::cell::{OnceCell, RefCell};
use std::collections::{BTreeSet, HashMap};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// Read-only access to the build's files, relative to the build root.
pub trait Files: Sync {
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

pub(crate) type Outcome = Result<ClassifiedTest, Skip>;

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
    /// By some of these Test tasks, tied to it by output dirs; chosen per class.
    Tasks(Rc<Tied>),
    /// By this Test task (the path rules' convention).
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

/// How tests are chosen: tasks per class, subclasses per abstract base.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Choice {
    pub tasks: TaskChoice,
    /// The most concrete subclasses run for one abstract base (`--subclass-cap`).
    pub subclass_cap: usize,
}

impl Default for Choice {
    fn default() -> Self {
        Choice {
            tasks: TaskChoice::default(),
            subclass_cap: expand::DEFAULT_SUBCLASS_CAP,
        }
    }
}

/// What classification decided beyond the tests themselves.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Records {
    pub task_selections: Vec<TaskSelection>,
    pub expansions: Vec<Expansion>,
}

pub struct Classifier<'a> {
    mode: Mode,
    files: &'a dyn Files,
    choice: Choice,
    /// Files of the searchable source dirs by file name, built on first class lookup.
    by_name: OnceCell<HashMap<OsString, Vec<PathBuf>>>,
    /// Layout roots by directory, for finding a file's source dir.
    by_dir: OnceCell<HashMap<PathBuf, Vec<usize>>>,
    /// Every class hierarchy of the build, read on the first abstract class.
    hierarchy: OnceCell<Hierarchy>,
    records: RefCell<Records>,
}

impl<'a> Classifier<'a> {
    /// Classifies through the layout Gradle reported.
    pub fn from_layout(layout: &Layout, files: &'a dyn Files) -> Self {
        let mut roots = Vec::new();
        for project in &layout.projects {
            for set in &project.source_sets {
                let tied: Vec<_> = layout.tasks_for(set).into_iter().cloned().collect();
                let tie = if tied.is_empty() {
                    Tie::NotTest
                } else {
                    Tie::Tasks(Rc::new(Tied {
                        project: project.path.clone(),
                        source_set: set.name.clone(),
                        tasks: tied,
                    }))
                };
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
            choice: Choice::default(),
            by_name: OnceCell::new(),
            by_dir: OnceCell::new(),
            hierarchy: OnceCell::new(),
            records: RefCell::new(Records::default()),
        }
    }

    /// Chooses tasks and expands bases with these knobs instead of the defaults.
    pub fn with_choice(mut self, choice: Choice) -> Self {
        self.choice = choice;
        self
    }

    pub fn files(&self) -> &dyn Files {
        self.files
    }

    /// What was chosen and expanded so far; the log is emptied.
    pub fn take_records(&self) -> Records {
        std::mem::take(&mut *self.records.borrow_mut())
    }

    /// What a file is: the outcomes for every source set it belongs to (a
    /// source dir may be shared by several projects) and every task chosen to
    /// run it; empty when it is in none.
    pub fn classify_path(&self, path: &Path, origin: Origin) -> Vec<Outcome> {
        self.roots_containing(path)
            .iter()
            .flat_map(|root| self.classify_file(root, path, &Target::whole(origin)))
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
            .flat_map(|(root, path)| self.classify_file(root, path, target))
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

    /// Every class file of the build's source dirs named like a test
    /// ([`test_class::NAME_RULE`]), as (simple name, path): what a
    /// misspelled class is compared with.
    pub fn test_like_classes(&self) -> Vec<(String, PathBuf)> {
        let mut found = Vec::new();
        for (name, paths) in self.index() {
            let name = Path::new(name);
            let (Some(stem), Some(ext)) = (
                name.file_stem().and_then(|s| s.to_str()),
                name.extension().and_then(|e| e.to_str()),
            ) else {
                continue;
            };
            if CLASS_EXTENSIONS.contains(&ext) && test_class::is_test_name(stem) {
                found.extend(paths.iter().map(|p| (stem.to_string(), p.clone())));
            }
        }
        found.sort();
        found
    }

    /// The class a source file defines, by its path inside its source dir.
    pub fn class_name_of(&self, path: &Path) -> Option<String> {
        let root = self.roots_containing(path).into_iter().next()?;
        let inside = path.strip_prefix(&root.dir).ok()?.with_extension("");
        Some(inside.to_str()?.replace('/', "."))
    }

    /// The files of every source dir that define a top-level class `simple`.
    pub fn files_of_class(&self, simple: &str) -> Vec<PathBuf> {
        CLASS_EXTENSIONS
            .iter()
            .flat_map(|ext| self.index().get(&OsString::from(format!("{simple}.{ext}"))))
            .flatten()
            .cloned()
            .collect()
    }

    /// The source dirs holding `path`: the deepest ones (several when shared).
    fn roots_containing(&self, path: &Path) -> Vec<Root> {
        match &self.mode {
            Mode::Layout(roots) => {
                let by_dir = self.by_dir.get_or_init(|| {
                    let mut by_dir: HashMap<PathBuf, Vec<usize>> = HashMap::new();
                    for (i, r) in roots.iter().enumerate() {
                        by_dir.entry(r.dir.clone()).or_default().push(i);
                    }
                    by_dir
                });
                path.ancestors()
                    .skip(1)
                    .find_map(|dir| by_dir.get(dir))
                    .map(|at| at.iter().map(|&i| roots[i].clone()).collect())
                    .unwrap_or_default()
            }
            Mode::PathRules => rule_root(path).into_iter().collect(),
        }
    }

    /// The build's class hierarchies, from every source file the classifier
    /// can search (read and parsed in parallel, once).
    fn hierarchy(&self) -> &Hierarchy {
        self.hierarchy.get_or_init(|| {
            let mut paths: Vec<&PathBuf> = self.index().values().flatten().collect();
            paths.sort();
            paths.dedup();
            let files = self.files;
            let parsed: Vec<SourceFile> = paths
                .par_iter()
                .filter(|p| {
                    p.extension()
                        .and_then(|e| e.to_str())
                        .and_then(Language::of_extension)
                        .is_some()
                })
                .filter_map(|p| SourceFile::parse((*p).clone(), &files.read(p)?))
                .collect();
            Hierarchy::build(parsed)
        })
    }

    /// Classifies the concrete subclasses of the abstract class `base`, each
    /// through its own file and source set, and records the expansion.
    /// Returns the outcomes of the chosen ones, or why none can run.
    fn expand(&self, base: &str, target: &Target) -> Result<Vec<Outcome>, Skip> {
        let descendants = self.hierarchy().descendants(base);
        let mut runnable: Vec<(Descendant, String, Vec<Outcome>)> = Vec::new();
        let mut not_run = Vec::new();
        for d in &descendants {
            let sub = Target {
                nested: None,
                binary: Some(d.binary.clone()),
                method: target.method.clone(),
                origin: target.origin,
            };
            let outcomes: Vec<Outcome> = self
                .roots_containing(&d.path)
                .iter()
                .filter(|r| !r.resources)
                .flat_map(|root| self.classify_file(root, &d.path, &sub))
                .collect();
            let project = outcomes
                .iter()
                .find_map(|o| o.as_ref().ok())
                .map(|t| t.project.clone());
            match project {
                Some(project) => runnable.push((d.clone(), project, outcomes)),
                None => {
                    // Why it cannot run; a refusal says more than a name.
                    let reason = outcomes
                        .iter()
                        .find_map(|o| match o {
                            Err(Skip::Unresolved(r)) => Some(r.clone()),
                            _ => None,
                        })
                        .or_else(|| {
                            outcomes.iter().find_map(|o| match o {
                                Err(Skip::NotATest(text)) => {
                                    Some(Reason::new(ReasonCode::NotATest, text.clone()))
                                }
                                _ => None,
                            })
                        });
                    if let Some(reason) = reason {
                        not_run.push(NotRun {
                            class: d.binary.clone(),
                            reason_code: reason.code,
                            reason: reason.text,
                        });
                    }
                }
            }
        }
        if runnable.is_empty() {
            let refused = not_run
                .into_iter()
                .find(|n| n.reason_code != ReasonCode::NotATest);
            return Err(match refused {
                Some(first) => Skip::Unresolved(Reason::new(
                    first.reason_code,
                    format!(
                        "`{base}` is abstract, and its concrete subclasses cannot run here: \
                         `{}`: {}",
                        first.class, first.reason
                    ),
                )),
                None => Skip::Unresolved(Reason::new(
                    ReasonCode::AbstractNoConcreteSubclass,
                    format!(
                        "`{base}` is abstract and no concrete test class of the build extends it \
                         (found {} concrete subclass(es), none named or run as a test)",
                        descendants.len()
                    ),
                )),
            });
        }
        let cap = self.choice.subclass_cap.max(1);
        let chosen = expand::spread(&runnable, cap, |(_, project, _)| project.clone());
        self.records.borrow_mut().expansions.push(Expansion {
            base: base.to_string(),
            chosen: chosen.iter().map(|(d, _, _)| d.binary.clone()).collect(),
            total: runnable.len(),
            cap,
            not_run,
        });
        Ok(chosen.into_iter().flat_map(|(_, _, o)| o).collect())
    }

    /// Whether the file at `path` declares `local` (`Outer`, `Outer$Inner`) as
    /// an abstract class.
    fn declares_abstract_in(&self, path: &Path, local: &str) -> bool {
        let Some(lang) = path
            .extension()
            .and_then(|e| e.to_str())
            .and_then(Language::of_extension)
        else {
            return false;
        };
        self.files.read(path).is_some_and(|text| {
            source::parse(&text, lang)
                .types
                .iter()
                .any(|t| t.local == local && t.is_abstract)
        })
    }

    /// The outcomes for one file of one source dir: one per task chosen to
    /// run it, or the outcomes of an abstract class's chosen subclasses.
    fn classify_file(&self, root: &Root, path: &Path, target: &Target) -> Vec<Outcome> {
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
    ) -> Result<Vec<Outcome>, Skip> {
        let (project, set) = (&root.project, &root.source_set);
        let not_run = || {
            Skip::NotATest(format!(
                "in `{project}` source set `{set}`, which no Test task runs"
            ))
        };
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
        // The outer class's name and source, to tell whether its task runs nested classes.
        let mut nested_source: Option<(String, String)> = None;
        // Whether the class's source shows tests: a class the task patterns
        // leave out is then unresolved, else it is support code, not a test.
        let mut shows_tests = false;
        let (class, yaml_suite) = if root.resources {
            if let Tie::NotTest = root.tie {
                return Err(not_run());
            }
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
            let from_path = utf8(&inside.with_extension(""))?.replace('/', ".");
            // The class: named by an expansion, or the file's (with a nested part).
            let class = match (&target.binary, &target.nested) {
                (Some(binary), _) => binary.clone(),
                (None, Some(nested)) => format!("{from_path}${nested}"),
                (None, None) => from_path,
            };
            if target.binary.is_none() {
                let local = match &target.nested {
                    Some(nested) => format!("{stem}${nested}"),
                    None => stem.clone(),
                };
                if self.declares_abstract_in(path, &local) {
                    return self.abstract_class(root, &class, target);
                }
            }
            if let Tie::NotTest = root.tie {
                return Err(not_run());
            }
            // Expanded subclasses by their own simple name, others by their file's.
            let simple = match &target.binary {
                Some(binary) => binary.rsplit(['.', '$']).next().unwrap_or(binary),
                None => stem.as_str(),
            };
            // What the task's patterns admit is decided with the task choice;
            // here only whether the class is a test at all.
            let source = self.files.read(path).unwrap_or_default();
            shows_tests = test_class::declares_tests(&source);
            if !test_class::is_test_name(simple) && !shows_tests {
                return Err(Skip::NotATest(format!(
                    "`{simple}` declares no tests and is not named like a test class ({})",
                    test_class::NAME_RULE
                )));
            }
            if target.nested.is_none() && target.binary.is_none() {
                nested_source = Some((simple.to_string(), source));
            }
            (Some(class), None)
        };
        let tasks = match &root.tie {
            Tie::Tasks(tied) => match tasks::choose(tied, class.as_deref(), self.choice.tasks) {
                Chosen::Run(tasks, record) => {
                    if let Some(record) = record {
                        let mut records = self.records.borrow_mut();
                        if !records.task_selections.contains(&record) {
                            records.task_selections.push(record);
                        }
                    }
                    tasks
                }
                Chosen::Refused(reason)
                    if reason.code == ReasonCode::ExcludedByTaskPatterns && !shows_tests =>
                {
                    return Err(Skip::NotATest(reason.text))
                }
                Chosen::Refused(reason) => return Err(Skip::Unresolved(reason)),
            },
            Tie::Task(task) => {
                // Without a layout, the convention's patterns decide, as in a build.
                let patterns = self.task_patterns(root, task);
                if let Some(class) = class
                    .as_deref()
                    .filter(|c| !patterns.accepts(&class_file(c)))
                {
                    let text = format!(
                        "`{class}` is left out by the patterns of `{task}` ({}); Gradle would run \
                         no test",
                        patterns.describe()
                    );
                    return Err(if shows_tests {
                        Skip::Unresolved(Reason::new(ReasonCode::ExcludedByTaskPatterns, text))
                    } else {
                        Skip::NotATest(text)
                    });
                }
                vec![task.clone()]
            }
            Tie::Unavailable(reason) => return Err(Skip::Unresolved(reason.clone())),
            Tie::NotTest => return Err(not_run()),
        };
        let kind = kind_of(set, yaml_suite.is_some(), target.method.is_some());
        Ok(tasks
            .into_iter()
            .map(|task| {
                let nested_classes = match (&nested_source, &class) {
                    (Some((simple, source)), Some(class)) => test_class::has_nested_classes(
                        &self.task_patterns(root, &task),
                        class,
                        simple,
                        source,
                    ),
                    _ => false,
                };
                Ok(ClassifiedTest {
                    project: project.clone(),
                    source_set: set.clone(),
                    task,
                    kind: kind.clone(),
                    class: class.clone(),
                    method: target.method.clone(),
                    yaml_suite: yaml_suite.clone(),
                    origin: target.origin,
                    nested_classes,
                })
            })
            .collect())
    }

    /// The include/exclude patterns of `task`: the layout's, or the path rules'
    /// convention (Elasticsearch's test tasks run `*Tests` and `*IT` classes).
    fn task_patterns(&self, root: &Root, task: &str) -> Patterns {
        match &root.tie {
            Tie::Tasks(tied) => tied
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
    ) -> Result<Vec<Outcome>, Skip> {
        match self.expand(class, target) {
            Err(Skip::Unresolved(reason))
                if target.origin == Origin::Changed && matches!(root.tie, Tie::NotTest) =>
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

/// Does the source declare a class of simple name `simple` abstract (read as
/// Java; Groovy and Kotlin declare abstract classes the same way)?
#[cfg(test)]
fn declares_abstract(text: &str, simple: &str) -> bool {
    source::parse(text, Language::Java)
        .types
        .iter()
        .any(|t| (t.local == simple || t.local.ends_with(&format!("${simple}"))) && t.is_abstract)
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
                ReasonCode::AbstractNoConcreteSubclass,
                "`org.elasticsearch.AbstractFooTests` is abstract and no concrete test class of \
                 the build extends it (found 0 concrete subclass(es), none named or run as a test)"
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
