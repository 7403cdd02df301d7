//! The state Gradle gives a task, as the task-outcome script records it and
//! as a console task line states it, with one table of Gradle's words.

use serde::{Deserialize, Serialize};

/// What a task did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum TaskState {
    /// It ran (and may have failed).
    Executed,
    /// Its inputs and outputs were unchanged, so Gradle did not run it.
    UpToDate,
    /// Its outputs came from the build cache.
    FromCache,
    /// It had no source (a Test task: no test classes).
    NoSource,
    /// Not run: an `onlyIf` was false or the task is disabled.
    Skipped,
    Failed,
    /// A state this tool does not know (a newer Gradle's).
    #[serde(other)]
    Unknown,
}

/// Each state with Gradle's word for it and why a Test task in that state ran
/// no test (`None`: it ran, or nothing is known). A task line without a word
/// is an executed task.
const WORDS: [(TaskState, &str, Option<&str>); 7] = [
    (TaskState::Executed, "executed", None),
    (
        TaskState::UpToDate,
        "UP-TO-DATE",
        Some("Gradle found its inputs unchanged and did not run it"),
    ),
    (
        TaskState::FromCache,
        "FROM-CACHE",
        Some("Gradle took its outputs from the build cache"),
    ),
    (
        TaskState::NoSource,
        "NO-SOURCE",
        Some("it has no test classes"),
    ),
    (
        TaskState::Skipped,
        "SKIPPED",
        Some("it is disabled or its onlyIf condition was false"),
    ),
    (TaskState::Failed, "FAILED", None),
    (TaskState::Unknown, "in an unknown state", None),
];

impl TaskState {
    fn entry(self) -> &'static (TaskState, &'static str, Option<&'static str>) {
        WORDS
            .iter()
            .find(|(state, _, _)| *state == self)
            .expect("every state is in the table")
    }

    /// Gradle's word for the state (`UP-TO-DATE`).
    pub(crate) fn word(self) -> &'static str {
        self.entry().1
    }

    /// Why a Test task in this state ran no test; `None` when it ran.
    pub(crate) fn why(self) -> Option<&'static str> {
        self.entry().2
    }

    /// The state a console task line's word gives (`:p:test UP-TO-DATE`);
    /// a line without a known word is of a task that ran.
    pub(crate) fn of_line_word(word: &str) -> TaskState {
        WORDS
            .iter()
            .find(|(state, w, _)| *state != TaskState::Unknown && *w == word)
            .map_or(TaskState::Executed, |(state, _, _)| *state)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_state_has_its_word_and_a_line_word_reads_back() {
        for (state, word, _) in WORDS {
            assert_eq!(state.word(), word);
            if state != TaskState::Unknown {
                assert_eq!(TaskState::of_line_word(word), state);
            }
        }
        assert_eq!(TaskState::of_line_word(""), TaskState::Executed);
        assert_eq!(
            TaskState::of_line_word("in an unknown state"),
            TaskState::Executed
        );
    }
}
