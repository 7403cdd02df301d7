//! The budget rule of whole-task runs (`--context task`): a test task can be
//! far bigger than the selection, so when its recorded time times its runs
//! would not fit the batch's budget, a seeded random sample of its classes
//! runs instead, the selected tests' classes always in it. Pure: the same
//! classes, durations, budget and seed give the same sample, so a run can be
//! redone (`--sample-seed`).

use super::budget::Pace;
use super::PlanContext;
use crate::domain::{ClassSample, GradleCommand, WholeTask};
use crate::durations::Durations;
use crate::invocation::{Repeat, TaskRun};
use std::time::Duration;

/// What a whole-task batch runs, as its budget allows.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Fit {
    /// The whole task fits (or nothing is known to say it does not).
    Whole,
    /// Its classes' time is unknown: the whole task runs, and the plan says
    /// that nothing could size it.
    Unknown,
    /// The sample that fits.
    Sample(ClassSample),
}

/// What sizing one whole-task batch needs.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SampledRuns<'a> {
    /// The task's test classes (as its patterns accept them), in its order.
    pub classes: &'a [String],
    /// The selected tests' classes: always in a sample.
    pub selected: &'a [String],
    /// Gradle runs of the batch.
    pub runs: u32,
    /// The time the batch may take; `None`: no budget, the whole task.
    pub budget: Option<Duration>,
}

/// The whole task, or the sample of it that fits the budget with `seed`.
pub(crate) fn fit(task: &SampledRuns<'_>, durations: &Durations, seed: u64) -> Fit {
    let Some(budget) = task.budget else {
        return Fit::Whole;
    };
    if task.classes.is_empty() {
        return Fit::Unknown;
    }
    let Some(secs) = class_times(task.classes, durations) else {
        return Fit::Unknown;
    };
    let whole: f64 = secs.iter().sum();
    if predict(whole, task.runs) <= budget {
        return Fit::Whole;
    }
    // What one run may spend in tests, the selected classes first.
    let mut kept: Vec<bool> = task
        .classes
        .iter()
        .map(|c| task.selected.contains(c))
        .collect();
    let mut spent: f64 = (0..secs.len()).filter(|&i| kept[i]).map(|i| secs[i]).sum();
    spent += task
        .selected
        .iter()
        .filter(|c| !task.classes.contains(c))
        .filter_map(|c| durations.table.classes.get(c))
        .sum::<f64>();
    for i in shuffled(task.classes.len(), seed) {
        if !kept[i] && predict(spent + secs[i], task.runs) <= budget {
            kept[i] = true;
            spent += secs[i];
        }
    }
    let mut classes: Vec<String> = task.selected.to_vec();
    classes.extend(
        (0..secs.len())
            .filter(|&i| kept[i] && !task.selected.contains(&task.classes[i]))
            .map(|i| task.classes[i].clone()),
    );
    Fit::Sample(ClassSample {
        task: String::new(),
        seed,
        classes,
        of: task.classes.len(),
    })
}

/// `command`, a batch of whole-task runs, as `budget` allows with `seed`:
/// the whole task, or a sample of its classes (filtered by `--tests`); what
/// it runs noted when it is a sample or cannot be sized.
pub(crate) fn apply(
    command: &mut GradleCommand,
    ctx: &PlanContext,
    durations: &Durations,
    budget: Option<Duration>,
    seed: u64,
) -> Option<String> {
    let task = command.task_paths().first()?.clone();
    let classes = ctx
        .tasks
        .get(&task)
        .map(|f| f.classes.clone())
        .unwrap_or_default();
    let mut selected: Vec<String> = Vec::new();
    for class in command.tests.iter().filter_map(|t| t.class.clone()) {
        if !selected.contains(&class) {
            selected.push(class);
        }
    }
    let runs = command.rest_loops();
    let sizing = SampledRuns {
        classes: &classes,
        selected: &selected,
        runs,
        budget,
    };
    let fit = fit(&sizing, durations, seed);
    let whole = command.whole_task.get_or_insert_with(WholeTask::default);
    whole.classes = classes.clone();
    match fit {
        Fit::Whole => None,
        Fit::Unknown => Some(format!(
            "the whole task `{task}` runs {runs} time(s): its classes' time is not known \
             (none recorded{}), so nothing sizes it against the budget; a run of it records \
             them for the next plan",
            match classes.is_empty() {
                true => ", its compiled classes not found",
                false => "",
            }
        )),
        Fit::Sample(mut sample) => {
            sample.task = task.clone();
            let note = format!(
                "the whole task `{task}` ({} classes) would not fit the budget of {} in {runs} \
                 run(s): a random sample of {} of its classes runs, the selected ones among them \
                 (seed {}; --sample-seed {} redoes it)",
                sample.of,
                crate::time::format_duration(budget.unwrap_or_default()),
                sample.classes.len(),
                sample.seed,
                sample.seed
            );
            let body = ctx.tasks(vec![TaskRun::filtered(&task, sample.classes.clone())]);
            command.invocation = ctx.invocation(body, Repeat::GradleRuns(runs));
            command.repetition_reason = format!(
                "a seeded sample of {} of the {} classes of its test task, as CI runs them (the \
                 build's own test JVMs), one Gradle run per execution",
                sample.classes.len(),
                sample.of
            );
            whole.classes = sample.classes.clone();
            whole.sample = Some(sample);
            Some(note)
        }
    }
}

/// The recorded test time of one iteration of `command`: its tests', or for
/// a whole-task batch the classes each of its runs runs.
pub(crate) fn per_iteration(command: &GradleCommand, durations: &Durations) -> Option<Duration> {
    match &command.whole_task {
        Some(whole) => run_time(&whole.classes, durations),
        None => durations.per_iteration(&command.tests),
    }
}

