//! `local --compare REF`: did a change fix a flaky test? The selected tests
//! run on REF and here, the same plan on both sides, and each test's counts
//! are compared with Fisher's exact test (docs/src/concepts/comparisons.md).
//!
//! REF's side runs first, through the same path as every local batch
//! (`local::run_batches`, the repetition engine), in a git worktree of REF
//! below the run folder (`flakiness-base/`), with the build's Gradle and
//! arguments, restricted to the tests that exist there; a test whose runs
//! on REF's commit the ledger already holds, in the same condition and at
//! least as many, is not run there again. Its counts size the working
//! tree's side (the runs a fix needs, offered, or run with `--size-after`)
//! and stop it early: a test shown fixed at one of the looks of
//! `plan::show_fix` leaves its batch. Then the working tree runs as `local`
//! runs (`local::execute_in`, `local::assess`), and each test of its report
//! gets its `comparison`.

pub(crate) mod base;
pub(crate) mod before;
pub(crate) mod ci;
mod judge;

use crate::analyze::model::comparison::ComparedWith;
use crate::analyze::model::report::TestReport;
use crate::analyze::rules::verdict;
use crate::analyze::Report;
use crate::domain::{ClassifiedTest, Unresolved};
use crate::git::{Head, Repo};
use crate::layout::Build;
use crate::ledger::{self, keep, Origin, Record, RunMeta};
use crate::local::{self, LocalOutcome, LocalRunConfig, Prepared, Reporter};
use crate::plan::show_fix::ALPHA;
use crate::reports::{self, BASE_DIR};
use crate::select::Selection;
use crate::settings::StopOnFlaky;
use crate::{note, tell, Error, Exit, Result};
use before::Before;
use git2::Oid;
use std::path::PathBuf;

pub(crate) use crate::plan::show_fix::DEFAULT_LOOKS;

/// The build's kept worktree of REF, below its `.gradle/gradle-flaky/`:
/// kept between comparisons, so that REF is compiled once and then only
/// what changes.
pub(crate) const BASE_WORKTREE: &str = "base";

/// What `--compare` asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompareConfig {
    /// REF as given.
    pub reference: String,
    /// Looks at the working tree's side (1: only at the end).
    pub looks: u32,
    /// Run the working tree's side as many times as a fix needs at REF's rate.
    pub size_after: bool,
    /// Ledgers besides the build's own (`--ledger`).
    pub ledgers: Vec<PathBuf>,
    /// The muted-tests file, relative to the build root.
    pub muted_file: PathBuf,
}

/// What a comparison came to.
#[derive(Debug)]
pub(crate) enum CompareOutcome {
    NothingSelected(Vec<Unresolved>),
    /// REF's side gave no result at all: nothing was compared, the working
    /// tree did not run (infrastructure, never a verdict).
    BaseFailed(Box<BaseFailed>),
    Ran(Box<Compared>),
}

/// REF's side, when it ran no test.
#[derive(Debug)]
pub(crate) struct BaseFailed {
    pub compared: ComparedWith,
    /// An empty report (nothing ran here), with the tests not checked.
    pub report: Report,
}

/// Both sides, compared.
#[derive(Debug)]
pub(crate) struct Compared {
    pub compared: ComparedWith,
    /// The working tree's run, each test of its report with its comparison.
    pub after: LocalOutcome,
    /// REF's side's ledger records (its run's, none from the ledger).
    pub before_records: Vec<Record>,
}

impl CompareOutcome {
    /// The exit status: the working tree's run's, as `local`'s (0 clean, 1
    /// a failure left); 3 when REF's side gave no result for some test and
    /// nothing failed here; 2 or 3 before anything ran are errors.
    pub(crate) fn exit(&self, kept: bool) -> Exit {
        match self {
            CompareOutcome::NothingSelected(n) => {
                LocalOutcome::NothingSelected(n.clone()).exit(kept)
            }
            CompareOutcome::BaseFailed(_) => Exit::Infra,
            CompareOutcome::Ran(c) => match c.after.exit(kept) {
                Exit::Clean if !c.compared.base_problems.is_empty() => Exit::Infra,
                exit => exit,
            },
        }
    }
}

