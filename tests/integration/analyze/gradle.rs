//! Real XML written by Gradle 4.4.1 running the fixture build (see
//! tests/data/junit-gradle/README.md), placed where Gradle writes it.

use super::{data, place};
use gradle_flaky::analyze::model::report::{FailureKind, TestReport};
use gradle_flaky::analyze::{self, AnalyzeOptions, Report};

/// (scenario folder, file, where the file goes below the root).
pub const LAYOUT: &[(&str, &str, &str)] = &[
    (
        "flaky-unit",
        "TEST-org.elasticsearch.flaky.AssertionFlakyTests.xml",
        "server/build/test-results/test",
    ),
    (
        "flaky-unit",
        "TEST-org.elasticsearch.flaky.ExceptionFlakyTests.xml",
        "server/build/test-results/test",
    ),
    (
        "stable-unit",
        "TEST-org.elasticsearch.common.StringsTests.xml",
        "server/build/test-results/test",
    ),
    (
        "suite-timeout",
        "TEST-org.elasticsearch.xpack.ml.slow.SuiteTimeoutTests.xml",
        "x-pack/plugin/ml/build/test-results/slowTests",
    ),
    (
        "suite-timeout-iters",
        "TEST-org.elasticsearch.xpack.ml.slow.SuiteTimeoutTests.xml",
        "flakiness-iters/iter-2/x-pack/plugin/ml/build/test-results/slowTests",
    ),
    (
        "yaml-runner",
        "TEST-org.elasticsearch.painless.LangPainlessClientYamlTestSuiteIT.xml",
        "modules/lang-painless/build/test-results/yamlRestTest",
    ),
    (
        "yaml-runner",
        "TEST-org.elasticsearch.xpack.ml.MlClientYamlTestSuiteIT.xml",
        "x-pack/plugin/ml/build/test-results/yamlRestTest",
    ),
    (
        "yaml-bad-suite",
        "TEST-org.elasticsearch.painless.LangPainlessClientYamlTestSuiteIT.xml",
        "flakiness-iters/iter-1/modules/lang-painless/build/test-results/yamlRestTest",
    ),
    (
        "flaky-integ",
        "TEST-org.elasticsearch.search.SearchFlakyIT.xml",
        "server/build/test-results/internalClusterTest",
    ),
    (
        "oom",
        "TEST-org.elasticsearch.xpack.esql.heap_attack.HeapAttackIT.xml",
        "test/external-modules/esql-heap-attack/build/test-results/javaRestTest",
    ),
];

/// A temp root holding every Gradle report of the fixture where Gradle puts it.
pub fn gradle_root() -> tempfile::TempDir {
    let root = tempfile::tempdir().unwrap();
    for (scenario, file, dir) in LAYOUT {
        let xml = std::fs::read(data(&format!("junit-gradle/{scenario}/{file}"))).unwrap();
        place(root.path(), &format!("{dir}/{file}"), xml);
    }
    root
}

/// The fixture renames `test/external-modules/<dir>` to `:test:external-modules:test-<dir>`,
/// as Elasticsearch does: the fallback project path rule knows it.
pub fn fixture_options() -> AnalyzeOptions {
    AnalyzeOptions::default()
}

pub fn find<'r>(report: &'r Report, class: &str, method: &str) -> &'r TestReport {
    report
        .tests
        .iter()
        .find(|t| t.class.ends_with(class) && t.method == method)
        .unwrap_or_else(|| panic!("no {class}.{method} in {:#?}", report.tests))
}

