//! The one markdown escaper. Test names, messages, labels and paths come from
//! a branch (hostile data): whatever reaches a report, a job summary or an
//! annotation goes through here, so no backtick ends a code span, no `|`
//! splits a table row, no `<` opens HTML and no `[` starts a link.

/// Longest text kept inline; the rest is cut with `…`.
pub(crate) const MAX_INLINE_CHARS: usize = 400;

/// Plain inline text: one line, shortened, with every character that markdown
/// or HTML would read as markup escaped. Safe in a paragraph, a list item or a table cell.
pub(crate) fn text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in shorten(&one_line(s)).chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            // `[` starts every link and image, and a `]` after our own `[`
            // would close it early (`[label](url)`); `*` and `_` only emphasise.
            '\\' | '`' | '|' | '[' | ']' => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out
}

/// A code span that survives any backticks in the text: the fence is longer
/// than the longest run of backticks inside. One line, shortened.
pub(crate) fn code(s: &str) -> String {
    let s = shorten(&one_line(s));
    if s.is_empty() {
        return "` `".into();
    }
    let fence = "`".repeat(longest_run(&s, '`') + 1);
    let pad = if s.starts_with('`') || s.ends_with('`') {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{s}{pad}{fence}")
}

/// A code span for a table cell: tables split rows on `|` even inside code,
/// and read `\|` there as a literal pipe.
pub(crate) fn code_in_table(s: &str) -> String {
    code(s).replace('|', "\\|")
}

/// A fenced code block holding `body` as it is: the fence is longer than any
/// run of backticks inside (at least three).
pub(crate) fn fenced(body: &str, lang: &str) -> String {
    let fence = "`".repeat(longest_run(body, '`').max(2) + 1);
    format!("{fence}{lang}\n{body}\n{fence}")
}

/// One line, shortened, not escaped: for plain-text fields (a JUnit message,
/// a comment line inside a fenced block).
pub(crate) fn plain_line(s: &str) -> String {
    shorten(&one_line(s))
}

/// Text on one line: line breaks and other control characters become spaces.
pub(crate) fn one_line(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

/// `body` when it has at most `limit` bytes; else cut on a line boundary and
/// followed by `note`, within `limit` (a CI's annotation or summary limit).
pub(crate) fn fit(body: &str, limit: usize, note: &str) -> String {
    if body.len() <= limit {
        return body.to_string();
    }
    let mut cut = limit.saturating_sub(note.len());
    while !body.is_char_boundary(cut) {
        cut -= 1;
    }
    let cut = body[..cut].rfind('\n').unwrap_or(cut);
    format!("{}{note}", &body[..cut])
}

/// At most [`MAX_INLINE_CHARS`] characters, then `…`.
fn shorten(s: &str) -> String {
    match s.char_indices().nth(MAX_INLINE_CHARS) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_string(),
    }
}

fn longest_run(s: &str, c: char) -> usize {
    let (mut best, mut run) = (0, 0);
    for x in s.chars() {
        run = if x == c { run + 1 } else { 0 };
        best = best.max(run);
    }
    best
}

/// The anchor a heading gets (mdBook's and GitHub's rule): its text without
/// markup, lower-cased, blanks as `-`, every other character but letters,
/// digits, `-` and `_` dropped. Links into the book are checked against it.
pub(crate) fn heading_anchor(heading: &str) -> String {
    heading
        .chars()
        .filter_map(|c| {
            if c.is_alphanumeric() || c == '-' || c == '_' {
                Some(c.to_lowercase().next().unwrap_or(c))
            } else if c.is_whitespace() {
                Some('-')
            } else {
                None
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_escapes_what_markdown_and_html_read() {
        assert_eq!(
            text("expected:<1> but | was [x](http://e) `y` *z* a_b\nnext"),
            "expected:&lt;1&gt; but \\| was \\[x\\](http://e) \\`y\\` *z* a_b next"
        );
        assert_eq!(
            text("<img src=x onerror=alert(1)>"),
            "&lt;img src=x onerror=alert(1)&gt;"
        );
        assert_eq!(text("a\\`b"), "a\\\\\\`b");
    }

    #[test]
    fn code_spans_outlast_the_backticks_inside() {
        assert_eq!(code("a.B.c"), "`a.B.c`");
        assert_eq!(code("a`b"), "``a`b``");
        assert_eq!(code("`x`"), "`` `x` ``");
        assert_eq!(code("a|b\nc"), "`a|b c`");
        assert_eq!(code_in_table("a|b"), "`a\\|b`");
        assert_eq!(code(""), "` `");
    }

    #[test]
    fn fences_outlast_the_backticks_inside() {
        assert_eq!(fenced("a", "sh"), "```sh\na\n```");
        assert_eq!(fenced("a ```` b", ""), "`````\na ```` b\n`````");
    }

    #[test]
    fn long_text_is_cut() {
        let long = "x".repeat(MAX_INLINE_CHARS + 10);
        assert!(text(&long).ends_with('…'));
        assert_eq!(text(&long).chars().count(), MAX_INLINE_CHARS + 1);
    }
}
