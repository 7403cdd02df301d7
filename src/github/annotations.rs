//! Workflow-command annotations (`::error file=…,line=…,title=…::message`):
//! one per failing test, placed on the test's source when the checkout has it.
//!
//! Everything in them (test names, messages, paths) comes from a branch, so
//! every value is escaped as GitHub's toolkit does: in the message `%`, `\r`
//! and `\n`; in a property also `:` and `,`, which would end it.

use crate::analyze::model::report::TestReport;
use crate::analyze::render;
use crate::analyze::rules::verdict::heap_only;
use crate::analyze::Report;
use crate::reports::walk::Walk;
use crate::select::source::{self, Language};
use std::path::{Path, PathBuf};

/// GitHub shows at most 10 error and 10 warning annotations of a step.
pub(crate) const MAX_PER_LEVEL: usize = 10;
/// Longest message kept (GitHub cuts long ones anyway; the summary has the rest).
const MAX_MESSAGE_CHARS: usize = 1500;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Level {
    Error,
    Warning,
    Notice,
}

impl Level {
    fn as_str(self) -> &'static str {
        match self {
            Level::Error => "error",
            Level::Warning => "warning",
            Level::Notice => "notice",
        }
    }
}

/// One annotation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct WorkflowAnnotation {
    pub level: Level,
    pub title: String,
    pub message: String,
    /// Relative to the repository root.
    pub file: Option<String>,
    pub line: Option<u32>,
}

impl WorkflowAnnotation {
    pub(crate) fn new(level: Level, title: impl Into<String>, message: impl Into<String>) -> Self {
        WorkflowAnnotation {
            level,
            title: title.into(),
            message: message.into(),
            file: None,
            line: None,
        }
    }

    /// The workflow command, one line.
    pub(crate) fn command(&self) -> String {
        let mut props = Vec::new();
        if let Some(file) = &self.file {
            props.push(format!("file={}", escape_property(file)));
            if let Some(line) = self.line {
                props.push(format!("line={line}"));
            }
        }
        if !self.title.is_empty() {
            props.push(format!("title={}", escape_property(&self.title)));
        }
        let props = if props.is_empty() {
            String::new()
        } else {
            format!(" {}", props.join(","))
        };
        format!(
            "::{}{props}::{}",
            self.level.as_str(),
            escape_data(&self.message)
        )
    }
}

/// A workflow command's message: `%`, `\r`, `\n` escaped.
pub(crate) fn escape_data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// A workflow command's property value: as a message, and `:` and `,` too.
pub(crate) fn escape_property(s: &str) -> String {
    escape_data(s).replace(':', "%3A").replace(',', "%2C")
}

/// The annotations of a report: an `error` for each test with a real failure
/// (flaky when it also passed), a `warning` for each test whose failures were
/// all the JVM running out of heap (`java.lang.OutOfMemoryError`), or that
/// hit the suite timeout; at most [`MAX_PER_LEVEL`] of each, and a
/// `notice` saying how many more the summary lists.
pub(crate) fn for_report(report: &Report, sources: &AnnotationSources) -> Vec<WorkflowAnnotation> {
    let mut errors = Vec::new();
    let mut warnings = Vec::new();
    for test in &report.tests {
        let annotation = if test.failures > 0 && !heap_only(test) {
            failing(test)
        } else if test.failures > 0 {
            WorkflowAnnotation::new(
                Level::Warning,
                format!("Out of heap: {}", short_name(test)),
                format!(
                    "{} failed {} of {} runs with java.lang.OutOfMemoryError: heap exhaustion, \
                     counted as infrastructure, not as flakiness.",
                    full_name(test),
                    test.failures,
                    test.runs
                ),
            )
        } else if test.suite_timeouts > 0 {
            WorkflowAnnotation::new(
                Level::Warning,
                format!("Suite timeout: {}", short_name(test)),
                format!(
                    "{} hit the suite timeout {} time(s): not counted as a failure, and no \
                     clean result either.",
                    full_name(test),
                    test.suite_timeouts
                ),
            )
        } else {
            continue;
        };
        match annotation.level {
            Level::Error => errors.push((test, annotation)),
            _ => warnings.push((test, annotation)),
        }
    }
    let more =
        errors.len().saturating_sub(MAX_PER_LEVEL) + warnings.len().saturating_sub(MAX_PER_LEVEL);
    let mut all: Vec<WorkflowAnnotation> = errors
        .into_iter()
        .take(MAX_PER_LEVEL)
        .chain(warnings.into_iter().take(MAX_PER_LEVEL))
        .map(|(test, annotation)| {
            let place = sources.place(&test.class, &test.method);
            WorkflowAnnotation {
                file: place.file,
                line: place.line,
                ..annotation
            }
        })
        .collect();
    if more > 0 {
        all.push(WorkflowAnnotation::new(
            Level::Notice,
            "More flakiness findings",
            format!("{more} more test(s) failed or timed out: see the job summary."),
        ));
    }
    all
}

