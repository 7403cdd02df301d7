//! Selection: turn changed files, unmuted entries and explicit lists into
//! `ClassifiedTest`s through the build's layout. Pure functions; callers read
//! git and files and pass strings in (file lookups go through [`classify::Files`]).
//!
//! Where we deliberately differ from Elasticsearch's older path-based detectors:
//! - A file is a test by where the layout puts it, not by a path regex: any
//!   source set that a Test task runs counts, in Java, Groovy or Kotlin. What
//!   is a test class comes from the task (`test_class`): its include/exclude
//!   patterns, else Gradle's scanning of every class that looks like a test.
//!   YAML suites are `.yml` or `.yaml` files under `rest-api-spec/test/` of a
//!   `yamlRestTest` source set's resources.
//! - A class name is looked up by its package path in every test source dir the
//!   layout reports; a FQCN present in several projects selects each of them. A
//!   name that matches no package path exactly is tried as a suffix (a simple
//!   name, or a partial package such as `geoip.GeoIpMultiProjectIT`).
//! - Methods are kept (`FQCN#method`); a method on a `yamlRestTest` class is a
//!   `yamlRestTestCase`.
//! - Which Test tasks run a class is chosen class by class ([`tasks`]): BWC
//!   versions newest first up to a cap, host-mutating tasks refused unless
//!   allowed, classes the task patterns leave out refused.
//! - An abstract class (in any source set, main code of a test framework
//!   included) runs through its concrete subclasses in every project
//!   ([`expand`]), up to a cap, each on its own project's task.
//! - Wildcard class patterns, tests no task can run here and abstract classes
//!   without a runnable subclass are `unresolved` with a reason code.
//! - Without a layout (Gradle missing or failing) Elasticsearch's path rules
//!   stand in, and `notes` says so.

mod bulk;
mod bytecode;
pub(crate) mod changed;
pub mod classify;
pub(crate) mod expand;
mod expansion;
pub(crate) mod explicit;
mod files;
mod jar;
pub mod mutes;
mod outcome;
mod pipeline;
mod roots;
mod selection;
pub(crate) mod source;
pub(crate) mod suggest;
mod suites;
mod supertypes;
pub(crate) mod tasks;
mod test_class;
pub mod unmutes;

pub use classify::Policy;
pub use expansion::{Expansion, NotRun};
pub use pipeline::select;
pub use selection::{Selection, TestRef};
pub use tasks::TaskSelection;

#[cfg(test)]
pub(crate) mod testing;
