//! Elasticsearch's `muted-tests.yml`: its entries, read and checked as the
//! build's `MutedTestsBuildService` reads them, the tasks each applies to,
//! and which selected tests the current file mutes in their task.
//!
//! Differences from a plain reading of `class|method` keys:
//! - `method:` with no value is a whole-class mute; a scalar `methods:` is one
//!   method, not a list of characters.
//! - `tasks: [":path:task", ...]` scopes the mute to those Test tasks (each
//!   once); without it (or with `tasks:` null) it applies to every task. An
//!   empty list, an item that is no string, is blank or does not start with
//!   `:` fails Elasticsearch's build, and is an error naming the line here.
//! - A file that is not a mapping with a `tests:` list of mappings is an error
//!   naming the line, like a YAML syntax error.

use super::selection::{Selection, TestRef};
use crate::domain::{Mute, MuteState};
use crate::{Error, Result};
use saphyr::{LoadableYamlNode, MarkedYaml, Scalar, YamlData};
use std::collections::BTreeSet;
use std::fmt;
// Gradle's filter wildcard: `*` matches any run of characters.
use crate::test_filter::glob as wildcard;

/// One entry of the `tests:` list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MutedEntry {
    /// Line of the entry in the file (1-based).
    pub line: usize,
    pub class: String,
    /// `methods` in order, then `method`; empty mutes the whole class.
    pub methods: Vec<String>,
    /// The entry's `issue:` link, when it gives one.
    pub issue: Option<String>,
    /// The Test tasks it applies to (`tasks:`), sorted, each once; empty:
    /// every task.
    pub tasks: Vec<String>,
}

impl MutedEntry {
    /// The tests this entry mutes.
    pub fn refs(&self) -> Vec<TestRef> {
        if self.methods.is_empty() {
            return vec![TestRef::class(&self.class)];
        }
        self.methods
            .iter()
            .map(|m| TestRef::method(&self.class, m))
            .collect()
    }

    /// The tasks the mute applies to.
    pub fn scope(&self) -> TaskScope {
        match self.tasks.is_empty() {
            true => TaskScope::Every,
            false => TaskScope::Only(self.tasks.iter().cloned().collect()),
        }
    }
}

/// A set of Test tasks, by path: where a mute applies, or where a test is no
/// longer muted. Only what a difference of two scopes needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TaskScope {
    Every,
    /// These tasks (none: nowhere).
    Only(BTreeSet<String>),
    /// Every task but these (never empty: that is `Every`).
    AllBut(BTreeSet<String>),
}

impl TaskScope {
    pub fn nowhere() -> TaskScope {
        TaskScope::Only(BTreeSet::new())
    }

    pub fn is_nowhere(&self) -> bool {
        matches!(self, TaskScope::Only(tasks) if tasks.is_empty())
    }

    pub fn contains(&self, task: &str) -> bool {
        match self {
            TaskScope::Every => true,
            TaskScope::Only(tasks) => tasks.contains(task),
            TaskScope::AllBut(tasks) => !tasks.contains(task),
        }
    }

    /// The tasks in either.
    pub fn union(&self, other: &TaskScope) -> TaskScope {
        use TaskScope::*;
        match (self, other) {
            (Every, _) | (_, Every) => Every,
            (Only(a), Only(b)) => Only(a | b),
            (AllBut(a), Only(b)) | (Only(b), AllBut(a)) => all_but(a - b),
            (AllBut(a), AllBut(b)) => all_but(a & b),
        }
    }

    /// The tasks in `self` and not in `other`.
    pub fn minus(&self, other: &TaskScope) -> TaskScope {
        use TaskScope::*;
        match (self, other) {
            (_, Every) => TaskScope::nowhere(),
            (Every, Only(b)) => all_but(b.clone()),
            (Every, AllBut(b)) => Only(b.clone()),
            (Only(a), Only(b)) => Only(a - b),
            (Only(a), AllBut(b)) => Only(a & b),
            (AllBut(a), Only(b)) => AllBut(a | b),
            (AllBut(a), AllBut(b)) => Only(b - a),
        }
    }
}

