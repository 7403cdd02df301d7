//! What the chunked runner asks of a local run: the budget of each batch, the
//! durations, which tests stop on proof, and what the reports of the chunks
//! so far say.

use crate::analyze::{self, AnalyzeOptions};
use crate::domain::{BatchingConfig, ClassifiedTest, GradleCommand, Origin};
use crate::durations::Durations;
use crate::plan::budget::Pace;
use crate::plan::PlanContext;
use crate::run::chunks::Chunking;
use crate::run::repeat::Iteration;
use crate::test_filter;
use std::time::Duration;

/// Whether a proven-flaky test gets more iterations.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum StopOnFlaky {
    /// By where the test came from: on for changed tests (a pull request's
    /// check needs one proof), off for unmuted and explicit ones (clearing a
    /// test needs its full count).
    #[default]
    ByOrigin,
    On,
    Off,
    /// `--until-fail`: every test stops at its first real failure, pass or not.
    FirstFailure,
}

impl StopOnFlaky {
    pub fn applies(self, test: &ClassifiedTest) -> bool {
        match self {
            StopOnFlaky::ByOrigin => test.origin == Origin::Changed,
            StopOnFlaky::On | StopOnFlaky::FirstFailure => true,
            StopOnFlaky::Off => false,
        }
    }
}

/// The chunking of one local run.
pub struct Local<'a> {
    pub durations: &'a Durations,
    /// `--budget`: every batch's.
    pub budget: Option<Duration>,
    /// Without `--budget`, a batch the durations say cannot end within this
    /// (the batch timeout minus the grace) gets it as its budget.
    pub derived: Duration,
    pub stop_on_flaky: StopOnFlaky,
    pub batching: &'a BatchingConfig,
    pub ctx: &'a PlanContext,
}

impl Chunking for Local<'_> {
    fn budget(&self, command: &GradleCommand) -> Option<Duration> {
        if self.budget.is_some() {
            return self.budget;
        }
        let pace = Pace {
            per_iteration: self.per_iteration(command),
            overhead: None,
        };
        let executions = crate::plan::executions(command).min(u64::from(u32::MAX)) as u32;
        pace.predict(executions)
            .is_some_and(|t| t > self.derived)
            .then_some(self.derived)
    }

    fn stops_on_proof(&self, test: &ClassifiedTest) -> bool {
        self.stop_on_flaky.applies(test)
    }

    fn per_iteration(&self, command: &GradleCommand) -> Option<Duration> {
        self.durations.per_iteration(&command.tests)
    }

    fn test_time(&self, it: &Iteration) -> Duration {
        if it.no_reports() {
            return Duration::ZERO;
        }
        let report = analyze::analyze_root(&it.dir, &AnalyzeOptions::default());
        let secs: f64 = report.tests.iter().map(|t| t.time_sec).sum();
        Duration::try_from_secs_f64(secs).unwrap_or_default()
    }

    fn proven(&self, tests: &[ClassifiedTest], done: &[Iteration]) -> Vec<bool> {
        proven(tests, done, self.stop_on_flaky != StopOnFlaky::FirstFailure)
    }

    fn open_ended(&self) -> bool {
        self.stop_on_flaky == StopOnFlaky::FirstFailure
    }

    fn narrowed(&self, command: &GradleCommand, tests: &[ClassifiedTest]) -> GradleCommand {
        crate::plan::narrowed(command, tests, self.batching, self.ctx)
    }

    fn ignored_iters(&self, command: &GradleCommand, done: &[Iteration]) -> bool {
        super::judge::ignored_iters(command, done)
    }
}

/// Which of `tests` the invocations `done` prove flaky: a test it covers
/// failed for real at least once and (`need_pass`) passed at least once.
pub fn proven(tests: &[ClassifiedTest], done: &[Iteration], need_pass: bool) -> Vec<bool> {
    let mut rows: Vec<(String, String, u64, u64)> = Vec::new();
    for it in done.iter().filter(|it| !it.no_reports()) {
        for t in analyze::analyze_root(&it.dir, &AnalyzeOptions::default()).tests {
            match rows.iter_mut().find(|r| r.0 == t.class && r.1 == t.method) {
                Some(r) => {
                    r.2 += t.passes;
                    r.3 += t.failures - t.heap_failures.min(t.failures);
                }
                None => rows.push((
                    t.class,
                    t.method,
                    t.passes,
                    t.failures - t.heap_failures.min(t.failures),
                )),
            }
        }
    }
    tests
        .iter()
        .map(|t| {
            let Some(class) = t.class.as_deref() else {
                return false;
            };
            rows.iter().any(|(c, m, passes, failures)| {
                (*passes > 0 || !need_pass)
                    && *failures > 0
                    && test_filter::covers(class, t.method.as_deref(), t.nested_classes, c, m)
            })
        })
        .collect()
}
