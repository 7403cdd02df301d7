//! Triage: after a run, does each failure reproduce, and what kind of flaky is
//! the test? (`local --triage N`, `gradle-flaky triage`, the Buildkite triage step.)
//!
//! For every failing test of a report, up to [`MAX_SEEDS`] distinct failing
//! seeds are replayed N times each with the seed pinned, or, for a test whose
//! failures carry no seed (plain JUnit, TestNG), the test alone N times
//! ([`replay`]). The replays decide a verdict ([`rules`]), attached to the
//! report as each test's `triage`. Seeds are replayed in rounds (every test's
//! first seed, then every test's second, …), so that a budget cut short still
//! leaves as many tests as possible with a verdict.
//!
//! Replays keep their logs and reports in `flakiness-triage/triage-<n>/` below
//! the folder they triage (a run folder, or a CI job's work folder), which the
//! report discovery never enters: replays are evidence about the failures,
//! never more executions of the run.

pub mod replay;
pub(crate) mod rules;

use crate::analyze::model::report::{Report, SeedReplay, TestReport, Triage};
use crate::plan::Forcing;
use crate::reports::TRIAGE_DIR;
use crate::run::guard::RunGuard;
use crate::run::progress::Progress;
use crate::{Error, Result};
use replay::{JobResult, Replay, ReplayStop, Replayer};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Distinct failing seeds replayed per test, at most: the first ones seen.
/// More seeds of one test rarely change its verdict; the budget is better
/// spent on other tests.
pub const MAX_SEEDS: usize = 3;

/// How much to replay.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TriageConfig {
    /// Replays of each failing seed (or of a test without seeds, alone).
    pub replays: u32,
    /// The most replays in all, every test and seed together.
    pub budget: u64,
    /// The most wall time of the whole triage.
    pub timeout: Duration,
}

impl TriageConfig {
    pub const DEFAULT_REPLAYS: u32 = 5;
    pub const DEFAULT_BUDGET: u64 = 100;
    pub const DEFAULT_TIMEOUT_MIN: u64 = 30;
    pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(Self::DEFAULT_TIMEOUT_MIN * 60);

    /// The most Gradle invocations the triage may run (one replay each, at
    /// most): its isolation keeps a private daemon warm when there are several.
    pub fn invocations(&self) -> u32 {
        self.budget.min(u64::from(u32::MAX)) as u32
    }
}

/// Where and how replays run.
pub struct Env<'a> {
    /// The Gradle build's root: where Gradle runs.
    pub project_dir: &'a Path,
    /// The Gradle program (and its leading arguments).
    pub gradle: &'a [String],
    pub forcing: Forcing,
    /// Extra Gradle arguments, as the run had them.
    pub extra_args: &'a [String],
    /// The folder triaged: replays go to `flakiness-triage/triage-<n>/` below it.
    pub base: &'a Path,
    /// Limit of each Gradle invocation, besides the triage's own time limit.
    pub invocation_timeout: Option<Duration>,
    /// Stream Gradle's output to stderr.
    pub verbose: bool,
}

/// What a triage did, for the closing line.
#[derive(Clone, Debug, PartialEq)]
pub struct TriageTotals {
    /// Failing tests considered.
    pub tests: usize,
    pub replays: u64,
    pub invocations: u64,
    pub elapsed: Duration,
    pub interrupted: bool,
    /// Where its logs and reports are.
    pub dir: PathBuf,
}

/// One failing test to replay.
#[derive(Clone, Debug, PartialEq, Eq)]
struct TriageTarget {
    /// Its index in the report's tests.
    index: usize,
    task: String,
    /// Seeds to pin, in order; `[None]`: no seed, replay alone.
    seeds: Vec<Option<String>>,
}

impl TriageTarget {
    /// The replay of its test `t` (the report's) with `seed`.
    fn job<'a>(&'a self, t: &'a TestReport, seed: Option<&'a str>) -> Replay<'a> {
        Replay {
            task: &self.task,
            class: &t.class,
            method: &t.method,
            seed,
            members: &t.run_members,
        }
    }
}

