//! The streaming JUnit XML reader: one report file in, one [`Execution`] per test
//! execution out, plus per-file counts and the file's state (complete,
//! truncated, malformed).
//!
//! Understands what Gradle, Maven Surefire and most other producers write:
//! `<testsuites>` wrappers and nested suites, `<testcase>` with `<failure>`,
//! `<error>` (self-closing or with a body, `message` attribute or body text,
//! CDATA), `<skipped>`, and Surefire's `flakyFailure`/`flakyError` (failed
//! attempts of a test whose last attempt passed) and `rerunFailure`/`rerunError`
//! (failed re-runs of a failed test): each of those is one more failed execution.
//! Bulk output never reaches the parser: see [`crate::analyze::read::filter`].

use crate::analyze::model::report::FileCounts;
use crate::analyze::read::filter::{RawReproLine, StreamFilter, TEXT_CAP};
use quick_xml::errors::{Error as XmlError, SyntaxError};
use quick_xml::events::{BytesStart, Event};
use quick_xml::Reader;
use std::io::Read;

/// Deeper element nesting than this is refused (it only serves to exhaust memory).
const MAX_DEPTH: usize = 256;

/// One failure, error or failed re-run of a test case.
#[derive(Debug, Clone, PartialEq)]
pub struct Failure {
    /// The `type` attribute (an exception class name), `""` when absent.
    pub type_name: String,
    /// The `message` attribute when non-empty, else the body text; at most 16 KiB.
    pub message: String,
    /// The randomized runner's seed from the stack trace
    /// (`__randomizedtesting.SeedInfo.seed([A:B]:0)`), if the body has one.
    pub seed: Option<String>,
}

/// How one execution of a test ended.
#[derive(Debug, Clone, PartialEq)]
pub enum CaseResult {
    Passed,
    Skipped,
    Failed(Failure),
}

/// One execution of a test, as the report records it.
#[derive(Debug, Clone, PartialEq)]
pub struct Execution<'a> {
    /// The `classname` attribute, `""` when absent.
    pub class: &'a str,
    /// The raw `name` attribute (seed and iteration tokens still in it).
    pub name: &'a str,
    /// Seconds, when the case has a readable `time` (only on its final execution).
    pub time: Option<f64>,
    /// The case's own (final) result; false for a flaky or rerun attempt, which
    /// is reported as soon as it is read.
    pub primary: bool,
    pub result: CaseResult,
}

/// Whether the whole file could be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum State {
    Complete,
    /// The file ends before the document does (the writer was killed).
    Truncated,
    /// Not well-formed, or refused, at `offset` bytes into the file.
    Malformed {
        offset: u64,
        message: String,
    },
    /// The file could not be read at all.
    Unreadable(String),
}

/// What reading one file found, besides the executions handed to the callback.
#[derive(Debug, Clone, PartialEq)]
pub struct FileRead {
    pub counts: FileCounts,
    pub state: State,
    /// `REPRODUCE WITH:` lines from the system streams (the text after the marker).
    pub reproduce: Vec<String>,
    /// Each `<testsuite>` that names its start (`timestamp`), in file order,
    /// at most [`MAX_SUITES`]: the order of a Gradle run's classes.
    pub suites: Vec<Suite>,
}

/// A `<testsuite>`'s name and start, as written (Gradle writes
/// `2026-12-05T09:37:43`: whole seconds, local time, no zone).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Suite {
    pub name: String,
    pub timestamp: String,
}

/// Suites of one file kept (Gradle writes one per file).
const MAX_SUITES: usize = 64;

