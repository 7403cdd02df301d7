//! What each task of a Gradle invocation did, as the companion init script
//! `gradle/flaky-outcomes.gradle` records it, so that a Test task the build
//! skipped (an `onlyIf` that is false, a disabled task) is reported as
//! skipped by the build, not as a hang or as "no tests executed".
//!
//! Why an init script rather than Gradle's console output: the output's task
//! lines depend on the console mode and log level (`-q` prints none), differ
//! between versions (`:p:t SKIPPED` on 4.x, `> Task :p:t SKIPPED` later), and
//! do not say why a task was skipped; the script records every task in a file
//! whatever the output, says why where Gradle does, is configuration-cache safe
//! on Gradle 6.1+ (build events API) and works on 4.4.1 (task listeners). The
//! file is named by a `-D` property, which reaches a reused daemon for each
//! build, where an environment variable would not.

use super::task_state::TaskState;
use crate::invocation;
use crate::process;
use crate::{Error, Result};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The script passed with `-I`; it applies [`EVENTS_SCRIPT`] on Gradle 6.1+.
pub(crate) const SCRIPT: &str = include_str!("../../gradle/flaky-outcomes.gradle");
/// The Gradle 6.1+ half; must sit beside [`SCRIPT`] under this name.
pub(crate) const EVENTS_SCRIPT: &str = include_str!("../../gradle/flaky-outcomes-events.gradle");
const SCRIPT_NAME: &str = "flaky-outcomes.gradle";
const EVENTS_SCRIPT_NAME: &str = "flaky-outcomes-events.gradle";
/// Runs a suite's member on its own for one invocation when the command asks
/// (`plan::suite_route`); changes nothing otherwise.
pub(crate) const MEMBERS_SCRIPT: &str = include_str!("../../gradle/flaky-suite-members.gradle");
const MEMBERS_SCRIPT_NAME: &str = "flaky-suite-members.gradle";
/// Marks the build's test JVMs with the run (`vars::RUN_MARK`), so that
/// stopping a build on a shared daemon stops only ours (`super::daemon`).
pub(crate) const MARK_SCRIPT: &str = include_str!("../../gradle/flaky-run-mark.gradle");
const MARK_SCRIPT_NAME: &str = "flaky-run-mark.gradle";
/// Repeats the selected tests in one test JVM when the command asks
/// (`plan::repeat`); changes nothing otherwise.
pub(crate) const REPEAT_SCRIPT: &str = include_str!("../../gradle/flaky-repeat.gradle");
const REPEAT_SCRIPT_NAME: &str = "flaky-repeat.gradle";
/// One Java helper of the repeat script: its path below `repeat-src/`, its text.
macro_rules! repeat_source {
    ($file:literal) => {
        (
            concat!("gradleflaky/repeat/", $file),
            include_str!(concat!("../../java/repeat/gradleflaky/repeat/", $file)),
        )
    };
}

/// The Java helpers the repeat script compiles (below `repeat-src/`).
pub(crate) const REPEAT_SOURCES: [(&str, &str); 6] = [
    repeat_source!("Iterations.java"),
    repeat_source!("Slices.java"),
    repeat_source!("Selection.java"),
    repeat_source!("TestNgRepeat.java"),
    repeat_source!("JUnit4Repeat.java"),
    repeat_source!("PlatformRepeat.java"),
];
const REPEAT_SOURCES_DIR: &str = "repeat-src";
/// The system property naming the file the script writes.
pub(crate) const FILE_PROPERTY: &str = "flaky.outcomes.file";

/// One task's outcome.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct TaskOutcome {
    pub path: String,
    pub state: TaskState,
    /// A Test task (unknown on Gradle 6.1+, where the events do not say).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub test: Option<bool>,
    /// Why it was skipped, where Gradle says (`onlyIf is false`, `disabled`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

