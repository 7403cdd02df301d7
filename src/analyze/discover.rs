//! Finding report files below a root, in a deterministic order, and telling
//! from a report's path which Gradle project and task wrote it.

use std::path::{Path, PathBuf};

/// Directories never entered (the root itself is not checked).
const SKIP_DIRS: [&str; 8] = [
    "node_modules",
    ".git",
    ".gradle",
    "dist",
    "out",
    ".idea",
    ".vscode",
    ".cache",
];

/// Every report below `root`, sorted by path: `TEST-*.xml` directly in
/// `build/test-results/<task>/` of a project at any depth, and any `TEST-*.xml`
/// below `flakiness-iters/iter-<i>/`. Symlinks are not followed; unreadable
/// directories are skipped.
pub fn find_reports(root: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    walk(root, &mut Vec::new(), &mut found);
    found.sort();
    found
}

fn walk(dir: &Path, rel: &mut Vec<String>, found: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let in_build = rel.last().is_some_and(|d| d == "build");
    for entry in entries.flatten() {
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        let Ok(name) = entry.file_name().into_string() else {
            continue; // not UTF-8: not a name Gradle writes
        };
        if kind.is_dir() {
            // Below a build directory only test results matter; the rest
            // (classes, distributions, tmp) can be huge.
            if SKIP_DIRS.contains(&name.as_str()) || (in_build && name != "test-results") {
                continue;
            }
            rel.push(name);
            walk(&entry.path(), rel, found);
            rel.pop();
        } else if kind.is_file() && is_report_name(&name) {
            rel.push(name);
            if is_report_path(rel) {
                found.push(entry.path());
            }
            rel.pop();
        }
    }
}

fn is_report_name(name: &str) -> bool {
    name.starts_with("TEST-") && name.ends_with(".xml")
}

/// `rel` are the path components below the root, the file name last.
fn is_report_path(rel: &[String]) -> bool {
    in_iterations(rel).is_some() || results_tail(rel).is_some()
}

/// The components after `flakiness-iters/iter-<i>/`, if the path is below one.
fn in_iterations(rel: &[String]) -> Option<&[String]> {
    rel.windows(2)
        .position(|w| {
            w[0] == "flakiness-iters"
                && w[1]
                    .strip_prefix("iter-")
                    .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
        })
        .map(|i| &rel[i + 2..])
}

/// (project components, task name) when `rel` ends in
/// `build/test-results/<task>/TEST-*.xml`.
fn results_tail(rel: &[String]) -> Option<(&[String], &str)> {
    let n = rel.len();
    if n < 4 || rel[n - 4] != "build" || rel[n - 3] != "test-results" {
        return None;
    }
    Some((&rel[..n - 4], &rel[n - 2]))
}

/// Where a report was written: the project directory relative to the root
/// (`/`-separated, `""` for the root project) and the Test task's name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Location {
    pub project_dir: String,
    pub task: String,
}

/// The location of a report from its path relative to the root, looking through
/// a `flakiness-iters/iter-<i>/` prefix (which holds the original relative path).
pub fn locate(rel: &Path) -> Option<Location> {
    let parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    let parts = in_iterations(&parts).unwrap_or(&parts);
    let (project, task) = results_tail(parts)?;
    Some(Location {
        project_dir: project.join("/"),
        task: task.to_string(),
    })
}

/// The Gradle project path of a project directory by the default rule:
/// `""` → `:`, `a/b` → `:a:b`.
pub fn default_project_path(project_dir: &str) -> String {
    format!(":{}", project_dir.replace('/', ":"))
}

/// The full path of `task` in `project` (`:` + `test` → `:test`).
pub fn task_path(project: &str, task: &str) -> String {
    if project == ":" {
        format!(":{task}")
    } else {
        format!("{project}:{task}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locates_projects_and_tasks_also_through_iteration_dirs() {
        let loc = |p: &str| locate(Path::new(p));
        assert_eq!(
            loc("x-pack/plugin/ml/build/test-results/internalClusterTest/TEST-a.B.xml"),
            Some(Location {
                project_dir: "x-pack/plugin/ml".into(),
                task: "internalClusterTest".into()
            })
        );
        assert_eq!(
            loc("flakiness-iters/iter-3/server/build/test-results/javaRestTest/TEST-a.B.xml"),
            Some(Location {
                project_dir: "server".into(),
                task: "javaRestTest".into()
            })
        );
        assert_eq!(
            loc("build/test-results/test/TEST-a.B.xml"),
            Some(Location {
                project_dir: "".into(),
                task: "test".into()
            })
        );
        assert_eq!(loc("flakiness-iters/iter-1/TEST-a.B.xml"), None);
        assert_eq!(default_project_path(""), ":");
        assert_eq!(
            default_project_path("x-pack/plugin/ml"),
            ":x-pack:plugin:ml"
        );
        assert_eq!(task_path(":", "test"), ":test");
        assert_eq!(task_path(":server", "test"), ":server:test");
    }

    #[test]
    fn finds_reports_at_any_depth_in_sorted_order_and_skips_the_rest() {
        let root = tempfile::tempdir().unwrap();
        let files = [
            ("b/build/test-results/test/TEST-b.xml", true),
            (
                "a/deep/er/build/test-results/internalClusterTest/TEST-a.xml",
                true,
            ),
            ("build/test-results/test/TEST-root.xml", true),
            (
                "flakiness-iters/iter-2/s/build/test-results/javaRestTest/TEST-s.xml",
                true,
            ),
            ("flakiness-iters/iter-1/anywhere/TEST-x.xml", true),
            ("flakiness-iters/other/TEST-x.xml", false),
            ("b/build/test-results/test/binary/TEST-no.xml", false),
            ("b/build/test-results/test/results.xml", false),
            ("b/build/reports/TEST-no.xml", false),
            ("node_modules/p/build/test-results/test/TEST-no.xml", false),
            (".gradle/build/test-results/test/TEST-no.xml", false),
            ("c/TEST-no.xml", false),
        ];
        for (f, _) in files {
            let p = root.path().join(f);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, "<testsuite/>").unwrap();
        }
        #[cfg(unix)]
        std::os::unix::fs::symlink(root.path().join("b"), root.path().join("link")).unwrap();
        let found: Vec<String> = find_reports(root.path())
            .iter()
            .map(|p| {
                p.strip_prefix(root.path())
                    .unwrap()
                    .to_string_lossy()
                    .into_owned()
            })
            .collect();
        let mut expected: Vec<&str> = files.iter().filter(|(_, y)| *y).map(|(f, _)| *f).collect();
        expected.sort();
        assert_eq!(found, expected);
    }
}
