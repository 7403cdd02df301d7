//! TestNG data-provider rows repeated in one test JVM, named as one Gradle
//! run names them.
//!
//! Gradle names a row `method[i](params)`, `i` being TestNG's count of the
//! method's invocations so far: in one run, the row's index. Repeated by
//! `invocationCount` (gradle-flaky's in-JVM repetition), the count runs on
//! across repetitions (`encodes[0..2]` the first time, `encodes[3..5]` the
//! next), and TestNG invokes every row of one repetition before the next
//! (measured on TestNG 6.9.12 under Gradle 4.4.1). So the first index seen
//! with a method's parameters is its row's index, and later repetitions of
//! those parameters get it back.

use crate::test_filter::{self, Shape};
use std::borrow::Cow;
use std::collections::HashMap;

/// The first index seen of each (method, parameters), in one report file.
#[derive(Debug, Default)]
pub struct RowIndex {
    first: HashMap<String, String>,
}

impl RowIndex {
    /// `name` with its row index replaced by the first seen with its
    /// parameters; any other name unchanged.
    pub fn renumber<'a>(&mut self, name: Cow<'a, str>) -> Cow<'a, str> {
        if test_filter::shape(&name) != Shape::TestNgRow {
            return name;
        }
        let Some((head, rest)) = name.split_once('[') else {
            return name;
        };
        let Some((index, params)) = rest.split_once("](") else {
            return name;
        };
        let key = format!("{head}({params}");
        let first = self.first.entry(key).or_insert_with(|| index.to_string());
        if first == index {
            return name;
        }
        Cow::Owned(format!("{head}[{first}]({params}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn later_repetitions_of_a_row_get_its_first_index() {
        let mut rows = RowIndex::default();
        let mut name = |s: &'static str| rows.renumber(Cow::Borrowed(s)).into_owned();
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
}
