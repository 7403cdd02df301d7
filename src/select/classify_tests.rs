use super::*;
use crate::domain::TestKind;
use crate::select::testing::{es_layout, MemFiles};

fn only(outcomes: Vec<Classification>) -> Classification {
    assert_eq!(outcomes.len(), 1, "{outcomes:?}");
    outcomes.into_iter().next().unwrap()
}

fn classify(c: &Classifier, path: &str) -> Classification {
    only(c.classify_path(Path::new(path), Origin::Changed).outcomes)
}

#[test]
fn files_classify_through_the_layout_by_source_set() {
    let files = MemFiles::default();
    let layout = es_layout();
    let c = Classifier::from_layout(&layout, &files);
    let t = classify(
        &c,
        "server/src/test/java/org/elasticsearch/index/IndexTests.java",
    )
    .unwrap();
    assert_eq!(
        (t.project.as_str(), t.task.as_str(), &t.kind),
        (":server", ":server:test", &TestKind::Unit)
    );
    assert_eq!(
        t.class.as_deref(),
        Some("org.elasticsearch.index.IndexTests")
    );
    let t = classify(
        &c,
        "server/src/internalClusterTest/java/org/elasticsearch/cluster/ClusterIT.java",
    )
    .unwrap();
    assert_eq!(t.kind, TestKind::InternalClusterTest);
    assert_eq!(t.task, ":server:internalClusterTest");
    // the renamed project: path from the layout, not from the directory
    let t = classify(
        &c,
        "test/external-modules/apm-integration/src/javaRestTest/java/org/elasticsearch/test/apm/ApmAgentTracesIT.java",
    )
    .unwrap();
    assert_eq!(t.project, ":test:external-modules:test-apm-integration");
    assert_eq!(
        t.task,
        ":test:external-modules:test-apm-integration:javaRestTest"
    );
    let t = classify(
        &c,
        "x-pack/plugin/ml/src/yamlRestTest/resources/rest-api-spec/test/ml/anomaly_detectors_get.yml",
    )
    .unwrap();
    assert_eq!(t.kind, TestKind::YamlRestTestSuite);
    assert_eq!(t.yaml_suite.as_deref(), Some("ml/anomaly_detectors_get"));
    assert_eq!(t.class, None);
    let t = classify(
        &c,
        "x-pack/plugin/ml/src/yamlRestTest/java/org/elasticsearch/xpack/ml/MlYamlIT.java",
    )
    .unwrap();
    assert_eq!(t.kind, TestKind::YamlRestTestRunner);
    assert_eq!(
        t.class.as_deref(),
        Some("org.elasticsearch.xpack.ml.MlYamlIT")
    );
    // a Groovy test in a custom source set
    let t = classify(
        &c,
        "build-tools/src/integTest/groovy/org/elasticsearch/gradle/ReaperPluginFuncTest.groovy",
    )
    .unwrap();
    assert_eq!(t.kind, TestKind::Other("integTest".into()));
    assert_eq!(t.task, ":build-tools:integTest");
    // a `.yaml` suite counts too, not only `.yml`
    let t = classify(
        &c,
        "x-pack/plugin/ml/src/yamlRestTest/resources/rest-api-spec/test/ml/b c.yaml",
    )
    .unwrap();
    assert_eq!(t.yaml_suite.as_deref(), Some("ml/b c"));
}

#[test]
fn non_tests_and_unrunnable_tests_are_told_apart() {
    let files = MemFiles::with(&[(
        "server/src/test/java/org/elasticsearch/AbstractFooTests.java",
        "public abstract class AbstractFooTests extends ESTestCase {}",
    )]);
    let layout = es_layout();
    let c = Classifier::from_layout(&layout, &files);
    let not_test = |p: &str| matches!(classify(&c, p), Err(Skip::NotATest(_)));
    assert!(not_test(
        "server/src/main/java/org/elasticsearch/Index.java"
    ));
    assert!(not_test(
        "server/src/test/java/org/elasticsearch/TestUtils.java"
    ));
    assert!(not_test(
        "server/src/test/java/org/elasticsearch/IndexTestCase.java"
    ));
    assert!(not_test(
        "x-pack/plugin/ml/src/yamlRestTest/resources/other/x.yml"
    ));
    assert!(not_test(
        "server/src/test/resources/org/elasticsearch/data.json"
    ));
    assert!(c
        .classify_path(Path::new("docs/README.asciidoc"), Origin::Changed)
        .outcomes
        .is_empty());
    assert!(c
        .classify_path(Path::new("build.gradle"), Origin::Changed)
        .outcomes
        .is_empty());
    assert_eq!(
        classify(
            &c,
            "server/src/test/java/org/elasticsearch/AbstractFooTests.java"
        ),
        Err(Skip::Unresolved(Reason::new(
            ReasonCode::AbstractNoConcreteSubclass,
            "`org.elasticsearch.AbstractFooTests` is abstract and no concrete test class of \
             the build extends it (found 0 concrete subclass(es), none a test Gradle would run)"
        )))
    );
    let Err(Skip::Unresolved(reason)) = classify(
        &c,
        "qa/rolling-upgrade/src/javaRestTest/java/org/elasticsearch/upgrades/UpgradeIT.java",
    ) else {
        panic!("a BWC test is not applicable")
    };
    assert_eq!(reason.code, ReasonCode::NoRunnableTask);
    assert_eq!(
        reason.text,
        "not applicable: no enabled Test task runs `:qa:rolling-upgrade` source set `javaRestTest` \
         (`:qa:rolling-upgrade:javaRestTest` disabled)"
    );
}

