//! The report model: executions' counts per condition, tests, their
//! verdicts and warnings, job outcomes, comparisons and cost. Types only (and
//! their plain accessors): the rules that fill them live in `rules`, the
//! renderers in `render`; nothing here imports either.

pub mod clusters;
pub mod comparison;
pub mod cost;
pub mod counts;
pub mod outcome;
pub mod report;

pub use report::{Report, Severity};
