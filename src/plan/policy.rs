//! How each batch of a plan runs, decided before it starts from the run's
//! settings and what the durations say: its budget, which of its tests stop
//! on proof, whether its count is open-ended. The repetition engine
//! (`run::engine`) takes it as data; `plan` shows the chunks it gives.

use super::budget::{self, Next, Pace, Sizing};
use super::switch::OnDearer;
use crate::domain::GradleCommand;
use crate::domain::RepetitionMode;
use crate::durations::Durations;
use crate::settings::{RunMode, RunSettings};
use serde::{Deserialize, Serialize};
use std::time::{Duration, Instant};

/// What the engine is asked to do with one batch. Its JSON travels with the
/// batch to a CI job (`ci::spec::JobSpec`), durations in milliseconds; what
/// only a run on this machine sets (a deadline, a comparison's looks) stays
/// behind.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Policy {
    /// Stop on proof, for each test of the command.
    pub stop_on_proof: Vec<bool>,
    /// A proof needs a pass besides a real failure (not so for `--until-fail`).
    pub need_pass: bool,
    /// The time the batch may take; `None`: no budget.
    #[serde(
        rename = "budgetMs",
        with = "crate::time::millis",
        skip_serializing_if = "Option::is_none"
    )]
    pub budget: Option<Duration>,
    /// Running out of budget is how the batch ends (`--until-fail --for`):
    /// its count was never fixed.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub open_ended: bool,
    /// Expected test time of one iteration (recorded durations).
    #[serde(
        rename = "perIterationMs",
        with = "crate::time::millis",
        skip_serializing_if = "Option::is_none"
    )]
    pub per_iteration: Option<Duration>,
    /// The limit of each invocation.
    #[serde(
        rename = "timeoutMs",
        with = "crate::time::millis",
        skip_serializing_if = "Option::is_none"
    )]
    pub timeout: Option<Duration>,
    /// No invocation runs past this (triage's time limit): an instant of
    /// this process, never carried to another.
    #[serde(skip)]
    pub deadline: Option<Instant>,
    /// An invocation that gives no result for the batch's tests ends it
    /// (triage: a replay that cannot run will not run the next time either).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub stop_without_result: bool,
    /// A chunk counts the executions that gave a result (with the pinned
    /// seed), not the iterations it asked for: what did not come back is
    /// asked for again (triage's replays).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub count_results: bool,
    /// For each test of the command, the comparison that takes it out of
    /// the batch once a fix is shown (`--compare`'s after side); empty or
    /// `None`: none. Its looks end the chunks. Never carried to a CI job:
    /// CI's REF jobs run beside the branch's, so no before is known while
    /// they run, and the report step compares at one look.
    #[serde(skip)]
    pub(crate) show_fix: Vec<Option<super::show_fix::ShowFix>>,
    /// What happens when a chunk's in-JVM iterations cost more than fresh
    /// runs (`plan::switch`): `auto` switches to Gradle runs.
    pub(crate) on_dearer: super::switch::OnDearer,
}

impl Policy {
    /// A batch of `tests` tests run whole, each invocation limited to `timeout`.
    pub fn plain(tests: usize, timeout: Option<Duration>) -> Policy {
        Policy {
            stop_on_proof: vec![false; tests],
            need_pass: true,
            timeout,
            ..Policy::default()
        }
    }

    /// The policy of `command` in a run with `settings`, in a job limited to
    /// `job_limit` (`None`: unknown).
    pub fn of(
        settings: &RunSettings,
        command: &GradleCommand,
        durations: &Durations,
        job_limit: Option<Duration>,
    ) -> Policy {
        let per_iteration = super::sample::per_iteration(command, durations);
        let budget = match settings.mode {
            RunMode::Count => {
                // Without a budget of its own, a batch the durations say cannot
                // end within its job's limit gets what the limit leaves.
                let derived = settings.mode.batch_budget(job_limit);
                let executions = command.executions().min(u64::from(u32::MAX)) as u32;
                let pace = Pace::recorded(per_iteration);
                derived.filter(|&d| pace.predict(executions).is_some_and(|t| t > d))
            }
            mode => mode.explicit_budget(),
        };
        Policy {
            // Whole-task runs measure a rate in CI's condition: a proof does
            // not end them (and a filter would change their context).
            stop_on_proof: command
                .tests
                .iter()
                .map(|t| command.whole_task.is_none() && settings.stops_on_proof(t))
                .collect(),
            need_pass: !settings.mode.until_fail(),
            budget,
            open_ended: settings.mode.until_fail(),
            per_iteration,
            timeout: Some(settings.batch_timeout),
            on_dearer: match settings.batching.repetition {
                RepetitionMode::Auto => OnDearer::Switch,
                RepetitionMode::InJvm => OnDearer::Say,
                RepetitionMode::GradleRuns => OnDearer::Ignore,
            },
            ..Policy::default()
        }
    }

    /// Runs in chunks of its own choosing: a budget, stop on proof, or the
    /// looks of a comparison.
    pub fn chunked(&self) -> bool {
        self.budget.is_some()
            || self.stop_on_proof.iter().any(|s| *s)
            || self.show_fix.iter().any(Option::is_some)
    }

