//! [`VitalSeries`]: the web vitals of every page together, in one fixed-bucket histogram
//! per vital per hour (the last 24) and per UTC day (the last 30), so the dashboard's p75
//! over time costs a walk over a few buckets. Fed with the per-path histograms by each
//! perf shard; merged across shards when read. In memory, empty after a restart.

use serde::Serialize;
use ts_rs::TS;

use crate::telemetry::page_views::range::{StatsRange, DAYS, DAY_MS, HOURS, HOUR_MS};
use crate::telemetry::page_views::ring::Ring;
use crate::telemetry::vital_buckets::{bounds, p75_of, VitalSummary, VITALS};

/// One vital's counts in one bucket.
#[derive(Debug, Clone, Default)]
struct Counts {
    /// Counts per histogram bucket, one more than the bounds; empty until the first value.
    counts: Vec<u32>,
    /// The largest value seen.
    max: f64,
}

/// The five vitals' counts in one bucket.
type Bucket = [Counts; 5];

/// One bucket of `GET /api/stats/vitals/series`: each vital's p75 over every page.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, TS)]
pub struct VitalPoint {
    /// When the bucket starts (unix ms).
    pub start: u64,
    /// LCP p75 in ms, when measured in the bucket.
    pub lcp: Option<VitalSummary>,
    /// INP p75 in ms.
    pub inp: Option<VitalSummary>,
    /// CLS p75, unitless.
    pub cls: Option<VitalSummary>,
    /// FCP p75 in ms.
    pub fcp: Option<VitalSummary>,
    /// TTFB p75 in ms.
    pub ttfb: Option<VitalSummary>,
}

/// The answer of `GET /api/stats/vitals/series`.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct VitalSeriesReport {
    /// The window the points cover.
    pub range: StatsRange,
    /// How long one bucket lasts (ms).
    pub bucket_ms: u64,
    /// One point per bucket, oldest first, the last the current bucket.
    pub points: Vec<VitalPoint>,
}

/// The hourly and daily rings of vitals histograms.
#[derive(Debug)]
pub struct VitalSeries {
    hours: Ring<Bucket, HOURS>,
    days: Ring<Bucket, DAYS>,
}

impl Default for VitalSeries {
    fn default() -> VitalSeries {
        VitalSeries { hours: Ring::new(HOUR_MS), days: Ring::new(DAY_MS) }
    }
}

impl Clone for VitalSeries {
    fn clone(&self) -> VitalSeries {
        let mut copy = VitalSeries::default();
        copy.merge(self);
        copy
    }
}

fn add(into: &mut Counts, from: &Counts) {
    if into.counts.is_empty() {
        into.counts = from.counts.clone();
    } else {
        for (a, b) in into.counts.iter_mut().zip(&from.counts) {
            *a = a.saturating_add(*b);
        }
    }
    into.max = into.max.max(from.max);
}

impl VitalSeries {
    /// Adds `value` of the `i`th vital (in [`VITALS`] order) at `now`.
    pub fn observe(&mut self, i: usize, value: f64, now: u64) {
        let Some(metric) = VITALS.get(i) else { return };
        let bounds = bounds(*metric);
        let bucket = bounds.iter().position(|b| value <= *b).unwrap_or(bounds.len());
        for counts in [self.hours.at(now), self.days.at(now)].into_iter().flatten() {
            let counts = &mut counts[i];
            if counts.counts.is_empty() {
                counts.counts = vec![0; bounds.len() + 1];
            }
            counts.counts[bucket] = counts.counts[bucket].saturating_add(1);
            counts.max = counts.max.max(value);
        }
    }

    /// Adds `other`'s counts (another shard's) to these, bucket by bucket.
    pub fn merge(&mut self, other: &VitalSeries) {
        for (start, bucket) in other.hours.filled() {
            if let Some(into) = self.hours.at(start) {
                into.iter_mut().zip(bucket).for_each(|(a, b)| add(a, b));
            }
        }
        for (start, bucket) in other.days.filled() {
            if let Some(into) = self.days.at(start) {
                into.iter_mut().zip(bucket).for_each(|(a, b)| add(a, b));
            }
        }
    }

    /// The p75 of each vital per bucket of `range`, up to `now`.
    pub fn report(&self, range: StatsRange, now: u64) -> VitalSeriesReport {
        fn point((start, bucket): (u64, Option<&Bucket>)) -> VitalPoint {
            let p75 = |i: usize| {
                let counts = &bucket?[i];
                let wide: Vec<u64> = counts.counts.iter().map(|n| u64::from(*n)).collect();
                p75_of(&wide, bounds(VITALS[i]), counts.max)
            };
            VitalPoint { start, lcp: p75(0), inp: p75(1), cls: p75(2), fcp: p75(3), ttfb: p75(4) }
        }
        let points = match range {
            StatsRange::Hours => self.hours.window(now).map(point).collect(),
            StatsRange::Days => self.days.window(now).map(point).collect(),
        };
        VitalSeriesReport { range, bucket_ms: range.bucket_ms(), points }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: u64 = 20_000 * DAY_MS;

    #[test]
    fn each_hour_and_day_has_its_own_p75_over_all_pages() {
        let mut series = VitalSeries::default();
        for value in [900.0, 1100.0, 2400.0, 3900.0] {
            series.observe(0, value, START);
        }
        series.observe(0, 700.0, START + HOUR_MS);
        series.observe(2, 0.3, START + HOUR_MS);
        let hours = series.report(StatsRange::Hours, START + HOUR_MS);
        assert_eq!(hours.bucket_ms, 3_600_000);
        assert_eq!(hours.points.len(), 24);
        assert_eq!(hours.points[22].lcp, Some(VitalSummary { p75: 2500.0, count: 4 }));
        assert_eq!(hours.points[23].lcp, Some(VitalSummary { p75: 700.0, count: 1 }));
        assert_eq!(hours.points[23].cls, Some(VitalSummary { p75: 0.3, count: 1 }));
        assert_eq!((hours.points[22].inp, hours.points[21].lcp), (None, None));
        let days = series.report(StatsRange::Days, START + HOUR_MS);
        assert_eq!(days.points.len(), 30);
        assert_eq!(days.points[29].start, START);
        assert_eq!(days.points[29].lcp, Some(VitalSummary { p75: 2500.0, count: 5 }));
        let month_on = series.report(StatsRange::Days, START + 30 * DAY_MS);
        assert!(month_on.points.iter().all(|p| p.lcp.is_none()), "30 days on, the day has left the window");
    }

    #[test]
    fn merged_shards_report_as_one() {
        let (mut one, mut other, mut whole) = (VitalSeries::default(), VitalSeries::default(), VitalSeries::default());
        for (n, value) in [900.0, 1100.0, 2400.0, 3900.0, 7000.0].into_iter().enumerate() {
            let shard = if n % 2 == 0 { &mut one } else { &mut other };
            shard.observe(4, value, START + n as u64 * HOUR_MS);
            whole.observe(4, value, START + n as u64 * HOUR_MS);
        }
        one.merge(&other);
        let now = START + 5 * HOUR_MS;
        assert_eq!(one.report(StatsRange::Hours, now), whole.report(StatsRange::Hours, now));
        assert_eq!(one.clone().report(StatsRange::Days, now), whole.report(StatsRange::Days, now));
        assert_eq!(whole.report(StatsRange::Days, now).points[29].ttfb, Some(VitalSummary { p75: 4000.0, count: 5 }));
    }
}
