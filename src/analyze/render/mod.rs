//! Rendering a [`Report`]: the markdown annotation (Elasticsearch's layout plus
//! statistics and reproduce lines), the JSON contract, the severity, and one
//! merged Surefire-style JUnit file.

use crate::analyze::model::counts::Executions;
use crate::analyze::model::report::{PlannedRuns, Report, TestReport};
use crate::analyze::read::junit::floor_char_boundary;
use crate::markdown::{self, code, plain_line};
use crate::stats::{self, percent, Round};
use quick_junit::{NonSuccessKind, TestCase, TestCaseStatus, TestRerun, TestSuite};
use std::collections::BTreeMap;
use std::time::Duration;

mod around;
pub(crate) use around::not_checked;
pub(crate) mod clusters;
mod comparison;
mod conditions;
pub(crate) mod context;
pub(crate) mod cost;
mod triage;
mod verdicts;
pub use triage::triage_markdown;

/// Failing tests shown in the table.
const MAX_ROWS: usize = 100;
/// Example messages shown.
const MAX_EXAMPLES: usize = 25;
/// Reproduce lines shown.
const MAX_REPRODUCE: usize = 25;
/// A longer reproduce command is left to the JSON report.
const MAX_COMMAND_CHARS: usize = 2000;
/// Clean tests and suite-timeout rows listed.
const MAX_LISTED: usize = 100;
/// Buildkite's annotation limit is 1 MiB; stay under it.
pub const MAX_MARKDOWN_BYTES: usize = 900_000;
const TRUNCATION_MARKER: &str =
    "\n\n_Annotation truncated to stay under the Buildkite size limit._";
/// Failed executions written per test to the merged JUnit file.
const MAX_JUNIT_RERUNS: usize = 100;

/// The markdown report: what surrounds the tests, the tests, then what
/// follows them, under [`MAX_MARKDOWN_BYTES`]. Every report (`local`,
/// `analyze`, `--compare`, the CI report steps) is this text.
pub fn markdown(report: &Report) -> String {
    let mut md = around::head(report) + &tests_markdown(report);
    let tail = around::tail(report);
    if !tail.is_empty() {
        md = md + "\n" + &tail;
    }
    cap(single_blank_lines(&md))
}

/// Failing neighbours named on the summary's line; the JSON lists them all.
const MAX_NEIGHBOURS_NAMED: usize = 10;

/// The tests the whole-task runs also ran, summarized: a failing one is
/// visible, never the run's verdict.
fn neighbours_line(n: &crate::analyze::model::report::Neighbours) -> String {
    let mut line = format!(
        "- Also ran in their whole tasks (not selected, not judged): {} tests, {} executions",
        n.tests, n.executions
    );
    if n.failing.is_empty() {
        line.push_str("; none failed");
        return line;
    }
    let named = n.failing.iter().map(|f| {
        let name = code(&format!("{}.{}", f.class, f.method));
        format!("{name} ({}/{})", f.failures, f.runs)
    });
    let named = listed(named, MAX_NEIGHBOURS_NAMED);
    line + &format!("; {} failed: {named}", n.failing.len())
}

/// The first `max` of `items`, then `, and N more`.
pub(crate) fn listed(items: impl ExactSizeIterator<Item = String>, max: usize) -> String {
    let total = items.len();
    let mut said = items.take(max).collect::<Vec<_>>().join(", ");
    if total > max {
        said += &format!(", and {} more", total - max);
    }
    said
}

/// The Report JSON contract, pretty-printed.
pub fn json(report: &Report) -> String {
    let mut out = serde_json::to_string_pretty(report).expect("a report always serializes");
    out.push('\n');
    out
}

/// The tests' part of the report.
fn tests_markdown(report: &Report) -> String {
    let mut md = Vec::new();
    summary_lines(report, &mut md);
    conditions::warnings(report, &mut md);
    let failing: Vec<&TestReport> = report.tests.iter().filter(|t| t.failures > 0).collect();
    if failing.is_empty() {
        md.push("_No real failures recorded._".into());
    } else {
        let shown = &failing[..failing.len().min(MAX_ROWS)];
        let mut backing = Vec::new();
        conditions::first_executions(shown, &mut backing);
        context::section(shown, &mut backing);
        fold("What backs the failing verdicts", backing, &mut md);
        triage::section(shown, &mut md);
        reproduce_block(shown, &mut md);
        examples(shown, &mut md);
        clusters::section(report, &mut md);
    }
    suite_timeouts(report, &mut md);
    not_a_test(report, &mut md);
    below_plan(report, &mut md);
    let mut clean = Vec::new();
    clean_tests(report, &mut clean);
    fold("What the clean tests' runs bound", clean, &mut md);
    unreadable_files(report, &mut md);
    md.join("\n")
}

/// `md` with no two blank lines in a row outside code fences: sections
/// each open and close with one, and folding them must not pile them up.
fn single_blank_lines(md: &str) -> String {
    let mut out = String::with_capacity(md.len());
    let (mut fenced, mut blank) = (false, false);
    for line in md.split('\n') {
        if line.starts_with("```") {
            fenced = !fenced;
        }
        let is_blank = line.trim().is_empty();
        if is_blank && blank && !fenced {
            continue;
        }
        blank = is_blank;
        out.push_str(line);
        out.push('\n');
    }
    out.pop();
    out
}

