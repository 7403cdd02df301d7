//! The one walk below a folder and the one listing of a folder. Every tree
//! gradle-flaky searches (reports, heap dumps, build scripts, sources) is
//! walked by [`Walk`], which never enters a directory [`skipped`] names
//! unless its caller says so.

use super::{BASE_DIR, ITERS_DIR, TRIAGE_DIR};
use std::io;
use std::path::{Path, PathBuf};
use walkdir::{DirEntry, WalkDir};

/// What a Gradle project's (or build's) folder holds.
const PROJECT_MARKERS: [&str; 5] = [
    "build.gradle",
    "build.gradle.kts",
    "settings.gradle",
    "settings.gradle.kts",
    "src",
];

/// The one skip rule: a directory named `name` in `parent` holds nothing a
/// walk looks for. These are
/// - hidden directories: VCS, IDE and tool state (`.git`, `.gradle`, `.idea`,
///   `.vscode`, `.cache`);
/// - `node_modules`: dependency trees;
/// - gradle-flaky's copies of reports (`flakiness-iters`, `flakiness-triage`,
///   `flakiness-base`);
/// - a project's output: `build` (Gradle's) and `out` (IntelliJ's) beside a
///   build script or `src/`. Elsewhere they are ordinary folders (a package
///   `org.example.build`).
pub(crate) fn skipped(parent: &Path, name: &str) -> bool {
    name.starts_with('.')
        || name == "node_modules"
        || name == ITERS_DIR
        || name == TRIAGE_DIR
        || name == BASE_DIR
        || ((name == "build" || name == "out")
            && PROJECT_MARKERS.iter().any(|m| parent.join(m).exists()))
}

/// A walk below a root: never follows symlinks, never checks the root itself
/// against the rule, and enters every directory but those [`skipped`] names,
/// as its caller adjusts.
pub(crate) struct Walk<'a> {
    root: &'a Path,
    /// Names entered although the rule skips them.
    entered: &'a [&'a str],
    /// When set, every `build` directory below the root is entered, but
    /// only into these children.
    into_build: Option<&'a [&'a str]>,
    /// More directories left out, by path.
    pruned: Option<&'a dyn Fn(&Path) -> bool>,
}

/// What a walk found.
#[derive(Debug, Default)]
pub(crate) struct Walked {
    /// Every entry that is not a directory, in walk order.
    pub files: Vec<File>,
    /// Directories that could not be listed, with why. The root is one when
    /// it exists but is no directory; a missing root holds nothing.
    pub unreadable: Vec<(PathBuf, String)>,
}

/// A walked entry that is not a directory.
#[derive(Debug)]
pub(crate) struct File {
    pub path: PathBuf,
    /// The path below the walk's root.
    pub rel: PathBuf,
    /// A regular file (not a symlink, socket, …).
    pub regular: bool,
}

impl<'a> Walk<'a> {
    pub(crate) fn new(root: &'a Path) -> Walk<'a> {
        Walk {
            root,
            entered: &[],
            into_build: None,
            pruned: None,
        }
    }

    /// Enters directories with these names although the rule skips them.
    pub(crate) fn entering(self, names: &'a [&'a str]) -> Walk<'a> {
        Walk {
            entered: names,
            ..self
        }
    }

    /// Enters every `build` directory, project output or not, but only into
    /// `children` (`test-results`, `heapdump`): the rest (classes,
    /// distributions, tmp) can be huge.
    pub(crate) fn into_build(self, children: &'a [&'a str]) -> Walk<'a> {
        Walk {
            into_build: Some(children),
            ..self
        }
    }

    /// Also leaves out the directories `pruned` is true of.
    pub(crate) fn pruning(self, pruned: &'a dyn Fn(&Path) -> bool) -> Walk<'a> {
        Walk {
            pruned: Some(pruned),
            ..self
        }
    }

    pub(crate) fn run(self) -> Walked {
        let mut walked = Walked::default();
        let entries = WalkDir::new(self.root)
            .into_iter()
            .filter_entry(|e| self.enters(e));
        for entry in entries {
            match entry {
                Ok(e) if e.depth() == 0 && !e.path().is_dir() => {
                    // Listing a file fails the same way whatever walks it.
                    let not_dir = io::Error::from_raw_os_error(libc::ENOTDIR);
                    walked
                        .unreadable
                        .push((e.path().to_path_buf(), not_dir.to_string()));
                }
                Ok(e) if e.file_type().is_dir() => {}
                Ok(e) => {
                    let rel = e.path().strip_prefix(self.root).unwrap_or(e.path());
                    walked.files.push(File {
                        rel: rel.to_path_buf(),
                        regular: e.file_type().is_file(),
                        path: e.into_path(),
                    });
                }
                Err(e) => {
                    let missing_root = e.depth() == 0
                        && e.io_error()
                            .is_some_and(|io| io.kind() == io::ErrorKind::NotFound);
                    if let (Some(path), false) = (e.path(), missing_root) {
                        let why = e
                            .io_error()
                            .map_or_else(|| e.to_string(), |io| io.to_string());
                        walked.unreadable.push((path.to_path_buf(), why));
                    }
                }
            }
        }
        walked
    }

    /// The regular files below the root (no symlinks); unreadable
    /// directories are passed over.
    pub(crate) fn regular_files(self) -> impl Iterator<Item = File> {
        self.run().files.into_iter().filter(|f| f.regular)
    }

    fn enters(&self, entry: &DirEntry) -> bool {
        if entry.depth() == 0 || !entry.file_type().is_dir() {
            return true;
        }
        let name = entry.file_name().to_string_lossy();
        let parent = entry.path().parent().unwrap_or(self.root);
        if let Some(children) = self.into_build {
            if entry.depth() >= 2 && parent.file_name().is_some_and(|p| p == "build") {
                return children.contains(&name.as_ref());
            }
            if name == "build" {
                return true;
            }
        }
        if skipped(parent, &name) && !self.entered.contains(&name.as_ref()) {
            return false;
        }
        !self.pruned.is_some_and(|pruned| pruned(entry.path()))
    }
}

