//! [`StatsRange`]: the two windows the dashboard's time series and top lists cover.

use ts_rs::TS;

/// Milliseconds in an hour.
pub const HOUR_MS: u64 = 3_600_000;

/// Milliseconds in a day.
pub const DAY_MS: u64 = 86_400_000;

/// Hours in the `24h` range.
pub const HOURS: usize = 24;

/// UTC days in the `30d` range.
pub const DAYS: usize = 30;

/// The window of a series or top list: the last 24 hours, per hour, or the last 30 UTC
/// days, per day (both include the current, unfinished bucket).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, TS)]
pub enum StatsRange {
    /// The last 24 hours, per hour.
    #[default]
    #[serde(rename = "24h")]
    Hours,
    /// The last 30 UTC days, per day.
    #[serde(rename = "30d")]
    Days,
}

/// A `range` other than `24h` and `30d`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("The range must be 24h or 30d.")]
pub struct BadRange;

impl StatsRange {
    /// `24h` or `30d`; no value means `24h`.
    pub fn parse(value: Option<&str>) -> Result<StatsRange, BadRange> {
        match value {
            None | Some("24h") => Ok(StatsRange::Hours),
            Some("30d") => Ok(StatsRange::Days),
            Some(_) => Err(BadRange),
        }
    }

    /// How long one bucket of the range lasts (ms).
    pub const fn bucket_ms(self) -> u64 {
        match self {
            StatsRange::Hours => HOUR_MS,
            StatsRange::Days => DAY_MS,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_24h_and_30d_are_ranges() {
        assert_eq!(StatsRange::parse(Some("24h")), Ok(StatsRange::Hours));
        assert_eq!(StatsRange::parse(Some("30d")), Ok(StatsRange::Days));
        assert_eq!(StatsRange::parse(None), Ok(StatsRange::Hours));
        for bad in ["", "24H", "7d", "30d ", "1y"] {
            assert_eq!(StatsRange::parse(Some(bad)), Err(BadRange), "{bad:?}");
        }
        assert_eq!(serde_json::to_value(StatsRange::Days).expect("JSON"), serde_json::json!("30d"));
    }
}
