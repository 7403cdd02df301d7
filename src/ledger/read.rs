//! Reading ledgers: files or folders of them, one line at a time in bounded
//! memory. A line that cannot be used (torn by a killed run, of a schema
//! this version does not know, not a record) is skipped with a problem that
//! names its file and line; the lines around it still count.

#[cfg(test)]
use super::record::Record;
use super::record::{Line, SCHEMA};
use crate::markdown;
use crate::reports::{self, walk::Walk};
use crate::{Error, Result};
use serde::Deserialize;
use std::io::Read;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::time::UNIX_EPOCH;

/// The longest line read: a record is a few hundred bytes, so a longer line
/// is not one, and reading it whole would hold it all in memory.
pub(crate) const MAX_LINE_BYTES: usize = 1 << 20;

/// Problems kept per file; the rest are counted.
pub(crate) const PROBLEMS_PER_FILE: usize = 10;

/// A line (or a file, at line 0) that was skipped, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    pub path: PathBuf,
    /// 1-based; 0 when the whole file could not be read.
    pub line: u64,
    /// One line, control characters made blanks (it may quote the file).
    pub what: String,
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.line {
            0 => write!(f, "{}: {}", self.path.display(), self.what),
            n => write!(f, "{}:{n}: {}", self.path.display(), self.what),
        }
    }
}

/// What reading one file gave besides its records.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct LedgerRead {
    pub records: u64,
    /// Lines skipped (every one, also those past [`PROBLEMS_PER_FILE`]).
    pub skipped: u64,
    pub problems: Vec<Problem>,
}

/// A record with its time in seconds since the epoch (checked on reading).
/// Whole records are what the store's tests read back; `history` reads the
/// lighter [`LineView`](super::record::LineView).
#[cfg(test)]
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Dated {
    pub record: Record,
    pub secs: u64,
}

/// The ledger files of `paths`: a file as given, a folder's `*.jsonl` files
/// at any depth (a downloaded artifact folder), in path order; a file named
/// twice (the build's own folder also given as `--ledger`) is read once. A
/// path that does not exist is an input error naming it.
pub(crate) fn files_of(paths: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for path in paths {
        let found = if path.is_dir() {
            let mut found: Vec<PathBuf> = Walk::new(path)
                .regular_files()
                .map(|f| f.path)
                .filter(|p| {
                    p.extension()
                        .is_some_and(|e| e == reports::LEDGER_EXTENSION)
                })
                .collect();
            found.sort();
            found
        } else if path.exists() {
            vec![path.clone()]
        } else {
            return Err(Error::input(
                format!("--ledger {}", path.display()),
                "no such file or folder",
            ));
        };
        for file in found {
            if seen.insert(std::fs::canonicalize(&file).unwrap_or_else(|_| file.clone())) {
                files.push(file);
            }
        }
    }
    Ok(files)
}

/// Reads `path`, giving each usable record to `each` as it is read.
#[cfg(test)]
pub(crate) fn read_file(path: &Path, each: impl FnMut(Dated)) -> LedgerRead {
    scan_file(path, records_to(each))
}

/// Reads `src`'s records, as [`read_file`] reads a file's.
#[cfg(test)]
pub(crate) fn read_lines(path: &Path, src: impl Read, each: impl FnMut(Dated)) -> LedgerRead {
    scan(path, src, records_to(each))
}

/// A line user that parses whole [`Record`]s and hands them to `each`.
#[cfg(test)]
fn records_to(mut each: impl FnMut(Dated)) -> impl FnMut(&[u8], End) -> LineResult {
    move |bytes, end| {
        let Some((record, secs)) = parse::<Record>(bytes, end)? else {
            return Ok(false);
        };
        each(Dated { record, secs });
        Ok(true)
    }
}

/// Opens `path` and [`scan`]s it; a file that cannot be opened is one problem.
pub(crate) fn scan_file(path: &Path, use_line: impl FnMut(&[u8], End) -> LineResult) -> LedgerRead {
    match std::fs::File::open(path) {
        Ok(file) => scan(path, file, use_line),
        Err(e) => LedgerRead {
            problems: vec![problem(path, 0, &format!("cannot be read: {e}"))],
            ..LedgerRead::default()
        },
    }
}

/// What a line was to [`scan`]'s user: a record (`true`), nothing (a blank
/// line), or a line to skip, and why.
pub(crate) type LineResult = std::result::Result<bool, String>;

/// Reads `src` line by line, handing each line without its newline to
/// `use_line`, which parses it (see [`parse`]).
pub(crate) fn scan(
    path: &Path,
    src: impl Read,
    mut use_line: impl FnMut(&[u8], End) -> LineResult,
) -> LedgerRead {
    let mut lines = BufferLines::new(src);
    let mut read = LedgerRead::default();
    let mut number = 0u64;
    loop {
        number += 1;
        let (range, end) = match lines.next() {
            Ok(Some(line)) => line,
            Ok(None) => break,
            Err(e) => {
                read.skip(problem(path, number, &format!("cannot be read: {e}")));
                break;
            }
        };
        match use_line(&lines.buf[range], end) {
            Ok(true) => read.records += 1,
            Ok(false) => {}
            Err(why) => read.skip(problem(path, number, &why)),
        }
    }
    read
}

