//! Each execution's condition as its report file tells it: its position in
//! its JVM from the token gradle-flaky's helpers give each execution when
//! they spread a class over several JVMs (`method #i`, also after the
//! randomized runner's seed), a TestNG data-provider row's from its
//! invocation count, else from the order of the test's cases in its report
//! (one JVM per file).

use crate::analyze::model::counts::{Execution, Tally};
use crate::analyze::read::names::RunnerToken;
use crate::condition::{Condition, Context, InJvm, Position, Repetition};

/// What a report file says of the condition of its executions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct FileCondition {
    pub context: Context,
    /// Set when the file is known to hold repetitions in one JVM (a folder
    /// of an in-JVM invocation); the mechanism when known.
    pub in_jvm: Option<Option<InJvm>>,
}

/// One test's executions in one report file, settled into a [`Tally`] once
/// the whole file is read: a plain name that one file holds more than once
/// was repeated in one JVM (the randomized runner's `-Dtests.iters` names
/// carry a seed but no iteration).
#[derive(Clone, Debug, Default)]
pub(crate) struct InFile {
    executions: Vec<Execution>,
    /// Cases of it read so far, counted or not.
    seen: u32,
    /// Named by gradle-flaky's JUnit 4 runner (`method #i`).
    token: bool,
    /// Named with a seed (the randomized runner).
    seeded: bool,
}

impl InFile {
    /// A passed or failed execution named `raw`.
    #[cfg(test)]
    pub(crate) fn add(&mut self, raw: &str, failed: bool, time: Option<f64>) {
        self.add_at(raw, failed, time, None);
    }

    /// [`InFile::add`], its position in its JVM known from elsewhere when
    /// its name carries no token (`at`: a TestNG row's repetition, from its
    /// invocation count).
    pub(crate) fn add_at(&mut self, raw: &str, failed: bool, time: Option<f64>, at: Option<u32>) {
        self.seen += 1;
        let token = runner_token(raw);
        self.token |= token.is_some();
        self.seeded |= raw.contains("seed=[");
        self.executions.push(Execution {
            index: token.map(|t| t.iteration).or(at).unwrap_or(self.seen),
            failed,
            time,
            threads: token.map_or(0, |t| t.threads),
        });
    }

    /// A case that is no execution (skipped, cut by a suite timeout): it
    /// still came before the next one in its JVM.
    pub(crate) fn skip(&mut self) {
        self.seen += 1;
    }

    /// Its executions, under the file's condition, into `tally`; for each
    /// failed execution in order, its position in its JVM when it was
    /// repeated there (`None` in a fresh JVM).
    pub(crate) fn settle(self, file: &FileCondition, tally: &mut Tally) -> Vec<Option<u32>> {
        let in_jvm = match file.in_jvm {
            Some(mechanism) => Some(mechanism),
            // gradle-flaky's helpers number the randomized runner's seeded
            // executions too.
            None if self.token && self.seeded => Some(Some(InJvm::TestsIters)),
            None if self.token => Some(Some(InJvm::Junit4Runner)),
            None if self.seen > 1 && self.seeded => Some(Some(InJvm::TestsIters)),
            None if self.seen > 1 => Some(None),
            None => None,
        };
        let mut failed = Vec::new();
        for mut e in self.executions {
            if in_jvm.is_none() {
                e.index = 1;
            }
            if e.failed {
                failed.push(in_jvm.map(|_| e.index));
            }
            let condition = Condition {
                context: file.context,
                repetition: match in_jvm {
                    Some(_) => Repetition::InJvm,
                    None => Repetition::FreshJvm,
                },
                mechanism: in_jvm.flatten(),
                execution: Some(if e.index <= 1 {
                    Position::First
                } else {
                    Position::Repeat
                }),
            };
            tally.add(condition, e);
        }
        failed
    }
}

