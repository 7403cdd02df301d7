//! What `local` shows on stderr while it runs: one line per batch and per
//! iteration, and, on a terminal, a live status line below them (batch, label,
//! iteration, elapsed time, failures so far, the time left). Plain lines only
//! when stderr is not a terminal or Gradle's output is streamed (`--verbose`);
//! never colour. Nothing here panics when stderr is gone.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// An estimate of the time left, and when it was made (so that it counts down).
type Shown = Arc<Mutex<Option<(Instant, Left)>>>;

pub struct Progress {
    /// The live status line; `None` when it must not be drawn.
    bar: Option<ProgressBar>,
    left: Shown,
}

impl Progress {
    /// `live`: stderr is a terminal and Gradle's output is not streamed to it.
    pub fn new(live: bool) -> Progress {
        let left: Shown = Arc::default();
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
    /// Its Gradle invocations (a Gradle-run batch's runs; 1 for an in-JVM one).
    pub invocations: u32,
    /// Its predicted time, from the recorded durations of its classes.
    pub predicted: Option<Duration>,
}

/// The time the rest of a run should take: a batch's predicted time from the
/// recorded durations of its classes where known, else its own invocations'
/// mean once one was measured, else the run's mean (a guess, and said so).
#[derive(Clone, Debug, Default)]
pub(crate) struct Estimate {
    planned: Vec<Planned>,
    /// Measured invocation times of each batch so far.
    measured: Vec<Vec<Duration>>,
}

impl Estimate {
    pub(crate) fn new(planned: Vec<Planned>) -> Estimate {
        let measured = vec![Vec::new(); planned.len()];
        Estimate { planned, measured }
    }

    /// Batch `batch` (0-based) had an invocation that took `took`.
    pub(crate) fn measured(&mut self, batch: usize, took: Duration) {
        if let Some(m) = self.measured.get_mut(batch) {
            m.push(took);
        }
    }

    /// What is left once batch `batch` is running an invocation that started
    /// `running` ago (none between its invocations); `None` when nothing
    /// predicts or measured any of it.
    pub(crate) fn left(&self, batch: usize, running: Duration) -> Option<Left> {
        let all: Vec<Duration> = self.measured.iter().flatten().copied().collect();
        let mean_all = mean(&all);
        let (this, mut guess) = self.current(batch, running, mean_all)?;
        let mut later = Duration::ZERO;
        for p in self.planned.get(batch + 1..).unwrap_or_default() {
            later += match p.predicted {
                Some(t) => t,
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
        mean_all: Option<Duration>,
    ) -> Option<(Duration, bool)> {
        let planned = self.planned.get(batch)?;
        let current = self.measured.get(batch)?;
        let spent: Duration = current.iter().sum::<Duration>() + running;
        if let Some(t) = planned.predicted {
            return Some((t.saturating_sub(spent), false));
        }
        let remaining = planned.invocations.saturating_sub(current.len() as u32);
        match mean(current) {
            Some(m) => Some(((m * remaining).saturating_sub(running), false)),
            None => Some(((mean_all? * remaining).saturating_sub(running), true)),
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
        e.measured(0, s(10));
        // The loop's first iteration is guessed from the run's mean.
        assert_eq!(
            time(e.left(1, Duration::ZERO)),
            Some((s(4 * 10 + 10), true))
        );
        e.measured(1, s(2));
        e.measured(1, s(4));
        // Two iterations left at their own mean (3 s), one started 1 s ago;
        // the last batch at the run's mean ((10 + 2 + 4) / 3): a guess.
        assert_eq!(time(e.left(1, s(1))), Some((s(5) + s(16) / 3, true)));
        e.measured(1, s(3));
        e.measured(1, s(3));
        e.measured(2, s(7));
        assert_eq!(
            time(e.left(2, Duration::ZERO)),
            Some((Duration::ZERO, false))
        );
    }

    /// A batch the durations predict 53 s for is estimated at 53 s before it
    /// starts, not at the last batch's 5 s.
    #[test]
    fn recorded_durations_predict_a_batch_before_it_runs() {
        let s = Duration::from_secs;
        let mut e = Estimate::new(vec![
            Planned {
                invocations: 1,
                predicted: Some(s(5)),
            },
            Planned {
                invocations: 1,
                predicted: Some(s(53)),
            },
        ]);
        assert_eq!(e.left(0, s(1)).map(|l| l.time), Some(s(4 + 53)));
        e.measured(0, s(5));
        let left = e.left(1, Duration::ZERO).unwrap();
        assert_eq!((left.time, left.guess), (s(53), false));
        assert_eq!(left.to_string(), "~53s left");
        let guess = Left {
            time: s(40),
            guess: true,
        };
        assert_eq!(
            guess.to_string(),
            "~40s left (a guess: no recorded durations)"
        );
    }
}
