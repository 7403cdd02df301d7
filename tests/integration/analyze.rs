//! Integration tests: analyze. Real Gradle 4.4.1 XML from the fixture build
//! (tests/data/junit-gradle), real reports of other tools (tests/data/junit-real),
//! hand-made edge cases, properties, snapshots and the command line.

mod cli;
mod conditions;
mod corpus;
mod edge;
mod gradle;
mod props;
mod reference;
mod snapshots;

use gradle_flaky::analyze::read::junit::{self, FileRead};
use std::path::{Path, PathBuf};

/// A file under tests/data.
pub fn data(rel: &str) -> PathBuf {
    crate::common::repo_root().join("tests/data").join(rel)
}

/// Writes `content` at `root/rel`, creating directories.
pub fn place(root: &Path, rel: &str, content: impl AsRef<[u8]>) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, content).unwrap();
}

/// One execution with owned names, for assertions.
#[derive(Debug, Clone, PartialEq)]
pub struct Exec {
    pub class: String,
    pub name: String,
    pub primary: bool,
    pub result: junit::CaseResult,
}

/// Reads one report with the streaming reader.
pub fn read(src: impl std::io::Read) -> (Vec<Exec>, FileRead) {
    let mut execs = Vec::new();
    let file = junit::read(src, |e| {
        execs.push(Exec {
            class: e.class.to_string(),
            name: e.name.to_string(),
            primary: e.primary,
            result: e.result,
        })
    });
    (execs, file)
}

/// A test suite file of the given `<testcase>` elements.
pub fn suite(cases: &str) -> String {
    format!("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuite name=\"s\">\n{cases}\n</testsuite>\n")
}
