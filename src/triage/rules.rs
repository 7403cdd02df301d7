//! The verdict rules: what a failing test's replays say about it. Pure.

use crate::analyze::report::TriageVerdict;

/// The verdict of a failing test from its replays that gave a result.
///
/// `seeded`: its failures carried randomized-runner seeds, and each replay
/// pinned one of them. Then every replay failing again means the seed decides
/// the failure (`seed-deterministic`: a bug its seed reproduces), and one
/// passing replay proves that something besides the seed does
/// (`nondeterministic`: timing, concurrency, the environment).
///
/// Without seeds (plain JUnit, TestNG) each replay ran the test alone: one
/// failure there shows it fails by itself (`fails-alone`); none hints that it
/// failed in its batch because of the tests that ran before it
/// (`passes-alone`).
///
/// No verdict without a replay: a test nothing was learned about is never
/// given one.
pub(crate) fn verdict(seeded: bool, replays: u64, reproduced: u64) -> Option<TriageVerdict> {
    if replays == 0 {
        return None;
    }
    Some(match (seeded, reproduced >= replays, reproduced > 0) {
        (true, true, _) => TriageVerdict::SeedDeterministic,
        (true, false, _) => TriageVerdict::Nondeterministic,
        (false, _, true) => TriageVerdict::FailsAlone,
        (false, _, false) => TriageVerdict::PassesAlone,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use TriageVerdict::*;

    #[test]
    fn a_seed_that_always_fails_again_decides_the_failure() {
        assert_eq!(verdict(true, 15, 15), Some(SeedDeterministic));
        assert_eq!(verdict(true, 1, 1), Some(SeedDeterministic));
    }

    #[test]
    fn one_passing_replay_of_a_failing_seed_makes_it_nondeterministic() {
        assert_eq!(verdict(true, 15, 14), Some(Nondeterministic));
        assert_eq!(verdict(true, 5, 0), Some(Nondeterministic));
    }

    #[test]
    fn without_seeds_one_failure_alone_is_enough() {
        assert_eq!(verdict(false, 5, 1), Some(FailsAlone));
        assert_eq!(verdict(false, 5, 5), Some(FailsAlone));
        assert_eq!(verdict(false, 5, 0), Some(PassesAlone));
    }

    #[test]
    fn no_replay_no_verdict() {
        assert_eq!(verdict(true, 0, 0), None);
        assert_eq!(verdict(false, 0, 0), None);
    }

    #[test]
    fn the_names_are_the_json_contract() {
        for (v, name) in [
            (SeedDeterministic, "seed-deterministic"),
            (Nondeterministic, "nondeterministic"),
            (FailsAlone, "fails-alone"),
            (PassesAlone, "passes-alone"),
        ] {
            assert_eq!(v.as_str(), name);
            assert_eq!(serde_json::to_value(v).unwrap(), name);
        }
    }
}
