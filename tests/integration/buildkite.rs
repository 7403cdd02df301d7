//! Integration tests: buildkite (wrap, upload, analyze, pr, manual).
//!
//! Buildkite itself is played by a recording `buildkite-agent` stand-in on PATH
//! (a shell script): it records each call's argv and stdin, keeps artifacts in
//! a folder and serves `artifact download` from it. Gradle is never mocked.

use crate::common::{
    assert_layout_from_cache, assert_nothing_ran_pwned, batch_argv, change, copy_tree,
    docs_only_branch, fixture_copy, fixture_repo, git, given_batch, gradle_flaky, outcome_of,
    pr_branch_with, read_json, repo_root, run, text, uncompiled_copy, use_recorded_layout,
};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Duration;

const STANDIN: &str = r#"#!/bin/sh
# buildkite-agent stand-in for gradle-flaky's tests: records argv and stdin,
# keeps artifacts per job under $BK_ARTIFACTS/<job id>/, meta-data under $BK_LOG/meta/.
n=$(cat "$BK_LOG/.n" 2>/dev/null || echo 0); n=$((n + 1)); echo "$n" > "$BK_LOG/.n"
call="$BK_LOG/$(printf %04d "$n")"
printf '%s\n' "$@" > "$call.argv"
case "$1 $2" in
  "pipeline upload"|"annotate "*) cat > "$call.stdin" ;;
  "artifact upload")
    mkdir -p "$BK_ARTIFACTS/$BUILDKITE_JOB_ID"
    # `./` in front lets a leading `**/` match no folder, as Buildkite's globs do.
    find . -type f | sed 's|^\./||' | while IFS= read -r f; do
      case "$f" in $3) ;; *) case "./$f" in $3) ;; *) continue ;; esac ;; esac
      mkdir -p "$BK_ARTIFACTS/$BUILDKITE_JOB_ID/$(dirname "$f")"
      cp "$f" "$BK_ARTIFACTS/$BUILDKITE_JOB_ID/$f"
    done ;;
  "artifact download")
    glob=$3 dest=$4 store=$BK_ARTIFACTS
    # Another build's artifacts: the store an earlier build left ($BK_BUILDS/<id>).
    if [ "$5" = "--build" ]; then store="$BK_BUILDS/$6"; fi
    if [ "$5" = "--step" ]; then jobs=$6; else jobs=$(ls "$store" 2>/dev/null); fi
    for job in $jobs; do
      [ -d "$store/$job" ] || continue
      (cd "$store/$job" && find . -type f | sed 's|^\./||') | while IFS= read -r f; do
        case "$f" in $glob) ;; *) case "./$f" in $glob) ;; *) continue ;; esac ;; esac
        mkdir -p "$dest/$(dirname "$f")"; cp "$store/$job/$f" "$dest/$f"
        echo "$f" >> "$call.hits"
      done
    done
    [ -s "$call.hits" ] || { echo "No artifacts found" >&2; exit 1; } ;;
  "meta-data exists") [ -f "$BK_LOG/meta/$3" ] || exit 100 ;;
  "meta-data set") mkdir -p "$BK_LOG/meta"; printf '%s' "$4" > "$BK_LOG/meta/$3" ;;
esac
exit 0
"#;

/// A Buildkite stand-in: the script, its call log and its artifact store.
pub struct Buildkite {
    dir: tempfile::TempDir,
}

/// One recorded `buildkite-agent` call.
#[derive(Debug)]
pub struct Call {
    pub argv: Vec<String>,
    pub stdin: String,
}

impl Buildkite {
    pub fn new() -> Buildkite {
        let dir = tempfile::tempdir().unwrap();
        for sub in ["bin", "log", "artifacts", "builds"] {
            std::fs::create_dir(dir.path().join(sub)).unwrap();
        }
        let bin = dir.path().join("bin/buildkite-agent");
        std::fs::write(&bin, STANDIN).unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&bin, std::fs::Permissions::from_mode(0o755)).unwrap();
        Buildkite { dir }
    }

    pub fn artifacts(&self) -> PathBuf {
        self.dir.path().join("artifacts")
    }

    /// Keeps `earlier`'s artifacts as those of the earlier build `id`, which
    /// `artifact download --build ID` serves.
    pub fn keep_build(&self, id: &str, earlier: &Buildkite) {
        crate::common::copy_all(
            &earlier.artifacts(),
            &self.dir.path().join("builds").join(id),
        );
    }

    /// Puts the stand-in first on PATH of `cmd`, in a Buildkite job `job_id`.
    pub fn job<'a>(&self, cmd: &'a mut Command, job_id: &str) -> &'a mut Command {
        let path = format!(
            "{}:{}",
            self.dir.path().join("bin").display(),
            std::env::var("PATH").unwrap_or_default()
        );
        crate::common::in_suite_home(cmd)
            .env("PATH", path)
            .env("BK_LOG", self.dir.path().join("log"))
            .env("BK_ARTIFACTS", self.artifacts())
            .env("BK_BUILDS", self.dir.path().join("builds"))
            .env("BUILDKITE", "true")
            .env("CI", "true")
            .env("BUILDKITE_JOB_ID", job_id)
    }

    /// Every call so far, in order.
    pub fn calls(&self) -> Vec<Call> {
        let log = self.dir.path().join("log");
        let mut names: Vec<_> = std::fs::read_dir(&log)
            .unwrap()
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".argv"))
            .collect();
        names.sort();
        names
            .iter()
            .map(|n| {
                let stem = n.trim_end_matches(".argv");
                let argv = std::fs::read_to_string(log.join(n)).unwrap();
                Call {
                    argv: argv.lines().map(String::from).collect(),
                    stdin: std::fs::read_to_string(log.join(format!("{stem}.stdin")))
                        .unwrap_or_default(),
                }
            })
            .collect()
    }

    /// The calls whose argv starts with `prefix`.
    pub fn calls_of(&self, prefix: &[&str]) -> Vec<Call> {
        self.calls()
            .into_iter()
            .filter(|c| {
                c.argv
                    .iter()
                    .map(String::as_str)
                    .take(prefix.len())
                    .eq(prefix.iter().copied())
            })
            .collect()
    }
}

/// A directory where `buildkite wrap` runs as jobs of step
/// `flakiness-detection:unit`, with the Buildkite stand-in.
struct WrapJobs {
    bk: Buildkite,
    dir: tempfile::TempDir,
}

impl WrapJobs {
    fn new() -> WrapJobs {
        WrapJobs {
            bk: Buildkite::new(),
            dir: tempfile::tempdir().unwrap(),
        }
    }

    /// `buildkite wrap ARGS` as job `job_id`.
    fn cmd(&self, job_id: &str, args: &[&str]) -> Command {
        let mut cmd = gradle_flaky();
        self.bk
            .job(&mut cmd, job_id)
            .current_dir(self.dir.path())
            .env("BUILDKITE_STEP_KEY", "flakiness-detection:unit")
            .env("BUILDKITE_LABEL", "unit tests")
            .args(["buildkite", "wrap"])
            .args(args);
        cmd
    }

    /// Runs job `job_id`, which must exit 0, and returns its status file.
    fn status(&self, job_id: &str, args: &[&str]) -> Value {
        let out = run(&mut self.cmd(job_id, args));
        assert_eq!(out.status.code(), Some(0), "{}", text(&out));
        self.status_file(job_id)
    }

    fn status_file(&self, job_id: &str) -> Value {
        read_json(
            &self
                .dir
                .path()
                .join(format!("flakiness-status/status-{job_id}.json")),
        )
    }
}

