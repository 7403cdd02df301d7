//! From a selection to an uploaded sub-pipeline: what `buildkite upload`, `pr`
//! and `manual` share. Reports what resolved to nothing, says so when nothing
//! is left to run (an `info` annotation, no upload), plans (`ci::prepare`),
//! and publishes.

use super::agent::{fit_annotation, Agent};
use super::pipeline::{self, AgentConfig, BaseBatches, PipelineInput};
use crate::ci::learned::{self, Learned};
use crate::ci::prepare::{many_batches, prepare, unresolved_markdown, CiPlan, Resolution};
use crate::compare::ci::base_batches;
use crate::layout::Build;
use crate::reports::SKIPPED_FILE;
use crate::select::Selection;
use crate::settings::RunSettings;
use crate::{markdown, Error, Exit, Result};
use crate::{say, tell};
use std::path::Path;
use std::time::Duration;

/// Annotation context of selection problems; the report has its own.
const SELECTION_CONTEXT: &str = "flakiness-detection-selection";

/// How to upload.
#[derive(Clone, Debug)]
pub(crate) struct Upload<'a> {
    pub settings: &'a RunSettings,
    pub agent: &'a AgentConfig,
    /// Print the pipeline instead of uploading it.
    pub dry_run: bool,
    /// What to say when nothing is selected.
    pub nothing: &'a str,
    /// Add the triage step (`--triage N`, `FLAKINESS_TRIAGE`).
    pub triage: Option<&'a crate::triage::TriageConfig>,
    /// `--compare REF`, with the branch's muted-tests file (REF's jobs run with it).
    pub compare: Option<(&'a str, &'a Path)>,
    /// What earlier CI runs learned: a folder, an earlier build's to fetch.
    pub learned: &'a Learned,
}

impl Upload<'_> {
    /// Exit 2 when a test the user named resolved to nothing (after uploading
    /// the rest), like `plan`; unresolved changed files and unmutes are warnings.
    pub(crate) fn submit(&self, build: &Build, selection: &Selection) -> Result<Exit> {
        let agent = (!self.dry_run && std::env::var_os("BUILDKITE").is_some()).then(Agent::default);
        let resolution = Resolution::of(selection);
        if !resolution.unresolved.is_empty() {
            if let Some(agent) = &agent {
                let style = if resolution.named_missing() {
                    "error"
                } else {
                    "warning"
                };
                let body = fit_annotation(&unresolved_markdown(&resolution.unresolved));
                if let Err(e) = agent.annotate(&body, style, SELECTION_CONTEXT, false) {
                    tell!("could not annotate: {e}");
                }
            }
        }
        let nothing = self.nothing;
        if resolution.nothing_left(selection) {
            say!("{nothing}: no test to run, nothing uploaded");
            if let Some(agent) = &agent {
                let message = format!("{}: no test to run", markdown::text(nothing));
                let _ = agent.annotate(&message, "info", "flakiness-detection", false);
            }
            return Ok(resolution.exit);
        }
        if build.layout.is_none() && !selection.tests.is_empty() {
            tell!("no compile gate: the build's layout is unavailable");
        }
        let job_limit = Duration::from_secs(u64::from(self.agent.step_timeout_min) * 60);
        if let (Some(agent), Some(build_id)) = (&agent, &self.learned.build) {
            fetch_learned(agent, build_id, self.learned.folder().as_deref());
        }
        let mut settings = learned::plan_with(self.settings, self.learned.folder().as_deref());
        if self.compare.is_some() {
            settings = crate::compare::ci::whole_counts(&settings);
        }
        let plan = prepare(
            build,
            selection,
            &settings,
            resolution.not_applicable,
            Some(job_limit),
        )?;
        // `--compare REF`: REF's batches.
        let base = self
            .compare
            .map(|c| base_batches(build, selection, &settings, c, Some(job_limit)))
            .transpose()?;
        if let Some(warning) = many_batches(plan.batches.len(), selection.tests.len()) {
            tell!("{warning}");
            if let Some(agent) = &agent {
                let _ = agent.annotate(&warning, "warning", SELECTION_CONTEXT, true);
            }
        }
        self.publish(&plan, base)?;
        Ok(resolution.exit)
    }

    /// Prints (`dry_run`) or uploads the pipeline. Before a real upload the
    /// selected sources are compiled here (`ci::gate`); when they do not
    /// compile, only the analyze step is uploaded, told so by value.
    /// Not-applicable tests go to `flakiness-skipped.json`, uploaded as an
    /// artifact here (only when there are some) so the report step finds it
    /// whatever the calling step's `artifact_paths` say. A second upload in
    /// one build is skipped: the step keys would clash.
    fn publish(&self, plan: &CiPlan, base: Option<BaseBatches>) -> Result<()> {
        let cfg = self.agent;
        let input = |compile_failed| PipelineInput {
            compare: base.clone(),
            learned_build: self.learned.build.clone(),
            ..PipelineInput::of(plan, self.triage, compile_failed)
        };
        if self.dry_run {
            let input = input(false);
            if let Some(pipeline) = pipeline::pipeline(&input, cfg) {
                let json = serde_json::to_string_pretty(&pipeline).expect("a pipeline serializes");
                crate::output::stdout_line(&json);
                tell!("(a real upload compiles the selected sources first)");
                for (file, _) in pipeline::batch_files(&input) {
                    tell!("(a real upload uploads {file} first: a batch too long for the environment)");
                }
            } else {
                tell!("nothing to run: no pipeline uploaded");
            }
            return Ok(());
        }
        let agent = Agent::default();
        let guard = format!("{}:uploaded", cfg.group);
        if agent.meta_data_exists(&guard).unwrap_or(false) {
            tell!(
                "this build already has the {} steps (meta-data {guard}); \
                 not uploading again",
                cfg.group
            );
            return Ok(());
        }
        let compile_failed = !crate::ci::gate::compiles(plan)?;
        let input = input(compile_failed);
        let Some(pipeline) = pipeline::pipeline(&input, cfg) else {
            tell!("nothing to run: no pipeline uploaded");
            return Ok(());
        };
        let json = serde_json::to_string_pretty(&pipeline).expect("a pipeline serializes");
        if !plan.not_applicable.is_empty() {
            let json = serde_json::to_string(&plan.not_applicable).expect("entries serialize");
            std::fs::write(SKIPPED_FILE, json).map_err(|e| Error::io(SKIPPED_FILE, e))?;
            if let Err(e) = agent.artifact_upload(SKIPPED_FILE) {
                tell!(
                    "could not upload {SKIPPED_FILE}; the report will miss the \
                     not-applicable tests: {e}"
                );
            }
        }
        upload_batch_files(&agent, &pipeline::batch_files(&input))?;
        tell!(
            "uploading {} batch(es) in {} step(s)",
            input.batches.len(),
            pipeline["steps"][0]["steps"].as_array().map_or(0, Vec::len)
        );
        agent.pipeline_upload(&json)?;
        let job = std::env::var("BUILDKITE_JOB_ID").unwrap_or_default();
        if let Err(e) = agent.meta_data_set(&guard, &job) {
            tell!("could not record the upload in meta-data {guard}: {e}");
        }
        Ok(())
    }
}

