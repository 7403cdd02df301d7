//! Analysis: JUnit XML → per-test statistics → markdown / JSON / JUnit report,
//! in four rooms whose arrows point down:
//! - [`read`]: the run folders' JUnit XML (streaming reader, filters, names,
//!   each execution's condition) merged into the model;
//! - [`rules`]: what the counts mean (verdicts, first executions, context,
//!   drift, neighbours, the plan against what ran, job outcomes);
//! - [`model`]: the report's types, at the bottom: it imports no rule;
//! - [`render`]: the model as markdown, JSON and JUnit text.

pub mod model;
pub mod read;
pub mod render;
pub mod rules;

pub use model::{Report, Severity};
pub use read::{analyze_root, analyze_roots, AnalyzeOptions, RepeatedDir};
