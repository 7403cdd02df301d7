//! The repetition engine: every repeated Gradle command runs through it (a
//! `local` batch, a triage replay, `repeat`'s loop). It takes a planned
//! batch and a [`Policy`] (plain data: a budget, stop on proof, a deadline),
//! runs the batch's invocations one after another, tells a [`Reporter`] what
//! happens as it happens, and returns what ran ([`Outcome`]).
//!
//! A batch runs in chunks, each one Gradle invocation: `k` iterations in one
//! test JVM for an in-JVM batch, one Gradle run for a batch repeated by
//! Gradle runs. Without a budget or stop on proof an in-JVM batch is one
//! chunk of its whole count. Before each chunk its size is checked against
//! what is left of the budget (`plan::budget`); in a batch of several chunks
//! each in-JVM chunk gets a master seed of its own. After each chunk the
//! tests proven flaky leave the batch when stop on proof is on for them.
//!
//! One fallback rule: after a batch's first in-JVM chunk, a class that ran to
//! completion (no suite timeout cut it, the invocation was not stopped) but
//! ran each of its tests at most once did not repeat: its tests go on as
//! Gradle runs for what they still owe. A class a suite timeout cut says
//! nothing of the repetition and stays. So no test executes more often than
//! planned, and the classes that did repeat are never run again.
//!
//! One switch (`plan::switch` decides, the policy says what to do): after an
//! in-JVM chunk with iterations still owed, when its wall time per iteration
//! passed the cost of a fresh Gradle run (state accumulating in the JVM),
//! `auto` runs what its tests still owe as Gradle runs, and an explicit
//! `in-jvm` stays in the JVM; either way the run says what it cost.

use super::evidence::{self, EvidenceTally, Reading};
use super::guard::RunGuard;
use super::invoke::{self, Iteration, IterationVerdict, SpawnSpec};
use crate::domain::{BatchingConfig, ClassifiedTest, GradleCommand, InJvm};
use crate::invocation::{Invocation, Seeds};
use crate::plan::budget::{self, Next, Pace, Sizing};
pub(crate) use crate::plan::policy::Policy;
use crate::plan::switch::{self, ChunkCost, Dearer, FreshRun, OnDearer};
use crate::plan::PlanContext;
use crate::process::{self, Ended, Output};
use crate::test_filter::{self, Shape};
use crate::{Error, Result};
use indexmap::IndexSet;
use std::collections::VecDeque;
use std::fs::File;
use std::io::Write;
use std::path::Path;
use std::time::{Duration, Instant};

/// How the batch's command is planned again for some of its tests (stop on
/// proof takes tests out, a fallback takes a class's tests to Gradle runs).
#[derive(Clone, Copy)]
pub(crate) struct Replan<'a> {
    pub batching: &'a BatchingConfig,
    pub ctx: &'a PlanContext,
}

/// Where the batch runs and keeps what it does.
pub(crate) struct Site<'a> {
    pub guard: &'a RunGuard,
    /// The Gradle build's root.
    pub project_dir: &'a Path,
    /// The batch's folder: invocation `i` keeps its reports in
    /// `flakiness-iters/iter-<i>/`, its task outcomes in `task-outcomes/`.
    pub dest: &'a Path,
    /// Where each invocation's task outcomes go (`iter-<i>.json`); `None`:
    /// `task-outcomes/` in `dest`.
    pub outcomes: Option<&'a Path>,
    pub output: Sink,
}

/// Where Gradle's output goes.
pub(crate) enum Sink {
    /// A log file, created at the first invocation with `header` as its first
    /// line; `tee`: also to stderr.
    Log {
        path: std::path::PathBuf,
        header: String,
        tee: bool,
    },
    /// This process's stdout and stderr.
    Inherit,
}

/// What happens, as it happens.
pub(crate) enum Event<'a> {
    /// The batch goes on with this command (its first, a narrowed one, a
    /// fallback): its argv as planned.
    Command(&'a GradleCommand, &'a [String]),
    /// A chunk of a batch run in chunks starts: its number, its iterations
    /// in one test JVM (`None`: one Gradle run) and its seed.
    Chunk(usize, Option<u32>, Option<&'a str>),
    /// Invocation `index` of a Gradle-run command of `of` runs starts.
    Started { index: u32, of: u32 },
    /// An invocation ended, with its verdict and what that means.
    Ended {
        iteration: &'a Iteration,
        reading: &'a Reading,
        verdict: &'a IterationVerdict,
        note: &'a str,
        /// Which of the command's `of` Gradle runs it was (1 of 1 in the JVM).
        index: u32,
        of: u32,
        /// The time the batch should still take, from its measured pace
        /// (zero when it ends here; `None`: no pace known yet).
        left: Option<Duration>,
    },
    /// Something the batch did besides its invocations (a fallback, a
    /// proof, a stop), in a line.
    Note(&'a str),
}

/// Sees the engine's events (progress display, a command's output).
pub(crate) trait Reporter {
    fn event(&mut self, event: &Event<'_>);
}

/// A reporter that shows nothing.
impl Reporter for () {
    fn event(&mut self, _: &Event<'_>) {}
}

/// One chunk (one invocation) as it ran.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Chunk {
    /// Iterations it ran in one test JVM; 1 for a Gradle run.
    pub iterations: u32,
    /// Its master seed, when it set one.
    pub seed: Option<String>,
    pub elapsed: Duration,
    /// It repeated its tests in one test JVM (not a Gradle run).
    pub in_jvm: bool,
    /// The mechanism that repeated them, when in the JVM.
    pub mechanism: Option<InJvm>,
}

/// Why a batch ended before its planned iterations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Stop {
    /// The next chunk did not fit what was left of the budget.
    Budget {
        budget: Duration,
        ran: u32,
        planned: u32,
    },
    /// Every test of the batch was proven flaky.
    AllProven,
    /// Every test of the batch left it proven flaky or shown fixed (a
    /// comparison's looks), at least one of them shown fixed.
    AllShown,
    /// An open-ended batch (`--until-fail --for`) used its time: not a
    /// shortfall, its count was never fixed.
    TimeUp {
        ran: u32,
    },
    /// The deadline came.
    Deadline,
    Interrupted,
    /// An invocation gave no result for the batch's tests (why, in words).
    NoResult(String),
}

/// A test that stop on proof took out of its batch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Proven {
    pub test: ClassifiedTest,
    /// Iterations it had run when it was proven flaky.
    pub after: u64,
    /// Iterations it was planned but did not run.
    pub saved: u64,
}

/// A test a comparison's look took out of its batch: shown fixed.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Shown {
    /// Its index among the command's tests.
    pub index: usize,
    /// Iterations it had run.
    pub after: u64,
    /// Iterations it was planned but did not run.
    pub saved: u64,
    /// The look (1-based, of the rule's looks) and its threshold.
    pub look: u32,
    pub threshold: f64,
}

/// A test whose in-JVM iterations cost more than fresh runs would have.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Costlier {
    pub dearer: Dearer,
    /// What it still owed ran as Gradle runs (`auto`).
    pub switched: bool,
    /// The line the run and the report show.
    pub line: String,
}