/// A test's triage before any replay, with its notes.
fn no_replays(notes: Vec<String>) -> Triage {
    Triage {
        verdict: None,
        replays: 0,
        reproduced: 0,
        seeds: Vec::new(),
        partial: false,
        notes,
        context: None,
        elapsed_sec: 0.0,
    }
}

/// The failing tests to replay, most failing first, and those that cannot be
/// (with why).
fn targets(report: &Report) -> (Vec<TriageTarget>, Vec<(usize, String)>) {
    let mut out = Vec::new();
    let mut not = Vec::new();
    for (index, t) in report.tests.iter().enumerate() {
        if t.failures == 0 {
            continue;
        }
        let task = t.failing_task.clone().filter(|_| !t.class.is_empty());
        let why = match task {
            _ if t.method == "classMethod" || t.method.is_empty() => {
                "a suite-level failure (classMethod) has no test to replay alone"
            }
            None => {
                "no Gradle task is known for it (its report was not below \
                 build/test-results/<task>/)"
            }
            Some(_)
                if !t.failing_seeds.is_empty() && !t.failing_seeds.iter().any(|s| is_seed(s)) =>
            {
                "its failures name no randomized-runner seed (hex digits, `MASTER:METHOD`)"
            }
            Some(task) => {
                let seeds: Vec<Option<String>> = if t.failing_seeds.is_empty() {
                    vec![None]
                } else {
                    t.failing_seeds
                        .iter()
                        .filter(|s| is_seed(s))
                        .take(MAX_SEEDS)
                        .cloned()
                        .map(Some)
                        .collect()
                };
                out.push(TriageTarget { index, task, seeds });
                continue;
            }
        };
        not.push((index, format!("not replayed: {why}")));
    }
    (out, not)
}

/// A randomized-runner seed as its reports print it: hex, `MASTER` or
/// `MASTER:METHOD`. Anything else in a report's test name (it comes from the
/// branch under test) is never passed to Gradle.
fn is_seed(s: &str) -> bool {
    !s.is_empty()
        && s.split(':').count() <= 2
        && s.split(':').all(|part| {
            !part.is_empty() && part.len() <= 16 && part.bytes().all(|b| b.is_ascii_hexdigit())
        })
}

/// Whether the report has a failing test to triage.
pub fn has_failures(report: &Report) -> bool {
    report.tests.iter().any(|t| t.failures > 0)
}

/// Replays the failing tests of `report` and attaches each one's `triage`.
/// Ctrl-C stops the running replay; what ran before is kept and the rest is
/// marked as not replayed.
pub fn run(
    report: &mut Report,
    cfg: &TriageConfig,
    env: &Env,
    guard: &RunGuard,
    progress: &Progress,
) -> Result<TriageTotals> {
    let started = Instant::now();
    let (targets, not) = targets(report);
    for (index, note) in not {
        report.tests[index].triage = Some(no_replays(vec![note]));
    }
    let dir = create_dir(env.base)?;
    let mut replayer = Replayer {
        env,
        guard,
        dir: &dir,
        progress,
        replays: cfg.replays,
        budget_left: cfg.budget,
        budget: cfg.budget,
        deadline: started + cfg.timeout,
        time_limit: cfg.timeout,
        jobs: 0,
        invocations: 0,
    };
    let results = replay_in_rounds(report, &targets, &mut replayer);
    progress.finish();
    let results = results?;
    let interrupted = results
        .iter()
        .flatten()
        .any(|r| r.stopped == Some(ReplayStop::Interrupted));
    let mut replays = 0;
    for (target, results) in targets.iter().zip(&results) {
        let triage = attach(report, target, results, cfg, env);
        replays += triage.replays;
        report.tests[target.index].triage = Some(triage);
    }
    Ok(TriageTotals {
        tests: targets.len(),
        replays,
        invocations: replayer.invocations,
        elapsed: started.elapsed(),
        interrupted,
        dir,
    })
}