    /// The iterations between a comparison's looks of `planned` runs, when
    /// a test of the batch has one: no chunk goes past a look.
    pub(crate) fn look_every(&self, planned: u32) -> Option<u32> {
        let rules = self.show_fix.iter().flatten();
        rules.map(|r| r.look_every(planned)).min()
    }
}

/// The chunks the engine cuts `command` into, as far as they are known
/// before it runs: from the durations' pace (with Gradle's assumed start)
/// while the budget lasts. The engine measures as it goes, so with a budget
/// that binds, the chunks after the first may differ; stop on proof ends a
/// batch early. `None`: the batch runs whole (one invocation in the JVM, or
/// its Gradle runs one by one), or its count is open-ended.
pub(crate) fn schedule(policy: &Policy, command: &GradleCommand) -> Option<Vec<u32>> {
    let in_jvm = command.in_jvm().is_some();
    if !policy.chunked() || policy.open_ended || !in_jvm || !command.invocation.resizable() {
        return None;
    }
    let planned = command.executions().min(u64::from(u32::MAX)) as u32;
    let pace = Pace::recorded(policy.per_iteration);
    let mut chunks = Vec::new();
    let (mut remaining, mut spent) = (planned, Duration::ZERO);
    loop {
        let sizing = Sizing {
            remaining,
            planned,
            in_jvm,
            chunks_done: chunks.len() as u32,
            stop_on_proof: policy.stop_on_proof.iter().any(|s| *s),
            look_every: policy.look_every(planned),
            left: policy.budget.map(|b| b.saturating_sub(spent)),
        };
        match budget::next(&sizing, &pace) {
            Next::Run(k) => {
                chunks.push(k);
                remaining -= k;
                spent += pace.predict(k).unwrap_or_default();
            }
            Next::Done | Next::OutOfBudget => return Some(chunks),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::{testing::unit, Origin, TestKind};
    use crate::durations::{Source, Table};
    use crate::invocation::{Body, Forcing, Invocation, Repeat, TaskRun, Tasks};

    fn command(iterations: u32) -> GradleCommand {
        let task = TaskRun::filtered(":server:test", vec!["a.ATests".into()]);
        let mut c = GradleCommand::of(
            TestKind::Unit,
            Invocation {
                gradle: vec!["gradle".into()],
                body: Body::Tasks(Tasks::of(vec![task], Some(Forcing::CleanTask))),
                repeat: Repeat::InJvm {
                    mechanism: crate::domain::InJvm::TestsIters,
                    iterations,
                    fresh_jvms: Default::default(),
                },
                seed: None,
            },
        );
        c.tests = vec![unit("a.ATests")];
        c
    }

    fn durations(secs: f64) -> Durations {
        let mut table = Table::default();
        table.classes.insert("a.ATests".into(), secs);
        Durations {
            table,
            source: Source::Recorded("flakiness-durations.json".into()),
        }
    }

    #[test]
    fn stop_on_proof_grows_chunks_from_a_tenth() {
        let settings = RunSettings::of(Default::default());
        let c = command(100);
        let p = Policy::of(
            &settings,
            &c,
            &Durations::default(),
            Some(settings.batch_timeout),
        );
        assert_eq!(p.stop_on_proof, [true], "a changed test");
        assert_eq!(
            p.budget, None,
            "no durations: nothing predicts a long batch"
        );
        assert_eq!(schedule(&p, &c), Some(vec![10, 20, 40, 30]));
        let mut explicit = c.clone();
        explicit.tests[0].origin = Origin::Explicit;
        let p = Policy::of(
            &settings,
            &explicit,
            &Durations::default(),
            Some(settings.batch_timeout),
        );
        assert_eq!(schedule(&p, &explicit), None, "one invocation of 100");
    }

    #[test]
    fn a_batch_longer_than_its_limit_gets_the_limit_as_its_budget() {
        let mut settings = RunSettings::of(Default::default());
        settings.batch_timeout = Duration::from_secs(12 * 60);
        settings.stop_on_flaky = crate::settings::StopOnFlaky::Off;
        let c = command(1000);
        let p = Policy::of(&settings, &c, &durations(1.0), Some(settings.batch_timeout));
        assert_eq!(p.budget, Some(Duration::from_secs(600)));
        // 15 s of Gradle + k × 1.1 s within 600 s: 531, then 15 + 1.1 × 53.
        let chunks = schedule(&p, &c).unwrap();
        assert_eq!(chunks[0], 531, "{chunks:?}");
        assert!(chunks.iter().sum::<u32>() < 1000, "{chunks:?}");
        settings.mode = RunMode::Budget(Duration::from_secs(3600));
        let p = Policy::of(&settings, &c, &durations(1.0), Some(settings.batch_timeout));
        assert_eq!(schedule(&p, &c), Some(vec![1000]));
        settings.mode = RunMode::UntilFail(Duration::from_secs(60));
        let p = Policy::of(&settings, &c, &durations(1.0), Some(settings.batch_timeout));
        assert!(p.open_ended && !p.need_pass && p.stop_on_proof == [true]);
        assert_eq!(schedule(&p, &c), None);
    }
}
