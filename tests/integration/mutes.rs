//! Elasticsearch's mutes on real Gradle: a copy of `tests/fixtures/plain-java`
//! whose `:legacy` test task leaves out the classes `muted-tests.yml` mutes
//! unless `-Dtests.mutes.enabled=false`, as Elasticsearch's build does. A
//! muted test gradle-flaky runs (here, named) runs with the mutes off.

use crate::common::{in_suite_home, plain_java_copy, run, text};
use crate::plain_java::{flake_probability, flaky, json, row};
use std::process::Command;

const COUNTER: &str = "com.example.legacy.TestCounter";
const ISSUE: &str = "https://github.com/elastic/elasticsearch/issues/900009";

/// The `:legacy` task applies the root's `muted-tests.yml` as
/// Elasticsearch's build does (for whole classes: Gradle 4.4.1 has no
/// method exclusion), scoped by `tasks:` when an entry has them.
const APPLIES_MUTES: &str = r#"
// As Elasticsearch's MutedTestPlugin: muted classes do not run, unless
// -Dtests.mutes.enabled=false. Applied when the task runs (Elasticsearch's
// test filter is no include/exclude pattern the layout would report).
test.doFirst {
  if (System.getProperty('tests.mutes.enabled') != 'false') {
    rootProject.file('muted-tests.yml').text.split('\n- ').each { entry ->
      if (entry.contains('tasks:') && !entry.contains("- ${path}\n")) {
        return
      }
      def cls = entry.readLines().find { it.trim().startsWith('class: ') }
      if (cls != null) {
        exclude('**/' + cls.trim().substring(7).trim().replace('.', '/') + '.class')
      }
    }
  }
}
"#;

/// TestCounter muted in `:legacy:test`, as Elasticsearch writes an entry.
fn muted_tests() -> String {
    format!("tests:\n- class: {COUNTER}\n  issue: {ISSUE}\n  tasks:\n  - :legacy:test\n")
}

/// Named while muted, a test runs with the build's mutes off: every planned
/// execution happens (by hand, the build runs none of it), and the plan
/// says why and which issue mutes it.
#[test]
fn a_named_muted_test_runs_with_the_mutes_off() {
    let build = plain_java_copy();
    let b = build.path();
    flake_probability(b, "0");
    let script = b.join("legacy/build.gradle");
    let old = std::fs::read_to_string(&script).unwrap();
    std::fs::write(&script, format!("{old}{APPLIES_MUTES}")).unwrap();
    std::fs::write(b.join("muted-tests.yml"), muted_tests()).unwrap();
    // By hand, the build runs nothing of it: the mute applies.
    let by_hand = run(in_suite_home(&mut Command::new("gradle"))
        .args([
            "--no-daemon",
            "--offline",
            "-q",
            ":legacy:test",
            "--tests",
            COUNTER,
        ])
        .current_dir(b));
    assert!(
        !by_hand.status.success() && text(&by_hand).contains("No tests found for given includes"),
        "{}",
        text(&by_hand)
    );
    // Gradle runs: Gradle's class scanning applies the mute (gradle-flaky's
    // JUnit 4 runner would load the class by name, past the emulation).
    let args = [
        "--iters",
        "3",
        "--repetition",
        "gradle-runs",
        "--format",
        "json",
    ];
    let plan = flaky(b, &[&["plan"], &args[..], &[COUNTER]].concat());
    assert_eq!(plan.status.code(), Some(0), "{}", text(&plan));
    let plan = json(&plan);
    assert_eq!(
        plan["tests"][0]["mute"],
        serde_json::json!({"state": "muted", "task": ":legacy:test", "issue": ISSUE})
    );
    let argv = plan["commands"][0]["argv"].to_string();
    assert!(argv.contains("-Dtests.mutes.enabled=false"), "{argv}");
    let notes = plan["notes"].to_string();
    assert!(
        notes.contains(&format!(
            "`{COUNTER}` is muted in `:legacy:test` ({ISSUE}): it runs with Elasticsearch's \
             mutes off"
        )),
        "{notes}"
    );
    let plan_text = flaky(b, &["plan", "--repetition", "gradle-runs", COUNTER]);
    let shown = String::from_utf8_lossy(&plan_text.stdout);
    assert!(
        shown.contains(&format!("{COUNTER}  explicit, muted ({ISSUE})")),
        "{shown}"
    );
    let out = flaky(b, &[&["local"], &args[..], &[COUNTER]].concat());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let report = json(&out);
    for method in ["testIncrements", "testConcurrentIncrements"] {
        let t = row(&report, COUNTER, method);
        assert_eq!(
            (&t["runs"], &t["failures"]),
            (&3.into(), &0.into()),
            "{t:#}"
        );
    }
}
