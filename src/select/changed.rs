//! Changed files: the test files a branch adds or modifies.

use super::classify::{Classifier, Skip};
use super::outcome::settle;
use super::selection::Selection;
use crate::domain::{Origin, SkippedFile};
use std::path::{Path, PathBuf};

/// How a file changed between the merge base and the working tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChangeStatus {
    Added,
    Modified,
    /// Moved or renamed (possibly edited too): the test at the new path runs.
    Renamed,
    Copied,
    Deleted,
}

/// One changed file, relative to the build root (the new path for a rename).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    pub path: PathBuf,
    pub status: ChangeStatus,
}

/// Selects the tests among changed files, in input order. A test that cannot
/// run (abstract, not applicable) is reported as unresolved; a changed source
/// file that selects nothing (deleted, main code, a helper) is listed in
/// `skipped` with the reason. Other files (build scripts, docs) are not listed.
pub(crate) fn select(changes: &[Change], classifier: &Classifier) -> Selection {
    let mut selection = Selection::default();
    for change in changes {
        let input = change.path.to_string_lossy();
        let skipped = |reason: &str| SkippedFile {
            path: input.to_string(),
            reason: reason.to_string(),
        };
        if change.status == ChangeStatus::Deleted {
            if is_class_source(&change.path) {
                selection.skipped.push(skipped("deleted: nothing to run"));
            }
            continue;
        }
        let classified = classifier.classify_path(&change.path, Origin::Changed);
        let outcomes = &classified.outcomes;
        if outcomes.is_empty() && is_class_source(&change.path) {
            selection
                .skipped
                .push(skipped("in no source set of the build"));
        }
        let only_non_tests = outcomes.iter().all(|o| matches!(o, Err(Skip::NotATest(_))));
        if let (true, Some(Err(Skip::NotATest(why)))) = (only_non_tests, outcomes.first()) {
            if is_source(&change.path) {
                selection.skipped.push(skipped(why));
            }
        }
        selection.merge(settle(&input, Origin::Changed, classified, None));
    }
    selection
}

/// Java, Groovy or Kotlin source.
fn is_class_source(path: &Path) -> bool {
    matches!(
        path.extension().and_then(|e| e.to_str()),
        Some("java" | "groovy" | "kt")
    )
}

