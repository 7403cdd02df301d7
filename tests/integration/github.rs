//! Integration tests: GitHub Actions (the workflow, `pr|manual --target
//! github`, `github run`, `github analyze`).
//!
//! The generated workflow is run as GitHub would run it, played here: its YAML
//! is read back and checked against the workflow schema; each job's own steps
//! (`run:` scripts) run through `bash -e` in a checkout, with the step's `env`
//! (every `${{ }}` resolved from a fixed table, so an unknown expression fails
//! the test) and the runner's files (`GITHUB_OUTPUT`, `GITHUB_STEP_SUMMARY`,
//! `GITHUB_WORKSPACE`); `upload-artifact`/`download-artifact` are copies into
//! and out of a folder, as those actions lay artifacts out. The other actions
//! (checkout, JDK, Gradle, the cache) are the runner's: the checkout is a copy
//! of the PR branch, and Gradle is the real 4.4.1. Only gradle-flaky's
//! install step is skipped (the binary under test is on PATH).

use crate::common::{
    assert_nothing_ran_pwned, batch_argv, copy_all, copy_tree, docs_only_branch, fixture_repo,
    given_batch, gradle_flaky, in_suite_home, outcome_of, pr_branch_with, read_json, repo_root,
    run, text, use_recorded_layout, without_ci_env, SUITES,
};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Expression values of a job: `matrix.batch`, `inputs.*`, `steps.<id>.outputs.*`, `needs.plan.outputs.*`.
type Context = BTreeMap<String, String>;

/// GitHub Actions, played: the workflow, an artifact store, the runner's files.
struct Actions {
    dir: tempfile::TempDir,
    workflow: Value,
    /// The workflow as written, for assertions on its text.
    text: String,
    event: &'static str,
    /// The Actions cache (`actions/cache/restore|save`): one folder per
    /// branch scope, shared by the runs of a test.
    cache: PathBuf,
    /// The branch the run is of (`GITHUB_REF_NAME`; a pull request's head).
    branch: String,
    /// `github.run_id`.
    run_id: u32,
}

/// One job's run.
#[derive(Debug, Default)]
struct JobResult {
    /// The job's outputs (its `outputs:` resolved).
    outputs: BTreeMap<String, String>,
    /// Every step's summary, in order.
    summary: String,
    /// What the steps printed on stdout (workflow commands, logs).
    stdout: String,
    stderr: String,
    /// Raw `$GITHUB_OUTPUT` text of every step.
    output_files: String,
    /// Exit codes of the `run:` steps, by step name.
    exits: Vec<(String, i32)>,
}

impl JobResult {
    fn exit_of(&self, step: &str) -> i32 {
        self.exits
            .iter()
            .find(|(name, _)| name == step)
            .unwrap_or_else(|| panic!("step {step} did not run: {self:#?}"))
            .1
    }
}

