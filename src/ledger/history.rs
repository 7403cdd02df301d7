//! A test's history from ledger records: pooled counts with their interval,
//! the newest (commit, condition) rows, when it was first and last seen
//! failing, its trend, and its newest commit against what came before.
//!
//! Memory is bounded by the tests, not the records: each test keeps at most
//! [`ROWS_PER_TEST`] rows, the newest by their last record; a row pushed out
//! joins the test's `earlier` counts, and so do later records of rows older
//! than one pushed out. Pooled counts are always exact.

use super::read::{FileRead, Problem};
use super::record::{Condition, Context, LineView, Origin, Repetition};
pub use crate::stats::Verdict;
use crate::stats::{self, Counts};
use crate::test_filter;
use serde::Serialize;
use std::collections::{BTreeSet, HashMap};
use std::hash::BuildHasher;
use std::time::{Duration, UNIX_EPOCH};

/// The tables of a history hash a million names: foldhash (hashbrown's own
/// hasher) instead of SipHash takes a fifth off reading a large ledger. Its
/// seed is random per process, so names from a hostile branch cannot be
/// chosen to collide.
type Fast = foldhash::fast::RandomState;

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

/// Runs, failures and records of some records.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Tally {
    pub runs: u64,
    pub failures: u64,
    pub records: u64,
}

impl Tally {
    fn add(&mut self, runs: u64, failures: u64, records: u64) {
        self.runs += runs;
        self.failures += failures;
        self.records += records;
    }

    fn merge(&mut self, other: Tally) {
        self.add(other.runs, other.failures, other.records);
    }

    fn counts(self) -> Counts {
        Counts::new(self.failures, self.runs)
    }

