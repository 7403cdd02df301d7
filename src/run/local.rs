//! Running a plan on this machine: every batch in turn, each as a REST loop
//! (one iteration for non-REST kinds), its reports kept in the run folder.
//!
//! Every `local` invocation gets its own run folder,
//! `<project>/.gradle/gradle-flaky/runs/<UTC time>-<pid>/`, holding per batch
//! `batch-<n>.log` (Gradle's output, every iteration) and
//! `batch-<n>/flakiness-iters/iter-<i>/<path relative to the project root>`.
//! Reports are moved there after every invocation, for every kind: a later
//! batch's `clean<Task>` (or Gradle itself) deletes `build/test-results/<task>/`,
//! and two batches of one task write the same file names. Analyzing the run
//! folder therefore counts exactly this run. `.gradle` is skipped by report
//! discovery, so `gradle-flaky analyze .` never counts old runs. The newest
//! [`KEEP_RUNS`] run folders are kept.

use super::cause::{self, Facts, LogFacts};
use super::chunks::{self, Chunk, Chunking, Proven, Stop};
use super::outcomes::Scripts;
use super::progress::{format_left, Estimate, Progress};
use super::repeat::{self, Iteration, IterationCounts, Loop, Observer, Outcomes, Verdict};
use crate::analyze::RepeatedDir;
use crate::domain::{format_duration, GradleCommand};
use crate::process::{self, Ended, Isolation, Output};
use crate::reports::walk;
use crate::{Error, Result};
use std::fs::File;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// How many run folders are kept, the new one included.
pub const KEEP_RUNS: usize = 10;

/// Where a run folder keeps the init scripts its Gradle invocations get.
pub fn scripts_dir(run_dir: &Path) -> PathBuf {
    run_dir.join("scripts")
}

/// The folder holding every run folder.
pub fn runs_dir(project_dir: &Path) -> PathBuf {
    project_dir.join(".gradle/gradle-flaky/runs")
}

/// Creates this run's folder, named by the run's id, and deletes all but the
/// newest [`KEEP_RUNS`].
pub fn create_run_dir(project_dir: &Path) -> Result<PathBuf> {
    let runs = runs_dir(project_dir);
    std::fs::create_dir_all(&runs).map_err(|e| Error::io(&runs, e))?;
    let dir = runs.join(process::run_id());
    std::fs::create_dir(&dir).map_err(|e| Error::io(&dir, e))?;
    let old = walk::folders(&runs).map_err(|e| Error::io(&runs, e))?;
    let excess = old.len().saturating_sub(KEEP_RUNS);
    for stale in &old[..excess] {
        let _ = std::fs::remove_dir_all(stale);
    }
    Ok(dir)
}

/// How to run the batches.
pub struct Options<'a> {
    pub project_dir: &'a Path,
    pub run_dir: &'a Path,
    /// Limit of each Gradle invocation (one REST loop iteration, or a whole non-REST batch).
    pub timeout: Duration,
    /// Stream Gradle's output to stderr as well as to the log.
    pub verbose: bool,
    /// How Gradle's processes are kept ours.
    pub isolation: &'a Isolation,
    /// Asked after an in-JVM batch's run: did it ignore `-Dtests.iters`? Then
    /// the batch goes on with its `fallback` command (Gradle runs).
    pub ignored_iters: &'a dyn Fn(&GradleCommand, &[Iteration]) -> bool,
    /// Batches it applies to run in chunks (a budget, stop on proof).
    pub chunking: Option<&'a dyn Chunking>,
}

/// What one batch did.
#[derive(Debug)]
pub struct BatchRun {
    /// 1-based.
    pub index: usize,
    pub command: GradleCommand,
    pub log: PathBuf,
    /// Where its iterations' reports are kept (`batch-<n>`).
    pub dir: PathBuf,
    /// When it started (heap dumps written since are its own).
    pub started: SystemTime,
    pub iterations: Vec<Iteration>,
    /// One per iteration, then a `RunnerError` if the batch broke off.
    pub verdicts: Vec<Verdict>,
    /// What each verdict means here, e.g. why no tests executed.
    pub notes: Vec<String>,
    /// Its chunks, when it ran in chunks (else empty).
    pub chunks: Vec<Chunk>,
    /// Why a chunked batch ended before its planned iterations.
    pub stop: Option<Stop>,
    /// Its tests that stop on proof took out.
    pub proven: Vec<Proven>,
    /// Iterations each of its command's tests ran, in order, when it ran in
    /// chunks (else empty).
    pub ran: Vec<u64>,
}

