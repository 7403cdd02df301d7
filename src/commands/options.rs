//! Options several commands share: batching knobs and the Gradle program.

use crate::cli::BatchingArgs;
use crate::domain::{BatchingConfig, TestKind};
use crate::plan::proof::{executions_for, MAX_EXECUTIONS};
use crate::plan::Evidence;
use crate::{Error, Result};
use std::path::Path;

/// Validated batching knobs and how the plan states its evidence.
#[derive(Clone, Debug, PartialEq)]
pub struct Batching {
    pub config: BatchingConfig,
    pub evidence: Evidence,
}

/// Turns the BATCHING options into a config. Precedence, most specific first:
/// `--unit-iters`/`--integ-iters`/`--rest-iters`, then `--iters` or `--detect-rate`
/// (not both), then the reference defaults.
pub fn batching(args: &BatchingArgs) -> Result<Batching> {
    let confidence = args.confidence;
    if !(confidence > 0.0 && confidence < 1.0) {
        return Err(Error::input(
            "--confidence",
            format!("`{confidence}` must be between 0 and 1, e.g. 0.95"),
        ));
    }
    let detect_rate = args.detect_rate.as_deref().map(parse_rate).transpose()?;
    let all = match (args.iters, detect_rate) {
        (Some(_), Some(_)) => {
            return Err(Error::usage(
                "--iters and --detect-rate both set every kind's iterations: use one of them",
            ))
        }
        (Some(n), None) => Some(n),
        (None, Some(rate)) => Some(sized_iterations(rate, confidence, args)?),
        (None, None) => None,
    };
    let mut config = BatchingConfig::default();
    if let Some(n) = all {
        config.unit_iters = n;
        config.integ_iters = n;
        config.rest_loops = n;
    }
    config.unit_iters = args.unit_iters.unwrap_or(config.unit_iters);
    config.integ_iters = args.integ_iters.unwrap_or(config.integ_iters);
    config.rest_loops = args.rest_iters.unwrap_or(config.rest_loops);
    if let Some(timeout) = args.suite_timeout {
        config.suite_timeout = timeout;
    }
    for cap in &args.caps {
        let (kind, n) = parse_cap(cap)?;
        config.caps.insert(kind, n);
    }
    Ok(Batching {
        config,
        evidence: Evidence {
            confidence,
            detect_rate,
        },
    })
}

/// A failure rate written `0.02` or `2%`.
pub fn parse_rate(s: &str) -> Result<f64> {
    let t = s.trim();
    let (number, scale) = match t.strip_suffix('%') {
        Some(n) => (n.trim(), 100.0),
        None => (t, 1.0),
    };
    let bad = |why: &str| {
        Error::input(
            "--detect-rate",
            format!("`{s}` {why}: write a failure rate such as 0.02 or 2%"),
        )
    };
    let rate = number.parse::<f64>().map_err(|_| bad("is not a number"))? / scale;
    if !(rate > 0.0 && rate < 1.0) {
        return Err(bad("is not between 0 and 100%"));
    }
    Ok(rate)
}

fn sized_iterations(rate: f64, confidence: f64, args: &BatchingArgs) -> Result<u32> {
    let n = executions_for(rate, confidence);
    if n > MAX_EXECUTIONS {
        return Err(Error::input(
            "--detect-rate",
            format!(
                "`{}` needs {n} executions per test at {confidence}; the most is {MAX_EXECUTIONS}: \
                 choose a larger rate",
                args.detect_rate.as_deref().unwrap_or_default()
            ),
        ));
    }
    Ok(n as u32)
}

/// `KIND=N`, N ≥ 1; KIND is a reference kind, `test`, or a custom source set.
fn parse_cap(s: &str) -> Result<(TestKind, usize)> {
    let bad = |why: &str| Error::input("--cap", format!("`{s}` {why}: write KIND=N, e.g. unit=5"));
    let (kind, n) = s.split_once('=').ok_or_else(|| bad("has no `=`"))?;
    let kind = kind.trim();
    if kind.is_empty() {
        return Err(bad("names no kind"));
    }
    let n: usize = n
        .trim()
        .parse()
        .map_err(|_| bad("has no whole number after `=`"))?;
    if n == 0 {
        return Err(bad("must allow at least 1 test per batch"));
    }
    Ok((TestKind::parse(kind), n))
}

