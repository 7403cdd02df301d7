//! Reading a ledger line as gradle-flaky writes it, fast: the fields in
//! their written order, strings without escapes, read where they lie. A line
//! in any other shape (fields reordered or added by hand, an escape, another
//! schema, a value this version does not know) is not read here but by the
//! general reader (`read::parse`), which gives the same record or says why
//! it skips the line. Reading a million lines, serde's general machinery
//! (field names matched by comparing strings, every string checked twice)
//! is most of the time `history` takes.

use super::record::{DurationSummary, LineView, Origin, TestView};
use crate::condition::{Condition, Context, InJvm, Position, Repetition};
use serde::de::IgnoredAny;
use std::borrow::Cow;

// The shape read here is schema 1's.
const _: () = assert!(super::record::SCHEMA == 1);

/// The line as [`LineView`], when it is in the written shape; `None` to let
/// the general reader decide.
pub(crate) fn line_view(bytes: &[u8]) -> Option<LineView<'_>> {
    // One check of the whole line: UTF-8 (so that every string, cut at its
    // ASCII quotes, is too), and no control character (JSON has none raw in
    // a string, and the written shape none between its tokens).
    // Every byte looked at (no early exit): compiled to vector compares.
    if bytes.iter().fold(false, |control, b| control | (*b < 0x20)) {
        return None;
    }
    let text = std::str::from_utf8(bytes).ok()?;
    let mut c = Cursor { text, bytes, at: 0 };
    c.eat(br#"{"schema":1,"test":{"class":"#)?;
    let class = c.string()?;
    c.eat(br#","method":"#)?;
    let method = c.string()?;
    c.eat(br#","task":"#)?;
    let task = c.string()?;
    c.eat(br#"},"commit":"#)?;
    let commit = c.optional_string()?;
    c.eat(br#","branch":"#)?;
    let branch = c.optional_string()?;
    let dirty = c.eat(br#","dirty":true"#).is_some();
    let condition = c.condition()?;
    c.eat(br#","runs":"#)?;
    let runs = c.integer()?;
    c.eat(br#","failures":"#)?;
    let failures = c.integer()?;
    c.eat(br#","failureKinds":{"#)?;
    c.list(b"}", |c| {
        c.string()?;
        c.eat(b":")?;
        c.integer().map(drop)
    })?;
    c.eat(br#","failingSeeds":["#)?;
    c.list(b"]", |c| c.string().map(drop))?;
    let signature = match c.eat(br#","signature":"#) {
        Some(()) => Some(c.string()?),
        None => None,
    };
    c.eat(br#","durationSec":"#)?;
    let duration_sec = c.durations()?;
    c.eat(br#","tool":"#)?;
    let tool = c.string()?;
    c.eat(br#","time":"#)?;
    let time = c.string()?;
    c.eat(br#","runId":"#)?;
    let run_id = c.string()?;
    c.eat(br#","where":"#)?;
    let origin = c.origin()?;
    c.eat(b"}")?;
    if !bytes[c.at..].iter().all(u8::is_ascii_whitespace) {
        return None;
    }
    Some(LineView {
        schema: 1,
        test: TestView {
            class: Cow::Borrowed(class),
            method: Cow::Borrowed(method),
            task: Cow::Borrowed(task),
        },
        commit: commit.map(Cow::Borrowed),
        branch: branch.map(Cow::Borrowed),
        dirty,
        condition,
        runs,
        failures,
        _failure_kinds: IgnoredAny,
        _failing_seeds: IgnoredAny,
        signature: signature.map(Cow::Borrowed),
        duration_sec,
        _tool: Cow::Borrowed(tool),
        time: Cow::Borrowed(time),
        run_id: Cow::Borrowed(run_id),
        origin,
    })
}

struct Cursor<'a> {
    /// The line, checked: UTF-8 without control characters.
    text: &'a str,
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Cursor<'a> {
    /// `,"condition":{…}`: its context, repetition, mechanism and position.
    fn condition(&mut self) -> Option<Condition> {
        self.eat(br#","condition":{"context":"#)?;
        let context = match self.string()? {
            "alone" => Context::Alone,
            "task" => Context::Task,
            _ => return None,
        };
        self.eat(br#","repetition":"#)?;
        let repetition = match self.string()? {
            "in-jvm" => Repetition::InJvm,
            "fresh-jvm" => Repetition::FreshJvm,
            _ => return None,
        };
        let mechanism = match self.eat(br#","mechanism":"#) {
            Some(()) => {
                let name = self.string()?;
                Some(*InJvm::ALL.iter().find(|m| m.as_str() == name)?)
            }
            None => None,
        };
        let execution = match self.eat(br#","execution":"#) {
            Some(()) => Some(match self.string()? {
                "first" => Position::First,
                "repeat" => Position::Repeat,
                _ => return None,
            }),
            None => None,
        };
        self.eat(b"}")?;
        Some(Condition {
            context,
            repetition,
            mechanism,
            execution,
        })
    }

    /// `null` or `{"median":…,"p90":…,"max":…}`.
    fn durations(&mut self) -> Option<Option<DurationSummary>> {
        if self.eat(b"null").is_some() {
            return Some(None);
        }
        self.eat(br#"{"median":"#)?;
        let median = self.float()?;
        self.eat(br#","p90":"#)?;
        let p90 = self.float()?;
        self.eat(br#","max":"#)?;
        let max = self.float()?;
        self.eat(b"}")?;
        Some(Some(DurationSummary { median, p90, max }))
    }

    /// Where the run was, by its written name.
    fn origin(&mut self) -> Option<Origin> {
        Some(match self.string()? {
            "local" => Origin::Local,
            "buildkite" => Origin::Buildkite,
            "github" => Origin::Github,
            "triage" => Origin::Triage,
            _ => return None,
        })
    }
}

impl<'a> Cursor<'a> {
    /// Steps over `what` when the line goes on with it. Compared byte by
    /// byte: the literals are short, and a call to `memcmp` for each of a
    /// line's twenty costs more than the comparison.
    #[inline(always)]
    fn eat(&mut self, what: &[u8]) -> Option<()> {
        let rest = self.bytes.get(self.at..self.at + what.len())?;
        let same = rest
            .iter()
            .zip(what)
            .fold(true, |same, (a, b)| same & (a == b));
        same.then(|| self.at += what.len())
    }

    /// A string without escapes.
    fn string(&mut self) -> Option<&'a str> {
        self.eat(b"\"")?;
        let rest = &self.bytes[self.at..];
        let end = memchr::memchr2(b'"', b'\\', rest)?;
        if rest[end] != b'"' {
            return None;
        }
        // Cut at ASCII quotes: on character boundaries of the checked line.
        let s = self.text.get(self.at..self.at + end)?;
        self.at += end + 1;
        Some(s)
    }

    fn optional_string(&mut self) -> Option<Option<&'a str>> {
        match self.eat(b"null") {
            Some(()) => Some(None),
            None => self.string().map(Some),
        }
    }

    /// Digits, as JSON writes an unsigned integer (no sign, no leading zero).
    fn integer(&mut self) -> Option<u64> {
        let digits = self.bytes[self.at..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count();
        let text = &self.bytes[self.at..self.at + digits];
        if digits == 0 || (digits > 1 && text[0] == b'0') {
            return None;
        }
        let n = text.iter().try_fold(0u64, |n, d| {
            n.checked_mul(10)?.checked_add(u64::from(d - b'0'))
        })?;
        self.at += digits;
        Some(n)
    }

    /// A JSON number, as a double.
    fn float(&mut self) -> Option<f64> {
        let len = json_number(&self.bytes[self.at..])?;
        let x: f64 = self.text.get(self.at..self.at + len)?.parse().ok()?;
        self.at += len;
        x.is_finite().then_some(x)
    }

    /// The rest of an object or array after its opening: items `item`
    /// reads, between commas, then `close` (`failureKinds`' `"kind":N`
    /// pairs, `failingSeeds`' strings).
    fn list(&mut self, close: &[u8], item: impl Fn(&mut Self) -> Option<()>) -> Option<()> {
        if self.eat(close).is_some() {
            return Some(());
        }
        loop {
            item(self)?;
            if self.eat(close).is_some() {
                return Some(());
            }
            self.eat(b",")?;
        }
    }
}

/// The length of the JSON number `bytes` start with:
/// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?` (Rust's own grammar is
/// wider: `.5`, `5.`, `inf`).
fn json_number(bytes: &[u8]) -> Option<usize> {
    let digits = |from: usize| {
        bytes[from..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count()
    };
    let mut at = usize::from(bytes.first() == Some(&b'-'));
    match digits(at) {
        0 => return None,
        n if n > 1 && bytes[at] == b'0' => return None,
        n => at += n,
    }
    if bytes.get(at) == Some(&b'.') {
        match digits(at + 1) {
            0 => return None,
            n => at += 1 + n,
        }
    }
    if matches!(bytes.get(at), Some(b'e' | b'E')) {
        at += 1;
        if matches!(bytes.get(at), Some(b'+' | b'-')) {
            at += 1;
        }
        match digits(at) {
            0 => return None,
            n => at += n,
        }
    }
    Some(at)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ledger::read::{parse, End};
    use crate::ledger::store_tests::record;

    /// The fast reading of a line, and the general one, as comparable text.
    fn both(line: &str) -> (Option<String>, Option<String>) {
        let fast = line_view(line.as_bytes()).map(|v| format!("{v:?}"));
        let general = parse::<LineView>(line.as_bytes(), End::Whole)
            .ok()
            .flatten()
            .map(|(v, _)| format!("{v:?}"));
        (fast, general)
    }

    #[test]
    fn a_written_line_reads_as_the_general_reader_reads_it() {
        let mut r = record("a.FooTests", "test {yaml=a/b/c} é", 100, 3);
        r.failure_kinds.insert("error".into(), 1);
        r.failing_seeds = vec!["AB:CD".into(), "EF".into()];
        r.signature = Some("java.net.ConnectException: refused <ip>:<n>".into());
        r.duration_sec = Some(crate::ledger::record::DurationSummary {
            median: 0.042,
            p90: 1e-7,
            max: 13.0,
        });
        let mut dirty = r.clone();
        dirty.dirty = true;
        dirty.commit = None;
        dirty.condition.mechanism = None;
        dirty.condition.repetition = Repetition::FreshJvm;
        dirty.origin = Origin::Triage;
        for record in [r, dirty] {
            let line = serde_json::to_string(&record).unwrap();
            let (fast, general) = both(&line);
            assert!(fast.is_some(), "{line}");
            assert_eq!(fast, general, "{line}");
        }
    }

    #[test]
    fn json_numbers_and_not() {
        for (text, len) in [
            ("0.042,", 5),
            ("1e-7}", 4),
            ("13", 2),
            ("-0.5E+3", 7),
            ("0", 1),
        ] {
            assert_eq!(json_number(text.as_bytes()), Some(len), "{text}");
        }
        for text in [".5", "5.", "05", "-", "1e", "inf", "1.e5"] {
            assert_eq!(json_number(text.as_bytes()), None, "{text}");
        }
    }

    #[test]
    fn any_other_shape_is_left_to_the_general_reader() {
        let line = serde_json::to_string(&record("a.FooTests", "m", 10, 1)).unwrap();
        for other in [
            line.replace("\"schema\":1", "\"schema\":2"),
            line.replace("a.FooTests", "a.Foo\\u0054ests"),
            line.replace("\"runs\":10", "\"runs\":010"),
            line.replace("\"runs\":10", "\"runs\": 10"),
            line.replace("\"where\":\"local\"", "\"where\":\"mars\""),
            line.replace("\"context\":\"alone\"", "\"context\":\"elsewhere\""),
            line.replace(
                "\"durationSec\":null",
                "\"durationSec\":{\"median\":.5,\"p90\":1,\"max\":1}",
            ),
            line.replace(
                "\"durationSec\":null",
                "\"durationSec\":{\"median\":05,\"p90\":1,\"max\":1}",
            ),
            format!("{line} x"),
            line[..line.len() - 1].to_string(),
        ] {
            assert_eq!(line_view(other.as_bytes()).map(|_| ()), None, "{other}");
        }
        // Reordered by hand: still a record, for the general reader.
        let reordered = line.replace("{\"schema\":1,", "{\"schema\":1,\"note\":\"kept by hand\",");
        let (fast, general) = both(&reordered);
        assert!(fast.is_none() && general.is_some());
    }
}
