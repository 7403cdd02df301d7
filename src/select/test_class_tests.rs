use super::*;
use crate::select::jar::Classpath;
use crate::select::source::parse;
use crate::select::testing::{hierarchy, MemFiles};
use std::path::PathBuf;

/// What the detector finds for `binary` of `path` among `sources`, with the
/// compiled classes of `files` under `/b/classes`.
fn detect_with(
    sources: &[(&str, &str)],
    files: &MemFiles,
    platform: bool,
    binary: &str,
    path: &str,
) -> Detection {
    let h = hierarchy(sources);
    let compiled = Compiled::new(vec![PathBuf::from("/b/classes")], files);
    Detector::new(&h, &compiled, platform).detect(binary, Path::new(path))
}

fn detect(sources: &[(&str, &str)], binary: &str) -> Detection {
    let path = sources
        .iter()
        .find(|(_, text)| {
            let simple = binary.rsplit('.').next().unwrap();
            text.contains(&format!("class {simple} "))
        })
        .map(|(p, _)| *p)
        .unwrap();
    detect_with(sources, &MemFiles::default(), false, binary, path)
}

/// Commons Pool's shape: `Test*` classes, JUnit 3 through the project's own
/// abstract bases, no annotation anywhere; the base in another project.
fn pool() -> Vec<(&'static str, &'static str)> {
    vec![
        (
            "base/src/main/java/p/base/TestObjectPool.java",
            "package p.base;\nimport junit.framework.TestCase;\n\
             public abstract class TestObjectPool extends TestCase {\n\
               public void testClose() {}\n}",
        ),
        (
            "pool/src/test/java/p/TestBaseObjectPool.java",
            "package p;\nimport p.base.*;\n\
             public class TestBaseObjectPool extends TestObjectPool {}",
        ),
        (
            "pool/src/test/java/p/impl/TestStackObjectPool.java",
            "package p.impl;\nimport p.TestBaseObjectPool;\n\
             public class TestStackObjectPool extends TestBaseObjectPool {\n\
               public void testIdleCap() {}\n}",
        ),
        (
            "pool/src/test/java/p/TestData.java",
            "package p;\npublic class TestData { static int n() { return 1; } }",
        ),
        (
            "pool/src/test/java/p/Failure.java",
            "package p;\npublic class Failure extends RuntimeException {}",
        ),
        (
            "pool/src/test/java/p/Waiter.java",
            "package p;\nimport java.util.concurrent.atomic.AtomicLong;\n\
             public class Waiter extends AtomicLong {}",
        ),
    ]
}

#[test]
fn junit3_test_cases_are_tests_through_any_depth_of_bases() {
    let sources = pool();
    assert_eq!(
        detect(&sources, "p.impl.TestStackObjectPool"),
        Detection::Test
    );
    assert_eq!(detect(&sources, "p.TestBaseObjectPool"), Detection::Test);
}

#[test]
fn a_fully_resolved_chain_without_tests_is_no_test() {
    let sources = pool();
    assert_eq!(
        detect(&sources, "p.TestData"),
        Detection::NotTest(vec!["java.lang.Object".into()])
    );
    assert_eq!(
        detect(&sources, "p.Failure"),
        Detection::NotTest(vec!["java.lang.RuntimeException".into()])
    );
    assert_eq!(
        detect(&sources, "p.Waiter"),
        Detection::NotTest(vec!["java.util.concurrent.atomic.AtomicLong".into()])
    );
    assert_eq!(
        not_a_test_reason("TestData", &["java.lang.Object".into()]),
        "`TestData` declares no tests and inherits none (superclasses: java.lang.Object): \
         Gradle's test detection skips it (no JUnit 3 `TestCase`, no `@Test`, `@RunWith` or \
         TestNG annotation)"
    );
}

