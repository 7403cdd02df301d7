//! The selected tests that were found but could not be checked here (no
//! enabled Test task runs them, only host-mutating tasks do, the tasks'
//! patterns leave them out, their source set never compiles them, their
//! class's JUnit 3 `suite()` never runs them). A changed or unmuted test that
//! cannot run is never a quiet pass: the report opens with them.

use crate::domain::Unresolved;

/// The tests of a selection that were found but cannot run here.
pub(crate) fn of(unresolved: &[Unresolved]) -> Vec<Unresolved> {
    unresolved
        .iter()
        .filter(|u| u.reason_code.is_not_applicable())
        .cloned()
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::{Origin, ReasonCode};

    #[test]
    fn only_tests_that_cannot_run_here_are_not_checked() {
        let u = |input: &str, reason_code| Unresolved {
            input: input.into(),
            reason_code,
            reason: "not applicable: no enabled Test task runs it".into(),
            origin: Origin::Unmuted,
        };
        let all = [
            u("a.UpgradeIT", ReasonCode::NoRunnableTask),
            u("a.Gone", ReasonCode::NoSuchClass),
            u("a/enum/EnumTest.java", ReasonCode::NotCompiled),
        ];
        let tests = of(&all);
        // a test file the build never compiles is never checked either
        assert_eq!(of(&all[1..]), [all[2].clone()]);
        let tests = &tests[..1];
        assert_eq!(tests, [all[0].clone()]);
        assert_eq!(
            crate::analyze::render::not_checked(tests),
            "**1 selected test(s) not checked**: found, but they cannot run here, so no result \
             below covers them (recorded as `not_applicable`):\n\n- `a.UpgradeIT`: not \
             applicable: no enabled Test task runs it (`no-runnable-task`)\n\n"
        );
        assert_eq!(crate::analyze::render::not_checked(&[]), "");
    }
}
