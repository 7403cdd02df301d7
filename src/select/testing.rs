//! Test helpers shared by the selection unit tests: an in-memory file tree and
//! a hand-written layout shaped like Elasticsearch's.

use super::expand::{Hierarchy, SourceFile};
use super::files::Files;
use crate::layout::{Layout, Project, SourceSet, TestTask};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Files in memory, relative to the build root: text, and binary files
/// (compiled classes).
#[derive(Default)]
pub struct MemFiles(
    pub BTreeMap<PathBuf, String>,
    pub BTreeMap<PathBuf, Vec<u8>>,
);

impl MemFiles {
    pub fn with(files: &[(&str, &str)]) -> Self {
        MemFiles(
            files
                .iter()
                .map(|(p, text)| (PathBuf::from(p), text.to_string()))
                .collect(),
            BTreeMap::new(),
        )
    }

    /// These files, and a binary file at `path`.
    pub fn with_bytes(mut self, path: &str, bytes: &[u8]) -> Self {
        self.1.insert(PathBuf::from(path), bytes.to_vec());
        self
    }
}

impl Files for MemFiles {
    fn is_file(&self, path: &Path) -> bool {
        self.0.contains_key(path)
    }

    fn is_dir(&self, path: &Path) -> bool {
        let keys = self.0.keys().chain(self.1.keys());
        keys.into_iter().any(|p| p != path && p.starts_with(path))
    }

    fn read(&self, path: &Path) -> Option<String> {
        self.0.get(path).cloned()
    }

    fn read_bytes(&self, path: &Path) -> Option<Vec<u8>> {
        self.1.get(path).cloned()
    }

    fn walk(&self, dir: &Path) -> Vec<PathBuf> {
        self.0
            .keys()
            .filter(|p| p.starts_with(dir))
            .cloned()
            .collect()
    }
}

/// The hierarchy of these sources (path, text).
pub fn hierarchy(files: &[(&str, &str)]) -> Hierarchy {
    Hierarchy::build(
        files
            .iter()
            .filter_map(|(path, text)| SourceFile::parse(PathBuf::from(path), text))
            .collect(),
    )
}

pub const ROOT: &str = "/repo";

/// A project whose source sets follow Gradle's conventions; each source set
/// has a Test task of its name (`Some(enabled)`) or none (`None`).
pub fn project(path: &str, dir: &str, sets: &[(&str, Option<bool>)]) -> Project {
    let base = Path::new(ROOT).join(dir);
    let src = |set: &str, lang: &str| vec![base.join("src").join(set).join(lang)];
    let classes = |set: &str| vec![base.join("build/classes/java").join(set)];
    Project {
        path: path.into(),
        name: path.rsplit(':').next().unwrap_or_default().into(),
        project_dir: base.clone(),
        build_file: base.join("build.gradle"),
        source_sets: sets
            .iter()
            .map(|(set, _)| SourceSet {
                name: set.to_string(),
                java: src(set, "java"),
                groovy: src(set, "groovy"),
                kotlin: src(set, "kotlin"),
                resources: src(set, "resources"),
                classes_dirs: classes(set),
                compile_tasks: vec![],
                randomized_testing: None,
                source_patterns: Default::default(),
            })
            .collect(),
        test_tasks: sets
            .iter()
            .filter_map(|(set, task)| {
                task.map(|enabled| TestTask {
                    path: format!("{path}:{set}"),
                    name: set.to_string(),
                    test_classes_dirs: classes(set),
                    includes: vec![],
                    excludes: vec![],
                    enabled,
                    framework: None,
                    forwards_tests_iters: None,
                    heap_dump_path: None,
                    runtime_classpath: None,
                    scan_for_test_classes: None,
                })
            })
            .collect(),
    }
}

/// A small Elasticsearch: nested projects, a renamed one, a BWC project whose
/// javaRestTest task is disabled, and a custom Groovy source set.
pub fn es_layout() -> Layout {
    let on = Some(true);
    Layout {
        schema: 1,
        gradle_version: "4.4.1".into(),
        root_dir: ROOT.into(),
        included_builds: vec![],
        projects: vec![
            project(":", "", &[]),
            project(
                ":server",
                "server",
                &[("main", None), ("test", on), ("internalClusterTest", on)],
            ),
            project(":qa:copy", "qa/copy", &[("test", on)]),
            project(
                ":x-pack:plugin:ml",
                "x-pack/plugin/ml",
                &[("main", None), ("test", on), ("yamlRestTest", on)],
            ),
            project(
                ":test:external-modules:test-apm-integration",
                "test/external-modules/apm-integration",
                &[("javaRestTest", on)],
            ),
            project(
                ":modules:transport-netty4",
                "modules/transport-netty4",
                &[("javaRestTest", on)],
            ),
            project(
                ":qa:rolling-upgrade",
                "qa/rolling-upgrade",
                &[("javaRestTest", Some(false))],
            ),
            project(":build-tools", "build-tools", &[("integTest", on)]),
        ],
    }
}