impl BatchRun {
    /// A batch of `command` that has not run yet (for tests).
    #[cfg(test)]
    pub(crate) fn of(command: GradleCommand) -> BatchRun {
        BatchRun {
            index: 1,
            command,
            log: PathBuf::new(),
            dir: PathBuf::new(),
            started: SystemTime::UNIX_EPOCH,
            iterations: vec![],
            verdicts: vec![],
            notes: vec![],
            chunks: vec![],
            stop: None,
            proven: Vec::new(),
            ran: Vec::new(),
        }
    }

    /// The exit code a batch job would have: 124 when an invocation ran out of
    /// time (as GNU `timeout` says), else the first failing invocation's code
    /// (`128 + signal` when killed, 130 when interrupted), 127 when the batch
    /// could not run, else 0.
    pub fn rc(&self) -> i32 {
        if self.iterations.iter().any(|it| it.ended == Ended::TimedOut) {
            return 124;
        }
        let failed = self.iterations.iter().find_map(|it| match it.ended {
            Ended::Exited(0) => None,
            Ended::Exited(code) => Some(code),
            Ended::Signalled(sig) => Some(128 + sig),
            Ended::Interrupted => Some(130),
            Ended::TimedOut => Some(124),
        });
        let broke_off = matches!(self.verdicts.last(), Some(Verdict::RunnerError(_)));
        failed.unwrap_or(if broke_off { 127 } else { 0 })
    }

    /// Wall time of its invocations.
    pub fn duration(&self) -> Duration {
        self.iterations.iter().map(|it| it.elapsed).sum()
    }
}

/// Runs every command in turn; a failing batch does not stop the others, an
/// interrupt does. `counts` reads an iteration's kept reports (the analyzer).
pub fn run_all(
    commands: &[GradleCommand],
    opts: &Options<'_>,
    counts: &dyn Fn(&Iteration) -> Option<IterationCounts>,
    progress: &Progress,
) -> Vec<BatchRun> {
    let mut runs = Vec::new();
    let mut failures = 0;
    let mut estimate = Estimate::new(commands.iter().map(|c| c.rest_loops.max(1)).collect());
    for (i, command) in commands.iter().enumerate() {
        if process::interrupted() {
            break;
        }
        let index = i + 1;
        let log = opts.run_dir.join(format!("batch-{index}.log"));
        progress.line(&format!(
            ">>> [{index}/{}] {} (log: {})",
            commands.len(),
            command.label,
            log.display()
        ));
        let started = SystemTime::now();
        let mut watcher = Watcher {
            progress,
            counts,
            test_tasks: command.task_paths.clone(),
            header: format!("[{index}/{}] {}", commands.len(), command.label),
            batch: i,
            loops: command.rest_loops.max(1),
            log: log.clone(),
            log_start: 0,
            failures: &mut failures,
            estimate: &mut estimate,
            verdicts: Vec::new(),
            notes: Vec::new(),
        };
        let dest = batch_dir(opts.run_dir, index);
        if let Some(chunking) = opts.chunking.filter(|c| c.applies(command)) {
            watcher.loops = 1;
            let mut invoke = |c: &GradleCommand, n: usize| {
                watcher.header = format!("[{index}/{}] {} · chunk {n}", commands.len(), c.label);
                watcher.progress.line(&format!("    {}", chunk_line(c, n)));
                let chunk_dir = dest.join(format!("chunk-{n}"));
                run_batch(c, &chunk_dir, &log, n == 1, opts, &mut watcher)
            };
            let say = |line: &str| progress.line(line);
            let done = chunks::run(command, chunking, &mut invoke, &say);
            if let Some(e) = done.error {
                broke_off(e, &mut watcher);
            }
            watcher.notes.extend(done.notes);
            runs.push(BatchRun {
                index,
                command: command.clone(),
                log,
                dir: dest,
                started,
                iterations: done.iterations,
                verdicts: watcher.verdicts,
                notes: watcher.notes,
                chunks: done.chunks,
                stop: done.stop,
                proven: done.proven,
                ran: done.ran,
            });
            continue;
        }
        let mut iterations = match run_batch(command, &dest, &log, true, opts, &mut watcher) {
            Ok(done) => done,
            Err(e) => broke_off(e, &mut watcher),
        };
        let trustworthy = watcher.verdicts.last().is_some_and(Verdict::is_trustworthy);
        if let Some(fallback) = fallback(command, &iterations, trustworthy, opts) {
            let line = format!(
                "    {}; {}",
                fallback.repetition_reason,
                more_gradle_runs(fallback.rest_loops)
            );
            progress.line(&line);
            watcher.notes.push(line.trim().to_string());
            watcher.loops = fallback.rest_loops.max(1);
            let runs_dir = dest.join("gradle-runs");
            match run_batch(fallback, &runs_dir, &log, false, opts, &mut watcher) {
                Ok(more) => iterations.extend(more),
                Err(e) => {
                    broke_off(e, &mut watcher);
                }
            }
        }
        runs.push(BatchRun {
            index,
            command: command.clone(),
            log,
            dir: batch_dir(opts.run_dir, index),
            started,
            iterations,
            verdicts: watcher.verdicts,
            notes: watcher.notes,
            chunks: Vec::new(),
            stop: None,
            proven: Vec::new(),
            ran: Vec::new(),
        });
    }
    progress.finish();
    // A private daemon, kept warm between invocations, goes with the run;
    // the user's stays.
    process::stop_everything(opts.isolation);
    runs
}

