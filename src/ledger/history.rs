//! A test's history from ledger records: pooled counts with their interval,
//! the newest (commit, condition) rows, when it was first and last seen
//! failing, its trend, and its newest commit against what came before it:
//! the rows of its first-parent ancestors ([`super::ancestry`]), never a
//! sibling branch's.
//!
//! Memory is bounded by the tests, not the records: each test keeps at most
//! [`ROWS_PER_TEST`] rows, the newest by their last record; a row pushed out
//! joins the test's `earlier` counts (its pooled counts less its rows'), and
//! so do later records of rows older than one pushed out. Pooled counts are
//! always exact.

use super::ancestry::{Lineage, Query, Unplaced};
use super::read::{LedgerRead, Problem};
use super::record::{Condition, LineView, Origin};
use super::Fast;
use crate::condition::Position;
pub use crate::stats::Verdict;
use crate::stats::{self, Counts};
use crate::test_filter;
use names::{test_key, Names, Renumbering};
use rayon::prelude::*;
use serde::Serialize;
use std::collections::hash_map::Entry;
use std::collections::{BTreeSet, HashMap};
use std::time::{Duration, UNIX_EPOCH};

/// Rows kept per test (the table and the trend).
pub(crate) const ROWS_PER_TEST: usize = 30;
/// Rows a test's vector grows to by doubling; past them it makes room for
/// [`ROWS_PER_TEST`].
const ROWS_EXPECTED: usize = 4;
/// The level of the newest commit's comparison, one look, one-sided.
pub(crate) const ALPHA: f64 = 0.05;
/// A time ratio the report calls slower (the drift rule of one JVM's
/// iterations, applied to commits).
pub(crate) const SLOWER: f64 = stats::DRIFT_RATIO;
/// Rows a trend needs before the Mann–Kendall test is read.
pub(crate) const TREND_MIN_ROWS: usize = 4;

pub(super) mod names;

/// Which tests to keep: a class (its nested classes too), or a class and method.
#[derive(Clone, Debug, Default)]
pub struct Filter {
    tests: Vec<(String, Option<String>)>,
}

impl Filter {
    /// `tests` as (class, method); none keeps every test.
    pub fn new(tests: Vec<(String, Option<String>)>) -> Filter {
        Filter { tests }
    }

    /// What every line of an accepted test holds, one per class asked for:
    /// a line that holds none is another test's and need not be parsed.
    /// None when every test is asked for, or when a name has a character
    /// JSON escapes (the line would not hold it as it is).
    pub fn needles(&self) -> Vec<memchr::memmem::Finder<'_>> {
        let plain = |c: &str| {
            !c.chars()
                .any(|ch| ch == '"' || ch == '\\' || ch.is_control())
        };
        if self.tests.iter().all(|(c, _)| plain(c)) {
            self.tests
                .iter()
                .map(|(c, _)| memchr::memmem::Finder::new(c.as_bytes()))
                .collect()
        } else {
            Vec::new()
        }
    }

    pub fn accepts(&self, class: &str, method: &str) -> bool {
        self.tests.is_empty()
            || self
                .tests
                .iter()
                .any(|(c, m)| test_filter::covers(c, m.as_deref(), true, class, method))
    }
}

/// Runs, failures and records of some records, and of them the first
/// executions in a JVM that the records kept apart (CI runs first executions).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Tally {
    pub runs: u64,
    pub failures: u64,
    /// Runs recorded: a run's repeats in a JVM, on a line of their own
    /// beside its first executions, are not another record.
    pub records: u64,
    pub first_runs: u64,
    pub first_failures: u64,
}

impl Tally {
    /// The counts of one ledger line.
    fn of(record: &LineView<'_>) -> Tally {
        let (runs, failures) = (record.runs, record.failures);
        let first = record.condition.is_first();
        Tally {
            runs,
            failures,
            records: u64::from(record.condition.execution != Some(Position::Repeat)),
            first_runs: if first { runs } else { 0 },
            first_failures: if first { failures } else { 0 },
        }
    }