fn all_but(tasks: BTreeSet<String>) -> TaskScope {
    match tasks.is_empty() {
        true => TaskScope::Every,
        false => TaskScope::AllBut(tasks),
    }
}

/// `every task`, `` `:a:test` `` or `` `:a:test`, `:b:test` ``, `every task but `:a:test``.
impl fmt::Display for TaskScope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list = |tasks: &BTreeSet<String>| {
            let shown: Vec<String> = tasks.iter().map(|t| format!("`{t}`")).collect();
            shown.join(", ")
        };
        match self {
            TaskScope::Every => f.write_str("every task"),
            TaskScope::Only(tasks) if tasks.is_empty() => f.write_str("no task"),
            TaskScope::Only(tasks) => f.write_str(&list(tasks)),
            TaskScope::AllBut(tasks) => write!(f, "every task but {}", list(tasks)),
        }
    }
}

/// Does the mute `by` also mute `test`? A class mute covers its methods; `*`
/// matches any text, as in Gradle's test filter patterns.
pub fn covers(by: &TestRef, test: &TestRef) -> bool {
    let class =
        by.class == test.class || (by.class.contains('*') && wildcard(&by.class, &test.class));
    class
        && match (&by.method, &test.method) {
            (None, _) => true,
            (Some(p), Some(m)) => p == m || (p.contains('*') && wildcard(p, m)),
            (Some(_), None) => false,
        }
}

/// The first entry of `entries` that mutes `test` in `task`.
pub fn muting<'a>(entries: &'a [MutedEntry], test: &TestRef, task: &str) -> Option<&'a MutedEntry> {
    entries
        .iter()
        .filter(|e| e.scope().contains(task))
        .find(|e| e.refs().iter().any(|by| covers(by, test)))
}

/// Marks each selected test the current muted-tests file mutes in its task
/// (as a whole: the class, or the method selected): Elasticsearch's build
/// would run none of it, so it runs with the build's mutes off and its note
/// names the entry's issue. A class with only some methods muted runs as the
/// build runs it, without them.
pub fn mark(selection: &mut Selection, current: &[MutedEntry]) {
    if current.is_empty() {
        return;
    }
    for test in selection.tests.iter_mut().filter(|t| t.mute.is_none()) {
        let Some(class) = &test.class else {
            continue;
        };
        let test_ref = TestRef {
            class: class.clone(),
            method: test.method.clone(),
        };
        if let Some(entry) = muting(current, &test_ref, &test.task) {
            test.mute = Some(Mute {
                state: MuteState::Muted,
                task: test.task.clone(),
                issue: entry.issue.clone(),
            });
        }
    }
}

/// Parses muted-tests.yml; `file` names it in errors (`file:line: message`).
/// Entries without a `class` are skipped, as Elasticsearch's flakiness
/// detection does; unknown keys are ignored.
pub fn parse(text: &str, file: &str) -> Result<Vec<MutedEntry>> {
    let at = |line: usize, message: String| Error::input(format!("{file}:{line}"), message);
    let docs =
        MarkedYaml::load_from_str(text).map_err(|e| at(e.marker().line(), e.info().to_string()))?;
    let Some(doc) = docs.first() else {
        return Ok(vec![]);
    };
    let tests = match untag(doc) {
        YamlData::Value(Scalar::Null) => return Ok(vec![]),
        YamlData::Mapping(_) => doc.data.as_mapping_get("tests"),
        _ => {
            return Err(at(
                line(doc),
                "expected a mapping with a `tests:` list".into(),
            ))
        }
    };
    let entries = match tests.map(|t| (t, untag(t))) {
        None | Some((_, YamlData::Value(Scalar::Null))) => return Ok(vec![]),
        Some((_, YamlData::Sequence(entries))) => entries,
        Some((t, _)) => return Err(at(line(t), "`tests` is not a list".into())),
    };
    entries
        .iter()
        .filter_map(|e| parse_entry(e).map_err(|(l, m)| at(l, m)).transpose())
        .collect()
}

/// A problem at a line of the file.
type MuteProblem = (usize, String);

