//! The command line, defined once with clap derive; it also feeds the completions
//! and the man page.

use crate::time::parse_duration;
use crate::triage::TriageConfig;
use crate::{domain, settings, vars};
use clap::{Args, Parser, Subcommand, ValueEnum};
use const_format::formatcp;
use std::path::PathBuf;
use std::time::Duration;

#[derive(Debug, Parser)]
#[command(
    name = "gradle-flaky",
    version,
    about = "Find flaky tests in a Gradle monorepo by re-running a focused subset many times",
    long_about = "Find flaky tests in a Gradle monorepo by re-running a focused subset many times.\n\n\
        gradle-flaky selects tests (changed in this branch, removed from muted-tests.yml, or named \
        explicitly), classifies each one by asking Gradle itself, plans batched Gradle invocations, \
        runs them here, as a Buildkite sub-pipeline or as a GitHub Actions matrix, and reports \
        per-test failure rates with confidence intervals.",
    after_help = "Examples:\n  \
        gradle-flaky local --iters 20 org.elasticsearch.index.IndexTests\n  \
        gradle-flaky plan --changed --unmuted --base main\n  \
        gradle-flaky analyze --format json .\n\n\
        Exit codes: 0 all passed, 1 a selected test failed for real (flaky, or broken: the \
        report's verdict says which), 2 usage or input error, \
        3 no trustworthy result (Gradle missing or failed, no test executed, a test run fewer \
        times than planned), 130 interrupted."
)]
pub struct Cli {
    #[command(flatten)]
    pub global: GlobalArgs,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Args, Clone)]
pub struct GlobalArgs {
    /// Root of the Gradle build (where settings.gradle is).
    #[arg(
        long,
        global = true,
        value_name = "DIR",
        env = vars::PROJECT_DIR,
        default_value = "."
    )]
    pub project_dir: PathBuf,

    /// Gradle program to run: default `./gradlew` in the project dir when present, else `gradle` on PATH.
    #[arg(long, global = true, value_name = "CMD", env = vars::GRADLE)]
    pub gradle: Option<String>,

    /// Stream Gradle's output instead of showing progress.
    #[arg(short, long, global = true)]
    pub verbose: bool,

    /// Run Gradle isolated from your own builds: a private daemon in the run folder (or
    /// --no-daemon for a single invocation), stopped with the run. Default: your own Gradle
    /// daemon, as ./gradlew would use (warm; a stopped build's test JVMs are stopped, the
    /// daemon never). Buildkite batch steps always run isolated.
    #[arg(
        long,
        global = true,
        env = vars::ISOLATE,
        value_parser = clap::builder::BoolishValueParser::new()
    )]
    pub isolate: bool,

    /// Stop reading the build's layout (Gradle configuring the build with the init script)
    /// after DURATION (90s, 20m, 1h).
    #[arg(
        long,
        global = true,
        value_name = "DURATION",
        env = vars::LAYOUT_TIMEOUT,
        default_value = "15m",
        value_parser = parse_duration
    )]
    pub layout_timeout: Duration,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Select, plan and run tests on this machine, then print the report.
    #[command(after_help = "Examples:\n  \
        gradle-flaky local --iters 20 org.elasticsearch.index.IndexTests\n  \
        gradle-flaky local --changed --base origin/main --format json --report flaky.json\n  \
        gradle-flaky local --compare main --iters 60 org.example.FooTests   # did my fix work?\n\n\
        Exit status: 0 every batch ran tests and they passed; 1 a real failure: flakiness \
        proven; 2 a usage or input error, found before anything runs (a test that resolves to \
        nothing, a --report or --junit file that cannot be written, a --compare REF that names \
        no commit); 3 no real failure but a batch without a trustworthy result (no tests \
        executed, a timeout, a build failure, a test JVM out of heap; with --compare, REF's side \
        without a result: infrastructure, never a verdict); 130 interrupted. With --compare the \
        status is this working tree's: a test shown `fixed` and nothing else failing is 0, a \
        failure left here is 1, whatever REF did.\n\n\
        Every run is added to the build's run ledger (.gradle/gradle-flaky/ledger/; see \
        `gradle-flaky history`).")]
    Local(LocalArgs),

    /// Find the commit that made a test flaky: bisect the first-parent line between a good and a bad commit, each point run as often as an exact test needs.
    #[command(after_help = "Examples:\n  \
        gradle-flaky bisect --good v1.2.0 --bad main 'org.example.FooTests#testBar'\n  \
        gradle-flaky bisect --good HEAD~50 --iters 20 --max-runs 200 'org.example.FooTests#testBar'\n\n\
        Each point runs in the build's kept worktree of its commit (.gradle/gradle-flaky/bisect), \
        in chunks of --iters, until Fisher's exact test tells its failure rate from the good \
        end's or the bad end's; runs the ledger already holds of a commit, in the same \
        condition, are not run again, and every run is recorded there.\n\n\
        Exit status: 0 a culprit named; 1 an end is not what it was said to be (the good end \
        fails, or the bad end never does); 2 a usage or input error; 3 the runs could not \
        tell within --max-runs, or the commits that would tell do not build; 130 interrupted \
        (what was measured is printed).")]
    Bisect(BisectArgs),

    /// Show what would run, and what a clean result would prove; run nothing.
    #[command(after_help = "Examples:\n  \
        gradle-flaky plan --changed --unmuted --base main\n  \
        gradle-flaky plan --format shell 'org.example.FooTests#testBar'")]
    Plan(PlanArgs),

    /// Changed tests and unmutes of this branch, run here, uploaded to Buildkite, or planned for GitHub Actions.
    #[command(after_help = "Examples:\n  \
        gradle-flaky pr --base main --target local\n  \
        gradle-flaky pr            # in Buildkite: uploads the sub-pipeline\n  \
        gradle-flaky pr            # in GitHub Actions: the matrix output and flakiness-plan.json\n\n\
        With --target github it writes `matrix={\"batch\":[0,1,...]}`, `batches=N` and \
        `report=true|false` to $GITHUB_OUTPUT, the plan (each batch's command) to \
        flakiness-plan.json, and the batches, or why there are none, to $GITHUB_STEP_SUMMARY.")]
    Pr(PrArgs),

    /// CI entry driven by FLAKINESS_* variables (the manual Buildkite pipeline or GitHub workflow).
    #[command(
        after_help = "Environment (each variable is also a flag, see above):\n  \
        FLAKINESS_CLASSES        tests to run, one per line or comma-separated (required)\n  \
        FLAKINESS_ITERS          iterations for every kind: unit, integ and REST loops (optional)\n  \
        FLAKINESS_UNIT_ITERS, FLAKINESS_INTEG_ITERS, FLAKINESS_REST_ITERS, FLAKINESS_SUITE_TIMEOUT,\n  \
        FLAKINESS_REPETITION, FLAKINESS_CAPS, FLAKINESS_DETECT_RATE, FLAKINESS_CONFIDENCE   batching\n  \
        FLAKINESS_AGENTS, FLAKINESS_STEP_TIMEOUT, FLAKINESS_AGENT_BIN, FLAKINESS_GROUP   agents\n  \
        FLAKINESS_GRADLE, FLAKINESS_PROJECT_DIR   the build\n  \
        FLAKINESS_TARGET         buildkite or github (default: github when $GITHUB_ACTIONS is set)\n  \
        FLAKINESS_TRIAGE, FLAKINESS_TRIAGE_BUDGET, FLAKINESS_TRIAGE_TIMEOUT   triage (off by default; Buildkite only)\n\n\
        Example:\n  FLAKINESS_CLASSES=org.example.FooTests FLAKINESS_ITERS=50 gradle-flaky manual"
    )]
    Manual(ManualArgs),

    /// Read JUnit XML under DIR and print the flakiness report.
    #[command(after_help = "Examples:\n  \
        gradle-flaky analyze .\n  \
        gradle-flaky analyze --since 2026-12-01T10:00:00Z --format json --junit merged.xml build-dir")]
    Analyze(AnalyzeArgs),

    /// Buildkite: upload the sub-pipeline, wrap a batch, or run the final analyze step.
    #[command(subcommand)]
    Buildkite(BuildkiteCommand),

    /// GitHub Actions: print the workflow, run one matrix batch, or write the report job's summary.
    #[command(subcommand)]
    Github(GithubCommand),

    /// Replay the failing tests of a finished run and say what kind of flaky each one is.
    #[command(
        after_help = "Verdicts (the `triage.verdict` of each failing test in the JSON report):\n  \
        seed-deterministic   every replay of a failing seed failed again: the seed reproduces it\n  \
        nondeterministic     a replay of a failing seed passed: timing, concurrency, environment\n  \
        fails-alone          no seed; replayed alone, it failed\n  \
        passes-alone         no seed; replayed alone, it never failed: it may depend on test order\n\n\
        Up to 3 failing seeds per test are replayed, each --replays times, with the seed pinned \
        (-Dtests.seed=MASTER:METHOD, all replays in one test JVM through -Dtests.iters).\n\n\
        Examples:\n  \
        gradle-flaky triage                       # the newest run of `local` in this build\n  \
        gradle-flaky triage --replays 10 --triage-budget 50 RUN_FOLDER\n  \
        gradle-flaky triage --format json ci-artifacts/ -- --offline"
    )]
    Triage(TriageCommandArgs),

    /// Show what the run ledger holds of tests: rates by commit and condition, trend, the newest commit against its first-parent ancestors.
    #[command(after_help = "Examples:\n  \
        gradle-flaky history org.elasticsearch.index.IndexTests\n  \
        gradle-flaky history --ledger ci-artifacts/ --format json 'org.example.FooTests#testBar'\n\n\
        Reads the build's own ledger (<project dir>/.gradle/gradle-flaky/ledger/) and every \
        --ledger file or folder. Lines that cannot be used (torn by a killed \
        run, of a newer schema) are skipped with a warning naming file and line. The newest commit \
        is compared with the records of its first-parent ancestors, as git knows them in the \
        checkout of --project-dir; records of other branches are left out, never \"before\".\n\
        Exit status: 0; 2 when a --ledger path does not exist or a test name is not a class or \
        Class#method.")]
    History(HistoryArgs),

    /// Add an ordinary build's test results to the run ledger: each test once, in its whole task.
    #[command(after_help = "Examples:\n  \
        ./gradlew test; gradle-flaky record          # this build's reports, on this commit\n  \
        gradle-flaky record --ledger ledger/ --commit 40f7c2e --branch main server/build/test-results\n\n\
        Reads the JUnit XML below each DIR as `analyze` does (Gradle's build/test-results/<task>/ of \
        every project; a folder with none there: any TEST-*.xml below it, such as Surefire's \
        target/surefire-reports/), and appends one ledger line per test that passed or failed: \
        context `task`, a fresh test JVM, first executions. A retry in the same build (Gradle's \
        test-retry plugin, Surefire's flakyFailure and rerunFailure) is one more execution: a test \
        that failed, then passed, is proven flaky on that commit. The commit, branch and run id \
        come from the flags, else the CI's variables, else git (the run id from the reports \
        themselves): recording the same build twice adds nothing the second time.\n\
        Exit status: 0; 2 when no report is found below a DIR; 3 when the ledger cannot be \
        written.")]
    Record(RecordArgs),

    /// Tell flaky from broken from the ledger's runs, with nothing re-run; show tests that fail together.
    #[command(after_help = "Examples:\n  \
        gradle-flaky suspects --ledger ci-ledgers/ --branch main --since 30d\n  \
        gradle-flaky suspects --format html > suspects.html\n\n\
        Kinds: flaky (it failed and passed on one commit: proven), broken (it failed in every run \
        since a commit, at least 3 in a row: not flaky, the commit is named), intermittent (failures \
        on some commits, never beside a pass on the same one yet). Each comes with the command \
        that confirms it here, and a flaky one with its muted-tests.yml entry. Tests whose \
        failures fall in the same runs are one cluster, with the failure they share.\n\
        Exit status: 0; 1 when a test is proven flaky; 2 when a --ledger path does not exist or \
        --since cannot be read.")]
    Suspects(SuspectsArgs),

    /// Run one Gradle invocation N times, keeping every iteration's JUnit XML.
    #[command(after_help = "Example:\n  \
        gradle-flaky repeat --times 5 -- ./gradlew :server:javaRestTest --tests org.example.FooIT")]
    Repeat(RepeatArgs),

    /// Print the build as Gradle sees it (projects, source sets, test tasks) as JSON.
    #[command(
        after_help = "Example:\n  gradle-flaky layout --project-dir ~/src/elasticsearch --refresh"
    )]
    Layout(LayoutArgs),

    /// Print the man page (roff) to stdout.
    #[command(after_help = "Example:\n  gradle-flaky man | man -l -")]
    Man,

    /// Print a shell completion script.
    #[command(
        after_help = "Example:\n  gradle-flaky completions bash > ~/.local/share/bash-completion/completions/gradle-flaky"
    )]
    Completions(CompletionsArgs),
}

