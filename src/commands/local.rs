//! `gradle-flaky local`: select, plan, run every batch here, analyze exactly the
//! XML this run wrote, print the report.

use crate::cli::{GlobalArgs, LocalArgs};
use crate::run::repeat::{Counts, Iteration};
use crate::{Error, Exit, Result};

pub fn local(_global: &GlobalArgs, _args: &LocalArgs) -> Result<Exit> {
    Err(Error::NotImplemented("local"))
}

/// What an iteration's kept reports say, when they can be read.
pub fn counts(_it: &Iteration) -> Option<Counts> {
    None
}
