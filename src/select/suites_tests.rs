use super::*;
use crate::select::source::parse;
use crate::select::testing::MemFiles;

const DIR: &str = "src/test/java";

/// A source set of these files (paths below `src/test/java`).
fn build(files: &[(&str, &str)]) -> (MemFiles, Classes) {
    let full: Vec<(String, &str)> = files
        .iter()
        .map(|(p, t)| (format!("{DIR}/{p}"), *t))
        .collect();
    let borrowed: Vec<(&str, &str)> = full.iter().map(|(p, t)| (p.as_str(), *t)).collect();
    let classes = files
        .iter()
        .map(|(p, _)| {
            let binary = p.trim_end_matches(".java").replace('/', ".");
            (binary, PathBuf::from(format!("{DIR}/{p}")))
        })
        .collect();
    (MemFiles::with(&borrowed), classes)
}

fn task(includes: &[&str]) -> TestTask {
    TestTask {
        path: ":test".into(),
        name: "test".into(),
        test_classes_dirs: vec![],
        includes: includes.iter().map(|s| s.to_string()).collect(),
        excludes: vec![],
        enabled: true,
        framework: None,
        forwards_tests_iters: None,
        heap_dump_path: None,
        runtime_classpath: None,
        scan_for_test_classes: None,
    }
}

fn membership(files: &[(&str, &str)], includes: &[&str]) -> Rc<Membership> {
    let (files, classes) = build(files);
    SuiteIndex::default().membership(
        ("", "test"),
        &task(includes),
        &|| classes.clone(),
        &files,
        &|_, _, _| true,
    )
}

fn via(m: &Membership, class: &str) -> Option<(Vec<String>, bool)> {
    m.via(class).map(|v| (v.suites, v.junit4))
}

const JUNIT4_ALL: &str = "package a;\n\
    import a.codec.CodecSuite;\n\
    import org.junit.runners.Suite.SuiteClasses;\n\
    @RunWith(Suite.class) @SuiteClasses({ParserTest.class, CodecSuite.class, AllTests.Inner.class})\n\
    public class AllTests { public static class Inner { @Test public void t() {} } }";
const CODEC_SUITE: &str = "package a.codec;\n\
    @RunWith(Suite.class) @Suite.SuiteClasses({EncoderTest.class, a.legacy.LegacyTest.class})\n\
    public class CodecSuite {}";
const LEGACY_ALL: &str = "package a.legacy;\n\
    import a.legacy.io.*;\n\
    public class AllTests extends TestCase {\n\
      public static Test suite() {\n\
        TestSuite suite = new TestSuite(AllTests.class.getName());\n\
        suite.addTestSuite(LegacyTest.class);\n\
        suite.addTest(AllIoTests.suite());\n\
        return suite;\n\
      }\n\
    }";
const ALL_IO: &str = "package a.legacy.io;\n\
    public class AllIoTests { public static Test suite() { return new TestSuite(StreamCheck.class); } }";

fn fixture() -> Vec<(&'static str, &'static str)> {
    vec![
        ("a/AllTests.java", JUNIT4_ALL),
        ("a/ParserTest.java", "package a; public class ParserTest {}"),
        ("a/OrphanTest.java", "package a; public class OrphanTest {}"),
        ("a/codec/CodecSuite.java", CODEC_SUITE),
        (
            "a/codec/EncoderTest.java",
            "package a.codec; class EncoderTest {}",
        ),
        ("a/legacy/AllTests.java", LEGACY_ALL),
        (
            "a/legacy/LegacyTest.java",
            "package a.legacy; class LegacyTest {}",
        ),
        ("a/legacy/io/AllIoTests.java", ALL_IO),
        (
            "a/legacy/io/StreamCheck.java",
            "package a.legacy.io; class StreamCheck {}",
        ),
    ]
}

