//! The status file a batch job leaves (`flakiness-status/status-<jobId>.json`):
//! how its command ended, for the report step. Written by every CI's batch
//! job, read by every CI's report step.

use super::job::{safe_job_id, JobEnv};
use crate::analyze::model::cost::BudgetStop;
use crate::analyze::model::outcome::InfraSubtype;
use crate::analyze::model::report::JobEngine;
use crate::domain::TestKind;
use crate::jvm_options::InheritedJvmOptions;
use crate::reports::walk;
use crate::run::job::Finished;
use crate::run::outcomes::TaskOutcome;
use crate::{tell, Error, Result};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The status file of one batch job: Elasticsearch's fields in its order, then ours.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Status {
    pub job_id: String,
    #[serde(default)]
    pub step_key: String,
    #[serde(default, with = "crate::analyze::model::outcome::kind_text")]
    pub kind: Option<TestKind>,
    #[serde(default)]
    pub rc: i32,
    #[serde(default)]
    pub duration_sec: u64,
    /// `oom` when a test JVM wrote a heap dump during the run, else empty.
    #[serde(default, with = "infra_text")]
    pub infra_subtype: Option<InfraSubtype>,
    /// The inner timeout this job ran under: the analyze step's threshold for
    /// telling a timeout from a kill (Elasticsearch's used a fixed 3480 s).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout_sec: Option<u64>,
    /// The wrapper was cancelled (SIGTERM/SIGINT) and forwarded it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub cancelled: bool,
    /// Which batch of its step this job ran (Buildkite's `$BUILDKITE_PARALLEL_JOB`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parallel_job: Option<u32>,
    /// The batch's Test tasks the build skipped (an `onlyIf` that is false, a
    /// disabled task, no source) in any of its invocations.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub skipped_tasks: Vec<TaskOutcome>,
    /// The build skipped every Test task the batch asked for (in a loop's
    /// last iteration): nothing was checked.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub all_tasks_skipped: bool,
    /// JVM options from the environment its test JVMs ran under.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub inherited_jvm_options: Vec<InheritedJvmOptions>,
    /// What the repetition engine did with the batch; `None` in a status
    /// file of a job that ran a command line once (an earlier version's, or
    /// `buildkite wrap -- COMMAND`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine: Option<EngineRun>,
}

/// What the repetition engine did with a job's batch: its iterations run
/// against planned, the tests it proved early and what that saved, the
/// classes it switched or fell back to Gradle runs, a stop by its budget.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub(crate) struct EngineRun {
    /// Iterations each test of the batch was planned.
    pub planned: u64,
    /// Iterations each test of the batch ran, in the batch's order (an
    /// invocation without a result ran none).
    pub ran: Vec<u64>,
    /// Its Gradle invocations.
    pub invocations: u32,
    /// It ran in chunks of its own choosing (a budget, stop on proof).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub chunked: bool,
    /// The tests stop on proof took out before their count.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub proven: Vec<ProvenRun>,
    /// Classes whose in-JVM iterations cost more than fresh runs.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub dearer: Vec<DearerRun>,
    /// Classes weighed in one JVM and found no dearer.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub cheaper: Vec<String>,
    /// What the batch did besides its invocations, a line each (a fallback,
    /// a switch, a proof), as its log says it.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub lines: Vec<String>,
    /// Its budget stopped it before its count: the next chunk did not fit.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub budget_stop: Option<BudgetStopRun>,
    /// Seconds of job time the batch's early end saved: what its chunks
    /// still owed would have taken at the pace it measured.
    #[serde(skip_serializing_if = "is_zero")]
    pub saved_sec: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

impl EngineRun {
    /// Iterations the batch's tests ran, added up.
    pub(crate) fn iterations_run(&self) -> u64 {
        self.ran.iter().sum()
    }

    /// Iterations the batch's tests were planned, added up.
    pub(crate) fn iterations_planned(&self) -> u64 {
        self.planned * self.ran.len() as u64
    }

    /// Iterations stop on proof saved.
    pub(crate) fn iterations_saved(&self) -> u64 {
        self.proven.iter().map(|p| p.saved).sum()
    }

    /// The classes it switched to Gradle runs.
    pub(crate) fn switched(&self) -> impl Iterator<Item = &DearerRun> {
        self.dearer.iter().filter(|d| d.switched)
    }
}

/// A test stop on proof took out of a job's batch.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ProvenRun {
    /// As the report names it (`Class#method`).
    pub test: String,
    /// Iterations it ran until it was proven flaky.
    pub after: u64,
    /// Iterations it was planned but did not run.
    pub saved: u64,
}

/// A class whose in-JVM iterations cost more than fresh Gradle runs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct DearerRun {
    pub class: String,
    /// Wall time per iteration of the chunk that showed it.
    pub per_iteration_ms: u64,
    /// Test time each of its last iterations, when they decided.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_ms: Option<u64>,
    /// What one fresh Gradle run costs.
    pub fresh_run_ms: u64,
    /// What it still owed ran as Gradle runs (`auto`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub switched: bool,
}

/// A job's batch its budget stopped.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct BudgetStopRun {
    pub budget_sec: u64,
    pub iterations_run: u64,
    pub iterations_planned: u64,
}

/// The status of a finished batch job.
pub(crate) fn status_of(
    job: &JobEnv,
    kind: &str,
    finished: &Finished,
    timeout: Option<Duration>,
    oom: bool,
) -> Status {
    Status {
        job_id: job.job_id.clone(),
        step_key: job.step_key.clone(),
        kind: (!kind.is_empty()).then(|| TestKind::parse(kind)),
        rc: finished.rc,
        duration_sec: finished.duration.as_secs(),
        infra_subtype: oom.then_some(InfraSubtype::Oom),
        timeout_sec: timeout.map(|t| t.as_secs()),
        cancelled: finished.cancelled,
        parallel_job: job.parallel_job,
        ..Status::default()
    }
}

