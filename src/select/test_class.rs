//! What counts as a test class: what Gradle's own test detection would run,
//! not a name list.
//!
//! Gradle looks only at the class files the Test task's include/exclude
//! patterns accept (checked with the task choice in `tasks`: a test they
//! leave out is `excluded-by-task-patterns`, support code is no test), and
//! among those runs each concrete class its detector finds to be a test. The
//! detectors (`JUnitDetector`, `TestNGDetector` over Gradle's
//! `AbstractTestFrameworkDetector`) read the class and, when it shows no test,
//! its superclass, and so on up the chain, from the test classes dirs and
//! then the jars of the test classpath:
//! - JUnit: a superclass `junit.framework.TestCase` or `groovy.util.GroovyTestCase`
//!   (JUnit 3), a class annotated `@RunWith` or a method annotated `@Test`;
//! - TestNG: `@Test` on the class, or a method annotated `@Test`,
//!   `@BeforeSuite`, `@Factory`, …;
//! - JUnit Platform: no detection; every class the patterns accept is handed
//!   to the engines, which find `@Test`, `@ParameterizedTest`, … also on
//!   interfaces' default methods.
//!
//! The same walk is made here over the build's sources ([`Hierarchy`]: other
//! source sets and projects included), then over its compiled classes, then
//! over the jars and class folders of the runtime classpath of the tasks
//! that may run the class (as the layout reports it: [`Classpath`]), with
//! the evidence of every framework at once (it only ever accepts more). A
//! chain that leaves all of them for a type that is not a known base (no
//! classpath was reported, or it lacks the class) is undecided, and an
//! undecided class is accepted: Gradle's scan would at least try it, and
//! refusing it could leave a changed test unrun, the worst outcome; should it
//! run no test, the report says `not-a-test` rather than a verdict. What is
//! refused is certainly no test: an
//! interface, an enum, a class whose whole chain is resolved without a test.

use super::bytecode::{ClassInfo, Compiled};
use super::expand::Hierarchy;
use super::jar::Classpath;
use super::source::{Declared, Language, TypeKind, Unit};
use super::supertypes::{self, Scope, Supertype, SupertypeCandidate};
use crate::test_filter::{class_file, Patterns};
use std::cell::RefCell;
use std::path::Path;

/// Suffixes of the test class names of Gradle's, Maven's and Spock's conventions.
const TEST_SUFFIXES: [&str; 5] = ["Test", "Tests", "IT", "ITCase", "Spec"];

/// The naming rule, for messages.
pub(super) const NAME_RULE: &str = "*Test, *Tests, *IT, *ITCase or *Spec";

/// Annotations that make a method a test (JUnit 4 and 5, TestNG's
/// configuration methods, which Gradle's TestNG detector counts too), by
/// simple name, as sources write them.
const METHOD_ANNOTATIONS: [&str; 13] = [
    "Test",
    "ParameterizedTest",
    "RepeatedTest",
    "TestFactory",
    "TestTemplate",
    "Theory",
    "BeforeSuite",
    "AfterSuite",
    "BeforeTest",
    "AfterTest",
    "BeforeGroups",
    "AfterGroups",
    "Factory",
];

/// Annotations that make a class a test: JUnit 4's runner, TestNG's `@Test`.
const CLASS_ANNOTATIONS: [&str; 2] = ["RunWith", "Test"];

/// The same annotations in compiled classes, by binary name.
const COMPILED_METHOD_ANNOTATIONS: [&str; 13] = [
    "org.junit.Test",
    "org.junit.jupiter.api.Test",
    "org.junit.jupiter.api.RepeatedTest",
    "org.junit.jupiter.api.TestFactory",
    "org.junit.jupiter.api.TestTemplate",
    "org.junit.jupiter.params.ParameterizedTest",
    "org.junit.experimental.theories.Theory",
    "org.testng.annotations.Test",
    "org.testng.annotations.BeforeSuite",
    "org.testng.annotations.AfterSuite",
    "org.testng.annotations.BeforeTest",
    "org.testng.annotations.AfterTest",
    "org.testng.annotations.Factory",
];
const COMPILED_CLASS_ANNOTATIONS: [&str; 2] =
    ["org.junit.runner.RunWith", "org.testng.annotations.Test"];

/// Superclasses that make a class a test: Gradle's JUnit 3 bases (and
/// Groovy 2.5's move of `GroovyTestCase`), and Spock's, which runs with
/// `@RunWith` (Spock 1) or on the JUnit Platform (Spock 2).
const TEST_BASES: [&str; 4] = [
    "junit.framework.TestCase",
    "groovy.util.GroovyTestCase",
    "groovy.test.GroovyTestCase",
    "spock.lang.Specification",
];

