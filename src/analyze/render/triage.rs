//! The triage in the markdown report: the Triage section (verdicts, each
//! seed's replays, what a budget cut) and what each reproduce line's replays
//! showed; and the triage on its own, for a CI triage step's annotation.

use super::{cap, more, reproduce_block, MAX_LISTED, MAX_ROWS};
use crate::analyze::model::report::{Report, TestReport, Triage};
use crate::markdown::{self, code, code_in_table};
use std::cmp::Reverse;
use std::time::Duration;

/// The reproduce command of a test and, once triage replayed it, what the
/// replays showed. A seeded test's command is the one that pinned its most
/// reproducing seed (the exact failing execution, `MASTER:METHOD`), not the
/// run's own line, whose master seed alone does not pin an iteration.
pub(super) fn reproduce_of(t: &TestReport) -> Option<(&str, Option<String>)> {
    let seeds = t.triage.iter().flat_map(|tr| &tr.seeds);
    // The first of the most reproducing.
    let best = seeds
        .filter(|s| s.replays > 0)
        .min_by_key(|s| Reverse(s.reproduced));
    if let Some(s) = best {
        let note = replay_note(s.replays, s.reproduced, true);
        return Some((&s.reproduce, Some(note)));
    }
    let alone = t
        .triage
        .as_ref()
        .filter(|tr| tr.seeds.is_empty() && tr.replays > 0);
    let note = alone.map(|tr| replay_note(tr.replays, tr.reproduced, false));
    Some((t.reproduce.as_deref()?, note))
}

/// `reproduces with this seed (5/5)`, `did not reproduce (0/5)`; for a test
/// without seed, replayed alone, `reproduces alone (2/5)`.
fn replay_note(replays: u64, reproduced: u64, seeded: bool) -> String {
    let how = match (seeded, reproduced) {
        (true, 0) => "did not reproduce",
        (true, r) if r >= replays => "reproduces with this seed",
        (true, _) => "reproduces only sometimes with this seed",
        (false, 0) => "did not reproduce alone",
        (false, _) => "reproduces alone",
    };
    format!("{how} ({reproduced}/{replays})")
}

