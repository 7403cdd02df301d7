//! Shared helpers: the fixture build copied to a temp dir, running the binary.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The repository root.
pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The shipped fixture build (do not run Gradle in it from tests: copy it).
pub fn fixture_source() -> PathBuf {
    repo_root().join("tests/fixtures/es-mini")
}

/// A private copy of the fixture build in a temp dir, without build outputs.
pub fn fixture_copy() -> tempfile::TempDir {
    let dir = tempfile::Builder::new()
        .prefix("gradle-flaky-fixture-")
        .tempdir()
        .expect("temp dir");
    copy_tree(&fixture_source(), dir.path());
    dir
}

/// Copies a directory tree, leaving out build outputs (`build`, `.gradle`).
pub fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name();
        if name == "build" || name == ".gradle" {
            continue;
        }
        let src = entry.path();
        let dst = to.join(&name);
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&src, &dst);
        } else {
            std::fs::copy(&src, &dst).unwrap();
        }
    }
}

/// A `Command` for the gradle-flaky binary under test.
pub fn gradle_flaky() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_gradle-flaky"));
    cmd.env_remove("NO_COLOR");
    for (k, _) in std::env::vars() {
        if k.starts_with("FLAKINESS_") || k.starts_with("BUILDKITE") {
            cmd.env_remove(k);
        }
    }
    cmd
}

/// Runs a command, returning its output; panics only if it cannot start.
pub fn run(cmd: &mut Command) -> Output {
    cmd.output().expect("start process")
}

/// stdout and stderr as text, for assertion messages.
pub fn text(out: &Output) -> String {
    format!(
        "status: {:?}\n--- stdout\n{}\n--- stderr\n{}",
        out.status.code(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// Runs git in `dir` with a fixed identity, panicking on failure.
pub fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@example.com")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@example.com")
        .output()
        .expect("git");
    assert!(out.status.success(), "git {args:?} failed: {}", text(&out));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The fixture as a git repository: everything committed on `main`, then the
/// new branch `branch` checked out.
pub fn fixture_repo(branch: &str) -> tempfile::TempDir {
    let repo = fixture_copy();
    let dir = repo.path();
    git(dir, &["init", "-q", "-b", "main"]);
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-qm", "fixture"]);
    git(dir, &["checkout", "-qb", branch]);
    repo
}

/// The Gradle user home of one test: its daemons play the user's own daemon,
/// which `local` and `repeat` use by default, so a test never disturbs other
/// tests' or other people's daemons. Dropping it stops its daemons.
pub struct GradleHome {
    dir: tempfile::TempDir,
}

/// The main class of a Gradle daemon.
const DAEMON_MAIN: &str = "org.gradle.launcher.daemon.bootstrap.GradleDaemon";

impl GradleHome {
    pub fn new() -> GradleHome {
        let dir = tempfile::Builder::new()
            .prefix("gradle-flaky-home-")
            .tempdir()
            .expect("temp dir");
        GradleHome { dir }
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// `gradle` with this home.
    pub fn gradle(&self) -> Command {
        let mut cmd = Command::new("gradle");
        cmd.env("GRADLE_USER_HOME", self.path());
        cmd
    }

    /// Starts (or reuses) a daemon of this home by running `gradle help` in
    /// `build`, as a user's earlier build would have; returns its pid.
    pub fn warm(&self, build: &Path) -> u32 {
        let out = run(self
            .gradle()
            .args(["--offline", "-q", "help"])
            .current_dir(build));
        assert!(out.status.success(), "{}", text(&out));
        let daemons = self.daemons();
        assert_eq!(daemons.len(), 1, "one warm daemon: {daemons:?}");
        daemons[0]
    }

    /// The running daemons of this home (their log file is under it).
    pub fn daemons(&self) -> Vec<u32> {
        let home = self.path().to_string_lossy().into_owned();
        let mut out = Vec::new();
        for (pid, cmdline) in processes() {
            if !cmdline.split('\0').any(|a| a == DAEMON_MAIN) {
                continue;
            }
            let fds = std::fs::read_dir(format!("/proc/{pid}/fd"))
                .into_iter()
                .flatten();
            let ours = fds.flatten().any(|fd| {
                std::fs::read_link(fd.path()).is_ok_and(|t| t.to_string_lossy().starts_with(&home))
            });
            if ours {
                out.push(pid);
            }
        }
        out
    }
}

impl Drop for GradleHome {
    fn drop(&mut self) {
        let _ = self
            .gradle()
            .args(["--stop", "-q"])
            .current_dir(self.path())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .status();
        for pid in self.daemons() {
            // SAFETY: kill(2) on a daemon of this test's own Gradle home.
            unsafe {
                libc::kill(pid as libc::pid_t, libc::SIGKILL);
            }
        }
    }
}

/// Every process: pid and command line (arguments separated by NUL).
pub fn processes() -> Vec<(u32, String)> {
    let mut out = Vec::new();
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        let Some(pid) = e.file_name().to_str().and_then(|s| s.parse().ok()) else {
            continue;
        };
        let cmdline = std::fs::read(e.path().join("cmdline")).unwrap_or_default();
        if !cmdline.is_empty() {
            out.push((pid, String::from_utf8_lossy(&cmdline).into_owned()));
        }
    }
    out
}

/// The test JVMs (`Gradle Test Executor N`) the daemon `daemon` runs.
pub fn test_executors(daemon: u32) -> Vec<u32> {
    processes()
        .into_iter()
        .filter(|(pid, cmdline)| {
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
            let ppid = stat
                .rsplit_once(')')
                .and_then(|(_, rest)| rest.split_whitespace().nth(1))
                .and_then(|p| p.parse::<u32>().ok());
            ppid == Some(daemon) && cmdline.contains("Gradle Test Executor")
        })
        .map(|(pid, _)| pid)
        .collect()
}

/// Whether `pid` still runs (a zombie does not).
pub fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|s| {
        s.rsplit_once(')')
            .is_some_and(|(_, r)| !r.trim_start().starts_with('Z'))
    })
}
