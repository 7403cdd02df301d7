//! What counts as a test class: what the build's Test task runs, not a fixed
//! name list.
//!
//! A task with include/exclude patterns looks only at the class files they
//! accept; a task without patterns (Gradle's default) scans every class file
//! and runs each concrete class that has tests. Either way a class must look
//! like a test to be selected: named like one (`*Test`, `*Tests`, `*IT`,
//! `*ITCase`, `*Spec`; a name can be all there is when the tests are
//! inherited) or declaring tests in its source (`@Test`, `@RunWith`,
//! `@ParameterizedTest`, `extends TestCase`, `extends Specification`, …).
//! A class that looks like a test but that the patterns leave out is reported
//! (`excluded-by-task-patterns`); a helper the task would not run is no test.

use super::classify::Skip;
use crate::domain::{Reason, ReasonCode};
use crate::test_filter::{class_file, Patterns};
use regex::Regex;
use std::sync::LazyLock;

/// Suffixes of the test class names of Gradle's, Maven's and Spock's conventions.
const TEST_SUFFIXES: [&str; 5] = ["Test", "Tests", "IT", "ITCase", "Spec"];

/// Test annotations and base classes of JUnit 4 and 5, TestNG and Spock.
static TEST_MARKERS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"@(?:[\w.]+\.)?(?:Test|RunWith|ParameterizedTest|RepeatedTest|TestFactory|TestTemplate|Theory)\b|\bextends\s+(?:[\w.]+\.)?(?:TestCase|Specification)\b",
    )
    .expect("a valid regex")
});

/// Class declarations (the outer one included) in Java, Groovy or Kotlin source.
static CLASS_DECLARATIONS: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\bclass\s+([\p{L}_$][\p{L}\p{N}_$]*)").expect("a valid regex"));

pub fn is_test_name(simple: &str) -> bool {
    TEST_SUFFIXES
        .iter()
        .any(|s| simple.len() > s.len() && simple.ends_with(s))
}

pub fn declares_tests(source: &str) -> bool {
    TEST_MARKERS.is_match(source)
}

/// Whether `task` (with `patterns`) runs the class `binary` (its binary name,
/// `a.Outer$Inner` for a nested class) whose simple name is `simple`.
pub fn check(
    task: &str,
    patterns: &Patterns,
    binary: &str,
    simple: &str,
    source: &str,
) -> Result<(), Skip> {
    let looks_like_test = is_test_name(simple) || declares_tests(source);
    if patterns.accepts(&class_file(binary)) {
        if looks_like_test {
            return Ok(());
        }
        return Err(Skip::NotATest(format!(
            "`{simple}` declares no tests and is not named like a test class ({})",
            TEST_SUFFIXES.map(|s| format!("*{s}")).join(", ")
        )));
    }
    if declares_tests(source) {
        return Err(Skip::Unresolved(Reason::new(
            ReasonCode::ExcludedByTaskPatterns,
            format!(
                "`{binary}` is not run by `{task}`: its patterns ({}) leave it out",
                patterns.describe()
            ),
        )));
    }
    Err(Skip::NotATest(format!(
        "`{simple}` declares no tests, and `{task}` runs only the classes its patterns ({}) accept",
        patterns.describe()
    )))
}

/// Whether the file of the outer class `binary` declares nested classes that
/// `patterns` let its task run as classes of their own (`Outer$Inner`).
pub fn has_nested_classes(patterns: &Patterns, binary: &str, simple: &str, source: &str) -> bool {
    CLASS_DECLARATIONS
        .captures_iter(source)
        .filter_map(|c| c.get(1))
        .map(|m| m.as_str())
        .filter(|name| *name != simple)
        .any(|name| patterns.accepts(&class_file(&format!("{binary}${name}"))))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_names_follow_gradle_maven_and_spock_conventions() {
        for name in [
            "IndexTests",
            "RetryingClientTest",
            "ClusterIT",
            "ServiceITCase",
            "ArchUnitSpec",
        ] {
            assert!(is_test_name(name), "{name}");
        }
        for name in ["IndexTestCase", "IT", "TestUtils", "Test", "Flake"] {
            assert!(!is_test_name(name), "{name}");
        }
    }

    #[test]
    fn tests_are_recognised_by_their_annotations_and_bases() {
        assert!(declares_tests(
            "import org.junit.Test;\n class A { @Test public void a() {} }"
        ));
        assert!(declares_tests(
            "@org.testng.annotations.Test(dataProvider = \"x\") void e()"
        ));
        assert!(declares_tests(
            "@RunWith(Parameterized.class) public class P {}"
        ));
        assert!(declares_tests(
            "@ParameterizedTest @ValueSource(ints = 1) void p(int i)"
        ));
        assert!(declares_tests("class FooSpec extends Specification {"));
        assert!(declares_tests(
            "class Old extends junit.framework.TestCase {"
        ));
        assert!(!declares_tests("@TestConfiguration class Helper {}"));
        assert!(!declares_tests(
            "public final class Flake { static void maybeFail() {} }"
        ));
    }

    #[test]
    fn the_tasks_patterns_decide_and_scanning_takes_anything_test_like() {
        let scan = Patterns::default();
        let ok = |p: &Patterns, binary: &str, simple: &str, src: &str| {
            check(":p:test", p, binary, simple, src)
        };
        assert_eq!(
            ok(&scan, "a.RetryingClientTest", "RetryingClientTest", ""),
            Ok(())
        );
        assert_eq!(
            ok(&scan, "a.SmokeChecks", "SmokeChecks", "@Test void x()"),
            Ok(())
        );
        assert!(matches!(
            ok(&scan, "a.Flake", "Flake", "class Flake {}"),
            Err(Skip::NotATest(_))
        ));
        let app = Patterns {
            includes: vec!["**/*Test.class".into()],
            excludes: vec!["**/*ManualTest.class".into()],
        };
        assert_eq!(ok(&app, "a.AppTest", "AppTest", "@Test void x()"), Ok(()));
        let Err(Skip::Unresolved(reason)) = ok(
            &app,
            "a.ExcludedManualTest",
            "ExcludedManualTest",
            "@Test void x()",
        ) else {
            panic!("excluded by the patterns")
        };
        assert_eq!(reason.code, ReasonCode::ExcludedByTaskPatterns);
        assert_eq!(
            reason.text,
            "`a.ExcludedManualTest` is not run by `:p:test`: its patterns (include \
             **/*Test.class, exclude **/*ManualTest.class) leave it out"
        );
        assert!(matches!(
            ok(&app, "a.SmokeChecks", "SmokeChecks", "@Test void x()"),
            Err(Skip::Unresolved(r)) if r.code == ReasonCode::ExcludedByTaskPatterns
        ));
        assert!(matches!(
            ok(&app, "a.TestUtils", "TestUtils", ""),
            Err(Skip::NotATest(_))
        ));
    }

    #[test]
    fn nested_classes_count_when_the_task_runs_them() {
        let src = "public class LruCacheTest {\n  public static class EvictionTest { @Test void e() {} }\n}";
        let scan = Patterns::default();
        assert!(has_nested_classes(
            &scan,
            "a.LruCacheTest",
            "LruCacheTest",
            src
        ));
        let only_tests = Patterns {
            includes: vec!["**/*Tests.class".into()],
            excludes: vec![],
        };
        assert!(!has_nested_classes(
            &only_tests,
            "a.FooTests",
            "FooTests",
            "class FooTests { static class ZeroBytesWire {} }"
        ));
        assert!(!has_nested_classes(
            &scan,
            "a.A",
            "A",
            "class A { void x() {} }"
        ));
    }
}
