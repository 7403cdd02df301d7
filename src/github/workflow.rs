//! `github workflow`: the complete GitHub Actions workflow, three jobs.
//!
//! - `plan`: a checkout with the whole history (the merge base), a JDK, the
//!   build's Gradle and gradle-flaky; `gradle-flaky pr|manual --target github`
//!   writes the matrix (`{"batch":[0,1,…]}`) to its outputs and
//!   `flakiness-plan.json`, uploaded as the `flakiness-plan` artifact.
//! - `run`: one job per matrix entry (`fail-fast: false`), skipped when the
//!   matrix is empty; `gradle-flaky github run --batch N` never fails the job
//!   and uploads its status file and XML as `flakiness-batch-N`.
//! - `analyze` (`if: always()`): downloads every artifact, `gradle-flaky
//!   github analyze` writes the job summary, the annotations and
//!   `flakiness-outcomes.json`.
//!
//! What a run learns reaches the next one through the Actions cache: the
//! plan and report jobs restore `flakiness-learned/` (durations, ledger;
//! a pull request's from its base branch until it has its own), the plan
//! step plans from it (`FLAKINESS_LEARNED`), and the report job keeps what
//! it learned over it under a key of its own.
//!
//! Data from the branch never passes through `${{ }}`: the matrix holds batch
//! indices, which reach the batch step through its `env`; every name travels
//! in the plan file and the artifacts. The only expressions are fixed ones
//! over step outputs, `matrix.batch`, `runner.*` and the dispatch inputs,
//! which are written to `env` values only (never into a script).

use super::yaml::{emit, Node};
use crate::ci::blocking::Blocking;
use crate::ci::compare;
use crate::ci::learned;
use crate::ci::spec::{inner_timeout, GRACE_MINUTES};
use crate::reports::{
    ARTIFACTS_DIR, BATCH_DIR, HISTORY_PAGE, LEDGER_FILE, OUTCOMES_FILE, PLAN_FILE,
};
use crate::{vars, Error, Result};

/// What the generated workflow does; every value is the user's own.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WorkflowConfig {
    /// Run on pull requests: the branch's changed tests and unmutes.
    pub pull_request: bool,
    /// Run by hand (`workflow_dispatch`) with a `classes` input.
    pub manual: bool,
    /// `FLAKINESS_*` variables of the plan step (batching, muted file).
    pub plan_env: Vec<(String, String)>,
    /// Iterations of every kind (`--iters`); also the dispatch input's default.
    pub iters: Option<u32>,
    /// `FLAKINESS_*` variables of every job (the Gradle program, the build's directory).
    pub env: Vec<(String, String)>,
    pub runs_on: String,
    pub java_version: String,
    pub java_distribution: String,
    /// A Gradle version for `setup-gradle` to install (a build without a wrapper).
    pub gradle_version: Option<String>,
    /// The shell command that installs gradle-flaky; `None`: `cargo install`
    /// of this version, cached.
    pub install: Option<String>,
    /// Minutes of a batch job; the batch itself is stopped [`GRACE_MINUTES`] earlier.
    pub job_timeout_min: u32,
    /// The analyze job fails with the report's exit code.
    pub exit_code: bool,
    /// Opt-in blocking: the report step's variables when on.
    pub blocking: Blocking,
    /// Earlier run ledgers in the checkout, which the report step reads
    /// (`FLAKINESS_LEDGER`) for its known-flaky note.
    pub ledger: Option<String>,
    /// `--compare REF` (REF is a value of the plan step's env): the report
    /// job also keeps `flakiness-comparison.json`.
    pub compare: bool,
}

/// The smallest batch-job timeout: the batch gets at least a minute.
pub(crate) const MIN_JOB_TIMEOUT: u32 = GRACE_MINUTES + 1;
const PLAN_TIMEOUT_MIN: u32 = 30;
const ANALYZE_TIMEOUT_MIN: u32 = 20;
const PLAN_ARTIFACT: &str = "flakiness-plan";

