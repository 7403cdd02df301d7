//! A batch run in chunks: before each chunk its size is checked against what
//! is left of the budget (`plan::budget`), each chunk gets a fresh master
//! seed (`plan::chunk`), and after each one the tests proven flaky leave the
//! batch when stop on proof is on for them. A batch stopped by its budget
//! ends cleanly between chunks: it is never a timeout, and it records what
//! ran so that the report claims no more than that.

use super::repeat::Iteration;
use crate::domain::{ClassifiedTest, GradleCommand, Repetition};
use crate::plan::budget::{self, Next, Pace, Sizing};
use crate::plan::chunk::{self, Seeds};
use crate::{Error, Result};
use std::time::{Duration, Instant};

/// What the runner asks of whoever knows durations and reads reports.
pub trait Chunking {
    /// The time budget of the batch; `None`: none.
    fn budget(&self, command: &GradleCommand) -> Option<Duration>;
    /// Whether stop on proof is on for this test.
    fn stops_on_proof(&self, test: &ClassifiedTest) -> bool;
    /// Expected test time of one iteration of the command.
    fn per_iteration(&self, command: &GradleCommand) -> Option<Duration>;
    /// Test time recorded in an invocation's reports.
    fn test_time(&self, it: &Iteration) -> Duration;
    /// Which of `tests` the invocations so far prove flaky.
    fn proven(&self, tests: &[ClassifiedTest], done: &[Iteration]) -> Vec<bool>;
    /// `command` running only `tests` (a subset of its tests).
    fn narrowed(&self, command: &GradleCommand, tests: &[ClassifiedTest]) -> GradleCommand;
    /// Whether an in-JVM invocation ignored `-Dtests.iters`.
    fn ignored_iters(&self, command: &GradleCommand, done: &[Iteration]) -> bool;
    /// The batch repeats until its tests fail or its budget is spent
    /// (`--until-fail`): running out of time is how it ends.
    fn open_ended(&self) -> bool {
        false
    }
    /// Whether the command runs in chunks at all.
    fn applies(&self, command: &GradleCommand) -> bool {
        self.budget(command).is_some() || command.tests.iter().any(|t| self.stops_on_proof(t))
    }
}

/// One chunk as it ran.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chunk {
    /// Iterations it ran (1 for a Gradle run).
    pub iterations: u32,
    /// Its master seed, when it set one (randomized-runner chunks).
    pub seed: Option<String>,
    pub elapsed: Duration,
    /// It repeated its tests in one test JVM (not a Gradle run after a
    /// fallback, nor a Gradle-run batch's).
    pub in_jvm: bool,
}

/// Why a chunked batch ended before its planned iterations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The next chunk did not fit what was left of the budget.
    Budget {
        budget: Duration,
        ran: u32,
        planned: u32,
    },
    /// Every test of the batch was proven flaky.
    AllProven,
    /// An open-ended batch (`--until-fail --for`) used its time: not a
    /// shortfall, its count was never fixed.
    TimeUp { ran: u32 },
}

/// A test that stop on proof took out of its batch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Proven {
    pub test: ClassifiedTest,
    /// Iterations it had run when it was proven flaky.
    pub after: u64,
    /// Iterations it was planned but did not run.
    pub saved: u64,
}

/// What a chunked batch did.
#[derive(Debug, Default)]
pub struct Chunked {
    pub iterations: Vec<Iteration>,
    pub chunks: Vec<Chunk>,
    pub stop: Option<Stop>,
    pub proven: Vec<Proven>,
    /// Iterations each of the command's tests ran, in its order.
    pub ran: Vec<u64>,
    /// How the batch went on besides its chunks (for the log and progress).
    pub notes: Vec<String>,
    /// The runner broke off (Gradle not found, a file not writable).
    pub error: Option<Error>,
}

