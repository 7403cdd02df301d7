//! The history of generated records: pooled counts, rows and their cap,
//! first and last failing, the newest commit's comparison, the trend,
//! merging, the filter, and the rendered markdown and JSON (snapshots).

use super::ancestry::tests::{OneLine, Parents};
use super::ancestry::{Lineage, Unplaced};
use super::history::{Builder, Direction, Filter, History, Verdict, ROWS_PER_TEST};
use super::read::{self, End};
use super::record::{DurationSummary, LineView, Record, Repetition};
use super::render;
use super::store_tests::record;
use super::Summary;

/// A record of `class#method` on commit `commit` at minute `minute` of 2026-03-01.
fn at(class: &str, method: &str, commit: &str, minute: u64, runs: u64, failures: u64) -> Record {
    let mut r = record(class, method, runs, failures);
    r.commit = Some(commit.to_string());
    r.time = humantime::format_rfc3339_seconds(
        std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_772_323_200 + minute * 60),
    )
    .to_string();
    r
}

/// Feeds records to a builder as the reader would: written, then read back as lines.
fn feed(builder: &mut Builder, records: &[Record]) {
    for r in records {
        let line = serde_json::to_string(r).unwrap();
        let (view, secs) = read::parse::<LineView>(line.as_bytes(), End::Whole)
            .unwrap()
            .unwrap();
        builder.add(&view, secs);
    }
}

/// The history of `records` read in parts of `size` by builders of their
/// own, merged in order (as files read apart are).
fn merged_in_parts(records: &[Record], size: usize) -> History {
    let mut merged = Builder::new(Filter::default());
    for part in records.chunks(size) {
        let mut b = Builder::new(Filter::default());
        feed(&mut b, part);
        merged.merge(b);
    }
    merged.finish(&mut OneLine)
}

fn history_of(filter: Filter, records: &[Record]) -> History {
    let mut b = Builder::new(filter);
    feed(&mut b, records);
    b.finish(&mut OneLine)
}

#[test]
fn pooled_counts_rows_and_failing_times() {
    let records = vec![
        at("a.FooTests", "testX", "c1", 0, 100, 3),
        at("a.FooTests", "testX", "c1", 5, 100, 2),
        at("a.FooTests", "testX", "c2", 10, 100, 0),
        at("a.FooTests", "testY", "c2", 10, 50, 0),
    ];
    let h = history_of(Filter::default(), &records);
    assert_eq!(h.tests.len(), 2);
    let x = &h.tests[0];
    assert_eq!(
        (x.total.runs, x.total.failures, x.total.records),
        (300, 5, 3)
    );
    // The Wilson score interval of 5/300 by its formula (z = 1.96): [0.007139, 0.038415].
    assert_eq!(x.ci95, [0.007139, 0.038415]);
    assert_eq!(x.rows.len(), 2);
    assert_eq!(
        (x.rows[0].commit.as_deref(), x.rows[0].tally.runs),
        (Some("c1"), 200)
    );
    assert_eq!(x.rows[0].first_time, "2026-03-01T00:00:00Z");
    assert_eq!(x.rows[0].last_time, "2026-03-01T00:05:00Z");
    let first = x.first_failing.as_ref().unwrap();
    let last = x.last_failing.as_ref().unwrap();
    assert_eq!(
        (first.time.as_str(), last.time.as_str()),
        ("2026-03-01T00:00:00Z", "2026-03-01T00:05:00Z")
    );
    assert!(h.tests[1].first_failing.is_none());
}

