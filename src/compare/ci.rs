//! `--compare REF` on CI, the comparison's side of it (the jobs are
//! `ci::compare`'s): REF resolved and the selection restricted to the tests
//! that exist there, when the pipeline is planned; each test of the report
//! step's report judged against REF's jobs, by the rules of `local --compare`
//! at one look (CI jobs run their planned count).

use super::{base, before, judge};
use crate::analyze::model::comparison::ComparedWith;
use crate::analyze::model::report::TestReport;
use crate::analyze::rules::verdict;
use crate::analyze::Report;
use crate::ci::compare::{before_side, compared_with};
use crate::ci::findings::Findings;
use crate::ci::spec::ReportContext;
use crate::ci::spec::{BaseCheckout, CompareContext};
use crate::ci::status::JobRun;
use crate::domain::ClassifiedTest;
use crate::layout::Build;
use crate::ledger::{keep, Record, RunMeta};
use crate::{tell, Result};
use std::path::Path;

/// REF's side, as planned.
#[derive(Clone, Debug)]
pub(crate) struct BaseSelection {
    pub checkout: BaseCheckout,
    /// REF's branch name, when it names one.
    pub branch: Option<String>,
    /// The selected tests that exist on REF: its jobs run them.
    pub tests: Vec<ClassifiedTest>,
    /// The others, by name: no before.
    pub new_in_branch: Vec<String>,
}

/// `--compare REF`: REF's side and the batches its jobs run (the plan of
/// the selected tests that exist on REF).
#[derive(Clone, Debug)]
pub(crate) struct BaseBatches {
    pub side: BaseSelection,
    pub batches: Vec<crate::ci::spec::CiBatch>,
}

impl BaseBatches {
    /// What the report step is told of REF's side, with REF's jobs as it
    /// expects their status files.
    pub(crate) fn context(&self) -> CompareContext {
        let side = &self.side;
        CompareContext {
            reference: side.checkout.reference.clone(),
            commit: side.checkout.commit.clone(),
            branch: side.branch.clone(),
            jobs: crate::ci::compare::expected_jobs(self.batches.iter().map(|b| &b.command)),
            new_in_branch: side.new_in_branch.clone(),
        }
    }
}

/// The settings of a run compared with REF on CI: both sides run their
/// whole count, as `local --compare`'s (a failure proves flakiness, not
/// that a fix failed, and REF's rate needs its count).
pub(crate) fn whole_counts(
    settings: &crate::settings::RunSettings,
) -> crate::settings::RunSettings {
    crate::settings::RunSettings {
        stop_on_flaky: crate::settings::StopOnFlaky::Off,
        ..settings.clone()
    }
}

/// `--compare REF` on CI: REF resolved (exit 2 naming it when it names no
/// commit) and the plan of the selected tests that exist there, as `local
/// --compare` restricts it; `job_limit` is each job's limit, as the
/// branch's batches are planned.
pub(crate) fn base_batches(
    build: &Build,
    selection: &crate::select::Selection,
    settings: &crate::settings::RunSettings,
    (reference, muted): (&str, &Path),
    job_limit: Option<std::time::Duration>,
) -> Result<BaseBatches> {
    let side = base_selection(build, reference, Some(muted), &selection.tests)?;
    let on_ref = crate::select::Selection {
        tests: side.tests.clone(),
        ..selection.clone()
    };
    let batches = match on_ref.tests.is_empty() {
        true => Vec::new(),
        false => crate::ci::prepare::batches(build, &on_ref, settings, job_limit)?,
    };
    tell!(
        "compare: {} batch(es) also run on {} ({}), a job each",
        batches.len(),
        crate::terminal::visible(reference),
        &side.checkout.commit[..12]
    );
    Ok(BaseBatches { side, batches })
}

/// REF resolved in `build`'s repository (exit 2 naming it when it names no
/// commit), and the `tests` that exist there.
pub(crate) fn base_selection(
    build: &Build,
    reference: &str,
    muted_file: Option<&Path>,
    tests: &[ClassifiedTest],
) -> Result<BaseSelection> {
    let (repo, commit) = super::resolve(build, reference)?;
    let (there, new) = base::existing(&repo, commit, build, tests)?;
    let new_in_branch: Vec<String> = new.iter().map(crate::plan::test_name).collect();
    for t in &new_in_branch {
        tell!("compare: {t} is new in this branch: it has no before on {reference}");
    }
    Ok(BaseSelection {
        checkout: BaseCheckout {
            reference: reference.to_string(),
            commit: commit.to_string(),
            muted_file: muted_file.map(Path::to_path_buf),
        },
        branch: repo.branch_name_of(reference),
        tests: there,
        new_in_branch,
    })
}

