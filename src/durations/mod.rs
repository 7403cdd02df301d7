//! How long one iteration of each test class (and method) takes: the planner's
//! knowledge of time. It comes from the best source at hand (`--durations`
//! JUnit XML or a durations file, else what earlier runs recorded in the
//! build, else nothing), and every run records what it measured (`store`).

pub(crate) mod store;

use crate::analyze::read::names::normalize_method;
use crate::domain::ClassifiedTest;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;

/// Where the durations came from (plan JSON's `durationsSource`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Source {
    /// `--durations PATH`.
    Given(PathBuf),
    /// What earlier runs of gradle-flaky recorded in the build.
    Recorded(PathBuf),
    /// Nothing is known.
    #[default]
    None,
}

impl Source {
    /// `given: build/test-results`, `recorded: .gradle/...`, `none`.
    pub fn describe(&self) -> String {
        match self {
            Source::Given(p) => format!("given: {}", p.display()),
            Source::Recorded(p) => format!("recorded: {}", p.display()),
            Source::None => "none".into(),
        }
    }
}

/// Seconds of test time per iteration, by class and by `Class#method`; and
/// the classes whose in-JVM iterations cost more than fresh runs.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Table {
    #[serde(default)]
    pub classes: BTreeMap<String, f64>,
    #[serde(default)]
    pub methods: BTreeMap<String, f64>,
    /// By class (`dearerInJvm`; absent from files of earlier versions, which
    /// ignore it).
    #[serde(
        default,
        rename = "dearerInJvm",
        skip_serializing_if = "BTreeMap::is_empty"
    )]
    pub dearer_in_jvm: BTreeMap<String, DearerInJvm>,
    /// By class (`stateAccumulates`; absent from files of earlier versions,
    /// which ignore it).
    #[serde(
        default,
        rename = "stateAccumulates",
        skip_serializing_if = "BTreeMap::is_empty"
    )]
    pub state_accumulates: BTreeMap<String, Accumulates>,
}

/// A class a run warned `state-accumulates` as the class that leaks the state
/// by itself (`analyze::drift`): its repeats in one JVM ran in a JVM it had
/// changed, so `--repetition auto` starts it on Gradle runs, a fresh JVM each,
/// while the commit is the same.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Accumulates {
    /// The warning's evidence.
    pub evidence: crate::analyze::model::report::DriftEvidence,
    /// The commit it was warned on; `None` outside git.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commit: Option<String>,
}

/// What a run's report said of its classes' state in one JVM, for the next
/// run's plan.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Drift {
    /// Classes warned as leaking state by themselves.
    pub warned: BTreeMap<String, Accumulates>,
    /// Classes repeated in one JVM without a warning: what an earlier run
    /// remembered of them no longer holds.
    pub cleared: Vec<String>,
}

/// A class whose iterations in one test JVM cost more than fresh Gradle runs
/// when a run measured them (`plan::switch`): `--repetition auto` starts it on
/// Gradle runs while the commit is the same.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DearerInJvm {
    /// Wall seconds per iteration of the chunk that showed it.
    pub per_iteration: f64,
    /// Seconds each of its last iterations, when they decided.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last: Option<f64>,
    /// Seconds of one fresh Gradle run of the class.
    pub fresh_run: f64,
    /// The commit it was measured on; `None` outside git.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commit: Option<String>,
}

impl DearerInJvm {
    /// Its times, each finite and not negative.
    pub(crate) fn is_valid(&self) -> bool {
        let ok = |s: f64| s.is_finite() && s >= 0.0;
        ok(self.per_iteration) && ok(self.fresh_run) && self.last.is_none_or(ok)
    }
}

/// What a run found of its classes' in-JVM cost, for the next run's plan.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct InJvmCosts {
    /// Classes whose in-JVM iterations cost more than fresh runs.
    pub dearer: BTreeMap<String, DearerInJvm>,
    /// Classes weighed in one JVM and found no dearer: what an earlier run
    /// remembered of them no longer holds.
    pub cheaper: Vec<String>,
}

/// The durations the planner knows, and their source.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Durations {
    pub source: Source,
    pub table: Table,
}

