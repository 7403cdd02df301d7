//! Integration tests: `local --compare REF` on the es-mini fixture as a git
//! repository (REF in a worktree, real Gradle), the run ledger it writes,
//! and `history` over both commits.

use crate::common::{fixture_repo, git, gradle_flaky, run, text};
use crate::run::{json_report, local_command, row};
use serde_json::Value;
use std::path::Path;
use std::process::Output;

const CLASS: &str = "org.elasticsearch.flaky.AssertionFlakyTests";
const FLAKY: &str = "testFlakyAssertion";
/// Runs a side: at 30% before and 12% narrowed, a narrowing reads as fixed
/// (no failure in the 75 runs before the first look) with probability
/// 0.88^75 < 0.01%, and as no lower than before (one in 150 runs of each)
/// with probability under 0.01% (a normal approximation: the difference's
/// mean 27, its standard deviation 6.9).
const ITERS: &str = "150";
const SOURCE: &str = "server/src/test/java/org/elasticsearch/flaky/AssertionFlakyTests.java";

/// Commits on the checked-out branch the flaky test's failure probability `p`.
fn commit_probability(dir: &Path, p: &str, message: &str) {
    let path = dir.join(SOURCE);
    let text = std::fs::read_to_string(&path).unwrap();
    let changed = text.replace(
        "FLAKE_PROBABILITY = 0.30",
        &format!("FLAKE_PROBABILITY = {p}"),
    );
    assert_ne!(changed, text);
    std::fs::write(&path, changed).unwrap();
    git(dir, &["commit", "-qam", message]);
}

fn compare(dir: &Path, reference: &str, args: &[&str]) -> Output {
    let mut all = vec!["--compare", reference, "--iters", ITERS, "--format", "json"];
    all.extend(args);
    all.push(CLASS);
    run(&mut local_command(dir, &all, &[]))
}

fn comparison<'a>(report: &'a Value, method: &str) -> &'a Value {
    &row(report, CLASS, method)["comparison"]
}

fn head(dir: &Path) -> String {
    git(dir, &["rev-parse", "HEAD"]).trim().to_string()
}

