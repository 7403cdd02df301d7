//! A byte-stream filter between a report file and the XML parser.
//!
//! Gradle reports are mostly `<system-out>`/`<system-err>` (hundreds of MiB for a
//! long randomized run), and a failure body can be megabytes of stack trace. The
//! XML parser buffers a whole text node or CDATA section as one event, so this
//! filter keeps such bulk away from it:
//! - the bodies of `<system-out>`/`<system-err>` are dropped, after scanning them
//!   for `REPRODUCE WITH:` lines (a bounded number of bounded lines);
//! - any other text run, CDATA section or attribute value is cut to
//!   [`TEXT_CAP`] bytes, on a character and entity-reference boundary;
//! - comments are dropped;
//! - any other `<!` markup (`<!DOCTYPE`, `<!ENTITY`) is refused: the reader never
//!   reads a DTD, so entity expansion (an "XML bomb") cannot happen;
//! - a `<` inside an attribute value is refused (not well-formed, and the
//!   parser would accept it).
//!
//! The filter only recognises markup boundaries (`<`, quotes, `>`, `]]>`,
//! `-->`); well-formedness is left to the parser. It remembers where it dropped
//! bytes so that a parser position can be mapped back to a file offset.

use memchr::memmem;
use memchr::{memchr, memchr2, memchr3, memrchr};
use std::collections::VecDeque;
use std::io::{self, BufRead, Read};

/// Bytes kept of one text run, CDATA section or attribute value.
pub(crate) const TEXT_CAP: usize = 16 * 1024;
/// Bytes of one tag outside its attribute values; more is refused as malformed.
const TAG_CAP: usize = 64 * 1024;
/// The marker of the randomized runner's reproduce line.
const REPRO_MARK: &[u8] = b"REPRODUCE WITH:";
/// Bytes kept of one reproduce line.
const REPRO_LINE_CAP: usize = 4 * 1024;
/// Reproduce lines kept per file.
const REPRO_LINES_CAP: usize = 256;
/// Input chunk size.
const CHUNK: usize = 64 * 1024;
/// Bytes held back at the end of a chunk so that a cut never splits a reference.
const HOLD: usize = 32;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// Character data between tags; `run` bytes of it kept so far.
    Text { run: usize, dropping: bool },
    /// At a `<`, not yet classified.
    Markup,
    /// Inside `<...>`; `quote` is the open quote of an attribute value, or 0.
    /// `system` is `Some(err)` for a `<system-out>` (false) or `<system-err>` start tag.
    Tag {
        quote: u8,
        value: usize,
        cutting: bool,
        amp_open: bool,
        len: usize,
        system: Option<bool>,
        prev: u8,
    },
    /// Inside `<![CDATA[ ... ]]>` outside system streams.
    Cdata { run: usize, dropping: bool },
    /// Inside `<!-- ... -->`.
    Comment,
    /// Inside the body of `<system-out>` (`err` false) or `<system-err>`.
    System { err: bool, cdata: bool },
}

/// Text from its start.
const TEXT: Mode = Mode::Text {
    run: 0,
    dropping: false,
};

/// Why the filter stopped the stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Refusal {
    /// Offset in the original file.
    pub offset: u64,
    pub message: String,
}

/// A reproduce line as found in a system stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct RawReproLine {
    pub bytes: Vec<u8>,
    /// Found outside CDATA, so XML references still need decoding.
    pub escaped: bool,
}

/// See the module documentation.
pub(crate) struct StreamFilter<R> {
    src: R,
    inb: Vec<u8>,
    ipos: usize,
    ilen: usize,
    eof: bool,
    out: Vec<u8>,
    opos: usize,
    mode: Mode,
    /// Original bytes consumed before `inb[ipos]`.
    consumed: u64,
    /// Filtered bytes produced so far.
    produced: u64,
    /// (filtered position, bytes dropped before it in total), ascending.
    drops: VecDeque<(u64, u64)>,
    refusal: Option<Refusal>,
    /// An error met after some output: reported once that output is read.
    pending: Option<io::Error>,
    repro: ReproScanner,
}

impl<R: Read> StreamFilter<R> {
    pub(crate) fn new(src: R) -> Self {
        StreamFilter {
            src,
            inb: vec![0; CHUNK + 64],
            ipos: 0,
            ilen: 0,
            eof: false,
            out: Vec::with_capacity(CHUNK + TEXT_CAP),
            opos: 0,
            mode: TEXT,
            consumed: 0,
            produced: 0,
            drops: VecDeque::new(),
            refusal: None,
            pending: None,
            repro: ReproScanner::default(),
        }
    }