/// `lines` in a `<details>` block titled `summary`, which CI annotations and
/// job summaries show folded: what backs a verdict, after the verdicts.
/// Nothing when there are no lines.
pub(super) fn fold(summary: &str, lines: Vec<String>, md: &mut Vec<String>) {
    if lines.iter().all(|l| l.trim().is_empty()) {
        return;
    }
    md.push(String::new());
    md.push(format!("<details><summary>{summary}</summary>"));
    md.push(String::new());
    md.extend(lines);
    md.push(String::new());
    md.push("</details>".into());
    md.push(String::new());
}

fn summary_lines(report: &Report, md: &mut Vec<String>) {
    let s = &report.summary;
    md.push("## Flakiness summary".into());
    md.push(String::new());
    if report.around.build_failed {
        md.push(
            "> ⚠️ One or more of the affected test source sets failed to compile, so *all*".into(),
        );
        md.push(
            "> flakiness re-runs were skipped - they share a single pre-flight compile gate."
                .into(),
        );
        md.push(
            "> See the precompile step's log for the specific compile error; this makes no".into(),
        );
        md.push("> claim about the rest of the build.".into());
        md.push(String::new());
    }
    verdicts::table(report, md);
    // Executions, not iterations: `--iters 20` on 6 test methods is 120.
    md.push(format!(
        "- Test executions: {} (each run of one test method)",
        s.executions
    ));
    md.push(format!("- Passed: {}", s.passed));
    md.push(format!("- Real failures: {}", s.failed));
    let heap: u64 = report.tests.iter().map(|t| t.heap_failures).sum();
    if heap > 0 {
        md.push(format!(
            "- Heap exhaustion (java.lang.OutOfMemoryError): {heap} of those failures: the \
             test JVM ran out of heap, infrastructure rather than flakiness"
        ));
    }
    if s.suite_timeouts > 0 {
        md.push(format!(
            "- Suite-timeout markers (informational): {}",
            s.suite_timeouts
        ));
    }
    md.push(format!("- Tests: {}", test_counts(report)));
    if let Some(n) = &report.neighbours {
        md.push(neighbours_line(n));
    }
    if let Some(line) = repetition_line(report) {
        md.push(line);
    }
    // A request the run could not honour, and in-JVM iterations dearer than
    // fresh runs, are never silent.
    md.extend(plan_note_lines(report, "Not as asked", |p| {
        p.not_honoured.as_deref()
    }));
    md.extend(plan_note_lines(report, "In-JVM cost", |p| {
        p.in_jvm_cost.as_deref()
    }));
    md.extend(task_sample_lines(report));
    md.extend(unmute_check_lines(report));
    if let Some(line) = conditions::summary_line(report) {
        md.push(line);
    }
    if s.skipped > 0 {
        md.push(format!("- Skipped cases: {}", s.skipped));
    }
    let f = &report.files;
    let mut files = format!("- Report files: {} read", f.read);
    for (n, what) in [
        (f.truncated.len() as u64, "truncated"),
        (f.malformed.len() as u64, "malformed"),
        (f.skipped_stale, "older than --since, skipped"),
    ] {
        if n > 0 {
            files.push_str(&format!(", {n} {what}"));
        }
    }
    md.push(files);
    md.push(String::new());
}

/// `- Repeated: 6 tests in test JVMs (junit4-runner), 2 tests by Gradle runs
/// (a fresh test JVM each)`: in-JVM repeats share static state and a warm
/// JIT, fresh runs do not (a mechanism spreads them over several fresh JVMs,
/// which the conditions line counts); a test repeated both ways (`auto` switched, or an
/// ignored count fell back) counts once, its ways in order; `None` when the
/// plan is unknown (`analyze`).
fn repetition_line(report: &Report) -> Option<String> {
    let plans = report.tests.iter().filter_map(|t| t.plan.as_ref());
    let ways = plans.map(|p| p.repeated_by.as_slice());
    let by = tally(ways.filter(|w| !w.is_empty()));
    if by.is_empty() {
        return None;
    }
    let way = |name: &str| match name {
        "gradle-runs" => "by Gradle runs (a fresh test JVM each)".to_string(),
        m => format!("in test JVMs ({m})"),
    };
    let parts: Vec<String> = by
        .iter()
        .map(|(ways, n)| {
            let tests = if *n == 1 { "test" } else { "tests" };
            let ways: Vec<String> = ways.iter().map(|w| way(w)).collect();
            format!("{n} {tests} {}", ways.join(", then "))
        })
        .collect();
    Some(format!("- Repeated: {}", parts.join(", ")))
}

/// `- Task sampled: …`, one line per task whose whole-task runs ran a random
/// sample of its classes: what ran in context `task` is that sample, and its
/// seed redoes it.
fn task_sample_lines(report: &Report) -> Vec<String> {
    let samples = report.tests.iter();
    tally(samples.filter_map(|t| t.plan.as_ref()?.task_sample.as_ref()))
        .into_iter()
        .map(|(s, _)| {
            format!(
                "- Task sampled: the whole task {} was too big for the budget: its runs in \
                 context task ran a random sample of {} of its {} classes, the selected ones \
                 among them (seed {}; `--sample-seed {}` redoes it)",
                markdown::code(&s.task),
                s.classes.len(),
                s.of,
                s.seed,
                s.seed
            )
        })
        .collect()
}

