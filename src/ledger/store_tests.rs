//! Appending and reading back: rotation, the lock under concurrent
//! appends, torn lines, unknown versions and bad lines.

use super::read::{self, Dated, LedgerRead};
use super::record::{Condition, Context, Origin, Record, Repetition, TestId, SCHEMA};
use super::store::{append_to_dir, append_to_file, Limits};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

pub(crate) fn record(class: &str, method: &str, runs: u64, failures: u64) -> Record {
    Record {
        schema: SCHEMA,
        test: TestId {
            class: class.into(),
            method: method.into(),
            task: "test".into(),
        },
        commit: Some("a".repeat(40)),
        branch: Some("main".into()),
        dirty: false,
        condition: Condition {
            context: Context::Alone,
            repetition: Repetition::InJvm,
            mechanism: Some(crate::condition::InJvm::TestsIters),
            execution: None,
        },
        runs,
        failures,
        failure_kinds: BTreeMap::from([("assertion".to_string(), failures)]),
        failing_seeds: vec![],
        signature: None,
        duration_sec: None,
        tool: "0.1.0".into(),
        time: "2026-03-01T10:00:00Z".into(),
        run_id: "run-1".into(),
        origin: Origin::Local,
    }
}

/// Every record of every ledger file below `dir`, with what reading found.
fn read_all(dir: &Path) -> (Vec<Record>, Vec<LedgerRead>) {
    let mut records = Vec::new();
    let mut reads = Vec::new();
    for file in read::files_of(&[dir.to_path_buf()]).unwrap() {
        reads.push(read::read_file(&file, |d: Dated| records.push(d.record)));
    }
    (records, reads)
}

fn ledger_names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".jsonl"))
        .collect();
    names.sort();
    names
}

#[test]
fn appends_read_back_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let first: Vec<Record> = (0..3)
        .map(|i| record("a.B", &format!("t{i}"), 10, i))
        .collect();
    let second = vec![record("a.C", "t", 5, 0)];
    append_to_dir(dir.path(), &first, Limits::LOCAL).unwrap();
    let path = append_to_dir(dir.path(), &second, Limits::LOCAL).unwrap();
    assert_eq!(path, dir.path().join("ledger-000001.jsonl"));
    let (records, reads) = read_all(dir.path());
    assert_eq!(records, [first, second].concat());
    assert!(reads.iter().all(|r| r.problems.is_empty()), "{reads:?}");
}

#[test]
fn files_rotate_and_the_oldest_go_beyond_the_cap() {
    let dir = tempfile::tempdir().unwrap();
    let line = serde_json::to_string(&record("a.B", "t", 1, 0))
        .unwrap()
        .len() as u64
        + 1;
    // Two lines fill a file; four files are the most kept.
    let limits = Limits {
        file_bytes: 2 * line,
        total_bytes: 8 * line,
    };
    for i in 0..11 {
        append_to_dir(dir.path(), &[record("a.B", &format!("t{i}"), 1, 0)], limits).unwrap();
    }
    // 11 lines: files 1..=6 (2+2+2+2+2+1); the oldest two are gone, 7 lines left.
    assert_eq!(
        ledger_names(dir.path()),
        [
            "ledger-000003.jsonl",
            "ledger-000004.jsonl",
            "ledger-000005.jsonl",
            "ledger-000006.jsonl"
        ]
    );
    let (records, _) = read_all(dir.path());
    let methods: Vec<&str> = records.iter().map(|r| r.test.method.as_str()).collect();
    assert_eq!(methods, ["t4", "t5", "t6", "t7", "t8", "t9", "t10"]);
    let total: u64 = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().metadata().unwrap().len())
        .sum();
    assert!(total <= limits.total_bytes, "{total}");
}

#[test]
fn concurrent_appends_keep_every_line_whole() {
    let dir = tempfile::tempdir().unwrap();
    // Small files, so that threads also rotate under each other; no pruning.
    let limits = Limits {
        file_bytes: 4 << 10,
        total_bytes: u64::MAX,
    };
    let (threads, appends, per_append) = (6, 40, 7);
    std::thread::scope(|s| {
        for t in 0..threads {
            let dir = dir.path();
            s.spawn(move || {
                for a in 0..appends {
                    let batch: Vec<Record> = (0..per_append)
                        .map(|i| record(&format!("c.T{t}"), &format!("m{a}_{i}"), 10, 1))
                        .collect();
                    append_to_dir(dir, &batch, limits).unwrap();
                }
            });
        }
    });
    let (records, reads) = read_all(dir.path());
    assert!(reads.iter().all(|r| r.skipped == 0), "{reads:?}");
    assert_eq!(records.len(), threads * appends * per_append);
    // Each append's lines stay together, in order.
    for chunk in records.chunks(per_append) {
        let class = &chunk[0].test.class;
        let prefix = chunk[0].test.method.split('_').next().unwrap();
        for (i, r) in chunk.iter().enumerate() {
            assert_eq!(
                (&r.test.class, r.test.method.clone()),
                (class, format!("{prefix}_{i}"))
            );
        }
    }
    assert!(ledger_names(dir.path()).len() > 1);
}

