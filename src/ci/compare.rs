//! `--compare REF` on CI: each batch also runs on REF, in a job of its own.
//!
//! The upload resolves REF to its commit (an unknown REF is exit 2 there,
//! before anything is uploaded) and plans REF's batches: the same plan
//! restricted to the tests that exist on REF (`compare::ci`). Each REF job
//! gets its batch's [`super::spec::JobSpec`] with a [`BaseCheckout`]: the
//! job makes a git worktree of REF's commit inside its checkout
//! (`flakiness-base/worktree`, fetched by hash when missing), runs the batch
//! there, and leaves its status and reports under `flakiness-base/`, so the
//! report step tells the two sides apart. REF travels as data (JSON in the
//! job's environment or plan file, git's argv): never through a shell.
//!
//! The report step reads both sides and judges each test with the rules of
//! `local --compare` at one look (CI runs fixed counts, no early stop). A
//! REF job without a result is infrastructure: its tests get no verdict.

use super::findings::{has_result, job_payload};
use super::missing::missing_jobs;
use super::reading::Reading;
use super::spec::{BaseCheckout, CompareContext, ExpectedStep, ReportContext};
use super::status::JobRun;
use super::status::Status;
use crate::analyze::model::comparison::ComparedWith;
use crate::analyze::Report;
use crate::{say, tell, warning, Error, Result};
use serde::Serialize;
use std::path::{Path, PathBuf};

/// Where a REF job keeps its worktree, its reports and its status file,
/// relative to its checkout.
pub(crate) const WORKTREE: &str = "flakiness-base/worktree";
pub(crate) const STATUS_DIR: &str = "flakiness-base/status";
pub(crate) const STATUS_GLOB: &str = "flakiness-base/status/*.json";
pub(crate) const XML_GLOB: &str = "flakiness-base/worktree/**/build/test-results/**/TEST-*.xml";
/// Where the report step puts each REF job's reports (`<dir>/<job id>/`).
pub(crate) const JOBS_DIR: &str = "flakiness-base-jobs";
/// The report step's Report JSON, each test with its `comparison`.
pub(crate) const COMPARISON_FILE: &str = "flakiness-comparison.json";

/// A REF job's step key: its kind's, in the `flakiness-base:` namespace
/// (Elasticsearch's metrics count `flakiness-detection:*` keys as the branch's batches).
pub(crate) fn step_key(key: &str) -> String {
    let kind = key.rsplit(':').next().unwrap_or(key);
    format!("flakiness-base:{kind}")
}

/// REF's jobs of `commands` (REF's batches), as the report step expects
/// their status files: the branch's steps in the `flakiness-base:` namespace.
pub(crate) fn expected_jobs<'a>(
    commands: impl IntoIterator<Item = &'a crate::domain::GradleCommand>,
) -> Vec<ExpectedStep> {
    let mut jobs = super::spec::expected_steps(commands);
    for j in &mut jobs {
        j.step_key = step_key(&j.step_key);
        j.label = format!("{} on REF", j.label);
    }
    jobs
}

/// Readies a batch job's `spec` where it runs: a REF job's batch (one with a
/// [`BaseCheckout`]) runs in REF's worktree, made in the job's checkout (this
/// process's directory). Returns where its status goes: [`STATUS_DIR`] for
/// a REF job, kept apart so that the report tells the sides apart; `None`
/// for a job of the branch.
pub(crate) fn enter(spec: &mut super::spec::JobSpec) -> Result<Option<&'static str>> {
    let Some(base) = &spec.base else {
        return Ok(None);
    };
    spec.dir = Some(checkout(base, spec.dir.as_deref(), Path::new("."))?);
    Ok(Some(STATUS_DIR))
}

/// Makes REF's worktree in the job's checkout `here` and returns the
/// build's directory in it, relative to `here`; `dir` is the build's
/// directory in the checkout. The commit is fetched by hash from `origin`
/// when the checkout lacks it (a shallow clone).
pub(crate) fn checkout(base: &BaseCheckout, dir: Option<&Path>, here: &Path) -> Result<PathBuf> {
    // SHA-1 repositories name commits in 40 hex digits, SHA-256 ones in 64.
    let hash = matches!(base.commit.len(), 40 | 64);
    if !hash || !base.commit.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(Error::input(
            "the REF job's batch",
            format!("{:?} is no commit hash", base.commit),
        ));
    }
    let worktree = Path::new(WORKTREE);
    let object = format!("{}^{{commit}}", base.commit);
    if git(here, &["cat-file", "-e", &object]).is_err() {
        say!(
            ">>> fetching {} ({}) from origin",
            base.commit,
            crate::terminal::visible(&base.reference)
        );
        git(
            here,
            &["fetch", "--quiet", "--no-tags", "origin", &base.commit],
        )?;
    }
    if here.join(worktree).exists() {
        let _ = std::fs::remove_dir_all(here.join(worktree));
        let _ = git(here, &["worktree", "prune"]);
    }
    let path = worktree.to_string_lossy();
    let add = [
        "worktree",
        "add",
        "--detach",
        "--quiet",
        &path,
        &base.commit,
    ];
    git(here, &add)?;
    let root = dir.map_or(worktree.to_path_buf(), |d| worktree.join(d));
    if let Some(muted) = &base.muted_file {
        let build_here = dir.map_or(here.to_path_buf(), |d| here.join(d));
        use_branch_muted_file(&build_here, &here.join(&root), muted);
    }
    say!(
        ">>> REF {} ({}) checked out in {}",
        crate::terminal::visible(&base.reference),
        &base.commit[..12],
        worktree.display()
    );
    Ok(root)
}

