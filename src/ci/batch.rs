//! The never-fail batch runner every CI's batch job uses. A planned batch
//! runs through the repetition engine, the same code path as `local`'s
//! batches (`run::local::run_batch`): its chunks, stop on proof, the budget
//! that fits the job's timeout, the auto switch to Gradle runs, the
//! first-run check and its fallback, the progress lines; a REST batch's
//! Gradle runs loop natively. Its reports are kept below the build as
//! `flakiness-iters/iter-<i>/`, where the job's artifacts pick them up. It
//! notes whether a test JVM left a heap dump and which of the batch's Test
//! tasks the build skipped, and hands back what the job's status file
//! records, what the engine did included. The job itself always succeeds,
//! so the build's status stays green; what happened goes to the status
//! file instead.

use super::job::JobEnv;
use super::spec::JobSpec;
use super::status::{status_of, BudgetStopRun, DearerRun, EngineRun, ProvenRun, Status};
use crate::domain::GradleCommand;
use crate::jvm_options::InheritedJvmOptions;
use crate::plan::budget::Pace;
use crate::plan::policy::Policy;
use crate::reports;
use crate::run::engine::{Replan, Stop};
use crate::run::guard::RunGuard;
use crate::run::job::{supervise, Finished, RC_TIMEOUT};
use crate::run::local::{self as runner, Batch, BatchRun, Keep, Options, Watch};
use crate::run::outcomes::{self, TaskOutcome};
use crate::run::progress::Progress;
use crate::shell;
use crate::Result;
use crate::{process, say, settings};
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};

/// How a batch ended, with what its status file needs beyond the rc.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct BatchResult {
    pub finished: Finished,
    /// A test JVM wrote a heap dump during the run.
    pub oom: bool,
    /// The batch's Test tasks the build skipped (`onlyIf`, no sources, ...).
    pub skipped_tasks: Vec<TaskOutcome>,
    /// The build skipped every Test task the batch asked for (in its last
    /// invocation).
    pub all_tasks_skipped: bool,
    /// JVM options from the environment its test JVMs ran under (said on
    /// stderr once, by the guard).
    pub inherited_jvm_options: Vec<InheritedJvmOptions>,
    /// What the repetition engine did (`None`: a command line run once).
    pub engine: Option<EngineRun>,
}

impl BatchResult {
    /// The job's status file.
    pub(crate) fn status(&self, job: &JobEnv, kind: &str, timeout: Option<Duration>) -> Status {
        let mut status = status_of(job, kind, &self.finished, timeout, self.oom);
        status.skipped_tasks = self.skipped_tasks.clone();
        status.all_tasks_skipped = self.all_tasks_skipped;
        status.inherited_jvm_options = self.inherited_jvm_options.clone();
        status.engine = self.engine.clone();
        status
    }
}

/// Runs a planned batch as every CI runs it: through the repetition engine,
/// in the build's directory of the checkout, within the job's `timeout`
/// (each invocation stopped at what is left of it, a budget cut to what it
/// leaves). Isolated, unlike `local` on a laptop: a fresh agent has no warm
/// daemon to reuse, and a daemon of ours must not outlive the job on an
/// agent that runs other jobs next. A batch of one invocation runs without
/// a daemon; one of several (chunks, Gradle runs) keeps a private daemon
/// warm across them.
pub(crate) fn run_spec(spec: &JobSpec, timeout: Option<Duration>) -> Result<BatchResult> {
    let started = Instant::now();
    let root = spec.dir.clone().unwrap_or_else(|| PathBuf::from("."));
    crate::run::invoke::check_fresh(&root)?;
    let command = spec.command();
    let policy = for_job(&spec.batch.policy, command, timeout, started);
    let expected = command
        .rest_loops()
        .max(if policy.chunked() { 2 } else { 1 });
    let guard = RunGuard::temporary(true, expected)?;
    // Refuses `--daemon` in the batch before anything runs.
    guard.check(&command.argv())?;
    let replanning = spec
        .batch
        .replan
        .as_ref()
        .map(|r| (r.batching(), r.context()));
    let outcomes = guard.dir().join("task-outcomes");
    let keep = Keep {
        dest: root.clone(),
        log: guard.dir().join("batch.log"),
        say_log: false,
        outcomes: Some(&outcomes),
    };
    let opts = Options {
        project_dir: &root,
        run_dir: &root,
        verbose: true,
        guard: &guard,
        replan: replanning
            .as_ref()
            .map(|(batching, ctx)| Replan { batching, ctx }),
    };
    let batch = Batch { command, policy };
    let mut watch = Watch::of(std::slice::from_ref(&batch));
    let progress = Progress::new(false);
    let run = runner::run_batch(&batch, (1, 1), &keep, &opts, &progress, &mut watch);
    let mut result = result_of(&run, &root, started.elapsed());
    result.inherited_jvm_options = guard.inherited_jvm_options();
    say!(
        ">>> rc {} after {}s: {}",
        result.finished.rc,
        result.finished.duration.as_secs(),
        result.engine.as_ref().map(summary).unwrap_or_default()
    );
    Ok(result)
}

