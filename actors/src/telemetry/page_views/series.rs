//! [`TrafficSeries`]: page views and visitors per hour for the last 24 hours and per UTC
//! day for the last 30 days, counted as the census ingest records each page view.
//!
//! Visitors are the distinct visitor ids of a bucket (only visitors whose identifiers may
//! be stored have one). The ids of the current hour and day are remembered, as 64-bit
//! hashes, up to [`MAX_DISTINCT_VISITORS`] each; past that, every further id counts as new.

use crate::tables::FastSet;
use std::hash::{BuildHasher, RandomState};

use ts_rs::TS;

use super::range::{StatsRange, DAYS, DAY_MS, HOURS, HOUR_MS};
use super::ring::Ring;

/// The distinct visitor ids remembered for the current hour and for the current day.
pub const MAX_DISTINCT_VISITORS: usize = 100_000;

/// One bucket of `GET /api/stats/series`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct TrafficPoint {
    /// When the bucket starts (unix ms).
    pub start: u64,
    /// Page views counted in the bucket.
    pub page_views: u64,
    /// Distinct visitors seen in the bucket.
    pub visitors: u64,
}

/// The answer of `GET /api/stats/series`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct TrafficReport {
    /// The window the points cover.
    pub range: StatsRange,
    /// How long one bucket lasts (ms).
    pub bucket_ms: u64,
    /// One point per bucket, oldest first, the last the current bucket.
    pub points: Vec<TrafficPoint>,
}

#[derive(Debug, Default, Clone, Copy)]
struct Counts {
    views: u64,
    visitors: u64,
}

/// The visitor ids already counted in one bucket.
#[derive(Debug, Default)]
struct Seen {
    /// The bucket the ids belong to.
    bucket: u64,
    /// Hashes of the ids, at most [`MAX_DISTINCT_VISITORS`].
    ids: FastSet<u64>,
}

impl Seen {
    /// Whether `id` is new in `bucket` (the set is emptied when the bucket changes).
    fn first_sighting(&mut self, bucket: u64, id: u64) -> bool {
        if self.bucket != bucket {
            self.bucket = bucket;
            self.ids.clear();
        }
        if self.ids.len() >= MAX_DISTINCT_VISITORS {
            return !self.ids.contains(&id);
        }
        self.ids.insert(id)
    }
}

/// The hourly and daily rings of page views and visitors.
#[derive(Debug)]
pub struct TrafficSeries {
    hours: Ring<Counts, HOURS>,
    days: Ring<Counts, DAYS>,
    seen_hour: Seen,
    seen_day: Seen,
    /// Hashes visitor ids with a key chosen at start-up.
    hasher: RandomState,
}

impl Default for TrafficSeries {
    fn default() -> TrafficSeries {
        TrafficSeries {
            hours: Ring::new(HOUR_MS),
            days: Ring::new(DAY_MS),
            seen_hour: Seen::default(),
            seen_day: Seen::default(),
            hasher: RandomState::new(),
        }
    }
}

impl TrafficSeries {
    /// Counts one page view at `now` (unix ms) by `visitor`, when it has an id.
    pub fn record(&mut self, now: u64, visitor: Option<&str>) {
        let id = visitor.map(|v| self.hasher.hash_one(v));
        if let Some(hour) = self.hours.at(now) {
            hour.views += 1;
            if id.is_some_and(|id| self.seen_hour.first_sighting(now / HOUR_MS, id)) {
                hour.visitors += 1;
            }
        }
        if let Some(day) = self.days.at(now) {
            day.views += 1;
            if id.is_some_and(|id| self.seen_day.first_sighting(now / DAY_MS, id)) {
                day.visitors += 1;
            }
        }
    }

