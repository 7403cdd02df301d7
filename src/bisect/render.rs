//! A bisect's markdown: the answer first (the culprit, or why there is
//! none), then every point measured. Commit subjects and authors are the
//! repository's text, escaped as any hostile text.

use super::search::{BisectSide, Ending};
use super::Bisected;
use crate::markdown::{code, code_in_table, text};
use crate::stats::{p_fixed, p_value, percent, wilson95, Counts, Round};
use crate::Exit;
use std::fmt::Write;

/// The exit status: 0 a culprit named; 1 an end is not what it was said to
/// be; 3 the runs could not tell (or every point between was skipped); a
/// stop's own (130 for a Ctrl-C).
pub(crate) fn exit(b: &Bisected) -> Exit {
    if let Some(e) = &b.stopped {
        return e.exit();
    }
    match b.outcome.ending {
        Ending::Culprit { .. } => Exit::Clean,
        Ending::BadNotFlaky | Ending::GoodFlaky => Exit::TestFailures,
        _ => Exit::Infra,
    }
}

pub(crate) fn markdown(b: &Bisected) -> String {
    let mut out = format!(
        "## Bisect of {} from {} to {}\n\n",
        code(&b.test),
        code(&b.good),
        code(&b.bad)
    );
    out.push_str(&answer(b));
    out.push('\n');
    out.push_str(&table(b));
    let from_ledger: u64 = b.known.iter().map(|k| k.runs).sum();
    let _ = writeln!(
        out,
        "\n{} run(s) in {} Gradle invocation(s), {} more from the ledger; each point ran in chunks \
         of {} up to {}, in one condition: {} (where CI runs a test once per fresh JVM in its task, \
         a rate here can differ). The chance of a wrong commit is at most {} when the rate steps \
         once. Reports: {}",
        b.outcome.runs,
        b.invocations,
        from_ledger,
        b.rules.chunk,
        b.rules.max_runs,
        text(&b.condition),
        percent(b.rules.alpha, Round::Nearest),
        code(&b.run_dir.display().to_string()),
    );
    out
}

/// The first lines: the culprit with both sides' counts, or why none.
fn answer(b: &Bisected) -> String {
    let o = &b.outcome;
    let last = o.counts.len() - 1;
    let at = |i: usize| counts(o.counts[i]);
    match &o.ending {
        Ending::Culprit { culprit, parent } => culprit_found(b, *culprit, *parent),
        Ending::GoodFlaky => format!(
            "**No culprit: the good end is already flaky**: {} at {}. Try an older --good.\n",
            at(0),
            code(short(&b.points[0].commit))
        ),
        Ending::BadNotFlaky => format!(
            "**No culprit: the bad end never failed**: {} at {} ({} runs allowed a point; \
             --max-runs runs more).\n",
            at(last),
            code(short(&b.points[last].commit)),
            b.rules.max_runs
        ),
        Ending::CannotTell { point } => format!(
            "**No culprit: {} could not be told from either end** within {} runs: {}; the good \
             end {}, the bad end {}. --max-runs runs more.\n",
            code(short(&b.points[*point].commit)),
            b.rules.max_runs,
            at(*point),
            at(0),
            at(last)
        ),
        Ending::Skipped { good, bad } => format!(
            "**The culprit is one of the commits after {} up to {}**: those between do not \
             build or do not run the test.\n",
            code(short(&b.points[*good].commit)),
            code(short(&b.points[*bad].commit))
        ),
        Ending::EndSkipped { point } => format!(
            "**No culprit: {} does not build or does not run the test**: {}\n",
            code(short(&b.points[*point].commit)),
            text(o.skipped[*point].as_deref().unwrap_or(""))
        ),
        Ending::Stopped(why) => format!(
            "**Stopped before an answer**: {}. What was measured so far follows.\n",
            text(why)
        ),
    }
}

/// The culprit after `parent`, with both sides' counts and the command
/// that shows it again.
fn culprit_found(b: &Bisected, culprit: usize, parent: usize) -> String {
    let o = &b.outcome;
    let c = &b.points[culprit];
    let p = &b.points[parent];
    let (before, after) = (o.counts[parent], o.counts[culprit]);
    let mut s = format!(
        "**The test became flaky at {}** {} by {}.\n\n- {}: {} (the last point measured \
         before it)\n- {}: {}; one-sided {} that it fails no more than {} (Fisher's \
         exact test)\n",
        code(short(&c.commit)),
        text(&c.subject),
        text(&c.author),
        code(short(&p.commit)),
        counts(before),
        code(short(&c.commit)),
        counts(after),
        p_value(p_fixed(after, before)),
        code(short(&p.commit)),
    );
    if parent + 1 != culprit {
        s.push_str("- the commits between them were skipped (they do not build or run the test)\n");
    }
    let again = crate::shell::join(&[
        "gradle-flaky".into(),
        "local".into(),
        "--compare".into(),
        short(&p.commit).into(),
        b.test.clone(),
    ]);
    let _ = writeln!(
        s,
        "- to see it again, with {} checked out: {}",
        code(short(&c.commit)),
        code(&again)
    );
    s
}

/// Every point measured or known, oldest first.
fn table(b: &Bisected) -> String {
    let o = &b.outcome;
    let mut s = String::from(
        "| Commit | Subject | Failed | Rate (95%) | Decision |\n|---|---|---|---|---|\n",
    );
    for (i, p) in b.points.iter().enumerate() {
        let c = o.counts[i];
        let skipped = o.skipped[i].as_deref();
        if c.runs == 0 && skipped.is_none() {
            continue;
        }
        let decision = match (o.sides[i], skipped) {
            (_, Some(why)) => format!("skipped: {}", text(why)),
            (Some(BisectSide::Bad { p }), _) => {
                format!("fails more than the good end ({})", p_value(p))
            }
            (Some(BisectSide::Good { p }), _) => {
                format!("fails less than the bad end ({})", p_value(p))
            }
            (None, None) => "not decided".to_string(),
        };
        let [lo, hi] = wilson95(c.failures, c.runs);
        let _ = writeln!(
            s,
            "| {} | {} | {} of {} | {}–{} | {} |",
            code_in_table(short(&p.commit)),
            text(&p.subject),
            c.failures,
            c.runs,
            percent(lo, Round::Down),
            percent(hi, Round::Up),
            decision
        );
    }
    s
}

fn counts(c: Counts) -> String {
    let [lo, hi] = wilson95(c.failures, c.runs);
    format!(
        "{} of {} failed (95% interval {}–{})",
        c.failures,
        c.runs,
        percent(lo, Round::Down),
        percent(hi, Round::Up)
    )
}

fn short(commit: &str) -> &str {
    &commit[..12.min(commit.len())]
}
