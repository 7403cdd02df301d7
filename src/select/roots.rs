//! The source roots of the build: every source and resource directory of
//! every source set, with how its tests are run, and an index of their files
//! by name, read once. Through the layout when Gradle gave one, else through
//! Elasticsearch's conventional path rules (`<project>/src/<set>/<lang>/…`).

use super::files::Files;
use super::tasks::SourceSetTasks;
use super::test_class;
use crate::domain::{Reason, ReasonCode};
use crate::layout::Layout;
use crate::test_filter::Patterns;
use std::cell::OnceCell;
use std::collections::{BTreeSet, HashMap};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// The four source sets Elasticsearch's flakiness detection knows, in its kind order.
const KNOWN_SOURCE_SETS: [&str; 4] = [
    "test",
    "internalClusterTest",
    "javaRestTest",
    "yamlRestTest",
];
pub(super) const CLASS_EXTENSIONS: [&str; 3] = ["java", "groovy", "kt"];

/// A source or resource directory of one source set.
#[derive(Clone, Debug)]
pub(super) struct Root {
    pub dir: PathBuf,
    pub resources: bool,
    pub project: String,
    pub source_set: String,
    pub tie: TaskBinding,
    /// The language whose source directory set reported the dir (`java`,
    /// `groovy`, `kotlin`) and that set's own include/exclude patterns;
    /// `None` for resources and under the path rules.
    pub compiled_as: Option<(&'static str, Patterns)>,
}

impl Root {
    /// Whether this dir's compiler compiles files of extension `ext`
    /// (Groovy's joint compilation compiles the Java files of its dirs).
    pub(super) fn compiles(&self, ext: &str) -> bool {
        match self.compiled_as.as_ref().map(|(lang, _)| *lang) {
            Some("java") => ext == "java",
            Some("groovy") => ext == "groovy" || ext == "java",
            Some("kotlin") => ext == "kt",
            _ => false,
        }
    }
}

/// How a source set's tests are run.
#[derive(Clone, Debug)]
pub(super) enum TaskBinding {
    /// By some of these Test tasks, tied to it by output dirs; chosen per class.
    Tasks(Rc<SourceSetTasks>),
    /// By this Test task (the path rules' convention).
    Task(String),
    /// They cannot be run; the reason.
    Unavailable(Reason),
    /// No Test task runs this source set: it is not test code (e.g. `main`).
    NotTest,
}

enum RootMode {
    Layout(Vec<Root>),
    PathRules,
}

/// The build's source roots, and their files found on first use.
pub(super) struct SourceRoots<'a> {
    mode: RootMode,
    files: &'a dyn Files,
    /// Files of the searchable source dirs by file name, built on first class lookup.
    by_name: OnceCell<HashMap<OsString, Vec<PathBuf>>>,
    /// Layout roots by directory, for finding a file's source dir.
    by_dir: OnceCell<HashMap<PathBuf, Vec<usize>>>,
}

impl<'a> SourceRoots<'a> {
    /// The roots of every source set the layout reports.
    pub(super) fn from_layout(layout: &Layout, files: &'a dyn Files) -> Self {
        let mut roots = Vec::new();
        for project in &layout.projects {
            for set in &project.source_sets {
                let tied: Vec<_> = layout.tasks_for(set).into_iter().cloned().collect();
                let tie = if tied.is_empty() {
                    TaskBinding::NotTest
                } else {
                    TaskBinding::Tasks(Rc::new(SourceSetTasks {
                        project: project.path.clone(),
                        source_set: set.name.clone(),
                        tasks: tied,
                    }))
                };
                let relative =
                    |d: &PathBuf| d.strip_prefix(&layout.root_dir).unwrap_or(d).to_path_buf();
                let patterns = |lang: &str| {
                    let p = set.source_patterns.get(lang).cloned().unwrap_or_default();
                    Patterns {
                        includes: p.includes,
                        excludes: p.excludes,
                    }
                };
                let languages = [
                    ("java", &set.java),
                    ("groovy", &set.groovy),
                    ("kotlin", &set.kotlin),
                ];
                let sources = languages.into_iter().flat_map(|(lang, dirs)| {
                    dirs.iter().map(move |d| (d, Some((lang, patterns(lang)))))
                });
                for (dir, compiled_as) in sources.chain(set.resources.iter().map(|d| (d, None))) {
                    roots.push(Root {
                        dir: relative(dir),
                        resources: compiled_as.is_none(),
                        project: project.path.clone(),
                        source_set: set.name.clone(),
                        tie: tie.clone(),
                        compiled_as,
                    });
                }
            }
        }
        Self::new(RootMode::Layout(roots), files)
    }