    fn merge(&mut self, other: Tally) {
        self.runs += other.runs;
        self.failures += other.failures;
        self.records += other.records;
        self.first_runs += other.first_runs;
        self.first_failures += other.first_failures;
    }

    fn counts(self) -> Counts {
        Counts::new(self.failures, self.runs)
    }

    fn minus(self, other: Tally) -> Tally {
        Tally {
            runs: self.runs.saturating_sub(other.runs),
            failures: self.failures.saturating_sub(other.failures),
            records: self.records.saturating_sub(other.records),
            first_runs: self.first_runs.saturating_sub(other.first_runs),
            first_failures: self.first_failures.saturating_sub(other.first_failures),
        }
    }
}

/// A record that failed: when, on which commit.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Seen {
    /// RFC 3339, UTC.
    pub time: String,
    pub commit: Option<String>,
}

/// [`Seen`] while reading: the time as seconds.
#[derive(Clone, Debug, PartialEq, Eq)]
struct SeenAt {
    secs: u64,
    commit: Option<String>,
}

/// The records of one commit in one condition.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Row {
    pub commit: Option<String>,
    /// Its records ran with changes not committed (`dirty` records): a row
    /// of their own, never pooled with the commit's.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub dirty: bool,
    /// The branch of its newest record.
    pub branch: Option<String>,
    pub condition: Condition,
    #[serde(flatten)]
    pub tally: Tally,
    pub failure_rate: f64,
    /// The median execution time of its newest record that gave one.
    pub median_sec: Option<f64>,
    /// Its oldest and newest records' times (RFC 3339, UTC).
    pub first_time: String,
    pub last_time: String,
}

/// A [`Row`] while records are read: its commit, branch and condition by
/// their numbers in the summary's [`Names`], so that a record costs no copy
/// of a string and a row fits in a cache line or two.
#[derive(Clone, Copy, Debug)]
struct RowAcc {
    /// [`row_id`] of its commit and condition.
    id: u64,
    commit: Option<u32>,
    dirty: bool,
    cond: u32,
    branch: Option<u32>,
    tally: Tally,
    median_sec: Option<f64>,
    first: u64,
    last: u64,
}

/// A row's commit (and whether it was dirty) and condition, as one number.
fn row_id(commit: Option<u32>, dirty: bool, cond: u32) -> u64 {
    let commit = commit.map_or(0, |c| u64::from(c) + 1);
    (commit << 32) | (u64::from(cond) << 1) | u64::from(dirty)
}

/// One test's records so far. Rows and conditions are few: kept in
/// vectors, found by comparing numbers, so that a record costs no allocation.
#[derive(Clone, Debug, Default)]
struct HistoryAcc {
    /// Its tasks' numbers.
    tasks: Vec<u32>,
    total: Tally,
    rows: Vec<RowAcc>,
    /// Each row's id and last record, in the order of `rows`: the rows a
    /// record is looked up in and the oldest found, in a few cache lines.
    index: Vec<(u64, u64)>,
    /// The newest last record of a row pushed out: records of absent rows
    /// this old or older are only in `total` (the earlier records: `total`
    /// less the rows', counted when the history is finished, so that a row
    /// pushed out is overwritten without being read).
    cutoff: Option<u64>,
    first_failing: Option<SeenAt>,
    last_failing: Option<SeenAt>,
    /// Triage's replays (`where: triage`): failing seeds replayed, so no
    /// failure rate; kept apart from every count above.
    replays: Tally,
}

/// Records summarized per test as they are read; [`merge`](Self::merge)
/// joins the builders of files read apart.
#[derive(Debug, Default)]
pub(crate) struct Builder {
    filter: Filter,
    /// Its tests by [`test_key`]: found by comparing numbers (names are
    /// compared in the small tables of class and method names only).
    tests: HashMap<u64, HistoryAcc, Fast>,
    names: Names,
    sources: Sources,
}

