//! One Gradle invocation, run and kept: its JUnit XML, which Gradle would
//! otherwise overwrite (or delete, with `clean<Task>`) on the next run, and
//! what each of its tasks did.
//!
//! After invocation `i`, every `TEST-*.xml` under `*/build/test-results/` that it
//! wrote (modified at or after a time taken just before it) is renamed to
//! `<dest>/flakiness-iters/iter-<i>/<its path relative to the project root>`.
//! The kept path still contains `/build/test-results/`, so the analyzer finds it,
//! and a rename keeps the mtime. Older unrelated reports stay where they are.

use super::guard::RunGuard;
use super::outcomes::{self, Skipped};
use crate::process::{self, Ended, Output};
use crate::reports::{self, walk, ITERS_DIR, JOBS_DIR};
use crate::{shell, Error, Observed, Result};
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// One Gradle invocation to run and keep.
pub(crate) struct SpawnSpec<'a> {
    /// Program first, then its arguments, as planned (without what the
    /// guard adds: isolation and init scripts).
    pub argv: &'a [String],
    /// Isolation and init scripts, the same for every invocation of a run: on
    /// the user's daemon, or a private one, it stays warm across invocations.
    pub guard: &'a RunGuard,
    /// gradle-flaky's repeat helpers must be applied (an in-JVM repetition
    /// by one of them).
    pub repeat_helpers: bool,
    /// The Gradle project root: the working directory, and where reports are searched.
    pub project_dir: &'a Path,
    /// Where `flakiness-iters/iter-<index>/` is created.
    pub dest: &'a Path,
    /// Where its task outcomes go (`iter-<index>.json`).
    pub outcomes: &'a Path,
    /// 1-based: names its report folder.
    pub index: u32,
    /// How its start is announced (`Iteration 2/5`).
    pub header: &'a str,
    /// Its limit.
    pub timeout: Option<Duration>,
    /// Where Gradle's output goes; the invocation is announced there first.
    pub output: Output<'a>,
    /// The Test tasks the command runs; empty: every Test task the outcomes name.
    pub requested: &'a [String],
}

/// What one iteration did.
#[derive(Clone, Debug)]
pub(crate) struct Iteration {
    pub ended: Ended,
    pub elapsed: Duration,
    /// `dest/flakiness-iters/iter-<index>`; exists only when `reports` is not empty.
    pub dir: PathBuf,
    /// The kept reports, relative to `dir`.
    pub reports: Vec<PathBuf>,
    /// Processes the invocation left behind, which were stopped.
    pub leftovers: usize,
    /// The Test tasks asked for that the build skipped (an `onlyIf` that is
    /// false, a disabled task, no source), if any.
    pub skipped: Option<Skipped>,
    /// What stopping its build took, when that was not plain.
    pub notes: Vec<String>,
}

impl Iteration {
    /// The iteration wrote no JUnit XML: no test ran (UP-TO-DATE task, a filter
    /// matching nothing, a build failure before the tests, a kill).
    pub(crate) fn no_reports(&self) -> bool {
        self.reports.is_empty()
    }

    /// The build skipped every Test task asked for.
    fn skipped_all(&self) -> bool {
        self.skipped.as_ref().is_some_and(|s| s.all)
    }

    /// The skipped Test tasks in words.
    pub(crate) fn skipped_tasks(&self) -> String {
        self.skipped
            .as_ref()
            .map(|s| outcomes::describe(&s.tasks))
            .unwrap_or_default()
    }
}

/// Test counts of one iteration's reports, as the analyzer reads them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct IterationCounts {
    /// Test cases that ran (passed, failed or hit the suite timeout; not skipped).
    pub executed: u64,
    /// Real failures (assertions, errors), suite timeouts excluded.
    pub failed: u64,
    pub suite_timeouts: u64,
}

/// What one iteration proves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum IterationVerdict {
    Passed,
    /// At least one real test failure.
    Failed,
    /// Only suite timeouts: a hang, not a proven failure.
    SuiteTimeout,
    /// No report, or reports with no executed test case.
    NoTests,
    /// No test ran because the build skipped the Test tasks asked for (the
    /// tasks and why, in words).
    Skipped(String),
    /// Some of the Test tasks asked for ran and passed, the build skipped the
    /// others (in words): their tests have no result.
    PartlySkipped(String),
    /// Gradle failed although its reports show no failure (a later task, a crash).
    BuildFailed(Ended),
    /// The invocation ran past its time limit and was stopped.
    TimedOut,
    Interrupted,
    /// The runner itself failed (Gradle not found, a file not writable): the
    /// batch did not start or broke off.
    RunnerError(String),
}