/// Which tests to run.
#[derive(Debug, Args, Clone)]
pub struct SelectionArgs {
    /// Tests to run: `FQCN`, `FQCN#method`, `FQCN.method`, `Runner.test {yaml=api/file/name}`,
    /// or a path to a test file or a `.yml` suite. Separate with spaces, commas or newlines.
    #[arg(value_name = "TEST", env = vars::CLASSES)]
    pub tests: Vec<String>,

    /// Add test files changed against the merge base.
    #[arg(long)]
    pub changed: bool,

    /// Add entries removed from muted-tests.yml against the merge base.
    #[arg(long)]
    pub unmuted: bool,

    /// Base ref: default $BUILDKITE_PULL_REQUEST_BASE_BRANCH or $GITHUB_BASE_REF, else origin/main, else main.
    #[arg(long, value_name = "REF", env = vars::BASE)]
    pub base: Option<String>,

    /// The muted-tests file, relative to the project dir.
    #[arg(
        long,
        value_name = "FILE",
        default_value = DEFAULT_MUTED_FILE,
        env = vars::MUTED_FILE
    )]
    pub muted_file: PathBuf,

    /// Re-read the layout from Gradle instead of the cache.
    #[arg(long)]
    pub refresh_layout: bool,

    #[command(flatten)]
    pub choice: ChoiceArgs,
}

/// Which Test tasks and which subclasses run a selected class.
#[derive(Debug, Args, Clone)]
pub struct ChoiceArgs {
    /// Test tasks run per class when its source set's own task is disabled and several others
    /// run it (BWC versions, newest first).
    #[arg(
        long,
        value_name = "N",
        default_value_t = crate::select::tasks::DEFAULT_TASK_CAP as u32,
        env = vars::TASK_CAP,
        value_parser = clap::value_parser!(u32).range(1..)
    )]
    pub task_cap: u32,

    /// Concrete subclasses run per abstract base class, or per changed concrete test class
    /// (spread over projects); those left out are reported as not checked.
    #[arg(
        long,
        value_name = "N",
        default_value_t = crate::select::expand::DEFAULT_SUBCLASS_CAP as u32,
        env = vars::SUBCLASS_CAP,
        value_parser = clap::value_parser!(u32).range(1..)
    )]
    pub subclass_cap: u32,

    /// Also run host-mutating Test tasks (named destructive*: they install packages and change
    /// services on this machine). Only on a disposable packaging host.
    #[arg(long, env = vars::ALLOW_HOST_MUTATING_TASKS)]
    pub allow_host_mutating_tasks: bool,
}

