//! Replaying one failing test: the Gradle argv that pins a seed, each
//! invocation run through the loop machinery (its reports kept in a folder of
//! its own), and what the kept reports say of that one test.
//!
//! A seeded replay asks the randomized runner for all its replays in one test
//! JVM (`-Dtests.seed=MASTER:METHOD -Dtests.iters=N`): with the method seed
//! pinned, every iteration runs with that same seed (measured on
//! randomizedtesting 2.7.9: the names are `test {seed=[A:B]}`, then
//! `test {seed=[A:B] #2}` … `#N`), and one Gradle invocation of N iterations
//! costs about what one of a single execution does (on the example build,
//! 10 replays in 6.8 s against 5.2 s for each separate invocation). Where the
//! build does not pass `tests.iters` to its tests, fewer executions come back
//! than were asked for, and the rest are replayed one Gradle invocation each.
//! A test without a seed is replayed alone, one Gradle invocation per replay:
//! ordinary JUnit and TestNG runners know no iterations.

use super::Env;
use crate::analyze::aggregate::{classify_failure, normalize_method};
use crate::analyze::junit::{self, Execution};
use crate::analyze::report::FailureKind;
use crate::domain::format_duration;
use crate::plan::{clean_task, Forcing};
use crate::process::{self, Ended, Isolation, Output};
use crate::run::outcomes::Scripts;
use crate::run::progress::Progress;
use crate::run::repeat::{self, Iteration, IterationCounts, Loop, Outcomes, Verdict};
use crate::{Error, Result};
use std::fs::File;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// What to replay: one test, with one of its failing seeds or alone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replay<'a> {
    /// The Gradle task path that ran it (`:server:test`).
    pub task: &'a str,
    pub class: &'a str,
    /// The normalized method name (no seed or iteration tokens).
    pub method: &'a str,
    /// The seed to pin, `MASTER:METHOD` as the failure reported it; `None`: replay alone.
    pub seed: Option<&'a str>,
    /// The `-D` properties its run needed (a suite member included for the
    /// run: `-Dflaky.include.<task>=…`), passed again so the replay runs it.
    pub properties: &'a [String],
}

/// The Gradle argv of one replay invocation: the test alone, with its seed
/// pinned when it has one, `iters` times in one test JVM when given. The task
/// is forced to run like a planned batch's (`clean<Task>` before it, or
/// `--rerun` after it). The test is selected as the planned batches select it,
/// by Gradle's own filter on its exact name (parameters and all, e.g.
/// `Runner.test {yaml=a/b/c}`), which every runner honours.
pub fn argv(
    gradle: &[String],
    job: &Replay<'_>,
    iters: Option<u32>,
    forcing: Forcing,
    extra: &[String],
) -> Vec<String> {
    let mut argv = gradle.to_vec();
    if let Some(seed) = job.seed {
        argv.push(format!("-Dtests.seed={seed}"));
    }
    if let Some(iters) = iters {
        argv.push(format!("-Dtests.iters={iters}"));
    }
    if forcing == Forcing::CleanTask {
        argv.push(clean_task(job.task));
    }
    argv.push(job.task.to_string());
    argv.extend(["--tests".to_string(), filter(job)]);
    argv.extend(job.properties.iter().cloned());
    if forcing == Forcing::Rerun {
        argv.push("--rerun".into());
    }
    argv.extend(extra.iter().cloned());
    argv
}

fn filter(job: &Replay<'_>) -> String {
    format!("{}.{}", job.class, job.method)
}

/// The command that replays the job once, as a person would type it.
pub fn command(gradle: &[String], job: &Replay<'_>) -> String {
    let mut words = gradle.to_vec();
    words.extend([job.task.to_string(), "--tests".into(), filter(job)]);
    if let Some(seed) = job.seed {
        words.push(format!("-Dtests.seed={seed}"));
    }
    crate::shell::join(&words)
}

/// What one invocation's reports say of the replayed test.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub passed: u64,
    /// Real failures (suite timeouts excluded).
    pub failed: u64,
    pub suite_timeouts: u64,
    /// Executions that ran with a seed other than the pinned one: the seed
    /// did not reach the test JVM, so they say nothing of it.
    pub unpinned: u64,
    /// The first seed seen on an unpinned execution.
    pub other_seed: Option<String>,
    /// Executions of other tests (a filter wider than the test).
    pub others: u64,
}