/// Records why a batch broke off.
fn broke_off(e: Error, watcher: &mut Watcher<'_>) -> Vec<Iteration> {
    let verdict = Verdict::RunnerError(e.to_string());
    watcher
        .progress
        .line(&format!("    {}", verdict.describe()));
    watcher.notes.push(verdict.describe());
    watcher.verdicts.push(verdict);
    Vec::new()
}

/// The batch's Gradle-run fallback, when its in-JVM run gave a result (its
/// tests passed or failed) but ignored `-Dtests.iters`.
fn fallback<'c>(
    command: &'c GradleCommand,
    done: &[Iteration],
    trustworthy: bool,
    opts: &Options<'_>,
) -> Option<&'c GradleCommand> {
    let fallback = command.fallback.as_deref()?;
    (trustworthy && !process::interrupted() && (opts.ignored_iters)(command, done))
        .then_some(fallback)
}

fn more_gradle_runs(n: u32) -> String {
    match n {
        1 => "1 more Gradle run".into(),
        n => format!("{n} more Gradle runs"),
    }
}

/// `chunk 2: 40 iteration(s), seed 0123456789ABCDEF`.
fn chunk_line(c: &GradleCommand, n: usize) -> String {
    let what = match c.repetition {
        crate::domain::Repetition::InJvm => format!("{} iteration(s)", c.iterations),
        crate::domain::Repetition::GradleRuns => "1 Gradle run".into(),
    };
    match crate::plan::chunk::seed_of(&c.argv) {
        Some(seed) => format!("chunk {n}: {what}, seed {seed}"),
        None => format!("chunk {n}: {what}"),
    }
}

/// Runs one command of a batch, its reports kept below `dest`: a batch's
/// first command creates the log (`fresh`), a fallback or a later chunk
/// appends to it (a fallback below `batch-<index>/gradle-runs/`, chunk `n`
/// below `batch-<index>/chunk-<n>/`).
fn run_batch(
    command: &GradleCommand,
    dest: &Path,
    log_path: &Path,
    fresh: bool,
    opts: &Options<'_>,
    watcher: &mut Watcher<'_>,
) -> Result<Vec<Iteration>> {
    // Refuses an argv the isolation cannot run before the log is written.
    opts.isolation.apply(&command.argv)?;
    let mut log = if fresh {
        let mut log = File::create(log_path).map_err(|e| Error::io(log_path, e))?;
        let index = watcher.batch + 1;
        writeln!(log, "=== gradle-flaky batch {index}: {}", command.label)
            .map_err(|e| Error::io(log_path, e))?;
        log
    } else {
        File::options()
            .append(true)
            .open(log_path)
            .map_err(|e| Error::io(log_path, e))?
    };
    if !command.repetition_reason.is_empty() {
        writeln!(log, "=== {}", command.repetition_reason).map_err(|e| Error::io(log_path, e))?;
    }
    // The planned command, without the daemon plumbing: the log has the
    // exact one (each iteration announces it).
    watcher
        .progress
        .line(&format!(">>> {}", crate::shell::join(&command.argv)));
    // Task outcomes tell a Test task the build skipped from a run without tests.
    let scripts = Scripts::write(&scripts_dir(opts.run_dir))?;
    let outcomes_dir = dest.join("task-outcomes");
    let spec = Loop {
        argv: &command.argv,
        isolation: opts.isolation,
        project_dir: opts.project_dir,
        dest,
        times: command.rest_loops.max(1),
        timeout: Some(opts.timeout),
        output: if opts.verbose {
            Output::Tee(&log)
        } else {
            Output::Log(&log)
        },
        outcomes: Some(Outcomes {
            scripts: &scripts,
            dir: &outcomes_dir,
            requested: &command.task_paths,
        }),
    };
    repeat::run(&spec, watcher)
}

