//! Reading the ledger for `suspects`: every counted line of every test kept
//! as a few numbers (its run, commit, condition and signature by number),
//! so that a million lines cost tens of megabytes and no string copy; each
//! test's lines are judged once everything is read.

use super::runs::{judge, RunNames, SuspectRun};
use super::{LeftOut, Suspect, Suspects, TestName};
use crate::analyze::model::clusters::ClusterTest;
use crate::analyze::rules::clusters::{self, FailedIn};
use crate::condition::Condition;
use crate::ledger::history::names::{test_key, Strings};
use crate::ledger::history::{Filter, Sources};
use crate::ledger::read::LedgerRead;
use crate::ledger::record::{LineView, Origin};
use crate::ledger::Summary;
use rayon::prelude::*;
use std::collections::HashMap;

use crate::ledger::Fast;

/// Which lines count.
#[derive(Clone, Debug, Default)]
pub struct Query {
    /// Only the runs of this branch.
    pub branch: Option<String>,
    /// Only the runs that ended at or after this time (seconds since the epoch).
    pub since: Option<u64>,
    /// Only these tests (every test when empty).
    pub tests: Filter,
}

/// No signature.
const NONE: u32 = u32::MAX;

/// One counted line, by numbers.
#[derive(Clone, Copy, Debug)]
struct CountedLine {
    run: u32,
    commit: u32,
    cond: u32,
    signature: u32,
    secs: u64,
    runs: u64,
    failures: u64,
}

/// One test's lines so far.
#[derive(Clone, Debug, Default)]
struct TestLines {
    tasks: Vec<u32>,
    lines: Vec<CountedLine>,
}

/// Every name the lines refer to by number.
#[derive(Debug, Default)]
struct LineNames {
    classes: Strings,
    methods: Strings,
    tasks: Strings,
    commits: Strings,
    runs: Strings,
    signatures: Strings,
    conditions: Vec<Condition>,
}

impl LineNames {
    fn condition(&mut self, c: Condition) -> u32 {
        match self.conditions.iter().position(|k| *k == c) {
            Some(i) => i as u32,
            None => {
                self.conditions.push(c);
                self.conditions.len() as u32 - 1
            }
        }
    }
}

impl RunNames for LineNames {
    fn commit(&self, id: u32) -> &str {
        self.commits.get(id)
    }

    fn signature(&self, id: u32) -> &str {
        self.signatures.get(id)
    }
}

/// The lines of the tests `query` asks for, as they are read.
#[derive(Debug, Default)]
pub(crate) struct SuspectBuilder {
    query: Query,
    names: LineNames,
    tests: HashMap<u64, TestLines, Fast>,
    sources: Sources,
    left_out: LeftOut,
}

impl SuspectBuilder {
    pub(crate) fn new(query: Query) -> SuspectBuilder {
        SuspectBuilder {
            query,
            ..SuspectBuilder::default()
        }
    }

    /// Whether a line counts; when not, it is counted where it belongs.
    fn counts(&mut self, line: &LineView<'_>, secs: u64) -> bool {
        let left_out = &mut self.left_out;
        if line.origin == Origin::Triage {
            left_out.triage += 1;
        } else if line.dirty || line.commit.is_none() {
            left_out.not_a_commit += 1;
        } else if self
            .query
            .branch
            .as_deref()
            .is_some_and(|b| line.branch.as_deref() != Some(b))
        {
            left_out.other_branch += 1;
        } else if self.query.since.is_some_and(|since| secs < since) {
            left_out.older += 1;
        } else if !self
            .query
            .tests
            .accepts(&line.test.class, &line.test.method)
        {
            self.sources.other_lines += 1;
        } else {
            return true;
        }
        false
    }

    /// Every test judged, and the clusters of their failing runs.
    pub(crate) fn finish(self) -> Suspects {
        let SuspectBuilder {
            names,
            tests,
            sources,
            mut left_out,
            ..
        } = self;
        let names = &names;
        let mut judged: Vec<(TestName, Vec<SuspectRun>, u64)> = tests
            .into_par_iter()
            .map(|(key, lines)| {
                let (runs, duplicates) = runs_of(lines.lines);
                (test_name(key, &lines.tasks, names), runs, duplicates)
            })
            .collect();
        judged.par_sort_unstable_by(|a, b| a.0.cmp(&b.0));
        left_out.duplicates += judged.iter().map(|(_, _, d)| d).sum::<u64>();
        let clusters = clusters_of(&judged, names);
        let mut suspects: Vec<Suspect> = judged
            .par_iter()
            .filter_map(|(test, runs, _)| judge(test.clone(), runs, names))
            .collect();
        suspects
            .sort_by_cached_key(|s| (s.kind, std::cmp::Reverse(s.failing_runs), s.test.clone()));
        Suspects {
            suspects,
            clusters,
            tests: judged.len() as u64,
            runs: names.runs.len() as u64,
            sources,
            left_out,
        }
    }
}