impl Actions {
    /// `gradle-flaky github workflow ARGS`, read back and validated.
    fn new(args: &[&str], event: &'static str) -> Actions {
        let out = run(gradle_flaky().args(["github", "workflow"]).args(args));
        assert_eq!(out.status.code(), Some(0), "{}", text(&out));
        let text = String::from_utf8(out.stdout).unwrap();
        let workflow = gradle_flaky::github::yaml::parse(&text).unwrap();
        assert_valid_workflow(&workflow, &text);
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("bin")).unwrap();
        std::fs::create_dir_all(dir.path().join("artifacts")).unwrap();
        std::os::unix::fs::symlink(
            env!("CARGO_BIN_EXE_gradle-flaky"),
            dir.path().join("bin/gradle-flaky"),
        )
        .unwrap();
        let cache = dir.path().join("cache");
        Actions {
            dir,
            workflow,
            text,
            event,
            cache,
            branch: if event == "pull_request" {
                "pr"
            } else {
                "main"
            }
            .into(),
            run_id: 1,
        }
    }

    /// This run, the `run_id`th of branch `branch`, sharing the Actions
    /// cache `cache` with other runs.
    fn run_of(mut self, branch: &str, run_id: u32, cache: &Path) -> Actions {
        self.branch = branch.into();
        self.run_id = run_id;
        self.cache = cache.to_path_buf();
        self
    }

    /// `actions/cache/restore`: the entry of `key`, else the newest whose key
    /// starts with `prefix`, in the run's branch scope, then (a pull
    /// request) in its base branch's, as GitHub scopes caches.
    fn cache_restore(&self, key: &str, prefix: &str, path: &Path) {
        let mut scopes = vec![self.branch.clone()];
        if self.event == "pull_request" {
            scopes.push("main".into());
        }
        for scope in scopes {
            let dir = self.cache.join(&scope);
            let mut keys: Vec<(std::time::SystemTime, PathBuf)> = std::fs::read_dir(&dir)
                .into_iter()
                .flatten()
                .flatten()
                .filter(|e| e.file_name().to_string_lossy().starts_with(prefix))
                .map(|e| (e.metadata().unwrap().modified().unwrap(), e.path()))
                .collect();
            keys.sort();
            let found = match dir.join(key).is_dir() {
                true => Some(dir.join(key)),
                false => keys.pop().map(|(_, p)| p),
            };
            if let Some(entry) = found {
                copy_all(&entry, path);
                return;
            }
        }
    }

    /// `actions/cache/save`: `path` under `key` in the run's branch scope.
    fn cache_save(&self, key: &str, path: &Path) {
        let entry = self.cache.join(&self.branch).join(key);
        assert!(!entry.exists(), "a cache is never overwritten: {key}");
        if path.is_dir() {
            copy_all(path, &entry);
        }
    }

    fn job(&self, name: &str) -> &Value {
        &self.workflow["jobs"][name]
    }

    fn artifacts(&self) -> PathBuf {
        self.dir.path().join("artifacts")
    }

    /// Whether job `name` runs, given the plan job's outputs.
    fn job_runs(&self, name: &str, plan: &JobResult) -> bool {
        let ctx = needs(plan);
        self.job(name)["if"]
            .as_str()
            .is_none_or(|cond| condition(cond, &ctx, true))
    }

    /// Runs job `name` in `checkout`, its expressions resolved from `ctx`.
    fn run_job(&self, name: &str, checkout: &Path, mut ctx: Context) -> JobResult {
        let job = self.job(name);
        ctx.insert("github.run_id".into(), self.run_id.to_string());
        ctx.insert("github.run_attempt".into(), "1".into());
        let mut result = JobResult::default();
        let mut ok = true;
        for (i, step) in job["steps"].as_array().unwrap().iter().enumerate() {
            let runs = match step["if"].as_str() {
                Some(cond) => condition(cond, &ctx, ok),
                None => ok,
            };
            if !runs {
                continue;
            }
            let uses = step["uses"].as_str().unwrap_or_default();
            let with = |key: &str| step["with"][key].as_str().map(|v| resolve(v, &ctx));
            if uses.starts_with("actions/upload-artifact@") {
                let name = with("name").unwrap();
                let path = checkout.join(with("path").unwrap());
                let dest = self.artifacts().join(&name);
                if path.is_dir() {
                    copy_all(&path, &dest);
                } else if path.is_file() {
                    std::fs::create_dir_all(&dest).unwrap();
                    std::fs::copy(&path, dest.join(path.file_name().unwrap())).unwrap();
                } else {
                    assert_ne!(
                        with("if-no-files-found").as_deref(),
                        Some("error"),
                        "artifact {name}: nothing at {}",
                        path.display()
                    );
                }
            } else if uses.starts_with("actions/download-artifact@") {
                let dest = checkout.join(with("path").unwrap_or_default());
                match (with("name"), with("pattern")) {
                    (Some(name), _) => copy_all(&self.artifacts().join(name), &dest),
                    (None, Some(pattern)) => {
                        let prefix = pattern.strip_suffix('*').expect("a prefix pattern");
                        for entry in std::fs::read_dir(self.artifacts()).unwrap().flatten() {
                            let name = entry.file_name().into_string().unwrap();
                            if name.starts_with(prefix) {
                                copy_all(&entry.path(), &dest.join(&name));
                            }
                        }
                    }
                    _ => panic!("download-artifact without name or pattern: {step}"),
                }
            } else if uses.starts_with("actions/cache/restore@") {
                let path = checkout.join(with("path").unwrap());
                let prefix = with("restore-keys").unwrap_or_default();
                self.cache_restore(&with("key").unwrap(), &prefix, &path);
            } else if uses.starts_with("actions/cache/save@") {
                self.cache_save(&with("key").unwrap(), &checkout.join(with("path").unwrap()));
            } else if !uses.is_empty() {
                // checkout, setup-java, setup-gradle, cache: the runner's business.
            } else {
                let script = step["run"].as_str().expect("a run step");
                let files = self.dir.path().join(format!("runner/{name}-{i}"));
                std::fs::create_dir_all(&files).unwrap();
                let (output, summary) = (files.join("output"), files.join("summary"));
                std::fs::write(&output, "").unwrap();
                std::fs::write(&summary, "").unwrap();
                let mut bash = Command::new("bash");
                in_suite_home(without_ci_env(&mut bash))
                    .args(["-e", "-c", script])
                    .current_dir(checkout)
                    .env("PATH", self.path())
                    .env("GITHUB_ACTIONS", "true")
                    .env("CI", "true")
                    .env("GITHUB_EVENT_NAME", self.event)
                    .env("GITHUB_WORKSPACE", checkout)
                    .env("GITHUB_OUTPUT", &output)
                    .env("GITHUB_STEP_SUMMARY", &summary);
                if self.event == "pull_request" {
                    bash.env("GITHUB_BASE_REF", "main")
                        .env("GITHUB_HEAD_REF", &self.branch);
                }
                bash.env("GITHUB_REF_NAME", &self.branch);
                let env = self.workflow["env"].as_object().into_iter().flatten();
                for (k, v) in env.chain(step["env"].as_object().into_iter().flatten()) {
                    bash.env(k, resolve(v.as_str().unwrap(), &ctx));
                }
                let out = run(&mut bash);
                let code = out.status.code().unwrap_or(-1);
                let step_name = step["name"].as_str().unwrap_or(script).to_string();
                result.exits.push((step_name, code));
                result.stdout += &String::from_utf8_lossy(&out.stdout);
                result.stderr += &String::from_utf8_lossy(&out.stderr);
                result.summary += &std::fs::read_to_string(&summary).unwrap();
                let outputs = std::fs::read_to_string(&output).unwrap();
                if let Some(id) = step["id"].as_str() {
                    for line in outputs.lines() {
                        let (k, v) = line.split_once('=').expect("name=value outputs");
                        ctx.insert(format!("steps.{id}.outputs.{k}"), v.to_string());
                    }
                }
                result.output_files += &outputs;
                ok &= code == 0;
            }
        }
        for (k, v) in job["outputs"].as_object().into_iter().flatten() {
            result
                .outputs
                .insert(k.clone(), resolve(v.as_str().unwrap(), &ctx));
        }
        result
    }

    fn path(&self) -> String {
        format!(
            "{}:{}",
            self.dir.path().join("bin").display(),
            std::env::var("PATH").unwrap_or_default()
        )
    }
}