#[test]
fn suite_members_are_declared_by_annotation_or_by_suite_method() {
    let unit = parse(JUNIT4_ALL, Language::Java);
    assert_eq!(
        declared(&unit, "AllTests"),
        Some((
            vec![
                "ParserTest".into(),
                "CodecSuite".into(),
                "AllTests.Inner".into()
            ],
            true
        ))
    );
    let unit = parse(LEGACY_ALL, Language::Java);
    assert_eq!(
        declared(&unit, "AllTests"),
        Some((
            vec![
                "TestSuite".into(),
                "AllTests".into(),
                "LegacyTest".into(),
                "AllIoTests".into()
            ],
            false
        ))
    );
    // another runner decides, not suite(); a class with neither is no suite
    let other = parse(
        "@RunWith(Parameterized.class) class P { static Test suite() { return new TestSuite(X.class); } }",
        Language::Java,
    );
    assert_eq!(declared(&other, "P"), None);
    // JUnit 4's AllTests runner runs suite() (JUnit 4.13's own OldTests)
    let old = parse(
        "import org.junit.runners.AllTests;\n\
         @RunWith(AllTests.class) public class OldTests {\n\
             public static Test suite() { return junit.tests.AllTests.suite(); }\n\
         }",
        Language::Java,
    );
    assert_eq!(
        declared(&old, "OldTests"),
        Some((vec!["junit.tests.AllTests".into()], false))
    );
    assert_eq!(
        declared(
            &parse("class Plain { @Test void t() {} }", Language::Java),
            "Plain"
        ),
        None
    );
}

#[test]
fn names_resolve_by_nesting_imports_package_and_qualification() {
    let (_, classes) = build(&fixture());
    let unit = parse(JUNIT4_ALL, Language::Java);
    let (found, junit4) = members(&unit, "AllTests", &classes).unwrap();
    assert!(junit4);
    assert_eq!(
        found,
        ["a.ParserTest", "a.codec.CodecSuite", "a.AllTests$Inner"]
    );
    let unit = parse(LEGACY_ALL, Language::Java);
    let (found, junit4) = members(&unit, "AllTests", &classes).unwrap();
    assert!(!junit4);
    assert_eq!(
        found,
        [
            "a.legacy.AllTests",
            "a.legacy.LegacyTest",
            "a.legacy.io.AllIoTests"
        ]
    );
    // a suite() that runs only itself makes no suite of the class
    let bulk = parse(
        "package a; public class ParserTest extends BulkTest {\n\
         public static Test suite() { return BulkTest.makeSuite(ParserTest.class); } }",
        Language::Java,
    );
    assert!(!is_suite(&bulk, "ParserTest", "a.ParserTest", &classes));
    assert!(is_suite(&unit, "AllTests", "a.legacy.AllTests", &classes));
}

#[test]
fn the_included_suites_reach_their_members_through_suites_of_suites() {
    let m = membership(&fixture(), &["**/AllTests.class"]);
    let junit4 = |suites: &[&str]| Some((suites.iter().map(|s| s.to_string()).collect(), true));
    let junit3 = |suites: &[&str]| Some((suites.iter().map(|s| s.to_string()).collect(), false));
    assert_eq!(via(&m, "a.ParserTest"), junit4(&["a.AllTests"]));
    assert_eq!(via(&m, "a.codec.EncoderTest"), junit4(&["a.AllTests"]));
    assert_eq!(via(&m, "a.codec.CodecSuite"), junit4(&["a.AllTests"]));
    assert_eq!(via(&m, "a.AllTests$Inner"), junit4(&["a.AllTests"]));
    assert_eq!(
        via(&m, "a.legacy.io.StreamCheck"),
        junit3(&["a.legacy.AllTests"])
    );
    // reached by a JUnit 4 way and by a JUnit 3 one: not JUnit 4 all along
    assert_eq!(
        via(&m, "a.legacy.LegacyTest"),
        junit3(&["a.AllTests", "a.legacy.AllTests"])
    );
    assert_eq!(via(&m, "a.OrphanTest"), None);
    assert_eq!(
        via(&m, "a.AllTests"),
        None,
        "an included suite is no member"
    );
    // only suites the patterns include count
    let m = membership(&fixture(), &["a/legacy/AllTests.class"]);
    assert_eq!(via(&m, "a.ParserTest"), None);
    assert_eq!(
        via(&m, "a.legacy.LegacyTest"),
        junit3(&["a.legacy.AllTests"])
    );
    // a task without includes scans every class: no class runs only in a suite
    assert_eq!(via(&membership(&fixture(), &[]), "a.ParserTest"), None);
}

