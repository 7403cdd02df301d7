//! Why a Gradle invocation executed no test, from facts only: how the client
//! ended, what Gradle reported as its failure, and the state of the batch's own
//! Test tasks. A word seen anywhere in the output is not a fact: every Gradle
//! log says `UP-TO-DATE` somewhere (`:buildSrc:compileJava UP-TO-DATE`).
//!
//! [`LogFacts::read`] extracts what Gradle's console output states (the
//! `* What went wrong:` sections, the exact task lines of the planned Test
//! tasks); [`cause`] is a pure function of [`Facts`], so task states recorded
//! another way (an init script) plug in through [`Facts::tasks`].

use super::task_state::TaskState;
use crate::markdown::plain_line;
use crate::process::Ended;

/// What Gradle's console output of one invocation states.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct LogFacts {
    /// Gradle reported a failed build (`FAILURE:` or `BUILD FAILED`).
    pub build_failed: bool,
    /// The text of each `* What went wrong:` section, on one line each.
    pub what_went_wrong: Vec<String>,
    /// The state of each planned Test task that has a task line.
    pub tasks: Vec<(String, TaskState)>,
}

/// Gradle's message when the daemon running the build went away.
const DAEMON_VANISHED: &str = "Gradle build daemon disappeared unexpectedly";
/// Gradle's failure of a Test task whose filters matched no test.
const NO_TESTS_FOUND: &str = "No tests found for given includes";

impl LogFacts {
    /// Reads one invocation's output. `test_tasks` are the Test task paths the
    /// plan put in the command: only their own task lines are read
    /// (`:p:test UP-TO-DATE` on a plain console, `> Task :p:test UP-TO-DATE` on
    /// a rich one); with `-q` there are none.
    pub(crate) fn read(output: &str, test_tasks: &[String]) -> LogFacts {
        let mut facts = LogFacts::default();
        let mut lines = output.lines().map(|l| l.trim_end()).peekable();
        while let Some(line) = lines.next() {
            if line.starts_with("FAILURE: ") || line.starts_with("BUILD FAILED") {
                facts.build_failed = true;
            } else if line == "* What went wrong:" {
                let mut text: Vec<&str> = Vec::new();
                while let Some(next) = lines.next_if(|l| !l.is_empty() && !l.starts_with("* ")) {
                    text.push(next.trim());
                }
                if !text.is_empty() {
                    facts.what_went_wrong.push(plain_line(&text.join(" ")));
                }
            } else if let Some(state) = task_line(line, test_tasks) {
                match facts.tasks.iter_mut().find(|(t, _)| *t == state.0) {
                    Some(known) => known.1 = state.1,
                    None => facts.tasks.push(state),
                }
            }
        }
        facts
    }
}

/// `(task, state)` when `line` is exactly a task line of one of `tasks`.
fn task_line(line: &str, tasks: &[String]) -> Option<(String, TaskState)> {
    let line = line.strip_prefix("> Task ").unwrap_or(line);
    let (path, word) = line.split_once(' ').unwrap_or((line, ""));
    let task = tasks.iter().find(|t| *t == path)?;
    let state = TaskState::of_line_word(word);
    Some((task.clone(), state))
}

/// Everything known about an invocation that wrote no test result.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Facts<'a> {
    /// How the Gradle client ended.
    pub ended: &'a Ended,
    pub log: &'a LogFacts,
    /// The state of each of the batch's Test tasks, when known (the log's task
    /// lines, or a task-outcome record).
    pub tasks: &'a [(String, TaskState)],
}

/// Why no test executed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Cause {
    /// The Gradle client was killed by a signal that gradle-flaky did not send.
    ClientKilled(i32),
    /// The daemon running the build went away (killed, or crashed).
    DaemonVanished,
    /// A `--tests` filter matched no test.
    NoTestsMatched,
    /// The batch's Test tasks were not run, each for the reason its state gives.
    TasksNotRun(Vec<(String, TaskState)>),
    /// The build failed before a test ran, for the reasons Gradle gave.
    BuildFailed(Vec<String>),
    /// Gradle exited with this code and said nothing of a failure.
    ExitedSilently(i32),
    /// Gradle succeeded, and no fact explains the missing results.
    Unexplained,
}