/// What a batch did: the engine's stats.
#[derive(Debug, Default)]
pub(crate) struct Outcome {
    /// Its invocations, in order.
    pub iterations: Vec<Iteration>,
    /// One per invocation.
    pub chunks: Vec<Chunk>,
    /// One verdict per invocation, then a `RunnerError` if the batch broke off.
    pub verdicts: Vec<IterationVerdict>,
    /// What each verdict means here (why no test ran, say).
    pub notes: Vec<String>,
    pub stop: Option<Stop>,
    pub proven: Vec<Proven>,
    /// Iterations each of the command's tests was planned and ran, in its order.
    pub ran: Vec<u64>,
    /// What each test's executions gave (with the pinned seed, if any).
    pub tallies: Vec<EvidenceTally>,
    /// What repeated each test last: its in-JVM mechanism, or Gradle runs.
    pub repeated_by: Vec<Option<InJvm>>,
    /// Per test, when its in-JVM iterations cost more than fresh runs.
    pub costlier: Vec<Option<Costlier>>,
    /// Per test, its in-JVM iterations were weighed against fresh runs (a
    /// chunk of two or more that gave a result): without `costlier`, they
    /// cost no more.
    pub weighed: Vec<bool>,
    /// How the batch went on besides its invocations (fallbacks, proofs).
    pub lines: Vec<String>,
    /// The tests a comparison showed fixed at a look before the end.
    pub shown: Vec<Shown>,
    /// Per test, the last look a comparison took before its end (0: none):
    /// the comparison's own last look spends what is left.
    pub looked: Vec<u32>,
    /// The runner itself failed (Gradle not found, a file not writable): the
    /// batch did not start, or broke off.
    pub error: Option<Error>,
    /// What the batch's early end saved when its last tests left it (proven
    /// flaky, shown fixed): the time its chunks still owed would have taken
    /// at the pace it measured (zero when unknown).
    pub saved: Duration,
}

/// A part of the batch with a count of its own: the batch's command, or the
/// Gradle runs of tests whose in-JVM count did not take effect.
struct Track {
    command: GradleCommand,
    /// The batch's tests it runs (indices into the command's tests).
    tests: Vec<usize>,
    /// Executions it still owes.
    remaining: u32,
    /// Chunks it ran.
    chunks: u32,
    pace: Pace,
    /// Each chunk that gave a result: its iterations, wall time and test
    /// time (the pace a person is told).
    measured: Vec<(u32, Duration, Duration)>,
}

impl Track {
    /// A track of `tests` that owes `remaining` executions, none run yet.
    fn new(command: GradleCommand, tests: Vec<usize>, remaining: u32, pace: Pace) -> Track {
        Track {
            command,
            tests,
            remaining,
            chunks: 0,
            pace,
            measured: Vec::new(),
        }
    }
}

/// Runs `command` as `policy` says.
pub(crate) fn run(
    command: &GradleCommand,
    replan: Option<Replan<'_>>,
    policy: &Policy,
    site: &Site<'_>,
    reporter: &mut dyn Reporter,
) -> Outcome {
    let mut engine = Engine::new(command, replan, policy, site);
    if let Err(e) = engine.go(reporter) {
        engine.out.error = Some(e);
    }
    engine.out
}

struct Engine<'a> {
    command: &'a GradleCommand,
    replan: Option<Replan<'a>>,
    policy: &'a Policy,
    site: &'a Site<'a>,
    planned: u32,
    tracks: VecDeque<Track>,
    active: Vec<bool>,
    seeds: Seeds,
    /// Gradle's start as measured where the tests ran in one JVM: what a
    /// fresh run pays besides its tests.
    start: Option<Duration>,
    started: Instant,
    log: Option<File>,
    /// The log's length when the current invocation started.
    log_start: u64,
    /// The command reason last written to the log.
    reason: String,
    /// The argv last announced.
    shown: Vec<String>,
    /// What the batch did after the current invocation, told after its end.
    pending: Vec<String>,
    /// The pace the last chunk with a result went at.
    measured: Option<Pace>,
    out: Outcome,
}

