//! What the user asks of the generated workflow (`github workflow`'s options,
//! as given) and its check: the batching options become the plan step's
//! `FLAKINESS_*` variables, `--gradle` and `--project-dir` every job's, and
//! no value may hold an expression GitHub would evaluate.

use super::workflow::{literal, WorkflowConfig, MIN_JOB_TIMEOUT};
use crate::ci::blocking::Blocking;
use crate::ci::spec::GRACE_MINUTES;
use crate::domain::RepetitionMode;
use crate::settings::{ContextMode, RunMode};
use crate::time::format_duration;
use crate::{vars, Error, Result};
use std::path::PathBuf;
use std::time::Duration;

/// The `github workflow` options, plain. Options left at their defaults are
/// `None` (or empty), so the workflow only sets what the user chose.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct WorkflowRequest {
    /// Run on pull requests.
    pub pull_request: bool,
    /// Run by hand (`workflow_dispatch`).
    pub manual: bool,
    /// The batching options, already validated.
    pub batching: BatchingOptions,
    /// `--muted-file`, when not the default.
    pub muted_file: Option<PathBuf>,
    /// `--gradle`.
    pub gradle: Option<String>,
    /// `--project-dir`, when not the current directory.
    pub project_dir: Option<PathBuf>,
    pub runs_on: String,
    pub java: String,
    pub java_distribution: String,
    pub gradle_version: Option<String>,
    pub install: Option<String>,
    /// `--job-timeout`, in minutes.
    pub job_timeout_min: u32,
    pub exit_code: bool,
    /// Opt-in blocking, validated: the report job's variables.
    pub blocking: Blocking,
    /// `--ledger`: earlier run ledgers in the checkout the report job reads.
    pub ledger: Option<String>,
    /// `--compare REF`: each batch also runs on REF (pull requests).
    pub compare: Option<String>,
}

/// The batching options as given, forwarded to the plan step.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BatchingOptions {
    pub iters: Option<u32>,
    pub unit_iters: Option<u32>,
    pub integ_iters: Option<u32>,
    pub rest_iters: Option<u32>,
    pub suite_timeout: Option<Duration>,
    /// `--repetition`, when not `auto`.
    pub repetition: Option<RepetitionMode>,
    pub caps: Vec<String>,
    pub detect_rate: Option<String>,
    /// `--confidence`, when not the default.
    pub confidence: Option<f64>,
    /// `--budget`; `None`: each batch job's timeout minus the grace.
    pub budget: Option<Duration>,
    /// `--durations`, a path in the checkout the plan job reads.
    pub durations: Option<String>,
    /// `--max-shards`, when not the default.
    pub max_shards: Option<u32>,
    /// `--context`, when not the default.
    pub context: Option<ContextMode>,
    /// `--sample-seed`, when given.
    pub sample_seed: Option<u64>,
    /// `--unmute-check`, when given.
    pub unmute_check: Option<u32>,
}

impl BatchingOptions {
    /// The plan step's `FLAKINESS_*` variables of the options that are set.
    fn variables(&self) -> Vec<(String, String)> {
        [
            (vars::UNIT_ITERS, self.unit_iters.map(|n| n.to_string())),
            (vars::INTEG_ITERS, self.integ_iters.map(|n| n.to_string())),
            (vars::REST_ITERS, self.rest_iters.map(|n| n.to_string())),
            (vars::SUITE_TIMEOUT, self.suite_timeout.map(format_duration)),
            (
                vars::REPETITION,
                self.repetition.map(|r| r.as_str().to_string()),
            ),
            (
                vars::CAPS,
                (!self.caps.is_empty()).then(|| self.caps.join(",")),
            ),
            (vars::DETECT_RATE, self.detect_rate.clone()),
            (vars::CONFIDENCE, self.confidence.map(|c| c.to_string())),
            (vars::BUDGET, self.budget.map(format_duration)),
            (vars::DURATIONS, self.durations.clone()),
            (vars::MAX_SHARDS, self.max_shards.map(|k| k.to_string())),
            (vars::CONTEXT, self.context.map(|c| c.as_str().to_string())),
            (vars::SAMPLE_SEED, self.sample_seed.map(|s| s.to_string())),
            (vars::UNMUTE_CHECK, self.unmute_check.map(|n| n.to_string())),
        ]
        .into_iter()
        .filter_map(|(name, value)| Some((name.to_string(), value?)))
        .collect()
    }
}

