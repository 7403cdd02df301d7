//! The selectors run in order over one classifier, merged into one selection.

use super::changed::{self, Change};
use super::classify::Classifier;
use super::explicit;
use super::mutes::{self, MutedEntry};
use super::selection::Selection;
use super::unmutes::{self, Unmute};

/// Runs the three selectors, in this order, over one classifier; the tests
/// the current muted-tests file (`muted`) mutes in their task are marked so.
pub fn select(
    classifier: &Classifier,
    changes: &[Change],
    unmuted: &[Unmute],
    explicit: &[String],
    muted: &[MutedEntry],
) -> Selection {
    let mut selection = changed::select(changes, classifier);
    selection.merge(unmutes::select(unmuted, classifier));
    selection.merge(explicit::select(explicit, classifier));
    mutes::mark(&mut selection, muted);
    let notes = record_notes(&selection);
    selection.notes.extend(notes);
    selection
}

/// The task choices and expansions in words, for the plan's notes.
fn record_notes(selection: &Selection) -> Vec<String> {
    let mut notes = Vec::new();
    for s in &selection.task_selections {
        let mut note = format!(
            "`{}` source set `{}`: {} of {} task(s) chosen (cap {}, newest version first): {}",
            s.project,
            s.source_set,
            s.chosen.len(),
            s.total,
            s.cap,
            s.chosen.join(", ")
        );
        if !s.host_mutating.is_empty() {
            note += &format!("; host-mutating, not run: {}", s.host_mutating.join(", "));
        }
        notes.push(note);
    }
    for e in &selection.expansions {
        let (runs, itself) = match (&e.base_not_run, e.concrete_base) {
            (Some(why), _) => (
                format!("changed `{}` runs through", e.base),
                format!("; Gradle never runs `{}` itself: {why}", e.base),
            ),
            (None, true) => (
                format!("changed `{}` also runs through", e.base),
                String::new(),
            ),
            (None, false) => (format!("abstract `{}` runs through", e.base), String::new()),
        };
        notes.push(format!(
            "{runs} {} of its {} concrete test subclass(es) (cap {}): {}{itself}",
            e.chosen.len(),
            e.total,
            e.cap,
            e.chosen.join(", ")
        ));
        for n in &e.not_run {
            notes.push(format!(
                "  subclass `{}` of `{}` not run: {} ({})",
                n.class, e.base, n.reason, n.reason_code
            ));
        }
    }
    notes
}
