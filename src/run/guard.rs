//! A run's guard: what every run of Gradle invocations sets up, and takes
//! down when it goes (also on an early return or a panic): the supervision
//! of its processes and their isolation (`process::Session`), and the init
//! scripts each invocation gets, and the JVM options from the environment
//! its test JVMs picked up (said once per run). Every caller that runs
//! Gradle more than once holds one: `local`, triage, `repeat`, a CI batch job.

use super::outcomes::Scripts;
use crate::jvm_options::{self, InheritedJvmOptions, SeenIn};
use crate::process::{Isolation, Session};
use crate::{note, warning, Error, Result};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Which JVM options from the environment a guard says on stderr.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Say {
    /// Those of its own environment and those Gradle's output tells of.
    Environment,
    /// Only those Gradle's output tells of: its caller said the rest.
    OutputOnly,
}

pub struct RunGuard {
    session: Session,
    scripts: Scripts,
    /// The folder the guard keeps its files in.
    dir: PathBuf,
    /// A folder of the guard's own, removed with it (after the session
    /// stopped the processes that may use it).
    _scratch: Option<tempfile::TempDir>,
    /// The JVM options from the environment seen so far, each said once.
    jvm_options: Mutex<Vec<InheritedJvmOptions>>,
}

impl RunGuard {
    /// A run of about `invocations` Gradle invocations whose private
    /// daemon (when isolated) and scripts live below `dir`: on the user's
    /// daemon unless `isolate` (see `Isolation::choose`).
    pub fn start(isolate: bool, invocations: u32, dir: &Path) -> Result<RunGuard> {
        let (isolation, note) = Isolation::choose(isolate, invocations, &dir.join("daemon"));
        if let Some(note) = note {
            note!("{note}");
        }
        RunGuard::with(isolation, dir, None, Say::Environment)
    }

    /// Like [`RunGuard::start`], in a temporary folder that goes with the guard.
    pub fn temporary(isolate: bool, invocations: u32) -> Result<RunGuard> {
        RunGuard::temporary_saying(isolate, invocations, Say::Environment)
    }

    /// Like [`RunGuard::temporary`], for the loop a CI batch job runs (its
    /// REST loop): the job said the JVM options of its environment already,
    /// so they are recorded, not said again.
    pub fn temporary_in_job(isolate: bool, invocations: u32) -> Result<RunGuard> {
        RunGuard::temporary_saying(isolate, invocations, Say::OutputOnly)
    }

    fn temporary_saying(isolate: bool, invocations: u32, say: Say) -> Result<RunGuard> {
        let scratch = scratch()?;
        let dir = scratch.path().to_path_buf();
        let (isolation, note) = Isolation::choose(isolate, invocations, &dir.join("daemon"));
        if let Some(note) = note {
            note!("{note}");
        }
        RunGuard::with(isolation, &dir, Some(scratch), say)
    }

    /// A run isolated as `isolation` says (a CI job's), its scripts in a
    /// temporary folder.
    pub fn isolated(isolation: Isolation) -> Result<RunGuard> {
        let scratch = scratch()?;
        let dir = scratch.path().to_path_buf();
        RunGuard::with(isolation, &dir, Some(scratch), Say::Environment)
    }

    fn with(
        isolation: Isolation,
        dir: &Path,
        scratch: Option<tempfile::TempDir>,
        say: Say,
    ) -> Result<RunGuard> {
        let session = Session::new(isolation);
        let scripts = Scripts::write(&scripts_dir(dir))?;
        let guard = RunGuard {
            session,
            scripts,
            dir: dir.to_path_buf(),
            _scratch: scratch,
            jvm_options: Mutex::new(Vec::new()),
        };
        // What Gradle inherits from us, its test JVMs inherit too.
        let env = jvm_options::in_environment(|name| std::env::var(name).ok());
        guard.saw_jvm_options(env, SeenIn::Environment, say == Say::Environment);
        Ok(guard)
    }

    /// Whether Gradle's output may still tell of JVM options not seen yet.
    pub(crate) fn wants_output(&self) -> bool {
        self.seen().len() < jvm_options::OptionsVariable::ALL.len()
    }

    /// Takes in what an invocation printed: the JVM options its JVMs said
    /// they picked up (a reused daemon started with them passes them on).
    pub(crate) fn read_output(&self, output: &[u8]) {
        if self.wants_output() {
            self.saw_jvm_options(jvm_options::picked_up(output), SeenIn::GradleOutput, true);
        }
    }

    /// The JVM options from the environment this run's JVMs picked up.
    pub(crate) fn inherited_jvm_options(&self) -> Vec<InheritedJvmOptions> {
        self.seen().clone()
    }

    /// Records what is `found` and not seen yet, said on stderr when `say`.
    fn saw_jvm_options(
        &self,
        found: Vec<(jvm_options::OptionsVariable, String)>,
        seen_in: SeenIn,
        say: bool,
    ) {
        let mut seen = self.seen();
        for (variable, value) in found {
            if seen.iter().all(|s| s.variable != variable) {
                if say {
                    warning!("{}", jvm_options::warning(variable, &value, seen_in));
                }
                seen.push(InheritedJvmOptions { variable, seen_in });
            }
        }
    }

    fn seen(&self) -> std::sync::MutexGuard<'_, Vec<InheritedJvmOptions>> {
        self.jvm_options
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The folder the guard keeps its files in (scripts, a private daemon).
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    pub fn isolation(&self) -> &Isolation {
        self.session.isolation()
    }

    /// Refuses, before anything runs, an argv this run's isolation cannot
    /// run (`--daemon` when isolated without a private daemon).
    pub fn check(&self, argv: &[String]) -> Result<()> {
        self.isolation().apply(argv).map(drop)
    }

    /// What runs for `planned`: isolated, with the init scripts, its task
    /// outcomes written to `outcomes`, and the repeat helpers when asked.
    pub fn argv(
        &self,
        planned: &[String],
        outcomes: &Path,
        repeat_helpers: bool,
    ) -> Result<Vec<String>> {
        let argv = self.isolation().apply(planned)?;
        match planned
            .first()
            .is_some_and(|p| crate::process::is_gradle(p))
        {
            true => Ok(self.scripts.apply(&argv, outcomes, repeat_helpers)),
            false => Ok(argv),
        }
    }
}

/// Where a run keeps the init scripts its Gradle invocations get.
pub(crate) fn scripts_dir(dir: &Path) -> PathBuf {
    dir.join("scripts")
}

fn scratch() -> Result<tempfile::TempDir> {
    tempfile::Builder::new()
        .prefix("gradle-flaky-")
        .tempdir()
        .map_err(|e| Error::io(std::env::temp_dir(), e))
}