impl Tally {
    /// Replays with a result: the test ran with the pinned seed (or alone) and passed or failed.
    pub fn usable(&self) -> u64 {
        self.passed + self.failed
    }

    fn add(&mut self, exec: &Execution<'_>, class: &str, method: &str, seed: Option<&str>) {
        let (name, name_seed) = normalize_method(exec.name);
        if exec.class != class || name != method {
            self.others += u64::from(exec.result != junit::CaseResult::Skipped);
            return;
        }
        let (failure, seen) = match &exec.result {
            junit::CaseResult::Skipped => return,
            junit::CaseResult::Passed => (None, name_seed.map(str::to_string)),
            junit::CaseResult::Failed(f) => (
                Some(classify_failure(&f.type_name, &f.message)),
                name_seed.map(str::to_string).or_else(|| f.seed.clone()),
            ),
        };
        // A passing execution names no seed when the runner ran it once
        // (no `tests.iters`): it ran with the pinned seed, if any reached the JVM.
        if let (Some(pinned), Some(seen)) = (seed, seen) {
            if !same_seed(pinned, &seen) {
                self.unpinned += 1;
                self.other_seed.get_or_insert(seen);
                return;
            }
        }
        match failure {
            None => self.passed += 1,
            Some(FailureKind::SuiteTimeout) => self.suite_timeouts += 1,
            Some(_) => self.failed += 1,
        }
    }

    /// The counts the loop's iteration verdict is judged by.
    fn counts(&self) -> IterationCounts {
        IterationCounts {
            executed: self.passed + self.failed + self.suite_timeouts + self.unpinned + self.others,
            failed: self.failed,
            suite_timeouts: self.suite_timeouts,
        }
    }
}

/// A pinned seed matches the seed an execution reports: the same `MASTER:METHOD`,
/// or the same master when only a master seed was pinned. Hex digits compare
/// without case.
fn same_seed(pinned: &str, seen: &str) -> bool {
    let (pinned, seen) = (pinned.to_ascii_uppercase(), seen.to_ascii_uppercase());
    seen == pinned || (!pinned.contains(':') && seen.split(':').next() == Some(&pinned))
}

/// Reads the reports (`rel` paths below `dir`) an invocation kept.
pub fn tally(dir: &Path, rel: &[PathBuf], class: &str, method: &str, seed: Option<&str>) -> Tally {
    let mut t = Tally::default();
    for path in rel {
        if let Ok(file) = File::open(dir.join(path)) {
            junit::read(file, |exec| t.add(&exec, class, method, seed));
        }
    }
    t
}

/// Why replays that were planned did not run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    Budget,
    Time,
    Interrupted,
}

/// Replays of one job.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct JobResult {
    pub replays: u64,
    pub reproduced: u64,
    /// Why it has fewer replays than planned, one line each.
    pub notes: Vec<String>,
    /// The budget, the time limit or Ctrl-C ended it (or kept it from starting).
    pub stopped: Option<Stop>,
    pub elapsed: Duration,
}

/// Runs replay invocations one after another within a budget of replays and a
/// deadline, each in a folder of its own below `dir`.
pub struct Replayer<'a> {
    /// Where and how replays run.
    pub env: &'a Env<'a>,
    pub isolation: &'a Isolation,
    /// Record each invocation's task outcomes: a replay whose task the build
    /// skips says so rather than "no tests executed".
    pub scripts: &'a Scripts,
    /// Where each job's log and kept reports go.
    pub dir: &'a Path,
    pub progress: &'a Progress,
    /// Replays each job asks for.
    pub replays: u32,
    /// Replays that may still be asked for.
    pub budget_left: u64,
    pub budget: u64,
    pub deadline: Instant,
    pub time_limit: Duration,
    /// Jobs run so far (names their folders and logs).
    pub jobs: usize,
    /// Gradle invocations so far.
    pub invocations: u64,
}