impl Summary for SuspectBuilder {
    fn add(&mut self, line: &LineView<'_>, secs: u64) {
        if !self.counts(line, secs) {
            return;
        }
        let n = &mut self.names;
        let key = test_key(
            n.classes.id(&line.test.class),
            n.methods.id(&line.test.method),
        );
        let task = (!line.test.task.is_empty()).then(|| n.tasks.id(&line.test.task));
        let counted = CountedLine {
            run: n.runs.id(&line.run_id),
            commit: n.commits.id(line.commit.as_deref().unwrap_or_default()),
            cond: n.condition(line.condition),
            signature: line
                .signature
                .as_deref()
                .map_or(NONE, |s| n.signatures.id(s)),
            secs,
            runs: line.runs,
            failures: line.failures,
        };
        let test = self.tests.entry(key).or_default();
        if let Some(task) = task.filter(|t| !test.tasks.contains(t)) {
            test.tasks.push(task);
        }
        test.lines.push(counted);
    }

    fn passed_over(&mut self) {
        self.sources.other_lines += 1;
    }

    fn file_read(&mut self, read: LedgerRead) {
        self.sources.read(read);
    }

    fn merge(&mut self, other: SuspectBuilder) {
        let n = &mut self.names;
        let classes = n.classes.translate(&other.names.classes);
        let methods = n.methods.translate(&other.names.methods);
        let tasks = n.tasks.translate(&other.names.tasks);
        let commits = n.commits.translate(&other.names.commits);
        let runs = n.runs.translate(&other.names.runs);
        let signatures = n.signatures.translate(&other.names.signatures);
        let conditions: Vec<u32> = other
            .names
            .conditions
            .iter()
            .map(|c| n.condition(*c))
            .collect();
        for (key, mut test) in other.tests {
            let key = test_key(classes[(key >> 32) as usize], methods[key as u32 as usize]);
            for line in &mut test.lines {
                line.run = runs[line.run as usize];
                line.commit = commits[line.commit as usize];
                line.cond = conditions[line.cond as usize];
                if line.signature != NONE {
                    line.signature = signatures[line.signature as usize];
                }
            }
            let mine = self.tests.entry(key).or_default();
            for task in test.tasks.iter().map(|t| tasks[*t as usize]) {
                if !mine.tasks.contains(&task) {
                    mine.tasks.push(task);
                }
            }
            mine.lines.append(&mut test.lines);
        }
        self.sources.merge(other.sources);
        self.left_out.merge(other.left_out);
    }
}

/// A test's lines as runs, oldest first: the lines of one run id summed,
/// each condition once (a line read again is a duplicate, counted).
fn runs_of(mut lines: Vec<CountedLine>) -> (Vec<SuspectRun>, u64) {
    lines.sort_unstable_by_key(|l| (l.run, l.cond, l.secs));
    let before = lines.len();
    lines.dedup_by_key(|l| (l.run, l.cond));
    let duplicates = (before - lines.len()) as u64;
    let mut runs: Vec<SuspectRun> = Vec::new();
    for l in lines {
        match runs.last_mut().filter(|r| r.run == l.run) {
            Some(r) => {
                r.runs += l.runs;
                r.failures += l.failures;
                if l.secs > r.secs {
                    (r.secs, r.commit) = (l.secs, l.commit);
                }
                if r.signature.is_none() && l.signature != NONE {
                    r.signature = Some(l.signature);
                }
            }
            None => runs.push(SuspectRun {
                run: l.run,
                commit: l.commit,
                secs: l.secs,
                runs: l.runs,
                failures: l.failures,
                signature: (l.signature != NONE).then_some(l.signature),
            }),
        }
    }
    runs.sort_unstable_by_key(|r| (r.secs, r.run));
    (runs, duplicates)
}

fn test_name(key: u64, tasks: &[u32], names: &LineNames) -> TestName {
    let mut tasks: Vec<&str> = tasks.iter().map(|t| names.tasks.get(*t)).collect();
    tasks.sort_unstable();
    tasks.dedup();
    TestName {
        class: names.classes.get((key >> 32) as u32).to_string(),
        method: names.methods.get(key as u32).to_string(),
        task: tasks.join(","),
    }
}

/// The clusters of the tests' failing runs (run ids).
fn clusters_of(
    judged: &[(TestName, Vec<SuspectRun>, u64)],
    names: &LineNames,
) -> Vec<crate::analyze::model::clusters::Cluster> {
    let failing: Vec<(&TestName, FailedIn)> = judged
        .iter()
        .filter(|(_, runs, _)| runs.iter().any(|r| r.failures > 0))
        .map(|(test, runs, _)| {
            let mut failed: Vec<(u32, Option<String>)> = runs
                .iter()
                .filter(|r| r.failures > 0)
                .map(|r| {
                    (
                        r.run,
                        r.signature.map(|s| names.signatures.get(s).to_string()),
                    )
                })
                .collect();
            failed.sort_by_key(|(run, _)| *run);
            (test, FailedIn { runs: failed })
        })
        .collect();
    let input: Vec<FailedIn> = failing.iter().map(|(_, f)| f.clone()).collect();
    clusters::find(&input)
        .into_iter()
        .map(|found| {
            let tests = found
                .members
                .iter()
                .map(|&m| ClusterTest {
                    class: failing[m].0.class.clone(),
                    method: failing[m].0.method.clone(),
                    task: failing[m].0.task.clone(),
                })
                .collect();
            clusters::labelled(found, tests, |run| names.runs.get(run).to_string())
        })
        .collect()
}