/// The batch's policy within a job of `timeout` started at `started`: no
/// invocation runs past the job's end, and a budget leaves the job what
/// `settings::within` leaves a batch, so that its last chunk ends before the
/// job's timeout and the job records a clean stop. The plan's budget is cut
/// to it; a batch planned without one (GitHub's plan does not know the
/// job's timeout) gets it when its durations say it cannot end in time, the
/// rule `plan::policy` applies where the limit is known.
fn for_job(
    policy: &Policy,
    command: &GradleCommand,
    timeout: Option<Duration>,
    started: Instant,
) -> Policy {
    let mut policy = policy.clone();
    let Some(timeout) = timeout else {
        return policy;
    };
    policy.timeout = Some(policy.timeout.map_or(timeout, |t| t.min(timeout)));
    policy.deadline = Some(started + timeout);
    let within = settings::within(timeout);
    policy.budget = match policy.budget {
        Some(budget) => Some(budget.min(within)),
        None if policy.open_ended => None,
        None => {
            let pace = Pace {
                per_iteration: policy.per_iteration,
                overhead: None,
            };
            let executions = command.executions().min(u64::from(u32::MAX)) as u32;
            pace.predict(executions)
                .filter(|&t| t > within)
                .map(|_| within)
        }
    };
    policy
}

/// What the job's status records of a batch the engine ran in `root` for
/// `took`.
fn result_of(run: &BatchRun, root: &Path, took: Duration) -> BatchResult {
    let ended = |e: process::Ended| run.done.iterations.iter().any(|it| it.ended == e);
    let cancelled =
        ended(process::Ended::Interrupted) || matches!(run.done.stop, Some(Stop::Interrupted));
    let timed_out = ended(process::Ended::TimedOut);
    let rc = match (cancelled, timed_out) {
        // As the supervised command line reports it: the signal forwarded.
        (true, _) => 128 + libc::SIGTERM,
        (false, true) => RC_TIMEOUT,
        (false, false) => run.rc(),
    };
    // A JVM that ran out of heap fails its Gradle run, so clean runs skip the scan.
    let oom = rc != 0
        && !reports::heap_dumps_written(root, &run.command.heap_dump_paths, run.started).is_empty();
    let (skipped_tasks, all_tasks_skipped) = skipped(run);
    BatchResult {
        finished: Finished {
            rc,
            duration: took,
            timed_out,
            cancelled,
        },
        oom,
        skipped_tasks,
        all_tasks_skipped,
        // The guard's, set by the caller.
        inherited_jvm_options: Vec::new(),
        engine: Some(engine_run(run)),
    }
}

/// The batch's Test tasks the build skipped in any of its invocations (each
/// once, as first recorded), and whether its last invocation skipped every
/// one asked for.
fn skipped(run: &BatchRun) -> (Vec<TaskOutcome>, bool) {
    let mut tasks: Vec<TaskOutcome> = Vec::new();
    for it in &run.done.iterations {
        for task in it.skipped.iter().flat_map(|s| &s.tasks) {
            if !tasks.iter().any(|t| t.path == task.path) {
                tasks.push(task.clone());
            }
        }
    }
    if !tasks.is_empty() {
        say!(">>> skipped by the build: {}", outcomes::describe(&tasks));
    }
    let last = run
        .done
        .iterations
        .last()
        .and_then(|it| it.skipped.as_ref());
    (tasks, last.is_some_and(|s| s.all))
}

