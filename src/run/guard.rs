//! A run's guard: what every run of Gradle invocations sets up, and takes
//! down when it goes (also on an early return or a panic): the supervision
//! of its processes and their isolation (`process::Session`), and the init
//! scripts each invocation gets. Every caller that runs Gradle more than
//! once holds one: `local`, triage, `repeat`, a CI batch job.

use super::outcomes::Scripts;
use crate::process::{Isolation, Session};
use crate::{note, Error, Result};
use std::path::{Path, PathBuf};

pub struct RunGuard {
    session: Session,
    scripts: Scripts,
    /// The folder the guard keeps its files in.
    dir: PathBuf,
    /// A folder of the guard's own, removed with it (after the session
    /// stopped the processes that may use it).
    _scratch: Option<tempfile::TempDir>,
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
        RunGuard::with(isolation, dir, None)
    }

    /// Like [`RunGuard::start`], in a temporary folder that goes with the guard.
    pub fn temporary(isolate: bool, invocations: u32) -> Result<RunGuard> {
        let scratch = scratch()?;
        let dir = scratch.path().to_path_buf();
        let (isolation, note) = Isolation::choose(isolate, invocations, &dir.join("daemon"));
        if let Some(note) = note {
            note!("{note}");
        }
        RunGuard::with(isolation, &dir, Some(scratch))
    }

    /// A run isolated as `isolation` says (a CI job's), its scripts in a
    /// temporary folder.
    pub fn isolated(isolation: Isolation) -> Result<RunGuard> {
        let scratch = scratch()?;
        let dir = scratch.path().to_path_buf();
        RunGuard::with(isolation, &dir, Some(scratch))
    }

    fn with(
        isolation: Isolation,
        dir: &Path,
        scratch: Option<tempfile::TempDir>,
    ) -> Result<RunGuard> {
        let session = Session::new(isolation);
        let scripts = Scripts::write(&scripts_dir(dir))?;
        Ok(RunGuard {
            session,
            scripts,
            dir: dir.to_path_buf(),
            _scratch: scratch,
        })
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