/// Runs `command` in chunks; `invoke` runs one chunk's command (its argv run
/// once, its reports kept below chunk number `n`).
pub fn run(
    command: &GradleCommand,
    chunking: &dyn Chunking,
    invoke: &mut dyn FnMut(&GradleCommand, usize) -> Result<Vec<Iteration>>,
    say: &dyn Fn(&str),
) -> Chunked {
    let planned = crate::plan::executions(command).min(u64::from(u32::MAX)) as u32;
    let budget = chunking.budget(command);
    let stop_on_proof = command.tests.iter().any(|t| chunking.stops_on_proof(t));
    let started = Instant::now();
    let mut out = Chunked {
        ran: vec![0; command.tests.len()],
        ..Chunked::default()
    };
    let mut current = command.clone();
    let mut active: Vec<bool> = vec![true; command.tests.len()];
    let mut pace = Pace {
        per_iteration: chunking.per_iteration(command),
        overhead: None,
    };
    let mut seeds = Seeds::default();
    let mut remaining = planned;
    let mut done_runs: u32 = 0;
    loop {
        if crate::process::interrupted() {
            break;
        }
        let in_jvm = current.repetition == Repetition::InJvm;
        let sizing = Sizing {
            remaining,
            planned,
            in_jvm,
            chunks_done: out.chunks.len() as u32,
            stop_on_proof,
            left: budget.map(|b| b.saturating_sub(spent(started, &out.chunks))),
        };
        let k = match budget::next(&sizing, &pace) {
            Next::Run(k) => k,
            Next::Done => break,
            Next::OutOfBudget if chunking.open_ended() => {
                out.stop = Some(Stop::TimeUp { ran: done_runs });
                break;
            }
            Next::OutOfBudget => {
                out.stop = Some(Stop::Budget {
                    budget: budget.unwrap_or_default(),
                    ran: done_runs,
                    planned,
                });
                break;
            }
        };
        // A mechanism whose count the argv does not carry runs whole.
        let resizable = in_jvm && chunk::resizable(&current.argv);
        let k = if in_jvm && !resizable { remaining } else { k };
        let seed = (resizable && chunk::seeded(&current.argv)).then(|| seeds.fresh());
        let this = GradleCommand {
            argv: match resizable {
                true => chunk::argv(&current.argv, k, seed.as_deref()),
                false => current.argv.clone(),
            },
            iterations: if in_jvm { k } else { 1 },
            rest_loops: 1,
            ..current.clone()
        };
        let n = out.chunks.len() + 1;
        let mut its = match invoke(&this, n) {
            Ok(done) => done,
            Err(e) => {
                out.error = Some(e);
                break;
            }
        };
        for it in &mut its {
            it.index = n as u32;
        }
        let elapsed: Duration = its.iter().map(|it| it.elapsed).sum();
        let tests_time: Duration = its.iter().map(|it| chunking.test_time(it)).sum();
        if !tests_time.is_zero() {
            pace = Pace::measured(k, elapsed, tests_time);
        }
        let ended_badly = its.iter().any(|it| {
            matches!(
                it.ended,
                crate::process::Ended::TimedOut | crate::process::Ended::Interrupted
            )
        });
        out.chunks.push(Chunk {
            iterations: this.iterations,
            seed,
            elapsed,
            in_jvm,
        });
        // The first in-JVM chunk may show that the runner ignores
        // -Dtests.iters: then it ran each test once, and Gradle runs follow.
        let ignored = in_jvm
            && n == 1
            && k > 1
            && current.fallback.is_some()
            && chunking.ignored_iters(&this, &its);
        let executions = if ignored { 1 } else { k };
        for (ran, _) in out.ran.iter_mut().zip(&active).filter(|(_, a)| **a) {
            *ran += u64::from(executions);
        }
        done_runs += executions;
        remaining = remaining.saturating_sub(executions);
        out.iterations.extend(its);
        if let Some(fallback) = ignored.then(|| current.fallback.take()).flatten() {
            let note = format!(
                "{}; the rest run as Gradle runs",
                fallback.repetition_reason
            );
            say(&format!("    {note}"));
            out.notes.push(note);
            current = chunking.narrowed(&fallback, &kept(command, &active));
            current.rest_loops = 1;
            pace = Pace::default();
        }
        if ended_badly {
            break;
        }
        if stop_on_proof && take_proven(command, chunking, &mut active, &mut out, planned, say) {
            let left = kept(command, &active);
            if left.is_empty() {
                out.stop = Some(Stop::AllProven);
                break;
            }
            current = chunking.narrowed(&current, &left);
        }
    }
    out
}

