//! The final analyze step, pure part: status files, each job's report, the
//! not-applicable list and the compile gate → the `flakiness-outcomes.json`
//! payloads and the part of the annotation about jobs.

use super::ExpectedStep;
use crate::analyze::outcome::{Job, JobPayload, OutcomeKind};
use crate::analyze::Report;
use crate::domain::Unresolved;
use crate::run::wrap::Status;

/// The payload of a batch job from its status file and the report of its own XML.
///
/// The timeout threshold is the inner timeout the job really ran under
/// (`timeoutSec`; the reference used a fixed 3480 s for every step). Without
/// one, nothing stopped the job on time, so an rc 137 is a kill, never a timeout.
pub fn job_payload(status: &Status, report: &Report) -> JobPayload {
    let job = Job {
        job_id: status.job_id.clone(),
        step_key: status.step_key.clone(),
        kind: status.kind.clone(),
        rc: status.rc,
        duration_sec: status.duration_sec,
        oom_detected: status.infra_subtype == "oom",
    };
    JobPayload::for_job(&job, report, status.timeout_sec.unwrap_or(u64::MAX))
}

/// The record of a test that was found but has no Test task to re-run it
/// (reference `notApplicablePayload`; its reason was always `bwc`).
pub fn not_applicable_payload(test: &Unresolved) -> JobPayload {
    JobPayload {
        job_id: format!("not-applicable:{}", test.input),
        reason: Some("no-runnable-task".into()),
        ..empty_payload(OutcomeKind::NotApplicable)
    }
}

/// The single record of a failed compile gate (reference `buildFailedPayload`).
pub fn build_failed_payload() -> JobPayload {
    JobPayload {
        job_id: "build-failed:precompile".into(),
        step_key: super::PRECOMPILE_KEY.into(),
        rc: 1,
        reason: Some("precompile".into()),
        ..empty_payload(OutcomeKind::BuildFailed)
    }
}

fn empty_payload(outcome: OutcomeKind) -> JobPayload {
    JobPayload {
        job_id: String::new(),
        step_key: String::new(),
        kind: String::new(),
        rc: 0,
        duration_sec: 0,
        real_failures: 0,
        suite_timeouts: 0,
        total_cases: 0,
        outcome,
        timed_out: false,
        failing_classes: vec![],
        infra_subtype: None,
        reason: None,
    }
}

/// The compile gate failed: `flakiness-precompile.json` says `build_failed`.
pub fn is_precompile_failure(raw: Option<&str>) -> bool {
    raw.and_then(|text| serde_json::from_str::<serde_json::Value>(text).ok())
        .is_some_and(|v| v["outcome"] == "build_failed")
}

/// A batch job that should have written a status file and did not.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Missing {
    pub step_key: String,
    pub label: String,
    /// 1-based, as Buildkite numbers parallel jobs.
    pub job: u32,
    pub of: u32,
}

/// The expected jobs without a status file, in pipeline order.
pub fn missing_jobs(expected: &[ExpectedStep], statuses: &[Status]) -> Vec<Missing> {
    expected
        .iter()
        .flat_map(|step| {
            (0..step.jobs)
                .filter(move |i| {
                    !statuses.iter().any(|s| {
                        s.step_key == step.step_key && s.parallel_job.unwrap_or(0) == *i
                    })
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

/// The annotation's opening: one row per job, then what did not run and why.
/// The aggregate report (rendered by `analyze::render`) follows it.
pub fn jobs_section(
    payloads: &[JobPayload],
    missing: &[Missing],
    not_applicable: &[Unresolved],
    build_failed: bool,
) -> String {
    let mut out = String::from("## Flakiness detection: jobs\n\n");
    let jobs: Vec<&JobPayload> = payloads
        .iter()
        .filter(|p| !matches!(p.outcome, OutcomeKind::NotApplicable | OutcomeKind::BuildFailed))
        .collect();
    if !jobs.is_empty() {
        out.push_str("| step | job | outcome | rc | duration | real failures | cases |\n");
        out.push_str("|---|---|---|---:|---:|---:|---:|\n");
        for p in jobs {
            let mut outcome = outcome_name(p);
            if p.timed_out && p.outcome != OutcomeKind::Timeout {
                outcome.push_str(" (timed out)");
            }
            out.push_str(&format!(
                "| `{}` | `{}` | {outcome} | {} | {}s | {} | {} |\n",
                cell(&p.step_key),
                cell(&p.job_id),
                p.rc,
                p.duration_sec,
                p.real_failures,
                p.total_cases
            ));
        }
        out.push('\n');
    }
    if build_failed {
        out.push_str(
            "**The selected tests failed to compile** (step `precompile`): the batches were \
             skipped. See the precompile job's log.\n\n",
        );
    } else if !missing.is_empty() {
        out.push_str(&format!(
            "**{} job(s) left no status file** (the agent was lost, or the job was cancelled or \
             killed before its wrapper finished); their results are unknown:\n\n",
            missing.len()
        ));
        for m in missing {
            out.push_str(&format!("- `{}` ({}) job {}/{}\n", cell(&m.step_key), cell(&m.label), m.job, m.of));
        }
        out.push('\n');
    }
    if !not_applicable.is_empty() {
        out.push_str(&format!(
            "**{} test(s) not applicable** (recorded as `not_applicable`, not re-run):\n\n",
            not_applicable.len()
        ));
        for t in not_applicable {
            out.push_str(&format!("- `{}`: {}\n", cell(&t.input), cell(&t.reason)));
        }
        out.push('\n');
    }
    out
}

fn outcome_name(p: &JobPayload) -> String {
    let v = serde_json::to_value(p.outcome).expect("an outcome serializes");
    let mut name = v.as_str().unwrap_or_default().to_string();
    if let Some(sub) = p.infra_subtype {
        let sub = serde_json::to_value(sub).expect("a subtype serializes");
        name.push_str(&format!(" ({})", sub.as_str().unwrap_or_default()));
    }
    name
}

/// Text from a branch inside a table cell or code span: no pipes, backticks or newlines.
fn cell(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            '|' => '¦',
            '`' => '\'',
            '\n' | '\r' => ' ',
            c => c,
        })
        .collect()
}
