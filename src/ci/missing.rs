//! The batch jobs a pipeline expected that left no status file: a job
//! that never started, or died before its wrapper could write one.

use super::spec::ExpectedStep;
use super::status::Status;
use crate::analyze::model::report::Missing;

/// The expected jobs without a status file, in pipeline order.
pub(crate) fn missing_jobs(expected: &[ExpectedStep], statuses: &[Status]) -> Vec<Missing> {
    expected
        .iter()
        .flat_map(|step| {
            (0..step.jobs)
                .filter(move |i| {
                    !statuses
                        .iter()
                        .any(|s| s.step_key == step.step_key && s.parallel_job.unwrap_or(0) == *i)
                })
                .map(move |i| Missing {
                    step_key: step.step_key.clone(),
                    label: step.label.clone(),
                    job: i + 1,
                    of: step.jobs,
                })
        })
        .collect()
}
