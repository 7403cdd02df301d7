//! `gradle-flaky bisect`: the commit that made a test flaky.

pub(crate) mod search;
