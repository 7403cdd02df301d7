//! Keeping a run in the ledger: what the run does not know of itself (the
//! commit, the branch, whether the working tree had changes, the run's id,
//! where it ran), its records (the run's counts, and triage's replays apart),
//! and the append, which never costs the run its result: a ledger that
//! cannot be written is a warning.

use super::record::{Condition, Context, Origin, Record, Repetition, MAX_SEEDS};
use super::records::{bare_record, records_of, RunMeta};
use super::store::{append_to_dir, append_to_file, ci_file, local_dir, Limits};
use crate::analyze::Report;
use crate::domain::TestKind;
use crate::git::{Head, Repo};
use crate::{note, tell, warning};
use std::path::Path;
use std::time::SystemTime;

/// The condition of a run's tests when their plan does not name one: the
/// selected classes alone, in one test JVM.
pub(crate) const RUN_CONDITION: Condition = Condition {
    context: Context::Alone,
    repetition: Repetition::InJvm,
    mechanism: None,
    execution: None,
};

/// The HEAD of the checkout holding `dir`; `None` outside a git checkout
/// (the records then name no commit), with a note when git cannot tell.
pub(crate) fn head_of(dir: &Path) -> Option<Head> {
    let repo = Repo::discover(dir).ok()?;
    repo.head()
        .inspect_err(|e| note!("the ledger records no commit for this run: {e}"))
        .ok()
}

/// What a run on this machine in `dir` records besides its counts.
pub(crate) fn local_meta(dir: &Path, run_id: &str, origin: Origin) -> RunMeta {
    let head = head_of(dir);
    RunMeta {
        commit: head.as_ref().map(|h| h.commit.clone()),
        branch: head.as_ref().and_then(|h| h.branch.clone()),
        dirty: head.as_ref().is_some_and(|h| h.dirty),
        condition: RUN_CONDITION,
        run_id: run_id.to_string(),
        origin,
        time: SystemTime::now(),
    }
}

/// A run's records and its triage's, if it ran one: the triage's lines are
/// of the replays of each failing test (`where: triage`), apart from the
/// run's counts.
pub(crate) fn records_with_triage(report: &Report, meta: &RunMeta) -> Vec<Record> {
    let mut records = records_of(report, meta);
    records.extend(triage_records(report, meta));
    records
}

/// One record per test triage replayed: its replays (runs) and those that
/// failed again (failures), the seeds that did, in the condition the
/// replays ran in (a seed's replays in one test JVM, a test without seeds
/// alone, one Gradle run each).
pub(crate) fn triage_records(report: &Report, meta: &RunMeta) -> Vec<Record> {
    let time = humantime::format_rfc3339_seconds(meta.time).to_string();
    report
        .tests
        .iter()
        .filter_map(|t| Some((t, t.triage.as_ref().filter(|tr| tr.replays > 0)?)))
        .map(|(t, tr)| {
            let condition = match tr.seeds.is_empty() {
                true => Condition::fresh(Context::Alone),
                false => Condition {
                    mechanism: Some(crate::domain::InJvm::TestsIters),
                    ..RUN_CONDITION
                },
            };
            let counts = (tr.replays, tr.reproduced.min(tr.replays));
            let mut r = bare_record(t, meta, &time, condition, counts);
            r.failing_seeds = tr
                .seeds
                .iter()
                .filter(|s| s.reproduced > 0)
                .map(|s| s.seed.clone())
                .take(MAX_SEEDS)
                .collect();
            r.origin = Origin::Triage;
            r
        })
        .collect()
}

/// Appends `records` to the build's own ledger (below `project_dir`) and
/// says where; a ledger that cannot be written is a warning.
pub(crate) fn append_local(project_dir: &Path, records: &[Record]) {
    if records.is_empty() {
        return;
    }
    match append_to_dir(&local_dir(project_dir), records, Limits::LOCAL) {
        Ok(file) => tell!(
            "ledger: {} record(s) added to {}",
            records.len(),
            file.display()
        ),
        Err(e) => warning!("the run was not added to the ledger: {e}"),
    }
}

/// Appends `records` to the CI run's ledger file in `dir`
/// (`flakiness-ledger.jsonl`, the report step's artifact) and says so; a
/// file that cannot be written is a warning.
pub(crate) fn append_ci(dir: &Path, records: &[Record]) {
    if records.is_empty() {
        return;
    }
    let file = ci_file(dir);
    match append_to_file(&file, records) {
        Ok(()) => tell!(
            "ledger: {} record(s) written to {}",
            records.len(),
            file.display()
        ),
        Err(e) => warning!("the run's ledger was not written: {e}"),
    }
}

