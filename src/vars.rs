//! The `FLAKINESS_*` environment variables, one constant each: the options
//! clap reads from the environment, and the variables CI steps hand to the
//! next step (Buildkite step `env`, GitHub workflow `env`).

// Options of every command.
/// `--project-dir`: the root of the Gradle build.
pub(crate) const PROJECT_DIR: &str = "FLAKINESS_PROJECT_DIR";
/// `--gradle`: the Gradle program to run.
pub(crate) const GRADLE: &str = "FLAKINESS_GRADLE";
/// `--isolate`: run Gradle on a private daemon.
pub(crate) const ISOLATE: &str = "FLAKINESS_ISOLATE";
/// `--layout-timeout`: how long reading the build's layout may take.
pub(crate) const LAYOUT_TIMEOUT: &str = "FLAKINESS_LAYOUT_TIMEOUT";

// Selection.
/// The tests to run (`manual` requires it; positional tests elsewhere).
pub(crate) const CLASSES: &str = "FLAKINESS_CLASSES";
/// `--base`: the ref changes and unmutes are taken against.
pub(crate) const BASE: &str = "FLAKINESS_BASE";
/// `--muted-file`: the muted-tests file.
pub(crate) const MUTED_FILE: &str = "FLAKINESS_MUTED_FILE";
/// `--task-cap`: Test tasks run per class when several run it.
pub(crate) const TASK_CAP: &str = "FLAKINESS_TASK_CAP";
/// `--subclass-cap`: concrete subclasses run per abstract base class (or changed concrete class).
pub(crate) const SUBCLASS_CAP: &str = "FLAKINESS_SUBCLASS_CAP";
/// `--allow-host-mutating-tasks`: also run `destructive*` Test tasks.
pub(crate) const ALLOW_HOST_MUTATING_TASKS: &str = "FLAKINESS_ALLOW_HOST_MUTATING_TASKS";

// Batching.
/// `--iters`: iterations for every kind.
pub(crate) const ITERS: &str = "FLAKINESS_ITERS";
/// `--unit-iters`: executions of each unit test.
pub(crate) const UNIT_ITERS: &str = "FLAKINESS_UNIT_ITERS";
/// `--integ-iters`: executions of each internalClusterTest.
pub(crate) const INTEG_ITERS: &str = "FLAKINESS_INTEG_ITERS";
/// `--rest-iters`: Gradle invocations per REST batch.
pub(crate) const REST_ITERS: &str = "FLAKINESS_REST_ITERS";
/// `--suite-timeout`: `-Dtests.timeoutSuite`.
pub(crate) const SUITE_TIMEOUT: &str = "FLAKINESS_SUITE_TIMEOUT";
/// `--context`: the selected tests alone, their whole test tasks, or both.
pub(crate) const CONTEXT: &str = "FLAKINESS_CONTEXT";
/// `--unmute-check`: whole-task runs behind an unmuted test repeated in one JVM.
pub(crate) const UNMUTE_CHECK: &str = "FLAKINESS_UNMUTE_CHECK";
/// `--sample-seed`: the seed of a whole task's class sample.
pub(crate) const SAMPLE_SEED: &str = "FLAKINESS_SAMPLE_SEED";
/// `--repetition`: in one test JVM, by Gradle runs, or chosen per task (`auto`).
pub(crate) const REPETITION: &str = "FLAKINESS_REPETITION";
/// `--cap`: the batch cap per kind.
pub(crate) const CAPS: &str = "FLAKINESS_CAPS";
/// `--detect-rate`: the failure rate iterations are sized to detect.
pub(crate) const DETECT_RATE: &str = "FLAKINESS_DETECT_RATE";
/// `--confidence`: the confidence of `--detect-rate`.
pub(crate) const CONFIDENCE: &str = "FLAKINESS_CONFIDENCE";
/// `--batch-timeout`: the limit of one Gradle invocation.
pub(crate) const BATCH_TIMEOUT: &str = "FLAKINESS_BATCH_TIMEOUT";

// Budgets.
/// `--budget`: the time each batch job may take, its iterations run in chunks.
pub(crate) const BUDGET: &str = "FLAKINESS_BUDGET";
/// `--durations`: JUnit XML or a durations file the plan takes durations from.
pub(crate) const DURATIONS: &str = "FLAKINESS_DURATIONS";
/// `--max-shards`: the most shards one batch is split into.
pub(crate) const MAX_SHARDS: &str = "FLAKINESS_MAX_SHARDS";
/// `--stop-on-flaky` (`true`) and `--no-stop-on-flaky` (`false`).
pub(crate) const STOP_ON_FLAKY: &str = "FLAKINESS_STOP_ON_FLAKY";

// Triage.
/// `--triage`: replays per failing seed after the run.
pub(crate) const TRIAGE: &str = "FLAKINESS_TRIAGE";
/// `--triage-budget`: the most replays in all.
pub(crate) const TRIAGE_BUDGET: &str = "FLAKINESS_TRIAGE_BUDGET";
/// `--triage-timeout`: the most time triage takes.
pub(crate) const TRIAGE_TIMEOUT: &str = "FLAKINESS_TRIAGE_TIMEOUT";