#[test]
fn a_chain_into_a_jar_is_undecided() {
    let sources = [
        (
            "fw/src/main/java/org/e/test/ESTestCase.java",
            "package org.e.test;\nimport com.carrotsearch.randomizedtesting.RandomizedTest;\n\
             public abstract class ESTestCase extends RandomizedTest {}",
        ),
        (
            "server/src/test/java/org/e/IndexTests.java",
            "package org.e;\nimport org.e.test.ESTestCase;\n\
             public class IndexTests extends ESTestCase { public void testIndex() {} }",
        ),
        (
            "server/src/test/java/org/e/SameNameBase.java",
            "package org.e;\npublic class SameNameBase extends LibraryBase {}",
        ),
    ];
    assert_eq!(detect(&sources, "org.e.IndexTests"), Detection::Undecided);
    // A simple name the build does not declare, in the package or a jar.
    assert_eq!(detect(&sources, "org.e.SameNameBase"), Detection::Undecided);
}

#[test]
fn annotations_anywhere_in_the_chain_make_tests() {
    let sources = [
        (
            "a/src/test/java/a/Base.java",
            "package a;\nimport org.junit.Test;\n\
             public abstract class Base { @Test public void inherited() {} }",
        ),
        (
            "a/src/test/java/a/Sub.java",
            "package a;\npublic class Sub extends Base {}",
        ),
        (
            "a/src/test/java/a/Suite.java",
            "package a;\n@RunWith(Suite.class) public class Suite {}",
        ),
        (
            "a/src/test/java/a/NgTest.java",
            "package a;\nimport org.testng.annotations.Test;\n@Test public class NgTest {}",
        ),
        (
            "a/src/test/java/a/Made.java",
            "package a;\nimport org.testng.annotations.Factory;\n\
             public class Made { @Factory public Object[] make() { return null; } }",
        ),
        (
            "a/src/test/java/a/Micronaut.java",
            "package a;\nimport io.micronaut.context.annotation.Factory;\n\
             public class Micronaut { @Factory Object make() { return null; } }",
        ),
    ];
    for class in ["a.Sub", "a.Suite", "a.NgTest", "a.Made"] {
        assert_eq!(detect(&sources, class), Detection::Test, "{class}");
    }
    assert_eq!(
        detect(&sources, "a.Micronaut"),
        Detection::NotTest(vec!["java.lang.Object".into()])
    );
}

#[test]
fn interfaces_count_only_on_the_junit_platform() {
    let sources = [
        (
            "a/src/test/java/a/Contract.java",
            "package a;\nimport org.junit.jupiter.api.Test;\n\
             public interface Contract { @Test default void holds() {} }",
        ),
        (
            "a/src/test/java/a/Impl.java",
            "package a;\npublic class Impl implements Contract {}",
        ),
        (
            "a/src/test/java/a/Lib.java",
            "package a;\nimport org.lib.LibContract;\npublic class Lib implements LibContract, java.io.Serializable {}",
        ),
    ];
    let files = MemFiles::default();
    let on = |platform, class: &str, path| detect_with(&sources, &files, platform, class, path);
    assert_eq!(
        on(true, "a.Impl", "a/src/test/java/a/Impl.java"),
        Detection::Test
    );
    assert_eq!(
        on(false, "a.Impl", "a/src/test/java/a/Impl.java"),
        Detection::NotTest(vec!["java.lang.Object".into()])
    );
    assert_eq!(
        on(true, "a.Lib", "a/src/test/java/a/Lib.java"),
        Detection::Undecided
    );
}