impl<'a> Engine<'a> {
    fn new(
        command: &'a GradleCommand,
        replan: Option<Replan<'a>>,
        policy: &'a Policy,
        site: &'a Site<'a>,
    ) -> Engine<'a> {
        // An open-ended batch has no count: its time or its failures end it.
        let planned = match policy.open_ended {
            true => u32::MAX,
            false => command.executions().min(u64::from(u32::MAX)) as u32,
        };
        let n = command.tests.len();
        let pace = Pace {
            per_iteration: policy.per_iteration,
            overhead: None,
        };
        let first = Track::new(command.clone(), (0..n).collect(), planned, pace);
        Engine {
            command,
            replan,
            policy,
            site,
            planned,
            tracks: VecDeque::from([first]),
            active: vec![true; n],
            seeds: Seeds::default(),
            start: None,
            started: Instant::now(),
            log: None,
            log_start: 0,
            reason: String::new(),
            shown: Vec::new(),
            pending: Vec::new(),
            measured: None,
            out: Outcome {
                ran: vec![0; n],
                tallies: vec![EvidenceTally::default(); n],
                repeated_by: vec![command.in_jvm(); n],
                costlier: vec![None; n],
                weighed: vec![false; n],
                looked: vec![0; n],
                ..Outcome::default()
            },
        }
    }

    fn go(&mut self, reporter: &mut dyn Reporter) -> Result<()> {
        while let Some(k) = self.next_chunk() {
            let track = self.tracks.front().expect("a track to run");
            let in_jvm = track.command.in_jvm().is_some();
            let resizable = in_jvm && track.command.invocation.resizable();
            // A count the argv does not carry runs whole.
            let k = if in_jvm && !resizable {
                track.remaining
            } else {
                k
            };
            let seed = (self.policy.chunked() && track.command.invocation.seeded())
                .then(|| self.seeds.fresh());
            let invocation = match in_jvm {
                true => track.command.invocation.with_iterations(k, seed.clone()),
                false => track.command.invocation.with_runs(1),
            };
            let it = self.invoke(&invocation, k, seed, reporter)?;
            let stop = self.after(it, k, in_jvm, reporter);
            if stop {
                break;
            }
        }
        Ok(())
    }

    /// The size of the front track's next chunk; `None` when the batch is
    /// done or stopped (the stop recorded).
    fn next_chunk(&mut self) -> Option<u32> {
        loop {
            if process::interrupted() {
                self.out.stop = Some(Stop::Interrupted);
                return None;
            }
            if self.policy.deadline.is_some_and(|d| Instant::now() >= d) {
                self.out.stop = Some(Stop::Deadline);
                return None;
            }
            let track = self.tracks.front()?;
            let left = self.policy.budget.map(|b| b.saturating_sub(self.spent()));
            let sizing = self.sizing(track, left);
            match budget::next(&sizing, &track.pace) {
                Next::Run(k) => return Some(k),
                Next::Done => {
                    self.tracks.pop_front();
                }
                Next::OutOfBudget => {
                    let ran = self.ran_most();
                    let stop = match self.policy.open_ended {
                        true => Stop::TimeUp { ran },
                        false => Stop::Budget {
                            budget: self.policy.budget.unwrap_or_default(),
                            ran,
                            planned: self.planned,
                        },
                    };
                    self.out.stop = Some(stop);
                    return None;
                }
            }
        }
    }

    fn stops_on_proof(&self, test: usize) -> bool {
        self.policy.stop_on_proof.get(test) == Some(&true)
    }

    /// The iterations the batch ran: its most-run test's.
    fn ran_most(&self) -> u32 {
        self.out
            .ran
            .iter()
            .copied()
            .max()
            .unwrap_or(0)
            .min(u64::from(u32::MAX)) as u32
    }

    /// What sizes `track`'s next chunks, with `left` of the budget.
    fn sizing(&self, track: &Track, left: Option<Duration>) -> Sizing {
        Sizing {
            remaining: track.remaining,
            planned: self.planned,
            in_jvm: track.command.in_jvm().is_some(),
            chunks_done: track.chunks,
            stop_on_proof: track.tests.iter().any(|&i| self.stops_on_proof(i)),
            look_every: self.policy.look_every(self.planned),
            left,
        }
    }

    /// The time the batch spent: its chunks', or more when reading their
    /// reports took time too.
    fn spent(&self) -> Duration {
        let chunks: Duration = self.out.chunks.iter().map(|c| c.elapsed).sum();
        self.started.elapsed().max(chunks)
    }

    /// Runs one chunk of the front track.
    fn invoke(
        &mut self,
        invocation: &Invocation,
        k: u32,
        seed: Option<String>,
        reporter: &mut dyn Reporter,
    ) -> Result<Iteration> {
        let argv = invocation.argv();
        // Refuses an argv the isolation cannot run before the log is written.
        self.site.guard.check(&argv)?;
        let reason = self
            .tracks
            .front()
            .map(|t| t.command.repetition_reason.clone());
        self.open_log(&reason.unwrap_or_default())?;
        let track = self.tracks.front().expect("a track to run");
        let in_jvm = invocation.repeat.mechanism().is_some();
        let index = self.out.iterations.len() as u32 + 1;
        let runs = track.command.rest_loops();
        let done = runs.saturating_sub(track.remaining);
        let (header, of) = match (self.policy.chunked(), in_jvm) {
            (true, _) => (format!("Chunk {}", self.out.chunks.len() + 1), 1),
            (false, true) => ("Iteration 1/1".to_string(), 1),
            (false, false) => (format!("Iteration {}/{runs}", done + 1), runs),
        };
        if argv != self.shown {
            reporter.event(&Event::Command(&track.command, &argv));
            self.shown = argv.clone();
        }
        if self.policy.chunked() {
            let n = self.out.chunks.len() + 1;
            reporter.event(&Event::Chunk(n, in_jvm.then_some(k), seed.as_deref()));
        }
        reporter.event(&Event::Started {
            index: if in_jvm { 1 } else { done + 1 },
            of,
        });
        let timeout = match self.policy.deadline {
            Some(d) => {
                let left = d.saturating_duration_since(Instant::now());
                Some(self.policy.timeout.map_or(left, |t| t.min(left)))
            }
            None => self.policy.timeout,
        };
        let requested = invocation.task_paths();
        let outcomes = match self.site.outcomes {
            Some(dir) => dir.to_path_buf(),
            None => self.site.dest.join("task-outcomes"),
        };
        let output = match (&self.site.output, &self.log) {
            (Sink::Log { tee: true, .. }, Some(log)) => Output::Tee(log),
            (Sink::Log { .. }, Some(log)) => Output::Log(log),
            _ => Output::Inherit,
        };
        let it = invoke::invoke(&SpawnSpec {
            outcomes: &outcomes,
            argv: &argv,
            guard: self.site.guard,
            repeat_helpers: invocation.needs_repeat_helpers(),
            project_dir: self.site.project_dir,
            dest: self.site.dest,
            index,
            header: &header,
            timeout,
            output,
            requested: &requested,
        })?;
        self.out.chunks.push(Chunk {
            iterations: if in_jvm { k } else { 1 },
            seed,
            elapsed: it.elapsed,
            in_jvm,
            mechanism: invocation.repeat.mechanism(),
        });
        Ok(it)
    }

    /// Before an invocation: the log is created at the first, and each
    /// command's reason is written when it starts.
    fn open_log(&mut self, reason: &str) -> Result<()> {
        let Sink::Log { path, header, .. } = &self.site.output else {
            return Ok(());
        };
        if self.log.is_none() {
            let mut log = File::create(path).map_err(|e| Error::io(path, e))?;
            writeln!(log, "{header}").map_err(|e| Error::io(path, e))?;
            self.log = Some(log);
        }
        let log = self.log.as_mut().expect("the log was created");
        if !reason.is_empty() && reason != self.reason {
            writeln!(log, "=== {reason}").map_err(|e| Error::io(path, e))?;
            self.reason = reason.to_string();
        }
        self.log_start = log.metadata().map_or(0, |m| m.len());
        Ok(())
    }
}