#[test]
fn only_the_newest_rows_are_kept_and_the_rest_pooled() {
    let n = ROWS_PER_TEST as u64 + 12;
    let records: Vec<Record> = (0..n)
        .map(|i| {
            at(
                "a.FooTests",
                "t",
                &format!("c{i}"),
                i,
                10,
                u64::from(i % 7 == 0),
            )
        })
        .collect();
    // Read newest first, and in time order: the same rows either way.
    let mut reversed = records.clone();
    reversed.reverse();
    for order in [records, reversed] {
        let h = history_of(Filter::default(), &order);
        let t = &h.tests[0];
        assert_eq!(t.rows.len(), ROWS_PER_TEST);
        assert_eq!(t.rows[0].commit.as_deref(), Some("c12"));
        assert_eq!(
            t.rows.last().unwrap().commit.as_deref(),
            Some(format!("c{}", n - 1).as_str())
        );
        let earlier = t.earlier.unwrap();
        assert_eq!((earlier.records, earlier.runs), (12, 120));
        // Pooled counts are exact whatever was pushed out.
        assert_eq!(
            (t.total.records, t.total.runs, t.total.failures),
            (n, n * 10, 6)
        );
    }
}

#[test]
fn files_read_apart_merge_to_what_one_read_gives() {
    // Conditions, tasks, branches and dirty records in another order in
    // each part: each part numbers its names as it first sees them.
    let records: Vec<Record> = (0..80)
        .map(|i| {
            let mut r = at(
                "a.FooTests",
                &format!("t{}", i % 3),
                &format!("c{}", i / 2),
                i,
                10,
                u64::from(i % 5 == 0),
            );
            match i % 4 {
                1 => {
                    r.condition.repetition = Repetition::FreshJvm;
                    r.condition.mechanism = None;
                }
                2 => r.condition.mechanism = Some(crate::condition::InJvm::Junit4Runner),
                _ => {}
            }
            if i % 7 == 3 {
                r.test.task = "internalClusterTest".into();
            }
            r.dirty = i % 11 == 0;
            r.branch = Some(format!("b{}", i % 5));
            r
        })
        .collect();
    let whole = history_of(Filter::default(), &records);
    let t = &whole.tests[0];
    assert_eq!(t.tasks, ["internalClusterTest", "test"]);
    let conditions: std::collections::BTreeSet<String> =
        t.rows.iter().map(|r| r.condition.label()).collect();
    assert_eq!(conditions.len(), 3, "{conditions:?}");
    assert!(t.rows.iter().any(|r| r.dirty));
    assert_eq!(merged_in_parts(&records, 17), whole);
}

#[test]
fn the_filter_takes_classes_nested_classes_and_methods() {
    let records = vec![
        at("a.FooTests", "testX", "c", 0, 1, 0),
        at("a.FooTests$Inner", "testZ", "c", 0, 1, 0),
        at("a.FooTests", "testY", "c", 0, 1, 0),
        at("a.FooTestsMore", "testX", "c", 0, 1, 0),
    ];
    let names = |f: Filter| -> Vec<String> {
        history_of(f, &records)
            .tests
            .iter()
            .map(|t| format!("{}#{}", t.class, t.method))
            .collect()
    };
    let class = Filter::new(vec![("a.FooTests".into(), None)]);
    assert_eq!(
        names(class),
        [
            "a.FooTests#testX",
            "a.FooTests#testY",
            "a.FooTests$Inner#testZ"
        ]
    );
    let method = Filter::new(vec![("a.FooTests".into(), Some("testY".into()))]);
    assert_eq!(names(method), ["a.FooTests#testY"]);
    let plain = Filter::new(vec![("a.FooTests".into(), None)]);
    assert_eq!(plain.needles().len(), 1);
    let quoted = Filter::new(vec![("a.\"Odd".into(), None)]);
    assert!(
        quoted.needles().is_empty(),
        "a name JSON escapes is not looked for as it is"
    );
}

/// `before` failures of 40 on c1, then `after` of 40 on c2.
fn newest(before: u64, after: u64) -> super::history::Comparison {
    let records = vec![
        at("a.T", "t", "c1", 0, 40, before),
        at("a.T", "t", "c2", 60, 40, after),
    ];
    history_of(Filter::default(), &records).tests[0]
        .newest
        .clone()
        .unwrap()
}

