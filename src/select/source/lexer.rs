//! Splits Java, Groovy and Kotlin source into identifiers and punctuation.
//! Comments, string and character literals (Java text blocks, Groovy and
//! Kotlin strings with `${…}` templates, Groovy `~/…/` patterns) are skipped,
//! so their braces and keywords never count.

use super::model::Language;

/// A token: an identifier or keyword, or one punctuation byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Tok<'a> {
    Ident(&'a str),
    Punct(u8),
}

/// Splits source text into identifiers and punctuation, skipping what never
/// declares anything.
pub(super) struct Lexer<'a> {
    src: &'a [u8],
    text: &'a str,
    pos: usize,
    lang: Language,
    /// Open `${` templates: the brace depth inside each.
    templates: Vec<usize>,
}

impl<'a> Lexer<'a> {
    pub(super) fn new(text: &'a str, lang: Language) -> Self {
        Lexer {
            src: text.as_bytes(),
            text,
            pos: 0,
            lang,
            templates: Vec::new(),
        }
    }

    /// The byte just before offset `at` (0 at the start).
    pub(super) fn byte_before(&self, at: usize) -> u8 {
        at.checked_sub(1)
            .and_then(|i| self.src.get(i))
            .copied()
            .unwrap_or(0)
    }

    fn peek_byte(&self, at: usize) -> u8 {
        self.src.get(self.pos + at).copied().unwrap_or(0)
    }

    /// The next token and the byte offset it starts at.
    pub(super) fn next(&mut self) -> Option<(Tok<'a>, usize)> {
        loop {
            let at = self.pos;
            let c = *self.src.get(self.pos)?;
            match c {
                b' ' | b'\t' | b'\r' | b'\n' | 0x0c => self.pos += 1,
                b'/' if self.peek_byte(1) == b'/' => self.skip_line(),
                b'/' if self.peek_byte(1) == b'*' => self.skip_block_comment(),
                b'"' => self.skip_string(),
                b'\'' => self.skip_quote(),
                // A Groovy `~/…/` pattern.
                b'~' if self.lang == Language::Groovy && self.peek_byte(1) == b'/' => {
                    self.pos += 2;
                    self.skip_escaped_until(b'/');
                }
                b'`' => self.skip_until_byte(b'`'), // Kotlin `quoted names`
                _ if is_ident_start(c) => {
                    let start = self.pos;
                    while self.pos < self.src.len() && is_ident_part(self.src[self.pos]) {
                        self.pos += 1;
                    }
                    return Some((Tok::Ident(&self.text[start..self.pos]), at));
                }
                b'{' => {
                    self.pos += 1;
                    if let Some(depth) = self.templates.last_mut() {
                        *depth += 1;
                    }
                    return Some((Tok::Punct(c), at));
                }
                b'}' => {
                    self.pos += 1;
                    match self.templates.last_mut() {
                        Some(0) => {
                            // the end of a `${…}` template: back inside its string
                            self.templates.pop();
                            self.skip_string_body();
                        }
                        Some(depth) => {
                            *depth -= 1;
                            return Some((Tok::Punct(c), at));
                        }
                        None => return Some((Tok::Punct(c), at)),
                    }
                }
                _ => {
                    self.pos += 1;
                    if c.is_ascii_digit() {
                        // numbers (`1.5f`, `0x1F`) are not names
                        while self.pos < self.src.len() && is_ident_part(self.src[self.pos]) {
                            self.pos += 1;
                        }
                        continue;
                    }
                    return Some((Tok::Punct(c), at));
                }
            }
        }
    }

    fn skip_line(&mut self) {
        while self.pos < self.src.len() && self.src[self.pos] != b'\n' {
            self.pos += 1;
        }
    }

    fn skip_block_comment(&mut self) {
        self.pos += 2;
        while self.pos < self.src.len() {
            if self.src[self.pos] == b'*' && self.peek_byte(1) == b'/' {
                self.pos += 2;
                return;
            }
            self.pos += 1;
        }
    }

    fn skip_until_byte(&mut self, end: u8) {
        self.pos += 1;
        while self.pos < self.src.len() && self.src[self.pos] != end {
            self.pos += 1;
        }
        self.pos += 1;
    }

    /// A `"…"` or `"""…"""` string, at its opening quote.
    fn skip_string(&mut self) {
        if self.peek_byte(1) == b'"' && self.peek_byte(2) == b'"' {
            self.pos += 3;
            while self.pos < self.src.len() {
                if self.src[self.pos..].starts_with(b"\"\"\"") {
                    // a text block may end with more quotes than three
                    while self.peek_byte(0) == b'"' {
                        self.pos += 1;
                    }
                    return;
                }
                if self.src[self.pos] == b'\\' && self.lang != Language::Kotlin {
                    self.pos += 1;
                } else if self.at_template() {
                    self.open_template();
                    return;
                }
                self.pos += 1;
            }
            return;
        }
        self.pos += 1;
        self.skip_string_body();
    }

    /// The rest of a one-line `"…"` string (also after a template ends).
    fn skip_string_body(&mut self) {
        while self.pos < self.src.len() {
            match self.src[self.pos] {
                b'\\' => self.pos += 2,
                b'"' => {
                    self.pos += 1;
                    return;
                }
                b'\n' => return, // unterminated: resynchronise at the line end
                _ if self.at_template() => {
                    self.open_template();
                    return;
                }
                _ => self.pos += 1,
            }
        }
    }

    fn at_template(&self) -> bool {
        self.lang.templates() && self.src[self.pos] == b'$' && self.peek_byte(1) == b'{'
    }

    fn open_template(&mut self) {
        self.pos += 2;
        self.templates.push(0);
    }

    /// `'c'` in Java and Kotlin; a `'…'` or `'''…'''` string in Groovy.
    fn skip_quote(&mut self) {
        if self.lang == Language::Groovy && self.peek_byte(1) == b'\'' && self.peek_byte(2) == b'\''
        {
            self.pos += 3;
            while self.pos < self.src.len() && !self.src[self.pos..].starts_with(b"'''") {
                if self.src[self.pos] == b'\\' {
                    self.pos += 1;
                }
                self.pos += 1;
            }
            self.pos += 3;
            return;
        }
        self.pos += 1;
        self.skip_escaped_until(b'\'');
    }

    /// Past the next unescaped `end`, or the line's end.
    fn skip_escaped_until(&mut self, end: u8) {
        while self.pos < self.src.len() {
            match self.src[self.pos] {
                b'\\' => self.pos += 2,
                b if b == end || b == b'\n' => {
                    self.pos += 1;
                    return;
                }
                _ => self.pos += 1,
            }
        }
    }
}

fn is_ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_' || c == b'$' || c >= 0x80
}

fn is_ident_part(c: u8) -> bool {
    is_ident_start(c) || c.is_ascii_digit()
}