fn failing(test: &TestReport) -> WorkflowAnnotation {
    let what = if test.passes > 0 {
        "Flaky test"
    } else {
        "Failing test"
    };
    let mut message = format!(
        "{} failed {} of {} runs: {}.",
        full_name(test),
        test.failures,
        test.runs,
        render::rate(test)
    );
    if let Some(example) = test.examples.first() {
        let first_line = example.message.lines().next().unwrap_or_default();
        let line = if first_line.starts_with(&example.type_name) {
            first_line.to_string()
        } else {
            format!("{}: {first_line}", example.type_name)
        };
        message.push_str(&format!("\n{line}"));
    }
    if let Some(reproduce) = &test.reproduce {
        message.push_str(&format!("\nReproduce with: {reproduce}"));
    }
    WorkflowAnnotation::new(
        Level::Error,
        format!("{what}: {}", short_name(test)),
        shorten(&message),
    )
}

fn full_name(test: &TestReport) -> String {
    format!("{}.{}", test.class, test.method)
}

/// `SimpleClass.method`.
fn short_name(test: &TestReport) -> String {
    let simple = test.class.rsplit(['.', '$']).next().unwrap_or(&test.class);
    format!("{simple}.{}", test.method)
}

fn shorten(s: &str) -> String {
    match s.char_indices().nth(MAX_MESSAGE_CHARS) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_string(),
    }
}

/// Where an annotation goes: a file relative to the repository root, and a line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Place {
    pub file: Option<String>,
    pub line: Option<u32>,
}

/// The test sources of a checkout, found once by walking it (build output,
/// VCS and tool folders left out).
#[derive(Clone, Debug, Default)]
pub(crate) struct AnnotationSources {
    root: PathBuf,
    /// Java, Groovy, Kotlin and YAML files, relative to the root, `/`-separated, sorted.
    files: Vec<String>,
}

impl AnnotationSources {
    /// Walks `root`, leaving out `skip` (the downloaded artifacts).
    pub(crate) fn scan(root: &Path, skip: &Path) -> AnnotationSources {
        let skip = std::fs::canonicalize(skip).unwrap_or_else(|_| skip.to_path_buf());
        let artifacts = |dir: &Path| std::fs::canonicalize(dir).is_ok_and(|d| d == skip);
        let mut files: Vec<String> = Walk::new(root)
            .pruning(&artifacts)
            .regular_files()
            .filter_map(|f| f.rel.to_str().map(str::to_string))
            .filter(|rel| {
                [".java", ".groovy", ".kt", ".yml", ".yaml"]
                    .iter()
                    .any(|ext| rel.ends_with(ext))
            })
            .collect();
        files.sort();
        AnnotationSources {
            root: root.to_path_buf(),
            files,
        }
    }

    /// The source of a test: the YAML suite and section of a YAML case
    /// (`test {yaml=api/file/section}`), else the class's file (an inner
    /// class's outer file) and the method's declaration, else the class's.
    pub(crate) fn place(&self, class: &str, method: &str) -> Place {
        if let Some(case) = yaml_case(method) {
            return self.yaml_place(case);
        }
        let outer = class.split('$').next().unwrap_or(class);
        let stem = outer.replace('.', "/");
        let Some(file) = ["java", "groovy", "kt"]
            .iter()
            .find_map(|ext| self.ending_with(&format!("{stem}.{ext}")))
        else {
            return Place::default();
        };
        let text = std::fs::read_to_string(self.root.join(file)).unwrap_or_default();
        let unit = Language::of_path(Path::new(file))
            .map(|lang| source::parse(&text, lang))
            .unwrap_or_default();
        let simple = outer.rsplit('.').next().unwrap_or(outer);
        let name: String = method
            .chars()
            .take_while(|c| source::is_word_char(*c))
            .collect();
        let line = unit
            .methods
            .iter()
            .find(|m| !name.is_empty() && m.name == name)
            .map(|m| m.line)
            .or_else(|| unit.types_named(simple).next().map(|t| t.line));
        Place {
            file: Some(file.to_string()),
            line,
        }
    }