/// What was read.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Sources {
    /// Ledger files read.
    pub files: u64,
    /// Records read (of every test, kept or not).
    pub records: u64,
    /// Lines not read because they do not name a class asked for.
    pub other_lines: u64,
    /// Lines skipped: torn, of an unknown schema, or not records.
    pub skipped_lines: u64,
    /// The first few of each file, naming file and line.
    #[serde(skip)]
    pub problems: Vec<Problem>,
}

impl Builder {
    pub(crate) fn new(filter: Filter) -> Builder {
        Builder {
            filter,
            ..Builder::default()
        }
    }

    /// Drops the commits and branches no row names any more, and renumbers
    /// the rows' (their ids change with them).
    fn compact(&mut self) {
        let mut commits = vec![false; self.names.commits.len()];
        let mut branches = vec![false; self.names.branches.len()];
        for row in self.tests.values().flat_map(|acc| &acc.rows) {
            row.commit.inspect(|c| commits[*c as usize] = true);
            row.branch.inspect(|b| branches[*b as usize] = true);
        }
        let (commits, branches) = self.names.compact(&commits, &branches);
        let renumbering = Renumbering {
            commits,
            branches,
            ..Renumbering::default()
        };
        for acc in self.tests.values_mut() {
            for row in &mut acc.rows {
                row.renumber_strings(&renumbering);
            }
            acc.index_rows();
        }
    }

    /// Every test's history, by class and method (finished side by side:
    /// each test's sort, trend and comparison are its own), its newest
    /// commit compared with the rows `lineage` places before it.
    pub(crate) fn finish(self, lineage: &mut dyn Lineage) -> History {
        let Builder {
            tests,
            names,
            sources,
            ..
        } = self;
        let names = &names;
        let lines = &Lines::of(&tests, names, lineage);
        let accs: Vec<(u64, HistoryAcc)> = tests.into_iter().collect();
        let mut tests: Vec<TestHistory> = accs
            .into_par_iter()
            .map(|(key, acc)| acc.finish(key, names, lines))
            .collect();
        tests.par_sort_unstable_by(|a, b| (&a.class, &a.method).cmp(&(&b.class, &b.method)));
        History { tests, sources }
    }
}

impl super::Summary for Builder {
    /// Adds one record (ignored when the filter does not accept its test).
    fn add(&mut self, record: &LineView<'_>, secs: u64) {
        let (class, method) = (record.test.class.as_ref(), record.test.method.as_ref());
        if !self.filter.accepts(class, method) {
            return;
        }
        let key = test_key(self.names.classes.id(class), self.names.methods.id(method));
        let acc = self.tests.entry(key).or_default();
        acc.add(record, secs, &mut self.names);
        if self.names.compact_due() {
            self.compact();
        }
    }

    fn passed_over(&mut self) {
        self.sources.other_lines += 1;
    }

    fn file_read(&mut self, read: LedgerRead) {
        self.sources.read(read);
    }

    fn merge(&mut self, other: Builder) {
        let renumbering = self.names.translate(&other.names);
        for (key, mut acc) in other.tests {
            acc.renumber(&renumbering);
            match self.tests.entry(renumbering.test(key)) {
                Entry::Occupied(mut mine) => mine.get_mut().merge(acc, &self.names),
                Entry::Vacant(slot) => {
                    slot.insert(acc);
                }
            }
        }
        if self.names.compact_due() {
            self.compact();
        }
        self.sources.merge(other.sources);
    }
}

impl Sources {
    /// Counts a file read, with its problems.
    pub(crate) fn read(&mut self, read: LedgerRead) {
        self.files += 1;
        self.records += read.records;
        self.skipped_lines += read.skipped;
        self.problems.extend(read.problems);
    }

