use super::*;

fn java(text: &str) -> Unit {
    parse(text, Language::Java)
}

fn summary(u: &Unit) -> Vec<(String, bool, Vec<String>)> {
    u.types
        .iter()
        .map(|t| {
            let supers = t
                .supers
                .iter()
                .map(|s| format!("{}{}", s.name, if s.superclass { "!" } else { "" }))
                .collect();
            (t.local.clone(), t.is_abstract, supers)
        })
        .collect()
}

#[test]
fn java_declarations_with_generics_nesting_and_imports() {
    let u = java(
        r#"
            package org.elasticsearch.common.unit;

            import org.elasticsearch.test.AbstractWireTestCase;
            import static org.junit.Assert.*;
            import java.util.*;

            /** A { brace in a comment, and class Fake extends Nothing. */
            @SuppressWarnings({"unchecked", "rawtypes"})
            public class ByteSizeValueWireTests extends AbstractWireTestCase<ByteSizeValue> {
                private static final String S = "class Nope extends X {";
                char c = '{';
                String block = """
                    } class InBlock {
                    """;

                @Override
                protected ByteSizeValue createTestInstance() {
                    Runnable r = new Runnable() { public void run() { class Local extends Base {} } };
                    Object o = ByteSizeValue.class;
                    return null;
                }

                public static class ZeroBytesWire
                        extends org.elasticsearch.test.AbstractWireTestCase<ByteSizeValue>
                        implements Comparable<ZeroBytesWire> {
                    abstract static class Deeper<T extends Map<String, List<T>>> extends Outer<T>.Inner {}
                }
                interface Marker extends A, B {}
                enum E { ONE { void x() {} }, TWO; class InEnum {} }
                record R(int a) implements Marker {}
            }
            abstract class Second {}
            "#,
    );
    assert_eq!(u.package, "org.elasticsearch.common.unit");
    let imports: Vec<(&str, bool)> = u
        .imports
        .iter()
        .map(|i| (i.path.as_str(), i.on_demand))
        .collect();
    assert_eq!(
        imports,
        [
            ("org.elasticsearch.test.AbstractWireTestCase", false),
            ("org.junit.Assert", true),
            ("java.util", true)
        ]
    );
    assert_eq!(
        summary(&u),
        [
            (
                "ByteSizeValueWireTests".to_string(),
                false,
                vec!["AbstractWireTestCase!".to_string()]
            ),
            (
                "ByteSizeValueWireTests$ZeroBytesWire".into(),
                false,
                vec!["org.elasticsearch.test.AbstractWireTestCase!".into()]
            ),
            (
                "ByteSizeValueWireTests$ZeroBytesWire$Deeper".into(),
                true,
                vec!["Outer.Inner!".into()]
            ),
            (
                "ByteSizeValueWireTests$Marker".into(),
                false,
                vec!["A".into(), "B".into()]
            ),
            ("ByteSizeValueWireTests$E".into(), false, vec![]),
            ("ByteSizeValueWireTests$E$InEnum".into(), false, vec![]),
            ("ByteSizeValueWireTests$R".into(), false, vec![]),
            ("Second".into(), true, vec![]),
        ]
    );
    assert_eq!(u.types[3].kind, TypeKind::Interface);
    assert_eq!(u.types[6].kind, TypeKind::Record);
}

#[test]
fn kotlin_supertypes_templates_and_bodiless_classes() {
    let u = parse(
        r#"
            @file:JvmName("X")
            package a.b
            import org.e.Base as B
            import org.e.*
            val s = "${ if (x) "}" else "{" } class Nope"
            abstract class AbstractKtTests : B<String>(), Marker, Other by delegate {
                inner class Inner : AbstractKtTests() { fun f() { val c = '}' } }
            }
            class FirstKtTests : AbstractKtTests()
            sealed class S
            class NoCall : AbstractKtTests
            "#,
        Language::Kotlin,
    );
    assert_eq!(u.package, "a.b");
    assert_eq!(u.imports[0].name(), "B");
    assert!(u.imports[1].on_demand);
    assert_eq!(
        summary(&u),
        [
            (
                "AbstractKtTests".to_string(),
                true,
                vec!["B!".to_string(), "Marker".into(), "Other".into()]
            ),
            (
                "AbstractKtTests$Inner".into(),
                false,
                vec!["AbstractKtTests!".into()]
            ),
            (
                "FirstKtTests".into(),
                false,
                vec!["AbstractKtTests!".into()]
            ),
            ("S".into(), true, vec![]),
            ("NoCall".into(), false, vec!["AbstractKtTests".into()]),
        ]
    );
}

