//! Explicit lists: tests named on the command line or in `FLAKINESS_CLASSES`.
//!
//! Grammar (docs/src/concepts/selection.md): `FQCN`, `FQCN#method`, `FQCN.method`,
//! `Runner.test {yaml=suite/path/Test name}`, or a path (relative to the build
//! root) to a test file or a `.yml` suite; separated by spaces, commas or
//! newlines. Unlike the older shell tooling, `#method` works, methods are
//! kept, and commas or spaces inside `{…}` never split.

use super::classify::Classifier;
use super::outcome::settle;
use super::outcome::Classified;
use super::selection::{Selection, TestRef};
use super::suggest;
use crate::domain::{Origin, Reason, ReasonCode};
use std::path::{Component, Path, PathBuf};

/// One parsed spec.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Spec {
    Path(PathBuf),
    Test(TestRef),
}

/// Splits arguments into specs. Inside `{…}` nothing splits but a newline, and
/// spaces before a `{` join `Runner.test` to its descriptor. An argument that
/// names an existing file (`is_file`) is one spec whatever characters it holds.
pub(crate) fn split(args: &[String], is_file: impl Fn(&str) -> bool) -> Vec<String> {
    let mut specs = Vec::new();
    for arg in args {
        if is_file(arg) {
            specs.push(arg.clone());
        } else {
            split_one(arg, &mut specs);
        }
    }
    specs
}

fn split_one(arg: &str, specs: &mut Vec<String>) {
    let mut current = String::new();
    // Inside `{…}` (a descriptor), and inside `[…]` or `(…)` outside it (a
    // parameterized case `parses[1: a, b]`, a TestNG row `encodes[2](a, b)`).
    let (mut braces, mut brackets) = (0usize, 0usize);
    let mut flush = |current: &mut String| {
        let spec = current.trim();
        if !spec.is_empty() {
            specs.push(spec.to_string());
        }
        current.clear();
    };
    for (i, c) in arg.char_indices() {
        match c {
            '\n' | '\r' => {
                flush(&mut current);
                (braces, brackets) = (0, 0);
            }
            '{' => {
                braces += 1;
                current.push(c);
            }
            '}' => {
                braces = braces.saturating_sub(1);
                current.push(c);
            }
            '[' | '(' if braces == 0 => {
                brackets += 1;
                current.push(c);
            }
            ']' | ')' if braces == 0 => {
                brackets = brackets.saturating_sub(1);
                current.push(c);
            }
            _ if braces > 0 || brackets > 0 => current.push(c),
            ',' => flush(&mut current),
            c if c.is_whitespace() => {
                let next = arg[i..].chars().find(|n| !n.is_whitespace() || *n == '\n');
                if next == Some('{') && !current.trim().is_empty() {
                    current.push(c);
                } else {
                    flush(&mut current);
                }
            }
            c => current.push(c),
        }
    }
    flush(&mut current);
}

const PATH_EXTENSIONS: [&str; 5] = [".java", ".groovy", ".kt", ".yml", ".yaml"];

/// Reads one spec. A spec with `/` before any `{`, `[` or `(`, or a file
/// extension, is a path; `#` separates a method; otherwise the last `.` does
/// when what follows starts lowercase and what precedes is a class
/// (capitalised), or when a `{…}` descriptor or `[…]`/`(…)` parameters follow.
pub(crate) fn parse(spec: &str) -> Spec {
    let head = &spec[..spec.find(['{', '[', '(']).unwrap_or(spec.len())];
    if let Some(i) = head.find('#') {
        let (class, method) = (&spec[..i], &spec[i + 1..]);
        return Spec::Test(match method.trim() {
            "" => TestRef::class(class),
            _ => TestRef::method(class, method),
        });
    }
    let has_descriptor = head.len() < spec.len();
    if head.contains(['/', '\\'])
        || (!has_descriptor && PATH_EXTENSIONS.iter().any(|e| spec.ends_with(e)))
    {
        return Spec::Path(PathBuf::from(spec));
    }
    let Some(dot) = head.trim_end().rfind('.') else {
        return Spec::Test(TestRef::class(spec));
    };
    let (class, method) = (&spec[..dot], &spec[dot + 1..]);
    let class_like = class
        .rsplit('.')
        .next()
        .is_some_and(|s| s.starts_with(char::is_uppercase));
    let method_like = method.starts_with(|c: char| c.is_lowercase() || c == '_');
    if has_descriptor || (class_like && method_like) {
        Spec::Test(TestRef::method(class, method))
    } else {
        Spec::Test(TestRef::class(spec))
    }
}