    /// Counts the files read into `other` too.
    pub(crate) fn merge(&mut self, other: Sources) {
        self.files += other.files;
        self.records += other.records;
        self.other_lines += other.other_lines;
        self.skipped_lines += other.skipped_lines;
        self.problems.extend(other.problems);
    }
}

impl HistoryAcc {
    fn add(&mut self, record: &LineView<'_>, secs: u64, names: &mut Names) {
        let counts = Tally::of(record);
        let task = record.test.task.as_ref();
        if !task.is_empty() {
            let task = names.tasks.id(task);
            if !self.tasks.contains(&task) {
                self.tasks.push(task);
            }
        }
        if record.origin == Origin::Triage {
            self.replays.merge(counts);
            return;
        }
        self.total.merge(counts);
        // A row pools a condition's positions; its tally keeps the first apart.
        let cond = names.condition_id(record.condition.pooled());
        let commit = record.commit.as_deref();
        if record.failures > 0 {
            self.saw_failing_at(secs, commit);
        }
        let commit = commit.map(|c| names.commits.id(c));
        let id = row_id(commit, record.dirty, cond);
        let mut branch = || record.branch.as_deref().map(|b| names.branches.id(b));
        let median = record.duration_sec.map(|d| d.median);
        if let Some(i) = self.index.iter().position(|(key, _)| *key == id) {
            let row = &mut self.rows[i];
            row.add(counts, secs, median, branch);
            self.index[i].1 = row.last;
        } else if self.cutoff.is_none_or(|c| secs > c) {
            let row = RowAcc {
                id,
                commit,
                dirty: record.dirty,
                cond,
                branch: branch(),
                tally: counts,
                median_sec: median,
                first: secs,
                last: secs,
            };
            self.new_row(row);
        }
    }

    /// Adds `row`, of a record whose commit and condition have none. At the
    /// cap the oldest row, or the record itself when it is older than every
    /// row, is left out (counted in `total` only).
    fn new_row(&mut self, row: RowAcc) {
        if self.rows.len() < ROWS_PER_TEST {
            // A test with a few rows likely has many: room for all at once,
            // instead of a copy of them all at each doubling.
            if self.rows.len() == ROWS_EXPECTED {
                self.rows.reserve_exact(ROWS_PER_TEST - ROWS_EXPECTED);
                self.index.reserve_exact(ROWS_PER_TEST - ROWS_EXPECTED);
            }
            self.index.push((row.id, row.last));
            self.rows.push(row);
            return;
        }
        let oldest = (0..self.index.len())
            .min_by_key(|i| self.index[*i].1)
            .expect("rows at the cap");
        let pushed_out = if row.last < self.index[oldest].1 {
            row.last
        } else {
            let last = self.index[oldest].1;
            self.rows[oldest] = row;
            self.index[oldest] = (row.id, row.last);
            last
        };
        self.cutoff = Some(self.cutoff.unwrap_or(0).max(pushed_out));
    }

    /// A failing record at `secs` on `commit`: its commit is copied only
    /// when it is the first or last seen failing so far.
    fn saw_failing_at(&mut self, secs: u64, commit: Option<&str>) {
        let (first, last) = self.first_or_last_failing(secs);
        if first || last {
            self.saw_failing(SeenAt {
                secs,
                commit: commit.map(String::from),
            });
        }
    }

    fn saw_failing(&mut self, seen: SeenAt) {
        let (first, last) = self.first_or_last_failing(seen.secs);
        if first {
            self.first_failing = Some(seen.clone());
        }
        if last {
            self.last_failing = Some(seen);
        }
    }

    /// Whether a failure at `secs` is the first seen failing so far, and the last.
    fn first_or_last_failing(&self, secs: u64) -> (bool, bool) {
        (
            self.first_failing.as_ref().is_none_or(|f| secs < f.secs),
            self.last_failing.as_ref().is_none_or(|l| secs >= l.secs),
        )
    }