/// Reads one report, calling `on_execution` for every execution in file order.
/// Never fails: problems are reported in [`FileRead::state`], and the cases read
/// before a problem are kept.
pub fn read(src: impl Read, mut on_execution: impl FnMut(Execution<'_>)) -> FileRead {
    let mut reader = Reader::from_reader(StreamFilter::new(src));
    let mut parser = ReportParser::default();
    let mut buf = Vec::new();
    let state = loop {
        buf.clear();
        let event = reader.read_event_into(&mut buf);
        let event = match event {
            Ok(event) => event,
            Err(err) => {
                let filter = reader.get_ref();
                let offset = filter.original_offset(reader.error_position());
                break error_state(&err, filter.refusal().map(|r| r.offset), offset);
            }
        };
        if let Event::Eof = event {
            break if parser.depth > 0 || !parser.seen_root {
                State::Truncated
            } else {
                State::Complete
            };
        }
        if let Err(message) = parser.on_event(event, &mut on_execution) {
            let position = reader.buffer_position();
            let offset = reader.get_ref().original_offset(position);
            break State::Malformed { offset, message };
        }
        let position = reader.buffer_position();
        reader.get_mut().release_before(position);
    };
    if state != State::Complete {
        parser.close_cut_case(&mut on_execution);
    }
    let reproduce = reader
        .get_mut()
        .take_repro_lines()
        .into_iter()
        .map(decode_repro)
        .collect();
    FileRead {
        counts: parser.counts,
        state,
        reproduce,
        suites: parser.suites,
    }
}

fn error_state(err: &XmlError, refused_at: Option<u64>, offset: u64) -> State {
    let malformed = State::Malformed {
        offset: refused_at.unwrap_or(offset),
        message: err.to_string(),
    };
    match err {
        _ if refused_at.is_some() => malformed,
        XmlError::Io(e) => State::Unreadable(e.to_string()),
        // These are all "the input ended inside a construct" (any other `<!`
        // markup was refused by the filter before the parser saw it).
        XmlError::Syntax(
            SyntaxError::InvalidBangMarkup
            | SyntaxError::UnclosedCData
            | SyntaxError::UnclosedComment
            | SyntaxError::UnclosedDoctype
            | SyntaxError::UnclosedPI
            | SyntaxError::UnclosedXmlDecl
            | SyntaxError::UnclosedTag
            | SyntaxError::UnclosedSingleQuotedAttributeValue
            | SyntaxError::UnclosedDoubleQuotedAttributeValue,
        ) => State::Truncated,
        _ => malformed,
    }
}

fn decode_repro(line: RawReproLine) -> String {
    let text = String::from_utf8_lossy(&line.bytes);
    let text = if line.escaped {
        quick_xml::escape::unescape(&text).map_or_else(|_| text.to_string(), |t| t.into_owned())
    } else {
        text.into_owned()
    };
    text.trim()
        .chars()
        .filter(|c| !c.is_control() || *c == '\t')
        .collect()
}

/// The test case being read.
#[derive(Debug, Default)]
struct Case {
    depth: usize,
    class: String,
    name: String,
    time_text: String,
    time: Option<f64>,
    primary: Option<Failure>,
    skipped: bool,
    has_failure: bool,
    has_error: bool,
}

impl Case {
    /// Empties the case, keeping its buffers' capacity.
    fn reset(&mut self) {
        self.class.clear();
        self.name.clear();
        self.time_text.clear();
        self.time = None;
        self.primary = None;
        self.skipped = false;
        self.has_failure = false;
        self.has_error = false;
    }
}

/// A failure-like element whose body is being read.
#[derive(Debug)]
struct FailureBody {
    depth: usize,
    /// `failure`/`error` (the case's own result) rather than a flaky/rerun attempt.
    primary: bool,
    type_name: String,
    message: String,
    text: String,
}

#[derive(Debug, Default)]
struct ReportParser {
    depth: usize,
    seen_root: bool,
    case: Option<Case>,
    /// A finished case, kept for its buffers.
    spare: Case,
    body: Option<FailureBody>,
    counts: FileCounts,
    suites: Vec<Suite>,
}

type ExecutionSink<'s> = dyn FnMut(Execution<'_>) + 's;

