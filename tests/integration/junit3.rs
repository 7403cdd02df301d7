//! JUnit 3 on `tests/fixtures/plain-java`'s `:legacy` project: `Test*` classes
//! (the task includes only `**/Test*.class`) extending `TestCase` through
//! abstract bases, one in another project's main code, with no annotation
//! anywhere, and a package the build leaves out of compilation. What Gradle
//! runs is planned, and a branch making one of them flaky is run and found.

use crate::common::{git, plain_java_copy, text, use_recorded_layout};
use crate::plain_java::{flake_probability, flaky, json, plan_only, row, rows};
use serde_json::Value;

const LEGACY: &str = "com.example.legacy";

/// `plan` accepts every class Gradle runs (3 of 3), also through the abstract
/// bases, and refuses a `Test*` helper and a class that is never compiled,
/// each with its reason code.
#[test]
fn plan_accepts_the_junit3_classes_gradle_runs() {
    let build = plain_java_copy();
    let b = build.path();
    use_recorded_layout(b, "plain-java", &["gradle"]);
    let named = [
        "TestCounter",
        "TestArrayStack",
        "TestLinkedStack",
        "TestStackBase",
        "base.AbstractTestBase",
        "TestData",
        "broken.TestBroken",
    ]
    .map(|c| format!("{LEGACY}.{c}"));
    let mut args = vec!["plan", "--format", "json"];
    args.extend(named.iter().map(String::as_str));
    let out = plan_only(b, &args);
    assert_eq!(
        out.status.code(),
        Some(2),
        "two named classes are no tests: {}",
        text(&out)
    );
    let plan = json(&out);
    let mut classes: Vec<&str> = plan["tests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            assert_eq!(t["task"], ":legacy:test", "{t:#}");
            t["class"].as_str().unwrap()
        })
        .collect();
    classes.sort_unstable();
    classes.dedup();
    assert_eq!(
        classes,
        ["TestArrayStack", "TestCounter", "TestLinkedStack"].map(|c| format!("{LEGACY}.{c}"))
    );
    let expansions: Vec<(&Value, usize)> = plan["expansions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (&e["base"], e["chosen"].as_array().unwrap().len()))
        .collect();
    assert_eq!(
        expansions,
        [
            (&Value::from(format!("{LEGACY}.TestStackBase")), 2),
            (&Value::from(format!("{LEGACY}.base.AbstractTestBase")), 3)
        ]
    );
    let unresolved: Vec<(&Value, &Value)> = plan["unresolved"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| (&u["input"], &u["reasonCode"]))
        .collect();
    assert_eq!(
        unresolved,
        [
            (
                &Value::from(format!("{LEGACY}.TestData")),
                &Value::from("not-a-test")
            ),
            (
                &Value::from(format!("{LEGACY}.broken.TestBroken")),
                &Value::from("not-compiled")
            ),
        ]
    );
    assert_eq!(
        plan["unresolved"][1]["reason"],
        "`com/example/legacy/broken/TestBroken.java` is left out of the compilation of \
         `:legacy` source set `test` by its java source patterns (exclude **/broken/**): Gradle \
         never compiles it, so no task runs it"
    );
}

/// The case: a branch makes a method of a `Test*` class flaky. It is
/// selected, run by Gradle runs and found: exit 1, never "changed, not run".
#[test]
fn a_branch_making_a_junit3_test_flaky_is_run_and_found() {
    let build = plain_java_copy();
    let b = build.path();
    git(b, &["init", "-q", "-b", "main"]);
    git(b, &["add", "-A"]);
    git(b, &["commit", "-qm", "base"]);
    let source = b.join("legacy/src/test/java/com/example/legacy/TestLinkedStack.java");
    let flaky_now = std::fs::read_to_string(&source).unwrap().replacen(
        "        assertEquals(1, stack.size());\n",
        "        assertEquals(1, stack.size());\n        \
         com.example.testsupport.Flake.maybeFail(\"TestLinkedStack.testPeekKeepsTheTop\", 0.3);\n",
        1,
    );
    std::fs::write(&source, flaky_now).unwrap();
    // 0.6 per execution: 10 runs pass in a row with probability 1e-4.
    flake_probability(b, "0.6");

    let out = flaky(b, &["plan", "--changed", "--base", "main"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let plan = String::from_utf8_lossy(&out.stdout);
    assert!(
        plan.contains(&format!(
            "unit  :legacy:test  {LEGACY}.TestLinkedStack  changed"
        )),
        "{plan}"
    );

    let changed = |more: &[&str]| {
        let args = ["local", "--changed", "--base", "main", "--format", "json"];
        flaky(b, &[&args[..], more].concat())
    };
    // The full count, every method 10 times: stop on proof (on by default
    // for changed tests) would end the class once proven.
    let out = changed(&["--iters", "10", "--stop-on-flaky=false"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let report = json(&out);
    let class = format!("{LEGACY}.TestLinkedStack");
    // Its own method, the base's two and the one inherited from the other project.
    assert_eq!(rows(&report, &class).len(), 4, "{report:#}");
    for t in rows(&report, &class) {
        assert_eq!(t["runs"], 10, "{t:#}\n{}", text(&out));
        let flaky = t["method"] == "testPeekKeepsTheTop";
        assert_eq!(t["failures"].as_u64().unwrap() > 0, flaky, "{t:#}");
    }
    let message = row(&report, &class, "testPeekKeepsTheTop").to_string();
    assert!(
        message.contains("designed flake: TestLinkedStack.testPeekKeepsTheTop"),
        "{message}"
    );

    // By default a pull request's check stops a class once it is proven
    // flaky, also when the JUnit 4 runner repeats it in the JVM: chunks of
    // 4, 8, 16 and 12 iterations; unproven after 28 with probability < 1e-6.
    let out = changed(&["--iters", "40"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let report = json(&out);
    let t = row(&report, &class, "testPeekKeepsTheTop");
    assert!(t["runs"].as_u64().unwrap() < 40, "{t:#}");
    assert!(
        t["belowPlan"].as_str().unwrap().contains("proven flaky"),
        "{t:#}"
    );
    assert_eq!(
        t["repeatedBy"],
        serde_json::json!(["junit4-runner"]),
        "{t:#}"
    );
}

/// The JSR-166 TCK's case on `:legacy` (the task runs `Test*` classes only):
/// a comment in a concrete JUnit 3 base that Gradle never runs and that
/// declares no test of its own runs its subclasses (exit 0, each planned
/// execution), never "nothing was checked" (exit 3); a comment in such a
/// class with no subclass selects nothing (exit 0).
#[test]
fn a_comment_in_a_base_gradle_never_runs_runs_its_subclasses() {
    let build = plain_java_copy();
    let b = build.path();
    flake_probability(b, "0");
    let dir = b.join("legacy/src/test/java/com/example/legacy");
    let write = |name: &str, text: &str| std::fs::write(dir.join(name), text).unwrap();
    write(
        "LegacyCase.java",
        "package com.example.legacy;\n\nimport junit.framework.TestCase;\n\n\
         /** Helpers of the legacy tests; no test of its own. */\n\
         public class LegacyCase extends TestCase {\n    \
             protected void check(boolean b) { assertTrue(b); }\n}\n",
    );
    for (class, method) in [("TestAlpha", "testAlpha"), ("TestBeta", "testBeta")] {
        write(
            &format!("{class}.java"),
            &format!(
                "package com.example.legacy;\n\npublic class {class} extends LegacyCase {{\n    \
                 public void {method}() {{ check(true); }}\n}}\n"
            ),
        );
    }
    write(
        "LegacyHelper.java",
        "package com.example.legacy;\n\npublic class LegacyHelper extends junit.framework.TestCase {\n    \
         static int two() { return 2; }\n}\n",
    );
    git(b, &["init", "-q", "-b", "main"]);
    git(b, &["add", "-A"]);
    git(b, &["commit", "-qm", "base"]);
    use_recorded_layout(b, "plain-java", &["gradle"]);
    let comment = |file: &str| {
        let path = dir.join(file);
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, format!("{text}// a comment\n")).unwrap();
        git(b, &["commit", "-qam", file]);
    };
    git(b, &["checkout", "-qb", "base-comment"]);
    comment("LegacyCase.java");
    let args = [
        "local",
        "--changed",
        "--base",
        "main",
        "--iters",
        "2",
        "--format",
        "json",
    ];
    let out = flaky(b, &args);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let report = json(&out);
    for (class, method) in [("TestAlpha", "testAlpha"), ("TestBeta", "testBeta")] {
        let t = row(&report, &format!("{LEGACY}.{class}"), method);
        assert_eq!(
            (&t["runs"], &t["failures"]),
            (&2.into(), &0.into()),
            "{t:#}"
        );
    }
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(&format!(
            "changed `{LEGACY}.LegacyCase` runs through 2 of its 2 concrete test subclass(es)"
        )),
        "{stderr}"
    );
    git(b, &["checkout", "-q", "main"]);
    git(b, &["checkout", "-qb", "helper-comment"]);
    comment("LegacyHelper.java");
    let out = flaky(b, &args);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert!(text(&out).contains("nothing selected"), "{}", text(&out));
}
