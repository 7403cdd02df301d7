//! Finding the Gradle program and running the init script: the I/O edge of `layout`.

use super::Layout;
use crate::{Error, Result};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The companion init script, shipped inside the binary so that an installed
/// `gradle-flaky` needs no other file.
pub const INIT_SCRIPT: &str = include_str!("../../gradle/flaky-layout.gradle");

/// The task the init script adds to the root project.
const LAYOUT_TASK: &str = "flakyLayout";

/// Guards of the layout run, as `-D` system properties (Gradle 4.4.1 accepts
/// any; newer Gradle reads these as build options, and a command-line `-D`
/// wins over `gradle.properties`), for this one run only:
/// - Isolated Projects off (Gradle 8.x/9.x name): the init script reads every
///   project from the root, which Isolated Projects forbids (a failure from 9.7);
/// - the warning mode back to Gradle's default `summary` (Gradle 4.5+ name), so
///   a build that sets `fail` (as Elasticsearch does) is not failed by a
///   deprecation that only this read-only run triggers.
pub const LAYOUT_GUARDS: [&str; 2] = [
    "-Dorg.gradle.unsafe.isolated-projects=false",
    "-Dorg.gradle.warning.mode=summary",
];
/// The `-Dtests.iters` value of the layout run: the init script reports, per
/// Test task, whether this value reaches the test JVM (`forwardsTestsIters`).
/// Any value the build would not set by itself does.
const ITERS_PROBE: &str = "97";

/// The Gradle program to run, as argv tokens: `--gradle CMD` (split into words
/// as a POSIX shell would, so a quoted path with spaces stays one word), else
/// `./gradlew` in the project dir, else `gradle` on PATH.
pub fn find_gradle(project_dir: &Path, gradle: Option<&str>) -> Result<Vec<String>> {
    if let Some(cmd) = gradle {
        let what = "--gradle (FLAKINESS_GRADLE)";
        let words = shell_words::split(cmd)
            .map_err(|e| Error::input(what, format!("`{cmd}` cannot be split into words: {e}")))?;
        if words.is_empty() {
            return Err(Error::input(
                what,
                "is empty: name a Gradle program, e.g. ./gradlew",
            ));
        }
        return Ok(words);
    }
    let wrapper = project_dir.join("gradlew");
    if is_executable(&wrapper) {
        return Ok(vec!["./gradlew".to_string()]);
    }
    if which("gradle").is_some() {
        return Ok(vec!["gradle".to_string()]);
    }
    Err(Error::GradleNotFound(format!(
        "no Gradle found: {} has no executable ./gradlew and there is no `gradle` on PATH; \
         add the Gradle wrapper, install Gradle (on Debian: `apt-get install gradle`), \
         or name one with --gradle CMD (FLAKINESS_GRADLE)",
        project_dir.display()
    )))
}

/// Something that changes when the Gradle program changes: the resolved
/// executable's path, size and mtime (the wrapper's version is in its
/// properties file, which the cache key hashes separately).
pub fn program_identity(project_dir: &Path, program: &[String]) -> String {
    let exe = &program[0];
    let resolved = if exe.contains('/') {
        Some(project_dir.join(exe))
    } else {
        which(exe)
    };
    let meta = resolved
        .as_ref()
        .and_then(|p| std::fs::canonicalize(p).ok())
        .and_then(|p| std::fs::metadata(&p).ok().map(|m| (p, m)));
    match meta {
        Some((path, m)) => format!(
            "{} {} {:?} {}",
            path.display(),
            m.len(),
            m.modified().ok(),
            program[1..].join(" ")
        ),
        None => program.join(" "),
    }
}

/// Runs Gradle with the init script in `project_dir` and parses what it reports.
pub fn run_init_script(project_dir: &Path, program: &[String]) -> Result<Layout> {
    let scratch = tempfile::Builder::new()
        .prefix("gradle-flaky-layout-")
        .tempdir()
        .map_err(|e| Error::io(std::env::temp_dir(), e))?;
    let script = scratch.path().join("flaky-layout.gradle");
    let output = scratch.path().join("layout.json");
    std::fs::write(&script, INIT_SCRIPT).map_err(|e| Error::io(&script, e))?;

    let mut cmd = Command::new(&program[0]);
    cmd.args(&program[1..])
        .arg("-q")
        .arg("--init-script")
        .arg(&script)
        .arg(format!("-Dflaky.layout.output={}", output.display()))
        .args(LAYOUT_GUARDS)
        .arg(format!("-Dtests.iters={ITERS_PROBE}"))
        .arg(LAYOUT_TASK)
        .current_dir(project_dir)
        .stdin(Stdio::null());
    let out = cmd.output().map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => Error::GradleNotFound(format!(
            "cannot run Gradle `{}`: not found; install Gradle, add ./gradlew, or fix --gradle (FLAKINESS_GRADLE)",
            program[0]
        )),
        _ => Error::io(&program[0], e),
    })?;
    if !out.status.success() {
        return Err(Error::infra(format!(
            "Gradle failed while reading the build layout (`{} {}` in {}, exit {}):\n{}",
            program.join(" "),
            LAYOUT_TASK,
            project_dir.display(),
            out.status
                .code()
                .map_or_else(|| "by signal".to_string(), |c| c.to_string()),
            tail(&out.stderr, &out.stdout)
        )));
    }
    let json = std::fs::read_to_string(&output).map_err(|e| {
        Error::infra(format!(
            "the init script wrote no layout ({}: {e}); Gradle said:\n{}",
            output.display(),
            tail(&out.stderr, &out.stdout)
        ))
    })?;
    serde_json::from_str(&json).map_err(|e| {
        Error::infra(format!(
            "the init script wrote a layout we cannot read: {e}"
        ))
    })
}

/// The last lines of Gradle's output, for error messages.
fn tail(stderr: &[u8], stdout: &[u8]) -> String {
    let text = if stderr.iter().any(|b| !b.is_ascii_whitespace()) {
        String::from_utf8_lossy(stderr)
    } else {
        String::from_utf8_lossy(stdout)
    };
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(30)..].join("\n")
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path)
        .map(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        .unwrap_or(false)
}

/// `which`: the first executable `name` on PATH.
pub fn which(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|p| is_executable(p))
}