impl Durations {
    /// Expected test time of one iteration of all of `tests` (one Gradle
    /// invocation's worth of each); `None` when any of them is unknown.
    pub fn per_iteration(&self, tests: &[ClassifiedTest]) -> Option<Duration> {
        let mut secs = 0.0;
        for t in tests {
            let class = t.class.as_deref()?;
            let method = t
                .method
                .as_deref()
                .and_then(|m| self.table.methods.get(&format!("{class}#{m}")));
            secs += *method.or_else(|| self.table.classes.get(class))?;
        }
        (secs.is_finite() && secs >= 0.0).then(|| Duration::from_secs_f64(secs))
    }
}

/// Accumulates executions into per-iteration times: a method's time is its
/// mean over its executions, a class's the sum of its methods'.
#[derive(Default)]
pub(crate) struct Measure {
    /// `Class#method` → (seconds, executions).
    methods: BTreeMap<(String, String), (f64, u64)>,
}

impl Measure {
    /// One execution of `class`, raw test name `name` (seed tokens removed here).
    pub(crate) fn add(&mut self, class: &str, name: &str, secs: Option<f64>) {
        let Some(secs) = secs.filter(|s| s.is_finite() && *s >= 0.0) else {
            return;
        };
        let (method, _) = normalize_method(name);
        let e = self
            .methods
            .entry((class.to_string(), method.into_owned()))
            .or_default();
        e.0 += secs;
        e.1 += 1;
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.methods.is_empty()
    }

    pub(crate) fn table(&self) -> Table {
        let mut table = Table::default();
        for ((class, method), (secs, n)) in &self.methods {
            let mean = secs / (*n).max(1) as f64;
            table
                .methods
                .insert(format!("{class}#{method}"), round(mean));
            *table.classes.entry(class.clone()).or_default() += mean;
        }
        for v in table.classes.values_mut() {
            *v = round(*v);
        }
        table
    }
}

/// Seconds to the millisecond, as the file keeps them.
pub(crate) fn round(secs: f64) -> f64 {
    (secs * 1000.0).round() / 1000.0
}

impl Drift {
    /// What `report` (of a run on `commit`) says of its classes' state in one
    /// JVM: the classes it warned as leaking state by themselves, and those
    /// it repeated in one JVM without a warning.
    pub(crate) fn of(report: &crate::analyze::Report, commit: Option<&str>) -> Drift {
        let mut drift = Drift::default();
        for w in &report.warnings {
            if w.leaking_class.as_deref() == Some(w.class.as_str()) {
                let accumulates = Accumulates {
                    evidence: w.evidence,
                    commit: commit.map(String::from),
                };
                drift.warned.insert(w.class.clone(), accumulates);
            }
        }
        // Repeated in one JVM: a fresh JVM per execution repeats nothing there.
        let in_jvm = |t: &&crate::analyze::model::report::TestReport| {
            t.by_condition.conditions.iter().any(|r| {
                r.condition.repetition == crate::condition::Repetition::InJvm
                    && !r.condition.is_first()
                    && r.rate.runs > 0
            })
        };
        let cleared: std::collections::BTreeSet<&String> = report
            .tests
            .iter()
            .filter(in_jvm)
            .map(|t| &t.class)
            .filter(|c| !drift.warned.contains_key(*c))
            .collect();
        drift.cleared = cleared.into_iter().cloned().collect();
        drift
    }
}

impl Table {
    /// `newer` over `self`: what was measured last wins, test by test.
    pub fn merge(&mut self, newer: Table) {
        self.classes.extend(newer.classes);
        self.methods.extend(newer.methods);
        self.dearer_in_jvm.extend(newer.dearer_in_jvm);
        self.state_accumulates.extend(newer.state_accumulates);
    }

    /// What a run's report said of its classes' state in one JVM, over what
    /// earlier runs remembered: a class repeated there without a warning is
    /// forgotten.
    pub(crate) fn remember_drift(&mut self, drift: &Drift) {
        for class in &drift.cleared {
            self.state_accumulates.remove(class);
        }
        self.state_accumulates.extend(drift.warned.clone());
    }

