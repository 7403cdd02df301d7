//! How a run repeats its tests, settled once from the command line and the
//! environment (`commands::options` resolves it; nothing below knows clap),
//! and the one rule for the time a batch may take, which `plan`, `local`,
//! Buildkite and GitHub all use: so `plan` shows the shards and chunks that
//! `local` and the CI targets cut for the same flags.

use crate::domain::{BatchingConfig, ClassifiedTest, Origin};
use std::time::Duration;

/// A batch is stopped this many minutes before its job's limit (a CI job's
/// timeout, `local`'s batch limit), so the job outlives its batch and
/// records how it ended.
pub(crate) const GRACE_MIN: u64 = 2;
/// [`GRACE_MIN`] as a duration.
pub(crate) const GRACE: Duration = Duration::from_secs(GRACE_MIN * 60);

/// What a job limited to `limit` leaves its batch: the limit less the
/// grace, at least half of it.
pub(crate) fn within(limit: Duration) -> Duration {
    limit.saturating_sub(GRACE).max(limit / 2)
}

/// What ends a run's batches.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RunMode {
    /// Each test its planned count. A batch that the durations say cannot
    /// end within its job's limit (less the grace) gets that as its budget.
    #[default]
    Count,
    /// Each test its planned count, each batch within this budget (`--budget`).
    Budget(Duration),
    /// Each test until its first real failure, each batch for at most this
    /// long (`--until-fail --for`): its count is never fixed, and the batch
    /// is never split into shards (its time ends it).
    UntilFail(Duration),
}

impl RunMode {
    /// The time one batch may take, when its job's limit is `limit` (`None`:
    /// unknown): `--budget`, `--for`, else the limit less the grace (at least
    /// half of it).
    pub fn batch_budget(self, limit: Option<Duration>) -> Option<Duration> {
        match self {
            RunMode::Budget(d) | RunMode::UntilFail(d) => Some(d),
            RunMode::Count => limit.map(within),
        }
    }

    /// The budget a batch is split into shards by: none for `--until-fail`.
    pub fn shard_budget(self, limit: Option<Duration>) -> Option<Duration> {
        match self {
            RunMode::UntilFail(_) => None,
            mode => mode.batch_budget(limit),
        }
    }

    /// The budget the user set (`--budget`, `--for`), if any.
    pub fn explicit_budget(self) -> Option<Duration> {
        match self {
            RunMode::Budget(d) | RunMode::UntilFail(d) => Some(d),
            RunMode::Count => None,
        }
    }

    pub fn until_fail(self) -> bool {
        matches!(self, RunMode::UntilFail(_))
    }
}

/// Whether a proven-flaky test gets more iterations (`--stop-on-flaky`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum StopOnFlaky {
    /// By where the test came from: on for changed tests (a pull request's
    /// check needs one proof), off for unmuted and explicit ones (clearing a
    /// test needs its full count).
    #[default]
    ByOrigin,
    On,
    Off,
}

impl StopOnFlaky {
    pub fn applies(self, test: &ClassifiedTest) -> bool {
        match self {
            StopOnFlaky::ByOrigin => test.origin == Origin::Changed,
            StopOnFlaky::On => true,
            StopOnFlaky::Off => false,
        }
    }
}

/// What surrounds the selected tests when they run (`--context`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ContextMode {
    /// The selected classes alone (their batches, repeated as `--repetition`
    /// says): bounds the test by itself, not beside its neighbours.
    #[default]
    Alone,
    /// Each selected test's whole test task, as CI runs it (no `--tests`
    /// filter, the build's own forks), one Gradle run per execution: bounds
    /// the test in CI's condition, beside the classes CI runs with it.
    Task,
    /// Both, so the two can be compared.
    Both,
}

/// A fresh seed for a whole task's class sample (`--sample-seed` not given).
pub(crate) fn fresh_seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos()),
    );
    // Short enough to read and type again.
    h.finish() % 1_000_000_000
}

