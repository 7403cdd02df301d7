//! One test's runs judged: flaky, broken or intermittent (pure).

use super::{
    iterations_for, mute_entry, Kind, Since, Suspect, TestName, BROKEN_MIN_RUNS, MAX_COMMITS_LISTED,
};
use crate::ledger::history::{rfc3339, Seen};
use crate::shell;
use crate::stats;
use std::collections::HashMap;

/// One run of a test: its lines of one run id summed (each condition once).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct SuspectRun {
    pub run: u32,
    pub commit: u32,
    /// When the run ended (its newest line).
    pub secs: u64,
    pub runs: u64,
    pub failures: u64,
    /// The signature of its failure, by number.
    pub signature: Option<u32>,
}

impl SuspectRun {
    fn failed(&self) -> bool {
        self.failures > 0
    }

    fn passed(&self) -> bool {
        self.runs > self.failures
    }
}

/// The names a test's runs refer to by number.
pub(super) trait RunNames {
    fn commit(&self, id: u32) -> &str;
    fn signature(&self, id: u32) -> &str;
}

/// One commit's runs.
#[derive(Clone, Copy, Debug, Default)]
struct AtCommit {
    newest: u64,
    failed: bool,
    passed: bool,
}

/// The suspect `runs` (oldest first) make of `test`; `None` when it never failed.
pub(super) fn judge(test: TestName, runs: &[SuspectRun], names: &impl RunNames) -> Option<Suspect> {
    let failing: Vec<&SuspectRun> = runs.iter().filter(|r| r.failed()).collect();
    let (first, last) = (*failing.first()?, *failing.last()?);
    let executions: u64 = runs.iter().map(|r| r.runs).sum();
    let failures: u64 = runs.iter().map(|r| r.failures).sum();
    let mut commits: HashMap<u32, AtCommit> = HashMap::new();
    for r in runs {
        let at = commits.entry(r.commit).or_default();
        at.newest = at.newest.max(r.secs);
        at.failed |= r.failed();
        at.passed |= r.passed();
    }
    // Newest first, by their newest run.
    let newest_first = |keep: &dyn Fn(&AtCommit) -> bool| {
        let mut listed: Vec<(u64, &str)> = commits
            .iter()
            .filter(|(_, at)| keep(at))
            .map(|(c, at)| (at.newest, names.commit(*c)))
            .collect();
        listed.sort_by(|a, b| b.cmp(a));
        listed
    };
    let flipped = newest_first(&|at| at.failed && at.passed);
    let failed_on = newest_first(&|at| at.failed);
    let since = broken_since(runs, &commits, names);
    let kind = match (&since, flipped.is_empty()) {
        (Some(_), _) => Kind::Broken,
        (None, false) => Kind::Flaky,
        (None, true) => Kind::Intermittent,
    };
    let listed = |l: Vec<(u64, &str)>| {
        l.into_iter()
            .take(MAX_COMMITS_LISTED)
            .map(|(_, c)| c.to_string())
            .collect()
    };
    let [lo, hi] = stats::wilson95(failures, executions);
    let rate = stats::round6(failures as f64 / executions.max(1) as f64);
    let seen = |r: &SuspectRun| Seen {
        time: rfc3339(r.secs),
        commit: Some(names.commit(r.commit).to_string()),
    };
    Some(Suspect {
        confirm: format!(
            "gradle-flaky local --iters {} {}",
            iterations_for(rate),
            shell::quote(&test.spec())
        ),
        mute: (kind == Kind::Flaky).then(|| mute_entry(&test)),
        test,
        kind,
        runs: executions,
        failures,
        failure_rate: rate,
        ci95: [stats::round6(lo), stats::round6(hi)],
        recorded_runs: runs.len() as u64,
        failing_runs: failing.len() as u64,
        commits: commits.len() as u64,
        failing_commits: failed_on.len() as u64,
        flipped_on: listed(flipped),
        failed_on: listed(failed_on),
        since,
        last_passed: runs.iter().rev().find(|r| r.passed()).map(seen),
        first_failing: seen(first),
        last_failing: seen(last),
        signature: most_common(failing.iter().filter_map(|r| r.signature))
            .map(|s| names.signature(s).to_string()),
    })
}

/// The newest runs' row of failures without a pass, when it is at least
/// [`BROKEN_MIN_RUNS`] long and no commit of it passed in another run: the
/// commit it began on.
fn broken_since(
    runs: &[SuspectRun],
    commits: &HashMap<u32, AtCommit>,
    names: &impl RunNames,
) -> Option<Since> {
    let row = runs
        .iter()
        .rev()
        .take_while(|r| r.failed() && !r.passed())
        .count();
    if (row as u64) < BROKEN_MIN_RUNS {
        return None;
    }
    let row = &runs[runs.len() - row..];
    if row.iter().any(|r| commits[&r.commit].passed) {
        return None;
    }
    Some(Since {
        commit: names.commit(row[0].commit).to_string(),
        time: rfc3339(row[0].secs),
        runs: row.len() as u64,
    })
}

/// The value seen most often (the smallest of a tie).
fn most_common(values: impl Iterator<Item = u32>) -> Option<u32> {
    let mut counts: HashMap<u32, usize> = HashMap::new();
    for v in values {
        *counts.entry(v).or_default() += 1;
    }
    counts
        .into_iter()
        .max_by(|a, b| a.1.cmp(&b.1).then_with(|| b.0.cmp(&a.0)))
        .map(|(v, _)| v)
}