impl ReportParser {
    fn on_event(
        &mut self,
        event: Event<'_>,
        sink: &mut ExecutionSink<'_>,
    ) -> std::result::Result<(), String> {
        match event {
            Event::Start(e) => {
                self.depth += 1;
                self.seen_root = true;
                if self.depth > MAX_DEPTH {
                    return Err(format!("elements nested deeper than {MAX_DEPTH}"));
                }
                self.on_open(&e, sink);
            }
            Event::Empty(e) => {
                self.seen_root = true;
                self.depth += 1;
                self.on_open(&e, sink);
                self.on_close(sink);
                self.depth -= 1;
            }
            Event::End(_) => {
                self.on_close(sink);
                self.depth = self.depth.saturating_sub(1);
            }
            // Text matters only inside a failure body.
            Event::Text(_) | Event::CData(_) | Event::GeneralRef(_) if self.body.is_none() => {}
            Event::Text(t) => self.on_text(&String::from_utf8_lossy(&t)),
            Event::CData(t) => self.on_text(&String::from_utf8_lossy(&t)),
            Event::GeneralRef(r) => {
                let name = String::from_utf8_lossy(&r);
                match r.resolve_char_ref() {
                    Ok(Some(c)) => self.on_text(c.encode_utf8(&mut [0; 4])),
                    _ => match quick_xml::escape::resolve_predefined_entity(&name) {
                        Some(s) => self.on_text(s),
                        // Undeclared: kept as written (nothing is ever expanded).
                        None => self.on_text(&format!("&{name};")),
                    },
                }
            }
            Event::DocType(_) => return Err("document type declarations are refused".into()),
            Event::Comment(_) | Event::Decl(_) | Event::PI(_) | Event::Eof => {}
        }
        Ok(())
    }

    fn on_open(&mut self, e: &BytesStart<'_>, sink: &mut ExecutionSink<'_>) {
        let local = e.local_name();
        let name = local.as_ref();
        let Some(case) = self.case.as_mut() else {
            if name == b"testsuite" {
                self.on_suite(e);
            }
            if name == b"testcase" {
                self.counts.cases += 1;
                // The previous case's buffers are reused: no allocation per case.
                let mut case = std::mem::take(&mut self.spare);
                let Case {
                    class,
                    name,
                    time_text,
                    ..
                } = &mut case;
                attrs_into(
                    e,
                    [b"classname", b"name", b"time"],
                    [class, name, time_text],
                );
                case.time = parse_time(&case.time_text);
                case.depth = self.depth;
                self.case = Some(case);
            }
            return;
        };
        if self.depth != case.depth + 1 {
            return;
        }
        let primary = match name {
            b"failure" => {
                case.has_failure = true;
                true
            }
            b"error" => {
                case.has_error = true;
                true
            }
            b"skipped" => {
                case.skipped = true;
                return;
            }
            b"flakyFailure" | b"flakyError" => {
                self.counts.flaky += 1;
                false
            }
            b"rerunFailure" | b"rerunError" => {
                self.counts.rerun += 1;
                false
            }
            _ => return,
        };
        // Only the first failure or error decides the case's own result.
        if primary && (case.primary.is_some() || self.body.as_ref().is_some_and(|b| b.primary)) {
            return;
        }
        if let Some(body) = self.body.take() {
            self.finish_body(body, sink);
        }
        let (mut type_name, mut message) = (String::new(), String::new());
        attrs_into(e, [b"type", b"message"], [&mut type_name, &mut message]);
        self.body = Some(FailureBody {
            depth: self.depth,
            primary,
            type_name,
            message,
            text: String::new(),
        });
    }

    fn on_close(&mut self, sink: &mut ExecutionSink<'_>) {
        if self.body.as_ref().is_some_and(|b| b.depth == self.depth) {
            let body = self.body.take().expect("checked above");
            self.finish_body(body, sink);
        }
        if self.case.as_ref().is_some_and(|c| c.depth == self.depth) {
            let case = self.case.take().expect("checked above");
            self.finish_case(case, sink);
        }
    }

    fn on_text(&mut self, text: &str) {
        if let Some(body) = self.body.as_mut() {
            push_capped(&mut body.text, text, TEXT_CAP);
        }
    }

    fn finish_body(&mut self, body: FailureBody, sink: &mut ExecutionSink<'_>) {
        let failure = Failure {
            seed: trace_seed(&body.text),
            type_name: body.type_name,
            message: if body.message.is_empty() {
                body.text
            } else {
                body.message
            },
        };
        let Some(case) = self.case.as_mut() else {
            return;
        };
        if body.primary {
            case.primary = Some(failure);
        } else {
            sink(Execution {
                class: &case.class,
                name: &case.name,
                time: None,
                primary: false,
                result: CaseResult::Failed(failure),
            });
        }
    }

