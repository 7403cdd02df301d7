//! The jobs section that opens every CI's report: one row per job, then what
//! did not run and why. The aggregate report (rendered by `analyze::render`)
//! follows it.

use super::missing::Missing;
use super::status::{EngineRun, JobRun};
use crate::analyze::model::outcome::{JobPayload, OutcomeKind};
use crate::domain::Unresolved;
use crate::markdown::{code, code_in_table, text};

/// The jobs section, after the tests that were not checked: a table of the
/// jobs that ran, then the failed compile gate or the jobs that left no
/// status file, and the jobs the build skipped.
pub(crate) fn jobs_section(
    payloads: &[JobPayload],
    missing: &[Missing],
    not_applicable: &[Unresolved],
    build_failed: bool,
) -> String {
    let mut out = super::not_checked::markdown(not_applicable);
    out.push_str("## Flakiness detection: jobs\n\n");
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
    out
}

/// What the repetition engine did in each job that did more than run its
/// count in one go (chunks, a proof, a fallback, a switch, a budget stop),
/// a line each, after the jobs' table; empty when no job did.
pub(crate) fn engine_notes(jobs: &[JobRun]) -> String {
    let lines: Vec<String> = jobs
        .iter()
        .filter_map(|j| Some((j, j.status.engine.as_ref()?)))
        .filter(|(_, e)| worth_saying(e))
        .map(|(j, e)| engine_line(&j.status.job_id, &j.status.step_key, e))
        .collect();
    if lines.is_empty() {
        return String::new();
    }
    let mut out = String::from(
        "**What the repetition engine did** (iterations of the batch's tests run, of planned):\n\n",
    );
    for line in lines {
        out.push_str(&line);
    }
    out.push('\n');
    out
}

/// A job whose batch ran as planned in one invocation says nothing.
fn worth_saying(e: &EngineRun) -> bool {
    e.chunked
        || !e.lines.is_empty()
        || e.budget_stop.is_some()
        || e.iterations_run() < e.iterations_planned()
}

/// `- `job` (`step`): 6 of 60 iterations in 2 invocations; <what it said>`.
fn engine_line(job: &str, step: &str, e: &EngineRun) -> String {
    let mut line = format!(
        "- {} ({}): {} of {} iterations in {} invocation(s)",
        code(job),
        code(step),
        e.iterations_run(),
        e.iterations_planned(),
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
        let section = jobs_section(&[JobPayload::not_applicable(&t)], &[], &[t], true);
        assert!(
            section.contains("- ``a`b|c d``: not applicable: x (`no-runnable-task`)\n"),
            "{section}"
        );
        assert!(section.contains("failed to compile"), "{section}");
        assert!(!section.contains("| step |"), "no job rows: {section}");
    }
}