#[test]
fn classes_are_found_in_every_project_that_has_them() {
    let files = MemFiles::with(&[
        (
            "server/src/test/java/org/elasticsearch/index/IndexTests.java",
            "class IndexTests {}",
        ),
        (
            "src/test/java/org/elasticsearch/index/IndexTests.java",
            "class IndexTests {}",
        ),
        (
            "qa/copy/src/test/java/org/elasticsearch/index/IndexTests.java",
            "class IndexTests {}",
        ),
        (
            "server/src/main/java/org/elasticsearch/index/IndexTests.java",
            "",
        ),
    ]);
    let layout = es_layout();
    let c = Classifier::from_layout(&layout, &files);
    let found = c
        .locate(
            &TestRef::method("org.elasticsearch.index.IndexTests", "testFoo"),
            Origin::Unmuted,
        )
        .outcomes;
    let tests: Vec<_> = found.into_iter().filter_map(Result::ok).collect();
    let tasks: Vec<_> = tests.iter().map(|t| t.task.as_str()).collect();
    assert_eq!(tasks, [":qa:copy:test", ":server:test"]);
    assert!(tests.iter().all(|t| t.method.as_deref() == Some("testFoo")));
}

#[test]
fn nested_partial_and_simple_names_resolve_to_the_outer_file() {
    let files = MemFiles::with(&[(
        "server/src/test/java/org/elasticsearch/index/IndexTests.java",
        "class IndexTests { static class InnerTests {} }",
    )]);
    let layout = es_layout();
    let c = Classifier::from_layout(&layout, &files);
    let class_of = |name: &str| {
        let found = c.locate(&TestRef::class(name), Origin::Explicit).outcomes;
        only(found).unwrap().class.unwrap()
    };
    assert_eq!(
        class_of("org.elasticsearch.index.IndexTests$InnerTests"),
        "org.elasticsearch.index.IndexTests$InnerTests"
    );
    assert_eq!(
        class_of("org.elasticsearch.index.IndexTests.InnerTests"),
        "org.elasticsearch.index.IndexTests$InnerTests"
    );
    assert_eq!(
        class_of("index.IndexTests"),
        "org.elasticsearch.index.IndexTests"
    );
    assert_eq!(class_of("IndexTests"), "org.elasticsearch.index.IndexTests");
    assert!(c
        .locate(
            &TestRef::class("org.elasticsearch.index.Gone"),
            Origin::Explicit
        )
        .outcomes
        .is_empty());
    assert!(c
        .locate(
            &TestRef::class("lasticsearch.index.IndexTests"),
            Origin::Explicit
        )
        .outcomes
        .is_empty());
}

#[test]
fn wildcards_and_non_names_are_unresolved_with_a_reason() {
    let files = MemFiles::default();
    let layout = es_layout();
    let c = Classifier::from_layout(&layout, &files);
    let reason = |name: &str| match only(c.locate(&TestRef::class(name), Origin::Unmuted).outcomes)
    {
        Err(Skip::Unresolved(r)) => r,
        other => panic!("{other:?}"),
    };
    let wildcard = reason("org.elasticsearch.xpack.esql.**");
    assert_eq!(wildcard.code, ReasonCode::Wildcard);
    assert!(wildcard.text.contains("wildcard"));
    for bad in ["org..Foo", "../../etc/passwd"] {
        let r = reason(bad);
        assert_eq!(r.code, ReasonCode::NotAClassName);
        assert!(r.text.contains("not a class name"));
    }
}