#[test]
fn a_torn_last_line_is_skipped_and_the_next_append_starts_a_new_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = append_to_dir(dir.path(), &[record("a.B", "t1", 3, 0)], Limits::LOCAL).unwrap();
    let whole = serde_json::to_string(&record("a.B", "t2", 3, 0)).unwrap();
    // A run killed halfway through its line.
    let mut text = std::fs::read_to_string(&path).unwrap();
    text += &whole[..whole.len() / 2];
    std::fs::write(&path, &text).unwrap();
    let (records, reads) = read_all(dir.path());
    assert_eq!(records.len(), 1);
    assert_eq!(reads[0].problems.len(), 1);
    let p = reads[0].problems[0].to_string();
    assert_eq!(
        p,
        format!(
            "{}:2: torn last line (a run stopped while writing it); skipped",
            path.display()
        )
    );
    // The next run's lines are whole; the torn one stays one bad line.
    append_to_dir(dir.path(), &[record("a.B", "t3", 3, 0)], Limits::LOCAL).unwrap();
    let (records, reads) = read_all(dir.path());
    let methods: Vec<&str> = records.iter().map(|r| r.test.method.as_str()).collect();
    assert_eq!(methods, ["t1", "t3"]);
    assert_eq!(reads[0].skipped, 1);
    assert!(
        reads[0].problems[0]
            .to_string()
            .contains(":2: not a ledger record"),
        "{reads:?}"
    );
}

#[test]
fn unknown_versions_and_bad_lines_are_skipped_naming_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("kept.jsonl");
    let good = serde_json::to_string(&record("a.B", "t", 4, 1)).unwrap();
    let newer = good.replace("\"schema\":1", "\"schema\":2");
    let newer_other = r#"{"schema":7,"entirely":"different"}"#;
    let too_many = good.replace("\"failures\":1", "\"failures\":9");
    let bad_time = good.replace("2026-03-01T10:00:00Z", "yesterday");
    let text = [
        good.as_str(),
        "",
        newer.as_str(),
        newer_other,
        "{not json",
        too_many.as_str(),
        bad_time.as_str(),
        "\u{1b}[31mred",
        good.as_str(),
    ]
    .join("\n");
    std::fs::write(&path, text).unwrap();
    let mut records = Vec::new();
    let read = read::read_file(&path, |d| records.push(d));
    // The last line has no newline but is whole: a file kept by hand.
    assert_eq!(read.records, 2);
    assert_eq!(read.skipped, 6);
    let lines: Vec<u64> = read.problems.iter().map(|p| p.line).collect();
    assert_eq!(lines, [3, 4, 5, 6, 7, 8]);
    assert!(read.problems[0]
        .what
        .starts_with("schema version 2, which this gradle-flaky does not know"));
    assert!(read.problems[1].what.starts_with("schema version 7"));
    assert!(read.problems[2].what.starts_with("not a ledger record"));
    assert!(read.problems[3].what.starts_with("9 failures of 4 runs"));
    assert!(read.problems[4]
        .what
        .starts_with("time \"yesterday\" is not an RFC 3339 time"));
    // Nothing from the file reaches a terminal as a control character.
    assert!(read
        .problems
        .iter()
        .all(|p| !p.what.chars().any(char::is_control)));
    assert_eq!(records[0].secs, 1_772_359_200);
}

#[test]
fn an_overlong_line_is_skipped_without_holding_it() {
    let good = serde_json::to_string(&record("a.B", "t", 4, 1)).unwrap();
    let long = "x".repeat(read::MAX_LINE_BYTES * 3);
    let text = format!("{good}\n{long}\n{good}\n");
    let mut n = 0;
    let read = read::read_lines(Path::new("big.jsonl"), text.as_bytes(), |_| n += 1);
    assert_eq!((n, read.records, read.skipped), (2, 2, 1));
    assert!(read.problems[0]
        .to_string()
        .starts_with("big.jsonl:2: longer than"));
}

