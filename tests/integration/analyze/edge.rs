//! Hostile and broken input: truncation, malformed XML, entity bombs, and a
//! 200 MB system-out read as a stream.

use super::reference::analyze_reports;
use super::{data, read, suite};
use gradle_flaky::analyze::read::junit::{self, State};
use std::io::Read;

#[test]
fn a_truncated_gradle_report_keeps_its_cases_before_the_cut() {
    let xml = std::fs::read_to_string(data(
        "junit-gradle/flaky-unit/TEST-org.elasticsearch.flaky.AssertionFlakyTests.xml",
    ))
    .unwrap();
    // Cut in the middle of the 15th case's name: 14 complete cases before it.
    let fifteenth = xml.match_indices("<testcase ").nth(14).unwrap().0;
    let cut = &xml[..fifteenth + 20];
    let r = analyze_reports(&[
        ("TEST-cut.xml", cut),
        (
            "TEST-ok.xml",
            &suite(r#"<testcase classname="D" name="x"/>"#),
        ),
    ]);
    assert_eq!(r.files.truncated.len(), 1);
    assert_eq!(r.files.truncated[0].cases, 14);
    assert!(r.files.truncated[0].path.ends_with("TEST-cut.xml"));
    assert!(r.files.malformed.is_empty());
    assert_eq!(
        r.summary.executions, 15,
        "14 cut cases and the other file's one"
    );
}

#[test]
fn a_malformed_offset_points_into_the_original_file_past_skipped_output() {
    let head = format!(
        r#"<testsuite><testcase classname="C" name="a"/><system-out><![CDATA[{}]]></system-out><testcase classname="C" name="b">"#,
        "x".repeat(1 << 20)
    );
    let xml = format!("{head}</wrong></testsuite>");
    let (execs, file) = read(xml.as_bytes());
    assert_eq!(execs.len(), 1);
    let State::Malformed { offset, message } = file.state else {
        panic!("{:?}", file.state)
    };
    assert_eq!(offset as usize, head.len(), "{message}");
}

/// The "billion laughs": ten levels of ten-fold entity expansion.
fn entity_bomb() -> String {
    let mut xml =
        String::from("<?xml version=\"1.0\"?>\n<!DOCTYPE lolz [\n<!ENTITY lol0 \"lol\">\n");
    for i in 1..=10 {
        let refs = format!("&lol{};", i - 1).repeat(10);
        xml.push_str(&format!("<!ENTITY lol{i} \"{refs}\">\n"));
    }
    xml.push_str("]>\n<testsuite><testcase classname=\"C\" name=\"&lol10;\"><failure message=\"&lol10;\"/></testcase></testsuite>\n");
    xml
}

#[test]
fn an_entity_bomb_is_refused_at_its_doctype_and_the_rest_is_analyzed() {
    let bomb = entity_bomb();
    let r = analyze_reports(&[
        ("TEST-bomb.xml", &bomb),
        (
            "TEST-ok.xml",
            &suite(r#"<testcase classname="D" name="x"/>"#),
        ),
    ]);
    assert_eq!(r.files.malformed.len(), 1);
    let refused = &r.files.malformed[0];
    assert_eq!(refused.offset as usize, bomb.find("<!DOCTYPE").unwrap());
    assert!(refused.error.contains("refused"), "{}", refused.error);
    assert_eq!((r.summary.executions, r.summary.failed), (1, 0));
}

#[test]
fn an_external_dtd_is_never_read() {
    let xml = r#"<?xml version="1.0"?><!DOCTYPE testsuite SYSTEM "/etc/passwd"><testsuite/>"#;
    let (execs, file) = read(xml.as_bytes());
    assert!(execs.is_empty());
    assert!(
        matches!(file.state, State::Malformed { offset: 21, .. }),
        "{:?}",
        file.state
    );
}

/// A report whose suite-level system-out is `size` bytes of log lines, produced
/// on the fly: it never exists in memory or on disk.
struct HugeOutput {
    parts: Vec<Vec<u8>>,
    line: Vec<u8>,
    body_left: usize,
    stage: usize,
    pos: usize,
}

impl HugeOutput {
    fn new(size: usize, cdata: bool) -> Self {
        let (open, close) = if cdata {
            ("<system-out><![CDATA[", "]]></system-out>")
        } else {
            ("<system-out>", "</system-out>")
        };
        let reproduce = if cdata {
            "REPRODUCE WITH: ./gradlew ':server:test' --tests \"org.example.BigTests.testFails\" -Dtests.seed=ABCDEF\n"
        } else {
            "REPRODUCE WITH: ./gradlew &apos;:server:test&apos; --tests &quot;org.example.BigTests.testFails&quot; -Dtests.seed=ABCDEF\n"
        };
        let head = format!(
            r#"<?xml version="1.0" encoding="UTF-8"?>
<testsuite name="org.example.BigTests">
<testcase classname="org.example.BigTests" name="testPasses"/>
<testcase classname="org.example.BigTests" name="testFails"><failure type="java.lang.AssertionError" message="boom"/></testcase>
{open}"#
        );
        let tail = format!("{reproduce}{close}\n<system-err/>\n</testsuite>\n");
        HugeOutput {
            parts: vec![head.into_bytes(), tail.into_bytes()],
            line: if cdata {
                b"[2026-12-01T10:00:00,000][INFO ][o.e.n.Node] node started <tag> & done\n".to_vec()
            } else {
                b"[2026-12-01T10:00:00,000][INFO ][o.e.n.Node] node started &lt;tag&gt; &amp; done\n"
                    .to_vec()
            },
            body_left: size,
            stage: 0,
            pos: 0,
        }
    }
}

impl Read for HugeOutput {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let src: &[u8] = match self.stage {
            0 => &self.parts[0],
            1 if self.body_left > 0 => {
                let n = buf.len().min(self.body_left);
                let mut filled = 0;
                while filled < n {
                    let piece = &self.line[self.pos..];
                    let k = piece.len().min(n - filled);
                    buf[filled..filled + k].copy_from_slice(&piece[..k]);
                    filled += k;
                    self.pos = (self.pos + k) % self.line.len();
                }
                self.body_left -= n;
                if self.body_left == 0 {
                    // End the body on a line boundary.
                    self.stage = 2;
                    self.pos = 0;
                    self.parts[1].insert(0, b'\n');
                }
                return Ok(n);
            }
            2 => &self.parts[1],
            _ => return Ok(0),
        };
        let n = buf.len().min(src.len() - self.pos);
        buf[..n].copy_from_slice(&src[self.pos..self.pos + n]);
        self.pos += n;
        if self.pos == src.len() {
            self.stage += 1;
            self.pos = 0;
        }
        Ok(n)
    }
}

fn check_huge_output(cdata: bool) {
    let (execs, file) = read(HugeOutput::new(200 << 20, cdata));
    assert_eq!(file.state, State::Complete);
    assert_eq!(file.counts.cases, 2);
    assert_eq!(execs.len(), 2);
    assert!(matches!(execs[1].result, junit::CaseResult::Failed(_)));
    assert_eq!(
        file.reproduce,
        vec![
            "./gradlew ':server:test' --tests \"org.example.BigTests.testFails\" -Dtests.seed=ABCDEF"
        ]
    );
}

#[test]
fn a_200_mb_system_out_in_cdata_is_streamed_through() {
    check_huge_output(true);
}

#[test]
fn a_200_mb_escaped_system_out_is_streamed_through() {
    check_huge_output(false);
}

#[test]
fn an_empty_report_is_truncated() {
    let r = analyze_reports(&[("TEST-empty.xml", "")]);
    assert_eq!(r.files.truncated.len(), 1);
    assert_eq!(r.summary.executions, 0);
}