impl Engine<'_> {
    /// Takes in an invocation of the front track that ran `k` iterations (in
    /// the JVM, else one Gradle run), then tells its end with what is left,
    /// and what the batch did about it; true when the batch stops.
    fn after(&mut self, it: Iteration, k: u32, in_jvm: bool, reporter: &mut dyn Reporter) -> bool {
        // JVM options its JVMs picked up from a daemon's environment, said once a run.
        if self.site.guard.wants_output() {
            self.site.guard.read_output(&self.output_since_start());
        }
        let track = self.tracks.front().expect("a track ran");
        let pinned = track.command.invocation.seed.clone();
        let reading = evidence::read(&it, &self.command.tests, pinned.as_deref());
        let of = track.command.rest_loops();
        let index = match in_jvm {
            true => 1,
            false => of.saturating_sub(track.remaining) + 1,
        };
        let stop = self.take_in(it, &reading, k, in_jvm);
        let left = match stop {
            true => Some(Duration::ZERO),
            false => self.left(),
        };
        let (Some(iteration), Some(verdict), Some(note)) = (
            self.out.iterations.last(),
            self.out.verdicts.last(),
            self.out.notes.last(),
        ) else {
            unreachable!("the invocation was taken in");
        };
        reporter.event(&Event::Ended {
            iteration,
            reading: &reading,
            verdict,
            note,
            index,
            of,
            left,
        });
        for line in std::mem::take(&mut self.pending) {
            reporter.event(&Event::Note(&line));
        }
        stop
    }

    /// What an invocation of `k` iterations did to the batch: its counts,
    /// the fallback, the switch, the tests it proved; true when the batch
    /// stops.
    fn take_in(&mut self, it: Iteration, reading: &Reading, k: u32, in_jvm: bool) -> bool {
        let verdict = IterationVerdict::of(&it, reading.counts);
        let note = self.note(&it, &verdict);
        self.measure(&it, reading, k);
        let track = self.tracks.front_mut().expect("a track ran");
        let executions = match (self.policy.count_results, in_jvm) {
            (true, _) => track
                .tests
                .iter()
                .map(|&i| reading.tests[i].usable())
                .min()
                .unwrap_or(0)
                .min(u64::from(k)) as u32,
            (false, true) => k,
            (false, false) => 1,
        };
        track.remaining = track.remaining.saturating_sub(executions);
        track.chunks += 1;
        // Iterations that gave no result (no test ran, a timeout) ran nothing.
        if verdict.is_trustworthy() {
            for &i in &track.tests {
                self.out.ran[i] += u64::from(executions);
            }
        }
        for (total, t) in self.out.tallies.iter_mut().zip(&reading.tests) {
            total.add(t);
        }
        let stopped = matches!(it.ended, Ended::TimedOut | Ended::Interrupted);
        let first_in_jvm = in_jvm && track.chunks == 1 && k > 1;
        self.out.verdicts.push(verdict);
        self.out.notes.push(note);
        self.out.iterations.push(it);
        if stopped {
            if process::interrupted() {
                self.out.stop = Some(Stop::Interrupted);
            }
            return true;
        }
        let fell_back = first_in_jvm && self.fall_back(reading);
        if in_jvm && !fell_back {
            self.weigh_last(k, reading);
        }
        if let Some(why) = self.without_result(reading).filter(|_| !fell_back) {
            self.say(&why);
            self.out.stop = Some(Stop::NoResult(why));
            return true;
        }
        self.take_proven() || self.take_shown()
    }

    /// The time the batch should still take: each track's iterations owed,
    /// in the chunks the engine would cut, at its pace (measured, else the
    /// durations'), within what is left of the budget; `None` when a pace
    /// is unknown.
    fn left(&self) -> Option<Duration> {
        let spent = self.spent();
        let budget_left = self.policy.budget.map(|b| b.saturating_sub(spent));
        let mut total = Duration::ZERO;
        for (i, track) in self.tracks.iter().enumerate() {
            // A track goes at its mean pace; one not started yet at the
            // pace measured so far.
            let pace = match (Pace::of_chunks(&track.measured), self.measured) {
                (Some(mean), _) => mean,
                (None, Some(measured)) if track.pace.per_iteration.is_none() => measured,
                _ => track.pace,
            };
            let sizing = self.sizing(track, budget_left);
            // The next chunk does not fit: the batch stops there.
            if i == 0 && budget::next(&sizing, &track.pace) == Next::OutOfBudget {
                return Some(Duration::ZERO);
            }
            total += budget::time_left(&sizing, &pace)?;
        }
        let deadline = self
            .policy
            .deadline
            .map(|d| d.saturating_duration_since(Instant::now()));
        Some(
            [budget_left, deadline]
                .into_iter()
                .flatten()
                .fold(total, Duration::min),
        )
    }

    /// Weighs the in-JVM chunk of `k` iterations that just ran, when it gave
    /// a result, against fresh runs (see `weigh`).
    fn weigh_last(&mut self, k: u32, reading: &Reading) {
        if !self
            .out
            .verdicts
            .last()
            .is_some_and(IterationVerdict::is_trustworthy)
        {
            return;
        }
        let elapsed = self.out.iterations.last().map(|it| it.elapsed);
        let chunk = ChunkCost {
            iterations: k,
            elapsed: elapsed.unwrap_or_default(),
            tail: switch::tail(&reading.positions),
        };
        self.weigh(chunk, reading);
    }

    /// The pace of the front track, from what this chunk took (tests too
    /// fast to be timed take no time).
    fn measure(&mut self, it: &Iteration, reading: &Reading, k: u32) {
        if reading.counts.is_some_and(|c| c.executed > 0) {
            let track = self.tracks.front_mut().expect("a track ran");
            track.pace = Pace::measured(k, it.elapsed, reading.test_time);
            track.measured.push((k, it.elapsed, reading.test_time));
            self.measured = Pace::of_chunks(&track.measured);
            // Test JVMs side by side hide part of the start in the tests' time.
            let chunk = track.command.invocation.with_iterations(k, None);
            let one_jvm = track.command.in_jvm().is_none() || chunk.jvms() == 1;
            if one_jvm {
                self.start = track.pace.overhead;
            }
        }
    }

    /// What the verdict means here: why no test ran, from the facts.
    fn note(&self, it: &Iteration, verdict: &IterationVerdict) -> String {
        match verdict {
            IterationVerdict::NoTests => {
                let output = String::from_utf8_lossy(&self.output_since_start()).into_owned();
                let tasks = self.tracks.front().map(|t| t.command.task_paths());
                let tasks = tasks.unwrap_or_default();
                let log = super::cause::LogFacts::read(&output, &tasks);
                super::cause::cause(&super::cause::Facts {
                    ended: &it.ended,
                    log: &log,
                    tasks: &log.tasks,
                })
                .describe()
            }
            IterationVerdict::TimedOut => {
                format!("{}; its processes were stopped", verdict.describe())
            }
            v => v.describe(),
        }
    }

    /// What the log got since the current invocation started (at most 64 MiB).
    fn output_since_start(&self) -> Vec<u8> {
        use std::io::{Read, Seek, SeekFrom};
        let Sink::Log { path, .. } = &self.site.output else {
            return Vec::new();
        };
        let mut output = Vec::new();
        if let Ok(mut f) = File::open(path) {
            let _ = f.seek(SeekFrom::Start(self.log_start));
            let _ = f.take(64 << 20).read_to_end(&mut output);
        }
        output
    }

    fn say(&mut self, line: &str) {
        // Told after the invocation's end (`after`).
        self.pending.push(line.to_string());
        self.out.lines.push(line.to_string());
    }

    /// The one fallback rule, after the front track's first in-JVM chunk:
    /// the tests of classes that ran to completion but did not repeat (and a
    /// parameterized name the runner's iterations renamed out of its filter)
    /// go on as Gradle runs, for what they still owe.
    fn fall_back(&mut self, reading: &Reading) -> bool {
        let track = self.tracks.front().expect("a track ran");
        let Some(fallback) = track.command.fallback.clone() else {
            return false;
        };
        let mechanism = track.command.in_jvm();
        let (ignored, renamed) =
            did_not_repeat(&self.command.tests, &track.tests, reading, mechanism);
        if ignored.is_empty() && renamed.is_empty() {
            return false;
        }
        let reason = match renamed.is_empty() {
            true => fallback.repetition_reason.clone(),
            false => "no test ran with -Dtests.iters: iterations rename a parameterized test \
                      (its name gains the seed), and the filter on its name matched nothing"
                .to_string(),
        };
        let leaving: Vec<usize> = ignored.iter().chain(&renamed).copied().collect();
        self.narrow_front(&leaving);
        for group in [ignored, renamed] {
            let Some(&first) = group.first() else {
                continue;
            };
            // The runs its tests still owe: the planned count, less the one
            // execution each had (none, where iterations renamed it).
            let ran = self.out.tallies[first].ran().min(1) as u32;
            let runs = self.planned.saturating_sub(ran);
            let mut command = self.narrowed(&fallback, &group);
            command.invocation = command.invocation.with_runs(runs);
            command.repetition_reason = reason.clone();
            let line = match self.policy.chunked() {
                true => format!("{reason}; the rest run as Gradle runs"),
                false => format!("{reason}; {}", more_gradle_runs(runs)),
            };
            self.say(&line);
            for &i in &group {
                self.out.ran[i] = self.out.tallies[i].ran().min(1);
                self.out.repeated_by[i] = None;
            }
            self.tracks
                .push_back(Track::new(command, group, runs, Pace::default()));
        }
        true
    }

    /// After an in-JVM chunk of the front track: when its iterations cost
    /// more than fresh runs would have (`plan::switch`), `auto` runs what
    /// is still owed as Gradle runs and `in-jvm` says so, once. The last
    /// chunk is weighed too, for the next run's plan (`Outcome::weighed`).
    fn weigh(&mut self, chunk: ChunkCost, reading: &Reading) {
        let track = self.tracks.front().expect("a track ran");
        let on = match (self.policy.on_dearer, &track.command.fallback) {
            (OnDearer::Switch, None) | (OnDearer::Ignore, _) => return,
            (on, _) => on,
        };
        let said = track.tests.iter().all(|&i| self.out.costlier[i].is_some());
        if track.command.in_jvm().is_none() || said {
            return;
        }
        let recorded = self.policy.per_iteration;
        let Some(fresh) = FreshRun::estimate(self.start, reading.first_time, recorded) else {
            return;
        };
        let dearer = switch::dearer(chunk, fresh);
        if chunk.iterations >= 2 {
            for &i in &track.tests {
                self.out.weighed[i] = true;
            }
        }
        let Some(dearer) = dearer else {
            return;
        };
        let classes: IndexSet<&str> = track
            .tests
            .iter()
            .map(|&i| {
                self.command.tests[i]
                    .class
                    .as_deref()
                    .unwrap_or("the batch")
            })
            .collect();
        let classes: Vec<&str> = classes.into_iter().collect();
        let owed = track.remaining > 0;
        let line = dearer.describe(&classes.join(", "), on, owed);
        self.say(&line);
        let track = self.tracks.front().expect("a track ran");
        let switched = on == OnDearer::Switch && owed;
        for &i in &track.tests {
            self.out.costlier[i] = Some(Costlier {
                dearer,
                switched,
                line: line.clone(),
            });
        }
        if switched {
            self.switch_to_gradle_runs(line, fresh);
        }
    }

    /// The front in-JVM track goes on as Gradle runs for what it still owes
    /// (its command's Gradle-run fallback, for its tests).
    fn switch_to_gradle_runs(&mut self, reason: String, fresh: FreshRun) {
        let track = self.tracks.pop_front().expect("a track ran");
        let fallback = track
            .command
            .fallback
            .as_deref()
            .expect("an in-JVM fallback");
        let mut command = self.narrowed(fallback, &track.tests);
        command.invocation = command.invocation.with_runs(track.remaining);
        command.repetition_reason = reason;
        let pace = Pace {
            per_iteration: Some(fresh.first_iteration),
            overhead: Some(fresh.start),
        };
        let track = Track::new(command, track.tests, track.remaining, pace);
        self.tracks.push_front(track);
    }

    /// The batch's `command` for only `tests` (indices), planned again; the
    /// command itself when they are all of its tests or it cannot be.
    fn narrowed(&self, command: &GradleCommand, tests: &[usize]) -> GradleCommand {
        let all: Vec<usize> = (0..self.command.tests.len()).collect();
        let Some(replan) = self.replan.filter(|_| tests != all) else {
            return command.clone();
        };
        let tests: Vec<ClassifiedTest> = tests
            .iter()
            .map(|&i| self.command.tests[i].clone())
            .collect();
        crate::plan::narrowed(command, &tests, replan.batching, replan.ctx)
    }

    /// Takes `leaving` out of the front track (narrowing its command).
    fn narrow_front(&mut self, leaving: &[usize]) {
        let front = self.tracks.pop_front();
        if let Some(track) = front.and_then(|t| self.without(t, leaving)) {
            self.tracks.push_front(track);
        }
    }

    /// `track` without the tests `leaving`; `None` when none is left.
    fn without(&self, mut track: Track, leaving: &[usize]) -> Option<Track> {
        let kept: Vec<usize> = track
            .tests
            .iter()
            .copied()
            .filter(|i| !leaving.contains(i))
            .collect();
        if kept.is_empty() {
            return None;
        }
        if kept.len() < track.tests.len() {
            track.command = self.narrowed(&track.command, &kept);
            track.tests = kept;
        }
        Some(track)
    }

    /// Why the invocation gave no result for the batch's tests, when the
    /// policy ends the batch then.
    fn without_result(&self, reading: &Reading) -> Option<String> {
        if !self.policy.stop_without_result {
            return None;
        }
        if reading.tests.iter().any(|t| t.usable() > 0) {
            return None;
        }
        let (verdict, it) = (self.out.verdicts.last()?, self.out.iterations.last()?);
        let t = reading.tests.iter().find(|t| t.ran() > 0);
        Some(evidence::why_no_result(
            t.unwrap_or(&EvidenceTally::default()),
            reading.others,
            verdict,
            &it.ended,
        ))
    }

    /// Takes the tests the chunks so far prove flaky out of the batch (those
    /// stop on proof is on for); true when none is left.
    fn take_proven(&mut self) -> bool {
        let mut leaving = Vec::new();
        for i in 0..self.command.tests.len() {
            let proven = self.out.tallies[i].proves_flaky(self.policy.need_pass);
            if !self.active[i] || !proven || !self.stops_on_proof(i) {
                continue;
            }
            self.active[i] = false;
            leaving.push(i);
            // An open-ended batch planned no count to save iterations of.
            let planned = match self.policy.open_ended {
                true => self.out.ran[i],
                false => u64::from(self.planned),
            };
            let p = Proven {
                test: self.command.tests[i].clone(),
                after: self.out.ran[i],
                saved: planned.saturating_sub(self.out.ran[i]),
            };
            // Proven by its last chunk: it ran its whole count, nothing stopped.
            if p.saved == 0 {
                continue;
            }
            let line = format!(
                "{} proven flaky after {} iteration(s): its other {} are saved (stop on proof)",
                crate::plan::test_name(&p.test),
                p.after,
                p.saved
            );
            self.say(&line);
            self.out.proven.push(p);
        }
        self.leave(&leaving, Stop::AllProven)
    }

    /// Takes the tests `leaving` out of the batch's tracks; true (and the
    /// run stops with `stop`) when no test is left.
    fn leave(&mut self, leaving: &[usize], stop: Stop) -> bool {
        if leaving.is_empty() {
            return false;
        }
        let ends = self
            .active
            .iter()
            .enumerate()
            .all(|(i, a)| !a || leaving.contains(&i));
        if ends {
            self.out.saved = self.left().unwrap_or_default();
        }
        let tracks = std::mem::take(&mut self.tracks);
        self.tracks = tracks
            .into_iter()
            .filter_map(|t| self.without(t, leaving))
            .collect();
        if self.active.iter().any(|a| *a) {
            return false;
        }
        self.out.stop = Some(stop);
        true
    }
}

