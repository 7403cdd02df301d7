//! Batching by kind and building each batch's Gradle argv.

use super::group_in_order;
use crate::domain::{BatchingConfig, ClassifiedTest, Command, TestKind};
use std::collections::BTreeMap;

/// A Gradle version; enough to know which options exist.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct GradleVersion {
    pub major: u32,
    pub minor: u32,
    pub patch: Option<u32>,
}

impl GradleVersion {
    /// Reads `4.4.1`, `8.10`, `7.6-rc-1`; `None` for anything else.
    pub fn parse(s: &str) -> Option<GradleVersion> {
        let numeric = s
            .split(|c: char| !(c.is_ascii_digit() || c == '.'))
            .next()?;
        let mut parts = numeric.split('.');
        let major = parts.next()?.parse().ok()?;
        let minor = match parts.next() {
            Some(minor) => minor.parse().ok()?,
            None => 0,
        };
        let patch = parts.next().and_then(|p| p.parse().ok());
        Some(GradleVersion {
            major,
            minor,
            patch,
        })
    }

    /// The built-in `--rerun` task option exists from Gradle 7.6.
    pub fn has_rerun(self) -> bool {
        (self.major, self.minor) >= (7, 6)
    }
}

impl std::fmt::Display for GradleVersion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}", self.major, self.minor)?;
        match self.patch {
            Some(patch) => write!(f, ".{patch}"),
            None => Ok(()),
        }
    }
}

/// What commands need to know about the build they run in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlanContext {
    /// The Gradle program and its leading arguments, e.g. `["./gradlew"]`.
    pub gradle: Vec<String>,
    /// The build's Gradle version; `None` when unknown.
    pub gradle_version: Option<GradleVersion>,
    /// Extra arguments the user passed after `--`, appended to every command.
    pub extra_args: Vec<String>,
}

impl PlanContext {
    /// The context of `build`: its Gradle program and the version its layout
    /// reported. Without a layout the plan still works: the clean-task form of
    /// forcing runs on every version, and the plan says so.
    pub fn for_build(build: &crate::layout::Build, extra_args: &[String]) -> PlanContext {
        PlanContext {
            gradle: build.gradle.clone(),
            gradle_version: build.gradle_version().and_then(GradleVersion::parse),
            extra_args: extra_args.to_vec(),
        }
    }
}

/// How an up-to-date Test task is made to run again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Forcing {
    /// `--rerun` after the task (Gradle 7.6 and later).
    Rerun,
    /// `clean<Task>` before the task: the base plugin's rule, on every version.
    CleanTask,
}

impl PlanContext {
    pub fn forcing(&self) -> Forcing {
        match self.gradle_version {
            Some(v) if v.has_rerun() => Forcing::Rerun,
            _ => Forcing::CleanTask,
        }
    }
}

/// One command per batch of already reduced tests (see `reduce`): kinds in the
/// reference order (custom kinds after, by name), each kind cut into batches of its cap.
pub fn commands(tests: &[ClassifiedTest], cfg: &BatchingConfig, ctx: &PlanContext) -> Vec<Command> {
    let mut by_kind: BTreeMap<&TestKind, Vec<&ClassifiedTest>> = BTreeMap::new();
    for t in tests {
        by_kind.entry(&t.kind).or_default().push(t);
    }
    let mut out = Vec::new();
    for (kind, tests) in by_kind {
        for batch in batches(kind, &tests, cfg.cap(kind).max(1)) {
            out.push(command(kind, &batch, cfg, ctx));
        }
    }
    out
}

/// Consecutive slices of `cap`. YAML suites are sliced per task, because the
/// plain `-Dtests.rest.suite` property applies to every task of the command.
fn batches<'a>(
    kind: &TestKind,
    tests: &[&'a ClassifiedTest],
    cap: usize,
) -> Vec<Vec<&'a ClassifiedTest>> {
    let groups = if *kind == TestKind::YamlRestTestSuite {
        by_task(tests).into_iter().map(|(_, g)| g).collect()
    } else {
        vec![tests.to_vec()]
    };
    groups
        .iter()
        .flat_map(|g| g.chunks(cap).map(<[_]>::to_vec))
        .collect()
}

/// The batch grouped by task path, in order of first appearance: Gradle task
/// options (`--tests`, `--rerun`) bind to the task named just before them.
fn by_task<'a>(tests: &[&'a ClassifiedTest]) -> Vec<(&'a str, Vec<&'a ClassifiedTest>)> {
    group_in_order(tests.iter().copied(), |t| t.task.as_str())
}

