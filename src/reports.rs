//! Every name gradle-flaky gives to files on disk, finding JUnit reports below
//! a folder, and the one rule that turns a report's project directory into a
//! Gradle project path. Every directory walk and listing goes through [`walk`].

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};
use walk::Walk;

pub(crate) mod walk;

/// Where a loop keeps each iteration's reports: `flakiness-iters/iter-<i>/`,
/// holding the original path relative to the build root.
pub(crate) const ITERS_DIR: &str = "flakiness-iters";
/// The never-fail wrapper's status files (`status-<jobId>.json`).
pub(crate) const STATUS_DIR: &str = "flakiness-status";
pub(crate) const STATUS_GLOB: &str = "flakiness-status/*.json";
/// The per-job outcomes the final CI step writes.
pub(crate) const OUTCOMES_FILE: &str = "flakiness-outcomes.json";
/// Tests that were found but have no task to re-run them.
pub(crate) const SKIPPED_FILE: &str = "flakiness-skipped.json";
/// Where the final CI step keeps each job's downloaded reports, one folder a job.
pub(crate) const JOBS_DIR: &str = "flakiness-jobs";
/// GitHub Actions: the plan the `plan` job hands to the batch and report jobs.
pub(crate) const PLAN_FILE: &str = "flakiness-plan.json";
/// GitHub Actions: what a batch job keeps for the report (its status file and
/// JUnit XML, below the build's own paths), uploaded as its artifact.
pub(crate) const BATCH_DIR: &str = "flakiness-batch";
/// GitHub Actions: where the report job downloads every artifact, one folder each.
pub(crate) const ARTIFACTS_DIR: &str = "flakiness-artifacts";
/// Where triage keeps its replays (`triage-<n>/`), below the folder it
/// triaged; report discovery never enters it, so replays never count as runs.
pub(crate) const TRIAGE_DIR: &str = "flakiness-triage";
/// Where `local --compare REF` runs REF (its worktree while it runs, its
/// batches' reports and logs), below the run folder; report discovery never
/// enters it, so REF's runs never count as the working tree's.
pub(crate) const BASE_DIR: &str = "flakiness-base";
/// The triage results a CI triage step writes.
pub(crate) const TRIAGE_FILE: &str = "flakiness-triage.json";
/// The durations a CI report step measured, for the next pipeline's plan step
/// (`--durations`); also what `local` records in the build, below [`RECORDED_DIR`].
pub(crate) const DURATIONS_FILE: &str = "flakiness-durations.json";
/// Where runs of gradle-flaky record what they measured, below the build root.
pub(crate) const RECORDED_DIR: &str = ".gradle/gradle-flaky";
/// The run ledger's folder, below [`state_dir`]: `ledger-<n>.jsonl` files.
pub(crate) const LEDGER_DIR: &str = "ledger";
/// The run ledger a CI report step writes, one file of that run's lines.
pub(crate) const LEDGER_FILE: &str = "flakiness-ledger.jsonl";
/// The report steps' history page of the run's tests (`ci::history`).
pub(crate) const HISTORY_PAGE: &str = "flakiness-history.html";
/// What a ledger file's name ends with: a folder given to `--ledger` is read for these.
pub(crate) const LEDGER_EXTENSION: &str = "jsonl";
/// JUnit XML of a batch job; also matches loops' `flakiness-iters/iter-<i>/…/build/test-results/…`.
pub(crate) const XML_GLOB: &str = "**/build/test-results/**/TEST-*.xml";

/// The folder of iteration `index` (1-based) below `dest`.
pub(crate) fn iteration_dir(dest: &Path, index: u32) -> PathBuf {
    dest.join(ITERS_DIR).join(format!("iter-{index}"))
}

/// gradle-flaky's own state inside a build: the layout cache and local runs.
pub(crate) fn state_dir(project_dir: &Path) -> PathBuf {
    project_dir.join(".gradle/gradle-flaky")
}

/// The layout cache file.
pub(crate) fn layout_cache_file(project_dir: &Path) -> PathBuf {
    state_dir(project_dir).join("layout.json")
}

