//! `gradle-flaky suspects`: flaky, broken and intermittent tests from the
//! ledger's runs, and the tests that fail together.

use super::history::{ledger_files, warn_of};
use crate::cli::{GlobalArgs, LedgerFormat, SuspectsArgs};
use crate::ledger::history::Filter;
use crate::ledger::{self, html, suspects};
use crate::{output, Error, Exit, Result};
use std::time::{SystemTime, UNIX_EPOCH};

pub(crate) fn run(global: &GlobalArgs, args: &SuspectsArgs) -> Result<Exit> {
    let query = suspects::Query {
        branch: args.branch.clone(),
        since: args.since.as_deref().map(since).transpose()?,
        tests: Filter::default(),
    };
    let files = ledger_files(&global.project_dir, &args.ledger)?;
    let found = ledger::suspects_of(&files, &query);
    warn_of(&found.sources);
    output::stdout(&match args.format {
        LedgerFormat::Markdown => suspects::render::markdown(&found),
        LedgerFormat::Json => suspects::render::json(&found),
        LedgerFormat::Html => {
            // Each suspect's history, read again for those tests only.
            let tests = found
                .suspects
                .iter()
                .map(|s| (s.test.class.clone(), Some(s.test.method.clone())))
                .collect();
            let history = match found.suspects.is_empty() {
                true => Default::default(),
                false => {
                    let mut checkout = ledger::ancestry::Checkout::at(&global.project_dir);
                    ledger::history_of(&files, &Filter::new(tests), &mut checkout)
                }
            };
            html::page(&history, &found, "Suspects")
        }
    });
    Ok(match found.any_flaky() {
        true => Exit::TestFailures,
        false => Exit::Clean,
    })
}

/// `--since`: an RFC 3339 time, or a duration back from now (`30d`), in
/// seconds since the epoch.
fn since(value: &str) -> Result<u64> {
    let at = humantime::parse_rfc3339_weak(value).or_else(|_| {
        let back = humantime::parse_duration(value)?;
        let at = SystemTime::now().checked_sub(back).unwrap_or(UNIX_EPOCH);
        Ok::<_, humantime::DurationError>(at)
    });
    let at = at.map_err(|_| {
        Error::input(
            format!("--since {value:?}"),
            "expected an RFC 3339 time (2026-03-01T00:00:00Z) or a duration back from now (30d, 2weeks)",
        )
    })?;
    Ok(at.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs()))
}
