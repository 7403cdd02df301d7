//! One line of the ledger: what one run measured of one test in one
//! condition. The field names are the file format (docs/src/concepts/history.md
//! lists every field); a change to them is a new [`SCHEMA`].

use serde::de::IgnoredAny;
use serde::{Deserialize, Deserializer, Serialize};
use std::borrow::Cow;
use std::collections::BTreeMap;

pub use crate::condition::{Condition, Context, Repetition};

/// The version this gradle-flaky writes and reads. Fields may be added to a
/// version (readers ignore fields they do not know); a field removed or
/// renamed, a meaning changed or a new value of a closed set (`context`,
/// `repetition`, `where`) is a new version, which older readers skip with a
/// warning instead of misreading.
pub const SCHEMA: u32 = 1;

/// Failing seeds kept per record: enough to replay a few failures; a test
/// failing on every run of thousands must not make its line huge.
pub(crate) const MAX_SEEDS: usize = 10;

/// One test's counts in one run and condition.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Record {
    pub schema: u32,
    pub test: TestId,
    /// The commit that ran (`git rev-parse HEAD`); `null` outside a git checkout.
    pub commit: Option<String>,
    /// The branch that ran; `null` when unknown (a detached checkout).
    pub branch: Option<String>,
    /// The working tree had changes not committed: the counts are of
    /// `commit` and those changes, not of `commit` (written only when true).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub dirty: bool,
    pub condition: Condition,
    /// Executions that passed or failed (suite timeouts and skips excluded).
    pub runs: u64,
    /// Real failures among them.
    pub failures: u64,
    /// Failures by kind (`assertion`, `error`, `other`), as the report counts them.
    pub failure_kinds: BTreeMap<String, u64>,
    /// Distinct seeds of failed executions, first seen first, at most [`MAX_SEEDS`].
    pub failing_seeds: Vec<String>,
    /// Its first failure's signature, its changing parts masked
    /// (`analyze::rules::clusters::signature`): what tells the failures of
    /// a co-failure cluster apart. Absent without a failure (an addition
    /// to schema 1: older readers ignore it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signature: Option<String>,
    /// Its executions' times; `null` when the reports gave none.
    pub duration_sec: Option<DurationSummary>,
    /// The gradle-flaky version that wrote the line.
    pub tool: String,
    /// When the run ended, RFC 3339 in UTC (`2026-03-01T10:00:00Z`).
    pub time: String,
    /// The run this line came from; lines of one run share it.
    pub run_id: String,
    #[serde(rename = "where")]
    pub origin: Origin,
}

/// Which test: the report's class and method (seed and iteration tokens removed).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct TestId {
    pub class: String,
    pub method: String,
    /// The Gradle task name(s) whose reports held it (`test`,
    /// `internalClusterTest`), comma-separated when several ran it.
    pub task: String,
}

/// Where the run happened. An ordinary build's lines (`record`) name the
/// machine too (`local`, `buildkite`, `github`): what ran is told by their
/// condition (the whole task, a fresh JVM, first executions), so no new
/// value (a new schema, which every reader of schema 1 would skip) was needed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Origin {
    Local,
    Buildkite,
    Github,
    /// Replays of failing tests (`triage`, `--triage`).
    Triage,
}

/// Median, 90th percentile and maximum seconds of the executions counted.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct DurationSummary {
    pub median: f64,
    pub p90: f64,
    pub max: f64,
}

/// A ledger line as `history` and `suspects` read it, borrowed from the
/// line (a string is copied only where an escape makes that necessary):
/// every field of a [`Record`] is read and checked but failure kinds and
/// seeds, which neither shows. Reading a million lines, the copies are what costs.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct LineView<'a> {
    pub schema: u32,
    #[serde(borrow)]
    pub test: TestView<'a>,
    #[serde(default, borrow, deserialize_with = "optional")]
    pub commit: Option<Cow<'a, str>>,
    #[serde(default, borrow, deserialize_with = "optional")]
    pub branch: Option<Cow<'a, str>>,
    #[serde(default)]
    pub dirty: bool,
    pub condition: Condition,
    pub runs: u64,
    pub failures: u64,
    #[serde(rename = "failureKinds")]
    pub _failure_kinds: IgnoredAny,
    #[serde(rename = "failingSeeds")]
    pub _failing_seeds: IgnoredAny,
    #[serde(default, borrow, deserialize_with = "optional")]
    pub signature: Option<Cow<'a, str>>,
    pub duration_sec: Option<DurationSummary>,
    #[serde(borrow, rename = "tool")]
    pub _tool: Cow<'a, str>,
    #[serde(borrow)]
    pub time: Cow<'a, str>,
    #[serde(borrow)]
    pub run_id: Cow<'a, str>,
    #[serde(rename = "where")]
    pub origin: Origin,
}

/// [`TestId`], borrowed.
#[derive(Debug, Deserialize)]
pub(crate) struct TestView<'a> {
    #[serde(borrow)]
    pub class: Cow<'a, str>,
    #[serde(borrow)]
    pub method: Cow<'a, str>,
    #[serde(borrow)]
    pub task: Cow<'a, str>,
}

/// An optional string, borrowed where it can be (serde's own `Option<Cow>`
/// always copies).
fn optional<'de: 'a, 'a, D: Deserializer<'de>>(d: D) -> Result<Option<Cow<'a, str>>, D::Error> {
    #[derive(Deserialize)]
    struct Borrowed<'a>(#[serde(borrow)] Cow<'a, str>);
    Ok(Option::<Borrowed>::deserialize(d)?.map(|b| b.0))
}

/// What the reader checks of any line it keeps.
pub(crate) trait Line {
    /// (schema, runs, failures, time).
    fn head(&self) -> (u32, u64, u64, &str);
}

/// Both shapes of a line answer [`Line`] from the same fields.
macro_rules! line_head {
    ($($t:ty),*) => {$(
        impl Line for $t {
            fn head(&self) -> (u32, u64, u64, &str) {
                (self.schema, self.runs, self.failures, &self.time)
            }
        }
    )*};
}

line_head!(Record, LineView<'_>);