/// The workflow's `if:` conditions this emulator knows; `ok` is whether every
/// earlier step succeeded (`success()`). gradle-flaky is already on PATH, as
/// after a cache hit.
fn condition(cond: &str, ctx: &Context, ok: bool) -> bool {
    let get = |k: &str| ctx.get(k).map(String::as_str).unwrap_or_default();
    match cond {
        "always()" => true,
        "success()" => ok,
        "steps.gradle-flaky-cache.outputs.cache-hit != 'true'" => false,
        "!cancelled() && steps.plan.outputs.report == 'true'" => {
            get("steps.plan.outputs.report") == "true"
        }
        "!cancelled() && fromJSON(needs.plan.outputs.batches || '0') > 0" => {
            get("needs.plan.outputs.batches")
                .parse::<u32>()
                .unwrap_or(0)
                > 0
        }
        "always() && needs.plan.outputs.report == 'true'" => {
            get("needs.plan.outputs.report") == "true"
        }
        other => panic!("the emulator does not know `if: {other}`"),
    }
}

/// Every `${{ expr }}` of `s` replaced by its value in `ctx` (`a || 'b'`: the
/// first non-empty); an expression the table does not hold fails the test.
fn resolve(s: &str, ctx: &Context) -> String {
    let mut out = String::new();
    let mut rest = s;
    while let Some(start) = rest.find("${{") {
        out.push_str(&rest[..start]);
        let end = rest[start..].find("}}").expect("a closed expression") + start;
        let expr = rest[start + 3..end].trim();
        let value = expr
            .split(" || ")
            .map(
                |alt| match alt.strip_prefix('\'').and_then(|a| a.strip_suffix('\'')) {
                    Some(literal) => literal.to_string(),
                    // Inputs of another event are empty, as in GitHub's `inputs` context.
                    None if alt.starts_with("inputs.") => ctx.get(alt).cloned().unwrap_or_default(),
                    None => ctx
                        .get(alt)
                        .cloned()
                        .unwrap_or_else(|| panic!("unknown expression `{alt}` in {s:?}")),
                },
            )
            .find(|v| !v.is_empty())
            .unwrap_or_default();
        out.push_str(&value);
        rest = &rest[end + 2..];
    }
    out.push_str(rest);
    out
}

/// SchemaStore's workflow schema, as check-jsonschema vendors it (tests/data/github).
fn assert_valid_workflow(workflow: &Value, text: &str) {
    let schema = read_json(&repo_root().join("tests/data/github/workflow-schema.json"));
    let validator = jsonschema::validator_for(&schema).unwrap();
    let errors: Vec<String> = validator
        .iter_errors(workflow)
        .map(|e| format!("{e} at {}", e.instance_path))
        .collect();
    assert!(errors.is_empty(), "invalid workflow: {errors:#?}\n{text}");
}

/// Names of the branch's hostile files: an expression GitHub would evaluate
/// if it reached the workflow, and a command a shell would run.
const TOKEN_SUITE: &str = "painless/40_${{ github.token }}";
const PWNED_SUITE: &str = "painless_execute/$(touch pwned)/50_it's";
const TOKEN_SECTION: &str = "Pwned $(touch pwned) | `x`, 100%: ${{ github.token }}";
/// The flaky test's source, where its annotation goes.
const FLAKY_SOURCE: &str = "server/src/test/java/org/elasticsearch/flaky/AssertionFlakyTests.java";

/// The fixture as a git repository whose branch `pr` touches the 30% flaky
/// and a stable unit test class and adds two YAML suites with hostile names;
/// the first one's section always fails.
fn pr_branch() -> tempfile::TempDir {
    pr_branch_with(
        &[
            FLAKY_SOURCE,
            "server/src/test/java/org/elasticsearch/common/StringsTests.java",
        ],
        &[
            (
                TOKEN_SUITE,
                format!("\"{TOKEN_SECTION}\":\n  - fail_with_probability: 1.0\n"),
            ),
            (PWNED_SUITE, "\"Odd section\":\n  - do: {}\n".to_string()),
        ],
    )
}

/// The workflow the end-to-end tests run: small counts, a seed that makes the
/// flaky test fail some of its 20 iterations and pass the others.
const WORKFLOW_ARGS: [&str; 11] = [
    "--gradle",
    "gradle --offline -Dtests.seed=AFBB464AB82A7820",
    "--on",
    "pull-request,manual",
    "--unit-iters",
    "20",
    "--rest-iters",
    "1",
    "--cap",
    "unit=1",
    "--exit-code",
];

