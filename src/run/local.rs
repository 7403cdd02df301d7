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

use super::engine::{self, Event, Outcome, Policy, Replan, Reporter, Sink, Site, Stop};
use super::guard::RunGuard;
use super::invoke::{Iteration, IterationVerdict};
use super::progress::{Estimate, Planned, Progress};
use crate::analyze::RepeatedDir;
use crate::domain::{GradleCommand, InJvm};
use crate::durations::{DearerInJvm, InJvmCosts};
use crate::process;
use crate::reports::walk;
use crate::time::format_duration;
use crate::{Error, Result};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// How many run folders are kept, the new one included.
pub(crate) const KEEP_RUNS: usize = 10;

/// The folder holding every run folder.
pub(crate) fn runs_dir(project_dir: &Path) -> PathBuf {
    project_dir.join(".gradle/gradle-flaky/runs")
}

/// Creates this run's folder, named by the run's id, and deletes all but the
/// newest [`KEEP_RUNS`].
pub(crate) fn create_run_dir(project_dir: &Path) -> Result<PathBuf> {
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

/// A batch to run: its command and how (decided by the caller).
pub(crate) struct Batch<'a> {
    pub command: &'a GradleCommand,
    pub policy: Policy,
}

/// Where and how the batches run.
pub(crate) struct Options<'a> {
    pub project_dir: &'a Path,
    pub run_dir: &'a Path,
    /// Stream Gradle's output to stderr as well as to the log.
    pub verbose: bool,
    pub guard: &'a RunGuard,
    /// How a batch's command is planned again for some of its tests; `None`:
    /// it is not (a CI batch of an earlier plan).
    pub replan: Option<Replan<'a>>,
}

/// Where one batch keeps what it does.
pub(crate) struct Keep<'a> {
    /// Its invocations' reports go to `flakiness-iters/iter-<i>/` below it.
    pub dest: PathBuf,
    /// Gradle's output, every invocation.
    pub log: PathBuf,
    /// The log's path is said when the batch starts (else it is a scratch
    /// file, its output on stderr: a CI job's).
    pub say_log: bool,
    /// Where each invocation's task outcomes go; `None`: below `dest`.
    pub outcomes: Option<&'a Path>,
}

/// What one batch did.
#[derive(Debug)]
pub(crate) struct BatchRun {
    /// 1-based.
    pub index: usize,
    pub command: GradleCommand,
    pub log: PathBuf,
    /// Where its invocations' reports are kept (`batch-<n>`).
    pub dir: PathBuf,
    /// When it started (heap dumps written since are its own).
    pub started: SystemTime,
    /// What the engine did: its invocations, their verdicts, its stop, the
    /// tests it proved, what repeated each test.
    pub done: Outcome,
    /// It ran in chunks of its own choosing (a budget, stop on proof).
    pub chunked: bool,
    /// Its count was never fixed (`--until-fail --for`): it planned what it ran.
    pub open_ended: bool,
}

impl BatchRun {
    /// A batch of `command` that has not run yet (for tests).
    #[cfg(test)]
    pub(crate) fn of(command: GradleCommand) -> BatchRun {
        let n = command.tests.len();
        BatchRun {
            index: 1,
            done: Outcome {
                repeated_by: vec![command.in_jvm(); n],
                costlier: vec![None; n],
                weighed: vec![false; n],
                ran: vec![0; n],
                ..Outcome::default()
            },
            command,
            log: PathBuf::new(),
            dir: PathBuf::new(),
            started: SystemTime::UNIX_EPOCH,
            chunked: false,
            open_ended: false,
        }
    }

    /// The exit code a batch job would have: 124 when an invocation ran out of
    /// time (as GNU `timeout` says), else the first failing invocation's code
    /// (`128 + signal` when killed, 130 when interrupted), 127 when the batch
    /// could not run, else 0.
    pub(crate) fn rc(&self) -> i32 {
        if self
            .done
            .iterations
            .iter()
            .any(|it| it.ended == process::Ended::TimedOut)
        {
            return 124;
        }
        let failed = self.done.iterations.iter().find_map(|it| match it.ended {
            process::Ended::Exited(0) => None,
            process::Ended::Exited(code) => Some(code),
            process::Ended::Signalled(sig) => Some(128 + sig),
            process::Ended::Interrupted => Some(130),
            process::Ended::TimedOut => Some(124),
        });
        let broke_off = matches!(
            self.done.verdicts.last(),
            Some(IterationVerdict::RunnerError(_))
        );
        failed.unwrap_or(if broke_off { 127 } else { 0 })
    }