/// The time a batch spent: its chunks', or more when reading their reports
/// took time too.
fn spent(started: Instant, chunks: &[Chunk]) -> Duration {
    started
        .elapsed()
        .max(chunks.iter().map(|c| c.elapsed).sum())
}

/// Marks the tests the chunks so far prove flaky (those stop on proof is on
/// for); true when one left the batch.
fn take_proven(
    command: &GradleCommand,
    chunking: &dyn Chunking,
    active: &mut [bool],
    out: &mut Chunked,
    planned: u32,
    say: &dyn Fn(&str),
) -> bool {
    let proven = chunking.proven(&command.tests, &out.iterations);
    let mut any = false;
    for (i, t) in command.tests.iter().enumerate() {
        if !active[i] || !proven.get(i).copied().unwrap_or(false) || !chunking.stops_on_proof(t) {
            continue;
        }
        active[i] = false;
        any = true;
        let p = Proven {
            test: t.clone(),
            after: out.ran[i],
            saved: u64::from(planned).saturating_sub(out.ran[i]),
        };
        // Proven by its last chunk: it ran its whole count, nothing stopped.
        if p.saved == 0 {
            continue;
        }
        let line = format!(
            "{} proven flaky after {} iteration(s): its other {} are saved (stop on proof)",
            crate::plan::test_name(t),
            p.after,
            p.saved
        );
        say(&format!("    {line}"));
        out.notes.push(line);
        out.proven.push(p);
    }
    any
}