    /// What a run found of its classes' in-JVM cost, over what earlier runs
    /// remembered: a class found cheaper is forgotten.
    pub(crate) fn remember(&mut self, costs: &InJvmCosts) {
        for class in &costs.cheaper {
            self.dearer_in_jvm.remove(class);
        }
        self.dearer_in_jvm.extend(costs.dearer.clone());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::{Origin, TestKind};

    fn test(class: &str, method: Option<&str>) -> ClassifiedTest {
        ClassifiedTest {
            project: ":p".into(),
            source_set: "test".into(),
            task: ":p:test".into(),
            kind: TestKind::Unit,
            class: Some(class.into()),
            method: method.map(String::from),
            yaml_suite: None,
            origin: Origin::Explicit,
            nested_classes: false,
            is_suite: false,
            via_suite: None,
            mute: None,
        }
    }

    #[test]
    fn a_class_takes_the_mean_of_each_method_summed() {
        let mut m = Measure::default();
        m.add("a.Slow", "testOne {seed=[A:B]}", Some(2.0));
        m.add("a.Slow", "testOne {seed=[A:C]}", Some(4.0));
        m.add("a.Slow", "testTwo", Some(1.0));
        m.add("a.Slow", "testNoTime", None);
        let t = m.table();
        assert_eq!(t.classes["a.Slow"], 4.0);
        assert_eq!(t.methods["a.Slow#testOne"], 3.0);
        let d = Durations {
            source: Source::None,
            table: t,
        };
        assert_eq!(
            d.per_iteration(&[test("a.Slow", None)]),
            Some(Duration::from_secs(4))
        );
        assert_eq!(
            d.per_iteration(&[test("a.Slow", Some("testTwo"))]),
            Some(Duration::from_secs(1)),
            "a method selected alone takes its own time"
        );
        assert_eq!(
            d.per_iteration(&[test("a.Slow", None), test("a.Other", None)]),
            None,
            "one unknown class makes the batch unknown"
        );
    }

    /// A class found dearer in the JVM is remembered with its figures; a
    /// later run that weighs it in one JVM and finds it no dearer forgets it.
    #[test]
    fn in_jvm_costs_are_remembered_and_forgotten() {
        let dearer = DearerInJvm {
            per_iteration: 3.4,
            last: None,
            fresh_run: 1.5,
            commit: Some("abc".into()),
        };
        let mut t = Table::default();
        t.remember(&InJvmCosts {
            dearer: BTreeMap::from([("a.Growing".to_string(), dearer.clone())]),
            cheaper: vec!["a.Other".into()],
        });
        assert_eq!(t.dearer_in_jvm["a.Growing"], dearer);
        let json = serde_json::to_value(&t).unwrap();
        assert_eq!(
            json["dearerInJvm"]["a.Growing"],
            serde_json::json!({"perIteration": 3.4, "freshRun": 1.5, "commit": "abc"})
        );
        t.remember(&InJvmCosts {
            dearer: BTreeMap::new(),
            cheaper: vec!["a.Growing".into()],
        });
        assert!(t.dearer_in_jvm.is_empty());
        let json = serde_json::to_string(&t).unwrap();
        assert!(
            !json.contains("dearerInJvm"),
            "as earlier versions wrote it: {json}"
        );
    }

    /// A class warned as leaking state by itself is remembered with its
    /// evidence and commit; a later run that repeats it in one JVM without a
    /// warning forgets it; files without the field read as before.
    #[test]
    fn classes_that_accumulate_state_are_remembered_and_forgotten() {
        let mut t = Table::default();
        let a = Accumulates {
            evidence: crate::analyze::model::report::DriftEvidence::Threads,
            commit: Some("abc".into()),
        };
        t.remember_drift(&Drift {
            warned: BTreeMap::from([("a.Leaky".to_string(), a.clone())]),
            cleared: vec!["a.Clean".into()],
        });
        assert_eq!(t.state_accumulates["a.Leaky"], a);
        let json = serde_json::to_value(&t).unwrap();
        assert_eq!(
            json["stateAccumulates"]["a.Leaky"],
            serde_json::json!({"evidence": "threads", "commit": "abc"})
        );
        t.remember_drift(&Drift {
            warned: BTreeMap::new(),
            cleared: vec!["a.Leaky".into()],
        });
        assert!(t.state_accumulates.is_empty());
        let old: Table = serde_json::from_str(r#"{"classes": {"A": 1.0}}"#).unwrap();
        assert!(old.state_accumulates.is_empty());
        assert!(!serde_json::to_string(&old)
            .unwrap()
            .contains("stateAccumulates"));
    }

    #[test]
    fn newer_measurements_win() {
        let mut old = Table::default();
        old.classes.insert("A".into(), 1.0);
        old.classes.insert("B".into(), 2.0);
        let mut new = Table::default();
        new.classes.insert("A".into(), 5.0);
        old.merge(new);
        assert_eq!(old.classes["A"], 5.0);
        assert_eq!(old.classes["B"], 2.0);
    }
}