/// A class source or a YAML file (a REST suite, or a resource in a source set).
fn is_source(path: &Path) -> bool {
    matches!(
        path.extension().and_then(|e| e.to_str()),
        Some("java" | "groovy" | "kt" | "yml" | "yaml")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::TestKind;
    use crate::select::testing::{es_layout, MemFiles};

    fn changes(paths: &[&str]) -> Vec<Change> {
        paths
            .iter()
            .map(|p| Change {
                path: p.into(),
                status: ChangeStatus::Modified,
            })
            .collect()
    }

    fn kinds(s: &Selection) -> Vec<(String, TestKind)> {
        s.tests
            .iter()
            .map(|t| (t.project.clone(), t.kind.clone()))
            .collect()
    }

    #[test]
    fn the_reference_checklist_holds_through_the_layout() {
        let files = MemFiles::default();
        let mut layout = es_layout();
        // Elasticsearch's unit test tasks run `**/*Tests.class` only: that task
        // pattern is what leaves `AbstractIndexTest` out, not a name list.
        let server = &mut layout.projects[1];
        assert_eq!(server.test_tasks[0].path, ":server:test");
        server.test_tasks[0].includes = vec!["**/*Tests.class".into()];
        let c = Classifier::from_layout(&layout, &files);
        let s = select(
            &changes(&[
                "server/src/test/java/org/elasticsearch/index/IndexTests.java",
                "server/src/main/java/org/elasticsearch/index/Index.java",
                "modules/transport-netty4/src/javaRestTest/java/org/elasticsearch/rest/RestIT.java",
                "docs/README.asciidoc",
                "build.gradle",
                "server/src/test/java/org/elasticsearch/index/AbstractIndexTest.java",
                "server/src/test/java/org/elasticsearch/index/IndexTestCase.java",
                "server/src/test/java/org/elasticsearch/index/TestUtils.java",
                "x-pack/plugin/ml/src/yamlRestTest/java/org/elasticsearch/xpack/ml/YamlTestHelper.java",
                "test/external-modules/apm-integration/src/javaRestTest/java/org/elasticsearch/test/apm/ApmAgentTracesIT.java",
                "x-pack/plugin/ml/src/yamlRestTest/resources/rest-api-spec/test/ml/anomaly_detectors_get.yml",
            ]),
            &c,
        );
        assert_eq!(
            kinds(&s),
            [
                (":server".to_string(), TestKind::Unit),
                (":modules:transport-netty4".into(), TestKind::JavaRestTest),
                (
                    ":test:external-modules:test-apm-integration".into(),
                    TestKind::JavaRestTest
                ),
                (":x-pack:plugin:ml".into(), TestKind::YamlRestTestSuite),
            ]
        );
        assert!(s.unresolved.is_empty(), "{:?}", s.unresolved);
        assert!(s.tests.iter().all(|t| t.origin == Origin::Changed));
    }

    #[test]
    fn deletions_are_not_selected_but_renames_and_additions_are() {
        let files = MemFiles::default();
        let layout = es_layout();
        let c = Classifier::from_layout(&layout, &files);
        let change = |path: &str, status| Change {
            path: path.into(),
            status,
        };
        let s = select(
            &[
                change(
                    "server/src/test/java/a/GoneTests.java",
                    ChangeStatus::Deleted,
                ),
                change(
                    "server/src/test/java/a/MovedTests.java",
                    ChangeStatus::Renamed,
                ),
                change("server/src/test/java/a/NewTests.java", ChangeStatus::Added),
                change(
                    "server/src/test/java/a/CopyTests.java",
                    ChangeStatus::Copied,
                ),
            ],
            &c,
        );
        let classes: Vec<_> = s.tests.iter().filter_map(|t| t.class.as_deref()).collect();
        assert_eq!(classes, ["a.MovedTests", "a.NewTests", "a.CopyTests"]);
    }

    #[test]
    fn unrunnable_changed_tests_are_reported_with_the_reason() {
        let files = MemFiles::with(&[(
            "server/src/test/java/a/AbstractBaseTests.java",
            "public abstract class AbstractBaseTests {}",
        )]);
        let layout = es_layout();
        let c = Classifier::from_layout(&layout, &files);
        let s = select(
            &changes(&[
                "server/src/test/java/a/AbstractBaseTests.java",
                "qa/rolling-upgrade/src/javaRestTest/java/a/UpgradeIT.java",
            ]),
            &c,
        );
        assert!(s.tests.is_empty());
        let reasons: Vec<_> = s.unresolved.iter().map(|u| u.reason.as_str()).collect();
        assert!(reasons[0].contains("abstract"), "{reasons:?}");
        assert!(reasons[1].starts_with("not applicable"), "{reasons:?}");
        assert_eq!(
            s.unresolved[1].input,
            "qa/rolling-upgrade/src/javaRestTest/java/a/UpgradeIT.java"
        );
    }

    #[test]
    fn the_same_file_twice_is_selected_once() {
        let files = MemFiles::default();
        let layout = es_layout();
        let c = Classifier::from_layout(&layout, &files);
        let path = "server/src/test/java/a/ATests.java";
        assert_eq!(select(&changes(&[path, path]), &c).tests.len(), 1);
    }

    #[test]
    fn hostile_file_names_are_data() {
        let files = MemFiles::default();
        let layout = es_layout();
        let c = Classifier::from_layout(&layout, &files);
        let dir = "x-pack/plugin/ml/src/yamlRestTest/resources/rest-api-spec/test/ml/";
        let s = select(
            &changes(&[
                &format!("{dir}$(touch x) `id` \"q\" 'x' é.yml"),
                &format!("{dir}new\nline.yml"),
            ]),
            &c,
        );
        assert_eq!(s.tests.len(), 1, "{s:?}");
        assert_eq!(
            s.tests[0].yaml_suite.as_deref(),
            Some("ml/$(touch x) `id` \"q\" 'x' é")
        );
        // A control character cannot reach Gradle intact: refused, with its code.
        assert_eq!(
            s.unresolved[0].reason_code,
            crate::domain::ReasonCode::UnsupportedCharacters
        );
    }
}