fn command(
    kind: &TestKind,
    batch: &[&ClassifiedTest],
    cfg: &BatchingConfig,
    ctx: &PlanContext,
) -> Command {
    let iterations = cfg.iterations(kind);
    let mut argv = ctx.gradle.clone();
    if !kind.is_rest() {
        argv.push(format!("-Dtests.iters={iterations}"));
        argv.push(format!(
            "-Dtests.timeoutSuite={}!",
            cfg.suite_timeout.as_millis()
        ));
    }
    let mut task_paths = Vec::new();
    for (task, tests) in by_task(batch) {
        task_paths.push(task.to_string());
        if ctx.forcing() == Forcing::CleanTask {
            argv.push(clean_task(task));
        }
        argv.push(task.to_string());
        // A test without a filter selects the whole task: then no filter at all.
        let filters: Option<Vec<String>> = tests.iter().map(|t| filter(t)).collect();
        for f in filters.unwrap_or_default() {
            argv.push("--tests".into());
            argv.push(f);
        }
        if ctx.forcing() == Forcing::Rerun {
            argv.push("--rerun".into());
        }
    }
    if *kind == TestKind::YamlRestTestSuite {
        let paths: Vec<String> = batch
            .iter()
            .filter_map(|t| t.yaml_suite.as_deref())
            .map(|p| p.replace(',', "\\,"))
            .collect();
        // A suite without a path (the whole task) must not narrow it to nothing.
        if !paths.is_empty() {
            argv.push(format!("-Dtests.rest.suite={}", paths.join(",")));
        }
    }
    argv.push("--continue".into());
    argv.extend(ctx.extra_args.iter().cloned());
    Command {
        kind: kind.clone(),
        label: kind.label(),
        key: kind.key(),
        argv,
        iterations,
        rest_loops: cfg.loops(kind),
        task_paths,
    }
}

/// The `--tests` filter of a test: `Class`, `Class.method`, or a YAML case
/// `Runner.test {yaml=...}` (one argv element: no quotes needed, none added).
fn filter(t: &ClassifiedTest) -> Option<String> {
    if matches!(
        t.kind,
        TestKind::YamlRestTestRunner | TestKind::YamlRestTestSuite
    ) {
        return None;
    }
    match (&t.class, &t.method) {
        (Some(class), Some(method)) => Some(format!("{class}.{method}")),
        (Some(class), None) => Some(class.clone()),
        (None, _) => None,
    }
}

/// `:server:test` → `:server:cleanTest` (the base plugin's `clean<TaskName>` rule).
pub fn clean_task(task: &str) -> String {
    let (prefix, name) = match task.rsplit_once(':') {
        Some((prefix, name)) => (format!("{prefix}:"), name),
        None => (String::new(), task),
    };
    let mut chars = name.chars();
    let capitalized: String = chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default();
    format!("{prefix}clean{capitalized}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gradle_versions_parse_and_know_rerun() {
        let v = |s| GradleVersion::parse(s);
        let shown = |s| v(s).map(|v| v.to_string());
        assert_eq!(shown("4.4.1").as_deref(), Some("4.4.1"));
        assert_eq!(shown("8.10").as_deref(), Some("8.10"));
        assert_eq!(shown("9").as_deref(), Some("9.0"));
        assert_eq!(shown("7.6-rc-1").as_deref(), Some("7.6"));
        assert_eq!(v("unknown"), None);
        assert_eq!(v(""), None);
        assert!(!v("4.4.1").unwrap().has_rerun());
        assert!(!v("7.5.1").unwrap().has_rerun());
        assert!(v("7.6").unwrap().has_rerun());
        assert!(v("7.6.1").unwrap().has_rerun());
        assert!(v("8.0").unwrap().has_rerun());
        assert!(v("10.1").unwrap().has_rerun());
    }

    #[test]
    fn clean_tasks_follow_the_base_plugin_rule() {
        assert_eq!(clean_task(":server:test"), ":server:cleanTest");
        assert_eq!(
            clean_task(":x-pack:plugin:ml:internalClusterTest"),
            ":x-pack:plugin:ml:cleanInternalClusterTest"
        );
        assert_eq!(clean_task(":test"), ":cleanTest");
        assert_eq!(clean_task("test"), "cleanTest");
    }
}
