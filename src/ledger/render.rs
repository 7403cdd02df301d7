//! `history` as markdown (for people, in a terminal or a CI summary) and as
//! JSON. Every name, branch, commit and mechanism comes from a ledger that
//! a branch may have written: they reach markdown only through
//! [`crate::markdown`].

use super::history::{
    Comparison, Direction, History, NotCompared, Row, Tally, TestHistory, Trend, SLOWER,
};
use super::suspects::render::short;
use crate::markdown;
use crate::stats::{self, Round};
use rayon::prelude::*;
use std::fmt::Write;

/// The history as pretty JSON, with a final newline.
pub(crate) fn json(history: &History) -> String {
    let mut text = serde_json::to_string_pretty(history).expect("a history always serializes");
    text.push('\n');
    text
}

/// The history as markdown.
pub(crate) fn markdown(history: &History) -> String {
    let s = &history.sources;
    let mut md = format!(
        "## Test history\n\n{} test(s); {} record(s) read from {} ledger file(s)",
        history.tests.len(),
        s.records,
        s.files
    );
    if s.other_lines > 0 {
        md += &format!("; {} line(s) of other tests passed over", s.other_lines);
    }
    if s.skipped_lines > 0 {
        md += &format!("; {} line(s) skipped (see the warnings)", s.skipped_lines);
    }
    md += ".\n";
    if history.tests.is_empty() {
        md += "\nNo record of the tests asked for.\n";
    }
    // Each test's section is its own: written side by side, joined in order.
    let sections: Vec<String> = history.tests.par_iter().map(test_section).collect();
    md.reserve(sections.iter().map(|s| s.len() + 1).sum());
    for section in sections {
        md += "\n";
        md += &section;
    }
    md
}

fn test_section(t: &TestHistory) -> String {
    let mut md = format!("### {}\n\n", markdown::code(&t.name()));
    md += &format!(
        "- Pooled: {} of {} run(s) failed: {} (95% CI {}–{}), {} record(s).\n",
        t.total.failures,
        t.total.runs,
        stats::percent(t.failure_rate, Round::Nearest),
        stats::percent(t.ci95[0], Round::Down),
        stats::percent(t.ci95[1], Round::Up),
        t.total.records
    );
    let first = first_executions(t.total);
    if !first.is_empty() {
        md += &format!(
            "- First executions in their JVM (the position CI runs): {first} failed; the \
             repeats pooled above ran in a JVM that had run the test before.\n"
        );
    }
    md += &format!("- {}\n", failing_line(t));
    md += &format!("- {}\n", trend_line(&t.trend));
    if let Some(ratio) = t.time_ratio.filter(|r| *r >= SLOWER) {
        md += &format!(
            "- Slower: the median execution time of the newest third of rows is {ratio:.1}× the \
             oldest third's.\n"
        );
    }
    if let Some(c) = &t.newest {
        md += &format!("- Newest commit: {}\n", comparison_line(c));
    }
    if let Some(n) = &t.not_compared {
        md += &format!("- Newest commit: {}\n", not_compared_line(n));
    }
    if let Some(r) = t.replays {
        md += &format!(
            "- Triage: {} of {} replay(s) of its failing seeds failed again ({} record(s); \
             not counted above: replaying seeds that failed measures no rate).\n",
            r.failures, r.runs, r.records
        );
    }
    md += "\n";
    md += &table(&t.rows, t.earlier);
    md
}

fn failing_line(t: &TestHistory) -> String {
    match (&t.first_failing, &t.last_failing) {
        (Some(first), Some(last)) => format!(
            "Failing: first seen {} on {}, last seen {} on {}.",
            markdown::text(&first.time),
            commit(first.commit.as_deref()),
            markdown::text(&last.time),
            commit(last.commit.as_deref())
        ),
        _ => "Never seen failing.".into(),
    }
}

/// Characters of the sparkline: the lowest is a row without failures.
const BARS: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];

/// One character per rate: `▁` no failure, `▂`–`█` the rate against the highest.
pub(crate) fn sparkline(rates: &[f64]) -> String {
    let top = rates.iter().copied().fold(0.0, f64::max);
    rates
        .iter()
        .map(|r| {
            if *r <= 0.0 || top <= 0.0 {
                BARS[0]
            } else {
                let step = (r / top * (BARS.len() - 1) as f64).ceil() as usize;
                BARS[step.clamp(1, BARS.len() - 1)]
            }
        })
        .collect()
}

