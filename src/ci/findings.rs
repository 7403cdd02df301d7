//! The findings of finished batch jobs, whichever CI ran and fetched them:
//! each job's outcome payload from its status file and its own JUnit XML,
//! the expected jobs that left no status file, and the report of every
//! job's XML together, with its jobs around it. Each CI's report step only
//! fetches the files its own way and posts the report where its CI shows it.

use super::missing::missing_jobs;
use super::reading::Reading;
use super::report_inputs::ReportInputs;
use super::spec::{ExpectedStep, ReportContext};
use super::status::{JobRun, Status};
use crate::analyze::model::outcome::{InfraSubtype, JobPayload, JobRecord, OutcomeKind};
use crate::analyze::model::report::{Around, Jobs, Missing};
use crate::analyze::render;
use crate::analyze::rules::planned::{self, PlannedTest};
use crate::analyze::rules::verdict;
use crate::analyze::{Report, Severity};
use crate::{Error, Observed, Result};
use std::path::Path;

/// What the final step concludes, whichever CI ran the batches.
#[derive(Clone, Debug)]
pub(crate) struct Findings {
    /// The report of every job's XML together, with what surrounds it: the
    /// jobs (one payload per job, then the not-applicable tests, a failed
    /// compile gate, the report inputs' problems; the jobs that left no
    /// status file), the tests not checked, the cost.
    pub overall: Report,
    /// An unmuted test was found that cannot be checked here (the unmute gate).
    pub unmute_unchecked: bool,
}

impl Findings {
    /// One per job, then the not-applicable tests, then a failed compile gate.
    pub(crate) fn payloads(&self) -> &[JobPayload] {
        self.jobs().map_or(&[], |j| &j.payloads)
    }

    /// Expected jobs that left no status file.
    pub(crate) fn missing(&self) -> &[Missing] {
        self.jobs().map_or(&[], |j| &j.missing)
    }

    fn jobs(&self) -> Option<&Jobs> {
        self.overall.around.jobs.as_ref()
    }

    /// The report, as every CI posts it.
    pub(crate) fn markdown(&self) -> String {
        render::markdown(&self.overall)
    }

    /// The report's severity: a clean report with missing jobs is a warning.
    pub(crate) fn severity(&self) -> Severity {
        self.overall.summary.severity
    }

    /// `--compare REF`: a REF job left no result (infrastructure).
    pub(crate) fn compare_incomplete(&self) -> bool {
        let compared = self.overall.around.comparison.as_ref();
        compared.is_some_and(|c| !c.base_problems.is_empty())
    }

    /// What the jobs observed, for the one exit policy: real failures as the
    /// outcomes count them (a test JVM out of heap is not flakiness); a job
    /// that left no trustworthy result, or no status file, leaves the verdict open.
    pub(crate) fn observed(&self) -> Observed {
        let jobs = self
            .payloads()
            .iter()
            .filter(|p| p.outcome != OutcomeKind::NotApplicable);
        Observed {
            interrupted: false,
            real_failures: jobs.clone().map(|p| p.real_failures).sum(),
            executions: jobs.clone().map(|p| p.total_cases).sum(),
            untrustworthy: !self.missing().is_empty()
                || self.unmute_unchecked
                || self.compare_incomplete()
                || jobs
                    .clone()
                    .any(|p| p.partly_skipped() || !has_result(p.outcome)),
        }
    }
}

/// A job that ended this way gave a result to trust: a clean pass, or
/// flakiness detected.
pub(crate) fn has_result(outcome: OutcomeKind) -> bool {
    matches!(outcome, OutcomeKind::CleanPass | OutcomeKind::FlakyDetected)
}