/// Refuses a value GitHub would evaluate (`${{`): the user's own options are
/// written into the workflow, and an expression there is code, not data.
pub(crate) fn literal(flag: &str, value: &str) -> Result<()> {
    if value.contains("${{") {
        return Err(Error::input(
            flag,
            format!(
                "`{value}` holds `${{{{`, which GitHub would evaluate as an expression: \
                 write the value itself, or edit the generated workflow"
            ),
        ));
    }
    Ok(())
}

/// The workflow file.
pub(crate) fn workflow(cfg: &WorkflowConfig) -> Result<String> {
    if !cfg.pull_request && !cfg.manual {
        return Err(Error::usage("--on: name at least one trigger"));
    }
    let header = [
        format!(
            "Flakiness detection by gradle-flaky {}: `gradle-flaky github workflow` wrote this file.",
            env!("CARGO_PKG_VERSION")
        ),
        "plan: select the tests and plan batches; run: one job per batch (never fails);".into(),
        "analyze: each batch's outcome, the report in the job summary, annotations.".into(),
        "Test names never appear in an expression or a script here: they travel in".into(),
        format!("{PLAN_FILE} and the artifacts; the matrix holds batch indices only."),
    ];
    Ok(emit(&header, &document(cfg)))
}

/// The workflow as a value (what `workflow` writes).
pub(crate) fn document(cfg: &WorkflowConfig) -> Node {
    let mut root = vec![
        ("name", Node::str("Flakiness detection")),
        ("on", triggers(cfg)),
        ("permissions", Node::map([("contents", Node::str("read"))])),
        (
            "concurrency",
            Node::map([
                (
                    "group",
                    Node::str("flakiness-${{ github.event.pull_request.number || github.run_id }}"),
                ),
                ("cancel-in-progress", Node::Bool(true)),
            ]),
        ),
    ];
    if !cfg.env.is_empty() {
        root.push(("env", env(&cfg.env)));
    }
    root.push((
        "jobs",
        Node::map([
            ("plan", plan_job(cfg)),
            ("run", run_job(cfg)),
            ("analyze", analyze_job(cfg)),
        ]),
    ));
    Node::map(root)
}

fn triggers(cfg: &WorkflowConfig) -> Node {
    let mut on = Vec::new();
    if cfg.pull_request {
        on.push(("pull_request", Node::Map(vec![])));
    }
    if cfg.manual {
        let input = |description: &str, required: bool| {
            let mut fields = vec![
                ("description", Node::str(description)),
                ("required", Node::Bool(required)),
                ("type", Node::str("string")),
            ];
            if !required {
                fields.push(("default", Node::str("")));
            }
            Node::map(fields)
        };
        let iters_input = input(
            "Iterations of every kind, for this run (empty: the workflow's own)",
            false,
        );
        on.push((
            "workflow_dispatch",
            Node::map([(
                "inputs",
                Node::map([
                    (
                        "classes",
                        input(
                            "Tests to re-run: FQCN, FQCN#method, a test file or .yml suite; \
                             separated by commas or spaces",
                            true,
                        ),
                    ),
                    ("iters", iters_input),
                ]),
            )]),
        ));
    }
    Node::map(on)
}

fn plan_job(cfg: &WorkflowConfig) -> Node {
    let mut steps = vec![checkout(true)];
    steps.extend(toolchain(cfg));
    steps.extend(install(cfg));
    steps.push(restore_learned());
    let mut plan = vec![
        ("name", Node::str("Select and plan")),
        ("id", Node::str("plan")),
    ];
    let vars = plan_step_env(cfg);
    if !vars.is_empty() {
        plan.push(("env", env(&vars)));
    }
    plan.push(("run", Node::str(plan_script(cfg))));
    steps.push(Node::map(plan));
    steps.push(upload(
        "Keep the plan",
        "!cancelled() && steps.plan.outputs.report == 'true'",
        PLAN_ARTIFACT,
        PLAN_FILE,
        "error",
    ));
    let output = |name: &str| Node::str(format!("${{{{ steps.plan.outputs.{name} }}}}"));
    Node::map([
        ("runs-on", Node::str(&cfg.runs_on)),
        ("timeout-minutes", Node::Int(PLAN_TIMEOUT_MIN.into())),
        (
            "outputs",
            Node::map([
                ("matrix", output("matrix")),
                ("batches", output("batches")),
                ("report", output("report")),
                ("compile-failed", output("compile-failed")),
                ("skipped-count", output("skipped-count")),
            ]),
        ),
        ("steps", Node::List(steps)),
    ])
}

