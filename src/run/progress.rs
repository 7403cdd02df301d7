//! What `local` shows on stderr while it runs: one line per batch and per
//! iteration, and, on a terminal, a live status line below them (batch, label,
//! iteration, elapsed time, failures so far, the time left). Plain lines only
//! when stderr is not a terminal or Gradle's output is streamed (`--verbose`);
//! never colour. Nothing here panics when stderr is gone.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// An estimate of the time left, and when it was made (so that it counts down).
type ShownLine = Arc<Mutex<Option<(Instant, Left)>>>;

pub struct Progress {
    /// The live status line; `None` when it must not be drawn.
    bar: Option<ProgressBar>,
    left: ShownLine,
}

impl Progress {
    /// `live`: stderr is a terminal and Gradle's output is not streamed to it.
    pub fn new(live: bool) -> Progress {
        let left: ShownLine = Arc::default();
        let bar = live.then(|| {
            let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
            let shown = left.clone();
            let countdown = move |_: &ProgressState, w: &mut dyn std::fmt::Write| {
                let estimate = *shown.lock().unwrap_or_else(|e| e.into_inner());
                if let Some((at, left)) = estimate {
                    let _ = write!(w, " · {}", left.since(at.elapsed()));
                }
            };
            bar.set_style(
                ProgressStyle::with_template("{spinner} {elapsed:>4} {wide_msg}{left}")
                    .map(|s| s.with_key("left", countdown))
                    .unwrap_or_else(|_| ProgressStyle::default_spinner()),
            );
            bar.enable_steady_tick(Duration::from_millis(200));
            bar
        });
        Progress { bar, left }
    }

    /// A permanent line (above the status line when there is one).
    pub fn line(&self, text: &str) {
        match &self.bar {
            Some(bar) => bar.println(text),
            None => crate::output::stderr_line(text),
        }
    }

    /// Replaces the status line; `restart` resets its clock (a new batch);
    /// `left` is the time the rest of the run should take, counted down.
    pub fn status(&self, text: String, restart: bool, left: Option<Left>) {
        *self.left.lock().unwrap_or_else(|e| e.into_inner()) = left.map(|l| (Instant::now(), l));
        if let Some(bar) = &self.bar {
            if restart {
                bar.reset_elapsed();
            }
            bar.set_message(text);
        }
    }

    /// Removes the status line.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.finish();
    }
}

/// The time the rest of a run should take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Left {
    pub time: Duration,
    /// Some of it is the run's mean time per invocation, for a batch with
    /// neither recorded durations nor a measured invocation of its own.
    pub guess: bool,
}

impl Left {
    /// `~40s left`, or `~40s left (a guess: no recorded durations)`, once
    /// `passed` of it has passed.
    pub fn since(self, passed: Duration) -> String {
        let left = crate::time::left(self.time.saturating_sub(passed));
        match self.guess {
            true => format!("{left} (a guess: no recorded durations)"),
            false => left,
        }
    }
}

impl std::fmt::Display for Left {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.since(Duration::ZERO))
    }
}

/// What a batch is planned to take.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Planned {
    /// Its Gradle invocations as planned (a Gradle-run batch's runs; 1 for
    /// an in-JVM one run whole).
    pub invocations: u32,
    /// Its predicted time, from the recorded durations of its classes.
    pub predicted: Option<Duration>,
}

/// Batches' predictions are scaled by how the batches so far compared with
/// theirs, within these bounds (a batch stopped on proof is quick).
const RATIO: (f64, f64) = (0.25, 4.0);

/// The time the rest of a run should take. The running batch's rest is
/// what the repetition engine says after each of its invocations (its
/// chunks still to come at the pace it measured, zero once it ends); before
/// it says anything, the batch's predicted time. A later batch takes its
/// prediction from the recorded durations, scaled by how the batches so far
/// went against theirs; without one, the run's mean time per invocation (a
/// guess, and said so).
#[derive(Clone, Debug, Default)]
pub(crate) struct Estimate {
    planned: Vec<Planned>,
    /// Each batch's invocation times so far.
    measured: Vec<Vec<Duration>>,
    /// What the engine last said each batch still takes (`None`: nothing
    /// said, or no pace known).
    said: Vec<Option<Duration>>,
}

