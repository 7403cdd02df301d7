//! `suspects`: what the ledger's runs say of each failing test, with
//! nothing re-run. Every ordinary build (`record`) ran each test once in its
//! task; gradle-flaky's own runs repeated some. Per test, the runs are
//! grouped by commit:
//! - `flaky`: it failed and passed on one commit (proven: the code was the
//!   same);
//! - `broken`: it failed in every run from a commit on (at least
//!   [`BROKEN_MIN_RUNS`] runs), naming that commit: not flaky;
//! - `intermittent`: it failed, but no commit has seen it both fail and
//!   pass yet.
//!
//! A run is one run id: lines of one run id, test and condition read twice
//! (a file copied, an artifact downloaded twice) count once. Triage's
//! replays, records of a working tree with changes (`dirty`) and records
//! without a commit are left out: none is a run of a commit.

mod read;
pub(crate) mod render;
mod runs;

pub(crate) use read::{Query, SuspectBuilder};

use super::history::{Seen, Sources};
use crate::analyze::model::clusters::Cluster;
use crate::stats;
use serde::Serialize;

/// Failing runs in a row, from the newest, that make a test `broken`:
/// fewer could be a flaky test's bad luck.
pub const BROKEN_MIN_RUNS: u64 = 3;
/// The fewest and most iterations a confirming command asks for.
pub const CONFIRM_MIN_ITERS: u64 = 10;
pub const CONFIRM_MAX_ITERS: u64 = 1_000;
/// The chance the confirming command sees a failure at the test's rate.
pub const CONFIRM_CONFIDENCE: f64 = 0.95;
/// Commits listed per test (`failedOn`, `flippedOn`), newest first.
pub const MAX_COMMITS_LISTED: usize = 20;

/// What the ledger says of the failing tests.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Suspects {
    /// Flaky first, then broken, then intermittent; most failing runs first.
    pub suspects: Vec<Suspect>,
    /// Tests that failed together in the same runs.
    pub clusters: Vec<Cluster>,
    /// Tests with runs (after the filters), failing or not.
    pub tests: u64,
    /// Distinct run ids read (after the filters).
    pub runs: u64,
    pub sources: Sources,
    /// Lines not counted, and why.
    pub left_out: LeftOut,
}

impl Suspects {
    /// A test is proven flaky.
    pub fn any_flaky(&self) -> bool {
        self.suspects.iter().any(|s| s.kind == Kind::Flaky)
    }
}

/// Lines read but not counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LeftOut {
    /// Of another branch than `--branch`.
    pub other_branch: u64,
    /// Older than `--since`.
    pub older: u64,
    /// Triage's replays of failing seeds.
    pub triage: u64,
    /// Of a working tree with changes, or without a commit.
    pub not_a_commit: u64,
    /// Lines of a run, test and condition already read.
    pub duplicates: u64,
}

impl LeftOut {
    fn merge(&mut self, o: LeftOut) {
        self.other_branch += o.other_branch;
        self.older += o.older;
        self.triage += o.triage;
        self.not_a_commit += o.not_a_commit;
        self.duplicates += o.duplicates;
    }
}

/// What a failing test is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// It failed and passed on the same commit.
    Flaky,
    /// It failed in every run since a commit.
    Broken,
    /// It failed on some commits, never beside a pass on the same one.
    Intermittent,
}

impl Kind {
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Flaky => "flaky",
            Kind::Broken => "broken",
            Kind::Intermittent => "intermittent",
        }
    }
}

/// Which test.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct TestName {
    pub class: String,
    pub method: String,
    /// Its task name(s), comma-separated.
    pub task: String,
}

impl TestName {
    /// `Class#method`, as `local` takes it.
    pub fn spec(&self) -> String {
        crate::test_filter::spec(&self.class, &self.method)
    }
}

/// One failing test and its evidence.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Suspect {
    pub test: TestName,
    pub kind: Kind,
    /// Executions that passed or failed, over every run counted.
    pub runs: u64,
    pub failures: u64,
    pub failure_rate: f64,
    /// Wilson 95% interval of the rate.
    pub ci95: [f64; 2],
    /// Run ids that ran it, and those where it failed.
    pub recorded_runs: u64,
    pub failing_runs: u64,
    /// Commits that ran it, and those where it failed.
    pub commits: u64,
    pub failing_commits: u64,
    /// Commits where it failed and passed, newest first (at most
    /// [`MAX_COMMITS_LISTED`]).
    pub flipped_on: Vec<String>,
    /// Commits where it failed, newest first (at most [`MAX_COMMITS_LISTED`]).
    pub failed_on: Vec<String>,
    /// `broken`: the commit of the first of the failing runs in a row, and
    /// how many.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub since: Option<Since>,
    /// The newest run where it passed, when there is one.
    pub last_passed: Option<Seen>,
    pub first_failing: Seen,
    pub last_failing: Seen,
    /// The signature its failures had most often.
    pub signature: Option<String>,
    /// The command that confirms it here: `gradle-flaky local --iters N
    /// TEST`, N enough to see a failure at its rate at
    /// [`CONFIRM_CONFIDENCE`].
    pub confirm: String,
    /// `flaky`: the `muted-tests.yml` entry that mutes it (Elasticsearch's
    /// format), its issue to fill in.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mute: Option<String>,
}

/// Where a run of failures began.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Since {
    pub commit: String,
    /// RFC 3339, UTC: the first failing run of the row.
    pub time: String,
    /// Failing runs in a row since, the newest included.
    pub runs: u64,
}

/// Iterations that see a failure of a test failing at `rate`, at
/// [`CONFIRM_CONFIDENCE`], within [`CONFIRM_MIN_ITERS`]..=[`CONFIRM_MAX_ITERS`].
pub fn iterations_for(rate: f64) -> u64 {
    let n = match rate {
        r if r >= 1.0 => 1,
        r if r <= 0.0 => CONFIRM_MAX_ITERS,
        r => stats::executions_for(r, CONFIRM_CONFIDENCE),
    };
    n.clamp(CONFIRM_MIN_ITERS, CONFIRM_MAX_ITERS)
}

/// The `muted-tests.yml` entry of `test`, as Elasticsearch writes them.
pub fn mute_entry(test: &TestName) -> String {
    let mut entry = format!("- class: {}\n", yaml_scalar(&test.class));
    if !test.method.is_empty() {
        entry += &format!("  method: {}\n", yaml_scalar(&test.method));
    }
    entry += "  issue: \"TODO: the issue's link\"\n";
    entry
}

/// A YAML scalar: as it is when it is plain (a class or method name), else
/// double-quoted with JSON's escapes, which YAML reads alike.
fn yaml_scalar(s: &str) -> String {
    let plain = !s.is_empty()
        && s.chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '.' | '_' | '$'))
        && !s.starts_with(|c: char| c.is_ascii_digit());
    match plain {
        true => s.to_string(),
        false => serde_json::to_string(s).expect("a string serializes"),
    }
}

#[cfg(test)]
pub(crate) mod tests;