/// The Gradle program for planned commands: as `layout::find_gradle` finds it,
/// except that a machine with no Gradle at all still gets a plan naming
/// `gradle` (planning runs nothing; running it reports the missing Gradle).
pub fn gradle_program(project_dir: &Path, gradle: Option<&str>) -> Result<Vec<String>> {
    match crate::layout::find_gradle(project_dir, gradle) {
        Err(Error::GradleNotFound(_)) => Ok(vec!["gradle".into()]),
        found => found,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn args() -> BatchingArgs {
        BatchingArgs {
            confidence: 0.95,
            ..BatchingArgs::default()
        }
    }

    #[test]
    fn defaults_are_the_reference_defaults() {
        let b = batching(&args()).unwrap();
        assert_eq!(b.config, BatchingConfig::default());
        assert_eq!(b.evidence, Evidence::default());
    }

    #[test]
    fn iters_sets_every_kind_and_per_kind_flags_win() {
        let b = batching(&BatchingArgs {
            iters: Some(7),
            integ_iters: Some(3),
            suite_timeout: Some(Duration::from_secs(90)),
            caps: vec!["unit=5".into(), "slowTest = 2".into(), "test=4".into()],
            ..args()
        })
        .unwrap()
        .config;
        assert_eq!((b.unit_iters, b.integ_iters, b.rest_loops), (7, 3, 7));
        assert_eq!(b.suite_timeout, Duration::from_secs(90));
        assert_eq!(
            b.cap(&TestKind::Unit),
            4,
            "`test` is the reference's name of unit"
        );
        assert_eq!(b.cap(&TestKind::Other("slowTest".into())), 2);
    }

    #[test]
    fn detect_rate_sizes_every_kind_including_rest_loops() {
        for rate in ["0.02", "2%", " 2 % "] {
            let b = batching(&BatchingArgs {
                detect_rate: Some(rate.into()),
                rest_iters: Some(12),
                ..args()
            })
            .unwrap();
            assert_eq!(
                (
                    b.config.unit_iters,
                    b.config.integ_iters,
                    b.config.rest_loops
                ),
                (149, 149, 12)
            );
            assert_eq!(b.evidence.detect_rate, Some(0.02));
        }
        let b = batching(&BatchingArgs {
            detect_rate: Some("10%".into()),
            confidence: 0.99,
            ..args()
        })
        .unwrap();
        assert_eq!(b.config.rest_loops, 44);
    }

    #[test]
    fn bad_values_name_their_flag() {
        let err = |a: BatchingArgs| batching(&a).unwrap_err().to_string();
        for bad in ["2", "0", "abc", "100%", "-1%", ""] {
            let e = err(BatchingArgs {
                detect_rate: Some(bad.into()),
                ..args()
            });
            assert!(e.starts_with("--detect-rate: "), "{e}");
        }
        assert!(err(BatchingArgs {
            detect_rate: Some("1e-9".into()),
            ..args()
        })
        .contains("choose a larger rate"));
        assert!(err(BatchingArgs {
            confidence: 1.0,
            ..args()
        })
        .starts_with("--confidence: "));
        assert!(err(BatchingArgs {
            confidence: f64::NAN,
            ..args()
        })
        .starts_with("--confidence: "));
        for bad in ["unit", "unit=0", "unit=x", "=3", "unit=-1"] {
            let e = err(BatchingArgs {
                caps: vec![bad.into()],
                ..args()
            });
            assert!(e.starts_with("--cap: "), "{e}");
        }
        let e = err(BatchingArgs {
            iters: Some(3),
            detect_rate: Some("2%".into()),
            ..args()
        });
        assert!(e.contains("--iters and --detect-rate"), "{e}");
    }

    #[test]
    fn gradle_comes_from_the_option_then_gradlew_then_path() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(gradle_program(dir.path(), None).unwrap(), ["gradle"]);
        let wrapper = dir.path().join("gradlew");
        std::fs::write(&wrapper, "").unwrap();
        assert_eq!(
            gradle_program(dir.path(), None).unwrap(),
            ["gradle"],
            "a gradlew that is not executable is not used"
        );
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&wrapper, std::fs::Permissions::from_mode(0o755)).unwrap();
        assert_eq!(gradle_program(dir.path(), None).unwrap(), ["./gradlew"]);
        assert_eq!(
            gradle_program(dir.path(), Some("sh '.ci/run gradle.sh' --quiet")).unwrap(),
            ["sh", ".ci/run gradle.sh", "--quiet"]
        );
        for bad in ["", "  ", "'unclosed"] {
            let e = gradle_program(dir.path(), Some(bad))
                .unwrap_err()
                .to_string();
            assert!(e.starts_with("--gradle (FLAKINESS_GRADLE): "), "{e}");
        }
    }
}