/// Where a test JVM writes heap dumps: `<project>/build/heapdump/*.hprof`.
pub(crate) fn is_heap_dump_dir(dir: &Path) -> bool {
    dir.file_name().is_some_and(|n| n == "heapdump")
        && dir.parent().is_some_and(|p| p.ends_with("build"))
}

/// Every report below `root`, sorted by path: `TEST-*.xml` directly in
/// `build/test-results/<task>/` of a project at any depth, and any `TEST-*.xml`
/// below `flakiness-iters/iter-<i>/`. Symlinks are not followed; unreadable
/// directories are skipped ([`find`] names them).
pub(crate) fn find_reports(root: &Path) -> Vec<PathBuf> {
    find(root).reports
}

/// What a search for reports found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct ReportSearch {
    /// The reports, sorted by path.
    pub reports: Vec<PathBuf>,
    /// Directories that could not be listed (with why), sorted: reports in them
    /// were not seen. A missing `root` is not one: it simply holds nothing.
    pub unreadable: Vec<(PathBuf, String)>,
}

/// The reports below `root` (as [`find_reports`]) and the directories that
/// could not be read. Below a build directory only test results are entered.
pub(crate) fn find(root: &Path) -> ReportSearch {
    let walked = Walk::new(root)
        .entering(&[ITERS_DIR])
        .into_build(&["test-results"])
        .run();
    let mut found = ReportSearch {
        reports: Vec::new(),
        unreadable: walked.unreadable,
    };
    for file in walked.files.into_iter().filter(|f| f.regular) {
        // A name that is not UTF-8 is not one Gradle writes.
        let rel: Option<Vec<String>> = file
            .rel
            .iter()
            .map(|c| c.to_str().map(str::to_string))
            .collect();
        let is_report = rel.is_some_and(|rel| {
            rel.last().is_some_and(|name| is_report_name(name)) && is_report_path(&rel)
        });
        if is_report {
            found.reports.push(file.path);
        }
    }
    found.reports.sort();
    found.unreadable.sort();
    found
}

/// Every `TEST-*.xml` below `root` wherever it is (Surefire's
/// `target/surefire-reports/`, a folder of downloaded reports, a Test
/// task's own `build/test-results/<task>/`), for a folder that holds none
/// where Gradle writes them; sorted, as [`find`].
pub(crate) fn find_anywhere(root: &Path) -> ReportSearch {
    let walked = Walk::new(root)
        .entering(&[ITERS_DIR])
        .into_build(&["test-results"])
        .run();
    let mut reports: Vec<PathBuf> = walked
        .files
        .into_iter()
        .filter(|f| f.regular)
        .filter(|f| {
            f.path
                .file_name()
                .and_then(|n| n.to_str())
                .is_some_and(is_report_name)
        })
        .map(|f| f.path)
        .collect();
    reports.sort();
    let mut unreadable = walked.unreadable;
    unreadable.sort();
    ReportSearch {
        reports,
        unreadable,
    }
}

/// The heap dumps (`*/build/heapdump/*.hprof`) below `root` written at or
/// after `since` (one second of slack for coarse file-system clocks), sorted.
/// Older dumps are someone else's (Elasticsearch's flakiness detection counted
/// any dump anywhere).
pub(crate) fn heap_dumps_since(root: &Path, since: SystemTime) -> Vec<PathBuf> {
    let in_heapdump = |file: &walk::File| {
        // The folders between the root and the file.
        let depth = file.rel.components().count();
        file.path
            .ancestors()
            .skip(1)
            .take(depth.saturating_sub(1))
            .any(is_heap_dump_dir)
    };
    let mut found: Vec<PathBuf> = Walk::new(root)
        .into_build(&["heapdump"])
        .regular_files()
        .filter(|f| f.path.to_string_lossy().ends_with(".hprof"))
        .filter(|f| in_heapdump(f) && written_since(&f.path, since))
        .map(|f| f.path)
        .collect();
    found.sort();
    found
}