/// Copies the branch's muted-tests file (`muted`, relative to the build
/// root) over REF's, so that a test this branch unmutes runs there too;
/// true when REF's differed (and so was replaced).
pub(crate) fn use_branch_muted_file(build_root: &Path, base_root: &Path, muted: &Path) -> bool {
    let ours = build_root.join(muted);
    let Ok(text) = std::fs::read(&ours) else {
        return false;
    };
    let theirs = base_root.join(muted);
    if std::fs::read(&theirs).is_ok_and(|t| t == text) {
        return false;
    }
    let written = theirs
        .parent()
        .map_or(Ok(()), std::fs::create_dir_all)
        .and_then(|()| std::fs::write(&theirs, &text));
    match written {
        Ok(()) => {
            tell!(
                "compare: REF runs with this branch's {} (so that an unmuted test runs there too)",
                muted.display()
            );
            true
        }
        Err(e) => {
            warning!("REF keeps its own {}: {e}", theirs.display());
            false
        }
    }
}

/// `git ARGS` in `dir`; its error output when it fails.
fn git(dir: &Path, args: &[&str]) -> Result<()> {
    crate::git::run_program(dir, args, "a REF job needs")
}

/// The folder of a REF job's reports as downloaded below `jobs_dir/<id>/`:
/// the worktree, the build's tree.
pub(crate) fn reports_root(job_dir: &Path) -> PathBuf {
    job_dir.join(WORKTREE)
}

/// REF's side as its jobs left it: the report of every REF job's XML
/// together, and one line per job without a result (missing, or ended
/// without a trustworthy outcome).
pub(crate) fn before_side(
    jobs: &[JobRun],
    compare: &CompareContext,
    context: &ReportContext,
) -> (Report, Vec<String>) {
    let reading = Reading::new(jobs, &compare.jobs, context);
    let mut problems = Vec::new();
    for job in jobs {
        let payload = job_payload(&job.status, &reading.job(job));
        let trusted = has_result(payload.outcome) && !payload.partly_skipped();
        if !trusted {
            problems.push(format!(
                "REF job {} ({}): {}, rc {}",
                job.status.job_id,
                job.status.step_key,
                payload.outcome.as_str(),
                job.status.rc
            ));
        }
    }
    let statuses: Vec<Status> = jobs.iter().map(|j| j.status.clone()).collect();
    for m in missing_jobs(&compare.jobs, &statuses) {
        problems.push(format!(
            "REF job {} of {} of {} left no status file",
            m.job, m.of, m.step_key
        ));
    }
    (reading.all(jobs), problems)
}

/// The comparison as a whole, for the report.
pub(crate) fn compared_with(
    compare: &CompareContext,
    head: Option<String>,
    problems: Vec<String>,
) -> ComparedWith {
    ComparedWith {
        reference: compare.reference.clone(),
        commit: compare.commit.clone(),
        head,
        dirty: false,
        looks: 1,
        alpha: crate::plan::show_fix::ALPHA,
        // REF's jobs keep their reports under `flakiness-base/` (their artifacts).
        base_dir: Some("flakiness-base/".into()),
        worktree: Some(WORKTREE.into()),
        branch_muted_file: false,
        from_ledger: Vec::new(),
        new_in_branch: compare.new_in_branch.clone(),
        base_problems: problems,
    }
}

/// The Report JSON with the comparison as a whole first.
#[derive(Serialize)]
struct ComparisonReport<'a> {
    comparison: &'a ComparedWith,
    #[serde(flatten)]
    report: &'a Report,
}

/// Writes [`COMPARISON_FILE`] in `dir`.
pub(crate) fn write_report(dir: &Path, report: &Report, compared: &ComparedWith) -> Result<()> {
    let path = dir.join(COMPARISON_FILE);
    let json = serde_json::to_string_pretty(&ComparisonReport {
        comparison: compared,
        report,
    })
    .expect("a report serializes");
    std::fs::write(&path, json).map_err(|e| Error::io(&path, e))
}

