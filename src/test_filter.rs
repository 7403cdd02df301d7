//! Which tests Gradle runs: the `--tests` filters that select a test, the Test
//! task's include/exclude patterns, and which executed test names a selection
//! covers. One rule for planning (a command's filters), selection (what a task
//! runs), and analysis (reproduce lines, planned against executed runs).
//!
//! Measured on Gradle 4.4.1: in `--tests`, `*` is the only wildcard and a
//! pattern must match the whole `Class.method`; JUnit 4 `Parameterized` cases
//! are named `method[…]` and `Class.method` matches none of them
//! (`Class.method[*]` matches them all, `Class.method[2: flaky]` one); a nested
//! class `Outer$Inner` runs as a class of its own, which `Outer` does not match
//! (`Outer$*` does); TestNG matches every data-provider row of `Class.method`,
//! and one row cannot be selected at all; randomizedtesting descriptors
//! (`test {yaml=…}`) match as written.

/// The shape of a test method name, as runners write it and users paste it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Shape {
    /// `parses`: a method.
    Plain,
    /// `*flaky*`: a Gradle filter pattern.
    Pattern,
    /// `test {yaml=…}`, `test {p0=…}`: a randomizedtesting descriptor.
    Descriptor,
    /// `encodes[2](flaky, x)`: one TestNG data-provider row.
    TestNgRow,
    /// `parses[2: flaky]` (JUnit 4 `Parameterized`): one case, selectable as written.
    Case,
    /// `parses(String)[1]` (JUnit Platform): one invocation, selected through its method.
    Invocation,
    /// Anything else (a Spock feature `parses a line`): selected as written.
    Other,
}

fn is_ident(s: &str) -> bool {
    !s.is_empty()
        && s.chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '$')
}

/// The shape of `method`.
pub(crate) fn shape(method: &str) -> Shape {
    if method.contains('*') {
        return Shape::Pattern;
    }
    if is_ident(method) {
        return Shape::Plain;
    }
    if let Some((head, _)) = method.split_once(" {") {
        if method.ends_with('}') && is_ident(head) {
            return Shape::Descriptor;
        }
    }
    let Some(open) = method.find(['[', '(']) else {
        return Shape::Other;
    };
    if !is_ident(&method[..open]) {
        return Shape::Other;
    }
    let rest = &method[open..];
    if rest.starts_with('(') {
        return Shape::Invocation;
    }
    let row = rest.strip_prefix('[').and_then(|r| r.split_once("]("));
    match row {
        Some((index, _)) if rest.ends_with(')') && index.bytes().all(|b| b.is_ascii_digit()) => {
            Shape::TestNgRow
        }
        _ => Shape::Case,
    }
}

/// The method a test name belongs to: `parses[2: flaky]` → `parses`,
/// `encodes[2](x)` → `encodes`, `test {yaml=a/b/c}` → `test`.
pub(crate) fn base(method: &str) -> &str {
    match shape(method) {
        Shape::Descriptor => method.split_once(" {").map_or(method, |(head, _)| head),
        Shape::TestNgRow | Shape::Case | Shape::Invocation => {
            method.find(['[', '(']).map_or(method, |i| &method[..i])
        }
        Shape::Plain | Shape::Pattern | Shape::Other => method,
    }
}

/// What a runner makes of a selection's filter.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RunnerTraits {
    /// The task runs TestNG: `Class.method` already matches every data-provider row.
    pub testng: bool,
    /// Cases of a parameterized method may be named `method[…]` (JUnit 4's
    /// `Parameterized` under Gradle's runner), which `Class.method` does not match.
    pub parameterized_cases: bool,
}

/// The `--tests` filters that select `class` (and `method`): every case of a
/// parameterized method, and the nested classes of a whole class when
/// `nested_classes` (the task runs them as classes of their own).
pub(crate) fn filters(
    class: &str,
    method: Option<&str>,
    nested_classes: bool,
    runner: RunnerTraits,
) -> Vec<String> {
    let Some(method) = method else {
        let mut out = vec![class.to_string()];
        if nested_classes {
            out.push(format!("{class}$*"));
        }
        return out;
    };
    match shape(method) {
        Shape::Plain if runner.parameterized_cases && !runner.testng => {
            vec![format!("{class}.{method}"), format!("{class}.{method}[*]")]
        }
        Shape::TestNgRow | Shape::Invocation => vec![format!("{class}.{}", base(method))],
        _ => vec![format!("{class}.{method}")],
    }
}

