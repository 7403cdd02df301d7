//! What a run folder records of its run, so that `analyze RUN_DIR` gives the
//! report `local` gave for it: how `local` read its reports (which folders
//! were repeated in one JVM and by what, which ran whole tasks, how reproduce
//! lines run Gradle), what it planned (to tell a selected test from a
//! neighbour and to say what ran fewer times than planned), and what
//! surrounded its tests (its batches' outcomes, the tests it could not check,
//! its cost, the JVM options from the environment its test JVMs picked up).

use crate::analyze::model::cost::Cost;
use crate::analyze::model::outcome::JobPayload;
use crate::analyze::model::report::Around;
use crate::analyze::rules::planned::{self, PlannedTest};
use crate::analyze::rules::verdict;
use crate::analyze::{self, AnalyzeOptions, Report};
use crate::domain::Unresolved;
use crate::jvm_options::InheritedJvmOptions;
use crate::{Error, Result};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The file in a run folder.
pub(crate) const FILE: &str = "run.json";

/// The version written and read; another is refused, naming the file.
const SCHEMA: u32 = 1;

/// What a run folder records of its run.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct RunFolder {
    schema: u32,
    /// How its reports were read.
    pub options: AnalyzeOptions,
    /// Every selected test with its batch and the executions planned.
    pub planned: Vec<PlannedTest>,
    /// Each batch's problem when it had one (1-based batches, in order):
    /// why its tests ran fewer times than planned.
    pub batch_problems: Vec<Option<String>>,
    /// The run was interrupted.
    #[serde(default)]
    pub partial: bool,
    #[serde(default)]
    pub not_checked: Vec<Unresolved>,
    #[serde(default)]
    pub batches: Vec<JobPayload>,
    #[serde(default)]
    pub problems: Vec<String>,
    #[serde(default)]
    pub cost: Option<Cost>,
    /// JVM options from the environment its test JVMs picked up.
    #[serde(default)]
    pub inherited_jvm_options: Vec<InheritedJvmOptions>,
}

impl RunFolder {
    pub(crate) fn new(options: AnalyzeOptions, planned: Vec<PlannedTest>) -> RunFolder {
        RunFolder {
            schema: SCHEMA,
            options,
            planned,
            batch_problems: Vec::new(),
            partial: false,
            not_checked: Vec::new(),
            batches: Vec::new(),
            problems: Vec::new(),
            cost: None,
            inherited_jvm_options: Vec::new(),
        }
    }

    /// Writes it into the run folder `dir`.
    pub(crate) fn write(&self, dir: &Path) -> Result<()> {
        let path = dir.join(FILE);
        let json = serde_json::to_string_pretty(self).expect("a run folder serializes");
        std::fs::write(&path, json).map_err(|e| Error::io(&path, e))
    }

    /// The record of the run folder `dir`: `None` when it is not one of
    /// gradle-flaky's run folders.
    pub(crate) fn read(dir: &Path) -> Result<Option<RunFolder>> {
        let path = dir.join(FILE);
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(Error::io(&path, e)),
        };
        let folder: RunFolder = serde_json::from_str(&text).map_err(|e| {
            Error::input(
                path.display().to_string(),
                format!("line {}: not a run folder's record: {e}", e.line()),
            )
        })?;
        if folder.schema != SCHEMA {
            return Err(Error::input(
                path.display().to_string(),
                format!(
                    "written by another version of gradle-flaky (schema {}, this one reads {SCHEMA})",
                    folder.schema
                ),
            ));
        }
        Ok(Some(folder))
    }

    /// The report of the run's tests as `local` read them: its selected
    /// tests judged, its neighbours set apart, what ran fewer times than
    /// planned said; `below_plan` when something did.
    pub(crate) fn report_of(&self, dir: &Path) -> (Report, bool) {
        let mut report = analyze::analyze_root(dir, &self.options);
        let problem = |batch: usize| self.batch_problems.get(batch - 1).cloned().flatten();
        let below_plan = planned::compare(&mut report, &self.planned, &problem);
        planned::set_apart_neighbours(&mut report, &self.planned);
        (report, below_plan)
    }

    /// Its report with what surrounded it.
    pub(crate) fn reanalyzed(&self, dir: &Path) -> (Report, bool) {
        let (mut report, below_plan) = self.report_of(dir);
        report.around = self.around();
        verdict::settle(&mut report);
        (report, below_plan)
    }

    /// What surrounded the run's tests.
    pub(crate) fn around(&self) -> Around {
        Around {
            partial: self.partial,
            not_checked: self.not_checked.clone(),
            batches: self.batches.clone(),
            cost: self.cost.clone(),
            problems: self.problems.clone(),
            inherited_jvm_options: self.inherited_jvm_options.clone(),
            ..Around::default()
        }
    }
}
