//! Selection: turn changed files, unmuted entries and explicit lists into
//! `ClassifiedTest`s through the build's layout. Pure functions; callers read
//! git and files and pass strings in.

pub mod changed;
pub mod classify;
pub mod explicit;
pub mod unmutes;