#[test]
fn suites_that_name_each_other_end() {
    let m = membership(
        &[
            (
                "a/AllTests.java",
                "package a; @SuiteClasses({BTests.class}) class AllTests {}",
            ),
            (
                "a/BTests.java",
                "package a; @SuiteClasses({AllTests.class, CTest.class}) class BTests {}",
            ),
            ("a/CTest.java", "package a; class CTest {}"),
        ],
        &["**/AllTests.class"],
    );
    assert_eq!(via(&m, "a.CTest"), Some((vec!["a.AllTests".into()], true)));
}

#[test]
fn the_task_running_a_member_is_chosen_like_any_task() {
    let (files, classes) = build(&fixture());
    let index = SuiteIndex::default();
    let mut other = task(&["**/AllTests.class"]);
    other.path = ":otherTest".into();
    other.name = "otherTest".into();
    let tied = SourceSetTasks {
        project: ":".into(),
        source_set: "test".into(),
        tasks: vec![other, task(&["**/AllTests.class"])],
    };
    let m = |t: &TestTask| {
        index.membership(("", "test"), t, &|| classes.clone(), &files, &|_, _, _| {
            true
        })
    };
    let running = tasks_running(&tied, "a.ParserTest", TaskChoice::default(), &m);
    assert_eq!(running.len(), 1, "the bare task wins");
    assert_eq!(running[0].0, ":test");
    assert_eq!(running[0].1.suites, ["a.AllTests"]);
    assert!(tasks_running(&tied, "a.OrphanTest", TaskChoice::default(), &m).is_empty());
}

/// However a JUnit 3 `suite()` adds a class, it is a member: `new
/// X("testFoo")` too (the issue's `TestAll`), created by the suite whose
/// `suite()` adds it, the included one or a nested one (Joda-Time's
/// `TestAllPackages` → `chrono.gj.TestAll` → `new MainTest(…)`).
#[test]
fn a_junit3_suite_adds_members_as_instances_too() {
    let all = "package a;\n\
        public class AllTests extends TestCase {\n\
          public static Test suite() {\n\
            TestSuite suite = new TestSuite();\n\
            suite.addTest(new MainTest(\"testFoo\"));\n\
            suite.addTest(new MainTest(1000, 0, 42L));\n\
            suite.addTest(Nested.suite());\n\
            return suite;\n\
          }\n\
        }";
    let nested = "package a;\n\
        public class Nested {\n\
          public static Test suite() {\n\
            TestSuite s = new TestSuite(\"nested\");\n\
            s.addTest(new DeepTest(\"testBar\"));\n\
            return s;\n\
          }\n\
        }";
    let files = [
        ("a/AllTests.java", all),
        (
            "a/MainTest.java",
            "package a; public class MainTest extends TestCase {}",
        ),
        ("a/Nested.java", nested),
        (
            "a/DeepTest.java",
            "package a; public class DeepTest extends TestCase {}",
        ),
    ];
    let m = membership(&files, &["**/AllTests.class"]);
    let main = m.via("a.MainTest").expect("an instance is a member");
    let all = vec!["a.AllTests".to_string()];
    assert_eq!(
        (&main.suites, main.junit4, &main.created_by),
        (&all, false, &all)
    );
    let deep = m
        .via("a.DeepTest")
        .expect("a nested suite's instance is a member");
    assert_eq!(
        (&deep.suites, &deep.created_by),
        (&all, &vec!["a.Nested".to_string()])
    );
    // Reached as a class too: not an instance every way.
    let mixed = membership(
        &[
            (
                "a/AllTests.java",
                "package a;\npublic class AllTests extends TestCase {\n\
                 public static Test suite() { TestSuite s = new TestSuite();\n\
                 s.addTest(new MainTest(\"testFoo\")); s.addTestSuite(MainTest.class); return s; } }",
            ),
            ("a/MainTest.java", "package a; public class MainTest extends TestCase {}"),
        ],
        &["**/AllTests.class"],
    );
    assert!(mixed.via("a.MainTest").unwrap().created_by.is_empty());
    // `new TestSuite()` is no member: the source set does not declare it
    assert!(m.via("a.TestSuite").is_none());
    assert!(m.via("junit.framework.TestSuite").is_none());
}
