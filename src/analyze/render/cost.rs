//! The report's cost section: what the run requested and ran, the job
//! minutes, and what stop on proof and the budgets saved.

use crate::analyze::model::cost::{Cost, JobsCost};
use crate::markdown;

impl Cost {
    /// The report's cost section.
    pub(crate) fn markdown(&self) -> String {
        let mut md = String::from("### Cost\n\n");
        md += &match &self.jobs {
            Some(jobs) => self.jobs_lines(jobs),
            None => self.run_lines(),
        };
        for p in &self.proven {
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
        for b in &self.budget_stops {
            md += &format!(
                "- {} was stopped by its budget ({}s) after {} of {} iterations: the next \
                 chunk did not fit\n",
                markdown::text(&b.job),
                b.budget_sec,
                b.iterations_run,
                b.iterations_planned
            );
        }
        for s in self.jobs.iter().flat_map(|j| &j.switched) {
            md += &format!(
                "- {} ran on as Gradle runs in job {}: its in-JVM iterations cost more than \
                 fresh runs\n",
                markdown::code(&s.class),
                markdown::code(&s.job)
            );
        }
        md
    }

    /// A run on this machine: executions and iterations, job-minutes, wall time.
    fn run_lines(&self) -> String {
        let mut md = format!(
            "- executions: {} of {} requested ran; iterations: {} of {} requested ran",
            self.executions_run,
            self.executions_requested,
            self.iterations_run,
            self.iterations_requested
        );
        if self.iterations_saved > 0 {
            md += &format!(" ({} saved by stop on proof)", self.iterations_saved);
        }
        md += &format!(
            "\n- job-minutes: {:.1}; wall time: {}\n",
            self.job_minutes,
            wall(self.wall_sec)
        );
        md
    }

    /// CI's batch jobs: executions and iterations, job-minutes and the
    /// longest job, what the engine saved (jobs of an earlier version ran
    /// their planned count).
    fn jobs_lines(&self, jobs: &JobsCost) -> String {
        let iterations = match (jobs.engine, self.iterations_requested) {
            (true, requested) => {
                let mut s = format!(
                    "; iterations: {} of {requested} requested ran",
                    self.iterations_run
                );
                if self.iterations_saved > 0 {
                    s += &format!(" ({} saved by stop on proof)", self.iterations_saved);
                }
                s
            }
            (false, 0) => String::new(),
            (false, n) => format!(
                "; iterations requested: {n} (a class's iteration runs each of its methods)"
            ),
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
            self.executions_run,
            jobs.count,
            self.job_minutes,
            wall(jobs.longest_sec as f64)
        )
    }
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
            jobs: None,
        };
        let md = cost.markdown();
        assert!(md.contains("iterations: 110 of 200 requested ran (90 saved by stop on proof)"));
        assert!(md.contains("job-minutes: 1.5; wall time: 1m35s"));
        assert!(md.contains("after 10 iteration(s): 90 saved"));
        assert!(md.contains("stopped by its budget (60s) after 40 of 100 iterations"));
        assert!(!md.contains("a.`Flaky`` "), "code spans are escaped: {md}");
    }
}