/// What the engine did, as the status file records it.
fn engine_run(run: &BatchRun) -> EngineRun {
    let done = &run.done;
    let ms = |d: Duration| d.as_millis() as u64;
    // A class once, as its first test showed it.
    let mut classes = HashSet::new();
    let dearer = run
        .command
        .tests
        .iter()
        .zip(&done.costlier)
        .filter_map(|(t, c)| Some((t.class.clone()?, c.as_ref()?)))
        .filter(|(class, _)| classes.insert(class.clone()))
        .map(|(class, c)| DearerRun {
            class,
            per_iteration_ms: ms(c.dearer.per_iteration),
            last_ms: c.dearer.last.map(ms),
            fresh_run_ms: ms(c.dearer.fresh_run),
            switched: c.switched,
        })
        .collect();
    EngineRun {
        planned: run.command.executions(),
        ran: done.ran.clone(),
        invocations: done.iterations.len() as u32,
        chunked: run.chunked,
        proven: done
            .proven
            .iter()
            .map(|p| ProvenRun {
                test: crate::plan::test_name(&p.test),
                after: p.after,
                saved: p.saved,
            })
            .collect(),
        dearer,
        cheaper: runner::in_jvm_costs(std::slice::from_ref(run), None).cheaper,
        lines: done.lines.clone(),
        budget_stop: match &done.stop {
            Some(Stop::Budget {
                budget,
                ran,
                planned,
            }) => Some(BudgetStopRun {
                budget_sec: budget.as_secs(),
                iterations_run: u64::from(*ran),
                iterations_planned: u64::from(*planned),
            }),
            _ => None,
        },
        saved_sec: done.saved.as_secs(),
    }
}

/// What the engine did, in a line for the job's log.
fn summary(e: &EngineRun) -> String {
    let mut out = format!(
        "{} of {} iterations ran in {} invocation(s)",
        e.iterations_run(),
        e.iterations_planned(),
        e.invocations
    );
    if !e.proven.is_empty() {
        out += &format!(
            "; {} saved by stop on proof (about {} of job time)",
            e.iterations_saved(),
            crate::time::human(Duration::from_secs(e.saved_sec))
        );
    }
    if let Some(b) = &e.budget_stop {
        out += &format!(
            "; stopped by its budget ({}) after {} of {} iterations",
            crate::time::format_duration(Duration::from_secs(b.budget_sec)),
            b.iterations_run,
            b.iterations_planned
        );
    }
    for d in e.switched() {
        out += &format!("; {} switched to Gradle runs", d.class);
    }
    out
}

/// Runs a command line as given (`buildkite wrap -- COMMAND`): on stderr
/// with its rc, supervised (see [`supervise`]), and, when it failed, a look
/// for heap dumps it left below `dir` and at `heap_dumps` (relative to
/// `dir`); a JVM that ran out of heap fails its Gradle run, so clean runs
/// skip the scan.
pub(crate) fn run_batch(
    argv: &[String],
    dir: Option<&Path>,
    heap_dumps: &[PathBuf],
    timeout: Option<Duration>,
) -> BatchResult {
    say!(">>> {}", shell::join(argv));
    let started = SystemTime::now();
    let finished = supervise(argv, dir, timeout);
    say!(
        ">>> rc {} after {}s",
        finished.rc,
        finished.duration.as_secs()
    );
    let oom = finished.rc != 0
        && !reports::heap_dumps_written(dir.unwrap_or(Path::new(".")), heap_dumps, started)
            .is_empty();
    BatchResult {
        finished,
        oom,
        skipped_tasks: Vec::new(),
        all_tasks_skipped: false,
        inherited_jvm_options: Vec::new(),
        engine: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::TestKind;

    /// Within a job of 10 minutes: every invocation stops by its end; a
    /// plan's budget of an hour is cut to what the job leaves (8 minutes); a
    /// batch planned without one gets it when its durations say it cannot
    /// end in time, and not when they say it can (or say nothing).
    #[test]
    fn a_batchs_policy_fits_its_jobs_timeout() {
        let command = GradleCommand::of_kind(TestKind::Unit, &["gradle"], 100, 1);
        let started = Instant::now();
        let job = Some(Duration::from_secs(600));
        let mut planned = Policy::plain(1, Some(Duration::from_secs(4200)));
        planned.budget = Some(Duration::from_secs(3600));
        let p = for_job(&planned, &command, job, started);
        assert_eq!(p.timeout, Some(Duration::from_secs(600)));
        assert_eq!(p.deadline, Some(started + Duration::from_secs(600)));
        assert_eq!(p.budget, Some(Duration::from_secs(480)));
        let at = |secs: u64| Policy {
            budget: None,
            per_iteration: Some(Duration::from_secs(secs)),
            ..planned.clone()
        };
        let slow = for_job(&at(6), &command, job, started);
        assert_eq!(slow.budget, Some(Duration::from_secs(480)), "100 × 6 s");
        assert_eq!(
            for_job(&at(1), &command, job, started).budget,
            None,
            "100 × 1 s"
        );
        let unknown = Policy {
            per_iteration: None,
            ..at(1)
        };
        assert_eq!(for_job(&unknown, &command, job, started).budget, None);
        assert_eq!(
            for_job(&planned, &command, None, started),
            planned,
            "no timeout"
        );
    }
}
