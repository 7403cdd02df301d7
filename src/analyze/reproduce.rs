//! Reproduce lines: which `REPRODUCE WITH:` line of the output names a test, and
//! the command we build when there is none.

/// The Gradle program of built reproduce lines when the caller names none.
const GRADLE: &str = "./gradlew";

/// Whether a `REPRODUCE WITH:` line re-runs `class`'s `method`: it names
/// `class.method` as the `--tests` filter, or `class` plus `-Dtests.method=method`
/// (the form used for YAML cases), or just `class` for a suite-level failure.
pub fn line_names_test(line: &str, class: &str, method: &str) -> bool {
    if class.is_empty() {
        return false;
    }
    let mut class_alone = false;
    let mut from = 0;
    while let Some(i) = line[from..].find(class).map(|i| from + i) {
        let after = &line[i + class.len()..];
        from = i + class.len();
        let before = line[..i].chars().next_back();
        if is_ident_char(before) || before == Some('.') {
            continue;
        }
        if let Some(rest) = after.strip_prefix('.') {
            if rest.starts_with(method) && !is_ident_char(rest[method.len()..].chars().next()) {
                return true;
            }
        } else if !is_ident_char(after.chars().next()) {
            class_alone = true;
        }
    }
    if !class_alone {
        return false;
    }
    let named_method = ["tests.method=\"", "tests.method='", "tests.method="]
        .iter()
        .find_map(|p| line.find(p).map(|i| (p, &line[i + p.len()..])));
    match named_method {
        Some((p, rest)) => {
            rest.starts_with(method) && {
                let next = rest[method.len()..].chars().next();
                if p.ends_with('=') {
                    next.is_none_or(char::is_whitespace)
                } else {
                    next == p.chars().last()
                }
            }
        }
        None => method == "classMethod",
    }
}

fn is_ident_char(c: Option<char>) -> bool {
    c.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$')
}

/// Builds `GRADLE TASK --tests FILTER [-Dtests.method=M] [-Dtests.seed=S]`,
/// every word POSIX-quoted. A method that is not a plain identifier (a YAML case
/// `test {yaml=...}`, a parameterized name) is passed as `-Dtests.method`, which
/// the randomized runner matches exactly; a suite-level failure re-runs the class.
pub fn build(
    gradle: &[String],
    task_path: &str,
    class: &str,
    method: &str,
    seed: Option<&str>,
) -> String {
    let mut words = if gradle.is_empty() {
        vec![GRADLE.to_string()]
    } else {
        gradle.to_vec()
    };
    words.extend([task_path.to_string(), "--tests".into()]);
    if method == "classMethod" || method.is_empty() {
        words.push(class.to_string());
    } else if method
        .chars()
        .all(|c| c.is_alphanumeric() || c == '_' || c == '$')
    {
        words.push(format!("{class}.{method}"));
    } else {
        words.push(class.to_string());
        words.push(format!("-Dtests.method={method}"));
    }
    if let Some(seed) = seed {
        words.push(format!("-Dtests.seed={seed}"));
    }
    crate::shell::join(&words)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_the_line_of_the_test_and_not_of_a_longer_name() {
        let line =
            r#"./gradlew ':server:test' --tests "org.example.FooTests.testFoo" -Dtests.seed=ABC"#;
        assert!(line_names_test(line, "org.example.FooTests", "testFoo"));
        assert!(!line_names_test(line, "org.example.FooTests", "testFo"));
        assert!(!line_names_test(line, "example.FooTests", "testFoo"));
        assert!(!line_names_test(
            line,
            "org.example.FooTests",
            "classMethod"
        ));
        let bar = r#"./gradlew ':server:test' --tests "org.example.FooTests.testFooBar""#;
        assert!(!line_names_test(bar, "org.example.FooTests", "testFoo"));
    }

    #[test]
    fn matches_yaml_cases_by_tests_method_and_suites_by_class() {
        let line = r#"./gradlew ":m:yamlRestTest" --tests "org.example.FooIT" -Dtests.method="test {yaml=a/10_b/c d}" -Dtests.seed=1"#;
        assert!(line_names_test(
            line,
            "org.example.FooIT",
            "test {yaml=a/10_b/c d}"
        ));
        assert!(!line_names_test(
            line,
            "org.example.FooIT",
            "test {yaml=a/10_b/c}"
        ));
        let suite = r#"./gradlew ":m:test" --tests "org.example.FooIT" -Dtests.seed=1"#;
        assert!(line_names_test(suite, "org.example.FooIT", "classMethod"));
        assert!(!line_names_test(suite, "org.example.FooIT", "testX"));
    }

    #[test]
    fn builds_a_quoted_command_with_the_failing_seed() {
        assert_eq!(
            build(
                &[],
                ":server:test",
                "org.example.FooTests",
                "testFoo",
                Some("A:B")
            ),
            "./gradlew :server:test --tests org.example.FooTests.testFoo -Dtests.seed=A:B"
        );
        assert_eq!(
            build(
                &[],
                ":m:yamlRestTest",
                "org.example.FooIT",
                "test {yaml=a/10_b/it's}",
                None
            ),
            r#"./gradlew :m:yamlRestTest --tests org.example.FooIT '-Dtests.method=test {yaml=a/10_b/it'\''s}'"#
        );
        let gradle = ["gradle".to_string(), "--offline".to_string()];
        assert_eq!(
            build(&gradle, ":t:test", "Foo", "testX", Some("S")),
            "gradle --offline :t:test --tests Foo.testX -Dtests.seed=S",
            "the build's own Gradle program, when the caller names it"
        );
        assert_eq!(
            build(&[], ":test", "Foo", "classMethod", None),
            "./gradlew :test --tests Foo"
        );
    }
}