/// What a trend says, in words: markdown's and the HTML page's.
pub(super) fn trend_reading(trend: &Trend) -> String {
    let Some(p) = trend.p_value else {
        return "too few rows to test a trend".to_string();
    };
    let reading = match trend.direction {
        Direction::Rising => "failing more over time",
        Direction::Falling => "failing less over time",
        Direction::None => "no trend shown",
    };
    format!("{reading} (Mann–Kendall {})", stats::p_value(p))
}

fn trend_line(trend: &Trend) -> String {
    let spark = markdown::code(&sparkline(&trend.rates));
    let reading = trend_reading(trend);
    format!("Trend, oldest to newest row: {spark} {reading}.")
}

/// "fixed: 0/40 on `abc…`, 12/40 on its first-parent ancestors (`9f0…`), p = 0.0001" and its kin.
fn comparison_line(c: &Comparison) -> String {
    let here = format!(
        "{}/{} on {}",
        c.after.failures,
        c.after.runs,
        commit(c.commit.as_deref())
    );
    let before = format!(
        "{}/{} on its first-parent ancestors ({})",
        c.before.failures,
        c.before.runs,
        commits(&c.before_commits)
    );
    let p = stats::p_value(c.p_value);
    let verdict = match c.narrowed {
        // Shown lower, but it still fails: narrowed, not fixed.
        true => "narrowed, still failing",
        false => c.verdict.as_str(),
    };
    let mut line = format!("{verdict}: {here}, {before}, {p}");
    if let Some(more) = c.more_clean_runs {
        line += &format!("; {more} more clean run(s) would show it fixed");
    }
    if let Some(out) = c.left_out {
        line += &format!(
            "; {}/{} of other branches or changes left out",
            out.failures, out.runs
        );
    }
    format!(
        "{line} (condition: {}).",
        markdown::text(&c.condition.label())
    )
}

/// "not compared: `abc…`: none of the other records …; 1/40 of its condition left out (…)".
fn not_compared_line(n: &NotCompared) -> String {
    format!(
        "not compared: {}: {}; {}/{} of its condition left out (condition: {}).",
        commit(n.commit.as_deref()),
        n.reason.says(),
        n.left_out.failures,
        n.left_out.runs,
        markdown::text(&n.condition.label())
    )
}

fn table(rows: &[Row], earlier: Option<Tally>) -> String {
    let mut md = String::from(
        "| last record | commit | branch | condition | records | runs | failures | rate | first in its JVM |\n\
         |---|---|---|---|---:|---:|---:|---:|---:|\n",
    );
    if let Some(e) = earlier {
        let _ = writeln!(
            md,
            "| earlier |  |  |  | {} | {} | {} | {} | {} |",
            e.records,
            e.runs,
            e.failures,
            stats::percent(ratio(e), Round::Nearest),
            first_executions(e)
        );
    }
    for r in rows {
        let _ = writeln!(
            md,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            markdown::text(&r.last_time),
            match r.dirty {
                true => format!("{} + changes", commit(r.commit.as_deref())),
                false => commit(r.commit.as_deref()),
            },
            r.branch
                .as_deref()
                .map(markdown::code_in_table)
                .unwrap_or_default(),
            markdown::text(&r.condition.label()),
            r.tally.records,
            r.tally.runs,
            r.tally.failures,
            stats::percent(r.failure_rate, Round::Nearest),
            first_executions(r.tally)
        );
    }
    md
}

/// The first executions' rate, where repeats in one JVM pooled with them
/// could hide it (CI runs first executions); blank where every execution
/// was a first one, or the records did not keep them apart.
fn first_executions(t: Tally) -> String {
    if t.first_runs == 0 || t.first_runs == t.runs {
        return String::new();
    }
    let rate = t.first_failures as f64 / t.first_runs as f64;
    format!(
        "{}/{} = {}",
        t.first_failures,
        t.first_runs,
        stats::percent(rate, Round::Nearest)
    )
}

fn ratio(t: Tally) -> f64 {
    if t.runs == 0 {
        0.0
    } else {
        t.failures as f64 / t.runs as f64
    }
}

/// At most [`COMMITS_NAMED`] commits, newest first, and how many more.
fn commits(cs: &[String]) -> String {
    let mut named: Vec<String> = cs
        .iter()
        .take(COMMITS_NAMED)
        .map(|c| commit(Some(c)))
        .collect();
    if cs.len() > COMMITS_NAMED {
        named.push(format!("{} more", cs.len() - COMMITS_NAMED));
    }
    named.join(", ")
}

/// The commits a comparison names before it says how many more.
const COMMITS_NAMED: usize = 3;

/// A commit as a code span, cut to 12 characters (`an unknown commit` without one).
fn commit(c: Option<&str>) -> String {
    match c {
        Some(c) => markdown::code_in_table(&short(c)),
        None => "an unknown commit".into(),
    }
}
