//! The co-failure clusters of a report (and of `suspects`): tests that
//! failed together in the same runs, with the failure they share.

use crate::analyze::model::clusters::Cluster;
use crate::analyze::model::report::Report;
use crate::markdown::code;

/// Tests named per cluster; the JSON lists them all.
const MAX_TESTS_NAMED: usize = 20;
/// Runs named per cluster.
const MAX_RUNS_NAMED: usize = 10;

/// `### Failing together`, when the report has clusters.
pub(crate) fn section(report: &Report, md: &mut Vec<String>) {
    if report.clusters.is_empty() {
        return;
    }
    md.push(String::new());
    md.push("### Failing together".into());
    md.push(String::new());
    md.push(
        "Tests whose failures fall in the same runs most often share one cause: fix it once."
            .into(),
    );
    md.push(String::new());
    md.extend(report.clusters.iter().map(line));
}

/// One cluster as a list item: "these 3 tests failed together in 3 runs:
/// `signature` (all 3): `A#b`, … (runs `r1`, …)".
pub(crate) fn line(c: &Cluster) -> String {
    let mut line = format!(
        "- {} tests failed together in {} runs",
        c.tests.len(),
        c.runs.len()
    );
    match &c.signature {
        Some(s) if c.shared_by == c.tests.len() => {
            line += &format!(": {} (all {})", code(s), c.shared_by)
        }
        Some(s) => line += &format!(": {} ({} of them)", code(s), c.shared_by),
        None => {}
    }
    let names = c
        .tests
        .iter()
        .map(|t| code(&format!("{}#{}", t.class, t.method)));
    let runs = c.runs.iter().map(|r| code(r));
    format!(
        "{line}. Tests: {}; runs: {}.",
        super::listed(names, MAX_TESTS_NAMED),
        super::listed(runs, MAX_RUNS_NAMED)
    )
}