impl IterationVerdict {
    /// Judges an iteration from how Gradle ended and, when known, what its
    /// reports say. Without counts a non-zero exit with reports is a failure,
    /// as in Elasticsearch's `repeat-rest-test.sh`.
    pub(crate) fn of(it: &Iteration, counts: Option<IterationCounts>) -> IterationVerdict {
        match (&it.ended, counts) {
            (Ended::Interrupted, _) => IterationVerdict::Interrupted,
            (Ended::TimedOut, _) => IterationVerdict::TimedOut,
            (_, c) if c.is_none_or(|c| c.executed == 0) && it.skipped_all() => {
                IterationVerdict::Skipped(it.skipped_tasks())
            }
            _ if it.no_reports() => IterationVerdict::NoTests,
            (_, Some(c)) if c.failed > 0 => IterationVerdict::Failed,
            (_, Some(c)) if c.suite_timeouts > 0 => IterationVerdict::SuiteTimeout,
            (_, Some(c)) if c.executed == 0 => IterationVerdict::NoTests,
            (ended, _) if ended.success() && it.skipped.is_some() => {
                IterationVerdict::PartlySkipped(it.skipped_tasks())
            }
            (ended, _) if ended.success() => IterationVerdict::Passed,
            (_, None) => IterationVerdict::Failed,
            (ended, Some(_)) => IterationVerdict::BuildFailed(ended.clone()),
        }
    }

    /// The iteration has a result to trust: its tests passed, or one failed.
    pub(crate) fn is_trustworthy(&self) -> bool {
        matches!(self, IterationVerdict::Passed | IterationVerdict::Failed)
    }

    /// A few words for the iteration's status line.
    pub(crate) fn describe(&self) -> String {
        match self {
            IterationVerdict::Passed => "passed".into(),
            IterationVerdict::Failed => "failed".into(),
            IterationVerdict::SuiteTimeout => "suite timeout".into(),
            IterationVerdict::NoTests => "no tests executed".into(),
            IterationVerdict::Skipped(tasks) => format!("skipped by the build: {tasks}"),
            IterationVerdict::PartlySkipped(tasks) => {
                format!("passed, but some tests did not run: skipped by the build: {tasks}")
            }
            IterationVerdict::BuildFailed(Ended::Exited(code)) => {
                format!("build failed (exit {code})")
            }
            IterationVerdict::BuildFailed(Ended::Signalled(sig)) => {
                format!("build failed (killed by signal {sig})")
            }
            IterationVerdict::BuildFailed(_) => "build failed".into(),
            IterationVerdict::TimedOut => "timed out".into(),
            IterationVerdict::Interrupted => "interrupted".into(),
            IterationVerdict::RunnerError(why) => format!("could not run: {why}"),
        }
    }
}

/// What a run made of these verdicts observed, for [`Exit::of`]: every
/// iteration that passed or failed counts as executed.
///
/// [`Exit::of`]: crate::Exit::of
pub(crate) fn observed<'a>(verdicts: impl IntoIterator<Item = &'a IterationVerdict>) -> Observed {
    let mut o = Observed::default();
    for v in verdicts {
        o.interrupted |= *v == IterationVerdict::Interrupted;
        o.real_failures += u64::from(*v == IterationVerdict::Failed);
        o.executions += u64::from(v.is_trustworthy());
        o.untrustworthy |= !v.is_trustworthy();
    }
    o
}

/// Fails when `dest/flakiness-iters` already holds iteration folders: a new
/// loop would mix its results with an earlier run's (or overwrite them).
pub(crate) fn check_fresh(dest: &Path) -> Result<()> {
    let dir = dest.join(ITERS_DIR);
    let earlier = walk::list(&dir)
        .unwrap_or_default()
        .iter()
        .any(|e| e.file_name().to_string_lossy().starts_with("iter-"));
    if earlier {
        return Err(Error::input(
            dir.display().to_string(),
            "holds the iterations of an earlier run; move or delete it first, so that runs \
             are never mixed",
        ));
    }
    Ok(())
}

