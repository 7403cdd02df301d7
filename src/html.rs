//! The one HTML escaper. Test names, commits, branches and messages come
//! from whatever wrote a ledger (hostile data): everything that reaches a
//! page goes through here, so no name opens an element, ends an attribute
//! or starts an entity.

/// Text for an element's content or a quoted attribute value: `&`, `<`,
/// `>`, `"` and `'` as entities, control characters as blanks.
pub(crate) fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            '\n' => out.push('\n'),
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_in_names_stays_text() {
        assert_eq!(
            escape(r#"a.<script>alert('x')</script>"&b"#),
            "a.&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&quot;&amp;b"
        );
        assert_eq!(escape("a\u{1b}[31mb"), "a [31mb");
    }
}
