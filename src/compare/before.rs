//! The before side's counts, per test method: from REF's run, or from the
//! ledger when it already holds enough runs of the test on REF's commit in
//! the condition this run would run it in.

use crate::analyze::model::comparison::CountsFrom;
use crate::analyze::Report;
use crate::domain::{ClassifiedTest, GradleCommand};
use crate::ledger::lookup::{self, LedgerScope, Pooled};
use crate::ledger::{Condition, Context};
use crate::stats::Counts;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// The before counts of each (class, method), and where they come from.
pub(crate) type Before = BTreeMap<(String, String), (Counts, CountsFrom)>;

/// The condition `command` runs its tests in, as the ledger records it.
pub(crate) fn condition_of(command: &GradleCommand) -> Condition {
    match command.in_jvm() {
        Some(mechanism) => Condition {
            mechanism: Some(mechanism),
            ..crate::ledger::keep::RUN_CONDITION
        },
        None => Condition::fresh(Context::Alone).pooled(),
    }
}

/// What the ledger gives a comparison.
#[derive(Debug, Default)]
pub(crate) struct FromLedger {
    pub before: Before,
    /// (batch, test) indices of the tests whose before it holds.
    pub tests: Vec<(usize, usize)>,
    /// One line per such test: which, and how many runs of how many records.
    pub lines: Vec<String>,
}

/// The tests of `commands` whose before side the ledger `files` already
/// hold: every method of the test the ledger has on `commit`, in the
/// condition its batch runs it in, with at least the runs the batch plans.
pub(crate) fn from_ledger(
    files: &[PathBuf],
    commit: &str,
    commands: &[GradleCommand],
) -> FromLedger {
    let mut out = FromLedger::default();
    let classes: Vec<String> = commands
        .iter()
        .flat_map(|c| &c.tests)
        .filter_map(|t| t.class.clone())
        .collect();
    if files.is_empty() || classes.is_empty() {
        return out;
    }
    let pooled = lookup::pooled(files, &classes, LedgerScope::Commit(commit));
    for problem in &pooled.problems {
        crate::warning!("{problem}");
    }
    for (b, c) in commands.iter().enumerate() {
        let condition = condition_of(c);
        for (i, t) in c.tests.iter().enumerate() {
            let Some(found) = enough(&pooled, t, &condition, c.executions()) else {
                continue;
            };
            let runs: u64 = found.iter().map(|(_, t)| t.runs).min().unwrap_or(0);
            let records: u64 = found.iter().map(|(_, t)| t.records).max().unwrap_or(0);
            out.lines.push(format!(
                "{}: {runs} run(s) or more of each of its {} test(s), from {records} earlier \
                 run(s) ({})",
                crate::plan::test_name(t),
                found.len(),
                condition.label()
            ));
            for (name, tally) in found {
                let counts = Counts::new(tally.failures, tally.runs);
                out.before.insert(name, (counts, CountsFrom::Ledger));
            }
            out.tests.push((b, i));
        }
    }
    out
}

/// The ledger's counts of the methods `t` covers in `condition`, when each
/// has at least `planned` runs.
fn enough(
    pooled: &Pooled,
    t: &ClassifiedTest,
    condition: &Condition,
    planned: u64,
) -> Option<Vec<((String, String), crate::ledger::history::Tally)>> {
    let found: Vec<_> = pooled
        .tests
        .iter()
        .filter(|((c, m), _)| t.covers(c, m))
        .filter_map(|(name, conditions)| {
            let (_, tally) = conditions.iter().find(|(c, _)| c == condition)?;
            Some((name.clone(), *tally))
        })
        .collect();
    (!found.is_empty() && found.iter().all(|(_, t)| t.runs >= planned)).then_some(found)
}

/// The before counts REF's run measured: every test that passed or failed.
pub(crate) fn from_run(report: &Report) -> Before {
    report
        .tests
        .iter()
        .filter(|t| t.runs > 0)
        .map(|t| {
            let counts = Counts::new(t.failures, t.runs);
            (
                (t.class.clone(), t.method.clone()),
                (counts, CountsFrom::Run),
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::testing::unit;
    use crate::domain::TestKind;
    use crate::ledger::record::{Origin, Record};
    use crate::ledger::store::{append_to_dir, Limits};
    use crate::ledger::store_tests::record;

    fn command(iterations: u32, tests: Vec<ClassifiedTest>) -> GradleCommand {
        let mut c = GradleCommand::of_kind(TestKind::Unit, &["gradle"], iterations, 1);
        c.invocation.repeat = crate::invocation::Repeat::InJvm {
            mechanism: crate::domain::InJvm::TestsIters,
            iterations,
            fresh_jvms: Default::default(),
        };
        c.tests = tests;
        c
    }

    fn on(commit: &str, method: &str, runs: u64, failures: u64) -> Record {
        let mut r = record("a.FooTests", method, runs, failures);
        r.commit = Some(commit.into());
        r
    }

    #[test]
    fn the_ledger_gives_a_before_with_enough_runs_in_the_same_condition() {
        let dir = tempfile::tempdir().unwrap();
        let mut replays = on("c1", "testX", 500, 500);
        replays.origin = Origin::Triage;
        let file = append_to_dir(
            dir.path(),
            &[
                on("c1", "testX", 30, 3),
                on("c1", "testX", 30, 1),
                on("c1", "testY", 60, 0),
                on("c2", "testX", 100, 0),
                replays,
            ],
            Limits::LOCAL,
        )
        .unwrap();
        let files = [file];
        let c = command(60, vec![unit("a.FooTests")]);
        let got = from_ledger(&files, "c1", std::slice::from_ref(&c));
        assert_eq!(got.tests, [(0, 0)]);
        let x = &got.before[&("a.FooTests".to_string(), "testX".to_string())];
        assert_eq!((x.0.failures, x.0.runs, x.1), (4, 60, CountsFrom::Ledger));
        assert!(
            got.lines[0].contains("60 run(s) or more of each of its 2 test(s)"),
            "{:?}",
            got.lines
        );
        // More runs planned than the ledger holds: run REF again.
        let more = command(100, vec![unit("a.FooTests")]);
        assert!(from_ledger(&files, "c1", &[more]).tests.is_empty());
        // Another condition: Gradle runs.
        let mut fresh = command(60, vec![unit("a.FooTests")]);
        fresh.invocation.repeat = crate::invocation::Repeat::GradleRuns(60);
        assert!(from_ledger(&files, "c1", &[fresh]).tests.is_empty());
        assert!(from_ledger(&files, "c3", &[c]).tests.is_empty());
    }
}
