use super::*;
use crate::domain::TestKind;
use crate::select::testing::{es_layout, MemFiles};

fn diff(before: &str, after: &str) -> Vec<TestRef> {
    let p = |t| parse(t, "muted-tests.yml").unwrap();
    unmuted(&p(before), &p(after))
        .into_iter()
        .map(|u| u.test)
        .collect()
}

#[test]
fn the_diff_reports_what_is_no_longer_muted() {
    let both = "tests:\n- class: Foo\n  method: testBar\n- class: Baz\n  method: testQux\n";
    let one = "tests:\n- class: Foo\n  method: testBar\n";
    assert_eq!(diff(both, both), []);
    assert_eq!(diff(both, one), [TestRef::method("Baz", "testQux")]);
    assert_eq!(diff(one, both), [], "new mutes are not unmutes");
    let reordered = "tests:\n- class: Baz\n  method: testQux\n- class: Foo\n  method: testBar\n";
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
    let after = "tests:\n- class: org.esql.**\n- class: org.X\n  method: test {yaml=transform/*}\n";
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
    let unmutes: Vec<Unmute> = [
        TestRef::method("org.elasticsearch.index.IndexTests", "testFoo"),
        TestRef::method("org.elasticsearch.GoneTests", "testFoo"),
        TestRef::method(
            "org.elasticsearch.xpack.ml.MlYamlIT",
            "test {yaml=/10_ml/Basic stats}",
        ),
        TestRef::class("org.elasticsearch.xpack.esql.**"),
    ]
    .into_iter()
    .map(|test| Unmute {
        test,
        tasks: TaskScope::Every,
        issue: None,
    })
    .collect();
    let s = select(&unmutes, &c);
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

/// The unmutes of two versions of the file: each test, where it is no
/// longer muted, and the issue.
fn scoped(before: &str, after: &str) -> Vec<(String, String, Option<String>)> {
    let p = |t| parse(t, "muted-tests.yml").unwrap();
    unmuted(&p(before), &p(after))
        .into_iter()
        .map(|u| (u.test.to_string(), u.tasks.to_string(), u.issue))
        .collect()
}

fn entry(line: &str) -> (String, String, Option<String>) {
    let (test, tasks) = line.split_once(" in ").unwrap();
    let issue = "https://github.com/elastic/elasticsearch/issues/1".to_string();
    (test.into(), tasks.into(), Some(issue))
}

/// Entries written as Elasticsearch's `MutedTestsBuildService` tests write
/// them: a mute scoped to tasks (`tasks:`) unmutes in the tasks it leaves,
/// and a mute scoped to other tasks does not keep a test muted.
#[test]
fn a_task_scoped_mute_unmutes_in_its_tasks_only() {
    let head = "tests:\n";
    let mute = |method: &str, tasks: &[&str]| {
        let mut e = format!(
            "- class: org.elasticsearch.SomeTest\n  method: {method}\n  \
             issue: https://github.com/elastic/elasticsearch/issues/1\n"
        );
        if !tasks.is_empty() {
            e += "  tasks:\n";
            for t in tasks {
                e += &format!("  - {t}\n");
            }
        }
        e
    };
    let file = |entries: &[&String]| {
        let entries: String = entries.iter().map(|e| e.as_str()).collect();
        format!("{head}{entries}")
    };
    let server = mute("testFoo", &[":server:test"]);
    let other = mute("testFoo", &[":other:test"]);
    // the entry scoped to :server:test removed, one scoped to :other:test kept
    assert_eq!(
        scoped(&file(&[&server, &other]), &file(&[&other])),
        [entry(
            "org.elasticsearch.SomeTest#testFoo in `:server:test`"
        )]
    );
    // a task removed from an entry's `tasks`
    let both = mute("testFoo", &[":server:test", ":other:test"]);
    assert_eq!(
        scoped(&file(&[&both]), &file(&[&other])),
        [entry(
            "org.elasticsearch.SomeTest#testFoo in `:server:test`"
        )]
    );
    // an unscoped mute narrowed to one task: unmuted everywhere else
    let everywhere = mute("testFoo", &[]);
    assert_eq!(
        scoped(&file(&[&everywhere]), &file(&[&other])),
        [entry(
            "org.elasticsearch.SomeTest#testFoo in every task but `:other:test`"
        )]
    );
    // scoped mutes widened, or kept by a class mute in that task: no unmute
    assert_eq!(scoped(&file(&[&other]), &file(&[&everywhere])), []);
    let class_mute = "- class: org.elasticsearch.SomeTest\n  tasks: [':server:test']\n".to_string();
    assert_eq!(scoped(&file(&[&server]), &file(&[&class_mute])), []);
    assert_eq!(scoped(&file(&[&server]), &file(&[&server])), []);
}

/// A Test task of `set` in `project` (`:p`), enabled.
fn task(project: &str, set: &str, name: &str) -> crate::layout::TestTask {
    let mut t =
        crate::select::testing::project(project, "p", &[(set, Some(true))]).test_tasks[0].clone();
    t.path = format!("{project}:{name}");
    t.name = name.into();
    t
}

/// An unmuted test runs in the tasks it was unmuted in: named tasks are the
/// candidates its tasks are chosen from (a BWC version beyond the cap too);
/// still muted in every task that runs it, it is no unmute; unmuted only in
/// tasks that do not run it, it cannot be checked.
#[test]
fn an_unmuted_test_is_checked_in_the_tasks_it_was_unmuted_in() {
    let mut p = crate::select::testing::project(":p", "p", &[("javaRestTest", None)]);
    p.test_tasks = ["v9.0.0#bwcTest", "v8.19.0#bwcTest", "v8.18.0#bwcTest"]
        .iter()
        .map(|n| task(":p", "javaRestTest", n))
        .collect();
    let mut layout = es_layout();
    layout.projects.push(p);
    let files = MemFiles::with(&[(
        "p/src/javaRestTest/java/org/acme/UpgradeIT.java",
        "package org.acme;\npublic class UpgradeIT { @org.junit.Test public void testA() {} }",
    )]);
    let c = Classifier::from_layout(&layout, &files);
    let test = TestRef::method("org.acme.UpgradeIT", "testA");
    let only = |tasks: &[&str]| TaskScope::Only(tasks.iter().map(|t| t.to_string()).collect());
    let all_but = |tasks: &[&str]| TaskScope::AllBut(tasks.iter().map(|t| t.to_string()).collect());
    let run = |tasks: TaskScope| {
        let issue = Some("https://github.com/elastic/elasticsearch/issues/7".to_string());
        select(
            &[Unmute {
                test: test.clone(),
                tasks,
                issue,
            }],
            &c,
        )
    };
    let s = run(only(&[":p:v8.18.0#bwcTest"]));
    assert_eq!(s.tests.len(), 1, "{s:?}");
    assert_eq!(s.tests[0].task, ":p:v8.18.0#bwcTest");
    let mute = s.tests[0].mute.as_ref().unwrap();
    assert_eq!(
        (mute.state, mute.task.as_str(), mute.issue.as_deref()),
        (
            MuteState::Unmuted,
            ":p:v8.18.0#bwcTest",
            Some("https://github.com/elastic/elasticsearch/issues/7")
        )
    );
    // every version but the newest: the newest two of the rest (cap 2)
    let s = run(all_but(&[":p:v9.0.0#bwcTest"]));
    let tasks: Vec<&str> = s.tests.iter().map(|t| t.task.as_str()).collect();
    assert_eq!(tasks, [":p:v8.19.0#bwcTest"], "the cap chose 9.0 and 8.19");
    let s = run(all_but(&[":p:v9.0.0#bwcTest", ":p:v8.19.0#bwcTest"]));
    assert!(s.tests.is_empty() && s.unresolved.is_empty(), "{s:?}");
    assert!(
        s.notes[0].contains("still muted in every task that runs it"),
        "{:?}",
        s.notes
    );
    let s = run(only(&[":server:test"]));
    assert!(s.tests.is_empty());
    assert_eq!(s.unresolved[0].reason_code, ReasonCode::NoRunnableTask);
    assert!(
        s.unresolved[0]
            .reason
            .starts_with("unmuted only in `:server:test`, which does not run"),
        "{}",
        s.unresolved[0].reason
    );
}