    /// The rows' ids and last records, again.
    fn index_rows(&mut self) {
        self.index = self.rows.iter().map(|r| (r.id, r.last)).collect();
    }

    /// Leaves out the rows no newer than one pushed out before, then the
    /// oldest rows past [`ROWS_PER_TEST`] (in one sort, not one scan per
    /// row: a merge can bring twice the cap).
    fn keep_newest_rows(&mut self, names: &Names) {
        if let Some(cutoff) = self.cutoff {
            self.rows.retain(|r| r.last > cutoff);
        }
        if self.rows.len() > ROWS_PER_TEST {
            self.rows
                .sort_by(|a, b| b.order(names).cmp(&a.order(names)));
            for row in self.rows.drain(ROWS_PER_TEST..) {
                self.cutoff = Some(self.cutoff.unwrap_or(0).max(row.last));
            }
        }
        self.index_rows();
    }

    /// This test's numbers of names, as another summary's `renumbering` has them.
    fn renumber(&mut self, renumbering: &Renumbering) {
        for task in &mut self.tasks {
            *task = renumbering.tasks[*task as usize];
        }
        for row in &mut self.rows {
            row.cond = renumbering.conditions[row.cond as usize];
            row.renumber_strings(renumbering);
        }
        self.index_rows();
    }

    /// Joins `other`, of the same test and numbered as this one.
    fn merge(&mut self, other: HistoryAcc, names: &Names) {
        for task in other.tasks {
            if !self.tasks.contains(&task) {
                self.tasks.push(task);
            }
        }
        self.total.merge(other.total);
        self.replays.merge(other.replays);
        for seen in other.first_failing.into_iter().chain(other.last_failing) {
            self.saw_failing(seen);
        }
        self.cutoff = self.cutoff.max(other.cutoff);
        for row in other.rows {
            match self.rows.iter_mut().find(|r| r.id == row.id) {
                Some(mine) => mine.merge(row),
                None => self.rows.push(row),
            }
        }
        // A row no newer than a row either side pushed out is not among the newest.
        self.keep_newest_rows(names);
    }

    fn finish(mut self, key: u64, names: &Names, lines: &Lines) -> TestHistory {
        let (class, method) = names.test(key);
        self.rows
            .sort_by(|a, b| a.order(names).cmp(&b.order(names)));
        let mut rows: Vec<Row> = self.rows.iter().map(|r| r.finish(names)).collect();
        let (newest, not_compared) = match newest_against_before(key, &self.rows, lines, names) {
            Some(Ok(before)) => (compare_newest(&rows, before), None),
            Some(Err(why)) => (None, Some(why.shown(&rows))),
            None => (None, None),
        };
        let trend = trend_of(&mut rows);
        let medians: Vec<f64> = rows.iter().filter_map(|r| r.median_sec).collect();
        let [lo, hi] = stats::wilson95(self.total.failures, self.total.runs);
        let mut earlier = self.total;
        for row in &self.rows {
            earlier = earlier.minus(row.tally);
        }
        let tasks: BTreeSet<&str> = self.tasks.iter().map(|t| names.tasks.get(*t)).collect();
        TestHistory {
            class: class.to_string(),
            method: method.to_string(),
            tasks: tasks.into_iter().map(String::from).collect(),
            failure_rate: rate(self.total),
            ci95: [stats::round6(lo), stats::round6(hi)],
            total: self.total,
            first_failing: self.first_failing.map(SeenAt::seen),
            last_failing: self.last_failing.map(SeenAt::seen),
            trend,
            time_ratio: stats::thirds_ratio(&medians).map(stats::round6),
            newest,
            not_compared,
            earlier: (earlier.records > 0).then_some(earlier),
            replays: (self.replays.records > 0).then_some(self.replays),
            rows,
        }
    }
}

impl SeenAt {
    fn seen(self) -> Seen {
        Seen {
            time: rfc3339(self.secs),
            commit: self.commit,
        }
    }
}

