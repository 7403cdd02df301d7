//! The comparison in the markdown report (`local --compare REF`): first,
//! since it answers the question the run was asked, one sentence per test
//! that failed on either side ("fixed: 12/40 failures on `main`, 0/40 here,
//! p = 0.0001"), then what REF's side was and where it ran.

use super::{MAX_LISTED, MAX_ROWS};
use crate::analyze::model::comparison::{ComparedWith, Comparison, CountsFrom, KnownFlaky};
use crate::analyze::model::report::Report;
use crate::markdown::{self, code};
use crate::stats::{self, Verdict};

/// The comparison section.
pub fn comparison_markdown(report: &Report, c: &ComparedWith) -> String {
    let reference = code(&c.reference);
    let mut md = format!(
        "## Comparison with {reference} ({})\n\n",
        code(&short(&c.commit))
    );
    md += &sides(c, &reference, report.tests.is_empty());
    let compared: Vec<_> = report
        .tests
        .iter()
        .filter_map(|t| Some((t, t.comparison.as_ref()?)))
        .collect();
    let (told, quiet): (Vec<_>, Vec<_>) = compared.iter().partition(|(_, cmp)| {
        cmp.after.failures > 0
            || cmp.before.as_ref().is_none_or(|b| b.failures > 0)
            || cmp.verdict.is_none()
    });
    if compared.is_empty() {
        md += "\nNo test was compared.\n";
    }
    if !told.is_empty() {
        md.push('\n');
    }
    for (t, cmp) in told.iter().take(MAX_ROWS) {
        let name = crate::test_filter::spec(&t.class, &t.method);
        md += &format!("- {}: {}\n", code(&name), sentence(cmp, &reference));
    }
    md += &rest(told.len(), MAX_ROWS);
    if !quiet.is_empty() {
        md += &format!(
            "\n{} other test(s) never failed, on {reference} or here: no fix to show, and \
             nothing worse.\n",
            quiet.len()
        );
    }
    if !c.new_in_branch.is_empty() {
        md += "\nNew in this branch (no before on REF):\n\n";
        for name in c.new_in_branch.iter().take(MAX_LISTED) {
            md += &format!("- {}\n", code(name));
        }
        md += &rest(c.new_in_branch.len(), MAX_LISTED);
    }
    if !c.base_problems.is_empty() {
        md += "\n**REF's batches without a result** (infrastructure: their tests have no \
               before, never a verdict):\n\n";
        for p in c.base_problems.iter().take(MAX_LISTED) {
            md += &format!("- {}\n", markdown::text(p));
        }
    }
    md.push('\n');
    md
}

/// The failing tests the ledger holds failing on the base branch too.
pub fn known_flaky_markdown(known: &[KnownFlaky]) -> String {
    let Some(first) = known.first() else {
        return String::new();
    };
    let branch = code(&first.branch);
    let mut md = format!(
        "\n### Known flaky on {branch}\n\nThese tests fail here and already failed on {branch} \
         in earlier runs the ledger holds: the change is not to blame for them.\n\n"
    );
    for k in known.iter().take(MAX_LISTED) {
        let name = format!("{}#{}", k.class, k.method);
        let rates: Vec<String> = k
            .rates
            .iter()
            .map(|r| {
                format!(
                    "{}, {} runs ({} failed; {}; {} record(s))",
                    stats::percent(
                        r.failures as f64 / r.runs.max(1) as f64,
                        stats::Round::Nearest
                    ),
                    r.runs,
                    r.failures,
                    markdown::text(&r.condition),
                    r.records
                )
            })
            .collect();
        md += &format!(
            "- {}: known flaky on {branch}: {}\n",
            code(&name),
            rates.join("; ")
        );
    }
    md += &rest(known.len(), MAX_LISTED);
    md
}

/// Where each side's counts come from, and how the after side was looked at.
fn sides(c: &ComparedWith, reference: &str, nothing_here: bool) -> String {
    let mut md = String::new();
    match &c.base_dir {
        Some(dir) => {
            md += &format!(
                "- Before: {reference} ran in a git worktree of it{}, with this build's Gradle \
                 and arguments (reports and logs: {})",
                c.worktree
                    .as_deref()
                    .map(|w| format!(" ({})", code(w)))
                    .unwrap_or_default(),
                code(dir)
            );
            if c.branch_muted_file {
                md += ", with this branch's muted-tests file (a test it unmutes runs there too)";
            }
            md += ".\n";
        }
        None => {
            md += &format!("- Before: every test's from the ledger; {reference} did not run.\n")
        }
    }
    for line in &c.from_ledger {
        md += &format!(
            "- Before from the ledger, not run again: {}.\n",
            markdown::text(line)
        );
    }
    if nothing_here && !c.base_problems.is_empty() {
        md += "- After: not run: REF gave nothing to compare with.\n";
        return md;
    }
    let head = c.head.as_deref().map(short).unwrap_or_else(|| "?".into());
    md += &format!(
        "- After: this working tree, {}{}.\n",
        code(&head),
        if c.dirty {
            " with changes not committed"
        } else {
            ""
        }
    );
    md += &match c.looks {
        1 => format!(
            "- Fisher's exact test, one-sided for a fix at p < {}, looked at once, at the end.\n",
            c.alpha
        ),
        k => format!(
            "- Fisher's exact test, one-sided for a fix; {k} looks at the runs here, a test shown \
             fixed at one stops there, α = {} spent over them (O'Brien–Fleming type).\n",
            c.alpha
        ),
    };
    md
}