/// Every target's seeds, in rounds (each test's first seed, then each
/// test's second, …): `results[target][seed]`.
fn replay_in_rounds(
    report: &Report,
    targets: &[TriageTarget],
    replayer: &mut Replayer<'_>,
) -> Result<Vec<Vec<JobResult>>> {
    let mut results: Vec<Vec<JobResult>> = targets.iter().map(|_| Vec::new()).collect();
    let rounds = targets.iter().map(|t| t.seeds.len()).max().unwrap_or(0);
    let jobs = targets.iter().map(|t| t.seeds.len()).sum::<usize>();
    let mut done = 0;
    for round in 0..rounds {
        for (k, target) in targets.iter().enumerate() {
            let Some(seed) = target.seeds.get(round) else {
                continue;
            };
            done += 1;
            let t = &report.tests[target.index];
            let job = target.job(t, seed.as_deref());
            let label = format!(
                "[{done}/{jobs}] {}.{} {}",
                crate::terminal::visible(&t.class),
                crate::terminal::visible(&t.method),
                match seed {
                    Some(s) => format!("seed {s}"),
                    None => "alone".into(),
                }
            );
            results[k].push(replayer.run(&job, &label)?);
        }
    }
    Ok(results)
}

/// A test's triage from the results of its seeds (in `target.seeds` order).
fn attach(
    report: &Report,
    target: &TriageTarget,
    results: &[JobResult],
    cfg: &TriageConfig,
    env: &Env<'_>,
) -> Triage {
    let t = &report.tests[target.index];
    let seeded = target.seeds.iter().any(Option::is_some);
    let mut triage = no_replays(Vec::new());
    for (seed, r) in target.seeds.iter().zip(results) {
        triage.replays += r.replays;
        triage.reproduced += r.reproduced;
        triage.partial |= r.replays < u64::from(cfg.replays);
        triage.elapsed_sec += r.elapsed.as_secs_f64();
        match seed {
            Some(seed) => {
                triage
                    .notes
                    .extend(r.notes.iter().map(|n| format!("seed {seed}: {n}")));
                triage.seeds.push(SeedReplay {
                    seed: seed.clone(),
                    replays: r.replays,
                    reproduced: r.reproduced,
                    reproduce: replay::command(env, &target.job(t, Some(seed))),
                });
            }
            None => triage.notes.extend(r.notes.iter().cloned()),
        }
    }
    // A seed the budget or Ctrl-C kept from its turn still counts as planned.
    if results.len() < target.seeds.len() {
        triage.partial = true;
        triage
            .notes
            .push("interrupted before every seed was replayed".into());
    }
    triage.elapsed_sec = crate::stats::round6(triage.elapsed_sec);
    triage.verdict = rules::verdict(seeded, triage.replays, triage.reproduced);
    triage.context = rules::context(t, seeded, triage.replays, triage.reproduced);
    triage
}