    fn finish_case(&mut self, mut case: Case, sink: &mut ExecutionSink<'_>) {
        self.counts.with_failure += u64::from(case.has_failure);
        self.counts.with_error += u64::from(case.has_error);
        self.counts.with_skipped += u64::from(case.skipped);
        let result = match case.primary.take() {
            Some(failure) => CaseResult::Failed(failure),
            None if case.skipped => CaseResult::Skipped,
            None => CaseResult::Passed,
        };
        sink(Execution {
            class: &case.class,
            name: &case.name,
            time: case.time,
            primary: true,
            result,
        });
        case.reset();
        self.spare = case;
    }

    /// Keeps a suite's name and start when it has both.
    fn on_suite(&mut self, e: &BytesStart<'_>) {
        if self.suites.len() >= MAX_SUITES {
            return;
        }
        let (mut name, mut timestamp) = (String::new(), String::new());
        attrs_into(e, [b"name", b"timestamp"], [&mut name, &mut timestamp]);
        if !name.is_empty() && !timestamp.is_empty() && timestamp.len() <= 40 {
            self.suites.push(Suite { name, timestamp });
        }
    }

    /// The file ended or broke inside a case: keep what was read of it when that
    /// decides its result; an undecided case is not counted.
    fn close_cut_case(&mut self, sink: &mut ExecutionSink<'_>) {
        if let Some(body) = self.body.take() {
            self.finish_body(body, sink);
        }
        let Some(case) = self.case.take() else {
            return;
        };
        if case.primary.is_some() || case.skipped {
            self.finish_case(case, sink);
        } else {
            self.counts.cases -= 1;
        }
    }
}

/// The seed in a randomized runner's stack trace: `SeedInfo.seed([A:B]:0)` → `A:B`.
fn trace_seed(trace: &str) -> Option<String> {
    const MARK: &str = "SeedInfo.seed([";
    let start = trace.find(MARK)? + MARK.len();
    let len = trace[start..].find(']')?;
    let seed = &trace[start..start + len];
    let valid = !seed.is_empty() && seed.bytes().all(|b| b.is_ascii_hexdigit() || b == b':');
    valid.then(|| seed.to_string())
}

/// Writes the values of the named attributes into `out` (cleared first; left
/// empty when absent), references decoded; a value with bad references is kept
/// as written.
fn attrs_into<const N: usize>(e: &BytesStart<'_>, keys: [&[u8]; N], mut out: [&mut String; N]) {
    for value in out.iter_mut() {
        value.clear();
    }
    for a in e.attributes().with_checks(false).flatten() {
        let Some(i) = keys.iter().position(|k| *k == a.key.local_name().as_ref()) else {
            continue;
        };
        let raw = String::from_utf8_lossy(&a.value);
        out[i].clear();
        match quick_xml::escape::unescape(&raw) {
            Ok(s) => out[i].push_str(&s),
            Err(_) => out[i].push_str(&raw),
        }
    }
}

/// Appends `s` to `to` while `to` stays within `cap` bytes, cut on a char boundary.
pub fn push_capped(to: &mut String, s: &str, cap: usize) {
    let room = cap.saturating_sub(to.len());
    to.push_str(&s[..floor_char_boundary(s, room)]);
}

/// The largest char boundary of `s` at or below `i`.
pub fn floor_char_boundary(s: &str, i: usize) -> usize {
    if i >= s.len() {
        return s.len();
    }
    (0..=i).rev().find(|&j| s.is_char_boundary(j)).unwrap_or(0)
}

/// Parses a `time` attribute: seconds, possibly with comma thousands separators
/// (`14,029.255`, Surefire 3.1.0) or a decimal comma (`0,5`).
pub fn parse_time(s: &str) -> Option<f64> {
    let s = s.trim();
    let seconds = if !s.contains(',') {
        s.parse::<f64>()
    } else if s.contains('.') || s.matches(',').count() > 1 || is_grouped(s) {
        s.replace(',', "").parse()
    } else {
        s.replace(',', ".").parse()
    };
    seconds.ok().filter(|t| t.is_finite() && *t >= 0.0)
}

