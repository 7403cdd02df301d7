//! Planning: dedupe, collapse YAML suites, one YAML runner per task, batch by
//! kind, build each batch's Gradle argv. A pure function of the selected tests,
//! the batching knobs and what we know of the build's Gradle.

mod batch;
pub(crate) mod budget;
mod gradle_version;
pub(crate) mod policy;
pub(crate) mod proof;
mod reduce;
pub mod render;
pub(crate) mod replan;
pub(crate) mod sample;
pub(crate) mod shard;
pub(crate) mod show_fix;
pub(crate) mod strategy;
pub(crate) mod suite_route;
pub(crate) mod switch;

pub use crate::invocation::Forcing;
pub use batch::{commands, narrowed, PlanContext};
pub use gradle_version::GradleVersion;
pub use proof::{Evidence, Proof};
pub use reduce::{describe, reduce, target, Reduced};

use crate::domain::{BatchingConfig, ClassifiedTest, GradleCommand, Origin, TestKind};
use crate::durations::Durations;
use crate::invocation::InJvm;
use crate::settings::{ContextMode, RunSettings};
use policy::Policy;
use std::time::Duration;

/// What will run: the reduced tests, notes about how they were reduced and
/// forced, and one command per batch (with the policy it runs by, in a run).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Plan {
    pub tests: Vec<ClassifiedTest>,
    pub notes: Vec<String>,
    pub commands: Vec<GradleCommand>,
    /// How each command runs (`for_run`'s plans; empty otherwise).
    pub policies: Vec<Policy>,
    /// Where the durations came from, when some were known (`shard::apply`).
    pub durations_source: Option<String>,
    /// The budget of one job the batches were fitted to.
    pub budget: Option<std::time::Duration>,
}

/// Plans the runs of `tests`.
pub fn plan(tests: &[ClassifiedTest], cfg: &BatchingConfig, ctx: &PlanContext) -> Plan {
    let Reduced {
        mut tests,
        mut notes,
    } = reduce(tests);
    suite_route::choose_all(&mut tests, ctx.gradle_version);
    let commands = batch::commands(&tests, cfg, ctx);
    if !commands.is_empty() {
        notes.push(forcing_note(ctx));
    }
    notes.extend(whole_method_notes(&tests));
    notes.extend(tests.iter().filter_map(muted_note));
    // A member the JUnit 4 runner repeats by name takes no route through its suite.
    let routed: Vec<ClassifiedTest> = tests
        .iter()
        .filter(|t| ctx.test_choice(t, cfg.repetition).in_jvm != Some(InJvm::Junit4Runner))
        .cloned()
        .collect();
    notes.extend(suite_route::notes(&routed));
    notes.extend(unused_cap_notes(&tests, cfg));
    notes.extend(not_honoured_notes(&commands));
    // Why a class `auto` would repeat in the JVM starts on Gradle runs.
    notes.extend(
        commands
            .iter()
            .flat_map(|c| c.in_jvm_cost.values().cloned()),
    );
    Plan {
        tests,
        notes,
        commands,
        ..Plan::default()
    }
}

/// Plans `tests` as a run with `settings` runs them, in jobs limited to
/// `job_limit` (`local`'s batch limit, a CI job's timeout; `None`: unknown,
/// so only a budget of its own splits a batch): the batches that
/// the durations say cannot fit the budget such a job allows are split into
/// shards (never an open-ended one), and each command gets the policy the
/// repetition engine runs it by.
pub fn for_run(
    tests: &[ClassifiedTest],
    settings: &RunSettings,
    job_limit: Option<Duration>,
    ctx: &PlanContext,
    durations: &Durations,
) -> Plan {
    let mut plan = plan(tests, &settings.batching, ctx);
    if !settings.context.alone() {
        plan.commands.clear();
    }
    let mut whole = Vec::new();
    if settings.context.task() {
        let runs = |kind: &TestKind| batch::gradle_runs(kind, &settings.batching);
        whole = batch::task_commands(&plan.tests, runs, ctx);
        if !plan.commands.is_empty() || !whole.is_empty() {
            plan.notes.push(context_note(settings.context));
        }
    } else if settings.unmute_check > 0 {
        whole = unmute_checks(&plan.tests, settings, ctx);
        plan.notes.extend(whole.iter().map(unmute_check_note));
    }
    plan.notes.extend(whole.iter().filter_map(mutes_kept_note));
    let budget = settings.mode.batch_budget(job_limit);
    for command in &mut whole {
        let note = sample::apply(command, ctx, durations, budget, settings.sample_seed);
        plan.notes.extend(note);
    }
    plan.commands.extend(whole);
    shard::apply(
        &mut plan,
        &shard::Timing {
            durations,
            budget: settings.mode.shard_budget(job_limit),
            max_shards: settings.batching.max_shards,
        },
    );
    // The budget the plan names is the one the user set; a job's own limit
    // shows where it splits or chunks a batch.
    plan.budget = settings.mode.explicit_budget();
    plan.policies = plan
        .commands
        .iter()
        .map(|c| Policy::of(settings, c, durations, job_limit))
        .collect();
    plan
}