/// Where the status file of `job_id` goes.
pub(crate) fn status_path(status_dir: &Path, job_id: &str) -> PathBuf {
    status_dir.join(format!("status-{job_id}.json"))
}

/// Writes the status file (compact JSON), creating its directory.
pub(crate) fn write_status(status_dir: &Path, status: &Status) -> Result<PathBuf> {
    std::fs::create_dir_all(status_dir).map_err(|e| Error::io(status_dir, e))?;
    let path = status_path(status_dir, &status.job_id);
    let json = serde_json::to_string(status).expect("a status serializes");
    std::fs::write(&path, json).map_err(|e| Error::io(&path, e))?;
    Ok(path)
}

/// Every readable status file, by file name; others are reported and skipped.
pub(crate) fn read_statuses(dir: &Path) -> Vec<Status> {
    walk::list(dir)
        .unwrap_or_default()
        .iter()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .filter_map(|path| {
            let parsed = std::fs::read_to_string(&path)
                .map_err(|e| e.to_string())
                .and_then(|t| serde_json::from_str::<Status>(&t).map_err(|e| e.to_string()));
            match parsed {
                // The job id names a directory: only a plain id may (a status file comes from a branch's job).
                Ok(s) if safe_job_id(Some(&s.job_id)) == s.job_id => Some(s),
                Ok(s) => {
                    tell!("{}: ignoring job id {:?}", path.display(), s.job_id);
                    None
                }
                Err(e) => {
                    tell!("failed to read status file {}: {e}", path.display());
                    None
                }
            }
        })
        .collect()
}

/// One batch job as the report step found it: its status file and the folder
/// holding its JUnit XML (a copy of the build's tree).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct JobRun {
    pub status: Status,
    pub dir: PathBuf,
}

impl JobRun {
    /// What the repetition engine did with the job's batch, as the report's
    /// model holds it; `None` when its status file does not say.
    pub(crate) fn engine(&self) -> Option<JobEngine> {
        let e = self.status.engine.as_ref()?;
        Some(JobEngine {
            job_id: self.status.job_id.clone(),
            step_key: self.status.step_key.clone(),
            iterations_run: e.iterations_run(),
            iterations_planned: e.iterations_planned(),
            invocations: e.invocations,
            chunked: e.chunked,
            lines: e.lines.clone(),
            budget_stop: self.budget_stop(),
            saved_sec: e.saved_sec,
        })
    }

    /// The job's batch its budget stopped, as the report names it.
    pub(crate) fn budget_stop(&self) -> Option<BudgetStop> {
        let b = self.status.engine.as_ref()?.budget_stop.as_ref()?;
        Some(BudgetStop {
            job: format!("job {} ({})", self.status.job_id, self.status.step_key),
            budget_sec: b.budget_sec,
            iterations_run: b.iterations_run,
            iterations_planned: b.iterations_planned,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_keeps_the_reference_field_order() {
        let job = JobEnv {
            job_id: "j-1".into(),
            step_key: "flakiness-detection:unit".into(),
            label: "unit tests".into(),
            parallel_job: None,
        };
        let f = Finished {
            rc: 1,
            duration: Duration::from_millis(2500),
            timed_out: false,
            cancelled: false,
        };
        let status = status_of(&job, "unit", &f, None, true);
        assert_eq!(
            serde_json::to_string(&status).unwrap(),
            r#"{"jobId":"j-1","stepKey":"flakiness-detection:unit","kind":"unit","rc":1,"durationSec":2,"infraSubtype":"oom"}"#
        );
        let read: Status = serde_json::from_str(r#"{"jobId":"x"}"#).unwrap();
        assert_eq!((read.rc, read.timeout_sec), (0, None));
    }

    /// A status file an earlier version's job left (before batches were
    /// typed) reads as it did: the kind is still its name.
    #[test]
    fn an_earlier_versions_status_file_stays_readable() {
        let dir = tempfile::tempdir().unwrap();
        let old = r#"{"jobId":"0190-a","stepKey":"flakiness-detection:yaml-suite",
            "kind":"yamlRestTestSuite","rc":124,"durationSec":3480,"infraSubtype":"",
            "timeoutSec":3480,"parallelJob":1,
            "skippedTasks":[{"path":":m:yamlRestTest","state":"skipped"}]}"#;
        std::fs::write(dir.path().join("status-0190-a.json"), old).unwrap();
        let read = read_statuses(dir.path());
        assert_eq!(read.len(), 1, "{read:?}");
        let status = &read[0];
        assert_eq!(status.kind, Some(TestKind::YamlRestTestSuite));
        assert_eq!((status.rc, status.parallel_job), (124, Some(1)));
        assert_eq!(status.skipped_tasks.len(), 1);
        let again = serde_json::to_value(status).unwrap();
        assert_eq!(again["kind"], "yamlRestTestSuite");
    }
}

/// The infrastructure subtype in a status file: its name, `""` for none.
mod infra_text {
    use crate::analyze::model::outcome::InfraSubtype;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub(super) fn serialize<S: Serializer>(
        v: &Option<InfraSubtype>,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        match v {
            Some(subtype) => subtype.serialize(s),
            None => s.serialize_str(""),
        }
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(
        d: D,
    ) -> Result<Option<InfraSubtype>, D::Error> {
        let text = String::deserialize(d)?;
        if text.is_empty() {
            return Ok(None);
        }
        let quoted = serde_json::Value::String(text);
        InfraSubtype::deserialize(quoted)
            .map(Some)
            .map_err(serde::de::Error::custom)
    }
}