    /// The roots the path rules see, for when no layout can be had.
    pub(super) fn path_rules(files: &'a dyn Files) -> Self {
        Self::new(RootMode::PathRules, files)
    }

    fn new(mode: RootMode, files: &'a dyn Files) -> Self {
        SourceRoots {
            mode,
            files,
            by_name: OnceCell::new(),
            by_dir: OnceCell::new(),
        }
    }

    /// Files whose path inside a source dir is `segments` joined by `/` plus a
    /// class extension (or, with `suffix`, ends with it), with their source dir.
    pub(super) fn files_for(&self, segments: &[&str], suffix: bool) -> Vec<(Root, PathBuf)> {
        let package_path = segments.join("/");
        let mut found = Vec::new();
        for ext in CLASS_EXTENSIONS {
            let name = OsString::from(format!("{}.{ext}", segments[segments.len() - 1]));
            let wanted = format!("{package_path}.{ext}");
            for path in self.index().get(&name).into_iter().flatten() {
                for root in self.containing(path) {
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
                RootMode::Layout(roots) => roots
                    .iter()
                    .filter(|r| !r.resources)
                    .map(|r| r.dir.as_path())
                    .collect(),
                RootMode::PathRules => BTreeSet::from([Path::new("")]),
            };
            let mut index: HashMap<OsString, Vec<PathBuf>> = HashMap::new();
            let files: BTreeSet<PathBuf> =
                dirs.into_iter().flat_map(|d| self.files.walk(d)).collect();
            for file in files {
                if let Some(name) = file.file_name().map(OsString::from) {
                    index.entry(name).or_default().push(file);
                }
            }
            index
        })
    }

    /// Every class file of the build's source dirs named like a test
    /// ([`test_class::NAME_RULE`]), as (simple name, path): what a
    /// misspelled class is compared with (a name is all a misspelling has).
    pub(super) fn test_like_classes(&self) -> Vec<(String, PathBuf)> {
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
    pub(super) fn class_name_of(&self, path: &Path) -> Option<String> {
        let root = self.containing(path).into_iter().next()?;
        let inside = path.strip_prefix(&root.dir).ok()?.with_extension("");
        Some(inside.to_str()?.replace('/', "."))
    }

    /// The files of every source dir that define a top-level class `simple`.
    pub(super) fn files_of_class(&self, simple: &str) -> Vec<PathBuf> {
        CLASS_EXTENSIONS
            .iter()
            .flat_map(|ext| self.index().get(&OsString::from(format!("{simple}.{ext}"))))
            .flatten()
            .cloned()
            .collect()
    }

    /// Every root the layout reports (none by the path rules).
    pub(super) fn all(&self) -> &[Root] {
        match &self.mode {
            RootMode::Layout(roots) => roots,
            RootMode::PathRules => &[],
        }
    }

    /// The source dirs holding `path`: the deepest ones (several when shared).
    pub(super) fn containing(&self, path: &Path) -> Vec<Root> {
        match &self.mode {
            RootMode::Layout(roots) => {
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
            RootMode::PathRules => rule_root(path).into_iter().collect(),
        }
    }

    /// The top-level classes of the source dirs of `project`'s source set
    /// `set`, by binary name (from their paths inside the dirs), with their files.
    pub(super) fn classes_of_set(&self, project: &str, set: &str) -> HashMap<String, PathBuf> {
        let mut classes = HashMap::new();
        for path in self.source_files() {
            let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
            if !CLASS_EXTENSIONS.contains(&ext) {
                continue;
            }
            let root = self
                .containing(path)
                .into_iter()
                .find(|r| !r.resources && r.project == project && r.source_set == set);
            let inside = root.and_then(|r| {
                let inside = path.strip_prefix(&r.dir).ok()?.with_extension("");
                Some(inside.to_str()?.replace('/', "."))
            });
            if let Some(binary) = inside {
                classes.entry(binary).or_insert_with(|| path.clone());
            }
        }
        classes
    }

    /// Every file of the searchable source dirs, sorted, once each.
    pub(super) fn source_files(&self) -> Vec<&PathBuf> {
        let mut paths: Vec<&PathBuf> = self.index().values().flatten().collect();
        paths.sort();
        paths.dedup();
        paths
    }
}

/// Elasticsearch's path rules as a source dir: `<project dir>/src/<set>/<lang>/…`,
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
        "main" => TaskBinding::NotTest,
        set if KNOWN_SOURCE_SETS.contains(&set) => TaskBinding::Task(format!("{project}:{set}")),
        set => TaskBinding::Unavailable(Reason::new(
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
        compiled_as: None,
    })
}
