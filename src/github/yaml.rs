//! A small YAML writer for the generated workflow, and the reader that checks
//! it. Block style, keys in the order given; a string is written plain only
//! when YAML reads it back as that same string, else as a double-quoted JSON
//! string (JSON's escapes are YAML's); a multi-line script is a literal block.

use crate::{Error, Result};
use saphyr::{LoadableYamlNode, Scalar, Yaml};
use serde_json::Value;

/// A YAML value, keys in writing order.
#[derive(Clone, Debug, PartialEq)]
pub enum Node {
    Str(String),
    Int(i64),
    Bool(bool),
    Map(Vec<(String, Node)>),
    List(Vec<Node>),
}

impl Node {
    pub fn str(s: impl Into<String>) -> Node {
        Node::Str(s.into())
    }

    /// A mapping from `(key, value)` pairs, in order.
    pub fn map<'a>(entries: impl IntoIterator<Item = (&'a str, Node)>) -> Node {
        Node::Map(
            entries
                .into_iter()
                .map(|(k, v)| (k.to_string(), v))
                .collect(),
        )
    }

    /// The same value as JSON (what a schema validates).
    pub fn to_json(&self) -> Value {
        match self {
            Node::Str(s) => Value::String(s.clone()),
            Node::Int(n) => Value::from(*n),
            Node::Bool(b) => Value::Bool(*b),
            Node::Map(entries) => Value::Object(
                entries
                    .iter()
                    .map(|(k, v)| (k.clone(), v.to_json()))
                    .collect(),
            ),
            Node::List(items) => Value::Array(items.iter().map(Node::to_json).collect()),
        }
    }
}

/// The document: `header` lines as `#` comments, then `root` (a mapping).
pub fn emit(header: &[String], root: &Node) -> String {
    let mut out = String::new();
    for line in header {
        out.push_str(format!("# {line}").trim_end());
        out.push('\n');
    }
    match root {
        Node::Map(entries) => emit_map(entries, 0, &mut out),
        other => {
            out.push_str(&scalar(other));
            out.push('\n');
        }
    }
    out
}

fn emit_map(entries: &[(String, Node)], indent: usize, out: &mut String) {
    for (key, value) in entries {
        out.push_str(&" ".repeat(indent));
        out.push_str(&map_key(key));
        out.push(':');
        emit_after(value, indent, out);
    }
}

/// A value after `key:` or `- ` on a line indented by `indent`.
fn emit_after(value: &Node, indent: usize, out: &mut String) {
    match value {
        Node::Map(entries) if entries.is_empty() => out.push_str(" {}\n"),
        Node::List(items) if items.is_empty() => out.push_str(" []\n"),
        Node::Map(entries) => {
            out.push('\n');
            emit_map(entries, indent + 2, out);
        }
        Node::List(items) => {
            out.push('\n');
            emit_list(items, indent + 2, out);
        }
        Node::Str(s) if literal_block_ok(s) => {
            let chomp = if s.ends_with("\n\n") {
                "+"
            } else if s.ends_with('\n') {
                ""
            } else {
                "-"
            };
            out.push_str(&format!(" |{chomp}\n"));
            for line in s.strip_suffix('\n').unwrap_or(s).split('\n') {
                if !line.is_empty() {
                    out.push_str(&" ".repeat(indent + 2));
                    out.push_str(line);
                }
                out.push('\n');
            }
        }
        scalar_node => {
            out.push(' ');
            out.push_str(&scalar(scalar_node));
            out.push('\n');
        }
    }
}

fn emit_list(items: &[Node], indent: usize, out: &mut String) {
    for item in items {
        match item {
            Node::Map(entries) if !entries.is_empty() => {
                // The first entry goes on the dash's line, the rest below it.
                let mut body = String::new();
                emit_map(entries, indent + 2, &mut body);
                out.push_str(&" ".repeat(indent));
                out.push_str("- ");
                out.push_str(&body[indent + 2..]);
            }
            other => {
                out.push_str(&" ".repeat(indent));
                out.push('-');
                emit_after(other, indent, out);
            }
        }
    }
}

fn scalar(node: &Node) -> String {
    match node {
        Node::Str(s) if plain_ok(s) => s.clone(),
        Node::Str(s) => double_quoted(s),
        Node::Int(n) => n.to_string(),
        Node::Bool(b) => b.to_string(),
        Node::Map(_) | Node::List(_) => unreachable!("collections are not scalars"),
    }
}

fn map_key(key: &str) -> String {
    let identifier = key
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if identifier {
        key.to_string()
    } else {
        double_quoted(key)
    }
}