/// `- Unmute check: …`, one line per unmuted test backed by whole-task runs
/// (`--unmute-check`): what its runs alone in one JVM bound (repeats in a
/// warm JVM) and what its fresh-JVM runs in its task bound (the test as CI
/// runs it).
fn unmute_check_lines(report: &Report) -> Vec<String> {
    use crate::condition::Context;
    report
        .tests
        .iter()
        .filter(|t| t.plan.as_ref().is_some_and(|p| p.unmute_check))
        .map(|t| {
            let count = |context: Context| {
                let rows = t.by_condition.conditions.iter();
                let rows: Vec<_> = rows.filter(|c| c.condition.context == context).collect();
                let runs: u64 = rows.iter().map(|c| c.rate.runs).sum();
                let failures: u64 = rows.iter().map(|c| c.rate.failures).sum();
                (failures, runs)
            };
            let part = |(failures, runs): (u64, u64)| match failures {
                0 => format!(
                    "0/{runs} ⇒ failure rate < {} at 95%",
                    crate::stats::percent(crate::stats::rate_bound(runs, 0.95), Round::Up)
                ),
                f => format!("{f}/{runs} failed"),
            };
            format!(
                "- Unmute check: {}: alone {} (repeats in one JVM); in its whole task {} (fresh \
                 JVMs, as CI runs it)",
                markdown::code(&format!("{}.{}", t.class, t.method)),
                part(count(Context::Alone)),
                part(count(Context::Task)),
            )
        })
        .collect()
}

/// `- {label}: N tests: {note}`, one line per distinct note of the tests'
/// plans (`- Not as asked: 2 tests: --repetition in-jvm is not honoured: …`).
fn plan_note_lines<'r>(
    report: &'r Report,
    label: &str,
    note: impl Fn(&'r PlannedRuns) -> Option<&'r str>,
) -> Vec<String> {
    tally(report.tests.iter().filter_map(|t| note(t.plan.as_ref()?)))
        .into_iter()
        .map(|(why, n)| {
            let tests = if n == 1 { "test" } else { "tests" };
            format!("- {label}: {n} {tests}: {}", markdown::text(why))
        })
        .collect()
}

/// The distinct `items` with how many times each came, first seen first.
fn tally<T: PartialEq>(items: impl Iterator<Item = T>) -> Vec<(T, usize)> {
    let mut counts: Vec<(T, usize)> = Vec::new();
    for item in items {
        match counts.iter_mut().find(|(seen, _)| *seen == item) {
            Some((_, n)) => *n += 1,
            None => counts.push((item, 1)),
        }
    }
    counts
}

/// `6 (1 flaky, 1 failed once (1 execution: cannot tell flaky from broken))`:
/// a test that failed its only execution proves nothing about flakiness,
/// and one that failed every one of several is broken rather than flaky.
fn test_counts(report: &Report) -> String {
    let tests = report.tests.iter();
    let failed_all = tests.filter(|t| t.failures > 0 && t.passes == 0);
    let once = failed_all.clone().filter(|t| t.failures == 1).count();
    let every = failed_all.filter(|t| t.failures > 1).count();
    let mut parts = vec![format!("{} flaky", report.summary.flaky_tests)];
    if every > 0 {
        parts.push(format!("{every} failed every execution: broken, not flaky"));
    }
    if once > 0 {
        parts.push(format!(
            "{once} failed once (1 execution: cannot tell flaky from broken)"
        ));
    }
    format!("{} ({})", report.summary.tests, parts.join(", "))
}

/// `3.0% (1.0–8.5%)`: the failure rate and its 95% interval.
pub fn rate(t: &TestReport) -> String {
    format!(
        "{} ({}–{})",
        percent(t.failure_rate, Round::Nearest),
        percent(t.ci95[0], Round::Down),
        percent(t.ci95[1], Round::Up)
    )
}