#[test]
fn groovy_strings_and_patterns_hide_braces() {
    let u = parse(
        r#"
            package a
            import spock.lang.Specification
            abstract class BaseSpec extends Specification {
                def s = "x ${ map["}"] } {"
                def p = ~/\{+/
                def t = '''{ class Fake {'''
            }
            class RealSpec extends BaseSpec { def x = 'a{' }
            "#,
        Language::Groovy,
    );
    assert_eq!(
        summary(&u),
        [
            (
                "BaseSpec".to_string(),
                true,
                vec!["Specification!".to_string()]
            ),
            ("RealSpec".into(), false, vec!["BaseSpec!".into()]),
        ]
    );
}

#[test]
fn broken_text_declares_what_it_can_and_never_panics() {
    assert_eq!(
        summary(&java("public abstract class AbstractFooTests {")),
        [("AbstractFooTests".to_string(), true, vec![])]
    );
    for text in [
        "class",
        "\"unterminated",
        "/* open",
        "class X extends",
        "@",
        "'''",
        "${",
    ] {
        for lang in [Language::Java, Language::Groovy, Language::Kotlin] {
            parse(text, lang);
        }
    }
    // a Java string is no template
    let u = java("class A { String s = \"${\"; } class B extends A {}");
    assert_eq!(u.types.len(), 2);
}

fn methods(u: &Unit) -> Vec<(&str, &str, u32, Vec<&str>)> {
    u.methods
        .iter()
        .map(|m| {
            let annotations = m.annotations.iter().map(|a| a.name.as_str()).collect();
            (m.owner.as_str(), m.name.as_str(), m.line, annotations)
        })
        .collect()
}

#[test]
fn java_methods_annotations_and_lines() {
    let u = java(
        "package a;\n\
         \n\
         @RunWith(X.class)\n\
         public class FooTests extends Base implements Iface<T>, Other {\n\
         \x20   private final Logger log = LogManager.getLogger(FooTests.class);\n\
         \x20   Runnable r = () -> run(1);\n\
         \x20   @Test\n\
         \x20   public void testOne() {\n\
         \x20       helper(x);\n\
         \x20   }\n\
         \x20   static <T> List<T> list(int[] a) { return null; }\n\
         \x20   int[] arr() { return new int[0]; }\n\
         \x20   public FooTests(int x) {}\n\
         \x20   static class Inner {\n\
         \x20       @org.junit.Test void testTwo(@Nullable String s) {}\n\
         \x20   }\n\
         }\n",
    );
    assert_eq!(
        methods(&u),
        [
            ("FooTests", "testOne", 8, vec!["Test"]),
            ("FooTests", "list", 11, vec![]),
            ("FooTests", "arr", 12, vec![]),
            ("FooTests", "FooTests", 13, vec![]),
            ("FooTests$Inner", "testTwo", 15, vec!["org.junit.Test"]),
        ]
    );
    let outer = &u.types[0];
    assert_eq!(
        (outer.line, outer.interfaces.clone()),
        (4, vec!["Iface".to_string(), "Other".into()])
    );
    assert_eq!(outer.annotations[0].name, "RunWith");
    assert_eq!(u.types[1].line, 14);
    let all: Vec<(&str, u32)> = u.annotations.iter().map(|a| (a.simple(), a.line)).collect();
    assert_eq!(
        all,
        [("RunWith", 3), ("Test", 7), ("Test", 15), ("Nullable", 15)]
    );
}