#[test]
fn wrap_records_a_failure_annotates_it_and_exits_zero() {
    let jobs = WrapJobs::new();
    let status = jobs.status("job-7", &["--kind", "unit", "--", "sh", "-c", "exit 7"]);
    assert_eq!(status["rc"], 7);
    assert_eq!(status["kind"], "unit");
    assert_eq!(status["stepKey"], "flakiness-detection:unit");
    assert_eq!(status["infraSubtype"], "");
    let notes = jobs.bk.calls_of(&["annotate"]);
    assert_eq!(notes.len(), 1);
    assert_eq!(
        notes[0].argv,
        [
            "annotate",
            "--style",
            "warning",
            "--context",
            "flakiness-detection:unit-failures",
            "--append"
        ]
    );
    assert_eq!(
        notes[0].stdin,
        "[unit tests] (job job-7) exited with 7 - see job log"
    );
}

#[test]
fn wrap_stops_a_command_at_its_timeout_with_rc_124() {
    let jobs = WrapJobs::new();
    let args = ["--kind", "unit", "--timeout", "1s", "--", "sleep", "30"];
    let status = jobs.status("job-t", &args);
    assert_eq!(status["rc"], 124);
    assert_eq!(status["timeoutSec"], 1);
    assert_eq!(
        jobs.bk.calls_of(&["annotate"])[0].stdin,
        "[unit tests] (job job-t) timed out after 1s (rc=124) - see job log"
    );
}

#[test]
fn wrap_reports_oom_only_for_heap_dumps_of_this_run() {
    let jobs = WrapJobs::new();
    let dump = "mkdir -p p/build/heapdump && touch p/build/heapdump/java_pid1.hprof && exit 1";
    let status = jobs.status(
        "job-oom",
        &["--kind", "javaRestTest", "--", "sh", "-c", dump],
    );
    assert_eq!(
        (status["rc"].as_i64(), status["infraSubtype"].as_str()),
        (Some(1), Some("oom"))
    );

    // The same dump, older than the run, belongs to someone else.
    let old = "touch -d 2020-01-01 p/build/heapdump/java_pid1.hprof && exit 1";
    let status = jobs.status(
        "job-old",
        &["--kind", "javaRestTest", "--", "sh", "-c", old],
    );
    assert_eq!(status["infraSubtype"], "");
}

#[test]
fn wrap_forwards_sigterm_to_the_command_and_still_writes_its_status() {
    let jobs = WrapJobs::new();
    let dir = jobs.dir.path();
    let script = "trap 'echo term > seen; exit 143' TERM; touch ready; while :; do sleep 0.1; done";
    let mut child = jobs
        .cmd("job-c", &["--kind", "unit", "--", "sh", "-c", script])
        .spawn()
        .unwrap();
    let ready = dir.join("ready");
    for _ in 0..200 {
        if ready.exists() {
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(ready.exists(), "the wrapped command never started");
    unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGTERM) };
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(0));
    assert!(dir.join("seen").exists(), "SIGTERM was not forwarded");
    let status = jobs.status_file("job-c");
    assert_eq!(status["rc"], 143);
    assert_eq!(status["cancelled"], true);
}

#[test]
fn wrap_runs_the_batch_of_its_parallel_job_from_the_env() {
    let jobs = WrapJobs::new();
    let batch = |word: &str| given_batch(&["sh", "-c", &format!("echo {word} > ran")]).to_string();
    let out = run(jobs
        .cmd("job-p", &["--from-env"])
        .env("BUILDKITE_PARALLEL_JOB", "1")
        .env("FLAKINESS_BATCH_0", batch("zero"))
        .env("FLAKINESS_BATCH_1", batch("one")));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let ran = std::fs::read_to_string(jobs.dir.path().join("ran")).unwrap();
    assert_eq!(ran, "one\n");
    let status = jobs.status_file("job-p");
    assert_eq!(
        (status["kind"].as_str(), status["parallelJob"].as_u64()),
        (Some("unit"), Some(1))
    );
}

#[test]
fn wrap_rejects_a_missing_batch_before_running_anything() {
    let jobs = WrapJobs::new();
    let out = run(&mut jobs.cmd("job-x", &["--from-env"]));
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(String::from_utf8_lossy(&out.stderr).contains("FLAKINESS_BATCH_0"));
    assert!(!jobs.dir.path().join("flakiness-status").exists());
}

/// A batch an earlier version uploaded as Gradle argv text does not run:
/// the job says the pipeline was planned by another version, and records
/// nothing (exit 2, as for a batch that cannot be read).
#[test]
fn wrap_refuses_a_batch_planned_by_another_version() {
    let jobs = WrapJobs::new();
    let old = r#"{"kind":"unit","argv":["sh","-c","echo old > ran"],"taskPaths":[":a:test"]}"#;
    let out = run(jobs
        .cmd("job-o", &["--from-env"])
        .env("FLAKINESS_BATCH_0", old));
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("planned by another version of gradle-flaky"),
        "{stderr}"
    );
    assert!(!jobs.dir.path().join("ran").exists());
    assert!(!jobs.dir.path().join("flakiness-status").exists());
}

#[test]
fn wrap_never_lets_a_command_wait_for_the_terminal() {
    // Buildkite runs jobs in a PTY. The reference's Gradle hung until its
    // timeout reading the terminal from a background process group; the wrapped
    // command's stdin is /dev/null, so a read ends at once (rc 1, not 124).
    let dir = tempfile::tempdir().unwrap();
    let wrap = format!(
        "{} buildkite wrap --kind unit --timeout 20s -- sh -c 'read answer'",
        shell_words::quote(env!("CARGO_BIN_EXE_gradle-flaky"))
    );
    let mut script = Command::new("script");
    script
        .args(["-qec", &wrap, "/dev/null"])
        .current_dir(dir.path());
    let out = run(script.env_remove("BUILDKITE_JOB_ID"));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let status = read_json(&dir.path().join("flakiness-status/status-local.json"));
    assert_eq!(
        status["rc"], 1,
        "the read waited for the terminal until the timeout"
    );
}

/// Buildkite's upload-time interpolation of one string value, as its parser
/// (buildkite/interpolate) reads it: `\\` stays, `\$` and `$$` are a literal
/// `$`, `$(` is left to the shell, a final `$` is literal. Anything else after
/// a `$` would be expanded from the environment: that must never happen to a
/// pipeline we generate, so it panics.
fn interpolate(s: &str) -> String {
    let mut out = String::new();
    let mut rest = s;
    while let Some(c) = rest.chars().next() {
        let (literal, len) = if rest.starts_with("\\\\") {
            ("\\\\", 2)
        } else if rest.starts_with("\\$") || rest.starts_with("$$") {
            ("$", 2)
        } else if rest.starts_with("$(") {
            ("$(", 2)
        } else if rest == "$" {
            ("$", 1)
        } else if c == '$' {
            panic!("Buildkite would expand `{rest}` in {s:?}")
        } else {
            (&rest[..c.len_utf8()], c.len_utf8())
        };
        out.push_str(literal);
        rest = &rest[len..];
    }
    out
}