/// Classifies each spec, in order. A spec that resolves to nothing is
/// unresolved with the reason.
pub(crate) fn select(specs: &[String], classifier: &Classifier) -> Selection {
    let mut selection = Selection::default();
    for spec in specs {
        let files = classifier.files();
        let parsed = if files.is_file(Path::new(spec)) {
            Spec::Path(spec.into())
        } else {
            parse(spec)
        };
        let (classified, not_found) = match parsed {
            Spec::Path(path) => match inside_build(&path) {
                None => (
                    Classified::default(),
                    Reason::new(ReasonCode::OutsideBuild, "a path outside the build root"),
                ),
                Some(path) if files.is_file(&path) => {
                    let classified = classifier.classify_path(&path, Origin::Explicit);
                    let why = "not in a source set of the build";
                    (classified, Reason::new(ReasonCode::NotInSourceSet, why))
                }
                Some(_) => (
                    Classified::default(),
                    Reason::new(ReasonCode::NoSuchFile, "no such file in the build"),
                ),
            },
            Spec::Test(test) => {
                let mut classified = classifier.locate(&test, Origin::Explicit);
                let not_found = if classified.outcomes.is_empty() {
                    suggest::no_such_class(classifier, &test.class)
                } else {
                    Reason::new(ReasonCode::NoSuchClass, "")
                };
                let outcomes = std::mem::take(&mut classified.outcomes);
                classified.outcomes = suggest::check_methods(classifier, outcomes);
                (classified, not_found)
            }
        };
        selection.merge(settle(spec, Origin::Explicit, classified, Some(not_found)));
    }
    selection
}