/// Runs one invocation and keeps its reports and task outcomes.
pub(crate) fn invoke(spec: &SpawnSpec<'_>) -> Result<Iteration> {
    let index = spec.index;
    let since = now_on_disk(spec.dest)?;
    std::fs::create_dir_all(spec.outcomes).map_err(|e| Error::io(spec.outcomes, e))?;
    let file = spec.outcomes.join(format!("iter-{index}.json"));
    let argv = spec.guard.argv(spec.argv, &file, spec.repeat_helpers)?;
    announce(spec, &argv)?;
    let run = process::run(
        &argv,
        spec.project_dir,
        spec.output,
        spec.timeout,
        spec.guard.isolation(),
    )?;
    let dir = reports::iteration_dir(spec.dest, index);
    let reports = relocate(spec.project_dir, since, &dir)?;
    let skipped =
        outcomes::read(&file).and_then(|tasks| outcomes::skipped_by_build(&tasks, spec.requested));
    Ok(Iteration {
        ended: run.ended,
        elapsed: run.elapsed,
        dir,
        reports,
        leftovers: run.leftovers,
        skipped,
        notes: run.notes,
    })
}

/// `--- Iteration i/N` (a Buildkite log section when inherited) and the
/// command: as planned on a screen, exactly as run (`argv`) in a log.
fn announce(spec: &SpawnSpec<'_>, argv: &[String]) -> Result<()> {
    let line = |argv| format!("--- {}\n>>> {}\n", spec.header, shell::join(argv));
    match spec.output {
        Output::Inherit => {
            crate::output::stdout(&line(spec.argv));
            Ok(())
        }
        Output::Log(mut log) | Output::Tee(mut log) => log
            .write_all(line(argv).as_bytes())
            .map_err(|e| Error::io("log file", e)),
    }
}

/// The file system's current time, read back from a file we touch in `dir`, so
/// that it compares exactly with the mtimes Gradle's files will get.
fn now_on_disk(dir: &Path) -> Result<SystemTime> {
    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    let marker = dir.join(format!(".gradle-flaky-marker-{}", std::process::id()));
    let time = File::create(&marker)
        .and_then(|f| f.metadata())
        .and_then(|m| m.modified())
        .map_err(|e| Error::io(&marker, e))?;
    let _ = std::fs::remove_file(&marker);
    Ok(time)
}

/// Moves every report under `root` modified at or after `since` to the same
/// relative path under `to`. Returns the moved paths, relative, sorted.
pub(crate) fn relocate(root: &Path, since: SystemTime, to: &Path) -> Result<Vec<PathBuf>> {
    let mut moved = Vec::new();
    for rel in new_reports(root, since) {
        let target = free_name(&to.join(&rel));
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent).map_err(|e| Error::io(parent, e))?;
        }
        move_file(&root.join(&rel), &target)?;
        moved.push(target.strip_prefix(to).unwrap_or(&rel).to_path_buf());
    }
    Ok(moved)
}

/// Reports under `root` (found as the analyzer finds them) modified at or
/// after `since`, relative to `root`, sorted; kept iterations and the batch
/// jobs' reports a CI step downloaded into the checkout excluded (a download
/// just before a run can share its file-system timestamp).
fn new_reports(root: &Path, since: SystemTime) -> Vec<PathBuf> {
    reports::find_reports(root)
        .into_iter()
        .filter_map(|path| {
            let rel = path.strip_prefix(root).ok()?.to_path_buf();
            let kept = rel
                .components()
                .any(|c| c.as_os_str() == ITERS_DIR || c.as_os_str() == JOBS_DIR);
            let fresh = std::fs::symlink_metadata(&path)
                .and_then(|m| m.modified())
                .is_ok_and(|t| t >= since);
            (fresh && !kept).then_some(rel)
        })
        .collect()
}

/// `path`, or `path` with `-2`, `-3`... before `.xml` when it exists: a kept
/// report is never overwritten.
fn free_name(path: &Path) -> PathBuf {
    if !path.exists() {
        return path.to_path_buf();
    }
    let stem = path.file_stem().unwrap_or_default().to_string_lossy();
    (2..)
        .map(|n| path.with_file_name(format!("{stem}-{n}.xml")))
        .find(|p| !p.exists())
        .unwrap_or_else(|| path.to_path_buf())
}

