//! The run ledger: every run's counts kept as JSON lines, one per test and
//! condition, so that history needs no server (docs/src/concepts/history.md).
//!
//! `record` is the line's schema, `records` turns an analyzed report into
//! lines, `store` appends under a lock with rotation, `read` streams files
//! and folders of lines back (skipping torn and unknown lines with a problem
//! naming file and line), and `history` summarizes them per test, rendered
//! by `render`. Below `commands/`: no clap here; it reads `analyze`'s report
//! types and `stats`.

pub mod history;
pub mod read;
pub mod record;
pub mod records;
pub mod render;
pub mod store;

pub use record::{Condition, Context, Origin, Record, Repetition, SCHEMA};
pub use records::{records_of, RunMeta};
pub use store::{append_to_dir, append_to_file, ci_file, local_dir, Limits};

use history::{Builder, Filter, History};
use record::LineView;
use rayon::prelude::*;
use std::path::PathBuf;

/// The history of the tests `filter` accepts in `files`, read in parallel
/// and merged in file order (so the result does not depend on the threads).
pub fn history_of(files: &[PathBuf], filter: &Filter) -> History {
    let mut all = Builder::new(filter.clone());
    // One file per thread at a time: memory holds a summary per thread,
    // whatever the number of files.
    let batch = rayon::current_num_threads().max(1);
    let needles = filter.needles();
    for batch in files.chunks(batch) {
        let builders: Vec<Builder> = batch
            .par_iter()
            .map(|path| {
                let mut builder = Builder::new(filter.clone());
                let read = read::scan_file(path, |bytes, end| {
                    if !needles.is_empty() && !needles.iter().any(|n| n.find(bytes).is_some()) {
                        builder.passed_over();
                        return Ok(false);
                    }
                    let Some((line, secs)) = read::parse::<LineView>(bytes, end)? else {
                        return Ok(false);
                    };
                    builder.add(&line, secs);
                    Ok(true)
                });
                builder.file_read(read);
                builder
            })
            .collect();
        for builder in builders {
            all.merge(builder);
        }
    }
    all.finish()
}

#[cfg(test)]
mod history_tests;
#[cfg(test)]
mod store_tests;
