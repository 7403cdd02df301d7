//! Running planned commands on this machine: batches, loops with per-iteration
//! XML relocation, process supervision (on the user's daemon or isolated),
//! progress.

pub mod cause;
pub mod daemon;
pub mod local;
pub mod outcomes;
pub mod process;
pub mod progress;
pub mod repeat;
pub mod tree;