/// Gives each test of `after` its comparison with REF's side `before`.
pub(crate) fn judge_report(after: &mut Report, before: &Report, compared: &ComparedWith) {
    let counts = before::from_run(before);
    let no_before = |t: &TestReport| no_before(t, compared);
    let ctx = judge::Judging {
        before: &counts,
        base_commit: &compared.commit,
        head: compared.head.as_deref(),
        dirty: false,
        looks: 1,
        no_before: &no_before,
    };
    for t in &mut after.tests {
        t.comparison = Some(judge::compare(t, None, &ctx));
    }
}

/// Why a test has no before on CI.
fn no_before(t: &TestReport, compared: &ComparedWith) -> String {
    let full = format!("{}#{}", t.class, t.method);
    let new = compared
        .new_in_branch
        .iter()
        .any(|n| *n == t.class || *n == full);
    if new {
        "new in this branch: it does not exist on REF".into()
    } else if !compared.base_problems.is_empty() {
        "REF's jobs gave it no result (see REF's jobs without a result): infrastructure, \
         not a verdict"
            .into()
    } else {
        "it did not run on REF (new there, or not run by REF's build)".into()
    }
}

/// REF's side judged into the report step's findings: each test of the
/// branch's report gets its comparison, the comparison section opens the
/// markdown, and REF's jobs without a result leave the verdict open
/// (infrastructure). Returns the comparison and REF's report.
pub(crate) fn judge_findings(
    found: &mut Findings,
    jobs: &[JobRun],
    compare: &CompareContext,
    context: &ReportContext,
    head: Option<String>,
) -> (ComparedWith, Report) {
    let (before, problems) = before_side(jobs, compare, context);
    for p in &problems {
        tell!("compare: {}", crate::terminal::visible(p));
    }
    let compared = compared_with(compare, head, problems);
    judge_report(&mut found.overall, &before, &compared);
    found.overall.around.comparison = Some(compared.clone());
    verdict::settle(&mut found.overall);
    (compared, before)
}

/// REF's runs for the ledger: its commit and branch, else the run's.
pub(crate) fn before_records(
    before: &Report,
    compare: &CompareContext,
    meta: &RunMeta,
) -> Vec<Record> {
    let meta = RunMeta {
        commit: Some(compare.commit.clone()),
        branch: compare.branch.clone(),
        ..meta.clone()
    };
    keep::ci_records(before, &meta)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::Verdict;

    fn row(class: &str, method: &str, failures: u64, runs: u64) -> TestReport {
        let mut t = crate::analyze::render::tests::test(class, method, runs - failures, failures);
        t.runs = runs;
        t
    }

    fn report(tests: Vec<TestReport>) -> Report {
        let mut r = crate::analyze::analyze_roots(&[], &Default::default());
        r.tests = tests;
        r
    }

    fn compared(problems: &[&str]) -> ComparedWith {
        let context = CompareContext {
            reference: "main".into(),
            commit: "c0".into(),
            new_in_branch: vec!["a.NewTests".into()],
            ..Default::default()
        };
        let problems = problems.iter().map(|p| p.to_string()).collect();
        crate::ci::compare::compared_with(&context, Some("c1".into()), problems)
    }

    /// One look at fixed counts: 12/40 then 0/40 is fixed; a test REF's
    /// jobs never ran has no verdict, and says why.
    #[test]
    fn each_test_is_judged_against_refs_jobs_at_one_look() {
        let before = report(vec![row("a.FooTests", "testX", 12, 40)]);
        let mut after = report(vec![
            row("a.FooTests", "testX", 0, 40),
            row("a.NewTests", "testN", 0, 40),
            row("a.GoneTests", "testG", 0, 40),
        ]);
        judge_report(&mut after, &before, &compared(&[]));
        let c = |i: usize| after.tests[i].comparison.clone().unwrap();
        assert_eq!(c(0).verdict, Some(Verdict::Fixed), "{:?}", c(0));
        assert_eq!(c(0).before.unwrap().commit.as_deref(), Some("c0"));
        assert_eq!(c(0).after.commit.as_deref(), Some("c1"));
        assert_eq!(c(1).verdict, None);
        assert!(c(1).note.unwrap().starts_with("new in this branch"));
        assert!(c(2).note.unwrap().starts_with("it did not run on REF"));

        let mut failed = report(vec![row("a.FooTests", "testX", 0, 40)]);
        judge_report(
            &mut failed,
            &report(vec![]),
            &compared(&["REF job x: infra_fail"]),
        );
        let c = failed.tests[0].comparison.clone().unwrap();
        assert_eq!(c.verdict, None, "REF without a result is never a verdict");
        assert!(c.note.unwrap().contains("infrastructure"));
    }
}
