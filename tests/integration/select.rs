//! Integration tests: select. Real data from Elasticsearch (muted-tests.yml
//! history, test file paths) through the pure selectors, and a real git repo
//! built from the fixture through `gather` and the CLI.

use crate::common::{
    assert_layout_from_cache, fixture_copy, git, gradle_flaky, repo_root, run, text,
    use_recorded_layout,
};
use gradle_flaky::cli::{GlobalArgs, SelectionArgs};
use gradle_flaky::domain::Origin;
use gradle_flaky::select::classify::{Classifier, Files, Skip};
use gradle_flaky::select::mutes::{self, MutedEntry, TaskScope};
use gradle_flaky::select::unmutes;
use gradle_flaky::select::{Selection, TestRef};
use std::collections::{BTreeMap, HashSet};
use std::fmt::Write;
use std::path::{Path, PathBuf};

fn es_data(name: &str) -> PathBuf {
    repo_root().join("tests/data/es").join(name)
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// index.txt: the snapshots in order with their entry counts, and the
/// reference's (removed, added) figures per consecutive pair.
struct Index {
    files: Vec<(String, usize)>,
    pairs: Vec<(usize, usize)>,
}

fn index() -> Index {
    let text = read(&es_data("muted-tests/index.txt"));
    let mut index = Index {
        files: vec![],
        pairs: vec![],
    };
    for line in text.lines() {
        let fields: Vec<&str> = line.split_whitespace().collect();
        if !line.starts_with('#') && fields.len() == 6 {
            index
                .files
                .push((fields[5].to_string(), fields[3].parse().unwrap()));
        }
        if let Some(rest) = line.split("removed(unmuted)=").nth(1) {
            let (removed, added) = rest.split_once("added=").unwrap();
            index.pairs.push((
                removed.trim().parse().unwrap(),
                added.trim().parse().unwrap(),
            ));
        }
    }
    assert_eq!(index.files.len(), 7, "index.txt lists the seven snapshots");
    assert_eq!(index.pairs.len(), index.files.len() - 1);
    index
}

/// The reference tool's diff: keys `class|method`, every `before` ref whose
/// key is missing `after`, duplicates included.
fn reference_diff(before: &[MutedEntry], after: &[MutedEntry]) -> Vec<TestRef> {
    let key = |r: &TestRef| format!("{}|{}", r.class, r.method.as_deref().unwrap_or(""));
    let after: HashSet<String> = after
        .iter()
        .flat_map(MutedEntry::refs)
        .map(|r| key(&r))
        .collect();
    before
        .iter()
        .flat_map(MutedEntry::refs)
        .filter(|r| !after.contains(&key(r)))
        .collect()
}

#[test]
fn unmutes_over_the_real_muted_tests_history() {
    let index = index();
    let parsed: Vec<Vec<MutedEntry>> = index
        .files
        .iter()
        .map(|(file, entries)| {
            let parsed =
                unmutes::parse(&read(&es_data(&format!("muted-tests/{file}"))), file).unwrap();
            assert_eq!(
                parsed.len(),
                *entries,
                "{file}: entries as index.txt counts them"
            );
            parsed
        })
        .collect();
    let mut table = String::from(
        "pair | index.txt removed | reference removed | ours | still muted by | duplicates\n",
    );
    for (i, pair) in parsed.windows(2).enumerate() {
        let (before, after) = (&pair[0], &pair[1]);
        let reference = reference_diff(before, after);
        let added = reference_diff(after, before).len();
        assert_eq!(
            (reference.len(), added),
            index.pairs[i],
            "pair {i}: the reference's figures"
        );
        let ours = unmutes::unmuted(before, after);
        // No version of the real file scopes a mute to tasks yet.
        assert!(ours.iter().all(|u| u.tasks == TaskScope::Every), "pair {i}");
        // Every difference is explained: a removed entry still muted by a
        // class or wildcard mute of the new file, or a duplicate.
        let still: Vec<TestRef> = after.iter().flat_map(MutedEntry::refs).collect();
        let covered: Vec<&TestRef> = reference
            .iter()
            .filter(|r| still.iter().any(|s| mutes::covers(s, r)))
            .collect();
        let unique: HashSet<&TestRef> = reference.iter().collect();
        let duplicates = reference.len() - unique.len();
        let covered_unique: HashSet<&&TestRef> = covered.iter().collect();
        assert_eq!(ours.len(), unique.len() - covered_unique.len(), "pair {i}");
        let by: Vec<String> = covered
            .iter()
            .map(|r| {
                let s = still.iter().find(|s| mutes::covers(s, r)).unwrap();
                format!("{r} <- {s}")
            })
            .collect();
        let name = |f: &str| f.trim_start_matches("muted-tests.")[..8].to_string();
        writeln!(
            table,
            "{} -> {} | {} | {} | {} | [{}] | {}",
            name(&index.files[i].0),
            name(&index.files[i + 1].0),
            index.pairs[i].0,
            reference.len(),
            ours.len(),
            by.join("; "),
            duplicates
        )
        .unwrap();
    }
    insta::assert_snapshot!(table);
}

/// Paths only: nothing to read, and walks list the data set.
struct PathList(Vec<PathBuf>);

impl Files for PathList {
    fn is_file(&self, path: &Path) -> bool {
        self.0.iter().any(|p| p == path)
    }
    fn is_dir(&self, path: &Path) -> bool {
        self.0.iter().any(|p| p != path && p.starts_with(path))
    }
    fn read(&self, _: &Path) -> Option<String> {
        None
    }
    fn walk(&self, dir: &Path) -> Vec<PathBuf> {
        self.0
            .iter()
            .filter(|p| p.starts_with(dir))
            .cloned()
            .collect()
    }
}

#[test]
fn every_real_es_test_path_is_classified_by_the_path_rules() {
    let paths: Vec<PathBuf> = read(&es_data("test-paths.txt"))
        .lines()
        .map(PathBuf::from)
        .collect();
    assert_eq!(paths.len(), 2317);
    let files = PathList(paths.clone());
    let classifier = Classifier::path_rules(&files);
    let mut kinds: BTreeMap<String, usize> = BTreeMap::new();
    let mut unresolved: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut abstract_named = 0;
    for path in &paths {
        let outcomes = classifier.classify_path(path, Origin::Changed).outcomes;
        let why = match outcomes.into_iter().next() {
            None => "in no `<project>/src/<source set>/<language>/` folder".to_string(),
            Some(Ok(test)) => {
                *kinds.entry(test.kind.to_string()).or_default() += 1;
                let simple = test.class.as_deref().and_then(|c| c.rsplit('.').next());
                abstract_named += usize::from(simple.is_some_and(|s| s.starts_with("Abstract")));
                continue;
            }
            Some(Err(Skip::NotATest(why))) => format!("not a test: {why}"),
            Some(Err(Skip::Unresolved(why))) => format!("unresolved: {why}"),
        };
        // group by reason, with the varying class name taken out
        let why = why
            .split('`')
            .enumerate()
            .map(|(i, s)| {
                if i == 1 && why.starts_with("not a test: `") {
                    "<Name>"
                } else {
                    s
                }
            })
            .collect::<Vec<_>>()
            .join("`");
        unresolved
            .entry(why)
            .or_default()
            .push(path.display().to_string());
    }
    let resolved: usize = kinds.values().sum();
    let mut report = format!(
        "{resolved} of {} paths select a test\n\nper kind:\n",
        paths.len()
    );
    for (kind, n) in &kinds {
        writeln!(report, "  {kind}: {n}").unwrap();
    }
    writeln!(
        report,
        "\nselected but named Abstract* ({abstract_named}): the abstract check reads the source, which this data set lacks"
    )
    .unwrap();
    for (why, paths) in &unresolved {
        writeln!(report, "\n{} {why}:", paths.len()).unwrap();
        for p in paths {
            writeln!(report, "  {p}").unwrap();
        }
    }
    assert_eq!(
        resolved + unresolved.values().map(Vec::len).sum::<usize>(),
        paths.len()
    );
    insta::assert_snapshot!(report);
}

fn global(dir: &Path) -> GlobalArgs {
    GlobalArgs {
        project_dir: dir.to_path_buf(),
        gradle: None,
        verbose: false,
        isolate: false,
        layout_timeout: gradle_flaky::layout::DEFAULT_LAYOUT_TIMEOUT,
    }
}

/// Selection as the commands gather it: the build from the global options, the
/// selection options made plain.
fn gather(global: &GlobalArgs, args: &SelectionArgs) -> gradle_flaky::Result<Selection> {
    use gradle_flaky::commands::{options, selection};
    let build = options::build(global, false)?;
    selection::gather(build, &options::selection(args)).map(|(_, s)| s)
}

fn selection_args(
    tests: &[&str],
    changed: bool,
    unmuted: bool,
    base: Option<&str>,
) -> SelectionArgs {
    SelectionArgs {
        tests: tests.iter().map(|t| t.to_string()).collect(),
        changed,
        unmuted,
        base: base.map(str::to_string),
        muted_file: "muted-tests.yml".into(),
        refresh_layout: false,
        ..SelectionArgs::default()
    }
}

fn write(dir: &Path, path: &str, text: &str) {
    let path = dir.join(path);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn append(dir: &Path, path: &str, text: &str) {
    let old = read(&dir.join(path));
    write(dir, path, &format!("{old}{text}"));
}

/// The fixture as a git repo: everything committed on `main`, then `feature`
/// checked out.
fn fixture_repo() -> tempfile::TempDir {
    let dir = fixture_copy();
    let d = dir.path();
    git(d, &["init", "-q", "-b", "main"]);
    git(d, &["add", "-A"]);
    git(d, &["commit", "-qm", "base"]);
    git(d, &["checkout", "-qb", "feature"]);
    dir
}

const MUTED_SEARCH_FLAKY: &str = "- class: org.elasticsearch.search.SearchFlakyIT\n  \
    method: testFlakySearch\n  issue: https://github.com/elastic/elasticsearch/issues/900005\n";

/// A PR branch: edits a unit test class, adds a YAML suite, unmutes one
/// entry and edits a non-test file.
fn pr_branch() -> tempfile::TempDir {
    let dir = fixture_repo();
    let d = dir.path();
    append(
        d,
        "server/src/test/java/org/elasticsearch/common/StringsTests.java",
        "// touched\n",
    );
    write(
        d,
        "modules/lang-painless/src/yamlRestTest/resources/rest-api-spec/test/painless/40_new.yml",
        "\"New section\":\n  - do:\n      ping: {}\n",
    );
    let muted = read(&d.join("muted-tests.yml"));
    assert!(
        muted.contains(MUTED_SEARCH_FLAKY),
        "the fixture mutes SearchFlakyIT"
    );
    write(d, "muted-tests.yml", &muted.replace(MUTED_SEARCH_FLAKY, ""));
    append(
        d,
        "server/src/main/java/org/elasticsearch/common/Strings.java",
        "// touched\n",
    );
    git(d, &["add", "-A"]);
    git(d, &["commit", "-qm", "feature"]);
    dir
}

/// The three tests the PR branch selects, as plan JSON lists them.
fn pr_branch_tests() -> serde_json::Value {
    serde_json::json!([
        {
            "project": ":modules:lang-painless",
            "sourceSet": "yamlRestTest",
            "task": ":modules:lang-painless:yamlRestTest",
            "kind": "yamlRestTestSuite",
            "class": null,
            "yamlSuite": "painless/40_new",
            "origin": "changed"
        },
        {
            "project": ":server",
            "sourceSet": "test",
            "task": ":server:test",
            "kind": "unit",
            "class": "org.elasticsearch.common.StringsTests",
            "origin": "changed"
        },
        {
            "project": ":server",
            "sourceSet": "internalClusterTest",
            "task": ":server:internalClusterTest",
            "kind": "internalClusterTest",
            "class": "org.elasticsearch.search.SearchFlakyIT",
            "method": "testFlakySearch",
            "origin": "unmuted",
            "mute": {
                "state": "unmuted",
                "task": ":server:internalClusterTest",
                "issue": "https://github.com/elastic/elasticsearch/issues/900005"
            }
        }
    ])
}

#[test]
fn a_pr_branch_selects_its_changed_tests_and_unmutes() {
    let dir = pr_branch();
    use_recorded_layout(dir.path(), "es-mini", &["gradle"]);
    let args = selection_args(&[], true, true, Some("main"));
    let selection = gather(&global(dir.path()), &args).unwrap();
    assert_eq!(
        serde_json::to_value(&selection.tests).unwrap(),
        pr_branch_tests(),
        "{selection:#?}"
    );
    assert_eq!(selection.unresolved, []);
    assert!(
        selection.notes.iter().all(|n| !n.contains("path rules")),
        "classified through the layout: {selection:#?}"
    );
}

/// Needs `plan` (the plan issue): the same selection through the CLI.
#[test]
fn plan_json_lists_exactly_the_pr_branch_tests() {
    let dir = pr_branch();
    use_recorded_layout(dir.path(), "es-mini", &["gradle"]);
    let out = run(gradle_flaky()
        .args([
            "plan",
            "--changed",
            "--unmuted",
            "--base",
            "main",
            "--format",
            "json",
        ])
        .current_dir(dir.path()));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert_layout_from_cache(&out);
    let plan: serde_json::Value = serde_json::from_slice(&out.stdout).expect("plan JSON");
    assert_eq!(plan["tests"], pr_branch_tests(), "{}", text(&out));
}

/// The muted-tests file's entries of three tests scoped to tasks (`tasks:`,
/// written as Elasticsearch's `MutedTestsBuildService` tests write them) at
/// the merge base, and on the branch: the scope of one entry of
/// SearchFlakyIT removed (another, scoped to another task, stays),
/// ExceptionFlakyTests no longer muted in `:server:test`, AssertionFlakyTests
/// narrowed to `:server:test`, the one task that runs it.
fn scoped_mutes_branch() -> tempfile::TempDir {
    let dir = fixture_copy();
    let d = dir.path();
    let issue = |n: u32| format!("  issue: https://github.com/elastic/elasticsearch/issues/{n}\n");
    let entry = |class: &str, methods: &str, n: u32, tasks: &[&str]| {
        let tasks: String = tasks.iter().map(|t| format!("  - {t}\n")).collect();
        let tasks = match tasks.is_empty() {
            true => String::new(),
            false => format!("  tasks:\n{tasks}"),
        };
        format!("- class: {class}\n{methods}{}{tasks}", issue(n))
    };
    let search = |n, tasks: &[&str]| {
        let method = "  method: testFlakySearch\n";
        entry("org.elasticsearch.search.SearchFlakyIT", method, n, tasks)
    };
    let exception = |tasks: &[&str]| {
        let methods = "  methods:\n  - testFlakyException\n  - testStable\n";
        entry(
            "org.elasticsearch.flaky.ExceptionFlakyTests",
            methods,
            900003,
            tasks,
        )
    };
    let assertion = |tasks: &[&str]| {
        let method = "  method: testFlakyAssertion\n";
        entry(
            "org.elasticsearch.flaky.AssertionFlakyTests",
            method,
            900002,
            tasks,
        )
    };
    let both = [":server:test", ":server:internalClusterTest"];
    let main = [
        search(900005, &[":server:internalClusterTest"]),
        search(900006, &[":server:test"]),
        exception(&both),
        assertion(&[]),
    ];
    write(d, "muted-tests.yml", &format!("tests:\n{}", main.concat()));
    git(d, &["init", "-q", "-b", "main"]);
    git(d, &["add", "-A"]);
    git(d, &["commit", "-qm", "base"]);
    git(d, &["checkout", "-qb", "feature"]);
    let feature = [
        search(900006, &[":server:test"]),
        exception(&[":server:internalClusterTest"]),
        assertion(&[":server:test"]),
    ];
    write(
        d,
        "muted-tests.yml",
        &format!("tests:\n{}", feature.concat()),
    );
    git(d, &["commit", "-qam", "feature"]);
    dir
}

/// Task-scoped mutes: a test is unmuted in the tasks its mute left, checked
/// there, and the plan JSON says which; a mute scoped to another task does
/// not keep it muted; one narrowed to the only task that runs it is no
/// unmute, and a note says so.
#[test]
fn a_task_scoped_unmute_is_checked_in_its_task_and_the_plan_says_which() {
    let dir = scoped_mutes_branch();
    use_recorded_layout(dir.path(), "es-mini", &["gradle"]);
    let out = run(gradle_flaky()
        .args(["plan", "--unmuted", "--base", "main", "--format", "json"])
        .current_dir(dir.path()));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let plan: serde_json::Value = serde_json::from_slice(&out.stdout).expect("plan JSON");
    let unmuted = |task: &str, n: u32| {
        serde_json::json!({
            "state": "unmuted",
            "task": task,
            "issue": format!("https://github.com/elastic/elasticsearch/issues/{n}")
        })
    };
    let got: Vec<(String, String, serde_json::Value)> = plan["tests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            let name = format!(
                "{}#{}",
                t["class"].as_str().unwrap(),
                t["method"].as_str().unwrap()
            );
            (
                name,
                t["task"].as_str().unwrap().to_string(),
                t["mute"].clone(),
            )
        })
        .collect();
    let test = |name: &str, task: &str, n| (name.to_string(), task.to_string(), unmuted(task, n));
    assert_eq!(
        got,
        [
            test(
                "org.elasticsearch.search.SearchFlakyIT#testFlakySearch",
                ":server:internalClusterTest",
                900005
            ),
            test(
                "org.elasticsearch.flaky.ExceptionFlakyTests#testFlakyException",
                ":server:test",
                900003
            ),
            test(
                "org.elasticsearch.flaky.ExceptionFlakyTests#testStable",
                ":server:test",
                900003
            ),
        ],
        "{}",
        text(&out)
    );
    assert_eq!(plan["unresolved"], serde_json::json!([]));
    let notes = plan["notes"].to_string();
    assert!(
        notes.contains(
            "`org.elasticsearch.flaky.AssertionFlakyTests#testFlakyAssertion` is unmuted in every \
             task but `:server:test` only, and still muted in every task that runs it here"
        ),
        "{notes}"
    );
}