#[test]
fn the_newest_commit_is_compared_with_the_records_before_it() {
    let fixed = newest(12, 0);
    assert_eq!(fixed.verdict, Verdict::Fixed);
    assert!(fixed.p_value < 0.0001);
    assert_eq!((fixed.before.failures, fixed.after.failures), (12, 0));
    // The doc's 3/40 then 0/40: p = 0.120, 27 more clean runs would show it.
    let not_shown = newest(3, 0);
    assert_eq!(not_shown.verdict, Verdict::NotShown);
    assert_eq!(stats_p(not_shown.p_value), "p = 0.120");
    assert_eq!(not_shown.more_clean_runs, Some(27));
    let worse = newest(0, 9);
    assert_eq!(
        (worse.verdict, worse.more_clean_runs),
        (Verdict::Worse, None)
    );
    let same = newest(2, 2);
    assert_eq!((same.verdict, same.p_value), (Verdict::Same, 1.0));
}

fn stats_p(p: f64) -> String {
    crate::stats::p_value(p)
}

#[test]
fn conditions_are_compared_only_with_themselves() {
    let mut fresh = at("a.T", "t", "c2", 60, 40, 0);
    fresh.condition.repetition = Repetition::FreshJvm;
    fresh.condition.mechanism = None;
    let records = vec![at("a.T", "t", "c1", 0, 40, 12), fresh];
    let t = &history_of(Filter::default(), &records).tests[0];
    // The newest row is fresh-jvm, of which nothing came before.
    assert_eq!(t.rows.len(), 2);
    assert!(t.newest.is_none());
}

#[test]
fn a_rising_rate_is_a_trend_and_a_slowdown_is_said() {
    let records: Vec<Record> = (0..8)
        .map(|i| {
            let mut r = at("a.T", "t", &format!("c{i}"), i, 100, i * 2);
            r.duration_sec = Some(DurationSummary {
                median: 0.1 * (i + 1) as f64,
                p90: 1.0,
                max: 1.0,
            });
            r
        })
        .collect();
    let t = &history_of(Filter::default(), &records).tests[0];
    assert_eq!(t.trend.direction, Direction::Rising);
    assert!(t.trend.p_value.unwrap() < 0.01);
    // Rates 0, 2%, …, 14%: one step of eight each.
    assert_eq!(render::sparkline(&t.trend.rates), "▁▂▃▄▅▆▇█");
    // Thirds of 8 rows: medians 0.1, 0.2 against 0.7, 0.8.
    assert_eq!(t.time_ratio, Some(5.0));
    let flat = history_of(Filter::default(), &records[..3]);
    assert_eq!(flat.tests[0].trend.direction, Direction::None);
    assert_eq!(flat.tests[0].trend.p_value, None);
}

/// A small history with every kind of line: a fixed test, one not shown
/// fixed, a clean one, and a hostile name.
fn sample() -> History {
    let mut records = vec![
        at(
            "org.example.FixedTests",
            "testRace",
            "1111111111111111111111111111111111111111",
            0,
            40,
            12,
        ),
        at(
            "org.example.FixedTests",
            "testRace",
            "2222222222222222222222222222222222222222",
            60,
            40,
            0,
        ),
        at(
            "org.example.NarrowedTests",
            "testTimeout",
            "1111111111111111111111111111111111111111",
            0,
            40,
            3,
        ),
        at(
            "org.example.NarrowedTests",
            "testTimeout",
            "2222222222222222222222222222222222222222",
            60,
            40,
            0,
        ),
        at(
            "org.example.StableTests",
            "testOk",
            "2222222222222222222222222222222222222222",
            60,
            100,
            0,
        ),
        at(
            "org.evil.`x`|<b>",
            "t\u{1b}[31m [link](http://e)",
            "3333333333333333333333333333333333333333",
            5,
            10,
            1,
        ),
    ];
    records[5].branch = Some("evil|`branch`\n".into());
    // 2222 and 4444 are siblings on 1111: neither is before the other.
    let (one, two, four) = ("1".repeat(40), "2".repeat(40), "4".repeat(40));
    records.extend([
        at("org.example.SiblingTests", "testA", &one, 0, 40, 3),
        at("org.example.SiblingTests", "testA", &two, 30, 40, 0),
        at("org.example.SiblingTests", "testA", &four, 60, 40, 6),
        at("org.example.ElsewhereTests", "testB", &two, 0, 40, 1),
        at("org.example.ElsewhereTests", "testB", &four, 60, 40, 2),
    ]);
    let lines = vec![
        (two.leak() as &str, one.clone().leak() as &str),
        (four.leak() as &str, one.leak() as &str),
    ];
    let mut b = Builder::new(Filter::default());
    feed(&mut b, &records);
    b.finish(&mut Parents(lines))
}

