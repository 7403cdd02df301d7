//! The plan for people (text), for programs (the plan JSON of docs/src/reference/json.md) and for
//! shells (one POSIX-quoted command a line).

use super::policy::{schedule, Policy};
use super::proof::{Evidence, Proof};
use super::{target, Plan};
use crate::domain::{ClassifiedTest, GradleCommand, MuteState, Origin, SkippedFile, Unresolved};
use crate::select::{Expansion, TaskSelection};
use crate::shell;
use crate::stats::{executions_for, percent, rate_bound, Round};
use crate::terminal::{visible, visible_lines};
use serde::Serialize;
use std::fmt::{self, Write};

/// Everything a rendering shows.
#[derive(Clone, Copy, Debug)]
pub struct PlanView<'a> {
    pub plan: &'a Plan,
    pub unresolved: &'a [Unresolved],
    /// Source sets whose classes ran on some of several candidate tasks.
    pub task_selections: &'a [TaskSelection],
    /// Abstract bases run through their concrete subclasses.
    pub expansions: &'a [Expansion],
    /// Changed source files that select no test.
    pub skipped: &'a [SkippedFile],
    /// Notes from selection (for example that path rules stood in for the layout).
    pub selection_notes: &'a [String],
    pub evidence: Evidence,
}

impl PlanView<'_> {
    fn notes(&self) -> impl Iterator<Item = &String> {
        self.selection_notes.iter().chain(&self.plan.notes)
    }
}

/// Above this bound a plan suggests `--detect-rate`.
const WEAK_BOUND: f64 = 0.05;

/// The plan JSON (docs/src/reference/json.md, "Plan output"), plus `cleanProves` per command and `notes`.
pub fn json(view: &PlanView) -> String {
    #[derive(Serialize)]
    struct JsonCommand<'a> {
        #[serde(flatten)]
        command: PlanCommand<'a>,
        #[serde(rename = "cleanProves")]
        clean_proves: Proof,
        /// The chunks `local` cuts the batch into, when it runs in chunks.
        #[serde(skip_serializing_if = "Option::is_none")]
        chunks: Option<Vec<u32>>,
        /// The budget `local` runs the batch within, when it has one.
        #[serde(rename = "budgetSec", skip_serializing_if = "Option::is_none")]
        budget_sec: Option<u64>,
    }
    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    struct JsonPlan<'a> {
        tests: &'a [ClassifiedTest],
        unresolved: &'a [Unresolved],
        task_selections: &'a [TaskSelection],
        expansions: &'a [Expansion],
        #[serde(skip_serializing_if = "<[_]>::is_empty")]
        skipped: &'a [SkippedFile],
        commands: Vec<JsonCommand<'a>>,
        notes: Vec<&'a String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        durations_source: Option<&'a str>,
        #[serde(skip_serializing_if = "Option::is_none")]
        budget_sec: Option<u64>,
    }
    let commands = view
        .plan
        .commands
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let policy = view.plan.policies.get(i);
            JsonCommand {
                command: PlanCommand(c),
                clean_proves: Proof::new(c.executions(), view.evidence.confidence),
                chunks: policy.and_then(|p| schedule(p, c)),
                budget_sec: policy.and_then(|p| p.budget).map(|b| b.as_secs()),
            }
        })
        .collect();
    let doc = JsonPlan {
        tests: &view.plan.tests,
        unresolved: view.unresolved,
        task_selections: view.task_selections,
        expansions: view.expansions,
        skipped: view.skipped,
        commands,
        notes: view.notes().collect(),
        durations_source: view.plan.durations_source.as_deref(),
        budget_sec: view.plan.budget.map(|b| b.as_secs()),
    };
    let mut s = serde_json::to_string_pretty(&doc).expect("plan JSON serializes");
    s.push('\n');
    s
}

/// A command as the plan JSON shows it (docs/src/reference/json.md): its
/// argv rendered, its repetition summed up. (The command's own JSON is the
/// typed batch a CI job is told.)
pub(crate) struct PlanCommand<'a>(pub(crate) &'a GradleCommand);

impl Serialize for PlanCommand<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let c = self.0;
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("kind", &c.kind)?;
        m.serialize_entry("label", &c.label)?;
        m.serialize_entry("key", &c.key)?;
        m.serialize_entry("argv", &c.argv())?;
        m.serialize_entry("iterations", &c.iterations())?;
        m.serialize_entry("restLoops", &c.rest_loops())?;
        m.serialize_entry("taskPaths", &c.task_paths())?;
        m.serialize_entry("repetition", &c.repetition())?;
        m.serialize_entry("repetitionReason", &c.repetition_reason)?;
        if let Some(why) = &c.not_honoured {
            m.serialize_entry("notHonoured", why)?;
        }
        if let Some(in_jvm) = c.in_jvm() {
            m.serialize_entry("inJvm", &in_jvm)?;
        }
        if let Some(secs) = c.predicted_sec {
            m.serialize_entry("predictedSec", &secs)?;
        }
        if let Some(shard) = &c.shard {
            m.serialize_entry("shard", shard)?;
        }
        // Absent: the selected tests alone (plans from before contexts).
        if let Some(whole) = &c.whole_task {
            m.serialize_entry("context", c.context())?;
            if let Some(sample) = &whole.sample {
                m.serialize_entry("sample", sample)?;
            }
            if whole.unmute_check {
                m.serialize_entry("unmuteCheck", &true)?;
            }
        }
        m.end()
    }
}