/// `1,234` style: digit groups of three after the first comma.
fn is_grouped(s: &str) -> bool {
    s.split_once(',').is_some_and(|(head, tail)| {
        !head.is_empty()
            && head.len() <= 3
            && tail.len() == 3
            && tail.bytes().all(|b| b.is_ascii_digit())
            && head.bytes().all(|b| b.is_ascii_digit())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An execution with owned names, for assertions.
    #[derive(Debug, Clone, PartialEq)]
    pub struct Exec {
        pub class: String,
        pub name: String,
        pub time: Option<f64>,
        pub result: CaseResult,
    }

    pub fn read_all(xml: &[u8]) -> (Vec<Exec>, FileRead) {
        let mut execs = Vec::new();
        let file = read(xml, |e| {
            execs.push(Exec {
                class: e.class.to_string(),
                name: e.name.to_string(),
                time: e.time,
                result: e.result,
            })
        });
        (execs, file)
    }

    fn names_and_results(execs: &[Exec]) -> Vec<(&str, CaseResult)> {
        execs
            .iter()
            .map(|e| (e.name.as_str(), e.result.clone()))
            .collect()
    }

    fn failed(type_name: &str, message: &str) -> CaseResult {
        CaseResult::Failed(Failure {
            type_name: type_name.into(),
            message: message.into(),
            seed: None,
        })
    }

    #[test]
    fn finds_the_seed_in_a_randomized_stack_trace() {
        let xml = br#"<s><testcase classname="C" name="a"><failure message="java.lang.AssertionError: x" type="java.lang.AssertionError">java.lang.AssertionError: x
	at __randomizedtesting.SeedInfo.seed([1A2B3C4D5E6F7081:83A9C1D0E2F3A4B5]:0)
</failure></testcase></s>"#;
        let (execs, _) = read_all(xml);
        match &execs[0].result {
            CaseResult::Failed(f) => {
                assert_eq!(f.message, "java.lang.AssertionError: x");
                assert_eq!(f.seed.as_deref(), Some("1A2B3C4D5E6F7081:83A9C1D0E2F3A4B5"));
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(trace_seed("SeedInfo.seed([not hex]:0)"), None);
    }

    #[test]
    fn reads_passes_failures_errors_and_skips_in_nested_suites() {
        let xml = br#"<?xml version="1.0" encoding="UTF-8"?>
<testsuites>
  <testsuite name="outer">
    <testsuite name="A">
      <testcase classname="A" name="pass" time="0.5"/>
      <testcase classname="A" name="fail"><failure type="java.lang.AssertionError" message="boom">trace</failure></testcase>
    </testsuite>
    <testsuite name="B">
      <testcase classname="B" name="err"><error type="java.lang.RuntimeException"/></testcase>
      <testcase classname="B" name="skip"><skipped/></testcase>
    </testsuite>
  </testsuite>
</testsuites>"#;
        let (execs, file) = read_all(xml);
        assert_eq!(file.state, State::Complete);
        let results = names_and_results(&execs);
        assert_eq!(
            results,
            vec![
                ("pass", CaseResult::Passed),
                ("fail", failed("java.lang.AssertionError", "boom")),
                ("err", failed("java.lang.RuntimeException", "")),
                ("skip", CaseResult::Skipped),
            ]
        );
        assert_eq!(execs[0].time, Some(0.5));
        assert_eq!(
            file.counts,
            FileCounts {
                cases: 4,
                with_failure: 1,
                with_error: 1,
                with_skipped: 1,
                flaky: 0,
                rerun: 0
            }
        );
    }

    #[test]
    fn message_attribute_wins_over_the_body_and_the_body_fills_in() {
        let xml = br#"<s>
<testcase classname="C" name="a"><failure message="attr wins">body loses</failure></testcase>
<testcase classname="C" name="b"><failure message="">body text must be used</failure></testcase>
<testcase classname="C" name="c"><failure>expected:&lt;1&gt; but was:&lt;2&gt; &#65;&#x42;</failure></testcase>
<testcase classname="C" name="d"><error type="java.lang.RuntimeException"><![CDATA[boom
	at Foo.bar(Foo.java:42)]]></error></testcase>
</s>"#;
        let (execs, _) = read_all(xml);
        let messages: Vec<_> = execs
            .iter()
            .map(|e| match &e.result {
                CaseResult::Failed(f) => f.message.clone(),
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(
            messages,
            vec![
                "attr wins",
                "body text must be used",
                "expected:<1> but was:<2> AB",
                "boom\n\tat Foo.bar(Foo.java:42)"
            ]
        );
    }

    #[test]
    fn only_the_first_failure_of_a_case_counts() {
        let xml = br#"<s><testcase classname="C" name="a"><failure message="one"/><error message="two"/><failure message="three"/></testcase></s>"#;
        let (execs, file) = read_all(xml);
        assert_eq!(execs.len(), 1);
        assert_eq!(execs[0].result, failed("", "one"));
        assert_eq!((file.counts.with_failure, file.counts.with_error), (1, 1));
    }

    #[test]
    fn surefire_flaky_and_rerun_elements_are_failed_executions() {
        let xml = br#"<testsuite>
<testcase classname="C" name="flaky">
  <flakyFailure message="first" type="org.opentest4j.AssertionFailedError"><stackTrace>trace</stackTrace></flakyFailure>
  <flakyError type="java.lang.RuntimeException"><stackTrace><![CDATA[second]]></stackTrace></flakyError>
</testcase>
<testcase classname="C" name="always">
  <failure message="f1" type="T"/>
  <rerunFailure message="f2" type="T"/>
  <rerunError message="f3" type="T"><stackTrace>x</stackTrace><system-out>noise</system-out></rerunError>
</testcase>
</testsuite>"#;
        let (execs, file) = read_all(xml);
        let results = names_and_results(&execs);
        assert_eq!(
            results,
            vec![
                (
                    "flaky",
                    failed("org.opentest4j.AssertionFailedError", "first")
                ),
                ("flaky", failed("java.lang.RuntimeException", "second")),
                ("flaky", CaseResult::Passed),
                ("always", failed("T", "f2")),
                ("always", failed("T", "f3")),
                ("always", failed("T", "f1")),
            ]
        );
        assert_eq!((file.counts.flaky, file.counts.rerun), (2, 2));
    }

    #[test]
    fn time_accepts_comma_thousands() {
        assert_eq!(parse_time("14,029.255"), Some(14029.255));
        assert_eq!(parse_time("1,234"), Some(1234.0));
        assert_eq!(parse_time("1,234,567"), Some(1234567.0));
        assert_eq!(parse_time("0,5"), Some(0.5));
        assert_eq!(parse_time("0.010"), Some(0.01));
        assert_eq!(parse_time("<<computed>>"), None);
        assert_eq!(parse_time("-1"), None);
        let (execs, _) = read_all(br#"<s><testcase classname="C" name="a" time="1,002.5"/></s>"#);
        assert_eq!(execs[0].time, Some(1002.5));
    }

    #[test]
    fn a_huge_failure_body_is_capped() {
        let body = "x".repeat(4 << 20);
        let xml = format!(
            r#"<s><testcase classname="C" name="a"><failure type="java.lang.AssertionError"><![CDATA[{body}]]></failure></testcase></s>"#
        );
        let (execs, file) = read_all(xml.as_bytes());
        assert_eq!(file.state, State::Complete);
        match &execs[0].result {
            CaseResult::Failed(f) => assert_eq!(f.message.len(), TEXT_CAP),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn system_streams_are_skipped_and_scanned_for_reproduce_lines() {
        let xml = br#"<s>
<testcase classname="C" name="a"><system-out>REPRODUCE WITH: ./gradlew &quot;:x:test&quot; --tests &quot;C.a&quot;</system-out><failure message="boom"/></testcase>
<system-err><![CDATA[<testcase name="fake"/>
REPRODUCE WITH: ./gradlew ':y:test' --tests "C.b" -Dtests.seed=ABC
]]></system-err>
</s>"#;
        let (execs, file) = read_all(xml);
        assert_eq!(file.state, State::Complete);
        assert_eq!(execs.len(), 1);
        assert_eq!(execs[0].result, failed("", "boom"));
        assert_eq!(
            file.reproduce,
            vec![
                "./gradlew \":x:test\" --tests \"C.a\"",
                "./gradlew ':y:test' --tests \"C.b\" -Dtests.seed=ABC"
            ]
        );
    }

    #[test]
    fn a_truncated_file_keeps_the_cases_before_the_cut() {
        let full = br#"<testsuite><testcase classname="C" name="a"/><testcase classname="C" name="b"><failure message="boom">trace trace</failure></testcase><testcase classname="C" name="c"/></testsuite>"#;
        for cut in 0..full.len() {
            let (execs, file) = read_all(&full[..cut]);
            assert_eq!(file.state, State::Truncated, "cut at {cut}");
            let complete_a = cut >= full.iter().position(|&b| b == b'/').unwrap() + 2;
            assert_eq!(
                execs.iter().any(|e| e.name == "a"),
                complete_a,
                "cut at {cut}: {execs:?}"
            );
            assert_eq!(file.counts.cases, execs.len() as u64, "cut at {cut}");
        }
        let (_, file) = read_all(full);
        assert_eq!(file.state, State::Complete);
    }

    #[test]
    fn a_case_cut_inside_its_failure_counts_as_failed() {
        let xml = br#"<testsuite><testcase classname="C" name="a"><failure type="java.lang.AssertionError"><![CDATA[java.lang.AssertionError: WRONG"#;
        let (execs, file) = read_all(xml);
        assert_eq!(file.state, State::Truncated);
        assert_eq!(
            execs[0].result,
            failed(
                "java.lang.AssertionError",
                "java.lang.AssertionError: WRONG"
            )
        );
    }

    #[test]
    fn malformed_xml_is_reported_with_its_offset() {
        let xml =
            b"<testsuite><testcase classname=\"C\" name=\"a\"/><testcase name=\"b\"></testsuite>";
        let (execs, file) = read_all(xml);
        assert_eq!(execs.len(), 1);
        match file.state {
            State::Malformed { offset, .. } => {
                assert!(offset >= 64 && offset <= xml.len() as u64, "{offset}")
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn an_entity_bomb_is_refused_at_the_doctype() {
        let mut xml =
            String::from("<?xml version=\"1.0\"?>\n<!DOCTYPE lolz [\n <!ENTITY lol \"lol\">\n");
        for i in 1..10 {
            let prev = if i == 1 {
                "lol".to_string()
            } else {
                format!("lol{}", i - 1)
            };
            xml.push_str(&format!(
                " <!ENTITY lol{i} \"{}\">\n",
                format!("&{prev};").repeat(10)
            ));
        }
        xml.push_str("]>\n<testsuite><testcase classname=\"C\" name=\"&lol9;\"/></testsuite>");
        let (execs, file) = read_all(xml.as_bytes());
        assert!(execs.is_empty());
        match file.state {
            State::Malformed { offset, message } => {
                assert_eq!(offset, 22);
                assert!(message.contains("refused"), "{message}");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn an_undeclared_entity_is_kept_literally() {
        let (execs, file) = read_all(
            br#"<s><testcase classname="C" name="a"><failure>x &lol; y</failure></testcase></s>"#,
        );
        assert_eq!(file.state, State::Complete);
        assert_eq!(execs[0].result, failed("", "x &lol; y"));
    }

    #[test]
    fn a_byte_order_mark_and_crlf_lines_are_accepted() {
        let (execs, file) = read_all(
            b"\xef\xbb\xbf<?xml version=\"1.0\"?>\r\n<testsuite>\r\n<testcase classname=\"A\" name=\"a\"/>\r\n</testsuite>\r\n",
        );
        assert_eq!(file.state, State::Complete);
        assert_eq!(execs.len(), 1);
    }

    #[test]
    fn an_empty_file_is_truncated() {
        let (execs, file) = read_all(b"");
        assert!(execs.is_empty());
        assert_eq!(file.state, State::Truncated);
    }
}