// The run ledger.
/// `--ledger`: earlier ledgers to read (files or folders, `:`-separated).
pub(crate) const LEDGER: &str = "FLAKINESS_LEDGER";
/// `--learned`: the folder of what earlier CI runs learned (durations, ledger).
pub(crate) const LEARNED: &str = "FLAKINESS_LEARNED";
/// `--learned-build`: the Buildkite build whose learned folder to start from;
/// also handed to the uploaded report step, which fetches it too.
pub(crate) const LEARNED_BUILD: &str = "FLAKINESS_LEARNED_BUILD";
/// `pr --compare REF` from the environment: the GitHub workflow's plan step
/// gets REF as this value, never through an expression.
pub(crate) const COMPARE: &str = "FLAKINESS_COMPARE";

// Handing over to a CI.
/// `--target`: the CI the tests are handed to.
pub(crate) const TARGET: &str = "FLAKINESS_TARGET";
/// `--agent`: Buildkite agent selectors of batch steps.
pub(crate) const AGENTS: &str = "FLAKINESS_AGENTS";
/// `--step-timeout`: each Buildkite batch step's timeout.
pub(crate) const STEP_TIMEOUT: &str = "FLAKINESS_STEP_TIMEOUT";
/// `--agent-bin`: how Buildkite agents run gradle-flaky.
pub(crate) const AGENT_BIN: &str = "FLAKINESS_AGENT_BIN";
/// `--group`: the group name of the uploaded Buildkite steps.
pub(crate) const GROUP: &str = "FLAKINESS_GROUP";
/// `--blocking-labels`: the pull-request labels that opt in to blocking.
pub(crate) const BLOCKING_LABELS: &str = "FLAKINESS_BLOCKING_LABELS";
/// `--proven-exit-code`: the exit code of a blocked report step.
pub(crate) const PROVEN_EXIT_CODE: &str = "FLAKINESS_PROVEN_EXIT_CODE";
/// `--timeout` of `buildkite wrap`: when the wrapped command is stopped.
pub(crate) const WRAP_TIMEOUT: &str = "FLAKINESS_WRAP_TIMEOUT";

// Set by gradle-flaky for its own CI steps.
/// Buildkite batch step: the prefix of each job's `JobSpec` (its typed batch, JSON), see [`batch_spec`].
pub(crate) const BATCH_SPEC_PREFIX: &str = "FLAKINESS_BATCH_";
/// The report step (Buildkite and GitHub): whether the compile gate failed,
/// `true` or `false`, as the planning step found it.
pub(crate) const COMPILE_FAILED: &str = "FLAKINESS_COMPILE_FAILED";
/// The report step (Buildkite and GitHub): how many not-applicable entries
/// the planning step handed on (the skip list must hold exactly these).
pub(crate) const SKIPPED_COUNT: &str = "FLAKINESS_SKIPPED_COUNT";
/// Buildkite report and triage steps: the `ReportContext` (JSON) of the upload.
pub(crate) const REPORT_CONTEXT: &str = "FLAKINESS_REPORT_CONTEXT";
/// Buildkite triage step: its `TriageSpec` (JSON).
pub(crate) const TRIAGE_SPEC: &str = "FLAKINESS_TRIAGE_SPEC";
/// GitHub batch job: the matrix's batch index.
pub(crate) const BATCH: &str = "FLAKINESS_BATCH";
/// GitHub plan job of a manual run: the `iters` input, which wins over every iteration knob.
pub(crate) const DISPATCH_ITERS: &str = "FLAKINESS_DISPATCH_ITERS";

/// The variables set by gradle-flaky for its own CI steps, with what each
/// holds (the book's variables reference lists them).
pub(crate) const HANDED_TO_STEPS: &[(&str, &str)] = &[
    (
        "FLAKINESS_BATCH_<n>",
        "Buildkite batch step: the typed batch of parallel job n (its command: tests, kind, Gradle invocation; the policy it runs by), as JSON",
    ),
    (
        COMPILE_FAILED,
        "Report step (Buildkite and GitHub): `true` when the compile gate of the planning step failed, else `false`",
    ),
    (
        SKIPPED_COUNT,
        "Report step (Buildkite and GitHub): how many not-applicable tests the planning step handed on (its skip list must hold as many)",
    ),
    (
        REPORT_CONTEXT,
        "Buildkite report and triage steps: the jobs to expect, renamed projects' paths, the Gradle program, as JSON",
    ),
    (
        TRIAGE_SPEC,
        "Buildkite triage step: replays, budget, time limit, whether Gradle has `--rerun`, the build's directory, as JSON",
    ),
    (BATCH, "GitHub batch job: the matrix's batch index"),
    (
        DISPATCH_ITERS,
        "GitHub plan job of a manual run: the `iters` input, which wins over every iteration knob",
    ),
];

// Set by gradle-flaky on the processes of its builds.
/// Every test JVM of a build gradle-flaky runs: the run's id (`gradle/flaky-run-mark.gradle`
/// sets it on each Test task), which tells a run's test JVMs from other builds' on a shared daemon.
pub(crate) const RUN_MARK: &str = "FLAKINESS_RUN";

/// The variable holding the `JobSpec` of Buildkite parallel job `job`
/// (`$BUILDKITE_PARALLEL_JOB`): `FLAKINESS_BATCH_<job>`.
pub(crate) fn batch_spec(job: usize) -> String {
    format!("{BATCH_SPEC_PREFIX}{job}")
}
