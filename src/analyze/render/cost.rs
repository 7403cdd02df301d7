//! The report's cost section: what the run requested and ran, the job
//! minutes, and what stop on proof and the budgets saved.

use crate::analyze::model::cost::{Cost, JobsCost};
use crate::markdown;

/// The report's cost section: a CI run's jobs or a run on this machine,
/// then what stop on proof, the budgets and the switch to Gradle runs did.
pub(crate) fn markdown(cost: &Cost) -> String {
    let mut md = String::from("### Cost\n\n");
    md += &match &cost.ci_jobs {
        Some(jobs) => ci_jobs(cost, jobs),
        None => run(cost),
    };
    for p in &cost.proven {
        let job = match &p.job {
            Some(job) => format!(" in job {}", markdown::code(job)),
            None => String::new(),
        };
        md += &format!(
            "- {} was proven flaky after {} iteration(s){job}: {} saved\n",
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
    for s in cost.ci_jobs.iter().flat_map(|j| &j.switched) {
        md += &format!(
            "- {} ran on as Gradle runs in job {}: its in-JVM iterations cost more than \
             fresh runs\n",
            markdown::code(&s.class),
            markdown::code(&s.job)
        );
    }
    md
}

/// What a CI run's batch jobs cost: executions and iterations, job-minutes
/// and the longest job (the wall time when they run side by side), what the
/// engine saved (jobs of an earlier version ran their planned count).
fn ci_jobs(cost: &Cost, jobs: &JobsCost) -> String {
    let iterations = match (jobs.engine, cost.iterations_requested) {
        (true, requested) => {
            let mut s = format!(
                "; iterations: {} of {requested} requested ran",
                cost.iterations_run
            );
            if cost.iterations_saved > 0 {
                s += &format!(" ({} saved by stop on proof)", cost.iterations_saved);
            }
            s
        }
        (false, 0) => String::new(),
        (false, n) => {
            format!("; iterations requested: {n} (a class's iteration runs each of its methods)")
        }
    };
    let saved = match (jobs.engine, jobs.minutes_saved > 0.0) {
        (true, true) => format!(
            "\n- about {:.1} job-minutes saved: the jobs that ended early, at the pace each \
             measured",
            jobs.minutes_saved
        ),
        (true, false) => String::new(),
        (false, _) => "\n- nothing saved: these jobs ran their planned count (an earlier \
                       version's, without the repetition engine)"
            .into(),
    };
    format!(
        "- executions: {} ran in {} job(s){iterations}\n- job-minutes: {:.1}; longest job: {} \
         (the wall time when the jobs run side by side){saved}\n",
        cost.executions_run,
        jobs.count,
        cost.job_minutes,
        wall(cost.wall_sec)
    )
}

/// What a run on this machine cost: executions and iterations, job-minutes,
/// wall time.
fn run(cost: &Cost) -> String {
    let mut md = format!(
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
                job: None,
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
