use super::*;
use crate::select::testing::hierarchy;

fn names(d: &[Descendant]) -> Vec<&str> {
    d.iter().map(|d| d.binary.as_str()).collect()
}

/// The fixture's shapes: a generic base in a test framework's main code,
/// a concrete subclass importing it, a nested one naming it fully, an
/// abstract intermediate in another project, and a same-named decoy in
/// another package whose subclass names it without an import.
fn wire() -> Hierarchy {
    hierarchy(&[
        (
            "test/framework/src/main/java/org/elasticsearch/test/AbstractWireTestCase.java",
            "package org.elasticsearch.test;\n\
             public abstract class AbstractWireTestCase<T> extends ESTestCase {}",
        ),
        (
            "test/framework/src/main/java/org/elasticsearch/test/ESTestCase.java",
            "package org.elasticsearch.test;\npublic abstract class ESTestCase {}",
        ),
        (
            "server/src/test/java/org/elasticsearch/common/unit/ByteSizeValueWireTests.java",
            "package org.elasticsearch.common.unit;\n\
             import org.elasticsearch.test.AbstractWireTestCase;\n\
             public class ByteSizeValueWireTests extends AbstractWireTestCase<ByteSizeValue> {\n\
               public static class ZeroBytesWire\n\
                 extends org.elasticsearch.test.AbstractWireTestCase<ByteSizeValue> {}\n\
             }",
        ),
        (
            "x-pack/plugin/ml/src/test/java/org/elasticsearch/xpack/ml/AbstractMlWireTestCase.java",
            "package org.elasticsearch.xpack.ml;\n\
             import org.elasticsearch.test.AbstractWireTestCase;\n\
             public abstract class AbstractMlWireTestCase<T> extends AbstractWireTestCase<T> {}",
        ),
        (
            "x-pack/plugin/ml/src/test/java/org/elasticsearch/xpack/ml/MlWireTests.java",
            "package org.elasticsearch.xpack.ml;\n\
             public class MlWireTests extends AbstractMlWireTestCase<String> {}",
        ),
        (
            "x-pack/plugin/ml/src/test/java/org/elasticsearch/xpack/ml/support/AbstractWireTestCase.java",
            "package org.elasticsearch.xpack.ml.support;\n\
             import org.elasticsearch.test.ESTestCase;\n\
             public abstract class AbstractWireTestCase extends ESTestCase {}",
        ),
        (
            "x-pack/plugin/ml/src/test/java/org/elasticsearch/xpack/ml/support/LegacyWireTests.java",
            "package org.elasticsearch.xpack.ml.support;\n\
             public class LegacyWireTests extends AbstractWireTestCase {}",
        ),
    ])
}

#[test]
fn subclasses_are_found_exactly_across_projects() {
    let h = wire();
    assert_eq!(
        names(&h.descendants("org.elasticsearch.test.AbstractWireTestCase")),
        [
            "org.elasticsearch.common.unit.ByteSizeValueWireTests",
            "org.elasticsearch.common.unit.ByteSizeValueWireTests$ZeroBytesWire",
            "org.elasticsearch.xpack.ml.MlWireTests",
        ],
        "generics erased, nested class by its full name, through the intermediate; \
         the decoy's subclass is not one"
    );
    assert_eq!(
        names(&h.descendants("org.elasticsearch.xpack.ml.AbstractMlWireTestCase")),
        ["org.elasticsearch.xpack.ml.MlWireTests"]
    );
    assert_eq!(
        names(&h.descendants("org.elasticsearch.xpack.ml.support.AbstractWireTestCase")),
        ["org.elasticsearch.xpack.ml.support.LegacyWireTests"],
        "same simple name, other package: its own subclass only"
    );
    let all = h.descendants("org.elasticsearch.test.ESTestCase");
    assert_eq!(all.len(), 4);
    assert_eq!(
        all[0].path,
        PathBuf::from(
            "server/src/test/java/org/elasticsearch/common/unit/ByteSizeValueWireTests.java"
        )
    );
}

#[test]
fn scoping_rules_decide_which_base_a_simple_name_means() {
    let h = hierarchy(&[
        ("a/Base.java", "package a; public abstract class Base {}"),
        ("b/Base.java", "package b; public abstract class Base {}"),
        (
            "c/Holder.java",
            "package c; public class Holder { public abstract static class Base {} }",
        ),
        // an explicit import beats the same package
        (
            "b/ImportsA.java",
            "package b; import a.Base; class ImportsATests extends Base {}",
        ),
        // the same package beats an on-demand import
        (
            "b/SamePkgTests.java",
            "package b; import a.*; class SamePkgTests extends Base {}",
        ),
        // an on-demand import when the package has none
        (
            "d/OnDemandTests.java",
            "package d; import a.*; class OnDemandTests extends Base {}",
        ),
        // a member type of the enclosing class beats everything
        (
            "b/Outer.java",
            "package b; import a.Base; class Outer { static abstract class Base {} \
             static class InnerTests extends Base {} }",
        ),
        // inherited member type, and a member type through its owner's name
        (
            "c/Sub.java",
            "package c; class Sub extends Holder { static class FromHolderTests extends Base {} }",
        ),
        (
            "e/Q.java",
            "package e; import c.Holder; class QTests extends Holder.Base {}",
        ),
        (
            "e/R.java",
            "package e; import c.Holder.*; class RTests extends Base {}",
        ),
        // an import of a type the build does not declare hides the package's
        (
            "a/Ext.java",
            "package a; import org.other.Base; class ExtTests extends Base {}",
        ),
    ]);
    assert_eq!(
        names(&h.descendants("a.Base")),
        ["b.ImportsATests", "d.OnDemandTests"]
    );
    assert_eq!(names(&h.descendants("b.Base")), ["b.SamePkgTests"]);
    assert_eq!(
        names(&h.descendants("b.Outer$Base")),
        ["b.Outer$InnerTests"]
    );
    assert_eq!(
        names(&h.descendants("c.Holder$Base")),
        ["c.Sub$FromHolderTests", "e.QTests", "e.RTests"]
    );
}