#[test]
fn a_method_on_a_yaml_runner_is_a_yaml_case() {
    let files = MemFiles::with(&[(
        "x-pack/plugin/ml/src/yamlRestTest/java/org/elasticsearch/xpack/ml/MlYamlIT.java",
        "",
    )]);
    let layout = es_layout();
    let c = Classifier::from_layout(&layout, &files);
    let case = TestRef::method(
        "org.elasticsearch.xpack.ml.MlYamlIT",
        "test {yaml=ml/a, b/c d}",
    );
    let t = only(c.locate(&case, Origin::Explicit).outcomes).unwrap();
    assert_eq!(t.kind, TestKind::YamlRestTestCase);
    assert_eq!(t.method.as_deref(), Some("test {yaml=ml/a, b/c d}"));
    assert_eq!(
        t.class.as_deref(),
        Some("org.elasticsearch.xpack.ml.MlYamlIT")
    );
}

#[test]
fn the_locator_checklist_holds_with_methods_kept() {
    let files = MemFiles::with(&[
        (
            "modules/transport-netty4/src/javaRestTest/java/org/elasticsearch/rest/RestIT.java",
            "",
        ),
        (
            "x-pack/plugin/ml/src/yamlRestTest/java/org/elasticsearch/xpack/ml/MlYamlIT.java",
            "",
        ),
    ]);
    let layout = es_layout();
    let c = Classifier::from_layout(&layout, &files);
    let locate = |class: &str, method: Option<&str>| {
        let test = TestRef {
            class: class.into(),
            method: method.map(Into::into),
        };
        only(c.locate(&test, Origin::Unmuted).outcomes).unwrap()
    };
    let t = locate("org.elasticsearch.rest.RestIT", Some("testFoo"));
    assert_eq!(
        (t.project.as_str(), &t.kind),
        (":modules:transport-netty4", &TestKind::JavaRestTest)
    );
    let t = locate("org.elasticsearch.xpack.ml.MlYamlIT", None);
    assert_eq!(t.kind, TestKind::YamlRestTestRunner);
    assert_eq!(t.task, ":x-pack:plugin:ml:yamlRestTest");
    let t = locate(
        "org.elasticsearch.xpack.ml.MlYamlIT",
        Some("test {yaml=ml/anomaly_detectors_get/basic}"),
    );
    assert_eq!(t.kind, TestKind::YamlRestTestCase);
    assert_eq!(
        t.method.as_deref(),
        Some("test {yaml=ml/anomaly_detectors_get/basic}")
    );
}

#[test]
fn path_rules_stand_in_for_the_layout() {
    let files = MemFiles::with(&[
        (
            "server/src/test/java/org/elasticsearch/index/IndexTests.java",
            "",
        ),
        ("src/test/java/org/foo/BarTests.java", ""),
        ("p/src/test/java/org/foo/BarTests.java", ""),
    ]);
    let c = Classifier::path_rules(&files);
    let t = classify(
        &c,
        "x-pack/plugin/core/src/test/java/org/elasticsearch/xpack/SomeTests.java",
    )
    .unwrap();
    assert_eq!(
        (t.project.as_str(), t.task.as_str()),
        (":x-pack:plugin:core", ":x-pack:plugin:core:test")
    );
    let t = classify(
        &c,
        "test/external-modules/apm-integration/src/javaRestTest/java/a/ApmIT.java",
    )
    .unwrap();
    assert_eq!(
        t.task,
        ":test:external-modules:test-apm-integration:javaRestTest"
    );
    assert!(c
        .classify_path(
            Path::new("src/test/java/org/foo/BarTests.java"),
            Origin::Changed
        )
        .outcomes
        .is_empty());
    assert!(matches!(
        classify(&c, "build-tools/src/integTest/groovy/org/e/ReaperPluginFuncTest.groovy"),
        Err(Skip::Unresolved(r)) if r.code == ReasonCode::UnknownSourceSet
            && r.text.contains("unknown to the path rules")
    ));
    // a root-level copy listed first must not hide the project's
    let found = c
        .locate(&TestRef::class("org.foo.BarTests"), Origin::Explicit)
        .outcomes;
    assert_eq!(only(found).unwrap().project, ":p");
}

