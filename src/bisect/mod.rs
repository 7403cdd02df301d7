//! `gradle-flaky bisect`: the commit that made a test flaky. The search
//! (`search`) walks the first-parent line from a good end to a bad end;
//! each point runs the test in the build's kept worktree of that commit (as
//! `--compare` runs REF), through the same plan and engine as `local`, its
//! runs first taken from the ledger where it already holds them in the same
//! condition, and every run measured is recorded there, so that `history`
//! shows the search and a second bisect reuses it.

pub(crate) mod render;
pub(crate) mod search;

use crate::compare::base::{build_root_in, Worktree};
use crate::compare::{self, before::condition_of};
use crate::domain::GradleCommand;
use crate::git::Repo;
use crate::layout::Build;
use crate::ledger::lookup::{self, LedgerScope};
use crate::ledger::{self, keep, Origin, RunMeta};
use crate::local::{self, LocalRunConfig, Prepared};
use crate::reports;
use crate::run::guard::RunGuard;
use crate::select::Selection;
use crate::settings::StopOnFlaky;
use crate::stats::Counts;
use crate::{tell, Error, Result};
use git2::Oid;
use search::{Measured, Probe, Rules, SearchOutcome};
use std::path::{Path, PathBuf};

/// The build's kept worktree the points run in, below its
/// `.gradle/gradle-flaky/` (compiled once, then only what changes).
const WORKTREE: &str = "bisect";

/// What `bisect` asks for.
#[derive(Clone, Debug, PartialEq)]
pub struct BisectConfig {
    /// The good end as given.
    pub good: String,
    /// The bad end as given.
    pub bad: String,
    /// The most runs at one point.
    pub max_runs: u64,
    /// The overall chance of a wrong answer.
    pub alpha: f64,
    /// Ledgers besides the build's own (`--ledger`).
    pub ledgers: Vec<PathBuf>,
}

/// A commit of the first-parent line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Point {
    pub commit: String,
    pub subject: String,
    pub author: String,
}

/// What a bisect found.
#[derive(Debug)]
pub(crate) struct Bisected {
    /// The test followed: `Class#method` as `local` takes it.
    pub test: String,
    pub good: String,
    pub bad: String,
    pub points: Vec<Point>,
    /// What each point's ledger held before the search.
    pub known: Vec<Counts>,
    pub outcome: SearchOutcome,
    pub rules: Rules,
    /// The condition every point ran in (`alone · in-jvm (tests.iters)`).
    pub condition: String,
    /// Gradle invocations run.
    pub invocations: u32,
    /// Where the points' reports are.
    pub run_dir: PathBuf,
    /// Why the search stopped before its end (a Ctrl-C, Gradle missing).
    pub stopped: Option<Error>,
}

/// Bisects the selected test (one test method) of `build` between the
/// config's ends. Call `process::supervise` first, as for `local::run`.
pub(crate) fn run(
    build: &Build,
    selection: Selection,
    cfg: &LocalRunConfig,
    bisect: &BisectConfig,
) -> Result<Bisected> {
    let repo = Repo::discover(&build.root)?;
    let (good, bad) = (end(&repo, &bisect.good)?, end(&repo, &bisect.bad)?);
    let line = repo.first_parent_line(good, bad).ok_or_else(|| {
        Error::input(
            format!("--good {}", bisect.good),
            format!(
                "is not on the first-parent line of --bad {} (bisect walks that line)",
                bisect.bad
            ),
        )
    })?;
    if line.len() < 2 {
        return Err(Error::input(
            "--good/--bad",
            "name the same commit: there is nothing between them",
        ));
    }
    let mut cfg = cfg.clone();
    // Each point runs its whole chunk: the search looks after each.
    cfg.settings.stop_on_flaky = StopOnFlaky::Off;
    let prepared = plan_one(build, selection, &cfg)?;
    let command = &prepared.plan.commands[0];
    let test = crate::plan::test_name(&command.tests[0]);
    let rules = Rules {
        alpha: bisect.alpha,
        max_runs: bisect.max_runs,
        chunk: command.executions().clamp(1, bisect.max_runs),
    };
    let points: Vec<Point> = line.iter().map(|c| point(&repo, *c)).collect();
    let known = known_counts(build, bisect, command, &points)?;
    let condition = condition_of(command).label();
    for (p, k) in points.iter().zip(&known).filter(|(_, k)| k.runs > 0) {
        tell!(
            "bisect: {} from the ledger, not run again: {} of {} failed",
            &p.commit[..12],
            k.failures,
            k.runs
        );
    }
    let (run_dir, guard) = local::start(&build.root, cfg.isolate, 2)?;
    let mut runner = Runner {
        build,
        repo: &repo,
        line: &line,
        prepared,
        cfg: &cfg,
        guard: &guard,
        run_dir: &run_dir,
        invocations: 0,
        stopped: None,
    };
    let outcome = search::search(known.clone(), rules, &mut runner);
    Ok(Bisected {
        test,
        good: bisect.good.clone(),
        bad: bisect.bad.clone(),
        points,
        known,
        outcome,
        rules,
        condition,
        invocations: runner.invocations,
        stopped: runner.stopped.take(),
        run_dir,
    })
}

/// The commit an end names.
fn end(repo: &Repo, name: &str) -> Result<Oid> {
    repo.commit(name)?.ok_or_else(|| {
        Error::input(
            name,
            "names no commit in this repository (a branch, tag or commit; fetch it first?)",
        )
    })
}

