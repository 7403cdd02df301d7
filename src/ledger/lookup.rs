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
use std::collections::BTreeMap;
use std::path::PathBuf;

/// Which records count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Scope<'a> {
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

impl Pooled {
    /// The counts of (`class`, `method`) in `condition`.
    pub(crate) fn of(&self, class: &str, method: &str, condition: &Condition) -> Option<Tally> {
        let key = (class.to_string(), method.to_string());
        let found = self.tests.get(&key)?.iter().find(|(c, _)| c == condition);
        found.map(|(_, t)| *t)
    }
}

/// The records of `classes` (their methods and nested classes) in `files`
/// that `scope` keeps, pooled.
pub(crate) fn pooled(files: &[PathBuf], classes: &[String], scope: Scope<'_>) -> Pooled {
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
                Scope::Commit(c) => line.commit.as_deref() == Some(c),
                Scope::Branch(b) => line.branch.as_deref() == Some(b),
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

impl Pooled {
    fn add(&mut self, line: &LineView<'_>) {
        let key = (line.test.class.to_string(), line.test.method.to_string());
        let conditions = self.tests.entry(key).or_default();
        let i = match conditions.iter().position(|(c, _)| line.condition.is(c)) {
            Some(i) => i,
            None => {
                conditions.push((line.condition.owned(), Tally::default()));
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
            Scope::Commit("c1"),
        );
        let in_jvm = record("a", "b", 0, 0).condition;
        let t = c1.of("a.FooTests", "testX", &in_jvm).unwrap();
        assert_eq!((t.runs, t.failures, t.records), (80, 5, 2));
        let t = c1.of("a.FooTests", "testX", &fresh.condition).unwrap();
        assert_eq!((t.runs, t.failures), (20, 1));
        assert!(c1.of("a.FooTests$Inner", "testX", &in_jvm).is_some());
        assert!(c1.of("a.FooTestsMore", "testX", &in_jvm).is_none());
        let main = pooled(&[file], &["a.FooTests".into()], Scope::Branch("main"));
        let t = main.of("a.FooTests", "testX", &in_jvm).unwrap();
        assert_eq!((t.runs, t.failures, t.records), (120, 14, 3));
    }
}