#[test]
fn the_workflow_runs_a_pull_requests_batches_and_reports_them() {
    let repo = pr_branch();
    let gh = Actions::new(&WORKFLOW_ARGS, "pull_request");
    assert!(
        !gh.text.contains("touch") && !gh.text.contains("github.token"),
        "the workflow holds no branch data"
    );

    let plan = gh.run_job("plan", repo.path(), Context::new());
    assert_eq!(plan.exit_of("Select and plan"), 0, "{plan:#?}");
    // One matrix entry per planned batch: what `plan` plans for the same branch.
    let planned = run(gradle_flaky()
        .current_dir(repo.path())
        .args(["plan", "--changed", "--unmuted", "--base", "main"])
        .args([
            "--format",
            "json",
            "--unit-iters",
            "20",
            "--rest-iters",
            "1",
        ])
        .args(["--cap", "unit=1", "--gradle"])
        .arg("gradle --offline -Dtests.seed=AFBB464AB82A7820"));
    assert_eq!(planned.status.code(), Some(0), "{}", text(&planned));
    let planned: Value = serde_json::from_slice(&planned.stdout).unwrap();
    let commands = planned["commands"].as_array().unwrap();
    assert_eq!(commands.len(), 3, "{planned:#}");
    assert_eq!(plan.outputs["matrix"], r#"{"batch":[0,1,2]}"#);
    assert_eq!(plan.outputs["batches"], "3");
    assert_eq!(plan.outputs["report"], "true");
    let plan_file = read_json(&gh.artifacts().join("flakiness-plan/flakiness-plan.json"));
    for (batch, command) in plan_file["batches"]
        .as_array()
        .unwrap()
        .iter()
        .zip(commands)
    {
        // The job renders the plan's command line from its typed batch.
        assert_eq!(
            serde_json::json!(batch_argv(&batch["spec"])),
            command["argv"]
        );
    }
    // The hostile names travel as data: in the plan file, never in an output.
    assert!(plan_file.to_string().contains("40_${{ github.token }}"));
    assert!(!plan.output_files.contains("touch") && !plan.output_files.contains("github.token"));
    assert!(
        plan.summary.contains(
            "'-Dtests.rest.suite=painless/40_${{ github.token }},painless_execute/$(touch pwned)/50_it'\\''s'"
        ),
        "the plan summary shows the commands, quoted: {}",
        plan.summary
    );

    // Every matrix job in its own checkout.
    assert!(gh.job_runs("run", &plan));
    let mut checkouts = Vec::new();
    for n in 0..3 {
        let checkout = tempfile::tempdir().unwrap();
        copy_tree(repo.path(), checkout.path());
        let ctx = Context::from([("matrix.batch".to_string(), n.to_string())]);
        let job = gh.run_job("run", checkout.path(), ctx);
        assert_eq!(job.exit_of("Run the batch"), 0, "batch {n}: {job:#?}");
        assert!(
            gh.artifacts()
                .join(format!(
                    "flakiness-batch-{n}/flakiness-status/status-batch-{n}.json"
                ))
                .is_file(),
            "batch {n}: {job:#?}"
        );
        if n > 0 {
            assert!(
                job.stdout.contains("::warning title=Flakiness ["),
                "a failing batch is annotated: {}",
                job.stdout
            );
        }
        checkouts.push(checkout);
    }

    assert!(gh.job_runs("analyze", &plan));
    let report = tempfile::tempdir().unwrap();
    copy_tree(repo.path(), report.path());
    let analyze = gh.run_job("analyze", report.path(), needs(&plan));
    assert_eq!(
        analyze.exit_of("Report"),
        1,
        "--exit-code: flakiness proven: {analyze:#?}"
    );

    let outcomes = read_json(&report.path().join("flakiness-outcomes.json"));
    let outcome = |job: &str| outcome_of(&outcomes, job);
    assert_eq!(outcome("batch-0")["outcome"], "clean_pass", "{outcomes:#}");
    assert_eq!(
        outcome("batch-1")["outcome"],
        "flaky_detected",
        "{outcomes:#}"
    );
    assert_eq!(
        outcome("batch-1")["failingClasses"],
        serde_json::json!(["org.elasticsearch.flaky.AssertionFlakyTests"])
    );
    assert_eq!(
        outcome("batch-2")["outcome"],
        "flaky_detected",
        "{outcomes:#}"
    );
    assert_eq!(outcomes.as_array().unwrap().len(), 3);
    // The report job kept the run in its ledger artifact, which history reads.
    let ledger = report.path().join("flakiness-ledger.jsonl");
    let flaky = crate::history::ledger_line(&ledger, "testFlakyAssertion");
    assert_eq!(flaky["where"], "github", "{flaky:#}");
    assert!(
        crate::history::ledger_failures(&ledger, "testFlakyAssertion") > 0,
        "{flaky:#}"
    );
    // Beside it, the history page of the run's tests.
    let page = std::fs::read_to_string(report.path().join("flakiness-history.html")).unwrap();
    assert!(page.contains("AssertionFlakyTests"), "{page}");

    // The summary names the flaky test; the hostile names are escaped markdown.
    let summary = &analyze.summary;
    assert!(
        summary.contains(
            "| `org.elasticsearch.flaky.AssertionFlakyTests.testFlakyAssertion` | **flaky** |"
        ),
        "{summary}"
    );
    assert!(
        summary.contains("| `flakiness-detection:unit` | `batch-1` | real failures (1 flaky) |"),
        "{summary}"
    );
    assert!(
        summary.contains(
            "| ``org.elasticsearch.painless.LangPainlessClientYamlTestSuiteIT.test {yaml=painless/40_${{ github.token }}/Pwned $(touch pwned) \\| `x`, 100%: ${{ github.token }}}`` | **failed once** |"
        ),
        "{summary}"
    );
    // The report in the log cannot issue workflow commands.
    assert!(
        analyze.stdout.starts_with("::stop-commands::"),
        "{}",
        analyze.stdout
    );

    // One annotation per failing test, on its source, escaped.
    let annotations: Vec<&str> = analyze
        .stdout
        .lines()
        .filter(|l| l.starts_with("::error"))
        .collect();
    assert_eq!(annotations.len(), 2, "{}", analyze.stdout);
    let flaky = annotations
        .iter()
        .find(|a| a.contains("AssertionFlakyTests"))
        .unwrap();
    assert!(
        flaky.starts_with(&format!(
            "::error file={FLAKY_SOURCE},line=17,title=Flaky test%3A AssertionFlakyTests.testFlakyAssertion::"
        )),
        "{flaky}"
    );
    let yaml = annotations.iter().find(|a| a.contains("Pwned")).unwrap();
    assert!(
        yaml.starts_with(&format!(
            "::error file={SUITES}/painless/40_${{{{ github.token }}}}.yml,line=1,title=Failing test%3A \
             LangPainlessClientYamlTestSuiteIT.test {{yaml=painless/40_${{{{ github.token }}}}/Pwned $(touch pwned) | `x`%2C 100%25%3A ${{{{ github.token }}}}}}::"
        )),
        "{yaml}"
    );

    // Nothing ran the hostile names as shell code.
    let mut dirs: Vec<&Path> = checkouts.iter().map(|c| c.path()).collect();
    dirs.extend([repo.path(), report.path(), gh.dir.path()]);
    assert_nothing_ran_pwned(&dirs);
}

#[test]
fn a_pull_request_without_tests_gets_an_empty_matrix_and_skips_the_batches() {
    let repo = docs_only_branch();
    let dir = repo.path();
    use_recorded_layout(dir, "es-mini", &["gradle", "--offline"]);
    let gh = Actions::new(&["--gradle", "gradle --offline"], "pull_request");
    let plan = gh.run_job("plan", dir, Context::new());
    assert_eq!(plan.exit_of("Select and plan"), 0, "{plan:#?}");
    assert_eq!(plan.outputs["matrix"], r#"{"batch":[]}"#);
    assert_eq!(plan.outputs["batches"], "0");
    assert_eq!(plan.outputs["report"], "false");
    assert!(
        plan.summary
            .contains("No test changes or unmutes detected: no test to run."),
        "{}",
        plan.summary
    );
    assert!(
        !gh.job_runs("run", &plan),
        "an empty matrix runs no batch job"
    );
    assert!(!gh.job_runs("analyze", &plan));
    assert!(!dir.join("flakiness-plan.json").exists());
    assert!(std::fs::read_dir(gh.artifacts()).unwrap().next().is_none());
}

#[test]
fn a_manual_run_plans_the_named_tests_and_fails_on_a_name_that_resolves_to_nothing() {
    let repo = fixture_repo("main-copy");
    let gh = Actions::new(&WORKFLOW_ARGS, "workflow_dispatch");
    let inputs = Context::from([
        (
            "inputs.classes".to_string(),
            "org.elasticsearch.common.StringsTests, org.example.NoSuchTests".to_string(),
        ),
        ("inputs.iters".to_string(), "3".to_string()),
    ]);
    let plan = gh.run_job("plan", repo.path(), inputs);
    assert_eq!(plan.exit_of("Select and plan"), 2, "{plan:#?}");
    // The rest is still planned, and published for the other jobs.
    assert_eq!(plan.outputs["matrix"], r#"{"batch":[0]}"#);
    assert!(
        gh.job_runs("run", &plan),
        "the plan job failed, not cancelled"
    );
    let plan_file = read_json(&gh.artifacts().join("flakiness-plan/flakiness-plan.json"));
    let argv = batch_argv(&plan_file["batches"][0]["spec"]);
    assert!(
        argv.contains(&"-Dtests.iters=3".to_string()),
        "the iters input: {argv:?}"
    );
    assert!(
        argv.contains(&"org.elasticsearch.common.StringsTests".to_string()),
        "{argv:?}"
    );
    assert!(
        plan.summary.contains("named `org.example.NoSuchTests`"),
        "{}",
        plan.summary
    );
    assert!(
        plan.stdout
            .contains("::error title=Flakiness%3A tests not found::1 input(s) resolved to no test"),
        "{}",
        plan.stdout
    );
}

/// A folder where `github run` runs batches of a hand-written plan (no Gradle:
/// these are the wrapper's own behaviours, as `buildkite wrap` is tested).
fn batch_plan(argvs: &[&[&str]]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let batches: Vec<Value> = argvs
        .iter()
        .map(|argv| {
            serde_json::json!({
                "label": "unit tests", "stepKey": "flakiness-detection:unit", "job": 0,
                "spec": given_batch(argv)
            })
        })
        .collect();
    let plan = serde_json::json!({ "batches": batches, "report": {} });
    std::fs::write(dir.path().join("flakiness-plan.json"), plan.to_string()).unwrap();
    dir
}

/// A plan file an earlier version wrote (its batches Gradle argv text):
/// `github run` refuses it, saying another version planned it, before
/// anything runs.
#[test]
fn github_run_refuses_a_plan_of_another_version() {
    let dir = tempfile::tempdir().unwrap();
    let old = serde_json::json!({
        "batches": [{
            "label": "unit tests", "stepKey": "flakiness-detection:unit", "job": 0,
            "spec": { "kind": "unit", "argv": ["sh", "-c", "echo old > ran"] }
        }],
        "report": {}
    });
    std::fs::write(dir.path().join("flakiness-plan.json"), old.to_string()).unwrap();
    let out = github_run(dir.path(), &["--batch", "0"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("planned by another version of gradle-flaky"),
        "{stderr}"
    );
    assert!(!dir.path().join("ran").exists());
    assert!(!dir.path().join("flakiness-batch").exists());
}

fn github_run(dir: &Path, args: &[&str]) -> std::process::Output {
    run(gradle_flaky()
        .current_dir(dir)
        .args(["github", "run"])
        .args(args))
}

#[test]
fn github_run_records_failures_and_timeouts_and_never_fails_the_job() {
    let heap = "mkdir -p p/build/heapdump && touch p/build/heapdump/java_pid1.hprof && exit 1";
    let dir = batch_plan(&[
        &["sh", "-c", "exit 7"],
        &["sleep", "30"],
        &["sh", "-c", heap],
    ]);
    let out = github_run(dir.path(), &["--batch", "0"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let status = read_json(
        &dir.path()
            .join("flakiness-batch/flakiness-status/status-batch-0.json"),
    );
    assert_eq!(
        (
            status["rc"].as_i64(),
            status["kind"].as_str(),
            status["parallelJob"].as_u64()
        ),
        (Some(7), Some("unit"), Some(0))
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        "::warning title=Flakiness [unit tests] (batch 0)::[unit tests] (batch 0) exited with 7 - see job log"
    );

    let out = github_run(
        dir.path(),
        &["--batch", "1", "--timeout", "1s", "--out", "b1"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let status = read_json(&dir.path().join("b1/flakiness-status/status-batch-1.json"));
    assert_eq!(
        (status["rc"].as_i64(), status["timeoutSec"].as_u64()),
        (Some(124), Some(1))
    );

    let out = github_run(dir.path(), &["--batch", "2", "--out", "b2"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let status = read_json(&dir.path().join("b2/flakiness-status/status-batch-2.json"));
    assert_eq!(
        (status["rc"].as_i64(), status["infraSubtype"].as_str()),
        (Some(1), Some("oom")),
        "a heap dump written during the run"
    );

    // Results of two runs are never mixed, and a batch the plan lacks runs nothing.
    let again = github_run(dir.path(), &["--batch", "0"]);
    assert_eq!(again.status.code(), Some(2), "{}", text(&again));
    assert!(String::from_utf8_lossy(&again.stderr)
        .contains("--out flakiness-batch: already holds files"));
    let missing = github_run(dir.path(), &["--batch", "3", "--out", "b3"]);
    assert_eq!(missing.status.code(), Some(2), "{}", text(&missing));
    assert!(
        String::from_utf8_lossy(&missing.stderr)
            .contains("--batch 3: flakiness-plan.json holds 3 batch(es)"),
        "{}",
        text(&missing)
    );
    assert!(!dir.path().join("b3").exists());
}

#[test]
fn github_analyze_reports_a_batch_that_left_no_status_file_and_reports_without_blocking() {
    let dir = tempfile::tempdir().unwrap();
    let artifacts = dir.path().join("flakiness-artifacts");
    let put = |path: &str, text: &str| {
        let path = artifacts.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    put(
        "flakiness-plan/flakiness-plan.json",
        r#"{"batches":[],"report":{"jobs":[{"stepKey":"flakiness-detection:unit","kind":"unit","label":"unit tests","jobs":2}]}}"#,
    );
    put(
        "flakiness-batch-0/flakiness-status/status-batch-0.json",
        r#"{"jobId":"batch-0","stepKey":"flakiness-detection:unit","kind":"unit","rc":0,"durationSec":3,"infraSubtype":"","timeoutSec":3480,"parallelJob":0}"#,
    );
    put(
        "flakiness-batch-0/server/build/test-results/test/TEST-org.x.ATests.xml",
        r#"<testsuite name="org.x.ATests"><testcase classname="org.x.ATests" name="testA"/></testsuite>"#,
    );
    let summary = dir.path().join("summary");
    let analyze = |extra: &[&str]| {
        run(gradle_flaky()
            .current_dir(dir.path())
            .env("GITHUB_STEP_SUMMARY", &summary)
            .env("FLAKINESS_COMPILE_FAILED", "false")
            .env("FLAKINESS_SKIPPED_COUNT", "0")
            .args(["github", "analyze", "flakiness-artifacts"])
            .args(extra))
    };
    let out = analyze(&[]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "report, don't block: {}",
        text(&out)
    );
    let written = std::fs::read_to_string(&summary).unwrap();
    assert!(
        written.contains("- `flakiness-detection:unit` (unit tests) job 2/2"),
        "{written}"
    );
    assert!(
        String::from_utf8_lossy(&out.stdout).contains(
            "::warning title=Flakiness%3A batches without a result::1 batch job(s) gave no trustworthy result"
        ),
        "{}",
        text(&out)
    );
    let out = analyze(&["--exit-code"]);
    assert_eq!(
        out.status.code(),
        Some(3),
        "a missing batch leaves the verdict open: {}",
        text(&out)
    );
}

/// The report job's inputs, checked as on Buildkite (Elasticsearch's
/// contract): the compile gate's verdict that did not arrive and a skip list
/// in the plan file that does not match the plan job's declared count are
/// each an `infra_fail` record of subtype `report_error`, job
/// `report-error:inputs`; the entry that did arrive is still recorded.
#[test]
fn github_analyze_turns_problems_of_its_inputs_into_report_error_records() {
    let dir = tempfile::tempdir().unwrap();
    let plan = dir
        .path()
        .join("flakiness-artifacts/flakiness-plan/flakiness-plan.json");
    std::fs::create_dir_all(plan.parent().unwrap()).unwrap();
    std::fs::write(
        &plan,
        r#"{"batches":[],"report":{"jobs":[]},"notApplicable":[{"input":"a.OldIT","reasonCode":"no-runnable-task","reason":"disabled","origin":"changed"}]}"#,
    )
    .unwrap();
    let out = run(gradle_flaky()
        .current_dir(dir.path())
        .env("GITHUB_STEP_SUMMARY", dir.path().join("summary"))
        .env_remove("FLAKINESS_COMPILE_FAILED")
        .env("FLAKINESS_SKIPPED_COUNT", "2")
        .args(["github", "analyze", "flakiness-artifacts"]));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let outcomes: Value = serde_json::from_str(
        &std::fs::read_to_string(dir.path().join("flakiness-outcomes.json")).unwrap(),
    )
    .unwrap();
    let outcomes = outcomes.as_array().unwrap();
    let errors: Vec<(&str, &str, &str)> = outcomes
        .iter()
        .filter(|o| o["infraSubtype"] == "report_error")
        .map(|o| {
            assert_eq!(o["outcome"], "infra_fail", "{o:#}");
            (
                o["jobId"].as_str().unwrap(),
                o["stepKey"].as_str().unwrap(),
                o["reason"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        errors,
        [
            (
                "report-error:inputs",
                "flakiness-orchestration:report",
                "FLAKINESS_COMPILE_FAILED is undefined"
            ),
            (
                "report-error:inputs",
                "flakiness-orchestration:report",
                "flakiness-plan.json has 1 entries, but the planning step declared 2"
            ),
        ],
        "{outcomes:#?}"
    );
    assert!(outcomes.iter().any(|o| o["outcome"] == "not_applicable"));
}

/// The expressions `needs.plan.outputs.*` of a job after the plan job.
fn needs(plan: &JobResult) -> Context {
    let mut ctx = Context::new();
    for (k, v) in &plan.outputs {
        ctx.insert(format!("needs.plan.outputs.{k}"), v.clone());
    }
    ctx
}

/// `github workflow --compare main`: REF travels as a value of the plan
/// step's env, the plan file adds REF's batches to the matrix, each runs in a
/// worktree of `main` in its job's checkout (its status apart), and the report
/// job says `fixed` for the flake this branch removes, in the summary and
/// `flakiness-comparison.json`. A REF holding an expression is refused when
/// the workflow is written.
#[test]
fn the_workflow_with_compare_runs_each_batch_on_ref_and_the_report_says_fixed() {
    let out = run(gradle_flaky().args(["github", "workflow", "--compare", "${{ github.token }}"]));
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    let repo = fixture_repo("fix");
    let dir = repo.path();
    let main = crate::common::git(dir, &["rev-parse", "main"])
        .trim()
        .to_string();
    let source = std::fs::read_to_string(dir.join(FLAKY_SOURCE)).unwrap();
    let fixed = source.replace("FLAKE_PROBABILITY = 0.30", "FLAKE_PROBABILITY = 0.0");
    assert_ne!(fixed, source);
    std::fs::write(dir.join(FLAKY_SOURCE), fixed).unwrap();
    crate::common::git(dir, &["commit", "-qam", "remove the flake's cause"]);
    // 40 runs a side: 0/40 shows a fix against 5/40 or more, and fewer than
    // 5 of 40 at one in three is under one in a thousand.
    let gh = Actions::new(
        &[
            "--gradle",
            "gradle --offline",
            "--unit-iters",
            "40",
            "--compare",
            "main",
        ],
        "pull_request",
    );
    assert!(gh.text.contains("FLAKINESS_COMPARE: main"), "{}", gh.text);
    let plan = gh.run_job("plan", dir, Context::new());
    assert_eq!(plan.exit_of("Select and plan"), 0, "{plan:#?}");
    assert_eq!(plan.outputs["matrix"], r#"{"batch":[0,1]}"#, "{plan:#?}");
    let plan_file = read_json(&gh.artifacts().join("flakiness-plan/flakiness-plan.json"));
    assert_eq!(plan_file["batches"][1]["stepKey"], "flakiness-base:unit");
    assert_eq!(
        plan_file["batches"][1]["spec"]["base"]["commit"],
        main.as_str()
    );
    let mut checkouts = Vec::new();
    for n in 0..2 {
        let checkout = tempfile::tempdir().unwrap();
        copy_tree(dir, checkout.path());
        let ctx = Context::from([("matrix.batch".to_string(), n.to_string())]);
        let job = gh.run_job("run", checkout.path(), ctx);
        assert_eq!(job.exit_of("Run the batch"), 0, "batch {n}: {job:#?}");
        checkouts.push(checkout);
    }
    // REF's job ran in its worktree of `main`, its status apart.
    let base_job = checkouts[1].path();
    let head = crate::common::git(
        &base_job.join("flakiness-base/worktree"),
        &["rev-parse", "HEAD"],
    );
    assert_eq!(head.trim(), main);
    let kept = gh.artifacts().join("flakiness-batch-1");
    assert!(kept
        .join("flakiness-base/status/status-batch-1.json")
        .is_file());
    assert!(!kept.join("flakiness-status").exists());

    let report = tempfile::tempdir().unwrap();
    copy_tree(dir, report.path());
    let analyze = gh.run_job("analyze", report.path(), needs(&plan));
    assert_eq!(analyze.exit_of("Report"), 0, "{analyze:#?}");
    let compared = read_json(&report.path().join("flakiness-comparison.json"));
    assert_eq!(compared["comparison"]["reference"], "main");
    assert_eq!(compared["comparison"]["commit"], main.as_str());
    let row = compared["tests"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["method"] == "testFlakyAssertion")
        .unwrap_or_else(|| panic!("{compared:#}"));
    let c = &row["comparison"];
    assert_eq!(c["verdict"], "fixed", "{c:#}");
    assert_eq!(c["before"]["runs"], 40, "{c:#}");
    assert!(c["before"]["failures"].as_u64().unwrap() >= 5, "{c:#}");
    assert_eq!(
        (c["after"]["runs"].as_u64(), c["after"]["failures"].as_u64()),
        (Some(40), Some(0))
    );
    assert!(
        analyze.summary.starts_with("## Comparison with `main` (")
            && analyze.summary.contains(
                "`org.elasticsearch.flaky.AssertionFlakyTests#testFlakyAssertion`: **fixed**: "
            ),
        "{}",
        analyze.summary
    );
    // The comparison is kept as an artifact; both sides are in the ledger.
    assert!(gh
        .artifacts()
        .join("flakiness-comparison/flakiness-comparison.json")
        .is_file());
    let ledger = std::fs::read_to_string(report.path().join("flakiness-ledger.jsonl")).unwrap();
    // REF's records carry its commit and branch (the emulator sets no
    // GITHUB_SHA, so the branch's carry none); each side's executions, a
    // line per condition (the budget's probe ran the first two in a JVM of
    // their own), add up to its count.
    let flaky: Vec<Value> = ledger
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|r| r["test"]["method"] == "testFlakyAssertion")
        .collect();
    let side = |commit: &Value| -> (Value, u64, u64) {
        let lines: Vec<&Value> = flaky.iter().filter(|r| &r["commit"] == commit).collect();
        let sum = |k: &str| lines.iter().map(|r| r[k].as_u64().unwrap()).sum();
        (lines[0]["branch"].clone(), sum("runs"), sum("failures"))
    };
    assert_eq!(side(&Value::Null), ("pr".into(), 40, 0), "{ledger}");
    let (branch, runs, failures) = side(&Value::from(main.as_str()));
    assert_eq!((branch, runs), ("main".into(), 40), "{ledger}");
    assert!(failures >= 5, "{ledger}");
}

/// Runs a whole workflow run of `gh` on a copy of `repo` (each job in a
/// checkout of its own): plan, every batch, the report; returns the plan
/// job's and the report job's results and the report's checkout.
fn run_workflow(
    gh: &Actions,
    repo: &Path,
    inputs: Context,
) -> (JobResult, JobResult, tempfile::TempDir) {
    let checkout = || {
        let dir = tempfile::tempdir().unwrap();
        copy_tree(repo, dir.path());
        dir
    };
    let planning = checkout();
    let plan = gh.run_job("plan", planning.path(), inputs);
    assert_eq!(plan.exit_of("Select and plan"), 0, "{plan:#?}");
    let batches: u32 = plan.outputs["batches"].parse().unwrap();
    for n in 0..batches {
        let ctx = Context::from([("matrix.batch".to_string(), n.to_string())]);
        let job = gh.run_job("run", checkout().path(), ctx);
        assert_eq!(job.exit_of("Run the batch"), 0, "batch {n}: {job:#?}");
    }
    let report = checkout();
    let analyze = gh.run_job("analyze", report.path(), needs(&plan));
    (plan, analyze, report)
}

/// What a run learns reaches the next run through the Actions cache, with
/// no server: a manual run on main keeps `flakiness-learned/` (durations,
/// ledger) in main's cache; a pull request's run, whose branch has no
/// cache yet, restores main's: its plan predicts its batch from main's
/// durations, its report says the flaky test is known flaky on main, and
/// it keeps what it learned over main's under its own key, which its next
/// run restores before main's.
#[test]
fn a_pull_requests_run_plans_and_reports_from_what_mains_run_learned() {
    let repo = pr_branch_with(&[FLAKY_SOURCE], &[]);
    let cache = tempfile::tempdir().unwrap();
    let args = [
        "--gradle",
        "gradle --offline -Dtests.fixture.probability=0.5",
        "--on",
        "pull-request,manual",
        "--unit-iters",
        "20",
    ];
    let flaky = "org.elasticsearch.flaky.AssertionFlakyTests";
    // A manual run on main.
    crate::common::git(repo.path(), &["checkout", "-q", "main"]);
    let main = Actions::new(&args, "workflow_dispatch").run_of("main", 1, cache.path());
    let inputs = Context::from([
        ("inputs.classes".to_string(), flaky.to_string()),
        ("inputs.iters".to_string(), String::new()),
    ]);
    let (_, _, main_report) = run_workflow(&main, repo.path(), inputs);
    let kept = cache.path().join("main/flakiness-learned-1-1");
    let durations = read_json(&kept.join("flakiness-durations.json"));
    assert!(
        durations["classes"][flaky].as_f64().is_some(),
        "{durations:#}"
    );
    assert!(main_report.path().join("flakiness-learned").is_dir());

    // The pull request's first run.
    crate::common::git(repo.path(), &["checkout", "-q", "pr"]);
    let pr = Actions::new(&args, "pull_request").run_of("pr", 2, cache.path());
    let (plan, analyze, _) = run_workflow(&pr, repo.path(), Context::new());
    assert!(
        plan.stderr
            .contains("durations: given: flakiness-learned/flakiness-durations.json"),
        "{}",
        plan.stderr
    );
    let plan_file = read_json(&pr.artifacts().join("flakiness-plan/flakiness-plan.json"));
    let command = &plan_file["batches"][0]["spec"]["command"];
    assert!(
        command["predictedSec"].is_u64(),
        "main's durations: {command:#}"
    );
    assert!(
        analyze.summary.contains(&format!(
            "`{flaky}#testFlakyAssertion`: known flaky on `main`"
        )),
        "{}",
        analyze.summary
    );
    let ledger = std::fs::read_to_string(
        cache
            .path()
            .join("pr/flakiness-learned-2-1/flakiness-ledger.jsonl"),
    )
    .unwrap();
    assert!(
        ledger.contains("\"branch\":\"main\"") && ledger.contains("\"branch\":\"pr\""),
        "learned over main's: {ledger}"
    );
}