/// `error x3, assertion x2, other`, in first-seen order.
pub(super) fn kinds(t: &TestReport) -> String {
    t.failure_kinds
        .0
        .iter()
        .map(|(kind, n)| match n {
            1 => kind.as_str().to_string(),
            n => format!("{} x{n}", kind.as_str()),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn reproduce_block(shown: &[&TestReport], md: &mut Vec<String>) {
    let lines: Vec<String> = shown
        .iter()
        .filter_map(|t| {
            let (cmd, replayed) = triage::reproduce_of(t)?;
            let cmd = markdown::one_line(cmd);
            let cmd = if cmd.chars().count() > MAX_COMMAND_CHARS {
                "# (longer than 2000 characters: see the JSON report)".to_string()
            } else {
                cmd
            };
            let context = t
                .reproduce_context
                .as_deref()
                .map(|c| format!("\n# {}", plain_line(c)))
                .unwrap_or_default();
            Some(format!(
                "# {}.{} ({} of {} failed){}{context}\n{cmd}",
                plain_line(&t.class),
                plain_line(&t.method),
                t.failures,
                t.runs,
                replayed.map(|r| format!(": {r}")).unwrap_or_default(),
            ))
        })
        .take(MAX_REPRODUCE)
        .collect();
    if lines.is_empty() {
        return;
    }
    md.push("### Reproduce".into());
    md.push(markdown::fenced(&lines.join("\n"), "sh"));
    md.push(String::new());
}

fn examples(shown: &[&TestReport], md: &mut Vec<String>) {
    md.push("### Example failure messages".into());
    let all: Vec<String> = shown
        .iter()
        .flat_map(|t| {
            t.examples.iter().map(|e| {
                format!(
                    "- {}: {}",
                    code(&format!("{}.{}", t.class, example_name(&e.name))),
                    markdown::text(&e.message)
                )
            })
        })
        .collect();
    let omitted = all.len().saturating_sub(MAX_EXAMPLES);
    md.extend(all.into_iter().take(MAX_EXAMPLES));
    if omitted > 0 {
        md.push(String::new());
        md.push(format!(
            "_{omitted} further example message(s) omitted; see job logs._"
        ));
    }
}

/// A failure's name as reported, but for gradle-flaky's JUnit 4 runner's
/// token, said in words: `t #1` in two JVMs would read as one numbered twice.
fn example_name(raw: &str) -> String {
    match crate::analyze::read::names::runner_token(raw) {
        Some((name, token)) => format!("{name} (execution {} in its JVM)", token.iteration),
        None => raw.to_string(),
    }
}

fn suite_timeouts(report: &Report, md: &mut Vec<String>) {
    let timed_out: Vec<&TestReport> = report
        .tests
        .iter()
        .filter(|t| t.suite_timeouts > 0)
        .collect();
    if timed_out.is_empty() {
        return;
    }
    md.push(String::new());
    md.push("### Suite timeouts (informational, not counted as failures)".into());
    md.push("| Class | Method | Suite timeouts |".into());
    md.push("| --- | --- | ---: |".into());
    for t in timed_out.iter().take(MAX_LISTED) {
        md.push(format!(
            "| {} | {} | {} |",
            markdown::text(&t.class),
            markdown::text(&t.method),
            t.suite_timeouts
        ));
    }
    more(timed_out.len(), "tests with suite timeouts", md);
}

fn clean_tests(report: &Report, md: &mut Vec<String>) {
    let clean: Vec<&TestReport> = report
        .tests
        .iter()
        .filter(|t| t.failures == 0 && t.runs > 0)
        .collect();
    if clean.is_empty() {
        return;
    }
    md.push(String::new());
    md.push("### Clean tests".into());
    let grouped = grouped_short(report);
    for t in clean.iter().take(MAX_LISTED) {
        let planned = match &t.plan {
            // Said once for its class under "Ran fewer times than planned".
            Some(p)
                if p.below_plan.is_some()
                    && grouped.contains(&(t.class.as_str(), t.method.as_str())) =>
            {
                String::new()
            }
            Some(p) if p.below_plan.is_some() => format!(
                " — ⚠️ ran {} of {} planned times (see above)",
                t.runs, p.planned_runs
            ),
            Some(p) => format!(" ({} planned)", p.planned_runs),
            None => String::new(),
        };
        let name = code(&format!("{}.{}", t.class, t.method));
        if t.verdict.executions == Executions::First {
            let (bound, why) = conditions::clean_on_first_executions(t);
            md.push(format!(
                "- {name}: {bound}{planned}{why}{}",
                context::clean_task_bound(t)
            ));
            continue;
        }
        md.push(format!(
            "- {name}: {}{planned}{}{}",
            stats::clean_statement(t.runs),
            conditions::clean_first_bound(t),
            context::clean_task_bound(t)
        ));
    }
    more(clean.len(), "clean tests", md);
}

/// The tests below their plan that share one line with other methods of
/// their class (a stopped batch): (class, method).
fn grouped_short(report: &Report) -> Vec<(&str, &str)> {
    short_classes(report)
        .into_iter()
        .filter(|g| g.tests.len() > 1)
        .flat_map(|g| {
            g.tests
                .into_iter()
                .map(|(t, _)| (t.class.as_str(), t.method.as_str()))
        })
        .collect()
}

/// Classes JUnit found no test in: no verdict about a test (`not-a-test`).
fn not_a_test(report: &Report, md: &mut Vec<String>) {
    if report.not_a_test.is_empty() {
        return;
    }
    md.push(String::new());
    md.push("### Not a test (`not-a-test`)".into());
    md.push(
        "JUnit found no test in these classes: no verdict, and no execution counted (the exit \
         code follows the tests that ran)."
            .into(),
    );
    for n in report.not_a_test.iter().take(MAX_LISTED) {
        let task = n
            .task
            .as_deref()
            .map(|t| format!(" ({})", code(t)))
            .unwrap_or_default();
        md.push(format!(
            "- {}{task}: {}",
            code(&n.class),
            markdown::text(&n.message)
        ));
    }
    more(report.not_a_test.len(), "classes with no test", md);
}

/// Selected tests that ran fewer times than planned, and why; they prove less
/// than the plan said. The methods of a class that share one reason (a batch
/// stopped on proof or at its time) are one line: the reason is the batch's.
fn below_plan(report: &Report, md: &mut Vec<String>) {
    let short: Vec<String> = short_classes(report)
        .into_iter()
        .map(|group| group.line())
        .chain(report.not_executed.iter().map(|n| {
            format!(
                "- {} ({}): never executed, {} planned: {}",
                code(&n.test),
                code(&n.task),
                n.planned_runs,
                markdown::text(&n.reason)
            )
        }))
        .collect();
    if short.is_empty() {
        return;
    }
    md.push(String::new());
    md.push("### Ran fewer times than planned".into());
    let total = short.len();
    md.extend(short.into_iter().take(MAX_LISTED));
    more(total, "tests below their planned runs", md);
}

/// The tests of one class below their plan for one reason.
struct ShortGroup<'a> {
    class: &'a str,
    why: &'a str,
    /// Each test with its runs and planned runs, in report order.
    tests: Vec<(&'a TestReport, u64)>,
}

impl ShortGroup<'_> {
    fn line(&self) -> String {
        if let [(t, _)] = self.tests[..] {
            let plan = t.plan.as_ref().and_then(|p| p.below_plan.as_deref());
            return format!(
                "- {}: {}",
                code(&format!("{}.{}", t.class, t.method)),
                markdown::text(plan.unwrap_or(self.why))
            );
        }
        let runs = |pick: fn(&(&TestReport, u64)) -> u64| {
            let lo = self.tests.iter().map(pick).min().unwrap_or(0);
            let hi = self.tests.iter().map(pick).max().unwrap_or(0);
            if lo == hi {
                lo.to_string()
            } else {
                format!("{lo}–{hi}")
            }
        };
        format!(
            "- {} ({} methods): ran {} of {} planned times each: {}",
            code(self.class),
            self.tests.len(),
            runs(|(t, _)| t.runs),
            runs(|(_, planned)| *planned),
            markdown::text(self.why)
        )
    }
}

/// The tests below their plan, grouped by class and reason, in the order
/// their first test appears.
fn short_classes(report: &Report) -> Vec<ShortGroup<'_>> {
    let mut groups: Vec<ShortGroup> = Vec::new();
    for t in &report.tests {
        let Some(plan) = t.plan.as_ref().filter(|p| p.below_plan.is_some()) else {
            continue;
        };
        let why = plan
            .shortfall
            .as_deref()
            .or(plan.below_plan.as_deref())
            .unwrap_or_default();
        let entry = (t, plan.planned_runs);
        match groups
            .iter_mut()
            .find(|g| g.class == t.class && g.why == why)
        {
            Some(g) => g.tests.push(entry),
            None => groups.push(ShortGroup {
                class: &t.class,
                why,
                tests: vec![entry],
            }),
        }
    }
    groups
}

fn unreadable_files(report: &Report, md: &mut Vec<String>) {
    let f = &report.files;
    if f.truncated.is_empty() && f.malformed.is_empty() && f.unreadable_dirs.is_empty() {
        return;
    }
    md.push(String::new());
    md.push("### Unreadable report files".into());
    for d in f.unreadable_dirs.iter().take(MAX_LISTED) {
        md.push(format!(
            "- {}: directory not readable ({}); reports in it were not counted",
            code(&d.path),
            markdown::text(&d.error)
        ));
    }
    for t in f.truncated.iter().take(MAX_LISTED) {
        md.push(format!(
            "- {}: truncated; {} test case(s) read before the cut",
            code(&t.path),
            t.cases
        ));
    }
    for m in f.malformed.iter().take(MAX_LISTED) {
        md.push(format!(
            "- {}: malformed at byte {}: {}",
            code(&m.path),
            m.offset,
            markdown::text(&m.error)
        ));
    }
}

fn more(total: usize, what: &str, md: &mut Vec<String>) {
    if total > MAX_LISTED {
        md.push(String::new());
        md.push(format!(
            "_… and {} more {what}; see the JSON report._",
            total - MAX_LISTED
        ));
    }
}

/// Cuts the body under the size limit at a line end, on a char boundary.
fn cap(body: String) -> String {
    if body.len() <= MAX_MARKDOWN_BYTES {
        return body;
    }
    let limit = floor_char_boundary(&body, MAX_MARKDOWN_BYTES - TRUNCATION_MARKER.len());
    let cut = body[..limit].rfind('\n').unwrap_or(limit);
    format!("{}{TRUNCATION_MARKER}", &body[..cut])
}

/// One merged Surefire-style JUnit file: a suite per class, a case per test;
/// a test that passed and failed carries `flakyFailure` elements, one that only
/// failed a `failure` plus `rerunFailure` elements, one that only hit the suite
/// timeout is skipped.
pub fn junit(report: &Report) -> String {
    let mut suites: BTreeMap<&str, TestSuite> = BTreeMap::new();
    let mut sorted: Vec<&TestReport> = report.tests.iter().collect();
    sorted.sort_by(|a, b| (&a.class, &a.method).cmp(&(&b.class, &b.method)));
    for t in sorted {
        suites
            .entry(&t.class)
            .or_insert_with(|| TestSuite::new(t.class.as_str()))
            .add_test_case(junit_case(t));
    }
    let mut out = quick_junit::Report::new("gradle-flaky");
    out.add_test_suites(suites.into_values());
    out.to_string().expect("a JUnit report always serializes")
}

fn junit_case(t: &TestReport) -> TestCase {
    let rerun = |i: usize| {
        let mut run = TestRerun::new(NonSuccessKind::Failure);
        match t.examples.get(i) {
            Some(e) => {
                run.set_message(plain_line(&e.message))
                    .set_type(e.type_name.as_str())
                    .set_stack_trace(e.message.as_str());
            }
            None => {
                run.set_message("failed (no example kept)");
            }
        }
        run
    };
    let failures = usize::try_from(t.failures).unwrap_or(usize::MAX);
    let status = if t.runs == 0 {
        let mut status = TestCaseStatus::skipped();
        status.set_message(format!("suite timeout ({}x)", t.suite_timeouts));
        status
    } else if t.failures == 0 {
        TestCaseStatus::success()
    } else if t.passes > 0 {
        let mut status = TestCaseStatus::success();
        status.add_reruns((0..failures.min(MAX_JUNIT_RERUNS)).map(rerun));
        status
    } else {
        let mut status = TestCaseStatus::non_success(NonSuccessKind::Failure);
        if let Some(e) = t.examples.first() {
            status
                .set_message(plain_line(&e.message))
                .set_type(e.type_name.as_str())
                .set_description(e.message.as_str());
        }
        status.add_reruns((1..failures.min(MAX_JUNIT_RERUNS)).map(rerun));
        status
    };
    let mut case = TestCase::new(t.method.as_str(), status);
    case.set_classname(t.class.as_str());
    if t.time_sec.is_finite() && t.time_sec >= 0.0 {
        case.set_time(Duration::from_secs_f64(t.time_sec.min(1e12)));
    }
    case
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::analyze::model::report::{
        Example, FailureKind, KindCounts, ReportFiles, Severity, Summary,
    };
    use crate::analyze::rules::verdict;

    pub(crate) fn test(class: &str, method: &str, passes: u64, failures: u64) -> TestReport {
        TestReport::sample(class, method, passes, failures)
    }

    pub(super) fn report(tests: Vec<TestReport>) -> Report {
        let failed = tests.iter().map(|t| t.failures).sum();
        let passed = tests.iter().map(|t| t.passes).sum();
        let suite_timeouts = tests.iter().map(|t| t.suite_timeouts).sum();
        let mut r = Report {
            around: Default::default(),
            summary: Summary {
                executions: passed + failed + suite_timeouts,
                passed,
                failed,
                suite_timeouts,
                skipped: 0,
                tests: tests.len() as u64,
                flaky_tests: 0,
                severity: Severity::Success,
            },
            tests,
            not_executed: vec![],
            not_a_test: vec![],
            files: ReportFiles::default(),
            warnings: vec![],
            clusters: vec![],
            skips: Default::default(),
            neighbours: None,
        };
        r.summary.severity = verdict::severity(&r);
        r
    }

    fn example(name: &str, message: &str) -> Example {
        Example {
            name: name.into(),
            kind: FailureKind::Assertion,
            type_name: "java.lang.AssertionError".into(),
            message: message.into(),
        }
    }

    #[test]
    fn runs_below_the_plan_are_said_and_never_listed_as_plainly_clean() {
        use crate::analyze::model::report::{NotExecuted, PlannedRuns};
        let mut ok = test("a.T", "full", 12, 0);
        ok.plan = Some(PlannedRuns {
            planned_runs: 12,
            below_plan: None,
            shortfall: None,
            repeated_by: vec![],
            in_jvm_cost: None,
            not_honoured: None,
            task_sample: None,
            unmute_check: false,
        });
        let mut short = test("a.T", "short", 1, 0);
        short.plan = Some(PlannedRuns {
            planned_runs: 12,
            below_plan: Some("ran 1 of 12 planned times: batch 1 timed out".into()),
            shortfall: Some("batch 1 timed out".into()),
            repeated_by: vec![],
            in_jvm_cost: None,
            not_honoured: None,
            task_sample: None,
            unmute_check: false,
        });
        let mut r = report(vec![ok, short]);
        r.not_executed.push(NotExecuted {
            task: ":p:test".into(),
            test: "a.T.gone".into(),
            planned_runs: 12,
            reason: "batch 1 timed out".into(),
        });
        let md = markdown(&r);
        assert!(
            md.contains(
                "### Ran fewer times than planned\n\
                 - `a.T.short`: ran 1 of 12 planned times: batch 1 timed out\n\
                 - `a.T.gone` (`:p:test`): never executed, 12 planned: batch 1 timed out\n"
            ),
            "{md}"
        );
        assert!(
            md.contains("- `a.T.full`: 0/12 \u{21d2} failure rate < 23% at 95% (12 planned)"),
            "{md}"
        );
        assert!(
            md.contains(
                "- `a.T.short`: 0/1 \u{21d2} failure rate < 95% at 95% \u{2014} \u{26a0}\u{fe0f} \
                 ran 1 of 12 planned times (see above)"
            ),
            "{md}"
        );
        let json: serde_json::Value = serde_json::from_str(&json(&r)).unwrap();
        assert_eq!(json["tests"][1]["plannedRuns"], 12);
        assert_eq!(
            json["tests"][1]["belowPlan"],
            "ran 1 of 12 planned times: batch 1 timed out"
        );
        assert_eq!(json["notExecuted"][0]["test"], "a.T.gone");
    }

    /// A test whose in-JVM iterations cost more than fresh runs: the report
    /// says what they cost, and `repeatedBy` names both ways that ran it.
    #[test]
    fn the_in_jvm_cost_and_both_ways_of_a_switched_test_are_said() {
        use crate::analyze::model::report::PlannedRuns;
        let mut t = test("a.GrowingTests", "grows", 4, 0);
        t.plan = Some(PlannedRuns {
            planned_runs: 4,
            below_plan: None,
            shortfall: None,
            repeated_by: vec!["tests-iters".into(), "gradle-runs".into()],
            in_jvm_cost: Some(
                "in-JVM iterations of a.GrowingTests took 9.2s each against 3.1s for a fresh \
                 run: the rest run as Gradle runs"
                    .into(),
            ),
            not_honoured: None,
            task_sample: None,
            unmute_check: false,
        });
        let r = report(vec![t]);
        let md = markdown(&r);
        let summary: Vec<&str> = md.lines().filter(|l| l.starts_with("- ")).collect();
        insta::assert_snapshot!("in_jvm_cost_summary", summary.join("\n"));
        let json: serde_json::Value = serde_json::from_str(&json(&r)).unwrap();
        let row = &json["tests"][0];
        insta::assert_json_snapshot!(
            "in_jvm_cost_json",
            serde_json::json!({"repeatedBy": row["repeatedBy"], "inJvmCost": row["inJvmCost"]})
        );
    }

    /// After stop on proof, every method of the stopped class shares its
    /// batch's reason: one line for the class, not one per method.
    #[test]
    fn the_methods_of_a_stopped_class_are_one_line() {
        use crate::analyze::model::report::PlannedRuns;
        let stopped = "batch 1 stopped on proof after 3 iteration(s)";
        let short = |class: &str, method: &str, runs: u64, why: &str| {
            let mut t = test(class, method, runs, 0);
            t.plan = Some(PlannedRuns {
                planned_runs: 20,
                below_plan: Some(format!("ran {runs} of 20 planned times: {why}")),
                shortfall: Some(why.into()),
                repeated_by: vec![],
                in_jvm_cost: None,
                not_honoured: None,
                task_sample: None,
                unmute_check: false,
            });
            t
        };
        let r = report(vec![
            short("a.Stopped", "one", 3, stopped),
            short("a.Stopped", "two", 3, stopped),
            short("a.Stopped", "three", 4, stopped),
            short("a.Other", "alone", 5, "batch 2 timed out"),
        ]);
        let md = markdown(&r);
        assert!(
            md.contains(
                "### Ran fewer times than planned\n\
                 - `a.Stopped` (3 methods): ran 3–4 of 20 planned times each: batch 1 stopped \
                 on proof after 3 iteration(s)\n\
                 - `a.Other.alone`: ran 5 of 20 planned times: batch 2 timed out\n"
            ),
            "{md}"
        );
        assert_eq!(md.matches("stopped on proof").count(), 1, "{md}");
        // The class's clean methods are not each warned again; a test alone
        // below its plan still is.
        assert!(md.contains("- `a.Stopped.one`: 0/3 \u{21d2}"), "{md}");
        assert_eq!(md.matches("planned times (see above)").count(), 1, "{md}");
        assert!(
            md.contains("`a.Other.alone`: 0/5 \u{21d2} failure rate < 46% at 95% \u{2014} \u{26a0}\u{fe0f} ran 5 of 20 planned times (see above)"),
            "{md}"
        );
    }

    /// A class JUnit found no test in is listed apart, its words escaped,
    /// never among the failures.
    #[test]
    fn classes_with_no_test_are_listed_apart() {
        let mut r = report(vec![test("a.T", "ok", 3, 0)]);
        crate::analyze::read::no_test::add(
            &mut r.not_a_test,
            "a.`Helper`Test",
            Some(":p:test"),
            "No runnable methods",
            2,
        );
        let md = markdown(&r);
        assert!(md.contains("### Not a test (`not-a-test`)"), "{md}");
        assert!(
            md.contains("- ``a.`Helper`Test`` (`:p:test`): No runnable methods\n"),
            "{md}"
        );
        assert!(md.contains("_No real failures recorded._"), "{md}");
        let json: serde_json::Value = serde_json::from_str(&json(&r)).unwrap();
        assert_eq!(json["notATest"][0]["times"], 2);
    }

    #[test]
    fn the_summary_tells_one_failed_execution_from_a_broken_test() {
        let md = markdown(&report(vec![
            test("A", "once", 0, 1),
            test("B", "always", 0, 3),
            test("C", "fine", 4, 0),
        ]));
        assert!(
            md.contains("\n- Tests: 3 (0 flaky, 1 failed every execution: broken, not flaky, 1 failed once (1 execution: cannot tell flaky from broken))\n"),
            "{md}"
        );
        assert!(!md.contains("always failing"), "{md}");
        // Filters and markers that did nothing are not mentioned.
        assert!(md.contains("\n- Report files: 0 read\n"), "{md}");
        assert!(!md.contains("--since"), "{md}");
        assert!(!md.contains("Suite-timeout"), "{md}");
    }

    #[test]
    fn renders_the_failure_table_and_example_lines() {
        let mut t = test("X", "y", 1, 1);
        t.examples = vec![example("y {seed=[A:B]}", "boom")];
        let md = markdown(&report(vec![t]));
        // The first screen answers: the verdict, the rate and what it rests on.
        assert!(
            md.starts_with(
                "## Flakiness summary\n\n| Test | Verdict | Failure rate (95%) | Rests on | \
                 Failures |\n| --- | --- | --- | --- | --- |\n| `X.y` | **flaky** | 1/2 = 50% \
                 (9.4%–90.6%) | every execution | assertion |\n\n- Test executions: 2 (each run \
                 of one test method)\n"
            ),
            "{md}"
        );
        assert!(md.contains("\n- `X.y {seed=[A:B]}`: boom"), "{md}");
        assert!(!md.ends_with('\n'));
    }

    #[test]
    fn kinds_are_counted_in_first_seen_order() {
        let mut t = test("X", "y", 0, 6);
        t.failure_kinds = KindCounts(vec![
            (FailureKind::Error, 3),
            (FailureKind::Assertion, 2),
            (FailureKind::Other, 1),
        ]);
        let md = markdown(&report(vec![t]));
        assert!(md.contains("| error x3, assertion x2, other |"), "{md}");
    }

    #[test]
    fn a_mass_failure_stays_under_the_size_cap() {
        let tests: Vec<TestReport> = (0..500)
            .map(|i| {
                let mut t = test("org.example.MassTests", &format!("test{i:03}"), 0, 1);
                t.examples = vec![example(&format!("test{i:03}"), &"E".repeat(5000))];
                t
            })
            .collect();
        let md = markdown(&report(tests));
        assert!(md.len() < MAX_MARKDOWN_BYTES);
        assert!(md.contains("_… and 400 more tests; see the JSON report._"));
        assert!(md.lines().filter(|l| l.starts_with("| `org.")).count() <= 100);
        assert!(!md.contains(&"E".repeat(5000)));
        assert!(md.contains("_75 further example message(s) omitted; see job logs._"));
    }

    #[test]
    fn the_size_cap_counts_bytes_and_cuts_on_a_char_boundary() {
        // Huge multi-byte names and commands stay well under the cap.
        let tests: Vec<TestReport> = (0..100)
            .map(|i| {
                let mut t = test(&"é".repeat(20_000), &format!("t{i}"), 0, 1);
                t.reproduce = Some("ü".repeat(20_000));
                t
            })
            .collect();
        let md = markdown(&report(tests));
        assert!(md.len() <= MAX_MARKDOWN_BYTES, "{}", md.len());
        // 600,000 two-byte chars: over the cap in bytes, not in chars.
        let body = ["a\n", &"é".repeat(600_000)].concat();
        let capped = cap(body);
        assert_eq!(capped, format!("a{TRUNCATION_MARKER}"));
        let one_line = cap("é".repeat(600_000));
        assert!(one_line.len() <= MAX_MARKDOWN_BYTES && one_line.ends_with(TRUNCATION_MARKER));
        assert!(one_line.starts_with("éé"));
    }

    #[test]
    fn table_cells_and_messages_are_escaped() {
        let mut t = test("X|Y", "m\nwith <b>", 0, 1);
        t.examples = vec![example("m", "expected:<1>\nbut | was")];
        let md = markdown(&report(vec![t]));
        assert!(
            md.contains("| `X\\|Y.m with <b>` | **failed once** |"),
            "{md}"
        );
        assert!(
            md.contains("`X|Y.m`: expected:&lt;1&gt; but \\| was"),
            "{md}"
        );
    }

    #[test]
    fn long_messages_are_cut_at_400_characters() {
        let mut t = test("X", "y", 0, 1);
        t.examples = vec![example("y", &"ä".repeat(450))];
        let md = markdown(&report(vec![t]));
        assert!(md.contains(&format!("`X.y`: {}…", "ä".repeat(400))), "{md}");
    }

    #[test]
    fn severity_follows_failures_then_suite_timeouts() {
        assert_eq!(
            verdict::severity(&report(vec![test("X", "y", 1, 1)])),
            Severity::Error
        );
        let mut timed_out = test("X", "classMethod", 0, 0);
        timed_out.suite_timeouts = 1;
        assert_eq!(
            verdict::severity(&report(vec![timed_out])),
            Severity::Warning
        );
        assert_eq!(
            verdict::severity(&report(vec![test("X", "y", 3, 0)])),
            Severity::Success
        );
        let empty = report(vec![]);
        assert_eq!(verdict::severity(&empty), Severity::Success);
        let mut gate = empty.clone();
        gate.around.build_failed = true;
        assert_eq!(verdict::severity(&gate), Severity::Warning);
    }

    #[test]
    fn the_compile_gate_banner_is_shown_only_when_asked() {
        let mut empty = report(vec![]);
        empty.around.build_failed = true;
        let md = markdown(&empty);
        assert!(md.contains("failed to compile") && md.contains("re-runs were skipped"));
        empty.around.build_failed = false;
        let md = markdown(&empty);
        assert!(!md.contains("failed to compile"));
        assert!(md.contains("_No real failures recorded._"));
    }

    #[test]
    fn clean_tests_state_what_they_prove() {
        let md = markdown(&report(vec![test("X", "y", 100, 0)]));
        assert!(
            md.contains("- `X.y`: 0/100 ⇒ failure rate < 3.0% at 95%"),
            "{md}"
        );
    }

    /// A clean test of a class that left a thread per execution (five JVMs
    /// of four) states what its five first executions bound, and why its
    /// other executions bound nothing.
    #[test]
    fn a_clean_test_of_a_leaking_class_states_its_first_executions() {
        let mut t = crate::analyze::rules::drift::tests::leaving("a.Leaky", 5, &[0, 1, 2, 3]);
        t.passes = 20;
        t.runs = 20;
        let mut tests = vec![t];
        let warnings = crate::analyze::rules::drift::warn(&mut tests);
        let mut r = report(tests);
        r.warnings = warnings;
        let md = markdown(&r);
        assert!(
            md.contains(
                "- `a.Leaky.t`: first executions in a fresh JVM: 0/5 ⇒ failure \
                 rate < 46% at 95%; its class accumulates state in one JVM (see the warnings): \
                 its 20 executions there bound only runs in a JVM it had changed"
            ),
            "{md}"
        );
    }
}
