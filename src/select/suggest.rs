//! "Did you mean …": the names closest to a misspelled class or method, and
//! whether a method name appears in its class's sources at all. Files are
//! read only through the classifier's `Files`, and read as [`source`] does.

use super::classify::{Classification, Classifier, Skip};
use super::source::{self, is_word_char, Language, Unit};
use crate::domain::{Reason, ReasonCode};
use std::collections::BTreeSet;

/// At most this many suggestions are offered.
const MAX_SUGGESTIONS: usize = 3;

/// The candidates closest to `wanted`: those at the smallest case-insensitive
/// edit distance, if it is at most a third of its length (at least 2).
pub(crate) fn closest<'a>(
    wanted: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Vec<&'a str> {
    let wanted_lower = wanted.to_lowercase();
    let limit = (wanted.chars().count() / 3).max(2);
    let mut scored: Vec<(usize, &str)> = candidates
        .into_iter()
        .map(|c| (distance(&wanted_lower, &c.to_lowercase()), c))
        .filter(|(d, _)| *d <= limit)
        .collect();
    scored.sort();
    scored.dedup_by(|a, b| a.1 == b.1);
    let best = scored.first().map_or(0, |(d, _)| *d);
    scored
        .into_iter()
        .take_while(|(d, _)| *d == best)
        .take(MAX_SUGGESTIONS)
        .map(|(_, c)| c)
        .collect()
}

/// ` (did you mean `a` or `b`?)`, or nothing when there is no suggestion.
pub(crate) fn did_you_mean(suggestions: &[&str]) -> String {
    if suggestions.is_empty() {
        return String::new();
    }
    let quoted: Vec<String> = suggestions.iter().map(|s| format!("`{s}`")).collect();
    format!(" (did you mean {}?)", quoted.join(" or "))
}

/// Levenshtein distance with adjacent transpositions, by chars.
fn distance(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let mut prev2 = vec![0; b.len() + 1];
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for i in 1..=a.len() {
        let mut cur = vec![i; b.len() + 1];
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            cur[j] = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                cur[j] = cur[j].min(prev2[j - 2] + 1);
            }
        }
        prev2 = std::mem::replace(&mut prev, cur);
    }
    prev[b.len()]
}

/// What the sources say about a method a spec names.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum MethodCheck {
    /// The name appears in the sources, or it is not a plain identifier
    /// (a parameterized `parses[0: a]`, a YAML case `test {yaml=…}`, a
    /// display name), which only the test runner knows: it runs as asked.
    Plausible,
    /// A plain identifier found nowhere in the sources; the closest method
    /// names declared there.
    Missing(Vec<String>),
}

/// The reason a class spec selected nothing, with the test classes whose
/// simple names are closest to the one asked for.
pub(crate) fn no_such_class(classifier: &Classifier, class: &str) -> Reason {
    let simple = class.split('$').next().unwrap_or(class);
    let simple = simple.rsplit('.').next().unwrap_or(simple);
    let classes = classifier.test_like_classes();
    let best = closest(simple, classes.iter().map(|(name, _)| name.as_str()));
    let names: BTreeSet<String> = classes
        .iter()
        .filter(|(name, _)| best.contains(&name.as_str()))
        .filter_map(|(_, path)| classifier.class_name_of(path))
        .collect();
    let names: Vec<&str> = names
        .iter()
        .map(String::as_str)
        .take(MAX_SUGGESTIONS)
        .collect();
    Reason::new(
        ReasonCode::NoSuchClass,
        format!(
            "no class `{class}` in the build's test source sets{}",
            did_you_mean(&names)
        ),
    )
}

/// Each located test that names a method its sources do not mention becomes
/// unresolved (`no-such-method`), before Gradle is asked to run it.
pub(crate) fn check_methods(
    classifier: &Classifier,
    outcomes: Vec<Classification>,
) -> Vec<Classification> {
    outcomes
        .into_iter()
        .map(|outcome| {
            let test = outcome?;
            let (Some(class), Some(method)) = (&test.class, &test.method) else {
                return Ok(test);
            };
            match check_method(method, || class_sources(classifier, class)) {
                MethodCheck::Plausible => Ok(test),
                MethodCheck::Missing(names) => {
                    let names: Vec<&str> = names.iter().map(String::as_str).collect();
                    Err(Skip::Unresolved(Reason::new(
                        ReasonCode::NoSuchMethod,
                        format!(
                            "no method `{method}` in `{class}` or its superclasses in the build{}",
                            did_you_mean(&names)
                        ),
                    )))
                }
            }
        })
        .collect()
}

/// Superclasses followed at most this deep.
const MAX_SUPERCLASSES: usize = 20;

/// A source file of a class or of one of its superclasses.
#[derive(Clone, Debug)]
pub(crate) struct ClassSource {
    pub text: String,
    pub unit: Unit,
}

impl ClassSource {
    pub(crate) fn parse(text: String, lang: Language) -> ClassSource {
        let unit = source::parse(&text, lang);
        ClassSource { text, unit }
    }
}

