//! The run ledger: every run's counts kept as JSON lines, one per test and
//! condition, so that history needs no server (docs/src/concepts/history.md).
//!
//! `record` is the line's schema, `records` turns an analyzed report into
//! lines, `store` appends under a lock with rotation, `read` streams files
//! and folders of lines back (skipping torn and unknown lines with a problem
//! naming file and line), and `history` summarizes them per test (its
//! newest commit against its first-parent ancestors, `ancestry`), rendered
//! by `render`. Below `commands/`: no clap here; it reads `analyze`'s report
//! types and `stats`.

pub(crate) mod ancestry;
mod fast;
pub(crate) mod history;
pub(crate) mod html;
pub(crate) mod keep;
pub(crate) mod lookup;
pub(crate) mod read;
pub(crate) mod record;
pub(crate) mod records;
pub(crate) mod render;
pub(crate) mod store;
pub(crate) mod suspects;

pub use record::{Condition, Context, Origin, Record, Repetition, SCHEMA};
pub use records::{build_records, records_of, RunMeta};
pub use store::{append_to_dir, append_to_file, ci_file, local_dir, Destination, Limits};

use ancestry::Lineage;
use history::{Builder, Filter, History};
use rayon::prelude::*;
use record::LineView;
use std::path::PathBuf;

/// The tables of a history hash a million names: foldhash (hashbrown's own
/// hasher) instead of SipHash takes a fifth off reading a large ledger. Its
/// seed is random per process, so names from a hostile branch cannot be
/// chosen to collide.
pub(crate) type Fast = foldhash::fast::RandomState;

/// The most consecutive files read into one summary before summaries are
/// merged. The files are cut into as few groups as that allows, of sizes
/// that differ by one at most (27 files: 7, 7, 7, 6), so that threads
/// reading groups side by side finish together; which files share a summary
/// (and so the result) depends on the files alone, never on the machine's
/// threads.
const FILES_PER_SUMMARY: usize = 8;

/// The history of the tests `filter` accepts in `files`, each test's newest
/// commit compared with the rows `lineage` places before it.
pub(crate) fn history_of(files: &[PathBuf], filter: &Filter, lineage: &mut dyn Lineage) -> History {
    let needles = filter.needles();
    summarize(files, &needles, || Builder::new(filter.clone())).finish(lineage)
}

/// What the ledger's runs in `files` say of the failing tests `query` asks for.
pub(crate) fn suspects_of(files: &[PathBuf], query: &suspects::Query) -> suspects::Suspects {
    let needles = query.tests.needles();
    summarize(files, &needles, || {
        suspects::SuspectBuilder::new(query.clone())
    })
    .finish()
}

/// What reading ledger lines builds (history's and suspects' summaries):
/// each group of files is read into one, and they are merged in file order.
pub(crate) trait Summary: Send + Sized {
    /// One line, of time `secs`.
    fn add(&mut self, line: &LineView<'_>, secs: u64);
    /// A line of another test, passed over unread.
    fn passed_over(&mut self);
    /// A file read, with its problems.
    fn file_read(&mut self, read: read::LedgerRead);
    /// Joins the summary of the files after this one's.
    fn merge(&mut self, other: Self);
}

/// The summary of `files`: groups of files read in parallel, merged in file
/// order. Memory holds two summaries per thread (one read, one merging),
/// whatever the number of files. A line that holds none of `needles` (when
/// there are some) is passed over unread.
pub(crate) fn summarize<S: Summary>(
    files: &[PathBuf],
    needles: &[memchr::memmem::Finder<'_>],
    new: impl Fn() -> S + Sync,
) -> S {
    let mut all = new();
    let groups = files.len().div_ceil(FILES_PER_SUMMARY).max(1);
    let size = files.len().div_ceil(groups).max(1);
    let groups: Vec<&[PathBuf]> = files.chunks(size).collect();
    let mut read: Vec<S> = Vec::new();
    for batch in groups.chunks(rayon::current_num_threads().max(1)) {
        // The summaries read before are merged while this batch is read.
        let merge = || read.drain(..).for_each(|b| all.merge(b));
        let next = || {
            batch
                .par_iter()
                .map(|group| summary_of(group, needles, new()))
                .collect()
        };
        read = rayon::join(merge, next).1;
    }
    read.into_iter().for_each(|b| all.merge(b));
    all
}

/// `summary` of `files`, read in order.
fn summary_of<S: Summary>(
    files: &[PathBuf],
    needles: &[memchr::memmem::Finder<'_>],
    mut summary: S,
) -> S {
    for path in files {
        let read = read::scan_file(path, |bytes, end| {
            if !needles.is_empty() && !needles.iter().any(|n| n.find(bytes).is_some()) {
                summary.passed_over();
                return Ok(false);
            }
            // The written shape, read fast; anything else as the general reader says.
            let fast = (end == read::End::Whole)
                .then(|| fast::line_view(bytes))
                .flatten();
            let (line, secs) = match fast {
                Some(line) => {
                    let secs = read::check(&line)?;
                    (line, secs)
                }
                None => match read::parse::<LineView>(bytes, end)? {
                    Some(parsed) => parsed,
                    None => return Ok(false),
                },
            };
            summary.add(&line, secs);
            Ok(true)
        });
        summary.file_read(read);
    }
    summary
}

#[cfg(test)]
mod history_tests;
#[cfg(test)]
pub(crate) mod store_tests;
