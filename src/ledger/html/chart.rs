//! A test's rate by commit as an inline SVG chart: one point per row
//! (commit and condition), its Wilson 95% interval as a bar through it, each
//! condition its own colour and shape, each point titled with its counts (a
//! tooltip, no script). Every name through [`crate::html::escape`].

use crate::html::escape;
use crate::ledger::history::{Row, TestHistory};
use crate::stats::{self, Round};
use std::fmt::Write;

const WIDTH: f64 = 720.0;
const HEIGHT: f64 = 220.0;
const LEFT: f64 = 48.0;
const RIGHT: f64 = 16.0;
const TOP: f64 = 12.0;
const BOTTOM: f64 = 40.0;
/// Colours and shapes of the conditions, in the order they first appear.
const COLOURS: [&str; 6] = [
    "#1f6feb", "#d1242f", "#1a7f37", "#8250df", "#bc4c00", "#57606a",
];
/// Commit labels on the axis: every k-th when there are more.
const MAX_LABELS: usize = 12;

/// The chart of `t`'s rows, with its legend; empty without rows.
pub(super) fn chart(t: &TestHistory) -> String {
    if t.rows.is_empty() {
        return String::new();
    }
    let commits = distinct(&t.rows, commit_label);
    let conditions = distinct(&t.rows, |r| r.condition.label());
    let top = scale_top(&t.rows);
    let plot = Plot {
        commits: commits.len(),
        conditions: conditions.len(),
        top,
    };
    let label = format!(
        "Failure rate of {} by commit, 0 to {}",
        t.name(),
        stats::percent(top, Round::Nearest)
    );
    let mut svg = format!(
        "<svg class=\"chart\" viewBox=\"0 0 {WIDTH} {HEIGHT}\" width=\"{WIDTH}\" height=\"{HEIGHT}\" \
         role=\"img\" aria-label=\"{}\">\n",
        escape(&label)
    );
    svg += &axes(&plot, &commits);
    for row in &t.rows {
        let c = commits
            .iter()
            .position(|x| *x == commit_label(row))
            .unwrap_or(0);
        let k = conditions
            .iter()
            .position(|x| *x == row.condition.label())
            .unwrap_or(0);
        svg += &point(&plot, c, k, row);
    }
    svg += "</svg>\n";
    svg + &legend(&conditions)
}

/// Where the points go.
struct Plot {
    commits: usize,
    conditions: usize,
    /// The rate at the top of the chart.
    top: f64,
}

impl Plot {
    /// The x of commit `c`, condition `k` beside the others.
    fn x(&self, c: usize, k: usize) -> f64 {
        let step = (WIDTH - LEFT - RIGHT) / self.commits as f64;
        let spread = (step * 0.5).min(24.0);
        let offset = match self.conditions {
            1 => 0.0,
            n => spread * (k as f64 / (n - 1) as f64 - 0.5),
        };
        LEFT + step * (c as f64 + 0.5) + offset
    }

    /// The x of commit `c`'s label.
    fn center(&self, c: usize) -> f64 {
        LEFT + (WIDTH - LEFT - RIGHT) / self.commits as f64 * (c as f64 + 0.5)
    }

    fn y(&self, rate: f64) -> f64 {
        let h = HEIGHT - TOP - BOTTOM;
        TOP + h * (1.0 - (rate / self.top).clamp(0.0, 1.0))
    }
}

/// The smallest of 5%, 10%, 20%, 50% and 100% above every interval.
fn scale_top(rows: &[Row]) -> f64 {
    let high = rows
        .iter()
        .map(|r| stats::wilson95(r.tally.failures, r.tally.runs)[1])
        .fold(0.0, f64::max);
    [0.05, 0.1, 0.2, 0.5, 1.0]
        .into_iter()
        .find(|t| *t >= high)
        .unwrap_or(1.0)
}

/// The rows' `label`s (commits, conditions), each once, in the order they
/// first appear (oldest first).
fn distinct(rows: &[Row], label: impl Fn(&Row) -> String) -> Vec<String> {
    let mut labels: Vec<String> = Vec::new();
    for l in rows.iter().map(label) {
        if !labels.contains(&l) {
            labels.push(l);
        }
    }
    labels
}

/// A row's commit, short, `+` when its records had changes.
fn commit_label(r: &Row) -> String {
    let c: String = r
        .commit
        .as_deref()
        .unwrap_or("unknown")
        .chars()
        .take(10)
        .collect();
    match r.dirty {
        true => format!("{c}+"),
        false => c,
    }
}