/// Commons Pool's and Commons Lang's shapes: a task including `**/Test*.class`
/// only, JUnit 3 `Test*` classes through abstract bases (one in another
/// project's main code), helpers named like tests, and a package the source
/// set's own patterns leave out of compilation.
fn junit3_build() -> (crate::layout::Layout, MemFiles) {
    use crate::layout::{Layout, SourcePatterns};
    use crate::select::testing::{project, ROOT};
    let mut pool = project(":pool", "pool", &[("main", None), ("test", Some(true))]);
    let task = &mut pool.test_tasks[0];
    task.includes = vec!["**/Test*.class".into()];
    task.excludes = vec!["**/Test*$*.class".into()];
    task.framework = Some("junit".into());
    pool.source_sets[1].source_patterns.insert(
        "java".into(),
        SourcePatterns {
            includes: vec![],
            excludes: vec!["**/enum/*".into()],
        },
    );
    let layout = Layout {
        schema: 3,
        gradle_version: "4.4.1".into(),
        root_dir: ROOT.into(),
        included_builds: vec![],
        projects: vec![
            project(":", "", &[]),
            project(":base", "base", &[("main", None)]),
            pool,
        ],
    };
    let test = "pool/src/test/java/p";
    let files = MemFiles::with(&[
        (
            "base/src/main/java/p/base/TestObjectPool.java",
            "package p.base;\nimport junit.framework.TestCase;\n\
             public abstract class TestObjectPool extends TestCase { public void testClose() {} }",
        ),
        (
            &format!("{test}/TestBaseObjectPool.java"),
            "package p;\nimport p.base.TestObjectPool;\n\
             public class TestBaseObjectPool extends TestObjectPool {}",
        ),
        (
            &format!("{test}/TestKeyedPool.java"),
            "package p;\nimport p.base.TestObjectPool;\n\
             public abstract class TestKeyedPool extends TestObjectPool {}",
        ),
        (
            &format!("{test}/impl/TestStackObjectPool.java"),
            "package p.impl;\nimport p.TestKeyedPool;\n\
             public class TestStackObjectPool extends TestKeyedPool { public void testIdleCap() {} }",
        ),
        (
            &format!("{test}/TestData.java"),
            "package p;\npublic class TestData { static final int N = 1; }",
        ),
        (
            &format!("{test}/TestListener.java"),
            "package p;\npublic interface TestListener { void on(); }",
        ),
        (
            &format!("{test}/Flake.java"),
            "package p;\npublic final class Flake {}",
        ),
        (
            &format!("{test}/enum/TestEnum.java"),
            "package p.enum;\nimport junit.framework.TestCase;\n\
             public class TestEnum extends TestCase { public void testValues() {} }",
        ),
    ]);
    (layout, files)
}

#[test]
fn junit3_test_classes_run_as_gradle_detects_them() {
    let (layout, files) = junit3_build();
    let c = Classifier::from_layout(&layout, &files);
    let class = |path: &str| classify(&c, &format!("pool/src/test/java/p/{path}"));
    for (path, binary) in [
        (
            "impl/TestStackObjectPool.java",
            "p.impl.TestStackObjectPool",
        ),
        ("TestBaseObjectPool.java", "p.TestBaseObjectPool"),
    ] {
        let t = class(path).unwrap_or_else(|e| panic!("{path}: {e:?}"));
        assert_eq!(
            (t.task.as_str(), t.class.as_deref()),
            (":pool:test", Some(binary))
        );
    }
    // An abstract `Test*` base runs through the concrete classes Gradle runs.
    let base = c
        .classify_path(
            Path::new("base/src/main/java/p/base/TestObjectPool.java"),
            Origin::Changed,
        )
        .outcomes;
    let classes: Vec<_> = base
        .iter()
        .map(|o| o.as_ref().unwrap().class.clone().unwrap())
        .collect();
    assert_eq!(
        classes,
        ["p.TestBaseObjectPool", "p.impl.TestStackObjectPool"]
    );
    // Certainly no tests: a class without any in its whole chain, an interface.
    assert_eq!(
        class("TestData.java"),
        Err(Skip::NotATest(test_class::not_a_test_reason(
            "TestData",
            &["java.lang.Object".into()]
        )))
    );
    assert_eq!(
        class("TestListener.java"),
        Err(Skip::NotATest(
            "`TestListener` is an interface: Gradle runs only concrete classes".into()
        ))
    );
    assert!(matches!(class("Flake.java"), Err(Skip::NotATest(_))));
}

#[test]
fn a_file_left_out_of_compilation_is_refused_with_its_own_code() {
    let (layout, files) = junit3_build();
    let c = Classifier::from_layout(&layout, &files);
    let expected = Err(Skip::Unresolved(Reason::new(
        ReasonCode::NotCompiled,
        "`p/enum/TestEnum.java` is left out of the compilation of `:pool` source set `test` by \
         its java source patterns (exclude **/enum/*): Gradle never compiles it, so no task runs it",
    )));
    assert_eq!(
        classify(&c, "pool/src/test/java/p/enum/TestEnum.java"),
        expected
    );
    let named = c.locate(&TestRef::class("p.enum.TestEnum"), Origin::Explicit);
    assert_eq!(only(named.outcomes), expected);
}