    /// The offset in the original file of a position in the filtered stream.
    pub(crate) fn original_offset(&self, filtered: u64) -> u64 {
        let dropped = self
            .drops
            .iter()
            .rev()
            .find(|(pos, _)| *pos <= filtered)
            .map_or(0, |(_, d)| *d);
        filtered + dropped
    }

    /// Forgets drop points that no position at or after `filtered` needs.
    pub(crate) fn release_before(&mut self, filtered: u64) {
        while self.drops.len() >= 2 && self.drops[1].0 <= filtered {
            self.drops.pop_front();
        }
    }

    /// Why the stream was refused, if it was.
    pub(crate) fn refusal(&self) -> Option<&Refusal> {
        self.refusal.as_ref()
    }

    /// The reproduce lines found so far.
    pub(crate) fn take_repro_lines(&mut self) -> Vec<RawReproLine> {
        self.repro.finish();
        std::mem::take(&mut self.repro.lines)
    }

    /// Makes at least `n` unconsumed input bytes available unless the input ends;
    /// returns how many there are.
    fn ensure(&mut self, n: usize) -> io::Result<usize> {
        if self.ilen - self.ipos >= n || self.eof {
            return Ok(self.ilen - self.ipos);
        }
        self.inb.copy_within(self.ipos..self.ilen, 0);
        self.ilen -= self.ipos;
        self.ipos = 0;
        while self.ilen < n && !self.eof {
            match self.src.read(&mut self.inb[self.ilen..]) {
                Ok(0) => self.eof = true,
                Ok(k) => self.ilen += k,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(self.ilen - self.ipos)
    }

    /// Reads input until a full chunk is buffered (or the input ends).
    fn ensure_chunk(&mut self) -> io::Result<usize> {
        if self.ilen - self.ipos >= HOLD * 2 {
            return Ok(self.ilen - self.ipos);
        }
        self.ensure(CHUNK)
    }

    fn advance(&mut self, n: usize) {
        self.ipos += n;
        self.consumed += n as u64;
    }

    /// Copies `n` input bytes to the output.
    fn pass(&mut self, n: usize) {
        self.out
            .extend_from_slice(&self.inb[self.ipos..self.ipos + n]);
        self.produced += n as u64;
        self.advance(n);
    }

    /// Skips `n` input bytes.
    fn drop_bytes(&mut self, n: usize) {
        if n == 0 {
            return;
        }
        let total = self.drops.back().map_or(0, |(_, d)| *d) + n as u64;
        match self.drops.back_mut() {
            Some(last) if last.0 == self.produced => last.1 = total,
            _ => self.drops.push_back((self.produced, total)),
        }
        self.advance(n);
    }

    fn emit_literal(&mut self, s: &[u8]) {
        self.out.extend_from_slice(s);
        self.produced += s.len() as u64;
    }

    fn refuse(&mut self, message: &str) -> io::Error {
        self.refusal = Some(Refusal {
            offset: self.consumed,
            message: message.to_string(),
        });
        io::Error::new(io::ErrorKind::InvalidData, message.to_string())
    }

    /// Passes `len` bytes of a text run or CDATA section, keeping at most
    /// `TEXT_CAP` of the run in total. Returns the new run state.
    fn pass_capped(
        &mut self,
        len: usize,
        run: usize,
        dropping: bool,
        references: bool,
    ) -> (usize, bool) {
        if dropping {
            self.drop_bytes(len);
            return (run, true);
        }
        let room = TEXT_CAP - run;
        if len <= room {
            self.pass(len);
            return (run + len, false);
        }
        let seg = &self.inb[self.ipos..self.ipos + len];
        let keep = match safe_point(seg, room, references) {
            0 => room,
            p => p,
        };
        self.pass(keep);
        self.drop_bytes(len - keep);
        (TEXT_CAP, true)
    }

    /// Processes some input; returns false when the input is exhausted.
    fn step(&mut self) -> io::Result<bool> {
        match self.mode {
            Mode::Text { run, dropping } => self.step_text(run, dropping),
            Mode::Markup => self.step_markup(),
            Mode::Tag { .. } => self.step_tag(),
            Mode::Cdata { run, dropping } => self.step_cdata(run, dropping),
            Mode::Comment => self.step_comment(),
            Mode::System { err, cdata } => self.step_system(err, cdata),
        }
    }

    fn step_text(&mut self, run: usize, dropping: bool) -> io::Result<bool> {
        let avail = self.ensure_chunk()?;
        if avail == 0 {
            return Ok(false);
        }
        let buf = &self.inb[self.ipos..self.ilen];
        let (len, cut_off, at_markup) = match memchr(b'<', buf) {
            Some(i) => (i, 0, true),
            // A reference cut off by truncation would make the text ill-formed.
            None if self.eof => {
                let keep = safe_point(buf, buf.len(), true);
                (keep, buf.len() - keep, false)
            }
            None => (hold_back(buf, true), 0, false),
        };
        let (run, dropping) = self.pass_capped(len, run, dropping, true);
        self.drop_bytes(cut_off);
        self.mode = if at_markup {
            Mode::Markup
        } else {
            Mode::Text { run, dropping }
        };
        Ok(true)
    }

    fn step_markup(&mut self) -> io::Result<bool> {
        let avail = self.ensure(16)?;
        let look = &self.inb[self.ipos..self.ipos + avail.min(16)];
        if look.starts_with(b"<![CDATA[") {
            self.pass(9);
            self.mode = Mode::Cdata {
                run: 0,
                dropping: false,
            };
        } else if look.starts_with(b"<!--") {
            self.drop_bytes(4);
            self.mode = Mode::Comment;
        } else if look.starts_with(b"<!")
            && !(self.eof && (b"<![CDATA[".starts_with(look) || b"<!--".starts_with(look)))
        {
            return Err(self.refuse(
                "document type and entity declarations (<!DOCTYPE, <!ENTITY) are refused",
            ));
        } else {
            let system = system_stream(&look[1..]);
            self.pass(1);
            self.mode = Mode::Tag {
                quote: 0,
                value: 0,
                cutting: false,
                amp_open: false,
                len: 1,
                system,
                prev: b'<',
            };
        }
        Ok(true)
    }

    fn step_tag(&mut self) -> io::Result<bool> {
        let avail = self.ensure_chunk()?;
        if avail == 0 {
            return Ok(false);
        }
        let Mode::Tag {
            mut quote,
            mut value,
            mut cutting,
            mut amp_open,
            mut len,
            system,
            mut prev,
        } = self.mode
        else {
            unreachable!("step_tag in another mode")
        };
        let end = self.ilen;
        let mut i = self.ipos;
        let mut next_mode = None;
        while i < end {
            // Jump over plain bytes; the byte-wise code below handles the rest.
            let plain = self.plain_run(i, end, quote, cutting, &mut value, &mut amp_open);
            if plain > 0 {
                prev = self.inb[i + plain - 1];
                i += plain;
                if quote == 0 {
                    len += plain;
                    self.within_tag_cap(len, i)?;
                }
                continue;
            }
            let b = self.inb[i];
            i += 1;
            if quote != 0 && b == b'<' {
                self.pass(i - 1 - self.ipos);
                return Err(self.refuse("'<' in an attribute value"));
            } else if quote != 0 && b != quote {
                if value_byte(b, &mut value, &mut amp_open, &mut cutting) {
                    self.pass(i - 1 - self.ipos);
                    self.drop_bytes(1);
                    continue;
                }
            } else if quote != 0 {
                quote = 0;
            } else {
                len += 1;
                self.within_tag_cap(len, i - 1)?;
                match b {
                    b'"' | b'\'' => {
                        quote = b;
                        value = 0;
                        cutting = false;
                        amp_open = false;
                    }
                    b'>' => {
                        next_mode = Some(after_tag(system, prev));
                        break;
                    }
                    _ => {}
                }
            }
            prev = b;
        }
        self.pass(i - self.ipos);
        self.mode = next_mode.unwrap_or(Mode::Tag {
            quote,
            value,
            cutting,
            amp_open,
            len,
            system,
            prev,
        });
        Ok(true)
    }

    /// A tag `len` bytes long so far is refused past [`TAG_CAP`], the input
    /// passed up to `at`.
    fn within_tag_cap(&mut self, len: usize, at: usize) -> io::Result<()> {
        if len > TAG_CAP {
            self.pass(at - self.ipos);
            return Err(self.refuse("a tag longer than 64 KiB"));
        }
        Ok(())
    }

    /// How many bytes from `i` (before `end`) need no look of their own in
    /// a tag: outside quotes, up to the next quote or `>`; inside a value
    /// still kept (`value` bytes so far, below [`TEXT_CAP`]), up to its
    /// closing `quote` or a `<`, counted into `value`, `amp_open` telling
    /// whether an entity reference is left open.
    fn plain_run(
        &self,
        i: usize,
        end: usize,
        quote: u8,
        cutting: bool,
        value: &mut usize,
        amp_open: &mut bool,
    ) -> usize {
        if quote == 0 {
            let rest = &self.inb[i..end];
            return memchr3(b'"', b'\'', b'>', rest).unwrap_or(rest.len());
        }
        if cutting || *value >= TEXT_CAP {
            return 0;
        }
        let window = &self.inb[i..end.min(i + TEXT_CAP - *value)];
        let n = memchr2(quote, b'<', window).unwrap_or(window.len());
        *amp_open = match (memrchr(b'&', &window[..n]), memrchr(b';', &window[..n])) {
            (Some(a), Some(c)) => a > c,
            (Some(_), None) => true,
            (None, Some(_)) => false,
            (None, None) => *amp_open,
        };
        *value += n;
        n
    }

    fn step_cdata(&mut self, run: usize, dropping: bool) -> io::Result<bool> {
        let avail = self.ensure_chunk()?;
        if avail == 0 {
            return Ok(false);
        }
        let buf = &self.inb[self.ipos..self.ilen];
        match memmem::find(buf, b"]]>") {
            Some(i) => {
                self.pass_capped(i, run, dropping, false);
                self.pass(3);
                self.mode = TEXT;
            }
            None => {
                let len = if self.eof {
                    buf.len()
                } else {
                    hold_back(buf, false)
                };
                let (run, dropping) = self.pass_capped(len, run, dropping, false);
                self.mode = Mode::Cdata { run, dropping };
                if self.eof {
                    // Close a section cut off by truncation, so that the parser
                    // delivers what was written of it (the document stays unclosed).
                    self.emit_literal(b"]]>");
                    self.mode = TEXT;
                }
            }
        }
        Ok(true)
    }

    fn step_comment(&mut self) -> io::Result<bool> {
        let avail = self.ensure_chunk()?;
        if avail == 0 {
            return Ok(false);
        }
        let buf = &self.inb[self.ipos..self.ilen];
        match memmem::find(buf, b"-->") {
            Some(i) => {
                self.drop_bytes(i + 3);
                self.mode = TEXT;
            }
            None => {
                let len = if self.eof { buf.len() } else { buf.len() - 2 };
                self.drop_bytes(len);
            }
        }
        Ok(true)
    }

    fn step_system(&mut self, err: bool, cdata: bool) -> io::Result<bool> {
        let avail = self.ensure_chunk()?;
        if avail == 0 {
            return Ok(false);
        }
        let buf = &self.inb[self.ipos..self.ilen];
        if cdata {
            match memmem::find(buf, b"]]>") {
                Some(i) => {
                    self.repro.scan(&buf[..i], false);
                    self.drop_bytes(i + 3);
                    self.mode = Mode::System { err, cdata: false };
                }
                None => {
                    let len = if self.eof { buf.len() } else { buf.len() - 2 };
                    self.repro.scan(&buf[..len], false);
                    self.drop_bytes(len);
                }
            }
            return Ok(true);
        }
        let Some(i) = memchr(b'<', buf) else {
            self.repro.scan(buf, true);
            let len = buf.len();
            self.drop_bytes(len);
            return Ok(true);
        };
        self.repro.scan(&buf[..i], true);
        self.drop_bytes(i);
        let avail = self.ensure(16)?;
        let look = &self.inb[self.ipos..self.ipos + avail.min(16)];
        if look.starts_with(b"<![CDATA[") {
            self.repro.break_line();
            self.drop_bytes(9);
            self.mode = Mode::System { err, cdata: true };
        } else if look.starts_with(b"</") && system_stream(&look[2..]) == Some(err) {
            self.repro.break_line();
            self.mode = Mode::Markup;
        } else {
            self.repro.scan(&look[..1], true);
            self.drop_bytes(1);
        }
        Ok(true)
    }

    fn refill(&mut self) -> io::Result<()> {
        if let Some(e) = self.pending.take() {
            return Err(e);
        }
        self.out.clear();
        self.opos = 0;
        while self.out.len() < CHUNK / 2 {
            match self.step() {
                Ok(true) => {}
                Ok(false) => break,
                Err(e) if self.out.is_empty() => return Err(e),
                Err(e) => {
                    self.pending = Some(e);
                    break;
                }
            }
        }
        Ok(())
    }
}

/// After `<`: `Some(false)` for `system-out`, `Some(true)` for `system-err`
/// (followed by a delimiter), otherwise `None`.
fn system_stream(after_lt: &[u8]) -> Option<bool> {
    for (name, err) in [(&b"system-out"[..], false), (&b"system-err"[..], true)] {
        if let Some(rest) = after_lt.strip_prefix(name) {
            if matches!(
                rest.first(),
                Some(b' ' | b'\t' | b'\r' | b'\n' | b'>' | b'/')
            ) {
                return Some(err);
            }
        }
    }
    None
}

/// How much of `buf` (no markup in it, more input to come) to process now:
/// all but a tail, cut at a safe point.
fn hold_back(buf: &[u8], references: bool) -> usize {
    if buf.len() <= HOLD {
        return 0;
    }
    match safe_point(buf, buf.len() - HOLD, references) {
        0 => buf.len() - HOLD,
        p => p,
    }
}

/// The last position at or before `p` that is not inside a UTF-8 sequence nor,
/// when `references` is set, inside an `&...;` reference. 0 if there is none.
fn safe_point(buf: &[u8], p: usize, references: bool) -> usize {
    let mut p = p.min(buf.len());
    if references {
        let from = p.saturating_sub(HOLD);
        if let Some(a) = memrchr(b'&', &buf[from..p]) {
            let a = from + a;
            if memchr(b';', &buf[a..p]).is_none() {
                p = a;
            }
        }
    }
    while p > 0 && p < buf.len() && buf[p] & 0xC0 == 0x80 {
        p -= 1;
    }
    p
}

impl<R: Read> Read for StreamFilter<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let avail = self.fill_buf()?;
        let n = avail.len().min(buf.len());
        buf[..n].copy_from_slice(&avail[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl<R: Read> BufRead for StreamFilter<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.opos >= self.out.len() {
            self.refill()?;
        }
        Ok(&self.out[self.opos..])
    }

    fn consume(&mut self, amt: usize) {
        self.opos = (self.opos + amt).min(self.out.len());
    }
}

/// Finds `REPRODUCE WITH:` lines in dropped system-stream bytes.
struct ReproScanner {
    finder: memmem::Finder<'static>,
    /// The last bytes scanned, to find a marker split between two slices.
    tail: Vec<u8>,
    tail_escaped: bool,
    capture: Option<RawReproLine>,
    lines: Vec<RawReproLine>,
}

impl Default for ReproScanner {
    fn default() -> Self {
        ReproScanner {
            finder: memmem::Finder::new(REPRO_MARK),
            tail: Vec::with_capacity(REPRO_MARK.len()),
            tail_escaped: false,
            capture: None,
            lines: Vec::new(),
        }
    }
}

impl ReproScanner {
    fn full(&self) -> bool {
        self.lines.len() >= REPRO_LINES_CAP
    }

    /// The end of a text or CDATA piece: a line in progress ends there.
    fn break_line(&mut self) {
        self.finish();
        self.tail.clear();
    }

    fn finish(&mut self) {
        if let Some(line) = self.capture.take() {
            if !self.full() {
                self.lines.push(line);
            }
        }
    }

    /// Appends to the line being captured; returns the rest after its newline.
    fn extend_capture<'a>(&mut self, s: &'a [u8]) -> Option<&'a [u8]> {
        let line = self.capture.as_mut()?;
        let (part, rest) = match memchr(b'\n', s) {
            Some(i) => (&s[..i], Some(&s[i + 1..])),
            None => (s, None),
        };
        let room = REPRO_LINE_CAP.saturating_sub(line.bytes.len());
        line.bytes.extend_from_slice(&part[..part.len().min(room)]);
        if rest.is_some() {
            self.finish();
        }
        rest
    }