impl Engine<'_> {
    /// Takes out of the batch the tests a comparison shows fixed at a look
    /// (`Policy::show_fix`): a look is due once a test's runs reach the
    /// next point of its schedule; the last point is the comparison's own,
    /// after the run. True when no test is left.
    fn take_shown(&mut self) -> bool {
        let planned = u64::from(self.planned);
        let mut leaving = Vec::new();
        for i in 0..self.command.tests.len() {
            let rule = self.policy.show_fix.get(i).and_then(Option::as_ref);
            let Some(rule) = rule.filter(|_| self.active[i]) else {
                continue;
            };
            let look = rule.look_at(self.out.ran[i], planned);
            if look <= self.out.looked[i] || look >= rule.looks {
                continue;
            }
            let threshold = rule.threshold(self.out.looked[i], look);
            self.out.looked[i] = look;
            if !rule.shown(&self.out.tallies[i].methods, threshold) {
                continue;
            }
            self.active[i] = false;
            leaving.push(i);
            let shown = Shown {
                index: i,
                after: self.out.ran[i],
                saved: planned.saturating_sub(self.out.ran[i]),
                look,
                threshold,
            };
            let line = format!(
                "{} shown fixed at look {look} of {} (after {} iteration(s), p < {threshold:.4}): \
                 its other {} are saved",
                crate::plan::test_name(&self.command.tests[i]),
                rule.looks,
                shown.after,
                shown.saved
            );
            self.say(&line);
            self.out.shown.push(shown);
        }
        self.leave(&leaving, Stop::AllShown)
    }
}

