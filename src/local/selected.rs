//! Which tests of a selection run: its notes and what it could not resolve go
//! to stderr, and a named test that resolves to nothing stops the run.

use crate::ci::not_checked;
use crate::domain::{ClassifiedTest, Unresolved};
use crate::select::Selection;
use crate::terminal::{visible, visible_lines};
use crate::{note, tell, Error, Result};

/// The selected tests, and those found that cannot run here (not checked);
/// a named test that resolves to nothing is an input error before hours of
/// runs.
pub(crate) fn tests(selection: Selection) -> Result<(Vec<ClassifiedTest>, Vec<Unresolved>)> {
    for note in &selection.notes {
        note!("{}", visible_lines(note, "    "));
    }
    for f in &selection.skipped {
        tell!(
            "changed, not run: {}: {}",
            visible(&f.path),
            visible(&f.reason)
        );
    }
    for u in &selection.unresolved {
        tell!(
            "not run: {}: {} ({})",
            visible(&u.input),
            visible(&u.reason),
            u.reason_code
        );
    }
    let named_nothing = selection
        .unresolved
        .iter()
        .filter(|u| u.named_nothing())
        .count();
    if named_nothing > 0 {
        return Err(Error::usage(format!(
            "{named_nothing} of the tests you named resolved to nothing (listed above)"
        )));
    }
    Ok((selection.tests, not_checked::of(&selection.unresolved)))
}