impl WorkflowRequest {
    /// The workflow's settings, or the first option that cannot be written
    /// into a workflow (named by its flag).
    pub fn config(&self) -> Result<WorkflowConfig> {
        let compare = self.compare.clone().filter(|r| !r.trim().is_empty());
        let plan_env = self.plan_env(compare.as_deref())?;
        let env = self.job_env()?;
        if self.job_timeout_min < MIN_JOB_TIMEOUT {
            return Err(Error::input(
                "--job-timeout",
                format!("must be at least {MIN_JOB_TIMEOUT} minutes: the batch is stopped {GRACE_MINUTES} minutes before the job"),
            ));
        }
        for (flag, value) in [
            ("--runs-on", &self.runs_on),
            ("--java", &self.java),
            ("--java-distribution", &self.java_distribution),
        ] {
            if value.trim().is_empty() {
                return Err(Error::input(flag, "must not be empty"));
            }
        }
        let cfg = WorkflowConfig {
            pull_request: self.pull_request,
            manual: self.manual,
            plan_env,
            iters: self.batching.iters,
            env,
            runs_on: self.runs_on.trim().to_string(),
            java_version: self.java.trim().to_string(),
            java_distribution: self.java_distribution.trim().to_string(),
            gradle_version: self.gradle_version.clone(),
            install: self.install.clone().filter(|c| !c.trim().is_empty()),
            job_timeout_min: self.job_timeout_min,
            exit_code: self.exit_code,
            blocking: self.blocking.clone(),
            ledger: self.ledger.clone().filter(|l| !l.trim().is_empty()),
            compare: compare.is_some(),
        };
        check_values(&cfg)?;
        Ok(cfg)
    }
    /// The plan step's variables: the batching's, each batch job's budget
    /// (as every target derives it from its job's limit, so that the plan
    /// splits a batch the durations say cannot fit), the muted-tests file,
    /// REF of `--compare`.
    fn plan_env(&self, compare: Option<&str>) -> Result<Vec<(String, String)>> {
        let mut plan_env = self.batching.variables();
        if self.batching.budget.is_none() {
            let limit = Duration::from_secs(u64::from(self.job_timeout_min) * 60);
            let budget = RunMode::Count.batch_budget(Some(limit));
            plan_env.push((
                vars::BUDGET.into(),
                budget.map(format_duration).unwrap_or_default(),
            ));
        }
        if let Some(file) = &self.muted_file {
            let file = file.to_string_lossy().into_owned();
            plan_env.push((vars::MUTED_FILE.into(), file));
        }
        if let Some(reference) = compare {
            if !self.pull_request {
                return Err(Error::input(
                    "--compare",
                    "compares a pull request with REF: add --on pull-request",
                ));
            }
            // A value of the plan step's env, never an expression.
            literal("--compare", reference)?;
            plan_env.push((vars::COMPARE.into(), reference.to_string()));
        }
        Ok(plan_env)
    }

    /// Every job's variables: the Gradle program, the build's directory.
    fn job_env(&self) -> Result<Vec<(String, String)>> {
        let mut env = Vec::new();
        if let Some(gradle) = &self.gradle {
            env.push((vars::GRADLE.to_string(), gradle.clone()));
        }
        if let Some(dir) = &self.project_dir {
            if dir.is_absolute() {
                return Err(Error::input(
                    "--project-dir",
                    "the workflow needs the build's directory relative to the repository root",
                ));
            }
            let dir = dir.to_string_lossy().into_owned();
            env.push((vars::PROJECT_DIR.into(), dir));
        }
        Ok(env)
    }
}

