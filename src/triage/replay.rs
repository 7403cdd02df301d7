//! Replaying one failing test: the invocation that pins its seed, run by the
//! repetition engine (its reports kept in a folder of its own), and what the
//! kept reports say of that one test.
//!
//! A seeded replay asks the randomized runner for all its replays in one test
//! JVM (`-Dtests.iters=N -Dtests.seed=MASTER:METHOD`): with the method seed
//! pinned, every iteration runs with that same seed (measured on
//! randomizedtesting 2.7.9: the names are `test {seed=[A:B]}`, then
//! `test {seed=[A:B] #2}` … `#N`), and one Gradle invocation of N iterations
//! costs about what one of a single execution does (on the example build,
//! 10 replays in 6.8 s against 5.2 s for each separate invocation). Where the
//! build does not pass `tests.iters` to its tests, the engine's one fallback
//! rule replays the rest one Gradle invocation each; so it does where the
//! iterations rename a parameterized test out of its filter. A test without
//! a seed is replayed alone, one Gradle invocation per replay: ordinary JUnit
//! and TestNG runners know no iterations. Only executions with the pinned
//! seed count (`run::evidence`).

use super::Env;
use crate::analyze::read::reproduce::{self, Rerun};
use crate::domain::{ClassifiedTest, GradleCommand, InJvm, Origin, TestKind};
use crate::invocation::{Body, Invocation, Members, Repeat};
use crate::plan::policy::Policy;
use crate::process::Ended;
use crate::run::engine::{self, Event, Reporter, Sink, Site, Stop as EngineStop};
use crate::run::evidence::{why_no_result, EvidenceTally};
use crate::run::guard::RunGuard;
use crate::run::progress::Progress;
use crate::time::format_duration;
use crate::Result;
use std::path::Path;
use std::time::{Duration, Instant};

/// What to replay: one test, with one of its failing seeds or alone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replay<'a> {
    /// The Gradle task path that ran it (`:server:test`).
    pub task: &'a str,
    pub class: &'a str,
    /// The normalized method name (no seed or iteration tokens).
    pub method: &'a str,
    /// The seed to pin, `MASTER:METHOD` as the failure reported it; `None`: replay alone.
    pub seed: Option<&'a str>,
    /// How its run ran it when it was a suite member included for the run:
    /// the replay runs it the same way.
    pub members: &'a Members,
}

impl Replay<'_> {
    /// The replay `runs` times: the test alone, selected as its reproduce
    /// line selects it (`analyze::reproduce::once`, the one rule), its task
    /// forced as a planned batch's, its seed pinned, in one test JVM when it
    /// has a seed; the run's own arguments last.
    pub fn invocation(&self, env: &Env<'_>, runs: u32) -> Invocation {
        let rerun = Rerun {
            gradle: env.gradle.to_vec(),
            forcing: env.forcing,
        };
        let mut once = self.once(&rerun);
        if let Body::Tasks(tasks) = &mut once.body {
            tasks.extra_args = env.extra_args.to_vec();
        }
        once.repeat = match self.seed {
            Some(_) => Repeat::InJvm {
                mechanism: InJvm::TestsIters,
                iterations: runs,
                fresh_jvms: Default::default(),
            },
            None => Repeat::GradleRuns(runs),
        };
        once
    }

    /// The test run once, as its reproduce line runs it.
    fn once(&self, rerun: &Rerun) -> Invocation {
        let members = self.members.clone();
        reproduce::once(
            rerun,
            self.task,
            self.class,
            self.method,
            self.seed,
            members,
        )
    }

    /// The replay as a batch of one test, with its Gradle runs to fall back on.
    fn command(&self, env: &Env<'_>, runs: u32) -> GradleCommand {
        let invocation = self.invocation(env, runs);
        let (project, source_set) = self.task.rsplit_once(':').unwrap_or(("", self.task));
        let test = ClassifiedTest {
            project: project.to_string(),
            source_set: source_set.to_string(),
            task: self.task.to_string(),
            kind: TestKind::Unit,
            class: Some(self.class.to_string()),
            method: Some(self.method.to_string()),
            yaml_suite: None,
            origin: Origin::Explicit,
            nested_classes: false,
            is_suite: false,
            via_suite: None,
            mute: None,
        };
        let fallback = match invocation.repeat {
            Repeat::InJvm { .. } => Some(Box::new(GradleCommand {
                repetition_reason: "the first replay in one test JVM ran the test once: \
                                    -Dtests.iters was ignored"
                    .into(),
                tests: vec![test.clone()],
                ..GradleCommand::of(TestKind::Unit, invocation.as_gradle_runs(runs - 1))
            })),
            Repeat::GradleRuns(_) => None,
        };
        GradleCommand {
            tests: vec![test],
            fallback,
            ..GradleCommand::of(TestKind::Unit, invocation)
        }
    }
}