/// Library classes with no test whose subclasses Gradle therefore skips
/// (unless they declare tests of their own).
const NOT_TESTS: [&str; 4] = [
    "java.lang.Object",
    "junit.framework.TestSuite",
    "junit.framework.Assert",
    "org.junit.Assert",
];

/// Packages of the platform: no test base lives there.
const PLATFORM_PACKAGES: [&str; 6] = ["java.", "javax.", "jdk.", "sun.", "kotlin.", "groovy.lang."];

/// `java.lang` classes a class commonly extends without importing them.
const JAVA_LANG_BASES: [&str; 11] = [
    "Object",
    "Thread",
    "Exception",
    "RuntimeException",
    "Error",
    "Throwable",
    "Number",
    "ClassLoader",
    "ThreadLocal",
    "InheritableThreadLocal",
    "SecurityManager",
];

/// How deep a superclass chain is followed.
const MAX_CHAIN: usize = 64;

/// Whether Gradle would run a concrete class.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Detection {
    Test,
    /// No test in the whole chain; the superclasses walked, nearest first.
    NotTest(Vec<String>),
    /// The chain leaves what the build shows (a jar's class): accepted.
    Undecided,
}

/// The name rule, used only where a name is all there is: when a class's
/// source cannot be read, and to find classes close to a misspelled one.
pub(super) fn is_test_name(simple: &str) -> bool {
    TEST_SUFFIXES
        .iter()
        .any(|s| simple.len() > s.len() && simple.ends_with(s))
}

/// Whether the type `t` of `unit` declares tests itself: a test annotation
/// on it or on one of its methods. TestNG's `@Factory` counts only when the
/// file imports it from TestNG (the name is common elsewhere).
pub(super) fn shows_tests(unit: &Unit, t: &Declared) -> bool {
    let testng_factory = unit
        .imports
        .iter()
        .any(|i| i.path.starts_with("org.testng.annotations"));
    let method_test = |name: &str, simple: &str| {
        METHOD_ANNOTATIONS.contains(&simple)
            && (simple != "Factory" || testng_factory || name.starts_with("org.testng."))
    };
    t.annotations
        .iter()
        .any(|a| CLASS_ANNOTATIONS.contains(&a.simple()))
        || unit
            .methods
            .iter()
            .filter(|m| m.owner == t.local)
            .flat_map(|m| &m.annotations)
            .any(|a| method_test(&a.name, a.simple()))
}

/// Whether the type `t` declares tests of its own: [`shows_tests`], or a
/// JUnit 3 `test*` method (the source model keeps no signature: any method
/// so named counts, the safe side, as a class thought to declare tests
/// keeps its refusal).
pub(super) fn declares_tests(unit: &Unit, t: &Declared) -> bool {
    shows_tests(unit, t)
        || unit
            .methods
            .iter()
            .any(|m| m.owner == t.local && m.name.starts_with("test"))
}

/// Whether a class of `unit` nested in `outer` (local name) declares tests:
/// Gradle runs it as a class of its own.
pub(super) fn nested_shows_tests(unit: &Unit, outer: &str) -> bool {
    let prefix = format!("{outer}$");
    unit.types
        .iter()
        .filter(|t| t.kind == TypeKind::Class && t.local.starts_with(&prefix))
        .any(|t| shows_tests(unit, t))
}

/// What the type `t` of a `lang` file shows without looking further: tests of
/// its own, or a known test base imported or written fully qualified.
pub(super) fn evidently_a_test(unit: &Unit, lang: Language, t: &Declared) -> bool {
    shows_tests(unit, t)
        || t.supers.iter().filter(|s| s.superclass).any(|s| {
            supertypes::candidates(unit, lang, &s.name)
                .first()
                .is_some_and(|c| c.scope == Scope::Named && TEST_BASES.contains(&c.binary.as_str()))
        })
}

/// The kinds of type Gradle never runs, with their name for messages.
pub(super) fn never_run(kind: TypeKind) -> Option<&'static str> {
    match kind {
        TypeKind::Interface => Some("an interface"),
        TypeKind::Enum => Some("an enum"),
        TypeKind::Annotation => Some("an annotation type"),
        TypeKind::Object => Some("a Kotlin object"),
        TypeKind::Class | TypeKind::Record => None,
    }
}

/// The reason for a class whose chain holds no test.
pub(super) fn not_a_test_reason(simple: &str, chain: &[String]) -> String {
    format!(
        "`{simple}` declares no tests and inherits none (superclasses: {}): Gradle's test \
         detection skips it (no JUnit 3 `TestCase`, no `@Test`, `@RunWith` or TestNG annotation)",
        chain.join(", ")
    )
}

