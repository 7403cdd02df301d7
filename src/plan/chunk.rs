//! One chunk of a batch as Gradle runs it: the batch's argv with its
//! iteration count set to the chunk's and a master seed of its own, so that
//! two chunks (or shards) never repeat the same iterations.

use std::collections::BTreeSet;
use std::hash::{BuildHasher, Hasher};

/// The system property that repeats tests in the test JVM.
const ITERS: &str = "-Dtests.iters=";
/// The randomized runner's master seed.
const SEED: &str = "-Dtests.seed=";

/// `argv` running `iterations` with master seed `seed`: the iteration count
/// replaced and the seed set right after it. An argv without an iteration
/// count (a Gradle-run batch) is returned as it is: each Gradle run picks
/// its own seed.
pub fn argv(argv: &[String], iterations: u32, seed: &str) -> Vec<String> {
    if !argv.iter().any(|a| a.starts_with(ITERS)) {
        return argv.to_vec();
    }
    let mut out = Vec::with_capacity(argv.len() + 1);
    for a in argv.iter().filter(|a| !a.starts_with(SEED)) {
        if a.starts_with(ITERS) {
            out.push(format!("{ITERS}{iterations}"));
            out.push(format!("{SEED}{seed}"));
        } else {
            out.push(a.clone());
        }
    }
    out
}

/// Whether a chunk can set its own iteration count in `argv` (the
/// `-Dtests.iters` mechanism); other in-JVM mechanisms run as one chunk.
pub fn resizable(argv: &[String]) -> bool {
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
            argv(&batch, 7, "00000000000000AB"),
            v(&[
                "gradle",
                "-Dtests.iters=7",
                "-Dtests.seed=00000000000000AB",
                ":a:test"
            ])
        );
        let runs = v(&["gradle", ":a:test"]);
        assert_eq!(argv(&runs, 1, "AB"), runs);
        assert_eq!(seed_of(&argv(&batch, 7, "CD")), Some("CD"));
    }

    #[test]
    fn seeds_never_repeat() {
        let mut seeds = Seeds::default();
        let all: BTreeSet<String> = (0..1000).map(|_| seeds.fresh()).collect();
        assert_eq!(all.len(), 1000);
        assert!(all.iter().all(|s| s.len() == 16));
    }
}