/// The token gradle-flaky's JUnit 4 runner appends (`method #3`, `method #3
/// (+2 threads)`), its iteration 1-based.
fn runner_token(raw: &str) -> Option<RunnerToken> {
    crate::analyze::read::names::runner_token(raw)
        .map(|(_, token)| token)
        .filter(|t| t.iteration > 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyze::model::counts::ConditionCounts;

    /// Settles one test's cases of one file, each `(name, failed)`.
    fn settled(file: &FileCondition, cases: &[(&str, bool)]) -> Vec<ConditionCounts> {
        let mut one = InFile::default();
        for (name, failed) in cases {
            one.add(name, *failed, Some(0.5));
        }
        let mut tally = Tally::default();
        one.settle(file, &mut tally);
        tally.rows()
    }

    fn shape(rows: &[ConditionCounts]) -> Vec<(Repetition, Option<InJvm>, Position, u64, u64)> {
        rows.iter()
            .map(|r| {
                let c = r.condition;
                (
                    c.repetition,
                    c.mechanism,
                    c.execution.expect("every execution read has a position"),
                    r.rate.runs,
                    r.rate.failures,
                )
            })
            .collect()
    }

    #[test]
    fn the_runner_token_or_the_files_order_gives_the_position() {
        use Position::*;
        use Repetition::*;
        let plain = FileCondition::default();
        let runner = settled(&plain, &[("t #1", true), ("t #2", false), ("t #1", false)]);
        assert_eq!(
            shape(&runner),
            [
                (InJvm, Some(self::InJvm::Junit4Runner), First, 2, 1),
                (InJvm, Some(self::InJvm::Junit4Runner), Repeat, 1, 0)
            ]
        );
        // One plain case: one execution in its JVM.
        assert_eq!(
            shape(&settled(&plain, &[("t", true)])),
            [(FreshJvm, None, First, 1, 1)]
        );
        // The randomized runner's iterations: seeded names, the file's order.
        let seeded = settled(
            &plain,
            &[("t {seed=[A:1]}", true), ("t {seed=[A:2]}", false)],
        );
        assert_eq!(
            shape(&seeded),
            [
                (InJvm, Some(self::InJvm::TestsIters), First, 1, 1),
                (InJvm, Some(self::InJvm::TestsIters), Repeat, 1, 0)
            ]
        );
        // A folder known to repeat in one JVM (TestNG rows): the file's order.
        let testng = FileCondition {
            context: Context::Alone,
            in_jvm: Some(Some(self::InJvm::TestngInvocationCount)),
        };
        let rows = settled(&testng, &[("m", false), ("m", true), ("m", true)]);
        assert_eq!(rows[0].condition.context, Context::Alone);
        assert_eq!(
            shape(&rows),
            [
                (InJvm, Some(self::InJvm::TestngInvocationCount), First, 1, 0),
                (
                    InJvm,
                    Some(self::InJvm::TestngInvocationCount),
                    Repeat,
                    2,
                    2
                )
            ]
        );
        // `#` inside a YAML test's name is no token.
        assert_eq!(runner_token("test {p0=#x}"), None);
        assert_eq!(runner_token("issue #"), None);
        assert_eq!(runner_token("t #0"), None);
    }

    #[test]
    fn the_helpers_numbered_names_and_testng_rows_give_the_position() {
        use Position::*;
        use Repetition::*;
        let plain = FileCondition::default();
        // The randomized runner's iterations numbered by gradle-flaky's helper
        // over several JVMs: the token gives the position, the seed the
        // mechanism.
        let numbered = settled(
            &plain,
            &[
                ("t {seed=[A:1]} #1", true),
                ("t {seed=[B:2]} #1", true),
                ("t {seed=[A:3]} #2", false),
            ],
        );
        assert_eq!(
            shape(&numbered),
            [
                (InJvm, Some(self::InJvm::TestsIters), First, 2, 2),
                (InJvm, Some(self::InJvm::TestsIters), Repeat, 1, 0)
            ]
        );
        // A TestNG row's position from its invocation count.
        let mut row = InFile::default();
        row.add_at("enc[0](a)", false, Some(0.1), Some(1));
        row.add_at("enc[2](a)", true, Some(0.1), Some(2));
        row.add_at("enc[0](a)", false, Some(0.1), Some(1));
        let mut tally = Tally::default();
        let testng_dir = FileCondition {
            context: Context::Alone,
            in_jvm: Some(Some(self::InJvm::TestngInvocationCount)),
        };
        row.settle(&testng_dir, &mut tally);
        assert_eq!(
            shape(&tally.rows()),
            [
                (InJvm, Some(self::InJvm::TestngInvocationCount), First, 2, 0),
                (
                    InJvm,
                    Some(self::InJvm::TestngInvocationCount),
                    Repeat,
                    1,
                    1
                )
            ]
        );
    }

    #[test]
    fn counts_per_condition_and_per_index_merge() {
        let cond = FileCondition::default();
        let mut a = Tally::default();
        let mut one = InFile::default();
        for (name, failed) in [("t #1", true), ("t #2", false), ("t #3", false)] {
            one.add(name, failed, Some(0.5));
        }
        one.settle(&cond, &mut a);
        let mut b = Tally::default();
        let mut other = InFile::default();
        other.add("t #1", false, Some(1.5));
        other.settle(&cond, &mut b);
        a.merge(b);
        let rows = a.rows();
        assert_eq!(rows.len(), 2);
        assert!(rows[0].condition.is_first());
        assert_eq!((rows[0].rate.runs, rows[0].rate.failures), (2, 1));
        assert_eq!((rows[1].rate.runs, rows[1].rate.failures), (2, 0));
        assert_eq!(a.by_index[0].executions, 2);
        assert_eq!(a.by_index[0].time_sec, 2.0);
        assert_eq!(a.by_index.len(), 3);
    }
}