impl Estimate {
    pub(crate) fn new(planned: Vec<Planned>) -> Estimate {
        let n = planned.len();
        Estimate {
            planned,
            measured: vec![Vec::new(); n],
            said: vec![None; n],
        }
    }

    /// Batch `batch` (0-based) had an invocation that took `took`, after
    /// which the engine said the batch still takes `left`.
    pub(crate) fn measured(&mut self, batch: usize, took: Duration, left: Option<Duration>) {
        if let (Some(m), Some(said)) = (self.measured.get_mut(batch), self.said.get_mut(batch)) {
            m.push(took);
            *said = left;
        }
    }

    /// What is left once batch `batch` is running an invocation that started
    /// `running` ago; `None` when nothing predicts or measured any of it.
    pub(crate) fn left(&self, batch: usize, running: Duration) -> Option<Left> {
        let all: Vec<Duration> = self.measured.iter().flatten().copied().collect();
        let mean_all = mean(&all);
        let ratio = self.ratio(batch);
        let (this, mut guess) = self.current(batch, running, ratio, mean_all)?;
        let mut later = Duration::ZERO;
        for p in self.planned.get(batch + 1..).unwrap_or_default() {
            later += match p.predicted {
                Some(t) => t.mul_f64(ratio),
                None => {
                    guess = true;
                    mean_all? * p.invocations
                }
            };
        }
        Some(Left {
            time: this + later,
            guess,
        })
    }

    /// What is left of batch `batch` itself, and whether it is a guess.
    fn current(
        &self,
        batch: usize,
        running: Duration,
        ratio: f64,
        mean_all: Option<Duration>,
    ) -> Option<(Duration, bool)> {
        let planned = self.planned.get(batch)?;
        let current = self.measured.get(batch)?;
        if let Some(said) = self.said.get(batch).copied().flatten() {
            return Some((said.saturating_sub(running), false));
        }
        let spent: Duration = current.iter().sum::<Duration>() + running;
        if let Some(t) = planned.predicted {
            return Some((t.mul_f64(ratio).saturating_sub(spent), false));
        }
        let remaining = planned.invocations.saturating_sub(current.len() as u32);
        match mean(current) {
            Some(m) => Some(((m * remaining).saturating_sub(running), false)),
            None => Some(((mean_all? * remaining).saturating_sub(running), true)),
        }
    }

    /// How the batches before `batch` that had a prediction went against it.
    fn ratio(&self, batch: usize) -> f64 {
        let (mut took, mut predicted) = (Duration::ZERO, Duration::ZERO);
        for (p, m) in self.planned.iter().zip(&self.measured).take(batch) {
            if let Some(t) = p.predicted.filter(|_| !m.is_empty()) {
                took += m.iter().sum::<Duration>();
                predicted += t;
            }
        }
        match predicted.is_zero() {
            true => 1.0,
            false => (took.as_secs_f64() / predicted.as_secs_f64()).clamp(RATIO.0, RATIO.1),
        }
    }
}

