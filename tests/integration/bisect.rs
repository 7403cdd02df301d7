//! Integration tests: `bisect` on the es-mini fixture as a git history of
//! twelve commits where a test becomes 30% flaky at the seventh (real
//! Gradle in the build's kept worktree, the ledger written and reused).

use crate::common::{fixture_copy, git, gradle_flaky, run, text};
use std::path::Path;
use std::process::Output;

const TEST: &str = "org.elasticsearch.flaky.AssertionFlakyTests#testFlakyAssertion";
const SOURCE: &str = "server/src/test/java/org/elasticsearch/flaky/AssertionFlakyTests.java";

/// Sets the flaky test's failure probability in the working tree.
fn set_probability(dir: &Path, from: &str, to: &str) {
    let path = dir.join(SOURCE);
    let text = std::fs::read_to_string(&path).unwrap();
    let changed = text.replace(
        &format!("FLAKE_PROBABILITY = {from}"),
        &format!("FLAKE_PROBABILITY = {to}"),
    );
    assert_ne!(changed, text);
    std::fs::write(&path, changed).unwrap();
}

/// Commits a note (a change that cannot touch the test).
fn note(dir: &Path, n: u32) {
    let path = dir.join("NOTES.txt");
    let mut notes = std::fs::read_to_string(&path).unwrap_or_default();
    notes.push_str(&format!("note {n}\n"));
    std::fs::write(path, notes).unwrap();
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-qm", &format!("note {n}")]);
}

/// Twelve commits: the test stable in the first six, 30% flaky from the
/// seventh (its subject hostile markdown); the seventh's hash.
fn history(dir: &Path) -> String {
    set_probability(dir, "0.30", "0.0");
    git(dir, &["init", "-q", "-b", "main"]);
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-qm", "start: the test is stable"]);
    (1..=5).for_each(|n| note(dir, n));
    set_probability(dir, "0.0", "0.30");
    git(dir, &["commit", "-qam", "Cache the inputs | `x` <b>"]);
    let culprit = git(dir, &["rev-parse", "HEAD"]).trim().to_string();
    (7..=11).for_each(|n| note(dir, n));
    culprit
}

fn bisect(dir: &Path, good: &str) -> Output {
    run(gradle_flaky()
        .arg("--project-dir")
        .arg(dir)
        .args([
            "bisect",
            "--good",
            good,
            "--iters",
            "20",
            "--max-runs",
            "200",
        ])
        .args([TEST, "--", "--offline"]))
}

/// Runs the points' counts: "N run(s) in M Gradle invocation(s), K more from the ledger".
fn runs(md: &str) -> (u64, u64) {
    let line = md
        .lines()
        .find(|l| l.contains(" Gradle invocation(s), "))
        .unwrap();
    let n = |s: &str| s.split_whitespace().next().unwrap().parse::<u64>().unwrap();
    let ran = n(line);
    let known = line.split(", ").nth(1).map(n).unwrap();
    (ran, known)
}

/// `bisect` names the commit that made the test flaky within a few hundred
/// runs, each point recorded in the ledger; a second bisect reuses them
/// all and runs nothing; a good end that is already flaky is said, with no
/// culprit (exit 1); a class is refused: bisect follows one method.
#[test]
fn bisect_names_the_commit_that_made_a_test_flaky_and_reuses_the_ledger() {
    let repo = fixture_copy();
    let dir = repo.path();
    let culprit = history(dir);
    let out = bisect(dir, "main~11");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let md = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        md.contains(&format!(
            "**The test became flaky at `{}`** Cache the inputs \\| \\`x\\` &lt;b&gt; by t",
            &culprit[..12]
        )),
        "{md}"
    );
    let parent = git(dir, &["rev-parse", "main~6"]).trim().to_string();
    assert!(
        md.contains(&format!(
            "with `{}` checked out: `gradle-flaky local --compare {} ",
            &culprit[..12],
            &parent[..12]
        )),
        "{md}"
    );
    let (ran, known) = runs(&md);
    assert_eq!(known, 0);
    assert!((100..=1000).contains(&ran), "{ran} runs: {md}");
    let ledger =
        std::fs::read_to_string(dir.join(".gradle/gradle-flaky/ledger/ledger-000001.jsonl"))
            .unwrap();
    assert!(ledger.contains(&culprit), "the culprit's runs are recorded");

    let again = bisect(dir, "main~11");
    assert_eq!(again.status.code(), Some(0), "{}", text(&again));
    let md2 = String::from_utf8_lossy(&again.stdout).into_owned();
    assert_eq!(runs(&md2), (0, ran), "{md2}");
    assert!(md2.contains(&culprit[..12]), "{md2}");

    let flaky_good = bisect(dir, &culprit);
    assert_eq!(flaky_good.status.code(), Some(1), "{}", text(&flaky_good));
    let md3 = String::from_utf8_lossy(&flaky_good.stdout);
    assert!(
        md3.contains("**No culprit: the good end is already flaky**"),
        "{md3}"
    );

    let class = run(gradle_flaky()
        .arg("--project-dir")
        .arg(dir)
        .args(["bisect", "--good", "main~11"])
        .args([
            "org.elasticsearch.flaky.AssertionFlakyTests",
            "--",
            "--offline",
        ]));
    assert_eq!(class.status.code(), Some(2), "{}", text(&class));
    assert!(
        String::from_utf8_lossy(&class.stderr).contains("bisect follows one test method"),
        "{}",
        text(&class)
    );
}
