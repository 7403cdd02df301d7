//! The CI job a batch runs in: one type, filled by each CI's adapter from
//! its own variables (Buildkite's agent environment, GitHub's plan file).

/// Which job of which step a batch runs as: what its status file and its
/// failure notice name.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct JobEnv {
    /// A plain id (see [`safe_job_id`]): it names the status file and, in the
    /// report, the folder of the job's reports.
    pub job_id: String,
    pub step_key: String,
    pub label: String,
    /// Which batch of its step this job ran (0-based); `None`: the only one.
    pub parallel_job: Option<u32>,
}

/// A job id names files: anything but a plain id (unset, or text that could
/// leave the status directory) is replaced so the file name stays safe.
pub(crate) fn safe_job_id(raw: Option<&str>) -> String {
    match raw {
        Some(id)
            if !id.is_empty()
                && !id.starts_with('.')
                && id
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b)) =>
        {
            id.to_string()
        }
        _ => "local".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unsafe_job_ids_never_become_paths() {
        assert_eq!(safe_job_id(Some("0190-ab_c.1")), "0190-ab_c.1");
        assert_eq!(safe_job_id(Some("../../etc")), "local");
        assert_eq!(safe_job_id(Some("a/b")), "local");
        assert_eq!(safe_job_id(None), "local");
    }
}
