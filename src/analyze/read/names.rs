//! A test method's name as the reports write it, made stable: without the
//! randomized runner's per-execution tokens (iteration, seed) and without
//! identity hash codes, so that every execution of one test reads alike.

use std::borrow::Cow;

/// A test name without the randomized runner's per-execution tokens, and the
/// seed it carried: `testFoo {seed=[A:B]}` → (`testFoo`, `A:B`),
/// `test {yaml=a/b/c seed=[A:B]}` → (`test {yaml=a/b/c}`, `A:B`),
/// `testFoo {#3 seed=[A:B]}` and `testFoo #3` → `testFoo`.
///
/// Identity hash codes in default `toString()`s (`[Ljava.lang.String;@1a2b3c`,
/// `com.x.Foo@7f31245a`), which TestNG puts in data-provider rows' names and
/// which change from JVM to JVM, become `@hash`: the rows of two runs are
/// the same test.
pub(crate) fn normalize_method(raw: &str) -> (Cow<'_, str>, Option<&str>) {
    let (method, seed) = normalize_tokens(raw);
    match without_identity_hashes(&method) {
        Some(stable) => (Cow::Owned(stable), seed),
        None => (method, seed),
    }
}

/// `name` with each identity hash code written `@hash`; `None` when it has none.
fn without_identity_hashes(name: &str) -> Option<String> {
    let bytes = name.as_bytes();
    let mut out = String::new();
    let mut copied = 0;
    for (at, _) in name.match_indices('@') {
        let hex = bytes[at + 1..]
            .iter()
            .take_while(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(b))
            .count();
        let end = at + 1 + hex;
        let ends_word = bytes
            .get(end)
            .is_none_or(|b| !(b.is_ascii_alphanumeric() || *b == b'_'));
        if (1..=8).contains(&hex) && ends_word && names_a_type(&name[..at]) {
            out.push_str(&name[copied..at]);
            out.push_str("@hash");
            copied = end;
        }
    }
    (copied > 0).then(|| out + &name[copied..])
}

/// `head` ends with what a default `toString()` puts before the `@`: an array
/// type (`[Ljava.lang.String;`, `[I`) or a qualified class name (`com.x.Foo$Bar`).
fn names_a_type(head: &str) -> bool {
    let primitive_array = head
        .strip_suffix(['B', 'C', 'D', 'F', 'I', 'J', 'S', 'Z'])
        .is_some_and(|h| h.ends_with('['));
    if head.ends_with(';') || primitive_array {
        return true;
    }
    let word: &str = head
        .rsplit(|c: char| !(c.is_alphanumeric() || matches!(c, '.' | '$' | '_')))
        .next()
        .unwrap_or_default();
    word.contains('.') && !word.ends_with('.') && !word.starts_with('.')
}

/// [`normalize_method`] but for identity hash codes.
fn normalize_tokens(raw: &str) -> (Cow<'_, str>, Option<&str>) {
    let name = strip_iteration(raw.trim_end());
    let open = memchr::memmem::find(name.as_bytes(), b" {");
    let Some(open) = open.filter(|_| name.ends_with('}')) else {
        return (Cow::Borrowed(name), None);
    };
    let (params, seed) = without_seed(&name[open + 2..name.len() - 1]);
    // The runner puts the iteration first (`{#3 seed=[..]}`). A `#N` elsewhere
    // may be part of a YAML test's name, so it stays.
    let params = params.trim();
    let params = match params.split_once(' ') {
        Some((first, rest)) if is_iteration(first) => rest,
        _ if is_iteration(params) => "",
        _ => params,
    };
    let base = &name[..open];
    let method = if params.is_empty() {
        Cow::Borrowed(strip_iteration(base))
    } else if seed.is_none() && params.len() == name.len() - open - 3 {
        Cow::Borrowed(name)
    } else {
        Cow::Owned(format!("{base} {{{params}}}"))
    };
    (method, seed)
}

/// `#` followed by digits.
fn is_iteration(token: &str) -> bool {
    token.strip_prefix('#').is_some_and(all_digits)
}

/// Removes a trailing ` #N` (and ` #N (+K threads)`).
fn strip_iteration(name: &str) -> &str {
    runner_token(name).map_or(name, |(base, _)| base)
}

/// What gradle-flaky's JUnit 4 runner appends to an execution's name: its
/// iteration in its JVM, and the threads its class's earlier executions
/// there started and left running.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct RunnerToken {
    /// 1-based.
    pub iteration: u32,
    pub threads: u32,
}

/// `method #3` → (`method`, 3 and 0 threads); `method #3 (+2 threads)` →
/// (`method`, 3 and 2). `None` without the token.
pub(crate) fn runner_token(raw: &str) -> Option<(&str, RunnerToken)> {
    let raw = raw.trim_end();
    let (head, threads) = match raw
        .strip_suffix(" threads)")
        .or(raw.strip_suffix(" thread)"))
    {
        Some(rest) => {
            let (head, count) = rest.rsplit_once(" (+")?;
            (head, digits(count)?)
        }
        None => (raw, 0),
    };
    let (base, last) = head.rsplit_once(' ')?;
    let iteration = last.strip_prefix('#').and_then(digits)?;
    Some((base.trim_end(), RunnerToken { iteration, threads }))
}

/// A non-empty run of ASCII digits, as a number.
fn digits(text: &str) -> Option<u32> {
    all_digits(text).then(|| text.parse().ok()).flatten()
}

/// A non-empty run of ASCII digits.
fn all_digits(text: &str) -> bool {
    !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit())
}

/// `params` without its whitespace-delimited token `seed=[...]`, and the seed.
fn without_seed(params: &str) -> (Cow<'_, str>, Option<&str>) {
    let mut from = 0;
    while let Some(i) = params[from..].find("seed=[").map(|i| from + i) {
        let body = i + "seed=[".len();
        let Some(close) = params[body..].find(']').map(|c| body + c) else {
            break;
        };
        let end = close + 1;
        let token_start = i == 0 || params[..i].ends_with(char::is_whitespace);
        let token_end = end == params.len() || params[end..].starts_with(char::is_whitespace);
        if token_start && token_end {
            let head = params[..i].trim_end();
            let tail = params[end..].trim_start();
            let rest = match (head.is_empty(), tail.is_empty()) {
                (_, true) => Cow::Borrowed(head),
                (true, false) => Cow::Borrowed(tail),
                (false, false) => Cow::Owned(format!("{head} {tail}")),
            };
            return (rest, Some(&params[body..close]));
        }
        from = body;
    }
    (Cow::Borrowed(params), None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_runners_token_gives_the_iteration_and_the_threads_left() {
        let token = |iteration, threads| RunnerToken { iteration, threads };
        assert_eq!(runner_token("t #3"), Some(("t", token(3, 0))));
        assert_eq!(
            runner_token("t[0] #12 (+2 threads)"),
            Some(("t[0]", token(12, 2)))
        );
        assert_eq!(runner_token("t #2 (+1 thread)"), Some(("t", token(2, 1))));
        for plain in [
            "t",
            "t #",
            "t #x",
            "t (+2 threads)",
            "t #2 (+x threads)",
            "t#2",
        ] {
            assert_eq!(runner_token(plain), None, "{plain}");
        }
        assert_eq!(normalize_method("t[0] #4 (+3 threads)").0, "t[0]");
    }
}
