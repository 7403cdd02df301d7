//! Running planned commands on this machine: batches, loops with per-iteration
//! XML relocation, process supervision, progress.

pub mod cause;
pub mod local;
pub mod outcomes;
pub mod process;
pub mod progress;
pub mod repeat;
