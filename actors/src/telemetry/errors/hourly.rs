//! [`ErrorHours`]: JavaScript errors per hour over the last 24 hours, in all and per error
//! group (each group's sparkline), counted as reports are admitted. In memory, zero after
//! a restart; at most [`MAX_GROUPS`] groups have a sparkline.

use crate::tables::FastMap;

use ts_rs::TS;

use super::groups::MAX_GROUPS;
use crate::telemetry::page_views::range::{HOURS, HOUR_MS};
use crate::telemetry::page_views::ring::Ring;

/// One hour of `GET /api/stats/errors`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, TS)]
pub struct ErrorPoint {
    /// When the hour starts (unix ms).
    pub start: u64,
    /// Errors admitted in the hour (a record seen `count` times counts `count`).
    pub errors: u64,
}

/// One group's errors per hour, oldest first, the last the current hour.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, TS)]
pub struct GroupHours {
    /// The group.
    pub fingerprint: String,
    /// 24 counts, one per hour.
    pub counts: Vec<u64>,
}

/// The answer of `GET /api/stats/errors`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ErrorHoursReport {
    /// How long one bucket lasts (ms): an hour.
    pub bucket_ms: u64,
    /// All errors per hour, 24 points, oldest first.
    pub points: Vec<ErrorPoint>,
    /// The groups with errors in the last 24 hours.
    pub groups: Vec<GroupHours>,
}

/// Errors per hour, in all and by group.
#[derive(Debug)]
pub struct ErrorHours {
    total: Ring<u64, HOURS>,
    groups: FastMap<String, Ring<u64, HOURS>>,
}

impl Default for ErrorHours {
    fn default() -> ErrorHours {
        ErrorHours { total: Ring::new(HOUR_MS), groups: FastMap::default() }
    }
}

/// Whether `ring` counted anything in the 24 hours up to `now`.
fn active(ring: &Ring<u64, HOURS>, now: u64) -> bool {
    ring.window(now).any(|(_, n)| n.is_some_and(|n| *n > 0))
}

impl ErrorHours {
    /// Counts `n` errors of the group `fingerprint` at `now` (unix ms). A group new when
    /// [`MAX_GROUPS`] have a sparkline takes the place of those quiet for 24 hours, or
    /// counts in the total only.
    pub fn record(&mut self, fingerprint: &str, now: u64, n: u64) {
        if let Some(hour) = self.total.at(now) {
            *hour += n;
        }
        if !self.groups.contains_key(fingerprint) {
            if self.groups.len() >= MAX_GROUPS {
                self.groups.retain(|_, ring| active(ring, now));
                if self.groups.len() >= MAX_GROUPS {
                    return;
                }
            }
            // Only a group new to the table copies its fingerprint.
            self.groups.insert(fingerprint.to_owned(), Ring::new(HOUR_MS));
        }
        let Some(ring) = self.groups.get_mut(fingerprint) else { return };
        if let Some(hour) = ring.at(now) {
            *hour += n;
        }
    }

    /// The 24 hours up to `now`.
    pub fn report(&self, now: u64) -> ErrorHoursReport {
        let counts =
            |ring: &Ring<u64, HOURS>| ring.window(now).map(|(_, n)| n.copied().unwrap_or(0)).collect::<Vec<_>>();
        let points =
            self.total.window(now).map(|(start, n)| ErrorPoint { start, errors: n.copied().unwrap_or(0) }).collect();
        let mut groups: Vec<GroupHours> = self
            .groups
            .iter()
            .filter(|(_, ring)| active(ring, now))
            .map(|(fingerprint, ring)| GroupHours { fingerprint: fingerprint.clone(), counts: counts(ring) })
            .collect();
        groups.sort_by(|a, b| a.fingerprint.cmp(&b.fingerprint));
        ErrorHoursReport { bucket_ms: HOUR_MS, points, groups }
    }

    /// How many groups have a sparkline.
    pub fn groups(&self) -> usize {
        self.groups.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: u64 = 500_000 * 3_600_000;

    #[test]
    fn errors_are_counted_per_hour_in_all_and_per_group() {
        let mut hours = ErrorHours::default();
        hours.record("a", START, 1);
        hours.record("a", START + 10, 3);
        hours.record("b", START + 3_600_000, 1);
        let report = hours.report(START + 3_600_000);
        assert_eq!(report.bucket_ms, 3_600_000);
        assert_eq!(report.points.len(), 24);
        assert_eq!(report.points[22], ErrorPoint { start: START, errors: 4 });
        assert_eq!(report.points[23], ErrorPoint { start: START + 3_600_000, errors: 1 });
        let mut a = vec![0; 24];
        a[22] = 4;
        let mut b = vec![0; 24];
        b[23] = 1;
        assert_eq!(
            report.groups,
            [GroupHours { fingerprint: "a".into(), counts: a }, GroupHours { fingerprint: "b".into(), counts: b }]
        );
        // 24 hours after its last error, a group has no sparkline; the total has rolled over too.
        let later = hours.report(START + 24 * 3_600_000);
        assert_eq!(later.groups.iter().map(|g| g.fingerprint.as_str()).collect::<Vec<_>>(), ["b"]);
        assert_eq!(later.points.iter().map(|p| p.errors).sum::<u64>(), 1);
    }

    #[test]
    fn at_most_10000_groups_have_a_sparkline_and_quiet_ones_make_room() {
        let mut hours = ErrorHours::default();
        for i in 0..10_000 {
            hours.record(&format!("g{i}"), START, 1);
        }
        hours.record("late", START, 1);
        assert_eq!(hours.groups(), 10_000);
        assert_eq!(hours.report(START).points[23].errors, 10_001, "the total counts every error");
        let next_day = START + 24 * 3_600_000;
        hours.record("late", next_day, 1);
        assert_eq!(hours.groups(), 1, "the quiet groups made room");
    }
}
