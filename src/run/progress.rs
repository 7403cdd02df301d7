//! What `local` shows on stderr while it runs: one line per batch and per
//! iteration, and, on a terminal, a live status line below them (batch, label,
//! iteration, elapsed time, failures so far). Plain lines only when stderr is
//! not a terminal or Gradle's output is streamed (`--verbose`); never colour.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::time::Duration;

pub struct Progress {
    /// The live status line; `None` when it must not be drawn.
    bar: Option<ProgressBar>,
}

impl Progress {
    /// `live`: stderr is a terminal and Gradle's output is not streamed to it.
    pub fn new(live: bool) -> Progress {
        let bar = live.then(|| {
            let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
            bar.set_style(
                ProgressStyle::with_template("{spinner} {elapsed:>4} {wide_msg}")
                    .unwrap_or_else(|_| ProgressStyle::default_spinner()),
            );
            bar.enable_steady_tick(Duration::from_millis(200));
            bar
        });
        Progress { bar }
    }

    /// A permanent line (above the status line when there is one).
    pub fn line(&self, text: &str) {
        match &self.bar {
            Some(bar) => bar.println(text),
            None => eprintln!("{text}"),
        }
    }

    /// Replaces the status line; `restart` resets its clock (a new batch).
    pub fn status(&self, text: String, restart: bool) {
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