fn mean(d: &[Duration]) -> Option<Duration> {
    let n = u32::try_from(d.len()).ok().filter(|n| *n > 0)?;
    Some(d.iter().sum::<Duration>() / n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::budget::{self, Pace, Sizing};

    fn plain(invocations: &[u32]) -> Vec<Planned> {
        invocations
            .iter()
            .map(|&invocations| Planned {
                invocations,
                predicted: None,
            })
            .collect()
    }

    #[test]
    fn the_time_left_comes_from_what_was_measured_and_says_when_it_guesses() {
        let s = Duration::from_secs;
        let time = |l: Option<Left>| l.map(|l| (l.time, l.guess));
        // A unit batch, a REST loop of 4, a unit batch.
        let mut e = Estimate::new(plain(&[1, 4, 1]));
        assert_eq!(e.left(0, s(5)), None, "nothing measured yet");
        e.measured(0, s(10), Some(Duration::ZERO));
        // The loop's first iteration is guessed from the run's mean.
        assert_eq!(
            time(e.left(1, Duration::ZERO)),
            Some((s(4 * 10 + 10), true))
        );
        // The engine says what the loop still takes: 3 runs of 3 s.
        e.measured(1, s(2), Some(s(9)));
        // One started 1 s ago; the last batch at the run's mean ((10 + 2) / 2).
        assert_eq!(time(e.left(1, s(1))), Some((s(8) + s(6), true)));
        e.measured(1, s(3), Some(s(6)));
        e.measured(1, s(3), Some(s(3)));
        e.measured(1, s(3), Some(Duration::ZERO));
        e.measured(2, s(7), Some(Duration::ZERO));
        assert_eq!(
            time(e.left(2, Duration::ZERO)),
            Some((Duration::ZERO, false)),
            "nothing left at the end"
        );
    }

    /// A batch the durations predict 53 s for is estimated at 53 s before it
    /// starts, not at the last batch's 5 s; once batches ran twice as long
    /// as predicted, the later ones are expected to as well.
    #[test]
    fn recorded_durations_predict_a_batch_before_it_runs() {
        let s = Duration::from_secs;
        let planned = |predicted: &[u64]| {
            predicted
                .iter()
                .map(|&p| Planned {
                    invocations: 1,
                    predicted: Some(s(p)),
                })
                .collect()
        };
        let mut e = Estimate::new(planned(&[5, 53]));
        assert_eq!(e.left(0, s(1)).map(|l| l.time), Some(s(4 + 53)));
        e.measured(0, s(5), Some(Duration::ZERO));
        let left = e.left(1, Duration::ZERO).unwrap();
        assert_eq!((left.time, left.guess), (s(53), false));
        assert_eq!(left.to_string(), "~53s left");
        let mut e = Estimate::new(planned(&[5, 50]));
        e.measured(0, s(10), Some(Duration::ZERO));
        assert_eq!(e.left(1, Duration::ZERO).map(|l| l.time), Some(s(100)));
        let guess = Left {
            time: s(40),
            guess: true,
        };
        assert_eq!(
            guess.to_string(),
            "~40s left (a guess: no recorded durations)"
        );
    }

    /// The pace of a recorded run (12 Gradle runs of a class of about 7 s
    /// each, the first slower): after each invocation, the time left, as
    /// the engine measures its pace (`budget::time_left` of the Gradle runs
    /// still owed, at the mean pace of the runs so far), is within a
    /// quarter of what the run really took after it once two runs were
    /// measured, falls as the runs go, and is nothing at the end. The
    /// durations' prediction (77 s) says the first estimate only.
    #[test]
    fn the_estimate_follows_a_recorded_pace_down_to_nothing() {
        // Each invocation's wall time and its tests' time, in milliseconds.
        const RECORDED: [(u64, u64); 12] = [
            (9_800, 1_100),
            (7_400, 1_000),
            (6_900, 1_050),
            (7_100, 1_000),
            (7_000, 980),
            (6_800, 1_020),
            (7_300, 1_100),
            (6_900, 990),
            (7_000, 1_000),
            (7_200, 1_050),
            (6_900, 1_000),
            (7_100, 1_010),
        ];
        let ms = Duration::from_millis;
        let mut e = Estimate::new(vec![Planned {
            invocations: 1,
            predicted: Some(Duration::from_secs(77)),
        }]);
        assert_eq!(e.left(0, Duration::ZERO).map(|l| l.time), Some(ms(77_000)));
        let mut shown = Vec::new();
        let chunks: Vec<(u32, Duration, Duration)> =
            RECORDED.iter().map(|&(w, t)| (1, ms(w), ms(t))).collect();
        for (i, &(wall, _)) in RECORDED.iter().enumerate() {
            let pace = Pace::of_chunks(&chunks[..=i]).unwrap();
            let owed = Sizing {
                remaining: (RECORDED.len() - i - 1) as u32,
                planned: 12,
                in_jvm: false,
                chunks_done: i as u32,
                stop_on_proof: false,
                look_every: None,
                left: None,
            };
            e.measured(0, ms(wall), budget::time_left(&owed, &pace));
            let left = e.left(0, Duration::ZERO).unwrap().time;
            let actual: u64 = RECORDED[i + 1..].iter().map(|(w, _)| w).sum();
            let off = (left.as_millis() as f64 - actual as f64).abs();
            // The first run alone (slower: a cold start) sets no bound.
            assert!(
                i == 0 || off <= actual as f64 / 4.0,
                "after {}: {left:?} against {actual} ms",
                i + 1
            );
            shown.push(left);
        }
        assert_eq!(shown.last(), Some(&Duration::ZERO), "{shown:?}");
        assert!(
            shown.windows(2).all(|w| w[1] < w[0] || w[1].is_zero()),
            "{shown:?}"
        );
    }
}