impl Default for ChoiceArgs {
    fn default() -> Self {
        ChoiceArgs {
            task_cap: crate::select::tasks::DEFAULT_TASK_CAP as u32,
            subclass_cap: crate::select::expand::DEFAULT_SUBCLASS_CAP as u32,
            allow_host_mutating_tasks: false,
        }
    }
}

/// The same defaults as the command line, for entry points (`pr`, `manual`)
/// that build a selection themselves.
impl Default for SelectionArgs {
    fn default() -> Self {
        SelectionArgs {
            tests: Vec::new(),
            changed: false,
            unmuted: false,
            base: None,
            muted_file: PathBuf::from(DEFAULT_MUTED_FILE),
            refresh_layout: false,
            choice: ChoiceArgs::default(),
        }
    }
}

/// Where Elasticsearch-style builds keep their muted tests.
pub const DEFAULT_MUTED_FILE: &str = "muted-tests.yml";

/// How many times, in what batches.
#[derive(Debug, Args, Clone, Default)]
pub struct BatchingArgs {
    /// Iterations for every kind (sets unit, integ and REST counts).
    #[arg(long, value_name = "N", env = vars::ITERS, value_parser = clap::value_parser!(u32).range(1..))]
    pub iters: Option<u32>,

    #[arg(help = formatcp!("Executions of each unit test (and custom source sets): -Dtests.iters where \
        the randomizedtesting runner honours it, else Gradle runs [default: {}]", domain::DEFAULT_UNIT_ITERS))]
    #[arg(long, value_name = "N", env = vars::UNIT_ITERS, value_parser = clap::value_parser!(u32).range(1..))]
    pub unit_iters: Option<u32>,

    #[arg(help = formatcp!("Executions of each internalClusterTest: -Dtests.iters, or Gradle runs \
        [default: {}]", domain::DEFAULT_INTEG_ITERS))]
    #[arg(long, value_name = "N", env = vars::INTEG_ITERS, value_parser = clap::value_parser!(u32).range(1..))]
    pub integ_iters: Option<u32>,

    #[arg(help = formatcp!("Gradle invocations per REST batch [default: {}]", domain::DEFAULT_REST_LOOPS))]
    #[arg(long, value_name = "N", env = vars::REST_ITERS, value_parser = clap::value_parser!(u32).range(1..))]
    pub rest_iters: Option<u32>,

    #[arg(help = formatcp!("Suite timeout passed as -Dtests.timeoutSuite (90s, 20m, 1h) [default: {}m]",
        domain::DEFAULT_SUITE_TIMEOUT_MIN))]
    #[arg(long, value_name = "DURATION", env = vars::SUITE_TIMEOUT, value_parser = parse_duration)]
    pub suite_timeout: Option<Duration>,

    /// How tests repeat: in test JVMs (TestNG invocationCount, gradle-flaky's JUnit 4 runner,
    /// the randomizedtesting runner's -Dtests.iters; the JUnit Platform engine only with
    /// in-jvm), each class's iterations spread over several fresh JVMs of one Gradle
    /// invocation, or one Gradle run per iteration (fresh JVMs, slower). auto chooses per Test
    /// task from its framework; the first run confirms, else Gradle runs follow; and when a
    /// chunk's iterations in one JVM cost more than fresh Gradle runs (on average, or its last
    /// ones each: state accumulating in the JVM), the rest of its batch runs as Gradle runs,
    /// said in the run and the report (in-jvm stays, and says what it cost); the build's
    /// durations file remembers the class, and the next auto run on the same commit starts it
    /// on Gradle runs (a class that leaked state by itself: a fresh JVM per execution instead).
    /// The report counts each test's first executions in a JVM (the CI condition) apart from
    /// its repeats.
    #[arg(long, value_enum, value_name = "HOW", env = vars::REPETITION, default_value_t = RepetitionArg::Auto)]
    pub repetition: RepetitionArg,

    #[arg(help = formatcp!("What runs beside the selected tests. alone: the selected classes on their \
        own (their verdict bounds the test by itself); task: each selected test's whole test task \
        as CI runs it (every class, no --tests filter, the build's own test JVMs and forks), one \
        Gradle run per execution, a seeded sample of its classes when the whole task cannot fit \
        the budget (its verdict bounds the test in CI's condition, beside its neighbours); both: \
        the two, counted apart so that they can be compared [default: {}]",
        settings::DEFAULT_CONTEXT.as_str()))]
    #[arg(long, value_enum, value_name = "WHERE", env = vars::CONTEXT)]
    pub context: Option<ContextArg>,

    #[arg(help = formatcp!("Whole-task runs (each a fresh test JVM, as CI runs the test) that back a \
        test selected because it was unmuted (--unmuted) and repeated in one test JVM: a clean \
        in-JVM verdict bounds repeats in a warm JVM, these bound the test as CI runs it. {} runs \
        catch a test failing every fresh first run every time, one failing half of them 97 times \
        in 100; 0 turns the check off; --context task|both runs the task anyway [default: {}]",
        settings::DEFAULT_UNMUTE_CHECK, settings::DEFAULT_UNMUTE_CHECK))]
    #[arg(long, value_name = "N", env = vars::UNMUTE_CHECK)]
    pub unmute_check: Option<u32>,

    /// The seed of the random sample of a whole test task's classes that runs when the task is
    /// too big for the budget (--context task|both): the plan and the report say the seed used,
    /// and the same seed, classes and durations give the same sample [default: a fresh one].
    #[arg(long, value_name = "SEED", env = vars::SAMPLE_SEED)]
    pub sample_seed: Option<u64>,

    /// Batch cap per kind, as KIND=N (repeatable or comma-separated), e.g. unit=5,javaRestTest=2.
    #[arg(
        long = "cap",
        value_name = "KIND=N",
        env = vars::CAPS,
        value_delimiter = ','
    )]
    pub caps: Vec<String>,

    /// Size iterations to detect a failure rate P (e.g. 0.02 or 2%) with --confidence.
    #[arg(long, value_name = "P", env = vars::DETECT_RATE)]
    pub detect_rate: Option<String>,

    /// Confidence for --detect-rate.
    #[arg(
        long,
        value_name = "C",
        default_value = "0.95",
        env = vars::CONFIDENCE
    )]
    pub confidence: f64,
    #[arg(help = formatcp!("The time each batch job may take (90s, 20m, 1h). A batch the durations say \
        cannot fit is split into shards (--max-shards); locally and in a CI job its iterations run \
        in chunks, each checked to fit what is left before it starts (a CI job's budget cut to \
        what its timeout leaves), each with a fresh seed, and a batch out of budget stops cleanly \
        and reports what ran [default: the job's timeout minus {} minutes \
        (--batch-timeout locally, --step-timeout on Buildkite, the workflow's job timeout on \
        GitHub)]", settings::GRACE_MIN))]
    #[arg(long, value_name = "DURATION", env = vars::BUDGET, value_parser = parse_duration)]
    pub budget: Option<Duration>,

    /// Durations per test class: JUnit XML files or folders of an earlier run (e.g. the base
    /// branch's build/test-results), or a flakiness-durations.json [default: what earlier runs
    /// recorded under .gradle/gradle-flaky/].
    #[arg(long, value_name = "PATH", env = vars::DURATIONS)]
    pub durations: Option<PathBuf>,

    /// The most shards (parallel jobs, or batches run in turn locally) one batch is split into
    /// to fit the budget.
    #[arg(long, value_name = "K", env = vars::MAX_SHARDS, default_value_t = crate::domain::DEFAULT_MAX_SHARDS,
          value_parser = clap::value_parser!(u32).range(1..=256))]
    pub max_shards: u32,
}