/// Runs the selected tests of `build` on REF and here, and compares them.
/// Call `process::supervise` first, as for `local::run`.
pub(crate) fn run(
    build: &Build,
    selection: Selection,
    cfg: &LocalRunConfig,
    compare: &CompareConfig,
    reporter: &dyn Reporter,
) -> Result<CompareOutcome> {
    let (repo, commit) = resolve(build, &compare.reference)?;
    let head = repo.head().ok();
    let (tests, not_checked) = local::selected_tests(selection)?;
    if tests.is_empty() {
        return Ok(CompareOutcome::NothingSelected(not_checked));
    }
    // Both sides run their whole count: a failure proves flakiness, not
    // that a fix failed (10/100 then 1/100 is rarer), and REF's rate needs
    // its count.
    let mut cfg = cfg.clone();
    cfg.settings.stop_on_flaky = StopOnFlaky::Off;
    let mut prepared = local::prepare(build, &tests, &cfg)?;
    let mut compared = compared_with(compare, commit, head.as_ref());
    let reused = from_ledger(build, compare, &prepared, &mut compared)?;
    let (there, new) = on_ref(&repo, commit, build, &prepared, &reused.tests, compare)?;
    compared.new_in_branch = new.iter().map(crate::plan::test_name).collect();
    let invocations =
        |p: &Prepared| -> u32 { p.plan.commands.iter().map(|c| c.rest_loops()).sum() };
    let base_plan = (!there.is_empty())
        .then(|| local::plan_for(build, &there, &cfg).map(|p| p.0))
        .transpose()?;
    let total = invocations(&prepared) + base_plan.as_ref().map_or(0, invocations);
    let (run_dir, guard) = local::start(&build.root, cfg.isolate, total)?;
    let mut before: Before = reused.before;
    let mut before_records = Vec::new();
    if let Some(base_plan) = &base_plan {
        let side = RefSide {
            build,
            repo: &repo,
            commit,
            cfg: &cfg,
            compare,
        };
        let report = side.run(base_plan, &guard, &run_dir, &mut compared)?;
        before_records = side.records(&report, &run_dir);
        before.extend(before::from_run(&report));
        if report.summary.executions == 0 && before.is_empty() {
            return Ok(base_failed(compared, not_checked));
        }
    }
    size_and_look(&mut prepared, &before, &compared, compare);
    tell!("compare: now this working tree");
    let executed = local::execute_in(build, &prepared, &cfg, guard, run_dir)?;
    let mut after = local::assess(build, &prepared, executed, not_checked, &cfg, reporter);
    if let LocalOutcome::Ran(record) = &mut after {
        judge_after(record, &before, &compared, &new);
        record.report.around.comparison = Some(compared.clone());
        verdict::settle(&mut record.report);
    }
    Ok(CompareOutcome::Ran(Box::new(Compared {
        compared,
        after,
        before_records,
    })))
}

/// What the comparison is against, before anything ran.
fn compared_with(compare: &CompareConfig, commit: Oid, head: Option<&Head>) -> ComparedWith {
    ComparedWith {
        reference: compare.reference.clone(),
        commit: commit.to_string(),
        head: head.map(|h| h.commit.clone()),
        dirty: head.is_some_and(|h| h.dirty),
        looks: compare.looks.max(1),
        alpha: ALPHA,
        base_dir: None,
        worktree: None,
        branch_muted_file: false,
        from_ledger: Vec::new(),
        new_in_branch: Vec::new(),
        base_problems: Vec::new(),
    }
}

/// REF ran nothing and the ledger has nothing for it: there is no "before".
fn base_failed(compared: ComparedWith, not_checked: Vec<Unresolved>) -> CompareOutcome {
    let mut report = crate::analyze::analyze_roots(&[], &Default::default());
    report.around.not_checked = not_checked;
    report.around.comparison = Some(compared.clone());
    verdict::settle(&mut report);
    CompareOutcome::BaseFailed(Box::new(BaseFailed { compared, report }))
}

/// The build's repository and REF's commit in it (an input error naming
/// `--compare REF` when there is none).
fn resolve(build: &Build, reference: &str) -> Result<(Repo, Oid)> {
    let flag = || format!("--compare {reference}");
    let repo = Repo::discover(&build.root).map_err(|_| {
        Error::input(
            flag(),
            "the build is not in a git checkout: there is no REF to compare with",
        )
    })?;
    let commit = repo.commit(reference)?.ok_or_else(|| {
        Error::input(
            flag(),
            "names no commit in this repository (a branch, tag or commit; fetch it first?)",
        )
    })?;
    Ok((repo, commit))
}