/// Walks superclass chains as Gradle's detectors do.
pub(super) struct Detector<'a> {
    hierarchy: &'a Hierarchy,
    compiled: &'a Compiled<'a>,
    /// A task that may run the class uses the JUnit Platform (or an unknown
    /// framework): interfaces' test methods count too.
    platform: bool,
    /// Supertypes the hierarchy does not declare, by the names they can
    /// have: a hierarchy of part of the build may lack their sources.
    misses: RefCell<Vec<String>>,
    /// The runtime classpath of the tasks that may run the class: library
    /// superclasses are read from it; without it they are undecided.
    classpath: Option<&'a Classpath<'a>>,
}

impl<'a> Detector<'a> {
    pub(super) fn new(
        hierarchy: &'a Hierarchy,
        compiled: &'a Compiled<'a>,
        platform: bool,
    ) -> Self {
        Detector {
            hierarchy,
            compiled,
            platform,
            misses: RefCell::new(Vec::new()),
            classpath: None,
        }
    }

    /// Reads the supertypes outside the build from this classpath.
    pub(super) fn with_classpath(mut self, classpath: Option<&'a Classpath<'a>>) -> Self {
        self.classpath = classpath;
        self
    }

    /// A compiled class of the build's, else of the classpath's.
    fn class_file(&self, binary: &str) -> Option<std::rc::Rc<ClassInfo>> {
        self.compiled
            .class(binary)
            .or_else(|| self.classpath?.class(binary))
    }

    /// The names of the supertypes the last walks met outside the hierarchy
    /// (imported, qualified, or looked for in a package); emptied.
    pub(super) fn take_misses(&self) -> Vec<String> {
        std::mem::take(&mut *self.misses.borrow_mut())
    }

    fn missed(&self, candidates: &[SupertypeCandidate]) {
        let searchable = candidates.iter().filter(|c| c.scope != Scope::Implicit);
        self.misses
            .borrow_mut()
            .extend(searchable.map(|c| c.binary.clone()));
    }

    /// Whether Gradle would find tests in the class `binary` of the build's
    /// file `path`.
    pub(super) fn detect(&self, binary: &str, path: &Path) -> Detection {
        let mut chain = Vec::new();
        match self.source(binary, Some(path), &mut chain, 0) {
            ChainSearch::Test => Detection::Test,
            ChainSearch::None => Detection::NotTest(chain),
            ChainSearch::Unknown => Detection::Undecided,
        }
    }

    /// A class of the build's sources.
    fn source(
        &self,
        binary: &str,
        in_file: Option<&Path>,
        chain: &mut Vec<String>,
        depth: usize,
    ) -> ChainSearch {
        let (Some((file, t)), Some(supers)) = (
            self.hierarchy.declaration(binary, in_file),
            self.hierarchy.supertypes(binary, in_file),
        ) else {
            return ChainSearch::Unknown;
        };
        if depth > MAX_CHAIN {
            return ChainSearch::Unknown;
        }
        if shows_tests(&file.unit, t) {
            return ChainSearch::Test;
        }
        let inherited = match &supers.superclass {
            None if t.kind == TypeKind::Class || t.kind == TypeKind::Record => {
                chain.push("java.lang.Object".into());
                ChainSearch::None
            }
            None => ChainSearch::None,
            Some(Supertype::Declared(parent)) => {
                chain.push(parent.clone());
                self.source(parent, None, chain, depth + 1)
            }
            Some(Supertype::Outside(candidates)) => self.outside(candidates, chain, depth + 1),
        };
        inherited.or_else(|| self.interfaces(&supers.interfaces, depth))
    }

    /// Interfaces count only where the JUnit Platform may run the class
    /// (Jupiter runs an interface's default test methods; Gradle's JUnit 4
    /// and TestNG detection never looks at interfaces).
    fn interfaces(&self, interfaces: &[Supertype], depth: usize) -> ChainSearch {
        if !self.platform {
            return ChainSearch::None;
        }
        let mut found = ChainSearch::None;
        for i in interfaces {
            let next = match i {
                Supertype::Declared(b) => self.source(b, None, &mut Vec::new(), depth + 1),
                Supertype::Outside(candidates) if candidates.iter().all(is_platform) => {
                    ChainSearch::None
                }
                Supertype::Outside(candidates) => match self.library_interface(candidates) {
                    Some(info) => self.compiled(&info, &mut Vec::new(), depth + 1),
                    None => {
                        self.missed(candidates);
                        ChainSearch::Unknown
                    }
                },
            };
            found = found.either(next);
        }
        found
    }