/// A CI run's records, each in the condition its executions were read in;
/// when they do not tell, a test of a kind that loops Gradle (REST suites)
/// ran once per Gradle run, in a fresh JVM, the others in one test JVM.
pub(crate) fn ci_records(report: &Report, meta: &RunMeta) -> Vec<Record> {
    let mut records = records_of(report, meta);
    for r in &mut records {
        if r.condition.repetition == Repetition::InJvm
            && r.condition.mechanism.is_none()
            && r.test.task.split(',').any(rest_task)
        {
            r.condition.repetition = Repetition::FreshJvm;
        }
    }
    records
}

/// A REST suite's Test task (`javaRestTest`, `yamlRestTest`,
/// `yamlRestCompatTest`), which CI repeats by looping Gradle.
fn rest_task(task: &str) -> bool {
    TestKind::parse(task).is_rest() || task.contains("RestTest") || task.contains("RestCompatTest")
}

/// What a CI's report step knows of its run, from the CI's variables.
pub(crate) struct CiRun {
    pub commit: Option<String>,
    pub branch: Option<String>,
    pub run_id: String,
    pub origin: Origin,
}

impl CiRun {
    /// Buildkite's build: `$BUILDKITE_COMMIT`, `$BUILDKITE_BRANCH`, `$BUILDKITE_BUILD_ID`.
    pub(crate) fn buildkite() -> CiRun {
        CiRun {
            commit: var("BUILDKITE_COMMIT").filter(|c| is_hash(c)),
            branch: var("BUILDKITE_BRANCH"),
            run_id: format!(
                "buildkite-{}",
                var("BUILDKITE_BUILD_ID").unwrap_or_else(|| crate::process::run_id().into())
            ),
            origin: Origin::Buildkite,
        }
    }

    /// GitHub Actions' run: `$GITHUB_SHA` (what the workflow checked out),
    /// the pull request's head branch or the ref's name, and the run's id
    /// and attempt.
    pub(crate) fn github() -> CiRun {
        let attempt = var("GITHUB_RUN_ATTEMPT").unwrap_or_else(|| "1".into());
        CiRun {
            commit: var("GITHUB_SHA").filter(|c| is_hash(c)),
            branch: var("GITHUB_HEAD_REF").or_else(|| var("GITHUB_REF_NAME")),
            run_id: match var("GITHUB_RUN_ID") {
                Some(id) => format!("github-{id}-{attempt}"),
                None => format!("github-{}", crate::process::run_id()),
            },
            origin: Origin::Github,
        }
    }

    pub(crate) fn meta(self) -> RunMeta {
        RunMeta {
            commit: self.commit,
            branch: self.branch,
            dirty: false,
            condition: RUN_CONDITION,
            run_id: self.run_id,
            origin: self.origin,
            time: SystemTime::now(),
        }
    }
}

/// What `record` is told of the build it records; each `None` is found
/// (from the CI's variables, else git).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Given {
    pub commit: Option<String>,
    pub branch: Option<String>,
    pub run_id: Option<String>,
}

/// An ordinary build's run, whose `reports` (absolute paths) `record` keeps:
/// its commit and branch as given, else the CI's (`$BUILDKITE_COMMIT`,
/// `$GITHUB_SHA`; `$BUILDKITE_BRANCH`, the pull request's head branch or
/// the ref's name), else the checkout's HEAD (and whether its tracked files
/// had changes); its run id as given, else the CI's job with the reports'
/// digest, else the digest alone (recording the same reports again gives
/// the same id); its time the newest report's. Every test ran once in its
/// whole task, in a test JVM of its own.
pub(crate) fn build_meta(
    project_dir: &Path,
    given: Given,
    reports: &[std::path::PathBuf],
) -> RunMeta {
    let (digest, newest) = reports_digest(reports);
    let ci = ci_origin();
    let head = || head_of(project_dir);
    let ci_commit = match ci {
        Origin::Buildkite => var("BUILDKITE_COMMIT"),
        Origin::Github => var("GITHUB_SHA"),
        _ => None,
    }
    .filter(|c| is_hash(c));
    let (commit, dirty) = match given.commit.or(ci_commit) {
        Some(c) => (Some(c), false),
        None => head().map_or((None, false), |h| (Some(h.commit), h.dirty)),
    };
    let ci_branch = match ci {
        Origin::Buildkite => var("BUILDKITE_BRANCH"),
        Origin::Github => var("GITHUB_HEAD_REF").or_else(|| var("GITHUB_REF_NAME")),
        _ => None,
    };
    let branch = given
        .branch
        .or(ci_branch)
        .or_else(|| head().and_then(|h| h.branch));
    let run_id = given.run_id.unwrap_or_else(|| match ci {
        Origin::Buildkite if var("BUILDKITE_JOB_ID").is_some() => {
            format!(
                "buildkite-job-{}",
                var("BUILDKITE_JOB_ID").unwrap_or_default()
            )
        }
        Origin::Github if var("GITHUB_RUN_ID").is_some() => format!(
            "github-{}-{}-{}-{}",
            var("GITHUB_RUN_ID").unwrap_or_default(),
            var("GITHUB_RUN_ATTEMPT").unwrap_or_else(|| "1".into()),
            var("GITHUB_JOB").unwrap_or_default(),
            &digest[..12]
        ),
        _ => format!("build-{}", &digest[..16]),
    });
    RunMeta {
        commit,
        branch,
        dirty,
        condition: Condition::fresh(Context::Task),
        run_id,
        origin: ci,
        time: newest.unwrap_or_else(SystemTime::now),
    }
}

