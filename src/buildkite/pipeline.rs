//! The Buildkite sub-pipeline: planned commands → pipeline value (pure), and
//! the `buildkite-agent` edge (`agent`) that uploads it.
//!
//! Shape (as Elasticsearch's own pipeline): one group; one step per kind, fanned out with
//! `parallelism` when the kind has several batches; the final `flakiness-detection:analyze` step
//! depending on all of them. The compile gate runs before the upload, in the uploading step
//! (`ci::gate`), as Elasticsearch's generate step compiles: when it fails, the pipeline is the
//! analyze step alone, told so by value (`FLAKINESS_COMPILE_FAILED=true`).
//!
//! How a batch reaches the agent. Every batch step runs the same fixed command,
//! `<bin> buildkite wrap --from-env --timeout <inner>`, and the batch itself
//! travels as JSON in the step's `env` (`FLAKINESS_BATCH_<n>`, picked by
//! `$BUILDKITE_PARALLEL_JOB`): the typed batch (`ci::spec::JobSpec`: the
//! command with its tests and typed invocation, and the policy it runs by),
//! whose Gradle command line the job renders where it runs. So test names,
//! file names and YAML paths from a branch never pass through a shell or
//! `eval` (the older shell-based pipeline evaluated them, so a crafted test
//! name could run commands): they are data end to end. One step per kind keeps Elasticsearch's step keys,
//! which consumers of `flakiness-outcomes.json` group by.
//!
//! Interpolation. Buildkite expands `$VAR` in the string values of an uploaded
//! pipeline; its escapes are `$$` and `\$`, and `\\` is kept as is. Every `$`
//! of every string is written `$$`, so each value reaches the agent verbatim.
//! That is exact for the JSON in `env` too: JSON text writes a backslash as
//! `\\` and never writes `\$`, so no backslash can pair with an escaped `$`.
//! The same holds if the upload interpolated the raw document instead.

use crate::ci::blocking::Blocking;
use crate::ci::compare;
use crate::ci::prepare::CiPlan;
use crate::ci::spec::{inner_timeout, CiBatch, JobSpec, ReportContext};
use crate::plan::group_in_order;
use crate::reports::{
    DURATIONS_FILE, HISTORY_PAGE, LEDGER_FILE, OUTCOMES_FILE, STATUS_GLOB, TRIAGE_FILE, XML_GLOB,
};
use crate::vars;
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// Steps that are no test batch are keyed `flakiness-orchestration:*`:
/// Elasticsearch's metrics count every `flakiness-detection:*` key but
/// `:analyze` as a batch.
pub(crate) const ANALYZE_KEY: &str = "flakiness-detection:analyze";
pub(crate) const TRIAGE_KEY: &str = "flakiness-orchestration:triage";
/// The triage step's timeout is its replays' time limit plus this (fetching
/// the reports, starting Gradle, the wrapper's grace).
const TRIAGE_MARGIN_MIN: u32 = 15;
const ANALYZE_TIMEOUT_MIN: u32 = 10;

/// How steps run on agents.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AgentConfig {
    /// Agent selector of the batch steps, in the order given.
    pub agents: Vec<(String, String)>,
    /// Step timeout of each batch step.
    pub step_timeout_min: u32,
    /// How an agent's shell runs gradle-flaky (shell text, e.g. `./bin/gradle-flaky`).
    pub bin: String,
    pub group: String,
    /// Opt-in blocking: the report step may fail with its exit code.
    pub blocking: Blocking,
}

impl AgentConfig {
    /// The wrapper's own timeout: the step's minus the grace, at least a minute.
    pub fn inner_timeout_min(&self) -> u32 {
        inner_timeout(self.step_timeout_min)
    }
}

/// What the triage step replays, carried as JSON in its `env`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct TriageSpec {
    /// Replays of each failing seed (or of a test without seeds, alone).
    pub replays: u32,
    /// The most replays in all.
    pub budget: u64,
    /// The most time the replays take.
    pub timeout_sec: u64,
    /// The build's Gradle has `--rerun` (7.6+); else each replay runs `clean<Task>` first.
    #[serde(default)]
    pub rerun: bool,
    /// The Gradle build's directory, relative to the checkout.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dir: Option<PathBuf>,
}