/// Every string value of a pipeline as the agent sees it after upload.
pub(crate) fn interpolated(value: &Value) -> Value {
    match value {
        Value::String(s) => Value::String(interpolate(s)),
        Value::Array(items) => Value::Array(items.iter().map(interpolated).collect()),
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| (k.clone(), interpolated(v)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// Buildkite's published pipeline schema (tests/data/buildkite).
pub(crate) fn assert_valid_pipeline(pipeline: &Value) {
    let schema = read_json(&repo_root().join("tests/data/buildkite/pipeline-schema.json"));
    let validator = jsonschema::validator_for(&schema).unwrap();
    let errors: Vec<String> = validator
        .iter_errors(pipeline)
        .map(|e| format!("{e} at {}", e.instance_path))
        .collect();
    assert!(
        errors.is_empty(),
        "invalid pipeline: {errors:#?}\n{pipeline:#}"
    );
}

/// The steps of the one uploaded group.
pub(crate) fn steps(pipeline: &Value) -> &Vec<Value> {
    pipeline["steps"][0]["steps"]
        .as_array()
        .expect("a group of steps")
}

/// The keys of the pipeline's steps, in order.
pub(crate) fn step_keys(pipeline: &Value) -> Vec<&str> {
    steps(pipeline)
        .iter()
        .filter_map(|s| s["key"].as_str())
        .collect()
}

/// Names of the branch's hostile files (a shell would run the first one's `$(...)`).
const PWNED_SUITE: &str = "painless/40_$(touch pwned)";
const ODD_SUITE: &str = "painless_execute/50_it's `odd`";

/// The fixture as a git repository: `main` is the fixture, the checked-out
/// branch `pr` touches a flaky and a stable unit test class, the test that
/// runs its JVM out of heap, the slow test, and adds two YAML suites whose
/// names are hostile to shells.
fn pr_branch() -> tempfile::TempDir {
    let suite = |section: &str| format!("\"{section}\":\n  - do: {{}}\n  - match: {{}}\n");
    pr_branch_with(
        &[
            "server/src/test/java/org/elasticsearch/flaky/AssertionFlakyTests.java",
            "server/src/test/java/org/elasticsearch/common/StringsTests.java",
            "test/external-modules/esql-heap-attack/src/javaRestTest/java/org/elasticsearch/xpack/esql/heap_attack/HeapAttackIT.java",
            "x-pack/plugin/ml/src/slowTest/java/org/elasticsearch/xpack/ml/slow/SuiteTimeoutTests.java",
        ],
        &[
            (PWNED_SUITE, suite("Pwned section")),
            (ODD_SUITE, suite("Odd section")),
        ],
    )
}

/// `gradle-flaky pr` in `dir` as job `job-pr` of a Buildkite build, with small
/// counts: one test per unit batch, 2 iterations, 1 REST loop.
fn pr_cmd(bk: &Buildkite, dir: &Path) -> Command {
    let mut cmd = gradle_flaky();
    bk.job(&mut cmd, "job-pr")
        .current_dir(dir)
        .env(
            "FLAKINESS_GRADLE",
            "gradle --offline -Dtests.fixture.probability=1",
        )
        .env(
            "FLAKINESS_AGENT_BIN",
            shell_words::quote(env!("CARGO_BIN_EXE_gradle-flaky")).as_ref(),
        )
        .env("FLAKINESS_AGENTS", "queue=flaky")
        .args([
            "pr",
            "--base",
            "main",
            "--cap",
            "unit=1",
            "--unit-iters",
            "2",
            "--rest-iters",
            "1",
        ]);
    cmd
}

#[test]
fn pr_without_test_changes_says_so_and_uploads_nothing() {
    let bk = Buildkite::new();
    let repo = docs_only_branch();
    let dir = repo.path();
    use_recorded_layout(
        dir,
        "es-mini",
        &["gradle", "--offline", "-Dtests.fixture.probability=1"],
    );
    let out = run(&mut pr_cmd(&bk, dir));
    assert_layout_from_cache(&out);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert!(String::from_utf8_lossy(&out.stderr).contains("No test changes or unmutes detected"));
    assert!(bk.calls_of(&["pipeline", "upload"]).is_empty());
    let notes = bk.calls_of(&["annotate"]);
    assert_eq!(notes.len(), 1);
    assert_eq!(
        notes[0].argv,
        [
            "annotate",
            "--style",
            "info",
            "--context",
            "flakiness-detection"
        ]
    );
}

#[test]
fn manual_needs_flakiness_classes() {
    let out = run(gradle_flaky().arg("manual").env("FLAKINESS_CLASSES", " \n"));
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(String::from_utf8_lossy(&out.stderr).contains(
        "FLAKINESS_CLASSES environment variable is required (newline- or comma-separated)"
    ));
}

/// Plays the Buildkite agent for one job of `step`: a fresh checkout (a copy
/// of `source` without build outputs), the step's env and the job's
/// `BUILDKITE_*` variables, every value as Buildkite's interpolation leaves it,
/// the command through `sh -c` (the agent's shell), then the step's
/// `artifact_paths` uploaded through the stand-in. Returns the checkout.
pub(crate) fn run_job(
    bk: &Buildkite,
    source: Option<&Path>,
    step: &Value,
    parallel_job: Option<u32>,
    job_id: &str,
) -> (tempfile::TempDir, Output) {
    let checkout = tempfile::tempdir().unwrap();
    if let Some(source) = source {
        copy_tree(source, checkout.path());
    }
    let step = interpolated(step);
    let mut cmd = Command::new("sh");
    cmd.args(["-c", step["command"].as_str().unwrap()])
        .current_dir(checkout.path());
    bk.job(&mut cmd, job_id)
        .env("BUILDKITE_STEP_KEY", step["key"].as_str().unwrap())
        .env("BUILDKITE_LABEL", step["label"].as_str().unwrap());
    if let Some(n) = parallel_job {
        cmd.env("BUILDKITE_PARALLEL_JOB", n.to_string());
    }
    for (name, value) in step["env"].as_object().into_iter().flatten() {
        cmd.env(name, value.as_str().unwrap());
    }
    let out = run(&mut cmd);
    let globs: Vec<&str> = match &step["artifact_paths"] {
        Value::String(glob) => vec![glob],
        Value::Array(globs) => globs.iter().filter_map(Value::as_str).collect(),
        _ => vec![],
    };
    for glob in globs {
        let mut upload = Command::new("buildkite-agent");
        bk.job(&mut upload, job_id)
            .current_dir(checkout.path())
            .args(["artifact", "upload", glob]);
        assert!(run(&mut upload).status.success());
    }
    (checkout, out)
}

#[test]
fn pr_pipeline_runs_on_agents_and_the_report_classifies_every_job() {
    let bk = Buildkite::new();
    let repo = pr_branch();
    let out = run(&mut pr_cmd(&bk, repo.path()));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let pr_said = text(&out);

    // A retried bootstrap step must not upload the same step keys again.
    let again = run(&mut pr_cmd(&bk, repo.path()));
    assert_eq!(again.status.code(), Some(0), "{}", text(&again));
    assert!(
        String::from_utf8_lossy(&again.stderr).contains("not uploading again"),
        "{}",
        text(&again)
    );
    let uploads = bk.calls_of(&["pipeline", "upload"]);
    assert_eq!(uploads.len(), 1, "{}", text(&out));
    let pipeline: Value = serde_json::from_str(&uploads[0].stdin).unwrap();
    assert_valid_pipeline(&pipeline);
    // The hostile names travel as data: escaped for Buildkite, intact after it.
    assert!(uploads[0].stdin.contains("40_$$(touch pwned)"));
    let agent_view = interpolated(&pipeline);
    let yaml = steps(&agent_view)
        .iter()
        .find(|s| s["key"] == "flakiness-detection:yaml-suite")
        .unwrap();
    let argv = first_batch_argv(yaml);
    let argv: Vec<&str> = argv.iter().map(String::as_str).collect();
    assert!(
        argv.iter()
            .any(|a| a.contains(PWNED_SUITE) && a.contains(ODD_SUITE)),
        "{argv:?}"
    );

    let keys = step_keys(&pipeline);
    assert_eq!(
        keys,
        [
            "flakiness-detection:unit",
            "flakiness-detection:java-rest",
            "flakiness-detection:yaml-suite",
            "flakiness-detection:slow-test",
            "flakiness-detection:analyze"
        ]
    );

    // Run every job as an agent would, in pipeline order.
    let mut checkouts = Vec::new();
    let mut job_ids = Vec::new();
    for step in steps(&pipeline)
        .iter()
        .filter(|s| s["key"] != "flakiness-detection:analyze")
    {
        let key = step["key"].as_str().unwrap();
        let mut step = step.clone();
        if key == "flakiness-detection:slow-test" {
            // Buildkite's smallest step timeout is a minute: this one step gets
            // a shorter inner timeout so its slow test is stopped quickly.
            let command = step["command"]
                .as_str()
                .unwrap()
                .replace("--timeout 58m", "--timeout 5s");
            step["command"] = Value::String(command);
        }
        let jobs = step["parallelism"].as_u64().map(|n| n as u32);
        for n in 0..jobs.unwrap_or(1) {
            let job_id = format!("job-{}-{n}", key.rsplit(':').next().unwrap());
            let (checkout, out) = run_job(&bk, Some(repo.path()), &step, jobs.map(|_| n), &job_id);
            assert_eq!(out.status.code(), Some(0), "{job_id}: {}", text(&out));
            // A job says its environment's JVM options once (a REST loop's too).
            let said = String::from_utf8_lossy(&out.stderr)
                .matches("JAVA_TOOL_OPTIONS is set")
                .count();
            let set = std::env::var("JAVA_TOOL_OPTIONS").is_ok_and(|v| !v.trim().is_empty());
            assert_eq!(said, usize::from(set), "{job_id}: {}", text(&out));
            checkouts.push(checkout);
            job_ids.push(job_id);
        }
    }
    let analyze = steps(&pipeline).last().unwrap();
    let (report_dir, out) = run_job(&bk, None, analyze, None, "job-analyze");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));

    let outcomes = read_json(&report_dir.path().join("flakiness-outcomes.json"));
    let outcome = |job: &str| outcome_of(&outcomes, job);
    // Unit batches follow the selection: StringsTests (stable), then AssertionFlakyTests.
    assert_eq!(outcome("job-unit-0")["outcome"], "clean_pass");
    assert_eq!(outcome("job-unit-1")["outcome"], "flaky_detected");
    assert_eq!(
        outcome("job-unit-1")["failingClasses"],
        serde_json::json!(["org.elasticsearch.flaky.AssertionFlakyTests"])
    );
    let oom = outcome("job-java-rest-0");
    assert_eq!(
        (oom["outcome"].as_str(), oom["infraSubtype"].as_str()),
        (Some("infra_fail"), Some("oom")),
        "{oom:#}"
    );
    assert_eq!(outcome("job-yaml-suite-0")["outcome"], "clean_pass");
    let slow = outcome("job-slow-test-0");
    assert_eq!(
        (slow["outcome"].as_str(), slow["timedOut"].as_bool()),
        (Some("timeout"), Some(true)),
        "{slow:#}"
    );
    assert_eq!(
        outcomes.as_array().unwrap().len(),
        job_ids.len(),
        "one record per batch job"
    );
    // The report step kept the run in its ledger artifact, which history reads.
    assert_eq!(
        analyze["artifact_paths"],
        serde_json::json!([
            "flakiness-outcomes.json",
            "flakiness-durations.json",
            "flakiness-ledger.jsonl",
            "flakiness-history.html",
            "flakiness-learned/*"
        ])
    );
    // Beside it, the history page of the run's tests.
    let page = std::fs::read_to_string(report_dir.path().join("flakiness-history.html")).unwrap();
    assert!(page.contains("AssertionFlakyTests"), "{page}");
    let ledger = report_dir.path().join("flakiness-ledger.jsonl");
    let flaky = crate::history::ledger_line(&ledger, "testFlakyAssertion");
    assert_eq!(flaky["where"], "buildkite", "{flaky:#}");
    assert!(flaky["failures"].as_u64().unwrap() > 0, "{flaky:#}");
    // Stop on proof (a changed test) runs its 2 iterations in chunks of
    // one, each in a test JVM of its own: through the helper, each the first
    // execution in its JVM.
    assert_eq!(flaky["condition"]["execution"], "first", "{flaky:#}");
    assert_eq!(flaky["condition"]["mechanism"], "tests-iters", "{flaky:#}");
    // The upload compiled the selected sources before it uploaded, and told
    // the report step so by value.
    assert_eq!(analyze["env"]["FLAKINESS_COMPILE_FAILED"], "false");
    assert_eq!(analyze["env"]["FLAKINESS_SKIPPED_COUNT"], "0");
    assert!(pr_said.contains("compile gate: "), "{pr_said}");

    let reports = bk.calls_of(&["annotate", "--style"]);
    let report = reports
        .iter()
        .find(|c| c.argv.contains(&"flakiness-detection".to_string()))
        .expect("the report annotation");
    assert_eq!(
        report.argv[2], "error",
        "a proven flaky test makes the report an error"
    );
    assert!(
        report.stdin.contains("AssertionFlakyTests"),
        "{}",
        report.stdin
    );
    // Task paths are the build's, not the folders the report step downloaded
    // each job to, and a renamed project keeps its real path.
    assert!(
        report
            .stdin
            .contains(":test:external-modules:test-esql-heap-attack:javaRestTest --tests"),
        "{}",
        report.stdin
    );
    assert!(!report.stdin.contains(":job-"), "{}", report.stdin);
    assert!(
        report.stdin.contains(
            "gradle --offline -Dtests.fixture.probability=1 :server:cleanTest :server:test --tests"
        ),
        "reproduce lines name the batches' Gradle program and force the task: {}",
        report.stdin
    );

    // The report step reads earlier ledgers (`FLAKINESS_LEDGER`): a failing
    // test they hold failing on the pull request's base is known flaky there.
    let earlier = tempfile::tempdir().unwrap();
    let mut on_main = flaky.clone();
    on_main["branch"] = "main".into();
    on_main["commit"] = "1111111111111111111111111111111111111111".into();
    std::fs::write(
        earlier.path().join("flakiness-ledger.jsonl"),
        format!("{on_main}\n"),
    )
    .unwrap();
    let mut again = analyze.clone();
    again["env"]["FLAKINESS_LEDGER"] = earlier.path().to_str().unwrap().into();
    again["env"]["BUILDKITE_PULL_REQUEST_BASE_BRANCH"] = "main".into();
    let (_again_dir, out) = run_job(&bk, None, &again, None, "job-analyze-again");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let annotations = bk.calls_of(&["annotate", "--style"]);
    let last = annotations.last().expect("the second report's annotation");
    assert!(
        last.stdin.contains("### Known flaky on `main`")
            && last.stdin.contains(
                "`org.elasticsearch.flaky.AssertionFlakyTests#testFlakyAssertion`: known flaky on `main`"
            ),
        "{}",
        last.stdin
    );

    // Nothing ran the hostile names as shell code.
    let mut dirs: Vec<&Path> = checkouts.iter().map(|c| c.path()).collect();
    dirs.extend([repo.path(), report_dir.path()]);
    assert_nothing_ran_pwned(&dirs);
}

/// The compile gate runs in the uploading step, as Elasticsearch's generate
/// step compiles: sources that do not compile upload the analyze step alone,
/// told by value (`FLAKINESS_COMPILE_FAILED=true`, no marker file), and the
/// report records `build_failed`.
#[test]
fn a_failed_compile_gate_uploads_the_report_alone_and_is_reported_as_build_failed() {
    let bk = Buildkite::new();
    let repo = pr_branch_with(
        &["server/src/test/java/org/elasticsearch/common/StringsTests.java"],
        &[],
    );
    let broken = repo
        .path()
        .join("server/src/test/java/org/elasticsearch/common/StringsTests.java");
    let old = std::fs::read_to_string(&broken).unwrap();
    std::fs::write(&broken, format!("{old}\nthis is not Java\n")).unwrap();
    git(repo.path(), &["commit", "-qam", "break it"]);
    let out = run(&mut pr_cmd(&bk, repo.path()));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("the selected test sources do not compile"),
        "{}",
        text(&out)
    );
    let uploads = bk.calls_of(&["pipeline", "upload"]);
    let pipeline: Value = serde_json::from_str(&uploads[0].stdin).unwrap();
    assert_valid_pipeline(&pipeline);
    let all = steps(&pipeline);
    assert_eq!(all.len(), 1, "{pipeline:#}");
    let analyze = &all[0];
    assert_eq!(analyze["key"], "flakiness-detection:analyze");
    assert_eq!(analyze["env"]["FLAKINESS_COMPILE_FAILED"], "true");
    assert!(!repo.path().join("flakiness-precompile.json").exists());

    let (report, out) = run_job(&bk, None, analyze, None, "job-analyze");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let outcomes = read_json(&report.path().join("flakiness-outcomes.json"));
    assert_eq!(
        outcomes,
        serde_json::json!([{
            "jobId": "build-failed:precompile", "stepKey": "flakiness-orchestration:compile", "kind": "",
            "rc": 1, "durationSec": 0, "realFailures": 0, "suiteTimeouts": 0, "totalCases": 0,
            "outcome": "build_failed", "timedOut": false, "failingClasses": [], "reason": "precompile"
        }])
    );
    let note = &bk.calls_of(&["annotate", "--style"]).pop().unwrap();
    assert!(note.stdin.contains("failed to compile"), "{}", note.stdin);
}

