//! Running planned commands on this machine: batches, loops with per-iteration
//! XML relocation, process supervision (on the user's daemon or isolated),
//! progress, the task states Gradle reports.

pub mod cause;
pub mod chunks;
pub mod daemon;
pub mod local;
pub mod outcomes;
pub mod process;
pub mod progress;
pub mod repeat;
pub mod task_state;
pub mod tree;