/// Everything a pipeline is built from.
#[derive(Clone, Debug, Default)]
pub(crate) struct PipelineInput {
    /// The batches, a job each.
    pub batches: Vec<CiBatch>,
    /// The compile gate failed: no batch runs, the analyze step records it.
    pub compile_failed: bool,
    /// The Gradle build's directory relative to the checkout, when not the checkout itself.
    pub dir: Option<PathBuf>,
    /// How many tests were found but cannot run (listed in
    /// `flakiness-skipped.json`): the analyze step runs even with no batch,
    /// and checks the list against this count.
    pub skipped_count: usize,
    /// Gradle paths of the selected projects whose directory does not spell
    /// them (a renamed project), for the report's task paths.
    pub projects: BTreeMap<String, String>,
    /// The Gradle program of the batches, for the report's reproduce lines.
    pub gradle: Vec<String>,
    /// The build's Gradle has `--rerun` (7.6+).
    pub rerun: bool,
    /// Replay the failing tests in a triage step after the report (off: `None`).
    pub triage: Option<TriageSpec>,
    /// `--compare REF`: REF's batches, a job each beside the branch's.
    pub compare: Option<BaseBatches>,
    /// The build whose learned folder the report step fetches first
    /// (`--learned-build`).
    pub learned_build: Option<String>,
}

pub(crate) use crate::compare::ci::BaseBatches;

impl PipelineInput {
    /// The pipeline of a plan, with a triage step when `triage` asks for one;
    /// only the analyze step when the compile gate failed.
    pub(crate) fn of(
        plan: &CiPlan,
        triage: Option<&crate::triage::TriageConfig>,
        compile_failed: bool,
    ) -> PipelineInput {
        let batches = if compile_failed {
            Vec::new()
        } else {
            plan.batches.clone()
        };
        PipelineInput {
            batches,
            compile_failed,
            dir: plan.dir.clone(),
            skipped_count: plan.not_applicable.len(),
            projects: plan.projects.clone(),
            gradle: plan.gradle.clone(),
            rerun: plan.rerun,
            triage: triage.map(|t| TriageSpec {
                replays: t.replays,
                budget: t.budget,
                timeout_sec: t.timeout.as_secs(),
                rerun: plan.rerun,
                dir: plan.dir.clone(),
            }),
            compare: None,
            learned_build: None,
        }
    }
}

/// The pipeline to upload, or `None` when there is nothing to run or report.
pub(crate) fn pipeline(input: &PipelineInput, cfg: &AgentConfig) -> Option<Value> {
    let groups = group_in_order(&input.batches, |b| b.command.key.clone());
    if groups.is_empty() && input.skipped_count == 0 && !input.compile_failed {
        return None;
    }
    let mut steps = Vec::new();
    let commands = input.batches.iter().map(|b| &b.command);
    let mut context = ReportContext::of(commands, &input.projects, &input.gradle, input.rerun);
    for (key, batches) in &groups {
        steps.push(batch_step(key, batches, None, input, cfg));
    }
    if let Some(base) = input.compare.as_ref().filter(|_| !input.compile_failed) {
        for (key, batches) in &group_in_order(&base.batches, |b| b.command.key.clone()) {
            steps.push(batch_step(key, batches, Some(&base.side), input, cfg));
        }
        context.compare = Some(base.context());
    }
    steps.push(analyze_step(&steps, &context, input, cfg));
    if let Some(spec) = input.triage.as_ref().filter(|_| !groups.is_empty()) {
        steps.push(triage_step(spec, &context, cfg));
    }
    let pipeline = json!({ "steps": [ { "group": cfg.group, "steps": steps } ] });
    Some(escape_interpolation(pipeline))
}

/// The step of a kind's batches; with `base`, REF's step of them (a job
/// each that checks out REF and keeps its files under `flakiness-base/`).
fn batch_step(
    key: &str,
    batches: &[&CiBatch],
    base: Option<&crate::compare::ci::BaseSelection>,
    input: &PipelineInput,
    cfg: &AgentConfig,
) -> Value {
    let first = &batches[0].command;
    let (label, key) = match base {
        Some(_) => (format!("{} on REF", first.label), compare::step_key(key)),
        None => (first.label.clone(), key.to_string()),
    };
    let mut step = common_fields(
        &label,
        &key,
        format!(
            "{} buildkite wrap --from-env --timeout {}m",
            cfg.bin,
            cfg.inner_timeout_min()
        ),
        cfg.step_timeout_min,
        &cfg.agents,
    );
    let artifacts = match base {
        Some(_) => json!([compare::XML_GLOB, compare::STATUS_GLOB]),
        None => json!([XML_GLOB, STATUS_GLOB]),
    };
    step.insert("artifact_paths".into(), artifacts);
    if batches.len() > 1 {
        step.insert("parallelism".into(), json!(batches.len()));
    }
    let env: Map<String, Value> = job_specs(&key, batches, base, input)
        .into_iter()
        .enumerate()
        .map(|(i, (json, file))| {
            let value = match file {
                Some(file) => env_json(&BatchFile { batch_file: file }),
                None => json,
            };
            (vars::batch_spec(i), Value::String(value))
        })
        .collect();
    step.insert("env".into(), Value::Object(env));
    Value::Object(step)
}