/// The report step's inputs, checked (Elasticsearch's contract): a value
/// that did not arrive and a skip list that does not match its declared
/// count are each an `infra_fail` record of subtype `report_error`, job
/// `report-error:inputs`, outside `flakiness-detection:`; never a default.
#[test]
fn problems_of_the_report_inputs_become_report_error_records() {
    let bk = Buildkite::new();
    put_artifact(
        &bk.artifacts(),
        "job-pr/flakiness-skipped.json",
        r#"[{"input":"a.OldIT","reasonCode":"no-runnable-task","reason":"disabled","origin":"changed"}]"#,
    );
    let report = tempfile::tempdir().unwrap();
    let mut analyze = gradle_flaky();
    bk.job(&mut analyze, "job-analyze")
        .current_dir(report.path())
        .env("FLAKINESS_SKIPPED_COUNT", "2")
        .env_remove("FLAKINESS_COMPILE_FAILED")
        .args(["buildkite", "analyze"]);
    let out = run(&mut analyze);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let outcomes = read_json(&report.path().join("flakiness-outcomes.json"));
    let errors: Vec<&Value> = outcomes
        .as_array()
        .unwrap()
        .iter()
        .filter(|o| o["infraSubtype"] == "report_error")
        .collect();
    let reasons: Vec<&str> = errors
        .iter()
        .map(|e| e["reason"].as_str().unwrap())
        .collect();
    assert_eq!(
        reasons,
        [
            "FLAKINESS_COMPILE_FAILED is undefined",
            "flakiness-skipped.json has 1 entries, but the planning step declared 2"
        ]
    );
    for e in &errors {
        assert_eq!(
            (
                e["jobId"].as_str(),
                e["outcome"].as_str(),
                e["stepKey"].as_str()
            ),
            (
                Some("report-error:inputs"),
                Some("infra_fail"),
                Some("flakiness-orchestration:report")
            )
        );
    }
    // The entry that did arrive is still recorded.
    assert!(outcomes
        .as_array()
        .unwrap()
        .iter()
        .any(|o| o["outcome"] == "not_applicable"));
    let note = bk.calls_of(&["annotate", "--style"]).pop().unwrap();
    assert!(
        note.stdin.contains("The report's inputs are incomplete"),
        "{}",
        note.stdin
    );
    assert_eq!(note.argv[2], "warning");
}