    /// Wall time of its invocations.
    pub(crate) fn duration(&self) -> Duration {
        self.done.iterations.iter().map(|it| it.elapsed).sum()
    }
}

/// What the batches found of their classes' in-JVM cost, measured on
/// `commit`: a class dearer in any batch is dearer.
pub(crate) fn in_jvm_costs(runs: &[BatchRun], commit: Option<&str>) -> InJvmCosts {
    let mut costs = InJvmCosts::default();
    for run in runs {
        let tests = run.command.tests.iter().zip(&run.done.costlier);
        for ((t, costlier), weighed) in tests.zip(&run.done.weighed) {
            let Some(class) = t.class.clone() else {
                continue;
            };
            match costlier {
                Some(c) => {
                    let secs = |d: Duration| crate::durations::round(d.as_secs_f64());
                    let dearer = DearerInJvm {
                        per_iteration: secs(c.dearer.per_iteration),
                        last: c.dearer.last.map(secs),
                        fresh_run: secs(c.dearer.fresh_run),
                        commit: commit.map(String::from),
                    };
                    costs.dearer.insert(class, dearer);
                }
                None if *weighed => costs.cheaper.push(class),
                None => {}
            }
        }
    }
    costs.cheaper.retain(|c| !costs.dearer.contains_key(c));
    costs
}