fn point(repo: &Repo, commit: Oid) -> Point {
    let (subject, author) = repo.subject_and_author(commit);
    Point {
        commit: commit.to_string(),
        subject,
        author,
    }
}

/// The plan of the one test method bisect follows.
fn plan_one(build: &Build, selection: Selection, cfg: &LocalRunConfig) -> Result<Prepared> {
    let (tests, not_checked) = local::selected_tests(selection)?;
    let one = |why: String| {
        Error::input(
            "TEST",
            format!("bisect follows one test method, named as Class#method: {why}"),
        )
    };
    match tests.as_slice() {
        [t] if t.method.is_some() => {}
        [] => {
            let why: Vec<String> = not_checked.iter().map(|u| u.reason.clone()).collect();
            return Err(one(format!("none can run here ({})", why.join("; "))));
        }
        [t] => return Err(one(format!("{} is a class", crate::plan::test_name(t)))),
        many => return Err(one(format!("{} tests were selected", many.len()))),
    }
    let (prepared, _) = local::plan_for(build, &tests, cfg)?;
    match prepared.plan.commands.len() {
        1 => Ok(prepared),
        n => Err(one(format!("its plan has {n} batches"))),
    }
}

/// What the ledgers hold of the test at each point, in the plan's condition.
fn known_counts(
    build: &Build,
    bisect: &BisectConfig,
    command: &GradleCommand,
    points: &[Point],
) -> Result<Vec<Counts>> {
    let mut dirs = vec![ledger::local_dir(&build.root)];
    dirs.extend(bisect.ledgers.iter().cloned());
    dirs.retain(|p| p.exists());
    let files = ledger::read::files_of(&dirs)?;
    let t = &command.tests[0];
    let key = (
        t.class.clone().unwrap_or_default(),
        t.method.clone().unwrap_or_default(),
    );
    let condition = condition_of(command);
    Ok(points
        .iter()
        .map(|p| {
            let classes = std::slice::from_ref(&key.0);
            lookup::pooled(&files, classes, LedgerScope::Commit(&p.commit))
                .tests
                .get(&key)
                .and_then(|cs| cs.iter().find(|(c, _)| *c == condition))
                .map_or(Counts::new(0, 0), |(_, t)| Counts::new(t.failures, t.runs))
        })
        .collect())
}

/// Runs the plan at a point: in the kept worktree of its commit, resized to
/// the runs the search asks for; each run recorded in the ledger.
struct Runner<'a> {
    build: &'a Build,
    repo: &'a Repo,
    line: &'a [Oid],
    prepared: Prepared,
    cfg: &'a LocalRunConfig,
    guard: &'a RunGuard,
    run_dir: &'a Path,
    invocations: u32,
    stopped: Option<Error>,
}

impl Probe for Runner<'_> {
    fn measure(&mut self, point: usize, runs: u64) -> Result<Measured> {
        // The error itself is kept for the exit status; the search keeps its text.
        self.run_at(point, runs).map_err(|e| {
            let said = Error::infra(e.to_string());
            self.stopped = Some(e);
            said
        })
    }
}

impl Runner<'_> {
    fn run_at(&mut self, point: usize, runs: u64) -> Result<Measured> {
        let commit = self.line[point];
        let hex = commit.to_string();
        let dir = self
            .run_dir
            .join(format!("{}-{}", &hex[..12], self.invocations));
        std::fs::create_dir_all(&dir).map_err(|e| Error::io(&dir, e))?;
        let kept = reports::state_dir(&self.build.root).join(WORKTREE);
        let worktree =
            Worktree::for_run(self.repo.workdir(), commit, &kept, &dir.join("worktree"))?;
        let root = build_root_in(worktree.path(), &self.build.root, self.repo.workdir());
        compare::resize(&mut self.prepared.plan.commands[0], runs);
        let plan = &self.prepared;
        tell!(
            "bisect: {} run(s) at {} in {}",
            runs,
            &hex[..12],
            root.display()
        );
        let (batches, _) = local::run_batches(&root, plan, self.cfg, self.guard, &dir)?;
        self.invocations += batches
            .iter()
            .map(|b| b.done.iterations.len() as u32)
            .sum::<u32>();
        drop(worktree);
        let analyzed = local::analyze_runs(self.build, &root, plan, &batches, &dir, self.cfg);
        let t = &plan.plan.commands[0].tests[0];
        let found = analyzed.report.tests.iter().find(|r| {
            Some(r.class.as_str()) == t.class.as_deref()
                && Some(r.method.as_str()) == t.method.as_deref()
        });
        let Some(found) = found.filter(|r| r.runs > 0) else {
            let why = analyzed.problems.first().cloned();
            let why = why.unwrap_or_else(|| "the test did not run there".into());
            return Ok(Measured::Skip(why));
        };
        let meta = RunMeta {
            commit: Some(hex),
            branch: None,
            dirty: false,
            // A point's folder name is its run id.
            ..keep::local_meta(&self.build.root, &compare::run_id(&dir), Origin::Local)
        };
        keep::append_local(
            &self.build.root,
            &ledger::records_of(&analyzed.report, &meta),
        );
        Ok(Measured::Ran(Counts::new(found.failures, found.runs)))
    }
}
