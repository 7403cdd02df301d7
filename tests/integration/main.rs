//! The one integration-test binary. Each area has its own module; `common`
//! holds the fixture and process helpers they share.

mod common;

mod analyze;
mod bisect;
mod budget;
mod buildkite;
mod ci_engine;
mod compare;
mod conditions;
mod context;
mod docs;
mod errors;
mod es_build;
mod faults;
mod github;
mod history;
mod in_jvm;
mod junit3;
mod layout;
mod learn;
mod mutes;
mod one_report;
mod plain_java;
mod plan;
mod run;
mod select;
mod shared_daemon;
mod stop;
mod suites;
mod triage;