#[test]
fn problems_are_capped_per_file_and_all_counted() {
    let text = "junk\n".repeat(50);
    let read = read::read_lines(Path::new("f"), text.as_bytes(), |_| {});
    assert_eq!(read.skipped, 50);
    assert_eq!(read.problems.len(), read::PROBLEMS_PER_FILE);
}

#[test]
fn a_ci_file_is_one_file_and_folders_are_read_at_any_depth() {
    let dir = tempfile::tempdir().unwrap();
    let job: PathBuf = super::ci_file(&dir.path().join("artifacts/job-1"));
    assert!(job.ends_with("artifacts/job-1/flakiness-ledger.jsonl"));
    std::fs::create_dir_all(job.parent().unwrap()).unwrap();
    append_to_file(&job, &[record("a.B", "t", 2, 0)]).unwrap();
    append_to_file(&job, &[record("a.B", "u", 2, 1)]).unwrap();
    std::fs::write(dir.path().join("artifacts/notes.txt"), "not a ledger").unwrap();
    let files = read::files_of(&[dir.path().join("artifacts")]).unwrap();
    assert_eq!(files, std::slice::from_ref(&job));
    let (records, _) = read_all(&dir.path().join("artifacts"));
    assert_eq!(records.len(), 2);
    // The same file through its folder and by name: read once.
    let twice = read::files_of(&[dir.path().join("artifacts"), job.clone()]).unwrap();
    assert_eq!(twice, std::slice::from_ref(&job));
    let err = read::files_of(&[dir.path().join("missing")]).unwrap_err();
    assert_eq!(err.exit(), crate::Exit::Usage);
    assert!(err.to_string().contains("missing"), "{err}");
}

/// A reader that gives at most a few bytes a read, as a pipe may.
struct TrickleReader<'a>(&'a [u8]);

impl std::io::Read for TrickleReader<'_> {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        let n = self.0.len().min(out.len()).min(7);
        out[..n].copy_from_slice(&self.0[..n]);
        self.0 = &self.0[n..];
        Ok(n)
    }
}

#[test]
fn lines_are_found_across_reads_of_any_size() {
    let lines: Vec<String> = (0..40)
        .map(|i| serde_json::to_string(&record("a.B", &format!("t{i}"), 9, 1)).unwrap())
        .collect();
    let text = lines.join("\n") + "\n\n";
    let mut methods = Vec::new();
    let read = read::read_lines(Path::new("f"), TrickleReader(text.as_bytes()), |d| {
        methods.push(d.record.test.method)
    });
    assert_eq!((read.records, read.skipped), (40, 0));
    assert_eq!(
        methods,
        (0..40).map(|i| format!("t{i}")).collect::<Vec<_>>()
    );
}

/// Holds an exclusive `flock` on `path` until dropped, as another run would.
struct Held(std::fs::File);

impl Held {
    fn on(path: &Path) -> Held {
        use std::os::fd::AsRawFd;
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .unwrap();
        // SAFETY: flock on a descriptor this value owns.
        assert_eq!(unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX) }, 0);
        Held(file)
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        use std::os::fd::AsRawFd;
        // SAFETY: as above; the other run ends its append.
        unsafe { libc::flock(self.0.as_raw_fd(), libc::LOCK_UN) };
    }
}

/// Runs `append` in a thread and checks that it waits while `held` is held.
fn waits_for(held: Held, append: impl FnOnce() + Send + 'static) {
    let (done, finished) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        append();
        done.send(()).unwrap();
    });
    let wait = std::time::Duration::from_millis(300);
    assert!(
        finished.recv_timeout(wait).is_err(),
        "appended under another run's lock"
    );
    drop(held);
    finished
        .recv_timeout(std::time::Duration::from_secs(20))
        .expect("appended once the lock was released");
}

#[test]
fn appends_wait_for_another_runs_lock() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("ledger");
    std::fs::create_dir_all(&folder).unwrap();
    let held = Held::on(&folder.join(".lock"));
    let target = folder.clone();
    waits_for(held, move || {
        append_to_dir(&target, &[record("a.B", "t", 1, 0)], Limits::LOCAL).unwrap();
    });
    let ci = dir.path().join("flakiness-ledger.jsonl");
    let held = Held::on(&ci);
    let target = ci.clone();
    waits_for(held, move || {
        append_to_file(&target, &[record("a.B", "t", 1, 0)]).unwrap()
    });
    let (records, _) = read_all(dir.path());
    assert_eq!(records.len(), 2);
}
