//! Durations on disk: read from `--durations PATH` (JUnit XML files, folders
//! of them, or a durations file `flakiness-durations.json`), recorded in the
//! build by every run (`.gradle/gradle-flaky/flakiness-durations.json`), and
//! written as the CI report steps' artifact.

use super::{Drift, Durations, InJvmCosts, Measure, Source, Table};
use crate::analyze::read::junit;
use crate::reports::{walk::Walk, DURATIONS_FILE, ITERS_DIR, RECORDED_DIR};
use crate::{Error, Result};
use std::path::{Path, PathBuf};

/// The file earlier runs recorded in the build at `root`.
pub(crate) fn recorded_file(root: &Path) -> PathBuf {
    root.join(RECORDED_DIR).join(DURATIONS_FILE)
}

/// The durations of the best source at hand: `given` (an error when it holds
/// none), else the build's recorded ones, else none.
pub(crate) fn load(given: Option<&Path>, root: &Path) -> Result<Durations> {
    if let Some(path) = given {
        return Ok(Durations {
            source: Source::Given(path.to_path_buf()),
            table: read_given(path)?,
        });
    }
    let recorded = recorded_file(root);
    match read_table(&recorded) {
        Ok(table) => Ok(Durations {
            source: Source::Recorded(recorded),
            table,
        }),
        // A recorded file we cannot read is not the user's input: plan without it.
        Err(_) => Ok(Durations::default()),
    }
}

fn read_given(path: &Path) -> Result<Table> {
    let what = || format!("--durations {}", path.display());
    let meta = std::fs::metadata(path).map_err(|e| Error::input(what(), e.to_string()))?;
    let table = if meta.is_file() && path.extension().is_some_and(|e| e == "json") {
        read_table(path).map_err(|e| Error::input(what(), e))?
    } else {
        measure(path).table()
    };
    if table.classes.is_empty() {
        return Err(Error::input(
            what(),
            "holds no test case with a time: pass JUnit XML files (TEST-*.xml), a folder of \
             them such as build/test-results, or a flakiness-durations.json",
        ));
    }
    Ok(table)
}

fn read_table(path: &Path) -> std::result::Result<Table, String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let table: Table =
        serde_json::from_str(&text).map_err(|e| format!("not a durations file: {e}"))?;
    let bad = table
        .classes
        .values()
        .chain(table.methods.values())
        .any(|s| !s.is_finite() || *s < 0.0);
    if bad {
        return Err("not a durations file: a time is negative or not a number".into());
    }
    if let Some(class) = table.dearer_in_jvm.iter().find(|(_, d)| !d.is_valid()) {
        return Err(format!(
            "not a durations file: dearerInJvm of {}: a time is negative or not a number",
            class.0
        ));
    }
    Ok(table)
}

/// The test time per iteration in the JUnit XML at `path` (a file, or every
/// `*.xml` below a folder, iterations and build folders included).
pub(crate) fn measure(path: &Path) -> Measure {
    let mut m = Measure::default();
    let files: Vec<PathBuf> = if path.is_file() {
        vec![path.to_path_buf()]
    } else {
        Walk::new(path)
            .entering(&[ITERS_DIR])
            .into_build(&["test-results"])
            .regular_files()
            .map(|f| f.path)
            .filter(|p| p.extension().is_some_and(|e| e == "xml"))
            .collect()
    };
    for file in files {
        if let Ok(f) = std::fs::File::open(&file) {
            junit::read(f, |exec| {
                if exec.primary {
                    m.add(exec.class, exec.name, exec.time);
                }
            });
        }
    }
    m
}

/// Records what a run measured below `measured` in the build at `root`, and
/// what it found of its classes' in-JVM cost, over what earlier runs
/// recorded. A file that cannot be written costs the next run its
/// durations, never this run its result: the error is returned for a warning.
pub(crate) fn record(root: &Path, measured: &Path, costs: &InJvmCosts) -> Result<()> {
    let new = measure(measured);
    if new.is_empty() && *costs == InJvmCosts::default() {
        return Ok(());
    }
    update(root, |table| {
        table.merge(new.table());
        table.remember(costs);
        true
    })
}

/// Records what a run's report said of its classes' state in one JVM in the
/// build at `root`, over what earlier runs recorded; an error is returned
/// for a warning, as [`record`]'s.
pub(crate) fn record_drift(root: &Path, drift: &Drift) -> Result<()> {
    if *drift == Drift::default() {
        return Ok(());
    }
    update(root, |table| {
        let before = table.state_accumulates.clone();
        table.remember_drift(drift);
        table.state_accumulates != before
    })
}

