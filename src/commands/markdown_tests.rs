//! Every markdown gradle-flaky emits, fed branch-controlled text full of markup
//! (backticks, pipes, HTML, links, newlines, fences), must keep the structure it
//! has with plain text: the hostile text may only ever be text or the content
//! of a code span. Checked with a CommonMark parser (GitHub's table extension
//! on), rendering each emitter twice, with a benign and a hostile payload.

use super::report::render;
use crate::analyze::model::outcome::{JobPayload, OutcomeKind};
use crate::analyze::model::report::{Jobs, Missing};
use crate::analyze::{self, AnalyzeOptions};
use crate::buildkite::wrap::failure_annotation;
use crate::ci::job::JobEnv;
use crate::ci::prepare::unresolved_markdown;
use crate::cli::ReportFormat;
use crate::domain::{GradleCommand, Origin, ReasonCode, TestKind, Unresolved};
use crate::process::Ended;
use crate::run::cause::Cause;
use crate::run::engine::Outcome;
use crate::run::invoke::{Iteration, IterationVerdict};
use crate::run::local::{problems, BatchRun};
use pulldown_cmark::{CodeBlockKind, Event, Options, Parser, Tag, TagEnd};
use std::path::{Path, PathBuf};
use std::time::Duration;

const BENIGN: &str = "PAYLOAD plain words END";
/// Everything that could open markup, a block, a cell, HTML or a link; short
/// enough that a name built of two stays under the 400-character cut.
const HOSTILE: &str = "PAYLOAD a`b``c` |d| <img src=x> <!--e--> </td> [l](javascript:f) \
                       x](http://g.h) <http://a.b> ```\n# h\n- i\n> q\n| t |\n\n    c\n===\n\
                       &amp; &#60; \\` \\| *e* _u_ ~~s~~ END";

/// Where a payload starts and ends: a container holding one without the
/// other had it cut (a `|` splitting a cell, a newline ending a block).
const MARKS: [&str; 2] = ["PAYLOAD", "END"];

/// The parts of a document that a payload must never change: blocks, table
/// rows and cells, links, code spans, and how many payload starts and ends
/// each holds. Text is one token however it is split; emphasis is left out
/// (it changes only how text looks). Panics when HTML is found, or a raw `<`
/// that could open a tag in text outside code.
fn skeleton(md: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut in_code_block = false;
    // The text of each open container, innermost last.
    let mut texts: Vec<String> = vec![String::new()];
    let options = Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH;
    for (event, range) in Parser::new_ext(md, options).into_offset_iter() {
        let token = match event {
            Event::Start(Tag::Emphasis | Tag::Strong | Tag::Strikethrough)
            | Event::End(TagEnd::Emphasis | TagEnd::Strong | TagEnd::Strikethrough) => continue,
            Event::Start(tag) => {
                texts.push(String::new());
                match tag {
                    Tag::CodeBlock(kind) => {
                        in_code_block = true;
                        match kind {
                            CodeBlockKind::Fenced(lang) => format!("<fence {lang}>"),
                            CodeBlockKind::Indented => "<indented code>".into(),
                        }
                    }
                    tag => format!("<{tag:?}>"),
                }
            }
            Event::End(tag) => {
                in_code_block &= tag != TagEnd::CodeBlock;
                let text = texts.pop().unwrap_or_default();
                let marks = MARKS.map(|m| text.matches(m).count());
                if let Some(outer) = texts.last_mut() {
                    outer.push_str(&text);
                }
                format!("</{tag:?} marks {marks:?}>")
            }
            Event::Text(text) => {
                let raw = &md[range];
                assert!(
                    in_code_block || !opens_html(raw),
                    "a raw `<` in text: {raw:?}\n{md}"
                );
                if let Some(open) = texts.last_mut() {
                    open.push_str(&text);
                }
                "text".into()
            }
            Event::Code(text) => {
                if let Some(open) = texts.last_mut() {
                    open.push_str(&text);
                }
                "code".into()
            }
            // The report's own folds, whose titles are fixed words; any
            // other HTML came from the payload.
            Event::Html(html) | Event::InlineHtml(html) if is_fold(&html) => format!("{html:?}"),
            Event::Html(html) | Event::InlineHtml(html) => {
                panic!("HTML reached the markdown: {html:?}\n{md}")
            }
            other => format!("{other:?}"),
        };
        if token == "text" && out.last().is_some_and(|t| t == "text") {
            continue;
        }
        out.push(token);
    }
    out
}