/// Project `:legacy`, whose `test` task includes only `**/AllTests.class`.
fn suites_only_layout() -> Layout {
    use crate::select::testing::{project, ROOT};
    let mut p = project(":legacy", "legacy", &[("main", None), ("test", Some(true))]);
    p.test_tasks[0].includes = vec!["**/AllTests.class".into()];
    Layout {
        schema: 1,
        gradle_version: "4.4.1".into(),
        root_dir: ROOT.into(),
        included_builds: vec![],
        projects: vec![p],
    }
}

/// A project whose `test` task includes only its suites: their members are
/// its tests, each with the suites that run it; other classes the patterns
/// leave out are refused as before.
#[test]
fn classes_the_patterns_leave_out_run_through_the_suites_they_include() {
    let layout = suites_only_layout();
    let dir = "legacy/src/test/java/a";
    let files = MemFiles::with(&[
        (
            &format!("{dir}/AllTests.java"),
            "package a;\nimport a.io.AllIo;\n@RunWith(Suite.class) @SuiteClasses({ParserTest.class, AllIo.class})\npublic class AllTests {}",
        ),
        (
            &format!("{dir}/ParserTest.java"),
            "package a; public class ParserTest { @Test public void p() {} }",
        ),
        (
            &format!("{dir}/io/AllIo.java"),
            "package a.io; public class AllIo { public static Test suite() { return new TestSuite(StreamCheck.class); } }",
        ),
        (
            &format!("{dir}/io/StreamCheck.java"),
            "package a.io; public class StreamCheck extends IoBase { public void testRead() {} }",
        ),
        (
            &format!("{dir}/OrphanTest.java"),
            "package a; public class OrphanTest { @Test public void o() {} }",
        ),
        (&format!("{dir}/Helper.java"), "package a; class Helper {}"),
    ]);
    let c = Classifier::from_layout(&layout, &files);
    let member = |path: &str| classify(&c, &format!("{dir}/{path}")).unwrap();
    let t = member("ParserTest.java");
    assert_eq!((t.task.as_str(), t.is_suite), (":legacy:test", false));
    let via = t.via_suite.unwrap();
    assert_eq!(
        (via.suites, via.junit4),
        (vec!["a.AllTests".to_string()], true)
    );
    // neither named nor declared like a test: its suite makes it one
    let t = member("io/StreamCheck.java");
    assert_eq!(t.class.as_deref(), Some("a.io.StreamCheck"));
    assert!(!t.via_suite.unwrap().junit4, "a JUnit 3 suite() on the way");
    assert!(member("io/AllIo.java").is_suite);
    let t = member("AllTests.java");
    assert!(t.is_suite && t.via_suite.is_none(), "{t:?}");
    let Err(Skip::Unresolved(reason)) = classify(&c, &format!("{dir}/OrphanTest.java")) else {
        panic!("in no suite: refused")
    };
    assert_eq!(reason.code, ReasonCode::ExcludedByTaskPatterns);
    assert!(matches!(
        classify(&c, &format!("{dir}/Helper.java")),
        Err(Skip::NotATest(_))
    ));
    // by name, with a method
    let found = only(
        c.locate(
            &TestRef {
                class: "a.ParserTest".into(),
                method: Some("p".into()),
            },
            Origin::Explicit,
        )
        .outcomes,
    )
    .unwrap();
    assert!(found.via_suite.is_some());
}