/// The command that replays the job once, as a person would type it (every
/// time it is pasted): the run's Gradle program and arguments, then the
/// test, its task forced, and its seed.
pub fn command(env: &Env<'_>, job: &Replay<'_>) -> String {
    let rerun = Rerun {
        gradle: env.gradle.iter().chain(env.extra_args).cloned().collect(),
        forcing: env.forcing,
    };
    crate::shell::join(&job.once(&rerun).argv())
}

/// Why replays that were planned did not run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReplayStop {
    Budget,
    Time,
    Interrupted,
}

/// Replays of one job.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct JobResult {
    pub replays: u64,
    pub reproduced: u64,
    /// Why it has fewer replays than planned, one line each.
    pub notes: Vec<String>,
    /// The budget, the time limit or Ctrl-C ended it (or kept it from starting).
    pub stopped: Option<ReplayStop>,
    pub elapsed: Duration,
}

/// Runs replay jobs one after another within a budget of replays and a
/// deadline, each in a folder of its own below `dir`.
pub struct Replayer<'a> {
    /// Where and how replays run.
    pub env: &'a Env<'a>,
    pub guard: &'a RunGuard,
    /// Where each job's log and kept reports go.
    pub dir: &'a Path,
    pub progress: &'a Progress,
    /// Replays each job asks for.
    pub replays: u32,
    /// Replays that may still be asked for.
    pub budget_left: u64,
    pub budget: u64,
    pub deadline: Instant,
    pub time_limit: Duration,
    /// Jobs run so far (names their folders and logs).
    pub jobs: usize,
    /// Gradle invocations so far.
    pub invocations: u64,
}