#[test]
fn pr_outside_buildkite_runs_the_branch_tests_here() {
    let repo = fixture_repo("pr");
    let dir = repo.path();
    change(
        dir,
        "server/src/test/java/org/elasticsearch/common/StringsTests.java",
    );
    git(dir, &["commit", "-qam", "branch"]);
    let out = run(gradle_flaky()
        .current_dir(dir)
        .env("FLAKINESS_GRADLE", "gradle --offline")
        .args([
            "pr",
            "--base",
            "main",
            "--unit-iters",
            "2",
            "--format",
            "json",
        ]));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let classes: Vec<&str> = report["tests"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|t| t["class"].as_str())
        .collect();
    assert!(
        !classes.is_empty()
            && classes
                .iter()
                .all(|c| *c == "org.elasticsearch.common.StringsTests"),
        "{classes:?}"
    );
    assert_eq!(report["summary"]["failed"], 0);
}

/// Leaves `text` at `path` among the stand-in's artifacts.
fn put_artifact(store: &Path, path: &str, text: &str) {
    let path = store.join(path);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

#[test]
fn analyze_reports_jobs_without_status_and_tests_not_applicable() {
    let bk = Buildkite::new();
    let store = bk.artifacts();
    let put = |path: &str, text: &str| put_artifact(&store, path, text);
    // Job 1 of 2 of the unit step ran and passed; job 2 left nothing behind.
    put(
        "job-a/flakiness-status/status-job-a.json",
        r#"{"jobId":"job-a","stepKey":"flakiness-detection:unit","kind":"unit","rc":0,"durationSec":12,"infraSubtype":"","timeoutSec":3480,"parallelJob":0}"#,
    );
    put(
        "job-a/server/build/test-results/test/TEST-org.x.ATests.xml",
        r#"<testsuite name="org.x.ATests"><testcase classname="org.x.ATests" name="testA"/></testsuite>"#,
    );
    // A status file is written by a job running the branch's code: its job id
    // names a directory, so one that could leave the report's folder is ignored.
    put(
        "job-b/flakiness-status/status-evil.json",
        r#"{"jobId":"../../evil","stepKey":"flakiness-detection:unit","rc":1}"#,
    );
    put(
        "job-pr/flakiness-skipped.json",
        r#"[{"input":"qa/old/src/javaRestTest/java/org/x/UpgradeIT.java","reasonCode":"no-runnable-task","reason":"not applicable: no enabled Test task runs it","origin":"changed"}]"#,
    );
    let report = tempfile::tempdir().unwrap();
    let mut analyze = gradle_flaky();
    bk.job(&mut analyze, "job-analyze")
        .current_dir(report.path())
        .env(
            "FLAKINESS_REPORT_CONTEXT",
            r#"{"jobs":[{"stepKey":"flakiness-detection:unit","kind":"unit","label":"unit tests","jobs":2}]}"#,
        )
        .env("FLAKINESS_COMPILE_FAILED", "false")
        .env("FLAKINESS_SKIPPED_COUNT", "1")
        .args(["buildkite", "analyze"]);
    let out = run(&mut analyze);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));

    assert!(
        String::from_utf8_lossy(&out.stderr).contains("ignoring job id \"../../evil\""),
        "{}",
        text(&out)
    );
    let downloads = bk.calls_of(&["artifact", "download"]);
    assert!(
        downloads
            .iter()
            .any(|c| c.argv[2] == "**/build/test-results/**/TEST-*.xml"
                && c.argv[4..] == ["--step", "job-a"]),
        "{downloads:?}"
    );
    let outcomes = read_json(&report.path().join("flakiness-outcomes.json"));
    let outcomes: Vec<(&str, &str)> = outcomes
        .as_array()
        .unwrap()
        .iter()
        .map(|o| (o["jobId"].as_str().unwrap(), o["outcome"].as_str().unwrap()))
        .collect();
    assert_eq!(
        outcomes,
        [
            ("job-a", "clean_pass"),
            (
                "not-applicable:qa/old/src/javaRestTest/java/org/x/UpgradeIT.java",
                "not_applicable"
            )
        ]
    );
    let note = bk
        .calls_of(&["annotate"])
        .pop()
        .expect("the report annotation");
    assert_eq!(
        note.argv,
        [
            "annotate",
            "--style",
            "warning",
            "--context",
            "flakiness-detection"
        ]
    );
    assert!(
        note.stdin
            .contains("`flakiness-detection:unit` (unit tests) job 2/2"),
        "{}",
        note.stdin
    );
    assert!(
        note.stdin.contains("UpgradeIT.java`: not applicable"),
        "{}",
        note.stdin
    );
}