/// One entry of `tests:`; `None` without a class.
fn parse_entry(entry: &MarkedYaml) -> Result<Option<MutedEntry>, MuteProblem> {
    let YamlData::Mapping(_) = untag(entry) else {
        return Err((line(entry), "a `tests` entry is not a mapping".into()));
    };
    let field = |key: &str| -> Result<Option<String>, MuteProblem> {
        match entry.data.as_mapping_get(key) {
            None => Ok(None),
            Some(node) => scalar(node).map_err(|m| (line(node), format!("`{key}` {m}"))),
        }
    };
    let Some(class) = field("class")?.filter(|c| !c.is_empty()) else {
        return Ok(None);
    };
    let mut methods = Vec::new();
    if let Some(list) = entry.data.as_mapping_get("methods") {
        match untag(list) {
            YamlData::Sequence(items) => {
                for item in items {
                    let m =
                        scalar(item).map_err(|m| (line(item), format!("a `methods` item {m}")))?;
                    methods.extend(m);
                }
            }
            _ => methods.extend(scalar(list).map_err(|m| (line(list), format!("`methods` {m}")))?),
        }
    }
    methods.extend(field("method")?);
    // Not read by the build: a link that is no single value is left out.
    let issue = entry
        .data
        .as_mapping_get("issue")
        .and_then(|node| scalar(node).ok().flatten());
    let tasks = entry.data.as_mapping_get("tasks").map(tasks).transpose()?;
    Ok(Some(MutedEntry {
        line: line(entry),
        class,
        methods,
        issue,
        tasks: tasks.unwrap_or_default(),
    }))
}

/// The `tasks:` of an entry, checked as Elasticsearch's build checks them
/// (each failure there fails its build): sorted, each once.
fn tasks(node: &MarkedYaml) -> Result<Vec<String>, MuteProblem> {
    const WHY: &str = "(Elasticsearch's build rejects it too)";
    let items = match untag(node) {
        YamlData::Value(Scalar::Null) => return Ok(Vec::new()),
        YamlData::Sequence(items) => items,
        _ => return Err((line(node), format!("`tasks` is not a list {WHY}"))),
    };
    if items.is_empty() {
        return Err((
            line(node),
            format!("`tasks` is empty: a task-scoped mute names its Test tasks {WHY}"),
        ));
    }
    let mut tasks = BTreeSet::new();
    for item in items {
        let YamlData::Value(Scalar::String(task)) = untag(item) else {
            return Err((line(item), format!("a `tasks` item is not a string {WHY}")));
        };
        if task.trim().is_empty() {
            return Err((line(item), format!("a `tasks` item is blank {WHY}")));
        }
        if !task.starts_with(':') {
            return Err((
                line(item),
                format!(
                    "the `tasks` item `{task}` does not start with `:` (a task path, such as \
                     `:server:test`) {WHY}"
                ),
            ));
        }
        tasks.insert(task.to_string());
    }
    Ok(tasks.into_iter().collect())
}

fn line(node: &MarkedYaml) -> usize {
    node.span.start.line()
}

fn untag<'a, 'b>(node: &'b MarkedYaml<'a>) -> &'b YamlData<'a, MarkedYaml<'a>> {
    match &node.data {
        YamlData::Tagged(_, inner) => untag(inner),
        data => data,
    }
}

/// A scalar as text (`None` for null); a list or mapping is an error.
fn scalar(node: &MarkedYaml) -> Result<Option<String>, String> {
    match untag(node) {
        YamlData::Value(Scalar::Null) => Ok(None),
        YamlData::Value(Scalar::String(s)) => Ok(Some(s.to_string())),
        YamlData::Value(Scalar::Integer(i)) => Ok(Some(i.to_string())),
        YamlData::Value(Scalar::FloatingPoint(f)) => Ok(Some(f.to_string())),
        YamlData::Value(Scalar::Boolean(b)) => Ok(Some(b.to_string())),
        YamlData::Representation(s, ..) => Ok(Some(s.to_string())),
        _ => Err("is not a single value".into()),
    }
}

#[cfg(test)]
#[path = "mutes_tests.rs"]
mod tests;