/// The plan step's variables: the dispatch inputs (as `env` values, never in
/// the script), the iterations, the other knobs.
fn plan_step_env(cfg: &WorkflowConfig) -> Vec<(String, String)> {
    let mut env = vec![(vars::LEARNED.to_string(), learned::DIR.to_string())];
    if cfg.manual {
        env.push((vars::CLASSES.into(), "${{ inputs.classes }}".into()));
        env.push((vars::DISPATCH_ITERS.into(), "${{ inputs.iters }}".into()));
    }
    if let Some(n) = cfg.iters {
        env.push((vars::ITERS.into(), n.to_string()));
    }
    env.extend(cfg.plan_env.iter().cloned());
    env
}

fn plan_script(cfg: &WorkflowConfig) -> String {
    let mut lines: Vec<String> = Vec::new();
    if cfg.manual {
        // A manual run's own iterations win over every iteration knob of the workflow.
        use vars::{DETECT_RATE, DISPATCH_ITERS, INTEG_ITERS, ITERS, REST_ITERS, UNIT_ITERS};
        lines.extend([
            format!("if [ -n \"${{{DISPATCH_ITERS}-}}\" ]; then"),
            format!("  export {ITERS}=\"${DISPATCH_ITERS}\""),
            format!("  unset {UNIT_ITERS} {INTEG_ITERS} {REST_ITERS} {DETECT_RATE}"),
            "fi".into(),
        ]);
    }
    let run: &[&str] = match (cfg.pull_request, cfg.manual) {
        (true, true) => &[
            "if [ \"$GITHUB_EVENT_NAME\" = workflow_dispatch ]; then",
            "  gradle-flaky manual --target github",
            "else",
            "  gradle-flaky pr --target github",
            "fi",
        ],
        (false, true) => &["gradle-flaky manual --target github"],
        _ => &["gradle-flaky pr --target github"],
    };
    lines.extend(run.iter().map(|line| line.to_string()));
    match lines.len() {
        1 => lines[0].clone(),
        _ => lines.join("\n") + "\n",
    }
}

fn run_job(cfg: &WorkflowConfig) -> Node {
    let inner = inner_timeout(cfg.job_timeout_min);
    let mut steps = vec![checkout(false)];
    steps.extend(toolchain(cfg));
    steps.extend(install(cfg));
    steps.push(Node::map([
        ("name", Node::str("Fetch the plan")),
        ("uses", Node::str("actions/download-artifact@v4")),
        ("with", Node::map([("name", Node::str(PLAN_ARTIFACT))])),
    ]));
    steps.push(Node::map([
        ("name", Node::str("Run the batch")),
        (
            "env",
            Node::map([(vars::BATCH, Node::str("${{ matrix.batch }}"))]),
        ),
        (
            "run",
            Node::str(format!(
                "gradle-flaky github run --batch \"${}\" --timeout {inner}m",
                vars::BATCH
            )),
        ),
    ]));
    steps.push(upload(
        "Keep the batch's results",
        "always()",
        "flakiness-batch-${{ matrix.batch }}",
        &format!("{BATCH_DIR}/"),
        "warn",
    ));
    Node::map([
        ("name", Node::str("batch ${{ matrix.batch }}")),
        ("needs", Node::str("plan")),
        (
            "if",
            Node::str("!cancelled() && fromJSON(needs.plan.outputs.batches || '0') > 0"),
        ),
        ("runs-on", Node::str(&cfg.runs_on)),
        ("timeout-minutes", Node::Int(cfg.job_timeout_min.into())),
        (
            "strategy",
            Node::map([
                ("fail-fast", Node::Bool(false)),
                (
                    "matrix",
                    Node::str("${{ fromJSON(needs.plan.outputs.matrix) }}"),
                ),
            ]),
        ),
        ("steps", Node::List(steps)),
    ])
}