#[test]
fn manual_uploads_the_named_tests_and_fails_on_a_name_that_resolves_to_nothing() {
    let bk = Buildkite::new();
    let repo = fixture_copy();
    std::fs::write(
        repo.path()
            .join("server/src/test/java/org/elasticsearch/common/AbstractLonelyTests.java"),
        "package org.elasticsearch.common;\n\
         public abstract class AbstractLonelyTests extends org.elasticsearch.test.ESTestCase {}\n",
    )
    .unwrap();
    let out = run(manual_cmd(
        &bk,
        repo.path(),
        "org.elasticsearch.common.StringsTests\norg.example.NoSuchTests\n\
         org.elasticsearch.common.AbstractLonelyTests",
        "gradle --offline",
    )
    .env("FLAKINESS_ITERS", "3"));
    // An abstract class without a concrete subclass, named, keeps its origin:
    // not green while testing nothing (Elasticsearch records it as an unmute).
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));

    let uploads = bk.calls_of(&["pipeline", "upload"]);
    assert_eq!(uploads.len(), 1, "{}", text(&out));
    let pipeline: Value = serde_json::from_str(&uploads[0].stdin).unwrap();
    assert_valid_pipeline(&pipeline);
    let unit = steps(&pipeline)
        .iter()
        .find(|s| s["key"] == "flakiness-detection:unit")
        .unwrap();
    let argv = first_batch_argv(unit);
    let argv: Vec<&str> = argv.iter().map(String::as_str).collect();
    assert!(
        argv.contains(&"-Dtests.iters=3"),
        "FLAKINESS_ITERS sets the iterations: {argv:?}"
    );
    assert!(
        argv.contains(&"org.elasticsearch.common.StringsTests"),
        "{argv:?}"
    );

    let note = &bk.calls_of(&["annotate"])[0];
    assert_eq!(
        note.argv,
        [
            "annotate",
            "--style",
            "error",
            "--context",
            "flakiness-detection-selection"
        ]
    );
    assert!(
        note.stdin.contains("named `org.example.NoSuchTests`"),
        "{}",
        note.stdin
    );
    assert!(
        note.stdin
            .contains("org.elasticsearch.common.AbstractLonelyTests")
            && note.stdin.contains("abstract-no-concrete-subclass"),
        "{}",
        note.stdin
    );
}

/// `gradle-flaky manual` in `dir` as job `job-manual`, for `classes` run with `gradle`.
pub(crate) fn manual_cmd(bk: &Buildkite, dir: &Path, classes: &str, gradle: &str) -> Command {
    let mut cmd = gradle_flaky();
    bk.job(&mut cmd, "job-manual")
        .current_dir(dir)
        .env("FLAKINESS_CLASSES", classes)
        .env("FLAKINESS_GRADLE", gradle)
        .arg("manual");
    cmd
}

/// The argv of a step's first batch, as its job renders it from the
/// typed batch the step's env carries.
fn first_batch_argv(step: &Value) -> Vec<String> {
    let batch: Value =
        serde_json::from_str(step["env"]["FLAKINESS_BATCH_0"].as_str().unwrap()).unwrap();
    batch_argv(&batch)
}

/// A batch whose Test tasks the build skips (an `onlyIf` that is false) is
/// reported as skipped by the build on Buildkite, whether it runs Gradle once
/// (a unit batch, where one of its two tasks ran: a `clean_pass` by
/// Elasticsearch's rules) or loops it (a REST batch, through `gradle-flaky
/// repeat`, all skipped: `not_applicable`, `task-skipped`), never a `hang` or
/// an `infra_fail`.
#[test]
fn batches_the_build_skips_are_reported_as_skipped_by_the_build() {
    let bk = Buildkite::new();
    let repo = fixture_copy();
    let dir = repo.path();
    let append = |file: &str, line: &str| {
        let path = dir.join(file);
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, format!("{text}\n{line}\n")).unwrap();
    };
    append("server/build.gradle", "test.onlyIf { false }");
    append(
        "modules/lang-painless/build.gradle",
        "tasks.yamlRestTest.enabled = false",
    );
    let mut upload = gradle_flaky();
    bk.job(&mut upload, "job-upload")
        .current_dir(dir)
        .env("FLAKINESS_GRADLE", "gradle --offline")
        .env(
            "FLAKINESS_AGENT_BIN",
            shell_words::quote(env!("CARGO_BIN_EXE_gradle-flaky")).as_ref(),
        )
        .args([
            "buildkite",
            "upload",
            "--dry-run",
            "--iters",
            "2",
            "org.elasticsearch.common.StringsTests",
            "org.elasticsearch.xpack.ml.MlConfigTests",
            "org.elasticsearch.painless.LangPainlessClientYamlTestSuiteIT",
        ]);
    let out = run(&mut upload);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let pipeline: Value = serde_json::from_slice(&out.stdout).unwrap();
    let step = |key: &str| {
        steps(&pipeline)
            .iter()
            .find(|s| s["key"] == key)
            .unwrap_or_else(|| panic!("no step {key}: {pipeline:#}"))
            .clone()
    };
    let unit = step("flakiness-detection:unit");
    let batch: Value =
        serde_json::from_str(unit["env"]["FLAKINESS_BATCH_0"].as_str().unwrap()).unwrap();
    // The job checks the Test tasks of its typed batch.
    let command: gradle_flaky::domain::GradleCommand =
        serde_json::from_value(batch["command"].clone()).unwrap();
    assert_eq!(
        command.task_paths(),
        [":server:test", ":x-pack:plugin:ml:test"]
    );
    let mut checkouts = Vec::new();
    for (key, job) in [
        ("flakiness-detection:unit", "job-unit"),
        ("flakiness-detection:yaml-runner", "job-yaml"),
    ] {
        let (checkout, out) = run_job(&bk, Some(dir), &step(key), None, job);
        assert_eq!(out.status.code(), Some(0), "{job}: {}", text(&out));
        assert!(
            String::from_utf8_lossy(&out.stderr).contains(">>> skipped by the build: "),
            "{job}: {}",
            text(&out)
        );
        checkouts.push(checkout);
    }
    let (report_dir, out) = run_job(
        &bk,
        None,
        &step("flakiness-detection:analyze"),
        None,
        "job-analyze",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let outcomes = read_json(&report_dir.path().join("flakiness-outcomes.json"));
    let got: Vec<(&str, &str, &str)> = outcomes
        .as_array()
        .unwrap()
        .iter()
        .map(|o| {
            (
                o["jobId"].as_str().unwrap(),
                o["outcome"].as_str().unwrap(),
                o["reason"].as_str().unwrap_or_default(),
            )
        })
        .collect();
    // The unit batch is a partial skip: its ml tests ran and passed, its
    // server tests never ran, so it is no clean pass.
    let unit_cases = outcomes[0]["totalCases"].as_u64().unwrap();
    assert!(unit_cases > 0, "{outcomes:#}");
    // Elasticsearch's rules: every requested task skipped is `not_applicable`
    // (`task-skipped`); a partial skip is judged by the rest (a clean pass).
    assert_eq!(
        got,
        [
            ("job-unit", "clean_pass", ""),
            ("job-yaml", "not_applicable", "task-skipped"),
        ],
        "{outcomes:#}"
    );
    let report = bk
        .calls_of(&["annotate", "--style"])
        .into_iter()
        .find(|c| c.argv.contains(&"flakiness-detection".to_string()))
        .expect("the report annotation");
    assert!(
        report.stdin.contains("2 job(s) skipped by the build")
            && report
                .stdin
                .contains("(`flakiness-detection:unit`): :server:test SKIPPED (onlyIf is false)")
            && report
                .stdin
                .contains(":modules:lang-painless:yamlRestCompatTest SKIPPED (onlyIf is false)"),
        "{}",
        report.stdin
    );
}

