//! A test on two commits (`local --compare REF`): the `comparison` of each
//! test in the Report JSON, and what the report says of the run's
//! comparison as a whole (docs/src/concepts/comparisons.md). Plain data:
//! `crate::compare` fills it, the renderers show it.

use crate::stats::Verdict;
use serde::Serialize;

/// One side of a test's comparison: what one commit's runs counted.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Side {
    /// The commit that ran; `null` outside a git checkout.
    pub commit: Option<String>,
    /// The working tree had changes not committed (the after side only).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub dirty: bool,
    pub runs: u64,
    pub failures: u64,
    /// Where the counts come from: `run` (this run) or `ledger` (earlier
    /// runs of the commit in the same condition, not run again).
    pub from: CountsFrom,
}

/// Where a side's counts come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum CountsFrom {
    Run,
    Ledger,
}

/// A test before (on REF) and after (here).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Comparison {
    /// `null` when the test has no before: new in this branch, or REF's
    /// run gave it no result (`note` says which).
    pub before: Option<Side>,
    pub after: Side,
    /// One-sided Fisher p in the verdict's direction (two-sided for `same`);
    /// `null` without a before.
    pub p_value: Option<f64>,
    /// `fixed`, `not-shown`, `same` or `worse`; `null` without a before.
    pub verdict: Option<Verdict>,
    /// A `not-shown` whose rate is shown lower with failures left: the
    /// cause is narrowed, not removed.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub narrowed: bool,
    /// The p-value a fix had to be below: the threshold of the look it was
    /// judged at (the looks spend α = 0.05 in all).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fixed_below: Option<f64>,
    /// Shown fixed at this look before the last: its other runs were saved.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shown_at_look: Option<u32>,
    /// For `not-shown` without a failure here: the clean runs more that would
    /// show a fix (with these, at one look).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub more_clean_runs: Option<u64>,
    /// The clean runs here a fix needs at the before side's rate, looked
    /// at on this run's schedule: what `--size-after` runs; `null` when no
    /// number shows one (it never failed before).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub runs_to_show_fix: Option<u64>,
    /// Why there is no verdict.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// A test failing here that the ledger holds failing on the base branch
/// too ("known flaky on main: 8%, 40 runs"): a pull request is not to blame
/// for it. In the Report JSON's `knownFlaky`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct KnownFlaky {
    pub class: String,
    pub method: String,
    /// The base branch.
    pub branch: String,
    /// Its records on the branch, per condition, those that failed first.
    pub rates: Vec<KnownRate>,
}

/// A test's records on a branch in one condition.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct KnownRate {
    /// `alone, in-jvm, tests-iters`.
    pub condition: String,
    pub runs: u64,
    pub failures: u64,
    /// Runs of the branch they come from (ledger records).
    pub records: u64,
}

/// The run's comparison as a whole: the `comparison` of the Report JSON.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ComparedWith {
    /// REF as given (`main`, `origin/main`, a tag, a hash).
    pub reference: String,
    /// The commit it names.
    pub commit: String,
    /// This working tree's commit, and whether it had changes not committed.
    pub head: Option<String>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub dirty: bool,
    /// The looks of the after side (1: only at the end) and the α they spend.
    pub looks: u32,
    pub alpha: f64,
    /// Where REF's batches kept their reports and logs; `null` when every
    /// before came from the ledger.
    pub base_dir: Option<String>,
    /// The worktree REF ran in: the build's kept one
    /// (`.gradle/gradle-flaky/base/`), or one of the run's own.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub worktree: Option<String>,
    /// REF ran with this branch's muted-tests file (so an unmuted test runs there too).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub branch_muted_file: bool,
    /// Selected tests whose before came from the ledger, with how many runs.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub from_ledger: Vec<String>,
    /// Selected tests that do not exist on REF: no before.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub new_in_branch: Vec<String>,
    /// REF's batches without a clean result, one line each: their tests
    /// have no before (infrastructure, never a verdict).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub base_problems: Vec<String>,
}
