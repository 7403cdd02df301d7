//! What a run cost and what its stop rules saved: executions run against
//! requested, job-minutes, wall time, the tests stop on proof took out and the
//! batches their budget stopped; on CI, the jobs' shape (how many, the
//! longest), the job-minutes saved and the classes switched to Gradle runs.
//! Rendered in the reports' markdown and JSON.

use serde::{Deserialize, Serialize};

/// The cost of a run.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Cost {
    /// Test executions the plan asked for (every selected test's methods).
    pub executions_requested: u64,
    /// Test executions that ran.
    pub executions_run: u64,
    /// Iterations of the selected tests the plan asked for (a class's
    /// iteration runs each of its methods once).
    pub iterations_requested: u64,
    pub iterations_run: u64,
    /// Iterations stop on proof saved.
    pub iterations_saved: u64,
    /// Sum of the batch jobs' wall times, in minutes.
    pub job_minutes: f64,
    /// Wall time of the whole run, in seconds.
    pub wall_sec: f64,
    /// Tests proven flaky early.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub proven: Vec<ProvenEarly>,
    /// Batches their budget stopped.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub budget_stops: Vec<BudgetStop>,
    /// CI: the batch jobs, which ran side by side (the wall time is then
    /// the longest job's); `None`: a run on this machine.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ci_jobs: Option<JobsCost>,
}

/// What a CI run's batch jobs cost besides their executions.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct JobsCost {
    pub count: u64,
    /// The jobs ran their batches through the repetition engine (status
    /// files that say what it did): else they ran their planned count.
    pub engine: bool,
    /// Job-minutes the jobs' early ends saved (stop on proof), at the pace
    /// each measured.
    pub minutes_saved: f64,
    /// Classes a job switched to Gradle runs (dearer in one JVM).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub switched: Vec<Switched>,
}

/// A class a CI job switched to Gradle runs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Switched {
    pub class: String,
    pub job: String,
}

/// A test stop on proof took out of its batch.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ProvenEarly {
    pub test: String,
    /// The CI job it ran in (`None`: a run on this machine).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub job: Option<String>,
    /// Iterations it ran until it was proven flaky.
    pub after_iterations: u64,
    pub saved_iterations: u64,
}

/// A batch that ended because its next chunk did not fit its budget.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BudgetStop {
    pub job: String,
    pub budget_sec: u64,
    pub iterations_run: u64,
    pub iterations_planned: u64,
}