impl TaskOutcome {
    /// The task ran none of its work because the build said so.
    fn not_run(&self) -> bool {
        matches!(self.state, TaskState::Skipped | TaskState::NoSource)
    }

    /// `:p:t SKIPPED (onlyIf is false)`.
    pub(crate) fn describe(&self) -> String {
        let state = self.state.word();
        match &self.reason {
            Some(reason) if reason != state => format!("{} {state} ({reason})", self.path),
            _ => format!("{} {state}", self.path),
        }
    }
}

#[derive(Deserialize)]
struct OutcomeFile {
    tasks: Vec<TaskOutcome>,
}

/// The scripts, written once to a directory of the run, and how to pass them.
#[derive(Clone, Debug)]
pub(crate) struct Scripts {
    script: PathBuf,
    members: PathBuf,
    mark: PathBuf,
    repeat: PathBuf,
    sources: PathBuf,
}

impl Scripts {
    /// Writes the script that runs suite members on their own
    /// (`plan::suite_route`) to `<build>/.gradle/gradle-flaky/scripts/`, where
    /// reproduce lines name it: it outlives the run folders, which are pruned.
    pub(crate) fn keep_members_script(project_dir: &Path) -> Result<PathBuf> {
        let dir = crate::reports::state_dir(project_dir).join("scripts");
        std::fs::create_dir_all(&dir).map_err(|e| Error::io(&dir, e))?;
        let path = dir.join(MEMBERS_SCRIPT_NAME);
        std::fs::write(&path, MEMBERS_SCRIPT).map_err(|e| Error::io(&path, e))?;
        std::path::absolute(&path).map_err(|e| Error::io(&path, e))
    }

    /// Writes the scripts to `dir`.
    pub(crate) fn write(dir: &Path) -> Result<Scripts> {
        std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
        for (name, text) in [
            (SCRIPT_NAME, SCRIPT),
            (EVENTS_SCRIPT_NAME, EVENTS_SCRIPT),
            (MEMBERS_SCRIPT_NAME, MEMBERS_SCRIPT),
            (MARK_SCRIPT_NAME, MARK_SCRIPT),
            (REPEAT_SCRIPT_NAME, REPEAT_SCRIPT),
        ] {
            let path = dir.join(name);
            std::fs::write(&path, text).map_err(|e| Error::io(&path, e))?;
        }
        for (name, text) in REPEAT_SOURCES {
            let path = dir.join(REPEAT_SOURCES_DIR).join(name);
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent).map_err(|e| Error::io(parent, e))?;
            }
            std::fs::write(&path, text).map_err(|e| Error::io(&path, e))?;
        }
        let absolute =
            |name: &str| std::path::absolute(dir.join(name)).map_err(|e| Error::io(dir, e));
        Ok(Scripts {
            script: absolute(SCRIPT_NAME)?,
            members: absolute(MEMBERS_SCRIPT_NAME)?,
            mark: absolute(MARK_SCRIPT_NAME)?,
            repeat: absolute(REPEAT_SCRIPT_NAME)?,
            sources: absolute(REPEAT_SOURCES_DIR)?,
        })
    }

    /// `argv` with the scripts, the file the outcomes go to and the run's
    /// marker appended: Gradle takes options after the tasks, and a Gradle
    /// program given as a wrapper command (`sh run-gradle.sh`) passes them on
    /// (the marker is added once: [`Isolation::apply`] puts it on a Gradle
    /// program already). The caller creates the file's directory.
    ///
    /// [`Isolation::apply`]: crate::process::Isolation::apply
    pub(crate) fn apply(&self, argv: &[String], file: &Path, repeat_helpers: bool) -> Vec<String> {
        let mut out = argv.to_vec();
        out.push("-I".into());
        out.push(self.script.display().to_string());
        out.push(format!("-D{FILE_PROPERTY}={}", file.display()));
        out.push("-I".into());
        out.push(self.members.display().to_string());
        out.push("-I".into());
        out.push(self.mark.display().to_string());
        let marker = process::run_marker();
        if !argv.contains(&marker) {
            out.push(marker);
        }
        // Only for a command that repeats by one of gradle-flaky's helpers.
        if repeat_helpers {
            out.push("-I".into());
            out.push(self.repeat.display().to_string());
            let sources = self.sources.display().to_string();
            out.push(invocation::define(invocation::REPEAT_SOURCES, &sources));
        }
        out
    }
}

