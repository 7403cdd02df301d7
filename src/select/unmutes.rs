//! Unmutes: entries of `muted-tests.yml` present at the merge base and gone now.
//!
//! Differences from a plain diff of `class|method` keys:
//! - An entry that is still muted by another entry of the new file (the same
//!   class muted whole, or a `*` pattern matching it, as Gradle's test filters
//!   read them) is not unmuted: turning a method mute into a class mute re-runs
//!   nothing.
//! - `method:` with no value is a whole-class mute; a scalar `methods:` is one
//!   method, not a list of characters.
//! - Each unmuted test is reported once, however many duplicate entries it had.
//! - A file that is not a mapping with a `tests:` list of mappings is an error
//!   naming the line, like a YAML syntax error.

use super::classify::Classifier;
use super::outcome::settle;
use super::selection::{Selection, TestRef};
use crate::domain::{Origin, Reason, ReasonCode};
use crate::{Error, Result};
use saphyr::{LoadableYamlNode, MarkedYaml, Scalar, YamlData};
use std::collections::HashSet;
// Gradle's filter wildcard: `*` matches any run of characters.
use crate::test_filter::glob as wildcard;

/// One entry of the `tests:` list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MutedEntry {
    /// Line of the entry in the file (1-based).
    pub line: usize,
    pub class: String,
    /// `methods` in order, then `method`; empty mutes the whole class.
    pub methods: Vec<String>,
}

impl MutedEntry {
    /// The tests this entry mutes.
    pub fn refs(&self) -> Vec<TestRef> {
        if self.methods.is_empty() {
            return vec![TestRef::class(&self.class)];
        }
        self.methods
            .iter()
            .map(|m| TestRef::method(&self.class, m))
            .collect()
    }
}

/// Parses muted-tests.yml; `file` names it in errors (`file:line: message`).
/// Entries without a `class` are skipped, as Elasticsearch's flakiness
/// detection does; `issue` and unknown keys are ignored.
pub fn parse(text: &str, file: &str) -> Result<Vec<MutedEntry>> {
    let at = |line: usize, message: String| Error::input(format!("{file}:{line}"), message);
    let docs =
        MarkedYaml::load_from_str(text).map_err(|e| at(e.marker().line(), e.info().to_string()))?;
    let Some(doc) = docs.first() else {
        return Ok(vec![]);
    };
    let tests = match untag(doc) {
        YamlData::Value(Scalar::Null) => return Ok(vec![]),
        YamlData::Mapping(_) => doc.data.as_mapping_get("tests"),
        _ => {
            return Err(at(
                line(doc),
                "expected a mapping with a `tests:` list".into(),
            ))
        }
    };
    let entries = match tests.map(|t| (t, untag(t))) {
        None | Some((_, YamlData::Value(Scalar::Null))) => return Ok(vec![]),
        Some((_, YamlData::Sequence(entries))) => entries,
        Some((t, _)) => return Err(at(line(t), "`tests` is not a list".into())),
    };
    let mut parsed = Vec::new();
    for entry in entries {
        let YamlData::Mapping(_) = untag(entry) else {
            return Err(at(line(entry), "a `tests` entry is not a mapping".into()));
        };
        let field = |key: &str| -> Result<Option<String>> {
            match entry.data.as_mapping_get(key) {
                None => Ok(None),
                Some(node) => scalar(node).map_err(|m| at(line(node), format!("`{key}` {m}"))),
            }
        };
        let Some(class) = field("class")?.filter(|c| !c.is_empty()) else {
            continue;
        };
        let mut methods = Vec::new();
        if let Some(list) = entry.data.as_mapping_get("methods") {
            match untag(list) {
                YamlData::Sequence(items) => {
                    for item in items {
                        let m = scalar(item)
                            .map_err(|m| at(line(item), format!("a `methods` item {m}")))?;
                        methods.extend(m);
                    }
                }
                _ => methods
                    .extend(scalar(list).map_err(|m| at(line(list), format!("`methods` {m}")))?),
            }
        }
        methods.extend(field("method")?);
        parsed.push(MutedEntry {
            line: line(entry),
            class,
            methods,
        });
    }
    Ok(parsed)
}

fn line(node: &MarkedYaml) -> usize {
    node.span.start.line()
}