/// The cause of "no tests executed", first match wins: a killed client; a
/// vanished daemon; a filter that matched nothing; Test tasks with a known
/// state that ran nothing (UP-TO-DATE, SKIPPED, ...); the build's failure;
/// a non-zero exit; else nothing known.
pub(crate) fn cause(facts: &Facts<'_>) -> Cause {
    let wrong = &facts.log.what_went_wrong;
    if let Ended::Signalled(sig) = facts.ended {
        return Cause::ClientKilled(*sig);
    }
    if wrong.iter().any(|w| w.contains(DAEMON_VANISHED)) {
        return Cause::DaemonVanished;
    }
    if wrong.iter().any(|w| w.contains(NO_TESTS_FOUND)) {
        return Cause::NoTestsMatched;
    }
    let not_run = !facts.tasks.is_empty() && facts.tasks.iter().all(|(_, s)| s.why().is_some());
    if not_run {
        return Cause::TasksNotRun(facts.tasks.to_vec());
    }
    match facts.ended {
        Ended::Exited(0) => Cause::Unexplained,
        _ if facts.log.build_failed || !wrong.is_empty() => Cause::BuildFailed(wrong.clone()),
        Ended::Exited(code) => Cause::ExitedSilently(*code),
        _ => Cause::Unexplained,
    }
}

/// Longest "what went wrong" text quoted in a cause.
const MAX_WRONG_CHARS: usize = 300;

impl Cause {
    /// `no tests executed: <why>`, one line.
    pub(crate) fn describe(&self) -> String {
        let why = match self {
            Cause::ClientKilled(sig) => format!(
                "the Gradle client was killed by signal {sig}{}, sent from outside gradle-flaky",
                signal_name(*sig).map_or(String::new(), |n| format!(" ({n})"))
            ),
            Cause::DaemonVanished => "the Gradle daemon running the build disappeared (killed, \
                                      or crashed; its log is named in the batch log)"
                .to_string(),
            // Gradle says the same when the framework cannot start in the test
            // JVM (seen: TestNG without jcommander on the task's classpath).
            Cause::NoTestsMatched => "the --tests filter matched no test (Gradle says the same \
                                      when the test framework could not start in the test JVM, \
                                      e.g. a jar missing from the task's classpath: the task \
                                      run without --tests shows which)"
                .to_string(),
            Cause::TasksNotRun(tasks) => {
                let each: Vec<String> = tasks
                    .iter()
                    .map(|(task, state)| {
                        format!(
                            "the test task {task} was {}: {}",
                            state.word(),
                            state.why().unwrap_or_default()
                        )
                    })
                    .collect();
                each.join("; ")
            }
            Cause::BuildFailed(wrong) if wrong.is_empty() => {
                "the build failed before any test ran; see the log".to_string()
            }
            Cause::BuildFailed(wrong) => {
                let text = wrong.join(" | ");
                let text = match text.char_indices().nth(MAX_WRONG_CHARS) {
                    Some((i, _)) => format!("{}…", &text[..i]),
                    None => text,
                };
                format!("the build failed before any test ran: {text}")
            }
            Cause::ExitedSilently(code) => {
                format!("Gradle exited with {code} and reported no failure; see the log")
            }
            Cause::Unexplained => "Gradle succeeded but wrote no JUnit XML; see the log".into(),
        };
        format!("no tests executed: {why}")
    }
}