    /// The points of `range` up to `now`.
    pub fn report(&self, range: StatsRange, now: u64) -> TrafficReport {
        fn point((start, counts): (u64, Option<&Counts>)) -> TrafficPoint {
            let counts = counts.copied().unwrap_or_default();
            TrafficPoint { start, page_views: counts.views, visitors: counts.visitors }
        }
        let points = match range {
            StatsRange::Hours => self.hours.window(now).map(point).collect(),
            StatsRange::Days => self.days.window(now).map(point).collect(),
        };
        TrafficReport { range, bucket_ms: range.bucket_ms(), points }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MINUTE_MS: u64 = 60_000;

    fn views(report: &TrafficReport) -> Vec<u64> {
        report.points.iter().map(|p| p.page_views).collect()
    }

    #[test]
    fn views_and_distinct_visitors_are_counted_per_hour_over_24_hours() {
        let mut series = TrafficSeries::default();
        let midnight = 20_000 * DAY_MS;
        series.record(midnight + 10 * MINUTE_MS, Some("a"));
        series.record(midnight + 20 * MINUTE_MS, Some("a"));
        series.record(midnight + 30 * MINUTE_MS, Some("b"));
        series.record(midnight + 40 * MINUTE_MS, None);
        series.record(midnight + 61 * MINUTE_MS, Some("a"));
        let report = series.report(StatsRange::Hours, midnight + 61 * MINUTE_MS);
        assert_eq!(report.bucket_ms, 3_600_000);
        assert_eq!(report.points.len(), 24);
        let last_two = &report.points[22..];
        assert_eq!(
            last_two,
            [
                TrafficPoint { start: midnight, page_views: 4, visitors: 2 },
                TrafficPoint { start: midnight + 3_600_000, page_views: 1, visitors: 1 },
            ]
        );
        assert_eq!(report.points[0].start, midnight - 22 * 3_600_000);
        // 24 hours on, the first hour has left the window.
        let later = series.report(StatsRange::Hours, midnight + 24 * 3_600_000);
        assert_eq!(views(&later).iter().sum::<u64>(), 1);
        let day = series.report(StatsRange::Hours, midnight + 25 * 3_600_000);
        assert_eq!(views(&day).iter().sum::<u64>(), 0);
    }

    #[test]
    fn days_are_utc_days_and_the_window_is_30_of_them() {
        let mut series = TrafficSeries::default();
        let midnight = 20_000 * DAY_MS;
        series.record(midnight - 1, Some("a"));
        series.record(midnight, Some("a"));
        series.record(midnight + 23 * 3_600_000, Some("b"));
        let report = series.report(StatsRange::Days, midnight + 3_600_000);
        assert_eq!(report.bucket_ms, 86_400_000);
        assert_eq!(report.points.len(), 30);
        assert_eq!(report.points[29], TrafficPoint { start: midnight, page_views: 2, visitors: 2 });
        assert_eq!(report.points[28], TrafficPoint { start: midnight - 86_400_000, page_views: 1, visitors: 1 });
        // On the 30th day after, yesterday's views are still the oldest bucket; a day later they are gone.
        let still = series.report(StatsRange::Days, midnight + 28 * 86_400_000);
        assert_eq!((still.points[0].start, still.points[0].page_views), (midnight - 86_400_000, 1));
        let gone = series.report(StatsRange::Days, midnight + 29 * 86_400_000);
        assert_eq!(views(&gone).iter().sum::<u64>(), 2);
    }

    #[test]
    fn the_remembered_visitor_ids_are_bounded() {
        let mut seen = Seen::default();
        for id in 0..MAX_DISTINCT_VISITORS as u64 {
            assert!(seen.first_sighting(1, id));
        }
        assert!(!seen.first_sighting(1, 0), "a remembered id is not new");
        assert!(seen.first_sighting(1, u64::MAX), "past the bound every unknown id counts");
        assert_eq!(seen.ids.len(), 100_000);
        assert!(seen.first_sighting(2, 0), "a new bucket forgets the ids");
        assert_eq!(seen.ids.len(), 1);
    }
}