/// A test as a report names it: `Class`, `Class#method` (as planned), a
/// YAML suite by its path, else its task.
pub fn test_name(t: &ClassifiedTest) -> String {
    target(t).unwrap_or_else(|| t.task.clone())
}

/// The argv that loops `argv` `times` times through `gradle-flaky repeat`
/// (`program` runs gradle-flaky, `options` are more options of `repeat`),
/// keeping every iteration's reports.
pub fn repeat_argv(program: &str, times: u32, options: &[String], argv: &[String]) -> Vec<String> {
    [program, "repeat", "--times", &times.to_string()]
        .iter()
        .map(|s| s.to_string())
        .chain(options.iter().cloned())
        .chain(["--".to_string()])
        .chain(argv.iter().cloned())
        .collect()
}

/// Groups items by key; groups, and items within them, keep the order of
/// first appearance (the order of Elasticsearch's JS `Map`).
pub fn group_in_order<K: PartialEq, T>(
    items: impl IntoIterator<Item = T>,
    key: impl Fn(&T) -> K,
) -> Vec<(K, Vec<T>)> {
    let mut groups: Vec<(K, Vec<T>)> = Vec::new();
    for item in items {
        let k = key(&item);
        match groups.iter_mut().find(|(g, _)| *g == k) {
            Some((_, group)) => group.push(item),
            None => groups.push((k, vec![item])),
        }
    }
    groups
}

/// The unmute gate: the whole-task runs (`--unmute-check`, each a fresh
/// test JVM) behind the unmuted tests that the usual batches repeat in one
/// JVM, whose clean verdict bounds only repeats in a warm JVM.
fn unmute_checks(
    tests: &[ClassifiedTest],
    settings: &RunSettings,
    ctx: &PlanContext,
) -> Vec<GradleCommand> {
    let in_jvm: Vec<ClassifiedTest> = tests
        .iter()
        .filter(|t| t.origin == Origin::Unmuted)
        .filter(|t| {
            ctx.test_choice(t, settings.batching.repetition)
                .in_jvm
                .is_some()
        })
        .cloned()
        .collect();
    let mut checks = batch::task_commands(&in_jvm, |_| settings.unmute_check, ctx);
    for c in &mut checks {
        c.label = format!("{} (unmute check)", c.label);
        c.key = format!("{}-unmute", c.key);
        if let Some(w) = c.whole_task.as_mut() {
            w.unmute_check = true;
        }
    }
    checks
}

fn unmute_check_note(c: &GradleCommand) -> String {
    let tests: Vec<String> = c.tests.iter().map(test_name).collect();
    format!(
        "unmute check: {} repeated in one JVM alone, so {} fresh-JVM run(s) of the whole task \
         `{}` back it, as CI runs it (--unmute-check)",
        tests.join(", "),
        c.rest_loops(),
        c.task_paths().join(" ")
    )
}

/// What `--context` adds, said when it is not `alone`.
fn context_note(context: ContextMode) -> String {
    let what = "each selected test's whole test task runs as CI runs it (every class, no \
                `--tests` filter, the build's own test JVMs), once per Gradle run";
    match context {
        ContextMode::Both => format!(
            "--context both: the selected tests run alone, and {what}, so that the two can be \
             compared"
        ),
        _ => format!("--context task: {what}; the selected tests do not run alone"),
    }
}

fn forcing_note(ctx: &PlanContext) -> String {
    match (ctx.gradle_version, ctx.forcing()) {
        (Some(v), Forcing::Rerun) => {
            format!("Gradle {v} re-runs up-to-date test tasks with `--rerun` after each task")
        }
        (Some(v), Forcing::CleanTask) => format!(
            "Gradle {v} has no `--rerun` (7.6+): each test task is preceded by its \
             `clean<Task>` task so it always runs"
        ),
        (None, _) => "the build's Gradle version is unknown: each test task is preceded by its \
                      `clean<Task>` task, which forces it to run on every Gradle version"
            .to_string(),
    }
}

