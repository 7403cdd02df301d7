//! The condition a count is about: one vocabulary for the analysis, the
//! report, the ledger and history.
//!
//! A count means something only with its condition: CI runs each test once
//! per fresh test JVM inside its whole test task, while a repetition in one
//! warm JVM shares static state, loaded classes and a warm JIT with the
//! executions before it. A condition names:
//! - its context: `alone` (the selected classes, as gradle-flaky plans its
//!   runs) or `task` (the whole test task, as a build runs it);
//! - its repetition: `in-jvm` (with the mechanism when known) or `fresh-jvm`;
//! - its position: the `first` execution of the test in its JVM, or a
//!   `repeat` in a JVM that already ran it.
//!
//! The names are a contract (report JSON `conditions[]`, ledger lines).

pub use crate::invocation::InJvm;
use serde::{Deserialize, Serialize};

/// Which tests ran beside it.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, Default,
)]
#[serde(rename_all = "kebab-case")]
pub enum Context {
    /// The selected classes only (gradle-flaky's planned runs).
    #[default]
    Alone,
    /// The test's whole test task, as a build (CI) runs it.
    Task,
}

impl Context {
    pub fn as_str(self) -> &'static str {
        match self {
            Context::Alone => "alone",
            Context::Task => "task",
        }
    }
}

/// How its executions were repeated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Repetition {
    /// Several executions of the test in one test JVM.
    InJvm,
    /// One execution of the test per test JVM, as CI runs it.
    FreshJvm,
}

impl Repetition {
    pub fn as_str(self) -> &'static str {
        match self {
            Repetition::InJvm => "in-jvm",
            Repetition::FreshJvm => "fresh-jvm",
        }
    }
}

/// Where an execution came in its JVM.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Position {
    /// The test's first execution in its JVM: what CI runs.
    First,
    /// A later execution in a JVM that already ran it.
    Repeat,
}

impl Position {
    pub fn as_str(self) -> &'static str {
        match self {
            Position::First => "first",
            Position::Repeat => "repeat",
        }
    }
}

/// The condition of an execution, or of counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Condition {
    pub context: Context,
    pub repetition: Repetition,
    /// What repeated it in the JVM, when known; absent for fresh JVMs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mechanism: Option<InJvm>,
    /// Its position in its JVM. Every execution read has one; `None` is
    /// counts of every position pooled (ledger lines written before
    /// positions were kept apart).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub execution: Option<Position>,
}

impl Condition {
    /// The condition of a fresh test JVM per execution: always a first execution.
    pub fn fresh(context: Context) -> Condition {
        Condition {
            context,
            repetition: Repetition::FreshJvm,
            mechanism: None,
            execution: Some(Position::First),
        }
    }

    /// The same condition, every position pooled.
    pub fn pooled(self) -> Condition {
        Condition {
            execution: None,
            ..self
        }
    }

    /// A first execution in its JVM (a fresh JVM's executions all are).
    pub fn is_first(&self) -> bool {
        self.execution == Some(Position::First)
    }

    /// `alone, in-jvm, tests-iters, first`: for people, short.
    pub fn label(&self) -> String {
        let mut parts = vec![self.context.as_str(), self.repetition.as_str()];
        parts.extend(self.mechanism.map(InJvm::as_str));
        parts.extend(self.execution.map(Position::as_str));
        parts.join(", ")
    }

    /// `alone · in-jvm (tests-iters) · first in its JVM`: for people, in a report.
    pub fn describe(&self) -> String {
        let repetition = match self.mechanism {
            Some(m) => format!("{} ({})", self.repetition.as_str(), m.as_str()),
            None => self.repetition.as_str().to_string(),
        };
        let position = match self.execution {
            Some(Position::First) => " · first in its JVM",
            Some(Position::Repeat) => " · repeat in a warm JVM",
            None => "",
        };
        format!("{} · {repetition}{position}", self.context.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lines written before positions were kept apart read as pooled, and
    /// a condition's JSON names every field it has.
    #[test]
    fn conditions_read_with_and_without_a_position() {
        let old: Condition = serde_json::from_str(
            r#"{"context":"alone","repetition":"in-jvm","mechanism":"tests-iters"}"#,
        )
        .unwrap();
        assert_eq!(old.execution, None);
        assert_eq!(old.mechanism, Some(InJvm::TestsIters));
        assert_eq!(old.label(), "alone, in-jvm, tests-iters");
        let first = Condition {
            execution: Some(Position::First),
            ..old
        };
        assert_eq!(
            serde_json::to_string(&first).unwrap(),
            r#"{"context":"alone","repetition":"in-jvm","mechanism":"tests-iters","execution":"first"}"#
        );
        assert_eq!(first.pooled(), old);
        assert_eq!(
            Condition::fresh(Context::Task).describe(),
            "task · fresh-jvm · first in its JVM"
        );
        let unknown = r#"{"context":"alone","repetition":"in-jvm","mechanism":"<script>"}"#;
        assert!(serde_json::from_str::<Condition>(unknown).is_err());
    }
}
