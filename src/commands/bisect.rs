//! `gradle-flaky bisect`: the search (`crate::bisect`) and its markdown on
//! stdout, printed whatever ended it (a Ctrl-C included).

use super::{options, selection};
use crate::bisect::{self, render};
use crate::cli::{BisectArgs, GlobalArgs};
use crate::{output, process, Exit, Result};

pub(crate) fn run(global: &GlobalArgs, args: &BisectArgs) -> Result<Exit> {
    let (cfg, config) = options::bisect(global, args)?;
    // A signal asks for an orderly stop: what was measured is printed.
    process::supervise();
    let build = options::build(global, true)?;
    let (build, selection) = selection::gather(build, &cfg.selection)?;
    let found = bisect::run(&build, selection, &cfg.run, &config)?;
    output::stdout(&render::markdown(&found));
    Ok(render::exit(&found))
}