#[test]
fn kotlin_and_groovy_subclasses_count_and_cycles_end() {
    let h = hierarchy(&[
        ("p/Base.java", "package p; public abstract class Base {}"),
        ("p/Iface.java", "package p; public interface Iface {}"),
        (
            "q/KtTests.kt",
            "package q\nimport p.Base\nimport p.Iface\nclass KtTests : Iface, Base()\n\
             class NoCallTests : Iface, Base",
        ),
        (
            "q/GrTests.groovy",
            "package q\nimport p.Base\nclass GrTests extends Base {}",
        ),
        ("r/A.java", "package r; class A extends B {}"),
        ("r/B.java", "package r; class B extends A {}"),
    ]);
    assert_eq!(
        names(&h.descendants("p.Base")),
        ["q.GrTests", "q.KtTests", "q.NoCallTests"]
    );
    assert_eq!(names(&h.descendants("r.A")), ["r.A", "r.B"], "a cycle ends");
}

#[test]
fn the_cap_spreads_over_projects() {
    let d: Vec<(&str, &str)> = vec![
        ("a.A1", ":a"),
        ("a.A2", ":a"),
        ("a.A3", ":a"),
        ("b.B1", ":b"),
        ("c.C1", ":c"),
    ];
    let chosen = spread(&d, 3, |x| x.1.to_string());
    assert_eq!(chosen, [("a.A1", ":a"), ("b.B1", ":b"), ("c.C1", ":c")]);
    let chosen = spread(&d, 4, |x| x.1.to_string());
    assert_eq!(chosen.len(), 4);
    assert_eq!(chosen[1], ("a.A2", ":a"));
    assert_eq!(spread(&d, 10, |x| x.1.to_string()).len(), 5);
}

/// Does the source declare a class of simple name `simple` abstract (read as
/// Java; Groovy and Kotlin declare abstract classes the same way)?
fn declares_abstract(text: &str, simple: &str) -> bool {
    source::parse(text, Language::Java)
        .types
        .iter()
        .any(|t| (t.local == simple || t.local.ends_with(&format!("${simple}"))) && t.is_abstract)
}

#[test]
fn abstract_classes_are_recognised_in_every_jvm_language() {
    assert!(declares_abstract(
        "public abstract class AbstractFooTests {",
        "AbstractFooTests"
    ));
    assert!(declares_abstract(
        "abstract class FooTests extends X",
        "FooTests"
    ));
    assert!(declares_abstract(
        "abstract public class FooTests",
        "FooTests"
    ));
    assert!(declares_abstract(
        "abstract class FooSpec extends Specification {",
        "FooSpec"
    ));
    assert!(!declares_abstract("public class FooTests {}", "FooTests"));
    assert!(!declares_abstract(
        "class FooTests { abstract static class Inner {} }",
        "FooTests"
    ));
    assert!(!declares_abstract(
        "class FooTests { abstract void run(); }",
        "FooTests"
    ));
    assert!(declares_abstract(
        "class O { abstract static class In$ner {} }",
        "In$ner"
    ));
    assert!(!declares_abstract(
        "class O { static class In$ner {} }",
        "In$ner"
    ));
    assert!(!declares_abstract(
        "abstract class FooTestsBase",
        "FooTests"
    ));
}

/// The subclasses the cap leaves out come back as one not-applicable reason
/// beside those that run: a flake only they show must not read as clean.
#[test]
fn subclasses_beyond_the_cap_are_said_not_checked() {
    let h = wire();
    let classify =
        |d: &Descendant, _: &mut Decisions| vec![Ok(crate::domain::testing::unit(&d.binary))];
    let base = "org.elasticsearch.test.AbstractWireTestCase";
    let (outcomes, expansion) = expand(&h, base, 1, &mut Decisions::default(), classify).unwrap();
    assert_eq!((expansion.chosen.len(), expansion.total), (1, 3));
    assert_eq!(outcomes.iter().filter(|o| o.is_ok()).count(), 1);
    let reasons: Vec<&Reason> = outcomes
        .iter()
        .filter_map(|o| match o {
            Err(Skip::Unresolved(r)) => Some(r),
            _ => None,
        })
        .collect();
    assert_eq!(reasons.len(), 1, "{outcomes:?}");
    assert_eq!(reasons[0].code, ReasonCode::BeyondSubclassCap);
    assert!(reasons[0].code.is_not_applicable());
    assert!(
        reasons[0].text.starts_with(&format!(
            "2 of the 3 concrete test subclasses of `{base}` did not run (--subclass-cap 1; \
             raise it to run them): `"
        )),
        "{}",
        reasons[0].text
    );
    for d in h.descendants(base) {
        let simple = d.binary.rsplit('.').next().unwrap();
        let named = reasons[0].text.contains(&format!("`{simple}`"));
        assert_eq!(
            named,
            !expansion.chosen.contains(&d.binary),
            "{}: {}",
            d.binary,
            reasons[0].text
        );
    }
    let (outcomes, _) = expand(&h, base, 3, &mut Decisions::default(), classify).unwrap();
    assert!(outcomes.iter().all(|o| o.is_ok()), "none left out");
}