/// The longest typed batch a step's environment carries: Linux refuses to
/// start a program with a variable over 128 KiB (a whole task's sample of
/// classes can pass it). Longer batches travel as artifacts of the
/// uploading job ([`batch_files`]), the variable naming the file.
pub(crate) const ENV_BATCH_LIMIT: usize = 96 * 1024;

/// Where batches too long for the environment go, as artifacts.
pub(crate) const BATCH_FILES_DIR: &str = "flakiness-batches";

/// What a step's variable holds in place of a batch too long for it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct BatchFile {
    /// The batch's artifact, `flakiness-batches/<step>-<n>.json`.
    pub batch_file: String,
}

/// Each job's typed batch of the step `key` (JSON), and the artifact it
/// travels as when it is too long for the environment.
fn job_specs(
    key: &str,
    batches: &[&CiBatch],
    base: Option<&crate::compare::ci::BaseSelection>,
    input: &PipelineInput,
) -> Vec<(String, Option<String>)> {
    let slug: String = key
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    batches
        .iter()
        .enumerate()
        .map(|(i, b)| {
            let mut spec = JobSpec::of(b, input.dir.clone());
            spec.base = base.map(|b| b.checkout.clone());
            let json = env_json(&spec);
            let file = (json.len() > ENV_BATCH_LIMIT)
                .then(|| format!("{BATCH_FILES_DIR}/{slug}-{i}.json"));
            (json, file)
        })
        .collect()
}

/// The batches too long for a step's environment, each with the artifact
/// (path, JSON) it travels as: the uploading job writes and uploads them
/// before the pipeline.
pub(crate) fn batch_files(input: &PipelineInput) -> Vec<(String, String)> {
    let mut files = Vec::new();
    let mut add = |key: String, batches: &[&CiBatch], base| {
        for (json, file) in job_specs(&key, batches, base, input) {
            files.extend(file.map(|f| (f, json)));
        }
    };
    for (key, batches) in group_in_order(&input.batches, |b| b.command.key.clone()) {
        add(key, &batches, None);
    }
    if let Some(base) = input.compare.as_ref().filter(|_| !input.compile_failed) {
        for (key, batches) in group_in_order(&base.batches, |b| b.command.key.clone()) {
            add(compare::step_key(&key), &batches, Some(&base.side));
        }
    }
    files
}

/// The final step. It runs on the batch agents (which have gradle-flaky), not
/// on the pipeline default as Elasticsearch's Node-based step did. What the
/// upload knows beside the batches comes as values in its `env`: the
/// compile gate's verdict and the skip list's size.
fn analyze_step(
    before: &[Value],
    context: &ReportContext,
    input: &PipelineInput,
    cfg: &AgentConfig,
) -> Value {
    let inner = inner_timeout(ANALYZE_TIMEOUT_MIN);
    // Never-fail like a batch, but for the one exit code that blocks.
    let blocking = cfg.blocking.exit_code.filter(|_| cfg.blocking.is_on());
    let pass = blocking
        .map(|code| format!(" --pass-exit-code {code}"))
        .unwrap_or_default();
    let mut step = common_fields(
        "flakiness report",
        ANALYZE_KEY,
        format!(
            "{bin} buildkite wrap --timeout {inner}m{pass} -- {bin} buildkite analyze",
            bin = cfg.bin
        ),
        ANALYZE_TIMEOUT_MIN,
        &cfg.agents,
    );
    let mut artifacts = vec![OUTCOMES_FILE, DURATIONS_FILE, LEDGER_FILE, HISTORY_PAGE];
    if context.compare.is_some() {
        artifacts.push(compare::COMPARISON_FILE);
    }
    // What the run learned, for the next build's plan and report (`--learned-build`).
    let learned = format!("{}/*", crate::ci::learned::DIR);
    artifacts.push(&learned);
    step.insert("artifact_paths".into(), json!(artifacts));
    let depends: Vec<Value> = before
        .iter()
        .map(|s| json!({ "step": s["key"], "allow_failure": true }))
        .collect();
    step.insert("depends_on".into(), Value::Array(depends));
    let (fitted, dropped) = context.for_env();
    if dropped {
        crate::tell!(
            "note: the selection is too long for the report step's environment: it will not \
             list selected tests no job ran (each job's outcome still counts what it ran)"
        );
    }
    let mut env = json!({
        vars::REPORT_CONTEXT: env_json(&fitted),
        vars::COMPILE_FAILED: input.compile_failed.to_string(),
        vars::SKIPPED_COUNT: input.skipped_count.to_string(),
    });
    if let Some(code) = blocking {
        env[vars::BLOCKING_LABELS] = json!(cfg.blocking.labels.join(","));
        env[vars::PROVEN_EXIT_CODE] = json!(code.to_string());
    }
    if let Some(build) = &input.learned_build {
        env[vars::LEARNED_BUILD] = json!(build);
    }
    step.insert("env".into(), env);
    Value::Object(step)
}