    fn minus(self, other: Tally) -> Tally {
        Tally {
            runs: self.runs.saturating_sub(other.runs),
            failures: self.failures.saturating_sub(other.failures),
            records: self.records.saturating_sub(other.records),
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
    #[serde(skip)]
    first: u64,
    #[serde(skip)]
    last: u64,
    /// [`row_key`] of its commit and condition: rows are told apart by it
    /// before their strings are compared.
    #[serde(skip)]
    key: u64,
    /// Its condition while records are read: an index into its test's
    /// conditions (`condition` is written when the history is finished), so
    /// that a row costs no copy of the condition's strings.
    #[serde(skip)]
    cond: usize,
}

/// A row's `condition` until the history is finished.
const UNSET: Condition = Condition {
    context: Context::Alone,
    repetition: Repetition::InJvm,
    mechanism: None,
};

/// A hash of a row's commit (and whether it was dirty) and condition (its
/// index among its test's conditions).
fn row_key(commit: Option<&str>, dirty: bool, cond: usize) -> u64 {
    // One seed for every builder. A collision only costs a string comparison.
    foldhash::fast::FixedState::default().hash_one((commit, dirty, cond))
}

/// One test's records so far. Rows and conditions are few: kept in
/// vectors, found by comparing, so that a record costs no allocation.
#[derive(Clone, Debug, Default)]
struct TestAcc {
    tasks: BTreeSet<String>,
    total: Tally,
    by_condition: Vec<(Condition, Tally)>,
    rows: Vec<Row>,
    /// Each row's key and last record, in the order of `rows`: the rows a
    /// record is looked up in and the oldest found, in a few cache lines
    /// instead of one per row.
    index: Vec<(u64, u64)>,
    /// Records not in `rows`.
    earlier: Tally,
    /// The newest last record of a row pushed out: records of absent rows
    /// this old or older go to `earlier`.
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
    /// class → method → its records (looked up by `&str`, no key built per record).
    tests: HashMap<String, HashMap<String, TestAcc, Fast>, Fast>,
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

    /// Adds one record of time `secs` (ignored when the filter does not accept its test).
    pub(crate) fn add(&mut self, record: &LineView<'_>, secs: u64) {
        let (class, method) = (record.test.class.as_ref(), record.test.method.as_ref());
        if !self.filter.accepts(class, method) {
            return;
        }
        let methods = match self.tests.get_mut(class) {
            Some(methods) => methods,
            None => self.tests.entry(class.to_string()).or_default(),
        };
        let acc = match methods.get_mut(method) {
            Some(acc) => acc,
            None => methods.entry(method.to_string()).or_default(),
        };
        acc.add(record, secs);
    }

    /// Counts a line of another test, passed over unread.
    pub(crate) fn passed_over(&mut self) {
        self.sources.other_lines += 1;
    }

    /// Counts a file read, with its problems.
    pub(crate) fn file_read(&mut self, read: FileRead) {
        self.sources.files += 1;
        self.sources.records += read.records;
        self.sources.skipped_lines += read.skipped;
        self.sources.problems.extend(read.problems);
    }

    pub(crate) fn merge(&mut self, other: Builder) {
        for (class, methods) in other.tests {
            let mine = self.tests.entry(class).or_default();
            for (method, acc) in methods {
                match mine.get_mut(&method) {
                    Some(m) => m.merge(acc),
                    None => {
                        mine.insert(method, acc);
                    }
                }
            }
        }
        self.sources.files += other.sources.files;
        self.sources.records += other.sources.records;
        self.sources.other_lines += other.sources.other_lines;
        self.sources.skipped_lines += other.sources.skipped_lines;
        self.sources.problems.extend(other.sources.problems);
    }

    /// Every test's history, by class and method.
    pub(crate) fn finish(self) -> History {
        let mut tests: Vec<TestHistory> = self
            .tests
            .into_iter()
            .flat_map(|(class, methods)| {
                methods
                    .into_iter()
                    .map(move |(method, acc)| acc.finish(class.clone(), method))
            })
            .collect();
        tests.sort_by(|a, b| (&a.class, &a.method).cmp(&(&b.class, &b.method)));
        History {
            tests,
            sources: self.sources,
        }
    }
}

impl TestAcc {
    fn add(&mut self, record: &LineView<'_>, secs: u64) {
        let (runs, failures) = (record.runs, record.failures);
        let task = record.test.task.as_ref();
        // Nearly always the one task it had: the newest task first.
        if !task.is_empty()
            && self.tasks.last().is_none_or(|t| t != task)
            && !self.tasks.contains(task)
        {
            self.tasks.insert(task.to_string());
        }
        if record.origin == Origin::Triage {
            self.replays.add(runs, failures, 1);
            return;
        }
        self.total.add(runs, failures, 1);
        let cond = self.condition_index(record);
        self.by_condition[cond].1.add(runs, failures, 1);
        let commit = record.commit.as_deref();
        if failures > 0 {
            self.saw_failing_at(secs, commit);
        }
        let dirty = record.dirty;
        let key = row_key(commit, dirty, cond);
        let rows = &self.rows;
        let found = (0..self.index.len()).find(|&i| {
            let r = &rows[i];
            self.index[i].0 == key
                && r.cond == cond
                && r.dirty == dirty
                && r.commit.as_deref() == commit
        });
        if let Some(i) = found {
            let median = record.duration_sec.map(|d| d.median);
            let row = &mut self.rows[i];
            row.add(runs, failures, 1, secs, median, || {
                record.branch.as_deref().map(String::from)
            });
            self.index[i].1 = row.last;
        } else if self.cutoff.is_some_and(|c| secs <= c) {
            self.earlier.add(runs, failures, 1);
        } else {
            self.new_row(record, secs, key, cond);
        }
    }

    /// A row for a record whose commit and condition have none. At the cap
    /// the oldest row, or the record itself when it is older than every
    /// row, goes to `earlier`; a row pushed out lends its strings to the
    /// new one (a long ledger read in time order replaces a row per record).
    fn new_row(&mut self, record: &LineView<'_>, secs: u64, key: u64, cond: usize) {
        if self.rows.len() < ROWS_PER_TEST {
            // A test with a few rows likely has many: room for all at once,
            // instead of a copy of them all at each doubling.
            if self.rows.len() == ROWS_EXPECTED {
                self.rows.reserve_exact(ROWS_PER_TEST - ROWS_EXPECTED);
            }
            self.rows.push(Row::of(record, secs, key, cond));
            self.index.push((key, secs));
            return;
        }
        let oldest = (0..self.index.len())
            .min_by_key(|i| self.index[*i].1)
            .expect("rows at the cap");
        let pushed_out = if secs < self.index[oldest].1 {
            self.earlier.add(record.runs, record.failures, 1);
            secs
        } else {
            let row = &mut self.rows[oldest];
            let last = row.last;
            self.earlier.merge(row.tally);
            row.reuse_for(record, secs, key, cond);
            self.index[oldest] = (key, secs);
            last
        };
        self.cutoff = Some(self.cutoff.unwrap_or(0).max(pushed_out));
    }

    /// The index of `record`'s condition among this test's.
    fn condition_index(&mut self, record: &LineView<'_>) -> usize {
        let condition = &record.condition;
        match self.by_condition.iter().position(|(c, _)| condition.is(c)) {
            Some(i) => i,
            None => {
                self.by_condition
                    .push((condition.owned(), Tally::default()));
                self.by_condition.len() - 1
            }
        }
    }

    /// A failing record at `secs` on `commit`: its commit is copied only
    /// when it is the first or last seen failing so far.
    fn saw_failing_at(&mut self, secs: u64, commit: Option<&str>) {
        let first = self.first_failing.as_ref().is_none_or(|f| secs < f.secs);
        let last = self.last_failing.as_ref().is_none_or(|l| secs >= l.secs);
        if first || last {
            self.saw_failing(SeenAt {
                secs,
                commit: commit.map(String::from),
            });
        }
    }

    fn saw_failing(&mut self, seen: SeenAt) {
        if self
            .first_failing
            .as_ref()
            .is_none_or(|f| seen.secs < f.secs)
        {
            self.first_failing = Some(seen.clone());
        }
        if self
            .last_failing
            .as_ref()
            .is_none_or(|l| seen.secs >= l.secs)
        {
            self.last_failing = Some(seen);
        }
    }

    /// Pushes into `earlier` the rows no newer than one pushed out before,
    /// then the oldest rows past [`ROWS_PER_TEST`] (in one sort, not one
    /// scan per row: a merge can bring twice the cap).
    fn keep_newest_rows(&mut self) {
        if let Some(cutoff) = self.cutoff {
            if self.rows.iter().any(|r| r.last <= cutoff) {
                let earlier = &mut self.earlier;
                self.rows.retain(|r| {
                    let newer = r.last > cutoff;
                    if !newer {
                        earlier.merge(r.tally);
                    }
                    newer
                });
            }
        }
        if self.rows.len() > ROWS_PER_TEST {
            self.rows
                .sort_by(|a, b| (b.last, b.first, &b.commit).cmp(&(a.last, a.first, &a.commit)));
            for row in self.rows.drain(ROWS_PER_TEST..) {
                self.earlier.merge(row.tally);
                self.cutoff = Some(self.cutoff.unwrap_or(0).max(row.last));
            }
        }
        self.index = self.rows.iter().map(|r| (r.key, r.last)).collect();
    }

    fn merge(&mut self, other: TestAcc) {
        self.tasks.extend(other.tasks);
        self.total.merge(other.total);
        // Where each of the other's conditions is among these.
        let mut index = Vec::with_capacity(other.by_condition.len());
        for (condition, tally) in other.by_condition {
            match self.by_condition.iter().position(|(c, _)| *c == condition) {
                Some(i) => {
                    self.by_condition[i].1.merge(tally);
                    index.push(i);
                }
                None => {
                    self.by_condition.push((condition, tally));
                    index.push(self.by_condition.len() - 1);
                }
            }
        }
        self.earlier.merge(other.earlier);
        self.replays.merge(other.replays);
        for seen in other.first_failing.into_iter().chain(other.last_failing) {
            self.saw_failing(seen);
        }
        self.cutoff = self.cutoff.max(other.cutoff);
        for mut row in other.rows {
            row.cond = index[row.cond];
            row.key = row_key(row.commit.as_deref(), row.dirty, row.cond);
            let found = self.rows.iter_mut().find(|r| {
                r.key == row.key
                    && r.cond == row.cond
                    && r.dirty == row.dirty
                    && r.commit == row.commit
            });
            match found {
                Some(mine) => mine.merge(row),
                None => self.rows.push(row),
            }
        }
        // A row no newer than a row either side pushed out is not among the newest.
        self.keep_newest_rows();
    }

    fn finish(self, class: String, method: String) -> TestHistory {
        let mut rows = self.rows;
        rows.sort_by(|a, b| (a.last, a.first, &a.commit).cmp(&(b.last, b.first, &b.commit)));
        for row in &mut rows {
            row.first_time = rfc3339(row.first);
            row.last_time = rfc3339(row.last);
            row.condition = self.by_condition[row.cond].0.clone();
        }
        let newest = rows
            .last()
            .and_then(|row| compare_newest(row, Some(&self.by_condition[row.cond].1)));
        let trend = trend_of(&mut rows);
        let medians: Vec<f64> = rows.iter().filter_map(|r| r.median_sec).collect();
        let [lo, hi] = stats::wilson95(self.total.failures, self.total.runs);
        TestHistory {
            class,
            method,
            tasks: self.tasks.into_iter().collect(),
            failure_rate: rate(self.total),
            ci95: [stats::round6(lo), stats::round6(hi)],
            total: self.total,
            first_failing: self.first_failing.map(SeenAt::seen),
            last_failing: self.last_failing.map(SeenAt::seen),
            trend,
            time_ratio: stats::thirds_ratio(&medians).map(stats::round6),
            newest,
            earlier: (self.earlier.records > 0).then_some(self.earlier),
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

fn rfc3339(secs: u64) -> String {
    humantime::format_rfc3339_seconds(UNIX_EPOCH + Duration::from_secs(secs)).to_string()
}

impl Row {
    /// A row of one record; its times are written when the history is finished.
    fn of(record: &LineView<'_>, secs: u64, key: u64, cond: usize) -> Row {
        Row {
            key,
            cond,
            commit: record.commit.as_deref().map(String::from),
            dirty: record.dirty,
            branch: record.branch.as_deref().map(String::from),
            condition: UNSET,
            tally: Tally {
                runs: record.runs,
                failures: record.failures,
                records: 1,
            },
            failure_rate: 0.0,
            median_sec: record.duration_sec.map(|d| d.median),
            first_time: String::new(),
            last_time: String::new(),
            first: secs,
            last: secs,
        }
    }

    /// This row's allocations, now for `record`'s commit and condition.
    fn reuse_for(&mut self, record: &LineView<'_>, secs: u64, key: u64, cond: usize) {
        set(&mut self.commit, record.commit.as_deref());
        self.dirty = record.dirty;
        set(&mut self.branch, record.branch.as_deref());
        self.cond = cond;
        self.tally = Tally {
            runs: record.runs,
            failures: record.failures,
            records: 1,
        };
        self.median_sec = record.duration_sec.map(|d| d.median);
        (self.first, self.last, self.key) = (secs, secs, key);
    }

    /// Adds records ending at `secs`; `branch` is their branch, asked for
    /// only when they are the newest (so that older ones cost no copy).
    fn add(
        &mut self,
        runs: u64,
        failures: u64,
        records: u64,
        secs: u64,
        median_sec: Option<f64>,
        branch: impl FnOnce() -> Option<String>,
    ) {
        self.tally.add(runs, failures, records);
        self.first = self.first.min(secs);
        if secs >= self.last {
            self.last = secs;
            self.branch = branch();
            self.median_sec = median_sec.or(self.median_sec);
        }
    }

    fn merge(&mut self, other: Row) {
        let t = other.tally;
        let median = other.median_sec;
        self.add(t.runs, t.failures, t.records, other.last, median, || {
            other.branch
        });
        self.first = self.first.min(other.first);
    }
}

/// `slot` set to `value`, in the string it holds when it holds one.
fn set(slot: &mut Option<String>, value: Option<&str>) {
    match (slot.as_mut(), value) {
        (Some(s), Some(v)) => {
            s.clear();
            s.push_str(v);
        }
        (_, v) => *slot = v.map(String::from),
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
#[derive(Clone, Debug, PartialEq, Serialize)]
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
    /// The newest row against the earlier records of its condition.
    pub newest: Option<Comparison>,
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

/// The newest commit's records of one condition against the earlier ones.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Comparison {
    pub commit: Option<String>,
    pub condition: Condition,
    pub before: Tally,
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
}

fn compare_newest(row: &Row, condition: Option<&Tally>) -> Option<Comparison> {
    let before = condition?.minus(row.tally);
    if before.runs == 0 || row.tally.runs == 0 {
        return None;
    }
    let judged = stats::judge(before.counts(), row.tally.counts(), ALPHA, ALPHA);
    Some(Comparison {
        commit: row.commit.clone(),
        condition: row.condition.clone(),
        before,
        after: row.tally,
        p_value: judged.p_value,
        verdict: judged.verdict,
        narrowed: judged.narrowed,
        more_clean_runs: judged.more_clean_runs,
    })
}