/// A TestNG data-provider row cannot be selected on its own: its method runs.
fn whole_method_notes(tests: &[ClassifiedTest]) -> Vec<String> {
    tests
        .iter()
        .filter_map(|t| {
            let method = t.method.as_deref()?;
            crate::test_filter::selects_more_than_named(method).then(|| {
                format!(
                    "`{}.{method}` is one TestNG data-provider row, which Gradle cannot select \
                     on its own: every row of `{}` runs",
                    t.class.as_deref().unwrap_or_default(),
                    crate::test_filter::base(method)
                )
            })
        })
        .collect()
}

/// A test the current muted-tests file mutes in its task runs with the
/// build's mutes off, in batches of its own.
fn muted_note(t: &ClassifiedTest) -> Option<String> {
    let mute = t.muted()?;
    let issue = mute
        .issue
        .as_deref()
        .map_or(String::new(), |i| format!(" ({i})"));
    Some(format!(
        "`{}` is muted in `{}`{issue}: it runs with Elasticsearch's mutes off \
         (`-Dtests.mutes.enabled=false`), in a batch of its own",
        test_name(t),
        mute.task
    ))
}

/// Whole-task runs keep the build's mutes (off, they would run every muted
/// test of the task): the muted selected tests do not run in them.
fn mutes_kept_note(c: &GradleCommand) -> Option<String> {
    let muted: Vec<String> = c
        .tests
        .iter()
        .filter(|t| t.muted().is_some())
        .map(|t| format!("`{}`", test_name(t)))
        .collect();
    (!muted.is_empty()).then(|| {
        format!(
            "the whole-task runs of {} keep the build's mutes: the muted {} do(es) not run in \
             them",
            suite_route::quoted(&c.task_paths()),
            muted.join(", ")
        )
    })
}

/// A `--cap` for a custom kind no selected test has is most likely a typo.
/// One note per batch that does not do what the user asked, with the reason.
fn not_honoured_notes(commands: &[GradleCommand]) -> Vec<String> {
    commands
        .iter()
        .enumerate()
        .filter_map(|(i, c)| {
            let why = c.not_honoured.as_ref()?;
            Some(format!("batch {} ({}): {why}", i + 1, c.label))
        })
        .collect()
}

fn unused_cap_notes(tests: &[ClassifiedTest], cfg: &BatchingConfig) -> Vec<String> {
    cfg.caps
        .keys()
        .filter(|k| matches!(k, TestKind::Other(_)))
        .filter(|k| !tests.iter().any(|t| &t.kind == *k))
        .map(|k| format!("`--cap {k}=...` names a kind no selected test has"))
        .collect()
}

#[cfg(test)]
mod tests {
    //! Elasticsearch's command checklist is in tests/integration/plan/checklist.rs.
    use super::reduce::tests::{suite, test, unit};
    use super::*;

    fn ctx(version: Option<&str>) -> PlanContext {
        PlanContext {
            gradle: vec!["gradle".into()],
            gradle_version: version.and_then(GradleVersion::parse),
            extra_args: vec![],
            tasks: Default::default(),
            start_on_gradle_runs: Default::default(),
            fresh_jvm_each: Default::default(),
            commit: None,
        }
    }

