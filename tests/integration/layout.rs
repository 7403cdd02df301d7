//! Integration tests: `gradle-flaky layout` on the real fixture build with real Gradle.

use crate::common::{fixture_copy, gradle_flaky, run, text};
use gradle_flaky::layout::Layout;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

/// A `gradle` that counts its invocations in `counter`, then runs the real Gradle
/// offline: it proves whether a call started Gradle at all.
fn counting_gradle(dir: &Path, counter: &Path) -> String {
    let script = dir.join("counting-gradle");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\necho run >> '{}'\nexec gradle --offline \"$@\"\n",
            counter.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    script.display().to_string()
}

/// `gradle-flaky layout` of `build` with `gradle`, which must succeed: the
/// layout, and what was said on stderr.
fn layout_of(build: &Path, gradle: &str, extra: &[&str]) -> (Layout, String) {
    let out = run(gradle_flaky()
        .arg("layout")
        .arg("--project-dir")
        .arg(build)
        .args(["--gradle", gradle])
        .args(extra));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let layout: Layout = serde_json::from_slice(&out.stdout).expect("layout JSON");
    (layout, String::from_utf8_lossy(&out.stderr).into_owned())
}

fn runs(counter: &Path) -> usize {
    std::fs::read_to_string(counter)
        .map(|s| s.lines().count())
        .unwrap_or(0)
}

#[test]
fn layout_reports_the_fixture_as_gradle_sees_it_and_caches_it() {
    let build = fixture_copy();
    let scratch = tempfile::tempdir().unwrap();
    let counter = scratch.path().join("gradle-runs");
    let gradle = counting_gradle(scratch.path(), &counter);
    let layout_of = |extra: &[&str]| layout_of(build.path(), &gradle, extra);

    let (layout, stderr) = layout_of(&[]);
    assert_eq!(runs(&counter), 1, "the first call asks Gradle");
    assert!(stderr.contains("from Gradle"), "{stderr}");
    assert_eq!(layout.gradle_version, "4.4.1");
    let root = std::fs::canonicalize(build.path()).unwrap();
    assert_eq!(layout.root_dir, root);

    let paths: Vec<&str> = layout.projects.iter().map(|p| p.path.as_str()).collect();
    assert_eq!(
        paths,
        [
            ":",
            ":libs",
            ":libs:guard",
            ":modules",
            ":modules:lang-painless",
            ":qa",
            ":qa:packaging",
            ":qa:rolling-upgrade",
            ":server",
            ":test",
            ":test:external-modules",
            ":test:external-modules:test-apm-integration",
            ":test:external-modules:test-esql-heap-attack",
            ":test:framework",
            ":x-pack",
            ":x-pack:plugin",
            ":x-pack:plugin:ml",
            ":x-pack:plugin:ml:qa",
            ":x-pack:plugin:ml:qa:native-multi-node-tests",
        ]
    );

    // The renamed project: its Gradle path does not follow its directory.
    let apm = layout
        .project(":test:external-modules:test-apm-integration")
        .unwrap();
    assert_eq!(
        apm.project_dir,
        root.join("test/external-modules/apm-integration")
    );

    // Source sets and the tasks tied to them by output directories, not by name.
    let tasks_of = |project: &str, source_set: &str| -> Vec<(String, bool)> {
        let p = layout.project(project).unwrap();
        let ss = p
            .source_sets
            .iter()
            .find(|s| s.name == source_set)
            .unwrap_or_else(|| panic!("{project} has no source set {source_set}"));
        layout
            .tasks_for(ss)
            .into_iter()
            .map(|t| (t.path.clone(), t.enabled))
            .collect()
    };
    let source_sets = |project: &str| -> Vec<String> {
        let p = layout.project(project).unwrap();
        p.source_sets.iter().map(|s| s.name.clone()).collect()
    };
    assert_eq!(
        source_sets(":server"),
        ["internalClusterTest", "main", "test"]
    );
    assert_eq!(
        source_sets(":x-pack:plugin:ml"),
        ["main", "slowTest", "test", "yamlRestTest"]
    );
    assert_eq!(tasks_of(":server", "test"), [(":server:test".into(), true)]);
    assert_eq!(
        tasks_of(":server", "internalClusterTest"),
        [(":server:internalClusterTest".into(), true)]
    );
    assert_eq!(
        tasks_of(":x-pack:plugin:ml", "slowTest"),
        [(":x-pack:plugin:ml:slowTests".into(), true)],
        "the custom source set is run by a task of another name"
    );
    assert_eq!(
        tasks_of(":x-pack:plugin:ml", "yamlRestTest"),
        [(":x-pack:plugin:ml:yamlRestTest".into(), true)]
    );
    assert_eq!(
        tasks_of(
            ":test:external-modules:test-apm-integration",
            "javaRestTest"
        ),
        [(
            ":test:external-modules:test-apm-integration:javaRestTest".into(),
            true
        )]
    );
    let bwc = tasks_of(":qa:rolling-upgrade", "javaRestTest");
    assert!(
        bwc.contains(&(":qa:rolling-upgrade:javaRestTest".into(), false)),
        "the bare task is disabled, as in BWC projects: {bwc:?}"
    );
    assert!(tasks_of(":server", "main").is_empty(), "main runs no tests");

    let ml = layout.project(":x-pack:plugin:ml").unwrap();
    let yaml = ml
        .source_sets
        .iter()
        .find(|s| s.name == "yamlRestTest")
        .unwrap();
    assert_eq!(
        yaml.resources,
        [root.join("x-pack/plugin/ml/src/yamlRestTest/resources")]
    );
    assert_eq!(
        yaml.compile_tasks,
        [":x-pack:plugin:ml:compileYamlRestTestJava"]
    );

    // The second call is served from the cache: no Gradle started.
    let (cached, stderr) = layout_of(&[]);
    assert_eq!(runs(&counter), 1, "a cached call starts no Gradle");
    assert!(stderr.contains("from cache"), "{stderr}");
    assert_eq!(cached, layout);

    // A build script edit invalidates the cache; --refresh forces Gradle.
    let server_build = build.path().join("server/build.gradle");
    let mut script = std::fs::read_to_string(&server_build).unwrap();
    script.push_str("\n// edited\n");
    std::fs::write(&server_build, script).unwrap();
    layout_of(&[]);
    assert_eq!(
        runs(&counter),
        2,
        "an edited build script asks Gradle again"
    );
    layout_of(&["--refresh"]);
    assert_eq!(runs(&counter), 3, "--refresh asks Gradle again");
}