/// Seconds since the epoch as RFC 3339, UTC.
pub(super) fn rfc3339(secs: u64) -> String {
    humantime::format_rfc3339_seconds(UNIX_EPOCH + Duration::from_secs(secs)).to_string()
}

impl RowAcc {
    /// Oldest first: by last record, then first, then commit.
    fn order<'n>(&self, names: &'n Names) -> (u64, u64, Option<&'n str>) {
        (
            self.last,
            self.first,
            self.commit.map(|c| names.commits.get(c)),
        )
    }

    /// Adds records ending at `secs`; `branch` gives their branch, asked
    /// for only when they are the newest.
    fn add(
        &mut self,
        counts: Tally,
        secs: u64,
        median_sec: Option<f64>,
        branch: impl FnOnce() -> Option<u32>,
    ) {
        self.tally.merge(counts);
        self.first = self.first.min(secs);
        if secs >= self.last {
            self.last = secs;
            self.branch = branch();
            self.median_sec = median_sec.or(self.median_sec);
        }
    }

    fn merge(&mut self, other: RowAcc) {
        let median = other.median_sec;
        self.add(other.tally, other.last, median, || other.branch);
        self.first = self.first.min(other.first);
    }

    /// Its commit and branch as `renumbering` numbers them (its condition's
    /// number kept), and its id with them.
    fn renumber_strings(&mut self, renumbering: &Renumbering) {
        self.commit = self.commit.map(|c| renumbering.commits[c as usize]);
        self.branch = self.branch.map(|b| renumbering.branches[b as usize]);
        self.id = row_id(self.commit, self.dirty, self.cond);
    }

    /// The row as the history shows it.
    fn finish(&self, names: &Names) -> Row {
        Row {
            commit: self.commit.map(|c| names.commits.get(c).to_string()),
            dirty: self.dirty,
            branch: self.branch.map(|b| names.branches.get(b).to_string()),
            condition: names.condition(self.cond),
            tally: self.tally,
            failure_rate: 0.0,
            median_sec: self.median_sec,
            first_time: rfc3339(self.first),
            last_time: rfc3339(self.last),
        }
    }
}

fn rate(t: Tally) -> f64 {
    if t.runs == 0 {
        0.0
    } else {
        stats::round6(t.failures as f64 / t.runs as f64)
    }
}

/// Every test's history and what was read.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct History {
    pub tests: Vec<TestHistory>,
    pub sources: Sources,
}

/// One test over every record read.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TestHistory {
    pub class: String,
    pub method: String,
    pub tasks: Vec<String>,
    /// Pooled over every record: runs, failures, records.
    #[serde(flatten)]
    pub total: Tally,
    pub failure_rate: f64,
    /// Wilson 95% interval of the pooled rate.
    pub ci95: [f64; 2],
    pub first_failing: Option<Seen>,
    pub last_failing: Option<Seen>,
    pub trend: Trend,
    /// The median execution time of the newest third of rows over the
    /// oldest third's (rows that gave times); `null` with fewer than three.
    /// From [`SLOWER`] on, the report says the test got slower.
    pub time_ratio: Option<f64>,
    /// The newest row against the rows of its condition on its commit's
    /// first-parent ancestors.
    pub newest: Option<Comparison>,
    /// Why the newest row is not compared, when other rows of its
    /// condition exist.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub not_compared: Option<NotCompared>,
    /// Oldest first: at most [`ROWS_PER_TEST`].
    pub rows: Vec<Row>,
    /// Records older than the rows kept.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub earlier: Option<Tally>,
    /// Triage's replays of its failing seeds (`where: triage`), counted
    /// apart: replaying seeds that failed measures no failure rate.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replays: Option<Tally>,
}

impl TestHistory {
    /// `Class#method`, or the class alone.
    pub fn name(&self) -> String {
        crate::test_filter::spec(&self.class, &self.method)
    }
}