fn kept(command: &GradleCommand, active: &[bool]) -> Vec<ClassifiedTest> {
    command
        .tests
        .iter()
        .zip(active)
        .filter(|(_, a)| **a)
        .map(|(t, _)| t.clone())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::{Origin, TestKind};
    use crate::process::Ended;
    use std::cell::RefCell;
    use std::path::PathBuf;

    /// Stands in for the analyzer and the durations: every iteration takes
    /// `per` of test time, Gradle `overhead` more; test `flaky` is proven by
    /// the chunk that brings the batch to `proven_after` iterations.
    struct Fake {
        budget: Option<Duration>,
        per: Duration,
        overhead: Duration,
        stop: bool,
        flaky: usize,
        proven_after: u32,
        done: RefCell<u32>,
    }

    impl Chunking for Fake {
        fn budget(&self, _: &GradleCommand) -> Option<Duration> {
            self.budget
        }
        fn stops_on_proof(&self, _: &ClassifiedTest) -> bool {
            self.stop
        }
        fn per_iteration(&self, _: &GradleCommand) -> Option<Duration> {
            None
        }
        fn test_time(&self, it: &Iteration) -> Duration {
            // The chunk's size travels in its folder's name.
            let k: u32 = it.dir.to_string_lossy().parse().unwrap();
            self.per * k
        }
        fn proven(&self, tests: &[ClassifiedTest], _: &[Iteration]) -> Vec<bool> {
            let done = *self.done.borrow();
            (0..tests.len())
                .map(|i| i == self.flaky && done >= self.proven_after)
                .collect()
        }
        fn narrowed(&self, command: &GradleCommand, tests: &[ClassifiedTest]) -> GradleCommand {
            GradleCommand {
                tests: tests.to_vec(),
                ..command.clone()
            }
        }
        fn ignored_iters(&self, _: &GradleCommand, _: &[Iteration]) -> bool {
            false
        }
    }

    fn test(class: &str) -> ClassifiedTest {
        ClassifiedTest {
            project: ":".into(),
            source_set: "test".into(),
            task: ":test".into(),
            kind: TestKind::Unit,
            class: Some(class.into()),
            method: None,
            yaml_suite: None,
            origin: Origin::Changed,
            nested_classes: false,
            is_suite: false,
            via_suite: None,
        }
    }

    /// Runs a 100-iteration batch of two tests against `fake`: each chunk
    /// reports `overhead + k × per` of elapsed time (no time passes here).
    fn run_fake(fake: &Fake) -> (Chunked, Vec<(u32, Vec<String>)>) {
        let mut command =
            GradleCommand::of_kind(TestKind::Unit, &["gradle", "-Dtests.iters=100"], 100, 1);
        command.tests = vec![test("a.Flaky"), test("a.Stable")];
        let calls = RefCell::new(Vec::new());
        let mut invoke = |c: &GradleCommand, _n: usize| {
            *fake.done.borrow_mut() += c.iterations;
            calls.borrow_mut().push((
                c.iterations,
                c.tests.iter().map(crate::plan::test_name).collect(),
            ));
            let it = Iteration {
                index: 1,
                ended: Ended::Exited(0),
                elapsed: fake.overhead + fake.per * c.iterations,
                dir: PathBuf::from(c.iterations.to_string()),
                reports: vec![PathBuf::from("TEST-a.xml")],
                leftovers: 0,
                skipped: None,
                notes: Vec::new(),
            };
            Ok(vec![it])
        };
        let done = run(&command, fake, &mut invoke, &|_| {});
        (done, calls.into_inner())
    }

    fn fake(budget: Option<u64>, stop: bool, proven_after: u32) -> Fake {
        Fake {
            budget: budget.map(Duration::from_secs),
            per: Duration::from_secs(1),
            overhead: Duration::from_secs(2),
            stop,
            flaky: 0,
            proven_after,
            done: RefCell::new(0),
        }
    }

    #[test]
    fn a_proven_test_leaves_the_batch_and_the_rest_gets_its_full_count() {
        let (done, calls) = run_fake(&fake(None, true, 10));
        let sizes: Vec<u32> = calls.iter().map(|(k, _)| *k).collect();
        assert_eq!(sizes, [10, 20, 40, 30]);
        assert_eq!(
            calls[1].1,
            ["a.Stable"],
            "the proven test is out of chunk 2"
        );
        assert_eq!(done.ran, [10, 100]);
        assert_eq!(done.proven.len(), 1);
        assert_eq!((done.proven[0].after, done.proven[0].saved), (10, 90));
        assert_eq!(done.stop, None);
        let seeds: std::collections::BTreeSet<_> = done
            .chunks
            .iter()
            .map(|c| c.seed.clone().unwrap())
            .collect();
        assert_eq!(seeds.len(), 4, "a fresh seed per chunk");
    }

    /// Proven only by the last chunk: it ran its whole count, so nothing was
    /// saved and no early proof is claimed.
    #[test]
    fn a_test_proven_by_its_last_chunk_claims_no_early_stop() {
        let (done, calls) = run_fake(&fake(None, true, 100));
        assert_eq!(calls.len(), 4);
        assert_eq!(done.ran, [100, 100]);
        assert!(done.proven.is_empty(), "{:?}", done.proven);
        assert!(
            done.notes.iter().all(|n| !n.contains("saved")),
            "{:?}",
            done.notes
        );
    }

    #[test]
    fn an_unknown_pace_is_probed_then_the_budget_ends_the_batch_cleanly() {
        // The probe takes 3 s (1 s of tests, 2 s of Gradle); then 22 fit the
        // 27 s left with 10% to spare (24 s); 3 s left cannot hold another.
        let (done, calls) = run_fake(&fake(Some(30), false, u32::MAX));
        let sizes: Vec<u32> = calls.iter().map(|(k, _)| *k).collect();
        assert_eq!(sizes, [1, 22]);
        assert_eq!(
            done.stop,
            Some(Stop::Budget {
                budget: Duration::from_secs(30),
                ran: 23,
                planned: 100
            })
        );
        assert_eq!(done.ran, [23, 23]);
        assert!(done.proven.is_empty());
    }
}