/// One test's comparison as a sentence.
pub(crate) fn sentence(c: &Comparison, reference: &str) -> String {
    let here = format!("{}/{} here", c.after.failures, c.after.runs);
    let (Some(before), Some(verdict), Some(p)) = (&c.before, c.verdict, c.p_value) else {
        return format!(
            "no before: {}; {here}.",
            markdown::text(c.note.as_deref().unwrap_or("it did not run on REF"))
        );
    };
    let there = format!("{}/{} on {reference}", before.failures, before.runs);
    let ledger = match before.from {
        CountsFrom::Ledger => "; the before from the ledger",
        CountsFrom::Run => "",
    };
    let p = stats::p_value(p);
    match verdict {
        Verdict::Fixed => {
            // What the clean runs here bound: a cause narrowed to a
            // rate below it would pass them as often as a removed one.
            let mut s = format!(
                "**fixed**: {}/{} failures on {reference}, {} here, {p}",
                before.failures,
                before.runs,
                stats::clean_statement(c.after.runs)
            );
            if let Some(look) = c.shown_at_look {
                s += &format!("; shown at look {look}, its other runs saved");
            }
            s + ledger + "."
        }
        Verdict::NotShown if c.narrowed => format!(
            "**not fixed**: it still fails here, {}/{}, though less than on {reference}, \
             {}/{} ({p}{ledger}): its cause is narrowed, not removed.",
            c.after.failures, c.after.runs, before.failures, before.runs
        ),
        Verdict::NotShown => {
            let mut s = format!("**not shown**: {here}, {there} ({p}{ledger})");
            match c.more_clean_runs {
                Some(n) => s += &format!("; {n} more clean run(s) here would show it"),
                None if c.after.failures > 0 => s += "; it still fails here",
                None => {}
            }
            s + "."
        }
        Verdict::Same => format!("**same**: {there}, {here} ({p}{ledger})."),
        Verdict::Worse => format!("**worse**: {there}, {here} ({p}{ledger})."),
    }
}

/// "… and 3 more" when `total` is more than `shown`.
fn rest(total: usize, shown: usize) -> String {
    match total.saturating_sub(shown) {
        0 => String::new(),
        n => format!("- _… and {n} more; see the JSON report._\n"),
    }
}

fn short(commit: &str) -> String {
    commit.chars().take(12).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyze::model::comparison::Side;

    fn side(failures: u64, runs: u64, from: CountsFrom) -> Side {
        Side {
            commit: Some("c".into()),
            dirty: false,
            runs,
            failures,
            from,
        }
    }

    fn cmp(before: (u64, u64), after: (u64, u64)) -> Comparison {
        let (b, a) = (
            stats::Counts::new(before.0, before.1),
            stats::Counts::new(after.0, after.1),
        );
        let j = stats::judge(b, a, 0.05, 0.05);
        Comparison {
            before: Some(side(before.0, before.1, CountsFrom::Run)),
            after: side(after.0, after.1, CountsFrom::Run),
            p_value: Some(j.p_value),
            verdict: Some(j.verdict),
            narrowed: j.narrowed,
            fixed_below: Some(0.05),
            shown_at_look: None,
            more_clean_runs: j.more_clean_runs,
            runs_to_show_fix: None,
            note: None,
        }
    }

    #[test]
    fn the_sentences_of_the_issue() {
        let main = "`main`";
        assert_eq!(
            sentence(&cmp((12, 40), (0, 40)), main),
            "**fixed**: 12/40 failures on `main`, 0/40 ⇒ failure rate < 7.3% at 95% here, p < 0.0001."
        );
        assert_eq!(
            sentence(&cmp((3, 40), (0, 40)), main),
            "**not shown**: 0/40 here, 3/40 on `main` (p = 0.120); 27 more clean run(s) here \
             would show it."
        );
        assert_eq!(
            sentence(&cmp((10, 100), (1, 100)), main),
            "**not fixed**: it still fails here, 1/100, though less than on `main`, 10/100 \
             (p = 0.005): its cause is narrowed, not removed."
        );
        assert_eq!(
            sentence(&cmp((0, 40), (10, 40)), main),
            "**worse**: 0/40 on `main`, 10/40 here (p = 0.0005)."
        );
        let mut new = cmp((0, 40), (0, 40));
        new.before = None;
        new.verdict = None;
        new.note = Some("new in this branch: it does not exist on REF".into());
        assert_eq!(
            sentence(&new, main),
            "no before: new in this branch: it does not exist on REF; 0/40 here."
        );
    }
}