/// A branch that removes the flake's cause is `fixed` (exit 0), shown at
/// the first look; one that only narrows it is not, and exits 1 while it
/// still fails, its before taken from the ledger this time; `history`
/// shows both commits. An unknown REF is an input error naming it.
#[test]
fn a_fix_is_shown_and_a_narrowing_is_not_and_history_has_both_commits() {
    let repo = fixture_repo("fix");
    let dir = repo.path();
    let main = git(dir, &["rev-parse", "main"]).trim().to_string();
    commit_probability(dir, "0.0", "remove the flake's cause");
    let fix = head(dir);

    let out = compare(dir, "main", &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("compare: 1 batch(es) on main ("),
        "{stderr}"
    );
    let report = json_report(&out);
    let c = comparison(&report, FLAKY);
    assert_eq!(c["verdict"], "fixed", "{c:#}");
    assert_eq!(c["before"]["commit"], main.as_str());
    assert_eq!(c["before"]["runs"], 150);
    assert_eq!(c["before"]["from"], "run");
    assert!(c["before"]["failures"].as_u64().unwrap() >= 5, "{c:#}");
    assert_eq!(c["after"]["commit"], fix.as_str());
    assert_eq!(c["after"]["failures"], 0);
    assert!(c["pValue"].as_f64().unwrap() < c["fixedBelow"].as_f64().unwrap());
    // 30% before: shown at the first look, halfway, the other runs saved.
    assert_eq!(
        (c["shownAtLook"].as_u64(), c["after"]["runs"].as_u64()),
        (Some(1), Some(75))
    );
    let stable = comparison(&report, "testStableAddition");
    assert_eq!(stable["verdict"], "same", "{stable:#}");
    assert_eq!(report["comparison"]["reference"], "main");
    assert_eq!(report["comparison"]["commit"], main.as_str());
    // The run folder keeps REF's reports and logs; the build keeps REF's
    // worktree (compiled), for the next comparison.
    let base = report["comparison"]["baseDir"].as_str().unwrap();
    assert!(Path::new(base).join("batch-1.log").is_file());
    let kept = dir
        .join(".gradle/gradle-flaky/base")
        .canonicalize()
        .unwrap();
    assert_eq!(report["comparison"]["worktree"], kept.to_str().unwrap());
    let worktrees = git(dir, &["worktree", "list"]);
    assert_eq!(worktrees.lines().count(), 2, "{worktrees}");
    let at = |commit: &str| {
        let worktrees = git(dir, &["worktree", "list"]);
        worktrees
            .lines()
            .any(|l| l.starts_with(kept.to_str().unwrap()) && l.contains(&commit[..7]))
    };
    assert!(at(&main), "{worktrees}");

    git(dir, &["checkout", "-q", "main"]);
    git(dir, &["checkout", "-qb", "narrow"]);
    commit_probability(dir, "0.12", "narrow the flake's cause");
    let narrow = head(dir);
    let out = compare(dir, "main", &[]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "failures remain: {}",
        text(&out)
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("compare: REF's side from the ledger, not run again: "),
        "{stderr}"
    );
    let report = json_report(&out);
    let c = comparison(&report, FLAKY);
    assert_ne!(c["verdict"], "fixed", "{c:#}");
    assert_eq!(c["before"]["from"], "ledger");
    assert!(c["after"]["failures"].as_u64().unwrap() > 0, "{c:#}");
    assert_eq!(c["after"]["runs"], 150, "it ran to the end: {c:#}");
    assert!(
        report["comparison"]["baseDir"].is_null(),
        "REF did not run again"
    );

    // The markdown says it in sentences.
    let out = run(&mut local_command(
        dir,
        &["--compare", "main", "--iters", ITERS, CLASS],
        &[],
    ));
    let md = String::from_utf8_lossy(&out.stdout);
    assert!(md.starts_with("## Comparison with `main` ("), "{md}");
    assert!(md.contains(&format!("- `{CLASS}#{FLAKY}`: **not")), "{md}");

    // A PR run of the narrowing notes that the test already fails on main
    // (80 runs at 12%: all pass one time in 28,000; 20 let one in 13 pass).
    let out = run(&mut local_command(
        dir,
        &[
            "--changed",
            "--base",
            "main",
            "--iters",
            "80",
            "--format",
            "json",
        ],
        &[],
    ));
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let report = json_report(&out);
    let known = &report["knownFlaky"][0];
    assert_eq!(
        (known["method"].as_str(), known["branch"].as_str()),
        (Some(FLAKY), Some("main")),
        "{report:#}"
    );
    assert_eq!(known["rates"][0]["runs"], 150, "{known:#}");

    // History shows both commits, and the narrowing's.
    let out = run(gradle_flaky().arg("--project-dir").arg(dir).args([
        "history",
        "--format",
        "json",
        &format!("{CLASS}#{FLAKY}"),
    ]));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let history: Value = serde_json::from_slice(&out.stdout).unwrap();
    let rows = history["tests"][0]["rows"].as_array().unwrap();
    let commits: Vec<&str> = rows.iter().map(|r| r["commit"].as_str().unwrap()).collect();
    for commit in [&main, &fix, &narrow] {
        assert!(
            commits.contains(&commit.as_str()),
            "{commit} in {commits:?}"
        );
    }
    let main_row = rows.iter().find(|r| r["commit"] == main.as_str()).unwrap();
    assert_eq!(main_row["branch"], "main");
    assert_eq!(main_row["runs"], 150, "REF ran once: {main_row:#}");

    // Against the fix, the narrowing is worse; REF runs in the kept
    // worktree, moved to the fix's commit.
    let out = compare(dir, "fix", &[]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("in the build's kept worktree of REF"),
        "{stderr}"
    );
    assert!(at(&fix));
    let c = comparison(&json_report(&out), FLAKY).clone();
    assert_eq!(
        (c["verdict"].as_str(), c["before"]["failures"].as_u64()),
        (Some("worse"), Some(0)),
        "{c:#}"
    );

    let out = compare(dir, "no-such-branch", &[]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("--compare no-such-branch: names no commit"),
        "{stderr}"
    );
}

/// A REF whose build fails is infrastructure: exit 3, no verdict, and
/// the working tree does not run.
#[test]
fn a_ref_that_does_not_build_is_no_verdict() {
    let repo = fixture_repo("broken");
    let dir = repo.path();
    let broken = dir.join("server/src/test/java/org/elasticsearch/flaky/Broken.java");
    std::fs::write(
        &broken,
        "package org.elasticsearch.flaky;\nclass Broken { int x = ; }\n",
    )
    .unwrap();
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-qm", "does not compile"]);
    git(dir, &["checkout", "-qb", "fix", "main"]);
    commit_probability(dir, "0.0", "fix");
    let out = compare(dir, "broken", &[]);
    assert_eq!(out.status.code(), Some(3), "{}", text(&out));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("compare: no test ran on broken"),
        "{stderr}"
    );
    assert!(
        !stderr.contains("compare: now this working tree"),
        "{stderr}"
    );
    let report = json_report(&out);
    assert!(report["tests"].as_array().unwrap().is_empty());
    let problems = report["comparison"]["baseProblems"].as_array().unwrap();
    assert!(
        problems[0].as_str().unwrap().contains("compileTestJava"),
        "{problems:?}"
    );
}