fn analyze_job(cfg: &WorkflowConfig) -> Node {
    let mut steps = vec![checkout(false)];
    steps.extend(install(cfg));
    steps.push(Node::map([
        (
            "name",
            Node::str("Fetch the plan and every batch's results"),
        ),
        ("uses", Node::str("actions/download-artifact@v4")),
        (
            "with",
            Node::map([
                ("pattern", Node::str("flakiness-*")),
                ("path", Node::str(ARTIFACTS_DIR)),
            ]),
        ),
    ]));
    steps.push(restore_learned());
    steps.push(report_step(cfg));
    steps.push(save_learned());
    let mut kept = vec![("Keep the outcomes", "flakiness-outcomes", OUTCOMES_FILE)];
    if cfg.compare {
        let comparison = compare::COMPARISON_FILE;
        kept.push((
            "Keep the comparison with REF",
            "flakiness-comparison",
            comparison,
        ));
    }
    kept.push((
        "Keep the run in the ledger",
        "flakiness-ledger",
        LEDGER_FILE,
    ));
    kept.push(("Keep the history page", "flakiness-history", HISTORY_PAGE));
    for (step, name, path) in kept {
        steps.push(upload(step, "always()", name, path, "ignore"));
    }
    Node::map([
        ("name", Node::str("report")),
        (
            "needs",
            Node::List(vec![Node::str("plan"), Node::str("run")]),
        ),
        (
            "if",
            Node::str("always() && needs.plan.outputs.report == 'true'"),
        ),
        ("runs-on", Node::str(&cfg.runs_on)),
        ("timeout-minutes", Node::Int(ANALYZE_TIMEOUT_MIN.into())),
        ("steps", Node::List(steps)),
    ])
}

/// The step that analyzes the artifacts, told by value what the plan job
/// knows beside them.
fn report_step(cfg: &WorkflowConfig) -> Node {
    let mut analyze = format!("gradle-flaky github analyze {ARTIFACTS_DIR}");
    if cfg.exit_code {
        analyze.push_str(" --exit-code");
    }
    // What the plan job knows beside the artifacts, as values (its outputs
    // are `true`/`false` and counts it wrote itself).
    let mut report_env = vec![
        (
            vars::COMPILE_FAILED.to_string(),
            "${{ needs.plan.outputs.compile-failed }}".to_string(),
        ),
        (
            vars::SKIPPED_COUNT.to_string(),
            "${{ needs.plan.outputs.skipped-count }}".to_string(),
        ),
    ];
    if let (true, Some(code)) = (cfg.blocking.is_on(), cfg.blocking.exit_code) {
        report_env.push((vars::BLOCKING_LABELS.into(), cfg.blocking.labels.join(",")));
        report_env.push((vars::PROVEN_EXIT_CODE.into(), code.to_string()));
    }
    if let Some(ledger) = &cfg.ledger {
        report_env.push((vars::LEDGER.into(), ledger.clone()));
    }
    Node::map([
        ("name", Node::str("Report")),
        ("env", env(&report_env)),
        ("run", Node::str(analyze)),
    ])
}

/// The cache key of what a run learned: this run's own (an attempt each,
/// as a cache is never overwritten); restored by its prefix, the newest
/// first. GitHub scopes caches by branch: a run restores its branch's
/// newest, and a pull request's, when its branch has none, its base
/// branch's (then the default branch's).
const LEARNED_KEY: &str = "flakiness-learned-${{ github.run_id }}-${{ github.run_attempt }}";
const LEARNED_PREFIX: &str = "flakiness-learned-";

