//! What `local` shows on stderr while it runs: one line per batch and per
//! iteration, and, on a terminal, a live status line below them (batch, label,
//! iteration, elapsed time, failures so far, the time left). Plain lines only
//! when stderr is not a terminal or Gradle's output is streamed (`--verbose`);
//! never colour. Nothing here panics when stderr is gone.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// An estimate of the time left, and when it was made (so that it counts down).
type Left = Arc<Mutex<Option<(Instant, Duration)>>>;

pub struct Progress {
    /// The live status line; `None` when it must not be drawn.
    bar: Option<ProgressBar>,
    left: Left,
}

impl Progress {
    /// `live`: stderr is a terminal and Gradle's output is not streamed to it.
    pub fn new(live: bool) -> Progress {
        let left: Left = Arc::default();
        let bar = live.then(|| {
            let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
            let shown = left.clone();
            let countdown = move |_: &ProgressState, w: &mut dyn std::fmt::Write| {
                let estimate = *shown.lock().unwrap_or_else(|e| e.into_inner());
                if let Some((at, left)) = estimate {
                    let _ = write!(
                        w,
                        " · {}",
                        crate::time::left(left.saturating_sub(at.elapsed()))
                    );
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
    pub fn status(&self, text: String, restart: bool, left: Option<Duration>) {
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

/// The time the rest of a run should take, from the Gradle invocations
/// already measured: the current batch's remaining iterations at its own mean
/// (the run's mean before its first one ends), later batches at the run's mean.
#[derive(Clone, Debug, Default)]
pub struct Estimate {
    /// Invocations of each batch (REST loops: their iterations; others: 1).
    planned: Vec<u32>,
    /// Measured invocation times of each batch so far.
    measured: Vec<Vec<Duration>>,
}

impl Estimate {
    pub fn new(planned: Vec<u32>) -> Estimate {
        let measured = vec![Vec::new(); planned.len()];
        Estimate { planned, measured }
    }

    /// Batch `batch` (0-based) had an invocation that took `took`.
    pub fn measured(&mut self, batch: usize, took: Duration) {
        if let Some(m) = self.measured.get_mut(batch) {
            m.push(took);
        }
    }

    /// What is left once batch `batch` is running an invocation that started
    /// `running` ago (none between its invocations); `None` before anything
    /// was measured.
    pub fn left(&self, batch: usize, running: Duration) -> Option<Duration> {
        let all: Vec<Duration> = self.measured.iter().flatten().copied().collect();
        let mean_all = mean(&all)?;
        let current = self.measured.get(batch)?;
        let mean_current = mean(current).unwrap_or(mean_all);
        let remaining = self.planned[batch].saturating_sub(current.len() as u32);
        let this = (mean_current * remaining).saturating_sub(running);
        let later: u32 = self.planned[batch + 1..].iter().sum();
        Some(this + mean_all * later)
    }
}

fn mean(d: &[Duration]) -> Option<Duration> {
    let n = u32::try_from(d.len()).ok().filter(|n| *n > 0)?;
    Some(d.iter().sum::<Duration>() / n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_time_left_comes_from_what_was_measured() {
        let s = Duration::from_secs;
        // A unit batch, a REST loop of 4, a unit batch.
        let mut e = Estimate::new(vec![1, 4, 1]);
        assert_eq!(e.left(0, s(5)), None, "nothing measured yet");
        e.measured(0, s(10));
        // The loop's first iteration is guessed from the run's mean.
        assert_eq!(e.left(1, Duration::ZERO), Some(s(4 * 10 + 10)));
        e.measured(1, s(2));
        e.measured(1, s(4));
        // Two iterations left at their own mean (3 s), one started 1 s ago;
        // the last batch at the run's mean ((10 + 2 + 4) / 3).
        assert_eq!(e.left(1, s(1)), Some(s(5) + s(16) / 3));
        e.measured(1, s(3));
        e.measured(1, s(3));
        e.measured(2, s(7));
        assert_eq!(e.left(2, Duration::ZERO), Some(Duration::ZERO));
    }
}