    fn scan(&mut self, s: &[u8], escaped: bool) {
        if self.full() || s.is_empty() {
            return;
        }
        let mut s = s;
        if self.capture.is_some() {
            match self.extend_capture(s) {
                Some(rest) => s = rest,
                None => return,
            }
            self.tail.clear();
        }
        // A marker that starts in the previous slice.
        if !self.tail.is_empty() {
            let head = &s[..s.len().min(REPRO_MARK.len())];
            let window = [&self.tail[..], head].concat();
            if let Some(k) = self.finder.find(&window) {
                if k < self.tail.len() {
                    let used = k + REPRO_MARK.len() - self.tail.len();
                    self.capture = Some(RawReproLine {
                        bytes: Vec::new(),
                        escaped: self.tail_escaped || escaped,
                    });
                    self.tail.clear();
                    match self.extend_capture(&s[used..]) {
                        Some(rest) => s = rest,
                        None => return,
                    }
                }
            }
        }
        while let Some(p) = self.finder.find(s) {
            if self.full() {
                return;
            }
            self.capture = Some(RawReproLine {
                bytes: Vec::new(),
                escaped,
            });
            match self.extend_capture(&s[p + REPRO_MARK.len()..]) {
                Some(rest) => s = rest,
                None => {
                    self.tail.clear();
                    return;
                }
            }
        }
        let keep = s.len().min(REPRO_MARK.len() - 1);
        self.tail.clear();
        self.tail.extend_from_slice(&s[s.len() - keep..]);
        self.tail_escaped = escaped;
    }
}

