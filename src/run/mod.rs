//! Running planned commands on this machine: the repetition engine every
//! repeated Gradle command goes through (`engine`), one invocation with its
//! reports kept (`invoke`) and read (`evidence`), a run's guard (`guard`:
//! isolation, init scripts, supervision), the local batches (`local`), a CI
//! job's command (`job`),
//! progress, the task states Gradle reports. Processes are supervised by
//! [`crate::process`].

pub mod cause;
pub mod engine;
pub mod evidence;
pub mod guard;
pub mod invoke;
pub mod job;
pub mod local;
pub mod outcomes;
pub mod progress;
#[cfg(test)]
pub(crate) mod stand_in;
pub mod task_state;