#[test]
fn layout_outside_a_gradle_build_is_an_input_error() {
    let empty = tempfile::tempdir().unwrap();
    let out = run(gradle_flaky()
        .arg("layout")
        .arg("--project-dir")
        .arg(empty.path()));
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("not a Gradle build"), "{stderr}");
    assert!(stderr.contains("--project-dir"), "{stderr}");
}

#[test]
fn layout_without_any_gradle_is_an_infrastructure_error() {
    let build = tempfile::tempdir().unwrap();
    std::fs::write(
        build.path().join("settings.gradle"),
        "rootProject.name = 'x'\n",
    )
    .unwrap();
    let no_gradle_path = tempfile::tempdir().unwrap();
    let out = run(gradle_flaky()
        .arg("layout")
        .arg("--project-dir")
        .arg(build.path())
        .env("PATH", no_gradle_path.path()));
    assert_eq!(out.status.code(), Some(3), "{}", text(&out));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("no Gradle found"), "{stderr}");
    assert!(stderr.contains("--gradle"), "{stderr}");

    // A named program that does not exist is the same infrastructure error.
    let out = run(gradle_flaky()
        .arg("layout")
        .arg("--project-dir")
        .arg(build.path())
        .args(["--gradle", "/nonexistent/gradle"]));
    assert_eq!(out.status.code(), Some(3), "{}", text(&out));
}

