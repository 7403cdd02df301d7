//! Analysis: JUnit XML → per-test statistics → markdown / JSON report and per-job outcomes.

pub mod aggregate;
pub mod junit;
pub mod outcome;
pub mod render;
pub mod stats;