impl Replayer<'_> {
    /// Replays `job` up to `self.replays` times. `label` names it on the progress lines.
    pub fn run(&mut self, job: &Replay<'_>, label: &str) -> Result<JobResult> {
        self.jobs += 1;
        let n = self.jobs;
        let started = Instant::now();
        let mut out = JobResult::default();
        let wanted = u64::from(self.replays);
        if let Some(stop) = self.stop_reason() {
            out.notes.push(self.stop_note(stop, 0, wanted));
            out.stopped = Some(stop);
            return Ok(out);
        }
        let ask = wanted.min(self.budget_left) as u32;
        let log = self.dir.join(format!("job-{n}.log"));
        let site = Site {
            guard: self.guard,
            project_dir: self.env.project_dir,
            dest: &self.dir.join(format!("job-{n}")),
            outcomes: None,
            output: Sink::Log {
                path: log.clone(),
                header: format!("=== gradle-flaky triage: {label}"),
                tee: self.env.verbose,
            },
        };
        let policy = Policy {
            deadline: Some(self.deadline),
            stop_without_result: true,
            count_results: true,
            ..Policy::plain(1, self.env.invocation_timeout)
        };
        let mut shown = ShownReplay {
            progress: self.progress,
            label,
            log: &log,
            wanted,
            replays: 0,
            in_jvm: None,
        };
        let command = job.command(self.env, ask);
        let done = engine::run(&command, None, &policy, &site, &mut shown);
        self.invocations += done.iterations.len() as u64;
        if let Some(e) = done.error {
            return Err(e);
        }
        let tally = done.tallies.first().cloned().unwrap_or_default();
        // The budget counts replays that ran (a build that ignores
        // `tests.iters` runs one execution where it asked for more).
        self.budget_left = self.budget_left.saturating_sub(tally.ran());
        out.replays = tally.usable();
        out.reproduced = tally.failed;
        let stop = match &done.stop {
            Some(EngineStop::NoResult(why)) => {
                out.notes.push(no_result(why, &tally, &log));
                None
            }
            Some(EngineStop::Interrupted) => Some(ReplayStop::Interrupted),
            Some(EngineStop::Deadline) => Some(ReplayStop::Time),
            _ if timed_out_at_deadline(&done.iterations, self.deadline) => Some(ReplayStop::Time),
            _ if out.replays < wanted && self.budget_left == 0 => Some(ReplayStop::Budget),
            _ => None,
        };
        if let Some(stop) = stop {
            out.notes.push(self.stop_note(stop, out.replays, wanted));
            out.stopped = Some(stop);
        }
        out.elapsed = started.elapsed();
        Ok(out)
    }

    /// What keeps the next job from starting.
    fn stop_reason(&self) -> Option<ReplayStop> {
        if crate::process::interrupted() {
            Some(ReplayStop::Interrupted)
        } else if self.budget_left == 0 {
            Some(ReplayStop::Budget)
        } else if Instant::now() >= self.deadline {
            Some(ReplayStop::Time)
        } else {
            None
        }
    }

    /// `2 of 5 replay(s) ran: the replay budget of 100 is spent`.
    pub fn stop_note(&self, stop: ReplayStop, ran: u64, wanted: u64) -> String {
        let why = match stop {
            ReplayStop::Budget => format!("the replay budget of {} is spent", self.budget),
            ReplayStop::Time => format!(
                "the triage time limit of {} was reached",
                format_duration(self.time_limit)
            ),
            ReplayStop::Interrupted => "interrupted".into(),
        };
        format!("{ran} of {wanted} replay(s) ran: {why}")
    }
}

/// The last invocation ran out of time because the triage's did.
fn timed_out_at_deadline(its: &[crate::run::invoke::Iteration], deadline: Instant) -> bool {
    its.last().is_some_and(|it| it.ended == Ended::TimedOut) && Instant::now() >= deadline
}

/// Why a job's replays gave no result, for its notes.
fn no_result(why: &str, tally: &EvidenceTally, log: &Path) -> String {
    match tally.unpinned {
        0 => format!("a replay gave no result: {why}; log: {}", log.display()),
        n => format!(
            "the seed did not reach the test JVM: {n} execution(s) ran with seed {} (does the \
             build pass tests.* system properties to its tests?); log: {}",
            tally.other_seed.as_deref().unwrap_or("?"),
            log.display()
        ),
    }
}

/// The progress lines of one job's replays.
struct ShownReplay<'a> {
    progress: &'a Progress,
    label: &'a str,
    log: &'a Path,
    wanted: u64,
    /// Replays with a result so far.
    replays: u64,
    /// The in-JVM iterations of the current command, if it repeats in the JVM.
    in_jvm: Option<u32>,
}

