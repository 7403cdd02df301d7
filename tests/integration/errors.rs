//! A newcomer's mistakes: the wrong directory, a misspelled class or method,
//! a broken build. Each stops before any test runs, with exit 2 (3 for
//! Gradle's own failure), and says the fix.

use crate::common::{
    assert_layout_from_cache, fixture_copy, gradle_flaky, run, text, uncompiled_copy,
    use_recorded_layout,
};

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn a_project_dir_that_does_not_exist_is_a_usage_error_naming_the_flag() {
    for sub in [
        &["local", "x.FooTests"][..],
        &["plan", "x.FooTests"],
        &["layout"],
    ] {
        let out = run(gradle_flaky()
            .args(["--project-dir", "/no/such/dir"])
            .args(sub));
        assert_eq!(out.status.code(), Some(2), "{sub:?}: {}", text(&out));
        let err = stderr(&out);
        assert!(
            err.contains("--project-dir (FLAKINESS_PROJECT_DIR): /no/such/dir does not exist"),
            "{sub:?}: {err}"
        );
    }
}

#[test]
fn outside_any_build_local_stops_before_running_gradle() {
    // Where a newcomer might first try it: a directory with no build at all.
    let dir = tempfile::tempdir().unwrap();
    let out = run(gradle_flaky().current_dir(dir.path()).args([
        "local",
        "--iters",
        "1",
        "org.example.FooTests",
    ]));
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    let err = stderr(&out);
    assert!(err.contains("the current directory ("), "{err}");
    assert!(
        err.contains("is not a Gradle build: no settings.gradle(.kts) or build.gradle(.kts)"),
        "{err}"
    );
    assert!(err.contains("pass --project-dir DIR"), "{err}");
    // Gradle never ran there: it would have left its `.gradle` folder.
    let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert!(left.is_empty(), "{left:?}");
}

#[test]
fn a_subproject_dir_names_the_build_root_above_it() {
    let build = uncompiled_copy();
    let root = build.path().canonicalize().unwrap();
    let server = root.join("server");
    let by_flag = run(gradle_flaky().arg("--project-dir").arg(&server).args([
        "local",
        "--iters",
        "1",
        "org.elasticsearch.common.StringsTests",
    ]));
    let by_cwd = run(gradle_flaky()
        .current_dir(&server)
        .args(["plan", "org.elasticsearch.common.StringsTests"]));
    for out in [by_flag, by_cwd] {
        assert_eq!(out.status.code(), Some(2), "{}", text(&out));
        let err = stderr(&out);
        assert!(
            err.contains(&format!(
                "is inside the Gradle build rooted at {}",
                root.display()
            )),
            "{err}"
        );
        assert!(
            err.contains(&format!("pass --project-dir {}", root.display())),
            "{err}"
        );
    }
    assert!(!server.join(".gradle").exists());
    assert!(!root.join(".gradle").exists(), "no Gradle ran");
}

#[test]
fn gradle_failing_on_the_build_is_shown_as_its_own_lines() {
    let build = fixture_copy();
    let script = build.path().join("server/build.gradle");
    let mut text_of = std::fs::read_to_string(&script).unwrap();
    text_of.push_str("\nthis is { not a build script\n");
    std::fs::write(&script, text_of).unwrap();
    let out = run(gradle_flaky()
        .arg("--project-dir")
        .arg(build.path())
        .args(["--gradle", "gradle --offline", "plan"])
        .arg("org.elasticsearch.common.StringsTests"));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(!stdout.contains("\\u{a}"), "{stdout}");
    // Gradle's report, line by line, indented under the note.
    assert!(
        stdout
            .lines()
            .any(|l| l.starts_with("    ") && l.contains("What went wrong")),
        "{stdout}"
    );
    assert!(stdout.contains("server/build.gradle"), "{stdout}");
}

#[test]
fn a_misspelled_class_or_method_gets_a_suggestion_before_gradle_runs_tests() {
    let build = fixture_copy();
    let dir = build.path();
    use_recorded_layout(dir, "es-mini", &["gradle", "--offline"]);
    let flaky = |args: &[&str]| {
        let out = run(gradle_flaky()
            .arg("--project-dir")
            .arg(dir)
            .args(["--gradle", "gradle --offline"])
            .args(args));
        assert_layout_from_cache(&out);
        out
    };
    let out = flaky(&["plan", "org.elasticsearch.common.StringTests"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(
        stderr(&out).contains(
            "no class `org.elasticsearch.common.StringTests` in the build's test source sets \
             (did you mean `org.elasticsearch.common.StringsTests`?) (no-such-class)"
        ),
        "{}",
        text(&out)
    );

    let out = flaky(&[
        "plan",
        "org.elasticsearch.common.StringsTests#testCapitalise",
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(
        stderr(&out).contains(
            "no method `testCapitalise` in `org.elasticsearch.common.StringsTests` or its \
             superclasses in the build (did you mean `testCapitalize`?) (no-such-method)"
        ),
        "{}",
        text(&out)
    );

    // `local` refuses it before creating a run folder or starting a batch.
    let out = flaky(&[
        "local",
        "--iters",
        "1",
        "org.elasticsearch.common.StringsTests.testCapitalise",
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(
        stderr(&out).contains("did you mean `testCapitalize`?"),
        "{}",
        text(&out)
    );
    assert!(!dir.join(".gradle/gradle-flaky/runs").exists());

    // A method the class inherits from a superclass in the build is found
    // there; a name only the runner knows (parameterized) is left to it.
    let out = flaky(&[
        "plan",
        "org.elasticsearch.common.StringsTests#testCapitalize",
        "org.elasticsearch.common.StringsTests#testCapitalize[0]",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
}
