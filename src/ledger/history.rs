//! A test's history from ledger records: pooled counts with their interval,
//! the newest (commit, condition) rows, when it was first and last seen
//! failing, its trend, and its newest commit against what came before.
//!
//! Memory is bounded by the tests, not the records: each test keeps at most
//! [`ROWS_PER_TEST`] rows, the newest by their last record; a row pushed out
//! joins the test's `earlier` counts, and so do later records of rows older
//! than one pushed out. Pooled counts are always exact.

use super::read::{Dated, FileRead, Problem};
use super::record::{Condition, Record};
use crate::stats::{self, Counts};
use crate::test_filter;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// Rows kept per test (the table and the trend).
pub const ROWS_PER_TEST: usize = 30;
/// The level of the newest commit's comparison, one look, one-sided.
pub const ALPHA: f64 = 0.05;
/// Rows a trend needs before the Mann–Kendall test is read.
pub const TREND_MIN_ROWS: usize = 4;

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

    pub fn accepts(&self, class: &str, method: &str) -> bool {
        self.tests.is_empty()
            || self.tests.iter().any(|(c, m)| test_filter::covers(c, m.as_deref(), true, class, method))
    }

    /// A class name every accepted record's line holds, when there is one
    /// (one class asked for): lines without it need not be parsed.
    pub fn needle(&self) -> Option<&str> {
        match self.tests.as_slice() {
            [(class, _)] => Some(class),
            _ => None,
        }
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
    pub time: String,
    pub commit: Option<String>,
    #[serde(skip)]
    secs: u64,
}

/// The records of one commit in one condition.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Row {
    pub commit: Option<String>,
    /// The branch of its newest record.
    pub branch: Option<String>,
    pub condition: Condition,
    #[serde(flatten)]
    pub tally: Tally,
    pub failure_rate: f64,
    /// Its oldest and newest records' times.
    pub first_time: String,
    pub last_time: String,
    #[serde(skip)]
    first: u64,
    #[serde(skip)]
    last: u64,
}

type RowKey = (Option<String>, Condition);

/// One test's records so far.
#[derive(Clone, Debug, Default)]
struct TestAcc {
    tasks: BTreeSet<String>,
    total: Tally,
    by_condition: BTreeMap<Condition, Tally>,
    rows: HashMap<RowKey, Row>,
    /// Records not in `rows`.
    earlier: Tally,
    /// The newest last record of a row pushed out: records of absent rows
    /// this old or older go to `earlier`.
    cutoff: Option<u64>,
    first_failing: Option<Seen>,
    last_failing: Option<Seen>,
}

/// Records summarized per test as they are read; [`merge`](Self::merge)
/// joins the builders of files read apart.
#[derive(Debug, Default)]
pub struct Builder {
    filter: Filter,
    tests: HashMap<(String, String), TestAcc>,
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
    /// Lines skipped: torn, of an unknown schema, or not records.
    pub skipped_lines: u64,
    /// The first few of each file, naming file and line.
    #[serde(skip)]
    pub problems: Vec<Problem>,
}

impl Builder {
    pub fn new(filter: Filter) -> Builder {
        Builder {
            filter,
            ..Builder::default()
        }
    }

    pub fn filter(&self) -> &Filter {
        &self.filter
    }

    /// Adds one record (ignored when the filter does not accept its test).
    pub fn add(&mut self, dated: Dated) {
        let Dated { record, secs } = dated;
        if !self.filter.accepts(&record.test.class, &record.test.method) {
            return;
        }
        let key = (record.test.class.clone(), record.test.method.clone());
        self.tests.entry(key).or_default().add(record, secs);
    }

    /// Counts a file read, with its problems.
    pub fn file_read(&mut self, read: FileRead) {
        self.sources.files += 1;
        self.sources.records += read.records;
        self.sources.skipped_lines += read.skipped;
        self.sources.problems.extend(read.problems);
    }