/// `FLAKINESS_TRIAGE` adds a triage step after the report step. Run as an
/// agent would, in a fresh checkout, it fetches every batch job's reports,
/// replays the failing seeds there, uploads `flakiness-triage.json` and posts
/// an annotation of its own, leaving the report's annotation alone.
#[test]
fn flakiness_triage_replays_the_failing_seeds_in_a_step_after_the_report() {
    let bk = Buildkite::new();
    let repo = fixture_copy();
    let out = run(manual_cmd(
        &bk,
        repo.path(),
        "org.elasticsearch.flaky.AssertionFlakyTests#testFlakyAssertion",
        // Every execution fails: two failing seeds, each failing again on replay.
        "gradle --offline -Dtests.fixture.probability=1",
    )
    .env("FLAKINESS_ITERS", "2")
    .env("FLAKINESS_TRIAGE", "3")
    .env(
        "FLAKINESS_AGENT_BIN",
        shell_words::quote(env!("CARGO_BIN_EXE_gradle-flaky")).as_ref(),
    ));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let uploads = bk.calls_of(&["pipeline", "upload"]);
    let pipeline: Value = serde_json::from_str(&uploads[0].stdin).unwrap();
    assert_valid_pipeline(&pipeline);
    let step = |key: &str| {
        steps(&pipeline)
            .iter()
            .find(|s| s["key"] == key)
            .unwrap_or_else(|| panic!("no step {key}: {pipeline:#}"))
            .clone()
    };
    assert_eq!(
        steps(&pipeline).last().unwrap()["key"],
        "flakiness-orchestration:triage"
    );

    let (_unit, out) = run_job(
        &bk,
        Some(repo.path()),
        &step("flakiness-detection:unit"),
        None,
        "job-unit",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let (_report, out) = run_job(
        &bk,
        None,
        &step("flakiness-detection:analyze"),
        None,
        "job-report",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let (_triage, out) = run_job(
        &bk,
        Some(repo.path()),
        &step("flakiness-orchestration:triage"),
        None,
        "job-triage",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));

    let triaged = read_json(&bk.artifacts().join("job-triage/flakiness-triage.json"));
    let test = triaged["tests"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["method"] == "testFlakyAssertion")
        .unwrap();
    assert_eq!(test["runs"], 2, "{test:#}");
    let triage = &test["triage"];
    assert_eq!(triage["verdict"], "seed-deterministic", "{}", text(&out));
    assert_eq!(
        (triage["replays"].as_u64(), triage["reproduced"].as_u64()),
        (Some(6), Some(6)),
        "{triage:#}\n{}",
        text(&out)
    );
    // The batch job's own warning (its rc 1) aside: the report, then the triage.
    let notes: Vec<Call> = bk
        .calls_of(&["annotate"])
        .into_iter()
        .filter(|c| !c.argv[4].ends_with("-failures"))
        .collect();
    let contexts: Vec<&str> = notes.iter().map(|c| c.argv[4].as_str()).collect();
    assert_eq!(contexts, ["flakiness-detection", "flakiness-triage"]);
    let body = &notes[1].stdin;
    assert!(body.starts_with("## Flakiness triage"), "{body}");
    assert!(
        body.contains("| testFlakyAssertion | seed-deterministic | 6/6 |"),
        "{body}"
    );
    assert!(
        body.contains("(2 of 2 failed): reproduces with this seed (3/3)\ngradle --offline -Dtests.fixture.probability=1 :server:cleanTest :server:test --tests org.elasticsearch.flaky.AssertionFlakyTests.testFlakyAssertion -Dtests.seed="),
        "{body}"
    );
}

/// Opt-in blocking: the report step, run under its never-fail wrapper as the
/// pipeline runs it, fails with the configured code only on a pull request
/// carrying one of the labels and only for proven flakiness; a bad code is
/// refused at upload, naming the variable, before anything runs.
#[test]
fn proven_flakiness_blocks_only_a_labelled_pull_request() {
    let bk = Buildkite::new();
    let store = bk.artifacts();
    let put = |path: &str, text: &str| put_artifact(&store, path, text);
    put(
        "job-a/flakiness-status/status-job-a.json",
        r#"{"jobId":"job-a","stepKey":"flakiness-detection:unit","kind":"unit","rc":1,"durationSec":12,"infraSubtype":"","timeoutSec":3480}"#,
    );
    put(
        "job-a/server/build/test-results/test/TEST-org.x.ATests.xml",
        r#"<testsuite name="org.x.ATests"><testcase classname="org.x.ATests" name="testA"/><testcase classname="org.x.ATests" name="testA"><failure type="java.lang.AssertionError" message="boom"/></testcase></testsuite>"#,
    );
    let report = |labels: &str, code: &str| {
        let dir = tempfile::tempdir().unwrap();
        let mut step = gradle_flaky();
        bk.job(&mut step, "job-analyze")
            .current_dir(dir.path())
            .env("FLAKINESS_BLOCKING_LABELS", "Team:Search,team:ml")
            .env("FLAKINESS_PROVEN_EXIT_CODE", code)
            .env("BUILDKITE_PULL_REQUEST_LABELS", labels)
            .args([
                "buildkite",
                "wrap",
                "--timeout",
                "8m",
                "--pass-exit-code",
                "42",
                "--",
            ])
            .arg(env!("CARGO_BIN_EXE_gradle-flaky"))
            .args(["buildkite", "analyze"]);
        run(&mut step)
    };
    let blocked = report(">test-flaky,Team:Search", "42");
    assert_eq!(blocked.status.code(), Some(42), "{}", text(&blocked));
    assert!(
        String::from_utf8_lossy(&blocked.stderr).contains(
            "blocking: the pull request carries one of [Team:Search, team:ml] and flakiness is proven: exit 42"
        ),
        "{}",
        text(&blocked)
    );
    for labels in ["team:search", "Team:Search2", ""] {
        let out = report(labels, "42");
        assert_eq!(out.status.code(), Some(0), "{labels}: {}", text(&out));
    }
    // A report step that fails otherwise (here: refuses its configuration) never blocks.
    let crashed = report("Team:Search", "137");
    assert_eq!(crashed.status.code(), Some(0), "{}", text(&crashed));

    let repo = uncompiled_copy();
    for code in ["137", "1", "200", "x"] {
        let mut upload = gradle_flaky();
        bk.job(&mut upload, "job-upload")
            .current_dir(repo.path())
            .env("FLAKINESS_BLOCKING_LABELS", "Team:Search")
            .env("FLAKINESS_PROVEN_EXIT_CODE", code)
            .args(["buildkite", "upload", "--dry-run", "org.x.ATests"]);
        let out = run(&mut upload);
        assert_eq!(out.status.code(), Some(2), "{code}: {}", text(&out));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains(&format!("FLAKINESS_PROVEN_EXIT_CODE: \"{code}\" ")),
            "{code}: {err}"
        );
        assert!(
            !repo.path().join(".gradle").exists(),
            "refused before Gradle ran"
        );
    }
}