/// The folders (relative to the run folder) of the batches' in-JVM runs
/// that repeat tests under their plain names, where every test case is an
/// execution: `batch-<n>/flakiness-iters` (a fallback's Gradle runs, in
/// `batch-<n>/gradle-runs/`, are not below it).
pub fn repeated_in_jvm(runs: &[BatchRun]) -> Vec<RepeatedDir> {
    let iters = crate::reports::ITERS_DIR;
    let mut dirs = Vec::new();
    for r in runs
        .iter()
        .filter(|r| r.command.in_jvm.is_some_and(|m| m.plain_names()))
    {
        if r.chunks.is_empty() {
            dirs.push(RepeatedDir {
                dir: format!("batch-{}/{iters}", r.index),
                repetitions: Some(r.command.iterations),
            });
        }
        // A chunked batch keeps each chunk's reports in `chunk-<n>/`; only its
        // in-JVM chunks repeat tests (a Gradle-run chunk runs each once).
        for (n, chunk) in r.chunks.iter().enumerate() {
            if chunk.iterations > 1 {
                dirs.push(RepeatedDir {
                    dir: format!("batch-{}/chunk-{}/{iters}", r.index, n + 1),
                    repetitions: Some(chunk.iterations),
                });
            }
        }
    }
    dirs
}

/// Where batch `index` keeps its iterations' reports.
fn batch_dir(run_dir: &Path, index: usize) -> PathBuf {
    run_dir.join(format!("batch-{index}"))
}

/// Judges each iteration of a batch as it ends and keeps the display current.
struct Watcher<'a> {
    progress: &'a Progress,
    counts: &'a dyn Fn(&Iteration) -> Option<IterationCounts>,
    /// The batch's own Test tasks.
    test_tasks: Vec<String>,
    header: String,
    /// 0-based index of the batch.
    batch: usize,
    loops: u32,
    log: PathBuf,
    /// Length of the log when the current iteration started.
    log_start: u64,
    /// Real failures so far in the whole run.
    failures: &'a mut u64,
    estimate: &'a mut Estimate,
    verdicts: Vec<Verdict>,
    notes: Vec<String>,
}

impl Watcher<'_> {
    /// "no tests executed", with its cause from this iteration's facts.
    fn no_tests(&self, it: &Iteration) -> String {
        let mut output = Vec::new();
        if let Ok(mut f) = File::open(&self.log) {
            let _ = f.seek(SeekFrom::Start(self.log_start));
            let _ = f.take(64 << 20).read_to_end(&mut output);
        }
        let log = LogFacts::read(&String::from_utf8_lossy(&output), &self.test_tasks);
        cause::cause(&Facts {
            ended: &it.ended,
            log: &log,
            tasks: &log.tasks,
        })
        .describe()
    }
}

impl Observer for Watcher<'_> {
    fn started(&mut self, index: u32) {
        self.log_start = std::fs::metadata(&self.log).map_or(0, |m| m.len());
        let iteration = if self.loops > 1 {
            format!(" · iteration {index}/{}", self.loops)
        } else {
            String::new()
        };
        self.progress.status(
            format!(
                "{}{iteration} · {} failure{} so far",
                self.header,
                self.failures,
                if *self.failures == 1 { "" } else { "s" }
            ),
            index == 1,
            self.estimate.left(self.batch, Duration::ZERO),
        );
    }

    fn ended(&mut self, it: &Iteration) {
        let counts = (self.counts)(it);
        let verdict = Verdict::of(it, counts);
        *self.failures += counts.map_or(0, |c| c.failed);
        let note = match &verdict {
            Verdict::NoTests => self.no_tests(it),
            Verdict::TimedOut => format!("{}; its processes were stopped", verdict.describe()),
            v => v.describe(),
        };
        let mut line = String::from("    ");
        if self.loops > 1 {
            line += &format!("iteration {}/{}: ", it.index, self.loops);
        }
        line += &note;
        if let Some(c) = counts {
            let s = if c.executed == 1 { "" } else { "s" };
            line += &format!(" · {} test{s}, {} failed", c.executed, c.failed);
            if c.suite_timeouts > 0 {
                line += &format!(", {} suite timeouts", c.suite_timeouts);
            }
        }
        line += &format!(" · {}", format_elapsed(it.elapsed));
        if it.leftovers > 0 {
            line += &format!(" · stopped {} process(es) Gradle left behind", it.leftovers);
        }
        for note in &it.notes {
            line += &format!(" · {note}");
        }
        self.estimate.measured(self.batch, it.elapsed);
        let stopping = matches!(verdict, Verdict::TimedOut | Verdict::Interrupted);
        match self.estimate.left(self.batch, Duration::ZERO) {
            Some(left) if !stopping && !left.is_zero() => {
                line += &format!(" · {}", format_left(left));
            }
            _ => {}
        }
        self.progress.line(&line);
        self.verdicts.push(verdict);
        self.notes.push(note);
    }
}