    pub fn merge(&mut self, other: Builder) {
        for (key, acc) in other.tests {
            match self.tests.get_mut(&key) {
                Some(mine) => mine.merge(acc),
                None => {
                    self.tests.insert(key, acc);
                }
            }
        }
        self.sources.files += other.sources.files;
        self.sources.records += other.sources.records;
        self.sources.skipped_lines += other.sources.skipped_lines;
        self.sources.problems.extend(other.sources.problems);
    }

    /// Every test's history, by class and method.
    pub fn finish(self) -> History {
        let mut tests: Vec<TestHistory> = self
            .tests
            .into_iter()
            .map(|((class, method), acc)| acc.finish(class, method))
            .collect();
        tests.sort_by(|a, b| (&a.class, &a.method).cmp(&(&b.class, &b.method)));
        History {
            tests,
            sources: self.sources,
        }
    }
}

impl TestAcc {
    fn add(&mut self, record: Record, secs: u64) {
        let (runs, failures) = (record.runs, record.failures);
        self.total.add(runs, failures, 1);
        self.by_condition
            .entry(record.condition.clone())
            .or_default()
            .add(runs, failures, 1);
        if !record.test.task.is_empty() {
            self.tasks.insert(record.test.task.clone());
        }
        if failures > 0 {
            let seen = Seen {
                time: record.time.clone(),
                commit: record.commit.clone(),
                secs,
            };
            self.saw_failing(seen);
        }
        let key = (record.commit.clone(), record.condition.clone());
        if let Some(row) = self.rows.get_mut(&key) {
            row.add(&record, secs);
        } else if self.cutoff.is_some_and(|c| secs <= c) {
            self.earlier.add(runs, failures, 1);
        } else {
            self.rows.insert(key, Row::of(&record, secs));
            self.keep_newest_rows();
        }
    }

    fn saw_failing(&mut self, seen: Seen) {
        if self.first_failing.as_ref().is_none_or(|f| seen.secs < f.secs) {
            self.first_failing = Some(seen.clone());
        }
        if self.last_failing.as_ref().is_none_or(|l| seen.secs >= l.secs) {
            self.last_failing = Some(seen);
        }
    }

    /// Pushes the rows with the oldest last record into `earlier` while
    /// there are more than [`ROWS_PER_TEST`].
    fn keep_newest_rows(&mut self) {
        while self.rows.len() > ROWS_PER_TEST {
            let oldest = self
                .rows
                .iter()
                .min_by_key(|(_, r)| r.last)
                .map(|(k, _)| k.clone())
                .expect("more rows than the cap");
            let row = self.rows.remove(&oldest).expect("just found");
            self.earlier.merge(row.tally);
            self.cutoff = Some(self.cutoff.unwrap_or(0).max(row.last));
        }
    }

    fn merge(&mut self, other: TestAcc) {
        self.tasks.extend(other.tasks);
        self.total.merge(other.total);
        for (condition, tally) in other.by_condition {
            self.by_condition.entry(condition).or_default().merge(tally);
        }
        self.earlier.merge(other.earlier);
        if let Some(seen) = other.first_failing {
            self.saw_failing(seen);
        }
        if let Some(seen) = other.last_failing {
            self.saw_failing(seen);
        }
        self.cutoff = self.cutoff.max(other.cutoff);
        for (key, row) in other.rows {
            match self.rows.get_mut(&key) {
                Some(mine) => mine.merge(row),
                None => {
                    self.rows.insert(key, row);
                }
            }
        }
        // A row no newer than a row either side pushed out is not among the newest.
        if let Some(cutoff) = self.cutoff {
            let old: Vec<RowKey> = self
                .rows
                .iter()
                .filter(|(_, r)| r.last <= cutoff)
                .map(|(k, _)| k.clone())
                .collect();
            for key in old {
                let row = self.rows.remove(&key).expect("just listed");
                self.earlier.merge(row.tally);
            }
        }
        self.keep_newest_rows();
    }