#[test]
fn kotlin_and_groovy_methods() {
    let u = parse(
        "package a\n\
         class KtTests : Base() {\n\
         \x20   @Test\n\
         \x20   fun `adds two`() {}\n\
         \x20   @Test fun testThree() {}\n\
         \x20   fun <T> String.ext(): T = TODO()\n\
         \x20   companion object Factory {\n\
         \x20       fun make() = KtTests()\n\
         \x20   }\n\
         }\n\
         fun interface Callback { fun call() }\n\
         object Registry\n",
        Language::Kotlin,
    );
    assert_eq!(
        methods(&u),
        [
            ("KtTests", "testThree", 5, vec!["Test"]),
            ("KtTests", "ext", 6, vec![]),
            ("KtTests$Factory", "make", 8, vec![]),
            ("Callback", "call", 11, vec![]),
        ]
    );
    let kinds: Vec<(&str, TypeKind, u32)> = u
        .types
        .iter()
        .map(|t| (t.local.as_str(), t.kind, t.line))
        .collect();
    assert_eq!(
        kinds,
        [
            ("KtTests", TypeKind::Class, 2),
            ("KtTests$Factory", TypeKind::Object, 7),
            ("Callback", TypeKind::Interface, 11),
            ("Registry", TypeKind::Object, 12),
        ]
    );
    let u = parse(
        "class FooSpec extends Specification {\n\
         \x20   @Test\n\
         \x20   def \"adds two\"() { expect: add(1) }\n\
         \x20   def setup() { x = foo() }\n\
         \x20   void testFour() {}\n\
         }\n",
        Language::Groovy,
    );
    assert_eq!(
        methods(&u),
        [
            ("FooSpec", "setup", 4, vec![]),
            ("FooSpec", "testFour", 5, vec![])
        ]
    );
}

#[test]
fn a_word_is_mentioned_anywhere_even_in_a_comment() {
    let text = "class A { /* see testGone */ void testOne() {} }";
    assert!(mentions(text, "testGone"));
    assert!(mentions(text, "testOne"));
    assert!(!mentions(text, "test"));
}

#[test]
fn suite_annotations_and_suite_methods_name_their_classes() {
    let u = java(
        "package a;\n\
         import b.Other;\n\
         @RunWith(Suite.class)\n\
         @Suite.SuiteClasses({ FooTest.class, b.c.BarTest.class, Outer.Inner.class })\n\
         public class AllTests {\n\
         \x20   @Test(expected = IOException.class, timeout = (1 + 2)) public void t() {}\n\
         \x20   public static Test suite() {\n\
         \x20       TestSuite suite = new TestSuite(AllTests.class.getName());\n\
         \x20       suite.addTestSuite(One.class);\n\
         \x20       if (x) { suite.addTest(new TestSuite(a.Two.class)); }\n\
         \x20       suite.addTest(Three.suite());\n\
         \x20       suite.addTest(org.p.TestAll.suite());\n\
         \x20       Runnable r = new Runnable() { public void run() { use(Four.class); } };\n\
         \x20       return suite;\n\
         \x20   }\n\
         \x20   abstract void noBody();\n\
         \x20   void other() { foo().suite(); call(Five.class); }\n\
         \x20   public BulkTest bulkTestSubList() { return new Sub(this); }\n\
         \x20   BulkTest bulkTestMap() { return new a.Outer.MapView<String>(); }\n\
         }\n",
    );
    let suite = &u.types[0].annotations[1];
    assert_eq!(suite.name, "Suite.SuiteClasses");
    assert_eq!(suite.classes, ["FooTest", "b.c.BarTest", "Outer.Inner"]);
    assert_eq!(u.types[0].annotations[0].classes, ["Suite"]);
    assert_eq!(u.methods[0].annotations[0].classes, ["IOException"]);
    let body = |name: &str| {
        u.methods
            .iter()
            .find(|m| m.name == name)
            .unwrap()
            .body_classes
            .clone()
    };
    use BodyClass::{Literal, New, SuiteCall};
    assert_eq!(
        body("suite"),
        [
            New("TestSuite".into()),
            Literal("AllTests".into()),
            Literal("One".into()),
            New("TestSuite".into()),
            Literal("a.Two".into()),
            SuiteCall("Three".into()),
            SuiteCall("org.p.TestAll".into()),
            New("Runnable".into()),
            Literal("Four".into()),
        ]
    );
    assert!(body("noBody").is_empty());
    assert!(body("t").is_empty());
    assert_eq!(body("other"), [Literal("Five".into())]);
    assert_eq!(body("bulkTestSubList"), [New("Sub".into())]);
    assert_eq!(body("bulkTestMap"), [New("a.Outer.MapView".into())]);
}