/// Every value the workflow writes is a literal (no `${{ }}` expression).
fn check_values(cfg: &WorkflowConfig) -> Result<()> {
    let values = cfg
        .plan_env
        .iter()
        .chain(&cfg.env)
        .map(|(k, v)| (k.as_str(), v));
    let labels = cfg.blocking.labels.join(",");
    let ledger = cfg.ledger.clone().unwrap_or_default();
    let values = values.chain([(vars::BLOCKING_LABELS, &labels), (vars::LEDGER, &ledger)]);
    let options = [
        ("--runs-on", Some(&cfg.runs_on)),
        ("--java", Some(&cfg.java_version)),
        ("--java-distribution", Some(&cfg.java_distribution)),
        ("--gradle-version", cfg.gradle_version.as_ref()),
        ("--install", cfg.install.as_ref()),
    ];
    for (what, value) in values.chain(options.into_iter().filter_map(|(f, v)| Some((f, v?)))) {
        literal(what, value)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(batching: BatchingOptions) -> WorkflowRequest {
        WorkflowRequest {
            pull_request: true,
            batching,
            runs_on: "ubuntu-latest".into(),
            java: "21".into(),
            java_distribution: "temurin".into(),
            job_timeout_min: 60,
            ..WorkflowRequest::default()
        }
    }

    fn plan_var<'a>(cfg: &'a WorkflowConfig, name: &str) -> Option<&'a str> {
        let found = cfg.plan_env.iter().find(|(k, _)| k == name);
        found.map(|(_, v)| v.as_str())
    }

    #[test]
    fn the_plan_job_gets_the_budget_durations_and_shard_cap_asked_for() {
        let cfg = request(BatchingOptions::default()).config().unwrap();
        assert_eq!(plan_var(&cfg, vars::BUDGET), Some("58m"));
        assert_eq!(plan_var(&cfg, vars::DURATIONS), None);
        assert_eq!(plan_var(&cfg, vars::MAX_SHARDS), None);
        let cfg = request(BatchingOptions {
            budget: Some(Duration::from_secs(20 * 60)),
            durations: Some("ci/durations.json".into()),
            max_shards: Some(4),
            ..BatchingOptions::default()
        })
        .config()
        .unwrap();
        let budgets = cfg.plan_env.iter().filter(|(k, _)| k == vars::BUDGET);
        assert_eq!(budgets.count(), 1, "one budget: the one asked for");
        assert_eq!(plan_var(&cfg, vars::BUDGET), Some("20m"));
        assert_eq!(plan_var(&cfg, vars::DURATIONS), Some("ci/durations.json"));
        assert_eq!(plan_var(&cfg, vars::MAX_SHARDS), Some("4"));
    }

    /// `--context` and `--sample-seed` reach the plan job, which plans the
    /// whole-task batches as jobs of their own.
    #[test]
    fn the_plan_job_gets_the_context_asked_for() {
        let cfg = request(BatchingOptions::default()).config().unwrap();
        assert_eq!(plan_var(&cfg, vars::CONTEXT), None, "alone by default");
        let cfg = request(BatchingOptions {
            context: Some(ContextMode::Both),
            sample_seed: Some(42),
            ..BatchingOptions::default()
        })
        .config()
        .unwrap();
        assert_eq!(plan_var(&cfg, vars::CONTEXT), Some("both"));
        assert_eq!(plan_var(&cfg, vars::SAMPLE_SEED), Some("42"));
    }

    #[test]
    fn a_durations_path_holding_an_expression_is_refused() {
        let e = request(BatchingOptions {
            durations: Some("${{ secrets.X }}".into()),
            ..BatchingOptions::default()
        })
        .config()
        .unwrap_err();
        assert!(e.to_string().contains("FLAKINESS_DURATIONS"), "{e}");
    }

    /// `--compare REF` reaches the plan step as a value, checked like every
    /// value written into the workflow; it compares pull requests only.
    #[test]
    fn compare_is_a_checked_value_of_the_plan_step() {
        let with = |reference: &str, pull_request: bool| WorkflowRequest {
            compare: Some(reference.into()),
            pull_request,
            manual: !pull_request,
            ..request(BatchingOptions::default())
        };
        let cfg = with("origin/main", true).config().unwrap();
        assert_eq!(plan_var(&cfg, vars::COMPARE), Some("origin/main"));
        assert!(cfg.compare);
        let plain = request(BatchingOptions::default()).config().unwrap();
        assert_eq!(plan_var(&plain, vars::COMPARE), None);
        assert!(!plain.compare);
        let err = with("${{ github.head_ref }}", true).config().unwrap_err();
        assert!(err.to_string().contains("--compare"), "{err}");
        let err = with("origin/main", false).config().unwrap_err();
        assert!(err.to_string().contains("--on pull-request"), "{err}");
    }
}