/// The outcomes a script wrote; `None` when it wrote nothing readable (the
/// build failed before it could, or the file is damaged).
pub(crate) fn read(file: &Path) -> Option<Vec<TaskOutcome>> {
    let text = std::fs::read_to_string(file).ok()?;
    serde_json::from_str::<OutcomeFile>(&text)
        .ok()
        .map(|f| f.tasks)
}

/// The Test tasks asked for that the build skipped (an `onlyIf` that is
/// false, a disabled task, no source).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Skipped {
    /// Their outcomes, in the order asked.
    pub tasks: Vec<TaskOutcome>,
    /// Every task asked for was skipped: no test of the command ran.
    pub all: bool,
}

/// Which of the Test tasks `requested` (or, when it names none, of every
/// Test task the outcomes know) the build skipped; `None` when it skipped
/// none of them (or the outcomes do not name them).
pub(crate) fn skipped_by_build(outcomes: &[TaskOutcome], requested: &[String]) -> Option<Skipped> {
    let asked: Vec<Option<&TaskOutcome>> = if requested.is_empty() {
        outcomes
            .iter()
            .filter(|o| o.test == Some(true))
            .map(Some)
            .collect()
    } else {
        requested
            .iter()
            .map(|path| outcomes.iter().find(|o| &o.path == path))
            .collect()
    };
    let tasks: Vec<TaskOutcome> = asked
        .iter()
        .flatten()
        .filter(|o| o.not_run())
        .map(|o| (*o).clone())
        .collect();
    let all = tasks.len() == asked.len();
    (!tasks.is_empty()).then_some(Skipped { tasks, all })
}