/// The heap dumps test JVMs wrote at or after `since`: those below `root` (as
/// [`heap_dumps_since`]) and those where a Test task's `-XX:HeapDumpPath`
/// points (`paths`, relative to `root` or absolute): that very file, or the
/// `*.hprof` files directly in that directory. Sorted, each once.
pub(crate) fn heap_dumps_written(
    root: &Path,
    paths: &[PathBuf],
    since: SystemTime,
) -> Vec<PathBuf> {
    let mut found = heap_dumps_since(root, since);
    for path in paths.iter().map(|p| root.join(p)) {
        if path.is_file() {
            found.extend(written_since(&path, since).then_some(path));
        } else if let Ok(entries) = walk::list(&path) {
            found.extend(
                entries
                    .iter()
                    .map(|e| e.path())
                    .filter(|p| p.extension().is_some_and(|x| x == "hprof"))
                    .filter(|p| p.is_file() && written_since(p, since)),
            );
        }
    }
    found.sort();
    found.dedup();
    found
}

/// Modified at or after `since`, with one second of slack for coarse
/// file-system clocks.
fn written_since(path: &Path, since: SystemTime) -> bool {
    std::fs::metadata(path)
        .and_then(|m| m.modified())
        .is_ok_and(|t| t >= since - Duration::from_secs(1))
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
        .rposition(|w| {
            w[0] == ITERS_DIR
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
pub(crate) struct Location {
    pub project_dir: String,
    pub task: String,
}

/// The location of the report at `rel` below the analyzed `root`. Below a
/// `flakiness-iters/iter-<i>/` folder, the rest of the path is the original one
/// relative to the build root; the folder may be the root itself or above it
/// (`analyze flakiness-iters`), so the root's own path is looked through too.
/// Pass the root canonicalized when it can be.
pub(crate) fn locate(root: &Path, rel: &Path) -> Option<Location> {
    let names = |p: &Path| -> Vec<String> {
        p.components()
            .filter(|c| matches!(c, std::path::Component::Normal(_)))
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect()
    };
    let rel = names(rel);
    let full = [names(root), rel.clone()].concat();
    let parts = in_iterations(&full).unwrap_or(&rel);
    // A root that is itself a task's folder of results (`record`'s
    // `build/test-results/test`) names the task through its own path.
    let (project, task) = results_tail(parts).or_else(|| results_tail(&full))?;
    Some(Location {
        project_dir: project.join("/"),
        task: task.to_string(),
    })
}

/// Gradle project paths of project directories, as the build declares them
/// (from the layout), with one fallback rule for directories it does not name.
///
/// The fallback, for when Gradle could not be asked (path-rule selection, a CI
/// report step with only the reports): directories are path segments, `""` →
/// `:`, `a/b` → `:a:b`, except the one rename Elasticsearch's settings make,
/// `test/external-modules/<dir>` → `:test:external-modules:test-<dir>`.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(transparent)]
pub struct ProjectPaths {
    /// Gradle path by directory relative to the build root (`/`-separated).
    by_dir: BTreeMap<String, String>,
}

impl ProjectPaths {
    /// From `(directory relative to the build root, Gradle path)` pairs.
    pub fn new(known: impl IntoIterator<Item = (String, String)>) -> ProjectPaths {
        ProjectPaths {
            by_dir: known.into_iter().collect(),
        }
    }

    /// The Gradle path of a project directory (relative to the build root).
    pub fn path_of(&self, project_dir: &str) -> String {
        self.by_dir
            .get(project_dir)
            .cloned()
            .unwrap_or_else(|| fallback_project_path(project_dir))
    }

    /// Only the projects whose path the fallback rule would get wrong: what a
    /// CI report step must be told.
    pub fn renamed(&self) -> BTreeMap<String, String> {
        self.by_dir
            .iter()
            .filter(|(dir, path)| fallback_project_path(dir) != **path)
            .map(|(d, p)| (d.clone(), p.clone()))
            .collect()
    }
}

/// The project path rule for a directory the build did not describe (see [`ProjectPaths`]).
pub(crate) fn fallback_project_path(project_dir: &str) -> String {
    if project_dir.is_empty() {
        return ":".into();
    }
    let mut segments: Vec<String> = project_dir.split('/').map(str::to_string).collect();
    if segments.len() >= 3 && segments[0] == "test" && segments[1] == "external-modules" {
        segments[2] = format!("test-{}", segments[2]);
    }
    format!(":{}", segments.join(":"))
}

/// The full path of `task` in `project` (`:` + `test` → `:test`).
pub(crate) fn task_path(project: &str, task: &str) -> String {
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
    fn heap_dumps_are_found_where_heap_dump_path_points() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("dumps")).unwrap();
        std::fs::write(dir.path().join("dumps/java_pid7.hprof"), "x").unwrap();
        std::fs::write(dir.path().join("dumps/notes.txt"), "x").unwrap();
        std::fs::write(dir.path().join("heap.bin"), "x").unwrap();
        let paths = [
            PathBuf::from("dumps"),
            PathBuf::from("heap.bin"),
            PathBuf::from("absent"),
        ];
        assert_eq!(
            heap_dumps_written(dir.path(), &paths, SystemTime::UNIX_EPOCH),
            [
                dir.path().join("dumps/java_pid7.hprof"),
                dir.path().join("heap.bin")
            ]
        );
        let later = SystemTime::now() + Duration::from_secs(60);
        assert!(heap_dumps_written(dir.path(), &paths, later).is_empty());
    }

    #[test]
    fn only_heap_dumps_written_during_the_run_count() {
        let dir = tempfile::tempdir().unwrap();
        let dumps = dir.path().join("server/build/heapdump");
        std::fs::create_dir_all(&dumps).unwrap();
        std::fs::write(dumps.join("old.hprof"), "x").unwrap();
        let later = SystemTime::now() + Duration::from_secs(5);
        assert!(heap_dumps_since(dir.path(), later).is_empty());
        assert_eq!(
            heap_dumps_since(dir.path(), SystemTime::now()),
            [dumps.join("old.hprof")]
        );
        let elsewhere = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(elsewhere.path().join("server/heapdump")).unwrap();
        std::fs::write(elsewhere.path().join("server/heapdump/a.hprof"), "x").unwrap();
        assert!(heap_dumps_since(elsewhere.path(), SystemTime::UNIX_EPOCH).is_empty());
    }

    #[test]
    fn project_paths_come_from_the_build_then_from_the_fallback_rule() {
        assert_eq!(fallback_project_path(""), ":");
        assert_eq!(
            fallback_project_path("x-pack/plugin/ml"),
            ":x-pack:plugin:ml"
        );
        assert_eq!(
            fallback_project_path("test/external-modules/apm-integration"),
            ":test:external-modules:test-apm-integration"
        );
        let paths = ProjectPaths::new([
            ("libs/a".to_string(), ":renamed-a".to_string()),
            ("server".to_string(), ":server".to_string()),
        ]);
        assert_eq!(paths.path_of("libs/a"), ":renamed-a");
        assert_eq!(paths.path_of("server"), ":server");
        assert_eq!(paths.path_of("x/y"), ":x:y");
        assert_eq!(
            paths.renamed().into_iter().collect::<Vec<_>>(),
            [("libs/a".to_string(), ":renamed-a".to_string())]
        );
        assert_eq!(ProjectPaths::default().path_of(""), ":");
    }

    #[test]
    fn locates_projects_and_tasks_also_through_iteration_dirs() {
        let loc = |p: &str| locate(Path::new("/work"), Path::new(p));
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
        assert_eq!(
            locate(
                Path::new("/b/flakiness-iters"),
                Path::new("iter-2/core/build/test-results/test/TEST-a.B.xml")
            ),
            Some(Location {
                project_dir: "core".into(),
                task: "test".into()
            }),
            "the iterations folder analyzed as the root"
        );
        assert_eq!(
            locate(
                Path::new("/b/flakiness-iters/iter-2"),
                Path::new("core/build/test-results/test/TEST-a.B.xml")
            )
            .map(|l| l.project_dir),
            Some("core".into())
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
            (
                "flakiness-triage/triage-1/job-1/replay-1/flakiness-iters/iter-1/p/build/test-results/test/TEST-no.xml",
                false,
            ),
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