/// Runs every batch in turn; a failing batch does not stop the others, an
/// interrupt does.
pub(crate) fn run_all(
    batches: &[Batch<'_>],
    opts: &Options<'_>,
    progress: &Progress,
) -> Vec<BatchRun> {
    let mut runs = Vec::new();
    let mut watch = Watch::of(batches);
    for (i, batch) in batches.iter().enumerate() {
        if process::interrupted() {
            break;
        }
        let index = i + 1;
        let keep = Keep {
            dest: batch_dir(opts.run_dir, index),
            log: opts.run_dir.join(format!("batch-{index}.log")),
            say_log: true,
            outcomes: None,
        };
        runs.push(run_batch(
            batch,
            (index, batches.len()),
            &keep,
            opts,
            progress,
            &mut watch,
        ));
    }
    progress.finish();
    runs
}

/// What a run's progress lines count across its batches.
pub(crate) struct Watch {
    /// Real failures so far.
    failures: u64,
    estimate: Estimate,
}

impl Watch {
    /// The watch of a run of `batches`.
    pub(crate) fn of(batches: &[Batch<'_>]) -> Watch {
        let planned = batches
            .iter()
            .map(|b| Planned {
                invocations: b.command.rest_loops(),
                predicted: b.command.predicted_sec.map(Duration::from_secs),
            })
            .collect();
        Watch {
            failures: 0,
            estimate: Estimate::new(planned),
        }
    }
}

/// Runs batch `index` of `of` through the repetition engine, keeping what it
/// does as `keep` says, its progress on `progress`.
pub(crate) fn run_batch(
    batch: &Batch<'_>,
    (index, of): (usize, usize),
    keep: &Keep<'_>,
    opts: &Options<'_>,
    progress: &Progress,
    watch: &mut Watch,
) -> BatchRun {
    let command = batch.command;
    let log = match keep.say_log {
        true => format!(" (log: {})", keep.log.display()),
        false => String::new(),
    };
    progress.line(&format!(">>> [{index}/{of}] {}{log}", command.label));
    let started = SystemTime::now();
    let site = Site {
        guard: opts.guard,
        project_dir: opts.project_dir,
        dest: &keep.dest,
        outcomes: keep.outcomes,
        output: Sink::Log {
            path: keep.log.clone(),
            header: format!("=== gradle-flaky batch {index}: {}", command.label),
            tee: opts.verbose,
        },
    };
    let mut watcher = Watcher {
        progress,
        header: format!("[{index}/{of}] {}", command.label),
        batch: index - 1,
        watch,
    };
    let mut done = engine::run(command, opts.replan, &batch.policy, &site, &mut watcher);
    if let Some(e) = done.error.take() {
        // The runner broke off (Gradle not found, a file not writable).
        let verdict = IterationVerdict::RunnerError(e.to_string());
        progress.line(&format!("    {}", verdict.describe()));
        done.notes.push(verdict.describe());
        done.verdicts.push(verdict);
    }
    BatchRun {
        index,
        command: command.clone(),
        log: keep.log.clone(),
        dir: keep.dest.clone(),
        started,
        done,
        chunked: batch.policy.chunked(),
        open_ended: batch.policy.open_ended,
    }
}

/// The folders (relative to the run folder) of the batches' in-JVM
/// invocations that repeat tests under their plain names, where every test
/// case is an execution, with their repetitions.
pub(crate) fn repeated_in_jvm(runs: &[BatchRun]) -> Vec<RepeatedDir> {
    let mut dirs = Vec::new();
    for r in runs {
        for (chunk, it) in r.done.chunks.iter().zip(&r.done.iterations) {
            if chunk.in_jvm && chunk.mechanism.is_some_and(InJvm::plain_names) {
                let rel = it.dir.strip_prefix(r.dir.parent().unwrap_or(&r.dir));
                let dir = rel.unwrap_or(&it.dir).to_string_lossy().into_owned();
                dirs.push(RepeatedDir {
                    dir,
                    repetitions: Some(chunk.iterations),
                    mechanism: chunk.mechanism,
                });
            }
        }
    }
    dirs
}

/// The folders (relative to the run folder) of the batches that ran their
/// tests' whole test tasks (`--context task`): their executions are in
/// context `task`.
pub(crate) fn whole_task_dirs(runs: &[BatchRun]) -> Vec<String> {
    runs.iter()
        .filter(|r| r.command.whole_task.is_some())
        .map(|r| match r.dir.file_name() {
            Some(name) => name.to_string_lossy().into_owned(),
            None => r.dir.to_string_lossy().into_owned(),
        })
        .collect()
}

/// Where batch `index` keeps its invocations' reports.
fn batch_dir(run_dir: &Path, index: usize) -> PathBuf {
    run_dir.join(format!("batch-{index}"))
}

/// Shows a batch's progress: its lines, and the status line below them.
struct Watcher<'a> {
    progress: &'a Progress,
    header: String,
    /// 0-based index of the batch.
    batch: usize,
    watch: &'a mut Watch,
}

impl Reporter for Watcher<'_> {
    fn event(&mut self, event: &Event<'_>) {
        match event {
            Event::Command(_, argv) => {
                // The planned command, without the daemon plumbing: the log
                // has the exact one (each invocation announces it).
                self.progress
                    .line(&format!(">>> {}", crate::shell::join(argv)));
            }
            Event::Chunk(n, iterations, seed) => {
                let what = match iterations {
                    Some(k) => format!("{k} iteration(s)"),
                    None => "1 Gradle run".into(),
                };
                let seed = seed.map(|s| format!(", seed {s}")).unwrap_or_default();
                self.progress.line(&format!("    chunk {n}: {what}{seed}"));
            }
            Event::Started { index, of } => self.started(*index, *of),
            Event::Ended {
                iteration,
                reading,
                verdict,
                note,
                index,
                of,
                left,
            } => {
                let counts = reading.counts;
                self.ended(iteration, counts, verdict, note, (*index, *of), *left)
            }
            Event::Note(line) => self.progress.line(&format!("    {line}")),
        }
    }
}