/// Where this runs: Buildkite (`$BUILDKITE`), GitHub Actions
/// (`$GITHUB_ACTIONS`), else here.
pub(crate) fn ci_origin() -> Origin {
    if var("BUILDKITE").is_some() {
        Origin::Buildkite
    } else if var("GITHUB_ACTIONS").is_some() {
        Origin::Github
    } else {
        Origin::Local
    }
}

/// The SHA-256 (hex) of the reports' paths, sizes and modification times,
/// and the newest of those times: the same reports give the same digest, a
/// new build's reports another.
fn reports_digest(reports: &[std::path::PathBuf]) -> (String, Option<SystemTime>) {
    use sha2::{Digest, Sha256};
    let mut hash = Sha256::new();
    let mut newest: Option<SystemTime> = None;
    for path in reports {
        hash.update(path.as_os_str().as_encoded_bytes());
        if let Ok(meta) = std::fs::metadata(path) {
            hash.update(meta.len().to_le_bytes());
            if let Ok(modified) = meta.modified() {
                let since = modified
                    .duration_since(std::time::UNIX_EPOCH)
                    .unwrap_or_default();
                hash.update(since.as_nanos().to_le_bytes());
                newest = newest.max(Some(modified));
            }
        }
        hash.update([0]);
    }
    (crate::hex::encode(hash.finalize()), newest)
}

fn var(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.trim().is_empty())
}

/// A full or abbreviated commit hash (CI variables also say `HEAD`).
fn is_hash(s: &str) -> bool {
    s.len() >= 7 && s.bytes().all(|b| b.is_ascii_hexdigit())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyze::model::report::{SeedReplay, Triage, TriageVerdict};
    use crate::ledger::records::tests::{meta, recorded};

    #[test]
    fn triage_replays_are_records_of_their_own() {
        let (_dir, mut report) = recorded("flaky-unit", "test");
        let flaky = report
            .tests
            .iter_mut()
            .find(|t| t.method == "testFlakyAssertion")
            .unwrap();
        flaky.triage = Some(Triage {
            verdict: Some(TriageVerdict::Nondeterministic),
            replays: 10,
            reproduced: 4,
            seeds: vec![
                SeedReplay {
                    seed: "AB:CD".into(),
                    replays: 5,
                    reproduced: 4,
                    reproduce: String::new(),
                },
                SeedReplay {
                    seed: "AB:EF".into(),
                    replays: 5,
                    reproduced: 0,
                    reproduce: String::new(),
                },
            ],
            partial: false,
            notes: vec![],
            context: None,
            elapsed_sec: 1.0,
        });
        let records = records_with_triage(&report, &meta());
        assert_eq!(
            records.len(),
            11,
            "five tests, two positions each, one triage line"
        );
        let replays = records.last().unwrap();
        assert_eq!(replays.origin, Origin::Triage);
        assert_eq!((replays.runs, replays.failures), (10, 4));
        assert_eq!(replays.failing_seeds, ["AB:CD"]);
        assert_eq!(replays.condition.label(), "alone, in-jvm, tests-iters");
        assert!(records[..10].iter().all(|r| r.origin == Origin::Local));
    }

    #[test]
    fn a_ci_run_of_a_rest_suite_ran_in_fresh_jvms() {
        let mut meta = meta();
        meta.condition = RUN_CONDITION;
        let (_dir, mut report) = recorded("flaky-integ", "yamlRestTest");
        // Its XML holds each test ten times in one file (one JVM): the
        // executions' own condition stands.
        assert!(ci_records(&report, &meta)
            .iter()
            .all(|r| r.condition.repetition == Repetition::InJvm));
        // A report whose executions say nothing of their JVM: the REST task
        // tells.
        for t in &mut report.tests {
            t.by_condition.conditions.clear();
        }
        let records = ci_records(&report, &meta);
        assert!(!records.is_empty());
        assert!(records
            .iter()
            .all(|r| r.condition.repetition == Repetition::FreshJvm));
        let (_dir, report) = recorded("flaky-unit", "test");
        assert!(ci_records(&report, &meta)
            .iter()
            .all(|r| r.condition.repetition == Repetition::InJvm));
    }

    #[test]
    fn ci_commits_are_hashes() {
        assert!(is_hash("0123abc"));
        assert!(!is_hash("HEAD"));
        assert!(!is_hash("abc"));
    }
}