/// `pr --compare main` on Buildkite: `main` holds a flake (one in three
/// executions fails) and the branch removes its cause. Each batch also runs
/// in a REF job (a worktree of `main` in the job's checkout), and the report
/// step says `fixed`, in the annotation and `flakiness-comparison.json`,
/// keeping both sides in its ledger. A hostile REF is refused as a ref,
/// before anything is uploaded.
#[test]
fn pr_compare_runs_each_batch_on_ref_and_the_report_says_fixed() {
    const SOURCE: &str = "server/src/test/java/org/elasticsearch/flaky/AssertionFlakyTests.java";
    let bk = Buildkite::new();
    let repo = crate::common::fixture_repo("fix");
    let dir = repo.path();
    let main = git(dir, &["rev-parse", "main"]).trim().to_string();
    let source = std::fs::read_to_string(dir.join(SOURCE)).unwrap();
    let fixed = source.replace("FLAKE_PROBABILITY = 0.30", "FLAKE_PROBABILITY = 0.0");
    assert_ne!(fixed, source);
    std::fs::write(dir.join(SOURCE), fixed).unwrap();
    git(dir, &["commit", "-qam", "remove the flake's cause"]);
    let pr = |reference: &str| {
        let mut cmd = gradle_flaky();
        bk.job(&mut cmd, "job-pr")
            .current_dir(dir)
            .env("FLAKINESS_GRADLE", "gradle --offline")
            .env(
                "FLAKINESS_AGENT_BIN",
                shell_words::quote(env!("CARGO_BIN_EXE_gradle-flaky")).as_ref(),
            )
            // 40 runs a side: 0/40 shows a fix against 5/40 or more, and
            // fewer than 5 of 40 at one in three is under one in a thousand.
            .args(["pr", "--base", "main", "--unit-iters", "40"])
            .args(["--compare", reference]);
        run(&mut cmd)
    };

    let out = pr("$(touch pwned)");
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("--compare $(touch pwned)"),
        "{}",
        text(&out)
    );
    assert!(bk.calls_of(&["pipeline", "upload"]).is_empty());

    let out = pr("main");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    // REF's plan is the branch's, restricted: told once, not twice.
    let told = String::from_utf8_lossy(&out.stderr)
        .matches("durations: ")
        .count();
    assert_eq!(told, 1, "{}", text(&out));
    let uploads = bk.calls_of(&["pipeline", "upload"]);
    let pipeline: Value = serde_json::from_str(&uploads[0].stdin).unwrap();
    assert_valid_pipeline(&pipeline);
    let keys = step_keys(&pipeline);
    assert_eq!(
        keys,
        [
            "flakiness-detection:unit",
            "flakiness-base:unit",
            "flakiness-detection:analyze"
        ]
    );
    let mut checkouts = Vec::new();
    for step in &steps(&pipeline)[..2] {
        let job_id = format!("job-{}", step["key"].as_str().unwrap().replace(':', "-"));
        let (checkout, out) = run_job(&bk, Some(dir), step, None, &job_id);
        assert_eq!(out.status.code(), Some(0), "{job_id}: {}", text(&out));
        checkouts.push(checkout);
    }
    // REF's job ran in its worktree of `main`, its files apart.
    let base_job = checkouts[1].path();
    assert!(base_job.join("flakiness-base/status").is_dir());
    assert!(!base_job.join("flakiness-status").exists());
    let head = git(
        &base_job.join("flakiness-base/worktree"),
        &["rev-parse", "HEAD"],
    );
    assert_eq!(head.trim(), main);

    // `buildkite upload` and `manual` plan the same REF job for the test.
    let class = "org.elasticsearch.flaky.AssertionFlakyTests";
    for args in [
        &[
            "buildkite",
            "upload",
            "--dry-run",
            "--compare",
            "main",
            class,
        ][..],
        &[
            "manual",
            "--target",
            "buildkite",
            "--dry-run",
            "--compare",
            "main",
        ],
    ] {
        let mut cmd = gradle_flaky();
        bk.job(&mut cmd, "job-upload")
            .current_dir(dir)
            .env("FLAKINESS_GRADLE", "gradle --offline")
            .env("FLAKINESS_CLASSES", class)
            .args(args);
        let out = run(&mut cmd);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", text(&out));
        let printed: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_valid_pipeline(&printed);
        let base = steps(&printed)
            .iter()
            .find(|s| s["key"] == "flakiness-base:unit")
            .cloned()
            .unwrap_or_else(|| panic!("{args:?}: no REF job in {printed:#}"));
        assert!(
            base["env"].to_string().contains(&main),
            "{args:?}: {base:#}"
        );
    }

    let mut analyze = steps(&pipeline).last().unwrap().clone();
    let fix = git(dir, &["rev-parse", "HEAD"]).trim().to_string();
    analyze["env"]["BUILDKITE_COMMIT"] = fix.as_str().into();
    let (report_dir, out) = run_job(&bk, None, &analyze, None, "job-analyze");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let report = read_json(&report_dir.path().join("flakiness-comparison.json"));
    assert_eq!(report["comparison"]["reference"], "main");
    assert_eq!(report["comparison"]["commit"], main.as_str());
    let row = report["tests"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["method"] == "testFlakyAssertion")
        .unwrap_or_else(|| panic!("{report:#}"));
    let c = &row["comparison"];
    assert_eq!(c["verdict"], "fixed", "{c:#}");
    assert_eq!(c["before"]["commit"], main.as_str());
    assert_eq!(c["before"]["runs"], 40, "{c:#}");
    assert!(c["before"]["failures"].as_u64().unwrap() >= 5, "{c:#}");
    assert_eq!(
        (c["after"]["runs"].as_u64(), c["after"]["failures"].as_u64()),
        (Some(40), Some(0))
    );
    let annotation = bk
        .calls_of(&["annotate", "--style"])
        .into_iter()
        .find(|c| c.argv.contains(&"flakiness-detection".to_string()))
        .expect("the report annotation");
    assert!(
        annotation.stdin.starts_with("## Comparison with `main` (")
            && annotation.stdin.contains(
                "`org.elasticsearch.flaky.AssertionFlakyTests#testFlakyAssertion`: **fixed**: "
            ),
        "{}",
        annotation.stdin
    );
    // Both sides in the ledger artifact, each with its commit.
    let ledger = std::fs::read_to_string(report_dir.path().join("flakiness-ledger.jsonl")).unwrap();
    let flaky: Vec<Value> = ledger
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|r| r.to_string().contains("testFlakyAssertion"))
        .collect();
    assert!(
        flaky
            .iter()
            .any(|r| r["commit"] == main.as_str() && r["failures"].as_u64() > Some(0)),
        "{ledger}"
    );
    assert!(
        flaky.iter().any(|r| r["commit"] != main.as_str()),
        "{ledger}"
    );
    let mut dirs: Vec<&Path> = checkouts.iter().map(|c| c.path()).collect();
    dirs.extend([dir, report_dir.path()]);
    assert_nothing_ran_pwned(&dirs);
}