/// Early stopping (`local`, `pr`, and the CI jobs `manual` and `buildkite upload` plan).
#[derive(Debug, Args, Clone, Default)]
pub struct BudgetArgs {
    /// A test proven flaky (a real failure and a pass) gets no more iterations [default: on for
    /// changed tests, off for unmuted and explicit ones, which need their full count to clear].
    #[arg(long, env = vars::STOP_ON_FLAKY, num_args = 0..=1, require_equals = true, default_missing_value = "true",
          value_name = "BOOL", overrides_with = "no_stop_on_flaky")]
    pub stop_on_flaky: Option<bool>,

    /// Every test gets its full count, proven flaky or not.
    #[arg(long, overrides_with = "stop_on_flaky")]
    pub no_stop_on_flaky: bool,
}

/// Where the report goes.
#[derive(Debug, Args, Clone, Default)]
pub struct ReportArgs {
    /// Report format on stdout.
    #[arg(long, value_enum, default_value_t = ReportFormat::Markdown)]
    pub format: ReportFormat,

    /// Also write the report to FILE (in --format).
    #[arg(long, value_name = "FILE")]
    pub report: Option<PathBuf>,

    /// Also write one merged Surefire-style JUnit XML file (flakyFailure/rerunFailure).
    #[arg(long, value_name = "FILE")]
    pub junit: Option<PathBuf>,
}

/// `--repetition`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, Default)]
pub enum RepetitionArg {
    /// In one test JVM where the framework's mechanism is verified on Gradle, else Gradle runs;
    /// Gradle runs too once iterations in one JVM cost more than fresh runs (remembered for the
    /// next runs on the same commit).
    #[default]
    Auto,
    /// In one test JVM wherever a mechanism exists (also the JUnit Platform's engine, and a
    /// suite's member class by name); where none does, the run says so.
    InJvm,
    /// One Gradle run (a fresh test JVM) per iteration.
    GradleRuns,
}

/// `--context`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ContextArg {
    /// The selected classes on their own.
    Alone,
    /// Each selected test's whole test task, as CI runs it.
    Task,
    /// Both, counted apart.
    Both,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, Default)]
pub enum ReportFormat {
    #[default]
    Markdown,
    Json,
}

/// How much triage may replay.
#[derive(Debug, Args, Clone, Default)]
pub struct TriageBudgetArgs {
    #[arg(help = formatcp!("The most replays triage runs in all, every test and seed together \
        [default: {}]", TriageConfig::DEFAULT_BUDGET))]
    #[arg(long, value_name = "N", env = vars::TRIAGE_BUDGET, value_parser = clap::value_parser!(u64).range(1..))]
    pub triage_budget: Option<u64>,

    #[arg(help = formatcp!("The most time triage takes; a replay still running then is stopped (90s, \
        20m, 1h) [default: {}m]", TriageConfig::DEFAULT_TIMEOUT_MIN))]
    #[arg(long, value_name = "DURATION", env = vars::TRIAGE_TIMEOUT, value_parser = parse_duration)]
    pub triage_timeout: Option<Duration>,
}

/// A replay count; blank means 0 (off), so that a CI variable left empty turns triage off.
fn parse_replays(s: &str) -> Result<u32, String> {
    let s = s.trim();
    if s.is_empty() {
        return Ok(0);
    }
    s.parse()
        .map_err(|_| format!("`{s}` is not a number of replays (0 or more; 0: off)"))
}

/// Triage after the run (`local`, `pr`, `manual`, `buildkite upload`).
#[derive(Debug, Args, Clone, Default)]
pub struct TriageArgs {
    /// After the run, replay each failing test N times per failing seed (up to 3 seeds, the seed
    /// pinned), or alone N times when it has no seed, and say what kind of flaky it is (0: off).
    /// Here and on Buildkite (a triage step); not with --target github.
    #[arg(long, value_name = "N", env = vars::TRIAGE, value_parser = parse_replays)]
    pub triage: Option<u32>,

    #[command(flatten)]
    pub budget: TriageBudgetArgs,
}

#[derive(Debug, Args)]
pub struct LocalArgs {
    #[command(flatten)]
    pub selection: SelectionArgs,
    #[command(flatten)]
    pub batching: BatchingArgs,
    #[command(flatten)]
    pub report: ReportArgs,
    #[command(flatten)]
    pub triage: TriageArgs,
    #[command(flatten)]
    pub run: RunArgs,
    #[command(flatten)]
    pub compare: CompareArgs,

    /// Extra arguments passed to every Gradle invocation.
    #[arg(last = true, value_name = "GRADLE ARGS")]
    pub gradle_args: Vec<String>,
}

/// `bisect`: the ends, the limits of the search, and what `local` takes.
#[derive(Debug, Args, Clone)]
pub struct BisectArgs {
    /// A commit where the test is not flaky (a branch, tag or commit): the search's start.
    #[arg(long, value_name = "REF")]
    pub good: String,

    /// A commit where the test is flaky, on whose first-parent line the good one lies.
    #[arg(long, value_name = "REF", default_value = "HEAD")]
    pub bad: String,

    /// The most runs of the test at one commit; a commit still not told from either end by
    /// then ends the search without a culprit.
    #[arg(long, value_name = "N", default_value_t = 400, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub max_runs: u64,

    /// The chance, at most, that the commit named is the wrong one (or an end called what it
    /// is not), shared over the ends' check and every halving.
    #[arg(long, value_name = "RATE", default_value_t = 0.05, value_parser = error_rate)]
    pub error_rate: f64,

    #[command(flatten)]
    pub selection: SelectionArgs,
    #[command(flatten)]
    pub batching: BatchingArgs,

    /// Also read this run ledger (a file, or a folder of *.jsonl; repeatable, or
    /// `:`-separated): runs it holds of a commit count toward that point.
    #[arg(long, value_name = "PATH", env = vars::LEDGER, value_delimiter = ':')]
    pub ledger: Vec<PathBuf>,

    /// Extra arguments passed to every Gradle invocation.
    #[arg(last = true, value_name = "GRADLE ARGS")]
    pub gradle_args: Vec<String>,
}

/// An error rate in (0, 0.5].
fn error_rate(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(r) if r > 0.0 && r <= 0.5 => Ok(r),
        _ => Err(format!(
            "`{s}` is no error rate: a number above 0 and at most 0.5"
        )),
    }
}

/// Comparing with another commit (`local --compare REF`).
#[derive(Debug, Args, Clone, Default)]
pub struct CompareArgs {
    /// Also run the selected tests on REF (a branch, tag or commit; in a git worktree of it in
    /// the run folder, with this branch's muted-tests file), REF first, and compare each test:
    /// fixed, not shown, same or worse (Fisher's exact test). A test the ledger already holds
    /// enough runs of on REF, in the same condition, is not run there again.
    #[arg(long, value_name = "REF", conflicts_with = "until_fail")]
    pub compare: Option<String>,