#[test]
fn compiled_classes_stand_in_for_missing_sources() {
    // `a.b.Sample` (tests/data/bytecode) is annotated `@RunWith` and extends
    // `TestCase`; `a.b.Sample$Nested` extends Object and has no tests.
    let files = MemFiles::default()
        .with_bytes(
            "/b/classes/a/b/Sample.class",
            include_bytes!("../../tests/data/bytecode/Sample.class"),
        )
        .with_bytes(
            "/b/classes/a/b/Sample$Nested.class",
            include_bytes!("../../tests/data/bytecode/Sample$Nested.class"),
        );
    let sources = [
        (
            "c/src/test/java/c/FromClasses.java",
            "package c;\nimport a.b.Sample;\npublic class FromClasses extends Sample {}",
        ),
        (
            "c/src/test/java/c/FromNested.java",
            "package c;\npublic class FromNested extends a.b.Sample.Nested {}",
        ),
    ];
    let at = |class: &str, path| detect_with(&sources, &files, false, class, path);
    assert_eq!(
        at("c.FromClasses", "c/src/test/java/c/FromClasses.java"),
        Detection::Test
    );
    assert_eq!(
        at("c.FromNested", "c/src/test/java/c/FromNested.java"),
        Detection::Undecided,
        "written `a.b.Sample.Nested`, read as a package: not found"
    );
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

/// Whether the first type of a Java source shows tests without looking further.
fn evident(text: &str) -> bool {
    let unit = parse(text, Language::Java);
    evidently_a_test(&unit, Language::Java, &unit.types[0])
}

#[test]
fn tests_are_recognised_by_their_annotations_and_bases() {
    assert!(evident(
        "import org.junit.Test;\n class A { @Test public void a() {} }"
    ));
    assert!(evident(
        "class E { @org.testng.annotations.Test(dataProvider = \"x\") void e() {} }"
    ));
    assert!(evident("@RunWith(Parameterized.class) public class P {}"));
    assert!(evident(
        "class P { @ParameterizedTest @ValueSource(ints = 1) void p(int i) {} }"
    ));
    assert!(evident(
        "import spock.lang.Specification\nclass FooSpec extends Specification {"
    ));
    assert!(evident("class Old extends junit.framework.TestCase {"));
    assert!(evident(
        "import junit.framework.TestCase;\nclass Old extends TestCase {"
    ));
    // Not evident: the name could be the package's own or a jar's.
    assert!(!evident("class Old extends TestCase {"));
    assert!(!evident("@TestConfiguration class Helper {}"));
    assert!(!evident(
        "public final class Flake { static void maybeFail() {} }"
    ));
    // A nested class's test is not the outer class's own.
    let unit = parse(
        "class Outer { static class Inner { @Test void t() {} } }",
        Language::Java,
    );
    assert!(!evidently_a_test(&unit, Language::Java, &unit.types[0]));
    assert!(nested_shows_tests(&unit, "Outer"));
}

#[test]
fn nested_classes_count_when_the_task_runs_them() {
    let nested = |patterns: &Patterns, binary: &str, simple: &str, text: &str| {
        has_nested_classes(patterns, binary, simple, &parse(text, Language::Java))
    };
    let src =
        "public class LruCacheTest {\n  public static class EvictionTest { @Test void e() {} }\n}";
    let scan = Patterns::default();
    assert!(nested(&scan, "a.LruCacheTest", "LruCacheTest", src));
    let only_tests = Patterns {
        includes: vec!["**/*Tests.class".into()],
        excludes: vec![],
    };
    assert!(!nested(
        &only_tests,
        "a.FooTests",
        "FooTests",
        "class FooTests { static class ZeroBytesWire {} }"
    ));
    assert!(!nested(&scan, "a.A", "A", "class A { void x() {} }"));
    // Commons Codec's shape: the task leaves out `$` classes, but JUnit's
    // Enclosed runner runs them through the outer class.
    let no_nested = Patterns {
        includes: vec!["**/*Test.class".into()],
        excludes: vec!["**/*$*".into()],
    };
    let enclosed = "@RunWith(Enclosed.class)\npublic class HexEnclosedTest {\n\
                    public static class Encoding { @Test public void e() {} }\n}";
    assert!(nested(
        &no_nested,
        "a.HexEnclosedTest",
        "HexEnclosedTest",
        enclosed
    ));
    assert!(!nested(
        &no_nested,
        "a.HexEnclosedTest",
        "HexEnclosedTest",
        &enclosed.replace("Enclosed.class", "Parameterized.class")
    ));
}

/// The helper: a `final class … extends TypeSafeMatcher<…>` in the
/// test source set. Without the task's classpath its chain leaves the build
/// (undecided, accepted); with it, the chain is read from Hamcrest's jar as
/// Gradle's detector reads it, down to `java.lang.Object`: no test.
#[test]
fn a_helper_whose_chain_ends_in_a_library_class_is_no_test_with_the_classpath() {
    let sources = [(
        "t/src/test/java/p/IsSortedMatcher.java",
        "package p;\nimport org.hamcrest.Description;\nimport org.hamcrest.TypeSafeMatcher;\n\
         final class IsSortedMatcher extends TypeSafeMatcher<int[]> {\n\
           protected boolean matchesSafely(int[] a) { return true; }\n\
           public void describeTo(Description d) {}\n}",
    )];
    let path = Path::new(sources[0].0);
    let h = hierarchy(&sources);
    let files = MemFiles::default();
    let compiled = Compiled::new(vec![], &files);
    let without = Detector::new(&h, &compiled, false).detect("p.IsSortedMatcher", path);
    assert_eq!(without, Detection::Undecided);
    let hamcrest = PathBuf::from("/usr/share/java/hamcrest-core.jar");
    let jars = on_disk(&hamcrest);
    let cp = Classpath::new(vec![PathBuf::from("/nowhere/classes"), hamcrest], &jars);
    let with = Detector::new(&h, &compiled, false)
        .with_classpath(Some(&cp))
        .detect("p.IsSortedMatcher", path);
    assert_eq!(
        with,
        Detection::NotTest(vec![
            "org.hamcrest.TypeSafeMatcher".into(),
            "org.hamcrest.BaseMatcher".into(),
            "java.lang.Object".into()
        ])
    );
}

/// A JUnit 3 decorator from the jar (`TestSetup`) is no test; a superclass
/// the classpath does not hold stays undecided, as without one.
#[test]
fn a_jar_decorator_is_no_test_and_a_class_missing_from_the_classpath_is_undecided() {
    let sources = [
        (
            "t/src/test/java/p/MyCase.java",
            "package p;\nimport junit.extensions.TestSetup;\nimport junit.framework.TestResult;\n\
         public class MyCase extends junit.tests.framework.Success {}",
        ),
        (
            "t/src/test/java/p/MySetup.java",
            "package p;\nimport junit.extensions.TestSetup;\n\
         public class MySetup extends TestSetup { MySetup() { super(null); } }",
        ),
    ];
    let junit = PathBuf::from("/usr/share/java/junit4.jar");
    let jars = on_disk(&junit);
    let cp = Classpath::new(vec![junit], &jars);
    let h = hierarchy(&sources);
    let files = MemFiles::default();
    let compiled = Compiled::new(vec![], &files);
    let detect = |binary: &str, path: &str| {
        Detector::new(&h, &compiled, false)
            .with_classpath(Some(&cp))
            .detect(binary, Path::new(path))
    };
    // junit4.jar has no junit.tests classes: undecided, as before
    assert_eq!(detect("p.MyCase", sources[0].0), Detection::Undecided);
    // TestSetup → TestDecorator → Assert: a JUnit 3 decorator, no test
    assert_eq!(
        detect("p.MySetup", sources[1].0),
        Detection::NotTest(vec![
            "junit.extensions.TestSetup".into(),
            "junit.extensions.TestDecorator".into(),
            "junit.framework.Assert".into()
        ])
    );
}

/// A jar of the machine's, in memory at its path.
fn on_disk(jar: &Path) -> MemFiles {
    let bytes =
        std::fs::read(jar).unwrap_or_else(|_| panic!("scripts/test.sh installs {}", jar.display()));
    MemFiles::default().with_bytes(&jar.to_string_lossy(), &bytes)
}
