//! What surrounds a report's tests, in the one order every report shows it:
//! first what limits what follows (an interrupted run, a CI step's missing
//! inputs, the selected tests that cannot run here), the comparison that
//! answers `--compare`, a CI run's jobs; after the tests, what the ledger
//! knows (known flaky on the base branch), the batches without a clean
//! result, the JVM options the test JVMs took from the environment, and
//! the cost.

use crate::analyze::model::outcome::{JobPayload, OutcomeKind};
use crate::analyze::model::report::{JobEngine, Jobs, Report};
use crate::domain::Unresolved;
use crate::jvm_options::InheritedJvmOptions;
use crate::markdown::{code, code_in_table, text};

/// The sections before the tests.
pub(super) fn head(report: &Report) -> String {
    let around = &report.around;
    let mut md = String::new();
    if around.partial {
        md += "**Partial report: the run was interrupted; it counts only what ran before.**\n\n";
    }
    md += &input_problems(&around.input_problems);
    md += &not_checked(&around.not_checked);
    if let Some(c) = &around.comparison {
        md += &super::comparison::comparison_markdown(report, c);
    }
    if let Some(jobs) = &around.jobs {
        md += &jobs_section(jobs, around.build_failed);
    }
    md
}

/// The sections after the tests, each opened by a blank line.
pub(super) fn tail(report: &Report) -> String {
    let around = &report.around;
    let mut md = super::comparison::known_flaky_markdown(&around.known_flaky);
    if !around.problems.is_empty() {
        md += "\n### Batches without a clean result\n\n";
        for p in &around.problems {
            md += &format!("- {}\n", text(p));
        }
    }
    md += &inherited_jvm_options(&around.inherited_jvm_options);
    if let Some(cost) = &around.cost {
        md += "\n<details><summary>Cost</summary>\n\n";
        md += &super::cost::markdown(cost);
        md += "\n</details>\n";
    }
    md
}

/// The JVM options from the environment the test JVMs ran under, one
/// paragraph; empty without any.
fn inherited_jvm_options(found: &[InheritedJvmOptions]) -> String {
    if found.is_empty() {
        return String::new();
    }
    let said: Vec<String> = found.iter().map(InheritedJvmOptions::describe).collect();
    format!(
        "\n**JVM options from the environment:** {}: the failure rates were measured under \
         them and may differ without them.\n",
        said.join("; ")
    )
}

/// The problems of the report step's inputs, first: what follows may miss
/// what they would have told.
fn input_problems(problems: &[String]) -> String {
    if problems.is_empty() {
        return String::new();
    }
    let mut out = String::from(
        "**The report's inputs are incomplete** (each recorded as `infra_fail`, \
         `report_error`): what follows may miss what they would have said.\n\n",
    );
    for p in problems {
        out.push_str(&format!("- {}\n", text(p)));
    }
    out.push('\n');
    out
}

/// `**2 selected test(s) not checked** ...` and one line each; empty when
/// every selected test could run.
pub(crate) fn not_checked(tests: &[Unresolved]) -> String {
    if tests.is_empty() {
        return String::new();
    }
    let mut out = format!(
        "**{} selected test(s) not checked**: found, but they cannot run here, so no result \
         below covers them (recorded as `not_applicable`):\n\n",
        tests.len()
    );
    for t in tests {
        out.push_str(&format!(
            "- {}: {} (`{}`)\n",
            code(&t.input),
            text(&t.reason),
            t.reason_code
        ));
    }
    out.push('\n');
    out
}