/// What only Gradle knows: a custom source set whose task is named otherwise,
/// Groovy tests, a BWC source set run by its versioned tasks, a renamed
/// project; and hostile names that stay data.
#[test]
fn explicit_specs_resolve_through_the_real_layout() {
    let dir = fixture_repo();
    let d = dir.path();
    // (no control character: a name holding one is refused, `unsupported-characters`)
    let suite = "modules/lang-painless/src/yamlRestTest/resources/rest-api-spec/test/painless/$(touch pwned) `touch pwned` \"q\" 'x' new é.yml";
    write(d, suite, "\"S\":\n  - do:\n      ping: {}\n");
    git(d, &["add", "-A"]);
    git(d, &["commit", "-qm", "hostile"]);
    use_recorded_layout(d, "es-mini", &["gradle"]);
    let args = selection_args(
        &[
            suite,
            "org.elasticsearch.flaky.AssertionFlakyTests#testFlakyAssertion,org.elasticsearch.painless.LangPainlessClientYamlTestSuiteIT.test {yaml=painless/20_scriptfield/from, to, include_lower, include_upper deprecated}",
            "org.elasticsearch.xpack.ml.slow.SuiteTimeoutTests.testQuick\norg.elasticsearch.test.GroovyStableTests",
            "org.elasticsearch.upgrades.IndexingIT TracesApmIT",
            "org.elasticsearch.painless.AbstractPainlessTests org.elasticsearch.$(touch${IFS}pwned)`id`é.NoTests",
        ],
        true,
        false,
        Some("main"),
    );
    let s = gather(&global(d), &args).unwrap();
    assert!(s.notes.iter().all(|n| !n.contains("path rules")), "{s:#?}");
    // (project, source set, task, kind, class, method) of each explicit spec
    let explicit = [
        (":server", "test", ":server:test", "unit", "org.elasticsearch.flaky.AssertionFlakyTests", Some("testFlakyAssertion")),
        (
            ":modules:lang-painless",
            "yamlRestTest",
            ":modules:lang-painless:yamlRestTest",
            "yamlRestTestCase",
            "org.elasticsearch.painless.LangPainlessClientYamlTestSuiteIT",
            Some("test {yaml=painless/20_scriptfield/from, to, include_lower, include_upper deprecated}"),
        ),
        (":x-pack:plugin:ml", "slowTest", ":x-pack:plugin:ml:slowTests", "slowTest", "org.elasticsearch.xpack.ml.slow.SuiteTimeoutTests", Some("testQuick")),
        (":test:framework", "test", ":test:framework:test", "unit", "org.elasticsearch.test.GroovyStableTests", None),
        // the BWC source set: its two newest versions, by number
        (":qa:rolling-upgrade", "javaRestTest", ":qa:rolling-upgrade:v9.0.0#bwcTest", "javaRestTest", "org.elasticsearch.upgrades.IndexingIT", None),
        (":qa:rolling-upgrade", "javaRestTest", ":qa:rolling-upgrade:v8.19.10#bwcTest", "javaRestTest", "org.elasticsearch.upgrades.IndexingIT", None),
        (
            ":test:external-modules:test-apm-integration",
            "javaRestTest",
            ":test:external-modules:test-apm-integration:javaRestTest",
            "javaRestTest",
            "org.elasticsearch.test.apmintegration.TracesApmIT",
            None,
        ),
        // the abstract class, through its concrete subclass
        (":modules:lang-painless", "test", ":modules:lang-painless:test", "unit", "org.elasticsearch.painless.BasicExpressionTests", None),
    ];
    let mut expected = vec![serde_json::json!({
        "project": ":modules:lang-painless", "sourceSet": "yamlRestTest",
        "task": ":modules:lang-painless:yamlRestTest", "kind": "yamlRestTestSuite", "class": null,
        "yamlSuite": "painless/$(touch pwned) `touch pwned` \"q\" 'x' new é", "origin": "changed"
    })];
    for (project, source_set, task, kind, class, method) in explicit {
        let mut t = serde_json::json!({
            "project": project, "sourceSet": source_set, "task": task, "kind": kind,
            "class": class, "origin": "explicit"
        });
        if let Some(method) = method {
            t["method"] = method.into();
        }
        expected.push(t);
    }
    // muted-tests.yml mutes the named testFlakyAssertion: it runs with the
    // build's mutes off, its note says so
    expected[1]["mute"] = serde_json::json!({
        "state": "muted", "task": ":server:test",
        "issue": "https://github.com/elastic/elasticsearch/issues/900002"
    });
    assert_eq!(
        serde_json::to_value(&s.tests).unwrap(),
        serde_json::Value::from(expected),
        "{s:#?}"
    );
    let unresolved: Vec<_> = s.unresolved.iter().map(|u| u.input.as_str()).collect();
    assert_eq!(
        unresolved,
        ["org.elasticsearch.$(touch${IFS}pwned)`id`é.NoTests"]
    );
    let bases: Vec<_> = s.expansions.iter().map(|e| e.base.as_str()).collect();
    assert_eq!(bases, ["org.elasticsearch.painless.AbstractPainlessTests"]);
    assert!(!d.join("pwned").exists() && !repo_root().join("pwned").exists());
}