/// The triage table of the shown tests that were triaged, then what was not
/// replayed and why.
pub(super) fn section(shown: &[&TestReport], md: &mut Vec<String>) {
    let triaged: Vec<(&TestReport, &Triage)> = shown
        .iter()
        .filter_map(|t| Some((*t, t.triage.as_ref()?)))
        .collect();
    if triaged.is_empty() {
        return;
    }
    md.push("### Triage".into());
    md.push(
        "_Each failing seed replayed with the seed pinned; a test without seeds replayed \
         alone. `seed-deterministic`: every replay failed again (the seed reproduces it); \
         `nondeterministic`: a replay passed (timing, concurrency, environment); \
         `fails-alone` / `passes-alone`: alone it failed / never failed (a pass hints at \
         order dependence)._"
            .into(),
    );
    md.push(String::new());
    md.push("| Class | Method | Verdict | Failed again | Seeds |".into());
    md.push("| --- | --- | --- | ---: | --- |".into());
    let mut notes = Vec::new();
    let mut contexts = Vec::new();
    let (mut replays, mut secs, mut partial) = (0, 0.0, false);
    for (t, tr) in &triaged {
        let seeds = if tr.seeds.is_empty() {
            "alone".to_string()
        } else {
            tr.seeds
                .iter()
                .map(|s| format!("{} {}/{}", code_in_table(&s.seed), s.reproduced, s.replays))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let context = match &tr.context {
            Some(c) if c.dependent => " · context-dependent",
            _ => "",
        };
        md.push(format!(
            "| {} | {} | {}{context} | {}/{} | {seeds} |",
            markdown::text(&t.class),
            markdown::text(&t.method),
            tr.verdict.map_or("none", |v| v.as_str()),
            tr.reproduced,
            tr.replays,
        ));
        let name = code(&format!("{}.{}", t.class, t.method));
        contexts.extend(tr.context.as_ref().map(|c| {
            format!(
                "- {name} replayed alone, against its runs in its task: {}",
                super::context::sentence(c)
            )
        }));
        replays += tr.replays;
        secs += tr.elapsed_sec;
        partial |= tr.partial;
        notes.extend(
            tr.notes
                .iter()
                .map(|n| format!("- {name}: {}", markdown::text(n))),
        );
    }
    md.push(String::new());
    md.push(format!(
        "{}{replays} replay(s) in {}.",
        if partial { "**Partial triage:** " } else { "" },
        crate::time::format_duration(Duration::from_secs_f64(secs.round()))
    ));
    md.extend(contexts);
    let listed = notes.len().min(MAX_LISTED);
    md.extend(notes.drain(..listed));
    more(listed + notes.len(), "triage notes", md);
    md.push(String::new());
}

/// The triage of a report on its own (a CI triage step's annotation).
pub fn triage_markdown(report: &Report) -> String {
    let failing: Vec<&TestReport> = report.tests.iter().filter(|t| t.failures > 0).collect();
    let shown = &failing[..failing.len().min(MAX_ROWS)];
    let mut md = vec!["## Flakiness triage".to_string(), String::new()];
    if shown.iter().all(|t| t.triage.is_none()) {
        md.push("_No failing test to triage._".into());
    } else {
        section(shown, &mut md);
        reproduce_block(shown, &mut md);
    }
    cap(md.join("\n"))
}

#[cfg(test)]
mod tests {
    use super::super::markdown;
    use super::super::tests::{report, test};
    use super::*;

    fn triage(seeds: &[(&str, u64, u64)], replays: u64, reproduced: u64) -> Triage {
        Triage {
            verdict: crate::triage::rules::verdict(!seeds.is_empty(), replays, reproduced),
            replays,
            reproduced,
            seeds: seeds
                .iter()
                .map(
                    |(seed, replays, reproduced)| crate::analyze::model::report::SeedReplay {
                        seed: seed.to_string(),
                        replays: *replays,
                        reproduced: *reproduced,
                        reproduce: format!("gradle :p:test --tests X.y -Dtests.seed={seed}"),
                    },
                )
                .collect(),
            partial: false,
            notes: vec![],
            context: None,
            elapsed_sec: 12.4,
        }
    }

    #[test]
    fn reproduce_lines_say_whether_the_replays_reproduced() {
        let mut t = test("X", "y", 7, 3);
        t.reproduce = Some("./gradlew :p:test --tests X.y -Dtests.seed=A".into());
        let line = |t: &TestReport| {
            let md = markdown(&report(vec![t.clone()]));
            let start = md.find("# X.y").expect("a reproduce line");
            md[start..].lines().take(2).collect::<Vec<_>>().join("\n")
        };
        assert_eq!(
            line(&t),
            "# X.y (3 of 10 failed)\n./gradlew :p:test --tests X.y -Dtests.seed=A"
        );
        // The most reproducing seed's exact command replaces the run's own line.
        t.triage = Some(triage(&[("A:1", 5, 0), ("A:2", 5, 5)], 10, 5));
        assert_eq!(
            line(&t),
            "# X.y (3 of 10 failed): reproduces with this seed (5/5)\n\
             gradle :p:test --tests X.y -Dtests.seed=A:2"
        );
        t.triage = Some(triage(&[("A:1", 5, 0)], 5, 0));
        assert!(
            line(&t).contains(": did not reproduce (0/5)\ngradle"),
            "{}",
            line(&t)
        );
        t.triage = Some(triage(&[("A:1", 5, 2)], 5, 2));
        assert!(line(&t).contains("only sometimes with this seed (2/5)"));
        t.triage = Some(triage(&[], 3, 0));
        assert_eq!(
            line(&t),
            "# X.y (3 of 10 failed): did not reproduce alone (0/3)\n\
             ./gradlew :p:test --tests X.y -Dtests.seed=A"
        );
        t.triage = Some(triage(&[], 3, 1));
        assert!(line(&t).contains(": reproduces alone (1/3)"));
        // Nothing replayed (the budget ran out): the run's line, nothing claimed.
        t.triage = Some(triage(&[("A:1", 0, 0)], 0, 0));
        assert_eq!(
            line(&t),
            "# X.y (3 of 10 failed)\n./gradlew :p:test --tests X.y -Dtests.seed=A"
        );
    }

    #[test]
    fn the_triage_section_lists_verdicts_seeds_and_what_was_skipped() {
        let mut a = test("X", "y", 7, 3);
        a.triage = Some(triage(&[("A:1", 5, 5), ("A:2", 5, 5)], 10, 10));
        let mut b = test("X", "z|w", 7, 3);
        let mut cut = triage(&[], 0, 0);
        cut.partial = true;
        cut.notes = vec!["0 of 5 replay(s) ran: the replay budget of 10 is spent".into()];
        b.triage = Some(cut);
        let md = markdown(&report(vec![a.clone(), b.clone()]));
        assert!(md.contains("### Triage\n"), "{md}");
        assert!(
            md.contains("| X | y | seed-deterministic | 10/10 | `A:1` 5/5, `A:2` 5/5 |"),
            "{md}"
        );
        assert!(md.contains("| X | z\\|w | none | 0/0 | alone |"), "{md}");
        assert!(
            md.contains("**Partial triage:** 10 replay(s) in 25s."),
            "{md}"
        );
        assert!(
            md.contains("- `X.z|w`: 0 of 5 replay(s) ran: the replay budget of 10 is spent"),
            "{md}"
        );
        assert!(
            md.find("### Triage") < md.find("### Reproduce"),
            "the verdicts come before the commands"
        );
        let alone = triage_markdown(&report(vec![a]));
        assert!(
            alone.starts_with("## Flakiness triage\n\n### Triage\n"),
            "{alone}"
        );
        assert!(alone.contains("### Reproduce"), "{alone}");
        assert!(!alone.contains("### Failures by test"), "{alone}");
        assert!(!markdown(&report(vec![test("X", "y", 7, 3)])).contains("### Triage"));
    }

    /// `fails-alone` with the test's task runs in the report: the verdict
    /// says the comparison too, and a plain sentence gives both rates.
    #[test]
    fn fails_alone_says_the_comparison_with_the_task_runs() {
        use crate::analyze::model::counts::{ConditionCounts, Rate};
        use crate::condition::{Condition, Context, Position};
        let mut t = test("X", "y", 15, 2);
        t.by_condition.conditions = vec![ConditionCounts {
            condition: Condition {
                context: Context::Task,
                repetition: crate::condition::Repetition::FreshJvm,
                mechanism: None,
                execution: Some(Position::First),
            },
            rate: Rate::new(2, 17),
        }];
        let mut tr = triage(&[], 5, 5);
        tr.context = crate::triage::rules::context(&t, false, 5, 5);
        t.triage = Some(tr);
        let md = markdown(&report(vec![t]));
        assert!(
            md.contains("| X | y | fails-alone · context-dependent | 5/5 | alone |"),
            "{md}"
        );
        assert!(
            md.contains(
                "- `X.y` replayed alone, against its runs in its task: **context-dependent**: \
                 fails 5/5 = 100% (56%–100%) alone, 2/17 = 12% (3.2%–35%) in its task"
            ),
            "{md}"
        );
        assert!(
            md.contains("in CI (its whole task) it fails about one build in 9"),
            "{md}"
        );
    }
}