/// One TestNG data-provider row cannot be selected: its filter runs every row.
pub(crate) fn selects_more_than_named(method: &str) -> bool {
    shape(method) == Shape::TestNgRow
}

/// Whether an executed test (`class`, `method` as the report names it) is one
/// that the selection of `selected_class` (and `selected_method`) runs.
pub(crate) fn covers(
    selected_class: &str,
    selected_method: Option<&str>,
    nested_classes: bool,
    class: &str,
    method: &str,
) -> bool {
    let class_ok = class == selected_class
        || (nested_classes
            && selected_method.is_none()
            && class
                .strip_prefix(selected_class)
                .is_some_and(|rest| rest.starts_with('$')));
    class_ok
        && match selected_method {
            None => true,
            Some(selected) => method_covers(selected, method),
        }
}

/// Whether the selection of `selected` runs the executed `method`.
pub(crate) fn method_covers(selected: &str, method: &str) -> bool {
    match shape(selected) {
        Shape::Pattern => glob(selected, method),
        Shape::Plain => method == selected || base(method) == selected,
        Shape::TestNgRow | Shape::Invocation => base(method) == base(selected),
        Shape::Descriptor | Shape::Case | Shape::Other => method == selected,
    }
}

/// `Class#method`, or the class alone: how `local` takes a test.
pub(crate) fn spec(class: &str, method: &str) -> String {
    match method.is_empty() {
        true => class.to_string(),
        false => format!("{class}#{method}"),
    }
}

/// The `--tests` filter that re-runs one executed test, and the
/// `-Dtests.method` value the randomizedtesting runner needs for a descriptor.
pub(crate) fn reproduce(class: &str, method: &str) -> (String, Option<String>) {
    if method.is_empty() || method == "classMethod" {
        return (class.to_string(), None);
    }
    match shape(method) {
        Shape::Descriptor => (class.to_string(), Some(method.to_string())),
        Shape::TestNgRow | Shape::Invocation => (format!("{class}.{}", base(method)), None),
        _ => (format!("{class}.{method}"), None),
    }
}

/// `*` matches any run of characters; everything else is literal.
pub(crate) fn glob(pattern: &str, text: &str) -> bool {
    let parts: Vec<&str> = pattern.split('*').collect();
    if parts.len() == 1 {
        return pattern == text;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !text.starts_with(first) || text.len() < first.len() + last.len() || !text.ends_with(last) {
        return false;
    }
    let mut rest = &text[first.len()..text.len() - last.len()];
    for part in &parts[1..parts.len() - 1] {
        match rest.find(part) {
            Some(i) => rest = &rest[i + part.len()..],
            None => return false,
        }
    }
    true
}

/// A Test task's include/exclude patterns (Ant style: `**` any directories,
/// `*` and `?` within a name), matched against a class file's path below the
/// classes dir, e.g. `com/example/AppTest.class`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Patterns {
    pub includes: Vec<String>,
    pub excludes: Vec<String>,
}

impl Patterns {
    /// Whether the task looks at `class_file` at all.
    pub(crate) fn accepts(&self, class_file: &str) -> bool {
        (self.includes.is_empty() || self.includes.iter().any(|p| ant_match(p, class_file)))
            && !self.excludes.iter().any(|p| ant_match(p, class_file))
    }

    /// `include **/*Test.class, exclude **/*ManualTest.class`.
    pub(crate) fn describe(&self) -> String {
        let includes = self.includes.iter().map(|p| format!("include {p}"));
        let excludes = self.excludes.iter().map(|p| format!("exclude {p}"));
        includes.chain(excludes).collect::<Vec<_>>().join(", ")
    }
}

/// The class file of a binary class name: `a.B$C` → `a/B$C.class`.
pub(crate) fn class_file(binary_name: &str) -> String {
    format!("{}.class", binary_name.replace('.', "/"))
}