    fn finish(self, class: String, method: String) -> TestHistory {
        let mut rows: Vec<Row> = self.rows.into_values().collect();
        rows.sort_by(|a, b| (a.last, a.first, &a.commit).cmp(&(b.last, b.first, &b.commit)));
        let newest = rows
            .last()
            .and_then(|row| compare_newest(row, self.by_condition.get(&row.condition)));
        let trend = trend_of(&rows);
        let [lo, hi] = stats::wilson95(self.total.failures, self.total.runs);
        TestHistory {
            class,
            method,
            tasks: self.tasks.into_iter().collect(),
            failure_rate: rate(self.total),
            ci95: [stats::round6(lo), stats::round6(hi)],
            total: self.total,
            first_failing: self.first_failing,
            last_failing: self.last_failing,
            trend,
            newest,
            earlier: (self.earlier.records > 0).then_some(self.earlier),
            rows,
        }
    }
}

impl Row {
    fn of(record: &Record, secs: u64) -> Row {
        let mut row = Row {
            commit: record.commit.clone(),
            branch: record.branch.clone(),
            condition: record.condition.clone(),
            tally: Tally::default(),
            failure_rate: 0.0,
            first_time: record.time.clone(),
            last_time: record.time.clone(),
            first: secs,
            last: secs,
        };
        row.add(record, secs);
        row
    }

    fn add(&mut self, record: &Record, secs: u64) {
        self.tally.add(record.runs, record.failures, 1);
        self.failure_rate = rate(self.tally);
        if secs < self.first {
            self.first = secs;
            self.first_time = record.time.clone();
        }
        if secs >= self.last {
            self.last = secs;
            self.last_time = record.time.clone();
            self.branch = record.branch.clone();
        }
    }

    fn merge(&mut self, other: Row) {
        self.tally.merge(other.tally);
        self.failure_rate = rate(self.tally);
        if other.first < self.first {
            (self.first, self.first_time) = (other.first, other.first_time);
        }
        if other.last >= self.last {
            (self.last, self.last_time, self.branch) = (other.last, other.last_time, other.branch);
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
    /// The newest row against the earlier records of its condition.
    pub newest: Option<Comparison>,
    /// Oldest first: at most [`ROWS_PER_TEST`].
    pub rows: Vec<Row>,
    /// Records older than the rows kept.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub earlier: Option<Tally>,
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

fn trend_of(rows: &[Row]) -> Trend {
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
    /// For `not-shown`: the clean runs more that would show a fix.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub more_clean_runs: Option<u64>,
}

/// What the newest commit shows against the earlier records.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// Its rate is lower, p < [`ALPHA`] (one-sided Fisher).
    Fixed,
    /// Lower, but not yet shown.
    NotShown,
    /// Not lower and not shown higher.
    Same,
    /// Higher, p < [`ALPHA`].
    Worse,
}

impl Verdict {
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Fixed => "fixed",
            Verdict::NotShown => "not shown",
            Verdict::Same => "same",
            Verdict::Worse => "worse",
        }
    }
}

fn compare_newest(row: &Row, condition: Option<&Tally>) -> Option<Comparison> {
    let before = condition?.minus(row.tally);
    if before.runs == 0 || row.tally.runs == 0 {
        return None;
    }
    let (b, a) = (before.counts(), row.tally.counts());
    let down = stats::p_fixed(b, a);
    let up = stats::p_fixed(a, b);
    let lower = (a.failures as f64 / a.runs as f64) < (b.failures as f64 / b.runs as f64);
    let (verdict, p) = if down < ALPHA {
        (Verdict::Fixed, down)
    } else if up < ALPHA {
        (Verdict::Worse, up)
    } else if lower {
        (Verdict::NotShown, down)
    } else {
        (Verdict::Same, stats::p_differ(b, a))
    };
    Some(Comparison {
        commit: row.commit.clone(),
        condition: row.condition.clone(),
        before,
        after: row.tally,
        p_value: p,
        verdict,
        more_clean_runs: (verdict == Verdict::NotShown)
            .then(|| stats::more_clean_runs_to_show_fix(b, a, ALPHA))
            .flatten(),
    })
}