    #[arg(help = formatcp!("With --compare: looks at this working tree's runs, after each 1/K of \
        them; a test shown fixed at a look stops there (α spent over the looks: O'Brien–Fleming \
        type); 1 looks only at the end [default: {}]", crate::plan::show_fix::DEFAULT_LOOKS))]
    #[arg(long, value_name = "K", requires = "compare", value_parser = clap::value_parser!(u32).range(1..=10))]
    pub looks: Option<u32>,

    /// With --compare: run this working tree's side as many times as a fix needs to show at
    /// the rate measured on REF (at most 10 times the planned count), instead of the planned count.
    #[arg(long, requires = "compare")]
    pub size_after: bool,

    /// Also read this run ledger (a file, or a folder of *.jsonl such as downloaded CI
    /// artifacts; repeatable, or `:`-separated): REF's earlier runs for --compare, and the base
    /// branch's for the known-flaky note of --changed/--unmuted runs.
    #[arg(long, value_name = "PATH", env = vars::LEDGER, value_delimiter = ':')]
    pub ledger: Vec<PathBuf>,
}

/// How a local run's batches end (`local`, and `plan`, which shows what they cut).
#[derive(Debug, Args, Clone, Default)]
pub struct RunArgs {
    #[command(flatten)]
    pub budget: BudgetArgs,

    /// Repeat each selected test until its first real failure, for at most --for per batch
    /// (in chunks, each with a fresh seed); no failure by then is a clean result of the
    /// executions that ran.
    #[arg(long, requires = "for_", conflicts_with_all = ["iters", "unit_iters", "integ_iters", "rest_iters", "detect_rate", "budget"])]
    pub until_fail: bool,

    /// With --until-fail: how long each batch repeats (90s, 20m, 1h).
    #[arg(long = "for", value_name = "DURATION", requires = "until_fail", value_parser = parse_duration)]
    pub for_: Option<Duration>,

    #[arg(help = formatcp!("Stop a Gradle invocation (a batch, or one REST iteration) that runs longer \
        than this (default: suite timeout plus {} minutes)", settings::BATCH_MARGIN_MIN))]
    #[arg(long, value_name = "DURATION", env = vars::BATCH_TIMEOUT, value_parser = parse_duration)]
    pub batch_timeout: Option<Duration>,
}

#[derive(Debug, Args)]
pub struct PlanArgs {
    #[command(flatten)]
    pub selection: SelectionArgs,
    #[command(flatten)]
    pub batching: BatchingArgs,
    #[command(flatten)]
    pub run: RunArgs,

    /// Output: text for people, json (the plan JSON of docs/src/reference/json.md), or shell (one POSIX-quoted command a line; a `#` comment before a command only gradle-flaky's init script repeats, which typed by hand runs each test once).
    #[arg(long, value_enum, default_value_t = PlanFormat::Text)]
    pub format: PlanFormat,

    /// Extra arguments passed to every Gradle invocation.
    #[arg(last = true, value_name = "GRADLE ARGS")]
    pub gradle_args: Vec<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum PlanFormat {
    Text,
    Json,
    Shell,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Target {
    /// Run the tests here and print the report.
    Local,
    /// Upload a Buildkite sub-pipeline.
    Buildkite,
    /// Write the GitHub Actions matrix, plan file and step summary.
    Github,
}

#[derive(Debug, Args)]
pub struct PrArgs {
    /// Base ref: default $BUILDKITE_PULL_REQUEST_BASE_BRANCH or $GITHUB_BASE_REF, else origin/main, else main.
    #[arg(long, value_name = "REF", env = vars::BASE)]
    pub base: Option<String>,

    /// Where the tests run (default: github when $GITHUB_ACTIONS is set, buildkite when $BUILDKITE is, else local).
    #[arg(long, value_enum, env = vars::TARGET)]
    pub target: Option<Target>,

    /// The muted-tests file, relative to the project dir.
    #[arg(
        long,
        value_name = "FILE",
        default_value = DEFAULT_MUTED_FILE,
        env = vars::MUTED_FILE
    )]
    pub muted_file: PathBuf,

    #[command(flatten)]
    pub choice: ChoiceArgs,
    #[command(flatten)]
    pub batching: BatchingArgs,
    #[command(flatten)]
    pub report: ReportArgs,
    #[command(flatten)]
    pub agent: AgentArgs,
    #[command(flatten)]
    pub triage: TriageArgs,
    #[command(flatten)]
    pub budget: BudgetArgs,

    #[arg(help = formatcp!("Stop a local Gradle invocation (a batch, or one REST iteration) that runs \
        longer than this (default: suite timeout plus {} minutes)", settings::BATCH_MARGIN_MIN))]
    #[arg(long, value_name = "DURATION", env = vars::BATCH_TIMEOUT, value_parser = parse_duration)]
    pub batch_timeout: Option<Duration>,

    /// Print the pipeline (Buildkite) or the plan file (GitHub) instead of publishing it.
    #[arg(long)]
    pub dry_run: bool,

    #[command(flatten)]
    pub compare: CiCompareArgs,

    #[command(flatten)]
    pub learned: LearnedArgs,

    /// Also read this run ledger (a file, or a folder of *.jsonl; repeatable, or `:`-separated)
    /// with the build's own: a failing test already failing on the base branch is noted as
    /// known flaky there (--target local).
    #[arg(long, value_name = "PATH", env = vars::LEDGER, value_delimiter = ':')]
    pub ledger: Vec<PathBuf>,
}

/// What earlier CI runs learned, where the tests are handed to CI (`pr`,
/// `manual`, `buildkite upload`).
#[derive(Debug, Args, Clone, Default)]
pub struct LearnedArgs {
    /// What earlier CI runs learned: the flakiness-learned/ folder a report step keeps (their
    /// durations and ledger; GitHub's generated workflow restores it from the Actions cache). Its
    /// durations plan the batches' budgets and shards when --durations is not given (also `pr
    /// --target local`'s); a missing folder is no error (the first run has learned nothing yet).
    #[arg(long, value_name = "DIR", env = vars::LEARNED)]
    pub learned: Option<PathBuf>,

    /// Buildkite: the build (its UUID, e.g. the last build of main) whose report step's
    /// flakiness-learned/ to start from: downloaded here with `buildkite-agent artifact download
    /// --build` and read as --learned (default folder flakiness-learned), and handed to this
    /// pipeline's report step, which fetches it too (its "known flaky on" note, and what it keeps
    /// for the next build).
    #[arg(long, value_name = "UUID", env = vars::LEARNED_BUILD)]
    pub learned_build: Option<String>,
}

/// `--compare REF` where the tests are handed to CI (`pr`, `manual`,
/// `buildkite upload`).
#[derive(Debug, Args, Clone, Default)]
pub struct CiCompareArgs {
    /// Also run the selected tests on REF (a branch, tag or commit) and compare each test: fixed,
    /// not shown, same or worse (Fisher's exact test). On Buildkite or GitHub: each batch also
    /// runs in a job that checks out REF (a git worktree of its commit, with this branch's
    /// muted-tests file), and the report step compares; `pr --target local`: as `local --compare`.
    #[arg(long, value_name = "REF", env = vars::COMPARE)]
    pub compare: Option<String>,
}

#[derive(Debug, Args)]
pub struct ManualArgs {
    #[command(flatten)]
    pub choice: ChoiceArgs,
    #[command(flatten)]
    pub batching: BatchingArgs,
    #[command(flatten)]
    pub agent: AgentArgs,
    #[command(flatten)]
    pub triage: TriageArgs,
    #[command(flatten)]
    pub compare: CiCompareArgs,
    #[command(flatten)]
    pub budget: BudgetArgs,
    #[command(flatten)]
    pub learned: LearnedArgs,

