//! A test's executions by condition, with what their comparisons say: its
//! first executions in a JVM against its repeats ([`FirstExecution`]), and
//! its executions alone against those in its whole task
//! ([`ContextComparison`]).

use super::condition::{AtIndex, ConditionCounts, FirstExecution, Tally};
use super::context::ContextComparison;
use serde::Serialize;

/// A test's executions by condition (flattened into `tests[]`).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Conditions {
    /// Its counts per condition.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<ConditionCounts>,
    /// First executions in a JVM against repeats (in-JVM repetition only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_execution: Option<FirstExecution>,
    /// Alone against its whole task, when it ran in both.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub context: Option<ContextComparison>,
    /// Its in-JVM executions by position in their JVM (drift).
    #[serde(skip)]
    pub(crate) by_index: Vec<AtIndex>,
}

impl Conditions {
    pub(crate) fn of(tally: Tally) -> Conditions {
        let conditions = tally.rows();
        let first_execution = FirstExecution::of(&conditions);
        let first_dependent = first_execution.is_some_and(|f| f.dependent);
        Conditions {
            context: ContextComparison::of(&conditions, first_dependent),
            first_execution,
            conditions,
            by_index: tally.by_index,
        }
    }

    /// Its rates alone and in its task differ.
    pub(crate) fn context_dependent(&self) -> bool {
        self.context.as_ref().is_some_and(|c| c.dependent)
    }

    /// Its first executions in a JVM failed more than its repeats did.
    pub(crate) fn first_execution_dependent(&self) -> bool {
        self.first_execution.is_some_and(|f| f.dependent)
    }
}