/// Restores what earlier runs learned (`flakiness-learned/`: durations and
/// ledger) from the Actions cache; the first run finds none.
fn restore_learned() -> Node {
    Node::map([
        ("name", Node::str("Restore what earlier runs learned")),
        ("uses", Node::str("actions/cache/restore@v4")),
        (
            "with",
            Node::map([
                ("path", Node::str(learned::DIR)),
                ("key", Node::str(LEARNED_KEY)),
                ("restore-keys", Node::str(LEARNED_PREFIX)),
            ]),
        ),
    ])
}

/// Keeps what this run learned, over what it restored, for the next run.
fn save_learned() -> Node {
    Node::map([
        ("name", Node::str("Keep what this run learned")),
        ("if", Node::str("always()")),
        ("uses", Node::str("actions/cache/save@v4")),
        (
            "with",
            Node::map([
                ("path", Node::str(learned::DIR)),
                ("key", Node::str(LEARNED_KEY)),
            ]),
        ),
    ])
}

/// An `upload-artifact` step. `overwrite`: a re-run job replaces its artifact.
fn upload(step: &str, condition: &str, name: &str, path: &str, if_none: &str) -> Node {
    Node::map([
        ("name", Node::str(step)),
        ("if", Node::str(condition)),
        ("uses", Node::str("actions/upload-artifact@v4")),
        (
            "with",
            Node::map([
                ("name", Node::str(name)),
                ("path", Node::str(path)),
                ("if-no-files-found", Node::str(if_none)),
                ("overwrite", Node::Bool(true)),
            ]),
        ),
    ])
}

/// The checkout; the plan job needs the history down to the merge base.
fn checkout(full_history: bool) -> Node {
    let mut step = vec![("uses", Node::str("actions/checkout@v4"))];
    if full_history {
        step.push(("with", Node::map([("fetch-depth", Node::Int(0))])));
    }
    Node::map(step)
}

/// A JDK and the build's Gradle (its wrapper; or a version to install).
fn toolchain(cfg: &WorkflowConfig) -> Vec<Node> {
    let java = Node::map([
        ("uses", Node::str("actions/setup-java@v4")),
        (
            "with",
            Node::map([
                ("distribution", Node::str(&cfg.java_distribution)),
                ("java-version", Node::str(&cfg.java_version)),
            ]),
        ),
    ]);
    let mut gradle = vec![("uses", Node::str("gradle/actions/setup-gradle@v4"))];
    if let Some(version) = &cfg.gradle_version {
        gradle.push(("with", Node::map([("gradle-version", Node::str(version))])));
    }
    vec![java, Node::map(gradle)]
}

/// gradle-flaky itself: the user's command, or `cargo install` of this very
/// version (the workflow uses its commands), kept in the Actions cache.
fn install(cfg: &WorkflowConfig) -> Vec<Node> {
    if let Some(command) = &cfg.install {
        return vec![Node::map([
            ("name", Node::str("Install gradle-flaky")),
            ("run", Node::str(command)),
        ])];
    }
    let version = env!("CARGO_PKG_VERSION");
    vec![
        Node::map([
            ("name", Node::str("Cache gradle-flaky")),
            ("id", Node::str("gradle-flaky-cache")),
            ("uses", Node::str("actions/cache@v4")),
            (
                "with",
                Node::map([
                    ("path", Node::str("~/.cargo/bin/gradle-flaky")),
                    (
                        "key",
                        Node::str(format!(
                            "gradle-flaky-{version}-${{{{ runner.os }}}}-${{{{ runner.arch }}}}"
                        )),
                    ),
                ]),
            ),
        ]),
        Node::map([
            ("name", Node::str("Install gradle-flaky")),
            (
                "if",
                Node::str("steps.gradle-flaky-cache.outputs.cache-hit != 'true'"),
            ),
            (
                "run",
                Node::str(format!(
                    "cargo install --locked gradle-flaky --version {version}"
                )),
            ),
        ]),
    ]
}