/// `--unmute-check` by default: whole-task runs, each a fresh test JVM,
/// behind an unmuted test repeated in one JVM. Five catch a test that fails
/// every first execution in a fresh JVM (the CI condition) five times out of
/// five, one failing half of them 97 times in 100; clean, they bound its rate
/// in CI's condition below 45% (at 95%).
pub const DEFAULT_UNMUTE_CHECK: u32 = 5;

/// `--context` by default.
pub const DEFAULT_CONTEXT: ContextMode = ContextMode::Alone;

impl ContextMode {
    /// The name `--context` takes.
    pub const fn as_str(self) -> &'static str {
        match self {
            ContextMode::Alone => "alone",
            ContextMode::Task => "task",
            ContextMode::Both => "both",
        }
    }

    /// The selected classes run on their own.
    pub fn alone(self) -> bool {
        self != ContextMode::Task
    }

    /// Their whole test tasks run too.
    pub fn task(self) -> bool {
        self != ContextMode::Alone
    }
}

/// How a run repeats its tests: everything planning and running need of the
/// command line, defaults settled.
#[derive(Clone, Debug, PartialEq)]
pub struct RunSettings {
    pub batching: BatchingConfig,
    pub mode: RunMode,
    pub stop_on_flaky: StopOnFlaky,
    /// The limit of each Gradle invocation here (`--batch-timeout`), and so
    /// the limit of a local batch's job.
    pub batch_timeout: Duration,
    /// What runs beside the selected tests (`--context`).
    pub context: ContextMode,
    /// The seed of a whole task's class sample, when one is too big for its
    /// budget (`--sample-seed`, else a fresh one): said with the sample, so
    /// that it can be redone.
    pub sample_seed: u64,
    /// Fresh-JVM runs of its whole test task that back an unmuted test
    /// repeated in one JVM (`--unmute-check`; 0: none).
    pub unmute_check: u32,
}

/// The default batch limit is the suite timeout plus this many minutes.
pub(crate) const BATCH_MARGIN_MIN: u64 = 10;
/// [`BATCH_MARGIN_MIN`] as a duration.
pub(crate) const BATCH_MARGIN: Duration = Duration::from_secs(BATCH_MARGIN_MIN * 60);

impl RunSettings {
    /// The settings of `batching` with everything else at its default.
    pub fn of(batching: BatchingConfig) -> RunSettings {
        RunSettings {
            batch_timeout: batching.suite_timeout + BATCH_MARGIN,
            batching,
            mode: RunMode::Count,
            stop_on_flaky: StopOnFlaky::ByOrigin,
            context: DEFAULT_CONTEXT,
            sample_seed: 0,
            unmute_check: DEFAULT_UNMUTE_CHECK,
        }
    }

    /// Whether the plan may run whole test tasks (`--context task|both`, or
    /// the unmute check), so that their classes are worth reading.
    pub fn may_run_whole_tasks(&self) -> bool {
        self.context.task() || self.unmute_check > 0
    }

    /// Whether stop on proof is on for `test`: `--until-fail` stops every
    /// test at its first real failure.
    pub fn stops_on_proof(&self, test: &ClassifiedTest) -> bool {
        self.mode.until_fail() || self.stop_on_flaky.applies(test)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_batch_gets_its_budget_or_its_limit_less_the_grace() {
        let m = |s: u64| Duration::from_secs(60 * s);
        let job = |s: u64| Some(m(s));
        assert_eq!(RunMode::Count.batch_budget(job(70)), job(68));
        assert_eq!(
            RunMode::Count.batch_budget(job(3)),
            Some(Duration::from_secs(90))
        );
        assert_eq!(RunMode::Count.batch_budget(None), None, "no limit known");
        assert_eq!(RunMode::Budget(m(5)).batch_budget(job(70)), job(5));
        assert_eq!(RunMode::UntilFail(m(9)).batch_budget(None), job(9));
        assert_eq!(RunMode::UntilFail(m(9)).shard_budget(job(70)), None);
        assert_eq!(RunMode::Count.shard_budget(job(60)), job(58));
        assert_eq!(RunMode::Count.explicit_budget(), None);
    }
}