/// `<details><summary>Fixed words</summary>` or `</details>`, as
/// `analyze::render::fold` writes them.
fn is_fold(html: &str) -> bool {
    let html = html.trim_end();
    let title = html
        .strip_prefix("<details><summary>")
        .and_then(|t| t.strip_suffix("</summary>"));
    html == "</details>"
        || title.is_some_and(|t| {
            t.chars()
                .all(|c| c.is_ascii_alphabetic() || " '".contains(c))
        })
}

/// A raw `<` that a lenient renderer could read as the start of a tag, a
/// comment or an autolink (our own `failure rate < 3.0%` cannot be one).
fn opens_html(raw: &str) -> bool {
    raw.as_bytes()
        .windows(2)
        .any(|w| w[0] == b'<' && (w[1].is_ascii_alphabetic() || b"/!?".contains(&w[1])))
}

/// Renders with the benign and the hostile payload and compares.
fn assert_contained(what: &str, emit: impl Fn(&str) -> String) {
    let (benign, hostile) = (emit(BENIGN), emit(HOSTILE));
    assert!(
        hostile.contains("PAYLOAD a"),
        "{what}: the payload never reached the markdown:\n{hostile}"
    );
    assert_eq!(
        skeleton(&benign),
        skeleton(&hostile),
        "{what}: the payload changed the document's structure:\n--- benign\n{benign}\n--- hostile\n{hostile}"
    );
}

fn xml_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\n', "&#10;")
}

/// The report of real JUnit XML whose class, methods, messages and file name
/// are `p`: a flaky test (failure table, reproduce line, example), a clean
/// one, a suite timeout, and a malformed file.
fn report_of(p: &str) -> analyze::Report {
    let dir = tempfile::tempdir().unwrap();
    let results = dir.path().join("p/build/test-results/test");
    std::fs::create_dir_all(&results).unwrap();
    let a = xml_escape(p);
    let xml = format!(
        r#"<?xml version="1.0"?><testsuite name="{a}">
<testcase classname="{a}" name="{a}m"><failure type="java.lang.AssertionError" message="{a}">{a}</failure></testcase>
<testcase classname="{a}" name="{a}m"/>
<testcase classname="{a}" name="{a}p"/>
<testcase classname="{a}" name="classMethod"><failure type="java.lang.Exception" message="Suite timeout exceeded (&gt;= 2000 msec).">x</failure></testcase>
</testsuite>"#
    );
    std::fs::write(results.join("TEST-a.xml"), xml).unwrap();
    let name = format!("TEST-{}.xml", p.replace('/', "_"));
    std::fs::write(results.join(name), "<testsuite><testcase name=").unwrap();
    analyze::analyze_root(dir.path(), &AnalyzeOptions::default())
}

fn unresolved(p: &str, origin: Origin) -> Unresolved {
    Unresolved {
        input: p.to_string(),
        reason_code: ReasonCode::NoSuchClass,
        reason: format!("no class `{p}` in the build's test source sets"),
        origin,
    }
}

#[test]
fn the_flakiness_report_contains_hostile_names_and_messages() {
    assert_contained("analyze::render::markdown", |p| {
        let report = report_of(p);
        assert!(report.summary.failed > 0 && report.summary.suite_timeouts > 0);
        analyze::render::markdown(&report)
    });
}

#[test]
fn the_selection_annotation_contains_hostile_inputs() {
    assert_contained("buildkite upload: unresolved_markdown", |p| {
        unresolved_markdown(&[
            unresolved(p, Origin::Changed),
            unresolved(p, Origin::Unmuted),
            unresolved(p, Origin::Explicit),
        ])
    });
}

#[test]
fn the_jobs_section_contains_hostile_keys_labels_and_inputs() {
    assert_contained("buildkite report: jobs_section", |p| {
        let payload = JobPayload {
            job_id: p.into(),
            step_key: p.into(),
            kind: Some(TestKind::parse(p)),
            rc: 1,
            duration_sec: 3,
            real_failures: 1,
            suite_timeouts: 0,
            total_cases: 2,
            outcome: OutcomeKind::FlakyDetected,
            timed_out: true,
            failing_classes: vec![p.into()],
            infra_subtype: None,
            reason: None,
            skipped: None,
            heap_failures: 0,
            flaky_tests: 0,
            broken_tests: 0,
        };
        let missing = Missing {
            step_key: p.into(),
            label: p.into(),
            job: 1,
            of: 2,
        };
        let skipped = Unresolved {
            reason_code: ReasonCode::NoRunnableTask,
            ..unresolved(p, Origin::Changed)
        };
        let mut ci = crate::analyze::analyze_roots(&[], &Default::default());
        // What a job's engine did, its log's lines among it.
        let engine = crate::analyze::model::report::JobEngine {
            job_id: p.into(),
            step_key: p.into(),
            iterations_run: 6,
            iterations_planned: 60,
            invocations: 2,
            chunked: true,
            lines: vec![p.into()],
            budget_stop: None,
            saved_sec: 30,
        };
        ci.around.jobs = Some(Jobs {
            payloads: vec![payload.clone()],
            missing: vec![missing],
            engine: vec![engine],
        });
        let mut md = crate::analyze::render::markdown(&ci);
        ci.around.jobs = Some(Jobs {
            payloads: vec![payload],
            missing: vec![],
            engine: vec![],
        });
        ci.around.not_checked = vec![skipped];
        ci.around.build_failed = true;
        md += &crate::analyze::render::markdown(&ci);
        md
    });
}

