//! `suspects` as markdown and JSON. Names, commits, branches and messages
//! come from whatever wrote the ledger: they reach markdown only through
//! [`crate::markdown`].

use super::{Kind, Suspect, Suspects};
use crate::analyze::render::clusters;
use crate::markdown;
use crate::stats::{self, Round};

/// Suspects listed in the table; the JSON has them all.
const MAX_ROWS: usize = 200;

/// The suspects as pretty JSON, with a final newline.
pub(crate) fn json(suspects: &Suspects) -> String {
    let mut text = serde_json::to_string_pretty(suspects).expect("suspects always serialize");
    text.push('\n');
    text
}

/// The suspects as markdown.
pub(crate) fn markdown(s: &Suspects) -> String {
    let mut md = vec!["## Suspects".to_string(), String::new(), sources_line(s)];
    md.push(String::new());
    if s.suspects.is_empty() {
        md.push("No test failed in the runs read.".into());
        return md.join("\n") + "\n";
    }
    md.push(counts_line(s));
    md.push(String::new());
    md.push("| kind | test | failed | evidence | failure |".into());
    md.push("|---|---|---:|---|---|".into());
    for suspect in s.suspects.iter().take(MAX_ROWS) {
        md.push(format!(
            "| {} | {} | {} | {} | {} |",
            suspect.kind.as_str(),
            markdown::code_in_table(&suspect.test.spec()),
            failed(suspect),
            markdown::text(&evidence(suspect)),
            suspect
                .signature
                .as_deref()
                .map(markdown::code_in_table)
                .unwrap_or_default(),
        ));
    }
    if s.suspects.len() > MAX_ROWS {
        md.push(format!(
            "\n_{} more in the JSON (`--format json`)._",
            s.suspects.len() - MAX_ROWS
        ));
    }
    confirm(s, &mut md);
    mutes(s, &mut md);
    if !s.clusters.is_empty() {
        md.push(String::new());
        md.push("### Failing together".into());
        md.push(String::new());
        md.extend(s.clusters.iter().map(clusters::line));
    }
    md.join("\n") + "\n"
}

/// What was read and what was left out.
fn sources_line(s: &Suspects) -> String {
    let mut line = format!(
        "{} record(s) read from {} ledger file(s): {} test(s) in {} run(s)",
        s.sources.records, s.sources.files, s.tests, s.runs
    );
    let l = &s.left_out;
    for (n, what) in [
        (
            l.duplicates,
            "read twice (one run, test and condition), counted once",
        ),
        (l.triage, "triage replays"),
        (
            l.not_a_commit,
            "of a working tree with changes or without a commit",
        ),
        (l.other_branch, "of other branches"),
        (l.older, "older than --since"),
        (s.sources.other_lines, "of other tests"),
        (s.sources.skipped_lines, "skipped (see the warnings)"),
    ] {
        if n > 0 {
            line += &format!("; {n} line(s) {what}");
        }
    }
    line + "."
}

fn counts_line(s: &Suspects) -> String {
    let count = |k: Kind| s.suspects.iter().filter(|x| x.kind == k).count();
    format!(
        "{} flaky (failed and passed on one commit: proven, nothing re-run), {} broken \
         (failing in every run since a commit), {} intermittent (failing on some commits, \
         never beside a pass yet).",
        count(Kind::Flaky),
        count(Kind::Broken),
        count(Kind::Intermittent)
    )
}

/// "3/40 executions in 2 of 9 runs".
fn failed(s: &Suspect) -> String {
    format!(
        "{}/{} ({}) in {} of {} run(s)",
        s.failures,
        s.runs,
        stats::percent(s.failure_rate, Round::Nearest),
        s.failing_runs,
        s.recorded_runs
    )
}

/// The sentence that says why the test is what it is.
pub(crate) fn evidence(s: &Suspect) -> String {
    let mut line = match (s.kind, &s.since) {
        (Kind::Broken, Some(since)) => {
            let mut line = format!(
                "failing in every run since {} ({} run(s) in a row, the first at {})",
                short(&since.commit),
                since.runs,
                since.time
            );
            if let Some(p) = s.last_passed.as_ref().and_then(|p| p.commit.as_deref()) {
                line += &format!("; it last passed on {}", short(p));
            }
            line
        }
        (Kind::Flaky, _) => format!(
            "failed and passed on {}",
            s.flipped_on
                .iter()
                .map(|c| short(c))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        _ => format!(
            "failed on {} of {} commit(s), never beside a pass on the same one",
            s.failing_commits, s.commits
        ),
    };
    if s.kind == Kind::Broken && !s.flipped_on.is_empty() {
        line += "; earlier it failed and passed on one commit";
    }
    if s.last_passed.is_none() {
        line += "; it never passed";
    }
    line
}

/// A commit cut to 12 characters.
pub(in crate::ledger) fn short(commit: &str) -> String {
    commit.chars().take(12).collect()
}

fn confirm(s: &Suspects, md: &mut Vec<String>) {
    md.push(String::new());
    md.push("### Confirm".into());
    md.push(String::new());
    md.push(
        "Each command runs the test here often enough to see it fail at its rate (95%).".into(),
    );
    md.push(String::new());
    let lines: Vec<String> = s
        .suspects
        .iter()
        .take(MAX_ROWS)
        .map(|x| markdown::plain_line(&x.confirm))
        .collect();
    md.push(markdown::fenced(&lines.join("\n"), "sh"));
}

fn mutes(s: &Suspects, md: &mut Vec<String>) {
    let entries: Vec<&str> = s
        .suspects
        .iter()
        .filter_map(|x| x.mute.as_deref())
        .collect();
    if entries.is_empty() {
        return;
    }
    md.push(String::new());
    md.push("### Mute".into());
    md.push(String::new());
    md.push(
        "The proven flaky tests as entries of Elasticsearch's `muted-tests.yml` (under `tests:`), \
         each with its issue to fill in:"
            .into(),
    );
    md.push(String::new());
    md.push(markdown::fenced(entries.concat().trim_end(), "yaml"));
}