/// Fetches what the report step of Buildkite build `build_id` learned (its
/// `flakiness-learned/` artifacts) into `folder` (default
/// `flakiness-learned`). Nothing fetched (the first build of a chain, a
/// build without the report step) plans without it, said.
pub(crate) fn fetch_learned(agent: &Agent, build_id: &str, folder: Option<&Path>) {
    let folder = folder.unwrap_or(Path::new(learned::DIR));
    match fetch_into(agent, build_id, folder) {
        Ok(()) => tell!(
            "learned: build {build_id}'s {}/ fetched into {}",
            learned::DIR,
            folder.display()
        ),
        Err(e) => tell!("learned: nothing fetched from build {build_id}: {e}"),
    }
}

fn fetch_into(agent: &Agent, build_id: &str, folder: &Path) -> Result<()> {
    let scratch = tempfile::tempdir().map_err(|e| Error::io(std::env::temp_dir(), e))?;
    let glob = format!("{}/*", learned::DIR);
    agent.artifact_download_from_build(&glob, scratch.path(), build_id)?;
    std::fs::create_dir_all(folder).map_err(|e| Error::io(folder, e))?;
    let fetched = scratch.path().join(learned::DIR);
    for entry in crate::reports::walk::list(&fetched).map_err(|e| Error::io(&fetched, e))? {
        let to = folder.join(entry.file_name());
        std::fs::copy(entry.path(), &to).map_err(|e| Error::io(&to, e))?;
    }
    Ok(())
}

/// Writes and uploads the batches too long for a step's environment, as
/// artifacts of this job, before the pipeline that names them: a batch job
/// that cannot fetch its batch has nothing to run.
fn upload_batch_files(agent: &Agent, files: &[(String, String)]) -> Result<()> {
    for (file, json) in files {
        let path = Path::new(file);
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
        }
        std::fs::write(path, json).map_err(|e| Error::io(path, e))?;
        tell!(
            "{file}: a batch of {} KiB, over what a job's environment carries: uploaded as an \
             artifact its job fetches",
            json.len() / 1024
        );
    }
    if !files.is_empty() {
        agent.artifact_upload(&format!("{}/*", pipeline::BATCH_FILES_DIR))?;
    }
    Ok(())
}
