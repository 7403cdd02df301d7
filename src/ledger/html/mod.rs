//! `history --format html` and `suspects --format html`: one self-contained
//! page a person opens in a browser. No script, and nothing fetched (a
//! Content-Security-Policy forbids it): the style is inline, the charts are
//! inline SVG, and the page reads the same without JavaScript. Every name,
//! commit, branch and message comes from whatever wrote the ledger: it
//! reaches the page only through [`crate::html::escape`].

mod chart;

use super::history::{Comparison, History, TestHistory};
use super::render::{sparkline, trend_reading};
use super::suspects::render::{evidence, short};
use super::suspects::{Suspect, Suspects};
use crate::analyze::model::clusters::Cluster;
use crate::html::escape;
use crate::stats::{self, Round};
use std::fmt::Write;

/// Nothing loads from anywhere: no script, font, image or style from a URL.
const POLICY: &str = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";

const STYLE: &str = "body{font:15px/1.45 system-ui,sans-serif;margin:2em auto;max-width:60em;\
padding:0 1em;color:#1f2328}h1,h2,h3{line-height:1.2}code,pre{font:13px ui-monospace,monospace}\
pre{background:#f6f8fa;padding:.6em;overflow-x:auto}table{border-collapse:collapse;margin:.5em 0}\
td,th{border:1px solid #d0d7de;padding:.25em .5em;text-align:left;vertical-align:top}\
td code{overflow-wrap:anywhere}\
td.n{text-align:right}.flaky{color:#d1242f}.broken{color:#8250df}.intermittent{color:#bc4c00}\
.chart{max-width:100%;height:auto}.grid{stroke:#d0d7de}.tick,.axis{font-size:11px;fill:#57606a}\
.legend{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:1em}.note{color:#57606a;\
font-size:13px}article{border-top:1px solid #d0d7de;margin-top:1.5em}";

/// The page: what was read, the suspects, the clusters, then each test's
/// history with its chart.
pub(crate) fn page(history: &History, suspects: &Suspects, title: &str) -> String {
    let mut html = format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta http-equiv=\"Content-Security-Policy\" content=\"{POLICY}\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>gradle-flaky: {}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<h1>{}</h1>\n",
        escape(title),
        escape(title)
    );
    let s = &history.sources;
    let _ = writeln!(
        html,
        "<p>{} test(s) with history; {} record(s) read from {} ledger file(s); {} test(s) in \
         {} run(s) judged for suspects.</p>",
        history.tests.len(),
        s.records.max(suspects.sources.records),
        s.files.max(suspects.sources.files),
        suspects.tests,
        suspects.runs
    );
    html += &suspects_section(suspects, history);
    html += &clusters_section(&suspects.clusters);
    html += "<section id=\"tests\">\n<h2>Tests</h2>\n";
    if history.tests.is_empty() {
        html += "<p>No history of the tests asked for.</p>\n";
    }
    for (i, t) in history.tests.iter().enumerate() {
        html += &test_article(i, t);
    }
    html + "</section>\n</body>\n</html>\n"
}

/// The anchor of `test`'s article, when the page has it.
fn anchor(history: &History, class: &str, method: &str) -> Option<String> {
    let i = history
        .tests
        .iter()
        .position(|t| t.class == class && t.method == method)?;
    Some(format!("t{i}"))
}

fn suspects_section(s: &Suspects, history: &History) -> String {
    let mut html = String::from("<section id=\"suspects\">\n<h2>Suspects</h2>\n");
    if s.suspects.is_empty() {
        return html + "<p>No test failed in the runs read.</p>\n</section>\n";
    }
    html += "<p><b>flaky</b>: failed and passed on one commit (proven, nothing re-run); \
             <b>broken</b>: failing in every run since a commit; <b>intermittent</b>: failing on \
             some commits, never beside a pass yet.</p>\n<table>\n<tr><th>kind</th><th>test</th>\
             <th>failed</th><th>evidence</th><th>failure</th></tr>\n";
    for x in &s.suspects {
        html += &suspect_row(x, history);
    }
    html += "</table>\n";
    let confirm: Vec<&str> = s.suspects.iter().map(|x| x.confirm.as_str()).collect();
    let _ = writeln!(
        html,
        "<h3>Confirm</h3>\n<p>Each command runs the test here often enough to see it fail at its \
         rate (95%).</p>\n<pre>{}</pre>",
        escape(&confirm.join("\n"))
    );
    let mutes: Vec<&str> = s
        .suspects
        .iter()
        .filter_map(|x| x.mute.as_deref())
        .collect();
    if !mutes.is_empty() {
        let _ = writeln!(
            html,
            "<h3>Mute</h3>\n<p>The proven flaky tests as entries of Elasticsearch's \
             <code>muted-tests.yml</code> (under <code>tests:</code>), each with its issue to \
             fill in:</p>\n<pre>{}</pre>",
            escape(mutes.concat().trim_end())
        );
    }
    html + "</section>\n"
}

