//! POSIX shell quoting: argv in, one command line out, each element one word.

/// Characters that never mean anything to a POSIX shell inside a word.
fn is_plain(c: char) -> bool {
    c.is_ascii_alphanumeric() || "_-+=/.,:@%".contains(c)
}

/// Words a shell reads specially in command position.
const RESERVED: [&str; 16] = [
    "!", "{", "}", "case", "do", "done", "elif", "else", "esac", "fi", "for", "if", "in", "then",
    "until", "while",
];

/// Quotes one word: bare when it is plain, else in single quotes with each `'`
/// written `'\''`. Everything inside single quotes is literal, so spaces, `$`,
/// backticks, `\`, newlines and non-ASCII stay data.
pub fn quote(word: &str) -> String {
    if !word.is_empty() && word.chars().all(is_plain) {
        return word.to_string();
    }
    single_quoted(word)
}

fn single_quoted(word: &str) -> String {
    format!("'{}'", word.replace('\'', "'\\''"))
}

/// Renders argv as one shell command. The program is also quoted when the shell
/// would read it as an assignment (`A=b`) or a reserved word.
pub fn join(argv: &[String]) -> String {
    argv.iter()
        .enumerate()
        .map(|(i, w)| {
            let special = i == 0 && (w.contains('=') || RESERVED.contains(&w.as_str()));
            if special {
                single_quoted(w)
            } else {
                quote(w)
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_words_stay_bare_and_the_rest_is_single_quoted() {
        assert_eq!(quote(":server:test"), ":server:test");
        assert_eq!(quote("-Dtests.iters=100"), "-Dtests.iters=100");
        assert_eq!(
            quote("-Dtests.timeoutSuite=3600000!"),
            "'-Dtests.timeoutSuite=3600000!'"
        );
        assert_eq!(quote(""), "''");
        assert_eq!(quote("it's"), "'it'\\''s'");
        assert_eq!(quote("a b"), "'a b'");
        assert_eq!(quote("$(x)`y`"), "'$(x)`y`'");
        assert_eq!(quote("~root"), "'~root'");
        assert_eq!(quote("#x"), "'#x'");
        assert_eq!(quote("é"), "'é'");
    }

    #[test]
    fn the_program_is_never_an_assignment_or_a_keyword() {
        let argv = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(join(&argv(&["A=b", "c=d"])), "'A=b' c=d");
        assert_eq!(join(&argv(&["if", "if"])), "'if' if");
        assert_eq!(join(&argv(&["./gradlew", ":a:test"])), "./gradlew :a:test");
    }
}