/// The REF jobs' status files below `dir` (their [`STATUS_DIR`]).
pub(crate) fn statuses(dir: &Path) -> Vec<Status> {
    super::status::read_statuses(&dir.join(STATUS_DIR))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ref_jobs_key_keeps_its_kind_out_of_the_branchs_namespace() {
        assert_eq!(
            step_key("flakiness-detection:java-rest"),
            "flakiness-base:java-rest"
        );
    }

    /// REF's jobs that left no status file, or no trustworthy result, are
    /// problems (infrastructure), never an empty before that reads as clean.
    #[test]
    fn refs_jobs_without_a_result_are_problems() {
        let compare = CompareContext {
            reference: "main".into(),
            commit: "c0".into(),
            jobs: vec![ExpectedStep {
                step_key: "flakiness-base:unit".into(),
                kind: "unit".into(),
                label: "unit tests on REF".into(),
                jobs: 2,
                iterations: 0,
                whole_task: false,
                selected: vec![],
                runs: vec![],
                repeated_by: vec![],
            }],
            ..Default::default()
        };
        let empty = tempfile::tempdir().unwrap();
        let failed = JobRun {
            status: Status {
                job_id: "j1".into(),
                step_key: "flakiness-base:unit".into(),
                kind: None,
                rc: 1,
                duration_sec: 3,
                infra_subtype: None,
                timeout_sec: None,
                cancelled: false,
                parallel_job: Some(0),
                skipped_tasks: Vec::new(),
                all_tasks_skipped: false,
                inherited_jvm_options: Vec::new(),
                engine: None,
            },
            dir: empty.path().to_path_buf(),
        };
        let (before, problems) = before_side(&[failed], &compare, &ReportContext::default());
        assert_eq!(before.summary.executions, 0);
        assert_eq!(problems.len(), 2, "{problems:?}");
        assert!(problems[0].starts_with("REF job j1 (flakiness-base:unit): infra_fail, rc 1"));
        assert_eq!(
            problems[1],
            "REF job 2 of 2 of flakiness-base:unit left no status file"
        );
    }

    use crate::git::tests::git as git_in;

    /// A shallow checkout of the branch lacks REF's commit: the REF job
    /// fetches it by hash, checks it out as a worktree inside the checkout,
    /// and REF runs with the branch's muted-tests file.
    #[test]
    fn a_ref_job_fetches_refs_commit_and_checks_it_out_in_its_checkout() {
        let origin = tempfile::tempdir().unwrap();
        let o = origin.path();
        git_in(o, &["init", "-q", "-b", "main"]);
        std::fs::create_dir_all(o.join("b")).unwrap();
        std::fs::write(o.join("b/muted.yml"), "tests: [a]\n").unwrap();
        std::fs::write(o.join("b/A.java"), "before\n").unwrap();
        git_in(o, &["add", "-A"]);
        git_in(o, &["commit", "-qm", "main"]);
        let main = git_in(o, &["rev-parse", "HEAD"]);
        git_in(o, &["checkout", "-qb", "fix"]);
        std::fs::write(o.join("b/muted.yml"), "tests: []\n").unwrap();
        std::fs::write(o.join("b/A.java"), "after\n").unwrap();
        git_in(o, &["commit", "-qam", "fix"]);
        git_in(o, &["config", "uploadpack.allowAnySHA1InWant", "true"]);
        let job = tempfile::tempdir().unwrap();
        let url = format!("file://{}", o.display());
        git_in(
            job.path(),
            &["clone", "-q", "--depth", "1", "--branch", "fix", &url, "c"],
        );
        let here = job.path().join("c");
        let object = format!("{main}^{{commit}}");
        assert!(git(&here, &["cat-file", "-e", &object]).is_err(), "shallow");
        let base = BaseCheckout {
            reference: "main".into(),
            commit: main.clone(),
            muted_file: Some("muted.yml".into()),
        };
        let root = checkout(&base, Some(Path::new("b")), &here).unwrap();
        assert_eq!(root, Path::new(WORKTREE).join("b"));
        let at = |f: &str| std::fs::read_to_string(here.join(&root).join(f)).unwrap();
        assert_eq!(at("A.java"), "before\n");
        assert_eq!(at("muted.yml"), "tests: []\n", "the branch's muted tests");
        assert_eq!(git_in(&here.join(WORKTREE), &["rev-parse", "HEAD"]), main);
        // A retried job finds its old worktree and makes it again.
        assert!(checkout(&base, Some(Path::new("b")), &here).is_ok());
    }

    #[test]
    fn a_ref_job_refuses_anything_but_a_commit_hash() {
        let base = BaseCheckout {
            reference: "$(touch pwned)".into(),
            commit: "$(touch pwned)".into(),
            muted_file: None,
        };
        let err = checkout(&base, None, Path::new(".")).unwrap_err();
        assert!(err.to_string().contains("is no commit hash"), "{err}");
    }
}