/// A JUnit 3 class whose `suite()` runs another class but not itself (as
/// Commons Collections' `TestMultiValueMap` does): its members run, its own
/// `test*` methods never do and are said not checked; a suite that runs
/// itself, by class literal or by `new` with a method name, is a plain test.
#[test]
fn a_suite_that_leaves_out_its_own_tests_says_they_are_not_checked() {
    let layout = suites_only_layout();
    let dir = "legacy/src/test/java/a";
    let junit3 = |name: &str, suite: &str| {
        format!(
            "package a;\nimport junit.framework.*;\npublic class {name} extends TestCase {{\n\
             public {name}(String n) {{ super(n); }}\n\
             public static Test suite() {{ {suite} }}\npublic void testOwn() {{}}\n}}\n"
        )
    };
    let files = MemFiles::with(&[
        (
            &format!("{dir}/AllTests.java"),
            "package a;\n@RunWith(Suite.class) @SuiteClasses({MultiCheck.class, SelfCheck.class, \
             NewCheck.class})\npublic class AllTests {}",
        ),
        (
            &format!("{dir}/MultiCheck.java"),
            &junit3("MultiCheck", "return new TestSuite(HashCheck.class);"),
        ),
        (
            &format!("{dir}/SelfCheck.java"),
            &junit3("SelfCheck", "return new TestSuite(SelfCheck.class);"),
        ),
        (
            &format!("{dir}/NewCheck.java"),
            &junit3(
                "NewCheck",
                "TestSuite s = new TestSuite(HashCheck.class); s.addTest(new NewCheck(\"testOwn\")); return s;",
            ),
        ),
        (
            &format!("{dir}/HashCheck.java"),
            "package a; public class HashCheck extends junit.framework.TestCase { public void testHash() {} }",
        ),
    ]);
    let c = Classifier::from_layout(&layout, &files);
    let outcomes = c
        .classify_path(
            Path::new(&format!("{dir}/MultiCheck.java")),
            Origin::Changed,
        )
        .outcomes;
    let [Ok(suite), Err(Skip::Unresolved(reason))] = outcomes.as_slice() else {
        panic!("the suite runs, its own tests are not checked: {outcomes:?}")
    };
    assert!(suite.is_suite && suite.via_suite.is_some(), "{suite:?}");
    assert_eq!(reason.code, ReasonCode::OwnTestsNotInSuite);
    assert!(
        reason.text.contains("`a.MultiCheck`") && reason.text.contains("`a.HashCheck`"),
        "{}",
        reason.text
    );
    // a method of its own runs nowhere: nothing but the reason
    let named = c.locate(
        &TestRef {
            class: "a.MultiCheck".into(),
            method: Some("testOwn".into()),
        },
        Origin::Explicit,
    );
    assert_eq!(only(named.outcomes), Err(Skip::Unresolved(reason.clone())));
    for runs_itself in ["SelfCheck.java", "NewCheck.java"] {
        let outcomes = c
            .classify_path(Path::new(&format!("{dir}/{runs_itself}")), Origin::Changed)
            .outcomes;
        assert!(
            outcomes.len() == 1 && outcomes[0].is_ok(),
            "{runs_itself}: {outcomes:?}"
        );
    }
}

/// A changed concrete test class runs itself and its concrete subclasses
/// (they inherit its changed methods; a change may fail only in one of
/// them), recorded as an expansion of a concrete base; a named or unmuted
/// class means that class alone.
#[test]
fn a_changed_concrete_class_also_runs_its_subclasses() {
    let (layout, mut files) = junit3_build();
    files.0.insert(
        "pool/src/test/java/p/TestSoftPool.java".into(),
        "package p;\npublic class TestSoftPool extends TestBaseObjectPool {}".into(),
    );
    let c = Classifier::from_layout(&layout, &files);
    let classes = |outcomes: Vec<Classification>| -> Vec<String> {
        outcomes
            .into_iter()
            .map(|o| o.unwrap().class.unwrap())
            .collect()
    };
    let changed = c.classify_path(
        Path::new("pool/src/test/java/p/TestBaseObjectPool.java"),
        Origin::Changed,
    );
    let records = changed.decisions;
    assert_eq!(
        classes(changed.outcomes),
        ["p.TestBaseObjectPool", "p.TestSoftPool"]
    );
    assert_eq!(records.expansions.len(), 1);
    let e = &records.expansions[0];
    assert!(e.concrete_base);
    assert_eq!(
        (e.base.as_str(), e.chosen.len()),
        ("p.TestBaseObjectPool", 1)
    );
    // The subclass itself, changed, has none: only itself runs.
    let leaf = c.classify_path(
        Path::new("pool/src/test/java/p/TestSoftPool.java"),
        Origin::Changed,
    );
    assert_eq!(classes(leaf.outcomes), ["p.TestSoftPool"]);
    // Named, the class means itself.
    let named = c.locate(&TestRef::class("p.TestBaseObjectPool"), Origin::Explicit);
    assert!(named.decisions.expansions.is_empty());
    assert_eq!(classes(named.outcomes), ["p.TestBaseObjectPool"]);
}

