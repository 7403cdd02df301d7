//! Properties of the reader: any bytes are handled without a panic, and a real
//! report cut anywhere still yields every case that ended before the cut.

use super::{data, read, Exec};
use gradle_flaky::analyze::read::junit::State;
use proptest::prelude::*;
use quick_xml::events::Event;

/// Every complete, well-formed report we have: Gradle's and other tools'.
fn corpus() -> Vec<Vec<u8>> {
    let mut files = Vec::new();
    for (scenario, file, _) in super::gradle::LAYOUT {
        files.push(std::fs::read(data(&format!("junit-gradle/{scenario}/{file}"))).unwrap());
    }
    let manifest = std::fs::read_to_string(data("junit-real/MANIFEST.tsv")).unwrap();
    for line in manifest.lines().skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        if cols.last() == Some(&"yes") {
            files.push(std::fs::read(data(&format!("junit-real/{}", cols[0]))).unwrap());
        }
    }
    files
}

/// An independent oracle: the byte offsets where `<testcase>` elements end,
/// from quick-xml reading the whole file directly.
fn case_ends(xml: &[u8]) -> Vec<usize> {
    let mut reader = quick_xml::Reader::from_reader(xml);
    let mut ends = Vec::new();
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match reader
            .read_event_into(&mut buf)
            .expect("corpus file parses")
        {
            Event::Empty(e) if e.local_name().as_ref() == b"testcase" => {
                ends.push(reader.buffer_position() as usize)
            }
            Event::End(e) if e.local_name().as_ref() == b"testcase" => {
                ends.push(reader.buffer_position() as usize)
            }
            Event::Eof => return ends,
            _ => {}
        }
    }
}

/// The executions of the first `cases` cases (a case's own result comes last).
fn first_cases(execs: &[Exec], cases: usize) -> &[Exec] {
    let mut seen = 0;
    for (i, e) in execs.iter().enumerate() {
        if seen == cases {
            return &execs[..i];
        }
        seen += usize::from(e.primary);
    }
    assert_eq!(seen, cases, "fewer cases than asked");
    execs
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..4096)) {
        let (execs, file) = read(&bytes[..]);
        prop_assert!(execs.iter().filter(|e| e.primary).count() as u64 <= file.counts.cases);
    }

    #[test]
    fn xml_shaped_noise_never_panics(tokens in proptest::collection::vec(prop_oneof![
        Just("<testsuite>"), Just("</testsuite>"), Just("<testcase classname=\"C\" name=\"t\">"),
        Just("<testcase name=\"x\"/>"), Just("</testcase>"), Just("<failure message=\"m\">"),
        Just("</failure>"), Just("<failure/>"), Just("<skipped/>"), Just("<flakyFailure>"),
        Just("</flakyFailure>"), Just("<rerunError type=\"E\"/>"), Just("<system-out>"),
        Just("</system-out>"), Just("<system-err/>"), Just("<![CDATA["), Just("]]>"),
        Just("<!--"), Just("-->"), Just("&amp;"), Just("&"), Just("&#x41;"), Just("&lol;"),
        Just("\""), Just("'"), Just("<"), Just(">"), Just("<!DOCTYPE x>"), Just("é"),
        Just("REPRODUCE WITH: ./gradlew x\n"), Just("text"), Just("\n"),
    ], 0..64)) {
        let xml = tokens.concat();
        let _ = read(xml.as_bytes());
    }

    #[test]
    fn a_cut_report_keeps_every_case_that_ended_before_the_cut(
        pick in any::<prop::sample::Index>(),
        at in 0.0..=1.0f64,
    ) {
        let files = corpus();
        let xml = pick.get(&files);
        let cut = ((xml.len() as f64) * at) as usize;
        let complete = case_ends(xml).iter().filter(|&&end| end <= cut).count();
        let (full, _) = read(&xml[..]);
        let (cut_execs, file) = read(&xml[..cut]);
        prop_assert!(
            matches!(file.state, State::Complete | State::Truncated),
            "cut at {cut}: {:?}", file.state
        );
        prop_assert!(file.counts.cases as usize >= complete);
        let expected = first_cases(&full, complete);
        prop_assert_eq!(&cut_execs[..expected.len()], expected);
    }
}