/// One command a line, each argv element one shell word. A REST batch's loops
/// run through `gradle-flaky repeat`, which keeps every iteration's XML. A
/// command only gradle-flaky's init script repeats (its JUnit 4 runner, TestNG
/// and Platform helpers) is preceded by a comment saying so: typed as it
/// stands, it runs each selected test once.
pub fn shell(plan: &Plan) -> String {
    plan.commands
        .iter()
        .map(|c| helper_note(c) + &shell::join(&shell_argv(c)) + "\n")
        .collect()
}

/// `# …` before a command whose repetition needs gradle-flaky's helpers.
fn helper_note(c: &GradleCommand) -> String {
    match c.in_jvm() {
        Some(m) if m != crate::invocation::InJvm::TestsIters => format!(
            "# {}: only gradle-flaky's init script repeats these tests (gradle-flaky local adds \
             it); run by hand, the next line runs each selected test once\n",
            m.as_str()
        ),
        _ => String::new(),
    }
}

/// The argv the shell line runs: the command itself, or `repeat` around it.
pub fn shell_argv(c: &GradleCommand) -> Vec<String> {
    if c.rest_loops() <= 1 {
        return c.argv();
    }
    super::repeat_argv("gradle-flaky", c.rest_loops(), &[], &c.argv())
}

/// The plan for people. Names from the branch are shown with control
/// characters escaped, so they cannot drive the terminal.
pub fn text(view: &PlanView) -> String {
    let mut out = String::new();
    write_text(&mut out, view).expect("writing to a String cannot fail");
    out
}

fn write_text(w: &mut String, view: &PlanView) -> fmt::Result {
    let plan = view.plan;
    if plan.tests.is_empty() {
        writeln!(w, "Nothing selected: no test to run.")?;
    } else {
        writeln!(
            w,
            "{} in {}.",
            count(plan.tests.len(), "test"),
            count(plan.commands.len(), "command")
        )?;
        writeln!(w, "\nTests:")?;
        let rows: Vec<[String; 4]> = plan
            .tests
            .iter()
            .map(|t| {
                [
                    visible(t.kind.as_str()),
                    visible(&t.task),
                    visible(&target(t).unwrap_or_else(|| "(whole task)".into())),
                    origin_and_mute(t),
                ]
            })
            .collect();
        table(w, &rows)?;
    }
    if !view.unresolved.is_empty() {
        writeln!(w, "\nUnresolved (not run):")?;
        for u in view.unresolved {
            let (input, reason) = (visible(&u.input), visible(&u.reason));
            writeln!(w, "  {input} ({}): {reason}", origin(u.origin))?;
        }
    }
    if !view.skipped.is_empty() {
        writeln!(w, "\nChanged files not run:")?;
        for f in view.skipped {
            writeln!(w, "  {}: {}", visible(&f.path), visible(&f.reason))?;
        }
    }
    let notes: Vec<_> = view.notes().collect();
    if !notes.is_empty() {
        writeln!(w, "\nNotes:")?;
        for n in notes {
            writeln!(w, "  - {}", visible_lines(n, "    "))?;
        }
    }
    if let Some(source) = &plan.durations_source {
        writeln!(w, "\nDurations: {}", visible(source))?;
    }
    if let Some(budget) = plan.budget {
        writeln!(
            w,
            "Budget of each job: {}",
            crate::time::format_duration(budget)
        )?;
    }
    if !plan.commands.is_empty() {
        writeln!(w, "\nCommands (run from the project dir):")?;
        for (i, c) in plan.commands.iter().enumerate() {
            command(w, i + 1, c, view.evidence)?;
            if let Some(line) = plan.policies.get(i).and_then(|p| chunks(p, c)) {
                writeln!(w, "     {line}")?;
            }
        }
        advice(w, plan, view.evidence)?;
    }
    Ok(())
}