/// The build's recorded table (a new one when it cannot be read) as `change`
/// leaves it, written back when `change` says it changed.
fn update(root: &Path, change: impl FnOnce(&mut Table) -> bool) -> Result<()> {
    let file = recorded_file(root);
    let mut table = read_table(&file).unwrap_or_default();
    match change(&mut table) {
        true => write(&file, &table),
        false => Ok(()),
    }
}

/// Writes `table` as a durations file.
pub(crate) fn write(file: &Path, table: &Table) -> Result<()> {
    if let Some(dir) = file.parent() {
        std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    }
    let json = serde_json::to_string_pretty(table).expect("a table always serializes");
    std::fs::write(file, json + "\n").map_err(|e| Error::io(file, e))
}

#[cfg(test)]
mod tests {
    use super::*;

    const XML: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<testsuite name="a.SlowTests" tests="3" failures="0" errors="0" skipped="0" time="9.0">
  <testcase name="testSlow {#1 seed=[1:2]}" classname="a.SlowTests" time="3.0"/>
  <testcase name="testSlow {#2 seed=[1:3]}" classname="a.SlowTests" time="5.0"/>
  <testcase name="testFast" classname="a.SlowTests" time="1.0"/>
</testsuite>"#;

    #[test]
    fn given_xml_folders_and_files_and_recorded_files_load_in_that_order() {
        let dir = tempfile::tempdir().unwrap();
        let results = dir.path().join("server/build/test-results/test");
        std::fs::create_dir_all(&results).unwrap();
        std::fs::write(results.join("TEST-a.SlowTests.xml"), XML).unwrap();
        let given = load(Some(dir.path()), dir.path()).unwrap();
        assert_eq!(given.table.classes["a.SlowTests"], 5.0);
        assert!(matches!(given.source, Source::Given(_)));
        let file = load(Some(&results.join("TEST-a.SlowTests.xml")), dir.path()).unwrap();
        assert_eq!(file.table, given.table);

        assert_eq!(load(None, dir.path()).unwrap(), Durations::default());
        record(dir.path(), &results, &InJvmCosts::default()).unwrap();
        let recorded = load(None, dir.path()).unwrap();
        assert_eq!(recorded.table, given.table);
        assert_eq!(recorded.source, Source::Recorded(recorded_file(dir.path())));
        let json = load(Some(&recorded_file(dir.path())), dir.path()).unwrap();
        assert_eq!(json.table, given.table);
    }

    #[test]
    fn a_given_path_without_durations_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let e = load(Some(&dir.path().join("nope")), dir.path()).unwrap_err();
        assert!(e.to_string().starts_with("--durations "), "{e}");
        let e = load(Some(dir.path()), dir.path()).unwrap_err();
        assert!(e.to_string().contains("holds no test case"), "{e}");
        let bad = dir.path().join("d.json");
        std::fs::write(&bad, r#"{"classes": {"A": -1}}"#).unwrap();
        let e = load(Some(&bad), dir.path()).unwrap_err();
        assert!(e.to_string().contains("negative"), "{e}");
        std::fs::write(
            &bad,
            r#"{"classes": {"A": 1}, "dearerInJvm": {"A": {"perIteration": -2, "freshRun": 1}}}"#,
        )
        .unwrap();
        let e = load(Some(&bad), dir.path()).unwrap_err();
        assert!(
            e.to_string()
                .contains("dearerInJvm of A: a time is negative"),
            "{e}"
        );
        std::fs::write(&bad, r#"{"classes": {"A": 1}, "dearerInJvm": {"A": {}}}"#).unwrap();
        let e = load(Some(&bad), dir.path()).unwrap_err();
        assert!(
            e.to_string().contains("missing field `perIteration`"),
            "{e}"
        );
        assert!(e.to_string().contains("line 1"), "{e}");
    }

    /// A file of an earlier version (no `dearerInJvm`) reads as before.
    #[test]
    fn a_durations_file_without_in_jvm_costs_reads_as_before() {
        let dir = tempfile::tempdir().unwrap();
        let old = dir.path().join("d.json");
        std::fs::write(&old, r#"{"classes": {"A": 1.5}, "methods": {"A#m": 1.5}}"#).unwrap();
        let t = load(Some(&old), dir.path()).unwrap().table;
        assert_eq!((t.classes["A"], t.dearer_in_jvm.len()), (1.5, 0));
    }
}
