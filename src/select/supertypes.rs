//! A supertype the build's sources do not declare (a jar's, the JDK's): the
//! binary names a name written in a class's header can stand for, in Java's
//! scoping order, read from the file alone. [`super::expand::Hierarchy`]
//! resolves the names the build declares; these are the rest.

use super::source::{Language, Unit};

/// How a supertype name written in a class's header resolves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Supertype {
    /// A type the build's sources declare (binary name).
    Declared(String),
    /// A type from outside the build's sources: the names it can have.
    Outside(Vec<SupertypeCandidate>),
}

/// A binary name an outside supertype can have, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct SupertypeCandidate {
    pub binary: String,
    pub scope: Scope,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Scope {
    /// Imported by name or written fully qualified: the type it names.
    Named,
    /// The file's own package or an on-demand import: the type if it is there.
    Searched,
    /// A package every file of the language sees (`java.lang`, …).
    Implicit,
}

/// The superclass and interfaces of a class (an interface's are all
/// interfaces); no superclass means `java.lang.Object`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Supertypes {
    pub superclass: Option<Supertype>,
    pub interfaces: Vec<Supertype>,
}

/// Packages whose types a file sees without importing them.
fn implicit_packages(lang: Language) -> &'static [&'static str] {
    match lang {
        Language::Java => &["java.lang"],
        Language::Groovy => &[
            "java.lang",
            "java.util",
            "java.io",
            "java.net",
            "groovy.lang",
            "groovy.util",
        ],
        Language::Kotlin => &[
            "kotlin",
            "kotlin.annotation",
            "kotlin.collections",
            "kotlin.comparisons",
            "kotlin.io",
            "kotlin.ranges",
            "kotlin.sequences",
            "kotlin.text",
            "kotlin.jvm",
            "java.lang",
        ],
    }
}

/// The binary names `name` (as written in `unit`, dotted, without type
/// arguments) can stand for when the build does not declare it: a
/// single-type import, else a qualified name as written; a simple name is
/// looked for in the file's package, the on-demand imports and the implicit
/// packages, in that order.
pub(super) fn candidates(unit: &Unit, lang: Language, name: &str) -> Vec<SupertypeCandidate> {
    let (first, rest) = match name.split_once('.') {
        Some((first, rest)) => (first, Some(rest)),
        None => (name, None),
    };
    let named = |binary: String| {
        vec![SupertypeCandidate {
            binary,
            scope: Scope::Named,
        }]
    };
    let nested = |outer: &str| match rest {
        Some(rest) => format!("{outer}${}", rest.replace('.', "$")),
        None => outer.to_string(),
    };
    if let Some(import) = unit
        .imports
        .iter()
        .find(|i| !i.on_demand && i.name() == first)
    {
        return named(nested(&import.path));
    }
    if rest.is_some() {
        // `a.b.C` (a package) or `Outer.Inner` (a member type of an outside
        // class, seen without an import): read as a package, as it is written.
        return named(name.to_string());
    }
    let in_package = |package: &str| match package {
        "" => name.to_string(),
        p => format!("{p}.{name}"),
    };
    let searched = std::iter::once(unit.package.as_str())
        .chain(
            unit.imports
                .iter()
                .filter(|i| i.on_demand)
                .map(|i| i.path.as_str()),
        )
        .map(|p| SupertypeCandidate {
            binary: in_package(p),
            scope: Scope::Searched,
        });
    let implicit = implicit_packages(lang).iter().map(|p| SupertypeCandidate {
        binary: in_package(p),
        scope: Scope::Implicit,
    });
    let mut found: Vec<SupertypeCandidate> = Vec::new();
    for c in searched.chain(implicit) {
        if !found.iter().any(|f| f.binary == c.binary) {
            found.push(c);
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::select::source::parse;

    fn names(text: &str, lang: Language, name: &str) -> Vec<(String, Scope)> {
        candidates(&parse(text, lang), lang, name)
            .into_iter()
            .map(|c| (c.binary, c.scope))
            .collect()
    }

    fn c(binary: &str, scope: Scope) -> (String, Scope) {
        (binary.to_string(), scope)
    }

    #[test]
    fn an_import_or_a_qualified_name_names_one_type() {
        let text = "package a;\nimport junit.framework.TestCase;\nimport org.x.Outer;\nclass A {}";
        assert_eq!(
            names(text, Language::Java, "TestCase"),
            [c("junit.framework.TestCase", Scope::Named)]
        );
        assert_eq!(
            names(text, Language::Java, "Outer.Inner"),
            [c("org.x.Outer$Inner", Scope::Named)]
        );
        assert_eq!(
            names(text, Language::Java, "junit.framework.TestCase"),
            [c("junit.framework.TestCase", Scope::Named)]
        );
    }

    #[test]
    fn a_simple_name_is_searched_in_scope_order() {
        let text = "package a.b;\nimport junit.framework.*;\nclass A {}";
        assert_eq!(
            names(text, Language::Java, "TestCase"),
            [
                c("a.b.TestCase", Scope::Searched),
                c("junit.framework.TestCase", Scope::Searched),
                c("java.lang.TestCase", Scope::Implicit),
            ]
        );
        let groovy = names("class A {}", Language::Groovy, "GroovyTestCase");
        assert_eq!(groovy[0], c("GroovyTestCase", Scope::Searched));
        assert!(groovy.contains(&c("groovy.util.GroovyTestCase", Scope::Implicit)));
    }
}