impl LedgerRead {
    fn skip(&mut self, problem: Problem) {
        self.skipped += 1;
        if self.problems.len() < PROBLEMS_PER_FILE {
            self.problems.push(problem);
        }
    }
}

/// How a line ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum End {
    Whole,
    /// The file ends without a newline after it: a run killed while writing,
    /// unless the line is a whole record (a file kept by hand).
    Unterminated,
    /// Longer than [`MAX_LINE_BYTES`]: none of it is kept.
    TooLong,
}

/// Bytes asked of the reader at a time.
const READ_BYTES: usize = 256 << 10;

/// The lines of a reader, found in one buffer that holds the longest line
/// allowed and a read's worth more: each line is handed out where it lies,
/// never copied, and memory stays the buffer's whatever the file's size.
struct BufferLines<R> {
    src: R,
    buf: Vec<u8>,
    /// What is read and not yet handed out: `buf[start..end]`.
    start: usize,
    end: usize,
    eof: bool,
}

impl<R: Read> BufferLines<R> {
    fn new(src: R) -> BufferLines<R> {
        BufferLines {
            src,
            buf: vec![0; MAX_LINE_BYTES + READ_BYTES],
            start: 0,
            end: 0,
            eof: false,
        }
    }

    /// The next line's place in `buf` (empty for a line too long to keep)
    /// and how it ended; `None` at the end.
    fn next(&mut self) -> std::io::Result<Option<(Range<usize>, End)>> {
        let mut too_long = false;
        loop {
            let held = self.start..self.end;
            if let Some(i) = memchr::memchr(b'\n', &self.buf[held.clone()]) {
                self.start += i + 1;
                return Ok(Some(match too_long {
                    true => (0..0, End::TooLong),
                    false => (held.start..held.start + i, End::Whole),
                }));
            }
            if self.eof {
                self.start = self.end;
                return Ok(match (too_long, held.is_empty()) {
                    (true, _) => Some((0..0, End::TooLong)),
                    (false, true) => None,
                    (false, false) => Some((held, End::Unterminated)),
                });
            }
            if held.len() > MAX_LINE_BYTES {
                // Not a record: its bytes are dropped until its newline.
                too_long = true;
                self.start = self.end;
            }
            self.refill()?;
        }
    }

    /// Moves what is held to the front and reads more after it.
    fn refill(&mut self) -> std::io::Result<()> {
        self.buf.copy_within(self.start..self.end, 0);
        self.end -= self.start;
        self.start = 0;
        loop {
            match self.src.read(&mut self.buf[self.end..]) {
                Ok(0) => self.eof = true,
                Ok(n) => self.end += n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            }
            return Ok(());
        }
    }
}

/// Just the version of a line that is not a record of this one.
#[derive(Deserialize)]
struct Version {
    schema: u64,
}

/// A line as `T` (a [`Record`], or a borrowed view of one) with its time in
/// seconds; `Ok(None)` for a blank line; `Err(why)` for a line to skip.
pub(crate) fn parse<'a, T: Deserialize<'a> + Line>(
    bytes: &'a [u8],
    end: End,
) -> std::result::Result<Option<(T, u64)>, String> {
    if end == End::TooLong {
        return Err(format!(
            "longer than {MAX_LINE_BYTES} bytes: not a ledger record; skipped"
        ));
    }
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(None);
    }
    let line = match serde_json::from_slice::<T>(bytes) {
        Ok(r) if r.head().0 == SCHEMA => r,
        Ok(r) => return Err(unknown_schema(r.head().0 as u64)),
        Err(_) if end == End::Unterminated => {
            return Err("torn last line (a run stopped while writing it); skipped".into())
        }
        Err(e) => {
            return Err(match serde_json::from_slice::<Version>(bytes) {
                Ok(v) if v.schema != SCHEMA as u64 => unknown_schema(v.schema),
                _ => format!("not a ledger record ({e}); skipped"),
            })
        }
    };
    let secs = check(&line)?;
    Ok(Some((line, secs)))
}

fn unknown_schema(version: u64) -> String {
    format!(
        "schema version {version}, which this gradle-flaky does not know (it reads {SCHEMA}; \
         written by a newer one?); skipped"
    )
}

/// The line's time in seconds, when its counts and time make sense.
pub(crate) fn check(line: &impl Line) -> std::result::Result<u64, String> {
    let (_, runs, failures, time) = line.head();
    if failures > runs {
        return Err(format!(
            "{failures} failures of {runs} runs: not a ledger record; skipped"
        ));
    }
    humantime::parse_rfc3339_weak(time)
        .ok()
        .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
        .map(|d| d.as_secs())
        .ok_or_else(|| format!("time {time:?} is not an RFC 3339 time in UTC; skipped"))
}

fn problem(path: &Path, line: u64, what: &str) -> Problem {
    Problem {
        path: path.to_path_buf(),
        line,
        what: markdown::plain_line(what),
    }
}