/// The optional triage step: after the report, on the batch agents (it runs
/// Gradle), with its own annotation context (`flakiness-triage`).
fn triage_step(spec: &TriageSpec, context: &ReportContext, cfg: &AgentConfig) -> Value {
    let minutes = u32::try_from(spec.timeout_sec.div_ceil(60))
        .unwrap_or(u32::MAX)
        .saturating_add(TRIAGE_MARGIN_MIN);
    let mut step = common_fields(
        "flakiness triage",
        TRIAGE_KEY,
        format!(
            "{bin} buildkite wrap --timeout {}m -- {bin} buildkite triage",
            inner_timeout(minutes),
            bin = cfg.bin
        ),
        minutes,
        &cfg.agents,
    );
    step.insert("artifact_paths".into(), json!([TRIAGE_FILE, LEDGER_FILE]));
    step.insert(
        "depends_on".into(),
        json!([{ "step": ANALYZE_KEY, "allow_failure": true }]),
    );
    step.insert(
        "env".into(),
        json!({ vars::REPORT_CONTEXT: env_json(&context.for_env().0), vars::TRIAGE_SPEC: env_json(spec) }),
    );
    Value::Object(step)
}

/// The fields every step has; no retry, which would skip tests that already
/// passed, when re-running is the point.
fn common_fields(
    label: &str,
    key: &str,
    command: String,
    timeout_min: u32,
    agents: &[(String, String)],
) -> Map<String, Value> {
    let mut step = Map::new();
    step.insert("label".into(), json!(label));
    step.insert("key".into(), json!(key));
    step.insert("command".into(), json!(command));
    step.insert("timeout_in_minutes".into(), json!(timeout_min));
    step.insert("retry".into(), json!({ "automatic": false }));
    if !agents.is_empty() {
        let agents: Map<String, Value> =
            agents.iter().map(|(k, v)| (k.clone(), json!(v))).collect();
        step.insert("agents".into(), Value::Object(agents));
    }
    step
}

/// JSON for an env value (`$` is escaped with the rest of the pipeline).
pub(crate) fn env_json<T: Serialize + ?Sized>(value: &T) -> String {
    serde_json::to_string(value).expect("plain data serializes")
}