/// A Test task with `scanForTestClasses = false` runs every class its
/// patterns accept, without detection (Gradle's defaults without includes:
/// `**/*Tests.class`, `**/*Test.class`, less `**/Abstract*.class`): a
/// `*Test` class with no test runs (and is refused no more), a test named
/// otherwise is left out by the patterns.
#[test]
fn a_task_that_does_not_scan_runs_what_its_patterns_name() {
    use crate::select::testing::project;
    let mut p = project(":p", "p", &[("test", Some(true))]);
    p.test_tasks[0].scan_for_test_classes = Some(false);
    let layout = one_project(p);
    let dir = "p/src/test/java/a";
    let files = MemFiles::with(&[
        (
            &format!("{dir}/HelperTest.java"),
            "package a;\npublic class HelperTest {}",
        ),
        (
            &format!("{dir}/Checks.java"),
            "package a;\npublic class Checks { @org.junit.Test public void t() {} }",
        ),
    ]);
    let c = Classifier::from_layout(&layout, &files);
    let helper = classify(&c, &format!("{dir}/HelperTest.java")).expect("run without detection");
    assert_eq!(helper.class.as_deref(), Some("a.HelperTest"));
    assert!(matches!(
        classify(&c, &format!("{dir}/Checks.java")),
        Err(Skip::Unresolved(r)) if r.code == ReasonCode::ExcludedByTaskPatterns
    ));
    // The same build detecting: the helper is no test.
    let mut layout = layout;
    layout.projects[1].test_tasks[0].scan_for_test_classes = None;
    let c = Classifier::from_layout(&layout, &files);
    assert!(matches!(
        classify(&c, &format!("{dir}/HelperTest.java")),
        Err(Skip::NotATest(_))
    ));
}

/// The layout's classpath reaches detection: a Hamcrest matcher in the test
/// source set, named like a test, is no test once the task's classpath
/// (Hamcrest's jar) is known; without it, it is accepted as before.
#[test]
fn the_tasks_classpath_decides_a_library_superclass() {
    use crate::select::testing::project;
    let hamcrest = "/usr/share/java/hamcrest-core.jar";
    let Ok(jar) = std::fs::read(hamcrest) else {
        panic!("scripts/test.sh installs {hamcrest}");
    };
    let mut layout = one_project(project(":p", "p", &[("test", Some(true))]));
    let path = "p/src/test/java/a/SortedMatcherTest.java";
    // The jar is read through the build's files, as every file of selection.
    let files = MemFiles::with(&[(
        path,
        "package a;\nimport org.hamcrest.TypeSafeMatcher;\n\
         final class SortedMatcherTest extends TypeSafeMatcher<String> {}",
    )])
    .with_bytes(hamcrest, &jar);
    assert!(classify(&Classifier::from_layout(&layout, &files), path).is_ok());
    layout.projects[1].test_tasks[0].runtime_classpath = Some(vec![hamcrest.into()]);
    match classify(&Classifier::from_layout(&layout, &files), path) {
        Err(Skip::NotATest(why)) => assert!(why.contains("org.hamcrest.BaseMatcher"), "{why}"),
        other => panic!("{other:?}"),
    }
}

/// A build of the root project and `p`, on Gradle 4.4.1.
fn one_project(p: crate::layout::Project) -> Layout {
    use crate::select::testing::{project, ROOT};
    Layout {
        schema: 4,
        gradle_version: "4.4.1".into(),
        root_dir: ROOT.into(),
        included_builds: vec![],
        projects: vec![project(":", "", &[]), p],
    }
}

/// The JSR-166 TCK's shape: a task that runs `**/*Test.class` only, and
/// `JSR166TestCase extends junit.framework.TestCase` in the default package,
/// concrete, with helpers and no test of its own, the base of the tests.
fn tck_build(extra: &[(&str, &str)]) -> (Layout, MemFiles) {
    use crate::select::testing::project;
    let mut p = project(":tck", "tck", &[("test", Some(true))]);
    p.test_tasks[0].includes = vec!["**/*Test.class".into()];
    p.test_tasks[0].framework = Some("junit".into());
    let dir = "tck/src/test/java";
    let mut sources = vec![
        (
            format!("{dir}/JSR166TestCase.java"),
            "import junit.framework.TestCase;\n\
             public class JSR166TestCase extends TestCase {\n\
               public static final long SHORT_DELAY_MS = 50;\n\
               public void threadAssertTrue(boolean b) { assertTrue(b); }\n\
               static class NoOpRunnable implements Runnable { public void run() {} }\n}"
                .to_string(),
        ),
        (
            format!("{dir}/AtomicTest.java"),
            "public class AtomicTest extends JSR166TestCase { public void testIncrement() {} }"
                .to_string(),
        ),
        (
            format!("{dir}/LockTest.java"),
            "public class LockTest extends JSR166TestCase { public void testLock() {} }"
                .to_string(),
        ),
    ];
    sources.extend(
        extra
            .iter()
            .map(|(f, t)| (format!("{dir}/{f}"), t.to_string())),
    );
    let files: Vec<(&str, &str)> = sources
        .iter()
        .map(|(f, t)| (f.as_str(), t.as_str()))
        .collect();
    (one_project(p), MemFiles::with(&files))
}

