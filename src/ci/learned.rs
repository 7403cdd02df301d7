//! What CI runs learn, carried from one run to the next with no server: a
//! folder, `flakiness-learned/`, that the report step leaves beside its
//! outputs and the CI carries to the next run (GitHub: the Actions cache;
//! Buildkite: the report step's artifacts, fetched from an earlier build).
//! It holds `flakiness-durations.json` (each class's time per iteration,
//! the classes dearer in one JVM, those that accumulated state: what the
//! jobs measured, over what earlier runs learned) and `flakiness-ledger.jsonl`
//! (every run's counts, earlier runs' first). The next plan step plans its
//! budgets and shards from the durations; the next report step says "known
//! flaky on main" from the ledger.

use super::status::JobRun;
use crate::analyze::Report;
use crate::durations::{self, store, DearerInJvm, InJvmCosts, Table};
use crate::ledger::record::Record;
use crate::reports::{DURATIONS_FILE, LEDGER_FILE};
use crate::settings::RunSettings;
use crate::{tell, warning};
use std::path::{Path, PathBuf};

/// The folder's name, beside the report step's outputs.
pub(crate) const DIR: &str = "flakiness-learned";

/// Where a plan step finds what earlier runs learned.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Learned {
    /// The folder (`--learned`).
    pub dir: Option<PathBuf>,
    /// Buildkite: the build whose report step's folder is fetched first
    /// (`--learned-build`, a UUID).
    pub build: Option<String>,
}

impl Learned {
    /// The folder read: `--learned`, else [`DIR`] when a build's is fetched.
    pub fn folder(&self) -> Option<PathBuf> {
        match (&self.dir, &self.build) {
            (Some(dir), _) => Some(dir.clone()),
            (None, Some(_)) => Some(PathBuf::from(DIR)),
            (None, None) => None,
        }
    }
}

/// Whether `build` can name a Buildkite build: a UUID's hex digits and
/// dashes (it goes to `buildkite-agent` and into the pipeline as data).
pub fn is_build_id(build: &str) -> bool {
    (1..=64).contains(&build.len()) && build.bytes().all(|b| b.is_ascii_hexdigit() || b == b'-')
}

/// The most the learned ledger keeps: its newest lines.
const LEDGER_MOST: u64 = 16 << 20;

/// The learned durations in `dir`, when it holds them.
pub(crate) fn durations_in(dir: &Path) -> Option<PathBuf> {
    Some(dir.join(DURATIONS_FILE)).filter(|f| f.is_file())
}

/// The learned ledger in `dir`, when it holds one.
pub(crate) fn ledger_in(dir: &Path) -> Option<PathBuf> {
    Some(dir.join(LEDGER_FILE)).filter(|f| f.is_file())
}

/// `settings` planning from what earlier runs learned in `dir` (when given
/// and it holds durations), unless durations were given themselves. A
/// missing folder is no error: the first run has learned nothing yet.
pub(crate) fn plan_with(settings: &RunSettings, dir: Option<&Path>) -> RunSettings {
    let mut settings = settings.clone();
    if settings.batching.durations.is_some() {
        return settings;
    }
    match dir.map(|d| (d, durations_in(d))) {
        Some((_, Some(file))) => settings.batching.durations = Some(file),
        Some((dir, None)) => tell!(
            "nothing learned yet in {}: the plan has no durations of earlier CI runs",
            dir.display()
        ),
        None => {}
    }
    settings
}

/// What one report step learned: the time the jobs measured (`measured`,
/// a folder of their XML), what their engines found of in-JVM costs, what
/// the report said of state in one JVM, and the run's ledger records.
pub(crate) struct Lesson<'a> {
    pub measured: &'a Path,
    pub jobs: &'a [JobRun],
    pub report: &'a Report,
    pub records: &'a [Record],
    /// The commit the jobs ran (what is remembered holds there).
    pub commit: Option<&'a str>,
}

/// Adds `lesson` to the folder `dir` (created when missing): its
/// durations over the learned ones, its records after the learned ledger
/// (kept to its newest [`LEDGER_MOST`] bytes). What cannot be written costs
/// the next run what it would have learned, never this report: a warning.
pub(crate) fn learn(dir: &Path, lesson: &Lesson<'_>) {
    if let Err(e) = std::fs::create_dir_all(dir) {
        warning!("nothing learned kept in {}: {e}", dir.display());
        return;
    }
    let file = dir.join(DURATIONS_FILE);
    let mut table: Table = std::fs::read_to_string(&file)
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or_default();
    table.merge(store::measure(lesson.measured).table());
    table.remember(&in_jvm_costs(lesson.jobs, lesson.commit));
    table.remember_drift(&durations::Drift::of(lesson.report, lesson.commit));
    if let Err(e) = store::write(&file, &table) {
        warning!("the learned durations were not kept: {e}");
    }
    crate::ledger::keep::append_ci(dir, lesson.records);
    if let Err(e) = keep_newest(&dir.join(LEDGER_FILE), LEDGER_MOST) {
        warning!("the learned ledger was not trimmed: {e}");
    }
    tell!("learned: kept in {} for the next run", dir.display());
}

