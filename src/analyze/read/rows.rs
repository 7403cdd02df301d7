//! TestNG data-provider rows repeated in one test JVM, named as one Gradle
//! run names them.
//!
//! Gradle names a row `method[i](params)`, `i` being TestNG's count of the
//! method's invocations so far: in one run, the row's index. Repeated by
//! `invocationCount` (gradle-flaky's in-JVM repetition), the count runs on
//! across repetitions (`encodes[0..2]` the first time, `encodes[3..5]` the
//! next), and TestNG invokes every row of one repetition before the next
//! (measured on TestNG 6.9.12 under Gradle 4.4.1). So with `n` repetitions
//! and `t` cases of a method in the file, the method has `t / n` rows and
//! case `i` is row `i mod (t / n)`.
//!
//! Without the count (or when the cases do not divide by it: a repetition cut
//! short) the first index seen with a method's parameters is its row's
//! index. That rule cannot tell apart rows whose parameters print alike, as
//! arrays do once their identity hashes are written `@hash`
//! (JCommander's `testAlternateNamesForListParameters`), hence the count.

use crate::test_filter::{self, Shape};
use std::borrow::Cow;
use std::collections::HashMap;

/// How each TestNG row of one report file gets its first repetition's index.
#[derive(Debug, Default)]
pub(crate) struct RowIndex {
    /// The repetitions every test of the file ran, when known.
    repetitions: Option<u32>,
    /// Cases per class and method in the file, counted before reading it.
    cases: HashMap<String, HashMap<String, u64>>,
    /// The first index seen of each (method, parameters).
    first: HashMap<String, String>,
}

impl RowIndex {
    /// An index for a file whose tests each ran `repetitions` times; feed it
    /// every case of the file with [`RowIndex::count`] before renumbering.
    pub(crate) fn repeated(repetitions: u32) -> RowIndex {
        RowIndex {
            repetitions: Some(repetitions),
            ..RowIndex::default()
        }
    }

    /// Counts one case of the file (the pass before renumbering).
    pub(crate) fn count(&mut self, class: &str, name: &str) {
        if self.repetitions.is_none() || test_filter::shape(name) != Shape::TestNgRow {
            return;
        }
        let methods = match self.cases.get_mut(class) {
            Some(methods) => methods,
            None => self.cases.entry(class.to_string()).or_default(),
        };
        match methods.get_mut(test_filter::base(name)) {
            Some(n) => *n += 1,
            None => {
                methods.insert(test_filter::base(name).to_string(), 1);
            }
        }
    }

