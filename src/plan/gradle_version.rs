//! The build's Gradle version, which decides the options and behaviours a
//! plan may rely on.

/// A Gradle version; enough to know which options exist.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct GradleVersion {
    pub major: u32,
    pub minor: u32,
    pub patch: Option<u32>,
}

impl GradleVersion {
    /// Reads `4.4.1`, `8.10`, `7.6-rc-1`; `None` for anything else.
    pub fn parse(s: &str) -> Option<GradleVersion> {
        let numeric = s
            .split(|c: char| !(c.is_ascii_digit() || c == '.'))
            .next()?;
        let mut parts = numeric.split('.');
        let major = parts.next()?.parse().ok()?;
        let minor = parts.next().map_or(Some(0), |m| m.parse().ok())?;
        let patch = parts.next().and_then(|p| p.parse().ok());
        Some(GradleVersion {
            major,
            minor,
            patch,
        })
    }

    /// The built-in `--rerun` task option exists from Gradle 7.6.
    pub fn has_rerun(self) -> bool {
        (self.major, self.minor) >= (7, 6)
    }
}

impl std::fmt::Display for GradleVersion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}", self.major, self.minor)?;
        match self.patch {
            Some(patch) => write!(f, ".{patch}"),
            None => Ok(()),
        }
    }
}
