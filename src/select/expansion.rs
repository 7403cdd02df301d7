//! What the plan records of an expanded base (abstract, or a changed
//! concrete class, which Gradle may never run itself): the concrete
//! subclasses chosen, and those no task runs here.

use crate::domain::ReasonCode;
use serde::Serialize;

/// A base class and what ran for it (plan JSON `expansions`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Expansion {
    /// Binary name of the abstract class.
    pub base: String,
    /// The concrete subclasses chosen (binary names, sorted).
    pub chosen: Vec<String>,
    /// Concrete subclasses that a task would run.
    pub total: usize,
    pub cap: usize,
    /// The base is a concrete class that changed: its subclasses run what
    /// they inherit of the change, and it runs itself unless `base_not_run`
    /// says why Gradle never runs it.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub concrete_base: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub base_not_run: Option<String>,
    /// Concrete subclasses no task runs here, and why.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub not_run: Vec<NotRun>,
}

/// A concrete subclass of an expanded base that cannot run here.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NotRun {
    pub class: String,
    pub reason_code: ReasonCode,
    pub reason: String,
}