fn env(vars: &[(String, String)]) -> Node {
    Node::Map(
        vars.iter()
            .map(|(k, v)| (k.clone(), Node::str(v)))
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::super::yaml;
    use super::*;
    use serde_json::Value;

    fn cfg() -> WorkflowConfig {
        WorkflowConfig {
            pull_request: true,
            manual: false,
            plan_env: vec![],
            iters: None,
            env: vec![],
            runs_on: "ubuntu-latest".into(),
            java_version: "17".into(),
            java_distribution: "temurin".into(),
            gradle_version: None,
            install: None,
            job_timeout_min: 60,
            exit_code: false,
            blocking: Blocking::default(),
            ledger: None,
            compare: false,
        }
    }

    /// SchemaStore's GitHub workflow schema, as check-jsonschema vendors it.
    fn schema_errors(workflow: &Value) -> Vec<String> {
        let schema: Value =
            serde_json::from_str(include_str!("../../tests/data/github/workflow-schema.json"))
                .unwrap();
        let validator = jsonschema::validator_for(&schema).unwrap();
        validator
            .iter_errors(workflow)
            .map(|e| format!("{e} at {}", e.instance_path))
            .collect()
    }

    /// The workflow text, read back as GitHub reads it, checked against the schema.
    fn valid(cfg: &WorkflowConfig) -> (String, Value) {
        let text = workflow(cfg).unwrap();
        let read = yaml::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(
            read,
            document(cfg).to_json(),
            "the YAML reads back as built"
        );
        let errors = schema_errors(&read);
        assert!(errors.is_empty(), "invalid workflow: {errors:#?}\n{text}");
        (text, read)
    }

    #[test]
    fn the_schema_check_catches_an_invalid_workflow() {
        let mut read = valid(&cfg()).1;
        read["jobs"]["plan"]
            .as_object_mut()
            .unwrap()
            .remove("runs-on");
        assert!(!schema_errors(&read).is_empty(), "a job needs runs-on");
        let mut read = valid(&cfg()).1;
        read["jobs"]["plan"]["steps"][0]["run"] = Value::from("x");
        assert!(!schema_errors(&read).is_empty(), "a step uses or runs");
        let mut read = valid(&cfg()).1;
        read["on"]["pull_request"]["branch"] = Value::from("main");
        assert!(!schema_errors(&read).is_empty(), "no such key");
    }

    #[test]
    fn workflows_match_their_snapshots() {
        insta::assert_snapshot!("pull_request", valid(&cfg()).0);
        let every_option = WorkflowConfig {
            manual: true,
            plan_env: vec![
                ("FLAKINESS_UNIT_ITERS".into(), "50".into()),
                ("FLAKINESS_CAPS".into(), "unit=5,javaRestTest=2".into()),
            ],
            iters: Some(7),
            env: vec![
                ("FLAKINESS_GRADLE".into(), "./gradlew --offline".into()),
                ("FLAKINESS_PROJECT_DIR".into(), "build root".into()),
            ],
            runs_on: "self-hosted".into(),
            java_version: "21".into(),
            gradle_version: Some("8.10.2".into()),
            install: Some("curl -fsSL https://example.com/gradle-flaky -o ~/bin/gradle-flaky\nchmod +x ~/bin/gradle-flaky\n".into()),
            job_timeout_min: 90,
            exit_code: true,
            ..cfg()
        };
        insta::assert_snapshot!("both_triggers_every_option", valid(&every_option).0);
        let manual = WorkflowConfig {
            pull_request: false,
            manual: true,
            ..cfg()
        };
        insta::assert_snapshot!("manual_only", valid(&manual).0);
        let blocking = WorkflowConfig {
            blocking: Blocking::new(Some("Team:Search,team:ml"), Some("42")).unwrap(),
            ..cfg()
        };
        insta::assert_snapshot!("blocking_by_label", valid(&blocking).0);
        // `--compare origin/main`: REF a value of the plan step's env, the
        // comparison kept by the report job.
        let compare = WorkflowConfig {
            plan_env: vec![(vars::COMPARE.into(), "origin/main".into())],
            compare: true,
            ..cfg()
        };
        insta::assert_snapshot!("compare_with_ref", valid(&compare).0);
    }

    #[test]
    fn no_script_holds_an_expression() {
        for cfg in [
            cfg(),
            WorkflowConfig {
                manual: true,
                ..cfg()
            },
        ] {
            let read = valid(&cfg).1;
            for job in read["jobs"].as_object().unwrap().values() {
                for step in job["steps"].as_array().unwrap() {
                    if let Some(script) = step["run"].as_str() {
                        assert!(!script.contains("${{"), "{script}");
                    }
                }
            }
        }
    }

    #[test]
    fn the_batch_job_is_skipped_without_batches_and_never_stops_its_siblings() {
        let read = valid(&cfg()).1;
        let run = &read["jobs"]["run"];
        assert_eq!(run["strategy"]["fail-fast"], false);
        assert_eq!(
            run["if"],
            "!cancelled() && fromJSON(needs.plan.outputs.batches || '0') > 0"
        );
        let analyze = &read["jobs"]["analyze"];
        assert!(analyze["if"].as_str().unwrap().starts_with("always()"));
        assert_eq!(read["jobs"]["plan"]["steps"][0]["with"]["fetch-depth"], 0);
    }

    #[test]
    fn expressions_in_the_users_values_are_refused() {
        assert!(literal("--install", "cargo install x").is_ok());
        let e = literal("--gradle", "./gradlew ${{ secrets.X }}").unwrap_err();
        assert!(e.to_string().starts_with("--gradle: "), "{e}");
        assert!(workflow(&WorkflowConfig {
            pull_request: false,
            ..cfg()
        })
        .is_err());
    }

    /// What a run learned reaches the next through the Actions cache: the
    /// plan job restores it and plans from it, the report job restores it,
    /// adds to it, and keeps it under this run's key whatever the report.
    #[test]
    fn what_a_run_learned_is_restored_and_kept_in_the_cache() {
        let read = valid(&cfg()).1;
        let steps = |job: &str| read["jobs"][job]["steps"].as_array().unwrap().clone();
        let position =
            |steps: &[Value], name: &str| steps.iter().position(|s| s["name"] == name).unwrap();
        let plan = steps("plan");
        let restore = position(&plan, "Restore what earlier runs learned");
        assert!(restore < position(&plan, "Select and plan"));
        assert_eq!(plan[restore]["with"]["path"], "flakiness-learned");
        assert_eq!(plan[restore]["with"]["restore-keys"], "flakiness-learned-");
        let planning = &plan[position(&plan, "Select and plan")];
        assert_eq!(planning["env"]["FLAKINESS_LEARNED"], "flakiness-learned");
        let report = steps("analyze");
        let (restore, analyze, save) = (
            position(&report, "Restore what earlier runs learned"),
            position(&report, "Report"),
            position(&report, "Keep what this run learned"),
        );
        assert!(restore < analyze && analyze < save);
        assert_eq!(report[save]["if"], "always()");
        assert_eq!(report[save]["uses"], "actions/cache/save@v4");
        assert_eq!(report[save]["with"]["key"], report[restore]["with"]["key"]);
    }

    #[test]
    fn the_report_job_reads_the_ledgers_asked_for() {
        let (_, read) = valid(&WorkflowConfig {
            ledger: Some("ci/flakiness-ledger".into()),
            ..cfg()
        });
        let steps = read["jobs"]["analyze"]["steps"].as_array().unwrap();
        let report = steps.iter().find(|s| s["name"] == "Report").unwrap();
        assert_eq!(report["env"]["FLAKINESS_LEDGER"], "ci/flakiness-ledger");
        let kept = steps
            .iter()
            .find(|s| s["with"]["name"] == "flakiness-ledger");
        assert_eq!(kept.unwrap()["with"]["path"], "flakiness-ledger.jsonl");
    }
}