    /// `name` with its row index replaced by its first repetition's; any
    /// other name unchanged.
    pub(crate) fn renumber<'a>(&mut self, class: &str, name: Cow<'a, str>) -> Cow<'a, str> {
        if test_filter::shape(&name) != Shape::TestNgRow {
            return name;
        }
        let Some((head, rest)) = name.split_once('[') else {
            return name;
        };
        let Some((index, params)) = rest.split_once("](") else {
            return name;
        };
        let rows = self.rows_of(class, head);
        let row = rows.and_then(|rows| Some((index.parse::<u64>().ok()? % rows).to_string()));
        let row = row.unwrap_or_else(|| {
            let key = format!("{head}({params}");
            self.first
                .entry(key)
                .or_insert_with(|| index.to_string())
                .clone()
        });
        if row == index {
            return name;
        }
        Cow::Owned(format!("{head}[{row}]({params}"))
    }

    /// The repetition in its JVM (1-based) of the row a case named `name`
    /// is: TestNG numbers a method's invocations on across the repetitions
    /// of one JVM, every row of a repetition before the next. `None` for any
    /// other name, or when the counts do not say.
    pub(crate) fn position(&self, class: &str, name: &str) -> Option<u32> {
        if test_filter::shape(name) != Shape::TestNgRow {
            return None;
        }
        let (head, rest) = name.split_once('[')?;
        let (index, _) = rest.split_once("](")?;
        let rows = self.rows_of(class, head)?;
        let index = index.parse::<u64>().ok()?;
        u32::try_from(index / rows + 1).ok()
    }

    /// Rows per repetition of `class`'s `method`, when the counts say.
    fn rows_of(&self, class: &str, method: &str) -> Option<u64> {
        let n = u64::from(self.repetitions?);
        let cases = *self.cases.get(class)?.get(method)?;
        (n > 0 && cases >= n && cases % n == 0).then_some(cases / n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn later_repetitions_of_a_row_get_its_first_index() {
        let mut rows = RowIndex::default();
        let mut name = |s: &'static str| rows.renumber("a.T", Cow::Borrowed(s)).into_owned();
        assert_eq!(name("encodes[0](plain, abc)"), "encodes[0](plain, abc)");
        assert_eq!(name("encodes[1](flaky, x&y)"), "encodes[1](flaky, x&y)");
        assert_eq!(name("encodes[2](plain, abc)"), "encodes[0](plain, abc)");
        assert_eq!(name("encodes[3](flaky, x&y)"), "encodes[1](flaky, x&y)");
        assert_eq!(name("other[7](plain, abc)"), "other[7](plain, abc)");
        assert_eq!(
            name("parses[2: flaky]"),
            "parses[2: flaky]",
            "not a TestNG row"
        );
        assert_eq!(name("plain"), "plain");
    }

    /// Five rows whose parameters print alike (arrays, `@hash`), three
    /// repetitions: fifteen cases, each row three times.
    #[test]
    fn rows_that_print_alike_keep_apart_by_the_repetition_count() {
        let names: Vec<String> = (0..15)
            .map(|i| format!("alt[{i}]([Ljava.lang.String;@hash)"))
            .collect();
        let mut rows = RowIndex::repeated(3);
        for n in &names {
            rows.count("a.T", n);
        }
        rows.count("a.T", "plain");
        let got: Vec<String> = names
            .iter()
            .map(|n| rows.renumber("a.T", Cow::Borrowed(n.as_str())).into_owned())
            .collect();
        for (i, g) in got.iter().enumerate() {
            assert_eq!(g, &format!("alt[{}]([Ljava.lang.String;@hash)", i % 5));
        }
        // Without the count they would all be row 0.
        let mut by_params = RowIndex::default();
        let merged = by_params.renumber("a.T", Cow::Borrowed(names[4].as_str()));
        assert_eq!(merged, names[4], "the first seen keeps its index");
        let merged = by_params.renumber("a.T", Cow::Borrowed(names[5].as_str()));
        assert_eq!(merged, "alt[4]([Ljava.lang.String;@hash)");
    }

    /// Rows repeated over two JVMs, each numbering its invocations from 0:
    /// a row's repetition in its JVM is its index over the rows.
    #[test]
    fn a_rows_position_in_its_jvm_is_its_index_over_the_rows() {
        let mut rows = RowIndex::repeated(4);
        let names = ["enc[0](a)", "enc[1](b)", "enc[2](a)", "enc[3](b)"];
        // Two JVMs of two repetitions each: eight cases of two rows.
        for n in names.iter().chain(&names) {
            rows.count("a.T", n);
        }
        let at: Vec<Option<u32>> = names.iter().map(|n| rows.position("a.T", n)).collect();
        assert_eq!(at, [Some(1), Some(1), Some(2), Some(2)]);
        assert_eq!(rows.position("a.T", "plain"), None);
        assert_eq!(RowIndex::default().position("a.T", "enc[3](b)"), None);
    }

    /// A repetition cut short leaves a count the repetitions do not divide:
    /// the parameters decide, as without the count.
    #[test]
    fn a_count_the_repetitions_do_not_divide_falls_back_to_the_parameters() {
        let mut rows = RowIndex::repeated(3);
        for i in 0..4 {
            rows.count("a.T", &format!("enc[{i}](p{})", i % 2));
        }
        let got: Vec<String> = (0..4)
            .map(|i| {
                let name = format!("enc[{i}](p{})", i % 2);
                rows.renumber("a.T", Cow::Owned(name)).into_owned()
            })
            .collect();
        assert_eq!(
            got,
            ["enc[0](p0)", "enc[1](p1)", "enc[0](p0)", "enc[1](p1)"]
        );
    }
}