    /// `auto` starts a class remembered dearer in one JVM on this commit on
    /// Gradle runs and says why; the other class stays in the JVM, and an
    /// explicit `in-jvm` (or another commit) weighs the class anew.
    #[test]
    fn a_class_remembered_dearer_in_the_jvm_starts_on_gradle_runs_under_auto() {
        use crate::domain::RepetitionMode;
        use crate::durations::{DearerInJvm, Table};
        let mut table = Table::default();
        let dearer = DearerInJvm {
            per_iteration: 3.4,
            last: None,
            fresh_run: 1.5,
            commit: Some("abc".into()),
        };
        table.dearer_in_jvm.insert("a.Grows".into(), dearer);
        let mut c = ctx(Some("8.10.2"));
        c.remember(&table, Some("def"));
        assert!(
            c.start_on_gradle_runs.is_empty(),
            "another commit weighs it anew"
        );
        c.remember(&table, Some("abc"));
        let tests = [unit("a.Grows"), unit("a.Cheap")];
        let planned = |repetition| {
            let cfg = BatchingConfig {
                repetition,
                ..BatchingConfig::default()
            };
            plan(&tests, &cfg, &c).commands
        };
        let auto = planned(RepetitionMode::Auto);
        assert_eq!(auto.len(), 2);
        let (runs, jvm) = match auto[0].in_jvm() {
            Some(_) => (&auto[1], &auto[0]),
            None => (&auto[0], &auto[1]),
        };
        assert_eq!(runs.tests, [unit("a.Grows")]);
        assert_eq!(jvm.tests, [unit("a.Cheap")]);
        let why = "in-JVM iterations of a.Grows took 3.4s each against 1.5s for a fresh run when \
                   last measured on this commit: it starts on Gradle runs";
        assert_eq!(runs.repetition_reason, why);
        assert_eq!(
            runs.in_jvm_cost.get("a.Grows").map(String::as_str),
            Some(why)
        );
        assert!(jvm.in_jvm_cost.is_empty());
        let notes = plan(&tests, &BatchingConfig::default(), &c).notes;
        assert!(notes.iter().any(|n| n == why), "{notes:?}");
        let asked = planned(RepetitionMode::InJvm);
        assert_eq!(asked.len(), 1);
        assert!(asked[0].in_jvm().is_some() && asked[0].in_jvm_cost.is_empty());
    }

    /// `auto` runs each execution of a class that accumulated state in one
    /// JVM by itself on this commit in a fresh JVM of its own, in one Gradle
    /// invocation, so that its verdict rests on fresh JVMs; another commit
    /// samples a few JVMs again.
    #[test]
    fn a_class_remembered_accumulating_state_takes_a_fresh_jvm_per_execution() {
        use crate::domain::RepetitionMode;
        use crate::durations::{Accumulates, Table};
        use crate::invocation::{FreshJvms, Repeat};
        let mut table = Table::default();
        let a = Accumulates {
            evidence: crate::analyze::model::report::DriftEvidence::Threads,
            commit: Some("abc".into()),
        };
        table.state_accumulates.insert("a.Leaky".into(), a);
        let mut c = ctx(Some("8.10.2"));
        c.remember(&table, Some("def"));
        assert!(
            c.fresh_jvm_each.is_empty(),
            "another commit tries the JVM again"
        );
        c.remember(&table, Some("abc"));
        let tests = [unit("a.Leaky"), unit("a.Other")];
        let auto = plan(&tests, &BatchingConfig::default(), &c).commands;
        assert_eq!(auto.len(), 2, "{auto:?}");
        let fresh = |c: &GradleCommand| match c.invocation.repeat {
            Repeat::InJvm { fresh_jvms, .. } => Some(fresh_jvms),
            Repeat::GradleRuns(_) => None,
        };
        assert_eq!(auto[0].tests, [unit("a.Leaky")]);
        assert_eq!(fresh(&auto[0]), Some(FreshJvms::PerExecution));
        assert_eq!(fresh(&auto[1]), Some(FreshJvms::Sampled));
        assert!(
            auto[0]
                .argv()
                .contains(&"-Dflaky.repeat.jvms=100".to_string()),
            "{:?}",
            auto[0].argv()
        );
        assert_eq!(
            auto[0].repetition_reason,
            "a.Leaky accumulated state in one JVM when last run on this commit \
             (state-accumulates, threads): each of its executions runs first in a fresh test JVM, \
             as CI runs it, in one Gradle invocation"
        );
        let asked = BatchingConfig {
            repetition: RepetitionMode::InJvm,
            ..BatchingConfig::default()
        };
        let in_jvm = plan(&tests, &asked, &c).commands;
        assert_eq!(in_jvm.len(), 1, "--repetition in-jvm samples a few JVMs");
        assert_eq!(fresh(&in_jvm[0]), Some(FreshJvms::Sampled));
    }

