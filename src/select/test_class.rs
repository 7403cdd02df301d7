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
//! (`excluded-by-task-patterns`, decided with the task choice in `tasks`); a
//! helper is no test.

use super::source::{TypeKind, Unit};
use crate::test_filter::{class_file, Patterns};

/// Suffixes of the test class names of Gradle's, Maven's and Spock's conventions.
const TEST_SUFFIXES: [&str; 5] = ["Test", "Tests", "IT", "ITCase", "Spec"];

/// The naming rule, for messages.
pub const NAME_RULE: &str = "*Test, *Tests, *IT, *ITCase or *Spec";

/// Test annotations of JUnit 4 and 5 and TestNG, by simple name.
const TEST_ANNOTATIONS: [&str; 7] = [
    "Test",
    "RunWith",
    "ParameterizedTest",
    "RepeatedTest",
    "TestFactory",
    "TestTemplate",
    "Theory",
];

/// Superclasses that make a class a test: JUnit 3's and Spock's.
const TEST_BASES: [&str; 2] = ["TestCase", "Specification"];

pub fn is_test_name(simple: &str) -> bool {
    TEST_SUFFIXES
        .iter()
        .any(|s| simple.len() > s.len() && simple.ends_with(s))
}

/// Whether the file shows tests: a test annotation anywhere in its code, or
/// a class extending a test base.
pub fn declares_tests(unit: &Unit) -> bool {
    let annotated = unit
        .annotations
        .iter()
        .any(|a| TEST_ANNOTATIONS.contains(&a.simple()));
    let extends_base = unit.types.iter().flat_map(|t| &t.supers).any(|s| {
        let simple = s.name.rsplit('.').next().unwrap_or(&s.name);
        s.superclass && TEST_BASES.contains(&simple)
    });
    annotated || extends_base
}

/// Whether the file of the outer class `binary` (simple name `simple`)
/// declares nested classes that `patterns` let its task run as classes of
/// their own (`Outer$Inner`).
pub fn has_nested_classes(patterns: &Patterns, binary: &str, simple: &str, unit: &Unit) -> bool {
    let prefix = format!("{simple}$");
    unit.types
        .iter()
        .filter(|t| t.kind == TypeKind::Class)
        .filter_map(|t| t.local.strip_prefix(&prefix))
        .any(|nested| patterns.accepts(&class_file(&format!("{binary}${nested}"))))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::select::source::{parse, Language};

    /// The checks on a Java source text.
    fn declares_tests(text: &str) -> bool {
        super::declares_tests(&parse(text, Language::Java))
    }

    fn has_nested_classes(patterns: &Patterns, binary: &str, simple: &str, text: &str) -> bool {
        super::has_nested_classes(patterns, binary, simple, &parse(text, Language::Java))
    }

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