#[test]
fn a_broken_muted_tests_file_is_an_input_error_naming_the_line() {
    let dir = fixture_repo();
    let d = dir.path();
    append(d, "muted-tests.yml", "- class: Foo\n  method: [unclosed\n");
    use_recorded_layout(d, "es-mini", &["gradle"]);
    let args = selection_args(&[], false, true, Some("main"));
    let err = gather(&global(d), &args).unwrap_err();
    assert_eq!(err.exit().code(), 2);
    let line = read(&d.join("muted-tests.yml")).lines().count() + 1;
    assert!(
        err.to_string()
            .starts_with(&format!("muted-tests.yml:{line}: ")),
        "{err}"
    );
}

#[test]
fn without_a_merge_base_selection_fails_and_says_how_to_fetch() {
    let dir = fixture_repo();
    let d = dir.path();
    append(
        d,
        "server/src/test/java/org/elasticsearch/common/StringsTests.java",
        "// touched\n",
    );
    git(d, &["commit", "-qam", "feature"]);
    git(d, &["checkout", "-q", "main"]);
    append(d, "README.md", "main moves on\n");
    git(d, &["commit", "-qam", "main 2"]);
    let clone = tempfile::tempdir().unwrap();
    let c = clone.path();
    git(
        c,
        &[
            "clone",
            "-q",
            "--depth",
            "1",
            "--no-single-branch",
            &format!("file://{}", d.display()),
            ".",
        ],
    );
    git(c, &["checkout", "-q", "feature"]);
    let args = selection_args(&[], true, false, Some("origin/main"));
    let err = gather(&global(c), &args).unwrap_err();
    assert_eq!(err.exit().code(), 2, "{err}");
    assert!(err.to_string().contains("this is a shallow clone"), "{err}");
    assert!(err.to_string().contains("git fetch --unshallow"), "{err}");
    let args = selection_args(&[], true, false, Some("no-such-branch"));
    let err = gather(&global(c), &args).unwrap_err();
    assert_eq!(err.to_string(), "--base: no commit `no-such-branch` in this repository; fetch the base branch (e.g. `git fetch origin main`) or pass --base REF");
}

#[test]
fn without_gradle_the_path_rules_classify_and_a_note_says_so() {
    let dir = fixture_copy();
    let mut global = global(dir.path());
    global.gradle = Some("/no/such/gradle".into());
    let args = selection_args(
        &["org.elasticsearch.flaky.ExceptionFlakyTests#testFlakyException"],
        false,
        false,
        None,
    );
    let s = gather(&global, &args).unwrap();
    let t = &s.tests[0];
    assert_eq!(
        (t.task.as_str(), t.method.as_deref()),
        (":server:test", Some("testFlakyException"))
    );
    assert!(
        s.notes.iter().any(|n| n.contains("reference path rules")),
        "{s:#?}"
    );
}