/// The tests (of `tests`, indices into `all`) whose class ran to completion
/// in the first in-JVM chunk but ran each of its tests at most once; and
/// those a parameterized name the randomized runner's iterations rename
/// (`test {yaml=…}` gains its seed) left without one execution.
fn did_not_repeat(
    all: &[ClassifiedTest],
    tests: &[usize],
    reading: &Reading,
    mechanism: Option<InJvm>,
) -> (Vec<usize>, Vec<usize>) {
    let ignored_class = |t: &ClassifiedTest| {
        let Some(selected) = t.class.as_deref() else {
            return false;
        };
        reading.classes.iter().any(|(class, run)| {
            !run.cut
                && run.most <= 1
                && test_filter::covers(selected, None, t.nested_classes, class, "")
        })
    };
    let renamed = |i: usize| {
        let t = &all[i];
        mechanism == Some(InJvm::TestsIters)
            && reading.tests[i].ran() == 0
            && t.method.as_deref().map(test_filter::shape) == Some(Shape::Descriptor)
    };
    let mut ignored = Vec::new();
    let mut unnamed = Vec::new();
    for &i in tests {
        if renamed(i) {
            unnamed.push(i);
        } else if reading.tests[i].ran() > 0 && ignored_class(&all[i]) {
            ignored.push(i);
        }
    }
    (ignored, unnamed)
}

fn more_gradle_runs(n: u32) -> String {
    match n {
        1 => "1 more Gradle run".into(),
        n => format!("{n} more Gradle runs"),
    }
}

#[cfg(test)]
mod tests {
    //! The engine over a stand-in for Gradle (`run::stand_in`). Real Gradle
    //! runs the same rules in tests/integration; here only the engine's
    //! decisions are under test.
    use super::*;
    use crate::domain::testing::unit;
    use crate::plan::{self, GradleVersion};
    use std::cell::RefCell;
    use std::path::PathBuf;

    struct TestBuild {
        root: tempfile::TempDir,
        runs: tempfile::TempDir,
        guard: RunGuard,
        ctx: PlanContext,
        batching: BatchingConfig,
    }

    impl TestBuild {
        fn new(iterations: u32) -> TestBuild {
            let root = tempfile::tempdir().unwrap();
            let runs = tempfile::tempdir().unwrap();
            let script = crate::run::stand_in::write(runs.path());
            let guard = RunGuard::start(false, 2, runs.path()).unwrap();
            let ctx = PlanContext {
                gradle: crate::run::stand_in::program(&script),
                gradle_version: GradleVersion::parse("8.10"),
                extra_args: vec![],
                tasks: Default::default(),
                start_on_gradle_runs: Default::default(),
                fresh_jvm_each: Default::default(),
                commit: None,
            };
            let batching = BatchingConfig {
                unit_iters: iterations,
                ..BatchingConfig::default()
            };
            TestBuild {
                root,
                runs,
                guard,
                ctx,
                batching,
            }
        }

        fn mark(&self, what: &str, class: &str) {
            self.mark_with(what, class, "");
        }

        /// A marker holding `content` (for `grows`: its step in ms).
        fn mark_with(&self, what: &str, class: &str, content: &str) {
            std::fs::write(self.root.path().join(format!("{what}-{class}")), content).unwrap();
        }

        /// One batch of `classes` (the `:server:test` unit tests), as planned.
        fn command(&self, classes: &[&str]) -> GradleCommand {
            let tests: Vec<_> = classes.iter().map(|c| unit(c)).collect();
            let commands = plan::commands(&tests, &self.batching, &self.ctx);
            assert_eq!(commands.len(), 1);
            commands.into_iter().next().unwrap()
        }

        fn run(&self, command: &GradleCommand, policy: &Policy) -> (Outcome, SeenEvents) {
            let dest = self.runs.path().join("batch-1");
            let site = Site {
                guard: &self.guard,
                project_dir: self.root.path(),
                dest: &dest,
                outcomes: None,
                output: Sink::Log {
                    path: self.runs.path().join("batch-1.log"),
                    header: "=== batch 1".into(),
                    tee: false,
                },
            };
            let replan = Replan {
                batching: &self.batching,
                ctx: &self.ctx,
            };
            let mut seen = SeenEvents::default();
            let out = run(command, Some(replan), policy, &site, &mut seen);
            assert!(out.error.is_none(), "{:?}", out.error);
            (out, seen)
        }
    }

    /// What the reporter was told: each command's argv, each chunk, the
    /// lines, the time left after each invocation.
    #[derive(Default)]
    struct SeenEvents {
        commands: RefCell<Vec<Vec<String>>>,
        chunks: Vec<(Option<u32>, Option<String>)>,
        lines: Vec<String>,
        left: Vec<Option<Duration>>,
    }

