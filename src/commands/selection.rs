//! Gathers a `Selection` from the SELECTION options: runs git, reads
//! muted-tests.yml and loads the layout, then calls the pure selectors.

use crate::cli::{GlobalArgs, SelectionArgs};
use crate::select::Selection;
use crate::{Error, Result};

/// Selects and classifies the tests the options name.
pub fn gather(_global: &GlobalArgs, _args: &SelectionArgs) -> Result<Selection> {
    Err(Error::NotImplemented("test selection"))
}
