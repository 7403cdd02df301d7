//! The shell rendering keeps every argv element one word, whatever it contains:
//! checked with the shell-words splitter and with a real /bin/sh.

use super::{case, method, suite, unit};
use gradle_flaky::domain::BatchingConfig;
use gradle_flaky::plan::{plan, render, GradleVersion, PlanContext};
use gradle_flaky::shell;
use proptest::prelude::*;
use std::process::Command;

/// Characters a shell treats specially, plus some that are merely unusual.
const NASTY: &[char] = &[
    '\'', '"', '$', '`', '\\', '\n', '\r', '\t', ' ', '!', '*', '?', '[', ']', '~', '#', '(', ')',
    '{', '}', ';', '&', '|', '<', '>', '=', '%', ',', ':', '-', 'é', '日', '\u{1b}', '\u{7f}',
];

/// Any string but NUL (which no argv element can hold), biased towards shell syntax.
fn word() -> impl Strategy<Value = String> {
    let c = prop_oneof![
        3 => prop::sample::select(NASTY),
        2 => any::<char>().prop_filter("no NUL", |c| *c != '\0'),
        1 => prop::char::range('a', 'z'),
    ];
    prop::collection::vec(c, 0..12).prop_map(String::from_iter)
}

/// Runs `line` with /bin/sh and returns the arguments its `printf` received
/// (at least one: with none, printf still prints its format once).
fn sh_words(line: &str) -> Vec<String> {
    let out = Command::new("/bin/sh")
        .arg("-c")
        .arg(line)
        .output()
        .expect("run /bin/sh");
    assert!(
        out.status.success(),
        "sh failed on {line:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut words: Vec<String> = out
        .stdout
        .split(|b| *b == 0)
        .map(|w| String::from_utf8(w.to_vec()).expect("UTF-8 back from sh"))
        .collect();
    assert_eq!(words.pop().as_deref(), Some(""), "output ends with NUL");
    words
}

/// A program that prints each of its arguments followed by NUL.
fn printf() -> Vec<String> {
    vec!["printf".into(), "%s\\0".into()]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn shell_words_splits_the_rendering_back_into_the_argv(argv in prop::collection::vec(word(), 1..6)) {
        let line = shell::join(&argv);
        prop_assert_eq!(shell_words::split(&line).unwrap(), argv);
    }

    #[test]
    fn bin_sh_reads_the_rendering_back_as_the_argv(args in prop::collection::vec(word(), 1..6)) {
        let mut argv = printf();
        argv.extend(args.iter().cloned());
        prop_assert_eq!(sh_words(&shell::join(&argv)), args);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Hostile class, method and suite names go through the whole plan and come
    /// out of `plan --format shell` as exactly the planned argv.
    #[test]
    fn plan_shell_lines_run_as_the_planned_argv(class in word(), name in word(), path in word()) {
        let tests = [
            method(unit(":server", &class), &name),
            suite(":p", &path),
            case(":p", &class, &name),
        ];
        let ctx = PlanContext {
            gradle: printf(),
            gradle_version: GradleVersion::parse("8.10"),
            extra_args: vec![name.clone()],
            tasks: Default::default(),
            start_on_gradle_runs: Default::default(),
            fresh_jvm_each: Default::default(),
            commit: None,
        };
        // One loop, so each shell line is the command itself rather than `gradle-flaky repeat`.
        let cfg = BatchingConfig { rest_loops: 1, ..BatchingConfig::default() };
        let p = plan(&tests, &cfg, &ctx);
        let rendered = render::shell(&p);
        // One line per command; a newline inside an element stays inside its quotes.
        let mut rest = rendered.as_str();
        for c in &p.commands {
            let line = shell::join(&c.argv());
            let expected = format!("{line}\n");
            prop_assert!(rest.starts_with(&expected), "{:?} does not start with {:?}", rest, expected);
            rest = &rest[line.len() + 1..];
            prop_assert_eq!(&sh_words(&line), &c.argv()[2..].to_vec());
        }
        prop_assert_eq!(rest, "");
    }
}

#[test]
fn rest_loops_render_through_repeat() {
    let ctx = PlanContext {
        gradle: vec!["./gradlew".into()],
        gradle_version: GradleVersion::parse("8.10"),
        extra_args: vec![],
        tasks: Default::default(),
        start_on_gradle_runs: Default::default(),
        fresh_jvm_each: Default::default(),
        commit: None,
    };
    let p = plan(&[suite(":p", "a b/c")], &BatchingConfig::default(), &ctx);
    assert_eq!(
        render::shell(&p),
        "gradle-flaky repeat --times 10 -- ./gradlew :p:yamlRestTest --rerun '-Dtests.rest.suite=a b/c' --continue\n"
    );
}
