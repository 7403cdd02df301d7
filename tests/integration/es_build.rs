//! Integration tests: Elasticsearch's real build shapes in the fixture, with
//! real Gradle: BWC task choice, host-mutating packaging tasks, abstract
//! bases expanded to their concrete subclasses, task patterns, and a Test task
//! the build skips.

use crate::common::{
    assert_layout_from_cache, fixture_copy, fixture_repo, git, gradle_flaky, run, text,
    use_recorded_layout,
};
use serde_json::{json, Value};
use std::path::Path;
use std::process::Output;

/// The Gradle program of these tests.
const GRADLE: [&str; 2] = ["gradle", "--offline"];

/// `gradle-flaky plan --format json ARGS` in `dir`, with the fixture's Gradle
/// and its recorded layout (see `use_recorded_layout`).
fn plan(dir: &Path, args: &[&str]) -> (Output, Value) {
    let out = run(gradle_flaky()
        .current_dir(dir)
        .args(["--gradle", "gradle --offline", "plan", "--format", "json"])
        .args(args));
    assert_layout_from_cache(&out);
    let plan = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("plan JSON: {e}\n{}", text(&out)));
    (out, plan)
}

/// (task, class) of every planned test.
fn tests_of(plan: &Value) -> Vec<(String, String)> {
    plan["tests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            (
                t["task"].as_str().unwrap().to_string(),
                t["class"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect()
}

fn task_paths(plan: &Value) -> Vec<Value> {
    plan["commands"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["taskPaths"].clone())
        .collect()
}

const INDEXING_IT: &str = "org.elasticsearch.upgrades.IndexingIT";
const PACKAGE_TESTS: &str = "org.elasticsearch.packaging.test.PackageTests";

#[test]
fn a_bwc_class_runs_on_its_two_newest_versions_and_a_packaging_class_is_refused() {
    let build = fixture_copy();
    let dir = build.path();
    use_recorded_layout(dir, "es-mini", &GRADLE);

    let (out, bwc) = plan(dir, &[INDEXING_IT]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let upgrade = |v: &str| format!(":qa:rolling-upgrade:v{v}#bwcTest");
    assert_eq!(
        tests_of(&bwc),
        [
            (upgrade("9.0.0"), INDEXING_IT.to_string()),
            (upgrade("8.19.10"), INDEXING_IT.to_string())
        ],
        "newest first by number: 9.0.0, 8.19.10 (not 8.19.9, which sorts after 8.19.10 as a string)"
    );
    assert_eq!(
        task_paths(&bwc),
        [json!([upgrade("9.0.0")]), json!([upgrade("8.19.10")])],
        "one command per chosen task"
    );
    assert_eq!(
        bwc["taskSelections"],
        json!([{
            "project": ":qa:rolling-upgrade",
            "sourceSet": "javaRestTest",
            "chosen": [upgrade("9.0.0"), upgrade("8.19.10")],
            "total": 3,
            "cap": 2
        }])
    );
    let argv = bwc["commands"][0]["argv"].as_array().unwrap();
    assert!(argv.contains(&json!(upgrade("9.0.0"))), "{argv:?}");

    // The cap is a flag and a variable.
    let (_, all) = plan(dir, &["--task-cap", "5", INDEXING_IT]);
    assert_eq!(all["tests"].as_array().unwrap().len(), 3);
    assert_eq!(all["tests"][2]["task"], upgrade("8.19.9"));
    let out = run(gradle_flaky()
        .current_dir(dir)
        .env("FLAKINESS_TASK_CAP", "1")
        .args([
            "--gradle",
            "gradle --offline",
            "plan",
            "--format",
            "json",
            INDEXING_IT,
        ]));
    let one: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        tests_of(&one),
        [(upgrade("9.0.0"), INDEXING_IT.to_string())]
    );

    // Only destructive tasks run the packaging tests: refused, nothing planned.
    let (out, packaging) = plan(dir, &[PACKAGE_TESTS]);
    assert_eq!(
        out.status.code(),
        Some(2),
        "a named test that cannot run: {}",
        text(&out)
    );
    assert_eq!(packaging["commands"], json!([]));
    assert_eq!(packaging["tests"], json!([]));
    let refused = &packaging["unresolved"][0];
    assert_eq!(refused["reasonCode"], "requires-packaging-host");
    assert!(
        refused["reason"]
            .as_str()
            .unwrap()
            .contains("--allow-host-mutating-tasks"),
        "{refused}"
    );
    // Naming the danger plans them.
    let (out, allowed) = plan(dir, &["--allow-host-mutating-tasks", PACKAGE_TESTS]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert_eq!(
        task_paths(&allowed),
        [json!([
            ":qa:packaging:destructiveDistroTest.default-deb",
            ":qa:packaging:destructiveDistroTest.default-rpm"
        ])]
    );
}

const BASE: &str = "test/framework/src/main/java/org/elasticsearch/test/AbstractWireTestCase.java";
const INTERMEDIATE: &str =
    "x-pack/plugin/ml/src/test/java/org/elasticsearch/xpack/ml/AbstractMlWireTestCase.java";

/// Commits a change to `file` on a new branch `name` from `main`.
fn branch_changing(dir: &Path, name: &str, file: &str) {
    git(dir, &["checkout", "-q", "main"]);
    git(dir, &["checkout", "-qb", name]);
    let path = dir.join(file);
    let source = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, format!("{source}// changed on {name}\n")).unwrap();
    git(dir, &["commit", "-qam", name]);
}

#[test]
fn a_pr_changing_an_abstract_base_runs_exactly_its_concrete_subclasses_on_their_own_tasks() {
    let repo = fixture_repo("unused");
    let dir = repo.path();
    use_recorded_layout(dir, "es-mini", &GRADLE);

    // The base in the test framework's main code: both concrete subclasses,
    // each on its own project's task; not the nested class (no test by name
    // or task pattern), not the subclass of the same-named class elsewhere.
    branch_changing(dir, "base", BASE);
    let (out, base) = plan(dir, &["--changed", "--base", "main"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert_eq!(
        tests_of(&base),
        [
            (
                ":server:test".to_string(),
                "org.elasticsearch.common.unit.ByteSizeValueWireTests".to_string()
            ),
            (
                ":x-pack:plugin:ml:test".into(),
                "org.elasticsearch.xpack.ml.MlWireTests".into()
            ),
        ],
        "{}",
        text(&out)
    );
    assert!(base["tests"]
        .as_array()
        .unwrap()
        .iter()
        .all(|t| t["origin"] == "changed"));
    assert_eq!(
        base["expansions"],
        json!([{
            "base": "org.elasticsearch.test.AbstractWireTestCase",
            "chosen": [
                "org.elasticsearch.common.unit.ByteSizeValueWireTests",
                "org.elasticsearch.xpack.ml.MlWireTests"
            ],
            "total": 2,
            "cap": 5,
            "notRun": [{
                "class": "org.elasticsearch.common.unit.ByteSizeValueWireTests$ZeroBytesWire",
                "reasonCode": "excluded-by-task-patterns",
                "reason": "`org.elasticsearch.common.unit.ByteSizeValueWireTests$ZeroBytesWire` \
                           is left out by the include/exclude patterns of every task that could \
                           run it (org/elasticsearch/common/unit/ByteSizeValueWireTests$ZeroBytesWire.class: \
                           `:server:test` includes **/*Tests.class); Gradle would run no test"
            }]
        }])
    );
    assert_eq!(base["unresolved"], json!([]));

    // The intermediate base: its own subclass only.
    branch_changing(dir, "intermediate", INTERMEDIATE);
    let (out, intermediate) = plan(dir, &["--changed", "--base", "main"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert_eq!(
        tests_of(&intermediate),
        [(
            ":x-pack:plugin:ml:test".to_string(),
            "org.elasticsearch.xpack.ml.MlWireTests".to_string()
        )]
    );

    // The cap spreads over projects; an unmuted or named base expands too.
    let (_, capped) = plan(
        dir,
        &[
            "--subclass-cap",
            "1",
            "org.elasticsearch.test.AbstractWireTestCase",
        ],
    );
    assert_eq!(capped["tests"].as_array().unwrap().len(), 1);
    assert_eq!(capped["expansions"][0]["total"], 2);
    assert_eq!(capped["expansions"][0]["cap"], 1);
}

#[test]
fn reason_codes_of_abstract_classes_without_subclasses_and_of_task_patterns() {
    let build = fixture_copy();
    let dir = build.path();
    use_recorded_layout(dir, "es-mini", &GRADLE);
    let orphan = dir.join("server/src/test/java/org/elasticsearch/common/AbstractOrphanTests.java");
    std::fs::write(
        &orphan,
        "package org.elasticsearch.common;\n\
         public abstract class AbstractOrphanTests extends org.elasticsearch.test.ESTestCase {}\n",
    )
    .unwrap();
    let (out, p) = plan(
        dir,
        &[
            "org.elasticsearch.common.AbstractOrphanTests",
            "org.elasticsearch.common.unit.ByteSizeValueWireTests$ZeroBytesWire",
            "org.elasticsearch.packaging.test.PackagingTestCase",
        ],
    );
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    let codes: Vec<(&str, &str)> = p["unresolved"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| {
            (
                u["input"].as_str().unwrap(),
                u["reasonCode"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        codes,
        [
            (
                "org.elasticsearch.common.AbstractOrphanTests",
                "abstract-no-concrete-subclass"
            ),
            (
                "org.elasticsearch.common.unit.ByteSizeValueWireTests$ZeroBytesWire",
                "excluded-by-task-patterns"
            ),
            (
                "org.elasticsearch.packaging.test.PackagingTestCase",
                "requires-packaging-host"
            ),
        ],
        "{p:#}"
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("(excluded-by-task-patterns)") && stderr.contains("**/*Tests.class"),
        "{stderr}"
    );
}

#[test]
fn a_test_task_the_build_skips_is_reported_as_skipped_by_the_build() {
    let build = fixture_copy();
    let dir = build.path();
    // As in Elasticsearch's compatibility tests: the runner's own task off,
    // so its class runs through yamlRestCompatTest, whose onlyIf is false.
    let append = |file: &str, line: &str| {
        let script = dir.join(file);
        let text_of = std::fs::read_to_string(&script).unwrap();
        std::fs::write(&script, format!("{text_of}\n{line}\n")).unwrap();
    };
    append(
        "modules/lang-painless/build.gradle",
        "tasks.yamlRestTest.enabled = false",
    );
    // And a unit batch of two tasks, one of which the build skips.
    append("server/build.gradle", "test.onlyIf { false }");
    let out = run(gradle_flaky().current_dir(dir).args([
        "--gradle",
        "gradle --offline",
        "local",
        "--rest-iters",
        "2",
        "--unit-iters",
        "2",
        "org.elasticsearch.painless.LangPainlessClientYamlTestSuiteIT",
        "org.elasticsearch.common.StringsTests",
        "org.elasticsearch.xpack.ml.MlConfigTests",
    ]));
    assert_eq!(
        out.status.code(),
        Some(3),
        "no test ran: not a clean pass: {}",
        text(&out)
    );
    let report = String::from_utf8_lossy(&out.stdout);
    let skipped = "skipped by the build: :modules:lang-painless:yamlRestCompatTest SKIPPED \
                   (onlyIf is false)";
    assert!(report.contains(skipped), "{}", text(&out));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(&format!("iteration 1/2: {skipped}")),
        "{}",
        text(&out)
    );
    assert!(!stderr.contains("no tests executed"), "{}", text(&out));
    assert!(
        report.contains(
            "passed, but some tests did not run: skipped by the build: :server:test SKIPPED \
             (onlyIf is false)"
        ),
        "{}",
        text(&out)
    );
    assert!(
        report.contains("MlConfigTests"),
        "the other task's tests ran: {report}"
    );
}