impl Replayer<'_> {
    /// Replays `job` up to `self.replays` times. `label` names it on the progress lines.
    pub fn run(&mut self, job: &Replay<'_>, label: &str) -> Result<JobResult> {
        self.jobs += 1;
        let n = self.jobs;
        let log_path = self.dir.join(format!("job-{n}.log"));
        let started = Instant::now();
        let mut out = JobResult::default();
        let wanted = u64::from(self.replays);
        let mut round = 0;
        let mut log: Option<File> = None;
        // A seeded test's replays run in one JVM until that proves impossible.
        let mut in_jvm = job.seed.is_some();
        while out.replays < wanted {
            if let Some(stop) = self.stop_reason() {
                out.notes.push(self.stop_note(stop, out.replays, wanted));
                out.stopped = Some(stop);
                break;
            }
            let ask = (wanted - out.replays).min(self.budget_left);
            let iters = if in_jvm { ask } else { 1 };
            self.budget_left -= iters;
            round += 1;
            let argv = argv(
                self.env.gradle,
                job,
                in_jvm.then_some(iters as u32),
                self.env.forcing,
                self.env.extra_args,
            );
            let log = match &log {
                Some(f) => f,
                None => log.insert(File::create(&log_path).map_err(|e| Error::io(&log_path, e))?),
            };
            self.progress.line(&format!(
                ">>> triage {label}: {} (log: {})",
                match job.seed {
                    Some(_) => format!("{iters} replay(s) in one test JVM"),
                    None => format!("replay {} of {wanted}", out.replays + 1),
                },
                log_path.display()
            ));
            let time_left = self.deadline.saturating_duration_since(Instant::now());
            let timeout = self
                .env
                .invocation_timeout
                .map_or(time_left, |t| t.min(time_left));
            let dest = self
                .dir
                .join(format!("job-{n}"))
                .join(format!("replay-{round}"));
            let outcomes_dir = dest.join("task-outcomes");
            let requested = [job.task.to_string()];
            let spec = Loop {
                argv: &argv,
                isolation: self.isolation,
                project_dir: self.env.project_dir,
                dest: &dest,
                times: 1,
                timeout: Some(timeout),
                output: if self.env.verbose {
                    Output::Tee(log)
                } else {
                    Output::Log(log)
                },
                outcomes: Some(Outcomes {
                    scripts: self.scripts,
                    dir: &outcomes_dir,
                    requested: &requested,
                }),
            };
            let its = repeat::run(&spec, &mut ())?;
            self.invocations += 1;
            let Some(it) = its.into_iter().next() else {
                // The loop did not start it: Ctrl-C came first.
                out.stopped = Some(Stop::Interrupted);
                out.notes
                    .push(self.stop_note(Stop::Interrupted, out.replays, wanted));
                break;
            };
            let t = tally(&it.dir, &it.reports, job.class, job.method, job.seed);
            // The budget counts replays that ran: give back what did not (a
            // build that ignores `tests.iters` runs one execution).
            let ran = t.usable() + t.suite_timeouts + t.unpinned;
            self.budget_left += iters.saturating_sub(ran);
            let verdict = Verdict::of(&it, (!it.reports.is_empty()).then(|| t.counts()));
            self.progress
                .line(&format!("    {}", describe(&t, &verdict, &it)));
            if let Some(stop) = self.stopped_by(&it) {
                out.notes.push(self.stop_note(stop, out.replays, wanted));
                out.stopped = Some(stop);
                break;
            }
            if t.unpinned > 0 {
                out.notes.push(format!(
                    "the seed did not reach the test JVM: {} execution(s) ran with seed {} \
                     (does the build pass tests.* system properties to its tests?); log: {}",
                    t.unpinned,
                    t.other_seed.as_deref().unwrap_or("?"),
                    log_path.display()
                ));
                break;
            }
            if t.usable() == 0 && in_jvm && verdict == Verdict::NoTests {
                // Iterations rename a parameterized test (`test {yaml=…}` becomes
                // `test {yaml=… seed=[…]}`), and Gradle's filter on its name then
                // matches nothing (measured with randomizedtesting 2.7.9 and
                // Gradle 4.4.1): one execution per invocation instead.
                in_jvm = false;
                self.progress.line(
                    "    no test ran with -Dtests.iters: replaying one Gradle invocation each",
                );
                continue;
            }
            if t.usable() == 0 {
                out.notes.push(format!(
                    "a replay gave no result: {}; log: {}",
                    broken(&t, &verdict, &it),
                    log_path.display()
                ));
                break;
            }
            out.replays += t.usable();
            out.reproduced += t.failed;
        }
        out.elapsed = started.elapsed();
        Ok(out)
    }

    /// What keeps the next invocation from starting.
    fn stop_reason(&self) -> Option<Stop> {
        if process::interrupted() {
            Some(Stop::Interrupted)
        } else if self.budget_left == 0 {
            Some(Stop::Budget)
        } else if Instant::now() >= self.deadline {
            Some(Stop::Time)
        } else {
            None
        }
    }

    /// What ended an invocation early, when it was not its own doing.
    fn stopped_by(&self, it: &Iteration) -> Option<Stop> {
        match it.ended {
            Ended::Interrupted => Some(Stop::Interrupted),
            Ended::TimedOut if Instant::now() >= self.deadline => Some(Stop::Time),
            _ => None,
        }
    }

    /// `2 of 5 replay(s) ran: the replay budget of 100 is spent`.
    pub fn stop_note(&self, stop: Stop, ran: u64, wanted: u64) -> String {
        let why = match stop {
            Stop::Budget => format!("the replay budget of {} is spent", self.budget),
            Stop::Time => format!(
                "the triage time limit of {} was reached",
                format_duration(self.time_limit)
            ),
            Stop::Interrupted => "interrupted".into(),
        };
        format!("{ran} of {wanted} replay(s) ran: {why}")
    }
}

