//! Running planned commands on this machine: the repetition engine every
//! repeated Gradle command goes through (`engine`), one invocation with its
//! reports kept (`invoke`) and read (`evidence`), a run's guard (`guard`:
//! isolation, init scripts, supervision), the local batches (`local`), a CI
//! job's command (`job`),
//! progress, the task states Gradle reports. Processes are supervised by
//! [`crate::process`].

pub(crate) mod cause;
pub(crate) mod engine;
pub(crate) mod evidence;
pub(crate) mod guard;
pub(crate) mod invoke;
pub(crate) mod job;
pub(crate) mod local;
pub(crate) mod outcomes;
pub(crate) mod progress;
#[cfg(test)]
pub(crate) mod stand_in;
pub(crate) mod task_state;
