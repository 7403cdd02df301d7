//! What the selectors found, and the name of a test as an input gives it.

use super::expansion::Expansion;
use super::tasks::TaskSelection;
use crate::domain::{ClassifiedTest, Origin, SkippedFile, Unresolved};
use serde::Serialize;
use std::collections::HashSet;
use std::fmt;

/// What the selectors found: tests to run, inputs that resolved to nothing,
/// changed source files that select nothing, and notes for the user (for
/// example that path rules stood in for the layout).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Selection {
    pub tests: Vec<ClassifiedTest>,
    pub unresolved: Vec<Unresolved>,
    /// Source sets whose class ran on some of several candidate tasks.
    pub task_selections: Vec<TaskSelection>,
    /// Abstract bases run through their concrete subclasses.
    pub expansions: Vec<Expansion>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub skipped: Vec<SkippedFile>,
    #[serde(skip)]
    pub notes: Vec<String>,
    /// The base ref changes and unmutes were taken against (`origin/main`),
    /// when they were.
    #[serde(skip)]
    pub base: Option<String>,
}

impl Selection {
    /// Adds `other`, dropping tests already selected (the first origin wins)
    /// and repeated unresolved entries.
    pub fn merge(&mut self, other: Selection) {
        if self.base.is_none() {
            self.base = other.base.clone();
        }
        let mut seen: HashSet<_> = self.tests.iter().map(identity).collect();
        for t in other.tests {
            if seen.insert(identity(&t)) {
                self.tests.push(t);
            } else if t.mute.is_some() {
                // The first origin wins; what the muted-tests file says of
                // the test in its task is kept.
                let kept = self.tests.iter_mut().find(|k| identity(k) == identity(&t));
                if let Some(kept) = kept.filter(|k| k.mute.is_none()) {
                    kept.mute = t.mute;
                }
            }
        }
        extend_new(&mut self.unresolved, other.unresolved);
        extend_new(&mut self.task_selections, other.task_selections);
        extend_new(&mut self.expansions, other.expansions);
        extend_new(&mut self.skipped, other.skipped);
        extend_new(&mut self.notes, other.notes);
    }

    pub fn is_empty(&self) -> bool {
        self.tests.is_empty() && self.unresolved.is_empty()
    }
}

/// Appends the items of `more` that `to` does not hold yet.
fn extend_new<T: PartialEq>(to: &mut Vec<T>, more: Vec<T>) {
    for item in more {
        if !to.contains(&item) {
            to.push(item);
        }
    }
}

/// What makes two selected tests the same test, whatever selected them
/// and whatever the muted-tests file says of them.
fn identity(t: &ClassifiedTest) -> ClassifiedTest {
    ClassifiedTest {
        origin: Origin::Explicit,
        mute: None,
        ..t.clone()
    }
}

/// A class, and optionally one of its methods, as named by muted-tests.yml or
/// an explicit spec. The method may be a descriptor (`test {yaml=a/b/c}`) or a
/// Gradle filter pattern with `*`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TestRef {
    pub class: String,
    pub method: Option<String>,
}

impl TestRef {
    pub fn class(class: &str) -> TestRef {
        TestRef {
            class: class.to_string(),
            method: None,
        }
    }

    pub fn method(class: &str, method: &str) -> TestRef {
        TestRef {
            class: class.to_string(),
            method: Some(method.to_string()),
        }
    }
}

/// `Class` or `Class#method`: the explicit-list grammar, so an unresolved
/// entry can be pasted back as an argument.
impl fmt::Display for TestRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.method {
            Some(m) => write!(f, "{}#{m}", self.class),
            None => f.write_str(&self.class),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::TestKind;

    fn test(class: &str, origin: Origin) -> ClassifiedTest {
        ClassifiedTest {
            project: ":server".into(),
            source_set: "test".into(),
            task: ":server:test".into(),
            kind: TestKind::Unit,
            class: Some(class.into()),
            method: None,
            yaml_suite: None,
            origin,
            nested_classes: false,
            is_suite: false,
            via_suite: None,
            mute: None,
        }
    }

    #[test]
    fn merge_keeps_the_first_origin_and_drops_repeats() {
        let mut a = Selection {
            tests: vec![test("a.ATests", Origin::Changed)],
            ..Default::default()
        };
        let u = Unresolved {
            input: "x".into(),
            reason_code: crate::domain::ReasonCode::NoSuchClass,
            reason: "y".into(),
            origin: Origin::Unmuted,
        };
        a.merge(Selection {
            tests: vec![
                test("a.ATests", Origin::Unmuted),
                test("a.BTests", Origin::Unmuted),
            ],
            unresolved: vec![u.clone(), u.clone()],
            notes: vec!["n".into()],
            ..Selection::default()
        });
        assert_eq!(
            a.tests,
            vec![
                test("a.ATests", Origin::Changed),
                test("a.BTests", Origin::Unmuted)
            ]
        );
        assert_eq!(a.unresolved, vec![u]);
        assert_eq!(a.notes, vec!["n".to_string()]);
    }

    /// A test both changed and unmuted runs once, as changed, and keeps
    /// what the muted-tests file says of it.
    #[test]
    fn merge_keeps_the_mute_note_of_a_repeat() {
        use crate::domain::{Mute, MuteState};
        let mut a = Selection {
            tests: vec![test("a.ATests", Origin::Changed)],
            ..Default::default()
        };
        let mute = Mute {
            state: MuteState::Unmuted,
            task: ":server:test".into(),
            issue: Some("https://github.com/elastic/elasticsearch/issues/1".into()),
        };
        let unmuted = ClassifiedTest {
            mute: Some(mute.clone()),
            ..test("a.ATests", Origin::Unmuted)
        };
        a.merge(Selection {
            tests: vec![unmuted],
            ..Selection::default()
        });
        assert_eq!(a.tests.len(), 1);
        assert_eq!(a.tests[0].origin, Origin::Changed);
        assert_eq!(a.tests[0].mute, Some(mute));
    }

    #[test]
    fn test_refs_print_in_the_explicit_grammar() {
        assert_eq!(TestRef::class("a.B").to_string(), "a.B");
        assert_eq!(
            TestRef::method("a.B", "test {yaml=x/y/z}").to_string(),
            "a.B#test {yaml=x/y/z}"
        );
    }
}
