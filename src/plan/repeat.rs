//! The properties that ask gradle-flaky's init script `gradle/flaky-repeat.gradle`
//! to repeat a task's tests in one test JVM, for one invocation (what the
//! script and the Java helpers of `java/repeat/` read).

use crate::domain::InJvm;

/// Executions of each selected test in the test JVM.
pub const ITERS_PROPERTY: &str = "flaky.repeat.iters";
/// The mechanism of one task (the task path follows).
pub const TASK_PROPERTY: &str = "flaky.repeat.task.";
/// The classes gradle-flaky's JUnit 4 runner runs for one task.
pub const CLASSES_PROPERTY: &str = "flaky.repeat.classes.";
/// The `--tests` patterns it selects their tests with.
pub const FILTERS_PROPERTY: &str = "flaky.repeat.filters.";

/// The name the init script knows a mechanism by.
fn script_name(m: InJvm) -> &'static str {
    match m {
        InJvm::TestngInvocationCount => "testng",
        InJvm::Junit4Runner => "junit4",
        InJvm::PlatformEngine => "platform",
        InJvm::TestsIters => "tests-iters",
    }
}

/// `-Dflaky.repeat.task.<task>=<mechanism>`.
pub fn task_property(task: &str, m: InJvm) -> String {
    format!("-D{TASK_PROPERTY}{task}={}", script_name(m))
}

/// The properties of a JUnit 4 task: its mechanism, the classes (`a.B`, or
/// `a.B$*` with its nested classes) and the filters of each selected test.
pub fn junit4_properties(task: &str, selection: &[(String, Vec<String>)]) -> Vec<String> {
    let mut classes: Vec<&str> = Vec::new();
    let mut filters: Vec<String> = Vec::new();
    for (class, fs) in selection {
        if !classes.contains(&class.as_str()) {
            classes.push(class);
        }
        filters.extend(fs.iter().map(|f| encode(f)));
    }
    vec![
        task_property(task, InJvm::Junit4Runner),
        format!("-D{CLASSES_PROPERTY}{task}={}", classes.join(",")),
        format!("-D{FILTERS_PROPERTY}{task}={}", filters.join(",")),
    ]
}

/// One list entry: `%` and `,` written `%25` and `%2C` (the runner decodes them).
fn encode(s: &str) -> String {
    s.replace('%', "%25").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn junit4_selections_become_the_runners_properties() {
        let sel = vec![
            (
                "a.B".to_string(),
                vec!["a.B.m".to_string(), "a.B.m[*]".to_string()],
            ),
            ("a.B".to_string(), vec!["a.B.n[1: x, 50%]".to_string()]),
            (
                "a.C$*".to_string(),
                vec!["a.C".to_string(), "a.C$*".to_string()],
            ),
        ];
        assert_eq!(
            junit4_properties(":p:test", &sel),
            [
                "-Dflaky.repeat.task.:p:test=junit4",
                "-Dflaky.repeat.classes.:p:test=a.B,a.C$*",
                "-Dflaky.repeat.filters.:p:test=a.B.m,a.B.m[*],a.B.n[1: x%2C 50%25],a.C,a.C$*",
            ]
        );
        assert_eq!(
            task_property(":c:test", InJvm::TestngInvocationCount),
            "-Dflaky.repeat.task.:c:test=testng"
        );
    }
}