#[test]
fn history_markdown() {
    let md = render::markdown(&sample());
    assert!(
        !md.contains('\u{1b}'),
        "no control character reaches a terminal"
    );
    insta::assert_snapshot!(md);
}

#[test]
fn history_json() {
    let json = render::json(&sample());
    let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(value["tests"][1]["class"], "org.example.ElsewhereTests");
    assert_eq!(
        value["tests"][1]["notCompared"]["reason"],
        "no-ancestor-records"
    );
    assert_eq!(value["tests"][2]["class"], "org.example.FixedTests");
    assert_eq!(value["tests"][2]["newest"]["verdict"], "fixed");
    insta::assert_snapshot!(json);
}

#[test]
fn commits_and_branches_no_row_names_are_dropped_and_rows_keep_theirs() {
    // More distinct commits and branches than a summary holds before it
    // drops those no row names (several times over), read whole and in parts.
    let n = 40_000u64;
    let records: Vec<Record> = (0..n)
        .map(|i| {
            let mut r = at(
                "a.FooTests",
                &format!("t{}", i % 2),
                &format!("c{i}"),
                i,
                10,
                u64::from(i % 9 == 0),
            );
            r.branch = Some(format!("b{i}"));
            r
        })
        .collect();
    let whole = history_of(Filter::default(), &records);
    assert_eq!(whole.tests.len(), 2);
    for t in &whole.tests {
        assert_eq!(t.rows.len(), ROWS_PER_TEST);
        for row in &t.rows {
            let i = row.commit.as_deref().unwrap().strip_prefix('c').unwrap();
            assert_eq!(row.branch.as_deref(), Some(format!("b{i}").as_str()));
            assert!(i.parse::<u64>().unwrap() >= n - 2 * ROWS_PER_TEST as u64);
        }
        assert_eq!(t.earlier.unwrap().records, n / 2 - ROWS_PER_TEST as u64);
        assert_eq!(t.total.records, n / 2);
    }
    assert_eq!(merged_in_parts(&records, 15_000), whole);
}

/// Dropwizard Metrics' case in a real repository: `flaky-base` A 11/40
/// (main: A→B, B 5/40), `fix` from A with C 0/40, `nofix` from B with D
/// 60/240 newest. `nofix` against its line (B, A: 16/80) is the same, not
/// the "worse" that pooling the sibling `fix` gave (11/80 plus B).
fn branched_history(
    newest_fix: bool,
) -> (History, std::collections::HashMap<&'static str, String>) {
    let (dir, h) = super::ancestry::tests::branched();
    let fix_minute = if newest_fix { 90 } else { 10 };
    let records = vec![
        at("m.ReporterTest", "polls", &h["A"], 0, 40, 11),
        at("m.ReporterTest", "polls", &h["B"], 5, 40, 5),
        at("m.ReporterTest", "polls", &h["C"], fix_minute, 40, 0),
        at("m.ReporterTest", "polls", &h["D"], 60, 240, 60),
    ];
    let mut b = Builder::new(Filter::default());
    feed(&mut b, &records);
    let history = b.finish(&mut super::ancestry::Checkout::at(dir.path()));
    (history, h)
}

