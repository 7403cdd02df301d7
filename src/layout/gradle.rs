//! Finding the Gradle program and running the init script: the I/O edge of `layout`.

use super::{Classpaths, Layout, LayoutRead};
use crate::domain::format_duration;
use crate::process::{self, Ended, Isolation, Output};
use crate::vars::{GRADLE, LAYOUT_TIMEOUT};
use crate::{say, shell, Error, Result};
use std::fs::File;
use std::path::{Path, PathBuf};
use std::time::Instant;

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
        let what = format!("--gradle ({GRADLE})");
        let words = shell_words::split(cmd)
            .map_err(|e| Error::input(&what, format!("`{cmd}` cannot be split into words: {e}")))?;
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
         or name one with --gradle CMD ({GRADLE})",
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

/// Runs Gradle with the init script in `project_dir` and parses what it
/// reports. Gradle runs under the batches' daemon policy and is stopped, with
/// every process of it, when `reading.timeout` passes or the user interrupts.
pub fn run_init_script(
    project_dir: &Path,
    program: &[String],
    reading: &LayoutRead,
) -> Result<Layout> {
    let scratch = tempfile::Builder::new()
        .prefix("gradle-flaky-layout-")
        .tempdir()
        .map_err(|e| Error::io(std::env::temp_dir(), e))?;
    let script = scratch.path().join("flaky-layout.gradle");
    let output = scratch.path().join("layout.json");
    let log_path = scratch.path().join("gradle.log");
    std::fs::write(&script, INIT_SCRIPT).map_err(|e| Error::io(&script, e))?;
    let log = File::create(&log_path).map_err(|e| Error::io(&log_path, e))?;

    let mut argv = program.to_vec();
    argv.extend([
        "-q".to_string(),
        "--init-script".to_string(),
        script.display().to_string(),
        format!("-Dflaky.layout.output={}", output.display()),
    ]);
    argv.extend(LAYOUT_GUARDS.iter().map(|g| g.to_string()));
    argv.extend([
        format!("-Dtests.iters={ITERS_PROBE}"),
        LAYOUT_TASK.to_string(),
    ]);
    // One invocation: isolated means --no-daemon.
    let (isolation, note) = Isolation::choose(reading.isolate, 1, scratch.path());
    if let Some(note) = note {
        say!("gradle-flaky: note: {note}");
    }
    let argv = isolation.apply(&argv)?;
    say!(
        "gradle-flaky: reading the build layout: waiting for Gradle to configure the build \
         (`{} … {LAYOUT_TASK}` in {}, {}; limit {}, --layout-timeout)",
        shell::join(program),
        project_dir.display(),
        isolation.describe(),
        format_duration(reading.timeout)
    );
    let started = Instant::now();
    let run = process::run(
        &argv,
        project_dir,
        Output::Log(&log),
        Some(reading.timeout),
        &isolation,
    )
    .map_err(|e| match e {
        Error::GradleNotFound(_) => Error::GradleNotFound(format!(
            "cannot run Gradle `{}`: not found; install Gradle, add ./gradlew, or fix --gradle ({GRADLE})",
            program[0]
        )),
        e => e,
    })?;
    let said = || tail(&std::fs::read(&log_path).unwrap_or_default());
    let stopped: String = run.notes.iter().map(|n| format!("; {n}")).collect();
    match run.ended {
        Ended::Exited(0) => {}
        Ended::Interrupted => return Err(Error::Interrupted),
        Ended::TimedOut => {
            return Err(Error::TimedOut(format!(
                "Gradle did not finish configuring the build within {} (--layout-timeout, \
                 {LAYOUT_TIMEOUT}) while reading its layout (`{} {LAYOUT_TASK}` in {}); \
                 it was stopped{stopped}. Gradle said:\n{}",
                format_duration(reading.timeout),
                shell::join(program),
                project_dir.display(),
                said()
            )))
        }
        ended => {
            return Err(Error::infra(format!(
                "Gradle failed while reading the build layout (`{} {LAYOUT_TASK}` in {}, {}):\n{}",
                shell::join(program),
                project_dir.display(),
                match ended {
                    Ended::Exited(code) => format!("exit {code}"),
                    Ended::Signalled(sig) => format!("killed by signal {sig}"),
                    _ => "stopped".to_string(),
                },
                said()
            )))
        }
    }
    say!(
        "gradle-flaky: build layout read in {:.1}s",
        started.elapsed().as_secs_f64()
    );
    let json = std::fs::read_to_string(&output).map_err(|e| {
        Error::infra(format!(
            "the init script wrote no layout ({}: {e}); Gradle said:\n{}",
            output.display(),
            said()
        ))
    })?;
    let mut layout: Layout = serde_json::from_str(&json).map_err(|e| {
        Error::infra(format!(
            "the init script wrote a layout we cannot read: {e}"
        ))
    })?;
    layout.add_classpaths(&read_classpaths(&output)?);
    Ok(layout)
}

/// What each project's `flakyLayout` task wrote in `<output>.classpaths/`
/// (none: no project has a Test task).
fn read_classpaths(output: &Path) -> Result<Vec<Classpaths>> {
    let mut dir = output.as_os_str().to_owned();
    dir.push(".classpaths");
    let dir = PathBuf::from(dir);
    let files = match crate::reports::walk::list(&dir) {
        Ok(files) => files,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(Error::io(&dir, e)),
    };
    files
        .iter()
        .map(|entry| {
            let file = entry.path();
            let text = std::fs::read_to_string(&file).map_err(|e| Error::io(&file, e))?;
            serde_json::from_str(&text).map_err(|e| {
                Error::infra(format!(
                    "the init script wrote classpaths we cannot read ({}): {e}",
                    file.display()
                ))
            })
        })
        .collect()
}

/// The last lines of Gradle's output, for error messages.
fn tail(output: &[u8]) -> String {
    let text = String::from_utf8_lossy(output);
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