    /// A test the current muted-tests file mutes runs in a batch of its own
    /// with Elasticsearch's mutes off (typed, rendered once), its Gradle-run
    /// fallback too; a class that covers it does not take it in; the
    /// whole-task runs keep the mutes and say so.
    #[test]
    fn a_muted_test_runs_apart_with_the_mutes_off() {
        use crate::domain::{Mute, MuteState};
        let mut muted = unit("a.FooTests");
        muted.method = Some("testX".into());
        muted.mute = Some(Mute {
            state: MuteState::Muted,
            task: muted.task.clone(),
            issue: Some("https://github.com/elastic/elasticsearch/issues/1".into()),
        });
        let tests = [unit("a.FooTests"), muted.clone(), unit("a.BarTests")];
        let p = plan(&tests, &BatchingConfig::default(), &ctx(Some("8.10.2")));
        assert_eq!(
            p.tests.len(),
            3,
            "the class does not cover its muted method"
        );
        let off = |c: &GradleCommand| c.invocation.tasks().is_some_and(|t| t.mutes_off);
        let (apart, rest): (Vec<_>, Vec<_>) = p.commands.iter().partition(|c| off(c));
        assert_eq!(apart.len(), 1, "{:?}", p.commands);
        assert_eq!(apart[0].tests, [muted.clone()]);
        assert!(apart[0]
            .argv()
            .contains(&"-Dtests.mutes.enabled=false".to_string()));
        assert!(apart[0].fallback.as_deref().is_some_and(off));
        assert_eq!(rest.len(), 1);
        assert_eq!(rest[0].tests, [unit("a.FooTests"), unit("a.BarTests")]);
        assert!(!rest[0].argv().iter().any(|a| a.contains("mutes")));
        assert!(
            p.notes.iter().any(|n| n
                == "`a.FooTests.testX` is muted in `:server:test` \
                    (https://github.com/elastic/elasticsearch/issues/1): it runs with \
                    Elasticsearch's mutes off (`-Dtests.mutes.enabled=false`), in a batch of \
                    its own"),
            "{:?}",
            p.notes
        );
        let settings = in_context(ContextMode::Task, 5);
        let durations = Durations::default();
        let run = for_run(&[muted], &settings, None, &ctx(Some("8.10.2")), &durations);
        assert!(!run.commands.iter().any(off), "{:?}", run.commands);
        assert!(
            run.notes.iter().any(|n| n
                == "the whole-task runs of `:server:test` keep the build's mutes: the muted \
                    `a.FooTests.testX` do(es) not run in them"),
            "{:?}",
            run.notes
        );
    }

    #[test]
    fn the_forcing_mechanism_is_stated() {
        let note = |v| plan(&[unit("A")], &BatchingConfig::default(), &ctx(v)).notes;
        assert_eq!(
            note(Some("8.10.2")),
            ["Gradle 8.10.2 re-runs up-to-date test tasks with `--rerun` after each task"]
        );
        assert!(note(Some("4.4.1"))[0].starts_with("Gradle 4.4.1 has no `--rerun` (7.6+)"));
        assert!(note(None)[0].contains("version is unknown"));
    }

    #[test]
    fn methods_are_targeted_and_extra_args_come_last() {
        let mut t = unit("org.A");
        t.method = Some("testX".into());
        let mut c = ctx(Some("8.10"));
        c.extra_args = vec!["--offline".into(), "-Dfoo=bar".into()];
        let p = plan(&[t.clone()], &BatchingConfig::default(), &c);
        let argv = p.commands[0].argv().join(" ");
        // In the JVM, gradle-flaky's helper loads the class (its script moves
        // the filter into the test JVMs).
        assert!(
            argv.ends_with(
                ":server:test --tests org.A.testX --rerun -Dflaky.repeat.task.:server:test=randomized \
                 -Dflaky.repeat.classes.:server:test=org.A --continue --offline -Dfoo=bar"
            ),
            "{argv}"
        );
        let runs = BatchingConfig {
            repetition: crate::domain::RepetitionMode::GradleRuns,
            ..BatchingConfig::default()
        };
        let argv = plan(&[t], &runs, &c).commands[0].argv().join(" ");
        assert!(
            argv.ends_with(
                ":server:test --tests org.A.testX --tests org.A.testX[*] --rerun --continue \
                 --offline -Dfoo=bar"
            ),
            "{argv}"
        );
    }

    #[test]
    fn tests_keep_the_selection_order_and_commands_the_kind_order() {
        let slow = test(
            ":server:slowTest",
            TestKind::Other("slowTest".into()),
            Some("S"),
        );
        let p = plan(
            &[slow.clone(), suite(":p", "a/b"), unit("U")],
            &BatchingConfig::default(),
            &ctx(None),
        );
        assert_eq!(p.tests, [slow, suite(":p", "a/b"), unit("U")]);
        let kinds: Vec<_> = p.commands.iter().map(|c| c.kind.as_str()).collect();
        assert_eq!(kinds, ["unit", "yamlRestTestSuite", "slowTest"]);
    }