/// A double-quoted scalar: `"` and `\` escaped, and every character a YAML
/// reader may refuse in a stream (controls, the byte-order mark, U+FFFE/U+FFFF)
/// written as an escape.
fn double_quoted(s: &str) -> String {
    let mut out = String::from('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if !printable(c) => out.push_str(&format!("\\u{:04X}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// YAML's printable characters (tab and line feed aside).
fn printable(c: char) -> bool {
    !c.is_control() && !matches!(c, '\u{FEFF}' | '\u{FFFE}' | '\u{FFFF}')
}

/// Words YAML 1.1 or 1.2 parsers read as something other than a string.
const RESERVED: [&str; 11] = [
    "null", "~", "true", "false", "yes", "no", "on", "off", "y", "n", "=",
];

/// True when `s`, written plain, reads back as the same string: it starts with
/// a letter, `_`, `/` or `$` (no indicator, no number), holds no `: ` or ` #`
/// and no control character, does not end in `:` or a space, and is no word
/// that some YAML parser takes for a boolean or null.
fn plain_ok(s: &str) -> bool {
    let Some(first) = s.chars().next() else {
        return false;
    };
    (first.is_ascii_alphabetic() || "_/$".contains(first))
        && s.chars().all(printable)
        && !s.contains(": ")
        && !s.contains(" #")
        && !s.ends_with(':')
        && !s.ends_with(' ')
        && !RESERVED.contains(&s.to_ascii_lowercase().as_str())
}

/// A script is written as a literal block when every line reads back as is:
/// several lines, only printable characters, line feeds and tabs, no line
/// ending in a space, and a first non-empty line that does not start with one
/// (it would set the block's indentation).
fn literal_block_ok(s: &str) -> bool {
    s.trim_end_matches('\n').contains('\n')
        && s.split('\n')
            .find(|l| !l.is_empty())
            .is_some_and(|l| !l.starts_with(' '))
        && s.chars().all(|c| printable(c) || c == '\n' || c == '\t')
        && !s.split('\n').any(|l| l.ends_with(' ') || l.ends_with('\t'))
}

/// Reads a YAML document back as JSON, the way GitHub and schema validators
/// read a workflow (YAML 1.2: `on` stays a string key). For checking what
/// [`emit`] wrote.
pub fn parse(text: &str) -> Result<Value> {
    let docs =
        Yaml::load_from_str(text).map_err(|e| Error::input("workflow YAML", e.to_string()))?;
    let doc = docs
        .into_iter()
        .next()
        .ok_or_else(|| Error::input("workflow YAML", "no document"))?;
    to_json(&doc)
}

fn to_json(node: &Yaml) -> Result<Value> {
    let bad = |what: &str| Error::input("workflow YAML", what.to_string());
    Ok(match node {
        Yaml::Value(Scalar::Null) => Value::Null,
        Yaml::Value(Scalar::Boolean(b)) => Value::Bool(*b),
        Yaml::Value(Scalar::Integer(n)) => Value::from(*n),
        Yaml::Value(Scalar::FloatingPoint(f)) => Value::from(f.into_inner()),
        Yaml::Value(Scalar::String(s)) => Value::String(s.to_string()),
        Yaml::Sequence(items) => Value::Array(items.iter().map(to_json).collect::<Result<_>>()?),
        Yaml::Mapping(map) => {
            let mut object = serde_json::Map::new();
            for (k, v) in map {
                let Value::String(key) = to_json(k)? else {
                    return Err(bad("a mapping key that is not a string"));
                };
                object.insert(key, to_json(v)?);
            }
            Value::Object(object)
        }
        _ => return Err(bad("an alias, tag or unresolved node")),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(node: &Node) -> Value {
        let text = emit(&[], node);
        parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"))
    }

    #[test]
    fn every_string_reads_back_as_written() {
        let strings = [
            "plain",
            "actions/checkout@v4",
            "${{ fromJSON(needs.plan.outputs.matrix) }}",
            "!cancelled() && needs.plan.outputs.batches != '0'",
            "on",
            "Yes",
            "null",
            "~",
            "17",
            "0.95",
            "1e3",
            "0x1F",
            ".inf",
            "-1",
            "",
            " leading",
            "trailing ",
            "a: b",
            "a #b",
            "end:",
            "#comment",
            "*alias",
            "&anchor",
            "'quoted'",
            "\"dq\"",
            "@at",
            "`tick`",
            "%percent",
            "{flow}",
            "[flow]",
            "multi\nline\n",
            "no final newline\nhere",
            "two\nnewlines\n\n",
            "  indented\nfirst line",
            "tab\tin\nit",
            "trailing space \nline",
            "control \u{7} char\nx",
            "é ü ${{ github.token }} $(touch pwned)",
            "\n",
            "\nfirst line empty\nx",
            "\n  indented after an empty line\nx",
            "bom\u{FEFF}inside",
            "del\u{7F}and c1\u{85}",
            "back\\slash \"dq\"",
        ];
        for s in strings {
            let node = Node::map([("key", Node::str(s))]);
            assert_eq!(round_trip(&node), node.to_json(), "{s:?}");
        }
    }

    #[test]
    fn nested_maps_and_lists_read_back() {
        let node = Node::map([
            ("on", Node::map([("pull_request", Node::Map(vec![]))])),
            ("empty", Node::List(vec![])),
            (
                "steps",
                Node::List(vec![
                    Node::map([
                        ("uses", Node::str("actions/checkout@v4")),
                        ("with", Node::map([("fetch-depth", Node::Int(0))])),
                    ]),
                    Node::map([("run", Node::str("a\nb\n")), ("if", Node::Bool(true))]),
                    Node::str("scalar item"),
                    Node::List(vec![Node::Int(1), Node::str("two")]),
                ]),
            ),
            ("key with space", Node::str("x")),
        ]);
        assert_eq!(round_trip(&node), node.to_json());
    }

    #[test]
    fn scripts_are_literal_blocks_and_expressions_stay_plain() {
        let node = Node::map([
            ("run", Node::str("one\ntwo\n")),
            ("matrix", Node::str("${{ fromJSON(x) }}")),
            ("version", Node::str("17")),
        ]);
        assert_eq!(
            emit(&["header".into()], &node),
            "# header\nrun: |\n  one\n  two\nmatrix: ${{ fromJSON(x) }}\nversion: \"17\"\n"
        );
    }
}