fn command(w: &mut String, number: usize, c: &GradleCommand, evidence: Evidence) -> fmt::Result {
    let runs = if c.loops_gradle() {
        count(c.rest_loops() as usize, "Gradle run")
    } else {
        format!(
            "{} in 1 Gradle run",
            count(c.iterations() as usize, "iteration")
        )
    };
    let runs = match c.repetition_reason.as_str() {
        "" => runs,
        why => format!("{runs}: {why}"),
    };
    let n = c.executions();
    let shard = match &c.shard {
        Some(s) => match &s.seed {
            Some(seed) => format!(" (shard {}/{}, seed {seed})", s.index, s.of),
            None => format!(" (shard {}/{})", s.index, s.of),
        },
        None => String::new(),
    };
    let runs = match c.predicted_sec {
        Some(secs) => format!(
            "{runs}; predicted {}",
            crate::time::format_duration(std::time::Duration::from_secs(secs.max(1)))
        ),
        None => runs,
    };
    writeln!(w, "  {number}. {} [{}]{shard}: {runs}", c.label, c.key)?;
    writeln!(
        w,
        "     {} ({} per test)",
        Proof::new(n, evidence.confidence).sentence(),
        count(n as usize, "execution")
    )?;
    writeln!(w, "     {}", visible(&shell::join(&c.argv())))
}

/// How `local` cuts a batch into chunks, when it does: their sizes as far
/// as they are known before it runs, and why.
fn chunks(policy: &Policy, c: &GradleCommand) -> Option<String> {
    if !policy.chunked() {
        return None;
    }
    let budget = policy.budget.map(crate::time::format_duration);
    let proof = policy.stop_on_proof.iter().any(|s| *s);
    if policy.open_ended {
        return Some(format!(
            "locally: repeats until each test fails, for at most {} (--until-fail), in chunks \
             that fit what is left, each with a seed of its own",
            budget.unwrap_or_default()
        ));
    }
    let why = match (proof, &budget) {
        (true, Some(b)) => format!("stop on proof, within its budget of {b}"),
        (true, None) => "stop on proof: a test proven flaky leaves the batch".to_string(),
        (false, Some(b)) => format!("within its budget of {b}"),
        (false, None) => String::new(),
    };
    Some(match schedule(policy, c) {
        Some(sizes) => {
            let sizes: Vec<String> = sizes.iter().map(u32::to_string).collect();
            let measured = match &budget {
                Some(_) => "; after the first, as its pace measures",
                None => "",
            };
            format!(
                "locally: in chunks of {} iteration(s) ({why}{measured})",
                sizes.join(", ")
            )
        }
        None if budget.is_some() => {
            format!("locally: each Gradle run checked against the time left ({why})")
        }
        None => format!("locally: {why}, between Gradle runs"),
    })
}

/// Says how weak the weakest evidence is, and how to size runs for a target rate.
fn advice(w: &mut String, plan: &Plan, evidence: Evidence) -> fmt::Result {
    // The unmute check is a few runs on purpose: what it bounds is said with it.
    let weakest = plan
        .commands
        .iter()
        .filter(|c| !c.whole_task.as_ref().is_some_and(|w| w.unmute_check))
        .map(GradleCommand::executions)
        .min()
        .unwrap_or(0);
    let bound = rate_bound(weakest, evidence.confidence);
    let at = percent(evidence.confidence, Round::Nearest);
    match evidence.detect_rate {
        Some(rate) => writeln!(
            w,
            "\nSized by --detect-rate {rate}: {n} executions per test make a test that fails \
             {rate} of the time fail at least once with probability {at}.",
            rate = percent(rate, Round::Up),
            n = executions_for(rate, evidence.confidence)
        ),
        None if bound > WEAK_BOUND => writeln!(
            w,
            "\nA clean run of {} per test only rules out failure rates of {} or more \
             (at {at}). To size runs for a rate, use --detect-rate (e.g. --detect-rate 2% \
             runs each test {} times for {at}).",
            count(weakest as usize, "execution"),
            percent(bound, Round::Up),
            executions_for(0.02, evidence.confidence)
        ),
        None => Ok(()),
    }
}

fn table(w: &mut String, rows: &[[String; 4]]) -> fmt::Result {
    let width = |col: usize| {
        rows.iter()
            .map(|r| r[col].chars().count())
            .max()
            .unwrap_or(0)
    };
    let (w0, w1, w2) = (width(0), width(1), width(2));
    for [kind, task, target, origin] in rows {
        writeln!(w, "  {kind:w0$}  {task:w1$}  {target:w2$}  {origin}")?;
    }
    Ok(())
}

/// Its origin, and what the muted-tests file says of it in its task (the
/// task column names the task), with the entry's issue.
fn origin_and_mute(t: &ClassifiedTest) -> String {
    let origin = origin(t.origin);
    let Some(mute) = &t.mute else {
        return origin.into();
    };
    let issue = match &mute.issue {
        Some(issue) => format!(" ({})", visible(issue)),
        None => String::new(),
    };
    match (mute.state, t.origin) {
        (MuteState::Unmuted, Origin::Unmuted) => format!("{origin}{issue}"),
        (MuteState::Unmuted, _) => format!("{origin}, unmuted{issue}"),
        (MuteState::Muted, _) => format!("{origin}, muted{issue}"),
    }
}

fn origin(o: Origin) -> &'static str {
    match o {
        Origin::Changed => "changed",
        Origin::Unmuted => "unmuted",
        Origin::Explicit => "explicit",
    }
}

fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}
