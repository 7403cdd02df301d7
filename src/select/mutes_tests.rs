use super::*;

fn refs(text: &str) -> Vec<TestRef> {
    parse(text, "muted-tests.yml")
        .unwrap()
        .iter()
        .flat_map(MutedEntry::refs)
        .collect()
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
    assert!(err("tests:\n- class: Foo\n method: bad indent\n").starts_with("muted-tests.yml:3:"));
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

/// Entries as Elasticsearch's `MutedTestsBuildService` tests write them:
/// `tasks:` scopes a mute, each task once, sorted; `issue:` is kept.
#[test]
fn task_scoped_entries_are_read_as_elasticsearch_writes_them() {
    let text = "tests:
- class: org.elasticsearch.SomeTest
  methods:
  - testFoo
  - testBar
  tasks:
  - :test
  - :otherTest
  - :test
  issue: https://github.com/elastic/elasticsearch/issues/12
- class: org.elasticsearch.EntireClassTest
  tasks: [':test']
  issue: https://github.com/elastic/elasticsearch/issues/6
- class: org.elasticsearch.yaml.SuiteIT
  method: \"test {yaml=analysis-common/30_tokenizers/letter}\"
  tasks:
  issue: https://github.com/elastic/elasticsearch/issues/7
";
    let entries = parse(text, "muted-tests.yml").unwrap();
    let got: Vec<(usize, &[String], Option<&str>)> = entries
        .iter()
        .map(|e| (e.line, e.tasks.as_slice(), e.issue.as_deref()))
        .collect();
    let tasks = |t: &[&str]| t.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert_eq!(
        got,
        [
            (
                2,
                tasks(&[":otherTest", ":test"]).as_slice(),
                Some("https://github.com/elastic/elasticsearch/issues/12")
            ),
            (
                11,
                tasks(&[":test"]).as_slice(),
                Some("https://github.com/elastic/elasticsearch/issues/6")
            ),
            (
                14,
                tasks(&[]).as_slice(),
                Some("https://github.com/elastic/elasticsearch/issues/7")
            ),
        ]
    );
    assert!(entries[0].scope().contains(":test") && !entries[0].scope().contains(":x:test"));
    assert_eq!(entries[2].scope(), TaskScope::Every, "`tasks:` null");
}

/// What fails Elasticsearch's build fails here, naming the file and line.
#[test]
fn bad_tasks_fail_as_elasticsearchs_build_fails_naming_the_line() {
    let err = |tasks: &str| {
        let text = format!(
            "tests:\n- class: org.elasticsearch.SomeTest\n  method: testFoo\n  tasks:{tasks}\n  \
             issue: https://github.com/elastic/elasticsearch/issues/14\n"
        );
        parse(&text, "muted-tests.yml").unwrap_err().to_string()
    };
    let cases = [
        (" []", "muted-tests.yml:4: `tasks` is empty"),
        ("\n  - \"  \"", "muted-tests.yml:5: a `tasks` item is blank"),
        ("\n  - ''", "muted-tests.yml:5: a `tasks` item is blank"),
        (
            "\n  - 7",
            "muted-tests.yml:5: a `tasks` item is not a string",
        ),
        (
            "\n  - true",
            "muted-tests.yml:5: a `tasks` item is not a string",
        ),
        (
            "\n  - ~",
            "muted-tests.yml:5: a `tasks` item is not a string",
        ),
        (
            "\n  - [':a']",
            "muted-tests.yml:5: a `tasks` item is not a string",
        ),
        (
            "\n  - :test\n  - test",
            "muted-tests.yml:6: the `tasks` item `test` does not start with `:`",
        ),
        (" ':test'", "muted-tests.yml:4: `tasks` is not a list"),
        (" {a: b}", "muted-tests.yml:4: `tasks` is not a list"),
    ];
    for (tasks, expected) in cases {
        let got = err(tasks);
        assert!(got.starts_with(expected), "{tasks:?}: {got}");
        assert!(
            got.ends_with("(Elasticsearch's build rejects it too)"),
            "{got}"
        );
    }
}

#[test]
fn task_scopes_unite_and_subtract() {
    let only = |t: &[&str]| TaskScope::Only(t.iter().map(|s| s.to_string()).collect());
    let all_but = |t: &[&str]| TaskScope::AllBut(t.iter().map(|s| s.to_string()).collect());
    let every = TaskScope::Every;
    assert_eq!(only(&[":a"]).union(&only(&[":b"])), only(&[":a", ":b"]));
    assert_eq!(
        all_but(&[":a", ":b"]).union(&only(&[":b"])),
        all_but(&[":a"])
    );
    assert_eq!(all_but(&[":a"]).union(&only(&[":a"])), every);
    assert_eq!(all_but(&[":a"]).union(&all_but(&[":b"])), every);
    assert!(only(&[":a"]).minus(&every).is_nowhere());
    assert_eq!(every.minus(&only(&[":a"])), all_but(&[":a"]));
    assert_eq!(every.minus(&all_but(&[":a"])), only(&[":a"]));
    assert_eq!(only(&[":a", ":b"]).minus(&only(&[":b"])), only(&[":a"]));
    assert_eq!(only(&[":a", ":b"]).minus(&all_but(&[":b"])), only(&[":b"]));
    assert_eq!(
        all_but(&[":a"]).minus(&only(&[":b"])),
        all_but(&[":a", ":b"])
    );
    assert_eq!(
        all_but(&[":a"]).minus(&all_but(&[":a", ":b"])),
        only(&[":b"])
    );
    assert!(TaskScope::nowhere().is_nowhere() && !every.is_nowhere());
}

/// The current file marks the selected tests it mutes in their task, with
/// the entry's issue; a mute scoped to another task, or of one method of a
/// class selected whole, does not.
#[test]
fn the_current_file_marks_the_tests_it_mutes_in_their_task() {
    use crate::domain::testing::test;
    use crate::domain::{ClassifiedTest, MuteState, TestKind};
    let text = "tests:
- class: org.acme.FooTests
  tasks:
  - :server:test
  issue: https://github.com/elastic/elasticsearch/issues/1
- class: org.acme.BarTests
  method: testA
  issue: https://github.com/elastic/elasticsearch/issues/2
- class: org.acme.QuxTests
  method: testB
  issue: https://github.com/elastic/elasticsearch/issues/3
";
    let current = parse(text, "muted-tests.yml").unwrap();
    let with_method = |mut t: ClassifiedTest, m: &str| {
        t.method = Some(m.into());
        t
    };
    let unit = |task: &str, class: &str| test(task, TestKind::Unit, Some(class));
    let mut selection = Selection {
        tests: vec![
            unit(":server:test", "org.acme.FooTests"),
            unit(":server:internalClusterTest", "org.acme.FooTests"),
            with_method(unit(":server:test", "org.acme.BarTests"), "testA"),
            with_method(unit(":server:test", "org.acme.BarTests"), "testC"),
            unit(":server:test", "org.acme.QuxTests"),
        ],
        ..Selection::default()
    };
    mark(&mut selection, &current);
    let marks: Vec<Option<(MuteState, &str, Option<&str>)>> = selection
        .tests
        .iter()
        .map(|t| {
            let m = t.mute.as_ref()?;
            Some((m.state, m.task.as_str(), m.issue.as_deref()))
        })
        .collect();
    let issue = |n: u32| format!("https://github.com/elastic/elasticsearch/issues/{n}");
    let (one, two) = (issue(1), issue(2));
    assert_eq!(
        marks,
        [
            Some((MuteState::Muted, ":server:test", Some(one.as_str()))),
            None,
            Some((MuteState::Muted, ":server:test", Some(two.as_str()))),
            None,
            None,
        ]
    );
}
