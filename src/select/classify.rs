//! Classification: which project, source set, Test task and kind a file or a
//! class name belongs to, through the build's source roots (`roots`).
//!
//! All paths here are relative to the build root. Files are reached only
//! through [`Files`], so this stays a pure function of its inputs.
//!
//! Which Test tasks run a class is [`super::tasks`]' rule; how a class is
//! told a test is `detection`'s part; a class that runs through other
//! classes (a base through its concrete subclasses, each classified on its
//! own project's task; a bulk test through its owner) is `bases`'. What was
//! chosen among several tasks and how bases were expanded is recorded
//! ([`Decisions`]) for the plan.

use super::bytecode::Compiled;
use super::expand::{self, Hierarchy};
use super::jar::Classpath;
use super::roots::{Root, SourceRoots, TaskBinding, CLASS_EXTENSIONS};
use super::selection::TestRef;
use super::suites::SuiteIndex;
use super::tasks::{self, TaskChoice, TaskDecision};
use super::test_class;
use crate::domain::{ClassifiedTest, Origin, Reason, ReasonCode, TestKind, ViaSuite};
use crate::layout::Layout;
use crate::test_filter::{class_file, Patterns};
use std::cell::OnceCell;
use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::rc::Rc;

pub use super::files::{Files, Seekable};
pub use super::outcome::Skip;
pub(crate) use super::outcome::{Classification, Classified, Decisions};

mod bases;
mod detection;
mod subject;
use subject::*;

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