/// The core of the final step, whichever CI fetched the files (it reads only
/// the jobs' XML): each job's payload from its status and its own XML, the
/// jobs that are missing, and the markdown (one row per job, then the report
/// of every job's XML).
pub(crate) fn findings(
    jobs: &[JobRun],
    context: &ReportContext,
    inputs: &ReportInputs,
) -> Findings {
    let reading = Reading::new(jobs, &context.jobs, context);
    let mut payloads: Vec<JobPayload> = jobs
        .iter()
        .map(|job| job_payload(&job.status, &reading.job(job)))
        .collect();
    let cost = super::cost::of(&payloads, &context.jobs, jobs);
    let (not_applicable, build_failed) = (&inputs.skipped, inputs.compile_failed);
    payloads.extend(not_applicable.iter().map(JobPayload::not_applicable));
    if build_failed {
        payloads.push(JobPayload::build_failed());
    }
    payloads.extend(inputs.problems.iter().map(|p| JobPayload::report_error(p)));
    let statuses: Vec<Status> = jobs.iter().map(|j| j.status.clone()).collect();
    let missing = missing_jobs(&context.jobs, &statuses);
    let mut overall = reading.all(jobs);
    against_plan(&mut overall, &context.jobs, &payloads, &missing, jobs);
    let mut inherited_jvm_options = Vec::new();
    for status in &statuses {
        crate::jvm_options::merge(&mut inherited_jvm_options, &status.inherited_jvm_options);
    }
    overall.around = Around {
        inherited_jvm_options,
        input_problems: inputs.problems.clone(),
        not_checked: not_applicable.clone(),
        jobs: Some(Jobs {
            payloads,
            missing,
            engine: jobs.iter().filter_map(JobRun::engine).collect(),
        }),
        build_failed,
        cost,
        ..Around::default()
    };
    verdict::settle(&mut overall);
    Findings {
        overall,
        unmute_unchecked: crate::domain::unmute_unchecked(not_applicable),
    }
}

/// Compares `overall` with what `steps` planned: records the selected tests
/// that no job executed (a selected test never run must not read as a pass),
/// or that ran fewer times than planned, each with why when its step's jobs
/// tell: missing, ended without a result, or ended early by the engine's
/// rules. Returns whether any did.
fn against_plan(
    overall: &mut Report,
    steps: &[ExpectedStep],
    payloads: &[JobPayload],
    missing: &[Missing],
    jobs: &[JobRun],
) -> bool {
    let mut planned = Vec::new();
    for (i, step) in steps.iter().enumerate() {
        // An earlier version's plan gives no runs per test: the step's
        // executions share out over its tests.
        let even = step.iterations / (step.selected.len().max(1) as u64);
        planned.extend(step.selected.iter().enumerate().map(|(n, t)| PlannedTest {
            runs: step.runs.get(n).copied().unwrap_or(even),
            repeated_by: step.repeated_by.clone(),
            ..PlannedTest::of(t, i + 1)
        }));
    }
    let why = |batch: usize| -> Option<String> {
        let step = steps.get(batch - 1)?;
        let key = &step.step_key;
        let gone = missing.iter().filter(|m| &m.step_key == key).count();
        if gone > 0 {
            return Some(format!("{gone} job(s) of step `{key}` left no status file"));
        }
        let ended = payloads
            .iter()
            .find(|p| &p.step_key == key && !has_result(p.outcome));
        if let Some(p) = ended {
            return Some(format!(
                "a job of step `{key}` ended as {}",
                p.outcome.as_str()
            ));
        }
        Some(ended_early(jobs, key).unwrap_or_else(|| {
            format!(
                "the jobs of step `{key}` ended normally without running it (a filter that \
                 misses it, or a class Gradle does not run)"
            )
        }))
    };
    // Where the plan told each test's runs, the report says what ran fewer
    // times than planned, as `local`'s does; else only what never ran.
    match steps.iter().all(|s| s.runs.len() == s.selected.len()) {
        true => planned::compare(overall, &planned, &why),
        false => planned::never_executed(overall, &planned, &why),
    }
}

/// What the engine said of the jobs of step `key` that it ended early (stop
/// on proof, a budget), as `local` says it of a batch; `None` when it ended
/// none of them early.
fn ended_early(jobs: &[JobRun], key: &str) -> Option<String> {
    let mut said = Vec::new();
    for job in jobs.iter().filter(|j| j.status.step_key == key) {
        let Some(engine) = &job.status.engine else {
            continue;
        };
        let id = &job.status.job_id;
        for p in &engine.proven {
            said.push(format!(
                "job {id}: {} proven flaky after {} iteration(s), {} saved (stop on proof)",
                p.test, p.after, p.saved
            ));
        }
        if let Some(b) = &engine.budget_stop {
            said.push(format!(
                "job {id}: stopped by its budget ({}s) after {} of {} iterations",
                b.budget_sec, b.iterations_run, b.iterations_planned
            ));
        }
    }
    (!said.is_empty()).then(|| said.join("; "))
}