/// The progress line after an invocation.
fn describe(t: &Tally, verdict: &Verdict, it: &Iteration) -> String {
    let elapsed = format!("{:.1}s", it.elapsed.as_secs_f64());
    if t.usable() > 0 && t.unpinned == 0 {
        format!("{} of {} failed again · {elapsed}", t.failed, t.usable())
    } else {
        format!("{} · {elapsed}", broken(t, verdict, it))
    }
}

/// Why an invocation gave no replay.
fn broken(t: &Tally, verdict: &Verdict, it: &Iteration) -> String {
    if t.unpinned > 0 {
        return "ran with another seed".into();
    }
    if t.suite_timeouts > 0 {
        return "suite timeout".into();
    }
    if t.others > 0 {
        return "the test did not run (other tests did)".into();
    }
    match verdict {
        Verdict::NoTests if !it.ended.success() => {
            "no tests executed (the filter matched no test, or the build failed)".into()
        }
        v => v.describe(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn job<'a>(method: &'a str, seed: Option<&'a str>) -> Replay<'a> {
        Replay {
            task: ":server:test",
            class: "org.example.FooTests",
            method,
            seed,
            properties: &[],
        }
    }

    fn strings(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn a_seeded_replay_pins_the_seed_and_asks_for_its_iterations() {
        let gradle = strings(&["gradle", "--offline"]);
        assert_eq!(
            argv(
                &gradle,
                &job("testX", Some("A:B")),
                Some(5),
                Forcing::CleanTask,
                &[]
            ),
            strings(&[
                "gradle",
                "--offline",
                "-Dtests.seed=A:B",
                "-Dtests.iters=5",
                ":server:cleanTest",
                ":server:test",
                "--tests",
                "org.example.FooTests.testX"
            ])
        );
        let extra = strings(&["-Dx=1"]);
        assert_eq!(
            argv(
                &gradle[..1],
                &job("test {yaml=a/b/c d}", Some("A:B")),
                None,
                Forcing::Rerun,
                &extra
            ),
            strings(&[
                "gradle",
                "-Dtests.seed=A:B",
                ":server:test",
                "--tests",
                "org.example.FooTests.test {yaml=a/b/c d}",
                "--rerun",
                "-Dx=1"
            ])
        );
        assert_eq!(
            command(&gradle, &job("test {yaml=a/b/c d}", Some("A:B"))),
            "gradle --offline :server:test --tests 'org.example.FooTests.test {yaml=a/b/c d}' \
             -Dtests.seed=A:B"
        );
    }

    /// A suite member included for the run is replayed the same way: through
    /// the task's includes, not through its suite (which on Gradle 4.7+ would
    /// run nothing).
    #[test]
    fn a_suite_member_is_replayed_with_the_properties_of_its_run() {
        let properties = strings(&[
            "-Dflaky.include.:server:test=org.example.FooTests",
            "-Dflaky.exclude.:server:test=org.example.AllTests",
        ]);
        let job = Replay {
            properties: &properties,
            ..job("testX", None)
        };
        assert_eq!(
            argv(&strings(&["gradle"]), &job, None, Forcing::CleanTask, &[]),
            strings(&[
                "gradle",
                ":server:cleanTest",
                ":server:test",
                "--tests",
                "org.example.FooTests.testX",
                "-Dflaky.include.:server:test=org.example.FooTests",
                "-Dflaky.exclude.:server:test=org.example.AllTests"
            ])
        );
    }

    #[test]
    fn a_test_without_a_seed_is_replayed_alone_by_its_exact_name() {
        assert_eq!(
            argv(
                &strings(&["./gradlew"]),
                &job("parses[2: flaky]", None),
                None,
                Forcing::CleanTask,
                &[]
            ),
            strings(&[
                "./gradlew",
                ":server:cleanTest",
                ":server:test",
                "--tests",
                "org.example.FooTests.parses[2: flaky]"
            ])
        );
    }

    fn tally_of(xml: &str, method: &str, seed: Option<&str>) -> Tally {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("TEST-x.xml"), xml).unwrap();
        tally(
            dir.path(),
            &[PathBuf::from("TEST-x.xml")],
            "org.example.FooTests",
            method,
            seed,
        )
    }

    const TRACE: &str =
        "java.lang.AssertionError: boom\n\tat __randomizedtesting.SeedInfo.seed([A:B]:0)";

    #[test]
    fn replays_count_only_executions_of_the_test_with_the_pinned_seed() {
        let xml = format!(
            r#"<testsuite name="org.example.FooTests">
<testcase classname="org.example.FooTests" name="testX {{seed=[A:B]}}"><failure type="java.lang.AssertionError">{TRACE}</failure></testcase>
<testcase classname="org.example.FooTests" name="testX {{seed=[A:B]}} #2"/>
<testcase classname="org.example.FooTests" name="testX {{seed=[a:b]}} #3"><failure type="java.lang.AssertionError">x</failure></testcase>
<testcase classname="org.example.FooTests" name="testX {{seed=[A:C]}} #4"/>
<testcase classname="org.example.FooTests" name="testY {{seed=[A:B]}}"/>
<testcase classname="org.example.FooTests" name="testX {{seed=[A:B]}} #5"><skipped/></testcase>
</testsuite>"#
        );
        let t = tally_of(&xml, "testX", Some("A:B"));
        assert_eq!((t.passed, t.failed, t.unpinned, t.others), (1, 2, 1, 1));
        assert_eq!(t.other_seed.as_deref(), Some("A:C"));
        assert_eq!(t.usable(), 3);
    }

    #[test]
    fn a_single_run_names_no_seed_and_its_failure_carries_it_in_the_trace() {
        let xml = format!(
            r#"<testsuite><testcase classname="org.example.FooTests" name="testX"><failure type="java.lang.AssertionError">{TRACE}</failure></testcase></testsuite>"#
        );
        assert_eq!(tally_of(&xml, "testX", Some("A:B")).failed, 1);
        assert_eq!(tally_of(&xml, "testX", Some("A:Z")).unpinned, 1);
        let passed =
            r#"<testsuite><testcase classname="org.example.FooTests" name="testX"/></testsuite>"#;
        assert_eq!(tally_of(passed, "testX", Some("A:B")).passed, 1);
        assert_eq!(
            tally_of(passed, "testX", None).passed,
            1,
            "alone: any execution counts"
        );
    }

    #[test]
    fn suite_timeouts_are_no_result() {
        let xml = r#"<testsuite><testcase classname="org.example.FooTests" name="testX"><failure type="java.lang.Exception" message="Test abandoned because suite timeout was reached."/></testcase></testsuite>"#;
        let t = tally_of(xml, "testX", None);
        assert_eq!((t.usable(), t.suite_timeouts), (0, 1));
    }

    #[test]
    fn a_master_seed_alone_matches_every_method_seed_of_it() {
        assert!(same_seed("ABC", "abc:123"));
        assert!(same_seed("ABC:1", "ABC:1"));
        assert!(!same_seed("ABC:1", "ABC:2"));
        assert!(!same_seed("ABC", "ABD:1"));
    }
}