/// Ant-style matching as Gradle's `PatternSet` does it; a pattern ending in
/// `/` matches everything below that directory.
pub(crate) fn ant_match(pattern: &str, path: &str) -> bool {
    let pattern = pattern.replace('\\', "/");
    let pattern = match pattern.strip_suffix('/') {
        Some(dir) => format!("{dir}/**"),
        None => pattern,
    };
    let pat: Vec<&str> = pattern.split('/').filter(|s| !s.is_empty()).collect();
    let segs: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    segments_match(&pat, &segs)
}

fn segments_match(pat: &[&str], segs: &[&str]) -> bool {
    match pat.split_first() {
        None => segs.is_empty(),
        Some((&"**", rest)) => (0..=segs.len()).any(|skip| segments_match(rest, &segs[skip..])),
        Some((p, rest)) => segs
            .split_first()
            .is_some_and(|(s, more)| name_match(p, s) && segments_match(rest, more)),
    }
}

/// `*` any run of characters, `?` one character, within one path segment.
fn name_match(pattern: &str, name: &str) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let n: Vec<char> = name.chars().collect();
    let (mut pi, mut ni, mut star, mut mark) = (0, 0, None, 0);
    while ni < n.len() {
        if pi < p.len() && (p[pi] == '?' || p[pi] == n[ni]) {
            pi += 1;
            ni += 1;
        } else if pi < p.len() && p[pi] == '*' {
            star = Some(pi);
            mark = ni;
            pi += 1;
        } else if let Some(s) = star {
            pi = s + 1;
            mark += 1;
            ni = mark;
        } else {
            return false;
        }
    }
    p[pi..].iter().all(|&c| c == '*')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_have_shapes_and_bases() {
        let cases = [
            ("parses", Shape::Plain, "parses"),
            ("parses*", Shape::Pattern, "parses*"),
            ("test {yaml=a/b/c d}", Shape::Descriptor, "test"),
            ("test {p0=x}", Shape::Descriptor, "test"),
            ("encodes[2](flaky, x&y, x%26y)", Shape::TestNgRow, "encodes"),
            ("parses[2: flaky]", Shape::Case, "parses"),
            ("parses[0]", Shape::Case, "parses"),
            ("parses(String)[1]", Shape::Invocation, "parses"),
            ("parses a line", Shape::Other, "parses a line"),
        ];
        for (name, want, b) in cases {
            assert_eq!(shape(name), want, "{name}");
            assert_eq!(base(name), b, "{name}");
        }
    }

    #[test]
    fn filters_select_every_case_the_runner_names() {
        let junit = RunnerTraits {
            testng: false,
            parameterized_cases: true,
        };
        let testng = RunnerTraits {
            testng: true,
            parameterized_cases: true,
        };
        let randomized = RunnerTraits::default();
        let c = "com.example.KeyValueParserTest";
        assert_eq!(
            filters(c, Some("parses"), false, junit),
            [format!("{c}.parses"), format!("{c}.parses[*]")]
        );
        assert_eq!(
            filters(c, Some("parses"), false, testng),
            [format!("{c}.parses")]
        );
        assert_eq!(
            filters(c, Some("parses"), false, randomized),
            [format!("{c}.parses")]
        );
        assert_eq!(
            filters(c, Some("parses[2: flaky]"), false, junit),
            [format!("{c}.parses[2: flaky]")]
        );
        assert_eq!(
            filters(c, Some("encodes[2](flaky, x)"), false, testng),
            [format!("{c}.encodes")]
        );
        assert_eq!(
            filters(c, Some("test {yaml=a/b/c}"), false, randomized),
            [format!("{c}.test {{yaml=a/b/c}}")]
        );
        assert_eq!(
            filters(c, None, true, junit),
            [c.to_string(), format!("{c}$*")]
        );
        assert_eq!(filters(c, None, false, junit), [c.to_string()]);
        assert!(selects_more_than_named("encodes[2](flaky, x)"));
        assert!(!selects_more_than_named("parses[2: flaky]"));
    }

    #[test]
    fn a_selection_covers_its_cases_rows_and_nested_classes() {
        let c = "a.KeyValueParserTest";
        assert!(covers(c, Some("parses"), false, c, "parses[2: flaky]"));
        assert!(covers(c, Some("parses"), false, c, "parses"));
        assert!(!covers(c, Some("parses"), false, c, "parsesAll"));
        assert!(!covers(c, Some("parses"), false, c, "roundTrips[0: plain]"));
        assert!(covers(
            c,
            Some("parses[2: flaky]"),
            false,
            c,
            "parses[2: flaky]"
        ));
        assert!(!covers(
            c,
            Some("parses[2: flaky]"),
            false,
            c,
            "parses[1: spaces]"
        ));
        assert!(covers(c, Some("encodes[2](x)"), false, c, "encodes[0](y)"));
        assert!(covers(c, Some("*flaky*"), false, c, "roundTrips[2: flaky]"));
        assert!(covers(c, Some("testFoo"), false, c, "testFoo"));
        assert!(covers(c, None, true, "a.KeyValueParserTest$Inner", "x"));
        assert!(!covers(c, None, false, "a.KeyValueParserTest$Inner", "x"));
        assert!(!covers(c, None, true, "a.KeyValueParserTestOther", "x"));
        assert!(!covers(
            c,
            Some("x"),
            true,
            "a.KeyValueParserTest$Inner",
            "x"
        ));
    }

    #[test]
    fn reproduce_filters_name_what_gradle_can_select() {
        let r = |m| reproduce("a.T", m);
        assert_eq!(r("testFoo"), ("a.T.testFoo".to_string(), None));
        assert_eq!(
            r("parses[2: flaky]"),
            ("a.T.parses[2: flaky]".to_string(), None)
        );
        assert_eq!(r("encodes[2](flaky, x)"), ("a.T.encodes".to_string(), None));
        assert_eq!(r("parses(String)[1]"), ("a.T.parses".to_string(), None));
        assert_eq!(
            r("test {yaml=a/b/c}"),
            ("a.T".to_string(), Some("test {yaml=a/b/c}".to_string()))
        );
        assert_eq!(r("classMethod"), ("a.T".to_string(), None));
    }

    #[test]
    fn globs_and_ant_patterns_match_like_gradle() {
        assert!(glob("parses*", "parses[0: plain]"));
        assert!(glob("*flaky*", "parses[2: flaky]"));
        assert!(!glob("*flaky*", "parses[2: stable]"));
        assert!(glob("a*b*c", "abc"));
        assert!(!glob("a*b*c", "acb"));
        let app = Patterns {
            includes: vec!["**/*Test.class".into()],
            excludes: vec!["**/*ManualTest.class".into()],
        };
        assert!(app.accepts("com/example/app/AppTest.class"));
        assert!(!app.accepts("com/example/app/ExcludedManualTest.class"));
        assert!(!app.accepts("com/example/app/SmokeChecks.class"));
        assert!(!app.accepts("com/example/app/AppTest$Inner.class"));
        assert!(Patterns::default().accepts("a/B$C.class"));
        assert!(ant_match("**/*Tests*", "a/BTests$Inner.class"));
        assert!(ant_match("com/", "com/a/B.class"));
        assert!(!ant_match("*Test.class", "a/BTest.class"));
        assert!(ant_match("*Test.class", "BTest.class"));
        assert!(ant_match("a/?Test.class", "a/BTest.class"));
        assert_eq!(
            app.describe(),
            "include **/*Test.class, exclude **/*ManualTest.class"
        );
        assert_eq!(class_file("a.b.C$D"), "a/b/C$D.class");
    }

    #[test]
    fn ant_patterns_match_as_gradle_matches_them() {
        let yes = [
            ("**/*Tests.class", "org/e/FooTests.class"),
            ("**/*Tests.class", "FooTests.class"),
            ("org/**/Foo?ests.class", "org/a/b/FooTests.class"),
            ("org/", "org/a/B.class"),
            ("**/*IT.class", "a/b/C$DIT.class"),
            ("**/*", "a/B.class"),
            ("org\\e\\*.class", "org/e/X.class"),
        ];
        for (p, path) in yes {
            assert!(ant_match(p, path), "{p} should match {path}");
        }
        let no = [
            ("**/*Tests.class", "org/e/FooTests$Inner.class"),
            ("*Tests.class", "org/e/FooTests.class"),
            ("**/*tests.class", "org/e/FooTests.class"),
            ("org/*/B.class", "org/a/b/B.class"),
            ("**/PackageUpgradeTests.class", "org/e/PackageTests.class"),
        ];
        for (p, path) in no {
            assert!(!ant_match(p, path), "{p} should not match {path}");
        }
    }
}