/// Writes every `$` of every string value as `$$`, Buildkite's escape.
fn escape_interpolation(value: Value) -> Value {
    match value {
        Value::String(s) => Value::String(s.replace('$', "$$")),
        Value::Array(items) => Value::Array(items.into_iter().map(escape_interpolation).collect()),
        Value::Object(map) => Value::Object(
            map.into_iter()
                .map(|(k, v)| (k, escape_interpolation(v)))
                .collect(),
        ),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::testing::unit as unit_test;
    use crate::domain::{GradleCommand, TestKind};
    use crate::invocation::{Body, Forcing, InJvm, Invocation, Repeat, TaskRun, Tasks};
    use crate::plan::policy::Policy;
    use std::time::Duration;

    fn cfg() -> AgentConfig {
        AgentConfig {
            agents: vec![("queue".into(), "flaky".into())],
            step_timeout_min: 60,
            bin: "gradle-flaky".into(),
            group: "flakiness-detection".into(),
            blocking: Blocking::default(),
        }
    }

    /// A batch running `argv` as given, whole.
    fn cmd(kind: TestKind, argv: &[&str]) -> CiBatch {
        let loops = if kind.is_rest() { 10 } else { 1 };
        CiBatch::plain(GradleCommand::of_kind(kind, argv, 1, loops))
    }

    /// A batch as a run's plan gives it: `tasks` run by `gradle` as
    /// `repeat` says, with the policy of the default settings in a job of
    /// an hour.
    fn planned(kind: TestKind, gradle: &str, tasks: Tasks, repeat: Repeat) -> CiBatch {
        let invocation = Invocation {
            gradle: vec![gradle.into()],
            body: Body::Tasks(tasks),
            repeat,
            seed: None,
        };
        with_policy(GradleCommand::of(kind, invocation))
    }

    /// `command` with the policy a run's plan gives it.
    fn with_policy(command: GradleCommand) -> CiBatch {
        let settings = crate::settings::RunSettings::of(Default::default());
        let durations = crate::durations::Durations::default();
        let job = Some(Duration::from_secs(3600));
        let policy = Policy::of(&settings, &command, &durations, job);
        CiBatch {
            command,
            policy,
            replan: None,
        }
    }

    fn in_jvm(iterations: u32) -> Repeat {
        Repeat::InJvm {
            mechanism: InJvm::TestsIters,
            iterations,
            fresh_jvms: Default::default(),
        }
    }

    /// `task` filtered by `filters`, not forced.
    fn tasks(task: &str, filters: &[&str], forcing: Option<Forcing>) -> Tasks {
        let filters = filters.iter().map(|f| f.to_string()).collect();
        Tasks::of(vec![TaskRun::filtered(task, filters)], forcing)
    }

    /// The spec of parallel job `n` of `step`, as the agent reads it
    /// (Buildkite's `$$` escape undone).
    fn spec_of(step: &Value, n: usize) -> JobSpec {
        let env = step["env"][vars::batch_spec(n)].as_str().unwrap();
        serde_json::from_str(&env.replace("$$", "$")).unwrap()
    }

    /// The Gradle command line a job renders from its spec.
    fn rendered(spec: &JobSpec) -> Vec<String> {
        spec.command().argv()
    }

    fn steps(p: &Value) -> &Vec<Value> {
        p["steps"][0]["steps"].as_array().unwrap()
    }

    /// Buildkite's published pipeline schema.
    fn schema_errors(p: &Value) -> Vec<String> {
        let schema: Value = serde_json::from_str(include_str!(
            "../../tests/data/buildkite/pipeline-schema.json"
        ))
        .unwrap();
        let validator = jsonschema::validator_for(&schema).unwrap();
        validator
            .iter_errors(p)
            .map(|e| format!("{e} at {}", e.instance_path))
            .collect()
    }

    /// Builds a pipeline and checks it against the schema.
    fn valid_pipeline(input: &PipelineInput, cfg: &AgentConfig) -> Value {
        let p = pipeline(input, cfg).expect("a pipeline");
        let errors = schema_errors(&p);
        assert!(errors.is_empty(), "invalid pipeline: {errors:#?}\n{p:#}");
        p
    }

    #[test]
    fn the_schema_check_catches_an_invalid_pipeline() {
        let empty_group = json!({ "steps": [ { "group": "g", "steps": [] } ] });
        assert!(!schema_errors(&empty_group).is_empty());
        let bad_parallelism = json!({ "steps": [ { "command": "x", "parallelism": "2" } ] });
        assert!(!schema_errors(&bad_parallelism).is_empty());
    }

    #[test]
    fn pipelines_match_their_snapshots() {
        let unit = |class| {
            let tasks = tasks(":server:test", &[class], None);
            planned(TestKind::Unit, "./gradlew", tasks, in_jvm(100))
        };
        let mut suite = tasks(":m:yamlRestTest", &[], Some(Forcing::Rerun));
        suite.rest_suites = vec!["p/40_$(touch pwned)".into()];
        let batches = vec![
            unit("org.example.ATests"),
            unit("org.example.BTests"),
            planned(
                TestKind::InternalClusterTest,
                "./gradlew",
                tasks(":server:internalClusterTest", &["org.example.CIT"], None),
                in_jvm(20),
            ),
            planned(
                TestKind::YamlRestTestSuite,
                "./gradlew",
                suite,
                Repeat::GradleRuns(10),
            ),
        ];
        let input = PipelineInput {
            batches: batches.clone(),
            compile_failed: false,
            dir: None,
            skipped_count: 2,
            projects: BTreeMap::from([(
                "test/external-modules/heap".into(),
                ":test:external-modules:test-heap".into(),
            )]),
            gradle: vec!["./gradlew".into()],
            rerun: false,
            triage: None,
            compare: None,
            learned_build: None,
        };
        insta::assert_json_snapshot!("fan_out_with_skipped", valid_pipeline(&input, &cfg()));
        // Each job renders the Gradle command line from its typed batch.
        let fan_out = valid_pipeline(&input, &cfg());
        let fanned = steps(&fan_out);
        assert_eq!(
            rendered(&spec_of(&fanned[0], 1)),
            [
                "./gradlew",
                "-Dtests.iters=100",
                ":server:test",
                "--tests",
                "org.example.BTests"
            ]
        );
        let yaml = spec_of(&fanned[2], 0);
        assert_eq!(yaml.batch, batches[3], "the typed batch, intact");
        assert_eq!(yaml.command().rest_loops(), 10, "looped in the job");
        assert_eq!(
            yaml.command().argv(),
            [
                "./gradlew",
                ":m:yamlRestTest",
                "--rerun",
                "-Dtests.rest.suite=p/40_$(touch pwned)"
            ]
        );

        let single = vec![planned(
            TestKind::JavaRestTest,
            "gradle",
            tasks(
                ":qa:javaRestTest",
                &["org.example.DIT"],
                Some(Forcing::Rerun),
            ),
            Repeat::GradleRuns(10),
        )];
        let plain = AgentConfig {
            agents: vec![],
            ..cfg()
        };
        let input = PipelineInput {
            batches: single.clone(),
            dir: Some("build-root".into()),
            ..Default::default()
        };
        insta::assert_json_snapshot!("single_batch_plain_agent", valid_pipeline(&input, &plain));
        // `--learned-build`: the report step fetches that build's learned
        // folder too, and keeps its own as an artifact either way.
        let learning = PipelineInput {
            learned_build: Some("0190a1b2-c3d4".into()),
            ..input.clone()
        };
        let learning = valid_pipeline(&learning, &plain);
        let report = steps(&learning).last().unwrap().clone();
        assert_eq!(report["env"]["FLAKINESS_LEARNED_BUILD"], "0190a1b2-c3d4");
        assert!(report["artifact_paths"]
            .as_array()
            .unwrap()
            .contains(&json!("flakiness-learned/*")));
        let rest = spec_of(&steps(&valid_pipeline(&input, &plain))[0], 0);
        assert_eq!(
            rendered(&rest),
            [
                "gradle",
                ":qa:javaRestTest",
                "--tests",
                "org.example.DIT",
                "--rerun"
            ]
        );

        // `--context both`: the whole-task batch is a step of its own, marked
        // in the report's context so that its jobs are read in context task.
        let mut whole = planned(
            TestKind::Unit,
            "gradle",
            tasks(":server:test", &[], Some(Forcing::CleanTask)),
            Repeat::GradleRuns(5),
        );
        whole.command.label = "unit tests in their whole task".into();
        whole.command.key = "flakiness-detection:unit-task".into();
        whole.command.whole_task = Some(crate::domain::WholeTask::default());
        // Its selected test: the report sets apart what else the task ran.
        whole.command.tests = vec![unit_test("org.example.S$Tests")];
        let whole = with_policy(whole.command);
        let both = PipelineInput {
            batches: vec![batches[0].clone(), whole],
            ..Default::default()
        };
        insta::assert_json_snapshot!("context_both", valid_pipeline(&both, &plain));
        let whole = spec_of(&steps(&valid_pipeline(&both, &plain))[1], 0);
        assert_eq!(
            rendered(&whole),
            ["gradle", ":server:cleanTest", ":server:test"]
        );
        let blocking = AgentConfig {
            blocking: Blocking::new(Some("Team:Search, team:ml"), Some("42")).unwrap(),
            ..plain
        };
        let blocked = valid_pipeline(&input, &blocking);
        let report = &blocked["steps"][0]["steps"][1];
        assert_eq!(report["key"], ANALYZE_KEY);
        assert_eq!(
            report["command"],
            "gradle-flaky buildkite wrap --timeout 8m --pass-exit-code 42 -- gradle-flaky buildkite analyze"
        );
        assert_eq!(report["env"][vars::BLOCKING_LABELS], "Team:Search,team:ml");
        assert_eq!(report["env"][vars::PROVEN_EXIT_CODE], "42");
        insta::assert_json_snapshot!("single_batch_blocking_by_label", blocked);
    }

    #[test]
    fn the_triage_step_follows_the_report_only_when_asked_and_there_are_batches() {
        let batches = vec![planned(
            TestKind::Unit,
            "gradle",
            tasks(":a:test", &["A"], None),
            in_jvm(1),
        )];
        let spec = TriageSpec {
            replays: 5,
            budget: 100,
            timeout_sec: 1800,
            rerun: false,
            dir: Some("sub $dir".into()),
        };
        let mut c = cfg();
        c.bin = "$HOME/bin/gradle-flaky".into();
        let input = PipelineInput {
            batches,
            dir: Some("sub $dir".into()),
            gradle: vec!["gradle".into()],
            triage: Some(spec.clone()),
            ..Default::default()
        };
        let p = valid_pipeline(&input, &c);
        insta::assert_json_snapshot!("triage_step", p);
        let steps = steps(&p);
        let triage = steps.last().unwrap();
        assert_eq!(triage["key"], TRIAGE_KEY);
        assert_eq!(
            triage["depends_on"],
            json!([{ "step": ANALYZE_KEY, "allow_failure": true }])
        );
        assert_eq!(
            triage["timeout_in_minutes"], 45,
            "30 minutes of replays and a margin"
        );
        assert_eq!(
            triage["command"],
            "$$HOME/bin/gradle-flaky buildkite wrap --timeout 43m -- $$HOME/bin/gradle-flaky buildkite triage"
        );
        let env = triage["env"][vars::TRIAGE_SPEC].as_str().unwrap();
        let back: TriageSpec = serde_json::from_str(&env.replace("$$", "$")).unwrap();
        assert_eq!(back, spec);
        assert_eq!(
            triage["env"][vars::REPORT_CONTEXT],
            steps[1]["env"][vars::REPORT_CONTEXT]
        );

        let off = PipelineInput {
            triage: None,
            ..input.clone()
        };
        assert_eq!(steps_of(&off).len(), 2, "no triage step unless asked");
        let nothing_to_replay = PipelineInput {
            batches: Vec::new(),
            skipped_count: 1,
            ..input.clone()
        };
        assert_eq!(
            steps_of(&nothing_to_replay)
                .iter()
                .map(|s| s["key"].as_str().unwrap().to_string())
                .collect::<Vec<_>>(),
            [ANALYZE_KEY]
        );
    }

    /// `--compare REF`: each batch also runs in a REF job of its own (its
    /// spec carries REF's commit, its files under `flakiness-base/`); the
    /// report step expects REF's jobs and keeps the comparison. A hostile
    /// REF reaches the agent as data, escaped for Buildkite.
    #[test]
    fn a_compare_pipeline_runs_each_batch_on_ref_too() {
        let unit = |class: &str| {
            let tasks = tasks(":a:test", &[class], None);
            let mut c = planned(TestKind::Unit, "gradle", tasks, in_jvm(1)).command;
            c.tests = vec![unit_test(class)];
            with_policy(c)
        };
        let side = crate::compare::ci::BaseSelection {
            checkout: crate::ci::spec::BaseCheckout {
                reference: "$(touch pwned)".into(),
                commit: "0123456789abcdef0123456789abcdef01234567".into(),
                muted_file: Some("muted-tests.yml".into()),
            },
            branch: None,
            tests: vec![unit_test("a.ATests")],
            new_in_branch: vec!["a.NewTests".into()],
        };
        let input = PipelineInput {
            batches: vec![unit("a.ATests"), unit("a.NewTests")],
            gradle: vec!["gradle".into()],
            compare: Some(BaseBatches {
                side,
                batches: vec![unit("a.ATests")],
            }),
            ..Default::default()
        };
        let p = valid_pipeline(&input, &cfg());
        insta::assert_json_snapshot!("compare_with_ref", p);
        let steps = steps(&p);
        let keys: Vec<&str> = steps.iter().filter_map(|s| s["key"].as_str()).collect();
        assert_eq!(
            keys,
            [
                "flakiness-detection:unit",
                "flakiness-base:unit",
                ANALYZE_KEY
            ]
        );
        let base = &steps[1];
        assert_eq!(
            base["artifact_paths"],
            json!([compare::XML_GLOB, compare::STATUS_GLOB])
        );
        assert!(base.get("parallelism").is_none(), "one batch on REF");
        let env = base["env"]["FLAKINESS_BATCH_0"].as_str().unwrap();
        assert!(env.contains("$$(touch pwned)"), "{env}");
        let spec = spec_of(base, 0);
        assert_eq!(
            rendered(&spec),
            [
                "gradle",
                "-Dtests.iters=1",
                ":a:test",
                "--tests",
                "a.ATests"
            ]
        );
        let checkout = spec.base.expect("a REF job");
        assert_eq!(checkout.reference, "$(touch pwned)");
        assert_eq!(spec_of(&steps[0], 1).base, None);
        let analyze = &steps[2];
        assert_eq!(
            analyze["depends_on"][1],
            json!({ "step": "flakiness-base:unit", "allow_failure": true })
        );
        let context = analyze["env"][vars::REPORT_CONTEXT].as_str().unwrap();
        let context: ReportContext = serde_json::from_str(&context.replace("$$", "$")).unwrap();
        let compared = context.compare.expect("REF's side");
        assert_eq!(compared.jobs[0].step_key, "flakiness-base:unit");
        assert_eq!(compared.new_in_branch, ["a.NewTests"]);
        assert!(analyze["artifact_paths"]
            .as_array()
            .unwrap()
            .contains(&json!(compare::COMPARISON_FILE)));
        // A failed compile gate runs nothing, on either side.
        let failed = PipelineInput {
            compile_failed: true,
            batches: Vec::new(),
            ..input
        };
        assert_eq!(steps_of(&failed).len(), 1);
    }

    fn steps_of(input: &PipelineInput) -> Vec<Value> {
        steps(&valid_pipeline(input, &cfg())).clone()
    }

    #[test]
    fn nothing_to_run_or_report_uploads_nothing() {
        let input = PipelineInput::default();
        assert_eq!(pipeline(&input, &cfg()), None);
    }

    #[test]
    fn only_not_applicable_tests_give_a_lone_analyze_step() {
        let input = PipelineInput {
            skipped_count: 3,
            ..Default::default()
        };
        let p = valid_pipeline(&input, &cfg());
        let steps = steps(&p);
        assert_eq!(steps.len(), 1);
        assert_eq!(steps[0]["key"], ANALYZE_KEY);
        assert_eq!(steps[0]["depends_on"], json!([]));
        assert_eq!(steps[0]["env"][vars::SKIPPED_COUNT], "3");
        assert_eq!(steps[0]["env"][vars::COMPILE_FAILED], "false");
    }

    #[test]
    fn several_batches_of_a_kind_fan_out_with_parallelism() {
        let batches = vec![
            cmd(TestKind::Unit, &["gradle", ":a:test", "--tests", "A"]),
            cmd(TestKind::Unit, &["gradle", ":b:test", "--tests", "B"]),
            cmd(
                TestKind::JavaRestTest,
                &["gradle", ":c:javaRestTest", "--rerun"],
            ),
        ];
        let input = PipelineInput {
            batches: batches.clone(),
            ..Default::default()
        };
        let p = valid_pipeline(&input, &cfg());
        let steps = steps(&p);
        assert_eq!(steps.len(), 3);
        assert_eq!(steps[0]["parallelism"], 2);
        assert_eq!(
            steps[0]["command"],
            "gradle-flaky buildkite wrap --from-env --timeout 58m"
        );
        let spec = spec_of(&steps[0], 1);
        assert_eq!(rendered(&spec), ["gradle", ":b:test", "--tests", "B"]);
        assert!(!spec.command().loops_gradle());
        assert!(steps[1].get("parallelism").is_none());
        let rest = spec_of(&steps[1], 0);
        assert_eq!(rest.command().invocation.repeat, Repeat::GradleRuns(10));
        assert_eq!(
            steps[2]["depends_on"],
            json!([
                { "step": "flakiness-detection:unit", "allow_failure": true },
                { "step": "flakiness-detection:java-rest", "allow_failure": true }
            ])
        );
    }

    /// The compile gate ran in the uploading step (Elasticsearch's generate
    /// step): when it failed, the pipeline is the analyze step alone, told so
    /// by value, and the not-applicable tests keep their count.
    #[test]
    fn a_failed_compile_gate_uploads_the_analyze_step_alone_told_by_value() {
        let plan = CiPlan {
            batches: vec![cmd(TestKind::Unit, &["gradle", ":a:test"])],
            compile: vec!["gradle".into(), ":a:compileTestJava".into()],
            not_applicable: vec![crate::domain::Unresolved {
                input: "a.B".into(),
                reason_code: crate::domain::ReasonCode::NoRunnableTask,
                reason: "disabled".into(),
                origin: crate::domain::Origin::Explicit,
            }],
            ..CiPlan::default()
        };
        let steps = steps_of(&PipelineInput::of(&plan, None, true));
        assert_eq!(steps.len(), 1);
        assert_eq!(steps[0]["key"], ANALYZE_KEY);
        assert_eq!(steps[0]["env"][vars::COMPILE_FAILED], "true");
        assert_eq!(steps[0]["env"][vars::SKIPPED_COUNT], "1");
        let steps = steps_of(&PipelineInput::of(&plan, None, false));
        assert_eq!(steps.len(), 2, "no gate step: the batches start at once");
        assert_eq!(steps[1]["env"][vars::COMPILE_FAILED], "false");
        assert!(steps[0].get("depends_on").is_none());
    }

    #[test]
    fn every_dollar_is_escaped_for_buildkite() {
        let mut suite = tasks(":x:yamlRestTest", &[], None);
        suite.rest_suites = vec!["x/40_$(touch pwned)".into()];
        suite.extra_args = vec!["a\\$HOME`'\"".into()];
        let batches = vec![planned(
            TestKind::YamlRestTestSuite,
            "gradle",
            suite,
            Repeat::GradleRuns(10),
        )];
        let mut c = cfg();
        c.bin = "$HOME/bin/gradle-flaky".into();
        let input = PipelineInput {
            batches: batches.clone(),
            ..Default::default()
        };
        let p = valid_pipeline(&input, &c);
        let env = steps(&p)[0]["env"]["FLAKINESS_BATCH_0"].as_str().unwrap();
        assert!(env.contains("40_$$(touch pwned)"), "{env}");
        assert!(env.contains(r#"a\\$$HOME"#), "{env}");
        let argv = rendered(&spec_of(&steps(&p)[0], 0));
        assert_eq!(argv[2], "-Dtests.rest.suite=x/40_$(touch pwned)");
        assert_eq!(argv[3], "a\\$HOME`'\"");
        assert_eq!(
            steps(&p)[0]["command"],
            "$$HOME/bin/gradle-flaky buildkite wrap --from-env --timeout 58m"
        );
    }
}
