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

/// A private copy of the plain JUnit/TestNG fixture build in a temp dir.
pub fn plain_java_copy() -> tempfile::TempDir {
    let dir = tempfile::Builder::new()
        .prefix("gradle-flaky-plain-java-")
        .tempdir()
        .expect("temp dir");
    copy_tree(&repo_root().join("tests/fixtures/plain-java"), dir.path());
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
