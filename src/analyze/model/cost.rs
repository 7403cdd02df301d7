//! What a run cost and what its stop rules saved: executions run against
//! requested, job-minutes, wall time, the tests stop on proof took out and the
//! batches their budget stopped. Rendered in the reports' markdown and JSON.

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
    /// The batch jobs of a CI run, which ran side by side: the wall time is
    /// then the longest job's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ci_jobs: Option<u64>,
}

/// A test stop on proof took out of its batch.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ProvenEarly {
    pub test: String,
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
