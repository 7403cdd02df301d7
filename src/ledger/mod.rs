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
pub(crate) mod keep;
pub(crate) mod lookup;
pub(crate) mod read;
pub(crate) mod record;
pub(crate) mod records;
pub(crate) mod render;
pub(crate) mod store;

pub use record::{Condition, Context, Origin, Record, Repetition, SCHEMA};
pub use records::{records_of, RunMeta};
pub use store::{append_to_dir, append_to_file, ci_file, local_dir, Limits};

use ancestry::Lineage;
use history::{Builder, Filter, History};
use rayon::prelude::*;
use record::LineView;
use std::path::PathBuf;

/// The most consecutive files read into one summary before summaries are
/// merged. The files are cut into as few groups as that allows, of sizes
/// that differ by one at most (27 files: 7, 7, 7, 6), so that threads
/// reading groups side by side finish together; which files share a summary
/// (and so the result) depends on the files alone, never on the machine's
/// threads.
const FILES_PER_SUMMARY: usize = 8;

/// The history of the tests `filter` accepts in `files`: groups of files
/// read in parallel, merged in file order, each test's newest commit
/// compared with the rows `lineage` places before it. Memory holds two
/// summaries per thread (one read, one merging), whatever the number of files.
pub(crate) fn history_of(files: &[PathBuf], filter: &Filter, lineage: &mut dyn Lineage) -> History {
    let mut all = Builder::new(filter.clone());
    let groups = files.len().div_ceil(FILES_PER_SUMMARY).max(1);
    let size = files.len().div_ceil(groups).max(1);
    let groups: Vec<&[PathBuf]> = files.chunks(size).collect();
    let mut read: Vec<Builder> = Vec::new();
    for batch in groups.chunks(rayon::current_num_threads().max(1)) {
        // The summaries read before are merged while this batch is read.
        let merge = || read.drain(..).for_each(|b| all.merge(b));
        let next = || {
            batch
                .par_iter()
                .map(|group| summary_of(group, filter))
                .collect()
        };
        read = rayon::join(merge, next).1;
    }
    read.into_iter().for_each(|b| all.merge(b));
    all.finish(lineage)
}

/// One summary of `files`, read in order.
fn summary_of(files: &[PathBuf], filter: &Filter) -> Builder {
    let mut builder = Builder::new(filter.clone());
    let needles = filter.needles();
    for path in files {
        let read = read::scan_file(path, |bytes, end| {
            if !needles.is_empty() && !needles.iter().any(|n| n.find(bytes).is_some()) {
                builder.passed_over();
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
            builder.add(&line, secs);
            Ok(true)
        });
        builder.file_read(read);
    }
    builder
}

#[cfg(test)]
mod history_tests;
#[cfg(test)]
pub(crate) mod store_tests;
