//! `gradle-flaky pr`: the tests a branch changed and the entries it removed
//! from `muted-tests.yml`, uploaded to Buildkite, planned for GitHub Actions
//! (the defaults inside those CIs) or run on this machine.

use super::{local, options, selection};
use crate::buildkite::upload::Upload;
use crate::buildkite::AgentConfig;
use crate::ci::learned::{self, Learned};
use crate::cli::{GlobalArgs, PrArgs, Target};
use crate::github::matrix::Submit;
use crate::layout::Build;
use crate::select::Selection;
use crate::settings::RunSettings;
use crate::vars::TRIAGE;
use crate::{triage, Error, Exit, Result};

pub(crate) fn run(global: &GlobalArgs, args: &PrArgs) -> Result<Exit> {
    let target = options::target(args.target, false)?;
    if target == Target::Local {
        return local::run(global, &options::pr_local(global, args)?);
    }
    let settings = options::ci_settings(&args.batching, &args.budget)?;
    let agent = options::agent(&args.agent)?;
    let learned = options::learned(&args.learned)?;
    let triage = options::triage(&args.triage);
    no_triage_on_github(target, triage.as_ref())?;
    let (build, selection) =
        selection::gather(options::build(global, false)?, &options::pr_selection(args))?;
    HandOver {
        target,
        settings: &settings,
        agent: &agent,
        dry_run: args.dry_run,
        nothing: "No test changes or unmutes detected",
        triage: triage.as_ref(),
        learned: &learned,
        compare: args
            .compare
            .compare
            .as_deref()
            .map(|r| (r, args.muted_file.as_path())),
    }
    .submit(&build, &selection)
}

/// GitHub Actions has no triage job: asking for one there is an error before
/// anything is planned, rather than a report that silently lacks verdicts.
pub(super) fn no_triage_on_github(
    target: Target,
    triage: Option<&triage::TriageConfig>,
) -> Result<()> {
    if target == Target::Github && triage.is_some() {
        return Err(Error::input(
            format!("--triage ({TRIAGE})"),
            format!(
                "the GitHub Actions workflow has no triage job: drop --triage (or leave \
                 {TRIAGE} empty), then run `gradle-flaky triage` on the downloaded \
                 flakiness artifacts"
            ),
        ));
    }
    Ok(())
}

/// A selection handed to a CI: uploaded to Buildkite, or planned for GitHub Actions.
pub(super) struct HandOver<'a> {
    pub target: Target,
    pub settings: &'a RunSettings,
    pub agent: &'a AgentConfig,
    pub dry_run: bool,
    /// What to say when nothing is selected.
    pub nothing: &'a str,
    /// Buildkite: add the triage step (`--triage N`, `FLAKINESS_TRIAGE`).
    pub triage: Option<&'a triage::TriageConfig>,
    /// `--compare REF`, with the branch's muted-tests file.
    pub compare: Option<(&'a str, &'a std::path::Path)>,
    /// What earlier CI runs learned, and where.
    pub learned: &'a Learned,
}

impl HandOver<'_> {
    pub(super) fn submit(&self, build: &Build, selection: &Selection) -> Result<Exit> {
        if self.target == Target::Github {
            let mut settings = learned::plan_with(self.settings, self.learned.folder().as_deref());
            if self.compare.is_some() {
                settings = crate::compare::ci::whole_counts(&settings);
            }
            return Submit {
                settings: &settings,
                dry_run: self.dry_run,
                nothing: self.nothing,
                compare: self.compare,
            }
            .submit(build, selection);
        }
        Upload {
            settings: self.settings,
            agent: self.agent,
            dry_run: self.dry_run,
            nothing: self.nothing,
            triage: self.triage,
            compare: self.compare,
            learned: self.learned,
        }
        .submit(build, selection)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn triage_is_refused_only_where_no_triage_step_exists() {
        let cfg = triage::TriageConfig {
            replays: 5,
            budget: 100,
            timeout: Duration::from_secs(60),
        };
        let err = no_triage_on_github(Target::Github, Some(&cfg)).unwrap_err();
        assert_eq!(err.exit(), Exit::Usage, "{err}");
        assert!(err.to_string().contains("no triage job"), "{err}");
        assert!(no_triage_on_github(Target::Github, None).is_ok());
        assert!(no_triage_on_github(Target::Buildkite, Some(&cfg)).is_ok());
        assert!(no_triage_on_github(Target::Local, Some(&cfg)).is_ok());
    }
}
