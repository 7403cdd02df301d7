//! Selection: turn changed files, unmuted entries and explicit lists into
//! `ClassifiedTest`s through the build's layout. Pure functions; callers read
//! git and files and pass strings in.

pub mod changed;
pub mod classify;
pub mod explicit;
pub mod unmutes;

use crate::domain::{ClassifiedTest, Unresolved};
use serde::Serialize;

/// What the selectors found: tests to run, inputs that resolved to nothing,
/// and notes for the user (for example that path rules stood in for the layout).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Selection {
    pub tests: Vec<ClassifiedTest>,
    pub unresolved: Vec<Unresolved>,
    #[serde(skip)]
    pub notes: Vec<String>,
}