    #[test]
    fn a_suite_without_a_path_runs_its_whole_task() {
        let mut whole = suite(":p", "a/b");
        whole.yaml_suite = None;
        let p = plan(
            &[suite(":p", "a/b"), whole],
            &BatchingConfig::default(),
            &ctx(None),
        );
        assert_eq!(
            p.commands[0].argv(),
            [
                "gradle",
                ":p:cleanYamlRestTest",
                ":p:yamlRestTest",
                "--continue"
            ]
        );
    }

    #[test]
    fn a_cap_for_a_kind_nobody_has_is_noted() {
        let mut cfg = BatchingConfig::default();
        cfg.caps.insert(TestKind::Other("unti".into()), 5);
        let p = plan(&[unit("A")], &cfg, &ctx(None));
        assert!(
            p.notes.iter().any(|n| n.contains("`--cap unti=...`")),
            "{:?}",
            p.notes
        );
    }

    /// `settings` with `--context` and `--iters`.
    fn in_context(context: ContextMode, iters: u32) -> RunSettings {
        let mut s = RunSettings::of(BatchingConfig {
            unit_iters: iters,
            ..BatchingConfig::default()
        });
        s.context = context;
        s.sample_seed = 7;
        s
    }

    /// `--context task`: one batch of whole-task runs per task, the tests of
    /// a task sharing it: no `--tests` filter, forced, as many Gradle runs as
    /// the kind's count, never stopped on proof; `both` adds the usual batch.
    #[test]
    fn context_task_plans_whole_task_runs_of_each_selected_task() {
        let other = test(":other:test", TestKind::Unit, Some("o.OTest"));
        let tests = [unit("a.ATest"), unit("a.BTest"), other];
        let durations = Durations::default();
        let run = |context| {
            let s = in_context(context, 5);
            for_run(&tests, &s, None, &ctx(Some("4.4.1")), &durations)
        };
        let task = run(ContextMode::Task);
        let argv: Vec<String> = task.commands.iter().map(|c| c.argv().join(" ")).collect();
        assert_eq!(
            argv,
            [
                "gradle :server:cleanTest :server:test --continue",
                "gradle :other:cleanTest :other:test --continue"
            ]
        );
        let c = &task.commands[0];
        assert_eq!((c.rest_loops(), c.context()), (5, "task"));
        assert_eq!(c.tests.len(), 2, "a task's selected tests share its runs");
        assert_eq!(c.key, "flakiness-detection:unit-task");
        assert_eq!(task.policies[0].stop_on_proof, [false, false]);
        assert!(task.notes.iter().any(|n| n.starts_with("--context task:")));
        let json = serde_json::to_value(render::PlanCommand(c)).unwrap();
        assert_eq!(json["context"], "task");
        let both = run(ContextMode::Both);
        let contexts: Vec<&str> = both.commands.iter().map(|c| c.context()).collect();
        assert_eq!(contexts, ["alone", "task", "task"]);
        assert!(
            serde_json::to_value(render::PlanCommand(&both.commands[0])).unwrap()["context"]
                .is_null()
        );
        assert_eq!(run(ContextMode::Alone).commands.len(), 1);
    }

    /// A whole-task batch keeps its context: narrowing it to some of its
    /// tests (a proof, a fallback) would filter it to another one.
    #[test]
    fn a_whole_task_batch_is_never_narrowed() {
        let tests = [unit("a.ATest"), unit("a.BTest")];
        let s = in_context(ContextMode::Task, 5);
        let p = for_run(&tests, &s, None, &ctx(None), &Durations::default());
        let narrowed = narrowed(&p.commands[0], &tests[..1], &s.batching, &ctx(None));
        assert_eq!(narrowed, p.commands[0]);
    }