/// The predicted test time of one run of `classes` (recorded durations,
/// an unrecorded class at the mean of the others); `None` when none is known.
fn run_time(classes: &[String], durations: &Durations) -> Option<Duration> {
    let secs: f64 = class_times(classes, durations)?.iter().sum();
    (secs.is_finite() && secs >= 0.0).then(|| Duration::from_secs_f64(secs))
}

/// The recorded time of each class; one not recorded counts as the mean of
/// those that are. `None` when none is.
fn class_times(classes: &[String], durations: &Durations) -> Option<Vec<f64>> {
    let known: Vec<Option<f64>> = classes
        .iter()
        .map(|c| durations.table.classes.get(c).copied())
        .collect();
    let recorded: Vec<f64> = known.iter().flatten().copied().collect();
    if recorded.is_empty() {
        return None;
    }
    let mean = recorded.iter().sum::<f64>() / recorded.len() as f64;
    Some(known.into_iter().map(|k| k.unwrap_or(mean)).collect())
}

/// The predicted time of `runs` Gradle runs of `secs` of tests each (a
/// Gradle start each, as `budget` predicts one).
fn predict(secs: f64, runs: u32) -> Duration {
    let pace = Pace::recorded(Some(Duration::from_secs_f64(secs.max(0.0))));
    pace.predict(1).unwrap_or_default() * runs
}

/// `0..n` in the order of a Fisher–Yates shuffle driven by SplitMix64 from
/// `seed`: fixed by the seed on every platform.
fn shuffled(n: usize, seed: u64) -> Vec<usize> {
    let mut state = seed;
    let mut next = move || {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    let mut order: Vec<usize> = (0..n).collect();
    for i in (1..n).rev() {
        let j = (next() % (i as u64 + 1)) as usize;
        order.swap(i, j);
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    fn durations(classes: &[(&str, f64)]) -> Durations {
        let mut d = Durations::default();
        for (c, s) in classes {
            d.table.classes.insert(c.to_string(), *s);
        }
        d
    }

    fn names(n: usize) -> Vec<String> {
        (0..n).map(|i| format!("a.C{i}Test")).collect()
    }

    fn task<'a>(classes: &'a [String], selected: &'a [String], budget: u64) -> SampledRuns<'a> {
        SampledRuns {
            classes,
            selected,
            runs: 10,
            budget: Some(Duration::from_secs(budget)),
        }
    }

    fn ten_seconds_each(classes: &[String]) -> Durations {
        let pairs: Vec<(&str, f64)> = classes.iter().map(|c| (c.as_str(), 10.0)).collect();
        durations(&pairs)
    }

    /// 20 classes of 10 s, 10 runs: the whole task needs about 10 × (15 s +
    /// 220 s); 10 minutes leave each run 60 s: 15 s of Gradle's start and 4
    /// classes (4 × 11 s with the safety margin), the selected one among them.
    #[test]
    fn a_task_too_big_for_the_budget_is_sampled_around_the_selected_class() {
        let classes = names(20);
        let selected = vec!["a.C7Test".to_string()];
        let d = ten_seconds_each(&classes);
        let Fit::Sample(s) = fit(&task(&classes, &selected, 600), &d, 42) else {
            panic!("not sampled");
        };
        assert_eq!(s.of, 20);
        assert_eq!(s.seed, 42);
        assert_eq!(s.classes.len(), 4, "{:?}", s.classes);
        assert_eq!(s.classes[0], "a.C7Test", "the selected class first");
        let again = fit(&task(&classes, &selected, 600), &d, 42);
        assert_eq!(again, Fit::Sample(s.clone()), "the seed fixes the sample");
        let Fit::Sample(other) = fit(&task(&classes, &selected, 600), &d, 43) else {
            panic!("not sampled");
        };
        assert_ne!(other.classes, s.classes, "another seed, another sample");
    }

    #[test]
    fn a_task_that_fits_or_cannot_be_sized_runs_whole() {
        let classes = names(3);
        let selected = vec!["a.C0Test".to_string()];
        let d = ten_seconds_each(&classes);
        assert_eq!(fit(&task(&classes, &selected, 3600), &d, 1), Fit::Whole);
        let mut unbounded = task(&classes, &selected, 0);
        unbounded.budget = None;
        assert_eq!(fit(&unbounded, &d, 1), Fit::Whole);
        let none = Durations::default();
        assert_eq!(fit(&task(&classes, &selected, 60), &none, 1), Fit::Unknown);
        assert_eq!(fit(&task(&[], &selected, 60), &d, 1), Fit::Unknown);
    }

    /// A class without a recorded time counts as the mean of the others: a
    /// budget that leaves room for none besides the selected one keeps it alone.
    #[test]
    fn unrecorded_classes_count_as_the_mean_and_the_selected_class_always_runs() {
        let classes = names(5);
        let selected = vec!["a.C4Test".to_string()];
        let d = durations(&[("a.C0Test", 100.0), ("a.C1Test", 100.0)]);
        let Fit::Sample(s) = fit(&task(&classes, &selected, 60), &d, 7) else {
            panic!("not sampled");
        };
        assert_eq!(s.classes, ["a.C4Test"]);
    }

    #[test]
    fn the_shuffle_is_a_permutation_fixed_by_its_seed() {
        let order = shuffled(50, 9);
        let mut sorted = order.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..50).collect::<Vec<_>>());
        assert_eq!(order, shuffled(50, 9));
        assert_ne!(order, shuffled(50, 10));
        assert_eq!(shuffled(0, 1), Vec::<usize>::new());
    }
}
