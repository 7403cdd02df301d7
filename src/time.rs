//! Durations, the two ways they are written: for flags and files
//! ([`format_duration`] reads back with [`parse_duration`]: `90s`, `20m`,
//! `1h`), and for people ([`human`]: `5.1s`, `3m10s`, `1h05m`); in JSON
//! a CI job is told, whole milliseconds ([`millis`]).

use std::time::Duration;

/// Parses a duration: a bare number of seconds, or humantime's forms
/// (`90s`, `20m`, `1h`, `1500ms`, `1h 30m`).
pub(crate) fn parse_duration(s: &str) -> Result<Duration, String> {
    let s = s.trim();
    let d = if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) {
        let secs: u64 = s
            .parse()
            .map_err(|_| format!("`{s}` is too large a number of seconds"))?;
        Duration::from_secs(secs)
    } else {
        humantime::parse_duration(s).map_err(|e| {
            format!("`{s}` is not a duration ({e}): write e.g. 90s, 20m, 1h or 1h 30m")
        })?
    };
    if d.is_zero() {
        return Err(format!("`{s}` must be longer than zero"));
    }
    Ok(d)
}

/// Renders a duration the way `parse_duration` reads it back.
pub(crate) fn format_duration(d: Duration) -> String {
    let ms = d.as_millis();
    if ms % 3_600_000 == 0 {
        format!("{}h", ms / 3_600_000)
    } else if ms % 60_000 == 0 {
        format!("{}m", ms / 60_000)
    } else if ms % 1000 == 0 {
        format!("{}s", ms / 1000)
    } else {
        format!("{ms}ms")
    }
}

/// A duration for people, as precise as it is useful: `5.1s` (`40s` when
/// whole), `3m10s`, `1h05m`.
pub(crate) fn human(d: Duration) -> String {
    let secs = d.as_secs();
    if secs >= 3600 {
        format!("{}h{:02}m", secs / 3600, secs % 3600 / 60)
    } else if secs >= 60 {
        format!("{}m{:02}s", secs / 60, secs % 60)
    } else if d.subsec_nanos() == 0 {
        format!("{secs}s")
    } else {
        format!("{:.1}s", d.as_secs_f64())
    }
}

/// An estimate of the time left: `~40s left`, whole seconds at most.
pub(crate) fn left(d: Duration) -> String {
    format!("~{} left", human(Duration::from_secs(d.as_secs())))
}

/// An optional duration in JSON as whole milliseconds (the nearest), for
/// `#[serde(with = "crate::time::millis")]`: the typed batch a CI job is told.
pub(crate) mod millis {
    use serde::{Deserialize, Deserializer, Serializer};
    use std::time::Duration;

    pub(crate) fn serialize<S: Serializer>(d: &Option<Duration>, s: S) -> Result<S::Ok, S::Error> {
        match d {
            Some(d) => s.serialize_u64(((d.as_nanos() + 500_000) / 1_000_000) as u64),
            None => s.serialize_none(),
        }
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(
        d: D,
    ) -> Result<Option<Duration>, D::Error> {
        Ok(Option::<u64>::deserialize(d)?.map(Duration::from_millis))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_parse_and_print() {
        assert_eq!(parse_duration("90s"), Ok(Duration::from_secs(90)));
        assert_eq!(parse_duration("20m"), Ok(Duration::from_secs(1200)));
        assert_eq!(parse_duration("1h"), Ok(Duration::from_secs(3600)));
        assert_eq!(parse_duration("45"), Ok(Duration::from_secs(45)));
        assert_eq!(parse_duration("1500ms"), Ok(Duration::from_millis(1500)));
        assert_eq!(parse_duration("1h 30m"), Ok(Duration::from_secs(5400)));
        assert_eq!(parse_duration("1.5h"), Ok(Duration::from_secs(5400)));
        assert!(parse_duration("0s").is_err());
        assert!(parse_duration("10x").is_err());
        assert_eq!(format_duration(Duration::from_secs(3600)), "1h");
        assert_eq!(format_duration(Duration::from_secs(90)), "90s");
    }

    #[test]
    fn durations_for_people_are_as_precise_as_useful() {
        assert_eq!(human(Duration::from_millis(5_140)), "5.1s");
        assert_eq!(human(Duration::from_secs(40)), "40s");
        assert_eq!(human(Duration::from_secs(190)), "3m10s");
        assert_eq!(human(Duration::from_secs(3900)), "1h05m");
        assert_eq!(left(Duration::from_millis(40_900)), "~40s left");
        assert_eq!(left(Duration::from_secs(190)), "~3m10s left");
        assert_eq!(left(Duration::from_secs(3900)), "~1h05m left");
    }
}