impl Watcher<'_> {
    fn started(&mut self, index: u32, of: u32) {
        let iteration = if of > 1 {
            format!(" · iteration {index}/{of}")
        } else {
            String::new()
        };
        let failures = self.watch.failures;
        self.progress.status(
            format!(
                "{}{iteration} · {failures} failure{} so far",
                self.header,
                if failures == 1 { "" } else { "s" }
            ),
            index == 1,
            self.watch.estimate.left(self.batch, Duration::ZERO),
        );
    }

    fn ended(
        &mut self,
        it: &Iteration,
        counts: Option<super::invoke::IterationCounts>,
        verdict: &IterationVerdict,
        note: &str,
        (index, of): (u32, u32),
        left: Option<Duration>,
    ) {
        self.watch.failures += counts.map_or(0, |c| c.failed);
        let mut line = String::from("    ");
        if of > 1 {
            line += &format!("iteration {index}/{of}: ");
        }
        line += note;
        if let Some(c) = counts {
            let s = if c.executed == 1 { "" } else { "s" };
            line += &format!(" · {} test{s}, {} failed", c.executed, c.failed);
            if c.suite_timeouts > 0 {
                line += &format!(", {} suite timeouts", c.suite_timeouts);
            }
        }
        line += &format!(" · {}", crate::time::human(it.elapsed));
        if it.leftovers > 0 {
            line += &format!(" · stopped {} process(es) Gradle left behind", it.leftovers);
        }
        for note in &it.notes {
            line += &format!(" · {note}");
        }
        let estimate = &mut self.watch.estimate;
        estimate.measured(self.batch, it.elapsed, left);
        let stopping = matches!(
            verdict,
            IterationVerdict::TimedOut | IterationVerdict::Interrupted
        );
        match estimate.left(self.batch, Duration::ZERO) {
            Some(left) if !stopping && !left.time.is_zero() => line += &format!(" · {left}"),
            _ => {}
        }
        self.progress.line(&line);
    }
}

/// Why a batch's tests ran fewer times than planned, when it ended early:
/// its problem, else the stop on proof that took its proven tests out (a
/// clean result: said once, not as a problem).
pub(crate) fn shortfall(run: &BatchRun, timeout: Duration) -> Option<String> {
    problems(std::slice::from_ref(run), timeout)
        .pop()
        .or_else(|| {
            let proven: Vec<String> = run
                .done
                .proven
                .iter()
                .map(|p| {
                    format!(
                        "{} proven flaky after {} iteration(s), {} saved (stop on proof)",
                        crate::plan::test_name(&p.test),
                        p.after,
                        p.saved
                    )
                })
                .collect();
            (!proven.is_empty()).then(|| format!("batch {}: {}", run.index, proven.join("; ")))
        })
}