/// What the jobs' engines found of their classes' in-JVM cost, measured on
/// `commit`: a class dearer in any job is dearer.
fn in_jvm_costs(jobs: &[JobRun], commit: Option<&str>) -> InJvmCosts {
    let mut costs = InJvmCosts::default();
    let secs = |ms: u64| durations::round(ms as f64 / 1000.0);
    for engine in jobs.iter().filter_map(|j| j.status.engine.as_ref()) {
        for d in &engine.dearer {
            let dearer = DearerInJvm {
                per_iteration: secs(d.per_iteration_ms),
                last: d.last_ms.map(secs),
                fresh_run: secs(d.fresh_run_ms),
                commit: commit.map(String::from),
            };
            costs.dearer.insert(d.class.clone(), dearer);
        }
        costs.cheaper.extend(engine.cheaper.iter().cloned());
    }
    costs.cheaper.retain(|c| !costs.dearer.contains_key(c));
    costs
}

/// Keeps the newest lines of the file at `path`, at most `most` bytes.
fn keep_newest(path: &Path, most: u64) -> std::io::Result<()> {
    let len = std::fs::metadata(path)?.len();
    if len <= most {
        return Ok(());
    }
    let text = std::fs::read(path)?;
    let cut = (len - most) as usize;
    let start = text[cut..]
        .iter()
        .position(|b| *b == b'\n')
        .map_or(text.len(), |i| cut + i + 1);
    std::fs::write(path, &text[start..])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ci::status::{DearerRun, EngineRun, Status};

    fn job(engine: EngineRun) -> JobRun {
        let mut status: Status = serde_json::from_str(r#"{"jobId":"j"}"#).unwrap();
        status.engine = Some(engine);
        JobRun {
            status,
            dir: PathBuf::new(),
        }
    }

    const XML: &str = r#"<testsuite name="a.SlowTests"><testcase classname="a.SlowTests" name="testSlow" time="3.0"/></testsuite>"#;

    /// A run learns over what earlier runs learned: its times win, a class
    /// an engine found dearer is remembered on the run's commit and one it
    /// found cheaper forgotten; the ledger grows by the run's records.
    #[test]
    fn a_run_learns_over_what_earlier_runs_learned() {
        let dir = tempfile::tempdir().unwrap();
        let learned = dir.path().join(DIR);
        std::fs::create_dir_all(&learned).unwrap();
        std::fs::write(
            learned.join(DURATIONS_FILE),
            r#"{"classes":{"a.SlowTests":1.0,"a.Other":2.0},"dearerInJvm":{"a.Cheap":{"perIteration":3,"freshRun":1}}}"#,
        )
        .unwrap();
        std::fs::write(learned.join(LEDGER_FILE), "{\"earlier\":1}\n").unwrap();
        let measured = dir.path().join("jobs/j/p/build/test-results/test");
        std::fs::create_dir_all(&measured).unwrap();
        std::fs::write(measured.join("TEST-a.SlowTests.xml"), XML).unwrap();
        let engine = EngineRun {
            dearer: vec![DearerRun {
                class: "a.Dear".into(),
                per_iteration_ms: 3400,
                last_ms: None,
                fresh_run_ms: 1500,
                switched: true,
            }],
            cheaper: vec!["a.Cheap".into()],
            ..EngineRun::default()
        };
        let nothing = crate::analyze::analyze_root(&dir.path().join("none"), &Default::default());
        learn(
            &learned,
            &Lesson {
                measured: &dir.path().join("jobs"),
                jobs: &[job(engine)],
                report: &nothing,
                records: &[],
                commit: Some("abc"),
            },
        );
        let table: Table =
            serde_json::from_str(&std::fs::read_to_string(learned.join(DURATIONS_FILE)).unwrap())
                .unwrap();
        assert_eq!(table.classes["a.SlowTests"], 3.0);
        assert_eq!(table.classes["a.Other"], 2.0);
        assert_eq!(table.dearer_in_jvm.len(), 1, "{table:?}");
        let dear = &table.dearer_in_jvm["a.Dear"];
        assert_eq!(
            (dear.per_iteration, dear.commit.as_deref()),
            (3.4, Some("abc"))
        );
        let settings = RunSettings::of(Default::default());
        let planned = plan_with(&settings, Some(&learned)).batching.durations;
        assert_eq!(planned, Some(learned.join(DURATIONS_FILE)));
        let none = plan_with(&settings, Some(&dir.path().join("nothing")));
        assert_eq!(
            none.batching.durations, None,
            "the first run learned nothing yet"
        );
    }

    #[test]
    fn the_learned_ledger_keeps_its_newest_lines() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join(LEDGER_FILE);
        std::fs::write(&file, "first line\nsecond\nthird\n").unwrap();
        keep_newest(&file, 14).unwrap();
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "second\nthird\n");
        keep_newest(&file, 100).unwrap();
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "second\nthird\n");
    }
}