#[test]
fn counts_every_execution_of_the_fixture_reports() {
    let root = gradle_root();
    let report = analyze::analyze_root(root.path(), &fixture_options());
    let s = &report.summary;
    assert_eq!(
        (
            s.executions,
            s.passed,
            s.failed,
            s.suite_timeouts,
            s.skipped
        ),
        (90, 74, 12, 4, 1)
    );
    assert_eq!((s.tests, s.flaky_tests), (33, 3));
    assert_eq!(report.files.read, LAYOUT.len() as u64);
    assert!(report.files.truncated.is_empty() && report.files.malformed.is_empty());

    // Seeded iterations collapse into one test per method, each seed kept.
    let assertion = find(&report, "AssertionFlakyTests", "testFlakyAssertion");
    assert_eq!(
        (assertion.runs, assertion.passes, assertion.failures),
        (10, 7, 3)
    );
    assert_eq!(assertion.failure_kinds.0, vec![(FailureKind::Assertion, 3)]);
    assert_eq!(assertion.failing_seeds.len(), 3);
    assert!(assertion
        .failing_seeds
        .iter()
        .all(|s| s.starts_with("364D07F139:")));
    assert_eq!(assertion.kinds, vec!["test"]);
    assert_eq!(
        assertion.reproduce.as_deref(),
        Some(
            format!(
                "./gradlew :server:cleanTest :server:test --tests org.elasticsearch.flaky.AssertionFlakyTests.testFlakyAssertion -Dtests.seed={}",
                assertion.failing_seeds[0]
            )
            .as_str()
        )
    );
    assert_eq!((assertion.ci95[0], assertion.ci95[1]), (0.107791, 0.603222));
    let exception = find(&report, "ExceptionFlakyTests", "testFlakyException");
    assert_eq!((exception.runs, exception.failures), (10, 4));
    assert_eq!(exception.failure_kinds.0, vec![(FailureKind::Error, 4)]);
    let search = find(&report, "SearchFlakyIT", "testFlakySearch");
    assert_eq!((search.runs, search.failures), (5, 2));
    assert_eq!(search.kinds, vec!["internalClusterTest"]);

    // Suite timeouts, including the classMethod pseudo-case, stand apart.
    let slow = find(&report, "SuiteTimeoutTests", "testSometimesSlow");
    assert_eq!((slow.runs, slow.failures, slow.suite_timeouts), (0, 0, 2));
    let class_method = find(&report, "SuiteTimeoutTests", "classMethod");
    assert_eq!((class_method.runs, class_method.suite_timeouts), (0, 2));
    assert_eq!(find(&report, "SuiteTimeoutTests", "testQuick").passes, 3);

    // YAML cases keep their descriptor; the seed comes from the stack trace.
    let yaml = find(
        &report,
        "LangPainlessClientYamlTestSuiteIT",
        "test {yaml=painless/30_flaky/Sometimes fails}",
    );
    assert_eq!((yaml.passes, yaml.failures), (0, 1));
    assert_eq!(yaml.kinds, vec!["yamlRestTest"]);
    let reproduce = yaml.reproduce.as_deref().unwrap();
    assert!(
        reproduce.starts_with(
            "./gradlew :modules:lang-painless:cleanYamlRestTest :modules:lang-painless:yamlRestTest --tests org.elasticsearch.painless.LangPainlessClientYamlTestSuiteIT '-Dtests.method=test {yaml=painless/30_flaky/Sometimes fails}' -Dtests.seed=1A2B3C4D5E6F7081"
        ),
        "{reproduce}"
    );
    find(
        &report,
        "LangPainlessClientYamlTestSuiteIT",
        "test {yaml=painless/20_scriptfield/from, to, include_lower, include_upper deprecated}",
    );
    let bad_suite = find(
        &report,
        "LangPainlessClientYamlTestSuiteIT",
        "initializationError",
    );
    assert_eq!(bad_suite.failure_kinds.0, vec![(FailureKind::Error, 1)]);

    // The resolver names the renamed project.
    let oom = find(&report, "HeapAttackIT", "testHeapAttack");
    assert_eq!(
        oom.reproduce.as_deref(),
        Some(
            "./gradlew :test:external-modules:test-esql-heap-attack:cleanJavaRestTest :test:external-modules:test-esql-heap-attack:javaRestTest --tests org.elasticsearch.xpack.esql.heap_attack.HeapAttackIT.testHeapAttack -Dtests.seed=5EED5EED5EED5EED:58A55AD4C204188F"
        )
    );

    // Most failing first.
    let failures: Vec<u64> = report.tests.iter().map(|t| t.failures).collect();
    assert!(failures.windows(2).all(|w| w[0] >= w[1]), "{failures:?}");
}

#[test]
fn per_file_counts_tell_what_each_report_held() {
    let root = gradle_root();
    let report = analyze::analyze_root(root.path(), &AnalyzeOptions::default());
    let by_path = |path: &str| {
        report
            .files
            .reports
            .iter()
            .find(|f| f.path == path)
            .unwrap_or_else(|| panic!("{path}"))
    };
    let paths: Vec<&str> = report
        .files
        .reports
        .iter()
        .map(|f| f.path.as_str())
        .collect();
    let mut sorted = paths.clone();
    sorted.sort();
    assert_eq!(paths, sorted, "files are merged in path order");

    let yaml = by_path("modules/lang-painless/build/test-results/yamlRestTest/TEST-org.elasticsearch.painless.LangPainlessClientYamlTestSuiteIT.xml");
    assert_eq!(yaml.counts.cases, 12);
    assert_eq!((yaml.executions(), yaml.skipped, yaml.failed), (11, 1, 1));
    assert_eq!(
        yaml.task.as_deref(),
        Some(":modules:lang-painless:yamlRestTest")
    );

    let iter = by_path("flakiness-iters/iter-2/x-pack/plugin/ml/build/test-results/slowTests/TEST-org.elasticsearch.xpack.ml.slow.SuiteTimeoutTests.xml");
    assert_eq!(
        (iter.counts.cases, iter.passed, iter.suite_timeouts),
        (5, 3, 2)
    );
    assert_eq!(iter.task.as_deref(), Some(":x-pack:plugin:ml:slowTests"));

    // Without the layout, the fallback rule knows Elasticsearch's one rename.
    let oom = by_path("test/external-modules/esql-heap-attack/build/test-results/javaRestTest/TEST-org.elasticsearch.xpack.esql.heap_attack.HeapAttackIT.xml");
    assert_eq!(
        oom.task.as_deref(),
        Some(":test:external-modules:test-esql-heap-attack:javaRestTest")
    );
}

#[test]
fn system_streams_with_split_cdata_do_not_leak_into_the_results() {
    let (execs, file) = super::read(
        std::fs::File::open(data(
            "junit-gradle/stable-unit/TEST-org.elasticsearch.common.StringsTests.xml",
        ))
        .unwrap(),
    );
    assert_eq!(
        file.state,
        gradle_flaky::analyze::read::junit::State::Complete
    );
    let names: Vec<&str> = execs.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(names, vec!["testOutput", "testCapitalize", "testHasText"]);
}