    /// The CI to hand the tests to: buildkite or github (default: github when $GITHUB_ACTIONS is set, else buildkite).
    #[arg(long, value_enum, env = vars::TARGET)]
    pub target: Option<Target>,

    /// Print the pipeline (Buildkite) or the plan file (GitHub) instead of publishing it.
    #[arg(long)]
    pub dry_run: bool,
}

/// How batch steps run on Buildkite agents.
#[derive(Debug, Args, Clone, Default)]
pub struct AgentArgs {
    /// Agent selector for batch steps, as KEY=VALUE (repeatable or comma-separated).
    #[arg(
        long = "agent",
        value_name = "KEY=VALUE",
        env = vars::AGENTS,
        value_delimiter = ','
    )]
    pub agents: Vec<String>,

    /// Step timeout of each batch step, in minutes.
    #[arg(
        long,
        value_name = "MINUTES",
        default_value_t = 60,
        env = vars::STEP_TIMEOUT
    )]
    pub step_timeout: u32,

    /// How agents run gradle-flaky itself (a path or command on the agent).
    #[arg(
        long,
        value_name = "CMD",
        default_value = "gradle-flaky",
        env = vars::AGENT_BIN
    )]
    pub agent_bin: String,

    /// Group name of the uploaded steps.
    #[arg(
        long,
        value_name = "NAME",
        default_value = "flakiness-detection",
        env = vars::GROUP
    )]
    pub group: String,

    #[command(flatten)]
    pub blocking: BlockingArgs,
}

/// Opt-in blocking (Elasticsearch's): on a pull request carrying one of the
/// labels, proven flakiness fails the report step with the exit code.
#[derive(Debug, Args, Clone, Default)]
pub struct BlockingArgs {
    /// Pull-request labels that opt in to blocking (comma-separated, exact and case-sensitive): on a PR carrying one, proven flakiness fails the report step; default: never block.
    #[arg(long, value_name = "LABELS", env = vars::BLOCKING_LABELS)]
    pub blocking_labels: Option<String>,

    /// The exit code of a blocked report step: 3 to 125, not 124 (required with --blocking-labels).
    #[arg(long, value_name = "CODE", env = vars::PROVEN_EXIT_CODE)]
    pub proven_exit_code: Option<String>,
}

#[derive(Debug, Args)]
pub struct AnalyzeArgs {
    /// Root to search for JUnit XML (*/build/test-results/*/TEST-*.xml and flakiness-iters/).
    #[arg(value_name = "DIR", default_value = ".")]
    pub dir: PathBuf,

    /// Skip reports older than TIME (RFC 3339 or seconds since the epoch) or than FILE's mtime.
    #[arg(long, value_name = "TIME|FILE")]
    pub since: Option<String>,

    #[command(flatten)]
    pub report: ReportArgs,
}