impl Reporter for ShownReplay<'_> {
    fn event(&mut self, event: &Event<'_>) {
        match event {
            Event::Command(command, _) => {
                self.in_jvm = command.in_jvm().map(|_| command.iterations());
            }
            Event::Started { .. } => {
                let what = match self.in_jvm {
                    Some(k) => format!("{k} replay(s) in one test JVM"),
                    None => format!("replay {} of {}", self.replays + 1, self.wanted),
                };
                self.progress.line(&format!(
                    ">>> triage {}: {what} (log: {})",
                    self.label,
                    self.log.display()
                ));
            }
            Event::Ended {
                iteration,
                reading,
                verdict,
                ..
            } => {
                let t = reading.tests.first().cloned().unwrap_or_default();
                self.replays += t.usable();
                let elapsed = crate::time::human(iteration.elapsed);
                let line = if t.usable() > 0 && t.unpinned == 0 {
                    format!("{} of {} failed again · {elapsed}", t.failed, t.usable())
                } else {
                    let why = why_no_result(&t, reading.others, verdict, &iteration.ended);
                    format!("{why} · {elapsed}")
                };
                self.progress.line(&format!("    {line}"));
            }
            Event::Note(line) => self.progress.line(&format!("    {line}")),
            Event::Chunk(..) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::Forcing;

    fn job<'a>(method: &'a str, seed: Option<&'a str>, members: &'a Members) -> Replay<'a> {
        Replay {
            task: ":server:test",
            class: "org.example.FooTests",
            method,
            seed,
            members,
        }
    }

    fn strings(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    fn env<'a>(gradle: &'a [String], forcing: Forcing, extra: &'a [String]) -> Env<'a> {
        Env {
            project_dir: Path::new("."),
            gradle,
            forcing,
            extra_args: extra,
            base: Path::new("."),
            invocation_timeout: None,
            verbose: false,
        }
    }

    #[test]
    fn a_seeded_replay_pins_the_seed_and_asks_for_its_iterations() {
        let gradle = strings(&["gradle", "--offline"]);
        let none = Members::default();
        let env_clean = env(&gradle, Forcing::CleanTask, &[]);
        assert_eq!(
            job("testX", Some("A:B"), &none)
                .invocation(&env_clean, 5)
                .argv(),
            strings(&[
                "gradle",
                "--offline",
                "-Dtests.iters=5",
                ":server:cleanTest",
                ":server:test",
                "--tests",
                "org.example.FooTests.testX",
                "-Dtests.seed=A:B"
            ])
        );
        let extra = strings(&["-Dx=1"]);
        let env_rerun = env(&gradle[..1], Forcing::Rerun, &extra);
        let yaml = job("test {yaml=a/b/c d}", Some("A:B"), &none);
        let command = yaml.command(&env_rerun, 3);
        let fallback = command
            .fallback
            .as_deref()
            .expect("Gradle runs to fall back on");
        assert_eq!(
            fallback.argv(),
            strings(&[
                "gradle",
                ":server:test",
                "--tests",
                "org.example.FooTests",
                "--rerun",
                "-Dtests.method=test {yaml=a/b/c d}",
                "-Dtests.seed=A:B",
                "-Dx=1"
            ]),
            "each Gradle run of the fallback pins the seed too; a descriptor is \
             selected as its reproduce line selects it"
        );
        assert_eq!(
            fallback.rest_loops(),
            2,
            "the runs still owed after the first"
        );
        assert_eq!(
            super::command(&env_clean, &yaml),
            "gradle --offline :server:cleanTest :server:test --tests org.example.FooTests \
             '-Dtests.method=test {yaml=a/b/c d}' -Dtests.seed=A:B"
        );
    }

    /// A suite member included for the run is replayed the same way: through
    /// the task's includes, not through its suite (which on Gradle 4.7+ would
    /// run nothing).
    #[test]
    fn a_suite_member_is_replayed_with_the_members_of_its_run() {
        let members = Members {
            include: strings(&["org.example.FooTests"]),
            exclude: strings(&["org.example.AllTests"]),
        };
        let gradle = strings(&["gradle"]);
        let replay =
            job("testX", None, &members).invocation(&env(&gradle, Forcing::CleanTask, &[]), 2);
        assert_eq!(replay.repeat, Repeat::GradleRuns(2), "no seed: Gradle runs");
        assert_eq!(
            replay.argv(),
            strings(&[
                "gradle",
                ":server:cleanTest",
                ":server:test",
                "--tests",
                "org.example.FooTests.testX",
                "-Dflaky.include.:server:test=org.example.FooTests",
                "-Dflaky.exclude.:server:test=org.example.AllTests"
            ])
        );
    }

    #[test]
    fn a_test_without_a_seed_is_replayed_alone_by_its_exact_name() {
        let gradle = strings(&["./gradlew"]);
        let none = Members::default();
        let replay = job("parses[2: flaky]", None, &none);
        let command = replay.command(&env(&gradle, Forcing::CleanTask, &[]), 3);
        assert!(command.fallback.is_none());
        assert_eq!(
            command.argv(),
            strings(&[
                "./gradlew",
                ":server:cleanTest",
                ":server:test",
                "--tests",
                "org.example.FooTests.parses[2: flaky]"
            ])
        );
    }
}