/// `path` (relative to the build root) with `.` and `..` resolved lexically,
/// or `None` when it leaves the root (or is absolute).
fn inside_build(path: &Path) -> Option<PathBuf> {
    let mut inside = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::Normal(name) => inside.push(name),
            Component::ParentDir => {
                if !inside.pop() {
                    return None;
                }
            }
            Component::RootDir | Component::Prefix(_) => return None,
        }
    }
    Some(inside)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::TestKind;
    use crate::select::testing::{es_layout, MemFiles};

    fn split_all(args: &[&str]) -> Vec<String> {
        let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
        split(&args, |_| false)
    }

    #[test]
    fn specs_split_on_spaces_commas_and_newlines_but_not_inside_braces() {
        assert_eq!(
            split_all(&["a.ATests, b.BTests\nc.CTests  d.DTests#testX,,  "]),
            ["a.ATests", "b.BTests", "c.CTests", "d.DTests#testX"]
        );
        assert_eq!(
            split_all(&[
                "org.SearchIT.test {yaml=search/500_date_range/from, to, include_lower, include_upper deprecated},a.ATests"
            ]),
            [
                "org.SearchIT.test {yaml=search/500_date_range/from, to, include_lower, include_upper deprecated}",
                "a.ATests"
            ]
        );
        assert_eq!(
            split_all(&["  a.ATests  ", "", "   "]),
            ["a.ATests"],
            "blank specs are dropped"
        );
        // an unbalanced brace swallows only the rest of its line
        assert_eq!(
            split_all(&["a.LookupIT.test {lookup-join.Multiple, x\nb.BTests"]),
            ["a.LookupIT.test {lookup-join.Multiple, x", "b.BTests"]
        );
        // parameterized cases and TestNG rows keep their commas and spaces
        assert_eq!(
            split_all(&["a.P#parses[1: a, b] a.R#encodes[2](flaky, x&y, x%26y),b.BTests"]),
            [
                "a.P#parses[1: a, b]",
                "a.R#encodes[2](flaky, x&y, x%26y)",
                "b.BTests"
            ]
        );
        assert_eq!(
            split_all(&["a.Y.test {yaml=a/b/x (y, z}, b.BTests"]),
            ["a.Y.test {yaml=a/b/x (y, z}", "b.BTests"],
            "a parenthesis inside a descriptor is text"
        );
    }

    #[test]
    fn an_argument_naming_a_file_is_never_split() {
        let args = vec![
            "dir with space/A B Tests.java".to_string(),
            "x, y".to_string(),
        ];
        assert_eq!(
            split(&args, |a| a.ends_with(".java")),
            ["dir with space/A B Tests.java", "x", "y"]
        );
    }

    #[test]
    fn specs_parse_by_the_grammar() {
        let test = |c: &str, m: Option<&str>| {
            Spec::Test(TestRef {
                class: c.into(),
                method: m.map(Into::into),
            })
        };
        assert_eq!(parse("org.a.IndexTests"), test("org.a.IndexTests", None));
        assert_eq!(
            parse("org.a.IndexTests#testFoo"),
            test("org.a.IndexTests", Some("testFoo"))
        );
        assert_eq!(
            parse("org.a.IndexTests.testFoo"),
            test("org.a.IndexTests", Some("testFoo"))
        );
        assert_eq!(
            parse("org.a.MlYamlIT.test {yaml=/10_ml/Basic stats}"),
            test("org.a.MlYamlIT", Some("test {yaml=/10_ml/Basic stats}"))
        );
        assert_eq!(
            parse("org.a.MlYamlIT.test {yaml=ml/x.y/a#b}"),
            test("org.a.MlYamlIT", Some("test {yaml=ml/x.y/a#b}"))
        );
        assert_eq!(
            parse("org.a.QueryTests#testToQuery {p0=false}"),
            test("org.a.QueryTests", Some("testToQuery {p0=false}"))
        );
        assert_eq!(
            parse("com.example.KeyValueParserTest.parses[1: a.b]"),
            test("com.example.KeyValueParserTest", Some("parses[1: a.b]"))
        );
        assert_eq!(
            parse("com.example.RequestEncoderTest.encodes[2](flaky, x.y)"),
            test(
                "com.example.RequestEncoderTest",
                Some("encodes[2](flaky, x.y)")
            )
        );
        assert_eq!(parse("org.a.IndexTests#"), test("org.a.IndexTests", None));
        assert_eq!(parse("org.a.Outer.Inner"), test("org.a.Outer.Inner", None));
        assert_eq!(
            parse("org.foo.bar"),
            test("org.foo.bar", None),
            "a package is not a method"
        );
        assert_eq!(parse("IndexTests"), test("IndexTests", None));
        assert_eq!(
            parse("server/src/test/java/a/ATests.java"),
            Spec::Path("server/src/test/java/a/ATests.java".into())
        );
        assert_eq!(parse("ATests.java"), Spec::Path("ATests.java".into()));
        assert_eq!(
            parse("p/src/yamlRestTest/resources/rest-api-spec/test/a/b.yml"),
            Spec::Path("p/src/yamlRestTest/resources/rest-api-spec/test/a/b.yml".into())
        );
    }

    #[test]
    fn specs_resolve_through_the_layout_keeping_methods() {
        let files = MemFiles::with(&[
            (
                "server/src/test/java/org/elasticsearch/index/IndexTests.java",
                "class IndexTests extends IndexTestCase { void testFoo() {} }",
            ),
            (
                "server/src/test/java/org/elasticsearch/index/IndexTestCase.java",
                "abstract class IndexTestCase { public void testInherited() {} }",
            ),
            (
                "server/src/internalClusterTest/java/org/elasticsearch/cluster/ClusterIT.java",
                "",
            ),
            (
                "x-pack/plugin/ml/src/yamlRestTest/java/org/elasticsearch/xpack/ml/MlYamlIT.java",
                "",
            ),
            (
                "x-pack/plugin/ml/src/yamlRestTest/resources/rest-api-spec/test/ml/jobs.yml",
                "",
            ),
        ]);
        let layout = es_layout();
        let c = Classifier::from_layout(&layout, &files);
        let specs = split_all(&[
            "org.elasticsearch.index.IndexTests.testFoo, org.elasticsearch.cluster.ClusterIT",
            "org.elasticsearch.xpack.ml.MlYamlIT.test {yaml=/10_ml/Basic stats, with comma}",
            "org.elasticsearch.index.IndexTests#testInherited",
            "org.elasticsearch.index.IndexTests#testFooo",
            "org.elasticsearch.index.IndexTest",
            "./x-pack/plugin/ml/src/yamlRestTest/resources/rest-api-spec/test/ml/jobs.yml",
            "org.elasticsearch.does.not.Exist",
            "server/src/test/java/Missing.java",
            "../server/src/test/java/org/elasticsearch/index/IndexTests.java",
            "server/../x-pack/plugin/ml/./src/yamlRestTest/resources/rest-api-spec/test/ml/jobs.yml",
            "server/../../server/src/test/java/org/elasticsearch/index/IndexTests.java",
        ]);
        let s = select(&specs, &c);
        let got: Vec<_> = s
            .tests
            .iter()
            .map(|t| (t.kind.clone(), t.method.as_deref(), t.yaml_suite.as_deref()))
            .collect();
        assert_eq!(
            got,
            [
                (TestKind::Unit, Some("testFoo"), None),
                (TestKind::InternalClusterTest, None, None),
                (
                    TestKind::YamlRestTestCase,
                    Some("test {yaml=/10_ml/Basic stats, with comma}"),
                    None
                ),
                (TestKind::Unit, Some("testInherited"), None),
                (TestKind::YamlRestTestSuite, None, Some("ml/jobs")),
            ]
        );
        let unresolved: Vec<_> = s
            .unresolved
            .iter()
            .map(|u| (u.input.as_str(), u.reason.as_str()))
            .collect();
        assert_eq!(
            unresolved,
            [
                (
                    "org.elasticsearch.index.IndexTests#testFooo",
                    "no method `testFooo` in `org.elasticsearch.index.IndexTests` or its \
                     superclasses in the build (did you mean `testFoo`?)"
                ),
                (
                    "org.elasticsearch.index.IndexTest",
                    "no class `org.elasticsearch.index.IndexTest` in the build's test source sets \
                     (did you mean `org.elasticsearch.index.IndexTests`?)"
                ),
                (
                    "org.elasticsearch.does.not.Exist",
                    "no class `org.elasticsearch.does.not.Exist` in the build's test source sets"
                ),
                (
                    "server/src/test/java/Missing.java",
                    "no such file in the build"
                ),
                (
                    "../server/src/test/java/org/elasticsearch/index/IndexTests.java",
                    "a path outside the build root"
                ),
                (
                    "server/../../server/src/test/java/org/elasticsearch/index/IndexTests.java",
                    "a path outside the build root"
                ),
            ]
        );
        assert!(s.tests.iter().all(|t| t.origin == Origin::Explicit));
        // A `..` that stays inside the build resolves like the plain path
        // (and so is the same test as `./x-pack/...` above).
        let inside = select(
            &["server/../x-pack/plugin/ml/./src/yamlRestTest/resources/rest-api-spec/test/ml/jobs.yml".into()],
            &c,
        );
        assert_eq!(inside.tests.len(), 1, "{inside:?}");
        assert_eq!(inside.tests[0].yaml_suite.as_deref(), Some("ml/jobs"));
    }

    #[test]
    fn a_named_non_test_is_unresolved_with_why() {
        let files = MemFiles::with(&[
            (
                "server/src/main/java/org/elasticsearch/index/Index.java",
                "",
            ),
            (
                "server/src/test/java/org/elasticsearch/index/IndexTestCase.java",
                "package org.elasticsearch.index;\npublic class IndexTestCase {}",
            ),
        ]);
        let layout = es_layout();
        let c = Classifier::from_layout(&layout, &files);
        let s = select(
            &[
                "org.elasticsearch.index.Index".into(),
                "org.elasticsearch.index.IndexTestCase".into(),
            ],
            &c,
        );
        assert!(s.tests.is_empty());
        assert_eq!(
            s.unresolved[0].reason,
            "in `:server` source set `main`, which no Test task runs"
        );
        assert_eq!(
            s.unresolved[1].reason,
            "`IndexTestCase` declares no tests and inherits none (superclasses: \
             java.lang.Object): Gradle's test detection skips it (no JUnit 3 `TestCase`, no \
             `@Test`, `@RunWith` or TestNG annotation)"
        );
    }

    #[test]
    fn hostile_paths_and_names_survive_as_data() {
        let dir = "x-pack/plugin/ml/src/yamlRestTest/resources/rest-api-spec/test/ml/";
        let weird = format!("{dir}$(touch pwned) `id`, \"q\" 'x' new é.yml");
        let files = MemFiles::with(&[(weird.as_str(), "")]);
        let layout = es_layout();
        let c = Classifier::from_layout(&layout, &files);
        let args = vec![weird.clone(), "a.$(x)Tests#`id` é".to_string()];
        let specs = split(&args, |a| files.0.contains_key(Path::new(a)));
        assert_eq!(specs[0], weird);
        let s = select(&specs, &c);
        assert_eq!(
            s.tests[0].yaml_suite.as_deref(),
            Some("ml/$(touch pwned) `id`, \"q\" 'x' new é")
        );
        assert_eq!(s.unresolved[0].input, "a.$(x)Tests#`id`");
    }

    /// Control characters cannot reach Gradle intact (nor JUnit XML): such a
    /// file or name is refused with its own reason code, never run.
    #[test]
    fn names_with_control_characters_are_refused() {
        let dir = "x-pack/plugin/ml/src/yamlRestTest/resources/rest-api-spec/test/ml/";
        let (esc, newline) = (format!("{dir}a\u{1b}[31mred.yml"), format!("{dir}b\nc.yml"));
        let files = MemFiles::with(&[
            (esc.as_str(), ""),
            (newline.as_str(), ""),
            (
                "server/src/test/java/org/elasticsearch/index/IndexTests.java",
                // A named method is checked against the sources: this one has it.
                "class IndexTests { void testFine() {} }",
            ),
        ]);
        let layout = es_layout();
        let c = Classifier::from_layout(&layout, &files);
        let specs = [
            esc.clone(),
            newline.clone(),
            "org.elasticsearch.index.IndexTests#test\u{7}Bell".to_string(),
            "org.elasticsearch.index.IndexTests#testFine".to_string(),
        ];
        let s = select(&specs, &c);
        assert_eq!(s.tests.len(), 1, "{s:?}");
        assert_eq!(s.tests[0].method.as_deref(), Some("testFine"));
        let refused: Vec<(&str, ReasonCode, &str)> = s
            .unresolved
            .iter()
            .map(|u| (u.input.as_str(), u.reason_code, u.reason.as_str()))
            .collect();
        let why = |c: &str| {
            format!(
                "its name holds the control character U+{c}, which Gradle and JUnit XML cannot \
                 carry intact"
            )
        };
        let (a, b, bell) = (why("001B"), why("000A"), why("0007"));
        assert_eq!(
            refused,
            [
                (esc.as_str(), ReasonCode::UnsupportedCharacters, a.as_str()),
                (
                    newline.as_str(),
                    ReasonCode::UnsupportedCharacters,
                    b.as_str()
                ),
                (
                    specs[2].as_str(),
                    ReasonCode::UnsupportedCharacters,
                    bell.as_str()
                ),
            ]
        );
        assert_eq!(
            ReasonCode::UnsupportedCharacters.as_str(),
            "unsupported-characters"
        );
    }
}
