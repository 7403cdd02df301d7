//! How the classifier tells a test class: Gradle's own detection through
//! the superclass chain, the source set's compilation, the suites that run a
//! class the task's patterns leave out.

use super::*;
use crate::domain::{Reason, ReasonCode, ViaSuite};
use crate::select::expand::{Hierarchy, SourceFile};
use crate::select::jar::Classpath;
use crate::select::roots::{Root, TaskBinding};
use crate::select::source::{self, Language, Unit};
use crate::select::suites::{self};
use crate::select::test_class::{self, Detection, Detector};
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// Whether Gradle's test detection decides what the tasks of `root` run:
/// not when every one of them has `scanForTestClasses = false` (then each
/// runs every class its patterns accept, `tasks::patterns_of`).
fn detects_tests(root: &Root) -> bool {
    match &root.tie {
        TaskBinding::Tasks(tied) => tied
            .tasks
            .iter()
            .any(|t| t.scan_for_test_classes != Some(false)),
        _ => true,
    }
}

impl Classifier<'_> {
    /// Whether Gradle's test detection would run the concrete class `class`
    /// of the file `path` ([`test_class`]): `Ok(true)` when it shows tests,
    /// `Ok(false)` when that cannot be decided here (accepted), else why it
    /// is no test. An `outer` class whose nested classes declare tests is
    /// accepted for them.
    pub(super) fn is_test(
        &self,
        root: &Root,
        path: &Path,
        unit: &Unit,
        class: &str,
        simple: &str,
        outer: bool,
    ) -> Result<bool, Skip> {
        let local = unit.local_of(class);
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
        let classpath = self.classpath(root);
        match self.detect(
            class,
            path,
            may_use_junit_platform(root),
            classpath.as_deref(),
        ) {
            Detection::Test => Ok(true),
            Detection::Undecided => Ok(false),
            // Tasks that do not detect run whatever their patterns accept.
            Detection::NotTest(_) if !detects_tests(root) => Ok(false),
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
    pub(super) fn detect(
        &self,
        class: &str,
        path: &Path,
        platform: bool,
        classpath: Option<&Classpath<'_>>,
    ) -> Detection {
        if let Some(full) = self.hierarchy.get() {
            return Detector::new(full, &self.compiled, platform)
                .with_classpath(classpath)
                .detect(class, path);
        }
        let mut read: HashSet<PathBuf> = HashSet::from([path.to_path_buf()]);
        let mut files: Vec<SourceFile> = self.source_file(path).into_iter().collect();
        loop {
            let part = Hierarchy::build(files.clone());
            let detector = Detector::new(&part, &self.compiled, platform).with_classpath(classpath);
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

    /// The runtime classpath of the Test tasks that may run the classes of
    /// `root`, in order, each entry once: what Gradle's detection reads a
    /// library superclass from. `None` when no task's classpath is known
    /// (an older layout, or the init script could not resolve it).
    pub(super) fn classpath(&self, root: &Root) -> Option<Rc<Classpath<'_>>> {
        let entries = classpath_entries(root)?;
        let cell = self.classpaths.get(&entries)?;
        let classpath = cell.get_or_init(|| Rc::new(Classpath::new(entries, self.files)));
        Some(classpath.clone())
    }

    pub(super) fn source_file(&self, path: &Path) -> Option<SourceFile> {
        SourceFile::parse(path.to_path_buf(), &self.files.read(path)?)
    }

    /// The source files that can declare the top-level class of `binary`
    /// (`a.b.Outer$Inner` → `a/b/Outer.java`, … in any source dir).
    pub(super) fn sources_of(&self, binary: &str) -> Vec<PathBuf> {
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
    pub(super) fn compiled_by_its_source_set(&self, root: &Root, path: &Path) -> Result<(), Skip> {
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
    pub(super) fn via_suites(&self, root: &Root, class: &str) -> Vec<(String, ViaSuite)> {
        let TaskBinding::Tasks(tied) = &root.tie else {
            return Vec::new();
        };
        let set = (root.project.as_str(), root.source_set.as_str());
        let classes = || self.roots.classes_of_set(set.0, set.1);
        let runs = |suite: &str, path: &Path, unit: &Unit| {
            let simple = suite.rsplit(['.', '$']).next().unwrap_or(suite);
            self.is_test(root, path, unit, suite, simple, false).is_ok()
        };
        suites::tasks_running(tied, class, self.choice.tasks, &|task| {
            self.suites
                .membership(set, task, &classes, self.files, &runs)
        })
    }

    /// What a class file declares; nothing when it cannot be read.
    pub(super) fn parse(&self, path: &Path) -> Unit {
        Language::of_path(path)
            .and_then(|lang| Some(source::parse(&self.files.read(path)?, lang)))
            .unwrap_or_default()
    }
}

/// The runtime classpath of the Test tasks that may run the classes of
/// `root`, in order, each entry once; `None` when no task's is known.
pub(super) fn classpath_entries(root: &Root) -> Option<Vec<PathBuf>> {
    let TaskBinding::Tasks(tied) = &root.tie else {
        return None;
    };
    let known: Vec<&Vec<PathBuf>> = tied
        .tasks
        .iter()
        .filter_map(|t| t.runtime_classpath.as_ref())
        .collect();
    if known.is_empty() {
        return None;
    }
    let mut entries: Vec<PathBuf> = Vec::new();
    for entry in known.into_iter().flatten() {
        if !entries.contains(entry) {
            entries.push(entry.clone());
        }
    }
    Some(entries)
}
