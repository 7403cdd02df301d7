//! JUnit 3 bulk tests (Commons Collections' `BulkTest`): a test class's
//! `suite()` is `BulkTest.makeSuite(C.class)`, which runs C's test methods
//! and, for each of its `bulkTest*()` methods, the tests of the `BulkTest`
//! that method returns, a nested class such as `AbstractTestList$BulkTestSubList`.
//! Gradle reports those tests under the nested class's name, yet the class
//! cannot run alone: its constructor takes the test it views (JUnit 3's
//! runner needs `()` or `(String)`), and only C's suite creates it. So a bulk
//! test runs through the test classes of the type whose `bulkTest*()` method
//! creates it.

use super::source::{BodyClass, Unit};

/// The prefix of the methods `BulkTest.makeSuite` runs as bulk tests.
const BULK_METHOD_PREFIX: &str = "bulkTest";

/// Who creates a bulk test: a type of the same file and its method.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Creator {
    /// The local name (`Outer$Inner`) of the type declaring the method.
    pub owner: String,
    /// The `bulkTest*` method.
    pub method: String,
}

/// The type of `unit` whose `bulkTest*()` method creates the nested type
/// `local` (`new Inner(…)`), when one does; a type creating itself is none.
pub(super) fn creator(unit: &Unit, local: &str) -> Option<Creator> {
    let simple = local.rsplit('$').next()?;
    if simple == local {
        // A top-level class is created by no method of its own file.
        return None;
    }
    unit.methods
        .iter()
        .filter(|m| m.name.starts_with(BULK_METHOD_PREFIX) && !m.owner.is_empty())
        .filter(|m| m.owner != local)
        .find(|m| {
            m.body_classes
                .iter()
                .any(|c| matches!(c, BodyClass::New(w) if w.rsplit('.').next() == Some(simple)))
        })
        .map(|m| Creator {
            owner: m.owner.clone(),
            method: m.name.clone(),
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::select::source::{parse, Language};

    const LIST: &str = "package a;\n\
        public abstract class AbstractTestList extends AbstractTestCollection {\n\
            public AbstractTestList(String name) { super(name); }\n\
            public void testListEquals() {}\n\
            public BulkTest bulkTestSubList() {\n\
                if (getFullElements().length - 6 < 10) return null;\n\
                return new BulkTestSubList(this);\n\
            }\n\
            public static class BulkTestSubList extends AbstractTestList {\n\
                private AbstractTestList outer;\n\
                public BulkTestSubList(AbstractTestList outer) { super(\"\"); this.outer = outer; }\n\
            }\n\
            public static class Helper { Object make() { return new Other(); } }\n\
            public BulkTest bulkTestOther() { return new a.b.Other.View<String>(this); }\n\
            public static class View {}\n\
        }\n";

    #[test]
    fn a_bulk_test_is_created_by_a_bulk_test_method_of_its_file() {
        let unit = parse(LIST, Language::Java);
        assert_eq!(
            creator(&unit, "AbstractTestList$BulkTestSubList"),
            Some(Creator {
                owner: "AbstractTestList".into(),
                method: "bulkTestSubList".into(),
            })
        );
        // `new a.b.Other.View<String>(…)` creates a `View`
        assert_eq!(
            creator(&unit, "AbstractTestList$View").map(|c| c.method),
            Some("bulkTestOther".into())
        );
        // created by a method that is no bulk test, by none, or top level
        assert_eq!(creator(&unit, "AbstractTestList$Helper"), None);
        assert_eq!(creator(&unit, "AbstractTestList"), None);
    }
}