/// Writes `flakiness-outcomes.json`.
pub(crate) fn write_outcomes(path: &Path, payloads: &[JobPayload]) -> Result<()> {
    let json = serde_json::to_string(payloads).expect("payloads serialize");
    std::fs::write(path, json).map_err(|e| Error::io(path, e))
}

/// The payload of a batch job from its status file and the report of its own XML.
///
/// The timeout threshold is the inner timeout the job really ran under
/// (`timeoutSec`; Elasticsearch's used a fixed 3480 s). Without one, nothing
/// stopped the job on time, so an rc 137 is a kill, never a timeout. A heap
/// dump the wrapper saw makes `OutOfMemoryError` failures infrastructure
/// ([`JobPayload::judged`]).
pub(crate) fn job_payload(status: &Status, report: &Report) -> JobPayload {
    let job = JobRecord {
        job_id: status.job_id.clone(),
        step_key: status.step_key.clone(),
        kind: status.kind.clone(),
        rc: status.rc,
        duration_sec: status.duration_sec,
        oom_detected: status.infra_subtype == Some(InfraSubtype::Oom),
        skipped: (!status.skipped_tasks.is_empty())
            .then(|| crate::run::outcomes::describe(&status.skipped_tasks)),
        all_tasks_skipped: status.all_tasks_skipped,
    };
    JobPayload::judged(&job, report, status.timeout_sec.unwrap_or(u64::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyze::model::outcome::RecordReason;
    use crate::analyze::{analyze_root, AnalyzeOptions};
    use crate::domain::testing::test;
    use crate::domain::TestKind;
    use serde_json::{json, Value};

    /// The markdown of a report of no XML with these jobs.
    fn jobs_markdown(payloads: Vec<JobPayload>, missing: Vec<Missing>) -> String {
        let mut report = report(&[]);
        report.around.jobs = Some(Jobs {
            payloads,
            missing,
            ..Jobs::default()
        });
        render::markdown(&report)
    }

    /// The report of one JUnit file with the given `<testcase>` bodies.
    fn report(cases: &[&str]) -> Report {
        let dir = tempfile::tempdir().unwrap();
        let results = dir.path().join("p/build/test-results/test");
        std::fs::create_dir_all(&results).unwrap();
        let cases: String = cases
            .iter()
            .enumerate()
            .map(|(i, body)| {
                format!(r#"<testcase classname="org.x.ATests" name="t{i}">{body}</testcase>"#)
            })
            .collect();
        let xml =
            format!(r#"<?xml version="1.0"?><testsuite name="org.x.ATests">{cases}</testsuite>"#);
        std::fs::write(results.join("TEST-org.x.ATests.xml"), xml).unwrap();
        analyze_root(dir.path(), &AnalyzeOptions::default())
    }

    fn status(rc: i32, duration_sec: u64, timeout_sec: Option<u64>, infra: &str) -> Status {
        Status {
            job_id: "j1".into(),
            step_key: "flakiness-detection:unit".into(),
            kind: Some(TestKind::Unit),
            rc,
            duration_sec,
            infra_subtype: (infra == "oom").then_some(InfraSubtype::Oom),
            timeout_sec,
            cancelled: false,
            parallel_job: None,
            skipped_tasks: vec![],
            all_tasks_skipped: false,
            inherited_jvm_options: Vec::new(),
            engine: None,
        }
    }

    fn outcome(p: &JobPayload) -> (String, bool, Option<String>) {
        let v = serde_json::to_value(p).unwrap();
        (
            v["outcome"].as_str().unwrap().to_string(),
            v["timedOut"].as_bool().unwrap(),
            v["infraSubtype"].as_str().map(String::from),
        )
    }

    /// The payload of job `j1` of [`status`] with no real failure.
    fn payload_json(rc: i32, dur: u64, cases: u64, outcome: &str, timed_out: bool) -> Value {
        json!({
            "jobId": "j1", "stepKey": "flakiness-detection:unit", "kind": "unit", "rc": rc,
            "durationSec": dur, "realFailures": 0, "suiteTimeouts": 0, "totalCases": cases,
            "outcome": outcome, "timedOut": timed_out, "failingClasses": []
        })
    }

    /// A planned run's report of files `(class, case body)`, one file each.
    fn planned_report(cases: &[(&str, &str, &str)]) -> Report {
        let dir = tempfile::tempdir().unwrap();
        let results = dir.path().join("p/build/test-results/test");
        std::fs::create_dir_all(&results).unwrap();
        for (class, name, body) in cases {
            let xml = format!(
                r#"<?xml version="1.0"?><testsuite name="{class}"><testcase classname="{class}" name="{name}">{body}</testcase></testsuite>"#
            );
            std::fs::write(results.join(format!("TEST-{class}.xml")), xml).unwrap();
        }
        let opts = AnalyzeOptions {
            planned: true,
            ..AnalyzeOptions::default()
        };
        analyze_root(dir.path(), &opts)
    }

    /// JUnit's "No runnable methods" for a class the batch ran is no verdict:
    /// the Gradle task's failure (rc 1) it caused says nothing of the tests
    /// that ran; a batch that ran nothing else is `not_applicable`
    /// (`not-a-test`), and no record a job did not produce.
    #[test]
    fn a_class_junit_found_no_test_in_is_no_verdict() {
        let no_test = r#"<failure type="org.junit.runners.model.InvalidTestClassError" message="Invalid test class 'a.FixturesTest':&#10;  1. No runnable methods"/>"#;
        let both = planned_report(&[
            ("a.CountingTest", "counts", ""),
            ("a.FixturesTest", "initializationError", no_test),
        ]);
        assert_eq!(both.not_a_test.len(), 1);
        assert_eq!((both.summary.executions, both.summary.failed), (1, 0));
        let p = job_payload(&status(1, 5, Some(60), ""), &both);
        assert_eq!(outcome(&p), ("clean_pass".into(), false, None));
        assert_eq!(p.rc, 1, "the payload keeps the job's own exit code");
        let alone = planned_report(&[("a.FixturesTest", "initializationError", no_test)]);
        let p = job_payload(&status(1, 5, Some(60), ""), &alone);
        assert_eq!(outcome(&p).0, "not_applicable");
        assert_eq!(
            p.reason.as_ref().map(RecordReason::as_str),
            Some(crate::domain::ReasonCode::NotATest.as_str())
        );
        assert!(!p.is_record());
        // A real failure beside it stays proof, and Gradle's exit stays its own.
        let failing = planned_report(&[
            (
                "a.CountingTest",
                "counts",
                r#"<failure type="java.lang.AssertionError" message="x"/>"#,
            ),
            ("a.FixturesTest", "initializationError", no_test),
        ]);
        assert_eq!(
            outcome(&job_payload(&status(1, 5, Some(60), ""), &failing)).0,
            "flaky_detected"
        );
    }

    #[test]
    fn the_timeout_threshold_is_the_jobs_own_timeout() {
        let passed = report(&[""]);
        let killed_late = status(137, 100, Some(90), "");
        assert_eq!(
            outcome(&job_payload(&killed_late, &passed)),
            ("timeout".into(), true, None)
        );
        let killed_early = status(137, 60, Some(90), "");
        assert_eq!(
            outcome(&job_payload(&killed_early, &passed)),
            ("infra_fail".into(), false, Some("oom_killed".into()))
        );
        let no_timeout = status(137, 100_000, None, "");
        assert_eq!(outcome(&job_payload(&no_timeout, &passed)).0, "infra_fail");
        assert_eq!(
            outcome(&job_payload(&status(0, 5, Some(90), ""), &passed)),
            ("clean_pass".into(), false, None)
        );
    }

    #[test]
    fn a_test_jvm_out_of_heap_is_infrastructure_not_flakiness() {
        let oom = r#"<failure type="java.lang.OutOfMemoryError" message="Java heap space">trace</failure>"#;
        let heap = report(&["", oom]);
        let p = job_payload(&status(1, 5, Some(60), "oom"), &heap);
        assert_eq!(
            outcome(&p),
            ("infra_fail".into(), false, Some("oom".into()))
        );
        assert_eq!((p.real_failures, p.total_cases), (0, 2));
        assert!(p.failing_classes.is_empty());
        // The JVM's own words suffice: no heap dump needed (a HeapDumpPath
        // elsewhere, naming a file, or none at all).
        let p = job_payload(&status(1, 5, Some(60), ""), &heap);
        assert_eq!(
            outcome(&p),
            ("infra_fail".into(), false, Some("oom".into()))
        );
        assert_eq!((p.real_failures, p.heap_failures), (0, 1));
        // Out of heap and timed out (a JVM out of heap often hangs).
        let hung = job_payload(&status(124, 60, Some(60), ""), &heap);
        let mut want = payload_json(124, 60, 2, "infra_fail", true);
        want["infraSubtype"] = json!("oom");
        assert_eq!(serde_json::to_value(&hung).unwrap(), want);
        // An assertion next to the OOM is still proof.
        let both = report(&[
            oom,
            r#"<failure type="java.lang.AssertionError" message="boom"/>"#,
        ]);
        let p = job_payload(&status(1, 5, Some(60), "oom"), &both);
        assert_eq!(
            (outcome(&p).0.as_str(), p.real_failures),
            ("flaky_detected", 1)
        );
    }

    #[test]
    fn a_batch_whose_tasks_the_build_all_skipped_is_not_applicable() {
        let skipped = Status {
            skipped_tasks: vec![crate::run::outcomes::TaskOutcome {
                path: ":p:yamlRestCompatTest".into(),
                state: crate::run::task_state::TaskState::Skipped,
                test: Some(true),
                reason: Some("onlyIf is false".into()),
            }],
            all_tasks_skipped: true,
            ..status(3, 5, Some(60), "")
        };
        let p = job_payload(&skipped, &report(&[]));
        let mut want = payload_json(3, 5, 0, "not_applicable", false);
        want["reason"] = json!("task-skipped");
        assert_eq!(serde_json::to_value(&p).unwrap(), want);
        let section = jobs_markdown(vec![p], vec![]);
        assert!(
            section.contains("| `j1` | not_applicable (task-skipped) | 3 |"),
            "{section}"
        );
        assert!(
            section.contains("- `j1` (`flakiness-detection:unit`): :p:yamlRestCompatTest SKIPPED (onlyIf is false)"),
            "{section}"
        );
        // Some of its tasks ran and passed: a clean pass as Elasticsearch's
        // rules have it, shown as partly skipped, and no trustworthy result.
        let partly = Status {
            rc: 0,
            all_tasks_skipped: false,
            ..skipped
        };
        let p = job_payload(&partly, &report(&[""]));
        assert_eq!(
            (outcome(&p).0.as_str(), p.reason.as_ref()),
            ("clean_pass", None)
        );
        assert!(p.partly_skipped());
    }

    #[test]
    fn tests_without_a_runnable_task_get_a_not_applicable_record() {
        let t = crate::domain::Unresolved {
            input: "qa/x/src/javaRestTest/java/a/UpgradeIT.java".into(),
            reason_code: crate::domain::ReasonCode::NoRunnableTask,
            reason: "not applicable: no enabled Test task runs it".into(),
            origin: crate::domain::Origin::Changed,
        };
        assert_eq!(
            serde_json::to_value(JobPayload::not_applicable(&t)).unwrap(),
            json!({
                "jobId": "not-applicable:qa/x/src/javaRestTest/java/a/UpgradeIT.java", "stepKey": "",
                "kind": "", "rc": 0, "durationSec": 0, "realFailures": 0, "suiteTimeouts": 0,
                "totalCases": 0, "outcome": "not_applicable", "timedOut": false, "failingClasses": [],
                "reason": "no-runnable-task"
            })
        );
    }

    /// Two jobs of 95 s and 25 s: their executions, the iterations the plan
    /// requested, job-minutes, the longest job; no jobs, no section.
    #[test]
    fn the_cost_section_adds_up_the_jobs() {
        let passing = report(&["", ""]);
        let statuses = [status(0, 95, None, ""), status(0, 25, None, "")];
        let jobs = statuses.clone().map(|s| job_payload(&s, &passing));
        let runs = statuses.map(|status| JobRun {
            status,
            dir: Default::default(),
        });
        let cost =
            |jobs: &[JobPayload], steps: &[ExpectedStep]| crate::ci::cost::of(jobs, steps, &runs);
        let steps = [ExpectedStep {
            step_key: "flakiness-detection:unit".into(),
            kind: "unit".into(),
            label: "unit tests".into(),
            jobs: 2,
            iterations: 4,
            whole_task: false,
            selected: vec![],
            runs: vec![],
            repeated_by: vec![],
        }];
        let md = crate::analyze::render::cost::markdown(&cost(&jobs, &steps).unwrap());
        assert!(md.contains("### Cost"), "{md}");
        assert!(
            md.contains("- executions: 4 ran in 2 job(s); iterations requested: 4"),
            "{md}"
        );
        assert!(
            md.contains("- job-minutes: 2.0; longest job: 1m35s"),
            "{md}"
        );
        assert!(
            md.contains("nothing saved: these jobs ran their planned count"),
            "jobs without the engine's record: {md}"
        );
        assert_eq!(cost(&[], &steps), None);
    }

    /// A job of a whole-task step (`--context task`) is read in context
    /// task, a job of the usual step alone: the report counts them apart.
    #[test]
    fn jobs_of_whole_task_steps_are_read_in_context_task() {
        let root = tempfile::tempdir().unwrap();
        let jobs = [
            recorded_job(root.path(), "k:unit", 1, &[("a.BTest", true)]),
            recorded_job(root.path(), "k:unit-task", 1, &[("a.BTest", false)]),
        ];
        let context = ReportContext {
            jobs: vec![
                unit_step("k:unit", vec![]),
                unit_step("k:unit-task", vec![]),
            ],
            ..ReportContext::default()
        };
        let f = findings(&jobs, &context, &no_inputs());
        let json = serde_json::to_value(&f.overall.tests[0]).unwrap();
        let rows: Vec<(String, u64, u64)> = json["conditions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| {
                let n = |k: &str| c[k].as_u64().unwrap();
                (
                    c["context"].as_str().unwrap().into(),
                    n("runs"),
                    n("failures"),
                )
            })
            .collect();
        assert_eq!(rows, [("alone".into(), 1, 1), ("task".into(), 1, 0)]);
    }

    /// A job whose test JVMs ran under `JAVA_TOOL_OPTIONS` (its status file
    /// says so): the report says it once for two such jobs, in the JSON and
    /// after the tests; jobs without it say nothing.
    #[test]
    fn jvm_options_the_jobs_ran_under_are_said_once() {
        use crate::jvm_options::{InheritedJvmOptions, OptionsVariable, SeenIn};
        let root = tempfile::tempdir().unwrap();
        let mut jobs = [
            recorded_job(root.path(), "k:unit", 1, &[("a.BTest", false)]),
            recorded_job(root.path(), "k:unit-2", 1, &[("a.CTest", false)]),
        ];
        let context = ReportContext {
            jobs: vec![unit_step("k:unit", vec![]), unit_step("k:unit-2", vec![])],
            ..ReportContext::default()
        };
        let md = render::markdown(&findings(&jobs, &context, &no_inputs()).overall);
        assert!(!md.contains("JVM options"), "{md}");
        for job in &mut jobs {
            job.status.inherited_jvm_options = vec![InheritedJvmOptions {
                variable: OptionsVariable::JavaToolOptions,
                seen_in: SeenIn::Environment,
            }];
        }
        let report = findings(&jobs, &context, &no_inputs()).overall;
        let md = render::markdown(&report);
        assert_eq!(
            md.matches("**JVM options from the environment:**").count(),
            1,
            "{md}"
        );
        assert!(
            md.contains("`JAVA_TOOL_OPTIONS` was set in gradle-flaky's environment"),
            "{md}"
        );
        let json = serde_json::to_value(&report).unwrap();
        assert_eq!(
            json["inheritedJvmOptions"],
            json!([{"variable": "JAVA_TOOL_OPTIONS", "seenIn": "environment"}])
        );
    }

    /// A step of one unit job; a whole-task step when `key` ends in `-task`.
    fn unit_step(key: &str, selected: Vec<crate::domain::ClassifiedTest>) -> ExpectedStep {
        ExpectedStep {
            step_key: key.into(),
            kind: "unit".into(),
            label: "unit tests".into(),
            jobs: 1,
            iterations: 2,
            whole_task: key.ends_with("-task"),
            selected,
            runs: vec![],
            repeated_by: vec![],
        }
    }

    /// The report step's values when the compile gate passed and nothing was skipped.
    fn no_inputs() -> ReportInputs {
        ReportInputs {
            compile_failed: false,
            skipped: vec![],
            problems: vec![],
        }
    }

    /// A job of step `key` below `root`: its XML, one file per `(class,
    /// failed)` in each of its Gradle runs (`flakiness-iters/iter-<i>/`),
    /// and its status (Gradle's rc 1 when a case failed).
    fn recorded_job(root: &Path, key: &str, runs: u32, cases: &[(&str, bool)]) -> JobRun {
        let dir = root.join(key.replace(':', "-"));
        for i in 1..=runs {
            let results = dir.join(format!("flakiness-iters/iter-{i}/build/test-results/test"));
            std::fs::create_dir_all(&results).unwrap();
            for (class, failed) in cases {
                let body = match failed {
                    true => {
                        r#"<failure message="no neighbour warmed this JVM" type="java.lang.AssertionError">at x</failure>"#
                    }
                    false => "",
                };
                let xml = format!(
                    r#"<?xml version="1.0"?><testsuite name="{class}"><testcase classname="{class}" name="t" time="0.1">{body}</testcase></testsuite>"#
                );
                std::fs::write(results.join(format!("TEST-{class}.xml")), xml).unwrap();
            }
        }
        let mut status = status(i32::from(cases.iter().any(|c| c.1)), 30, Some(3480), "");
        (status.job_id, status.step_key) = (key.replace(':', "-"), key.into());
        JobRun { status, dir }
    }

    /// `--context both` on CI: the selected `demo.AlphaTest` alone (step
    /// `k:unit`) and in its whole task (`k:unit-task`, two runs), where the
    /// unselected `demo.NeedsNeighbourTest` fails every run (rc 1). The
    /// neighbour is set apart, as `local` sets it apart: the whole-task job is
    /// a clean pass, the report's tests are the selected one's, the neighbour
    /// is listed failing. A plan of an earlier version, whose whole-task
    /// step names no selected test, sets nothing apart.
    #[test]
    fn a_whole_task_jobs_failing_neighbour_is_no_verdict() {
        let root = tempfile::tempdir().unwrap();
        let jobs = [
            recorded_job(root.path(), "k:unit", 2, &[("demo.AlphaTest", false)]),
            recorded_job(
                root.path(),
                "k:unit-task",
                2,
                &[
                    ("demo.AlphaTest", false),
                    ("demo.NeedsNeighbourTest", true),
                    ("demo.OmegaTest", false),
                ],
            ),
        ];
        let alpha = test(":test", TestKind::Unit, Some("demo.AlphaTest"));
        let context = ReportContext {
            jobs: vec![
                unit_step("k:unit", vec![]),
                unit_step("k:unit-task", vec![alpha]),
            ],
            ..ReportContext::default()
        };
        let inputs = no_inputs();
        let f = findings(&jobs, &context, &inputs);
        let outcomes: Vec<(&str, OutcomeKind, u64)> = f
            .payloads()
            .iter()
            .map(|p| (p.job_id.as_str(), p.outcome, p.real_failures))
            .collect();
        assert_eq!(
            outcomes,
            [
                ("k-unit", OutcomeKind::CleanPass, 0),
                ("k-unit-task", OutcomeKind::CleanPass, 0)
            ]
        );
        let tests: Vec<&str> = f.overall.tests.iter().map(|t| t.class.as_str()).collect();
        assert_eq!(tests, ["demo.AlphaTest"]);
        assert_eq!(f.severity(), Severity::Success);
        assert_eq!(f.observed().real_failures, 0);
        insta::assert_json_snapshot!(
            "neighbours_json",
            (f.payloads(), &f.overall.neighbours, &f.overall.summary)
        );
        insta::assert_snapshot!("neighbours_markdown", f.markdown());

        // An earlier plan's context: nothing is set apart, nothing hidden.
        let earlier = ReportContext {
            jobs: vec![
                unit_step("k:unit", vec![]),
                unit_step("k:unit-task", vec![]),
            ],
            ..ReportContext::default()
        };
        let f = findings(&jobs, &earlier, &inputs);
        assert_eq!(f.payloads()[1].outcome, OutcomeKind::FlakyDetected);
        assert_eq!(f.overall.tests.len(), 3);
        assert_eq!(f.overall.neighbours, None);
    }

    /// A selected test no job executed is listed as never executed, with
    /// its step's word for it, and the report is no clean pass: its job ran
    /// the other selected class and passed.
    #[test]
    fn a_selected_test_no_job_ran_is_never_a_pass() {
        let root = tempfile::tempdir().unwrap();
        let jobs = [recorded_job(
            root.path(),
            "k:unit",
            2,
            &[("demo.AlphaTest", false)],
        )];
        let alpha = test(":test", TestKind::Unit, Some("demo.AlphaTest"));
        let beta = test(":test", TestKind::Unit, Some("demo.BetaTest"));
        let context = ReportContext {
            jobs: vec![unit_step("k:unit", vec![alpha.clone(), beta])],
            ..ReportContext::default()
        };
        let f = findings(&jobs, &context, &no_inputs());
        assert_eq!(f.payloads()[0].outcome, OutcomeKind::CleanPass);
        let never: Vec<(&str, u64)> = f
            .overall
            .not_executed
            .iter()
            .map(|n| (n.test.as_str(), n.planned_runs))
            .collect();
        assert_eq!(never, [("demo.BetaTest", 1)]);
        assert!(
            f.overall.not_executed[0]
                .reason
                .contains("the jobs of step `k:unit` ended normally without running it"),
            "{:?}",
            f.overall.not_executed
        );
        assert_eq!(f.severity(), Severity::Warning);
        assert!(
            f.markdown()
                .contains("`demo.BetaTest` (`:test`): never executed"),
            "{}",
            f.markdown()
        );
        // Both ran: nothing is listed, and the pass is clean.
        let context = ReportContext {
            jobs: vec![unit_step("k:unit", vec![alpha])],
            ..ReportContext::default()
        };
        let f = findings(&jobs, &context, &no_inputs());
        assert!(f.overall.not_executed.is_empty());
        assert_eq!(f.severity(), Severity::Success);
    }

    /// A job the engine ended early ran its class fewer times than planned:
    /// the report says that stop on proof or the budget ended it, as
    /// `local` says it, never that the job ran without the test.
    #[test]
    fn a_test_its_job_ended_early_says_why_below_plan() {
        use super::super::status::{BudgetStopRun, EngineRun, ProvenRun};
        let root = tempfile::tempdir().unwrap();
        let mut job = recorded_job(root.path(), "k:unit", 2, &[("demo.AlphaTest", true)]);
        job.status.engine = Some(EngineRun {
            proven: vec![ProvenRun {
                test: "demo.AlphaTest".into(),
                after: 2,
                saved: 8,
            }],
            ..EngineRun::default()
        });
        let alpha = test(":test", TestKind::Unit, Some("demo.AlphaTest"));
        let step = ExpectedStep {
            runs: vec![10],
            ..unit_step("k:unit", vec![alpha])
        };
        let context = ReportContext {
            jobs: vec![step],
            ..ReportContext::default()
        };
        let below = |f: &Findings| {
            let plan = f.overall.tests[0].plan.as_ref().unwrap();
            plan.below_plan.clone().unwrap_or_default()
        };
        let f = findings(std::slice::from_ref(&job), &context, &no_inputs());
        assert_eq!(
            below(&f),
            "ran 2 of 10 planned times: job k-unit: demo.AlphaTest proven flaky after 2 \
             iteration(s), 8 saved (stop on proof)"
        );
        let engine = job.status.engine.as_mut().unwrap();
        engine.proven.clear();
        engine.budget_stop = Some(BudgetStopRun {
            budget_sec: 60,
            iterations_run: 2,
            iterations_planned: 10,
        });
        let f = findings(&[job], &context, &no_inputs());
        assert!(
            below(&f).ends_with("job k-unit: stopped by its budget (60s) after 2 of 10 iterations"),
            "{}",
            below(&f)
        );
    }

    #[test]
    fn jobs_without_a_status_file_are_named() {
        let expected = [
            ExpectedStep {
                step_key: "k:unit".into(),
                kind: "unit".into(),
                label: "unit tests".into(),
                jobs: 3,
                iterations: 0,
                whole_task: false,
                selected: vec![],
                runs: vec![],
                repeated_by: vec![],
            },
            ExpectedStep {
                step_key: "k:integ".into(),
                kind: "internalClusterTest".into(),
                label: "integ tests".into(),
                jobs: 1,
                iterations: 0,
                whole_task: false,
                selected: vec![],
                runs: vec![],
                repeated_by: vec![],
            },
        ];
        let seen = |key: &str, n: Option<u32>| Status {
            step_key: key.into(),
            parallel_job: n,
            ..status(0, 1, None, "")
        };
        let statuses = [
            seen("k:unit", Some(0)),
            seen("k:unit", Some(2)),
            seen("k:integ", None),
        ];
        assert_eq!(
            missing_jobs(&expected, &statuses),
            [Missing {
                step_key: "k:unit".into(),
                label: "unit tests".into(),
                job: 2,
                of: 3
            }]
        );
        let section = jobs_markdown(vec![], missing_jobs(&expected, &statuses[..1]));
        assert!(
            section.contains("- `k:unit` (unit tests) job 2/3"),
            "{section}"
        );
        assert!(
            section.contains("- `k:integ` (integ tests) job 1/1"),
            "{section}"
        );
    }
}
