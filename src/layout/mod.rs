//! The build as Gradle itself reports it, through `gradle/flaky-layout.gradle`.
//!
//! `model` is the parsed JSON (pure); running Gradle, finding it and caching the
//! result are the I/O edges of this module.

pub mod model;

pub use model::{Layout, Project, SourceSet, TestTask};