    impl Reporter for SeenEvents {
        fn event(&mut self, event: &Event<'_>) {
            match event {
                Event::Command(_, argv) => self.commands.borrow_mut().push(argv.to_vec()),
                Event::Chunk(_, k, seed) => self.chunks.push((*k, seed.map(String::from))),
                Event::Note(line) => self.lines.push(line.to_string()),
                Event::Ended { left, .. } => self.left.push(*left),
                _ => {}
            }
        }
    }

    /// Executions of `class`'s test in every report the batch kept.
    fn executions(out: &Outcome, class: &str) -> usize {
        let name = PathBuf::from(format!("p/build/test-results/test/TEST-{class}.xml"));
        out.iterations
            .iter()
            .filter(|it| it.reports.contains(&name))
            .map(|it| {
                let xml = std::fs::read_to_string(it.dir.join(&name)).unwrap();
                xml.matches("<testcase").count()
            })
            .sum()
    }

    fn policy(tests: usize) -> Policy {
        Policy::plain(tests, Some(Duration::from_secs(60)))
    }

    #[test]
    fn an_in_jvm_batch_without_a_budget_is_one_invocation_of_its_whole_count() {
        let b = TestBuild::new(5);
        let c = b.command(&["a.ATests", "a.BTests"]);
        let (out, seen) = b.run(&c, &policy(2));
        assert_eq!(out.iterations.len(), 1);
        assert_eq!(
            (executions(&out, "a.ATests"), executions(&out, "a.BTests")),
            (5, 5)
        );
        assert_eq!(out.ran, [5, 5]);
        assert_eq!(out.stop, None);
        assert!(seen.chunks.is_empty(), "not chunked");
        assert_eq!(
            seen.commands.borrow()[0],
            c.argv(),
            "the planned command, no seed"
        );
        assert!(out.iterations[0]
            .dir
            .ends_with("batch-1/flakiness-iters/iter-1"));
    }

    /// The one fallback rule decides per class: the class whose runner
    /// ignored the count goes on alone as Gradle runs for what it owes; the
    /// class that repeated is never run again.
    #[test]
    fn a_class_that_did_not_repeat_goes_on_alone_as_gradle_runs() {
        let b = TestBuild::new(5);
        b.mark("ignores", "a.BTests");
        let c = b.command(&["a.ATests", "a.BTests"]);
        let (out, seen) = b.run(&c, &policy(2));
        assert_eq!(out.iterations.len(), 1 + 4);
        assert_eq!(
            (executions(&out, "a.ATests"), executions(&out, "a.BTests")),
            (5, 5)
        );
        assert_eq!(out.repeated_by, [Some(InJvm::TestsIters), None]);
        assert_eq!(out.ran, [5, 5]);
        assert!(
            seen.lines[0].ends_with("-Dtests.iters was ignored; 4 more Gradle runs"),
            "{:?}",
            seen.lines
        );
        // The time left, from the pace measured: known once a run was
        // measured, nothing at the end.
        assert_eq!(seen.left.len(), 5, "{:?}", seen.left);
        assert!(seen.left.iter().all(Option::is_some), "{:?}", seen.left);
        assert_eq!(seen.left.last(), Some(&Some(Duration::ZERO)));
        let fallback = &seen.commands.borrow()[1];
        assert!(fallback.contains(&"a.BTests".to_string()), "{fallback:?}");
        assert!(!fallback.contains(&"a.ATests".to_string()), "{fallback:?}");
        assert!(!fallback.iter().any(|a| a.starts_with("-Dtests.iters")));
    }

    /// A class a suite timeout cut ran its test once, which says nothing of
    /// the repetition: no Gradle runs follow, and no test runs more often
    /// than planned.
    #[test]
    fn a_class_a_suite_timeout_cut_is_no_evidence_of_an_ignored_count() {
        let b = TestBuild::new(5);
        b.mark("timeout", "a.BTests");
        let c = b.command(&["a.ATests", "a.BTests"]);
        let (out, seen) = b.run(&c, &policy(2));
        assert_eq!(out.iterations.len(), 1, "{:?}", seen.lines);
        assert_eq!(executions(&out, "a.ATests"), 5);
        assert_eq!(out.repeated_by, [Some(InJvm::TestsIters); 2]);
    }

    /// Stop on proof: chunks grow from a tenth, each with a seed of its own;
    /// the test proven flaky leaves the batch, the other gets its full count.
    #[test]
    fn a_proven_test_leaves_the_batch_and_the_rest_gets_its_full_count() {
        let b = TestBuild::new(100);
        b.mark("fails", "a.FlakyTests");
        let c = b.command(&["a.FlakyTests", "a.StableTests"]);
        let p = Policy {
            stop_on_proof: vec![true, true],
            on_dearer: OnDearer::Switch,
            ..policy(2)
        };
        let (out, seen) = b.run(&c, &p);
        let sizes: Vec<Option<u32>> = seen.chunks.iter().map(|(k, _)| *k).collect();
        assert_eq!(sizes, [Some(10), Some(20), Some(40), Some(30)]);
        assert_eq!(out.costlier, [None, None], "cheap in the JVM: no switch");
        let seeds: std::collections::BTreeSet<_> = seen
            .chunks
            .iter()
            .map(|(_, s)| s.clone().unwrap())
            .collect();
        assert_eq!(seeds.len(), 4, "a fresh seed per chunk");
        assert_eq!(out.ran, [10, 100]);
        assert_eq!(executions(&out, "a.FlakyTests"), 10);
        assert_eq!(executions(&out, "a.StableTests"), 100);
        assert_eq!(
            (out.proven.len(), out.proven[0].after, out.proven[0].saved),
            (1, 10, 90)
        );
        assert_eq!(out.stop, None);
        assert_eq!(
            plan::policy::schedule(&p, &c),
            Some(vec![10, 20, 40, 30]),
            "as planned"
        );
    }

    /// `iterations` of a class whose executions grow slower in one JVM, in
    /// chunks (stop on proof: 1, 2, …), `on` deciding what a dearer chunk does.
    /// Each execution sleeps 2 s more than the one before: far above what
    /// the stand-in's start takes on a loaded machine, which is the fresh
    /// run's cost it is weighed against.
    fn growing(iterations: u32, on: OnDearer) -> (TestBuild, Outcome, SeenEvents) {
        let b = TestBuild::new(iterations);
        b.mark_with("grows", "a.GrowingTests", "2000");
        let c = b.command(&["a.GrowingTests"]);
        let p = Policy {
            stop_on_proof: vec![true],
            on_dearer: on,
            ..policy(1)
        };
        let (out, seen) = b.run(&c, &p);
        (b, out, seen)
    }