/// The jobs section: a table of the jobs that ran, then the failed compile
/// gate or the jobs that left no status file, the jobs the build skipped,
/// and what the repetition engine did in each job.
fn jobs_section(jobs: &Jobs, build_failed: bool) -> String {
    let (payloads, missing, engine) = (&jobs.payloads, &jobs.missing, &jobs.engine);
    let mut out = String::from("## Flakiness detection: jobs\n\n");
    // Records no job produced (a test without a runnable task, the compile gate) have no row.
    let jobs: Vec<&JobPayload> = payloads.iter().filter(|p| !p.is_record()).collect();
    if !jobs.is_empty() {
        out.push_str("| step | job | outcome | rc | duration | real failures | cases |\n");
        out.push_str("|---|---|---|---:|---:|---:|---:|\n");
        for p in jobs {
            let mut outcome = outcome_name(p);
            if p.timed_out && p.outcome != OutcomeKind::Timeout {
                outcome.push_str(" (timed out)");
            }
            out.push_str(&format!(
                "| {} | {} | {outcome} | {} | {}s | {} | {} |\n",
                code_in_table(&p.step_key),
                code_in_table(&p.job_id),
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
            "**{} job(s) left no status file** (the machine running it was lost, or the job was \
             cancelled or killed before its wrapper finished); their results are unknown:\n\n",
            missing.len()
        ));
        for m in missing {
            out.push_str(&format!(
                "- {} ({}) job {}/{}\n",
                code(&m.step_key),
                text(&m.label),
                m.job,
                m.of
            ));
        }
        out.push('\n');
    }
    let skipped: Vec<&JobPayload> = payloads.iter().filter(|p| p.skipped.is_some()).collect();
    if !skipped.is_empty() {
        out.push_str(&format!(
            "**{} job(s) skipped by the build**: all or some of their Test tasks did not run, \
             so their tests were not checked (all of them: recorded as `not_applicable`, \
             reason `task-skipped`; neither a hang nor a pass):\n\n",
            skipped.len()
        ));
        for p in skipped {
            out.push_str(&format!(
                "- {} ({}): {}\n",
                code(&p.job_id),
                code(&p.step_key),
                text(p.skipped.as_deref().unwrap_or_default())
            ));
        }
        out.push('\n');
    }
    out.push_str(&engine_notes(engine));
    out
}

/// What the repetition engine did in each job that did more than run its
/// count in one go (chunks, a proof, a fallback, a switch, a budget stop),
/// a line each, after the jobs' table; empty when no job did.
fn engine_notes(jobs: &[JobEngine]) -> String {
    let lines: String = jobs
        .iter()
        .filter(|e| worth_saying(e))
        .map(engine_line)
        .collect();
    if lines.is_empty() {
        return String::new();
    }
    format!(
        "**What the repetition engine did** (iterations of the batch's tests run, of planned):\n\n\
         {lines}\n"
    )
}

/// A job whose batch ran as planned in one invocation says nothing.
fn worth_saying(e: &JobEngine) -> bool {
    e.chunked
        || !e.lines.is_empty()
        || e.budget_stop.is_some()
        || e.iterations_run < e.iterations_planned
}

/// `- `job` (`step`): 6 of 60 iterations in 2 invocations; <what it said>`.
fn engine_line(e: &JobEngine) -> String {
    let mut line = format!(
        "- {} ({}): {} of {} iterations in {} invocation(s)",
        code(&e.job_id),
        code(&e.step_key),
        e.iterations_run,
        e.iterations_planned,
        e.invocations
    );
    for said in &e.lines {
        line.push_str(&format!("; {}", text(said)));
    }
    if let Some(b) = &e.budget_stop {
        line.push_str(&format!(
            "; stopped by its budget ({}) after {} of {} iterations: the next chunk did not fit",
            crate::time::format_duration(std::time::Duration::from_secs(b.budget_sec)),
            b.iterations_run,
            b.iterations_planned
        ));
    }
    if e.saved_sec > 0 {
        line.push_str(&format!(
            "; about {} of job time saved",
            crate::time::human(std::time::Duration::from_secs(e.saved_sec))
        ));
    }
    line.push('\n');
    line
}

/// The outcome as the table shows it: `flaky_detected` reads `real
/// failures`, as Elasticsearch's report says, with how many failing tests
/// were flaky and how many broken (a batch whose tests failed every
/// execution proved no flakiness).
fn outcome_name(p: &JobPayload) -> String {
    let mut name = p.outcome.as_str().to_string();
    if p.outcome == OutcomeKind::FlakyDetected {
        let parts: Vec<String> = [(p.flaky_tests, "flaky"), (p.broken_tests, "broken")]
            .iter()
            .filter(|(n, _)| *n > 0)
            .map(|(n, what)| format!("{n} {what}"))
            .collect();
        name = match parts.is_empty() {
            true => "real failures".into(),
            false => format!("real failures ({})", parts.join(", ")),
        };
    }
    if let Some(sub) = p.infra_subtype {
        let sub = serde_json::to_value(sub).expect("a subtype serializes");
        name.push_str(&format!(" ({})", sub.as_str().unwrap_or_default()));
    }
    if p.reason == Some(crate::analyze::model::outcome::RecordReason::TaskSkipped) {
        name.push_str(" (task-skipped)");
    }
    name
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn branch_text_cannot_break_the_markdown() {
        let t = Unresolved {
            input: "a`b|c\nd".into(),
            reason_code: crate::domain::ReasonCode::NoRunnableTask,
            reason: "not applicable: x".into(),
            origin: crate::domain::Origin::Changed,
        };
        let jobs = Jobs {
            payloads: vec![JobPayload::not_applicable(&t)],
            missing: vec![],
            engine: vec![],
        };
        let section = not_checked(std::slice::from_ref(&t)) + &jobs_section(&jobs, true);
        assert!(
            section.contains("- ``a`b|c d``: not applicable: x (`no-runnable-task`)\n"),
            "{section}"
        );
        assert!(section.contains("failed to compile"), "{section}");
        assert!(!section.contains("| step |"), "no job rows: {section}");
    }

    /// A job whose engine proved a test early, and was stopped by its
    /// budget, says so after the jobs' table; a job that ran its count in
    /// one invocation says nothing.
    #[test]
    fn the_jobs_section_says_what_each_jobs_engine_did() {
        let proven = JobEngine {
            job_id: "j1".into(),
            step_key: "k:unit".into(),
            iterations_run: 6,
            iterations_planned: 60,
            invocations: 2,
            chunked: true,
            lines: vec!["a.F#m proven flaky after 6 iterations".into()],
            budget_stop: Some(crate::analyze::model::cost::BudgetStop {
                job: "job j1 (k:unit)".into(),
                budget_sec: 600,
                iterations_run: 6,
                iterations_planned: 60,
            }),
            saved_sec: 54,
        };
        let whole = JobEngine {
            job_id: "j2".into(),
            iterations_run: 60,
            iterations_planned: 60,
            invocations: 1,
            ..JobEngine::default()
        };
        let jobs = Jobs {
            engine: vec![proven, whole],
            ..Jobs::default()
        };
        let md = jobs_section(&jobs, false);
        assert!(
            md.contains(
                "- `j1` (`k:unit`): 6 of 60 iterations in 2 invocation(s); a.F#m proven flaky \
                 after 6 iterations; stopped by its budget (10m) after 6 of 60 iterations"
            ),
            "{md}"
        );
        assert!(md.contains("of job time saved\n"), "{md}");
        assert!(!md.contains("`j2`"), "{md}");
        assert!(jobs_section(&Jobs::default(), false).ends_with("jobs\n\n"));
    }
}