/// The sources of the file defining `class` (an FQCN or binary name) and of
/// the files of its superclasses that the build's source dirs hold.
fn class_sources(classifier: &Classifier, class: &str) -> Vec<ClassSource> {
    let outer = class.split('$').next().unwrap_or(class);
    let innermost = class.rsplit(['.', '$']).next().unwrap_or(class);
    let outer_simple = outer.rsplit('.').next().unwrap_or(outer);
    let package_path = outer.replace('.', "/");
    let files = classifier.files();
    let read = |path: &std::path::Path| {
        let lang = Language::of_path(path)?;
        Some(ClassSource::parse(files.read(path)?, lang))
    };
    let mut sources = Vec::new();
    let mut pending = Vec::new();
    for path in classifier.files_of_class(outer_simple) {
        if path.with_extension("").ends_with(&package_path) {
            if let Some(source) = read(&path) {
                pending.extend(superclasses(&source.unit, innermost));
                sources.push(source);
            }
        }
    }
    let mut seen = BTreeSet::new();
    while let Some(sup) = pending.pop() {
        if seen.len() >= MAX_SUPERCLASSES || !seen.insert(sup.clone()) {
            continue;
        }
        for path in classifier.files_of_class(&sup) {
            if let Some(source) = read(&path) {
                pending.extend(superclasses(&source.unit, &sup));
                sources.push(source);
            }
        }
    }
    sources
}

/// Checks `method` against the sources of its class's file and of the
/// superclasses found in the build. A word anywhere in them (a comment
/// included) is enough: only a name that cannot be there is refused, and
/// the closest methods they declare are suggested.
pub(crate) fn check_method(
    method: &str,
    sources: impl FnOnce() -> Vec<ClassSource>,
) -> MethodCheck {
    if !is_identifier(method) {
        return MethodCheck::Plausible;
    }
    let sources = sources();
    if sources.is_empty() || sources.iter().any(|s| source::mentions(&s.text, method)) {
        return MethodCheck::Plausible;
    }
    let declared = sources
        .iter()
        .flat_map(|s| &s.unit.methods)
        .map(|m| m.name.as_str())
        .filter(|name| name.starts_with(|c: char| c.is_lowercase() || c == '_'));
    MethodCheck::Missing(
        closest(method, declared)
            .into_iter()
            .map(str::to_string)
            .collect(),
    )
}

/// The simple names of the types every class `simple` of the file extends
/// or implements (Java and Groovy `extends` and `implements`, Kotlin's `:`
/// list). Reading one file too many only makes a method more plausible.
pub(crate) fn superclasses(unit: &Unit, simple: &str) -> Vec<String> {
    unit.types_named(simple)
        .flat_map(|t| t.supers.iter().map(|s| &s.name).chain(&t.interfaces))
        .map(|name| name.rsplit('.').next().unwrap_or(name).to_string())
        .collect()
}

fn is_identifier(s: &str) -> bool {
    s.starts_with(|c: char| is_word_char(c) && !c.is_numeric()) && s.chars().all(is_word_char)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The check against Java source texts.
    fn check_method(method: &str, sources: impl FnOnce() -> Vec<String>) -> MethodCheck {
        let parse = |text: String| ClassSource::parse(text, Language::Java);
        super::check_method(method, || sources().into_iter().map(parse).collect())
    }

    fn java(text: &str) -> Unit {
        source::parse(text, Language::Java)
    }

    #[test]
    fn close_names_are_suggested_best_first() {
        let names = ["StringsTests", "IndexTests", "StringTools", "SearchFlakyIT"];
        assert_eq!(closest("StringTests", names), ["StringsTests"]);
        assert_eq!(closest("indextests", names), ["IndexTests"]);
        assert_eq!(closest("IndxeTests", names), ["IndexTests"]);
        assert!(closest("Completely", names).is_empty());
        assert_eq!(did_you_mean(&["A", "B"]), " (did you mean `A` or `B`?)");
        assert_eq!(did_you_mean(&[]), "");
    }

    #[test]
    fn a_missing_method_gets_the_closest_declared_names() {
        let src = "class FooTests extends Base {\n  public void testParse() { parse(x); }\n  \
                   void testParseAll() { if (x) {} }\n}"
            .to_string();
        assert_eq!(
            check_method("testPrase", || vec![src.clone()]),
            MethodCheck::Missing(vec!["testParse".into()])
        );
        assert_eq!(
            check_method("testParse", || vec![src.clone()]),
            MethodCheck::Plausible
        );
        assert_eq!(
            check_method("zzz", || vec![src.clone()]),
            MethodCheck::Missing(vec![])
        );
    }

    #[test]
    fn names_only_the_runner_knows_are_not_checked() {
        let src = vec!["class ATests { void parses(String s) {} }".to_string()];
        for name in [
            "parses[0: a]",
            "test {yaml=search/10_basic/Search}",
            "adds two numbers",
        ] {
            assert_eq!(
                check_method(name, || src.clone()),
                MethodCheck::Plausible,
                "{name}"
            );
        }
        assert_eq!(check_method("anything", Vec::new), MethodCheck::Plausible);
    }

    #[test]
    fn superclasses_are_read_from_the_declaration() {
        let src = "public class FooTests<T extends Bar> extends org.x.BaseTestCase<Foo> implements X, Y {}";
        assert_eq!(
            superclasses(&java(src), "FooTests"),
            ["BaseTestCase", "X", "Y"]
        );
        assert!(superclasses(&java("class A {}"), "A").is_empty());
        assert_eq!(
            superclasses(
                &java("class Outer { static class In extends Base {} }"),
                "In"
            ),
            ["Base"]
        );
        let kotlin = source::parse(
            "class FooTest(val a: Int) : kotlin.BaseTest() {",
            Language::Kotlin,
        );
        assert_eq!(superclasses(&kotlin, "FooTest"), ["BaseTest"]);
        assert!(superclasses(&java("class FooTestsHelper extends X {}"), "FooTests").is_empty());
    }
}