/// A rename; a copy that keeps the mtime, then a delete, across file systems.
fn move_file(from: &Path, to: &Path) -> Result<()> {
    if std::fs::rename(from, to).is_ok() {
        return Ok(());
    }
    let mtime = std::fs::metadata(from)
        .and_then(|m| m.modified())
        .map_err(|e| Error::io(from, e))?;
    std::fs::copy(from, to).map_err(|e| Error::io(to, e))?;
    File::options()
        .write(true)
        .open(to)
        .and_then(|f| f.set_modified(mtime))
        .map_err(|e| Error::io(to, e))?;
    std::fs::remove_file(from).map_err(|e| Error::io(from, e))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn write(root: &Path, rel: &str, age: Option<Duration>) {
        let p = root.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, "<testsuite/>").unwrap();
        if let Some(age) = age {
            let f = File::options().write(true).open(&p).unwrap();
            f.set_modified(SystemTime::now() - age).unwrap();
        }
    }

    /// Every file under `root`, relative, sorted.
    fn files(root: &Path) -> Vec<String> {
        let mut out: Vec<String> = walkdir::WalkDir::new(root)
            .into_iter()
            .flatten()
            .filter(|e| !e.file_type().is_dir())
            .map(|e| {
                e.path()
                    .strip_prefix(root)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned()
            })
            .collect();
        out.sort();
        out
    }

    #[test]
    fn relocation_moves_only_new_reports_of_test_results() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        let day = Duration::from_secs(86_400);
        write(
            root,
            "old/build/test-results/test/TEST-a.Old.xml",
            Some(day),
        );
        let since = now_on_disk(root).unwrap();
        write(root, "p/build/test-results/test/TEST-a.B.xml", None);
        write(
            root,
            "p/q/build/test-results/javaRestTest/TEST-a.C.xml",
            None,
        );
        write(root, "p/build/test-results/test/binary/results.bin", None);
        write(root, "p/build/test-results/test/other.xml", None);
        write(root, "p/build/reports/TEST-a.D.xml", None);
        write(root, ".gradle/build/test-results/t/TEST-a.E.xml", None);
        write(
            root,
            "flakiness-iters/iter-1/p/build/test-results/test/TEST-a.F.xml",
            None,
        );
        // A batch job's report a CI step downloaded into the checkout.
        write(
            root,
            "flakiness-jobs/job-1/p/build/test-results/test/TEST-a.G.xml",
            None,
        );
        let to = root.join("flakiness-iters/iter-2");
        let moved = relocate(root, since, &to).unwrap();
        assert_eq!(
            moved,
            vec![
                PathBuf::from("p/build/test-results/test/TEST-a.B.xml"),
                PathBuf::from("p/q/build/test-results/javaRestTest/TEST-a.C.xml"),
            ]
        );
        assert_eq!(
            files(root),
            vec![
                ".gradle/build/test-results/t/TEST-a.E.xml",
                "flakiness-iters/iter-1/p/build/test-results/test/TEST-a.F.xml",
                "flakiness-iters/iter-2/p/build/test-results/test/TEST-a.B.xml",
                "flakiness-iters/iter-2/p/q/build/test-results/javaRestTest/TEST-a.C.xml",
                "flakiness-jobs/job-1/p/build/test-results/test/TEST-a.G.xml",
                "old/build/test-results/test/TEST-a.Old.xml",
                "p/build/reports/TEST-a.D.xml",
                "p/build/test-results/test/binary/results.bin",
                "p/build/test-results/test/other.xml",
            ]
        );
    }

    #[test]
    fn a_kept_report_is_never_overwritten() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().join("project");
        let to = tmp.path().join("kept");
        write(&to, "p/build/test-results/test/TEST-a.B.xml", None);
        let since = now_on_disk(&root).unwrap();
        write(&root, "p/build/test-results/test/TEST-a.B.xml", None);
        let moved = relocate(&root, since, &to).unwrap();
        assert_eq!(
            moved,
            vec![PathBuf::from("p/build/test-results/test/TEST-a.B-2.xml")]
        );
        assert_eq!(files(&to).len(), 2);
    }

    #[test]
    fn a_folder_with_earlier_iterations_is_refused() {
        let tmp = tempfile::tempdir().unwrap();
        assert!(check_fresh(tmp.path()).is_ok());
        std::fs::create_dir_all(tmp.path().join("flakiness-iters/other")).unwrap();
        assert!(check_fresh(tmp.path()).is_ok());
        std::fs::create_dir_all(tmp.path().join("flakiness-iters/iter-1")).unwrap();
        let err = check_fresh(tmp.path()).unwrap_err();
        assert_eq!(err.exit(), crate::Exit::Usage);
        assert!(err.to_string().contains("earlier run"), "{err}");
    }

    fn iteration(ended: Ended, reports: usize) -> Iteration {
        Iteration {
            ended,
            elapsed: Duration::ZERO,
            dir: PathBuf::from("iter-1"),
            reports: vec![PathBuf::from("TEST-a.xml"); reports],
            leftovers: 0,
            skipped: None,
            notes: Vec::new(),
        }
    }

    /// The iteration as the build skipping its Test task (`all` it asked
    /// for, or one of several) would leave it.
    fn skipped_task(mut it: Iteration, all: bool) -> Iteration {
        it.skipped = Some(Skipped {
            tasks: vec![crate::run::outcomes::TaskOutcome {
                path: ":p:compat".into(),
                state: crate::run::task_state::TaskState::Skipped,
                test: Some(true),
                reason: Some("onlyIf is false".into()),
            }],
            all,
        });
        it
    }

    fn skipped(it: Iteration) -> Iteration {
        skipped_task(it, true)
    }

    #[test]
    fn verdicts_follow_reports_before_exit_codes() {
        let counts = |executed, failed, suite_timeouts| {
            Some(IterationCounts {
                executed,
                failed,
                suite_timeouts,
            })
        };
        let ok = Ended::Exited(0);
        let bad = Ended::Exited(1);
        let cases = [
            (
                iteration(ok.clone(), 1),
                counts(5, 0, 0),
                IterationVerdict::Passed,
            ),
            (iteration(ok.clone(), 1), None, IterationVerdict::Passed),
            (iteration(bad.clone(), 1), None, IterationVerdict::Failed),
            (
                iteration(bad.clone(), 1),
                counts(5, 2, 1),
                IterationVerdict::Failed,
            ),
            (
                iteration(bad.clone(), 1),
                counts(5, 0, 1),
                IterationVerdict::SuiteTimeout,
            ),
            (
                iteration(bad.clone(), 1),
                counts(5, 0, 0),
                IterationVerdict::BuildFailed(bad.clone()),
            ),
            (iteration(bad.clone(), 0), None, IterationVerdict::NoTests),
            (iteration(ok.clone(), 0), None, IterationVerdict::NoTests),
            (
                iteration(ok.clone(), 1),
                counts(0, 0, 0),
                IterationVerdict::NoTests,
            ),
            (
                iteration(Ended::TimedOut, 1),
                counts(5, 1, 0),
                IterationVerdict::TimedOut,
            ),
            (
                iteration(Ended::Interrupted, 0),
                None,
                IterationVerdict::Interrupted,
            ),
            (
                skipped(iteration(ok.clone(), 0)),
                None,
                IterationVerdict::Skipped(":p:compat SKIPPED (onlyIf is false)".into()),
            ),
            (
                skipped(iteration(ok.clone(), 1)),
                counts(5, 0, 0),
                IterationVerdict::PartlySkipped(":p:compat SKIPPED (onlyIf is false)".into()),
            ),
            (
                skipped(iteration(Ended::TimedOut, 0)),
                None,
                IterationVerdict::TimedOut,
            ),
            (
                skipped_task(iteration(ok.clone(), 1), false),
                counts(5, 0, 0),
                IterationVerdict::PartlySkipped(":p:compat SKIPPED (onlyIf is false)".into()),
            ),
            (
                skipped_task(iteration(ok.clone(), 1), false),
                counts(5, 1, 0),
                IterationVerdict::Failed,
            ),
        ];
        for (it, c, want) in cases {
            assert_eq!(IterationVerdict::of(&it, c), want, "{:?} {c:?}", it.ended);
        }
    }

    #[test]
    fn a_real_failure_outranks_infrastructure_but_not_an_interrupt() {
        use crate::Exit;
        use IterationVerdict::*;
        let exit_of = |v: &[IterationVerdict]| Exit::of(observed(v));
        assert_eq!(exit_of(&[]), Exit::Infra);
        assert_eq!(exit_of(&[Passed, Passed]), Exit::Clean);
        assert_eq!(exit_of(&[Passed, NoTests]), Exit::Infra);
        assert_eq!(exit_of(&[TimedOut, Failed, NoTests]), Exit::TestFailures);
        assert_eq!(exit_of(&[SuiteTimeout, Passed]), Exit::Infra);
        assert_eq!(exit_of(&[Passed, PartlySkipped("t".into())]), Exit::Infra);
        assert_eq!(exit_of(&[Skipped("t".into())]), Exit::Infra);
        assert_eq!(exit_of(&[Failed, Interrupted]), Exit::Interrupted);
    }
}
