//! Each batch judged by the outcome rules of a CI batch job, and what the
//! runner asks of the analyzer while batches run.

use crate::analyze::model::outcome::{InfraSubtype, JobPayload, JobRecord};
use crate::analyze::rules::planned::PlannedTest;
use crate::analyze::{self, AnalyzeOptions, RepeatedDir};
use crate::run::invoke::Iteration;
use crate::run::local::{self as runner, BatchRun};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Each batch judged, and one line per batch without a clean result (a heap
/// dump's `OutOfMemoryError` failures named as infrastructure among them).
pub(super) fn batches(
    runs: &[BatchRun],
    planned: &[PlannedTest],
    project_dir: &Path,
    opts: &AnalyzeOptions,
    timeout: Duration,
) -> (Vec<JobPayload>, Vec<String>) {
    let mut problems = runner::problems(runs, timeout);
    let mut batches = Vec::new();
    for run in runs {
        let (payload, oom) = judge(run, planned, project_dir, opts, timeout);
        problems.extend(oom);
        batches.push(payload);
    }
    (batches, problems)
}

/// A batch judged by the outcome rules of a Buildkite batch job (`rc`, its own
/// XML, and the heap dumps its test JVMs wrote), and a line for the end of the
/// run when a heap dump made its `OutOfMemoryError` failures infrastructure.
fn judge(
    run: &BatchRun,
    planned: &[PlannedTest],
    project_dir: &Path,
    opts: &AnalyzeOptions,
    timeout: Duration,
) -> (JobPayload, Option<String>) {
    // Its own reports, below its own folder: an in-JVM batch counts each case.
    let own = AnalyzeOptions {
        every_instance_below: runner::repeated_in_jvm(std::slice::from_ref(run))
            .into_iter()
            .filter_map(|r| {
                let below = r.dir.split_once('/')?.1.to_string();
                Some(RepeatedDir { dir: below, ..r })
            })
            .collect(),
        ..opts.clone()
    };
    let mut report = analyze::analyze_root(&run.dir, &own);
    // A whole-task run's unselected tests are no part of its outcome; a test
    // another batch selected is (the report counts it too).
    crate::analyze::rules::planned::set_apart_neighbours(&mut report, planned);
    let rc = run.rc();
    // A JVM that ran out of heap fails its Gradle run, so clean runs skip the scan.
    let dumps: Vec<PathBuf> = match rc {
        0 => Vec::new(),
        _ => crate::reports::heap_dumps_written(
            project_dir,
            &run.command.heap_dump_paths,
            run.started,
        ),
    };
    let job = JobRecord {
        job_id: format!("batch-{}", run.index),
        step_key: run.command.key.clone(),
        kind: Some(run.command.kind.clone()),
        rc,
        duration_sec: run.duration().as_secs(),
        oom_detected: !dumps.is_empty(),
        skipped: run
            .done
            .iterations
            .iter()
            .find(|it| it.skipped.is_some())
            .map(Iteration::skipped_tasks),
        all_tasks_skipped: run
            .done
            .iterations
            .last()
            .and_then(|it| it.skipped.as_ref())
            .is_some_and(|s| s.all),
    };
    let payload = JobPayload::judged(&job, &report, timeout.as_secs());
    let oom = (payload.infra_subtype == Some(InfraSubtype::Oom)).then(|| {
        let names: Vec<String> = dumps
            .iter()
            .map(|d| {
                d.strip_prefix(project_dir)
                    .unwrap_or(d)
                    .display()
                    .to_string()
            })
            .collect();
        let what = match names.is_empty() {
            true => "(java.lang.OutOfMemoryError; no heap dump found)".to_string(),
            false => format!("and wrote {}", names.join(", ")),
        };
        format!(
            "batch {} ({}): infra_fail (oom{}): a test JVM ran out of heap {what}; its {} \
             OutOfMemoryError failure(s) are heap exhaustion (infrastructure), not flakiness",
            run.index,
            run.command.label,
            if payload.timed_out { ", timed out" } else { "" },
            payload.heap_failures
        )
    });
    (payload, oom)
}