fn suspect_row(x: &Suspect, history: &History) -> String {
    let name = escape(&x.test.spec());
    let test = match anchor(history, &x.test.class, &x.test.method) {
        Some(a) => format!("<a href=\"#{a}\"><code>{name}</code></a>"),
        None => format!("<code>{name}</code>"),
    };
    format!(
        "<tr><td class=\"{kind}\">{kind}</td><td>{test}</td><td class=\"n\">{}/{} in {} of {} \
         run(s)</td><td>{}</td><td><code>{}</code></td></tr>\n",
        x.failures,
        x.runs,
        x.failing_runs,
        x.recorded_runs,
        escape(&evidence(x)),
        escape(x.signature.as_deref().unwrap_or("")),
        kind = x.kind.as_str(),
    )
}

fn clusters_section(clusters: &[Cluster]) -> String {
    if clusters.is_empty() {
        return String::new();
    }
    let mut html = String::from(
        "<section id=\"clusters\">\n<h2>Failing together</h2>\n<p>Tests whose failures fall in \
         the same runs most often share one cause: fix it once.</p>\n<ul>\n",
    );
    for c in clusters {
        let tests: Vec<String> = c
            .tests
            .iter()
            .map(|t| format!("<code>{}#{}</code>", escape(&t.class), escape(&t.method)))
            .collect();
        let signature = match &c.signature {
            Some(s) => format!(": <code>{}</code> ({} of them)", escape(s), c.shared_by),
            None => String::new(),
        };
        let runs: Vec<String> = c.runs.iter().map(|r| escape(r)).collect();
        let _ = writeln!(
            html,
            "<li>{} tests failed together in {} runs{signature}: {}. Runs: {}.</li>",
            c.tests.len(),
            c.runs.len(),
            tests.join(", "),
            runs.join(", ")
        );
    }
    html + "</ul>\n</section>\n"
}

/// One test: its figures, chart and rows.
fn test_article(i: usize, t: &TestHistory) -> String {
    let mut html = format!(
        "<article id=\"t{i}\">\n<h3><code>{}</code></h3>\n<ul>\n<li>Pooled: {} of {} run(s) \
         failed: {} (95% CI {}–{}), {} record(s).</li>\n",
        escape(&t.name()),
        t.total.failures,
        t.total.runs,
        stats::percent(t.failure_rate, Round::Nearest),
        stats::percent(t.ci95[0], Round::Down),
        stats::percent(t.ci95[1], Round::Up),
        t.total.records
    );
    let _ = writeln!(
        html,
        "<li>Trend, oldest to newest row: <code>{}</code> {}.</li>",
        sparkline(&t.trend.rates),
        trend_reading(&t.trend)
    );
    if let Some(c) = &t.newest {
        let _ = writeln!(html, "<li>Newest commit: {}</li>", escape(&newest(c)));
    }
    html += "</ul>\n";
    html += &chart::chart(t);
    html += &rows_table(t);
    html + "</article>\n"
}

fn newest(c: &Comparison) -> String {
    let commit = short(c.commit.as_deref().unwrap_or("an unknown commit"));
    format!(
        "{}: {}/{} on {commit}, {}/{} before, {} ({}).",
        if c.narrowed {
            "narrowed, still failing"
        } else {
            c.verdict.as_str()
        },
        c.after.failures,
        c.after.runs,
        c.before.failures,
        c.before.runs,
        stats::p_value(c.p_value),
        c.condition.label()
    )
}

fn rows_table(t: &TestHistory) -> String {
    let mut html = String::from(
        "<table>\n<tr><th>last record</th><th>commit</th><th>branch</th><th>condition</th>\
         <th>records</th><th>runs</th><th>failures</th><th>rate</th></tr>\n",
    );
    for r in &t.rows {
        let commit = short(r.commit.as_deref().unwrap_or("unknown"));
        let _ = writeln!(
            html,
            "<tr><td>{}</td><td><code>{}{}</code></td><td>{}</td><td>{}</td><td class=\"n\">{}</td>\
             <td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td></tr>",
            escape(&r.last_time),
            escape(&commit),
            if r.dirty { " + changes" } else { "" },
            escape(r.branch.as_deref().unwrap_or("")),
            escape(&r.condition.label()),
            r.tally.records,
            r.tally.runs,
            r.tally.failures,
            stats::percent(r.failure_rate, Round::Nearest)
        );
    }
    html + "</table>\n"
}