/// A changed class Gradle never runs that declares no test of its own is a
/// base: its concrete subclasses run (within the cap, those left out said),
/// never "not checked"; with none it is no test (nothing selected); named,
/// it means itself.
#[test]
fn a_changed_base_gradle_never_runs_runs_through_its_subclasses() {
    let (layout, files) = tck_build(&[
        (
            "Helpers.java",
            "public class Helpers extends junit.framework.TestCase { void help() {} }",
        ),
        (
            "PlainBase.java",
            "public class PlainBase { protected int n() { return 1; } }",
        ),
        (
            "ZTest.java",
            "public class ZTest extends PlainBase { @org.junit.Test public void z() {} }",
        ),
    ]);
    let c = Classifier::from_layout(&layout, &files);
    let changed = |c: &Classifier, file: &str| {
        c.classify_path(
            Path::new(&format!("tck/src/test/java/{file}")),
            Origin::Changed,
        )
    };
    let classes = |outcomes: &[Classification]| -> Vec<String> {
        outcomes
            .iter()
            .filter_map(|o| o.as_ref().ok()?.class.clone())
            .collect()
    };
    let base = changed(&c, "JSR166TestCase.java");
    assert_eq!(
        classes(&base.outcomes),
        ["AtomicTest", "LockTest"],
        "{base:?}"
    );
    assert_eq!(base.outcomes.len(), 2, "nothing unresolved: {base:?}");
    let e = &base.decisions.expansions[0];
    assert!(e.concrete_base);
    assert!(
        e.base_not_run
            .as_deref()
            .is_some_and(|why| why.contains("**/*Test.class")),
        "{e:?}"
    );
    // A plain class (no test by Gradle's detection) is a base alike.
    assert_eq!(classes(&changed(&c, "PlainBase.java").outcomes), ["ZTest"]);
    // Within the cap, those left out said.
    let capped = Classifier::from_layout(&layout, &files).with_choice(Policy {
        subclass_cap: 1,
        ..Policy::default()
    });
    let base = changed(&capped, "JSR166TestCase.java").outcomes;
    assert_eq!(classes(&base).len(), 1);
    assert!(
        matches!(&base[1], Err(Skip::Unresolved(r)) if r.code == ReasonCode::BeyondSubclassCap),
        "{base:?}"
    );
    // No subclass, no test of its own: nothing selected.
    let helpers = only(changed(&c, "Helpers.java").outcomes);
    assert!(
        matches!(&helpers, Err(Skip::NotATest(why))
            if why.starts_with("`Helpers` declares no test of its own and no concrete subclass")),
        "{helpers:?}"
    );
    // Named, the class means itself: Gradle runs no test of it.
    let named = only(
        c.locate(&TestRef::class("JSR166TestCase"), Origin::Explicit)
            .outcomes,
    );
    assert!(
        matches!(&named, Err(Skip::Unresolved(r)) if r.code == ReasonCode::ExcludedByTaskPatterns),
        "{named:?}"
    );
}

/// A class Gradle never runs that declares tests of its own: they run in its
/// subclasses, which inherit them; without one, they are not checked.
#[test]
fn a_base_with_tests_of_its_own_runs_them_in_its_subclasses_else_is_not_checked() {
    let own = "public class OwnCase extends junit.framework.TestCase { public void testX() {} }";
    let (layout, files) = tck_build(&[("OwnCase.java", own)]);
    let c = Classifier::from_layout(&layout, &files);
    let path = Path::new("tck/src/test/java/OwnCase.java");
    let alone = only(c.classify_path(path, Origin::Changed).outcomes);
    assert!(
        matches!(&alone, Err(Skip::Unresolved(r)) if r.code == ReasonCode::ExcludedByTaskPatterns),
        "{alone:?}"
    );
    let sub = "public class OwnSubTest extends OwnCase {}";
    let (layout, files) = tck_build(&[("OwnCase.java", own), ("OwnSubTest.java", sub)]);
    let c = Classifier::from_layout(&layout, &files);
    let through = only(c.classify_path(path, Origin::Changed).outcomes);
    assert_eq!(through.unwrap().class.as_deref(), Some("OwnSubTest"));
}