/// The rows' failure rates, oldest first, and whether they rise or fall.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Trend {
    pub rates: Vec<f64>,
    /// Two-sided Mann–Kendall p of the rates against their order; `null`
    /// with fewer than [`TREND_MIN_ROWS`] rows.
    pub p_value: Option<f64>,
    pub direction: Direction,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Direction {
    /// Failing more over time (p < [`ALPHA`]).
    Rising,
    /// Failing less over time.
    Falling,
    /// No trend shown (or too few rows to tell).
    None,
}

fn trend_of(rows: &mut [Row]) -> Trend {
    for row in rows.iter_mut() {
        row.failure_rate = rate(row.tally);
    }
    let rates: Vec<f64> = rows.iter().map(|r| r.failure_rate).collect();
    if rates.len() < TREND_MIN_ROWS {
        return Trend {
            rates,
            p_value: None,
            direction: Direction::None,
        };
    }
    let mk = stats::mann_kendall(&rates);
    let direction = match (mk.p_two_sided < ALPHA, mk.s > 0) {
        (false, _) => Direction::None,
        (true, true) => Direction::Rising,
        (true, false) => Direction::Falling,
    };
    Trend {
        rates,
        p_value: Some(stats::round6(mk.p_two_sided)),
        direction,
    }
}

/// The newest commit's records of one condition against those of its
/// first-parent ancestors.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Comparison {
    pub commit: Option<String>,
    pub condition: Condition,
    pub before: Tally,
    /// The commits of `before`, newest first: the newest commit's
    /// first-parent ancestors that have records of its condition (and its
    /// own commit, when it ran with changes not committed).
    pub before_commits: Vec<String>,
    pub after: Tally,
    /// One-sided Fisher p in the verdict's direction (lower for `fixed` and
    /// `not-shown`, higher for `worse`); two-sided for `same`.
    pub p_value: f64,
    pub verdict: Verdict,
    /// A `not-shown` whose rate is shown lower with failures left.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub narrowed: bool,
    /// For `not-shown` without a failure: the clean runs more that would show a fix.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub more_clean_runs: Option<u64>,
    /// Rows of its condition not before it (other branches' commits, other
    /// working trees' changes): never pooled as "before".
    #[serde(skip_serializing_if = "Option::is_none")]
    pub left_out: Option<Tally>,
}

/// The newest commit, not compared, and why.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NotCompared {
    pub commit: Option<String>,
    pub condition: Condition,
    pub reason: Unplaced,
    /// The other rows of its condition, none of them known to be before it.
    pub left_out: Tally,
}

/// Each test's rows of commits on its newest commit's first-parent line
/// (by number in the summary's names), placed once for the whole history.
pub(crate) struct Lines {
    placed: HashMap<u64, Result<Vec<u32>, Unplaced>, Fast>,
}

impl Lines {
    /// The rows on each test's newest line, of the tests that have other
    /// rows in their newest row's condition.
    fn of(
        tests: &HashMap<u64, HistoryAcc, Fast>,
        names: &Names,
        lineage: &mut dyn Lineage,
    ) -> Lines {
        let mut asked: Vec<(u64, Vec<u32>)> = Vec::new();
        let mut queries = Vec::new();
        for (key, acc) in tests {
            let Some(newest) = acc
                .rows
                .iter()
                .max_by(|a, b| a.order(names).cmp(&b.order(names)))
            else {
                continue;
            };
            let mut others: Vec<u32> = acc
                .rows
                .iter()
                .filter(|r| r.cond == newest.cond && r.id != newest.id)
                .filter_map(|r| r.commit)
                .collect();
            others.sort_unstable();
            others.dedup();
            let Some(commit) = newest.commit.filter(|_| !others.is_empty()) else {
                continue;
            };
            queries.push(Query {
                newest: names.commits.get(commit),
                others: others.iter().map(|c| names.commits.get(*c)).collect(),
            });
            asked.push((*key, others));
        }
        let answers = lineage.place(&queries);
        let placed = asked
            .into_iter()
            .zip(answers)
            .map(|((key, others), on_line)| {
                let on_line = on_line.map(|on| {
                    let on = others.into_iter().zip(on).filter(|(_, on)| *on);
                    on.map(|(c, _)| c).collect()
                });
                (key, on_line)
            })
            .collect();
        Lines { placed }
    }
}

