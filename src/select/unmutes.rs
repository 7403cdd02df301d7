//! Unmutes: tests `muted-tests.yml` muted in some Test tasks at the merge
//! base and no longer mutes there now ([`super::mutes`] reads the file).
//!
//! Differences from a plain diff of `class|method` keys:
//! - A test is unmuted in the tasks its entries of the old file applied to
//!   and no entry of the new file applies to (the same test, its class muted
//!   whole, or a `*` pattern matching it, as Gradle's test filters read
//!   them): turning a method mute into a class mute re-runs nothing, and a
//!   mute scoped to other tasks (`tasks:`) does not keep it muted.
//! - It is checked in those tasks only: where it was unmuted in named tasks,
//!   they are the candidates its tasks are chosen from; where it stays muted
//!   in some, those are left out.
//! - Each unmuted test is reported once, however many duplicate entries it had.

use super::classify::Classifier;
use super::mutes::{covers, MutedEntry, TaskScope};
use super::outcome::settle;
use super::selection::{Selection, TestRef};
use crate::domain::{Mute, MuteState, Origin, Reason, ReasonCode};
use std::collections::{HashMap, HashSet};

pub use super::mutes::parse;

/// A test no longer muted in some tasks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unmute {
    pub test: TestRef,
    /// The tasks it is no longer muted in.
    pub tasks: TaskScope,
    /// The issue of the first old entry that muted it.
    pub issue: Option<String>,
}

/// The tests muted `before` and no longer muted `after`, in `before` order,
/// each once, with the tasks they are no longer muted in.
pub fn unmuted(before: &[MutedEntry], after: &[MutedEntry]) -> Vec<Unmute> {
    let was = scopes(before);
    let still = Still::of(after);
    let mut seen = HashSet::new();
    before
        .iter()
        .flat_map(|e| e.refs().into_iter().map(move |r| (r, e)))
        .filter(|(r, _)| seen.insert(r.clone()))
        .filter_map(|(test, first)| {
            let tasks = was[&test].minus(&still.scope_of(&test));
            (!tasks.is_nowhere()).then(|| Unmute {
                test,
                tasks,
                issue: first.issue.clone(),
            })
        })
        .collect()
}

/// Where each test of `entries` is muted: the union of its entries' scopes.
fn scopes(entries: &[MutedEntry]) -> HashMap<TestRef, TaskScope> {
    let mut scopes: HashMap<TestRef, TaskScope> = HashMap::new();
    for e in entries {
        let scope = e.scope();
        for r in e.refs() {
            let joined = scopes
                .get(&r)
                .map_or_else(|| scope.clone(), |s| s.union(&scope));
            scopes.insert(r, joined);
        }
    }
    scopes
}

/// The mutes of the new file, looked up by test: its exact entries (a test
/// and its class), and its patterns, scanned.
struct Still {
    exact: HashMap<TestRef, TaskScope>,
    patterns: Vec<(TestRef, TaskScope)>,
}

impl Still {
    fn of(after: &[MutedEntry]) -> Still {
        let exact = scopes(after);
        let patterns = exact
            .iter()
            .filter(|(r, _)| {
                r.class.contains('*') || r.method.as_deref().is_some_and(|m| m.contains('*'))
            })
            .map(|(r, s)| (r.clone(), s.clone()))
            .collect();
        Still { exact, patterns }
    }

    /// Where `test` is still muted.
    fn scope_of(&self, test: &TestRef) -> TaskScope {
        let class = TestRef::class(&test.class);
        let exact = [Some(test), test.method.is_some().then_some(&class)];
        let exact = exact
            .into_iter()
            .flatten()
            .filter_map(|r| self.exact.get(r));
        let patterns = self
            .patterns
            .iter()
            .filter(|(by, _)| covers(by, test))
            .map(|(_, s)| s);
        exact
            .chain(patterns)
            .fold(TaskScope::nowhere(), |all, s| all.union(s))
    }
}

/// Classifies the unmuted tests, each in the tasks it was unmuted in. One
/// that resolves to nothing is unresolved with the reason (deleted class,
/// wildcard, abstract, not applicable, …); one still muted in every task
/// that runs it here is no unmute, and a note says so.
pub fn select(unmuted: &[Unmute], classifier: &Classifier) -> Selection {
    let mut selection = Selection::default();
    for u in unmuted {
        let only = match &u.tasks {
            TaskScope::Only(tasks) => Some(tasks),
            _ => None,
        };
        let mut classified = classifier.locate_in(&u.test, Origin::Unmuted, only);
        let ran = classified.outcomes.iter().filter(|o| o.is_ok()).count();
        classified
            .outcomes
            .retain(|o| o.as_ref().map_or(true, |t| u.tasks.contains(&t.task)));
        if ran > 0 && !classified.outcomes.iter().any(|o| o.is_ok()) {
            selection.notes.push(format!(
                "`{}` is unmuted in {} only, and still muted in every task that runs it here: \
                 not checked",
                u.test, u.tasks
            ));
            continue;
        }
        for test in classified.outcomes.iter_mut().flatten() {
            test.mute = Some(Mute {
                state: MuteState::Unmuted,
                task: test.task.clone(),
                issue: u.issue.clone(),
            });
        }
        let not_found = Reason::new(
            ReasonCode::NoSuchClass,
            format!(
                "no class `{}` in the build's test source sets (deleted or renamed?)",
                u.test.class
            ),
        );
        selection.merge(settle(
            &u.test.to_string(),
            Origin::Unmuted,
            classified,
            Some(not_found),
        ));
    }
    selection
}

#[cfg(test)]
#[path = "unmutes_tests.rs"]
mod tests;