    /// `auto`: a class whose executions grow slower in one JVM (the stand-in
    /// sleeps 2 s more each time) makes its chunk of two cost more per
    /// iteration than a fresh run (its start, and a first execution of no
    /// time): what it still owes runs as Gradle runs, none more than planned,
    /// and the run says why with its figures.
    #[test]
    fn auto_switches_a_class_dearer_in_the_jvm_to_gradle_runs() {
        let (_b, out, seen) = growing(5, OnDearer::Switch);
        let sizes: Vec<Option<u32>> = seen.chunks.iter().map(|(k, _)| *k).collect();
        assert_eq!(sizes, [Some(1), Some(2), None, None], "{:?}", seen.lines);
        assert_eq!(out.ran, [5]);
        assert_eq!(executions(&out, "a.GrowingTests"), 5);
        let costlier = out.costlier[0].as_ref().expect("dearer in the JVM");
        assert!(costlier.switched);
        assert!(costlier.dearer.per_iteration > costlier.dearer.fresh_run);
        assert!(
            seen.lines[0].starts_with("in-JVM iterations of a.GrowingTests took ")
                && seen.lines[0].ends_with(": the rest run as Gradle runs"),
            "{:?}",
            seen.lines
        );
        assert_eq!(out.lines, seen.lines);
        assert_eq!(out.repeated_by, [Some(InJvm::TestsIters)], "it did repeat");
        let commands = seen.commands.borrow();
        let runs = commands.last().unwrap();
        assert!(
            !runs.iter().any(|a| a.starts_with("-Dtests.iters")),
            "{runs:?}"
        );
    }

    /// A batch whose last chunk has nothing left to switch is weighed all
    /// the same, for the next run: a class dearer in the JVM is said and
    /// remembered, a cheap one is weighed and found no dearer. (Its first
    /// chunk, of one iteration in one JVM, measures Gradle's start: a chunk
    /// spread over several JVMs cannot tell it.)
    #[test]
    fn a_batch_run_whole_is_weighed_for_the_next_run() {
        let p = |on_dearer| Policy {
            on_dearer,
            ..policy(2)
        };
        let (_b, out, seen) = growing(3, OnDearer::Switch);
        assert_eq!(out.iterations.len(), 2, "{:?}", seen.lines);
        let costlier = out.costlier[0].as_ref().expect("dearer in the JVM");
        assert!(!costlier.switched, "nothing was left to switch");
        assert!(
            seen.lines[0].ends_with(": its next runs on this commit start on Gradle runs"),
            "{:?}",
            seen.lines
        );
        assert_eq!(out.weighed, [true]);
        // Each batch in a build of its own: a batch's folder is its own.
        let b = TestBuild::new(5);
        let c = b.command(&["a.CheapTests", "a.OtherTests"]);
        let (out, _) = b.run(&c, &p(OnDearer::Switch));
        assert_eq!(out.weighed, [true, true]);
        assert_eq!(out.costlier, [None, None]);
        let b = TestBuild::new(5);
        let c = b.command(&["a.CheapTests", "a.OtherTests"]);
        let (out, _) = b.run(&c, &p(OnDearer::Ignore));
        assert_eq!(
            out.weighed,
            [false, false],
            "Gradle runs only: nothing weighed"
        );
    }

    /// An explicit `--repetition in-jvm` is obeyed: the batch stays in the
    /// JVM, and the run says once what it cost.
    #[test]
    fn in_jvm_asked_for_stays_in_the_jvm_and_says_what_it_cost() {
        let (_b, out, seen) = growing(4, OnDearer::Say);
        let sizes: Vec<Option<u32>> = seen.chunks.iter().map(|(k, _)| *k).collect();
        assert_eq!(
            sizes,
            [Some(1), Some(2), Some(1)],
            "{:?} {:?}",
            seen.lines,
            out.chunks
        );
        assert_eq!(out.ran, [4]);
        let costlier = out.costlier[0].as_ref().expect("dearer in the JVM");
        assert!(!costlier.switched);
        assert_eq!(seen.lines.len(), 1, "{:?}", seen.lines);
        assert!(seen.lines[0].ends_with("--repetition in-jvm keeps them in the JVM"));
    }

    /// A budget that cannot hold one chunk stops the batch cleanly, before
    /// anything runs; an open-ended batch ends when every test failed.
    #[test]
    fn a_budget_stops_between_chunks_and_until_fail_ends_at_the_failures() {
        let b = TestBuild::new(100);
        let c = b.command(&["a.StableTests"]);
        let p = Policy {
            budget: Some(Duration::from_secs(60)),
            per_iteration: Some(Duration::from_secs(100)),
            ..policy(1)
        };
        let (out, _) = b.run(&c, &p);
        assert!(out.iterations.is_empty());
        assert_eq!(
            out.stop,
            Some(Stop::Budget {
                budget: Duration::from_secs(60),
                ran: 0,
                planned: 100
            })
        );
        b.mark("fails", "a.FlakyTests");
        let c = b.command(&["a.FlakyTests"]);
        let p = Policy {
            stop_on_proof: vec![true],
            need_pass: false,
            open_ended: true,
            budget: Some(Duration::from_secs(600)),
            per_iteration: Some(Duration::from_secs(1)),
            ..policy(1)
        };
        let (out, _) = b.run(&c, &p);
        assert_eq!(out.stop, Some(Stop::AllProven));
        assert_eq!(out.iterations.len(), 1, "the first chunk had a failure");
    }

    /// A comparison looks halfway: the class that never fails here against
    /// 12 failures in 40 before is shown fixed and leaves; the class that
    /// still fails runs its whole count, and its last look is left to the
    /// comparison.
    #[test]
    fn a_comparison_takes_a_test_shown_fixed_out_at_its_look() {
        use crate::plan::show_fix::{ShowFix, ALPHA};
        use crate::stats::Counts;
        let b = TestBuild::new(40);
        b.mark("fails", "a.StillTests");
        let c = b.command(&["a.FixedTests", "a.StillTests"]);
        let rule = |class: &str| ShowFix {
            before: vec![((class.to_string(), "m".to_string()), Counts::new(12, 40))],
            looks: 2,
            alpha: ALPHA,
        };
        let p = Policy {
            show_fix: vec![Some(rule("a.FixedTests")), Some(rule("a.StillTests"))],
            ..policy(2)
        };
        let (out, seen) = b.run(&c, &p);
        assert_eq!(
            seen.chunks.iter().map(|(k, _)| *k).collect::<Vec<_>>(),
            [Some(20), Some(20)],
            "chunks end at the looks"
        );
        let seeds: Vec<_> = seen.chunks.iter().map(|(_, s)| s.clone()).collect();
        assert!(
            seeds[0].is_some() && seeds[0] != seeds[1],
            "a seed per chunk"
        );
        assert_eq!(out.shown.len(), 1, "{:?}", out.lines);
        let shown = &out.shown[0];
        assert_eq!(
            (shown.index, shown.after, shown.saved, shown.look),
            (0, 20, 20, 1)
        );
        assert!((shown.threshold - 0.005_574_597).abs() < 1e-6);
        assert_eq!(out.ran, [20, 40]);
        assert_eq!(out.looked, [1, 1]);
        assert!(
            out.lines[0].contains("a.FixedTests shown fixed at look 1 of 2"),
            "{:?}",
            out.lines
        );
        assert_eq!(executions(&out, "a.FixedTests"), 20);
        assert_eq!(out.stop, None);
    }
}
