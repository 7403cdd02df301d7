//! Text for a terminal: names from a branch (classes, files, YAML text) are
//! shown with their control characters escaped, so they cannot drive it.
//! Beside `shell` (words for a shell) and `markdown` (text for markdown).

/// Control characters as `\u{..}` escapes; everything else as it is.
pub(crate) fn visible(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_control() {
                c.escape_unicode().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// Like [`visible`], but a text of several lines (a note quoting Gradle's
/// output) keeps its lines, each after the first indented by `indent`.
pub(crate) fn visible_lines(s: &str, indent: &str) -> String {
    s.lines()
        .map(visible)
        .collect::<Vec<_>>()
        .join(&format!("\n{indent}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_escaped_for_people() {
        assert_eq!(visible("a\nb\u{1b}[31m"), "a\\u{a}b\\u{1b}[31m");
        assert_eq!(visible("é x"), "é x");
        assert_eq!(visible_lines("a\nb\u{1b}", "  "), "a\n  b\\u{1b}");
    }
}
