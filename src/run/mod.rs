//! Running planned commands: locally, in REST loops, or as a Buildkite pipeline.

pub mod buildkite;
pub mod local;
pub mod process;
pub mod progress;
pub mod repeat;
pub mod wrap;