    /// A task too big for the budget runs a seeded sample of its classes
    /// (filtered by `--tests`), said in a note with the seed; one that fits
    /// runs whole; one whose classes' time is unknown runs whole, said.
    #[test]
    fn a_task_too_big_for_the_budget_runs_a_seeded_sample() {
        let classes: Vec<String> = (0..20).map(|i| format!("a.C{i}Test")).collect();
        let mut c = ctx(Some("8.10"));
        c.tasks.insert(
            ":server:test".into(),
            strategy::TaskFacts {
                classes: classes.clone(),
                ..Default::default()
            },
        );
        let mut durations = Durations::default();
        for class in &classes {
            durations.table.classes.insert(class.clone(), 10.0);
        }
        let mut s = in_context(ContextMode::Task, 10);
        s.mode = crate::settings::RunMode::Budget(Duration::from_secs(600));
        let p = for_run(&[unit("a.C7Test")], &s, None, &c, &durations);
        let sample = p.commands[0].whole_task.as_ref().unwrap().sample.clone();
        let sample = sample.expect("sampled");
        assert_eq!(
            (sample.task.as_str(), sample.seed, sample.of),
            (":server:test", 7, 20)
        );
        assert_eq!(sample.classes.len(), 4);
        let argv = p.commands[0].argv().join(" ");
        let filters: Vec<String> = sample
            .classes
            .iter()
            .map(|c| format!("--tests {c}"))
            .collect();
        assert!(argv.contains(&filters.join(" ")), "{argv}");
        assert!(
            p.notes
                .iter()
                .any(|n| n.contains("seed 7; --sample-seed 7 redoes it")),
            "{:?}",
            p.notes
        );
        let json = serde_json::to_value(render::PlanCommand(&p.commands[0])).unwrap();
        assert_eq!(json["sample"]["seed"], 7);
        assert!(
            p.policies[0].per_iteration.is_some(),
            "timed from its classes"
        );
        s.mode = crate::settings::RunMode::Budget(Duration::from_secs(36000));
        let p = for_run(&[unit("a.C7Test")], &s, None, &c, &durations);
        assert_eq!(p.commands[0].whole_task.as_ref().unwrap().sample, None);
        let p = for_run(&[unit("a.C7Test")], &s, None, &c, &Durations::default());
        assert!(p
            .notes
            .iter()
            .any(|n| n.contains("its classes' time is not known")));
    }

    /// An unmuted test repeated in one JVM gets the unmute check: whole-task
    /// runs, `--unmute-check` of them (0: none); a changed test does not, nor
    /// does an unmuted one when `--context task` runs its task anyway.
    #[test]
    fn an_unmuted_test_repeated_in_one_jvm_is_backed_by_whole_task_runs() {
        let mut unmuted = unit("a.UnmutedTest");
        unmuted.origin = Origin::Unmuted;
        let mut c = ctx(Some("8.10"));
        c.tasks.insert(
            ":server:test".into(),
            strategy::TaskFacts {
                framework: Some("junit".into()),
                ..Default::default()
            },
        );
        let tests = [unit("a.ChangedTest"), unmuted];
        let s = in_context(ContextMode::Alone, 20);
        assert_eq!(s.unmute_check, crate::settings::DEFAULT_UNMUTE_CHECK);
        let p = for_run(&tests, &s, None, &c, &Durations::default());
        assert_eq!(p.commands.len(), 2, "{:#?}", p.commands);
        assert!(
            p.commands[0].in_jvm().is_some(),
            "the usual batch, in one JVM"
        );
        let gate = &p.commands[1];
        assert_eq!(gate.rest_loops(), 5);
        assert_eq!(gate.tests.len(), 1, "the unmuted test only");
        assert_eq!(
            gate.argv().join(" "),
            "gradle :server:test --rerun --continue"
        );
        assert_eq!(
            serde_json::to_value(render::PlanCommand(gate)).unwrap()["unmuteCheck"],
            true
        );
        assert!(p
            .notes
            .iter()
            .any(|n| n.starts_with("unmute check: a.UnmutedTest")));
        let mut off = s.clone();
        off.unmute_check = 0;
        assert_eq!(
            for_run(&tests, &off, None, &c, &Durations::default())
                .commands
                .len(),
            1
        );
        let task = in_context(ContextMode::Both, 20);
        let p = for_run(&tests, &task, None, &c, &Durations::default());
        assert!(p
            .commands
            .iter()
            .all(|c| !c.whole_task.as_ref().is_some_and(|w| w.unmute_check)));
        let mut fresh = s.clone();
        fresh.batching.repetition = crate::domain::RepetitionMode::GradleRuns;
        let p = for_run(&tests, &fresh, None, &c, &Durations::default());
        assert_eq!(p.commands.len(), 1, "already fresh JVMs: no check");
    }

    #[test]
    fn nothing_selected_plans_nothing() {
        assert_eq!(
            plan(&[], &BatchingConfig::default(), &ctx(None)),
            Plan::default()
        );
    }
}
