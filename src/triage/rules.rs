//! The verdict rules: what a failing test's replays say about it. Pure.

use crate::analyze::model::counts::ContextComparison;
use crate::analyze::model::counts::{ConditionCounts, Rate};
use crate::analyze::model::report::{TestReport, TriageVerdict};
use crate::condition::{Condition, Context};

/// The verdict of a failing test from its replays that gave a result.
///
/// `seeded`: its failures carried randomized-runner seeds, and each replay
/// pinned one of them. Then every replay failing again means the seed decides
/// the failure (`seed-deterministic`: a bug its seed reproduces), and one
/// passing replay proves that something besides the seed does
/// (`nondeterministic`: timing, concurrency, the environment).
///
/// Without seeds (plain JUnit, TestNG) each replay ran the test alone: one
/// failure there shows it fails by itself (`fails-alone`); none hints that it
/// failed in its batch because of the tests that ran before it
/// (`passes-alone`).
///
/// No verdict without a replay: a test nothing was learned about is never
/// given one.
pub(crate) fn verdict(seeded: bool, replays: u64, reproduced: u64) -> Option<TriageVerdict> {
    if replays == 0 {
        return None;
    }
    Some(match (seeded, reproduced >= replays, reproduced > 0) {
        (true, true, _) => TriageVerdict::SeedDeterministic,
        (true, false, _) => TriageVerdict::Nondeterministic,
        (false, _, true) => TriageVerdict::FailsAlone,
        (false, _, false) => TriageVerdict::PassesAlone,
    })
}

/// A test's replays alone (each a fresh Gradle run of the test only)
/// against its runs in its whole task that the report holds: the same
/// comparison as the report's, so that `fails-alone` says whether the test
/// fails alone more than in its task. `None` for seeded replays (a pinned
/// seed is another condition) or without task runs.
pub(crate) fn context(
    t: &TestReport,
    seeded: bool,
    replays: u64,
    reproduced: u64,
) -> Option<ContextComparison> {
    if seeded || replays == 0 {
        return None;
    }
    let alone = ConditionCounts {
        condition: Condition::fresh(Context::Alone),
        rate: Rate::new(reproduced, replays),
    };
    let mut rows = vec![alone];
    rows.extend(
        t.by_condition
            .conditions
            .iter()
            .filter(|r| r.condition.context == Context::Task)
            .copied(),
    );
    let mut c = ContextComparison::of(&rows, false)?;
    let report = t.by_condition.context.as_ref();
    c.task_path = report.and_then(|r| r.task_path.clone());
    // The report's candidates were ranked for its own direction.
    c.candidates = report
        .filter(|r| r.fails_more == c.fails_more)
        .and_then(|r| r.candidates.clone());
    Some(c)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::condition::{Position, Repetition};
    use TriageVerdict::*;

    #[test]
    fn a_seed_that_always_fails_again_decides_the_failure() {
        assert_eq!(verdict(true, 15, 15), Some(SeedDeterministic));
        assert_eq!(verdict(true, 1, 1), Some(SeedDeterministic));
    }

    #[test]
    fn one_passing_replay_of_a_failing_seed_makes_it_nondeterministic() {
        assert_eq!(verdict(true, 15, 14), Some(Nondeterministic));
        assert_eq!(verdict(true, 5, 0), Some(Nondeterministic));
    }

    #[test]
    fn without_seeds_one_failure_alone_is_enough() {
        assert_eq!(verdict(false, 5, 1), Some(FailsAlone));
        assert_eq!(verdict(false, 5, 5), Some(FailsAlone));
        assert_eq!(verdict(false, 5, 0), Some(PassesAlone));
    }

    #[test]
    fn no_replay_no_verdict() {
        assert_eq!(verdict(true, 0, 0), None);
        assert_eq!(verdict(false, 0, 0), None);
    }

    /// Replayed alone 5/5 against 2/17 in its task (scipy: p = 0.000797):
    /// context-dependent; seeded replays and a test without task runs get no
    /// comparison.
    #[test]
    fn replays_alone_are_compared_with_the_task_runs() {
        let mut t = TestReport::sample("X", "y", 15, 2);
        t.by_condition.conditions = vec![ConditionCounts {
            condition: Condition {
                context: Context::Task,
                repetition: Repetition::FreshJvm,
                mechanism: None,
                execution: Some(Position::First),
            },
            rate: Rate::new(2, 17),
        }];
        let c = context(&t, false, 5, 5).unwrap();
        assert!(c.dependent, "{c:?}");
        crate::stats::assert_near(c.p_value, 0.000_797_448, 1e-5);
        assert_eq!((c.alone.failures, c.alone.runs), (5, 5));
        assert_eq!(c.fails_more, Some(Context::Alone));
        assert!(!context(&t, false, 5, 1).unwrap().dependent);
        assert!(context(&t, true, 5, 5).is_none());
        assert!(context(&TestReport::sample("X", "y", 15, 2), false, 5, 5).is_none());
    }

    #[test]
    fn the_names_are_the_json_contract() {
        for (v, name) in [
            (SeedDeterministic, "seed-deterministic"),
            (Nondeterministic, "nondeterministic"),
            (FailsAlone, "fails-alone"),
            (PassesAlone, "passes-alone"),
        ] {
            assert_eq!(v.as_str(), name);
            assert_eq!(serde_json::to_value(v).unwrap(), name);
        }
    }
}