fn format_elapsed(d: Duration) -> String {
    let secs = d.as_secs();
    if secs >= 60 {
        format!("{}m{:02}s", secs / 60, secs % 60)
    } else {
        format!("{:.1}s", d.as_secs_f64())
    }
}

/// One line per batch that was not a clean pass, for the end of the run.
pub fn problems(runs: &[BatchRun], timeout: Duration) -> Vec<String> {
    let mut out = Vec::new();
    for run in runs {
        // Each distinct problem once, with the iterations that had it.
        let mut bad: Vec<(String, Vec<usize>)> = Vec::new();
        for (n, (v, note)) in run.verdicts.iter().zip(&run.notes).enumerate() {
            let what = match v {
                Verdict::Passed | Verdict::Failed => continue,
                Verdict::TimedOut => format!(
                    "timed out (limit {}); its processes were stopped",
                    format_duration(timeout)
                ),
                _ => note.clone(),
            };
            match bad.iter_mut().find(|(w, _)| *w == what) {
                Some((_, at)) => at.push(n + 1),
                None => bad.push((what, vec![n + 1])),
            }
        }
        match &run.stop {
            Some(Stop::Budget {
                budget,
                ran,
                planned,
            }) => bad.push((
                format!(
                    "stopped by its budget ({}) after {ran} of {planned} iterations: the next \
                     chunk did not fit; what ran proves: {}",
                    format_duration(*budget),
                    crate::plan::Proof::new(u64::from(*ran), 0.95).sentence()
                ),
                Vec::new(),
            )),
            Some(Stop::AllProven | Stop::TimeUp { .. }) | None => {}
        }
        for p in &run.proven {
            bad.push((
                format!(
                    "{} proven flaky after {} iteration(s), {} saved (stop on proof)",
                    crate::plan::test_name(&p.test),
                    p.after,
                    p.saved
                ),
                Vec::new(),
            ));
        }
        if bad.is_empty() {
            continue;
        }
        let bad: Vec<String> = bad
            .into_iter()
            .map(|(what, at)| match run.verdicts.len() {
                _ if at.is_empty() => what,
                1 => what,
                _ if !run.chunks.is_empty() => format!("{}: {what}", chunk_list(&at)),
                _ => format!("{}: {what}", iterations(&at)),
            })
            .collect();
        out.push(format!(
            "batch {} ({}): {} (log: {})",
            run.index,
            run.command.label,
            bad.join("; "),
            run.log.display()
        ));
    }
    out
}

/// `chunk 3`, `chunks 1-3, 5`.
fn chunk_list(at: &[usize]) -> String {
    iterations(at).replacen("iteration", "chunk", 1)
}

