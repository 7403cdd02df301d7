//! JVM options every JVM takes from its environment (`JAVA_TOOL_OPTIONS`,
//! `_JAVA_OPTIONS`): test JVMs that pick them up run the tests under options
//! CI may not have (a JIT that stops at C1, another collector), so the rates
//! they measure may differ. A run sees them in its own environment, which
//! Gradle and its test JVMs inherit, or in Gradle's output ("Picked up
//! JAVA_TOOL_OPTIONS: …"): a Gradle daemon started with them keeps them, and
//! the test JVMs it forks for later builds that reuse it inherit them too,
//! whatever the later client's environment says.

use serde::{Deserialize, Serialize};

/// A variable every JVM reads its options from at start.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum OptionsVariable {
    #[serde(rename = "JAVA_TOOL_OPTIONS")]
    JavaToolOptions,
    #[serde(rename = "_JAVA_OPTIONS")]
    JavaOptions,
}

impl OptionsVariable {
    pub const ALL: [OptionsVariable; 2] = [
        OptionsVariable::JavaToolOptions,
        OptionsVariable::JavaOptions,
    ];

    pub fn name(self) -> &'static str {
        match self {
            OptionsVariable::JavaToolOptions => "JAVA_TOOL_OPTIONS",
            OptionsVariable::JavaOptions => "_JAVA_OPTIONS",
        }
    }

    /// What a JVM prints on stderr when it picks the variable up.
    fn picked_up(self) -> &'static str {
        match self {
            OptionsVariable::JavaToolOptions => "Picked up JAVA_TOOL_OPTIONS:",
            OptionsVariable::JavaOptions => "Picked up _JAVA_OPTIONS:",
        }
    }
}

/// Where a run saw JVM options its test JVMs may have run under.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SeenIn {
    /// gradle-flaky's own environment, which Gradle and its test JVMs inherit.
    Environment,
    /// Gradle's output, while gradle-flaky's environment had none: a JVM of
    /// the build picked them up, a daemon started with them and reused.
    GradleOutput,
}

/// JVM options a run's test JVMs picked up, or may have.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct InheritedJvmOptions {
    pub variable: OptionsVariable,
    pub seen_in: SeenIn,
}

impl InheritedJvmOptions {
    /// What the report says of it, a clause (the variable's name only: its
    /// value may hold what a report must not show).
    pub fn describe(&self) -> String {
        let name = self.variable.name();
        match self.seen_in {
            SeenIn::Environment => {
                format!(
                    "`{name}` was set in gradle-flaky's environment, which the test JVMs inherit"
                )
            }
            SeenIn::GradleOutput => format!(
                "the test JVMs picked up `{name}` from a reused Gradle daemon started with it"
            ),
        }
    }
}

/// Adds to `into` each of `from` whose variable it does not hold yet.
pub fn merge(into: &mut Vec<InheritedJvmOptions>, from: &[InheritedJvmOptions]) {
    for found in from {
        if into.iter().all(|s| s.variable != found.variable) {
            into.push(found.clone());
        }
    }
}

/// The variables set (not blank) in an environment `var` reads, with their values.
pub fn in_environment(var: impl Fn(&str) -> Option<String>) -> Vec<(OptionsVariable, String)> {
    OptionsVariable::ALL
        .into_iter()
        .filter_map(|v| {
            let value = var(v.name())?;
            (!value.trim().is_empty()).then_some((v, value))
        })
        .collect()
}

/// The variables a JVM said it picked up in `output`, with the value it said
/// (the first line of each).
pub fn picked_up(output: &[u8]) -> Vec<(OptionsVariable, String)> {
    OptionsVariable::ALL
        .into_iter()
        .filter_map(|v| {
            let said = v.picked_up().as_bytes();
            let at = memchr::memmem::find(output, said)? + said.len();
            let rest = &output[at..];
            let end = memchr::memchr2(b'\n', b'\r', rest).unwrap_or(rest.len());
            Some((v, String::from_utf8_lossy(&rest[..end]).trim().to_string()))
        })
        .collect()
}

/// The warning a run gives, once per variable.
pub fn warning(variable: OptionsVariable, value: &str, seen_in: SeenIn) -> String {
    let name = variable.name();
    let value = crate::terminal::visible(&shorten(value));
    match seen_in {
        SeenIn::Environment => format!(
            "{name} is set (`{value}`): Gradle and the test JVMs it starts pick it up, and a \
             Gradle daemon started now keeps it for later builds that reuse it; the failure \
             rates measured under it may differ from CI's"
        ),
        SeenIn::GradleOutput => format!(
            "Gradle's JVMs picked up {name} (`{value}`), which gradle-flaky's environment does \
             not set: a Gradle daemon started with it passes it on to the test JVMs it forks for \
             every build that reuses it; the failure rates measured under it may differ from \
             CI's (`gradle --stop` ends such daemons; --isolate runs on a daemon of its own)"
        ),
    }
}

/// At most 200 characters of a value, for a line on stderr.
fn shorten(value: &str) -> String {
    const MAX: usize = 200;
    match value.char_indices().nth(MAX) {
        Some((at, _)) => format!("{}…", &value[..at]),
        None => value.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_are_read_from_an_environment_and_from_what_jvms_print() {
        let env = |name: &str| match name {
            "JAVA_TOOL_OPTIONS" => Some("-XX:TieredStopAtLevel=1 -XX:+UseSerialGC".to_string()),
            "_JAVA_OPTIONS" => Some("  ".to_string()),
            _ => None,
        };
        assert_eq!(
            in_environment(env),
            [(
                OptionsVariable::JavaToolOptions,
                "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC".to_string()
            )]
        );
        let output = b"> Task :server:test\r\nPicked up _JAVA_OPTIONS: -Xmx2g\n\
            Picked up _JAVA_OPTIONS: -Xmx3g\nBUILD SUCCESSFUL\n";
        assert_eq!(
            picked_up(output),
            [(OptionsVariable::JavaOptions, "-Xmx2g".to_string())]
        );
        assert!(picked_up(b"Picked up nothing\n").is_empty());
        let json = serde_json::to_string(&InheritedJvmOptions {
            variable: OptionsVariable::JavaOptions,
            seen_in: SeenIn::GradleOutput,
        })
        .unwrap();
        assert_eq!(
            json,
            r#"{"variable":"_JAVA_OPTIONS","seenIn":"gradle-output"}"#
        );
    }

    #[test]
    fn a_warning_names_the_variable_and_what_a_daemon_does_with_it() {
        let w = warning(
            OptionsVariable::JavaToolOptions,
            &format!("-Dx=\u{1b}[31m{}", "y".repeat(300)),
            SeenIn::GradleOutput,
        );
        assert!(w.contains("picked up JAVA_TOOL_OPTIONS"), "{w}");
        assert!(w.contains("a Gradle daemon started with it"), "{w}");
        assert!(!w.contains('\u{1b}'), "{w}");
        assert!(w.contains("yyy…`"), "{w}");
    }
}
