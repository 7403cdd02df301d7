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

use super::process::{self, Isolation, Output};
use super::progress::{format_left, Estimate, Progress};
use super::repeat::{self, Counts, Iteration, Loop, Observer, Verdict};
use crate::domain::{format_duration, Command};
use crate::{Error, Result};
use std::fs::File;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// How many run folders are kept, the new one included.
pub const KEEP_RUNS: usize = 10;

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
    let mut old: Vec<PathBuf> = std::fs::read_dir(&runs)
        .map_err(|e| Error::io(&runs, e))?
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .map(|e| e.path())
        .collect();
    old.sort();
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
}

/// What one batch did.
#[derive(Debug)]
pub struct BatchRun {
    /// 1-based.
    pub index: usize,
    pub command: Command,
    /// The argv as run (with the `Isolation` arguments).
    pub argv: Vec<String>,
    pub log: PathBuf,
    pub iterations: Vec<Iteration>,
    /// One per iteration, then a `RunnerError` if the batch broke off.
    pub verdicts: Vec<Verdict>,
    /// What each verdict means here, e.g. why no tests executed.
    pub notes: Vec<String>,
}

/// Runs every command in turn; a failing batch does not stop the others, an
/// interrupt does. `counts` reads an iteration's kept reports (the analyzer).
pub fn run_all(
    commands: &[Command],
    opts: &Options<'_>,
    counts: &dyn Fn(&Iteration) -> Option<Counts>,
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
        let mut watcher = Watcher {
            progress,
            counts,
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
        let argv = opts.isolation.apply(&command.argv);
        let iterations = match run_batch(command, index, &log, opts, &mut watcher) {
            Ok(done) => done,
            Err(e) => {
                let verdict = Verdict::RunnerError(e.to_string());
                progress.line(&format!("    {}", verdict.describe()));
                watcher.notes.push(verdict.describe());
                watcher.verdicts.push(verdict);
                Vec::new()
            }
        };
        runs.push(BatchRun {
            index,
            command: command.clone(),
            argv: argv.unwrap_or_else(|_| command.argv.clone()),
            log,
            iterations,
            verdicts: watcher.verdicts,
            notes: watcher.notes,
        });
    }
    progress.finish();
    // A private daemon, kept warm between invocations, goes with the run;
    // the user's stays.
    process::stop_everything(opts.isolation);
    runs
}

fn run_batch(
    command: &Command,
    index: usize,
    log_path: &Path,
    opts: &Options<'_>,
    watcher: &mut Watcher<'_>,
) -> Result<Vec<Iteration>> {
    let mut log = File::create(log_path).map_err(|e| Error::io(log_path, e))?;
    writeln!(log, "=== gradle-flaky batch {index}: {}", command.label)
        .map_err(|e| Error::io(log_path, e))?;
    // As planned: what the user would type, without our daemon plumbing
    // (the log has the exact command).
    watcher
        .progress
        .line(&format!(">>> {}", crate::shell::join(&command.argv)));
    let dest = opts.run_dir.join(format!("batch-{index}"));
    let spec = Loop {
        argv: &command.argv,
        isolation: opts.isolation,
        project_dir: opts.project_dir,
        dest: &dest,
        times: command.rest_loops.max(1),
        timeout: Some(opts.timeout),
        output: if opts.verbose {
            Output::Tee(&log)
        } else {
            Output::Log(&log)
        },
    };
    repeat::run(&spec, watcher)
}

/// Judges each iteration of a batch as it ends and keeps the display current.
struct Watcher<'a> {
    progress: &'a Progress,
    counts: &'a dyn Fn(&Iteration) -> Option<Counts>,
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
            Verdict::NoTests => no_tests_reason(&self.log, self.log_start),
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

/// "no tests executed", with the cause when Gradle's output names it.
fn no_tests_reason(log: &Path, from: u64) -> String {
    let mut tail = String::new();
    if let Ok(mut f) = File::open(log) {
        let _ = f.seek(SeekFrom::Start(from));
        let _ = f.take(64 << 20).read_to_string(&mut tail);
    }
    let cause = if tail.contains("No tests found for given includes") {
        "the --tests filter matched no test"
    } else if tail.contains("UP-TO-DATE") {
        "the test task was UP-TO-DATE"
    } else if tail.contains("BUILD FAILED") || tail.contains("FAILURE: Build failed") {
        "the build failed before any test ran; see the log"
    } else {
        "Gradle wrote no JUnit XML; see the log"
    };
    format!("no tests executed: {cause}")
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
        if bad.is_empty() {
            continue;
        }
        let bad: Vec<String> = bad
            .into_iter()
            .map(|(what, at)| match run.verdicts.len() {
                1 => what,
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
        let mut left: Vec<String> = std::fs::read_dir(&runs)
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        assert_eq!(left.len(), KEEP_RUNS);
        assert_eq!(left[0], "200001003T000000Z-1");
        assert_eq!(
            left.last().map(String::as_str),
            dir.file_name().and_then(|n| n.to_str())
        );
    }

    #[test]
    fn iteration_lists_are_ranges() {
        assert_eq!(iterations(&[3]), "iteration 3");
        assert_eq!(iterations(&[1, 2, 3, 5, 7, 8]), "iterations 1-3, 5, 7-8");
    }

    #[test]
    fn the_cause_of_no_tests_is_read_from_this_iteration_only() {
        let tmp = tempfile::tempdir().unwrap();
        let log = tmp.path().join("log");
        std::fs::write(
            &log,
            "> No tests found for given includes: [x](--tests filter)\n:p:test UP-TO-DATE\n",
        )
        .unwrap();
        assert_eq!(
            no_tests_reason(&log, 0),
            "no tests executed: the --tests filter matched no test"
        );
        assert_eq!(
            no_tests_reason(&log, 57),
            "no tests executed: the test task was UP-TO-DATE"
        );
        assert_eq!(
            no_tests_reason(&tmp.path().join("missing"), 0),
            "no tests executed: Gradle wrote no JUnit XML; see the log"
        );
    }
}