/// `iteration 3`, `iterations 1-3, 5`.
fn iterations(at: &[usize]) -> String {
    let mut ranges: Vec<(usize, usize)> = Vec::new();
    for &i in at {
        match ranges.last_mut() {
            Some((_, end)) if *end + 1 == i => *end = i,
            _ => ranges.push((i, i)),
        }
    }
    let list: Vec<String> = ranges
        .iter()
        .map(|&(a, b)| {
            if a == b {
                a.to_string()
            } else {
                format!("{a}-{b}")
            }
        })
        .collect();
    let plural = if at.len() == 1 { "" } else { "s" };
    format!("iteration{plural} {}", list.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_run_gets_a_new_folder_and_old_ones_are_pruned() {
        let tmp = tempfile::tempdir().unwrap();
        let runs = runs_dir(tmp.path());
        for i in 0..KEEP_RUNS + 2 {
            std::fs::create_dir_all(runs.join(format!("2000010{i:02}T000000Z-1"))).unwrap();
        }
        let dir = create_run_dir(tmp.path()).unwrap();
        assert!(dir.is_dir());
        assert!(dir.starts_with(&runs));
        let left: Vec<String> = walk::list(&runs)
            .unwrap()
            .iter()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(left.len(), KEEP_RUNS);
        assert_eq!(left[0], "200001003T000000Z-1");
        assert_eq!(
            left.last().map(String::as_str),
            dir.file_name().and_then(|n| n.to_str())
        );
    }

    #[test]
    fn a_chunked_in_jvm_batch_counts_every_case_of_its_in_jvm_chunks() {
        let chunk = |iterations| Chunk {
            iterations,
            seed: None,
            elapsed: Duration::ZERO,
            in_jvm: iterations > 1,
        };
        let run = |index, in_jvm, chunks| BatchRun {
            index,
            chunks,
            ..BatchRun::of(GradleCommand {
                in_jvm,
                ..GradleCommand::of_kind(crate::domain::TestKind::Unit, &["gradle"], 10, 1)
            })
        };
        let runner = Some(crate::domain::InJvm::Junit4Runner);
        let runs = [
            run(1, runner, vec![]),
            // In the JVM, then Gradle runs after the first chunk showed no repetition.
            run(2, runner, vec![chunk(10), chunk(1), chunk(1)]),
            run(3, runner, vec![chunk(10), chunk(20)]),
            // randomizedtesting names each iteration apart: counted as it always was.
            run(4, Some(crate::domain::InJvm::TestsIters), vec![chunk(10)]),
            run(5, None, vec![chunk(1)]),
        ];
        let dirs: Vec<(String, Option<u32>)> = repeated_in_jvm(&runs)
            .into_iter()
            .map(|r| (r.dir, r.repetitions))
            .collect();
        let want = [
            ("batch-1/flakiness-iters", 10),
            ("batch-2/chunk-1/flakiness-iters", 10),
            ("batch-3/chunk-1/flakiness-iters", 10),
            ("batch-3/chunk-2/flakiness-iters", 20),
        ]
        .map(|(d, n)| (d.to_string(), Some(n)));
        assert_eq!(dirs, want, "each folder with the repetitions its tests ran");
    }

    #[test]
    fn a_batch_has_the_rc_a_batch_job_would_have() {
        let batch = |ended: &[Ended], verdicts: Vec<Verdict>| BatchRun {
            index: 1,
            command: GradleCommand::of_kind(crate::domain::TestKind::Unit, &["gradle"], 1, 1),
            log: PathBuf::new(),
            dir: PathBuf::new(),
            started: SystemTime::UNIX_EPOCH,
            iterations: ended
                .iter()
                .map(|e| Iteration {
                    index: 1,
                    ended: e.clone(),
                    elapsed: Duration::from_secs(2),
                    dir: PathBuf::new(),
                    reports: vec![],
                    leftovers: 0,
                    skipped: None,
                    notes: Vec::new(),
                })
                .collect(),
            verdicts,
            notes: vec![],
            chunks: Vec::new(),
            stop: None,
            proven: Vec::new(),
            ran: Vec::new(),
        };
        use Ended::*;
        let rc = |ended: &[Ended]| batch(ended, vec![]).rc();
        assert_eq!(rc(&[Exited(0), Exited(0)]), 0);
        assert_eq!(rc(&[Exited(0), Exited(1), Signalled(9)]), 1);
        assert_eq!(rc(&[Signalled(9)]), 137);
        assert_eq!(rc(&[Exited(1), TimedOut]), 124);
        assert_eq!(rc(&[Interrupted]), 130);
        let broke_off = batch(&[], vec![Verdict::RunnerError("x".into())]);
        assert_eq!(broke_off.rc(), 127);
        assert_eq!(
            batch(&[Exited(0), Exited(0)], vec![]).duration().as_secs(),
            4
        );
    }

    #[test]
    fn iteration_lists_are_ranges() {
        assert_eq!(iterations(&[3]), "iteration 3");
        assert_eq!(iterations(&[1, 2, 3, 5, 7, 8]), "iterations 1-3, 5, 7-8");
    }
}