/// REF's side as far as the ledger holds it (the build's own and
/// `--ledger`'s), said and kept in `compared`.
fn from_ledger(
    build: &Build,
    compare: &CompareConfig,
    prepared: &Prepared,
    compared: &mut ComparedWith,
) -> Result<before::FromLedger> {
    let mut ledgers: Vec<PathBuf> = vec![ledger::local_dir(&build.root)];
    ledgers.extend(compare.ledgers.iter().cloned());
    let ledgers: Vec<PathBuf> = ledgers.into_iter().filter(|p| p.exists()).collect();
    let files = ledger::read::files_of(&ledgers)?;
    let reused = before::from_ledger(&files, &compared.commit, &prepared.plan.commands);
    for line in &reused.lines {
        tell!("compare: REF's side from the ledger, not run again: {line}");
    }
    compared.from_ledger = reused.lines.clone();
    Ok(reused)
}

/// The planned tests REF still has to run, split into those that exist on
/// REF and those new in this branch (said).
fn on_ref(
    repo: &Repo,
    commit: Oid,
    build: &Build,
    prepared: &Prepared,
    reused: &[(usize, usize)],
    compare: &CompareConfig,
) -> Result<(Vec<ClassifiedTest>, Vec<ClassifiedTest>)> {
    let to_check: Vec<ClassifiedTest> = prepared
        .plan
        .commands
        .iter()
        .enumerate()
        .flat_map(|(b, c)| {
            c.tests
                .iter()
                .enumerate()
                .filter(move |(i, _)| !reused.contains(&(b, *i)))
                .map(|(_, t)| t.clone())
        })
        .collect();
    let (there, new) = base::existing(repo, commit, build, &to_check)?;
    for t in &new {
        tell!(
            "compare: {} is new in this branch: it has no before on {}",
            crate::plan::test_name(t),
            compare.reference
        );
    }
    Ok((there, new))
}

/// Where and how REF's side runs.
struct RefSide<'a> {
    build: &'a Build,
    repo: &'a Repo,
    commit: Oid,
    cfg: &'a LocalRunConfig,
    compare: &'a CompareConfig,
}

impl RefSide<'_> {
    /// Runs `plan` in a worktree of REF (the build's kept one when free)
    /// and returns its report; where it ran and its problems go to
    /// `compared`.
    fn run(
        &self,
        plan: &Prepared,
        guard: &crate::run::guard::RunGuard,
        run_dir: &std::path::Path,
        compared: &mut ComparedWith,
    ) -> Result<Report> {
        let base_dir = run_dir.join(BASE_DIR);
        std::fs::create_dir_all(&base_dir).map_err(|e| Error::io(&base_dir, e))?;
        compared.base_dir = Some(base_dir.display().to_string());
        let kept = reports::state_dir(&self.build.root).join(BASE_WORKTREE);
        let worktree = base::Worktree::for_run(
            self.repo.workdir(),
            self.commit,
            &kept,
            &base_dir.join("worktree"),
        )?;
        compared.worktree = Some(worktree.path().display().to_string());
        let base_root = base::build_root_in(worktree.path(), &self.build.root, self.repo.workdir());
        compared.branch_muted_file = crate::ci::compare::use_branch_muted_file(
            &self.build.root,
            &base_root,
            &self.compare.muted_file,
        );
        let commit = compared.commit.clone();
        tell!(
            "compare: {} batch(es) on {} ({}) first, in {}: {}",
            plan.plan.commands.len(),
            self.compare.reference,
            &commit[..12.min(commit.len())],
            match worktree.is_kept() {
                true => "the build's kept worktree of REF",
                false => "a worktree of its own",
            },
            worktree.path().display()
        );
        let (runs, _) = local::run_batches(&base_root, plan, self.cfg, guard, &base_dir)?;
        drop(worktree);
        let analyzed =
            local::analyze_runs(self.build, &base_root, plan, &runs, &base_dir, self.cfg);
        compared.base_problems = analyzed.problems.clone();
        for p in &analyzed.problems {
            tell!("compare: on {}: {p}", self.compare.reference);
        }
        Ok(analyzed.report)
    }

    /// REF's run as ledger records: REF's commit, never dirty.
    fn records(&self, report: &Report, run_dir: &std::path::Path) -> Vec<Record> {
        let meta = RunMeta {
            commit: Some(self.commit.to_string()),
            branch: self.repo.branch_name_of(&self.compare.reference),
            dirty: false,
            ..keep::local_meta(&self.build.root, &run_id(run_dir), Origin::Local)
        };
        ledger::records_of(report, &meta)
    }
}