#[test]
fn an_edit_to_the_included_builds_task_definition_changes_the_next_layout() {
    let build = fixture_copy();
    let scratch = tempfile::tempdir().unwrap();
    let counter = scratch.path().join("gradle-runs");
    let gradle = counting_gradle(scratch.path(), &counter);
    let layout = || layout_of(build.path(), &gradle, &[]).0;
    let guard_tasks = |layout: &Layout| -> Vec<String> {
        let p = layout.project(":libs:guard").unwrap();
        p.test_tasks.iter().map(|t| t.path.clone()).collect()
    };

    let first = layout();
    let root = std::fs::canonicalize(build.path()).unwrap();
    assert_eq!(
        first.included_builds,
        [root.join("build-tools-internal")],
        "the layout names the included build"
    );
    assert_eq!(
        guard_tasks(&first),
        [":libs:guard:flakyGuardTest", ":libs:guard:test"]
    );
    layout();
    assert_eq!(runs(&counter), 1, "unchanged: served from the cache");

    // Rename the Test task where it is defined: in the included build's Java
    // source, not in any build script of this build.
    let plugin = build.path().join(
        "build-tools-internal/src/main/java/org/elasticsearch/gradle/internal/test/FlakyGuardTestPlugin.java",
    );
    let source = std::fs::read_to_string(&plugin).unwrap();
    let renamed = source.replace(
        r#"TASK = "flakyGuardTest""#,
        r#"TASK = "flakyGuardRenamedTest""#,
    );
    assert_ne!(renamed, source);
    std::fs::write(&plugin, renamed).unwrap();
    let second = layout();
    assert_eq!(
        runs(&counter),
        2,
        "the edit is a cache miss, no --refresh needed"
    );
    assert_eq!(
        guard_tasks(&second),
        [":libs:guard:flakyGuardRenamedTest", ":libs:guard:test"]
    );
}

#[test]
fn layout_sees_what_the_builds_own_late_hooks_add_and_change() {
    let build = fixture_copy();
    // Build logic that, like much of Elasticsearch's, finishes its test tasks
    // in a projectsEvaluated hook registered while the build scripts run:
    // after the init script's own hook.
    let server = build.path().join("server/build.gradle");
    let mut script = std::fs::read_to_string(&server).unwrap();
    script.push_str(
        "\ngradle.projectsEvaluated {\n  \
           Test late = project(':server').tasks.create('lateTest', Test)\n  \
           late.testClassesDirs = project(':server').sourceSets.test.output.classesDirs\n  \
           project(':server').tasks.internalClusterTest.enabled = false\n}\n",
    );
    std::fs::write(&server, script).unwrap();
    let (layout, _) = layout_of(build.path(), "gradle --offline", &[]);
    let tasks: Vec<(String, bool)> = layout
        .project(":server")
        .unwrap()
        .test_tasks
        .iter()
        .map(|t| (t.name.clone(), t.enabled))
        .collect();
    assert_eq!(
        tasks,
        [
            ("internalClusterTest".to_string(), false),
            ("lateTest".into(), true),
            ("test".into(), true)
        ]
    );
}

/// The one real-Gradle check of the recorded layouts the plan-only tests
/// read (`common::use_recorded_layout`): each is what a fresh `layout` run
/// reports on a copy of its fixture today. Regenerate them with
/// `UPDATE_GENERATED=1 cargo nextest run recorded_layouts`.
#[test]
fn recorded_layouts_are_what_gradle_reports() {
    use crate::common::{
        copy_tree, read_json, recorded_form, recorded_layout_file, repo_root, RECORDED_FIXTURES,
    };
    let update = std::env::var_os("UPDATE_GENERATED").is_some();
    let mut stale = Vec::new();
    for name in RECORDED_FIXTURES {
        let build = tempfile::tempdir().unwrap();
        copy_tree(&repo_root().join("tests/fixtures").join(name), build.path());
        let out = run(gradle_flaky().arg("--project-dir").arg(build.path()).args([
            "--gradle",
            "gradle --offline",
            "layout",
            "--refresh",
        ]));
        assert_eq!(out.status.code(), Some(0), "{name}: {}", text(&out));
        let fresh: serde_json::Value = serde_json::from_slice(&out.stdout).expect("layout JSON");
        assert!(!fresh["projects"].as_array().unwrap().is_empty(), "{name}");
        let fresh = recorded_form(build.path(), &fresh);
        let file = recorded_layout_file(name);
        if update {
            let text = serde_json::to_string_pretty(&fresh).unwrap();
            std::fs::write(&file, format!("{text}\n")).unwrap();
        } else if !file.is_file() || read_json(&file) != fresh {
            stale.push(file.display().to_string());
        }
    }
    assert!(
        stale.is_empty(),
        "{stale:?} differ from what Gradle reports now; regenerate them with \
         `UPDATE_GENERATED=1 cargo nextest run recorded_layouts` and commit the result"
    );
}