    fn yaml_place(&self, case: &str) -> Place {
        // `api/file/section`: the api may hold `/`, the file none, the section any.
        for (i, _) in case.match_indices('/') {
            let suite = case[..i].trim_start_matches('/');
            let section = &case[i + 1..];
            if suite.is_empty() {
                continue;
            }
            let found = ["yml", "yaml"]
                .iter()
                .find_map(|ext| self.ending_with(&format!("rest-api-spec/test/{suite}.{ext}")));
            if let Some(file) = found {
                let text = std::fs::read_to_string(self.root.join(file)).unwrap_or_default();
                let headers = [
                    format!("\"{section}\":"),
                    format!("'{section}':"),
                    format!("{section}:"),
                ];
                let line = line_of(&text, |l| headers.iter().any(|h| l.trim_end() == h));
                return Place {
                    file: Some(file.to_string()),
                    line,
                };
            }
        }
        Place::default()
    }

    /// The first file whose path is `suffix` or ends with `/suffix`.
    fn ending_with(&self, suffix: &str) -> Option<&str> {
        self.files
            .iter()
            .find(|f| {
                f.as_str() == suffix
                    || f.strip_suffix(suffix)
                        .is_some_and(|head| head.ends_with('/'))
            })
            .map(String::as_str)
    }
}

/// The `api/file/section` of a YAML case's method name.
fn yaml_case(method: &str) -> Option<&str> {
    let start = method.find("{yaml=")? + "{yaml=".len();
    let end = method.rfind('}')?;
    (end > start).then(|| &method[start..end])
}