/// The working tree's side, sized (`--size-after`) and looked at by the
/// comparison; the runs a fix needs offered.
fn size_and_look(
    prepared: &mut Prepared,
    before: &Before,
    compared: &ComparedWith,
    compare: &CompareConfig,
) {
    for (c, policy) in prepared
        .plan
        .commands
        .iter_mut()
        .zip(prepared.plan.policies.iter_mut())
    {
        if compare.size_after {
            if let Some(n) = judge::sized(c, before, compared.looks) {
                note!(
                    "compare: {} runs {n} time(s) here instead of {}: what a fix needs at \
                     REF's rate (--size-after)",
                    c.label,
                    c.executions()
                );
                resize(c, n);
            }
        }
        policy.show_fix = c
            .tests
            .iter()
            .map(|t| judge::rule(t, before, compared.looks))
            .collect();
    }
    offer(prepared, before, compared, compare);
}

/// Each test of the working tree's report with its comparison.
fn judge_after(
    record: &mut local::RunRecord,
    before: &Before,
    compared: &ComparedWith,
    new: &[ClassifiedTest],
) {
    let no_before = |t: &TestReport| no_before(t, new, &compared.base_problems);
    let ctx = judge::Judging {
        before,
        base_commit: &compared.commit,
        head: compared.head.as_deref(),
        dirty: compared.dirty,
        looks: compared.looks,
        no_before: &no_before,
    };
    let runs = &record.runs;
    for t in &mut record.report.tests {
        let place = judge::place_of(runs, &t.class, &t.method).map(|(b, i)| (&runs[b], i));
        t.comparison = Some(judge::compare(t, place, &ctx));
    }
}

/// A run folder's name: the run's id.
pub(crate) fn run_id(run_dir: &std::path::Path) -> String {
    run_dir
        .file_name()
        .unwrap_or_default()
        .to_string_lossy()
        .into_owned()
}

/// `command` with `n` executions of each test.
pub(crate) fn resize(command: &mut crate::domain::GradleCommand, n: u64) {
    let n = n.min(u64::from(u32::MAX)) as u32;
    command.invocation = match command.in_jvm() {
        Some(_) => command.invocation.with_iterations(n, None),
        None => command.invocation.with_runs(n),
    };
}

/// Says, for each test that failed on REF, the clean runs here a fix needs
/// at its rate when the plan runs fewer (offered: `--size-after` runs them).
fn offer(prepared: &Prepared, before: &Before, compared: &ComparedWith, compare: &CompareConfig) {
    for c in &prepared.plan.commands {
        for ((class, method), (counts, _)) in before.iter().filter(|(_, (c, _))| c.failures > 0) {
            if !c.tests.iter().any(|t| t.covers(class, method)) {
                continue;
            }
            match judge::runs_to_show_fix(*counts, compared.looks) {
                Some(n) if n > c.executions() => note!(
                    "compare: {class}#{method} failed {counts} on {}: a fix needs {n} clean \
                     run(s) here to show, and this run plans {}{}",
                    compare.reference,
                    c.executions(),
                    if compare.size_after {
                        ""
                    } else {
                        " (--size-after runs what it needs)"
                    }
                ),
                Some(_) => {}
                None => note!(
                    "compare: {class}#{method} failed {counts} on {}: no number of clean runs \
                     here shows a fix at that rate",
                    compare.reference
                ),
            }
        }
    }
}

/// Why a test of the working tree's report has no before.
fn no_before(t: &TestReport, new: &[ClassifiedTest], problems: &[String]) -> String {
    if new.iter().any(|n| n.covers(&t.class, &t.method)) {
        "new in this branch: it does not exist on REF".into()
    } else if !problems.is_empty() {
        "REF's run gave it no result (see the problems of REF's batches)".into()
    } else {
        "it did not run on REF (new there, or not run by REF's build)".into()
    }
}

/// Appends both sides' records to the build's ledger.
pub(crate) fn keep_in_ledger(root: &std::path::Path, compared: &Compared) {
    let mut records = compared.before_records.clone();
    if let LocalOutcome::Ran(ran) = &compared.after {
        let meta = keep::local_meta(root, &run_id(&ran.run_dir), Origin::Local);
        records.extend(keep::records_with_triage(&ran.report, &meta));
    }
    keep::append_local(root, &records);
}