fn untag<'a, 'b>(node: &'b MarkedYaml<'a>) -> &'b YamlData<'a, MarkedYaml<'a>> {
    match &node.data {
        YamlData::Tagged(_, inner) => untag(inner),
        data => data,
    }
}

/// A scalar as text (`None` for null); a list or mapping is an error.
fn scalar(node: &MarkedYaml) -> Result<Option<String>, String> {
    match untag(node) {
        YamlData::Value(Scalar::Null) => Ok(None),
        YamlData::Value(Scalar::String(s)) => Ok(Some(s.to_string())),
        YamlData::Value(Scalar::Integer(i)) => Ok(Some(i.to_string())),
        YamlData::Value(Scalar::FloatingPoint(f)) => Ok(Some(f.to_string())),
        YamlData::Value(Scalar::Boolean(b)) => Ok(Some(b.to_string())),
        YamlData::Representation(s, ..) => Ok(Some(s.to_string())),
        _ => Err("is not a single value".into()),
    }
}

/// The tests muted `before` and no longer muted `after`, in `before` order,
/// each once.
pub fn unmuted(before: &[MutedEntry], after: &[MutedEntry]) -> Vec<TestRef> {
    let still: Vec<TestRef> = after.iter().flat_map(MutedEntry::refs).collect();
    let exact: HashSet<&TestRef> = still.iter().collect();
    let mut seen = HashSet::new();
    before
        .iter()
        .flat_map(MutedEntry::refs)
        .filter(|r| !exact.contains(r) && !still.iter().any(|s| covers(s, r)))
        .filter(|r| seen.insert(r.clone()))
        .collect()
}

/// Does the mute `by` also mute `test`? A class mute covers its methods; `*`
/// matches any text, as in Gradle's test filter patterns.
pub fn covers(by: &TestRef, test: &TestRef) -> bool {
    let class =
        by.class == test.class || (by.class.contains('*') && wildcard(&by.class, &test.class));
    class
        && match (&by.method, &test.method) {
            (None, _) => true,
            (Some(p), Some(m)) => p == m || (p.contains('*') && wildcard(p, m)),
            (Some(_), None) => false,
        }
}