#[derive(Debug, Subcommand)]
pub enum BuildkiteCommand {
    /// Upload the sub-pipeline for a selection (pipe to `buildkite-agent pipeline upload`).
    #[command(after_help = "Examples:\n  \
        gradle-flaky buildkite upload --dry-run org.example.FooTests\n  \
        gradle-flaky buildkite upload --changed --unmuted --agent queue=flaky\n\n\
        Environment read: BUILDKITE_PULL_REQUEST_BASE_BRANCH (default base ref), and the \
        FLAKINESS_* variables shown with each option.")]
    Upload(Box<BuildkiteUploadArgs>),
    /// Run a batch (through the repetition engine) or a command, record how it ended in a status file, always exit 0.
    #[command(after_help = "Examples:\n  \
        gradle-flaky buildkite wrap --kind unit --timeout 58m -- ./gradlew :server:test\n  \
        gradle-flaky buildkite wrap --from-env   # the batch of $BUILDKITE_PARALLEL_JOB\n\n\
        Environment read: BUILDKITE_JOB_ID, BUILDKITE_STEP_KEY, BUILDKITE_LABEL, \
        BUILDKITE_PARALLEL_JOB, FLAKINESS_BATCH_<n> (with --from-env).\n\n\
        With --from-env the batch runs through the repetition engine, as `local` runs a batch \
        (chunks, stop on proof, a budget within --timeout, the first-run fallback and the switch \
        to Gradle runs, REST runs looped here), its reports kept below the build as \
        flakiness-iters/iter-<i>/. The status file (written when --kind is given or with \
        --from-env) holds jobId, stepKey, kind, rc, durationSec, infraSubtype (oom when a test \
        JVM wrote */build/heapdump/*.hprof during the run), timeoutSec, cancelled, parallelJob, \
        and with --from-env engine (iterations planned and run, invocations, tests proven early \
        and what that saved, classes switched, a budget stop).\n\
        Exit status: 2 for a usage error, otherwise always 0.")]
    Wrap(WrapArgs),
    /// The final step: derive each job's outcome, upload flakiness-outcomes.json, annotate.
    #[command(after_help = "Example:\n  \
        gradle-flaky buildkite analyze   # in the uploaded `flakiness report` step\n\n\
        Environment read: FLAKINESS_REPORT_CONTEXT (expected jobs, set by the upload), \
        FLAKINESS_LEARNED_BUILD (set by the upload from --learned-build), BUILDKITE_JOB_ID.\n\
        Keeps what the run learned in flakiness-learned/ (durations over earlier runs', the \
        ledger grown), an artifact of the step, for the next build's --learned-build.")]
    Analyze(BuildkiteAnalyzeArgs),
    /// The triage step (with --triage / FLAKINESS_TRIAGE): replay the failing tests, annotate.
    #[command(after_help = "Example:\n  \
        gradle-flaky buildkite triage   # in the uploaded `flakiness triage` step\n\n\
        Environment read: FLAKINESS_TRIAGE_SPEC (replays, budget, time limit, build dir; set by \
        the upload), FLAKINESS_REPORT_CONTEXT, BUILDKITE_JOB_ID.\n\
        Writes flakiness-triage.json and posts the annotation `flakiness-triage`.")]
    Triage(BuildkiteTriageArgs),
}

#[derive(Debug, Args)]
pub struct BuildkiteUploadArgs {
    #[command(flatten)]
    pub selection: SelectionArgs,
    #[command(flatten)]
    pub batching: BatchingArgs,
    #[command(flatten)]
    pub agent: AgentArgs,
    #[command(flatten)]
    pub triage: TriageArgs,
    #[command(flatten)]
    pub compare: CiCompareArgs,
    #[command(flatten)]
    pub budget: BudgetArgs,
    #[command(flatten)]
    pub learned: LearnedArgs,

    /// Print the pipeline JSON instead of uploading it.
    #[arg(long)]
    pub dry_run: bool,
}

#[derive(Debug, Args)]
pub struct WrapArgs {
    /// Where status-<jobId>.json is written.
    #[arg(long, value_name = "DIR", default_value = "flakiness-status")]
    pub status_dir: PathBuf,

    /// The batch's kind, recorded in the status file.
    #[arg(long, value_name = "KIND", default_value = "")]
    pub kind: String,

    /// Stop the command after DURATION (every process it started: SIGTERM, then SIGKILL); rc 124.
    #[arg(long, value_name = "DURATION", env = vars::WRAP_TIMEOUT, value_parser = parse_duration)]
    pub timeout: Option<Duration>,

    /// Run the batch in $FLAKINESS_BATCH_<n> (its typed batch as JSON; n = $BUILDKITE_PARALLEL_JOB, default 0), as an uploaded pipeline does.
    #[arg(long, conflicts_with_all = ["command", "kind"])]
    pub from_env: bool,

    /// Exit with the command's rc when it is CODE (the report step's opt-in blocking), else 0 as always.
    #[arg(long, value_name = "CODE", conflicts_with = "from_env")]
    pub pass_exit_code: Option<String>,

    /// The command to run.
    #[arg(last = true, required_unless_present = "from_env", value_name = "CMD")]
    pub command: Vec<String>,
}

#[derive(Debug, Args)]
pub struct BuildkiteAnalyzeArgs {
    /// Where downloaded status files and per-job XML are kept.
    #[arg(long, value_name = "DIR", default_value = ".")]
    pub work_dir: PathBuf,

    /// Earlier run ledgers (files, or folders of *.jsonl such as downloaded flakiness-ledger
    /// artifacts; repeatable, or `:`-separated): a failing test already failing on the pull
    /// request's base branch is noted as known flaky there.
    #[arg(long, value_name = "PATH", env = vars::LEDGER, value_delimiter = ':')]
    pub ledger: Vec<PathBuf>,

    /// The build (its UUID) whose flakiness-learned/ to start from, fetched with `buildkite-agent
    /// artifact download --build` (the upload sets it from --learned-build): its ledger is read as
    /// --ledger, and this run's durations and counts are kept over it in flakiness-learned/, an
    /// artifact of this step, for the next build.
    #[arg(long, value_name = "UUID", env = vars::LEARNED_BUILD)]
    pub learned_build: Option<String>,

    #[command(flatten)]
    pub blocking: BlockingArgs,
}

#[derive(Debug, Subcommand)]
pub enum GithubCommand {
    /// Print a GitHub Actions workflow that runs the flakiness check (plan, a matrix of batches, the report).
    #[command(after_help = "Examples:\n  \
        gradle-flaky github workflow > .github/workflows/flakiness.yml\n  \
        gradle-flaky github workflow --on pull-request,manual --unit-iters 50 --java 21\n\n\
        Jobs: `plan` (whole history for the merge base, a JDK, the build's Gradle, gradle-flaky; \
        `gradle-flaky pr|manual --target github`), `run` (one job per batch, fail-fast off, never \
        failing; `gradle-flaky github run`), `analyze` (if: always(); `gradle-flaky github analyze`). \
        The batching options become FLAKINESS_* variables of the plan step; --gradle and \
        --project-dir become FLAKINESS_GRADLE and FLAKINESS_PROJECT_DIR of every job.")]
    Workflow(Box<WorkflowArgs>),
    /// Run one batch of the plan (a matrix job): record rc, duration and heap dumps, keep its XML, always exit 0.
    #[command(after_help = "Example:\n  \
        gradle-flaky github run --batch 3 --timeout 58m\n\n\
        Reads the batch from the plan file (written by `pr --target github`), runs it like \
        `buildkite wrap` (through the repetition engine, as `local` runs a batch: chunks, stop on \
        proof, a budget within the timeout, the fallback and the switch to Gradle runs; stdin \
        from /dev/null, every process it started stopped at the timeout or on SIGTERM), then \
        leaves in --out, for upload: flakiness-status/status-batch-<N>.json (jobId, stepKey, \
        kind, rc, durationSec, infraSubtype, timeoutSec, cancelled, parallelJob, engine: what \
        the engine did) and the JUnit XML this run wrote, at its path below the build. A \
        non-zero rc also gets a ::warning annotation.\n\
        Exit status: 2 when the plan or batch cannot be read, otherwise always 0.")]
    Run(GithubRunArgs),
    /// The report job: each batch's outcome, the report in the job summary, annotations, flakiness-outcomes.json.
    #[command(after_help = "Example:\n  \
        gradle-flaky github analyze flakiness-artifacts --exit-code\n\n\
        DIR holds the downloaded artifacts, one folder each: the plan's (flakiness-plan.json) and \
        each batch's (its status file and XML). Writes the report to $GITHUB_STEP_SUMMARY (cut to \
        GitHub's 1 MiB), prints it to the log with workflow commands switched off, emits one \
        ::error annotation per failing test (::warning for suite timeouts and heap exhaustion; at \
        most 10 of each, on the test's source file and line when the checkout has it), and writes \
        the outcomes JSON.\n\
        Exit status: 0, or with --exit-code the report's: 1 a real test failure, 3 a batch \
        without a trustworthy result (timeout, hang, infrastructure failure, no status file) or \
        nothing executed; 2 when DIR or the plan cannot be read.")]
    Analyze(GithubAnalyzeArgs),
}

/// What starts the generated workflow.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Trigger {
    /// `pull_request`: the branch's changed tests and unmutes (`gradle-flaky pr`).
    PullRequest,
    /// `workflow_dispatch` with a `classes` input (`gradle-flaky manual`), like the manual Buildkite pipeline.
    Manual,
}

#[derive(Debug, Args)]
pub struct WorkflowArgs {
    /// What starts the workflow (repeatable or comma-separated).
    #[arg(
        long = "on",
        value_name = "TRIGGER",
        value_enum,
        value_delimiter = ',',
        default_value = "pull-request"
    )]
    pub triggers: Vec<Trigger>,

    #[command(flatten)]
    pub batching: BatchingArgs,

    /// The muted-tests file, relative to the project dir.
    #[arg(
        long,
        value_name = "FILE",
        default_value = DEFAULT_MUTED_FILE,
        env = vars::MUTED_FILE
    )]
    pub muted_file: PathBuf,

    /// The runner label of every job.
    #[arg(long, value_name = "LABEL", default_value = "ubuntu-latest")]
    pub runs_on: String,

    /// The JDK version actions/setup-java installs.
    #[arg(long, value_name = "VERSION", default_value = "17")]
    pub java: String,

    /// The JDK distribution actions/setup-java installs.
    #[arg(long, value_name = "NAME", default_value = "temurin")]
    pub java_distribution: String,

    /// A Gradle version for setup-gradle to install, for a build without a wrapper (default: the build's ./gradlew).
    #[arg(long, value_name = "VERSION")]
    pub gradle_version: Option<String>,

    /// Minutes of each batch job; the batch itself is stopped 2 minutes earlier.
    #[arg(long, value_name = "MINUTES", default_value_t = 60)]
    pub job_timeout: u32,

    /// Shell command that puts gradle-flaky on PATH (default: `cargo install --locked gradle-flaky --version <this version>`, cached).
    #[arg(long, value_name = "CMD")]
    pub install: Option<String>,

    /// Fail the report job with the report's exit code (1 a selected test failed, 3 no trustworthy result) on every pull request; default: report, don't block. With --blocking-labels: only labelled pull requests, only proven flakiness.
    #[arg(long)]
    pub exit_code: bool,

    #[command(flatten)]
    pub blocking: BlockingArgs,

    /// Earlier run ledgers in the checkout (a file or a folder of *.jsonl, e.g. kept in the
    /// repository; `:`-separated) the report job reads: a failing test already failing on the
    /// base branch is noted as known flaky there. Every run's own is the flakiness-ledger artifact.
    #[arg(long, value_name = "PATH")]
    pub ledger: Option<String>,

    /// Also run each batch of a pull request on REF (as the plan job's checkout names it, e.g.
    /// origin/main) in jobs of their own, and compare each test in the report job (fixed, not
    /// shown, same or worse); the report job keeps flakiness-comparison.json.
    #[arg(long, value_name = "REF")]
    pub compare: Option<String>,
}

#[derive(Debug, Args)]
pub struct GithubRunArgs {
    /// The batch to run: the matrix entry's `batch`, an index into the plan.
    #[arg(long, value_name = "N")]
    pub batch: usize,

    /// The plan written by `pr --target github` or `manual --target github`.
    #[arg(long, value_name = "FILE", default_value = crate::reports::PLAN_FILE)]
    pub plan: PathBuf,

    /// Where the status file and the batch's JUnit XML are put (must be empty), to upload.
    #[arg(long, value_name = "DIR", default_value = crate::reports::BATCH_DIR)]
    pub out: PathBuf,

    /// Stop the batch after DURATION (every process it started: SIGTERM, then SIGKILL); rc 124.
    #[arg(long, value_name = "DURATION", value_parser = parse_duration)]
    pub timeout: Option<Duration>,
}

#[derive(Debug, Args)]
pub struct GithubAnalyzeArgs {
    /// The downloaded artifacts, one folder each (the plan's and every batch's).
    #[arg(value_name = "DIR", default_value = crate::reports::ARTIFACTS_DIR)]
    pub dir: PathBuf,

    /// Where the outcomes JSON (one payload per batch job) is written.
    #[arg(long, value_name = "FILE", default_value = crate::reports::OUTCOMES_FILE)]
    pub outcomes: PathBuf,

    /// The checkout, where failing tests' sources are found for annotations.
    #[arg(
        long,
        value_name = "DIR",
        env = "GITHUB_WORKSPACE",
        default_value = "."
    )]
    pub sources: PathBuf,

    /// Exit with the report's exit code (1 a selected test failed, 3 no trustworthy result) instead of 0. With --blocking-labels: only on a labelled pull request, only for proven flakiness.
    #[arg(long)]
    pub exit_code: bool,

    #[command(flatten)]
    pub blocking: BlockingArgs,

    /// Earlier run ledgers (files, or folders of *.jsonl such as downloaded flakiness-ledger
    /// artifacts or a file kept in the repository; repeatable, or `:`-separated): a failing
    /// test already failing on the pull request's base branch is noted as known flaky there.
    #[arg(long, value_name = "PATH", env = vars::LEDGER, value_delimiter = ':')]
    pub ledger: Vec<PathBuf>,
}

#[derive(Debug, Args)]
pub struct BuildkiteTriageArgs {
    /// Where downloaded status files, per-job XML and the replays are kept.
    #[arg(long, value_name = "DIR", default_value = ".")]
    pub work_dir: PathBuf,
}

#[derive(Debug, Args)]
pub struct TriageCommandArgs {
    /// A finished run: a run folder of `local` (default: the newest, under
    /// <project dir>/.gradle/gradle-flaky/runs/), or any folder of JUnit XML such as downloaded
    /// Buildkite artifacts (reports below <project>/build/test-results/<task>/).
    #[arg(value_name = "RUN_DIR")]
    pub run_dir: Option<PathBuf>,

    /// Replays of each failing seed (or of a test without seeds, alone).
    #[arg(long, value_name = "N", default_value_t = TriageConfig::DEFAULT_REPLAYS, value_parser = clap::value_parser!(u32).range(1..))]
    pub replays: u32,

    #[command(flatten)]
    pub budget: TriageBudgetArgs,

    #[command(flatten)]
    pub report: ReportArgs,

    /// Extra arguments passed to every Gradle invocation.
    #[arg(last = true, value_name = "GRADLE ARGS")]
    pub gradle_args: Vec<String>,
}

#[derive(Debug, Args)]
pub struct HistoryArgs {
    /// Tests to show: `FQCN` (its methods and nested classes) or `FQCN#method`, separated by
    /// spaces, commas or newlines [default: every test in the ledgers].
    #[arg(value_name = "TEST")]
    pub tests: Vec<String>,

    /// Also read this ledger: a file, or a folder whose *.jsonl files are read at any depth (a
    /// downloaded CI artifact, a file kept in the repository). Repeatable.
    #[arg(long, value_name = "PATH")]
    pub ledger: Vec<PathBuf>,

    /// Output format on stdout (html: one self-contained page).
    #[arg(long, value_enum, default_value_t = LedgerFormat::Markdown)]
    pub format: LedgerFormat,
}

/// How `history` and `suspects` print.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, Default)]
pub enum LedgerFormat {
    #[default]
    Markdown,
    Json,
    /// One self-contained page (no script; nothing fetched): charts of the rate by commit.
    Html,
}

#[derive(Debug, Args)]
pub struct RecordArgs {
    /// Folders holding the build's JUnit XML [default: the project dir].
    #[arg(value_name = "DIR")]
    pub dirs: Vec<PathBuf>,

    /// The commit the build ran [default: $BUILDKITE_COMMIT, $GITHUB_SHA, else the checkout's HEAD].
    #[arg(long, value_name = "SHA")]
    pub commit: Option<String>,

    /// The branch the build ran [default: $BUILDKITE_BRANCH, $GITHUB_HEAD_REF or
    /// $GITHUB_REF_NAME, else the checkout's].
    #[arg(long, value_name = "NAME")]
    pub branch: Option<String>,

    /// The build's id, the key that records it once [default: Buildkite's job, GitHub's run, attempt and job with the reports' digest, else the reports' digest].
    #[arg(long, value_name = "ID")]
    pub run_id: Option<String>,

    /// Where to append: a ledger folder (rotated as the build's own) or a .jsonl file [default:
    /// flakiness-ledger.jsonl in the project dir on Buildkite or GitHub Actions, else the
    /// build's own ledger, <project dir>/.gradle/gradle-flaky/ledger/].
    #[arg(long, value_name = "PATH")]
    pub ledger: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct SuspectsArgs {
    /// Also read this ledger: a file, or a folder whose *.jsonl files are read at any depth (a
    /// downloaded CI artifact, a file kept in the repository). Repeatable.
    #[arg(long, value_name = "PATH")]
    pub ledger: Vec<PathBuf>,

    /// Only the runs of this branch.
    #[arg(long, value_name = "NAME")]
    pub branch: Option<String>,

    /// Only the runs since TIME (RFC 3339), or for the last DURATION (30d, 2weeks).
    #[arg(long, value_name = "TIME|DURATION")]
    pub since: Option<String>,

    /// Output format on stdout (html: one self-contained page with each suspect's history).
    #[arg(long, value_enum, default_value_t = LedgerFormat::Markdown)]
    pub format: LedgerFormat,
}

#[derive(Debug, Args)]
pub struct RepeatArgs {
    /// How many times to run the command.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub times: u32,

    /// Stop an iteration that runs longer than this (its build and test JVMs, never your daemon), and end the loop.
    #[arg(long, value_name = "DURATION", value_parser = parse_duration)]
    pub timeout: Option<Duration>,

    /// Write each iteration's task outcomes to DIR/iter-<i>.json (a Buildkite batch reads them).
    #[arg(long, value_name = "DIR", hide = true)]
    pub task_outcomes: Option<PathBuf>,

    /// Gradle program and arguments.
    #[arg(last = true, required = true, value_name = "GRADLE ARGS")]
    pub command: Vec<String>,
}

#[derive(Debug, Args)]
pub struct LayoutArgs {
    /// Ask Gradle again instead of using the cache.
    #[arg(long)]
    pub refresh: bool,
}

#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell to generate completions for.
    #[arg(value_enum)]
    pub shell: Shell,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Shell {
    Bash,
    Zsh,
    Fish,
    Powershell,
    Elvish,
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn cli_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn a_blank_triage_variable_is_off() {
        assert_eq!(parse_replays(" "), Ok(0));
        assert_eq!(parse_replays("5"), Ok(5));
        assert!(parse_replays("-1")
            .unwrap_err()
            .contains("not a number of replays"));
    }
}