/// The entries directly in `dir`, sorted by name; an entry that cannot be
/// read is left out.
pub(crate) fn list(dir: &Path) -> io::Result<Vec<std::fs::DirEntry>> {
    let mut entries: Vec<_> = std::fs::read_dir(dir)?.flatten().collect();
    entries.sort_by_key(|e| e.file_name());
    Ok(entries)
}

/// The folders directly in `dir` (not symlinks to one), sorted.
pub(crate) fn folders(dir: &Path) -> io::Result<Vec<PathBuf>> {
    Ok(list(dir)?
        .into_iter()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .map(|e| e.path())
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    /// The non-directories a walk finds, relative to its root.
    fn files(walk: Walk<'_>) -> BTreeSet<String> {
        let walked = walk.run().files;
        walked.iter().map(|f| f.rel.display().to_string()).collect()
    }

    /// A folder holding an empty file at each of `paths`.
    fn tree(paths: &[&str]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        for path in paths.iter().map(|p| dir.path().join(p)) {
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, "").unwrap();
        }
        dir
    }

    #[test]
    fn the_rule_skips_tool_state_dependencies_our_copies_and_project_output() {
        let dir = tree(&[
            "p/build.gradle",
            "p/build/classes/A.class",
            "p/out/production/A.class",
            "p/src/main/java/org/build/A.java",
            "p/src/main/java/org/out/B.java",
            ".git/HEAD",
            "p/.gradle/x",
            "q/node_modules/y.js",
            "flakiness-iters/iter-1/x.xml",
            "flakiness-triage/triage-1/x.xml",
        ]);
        let d = dir.path();
        #[cfg(unix)]
        std::os::unix::fs::symlink(d, d.join("p/loop")).unwrap();
        let sources = [
            "p/build.gradle",
            "p/loop",
            "p/src/main/java/org/build/A.java",
            "p/src/main/java/org/out/B.java",
        ];
        assert_eq!(files(Walk::new(d)), sources.map(String::from).into());
        let with_iterations = files(Walk::new(d).entering(&[ITERS_DIR]).into_build(&["none"]));
        assert_eq!(
            with_iterations
                .difference(&files(Walk::new(d)))
                .collect::<Vec<_>>(),
            ["flakiness-iters/iter-1/x.xml"]
        );
        let no_src = |p: &Path| p.ends_with("src");
        assert_eq!(
            files(Walk::new(d).pruning(&no_src)),
            ["p/build.gradle", "p/loop"].map(String::from).into()
        );
        assert_eq!(
            files(Walk::new(&d.join("p/build"))),
            ["classes/A.class".to_string()].into(),
            "the root is never checked"
        );
    }

    #[test]
    fn a_missing_root_holds_nothing_and_a_file_root_is_unreadable() {
        let dir = tempfile::tempdir().unwrap();
        let missing = Walk::new(&dir.path().join("gone")).run();
        assert!(missing.files.is_empty() && missing.unreadable.is_empty());
        let file = dir.path().join("f");
        std::fs::write(&file, "").unwrap();
        let walked = Walk::new(&file).run();
        assert!(walked.files.is_empty());
        assert_eq!(walked.unreadable.len(), 1);
    }

    #[test]
    fn listings_are_sorted_and_folders_are_directories_only() {
        let dir = tempfile::tempdir().unwrap();
        for d in ["b", "a"] {
            std::fs::create_dir(dir.path().join(d)).unwrap();
        }
        std::fs::write(dir.path().join("c"), "").unwrap();
        let names: Vec<_> = list(dir.path())
            .unwrap()
            .iter()
            .map(|e| e.file_name())
            .collect();
        assert_eq!(names, ["a", "b", "c"]);
        assert_eq!(
            folders(dir.path()).unwrap(),
            [dir.path().join("a"), dir.path().join("b")]
        );
        assert!(list(&dir.path().join("gone")).is_err());
    }
}
