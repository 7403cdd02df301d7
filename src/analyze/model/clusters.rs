//! Co-failure clusters as the report and `suspects` give them
//! (`clusters[]`): the tests, the runs they failed in together, and the
//! failure they share (`rules::clusters`).

use serde::Serialize;

/// Tests whose failures fall in the same runs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Cluster {
    /// By class, method and task.
    pub tests: Vec<ClusterTest>,
    /// The runs at least two of them failed in: a report's Gradle runs
    /// (`batch-1/iter-3`, with `#i` for the i-th iteration in one test JVM),
    /// or the ledger's run ids.
    pub runs: Vec<String>,
    /// The failure most of them share, its changing parts masked
    /// (`java.net.ConnectException: Connection refused: localhost/<ip>:<n>`);
    /// `null` when their failures gave no message.
    pub signature: Option<String>,
    /// How many of the tests failed with that signature in those runs.
    pub shared_by: usize,
}

/// A member of a cluster.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct ClusterTest {
    pub class: String,
    pub method: String,
    /// The Gradle task name(s) that ran it, comma-separated.
    pub task: String,
}