#[test]
fn the_newest_commit_is_compared_with_its_first_parent_line_never_a_sibling() {
    let (h, hashes) = branched_history(false);
    let t = &h.tests[0];
    let newest = t.newest.as_ref().unwrap();
    assert_eq!((newest.after.failures, newest.after.runs), (60, 240));
    assert_eq!((newest.before.failures, newest.before.runs), (16, 80));
    assert_eq!(newest.before_commits, [hashes["B"].as_str(), &hashes["A"]]);
    assert_eq!(newest.verdict, Verdict::Same, "{newest:?}");
    let left_out = newest.left_out.unwrap();
    assert_eq!((left_out.failures, left_out.runs), (0, 40), "fix's C");
    let md = render::markdown(&h);
    assert!(md.contains("same: 60/240 on `"), "{md}");
    let named = format!(
        "16/80 on its first-parent ancestors (`{}`, `{}`)",
        &hashes["B"][..12],
        &hashes["A"][..12]
    );
    assert!(md.contains(&named), "{md}");
    assert!(
        md.contains("0/40 of other branches or changes left out"),
        "{md}"
    );
    // The same records with every other row pooled, as before: "worse".
    let pooled = crate::stats::judge(
        crate::stats::Counts::new(16, 120),
        crate::stats::Counts::new(60, 240),
        super::history::ALPHA,
        super::history::ALPHA,
    );
    assert_eq!(pooled.verdict, Verdict::Worse);
}

#[test]
fn a_fix_on_its_branch_is_compared_with_the_base_it_left() {
    let (h, hashes) = branched_history(true);
    let newest = h.tests[0].newest.as_ref().unwrap();
    // C's line is A alone: B and D came after the branch point, on main.
    assert_eq!((newest.before.failures, newest.before.runs), (11, 40));
    assert_eq!(newest.before_commits, [hashes["A"].as_str()]);
    assert_eq!(newest.verdict, Verdict::Fixed);
    let left_out = newest.left_out.unwrap();
    assert_eq!((left_out.failures, left_out.runs), (65, 280));
}

#[test]
fn a_newest_commit_that_cannot_be_placed_is_not_compared_and_says_why() {
    let records = vec![
        at("a.T", "t", &"1".repeat(40), 0, 40, 12),
        at("a.T", "t", &"2".repeat(40), 60, 40, 0),
    ];
    let outside = tempfile::tempdir().unwrap();
    let (repo, _) = super::ancestry::tests::branched();
    let mut no_commit = records.clone();
    no_commit[1].commit = None;
    for (records, dir, reason) in [
        (&records, outside.path(), Unplaced::OutsideGit),
        (&records, repo.path(), Unplaced::UnknownCommit),
        (&no_commit, repo.path(), Unplaced::NoCommit),
    ] {
        let mut b = Builder::new(Filter::default());
        feed(&mut b, records);
        let h = b.finish(&mut super::ancestry::Checkout::at(dir));
        let t = &h.tests[0];
        assert!(t.newest.is_none());
        let not = t.not_compared.as_ref().unwrap();
        assert_eq!(not.reason, reason);
        assert_eq!((not.left_out.failures, not.left_out.runs), (12, 40));
        let md = render::markdown(&h);
        assert!(md.contains("- Newest commit: not compared: "), "{md}");
        assert!(md.contains(reason.says()), "{md}");
    }
}

#[test]
fn changes_on_a_commit_are_compared_with_the_commit_and_its_line_never_other_changes() {
    let mut dirty_before = at("a.T", "t", "c1", 10, 40, 30);
    dirty_before.dirty = true;
    let mut newest = at("a.T", "t", "c2", 60, 40, 0);
    newest.dirty = true;
    let records = vec![
        at("a.T", "t", "c1", 0, 40, 12),
        dirty_before,
        at("a.T", "t", "c2", 30, 40, 8),
        newest,
    ];
    let mut lineage = Parents(vec![("c2", "c1")]);
    let mut b = Builder::new(Filter::default());
    feed(&mut b, &records);
    let h = b.finish(&mut lineage as &mut dyn Lineage);
    let c = h.tests[0].newest.clone().unwrap();
    // c2's own 8/40 and its parent's 12/40; c1's changes left out.
    assert_eq!((c.before.failures, c.before.runs), (20, 80));
    assert_eq!(c.before_commits, ["c2", "c1"]);
    assert_eq!(c.left_out.map(|t| (t.failures, t.runs)), Some((30, 40)));
}
