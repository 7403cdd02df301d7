//! What a CI run's batch jobs cost, from their payloads and status files:
//! the executions they ran, the iterations the plan requested and the
//! engine ran, the job-minutes and the longest job, and what stop on proof
//! saved (iterations, and job-minutes at each job's measured pace), the
//! budgets that stopped a job, the classes a job switched to Gradle runs.
//! The report's model type (`analyze::model::cost::Cost`) holds it.

use super::spec::ExpectedStep;
use super::status::JobRun;
use crate::analyze::model::cost::{Cost, JobsCost, ProvenEarly, Switched};
use crate::analyze::model::outcome::JobPayload;

/// The cost of `jobs` (their `payloads`, in the same order), run as `steps`
/// planned; `None` without a job.
pub(crate) fn of(payloads: &[JobPayload], steps: &[ExpectedStep], jobs: &[JobRun]) -> Option<Cost> {
    if payloads.is_empty() {
        return None;
    }
    let seconds: u64 = payloads.iter().map(|p| p.duration_sec).sum();
    let longest = payloads.iter().map(|p| p.duration_sec).max().unwrap_or(0);
    let mut cost = Cost {
        executions_run: payloads.iter().map(|p| p.total_cases).sum(),
        iterations_requested: steps.iter().map(|s| s.iterations).sum(),
        job_minutes: seconds as f64 / 60.0,
        wall_sec: longest as f64,
        ..Cost::default()
    };
    let mut shape = JobsCost {
        count: payloads.len() as u64,
        ..JobsCost::default()
    };
    for job in jobs {
        let Some(engine) = &job.status.engine else {
            continue;
        };
        let id = &job.status.job_id;
        shape.engine = true;
        shape.minutes_saved += engine.saved_sec as f64 / 60.0;
        cost.iterations_run += engine.iterations_run();
        cost.iterations_saved += engine.iterations_saved();
        cost.proven
            .extend(engine.proven.iter().map(|p| ProvenEarly {
                test: p.test.clone(),
                job: Some(id.clone()),
                after_iterations: p.after,
                saved_iterations: p.saved,
            }));
        cost.budget_stops.extend(job.budget_stop());
        shape.switched.extend(engine.switched().map(|d| Switched {
            class: d.class.clone(),
            job: id.clone(),
        }));
    }
    cost.ci_jobs = Some(shape);
    Some(cost)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyze::render::cost::markdown;
    use crate::ci::status::{BudgetStopRun, DearerRun, EngineRun, ProvenRun, Status};

    fn job(id: &str, engine: Option<EngineRun>) -> JobRun {
        let mut status: Status =
            serde_json::from_value(serde_json::json!({ "jobId": id, "stepKey": "s" })).unwrap();
        status.engine = engine;
        JobRun {
            status,
            dir: Default::default(),
        }
    }

    fn payload(id: &str, seconds: u64, cases: u64) -> JobPayload {
        let mut p = JobPayload::build_failed();
        (p.job_id, p.duration_sec, p.total_cases) = (id.into(), seconds, cases);
        p
    }

    /// A job that proved `a.F#m` flaky after `after` of 50 iterations.
    fn proven(after: u64, saved: u64) -> EngineRun {
        EngineRun {
            planned: 50,
            ran: vec![after],
            invocations: 2,
            chunked: true,
            proven: vec![ProvenRun {
                test: "a.F#m".into(),
                after,
                saved,
            }],
            saved_sec: 90,
            ..EngineRun::default()
        }
    }

    /// A job its budget stopped after 40 of 100, which switched `a.G`.
    fn budget() -> EngineRun {
        EngineRun {
            planned: 100,
            ran: vec![40],
            invocations: 3,
            budget_stop: Some(BudgetStopRun {
                budget_sec: 600,
                iterations_run: 40,
                iterations_planned: 100,
            }),
            dearer: vec![DearerRun {
                class: "a.G".into(),
                per_iteration_ms: 3000,
                last_ms: None,
                fresh_run_ms: 1200,
                switched: true,
            }],
            ..EngineRun::default()
        }
    }

    /// Two shards of one class each stopped on their own proof, a third
    /// job stopped by its budget and switched a class: the report counts
    /// every iteration and job-minute saved, job by job.
    #[test]
    fn the_jobs_cost_counts_what_each_engine_saved() {
        let jobs = [
            job("j1", Some(proven(5, 45))),
            job("j2", Some(proven(10, 40))),
            job("j3", Some(budget())),
        ];
        let payloads = [
            payload("j1", 60, 5),
            payload("j2", 90, 10),
            payload("j3", 600, 40),
        ];
        let steps = [ExpectedStep {
            step_key: "s".into(),
            kind: "unit".into(),
            label: "unit tests".into(),
            jobs: 3,
            iterations: 200,
            whole_task: false,
            selected: vec![],
            runs: vec![],
            repeated_by: vec![],
        }];
        let cost = of(&payloads, &steps, &jobs).unwrap();
        assert_eq!(
            (
                cost.iterations_run,
                cost.iterations_saved,
                cost.executions_run
            ),
            (55, 85, 55)
        );
        let shape = cost.ci_jobs.as_ref().unwrap();
        assert_eq!((shape.count, cost.wall_sec), (3, 600.0));
        assert!((shape.minutes_saved - 3.0).abs() < 1e-9);
        let md = markdown(&cost);
        for line in [
            "- executions: 55 ran in 3 job(s); iterations: 55 of 200 requested ran (85 saved by stop on proof)",
            "- job-minutes: 12.5; longest job: 10m00s (the wall time when the jobs run side by side)",
            "- about 3.0 job-minutes saved",
            "- `a.F#m` was proven flaky after 5 iteration(s) in job `j1`: 45 saved",
            "- `a.F#m` was proven flaky after 10 iteration(s) in job `j2`: 40 saved",
            "- job j3 (s) was stopped by its budget (600s) after 40 of 100 iterations",
            "- `a.G` ran on as Gradle runs in job `j3`",
        ] {
            assert!(md.contains(line), "{line}\n{md}");
        }
        // Jobs of an earlier version ran their planned count.
        let old = of(&payloads[..1], &steps, &[job("j1", None)]).unwrap();
        assert!(markdown(&old).contains("- nothing saved: these jobs ran their planned count"));
        assert!(of(&[], &steps, &[]).is_none());
    }
}
