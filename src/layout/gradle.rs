//! Finding the Gradle program and running the init script: the I/O edge of `layout`.

use super::{Classpaths, Layout, LayoutRead};
use crate::process::{self, Ended, Isolation, Output, Session};
use crate::time::format_duration;
use crate::vars::{GRADLE, LAYOUT_TIMEOUT};
use crate::{note, shell, tell, Error, Result};
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
    if is_executable(&project_dir.join("gradlew")) {
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
/// every process of it, when `reading.timeout` passes or the user interrupts
/// (and whatever it left is stopped when the read ends: its session).
pub fn run_init_script(
    project_dir: &Path,
    program: &[String],
    reading: &LayoutRead,
) -> Result<Layout> {
    let scratch = tempfile::Builder::new()
        .prefix("gradle-flaky-layout-")
        .tempdir()
        .map_err(|e| Error::io(std::env::temp_dir(), e))?;
    let read = Read {
        project_dir,
        program,
        reading,
        output: scratch.path().join("layout.json"),
        log: scratch.path().join("gradle.log"),
    };
    let script = scratch.path().join("flaky-layout.gradle");
    std::fs::write(&script, INIT_SCRIPT).map_err(|e| Error::io(&script, e))?;
    // One invocation: isolated means --no-daemon.
    let (isolation, note) = Isolation::choose(reading.isolate, 1, scratch.path());
    if let Some(note) = note {
        note!("{note}");
    }
    let session = Session::new(isolation);
    let started = Instant::now();
    let ended = read.run(&read.argv(&script), &session)?;
    read.check(ended)?;
    drop(session);
    tell!(
        "build layout read in {}",
        crate::time::human(started.elapsed())
    );
    read.layout()
}

/// One read of the layout: where, with what, and where Gradle's output and
/// the init script's report go.
struct Read<'a> {
    project_dir: &'a Path,
    program: &'a [String],
    reading: &'a LayoutRead,
    output: PathBuf,
    log: PathBuf,
}

impl Read<'_> {
    /// The layout task, quiet, with the init script, its guards and the probe
    /// of `-Dtests.iters`.
    fn argv(&self, script: &Path) -> Vec<String> {
        let mut argv = self.program.to_vec();
        argv.extend([
            "-q".to_string(),
            "--init-script".to_string(),
            script.display().to_string(),
            format!("-Dflaky.layout.output={}", self.output.display()),
        ]);
        argv.extend(LAYOUT_GUARDS.iter().map(|g| g.to_string()));
        argv.extend([
            format!("-Dtests.iters={ITERS_PROBE}"),
            LAYOUT_TASK.to_string(),
        ]);
        argv
    }

    /// Runs Gradle until it ends, its time limit passes or the user
    /// interrupts; how it ended, and what stopping it took.
    fn run(&self, argv: &[String], session: &Session) -> Result<(Ended, Vec<String>)> {
        let isolation = session.isolation();
        let argv = isolation.apply(argv)?;
        tell!(
            "reading the build layout: waiting for Gradle to configure the build \
             (`{} … {LAYOUT_TASK}` in {}, {}; limit {}, --layout-timeout)",
            shell::join(self.program),
            self.project_dir.display(),
            isolation.describe(),
            format_duration(self.reading.timeout)
        );
        let log = File::create(&self.log).map_err(|e| Error::io(&self.log, e))?;
        let run = process::run(
            &argv,
            self.project_dir,
            Output::Log(&log),
            Some(self.reading.timeout),
            isolation,
        )
        .map_err(|e| match e {
            Error::GradleNotFound(_) => Error::GradleNotFound(format!(
                "cannot run Gradle `{}`: not found; install Gradle, add ./gradlew, or fix \
                 --gradle ({GRADLE})",
                self.program[0]
            )),
            e => e,
        })?;
        Ok((run.ended, run.notes))
    }

    /// The last lines of Gradle's output, for error messages.
    fn said(&self) -> String {
        let text =
            String::from_utf8_lossy(&std::fs::read(&self.log).unwrap_or_default()).into_owned();
        let lines: Vec<&str> = text.lines().collect();
        lines[lines.len().saturating_sub(30)..].join("\n")
    }

    /// A run that did not exit 0 is an error that says how it ended and what
    /// Gradle said.
    fn check(&self, (ended, notes): (Ended, Vec<String>)) -> Result<()> {
        let program = shell::join(self.program);
        let dir = self.project_dir.display();
        match ended {
            Ended::Exited(0) => Ok(()),
            Ended::Interrupted => Err(Error::Interrupted),
            Ended::TimedOut => {
                let stopped: String = notes.iter().map(|n| format!("; {n}")).collect();
                Err(Error::TimedOut(format!(
                    "Gradle did not finish configuring the build within {} (--layout-timeout, \
                     {LAYOUT_TIMEOUT}) while reading its layout (`{program} {LAYOUT_TASK}` in \
                     {dir}); it was stopped{stopped}. Gradle said:\n{}",
                    format_duration(self.reading.timeout),
                    self.said()
                )))
            }
            ended => Err(Error::infra(format!(
                "Gradle failed while reading the build layout (`{program} {LAYOUT_TASK}` in \
                 {dir}, {}):\n{}",
                match ended {
                    Ended::Exited(code) => format!("exit {code}"),
                    Ended::Signalled(sig) => format!("killed by signal {sig}"),
                    _ => "stopped".to_string(),
                },
                self.said()
            ))),
        }
    }

    /// The layout the init script wrote, with the classpaths each project's
    /// `flakyLayout` task wrote beside it.
    fn layout(&self) -> Result<Layout> {
        let json = std::fs::read_to_string(&self.output).map_err(|e| {
            Error::infra(format!(
                "the init script wrote no layout ({}: {e}); Gradle said:\n{}",
                self.output.display(),
                self.said()
            ))
        })?;
        let mut layout: Layout = serde_json::from_str(&json).map_err(|e| {
            Error::infra(format!(
                "the init script wrote a layout we cannot read: {e}"
            ))
        })?;
        layout.add_classpaths(&read_classpaths(&self.output)?);
        Ok(layout)
    }
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

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// `which`: the first executable `name` on PATH.
pub fn which(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|p| is_executable(p))
}