/// The frame, the rate's ticks and the commits' labels.
fn axes(plot: &Plot, commits: &[String]) -> String {
    let (x0, x1) = (LEFT, WIDTH - RIGHT);
    let mut s = String::new();
    for tick in [0.0, 0.5, 1.0] {
        let y = plot.y(plot.top * tick);
        let _ = writeln!(
            s,
            "<line x1=\"{x0}\" y1=\"{y:.1}\" x2=\"{x1}\" y2=\"{y:.1}\" class=\"grid\"/>\
             <text x=\"{:.1}\" y=\"{:.1}\" class=\"tick\" text-anchor=\"end\">{}</text>",
            x0 - 6.0,
            y + 4.0,
            stats::percent(plot.top * tick, Round::Nearest)
        );
    }
    let every = commits.len().div_ceil(MAX_LABELS).max(1);
    for (c, commit) in commits.iter().enumerate().filter(|(c, _)| c % every == 0) {
        let _ = writeln!(
            s,
            "<text x=\"{:.1}\" y=\"{:.1}\" class=\"tick\" text-anchor=\"middle\">{}</text>",
            plot.center(c),
            HEIGHT - BOTTOM + 16.0,
            escape(commit)
        );
    }
    let _ = writeln!(
        s,
        "<text x=\"{:.1}\" y=\"{:.1}\" class=\"axis\" text-anchor=\"middle\">commit, oldest first</text>",
        (x0 + x1) / 2.0,
        HEIGHT - 6.0
    );
    s
}

/// One row: its interval as a bar, its rate as a marker, titled.
fn point(plot: &Plot, c: usize, k: usize, row: &Row) -> String {
    let (x, colour) = (plot.x(c, k), COLOURS[k % COLOURS.len()]);
    let [lo, hi] = stats::wilson95(row.tally.failures, row.tally.runs);
    let title = format!(
        "{}, {}: {}/{} failed = {} (95% CI {}–{}), {} record(s)",
        commit_label(row),
        row.condition.label(),
        row.tally.failures,
        row.tally.runs,
        stats::percent(row.failure_rate, Round::Nearest),
        stats::percent(lo, Round::Down),
        stats::percent(hi, Round::Up),
        row.tally.records
    );
    let y = plot.y(row.failure_rate);
    let fill = if row.dirty { "none" } else { colour };
    format!(
        "<g><title>{}</title><line x1=\"{x:.1}\" y1=\"{:.1}\" x2=\"{x:.1}\" y2=\"{:.1}\" \
         stroke=\"{colour}\" stroke-width=\"2\"/>{}</g>\n",
        escape(&title),
        plot.y(lo),
        plot.y(hi),
        marker(k, x, y, colour, fill)
    )
}

/// Condition `k`'s shape at (x, y): circle, square, triangle, diamond, …
fn marker(k: usize, x: f64, y: f64, stroke: &str, fill: &str) -> String {
    let r = 4.5;
    let style = format!("stroke=\"{stroke}\" fill=\"{fill}\" stroke-width=\"1.5\"");
    match k % 4 {
        0 => format!("<circle cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"{r}\" {style}/>"),
        1 => format!(
            "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{}\" height=\"{}\" {style}/>",
            x - r,
            y - r,
            2.0 * r,
            2.0 * r
        ),
        2 => format!(
            "<polygon points=\"{x:.1},{:.1} {:.1},{:.1} {:.1},{:.1}\" {style}/>",
            y - r - 1.0,
            x - r,
            y + r,
            x + r,
            y + r
        ),
        _ => format!(
            "<polygon points=\"{x:.1},{:.1} {:.1},{y:.1} {x:.1},{:.1} {:.1},{y:.1}\" {style}/>",
            y - r - 1.0,
            x + r + 1.0,
            y + r + 1.0,
            x - r - 1.0
        ),
    }
}

/// The conditions' colours and shapes, as a list.
fn legend(conditions: &[String]) -> String {
    let mut s = String::from("<ul class=\"legend\">");
    for (k, c) in conditions.iter().enumerate() {
        let colour = COLOURS[k % COLOURS.len()];
        let _ = write!(
            s,
            "<li><svg width=\"14\" height=\"14\" viewBox=\"0 0 14 14\" aria-hidden=\"true\">{}</svg> {}</li>",
            marker(k, 7.0, 7.5, colour, colour),
            escape(c)
        );
    }
    s + "</ul>\n<p class=\"note\">Each point is a commit's rate in one condition; its bar is the \
         95% interval; a hollow point ran with changes not committed.</p>\n"
}