    /// A supertype the sources do not declare: a known base, a compiled
    /// class of the build, the platform, or undecided.
    fn outside(
        &self,
        candidates: &[SupertypeCandidate],
        chain: &mut Vec<String>,
        depth: usize,
    ) -> ChainSearch {
        self.missed(candidates);
        for c in candidates {
            let binary = c.binary.as_str();
            if TEST_BASES.contains(&binary) {
                return ChainSearch::Test;
            }
            if NOT_TESTS.contains(&binary) {
                chain.push(c.binary.clone());
                return ChainSearch::None;
            }
            if let Some(info) = self.class_file(binary) {
                chain.push(c.binary.clone());
                return self.compiled(&info, chain, depth);
            }
            let java_lang = binary
                .strip_prefix("java.lang.")
                .is_some_and(|simple| JAVA_LANG_BASES.contains(&simple));
            let platform = c.scope == Scope::Named && is_platform(c);
            if platform || (c.scope == Scope::Implicit && java_lang) {
                chain.push(c.binary.clone());
                return ChainSearch::None;
            }
        }
        ChainSearch::Unknown
    }

    /// A compiled class of the build (its sources are not at hand).
    fn compiled(&self, info: &ClassInfo, chain: &mut Vec<String>, depth: usize) -> ChainSearch {
        if depth > MAX_CHAIN {
            return ChainSearch::Unknown;
        }
        let annotated =
            |names: &[String], wanted: &[&str]| names.iter().any(|a| wanted.contains(&a.as_str()));
        if annotated(&info.annotations, &COMPILED_CLASS_ANNOTATIONS)
            || annotated(&info.method_annotations, &COMPILED_METHOD_ANNOTATIONS)
        {
            return ChainSearch::Test;
        }
        let inherited = match &info.superclass {
            None => ChainSearch::None,
            Some(parent) if self.hierarchy.declaration(parent, None).is_some() => {
                chain.push(parent.clone());
                self.source(parent, None, chain, depth + 1)
            }
            Some(parent) => {
                let named = SupertypeCandidate {
                    binary: parent.clone(),
                    scope: Scope::Named,
                };
                self.outside(&[named], chain, depth + 1)
            }
        };
        let interfaces: Vec<Supertype> = info
            .interfaces
            .iter()
            .map(|i| {
                Supertype::Outside(vec![SupertypeCandidate {
                    binary: i.clone(),
                    scope: Scope::Named,
                }])
            })
            .collect();
        inherited.or_else(|| self.interfaces(&interfaces, depth))
    }

    /// The first of an interface's candidate names a class file has.
    fn library_interface(
        &self,
        candidates: &[SupertypeCandidate],
    ) -> Option<std::rc::Rc<ClassInfo>> {
        candidates.iter().find_map(|c| self.class_file(&c.binary))
    }
}

/// What a walk found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ChainSearch {
    Test,
    None,
    Unknown,
}

impl ChainSearch {
    /// This, or when no test was found here, what `other` finds.
    fn or_else(self, other: impl FnOnce() -> ChainSearch) -> ChainSearch {
        match self {
            ChainSearch::None => other(),
            found => found,
        }
    }

    /// A test in either; else unknown in either; else none.
    fn either(self, other: ChainSearch) -> ChainSearch {
        match (self, other) {
            (ChainSearch::Test, _) | (_, ChainSearch::Test) => ChainSearch::Test,
            (ChainSearch::Unknown, _) | (_, ChainSearch::Unknown) => ChainSearch::Unknown,
            _ => ChainSearch::None,
        }
    }
}

fn is_platform(c: &SupertypeCandidate) -> bool {
    PLATFORM_PACKAGES.iter().any(|p| c.binary.starts_with(p))
}

/// Whether the file of the outer class `binary` (simple name `simple`)
/// declares nested classes whose tests run under their own names
/// (`Outer$Inner`): classes `patterns` let its task run on their own, or
/// any, when the outer class runs with JUnit's `Enclosed` runner (which runs
/// them through it, whatever the patterns say).
pub(super) fn has_nested_classes(
    patterns: &Patterns,
    binary: &str,
    simple: &str,
    unit: &Unit,
) -> bool {
    let enclosed = unit.types.iter().any(|t| {
        t.local == simple
            && t.run_with()
                .is_some_and(|a| a.classes.iter().any(|c| is_enclosed_runner(c)))
    });
    let prefix = format!("{simple}$");
    unit.types
        .iter()
        .filter(|t| t.kind == TypeKind::Class)
        .filter_map(|t| t.local.strip_prefix(&prefix))
        .any(|nested| enclosed || patterns.accepts(&class_file(&format!("{binary}${nested}"))))
}

/// JUnit 4's `Enclosed` runner, as `@RunWith(…)` names it.
fn is_enclosed_runner(written: &str) -> bool {
    matches!(
        written,
        "Enclosed" | "org.junit.experimental.runners.Enclosed"
    )
}

#[cfg(test)]
#[path = "test_class_tests.rs"]
mod tests;