/// The 1-based number of the first line that matches.
fn line_of(text: &str, matches: impl Fn(&str) -> bool) -> Option<u32> {
    text.lines()
        .position(matches)
        .and_then(|i| u32::try_from(i + 1).ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_escaped_as_githubs_toolkit_escapes_them() {
        assert_eq!(escape_data("50% a\r\nb: c, d"), "50%25 a%0D%0Ab: c, d");
        assert_eq!(
            escape_property("50% a\r\nb: c, d"),
            "50%25 a%0D%0Ab%3A c%2C d"
        );
        let a = WorkflowAnnotation {
            level: Level::Error,
            title: "Flaky test: T.test {yaml=a/b,c::d}".into(),
            message: "x::warning::y\n::add-mask::z 100%".into(),
            file: Some("src/a,b:c.yml".into()),
            line: Some(7),
        };
        assert_eq!(
            a.command(),
            "::error file=src/a%2Cb%3Ac.yml,line=7,title=Flaky test%3A T.test {yaml=a/b%2Cc%3A%3Ad}::x::warning::y%0A::add-mask::z 100%25"
        );
        assert!(!a.command().contains('\n'));
        let bare = WorkflowAnnotation::new(Level::Notice, "", "m");
        assert_eq!(bare.command(), "::notice::m");
    }

    /// The report of one JUnit file of `org.x.ATests` with the given `(name, body)` cases.
    fn report(cases: &[(String, &str)]) -> Report {
        let dir = tempfile::tempdir().unwrap();
        let cases: String = cases
            .iter()
            .map(|(name, body)| {
                format!(r#"<testcase classname="org.x.ATests" name="{name}">{body}</testcase>"#)
            })
            .collect();
        let xml = format!(r#"<testsuite name="org.x.ATests">{cases}</testsuite>"#);
        write(
            dir.path(),
            "p/build/test-results/test/TEST-org.x.ATests.xml",
            &xml,
        );
        crate::analyze::analyze_root(dir.path(), &Default::default())
    }

    #[test]
    fn failing_tests_are_errors_and_the_rest_warnings_capped_per_level() {
        let fail =
            r#"<failure type="java.lang.AssertionError" message="boom: 50%">trace</failure>"#;
        let oom = r#"<failure type="java.lang.OutOfMemoryError" message="Java heap space"/>"#;
        let timeout = r#"<failure type="java.lang.Exception" message="Test abandoned because suite timeout was reached."/>"#;
        let mut cases = vec![
            ("testFlaky".to_string(), fail),
            ("testFlaky".to_string(), ""),
            ("testHeap".to_string(), oom),
            ("testSlow".to_string(), timeout),
        ];
        let with =
            |cases: &[(String, &str)]| for_report(&report(cases), &AnnotationSources::default());
        let found = with(&cases);
        let titles: Vec<(Level, &str)> =
            found.iter().map(|a| (a.level, a.title.as_str())).collect();
        assert_eq!(
            titles,
            [
                (Level::Error, "Flaky test: ATests.testFlaky"),
                (Level::Warning, "Out of heap: ATests.testHeap"),
                (Level::Warning, "Suite timeout: ATests.testSlow")
            ]
        );
        assert!(
            found[0].message.starts_with(
                "org.x.ATests.testFlaky failed 1 of 2 runs: 50% (9.4%–90.6%).\njava.lang.AssertionError: boom: 50%\nReproduce with: ./gradlew :p:cleanTest :p:test --tests org.x.ATests.testFlaky"
            ),
            "{}",
            found[0].message
        );

        cases.extend((0..12).map(|i| (format!("testMore{i}"), fail)));
        let found = with(&cases);
        let errors = found.iter().filter(|a| a.level == Level::Error).count();
        assert_eq!(errors, MAX_PER_LEVEL);
        let last = found.last().unwrap();
        assert_eq!(
            (last.level, last.message.as_str()),
            (
                Level::Notice,
                "3 more test(s) failed or timed out: see the job summary."
            )
        );
    }

    fn write(root: &Path, rel: &str, text: &str) {
        let path = root.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    #[test]
    fn tests_are_placed_on_their_source() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        write(
            root,
            "server/src/test/java/org/x/FooTests.java",
            "package org.x;\n\npublic class FooTests {\n    public void testBar() {}\n\n    @Test\n    public void testFlaky() {\n        testBar();\n    }\n}\n",
        );
        write(
            root,
            "server/build/generated/org/x/FooTests.java",
            "class FooTests { void testFlaky() {} }",
        );
        write(
            root,
            "p/src/yamlRestTest/resources/rest-api-spec/test/painless/40_${{ x }}.yml",
            "---\n\"Pwned $(touch pwned)\":\n  - do: {}\n",
        );
        write(
            root,
            "p/src/yamlRestTest/resources/rest-api-spec/test/10_info.yaml",
            "setup:\n  - do: {}\nTest info:\n  - do: {}\n",
        );
        write(root, "artifacts/org/x/GoneTests.java", "class GoneTests {}");
        let sources = AnnotationSources::scan(root, &root.join("artifacts"));
        let place = |class: &str, method: &str| sources.place(class, method);
        let file = |f: &str| Some(f.to_string());
        assert_eq!(
            place("org.x.FooTests", "testFlaky"),
            Place {
                file: file("server/src/test/java/org/x/FooTests.java"),
                line: Some(7)
            }
        );
        assert_eq!(
            place("org.x.FooTests$Inner", "testFlaky[2]").line,
            Some(7),
            "an inner class is in its outer class's file"
        );
        assert_eq!(
            place("org.x.FooTests", "inherited").line,
            Some(3),
            "the class when the method is declared elsewhere"
        );
        assert_eq!(
            place(
                "org.x.Runner",
                "test {yaml=painless/40_${{ x }}/Pwned $(touch pwned)}"
            ),
            Place {
                file: file(
                    "p/src/yamlRestTest/resources/rest-api-spec/test/painless/40_${{ x }}.yml"
                ),
                line: Some(2)
            }
        );
        assert_eq!(
            place("org.x.Runner", "test {yaml=/10_info/Test info}").line,
            Some(3)
        );
        assert_eq!(place("org.x.GoneTests", "testA"), Place::default());
        assert_eq!(
            place("org.x.Runner", "test {yaml=nope/x/y}"),
            Place::default()
        );
    }
}
