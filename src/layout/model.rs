//! The JSON the init script writes, and pure queries over it.

use crate::reports::ProjectPaths;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::PathBuf;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Layout {
    pub schema: u32,
    pub gradle_version: String,
    pub root_dir: PathBuf,
    /// Root directories of the builds this one includes (`includeBuild`):
    /// their sources are build logic, so the layout cache hashes them.
    #[serde(default)]
    pub included_builds: Vec<PathBuf>,
    pub projects: Vec<Project>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Project {
    /// Gradle path, e.g. `:x-pack:plugin:ml` (`:` for the root project).
    pub path: String,
    pub name: String,
    pub project_dir: PathBuf,
    pub build_file: PathBuf,
    #[serde(default)]
    pub source_sets: Vec<SourceSet>,
    #[serde(default)]
    pub test_tasks: Vec<TestTask>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SourceSet {
    pub name: String,
    #[serde(default)]
    pub java: Vec<PathBuf>,
    #[serde(default)]
    pub groovy: Vec<PathBuf>,
    #[serde(default)]
    pub kotlin: Vec<PathBuf>,
    #[serde(default)]
    pub resources: Vec<PathBuf>,
    #[serde(default)]
    pub classes_dirs: Vec<PathBuf>,
    #[serde(default)]
    pub compile_tasks: Vec<String>,
    /// Whether the runtime classpath declares randomizedtesting-runner; `None`
    /// when the init script could not tell.
    #[serde(default)]
    pub randomized_testing: Option<bool>,
    /// The include/exclude patterns of each language's source directory set
    /// (`java`, `groovy`, `kotlin`), relative to its source dirs: a file they
    /// leave out is never compiled.
    #[serde(default)]
    pub source_patterns: BTreeMap<String, SourcePatterns>,
}

/// A source directory set's own include/exclude patterns (ant style).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SourcePatterns {
    #[serde(default)]
    pub includes: Vec<String>,
    #[serde(default)]
    pub excludes: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TestTask {
    pub path: String,
    pub name: String,
    #[serde(default)]
    pub test_classes_dirs: Vec<PathBuf>,
    #[serde(default)]
    pub includes: Vec<String>,
    #[serde(default)]
    pub excludes: Vec<String>,
    pub enabled: bool,
    /// `junit` (JUnit 4), `testng`, `junitPlatform`, another framework's class
    /// name, or `None` when unknown.
    #[serde(default)]
    pub framework: Option<String>,
    /// Whether `-Dtests.iters` given to Gradle reaches the test JVM (the
    /// layout run's probe); `None` when unknown.
    #[serde(default)]
    pub forwards_tests_iters: Option<bool>,
    /// Where its test JVM writes a heap dump (its last `-XX:HeapDumpPath`:
    /// a file or a directory), absolute; `None` without one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub heap_dump_path: Option<PathBuf>,
    /// The jars and class folders its test JVM runs with (`Test.classpath`),
    /// in order, where Gradle's test detection reads superclasses; `None`
    /// when the init script could not resolve them (or an older layout).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub runtime_classpath: Option<Vec<PathBuf>>,
    /// `false` when the task runs every class its patterns accept, without
    /// Gradle's test detection (`scanForTestClasses = false`); `None` when
    /// unknown (detection, Gradle's default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scan_for_test_classes: Option<bool>,
}

impl TestTask {
    /// The classes of its compiled test classes dirs that its patterns
    /// accept, top-level only, sorted: what a sample of the task draws from
    /// (`--context task`). Empty before the task's classes are compiled.
    /// Gradle's detection may find fewer tests among them; a class with none
    /// given as a `--tests` filter matches nothing.
    pub(crate) fn class_candidates(&self) -> Vec<String> {
        let patterns = crate::test_filter::Patterns {
            includes: self.includes.clone(),
            excludes: self.excludes.clone(),
        };
        let mut classes = Vec::new();
        for dir in &self.test_classes_dirs {
            for entry in walkdir::WalkDir::new(dir).into_iter().flatten() {
                let Ok(rel) = entry.path().strip_prefix(dir) else {
                    continue;
                };
                let file = rel.to_string_lossy().replace('\\', "/");
                let Some(stem) = file.strip_suffix(".class") else {
                    continue;
                };
                if !stem.contains('$') && patterns.accepts(&file) {
                    classes.push(stem.replace('/', "."));
                }
            }
        }
        classes.sort();
        classes.dedup();
        classes
    }
}

/// What one project's `flakyLayout` task wrote beside the layout: each Test
/// task's runtime classpath by task path (`None`: not resolved).
pub type Classpaths = BTreeMap<String, Option<Vec<PathBuf>>>;

impl Layout {
    /// Gives each Test task its runtime classpath, as the projects' parts
    /// report it.
    pub fn add_classpaths(&mut self, parts: &[Classpaths]) {
        for task in self.projects.iter_mut().flat_map(|p| &mut p.test_tasks) {
            if let Some(found) = parts.iter().find_map(|part| part.get(&task.path)) {
                task.runtime_classpath = found.clone();
            }
        }
    }

    pub fn project(&self, path: &str) -> Option<&Project> {
        self.projects.iter().find(|p| p.path == path)
    }

    /// The Test tasks that run a source set's classes: those whose
    /// `testClassesDirs` share a directory with the source set's output.
    /// SourceSetTasks by output, never by name. Tasks of every project are considered.
    pub fn tasks_for<'a>(&'a self, source_set: &'a SourceSet) -> Vec<&'a TestTask> {
        self.projects
            .iter()
            .flat_map(|p| &p.test_tasks)
            .filter(|t| {
                t.test_classes_dirs
                    .iter()
                    .any(|d| source_set.classes_dirs.contains(d))
            })
            .collect()
    }

    /// Where the test JVMs of the Test tasks `task_paths` write heap dumps
    /// (see [`TestTask::heap_dump_path`]), relative to the build root when
    /// inside it (a CI job's checkout may sit elsewhere), each once.
    pub fn heap_dump_paths(&self, task_paths: &[String]) -> Vec<PathBuf> {
        let mut paths: Vec<PathBuf> = self
            .projects
            .iter()
            .flat_map(|p| &p.test_tasks)
            .filter(|t| task_paths.contains(&t.path))
            .filter_map(|t| t.heap_dump_path.as_ref())
            .map(|p| p.strip_prefix(&self.root_dir).unwrap_or(p).to_path_buf())
            .collect();
        paths.sort();
        paths.dedup();
        paths
    }

    /// Tells each command (and its fallback) where its test JVMs write heap dumps.
    pub fn note_heap_dumps(&self, commands: &mut [crate::domain::GradleCommand]) {
        for command in commands {
            command.heap_dump_paths = self.heap_dump_paths(&command.task_paths());
            if let Some(fallback) = command.fallback.as_deref_mut() {
                fallback.heap_dump_paths = self.heap_dump_paths(&fallback.task_paths());
            }
        }
    }

    /// Gradle project paths by directory relative to the build root.
    pub fn project_paths(&self) -> ProjectPaths {
        ProjectPaths::new(self.projects.iter().filter_map(|p| {
            let rel = p.project_dir.strip_prefix(&self.root_dir).ok()?;
            let rel = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy())
                .collect::<Vec<_>>()
                .join("/");
            Some((rel, p.path.clone()))
        }))
    }
}