/// One byte `b` of an attribute value: the first [`TEXT_CAP`] bytes are
/// kept (counted into `value`, `amp_open` telling whether an entity
/// reference is open); past them, once the entity reference or character in
/// progress is finished, the value is `cutting` and its bytes are dropped
/// (true).
fn value_byte(b: u8, value: &mut usize, amp_open: &mut bool, cutting: &mut bool) -> bool {
    *cutting = *cutting || (*value >= TEXT_CAP && !*amp_open && b & 0xC0 != 0x80);
    if *cutting {
        return true;
    }
    *value += 1;
    match b {
        b'&' => *amp_open = true,
        b';' => *amp_open = false,
        _ => {}
    }
    false
}

/// The mode after a start or end tag's `>`: the body of a `<system-out>`
/// or `<system-err>` start tag (`system`, not self-closed: `prev` is not
/// `/`), else text.
fn after_tag(system: Option<bool>, prev: u8) -> Mode {
    match system {
        Some(err) if prev != b'/' => Mode::System { err, cdata: false },
        _ => TEXT,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Filters `input` fed in chunks of `chunk` bytes.
    fn filter_chunked(input: &[u8], chunk: usize) -> (Vec<u8>, Vec<String>) {
        struct Trickle<'a>(&'a [u8], usize);
        impl Read for Trickle<'_> {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                let n = self.0.len().min(self.1).min(buf.len());
                buf[..n].copy_from_slice(&self.0[..n]);
                self.0 = &self.0[n..];
                Ok(n)
            }
        }
        let mut f = StreamFilter::new(Trickle(input, chunk));
        let mut out = Vec::new();
        f.read_to_end(&mut out).unwrap();
        let lines = f
            .take_repro_lines()
            .into_iter()
            .map(|l| String::from_utf8(l.bytes).unwrap())
            .collect();
        (out, lines)
    }

    fn filter(input: &str) -> String {
        let (a, _) = filter_chunked(input.as_bytes(), usize::MAX);
        let (b, _) = filter_chunked(input.as_bytes(), 1);
        let (c, _) = filter_chunked(input.as_bytes(), 7);
        assert_eq!(a, b, "1-byte reads change the output");
        assert_eq!(a, c, "7-byte reads change the output");
        String::from_utf8(a).unwrap()
    }

    #[test]
    fn drops_system_stream_bodies() {
        let input = "<root><system-out>FIRST</system-out><keep/><system-err>SECOND</system-err>\
                     <system-out><![CDATA[THIRD </system-out> ]]></system-out></root>";
        assert_eq!(
            filter(input),
            "<root><system-out></system-out><keep/><system-err></system-err>\
             <system-out></system-out></root>"
        );
    }

    #[test]
    fn self_closing_and_lookalike_tags_pass_unchanged() {
        let input = "<root><system-out/><system-err /><system-outfoo>x</system-outfoo></root>";
        assert_eq!(filter(input), input);
    }

    #[test]
    fn quoted_gt_and_slash_do_not_end_a_tag() {
        let input = "<r><system-out note=\"a>b/\">hidden</system-out><x a='>'/></r>";
        assert_eq!(
            filter(input),
            "<r><system-out note=\"a>b/\"></system-out><x a='>'/></r>"
        );
    }

    #[test]
    fn a_lt_in_an_attribute_value_is_refused() {
        let mut f = StreamFilter::new(&b"<r><t time=\"<<computed>>\"/></r>"[..]);
        let mut out = Vec::new();
        assert!(f.read_to_end(&mut out).is_err());
        assert_eq!(f.refusal().unwrap().offset, 12);
    }

    #[test]
    fn a_long_value_is_cut_after_the_reference_in_progress() {
        let value = format!("{}&amp;&amp;", "v".repeat(TEXT_CAP - 3));
        let out = filter(&format!("<f m=\"{value}\"/>"));
        assert_eq!(out, format!("<f m=\"{}&amp;\"/>", "v".repeat(TEXT_CAP - 3)));
    }

    #[test]
    fn cdata_in_a_failure_body_is_kept_even_with_a_system_tag_inside() {
        let input = "<failure><![CDATA[<system-out>leaked</system-out>]]></failure>";
        assert_eq!(filter(input), input);
    }

    #[test]
    fn multibyte_characters_split_between_reads_are_kept() {
        let input = "<a x=\"é\">caf\u{e9} — ok</a>";
        assert_eq!(filter(input), input);
    }

    #[test]
    fn comments_are_dropped() {
        assert_eq!(filter("<a><!-- <system-out> --><b/></a>"), "<a><b/></a>");
    }

    #[test]
    fn long_text_is_cut_on_a_reference_boundary() {
        let xs = "x".repeat(TEXT_CAP - 6);
        let out = filter(&format!("<f>{xs}&amp;&amp;tail</f>"));
        assert_eq!(out, format!("<f>{xs}&amp;</f>"));
    }

    #[test]
    fn long_cdata_is_cut_on_a_character_boundary() {
        let body = "é".repeat(TEXT_CAP);
        let out = filter(&format!("<f><![CDATA[{body}]]></f>"));
        assert_eq!(out.len(), "<f><![CDATA[".len() + TEXT_CAP + "]]></f>".len());
    }

    #[test]
    fn long_attribute_values_are_cut() {
        let value = "v".repeat(3 * TEXT_CAP);
        let out = filter(&format!("<f message=\"{value}\"/>"));
        assert_eq!(out.len(), "<f message=\"\"/>".len() + TEXT_CAP);
    }

    #[test]
    fn doctype_is_refused_at_its_offset() {
        let input =
            "<?xml version=\"1.0\"?>\n<!DOCTYPE lolz [<!ENTITY lol \"lol\">]><lolz>&lol;</lolz>";
        let mut f = StreamFilter::new(input.as_bytes());
        let mut out = Vec::new();
        assert!(f.read_to_end(&mut out).is_err());
        assert_eq!(f.refusal().unwrap().offset, 22);
    }

    #[test]
    fn offsets_map_back_over_dropped_bytes() {
        let input = b"<a><system-out>0123456789</system-out><!--xx--><b>";
        let mut f = StreamFilter::new(&input[..]);
        let mut out = Vec::new();
        f.read_to_end(&mut out).unwrap();
        assert_eq!(out, b"<a><system-out></system-out><b>");
        let b_filtered = out.len() as u64 - 3;
        assert_eq!(f.original_offset(b_filtered), input.len() as u64 - 3);
        assert_eq!(f.original_offset(3), 3);
    }

    #[test]
    fn finds_reproduce_lines_in_text_and_cdata_across_reads() {
        let input = "<s><system-err><![CDATA[noise\nREPRODUCE WITH: ./gradlew ':a:test' --tests \"A.b\"\n\
                     more]]></system-err><system-out>x REPRODUCE WITH: ./gradlew &quot;q&quot;</system-out></s>";
        for chunk in [1, 3, 5, 64, usize::MAX] {
            let (_, lines) = filter_chunked(input.as_bytes(), chunk);
            assert_eq!(
                lines,
                vec![
                    " ./gradlew ':a:test' --tests \"A.b\"".to_string(),
                    " ./gradlew &quot;q&quot;".to_string()
                ],
                "chunk {chunk}"
            );
        }
    }
}