/// The skipped tasks in words: `:a:t SKIPPED (onlyIf is false), :b:t NO-SOURCE`.
pub(crate) fn describe(skipped: &[TaskOutcome]) -> String {
    skipped
        .iter()
        .map(TaskOutcome::describe)
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outcome(path: &str, state: TaskState, test: Option<bool>) -> TaskOutcome {
        TaskOutcome {
            path: path.into(),
            state,
            test,
            reason: None,
        }
    }

    #[test]
    fn the_scripts_file_is_read_and_unknown_states_kept() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("o.json");
        std::fs::write(
            &file,
            r#"{"schema":1,"tasks":[
              {"path":":p:yamlRestCompatTest","state":"skipped","test":true,"reason":"onlyIf is false"},
              {"path":":p:compileJava","state":"up-to-date","test":false,"reason":null},
              {"path":":p:x","state":"something-new","test":null,"reason":null}]}"#,
        )
        .unwrap();
        let tasks = read(&file).unwrap();
        assert_eq!(tasks.len(), 3);
        assert_eq!(
            tasks[0].describe(),
            ":p:yamlRestCompatTest SKIPPED (onlyIf is false)"
        );
        assert_eq!(tasks[2].state, TaskState::Unknown);
        assert!(read(&dir.path().join("missing.json")).is_none());
        std::fs::write(&file, "{\"tasks\": [").unwrap();
        assert!(read(&file).is_none());
    }

    #[test]
    fn the_requested_tasks_the_build_skipped_are_told_apart_from_those_that_ran() {
        use TaskState::*;
        let skipped = outcome(":p:compat", Skipped, Some(true));
        let other = outcome(":p:test", Executed, Some(true));
        let compile = outcome(":p:compileJava", Skipped, Some(false));
        let outcomes = vec![compile.clone(), skipped.clone(), other.clone()];
        let req = |paths: &[&str]| paths.iter().map(|p| p.to_string()).collect::<Vec<_>>();
        let found = |tasks: Vec<TaskOutcome>, all| Some(super::Skipped { tasks, all });
        assert_eq!(
            skipped_by_build(&outcomes, &req(&[":p:compat"])),
            found(vec![skipped.clone()], true)
        );
        assert_eq!(
            skipped_by_build(&outcomes, &req(&[":p:compat", ":p:test"])),
            found(vec![skipped.clone()], false),
            "one of two: a partial skip"
        );
        assert_eq!(skipped_by_build(&outcomes, &req(&[":p:test"])), None);
        assert_eq!(
            skipped_by_build(&outcomes, &req(&[":p:compat", ":p:absent"])),
            found(vec![skipped.clone()], false),
            "a task the outcomes do not name is not known to be skipped"
        );
        // without a list, the Test tasks decide
        assert_eq!(
            skipped_by_build(&outcomes, &[]),
            found(vec![skipped.clone()], false)
        );
        let only_skipped = vec![compile.clone(), skipped.clone()];
        assert_eq!(
            skipped_by_build(&only_skipped, &[]),
            found(vec![skipped.clone()], true)
        );
        // up to date is not a skip by the build's logic
        let up = vec![outcome(":p:compat", UpToDate, Some(true))];
        assert_eq!(skipped_by_build(&up, &req(&[":p:compat"])), None);
        assert_eq!(
            describe(&[skipped, outcome(":q:t", NoSource, None)]),
            ":p:compat SKIPPED, :q:t NO-SOURCE"
        );
    }

    #[test]
    fn the_script_and_its_file_are_appended_to_the_command() {
        let dir = tempfile::tempdir().unwrap();
        let scripts = Scripts::write(dir.path()).unwrap();
        assert!(dir.path().join(EVENTS_SCRIPT_NAME).is_file());
        let argv: Vec<String> = ["sh", "run gradle.sh", ":p:test"]
            .map(String::from)
            .to_vec();
        let out = scripts.apply(&argv, Path::new("/o/it 1.json"), false);
        assert_eq!(&out[..3], &argv[..]);
        assert_eq!(out[3], "-I");
        assert!(out[4].ends_with("/flaky-outcomes.gradle"), "{}", out[4]);
        assert_eq!(out[5], "-Dflaky.outcomes.file=/o/it 1.json");
        assert_eq!(out[6], "-I");
        assert!(
            out[7].ends_with("/flaky-suite-members.gradle"),
            "{}",
            out[7]
        );
        assert_eq!(out[8], "-I");
        assert!(out[9].ends_with("/flaky-run-mark.gradle"), "{}", out[9]);
        let marker = format!("-Dgradle-flaky.run={}", process::run_id());
        assert_eq!(out[10], marker, "a wrapper command gets the run's marker");
        assert_eq!(out.len(), 11);
        let gradle = process::Isolation::Shared
            .apply(&["gradle".into(), ":p:test".into()])
            .unwrap();
        let out = scripts.apply(&gradle, Path::new("/o/it.json"), true);
        assert_eq!(
            out.iter().filter(|a| **a == marker).count(),
            1,
            "a Gradle program has it once: {out:?}"
        );
        assert!(
            out.iter().any(|a| a.ends_with("/flaky-repeat.gradle")),
            "the repeat helpers when asked: {out:?}"
        );
    }

    /// The mark script sets the variable gradle-flaky looks for, from the
    /// property gradle-flaky passes.
    #[test]
    fn the_mark_script_sets_the_run_mark_from_the_run_property() {
        assert!(MARK_SCRIPT.contains(&format!("System.getProperty('{}')", process::RUN_PROPERTY)));
        assert!(MARK_SCRIPT.contains(&format!(
            "task.environment('{}', run)",
            crate::vars::RUN_MARK
        )));
    }
}