/// Classifies the unmuted tests. One that resolves to nothing is unresolved
/// with the reason (deleted class, wildcard, abstract, not applicable, …).
pub fn select(unmuted: &[TestRef], classifier: &Classifier) -> Selection {
    let mut selection = Selection::default();
    for test in unmuted {
        let outcomes = classifier.locate(test, Origin::Unmuted);
        let not_found = Reason::new(
            ReasonCode::NoSuchClass,
            format!(
                "no class `{}` in the build's test source sets (deleted or renamed?)",
                test.class
            ),
        );
        selection.merge(settle(
            &test.to_string(),
            Origin::Unmuted,
            outcomes,
            Some(not_found),
        ));
    }
    selection
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::TestKind;
    use crate::select::testing::{es_layout, MemFiles};

    fn refs(text: &str) -> Vec<TestRef> {
        parse(text, "muted-tests.yml")
            .unwrap()
            .iter()
            .flat_map(MutedEntry::refs)
            .collect()
    }

    fn diff(before: &str, after: &str) -> Vec<TestRef> {
        let p = |t| parse(t, "muted-tests.yml").unwrap();
        unmuted(&p(before), &p(after))
    }

    #[test]
    fn empty_and_keyless_files_mute_nothing() {
        assert_eq!(refs(""), []);
        assert_eq!(refs("  \n# only a comment\n"), []);
        assert_eq!(refs("foo: bar"), []);
        assert_eq!(refs("tests:"), []);
        assert_eq!(refs("tests: []"), []);
    }

    #[test]
    fn entries_expand_methods_first_then_method() {
        assert_eq!(
            refs("tests:\n- class: Foo\n  method: testBar\n  issue: https://x/1\n"),
            [TestRef::method("Foo", "testBar")]
        );
        assert_eq!(
            refs("tests:\n- class: Foo\n  methods:\n    - testA\n    - testB\n"),
            [
                TestRef::method("Foo", "testA"),
                TestRef::method("Foo", "testB")
            ]
        );
        assert_eq!(refs("tests:\n- class: Foo\n"), [TestRef::class("Foo")]);
        assert_eq!(
            refs("tests:\n- class: Foo\n  method: testX\n  methods: [testA, testB]\n"),
            [
                TestRef::method("Foo", "testA"),
                TestRef::method("Foo", "testB"),
                TestRef::method("Foo", "testX")
            ]
        );
    }

    #[test]
    fn quoted_scalars_any_key_order_and_entries_after_comments() {
        let text = "tests:\n\
            - issue: \"https://x/1\"\n  method: \"testRequestResetAndAbort\"\n  class: \"org.Foo\"\n\
            \n# Examples:\n#\n#  - class: org.Commented\n#    method: testNo\n\
            - class: 'org.Bar'\n  method: 'it''s'\n";
        assert_eq!(
            refs(text),
            [
                TestRef::method("org.Foo", "testRequestResetAndAbort"),
                TestRef::method("org.Bar", "it's")
            ]
        );
    }

    #[test]
    fn yaml_case_and_parameterized_names_are_kept_verbatim() {
        let text = "tests:\n\
            - class: org.ApmIT\n  method: test {yaml=/10_apm/Test template reinstallation}\n\
            - class: org.SearchIT\n  method: test {yaml=search/500_date_range/from, to, include_lower, include_upper deprecated}\n\
            - class: org.QueryTests\n  method: testToQuery {p0=false}\n\
            - class: org.LookupIT\n  method: test {lookup-join.MultipleBatches*\n\
            - class: org.ReaperPluginFuncTest\n  method: can launch reaper\n";
        let methods: Vec<_> = refs(text).into_iter().filter_map(|r| r.method).collect();
        assert_eq!(
            methods,
            [
                "test {yaml=/10_apm/Test template reinstallation}",
                "test {yaml=search/500_date_range/from, to, include_lower, include_upper deprecated}",
                "testToQuery {p0=false}",
                "test {lookup-join.MultipleBatches*",
                "can launch reaper"
            ]
        );
    }

    #[test]
    fn entries_without_a_class_are_skipped_and_null_method_mutes_the_class() {
        assert_eq!(
            refs("tests:\n- method: testOrphan\n- class: ''\n- class: Foo\n  method: testBar\n"),
            [TestRef::method("Foo", "testBar")]
        );
        assert_eq!(
            refs("tests:\n- class: Foo\n  method:\n"),
            [TestRef::class("Foo")]
        );
        assert_eq!(
            refs("tests:\n- class: Foo\n  methods: testOne\n"),
            [TestRef::method("Foo", "testOne")]
        );
        assert_eq!(
            refs("tests:\n- class: Foo\n  method: 12\n"),
            [TestRef::method("Foo", "12")]
        );
    }

    #[test]
    fn broken_files_are_errors_naming_the_line() {
        let err = |text: &str| parse(text, "muted-tests.yml").unwrap_err().to_string();
        assert!(
            err("tests:\n- class: Foo\n  method: [unclosed\n").starts_with("muted-tests.yml:4:"),
            "{}",
            err("tests:\n- class: Foo\n  method: [unclosed\n")
        );
        assert!(
            err("tests:\n- class: Foo\n method: bad indent\n").starts_with("muted-tests.yml:3:")
        );
        assert_eq!(
            err("- a\n- b\n"),
            "muted-tests.yml:1: expected a mapping with a `tests:` list"
        );
        assert_eq!(
            err("x: 1\ntests: nope\n"),
            "muted-tests.yml:2: `tests` is not a list"
        );
        assert_eq!(
            err("tests:\n- class: Foo\n- just text\n"),
            "muted-tests.yml:3: a `tests` entry is not a mapping"
        );
        assert_eq!(
            err("tests:\n- class: Foo\n  method: {a: b}\n"),
            "muted-tests.yml:3: `method` is not a single value"
        );
        assert!(err("tests:\n- class: Foo\n  class: Bar\n").starts_with("muted-tests.yml:"));
    }

    #[test]
    fn the_diff_reports_what_is_no_longer_muted() {
        let both = "tests:\n- class: Foo\n  method: testBar\n- class: Baz\n  method: testQux\n";
        let one = "tests:\n- class: Foo\n  method: testBar\n";
        assert_eq!(diff(both, both), []);
        assert_eq!(diff(both, one), [TestRef::method("Baz", "testQux")]);
        assert_eq!(diff(one, both), [], "new mutes are not unmutes");
        let reordered =
            "tests:\n- class: Baz\n  method: testQux\n- class: Foo\n  method: testBar\n";
        assert_eq!(diff(both, reordered), []);
        assert_eq!(diff("", one), []);
        assert_eq!(diff(one, ""), [TestRef::method("Foo", "testBar")]);
    }

    #[test]
    fn class_and_method_mutes_are_distinct_but_a_class_mute_covers_its_methods() {
        let class = "tests:\n- class: Foo\n";
        let method = "tests:\n- class: Foo\n  method: testBar\n";
        assert_eq!(diff(class, method), [TestRef::class("Foo")]);
        assert_eq!(
            diff(method, class),
            [],
            "testBar is still muted by the class entry"
        );
    }

    #[test]
    fn globs_in_the_new_file_keep_tests_muted() {
        let before = "tests:\n- class: org.esql.QueryIT\n  method: testA\n\
            - class: org.X\n  method: test {yaml=transform/10_basic/a}\n- class: org.Y\n";
        let after =
            "tests:\n- class: org.esql.**\n- class: org.X\n  method: test {yaml=transform/*}\n";
        assert_eq!(diff(before, after), [TestRef::class("org.Y")]);
    }

    #[test]
    fn duplicate_entries_unmute_once_and_only_when_all_are_gone() {
        let twice = "tests:\n- class: Foo\n  method: a\n- class: Foo\n  method: a\n";
        let once = "tests:\n- class: Foo\n  method: a\n";
        assert_eq!(diff(twice, once), []);
        assert_eq!(diff(twice, ""), [TestRef::method("Foo", "a")]);
    }

    #[test]
    fn wildcards_match_like_gradle_filters() {
        assert!(wildcard("org.esql.**", "org.esql.a.BTests"));
        assert!(wildcard(
            "test {yaml=transform/*}",
            "test {yaml=transform/a/b}"
        ));
        assert!(wildcard("a*b*c", "abc"));
        assert!(wildcard("*", ""));
        assert!(!wildcard("a*b", "ab_"));
        assert!(!wildcard("ab*ab", "ab"));
        assert!(!wildcard("x", "y"));
    }

    #[test]
    fn unmuted_tests_are_located_with_their_method() {
        let files = MemFiles::with(&[
            (
                "server/src/test/java/org/elasticsearch/index/IndexTests.java",
                "class IndexTests {}",
            ),
            (
                "x-pack/plugin/ml/src/yamlRestTest/java/org/elasticsearch/xpack/ml/MlYamlIT.java",
                "",
            ),
        ]);
        let layout = es_layout();
        let c = Classifier::from_layout(&layout, &files);
        let s = select(
            &[
                TestRef::method("org.elasticsearch.index.IndexTests", "testFoo"),
                TestRef::method("org.elasticsearch.GoneTests", "testFoo"),
                TestRef::method(
                    "org.elasticsearch.xpack.ml.MlYamlIT",
                    "test {yaml=/10_ml/Basic stats}",
                ),
                TestRef::class("org.elasticsearch.xpack.esql.**"),
            ],
            &c,
        );
        let got: Vec<_> = s
            .tests
            .iter()
            .map(|t| (t.task.as_str(), t.kind.clone(), t.method.as_deref()))
            .collect();
        assert_eq!(
            got,
            [
                (":server:test", TestKind::Unit, Some("testFoo")),
                (
                    ":x-pack:plugin:ml:yamlRestTest",
                    TestKind::YamlRestTestCase,
                    Some("test {yaml=/10_ml/Basic stats}")
                ),
            ]
        );
        let unresolved: Vec<_> = s.unresolved.iter().map(|u| u.input.as_str()).collect();
        assert_eq!(
            unresolved,
            [
                "org.elasticsearch.GoneTests#testFoo",
                "org.elasticsearch.xpack.esql.**"
            ]
        );
        assert!(s.unresolved[0].reason.contains("deleted"));
        assert!(s.unresolved[1].reason.contains("wildcard"));
    }

    #[test]
    fn hostile_yaml_text_survives_as_data() {
        let text = "tests:\n- class: \"org.$(rm -rf x).`id`Tests\"\n  method: \"test {yaml=a/\\\"q\\\" 'x'\\nnew é}\"\n";
        assert_eq!(
            refs(text),
            [TestRef::method(
                "org.$(rm -rf x).`id`Tests",
                "test {yaml=a/\"q\" 'x'\nnew é}"
            )]
        );
    }
}
