//! Running planned commands on this machine: batches, loops with per-iteration
//! XML relocation (supervised by [`crate::process`]), progress, the task states
//! Gradle reports.

pub mod cause;
pub mod chunks;
pub mod local;
pub mod outcomes;
pub mod progress;
pub mod repeat;
pub mod task_state;
