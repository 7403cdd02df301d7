//! The report's cost section: what the run requested and ran, the job
//! minutes, and what stop on proof and the budgets saved.

use crate::analyze::model::cost::Cost;
use crate::markdown;

/// The report's cost section.
pub(crate) fn markdown(cost: &Cost) -> String {
    match cost.ci_jobs {
        Some(jobs) => ci_jobs(cost, jobs),
        None => run(cost),
    }
}

/// What a CI run's batch jobs cost: executions run against the iterations
/// the plan requested, job-minutes, and the longest job (the wall time when
/// they run side by side). CI jobs run their planned count: budgets' chunks
/// and stop on proof are `local`'s.
fn ci_jobs(cost: &Cost, jobs: u64) -> String {
    let requested = match cost.iterations_requested {
        0 => String::new(),
        n => format!("; iterations requested: {n} (a class's iteration runs each of its methods)"),
    };
    format!(
        "### Cost\n\n- executions: {} ran in {jobs} job(s){requested}\n- job-minutes: {:.1}; \
         longest job: {} (the wall time when the jobs run side by side)\n- nothing saved: CI jobs \
         run their planned count (chunks and stop on proof run locally)\n",
        cost.executions_run,
        cost.job_minutes,
        wall(cost.wall_sec)
    )
}

/// What a local run cost.
fn run(cost: &Cost) -> String {
    let mut md = String::from("### Cost\n\n");
    md += &format!(
        "- executions: {} of {} requested ran; iterations: {} of {} requested ran",
        cost.executions_run,
        cost.executions_requested,
        cost.iterations_run,
        cost.iterations_requested
    );
    if cost.iterations_saved > 0 {
        md += &format!(" ({} saved by stop on proof)", cost.iterations_saved);
    }
    md += &format!(
        "\n- job-minutes: {:.1}; wall time: {}\n",
        cost.job_minutes,
        wall(cost.wall_sec)
    );
    for p in &cost.proven {
        md += &format!(
            "- {} was proven flaky after {} iteration(s): {} saved\n",
            markdown::code(&p.test),
            p.after_iterations,
            p.saved_iterations
        );
    }
    for b in &cost.budget_stops {
        md += &format!(
            "- {} was stopped by its budget ({}s) after {} of {} iterations: the next \
             chunk did not fit\n",
            markdown::text(&b.job),
            b.budget_sec,
            b.iterations_run,
            b.iterations_planned
        );
    }
    md
}

/// `95` seconds as `1m35s`, under a minute as `35s`.
pub(crate) fn wall(secs: f64) -> String {
    let s = secs.round() as u64;
    if s >= 60 {
        format!("{}m{:02}s", s / 60, s % 60)
    } else {
        format!("{s}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyze::model::cost::{BudgetStop, ProvenEarly};

    #[test]
    fn the_cost_section_says_what_ran_and_what_was_saved() {
        let cost = Cost {
            executions_requested: 300,
            executions_run: 120,
            iterations_requested: 200,
            iterations_run: 110,
            iterations_saved: 90,
            job_minutes: 1.5,
            wall_sec: 95.0,
            proven: vec![ProvenEarly {
                test: "a.`Flaky`".into(),
                after_iterations: 10,
                saved_iterations: 90,
            }],
            budget_stops: vec![BudgetStop {
                job: "batch 2 (unit tests)".into(),
                budget_sec: 60,
                iterations_run: 40,
                iterations_planned: 100,
            }],
            ci_jobs: None,
        };
        let md = markdown(&cost);
        assert!(md.contains("iterations: 110 of 200 requested ran (90 saved by stop on proof)"));
        assert!(md.contains("job-minutes: 1.5; wall time: 1m35s"));
        assert!(md.contains("after 10 iteration(s): 90 saved"));
        assert!(md.contains("stopped by its budget (60s) after 40 of 100 iterations"));
        assert!(!md.contains("a.`Flaky`` "), "code spans are escaped: {md}");
    }
}
