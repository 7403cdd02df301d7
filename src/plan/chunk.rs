//! One chunk of a batch as Gradle runs it: the batch's argv with its
//! iteration count set to the chunk's and, for the randomized runner, a
//! master seed of its own, so that two chunks (or shards) never repeat the
//! same iterations.

use super::repeat::ITERS_PROPERTY;
use std::collections::BTreeSet;
use std::hash::{BuildHasher, Hasher};

/// The system property that repeats tests in the randomized runner's JVM.
const ITERS: &str = "-Dtests.iters=";
/// The randomized runner's master seed.
const SEED: &str = "-Dtests.seed=";

/// gradle-flaky's own in-JVM count (TestNG, JUnit 4, JUnit Platform):
/// `-Dflaky.repeat.iters=`.
fn repeat_iters() -> String {
    format!("-D{ITERS_PROPERTY}=")
}

/// `argv` running `iterations`: its in-JVM count replaced, and with `seed`
/// the randomized runner's master seed set right after `-Dtests.iters` (the
/// other mechanisms take no seed). An argv without a count (a Gradle-run
/// batch) is returned as it is: each Gradle run picks its own seed.
pub fn argv(argv: &[String], iterations: u32, seed: Option<&str>) -> Vec<String> {
    let repeat = repeat_iters();
    let mut out = Vec::with_capacity(argv.len() + 1);
    for a in argv {
        if a.starts_with(ITERS) {
            out.push(format!("{ITERS}{iterations}"));
            out.extend(seed.map(|seed| format!("{SEED}{seed}")));
        } else if a.starts_with(&repeat) {
            out.push(format!("{repeat}{iterations}"));
        } else if !(seed.is_some() && a.starts_with(SEED)) {
            out.push(a.clone());
        }
    }
    out
}

/// Whether a chunk can set its own iteration count in `argv` (an in-JVM
/// count the argv carries); an in-JVM batch without one runs as one chunk.
pub fn resizable(argv: &[String]) -> bool {
    let repeat = repeat_iters();
    argv.iter()
        .any(|a| a.starts_with(ITERS) || a.starts_with(&repeat))
}

/// Whether each chunk of `argv` takes a master seed of its own (the
/// randomized runner's `-Dtests.iters`).
pub fn seeded(argv: &[String]) -> bool {
    argv.iter().any(|a| a.starts_with(ITERS))
}

/// The seed `argv` sets, if any.
pub fn seed_of(argv: &[String]) -> Option<&str> {
    argv.iter().find_map(|a| a.strip_prefix(SEED))
}

/// Fresh master seeds, none repeated: 16 hex digits, as the randomized
/// runner writes them.
#[derive(Default)]
pub struct Seeds {
    used: BTreeSet<u64>,
}

impl Seeds {
    pub fn fresh(&mut self) -> String {
        loop {
            let mut h = std::collections::hash_map::RandomState::new().build_hasher();
            h.write_u128(
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(0, |d| d.as_nanos()),
            );
            h.write_usize(self.used.len());
            let seed = h.finish();
            if self.used.insert(seed) {
                return format!("{seed:016X}");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &[&str]) -> Vec<String> {
        s.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn a_chunk_sets_its_iterations_and_its_seed() {
        let batch = v(&["gradle", "-Dtests.iters=100", "-Dtests.seed=OLD", ":a:test"]);
        assert_eq!(
            argv(&batch, 7, Some("00000000000000AB")),
            v(&[
                "gradle",
                "-Dtests.iters=7",
                "-Dtests.seed=00000000000000AB",
                ":a:test"
            ])
        );
        let runs = v(&["gradle", ":a:test"]);
        assert_eq!(argv(&runs, 1, Some("AB")), runs);
        assert!(!resizable(&runs));
        assert_eq!(seed_of(&argv(&batch, 7, Some("CD"))), Some("CD"));
        assert!(resizable(&batch) && seeded(&batch));
    }

    /// TestNG, JUnit 4 and the JUnit Platform repeat by gradle-flaky's own
    /// count: a chunk sets it, and no seed (they take none).
    #[test]
    fn a_chunk_of_gradle_flakys_own_repetition_sets_its_count_only() {
        let batch = v(&[
            "gradle",
            "-Dflaky.repeat.iters=100",
            ":a:test",
            "-Dflaky.repeat.task.:a:test=testng",
        ]);
        assert!(resizable(&batch) && !seeded(&batch));
        assert_eq!(
            argv(&batch, 7, None),
            v(&[
                "gradle",
                "-Dflaky.repeat.iters=7",
                ":a:test",
                "-Dflaky.repeat.task.:a:test=testng"
            ])
        );
    }

    #[test]
    fn seeds_never_repeat() {
        let mut seeds = Seeds::default();
        let all: BTreeSet<String> = (0..1000).map(|_| seeds.fresh()).collect();
        assert_eq!(all.len(), 1000);
        assert!(all.iter().all(|s| s.len() == 16));
    }
}
