//! What the ledger holds of some tests on one commit or one branch, pooled
//! per test and condition: the before side a comparison need not run again
//! (`local --compare`), and the rate a PR report notes for a test that
//! already fails on its base ("known flaky on main").
//!
//! Only records of committed code count (a `dirty` record is of changes
//! that were never committed), and never triage's replays (replays of
//! failing seeds measure no rate). Lines that name none of the classes
//! asked for are passed over unread, as `history` does.

use super::history::Tally;
use super::read::{self, Problem};
use super::record::{Condition, LineView, Origin};
use crate::analyze::model::comparison::{KnownFlaky, KnownRate};
use crate::analyze::Report;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// Which records count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LedgerScope<'a> {
    /// Records of this commit (a full hash).
    Commit(&'a str),
    /// Records of this branch (its name as runs record it, without a
    /// remote: `main`), any commit.
    Branch(&'a str),
}

/// Pooled counts per (class, method), then per condition.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Pooled {
    pub tests: BTreeMap<(String, String), Vec<(Condition, Tally)>>,
    /// Lines skipped, naming file and line (the first few of each file).
    pub problems: Vec<Problem>,
}

/// The records of `classes` (their methods and nested classes) in `files`
/// that `scope` keeps, pooled.
pub(crate) fn pooled(files: &[PathBuf], classes: &[String], scope: LedgerScope<'_>) -> Pooled {
    let mut out = Pooled::default();
    if classes.is_empty() {
        return out;
    }
    let needles: Vec<memchr::memmem::Finder<'_>> = classes
        .iter()
        .map(|c| memchr::memmem::Finder::new(c.as_bytes()))
        .collect();
    let wanted = |class: &str| {
        classes.iter().any(|c| {
            class == c
                || class
                    .strip_prefix(c.as_str())
                    .is_some_and(|r| r.starts_with('$'))
        })
    };
    for path in files {
        let read = read::scan_file(path, |bytes, end| {
            if !needles.iter().any(|n| n.find(bytes).is_some()) {
                return Ok(false);
            }
            let Some((line, _)) = read::parse::<LineView>(bytes, end)? else {
                return Ok(false);
            };
            if line.dirty || line.origin == Origin::Triage || !wanted(&line.test.class) {
                return Ok(true);
            }
            let kept = match scope {
                LedgerScope::Commit(c) => line.commit.as_deref() == Some(c),
                LedgerScope::Branch(b) => line.branch.as_deref() == Some(b),
            };
            if kept {
                out.add(&line);
            }
            Ok(true)
        });
        out.problems.extend(read.problems);
    }
    out
}

/// The tests of `report` that fail here and that `files` hold failing
/// on `branch` too: "known flaky on main".
pub(crate) fn known_flaky(files: &[PathBuf], report: &Report, branch: &str) -> Vec<KnownFlaky> {
    let failing: Vec<_> = report.tests.iter().filter(|t| t.failures > 0).collect();
    let mut classes: Vec<String> = failing.iter().map(|t| t.class.clone()).collect();
    classes.dedup();
    let pooled = pooled(files, &classes, LedgerScope::Branch(branch));
    for problem in &pooled.problems {
        crate::warning!("{problem}");
    }
    failing
        .iter()
        .filter_map(|t| {
            let key = (t.class.clone(), t.method.clone());
            let mut rates: Vec<KnownRate> = pooled
                .tests
                .get(&key)?
                .iter()
                .map(|(c, tally)| KnownRate {
                    condition: c.label(),
                    runs: tally.runs,
                    failures: tally.failures,
                    records: tally.records,
                })
                .collect();
            if rates.iter().all(|r| r.failures == 0) {
                return None;
            }
            rates.sort_by_key(|r| std::cmp::Reverse((r.failures > 0, r.runs)));
            Some(KnownFlaky {
                class: t.class.clone(),
                method: t.method.clone(),
                branch: branch.to_string(),
                rates,
            })
        })
        .collect()
}

/// The failing tests of `report` that the build's own ledger (at
/// `project_dir`, if any) and the `ledgers` hold failing on `branch` too;
/// none without a branch. A ledger path that cannot be read is a warning:
/// the note is worth less than the report.
pub(crate) fn known_on_base(
    project_dir: Option<&std::path::Path>,
    ledgers: &[PathBuf],
    report: &Report,
    branch: Option<&str>,
) -> Vec<KnownFlaky> {
    let Some(branch) = branch.filter(|b| !b.is_empty()) else {
        return Vec::new();
    };
    if report.tests.iter().all(|t| t.failures == 0) {
        return Vec::new();
    }
    let own = project_dir.map(super::local_dir).filter(|d| d.is_dir());
    let paths: Vec<PathBuf> = own.into_iter().chain(ledgers.iter().cloned()).collect();
    match read::files_of(&paths) {
        Ok(files) => known_flaky(&files, report, branch),
        Err(e) => {
            crate::warning!("no known-flaky note: {e}");
            Vec::new()
        }
    }
}