/// Why the newest row is not compared, and the rows it is not compared with.
struct Unjudged {
    reason: Unplaced,
    left_out: Tally,
}

impl Unjudged {
    fn shown(self, rows: &[Row]) -> NotCompared {
        let newest = rows.last().expect("a newest row");
        NotCompared {
            commit: newest.commit.clone(),
            condition: newest.condition,
            reason: self.reason,
            left_out: self.left_out,
        }
    }
}

/// What comes before the newest of `rows` (oldest first): the rows of its
/// condition whose commit is a first-parent ancestor of its own (or its
/// own commit, when the newest ran with changes not committed), never
/// another working tree's changes; and those left out. `None` when no other
/// row of its condition exists.
fn newest_against_before(
    key: u64,
    rows: &[RowAcc],
    lines: &Lines,
    names: &Names,
) -> Option<Result<Earlier, Unjudged>> {
    let (newest, earlier) = rows.split_last()?;
    let same: Vec<&RowAcc> = earlier.iter().filter(|r| r.cond == newest.cond).collect();
    if same.is_empty() {
        return None;
    }
    let all = same.iter().fold(Tally::default(), |mut t, r| {
        t.merge(r.tally);
        t
    });
    let unjudged = |reason| {
        Some(Err(Unjudged {
            reason,
            left_out: all,
        }))
    };
    let Some(commit) = newest.commit else {
        return unjudged(Unplaced::NoCommit);
    };
    let ancestors = match lines.placed.get(&key) {
        Some(Ok(ancestors)) => ancestors,
        Some(Err(reason)) => return unjudged(*reason),
        // Only when its other rows name no commit: none is known to be before.
        None => return unjudged(Unplaced::NoAncestorRecords),
    };
    let mut before = Earlier::default();
    for row in same {
        let on_line = row
            .commit
            .is_some_and(|c| ancestors.contains(&c) || (newest.dirty && c == commit));
        match (on_line && !row.dirty, row.commit) {
            (true, Some(c)) => {
                before.tally.merge(row.tally);
                before.commits.push(names.commits.get(c).to_string());
            }
            _ => before.left_out.merge(row.tally),
        }
    }
    // Newest first, each once (a commit has a row per origin's branch name).
    before.commits.reverse();
    let mut seen = BTreeSet::new();
    before.commits.retain(|c| seen.insert(c.clone()));
    if before.tally.runs == 0 {
        return unjudged(Unplaced::NoAncestorRecords);
    }
    Some(Ok(before))
}

/// The rows counted before the newest (and their commits, newest first),
/// and the rows left out.
#[derive(Default)]
struct Earlier {
    tally: Tally,
    commits: Vec<String>,
    left_out: Tally,
}

fn compare_newest(rows: &[Row], before: Earlier) -> Option<Comparison> {
    let row = rows.last()?;
    if row.tally.runs == 0 {
        return None;
    }
    let judged = stats::judge(before.tally.counts(), row.tally.counts(), ALPHA, ALPHA);
    Some(Comparison {
        commit: row.commit.clone(),
        condition: row.condition,
        before: before.tally,
        before_commits: before.commits,
        after: row.tally,
        p_value: judged.p_value,
        verdict: judged.verdict,
        narrowed: judged.narrowed,
        more_clean_runs: judged.more_clean_runs,
        left_out: (before.left_out.records > 0).then_some(before.left_out),
    })
}