/// One line per batch that was not a clean pass, for the end of the run.
pub(crate) fn problems(runs: &[BatchRun], timeout: Duration) -> Vec<String> {
    let mut out = Vec::new();
    for run in runs {
        // Each distinct problem once, with the iterations that had it.
        let mut bad: Vec<(String, Vec<usize>)> = Vec::new();
        for (n, (v, note)) in run.done.verdicts.iter().zip(&run.done.notes).enumerate() {
            let what = match v {
                IterationVerdict::Passed | IterationVerdict::Failed => continue,
                IterationVerdict::TimedOut => format!(
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
        if let Some(Stop::Budget {
            budget,
            ran,
            planned,
        }) = &run.done.stop
        {
            bad.push((
                format!(
                    "stopped by its budget ({}) after {ran} of {planned} iterations: the next \
                     chunk did not fit; what ran proves: {}",
                    format_duration(*budget),
                    crate::plan::Proof::new(u64::from(*ran), 0.95).sentence()
                ),
                Vec::new(),
            ));
        }
        if bad.is_empty() {
            continue;
        }
        let bad: Vec<String> = bad
            .into_iter()
            .map(|(what, at)| match run.done.verdicts.len() {
                _ if at.is_empty() => what,
                1 => what,
                _ if run.chunked => format!("{}: {what}", chunk_list(&at)),
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
    use crate::run::engine::Chunk;

    /// A class dearer in one batch is dearer (with its figures and the
    /// commit); one weighed and found no dearer is cheaper; one never
    /// weighed says nothing.
    #[test]
    fn the_batches_in_jvm_costs_are_gathered_per_class() {
        use crate::domain::testing::unit;
        use crate::plan::switch::Dearer;
        let mut c = GradleCommand::of_kind(crate::domain::TestKind::Unit, &["gradle"], 5, 1);
        c.tests = vec![unit("a.G"), unit("a.C"), unit("a.N")];
        let mut run = BatchRun::of(c);
        let dearer = Dearer {
            per_iteration: Duration::from_millis(3400),
            last: Some(Duration::from_secs(6)),
            fresh_run: Duration::from_millis(1500),
        };
        run.done.costlier[0] = Some(engine::Costlier {
            dearer,
            switched: true,
            line: String::new(),
        });
        run.done.weighed = vec![true, true, false];
        let costs = in_jvm_costs(&[run], Some("abc"));
        let expected = DearerInJvm {
            per_iteration: 3.4,
            last: Some(6.0),
            fresh_run: 1.5,
            commit: Some("abc".into()),
        };
        assert_eq!(costs.dearer.len(), 1);
        assert_eq!(costs.dearer["a.G"], expected);
        assert_eq!(costs.cheaper, ["a.C"]);
    }

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

    /// An invocation of batch `batch` that ran `iterations` in the JVM by
    /// `mechanism` (`None`: a Gradle run).
    fn invocation(batch: usize, i: usize, mechanism: Option<InJvm>, k: u32) -> (Chunk, Iteration) {
        let chunk = Chunk {
            iterations: k,
            seed: None,
            elapsed: Duration::ZERO,
            in_jvm: mechanism.is_some(),
            mechanism,
        };
        let dir = PathBuf::from(format!("/r/batch-{batch}/flakiness-iters/iter-{i}"));
        let it = Iteration {
            ended: process::Ended::Exited(0),
            elapsed: Duration::ZERO,
            dir,
            reports: vec![],
            leftovers: 0,
            skipped: None,
            notes: Vec::new(),
        };
        (chunk, it)
    }

    #[test]
    fn a_batch_counts_every_case_of_its_in_jvm_invocations_under_plain_names() {
        let run = |index: usize, chunks: Vec<(Option<InJvm>, u32)>| {
            let (chunks, iterations) = chunks
                .into_iter()
                .enumerate()
                .map(|(i, (m, k))| invocation(index, i + 1, m, k))
                .unzip();
            BatchRun {
                index,
                done: Outcome {
                    chunks,
                    iterations,
                    ..Outcome::default()
                },
                dir: PathBuf::from(format!("/r/batch-{index}")),
                ..BatchRun::of(GradleCommand::of_kind(
                    crate::domain::TestKind::Unit,
                    &["gradle"],
                    10,
                    1,
                ))
            }
        };
        let runner = Some(InJvm::Junit4Runner);
        let runs = [
            run(1, vec![(runner, 10)]),
            // In the JVM, then Gradle runs after the first showed no repetition.
            run(2, vec![(runner, 10), (None, 1), (None, 1)]),
            run(3, vec![(runner, 10), (runner, 20)]),
            // randomizedtesting names each iteration apart: counted as it always was.
            run(4, vec![(Some(InJvm::TestsIters), 10)]),
            run(5, vec![(None, 1)]),
        ];
        let dirs: Vec<(String, Option<u32>)> = repeated_in_jvm(&runs)
            .into_iter()
            .map(|r| (r.dir, r.repetitions))
            .collect();
        let want = [
            ("batch-1/flakiness-iters/iter-1", 10),
            ("batch-2/flakiness-iters/iter-1", 10),
            ("batch-3/flakiness-iters/iter-1", 10),
            ("batch-3/flakiness-iters/iter-2", 20),
        ]
        .map(|(d, n)| (d.to_string(), Some(n)));
        assert_eq!(dirs, want, "each folder with the repetitions its tests ran");
    }

    #[test]
    fn a_batch_has_the_rc_a_batch_job_would_have() {
        use process::Ended;
        let batch = |ended: &[Ended], verdicts: Vec<IterationVerdict>| BatchRun {
            done: Outcome {
                iterations: ended
                    .iter()
                    .map(|e| Iteration {
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
                ..Outcome::default()
            },
            ..BatchRun::of(GradleCommand::of_kind(
                crate::domain::TestKind::Unit,
                &["gradle"],
                1,
                1,
            ))
        };
        use Ended::*;
        let rc = |ended: &[Ended]| batch(ended, vec![]).rc();
        assert_eq!(rc(&[Exited(0), Exited(0)]), 0);
        assert_eq!(rc(&[Exited(0), Exited(1), Signalled(9)]), 1);
        assert_eq!(rc(&[Signalled(9)]), 137);
        assert_eq!(rc(&[Exited(1), TimedOut]), 124);
        assert_eq!(rc(&[Interrupted]), 130);
        let broke_off = batch(&[], vec![IterationVerdict::RunnerError("x".into())]);
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