impl Pooled {
    fn add(&mut self, line: &LineView<'_>) {
        let key = (line.test.class.to_string(), line.test.method.to_string());
        let conditions = self.tests.entry(key).or_default();
        // A comparison pools a condition's positions.
        let condition = line.condition.pooled();
        let i = match conditions.iter().position(|(c, _)| *c == condition) {
            Some(i) => i,
            None => {
                conditions.push((condition, Tally::default()));
                conditions.len() - 1
            }
        };
        let t = &mut conditions[i].1;
        t.runs += line.runs;
        t.failures += line.failures;
        t.records += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ledger::record::{Origin, Record};
    use crate::ledger::store::{append_to_dir, Limits};
    use crate::ledger::store_tests::record;

    /// The pooled counts of `class#testX` in `condition`.
    fn of(p: &Pooled, class: &str, condition: &Condition) -> Option<Tally> {
        let found = p.tests.get(&(class.to_string(), "testX".to_string()))?;
        found.iter().find(|(c, _)| c == condition).map(|(_, t)| *t)
    }

    fn on(commit: &str, branch: &str, runs: u64, failures: u64) -> Record {
        let mut r = record("a.FooTests", "testX", runs, failures);
        r.commit = Some(commit.into());
        r.branch = Some(branch.into());
        r
    }

    #[test]
    fn a_commits_records_pooled_per_condition_without_changes_or_replays() {
        let dir = tempfile::tempdir().unwrap();
        let mut dirty = on("c1", "main", 100, 50);
        dirty.dirty = true;
        let mut replays = on("c1", "main", 10, 10);
        replays.origin = Origin::Triage;
        let mut fresh = on("c1", "main", 20, 1);
        fresh.condition.repetition = crate::ledger::Repetition::FreshJvm;
        fresh.condition.mechanism = None;
        let mut nested = on("c1", "main", 5, 0);
        nested.test.class = "a.FooTests$Inner".into();
        let mut other = on("c1", "main", 5, 0);
        other.test.class = "a.FooTestsMore".into();
        let records = [
            on("c1", "main", 40, 3),
            on("c1", "main", 40, 2),
            on("c2", "main", 40, 9),
            dirty,
            replays,
            fresh.clone(),
            nested,
            other,
        ];
        let file = append_to_dir(dir.path(), &records, Limits::LOCAL).unwrap();
        let c1 = pooled(
            std::slice::from_ref(&file),
            &["a.FooTests".into()],
            LedgerScope::Commit("c1"),
        );
        let in_jvm = record("a", "b", 0, 0).condition;
        let t = of(&c1, "a.FooTests", &in_jvm).unwrap();
        assert_eq!((t.runs, t.failures, t.records), (80, 5, 2));
        let t = of(&c1, "a.FooTests", &fresh.condition).unwrap();
        assert_eq!((t.runs, t.failures), (20, 1));
        assert!(of(&c1, "a.FooTests$Inner", &in_jvm).is_some());
        assert!(of(&c1, "a.FooTestsMore", &in_jvm).is_none());
        let main = pooled(&[file], &["a.FooTests".into()], LedgerScope::Branch("main"));
        let t = of(&main, "a.FooTests", &in_jvm).unwrap();
        assert_eq!((t.runs, t.failures, t.records), (120, 14, 3));
    }

    #[test]
    fn a_failing_test_already_failing_on_the_base_is_known_flaky_there() {
        let (_dir, report) = crate::ledger::records::tests::recorded("flaky-unit", "test");
        let class = "org.elasticsearch.flaky.AssertionFlakyTests";
        let dir = tempfile::tempdir().unwrap();
        let mut on_main = record(class, "testFlakyAssertion", 40, 3);
        on_main.branch = Some("main".into());
        let mut stable_on_main = record(class, "testStableAddition", 40, 0);
        stable_on_main.branch = Some("main".into());
        let mut elsewhere = record(class, "testFlakyAssertion", 40, 9);
        elsewhere.branch = Some("feature".into());
        let file = append_to_dir(
            dir.path(),
            &[on_main, stable_on_main, elsewhere],
            Limits::LOCAL,
        )
        .unwrap();
        let known = known_on_base(None, std::slice::from_ref(&file), &report, Some("main"));
        assert_eq!(known.len(), 1, "{known:?}");
        assert_eq!(known[0].method, "testFlakyAssertion");
        assert_eq!(
            (known[0].rates[0].runs, known[0].rates[0].failures),
            (40, 3)
        );
        let mut with_known = report.clone();
        with_known.around.known_flaky = known;
        let md = crate::analyze::render::markdown(&with_known);
        assert!(
            md.contains(&format!(
                "- `{class}#testFlakyAssertion`: known flaky on `main`: 7.5%, 40 runs (3 failed; \
                 alone, in-jvm, tests-iters; 1 record(s))"
            )),
            "{md}"
        );
        assert!(
            known_on_base(None, std::slice::from_ref(&file), &report, Some("other")).is_empty()
        );
        assert!(known_on_base(None, &[file], &report, None).is_empty());
    }
}