/// A new `flakiness-triage/triage-<n>/` below `base`.
fn create_dir(base: &Path) -> Result<PathBuf> {
    let parent = base.join(TRIAGE_DIR);
    std::fs::create_dir_all(&parent).map_err(|e| Error::io(&parent, e))?;
    for n in 1.. {
        let dir = parent.join(format!("triage-{n}"));
        match std::fs::create_dir(&dir) {
            Ok(()) => return Ok(dir),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(Error::io(&dir, e)),
        }
    }
    unreachable!("an unbounded range ends only by returning")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyze::model::report::TestReport;

    fn test(method: &str, failures: u64, seeds: &[&str], task: Option<&str>) -> TestReport {
        let mut t = TestReport::sample("org.example.FooTests", method, 10 - failures, failures);
        t.failing_seeds = seeds.iter().map(|s| s.to_string()).collect();
        t.failing_task = task.map(String::from);
        t
    }

    fn report(tests: Vec<TestReport>) -> Report {
        Report {
            tests,
            ..crate::analyze::read::aggregate::merge(Vec::new(), 0)
        }
    }

    #[test]
    fn failing_tests_are_targets_with_at_most_three_seeds() {
        let r = report(vec![
            test("testA", 4, &["A:1", "A:2", "A:3", "A:4"], Some(":p:test")),
            test("testB", 0, &[], Some(":p:test")),
            test("testC", 2, &[], Some(":p:test")),
            test("classMethod", 1, &["A"], Some(":p:test")),
            test("testD", 1, &["A:5"], None),
            test("testE", 1, &["$(touch pwned)", "B:1"], Some(":p:test")),
            test("testF", 1, &["not a seed"], Some(":p:test")),
        ]);
        let (targets, not) = targets(&r);
        let seeds = |i: usize| -> Vec<Option<&str>> {
            targets[i].seeds.iter().map(Option::as_deref).collect()
        };
        assert_eq!(targets.len(), 3);
        assert_eq!(
            (targets[0].index, seeds(0)),
            (0, vec![Some("A:1"), Some("A:2"), Some("A:3")])
        );
        assert_eq!((targets[1].index, seeds(1)), (2, vec![None]));
        assert_eq!(
            (targets[2].index, seeds(2)),
            (5, vec![Some("B:1")]),
            "only what can be a seed reaches Gradle"
        );
        assert_eq!(not.iter().map(|(i, _)| *i).collect::<Vec<_>>(), [3, 4, 6]);
        assert!(not[0].1.contains("suite-level"), "{}", not[0].1);
        assert!(not[1].1.contains("no Gradle task"), "{}", not[1].1);
        assert!(
            not[2].1.contains("no randomized-runner seed"),
            "{}",
            not[2].1
        );
    }

    fn result(replays: u64, reproduced: u64, notes: &[&str]) -> JobResult {
        JobResult {
            replays,
            reproduced,
            notes: notes.iter().map(|s| s.to_string()).collect(),
            stopped: None,
            elapsed: Duration::from_millis(1500),
        }
    }

    #[test]
    fn seeds_add_up_to_the_verdict_and_a_short_seed_is_partial() {
        let r = report(vec![test("testA", 3, &["A:1", "A:2"], Some(":p:test"))]);
        let (targets, _) = targets(&r);
        let cfg = TriageConfig {
            replays: 5,
            budget: 100,
            timeout: Duration::from_secs(60),
        };
        let gradle = vec!["gradle".to_string()];
        let env = Env {
            project_dir: Path::new("."),
            gradle: &gradle,
            forcing: Forcing::CleanTask,
            extra_args: &[],
            base: Path::new("."),
            invocation_timeout: None,
            verbose: false,
        };
        let all = attach(
            &r,
            &targets[0],
            &[result(5, 5, &[]), result(5, 5, &[])],
            &cfg,
            &env,
        );
        assert_eq!(
            (
                all.verdict.map(|v| v.as_str()),
                all.replays,
                all.reproduced,
                all.partial
            ),
            (Some("seed-deterministic"), 10, 10, false)
        );
        assert_eq!(all.elapsed_sec, 3.0);
        assert_eq!(
            all.seeds[1].reproduce,
            "gradle :p:cleanTest :p:test --tests org.example.FooTests.testA -Dtests.seed=A:2"
        );
        let cut = attach(
            &r,
            &targets[0],
            &[
                result(5, 5, &[]),
                result(2, 1, &["2 of 5 replay(s) ran: budget"]),
            ],
            &cfg,
            &env,
        );
        assert_eq!(cut.verdict.map(|v| v.as_str()), Some("nondeterministic"));
        assert!(cut.partial);
        assert_eq!(cut.notes, ["seed A:2: 2 of 5 replay(s) ran: budget"]);
        let unreached = attach(&r, &targets[0], &[result(5, 5, &[])], &cfg, &env);
        assert!(unreached.partial && unreached.seeds.len() == 1);
    }

    #[test]
    fn each_triage_gets_a_folder_of_its_own() {
        let tmp = tempfile::tempdir().unwrap();
        let a = create_dir(tmp.path()).unwrap();
        let b = create_dir(tmp.path()).unwrap();
        assert!(a.ends_with("flakiness-triage/triage-1"), "{}", a.display());
        assert!(b.ends_with("flakiness-triage/triage-2"), "{}", b.display());
    }
}