fn signal_name(sig: i32) -> Option<&'static str> {
    Some(match sig {
        libc::SIGKILL => "SIGKILL",
        libc::SIGTERM => "SIGTERM",
        libc::SIGINT => "SIGINT",
        libc::SIGHUP => "SIGHUP",
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGABRT => "SIGABRT",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tasks(t: &[&str]) -> Vec<String> {
        t.iter().map(|s| s.to_string()).collect()
    }

    fn cause_of(ended: Ended, output: &str, planned: &[&str]) -> Cause {
        let log = LogFacts::read(output, &tasks(planned));
        cause(&Facts {
            ended: &ended,
            log: &log,
            tasks: &log.tasks,
        })
    }

    const SETTINGS_BROKEN: &str = "\
:buildSrc:compileJava UP-TO-DATE
:buildSrc:build UP-TO-DATE

FAILURE: Build failed with an exception.

* Where:
Settings file '/b/settings.gradle' line: 31

* What went wrong:
Could not compile settings file '/b/settings.gradle'.
> startup failed:
  settings file '/b/settings.gradle': 31: unexpected token:  @ line 31, column 1.
  1 error


* Try:
Run with --stacktrace option to get the stack trace.

BUILD FAILED in 19s
";

    #[test]
    fn up_to_date_elsewhere_in_the_log_is_not_a_cause() {
        assert_eq!(
            cause_of(Ended::Exited(1), SETTINGS_BROKEN, &[":server:test"]),
            Cause::BuildFailed(vec![
                "Could not compile settings file '/b/settings.gradle'. > startup failed: \
                 settings file '/b/settings.gradle': 31: unexpected token:  @ line 31, column 1. \
                 1 error"
                    .into()
            ])
        );
        assert_eq!(
            cause_of(
                Ended::Exited(0),
                ":buildSrc:jar UP-TO-DATE\n",
                &[":server:test"]
            ),
            Cause::Unexplained
        );
    }

    #[test]
    fn only_the_planned_test_tasks_own_lines_give_their_state() {
        let log = ":server:compileTestJava UP-TO-DATE\n:server:test UP-TO-DATE\n\
                   :server:testing UP-TO-DATE\n> Task :x:test SKIPPED\n";
        assert_eq!(
            cause_of(Ended::Exited(0), log, &[":server:test", ":x:test"]),
            Cause::TasksNotRun(vec![
                (":server:test".into(), TaskState::UpToDate),
                (":x:test".into(), TaskState::Skipped)
            ])
        );
        // One task ran: its missing XML is not explained by the other's state.
        let ran = ":server:test UP-TO-DATE\n:x:test\n";
        assert_eq!(
            cause_of(Ended::Exited(0), ran, &[":server:test", ":x:test"]),
            Cause::Unexplained
        );
        assert_eq!(
            cause_of(Ended::Exited(0), log, &[":other:test"]),
            Cause::Unexplained
        );
    }

    #[test]
    fn each_fact_has_its_cause() {
        let vanished = "FAILURE: Build failed with an exception.\n\n* What went wrong:\n\
                        Gradle build daemon disappeared unexpectedly (it may have been killed \
                        or may have crashed)\n\n* Try:\n";
        assert_eq!(
            cause_of(Ended::Exited(1), vanished, &[":server:test"]),
            Cause::DaemonVanished
        );
        let no_match = ":server:test FAILED\n\nFAILURE: Build failed with an exception.\n\n\
                        * What went wrong:\nExecution failed for task ':server:test'.\n\
                        > No tests found for given includes: [x](--tests filter)\n\n";
        assert_eq!(
            cause_of(Ended::Exited(1), no_match, &[":server:test"]),
            Cause::NoTestsMatched
        );
        let said = Cause::NoTestsMatched.describe();
        assert!(said.contains("could not start in the test JVM"), "{said}");
        assert_eq!(
            cause_of(Ended::Signalled(9), vanished, &[]),
            Cause::ClientKilled(9)
        );
        assert_eq!(
            cause_of(Ended::Exited(1), "", &[]),
            Cause::ExitedSilently(1)
        );
        assert_eq!(
            cause_of(Ended::Exited(1), "BUILD FAILED in 3s\n", &[]),
            Cause::BuildFailed(vec![])
        );
    }

    #[test]
    fn several_failures_are_all_named() {
        let two = "FAILURE: Build completed with 2 failures.\n\n1: Task failed with an exception.\n\
                   -----------\n* What went wrong:\nExecution failed for task ':a:processTestResources'.\n\
                   > Could not copy file '/b/x'.\n\n* Try:\nRun with --stacktrace.\n\
                   ==============\n\n2: Task failed with an exception.\n-----------\n\
                   * What went wrong:\nExecution failed for task ':b:compileTestJava'.\n\n";
        let c = cause_of(Ended::Exited(1), two, &[":a:test"]);
        assert_eq!(
            c.describe(),
            "no tests executed: the build failed before any test ran: Execution failed for task \
             ':a:processTestResources'. > Could not copy file '/b/x'. | Execution failed for task \
             ':b:compileTestJava'."
        );
    }

    #[test]
    fn causes_read_as_sentences() {
        assert_eq!(
            Cause::ClientKilled(9).describe(),
            "no tests executed: the Gradle client was killed by signal 9 (SIGKILL), sent from \
             outside gradle-flaky"
        );
        assert_eq!(
            Cause::TasksNotRun(vec![(":p:test".into(), TaskState::UpToDate)]).describe(),
            "no tests executed: the test task :p:test was UP-TO-DATE: Gradle found its inputs \
             unchanged and did not run it"
        );
        let long = Cause::BuildFailed(vec!["x".repeat(1000)]).describe();
        assert!(long.ends_with('…') && long.len() < 400, "{long}");
    }
}