pub struct Classifier<'a> {
    roots: SourceRoots<'a>,
    files: &'a dyn Files,
    choice: Policy,
    /// Every class hierarchy of the build, read on the first class whose
    /// own source does not tell whether it is a test, or the first abstract class.
    hierarchy: OnceCell<Hierarchy>,
    /// The build's compiled classes, for superclasses without sources.
    compiled: Compiled<'a>,
    /// The runtime classpaths of the source sets' Test tasks, for
    /// superclasses from libraries: each known from the layout, read once
    /// (by its entries) when first needed.
    classpaths: HashMap<Vec<PathBuf>, OnceCell<Rc<Classpath<'a>>>>,
    /// The suites of the source sets, read when a class might run in one.
    suites: SuiteIndex,
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
        let classpaths = roots
            .all()
            .iter()
            .filter_map(detection::classpath_entries)
            .map(|entries| (entries, OnceCell::new()))
            .collect();
        Classifier {
            classpaths,
            roots,
            files,
            choice: Policy::default(),
            hierarchy: OnceCell::new(),
            compiled,
            suites: SuiteIndex::default(),
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

    /// What a file is: the outcomes for every source set it belongs to (a
    /// source dir may be shared by several projects) and every task chosen to
    /// run it; empty when it is in none.
    pub fn classify_path(&self, path: &Path, origin: Origin) -> Classified {
        let mut log = Decisions::default();
        let outcomes = self
            .roots
            .containing(path)
            .iter()
            .flat_map(|root| self.classify_file(root, path, &ClassTarget::whole(origin), &mut log))
            .collect();
        Classified {
            outcomes,
            decisions: log,
        }
    }

    /// Where a class lives: one outcome per file that defines it; empty when
    /// no source dir has it.
    pub fn locate(&self, test: &TestRef, origin: Origin) -> Classified {
        self.locate_in(test, origin, None)
    }

    /// Where a class lives, run only in the tasks `only` names when it names
    /// some (a test unmuted in those tasks): they are the candidates its
    /// tasks are chosen from.
    pub fn locate_in(
        &self,
        test: &TestRef,
        origin: Origin,
        only: Option<&BTreeSet<String>>,
    ) -> Classified {
        let mut log = Decisions::default();
        let outcomes = self.locate_logged(test, origin, only, &mut log);
        Classified {
            outcomes,
            decisions: log,
        }
    }

    fn locate_logged(
        &self,
        test: &TestRef,
        origin: Origin,
        only: Option<&BTreeSet<String>>,
        log: &mut Decisions,
    ) -> Vec<Classification> {
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
            if k < segments.len() && !(starts_upper(segments[k - 1]) && starts_upper(segments[k])) {
                break;
            }
            let nested = join_nested(nested_dotted, binary_nested);
            let found = self.roots.files_for(&segments[..k], false);
            if !found.is_empty() {
                let target = ClassTarget::nested(nested.as_deref(), test, origin, only);
                return self.classify_all(found, &target, log);
            }
        }
        // No exact package path: a simple name or a partial package, as the
        // suffix match of Elasticsearch's allowed.
        let found = self.roots.files_for(&segments, true);
        let nested = join_nested(&[], binary_nested);
        let target = ClassTarget::nested(nested.as_deref(), test, origin, only);
        self.classify_all(found, &target, log)
    }

    fn classify_all(
        &self,
        found: Vec<(Root, PathBuf)>,
        target: &ClassTarget,
        log: &mut Decisions,
    ) -> Vec<Classification> {
        found
            .iter()
            .flat_map(|(root, path)| self.classify_file(root, path, target, log))
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

    /// The outcomes for one file of one source dir: one per task chosen to
    /// run it, or the outcomes of an abstract class's chosen subclasses.
    fn classify_file(
        &self,
        root: &Root,
        path: &Path,
        target: &ClassTarget,
        log: &mut Decisions,
    ) -> Vec<Classification> {
        self.classify_one(root, path, target, log)
            .unwrap_or_else(|skip| vec![Err(skip)])
    }

    fn classify_one(
        &self,
        root: &Root,
        path: &Path,
        target: &ClassTarget,
        log: &mut Decisions,
    ) -> Result<Vec<Classification>, Skip> {
        let subject = if root.resources {
            yaml_suite(root, path)?
        } else {
            match self.class_in(root, path, target)? {
                ClassFile::AbstractBase(class) => {
                    return self.abstract_class(root, &class, target, log)
                }
                ClassFile::NeverRun(never) => return self.never_run_base(never, target, log),
                ClassFile::Test(subject) => subject,
            }
        };
        let tasks = self.tasks_for(root, &subject, target.only.as_ref(), log);
        let tasks: Vec<(String, Option<ViaSuite>)> = match tasks {
            Ok(tasks) => tasks.into_iter().map(|t| (t, None)).collect(),
            // Left out by the patterns, but run by a suite they include.
            Err(skip) => {
                let class = subject.class.as_deref();
                let mut via = class.map_or(Vec::new(), |c| self.via_suites(root, c));
                via.retain(|(task, _)| target.only.as_ref().is_none_or(|o| o.contains(task)));
                if via.is_empty() {
                    let bulk = self.bulk_test(root, path, &subject, target, log);
                    return bulk.unwrap_or_else(|| match &subject.class {
                        Some(class) if left_out_by_gradle(&skip) => {
                            let never = NeverRun {
                                class: class.clone(),
                                own_tests: subject.own_tests,
                                skip,
                            };
                            self.never_run_base(never, target, log)
                        }
                        _ => Err(skip),
                    });
                }
                via.into_iter().map(|(t, v)| (t, Some(v))).collect()
            }
        };
        let kind = kind_of(
            &root.source_set,
            subject.yaml_suite.is_some(),
            target.method.is_some(),
        );
        // A suite that never runs its own tests: a named method of it runs
        // nowhere; the whole class still runs its members.
        let own_not_run = match (&subject.leaves_out_own, &subject.class) {
            (Some(members), Some(class)) => Some(own_tests_not_run(class, members)),
            _ => None,
        };
        if let (Some(skip), Some(_)) = (&own_not_run, &target.method) {
            return Ok(vec![Err(skip.clone())]);
        }
        let runs: Vec<Classification> = tasks
            .into_iter()
            .map(|(task, via_suite)| {
                Ok(self.on_task(root, &subject, target, &kind, task, via_suite))
            })
            .collect();
        let subclasses = match &subject.class {
            Some(class) if !runs.is_empty() => self.changed_concrete_base(class, target, log),
            _ => Vec::new(),
        };
        Ok(runs
            .into_iter()
            .chain(own_not_run.map(Err))
            .chain(subclasses)
            .collect())
    }

    /// The subject classified on one of its tasks (through a suite when
    /// `via_suite` says so).
    fn on_task(
        &self,
        root: &Root,
        subject: &Subject,
        target: &ClassTarget,
        kind: &TestKind,
        task: String,
        via_suite: Option<ViaSuite>,
    ) -> ClassifiedTest {
        let nested_classes = match (&subject.nested_source, &subject.class) {
            (Some((simple, unit)), Some(class)) => test_class::has_nested_classes(
                &self.task_patterns(root, &task),
                class,
                simple,
                unit,
            ),
            _ => false,
        };
        ClassifiedTest {
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
            mute: None,
        }
    }

    /// The class a class file holds, as the target names it: an abstract
    /// base, a test, or why it is neither.
    fn class_in(&self, root: &Root, path: &Path, target: &ClassTarget) -> Result<ClassFile, Skip> {
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
        let classes = || self.roots.classes_of_set(set.0, set.1);
        let is_suite = self.suites.is_suite(set, &unit, &class, &classes);
        let outer = target.nested.is_none() && target.binary.is_none();
        let own_tests = declares_tests(&unit, &class);
        let shows_tests = match self.is_test(root, path, &unit, &class, simple, outer) {
            Ok(shows) => shows,
            // Not a test by Gradle's detection, yet a suite, or run by one.
            Err(_) if is_suite || !self.via_suites(root, &class).is_empty() => false,
            Err(skip) => {
                let never = NeverRun {
                    class,
                    own_tests,
                    skip,
                };
                return Ok(ClassFile::NeverRun(never));
            }
        };
        let leaves_out_own = is_suite
            .then(|| {
                self.suites
                    .leaves_out_own_tests(set, &unit, &class, &classes)
            })
            .flatten();
        Ok(ClassFile::Test(Subject {
            nested_source: outer.then(|| (simple.to_string(), unit)),
            class: Some(class),
            yaml_suite: None,
            shows_tests,
            is_suite,
            leaves_out_own,
            own_tests,
        }))
    }

    /// The tasks chosen to run the subject (recording a choice among several),
    /// or why none does.
    fn tasks_for(
        &self,
        root: &Root,
        subject: &Subject,
        only: Option<&BTreeSet<String>>,
        log: &mut Decisions,
    ) -> Result<Vec<String>, Skip> {
        let class = subject.class.as_deref();
        let scoped = match (&root.tie, only) {
            (TaskBinding::Tasks(tied), Some(only)) => Some(in_scope(tied, only, class)?),
            (TaskBinding::Task(task), Some(only)) if !only.contains(task) => {
                return Err(not_in_scope(only, class, &root.project, &root.source_set))
            }
            _ => None,
        };
        match &root.tie {
            TaskBinding::Tasks(tied) => {
                match tasks::choose(scoped.as_ref().unwrap_or(tied), class, self.choice.tasks) {
                    TaskDecision::Run(tasks, record) => {
                        if let Some(record) = record.filter(|r| !log.task_selections.contains(r)) {
                            log.task_selections.push(record);
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
                }
            }
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
}

#[cfg(test)]
#[path = "classify_tests.rs"]
mod tests;