#[test]
fn the_wrap_failure_annotation_contains_a_hostile_label() {
    assert_contained("buildkite wrap: failure_annotation", |p| {
        let job = JobEnv {
            job_id: p.into(),
            step_key: p.into(),
            label: p.into(),
            parallel_job: None,
        };
        failure_annotation(&job, "exited with 1")
    });
}

/// A batch of a custom source set named `set` (a branch can name one) whose
/// build failed for the reason `why` (Gradle's words), logged under `dir`.
fn failed_batch(set: &str, why: &str, dir: &str) -> BatchRun {
    let kind = TestKind::Other(set.into());
    let note = Cause::BuildFailed(vec![why.into()]).describe();
    BatchRun {
        log: PathBuf::from(format!("/runs/{dir}/batch-1.log")),
        dir: PathBuf::from("/runs/batch-1"),
        done: Outcome {
            iterations: vec![Iteration {
                ended: Ended::Exited(1),
                elapsed: Duration::ZERO,
                dir: Path::new("iter-1").into(),
                reports: vec![],
                leftovers: 0,
                skipped: None,
                notes: Vec::new(),
            }],
            verdicts: vec![IterationVerdict::NoTests],
            notes: vec![note],
            ..Outcome::default()
        },
        ..BatchRun::of(GradleCommand::of_kind(kind, &["gradle"], 1, 1))
    }
}

#[test]
fn the_local_report_contains_hostile_batch_problems() {
    assert_contained("local: batches without a clean result", |p| {
        // One payload a line: a line is cut at 400 characters.
        let runs = [
            failed_batch(p, "x", "d"),
            failed_batch("s", p, "d"),
            failed_batch("s", "x", p),
        ];
        let mut lines = problems(&runs, Duration::from_secs(60));
        lines.push(p.to_string());
        let mut report = report_of(p);
        report.around.partial = true;
        report.around.problems = lines;
        render(&report, ReportFormat::Markdown)
    });
}

#[test]
fn the_suspects_contain_hostile_names_commits_and_messages() {
    use crate::ledger::suspects::{render, tests as suspects};
    assert_contained("suspects", |p| {
        let mut records = suspects::builds();
        for (run, minute, failed) in [("b2", 10, 1), ("b3", 20, 0), ("b4", 30, 1)] {
            let mut r = suspects::build(p, '2', run, minute, 1, failed);
            r.test.class = format!("a.{p}");
            r.signature = (failed > 0).then(|| p.to_string());
            records.push(r.clone());
            r.test.method = format!("{p}2");
            records.push(r);
        }
        render::markdown(&suspects::suspects(Default::default(), &records))
    });
}

#[test]
fn the_skeleton_sees_what_escaping_prevents() {
    let table = "| a | b |\n|---|---|\n| PAYLOAD x END | y |\n";
    let split = "| a | b |\n|---|---|\n| PAYLOAD x | END | y |\n";
    assert_ne!(skeleton(table), skeleton(split));
    assert_ne!(skeleton("- `PAYLOAD END`"), skeleton("- `PAYLOAD` END`"));
    assert_ne!(skeleton("- PAYLOAD END"), skeleton("- PAYLOAD\n# END"));
    assert_ne!(skeleton("[a] b"), skeleton("[a](b)"));
    let html = std::panic::catch_unwind(|| skeleton("a <img src=x> b"));
    assert!(html.is_err(), "HTML is refused");
    assert!(opens_html("a <b") && opens_html("</") && opens_html("<!--"));
    assert!(!opens_html("rate < 3.0%"));
    assert_eq!(skeleton("a &lt; b *c*"), skeleton("a b"));
}
