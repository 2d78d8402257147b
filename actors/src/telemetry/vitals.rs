//! [`VitalHistograms`]: the recent web vitals per page path label, in fixed-bucket
//! histograms, so the dashboard's p75 per page costs a walk over a few buckets, never a
//! scan of the perf records.
//!
//! Memory is bounded: the path labels are the site's known paths plus `other`, five vitals
//! each, a fixed number of buckets per vital, and two windows (the current one and the one
//! before; the older is dropped when a window of [`VITALS_WINDOW_MS`] ends). Bucket bounds
//! include the web-vitals thresholds, so a p75 compared to them rates exactly.

use std::collections::HashMap;

use serde::Serialize;
use ts_rs::TS;

use crate::telemetry::metrics::TelemetryMetric;
use crate::telemetry::page_views::StatsRange;
pub use crate::telemetry::vital_buckets::VitalSummary;
use crate::telemetry::vital_buckets::{bounds, index, p75_of, VITALS};
pub use crate::telemetry::vital_series::{VitalPoint, VitalSeries, VitalSeriesReport};

/// How long one window of vitals lasts; a p75 covers between one and two windows.
pub const VITALS_WINDOW_MS: u64 = 60 * 60 * 1000;

/// The counts of one vital of one path in one window.
#[derive(Debug, Clone, Default)]
struct Histogram {
    /// Counts per bucket; one more than the bounds (the overflow bucket).
    counts: Vec<u32>,
    /// The largest value seen (reported when the p75 falls in the overflow bucket).
    max: f64,
}

/// One window: per path label, per vital.
type Window = HashMap<String, [Histogram; 5]>;

/// The p75 of each vital of one page path, with how many page loads it covers.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct PageVitals {
    /// The path label (a known path or `other`).
    pub path: String,
    /// LCP p75 in ms, when measured.
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

/// Recent vitals per path label, in two rotating windows.
#[derive(Debug, Clone, Default)]
pub struct VitalHistograms {
    /// The window being filled and when it started.
    current: Window,
    /// Its start (unix ms).
    current_start: u64,
    /// The window before it.
    previous: Window,
    /// All paths' vitals per hour and per day.
    series: VitalSeries,
}

impl VitalHistograms {
    /// No values yet.
    pub fn new() -> VitalHistograms {
        VitalHistograms::default()
    }

    fn rotate(&mut self, now: u64) {
        if now.saturating_sub(self.current_start) < VITALS_WINDOW_MS {
            return;
        }
        let gap = now.saturating_sub(self.current_start);
        self.previous = if gap < 2 * VITALS_WINDOW_MS { std::mem::take(&mut self.current) } else { Window::new() };
        self.current.clear();
        self.current_start = now - now % VITALS_WINDOW_MS;
    }

    /// Adds `value` (ms, or unitless for CLS, as the page reported it) of `metric` on `path` at `now`.
    pub fn observe(&mut self, metric: TelemetryMetric, path: &str, value: f64, now: u64) {
        let Some(i) = index(metric) else { return };
        self.series.observe(i, value, now);
        self.rotate(now);
        let bounds = bounds(metric);
        let histograms = self.current.entry(path.to_string()).or_default();
        let histogram = &mut histograms[i];
        if histogram.counts.is_empty() {
            histogram.counts = vec![0; bounds.len() + 1];
        }
        let bucket = bounds.iter().position(|b| value <= *b).unwrap_or(bounds.len());
        histogram.counts[bucket] = histogram.counts[bucket].saturating_add(1);
        histogram.max = histogram.max.max(value);
    }

    /// Adds the counts of `other` (another shard's histograms) to these, both brought to
    /// the windows of `now` first (windows start at multiples of [`VITALS_WINDOW_MS`], so
    /// they line up).
    pub fn merge(&mut self, mut other: VitalHistograms, now: u64) {
        self.rotate(now);
        other.rotate(now);
        self.series.merge(&other.series);
        for (mine, theirs) in [(&mut self.current, other.current), (&mut self.previous, other.previous)] {
            for (path, histograms) in theirs {
                let into = mine.entry(path).or_default();
                for (a, b) in into.iter_mut().zip(histograms) {
                    if a.counts.is_empty() {
                        *a = b;
                    } else if !b.counts.is_empty() {
                        for (x, y) in a.counts.iter_mut().zip(&b.counts) {
                            *x = x.saturating_add(*y);
                        }
                        a.max = a.max.max(b.max);
                    }
                }
            }
        }
    }

    /// All paths' p75 of every vital per bucket of `range`, up to `now`.
    pub fn series(&self, range: StatsRange, now: u64) -> VitalSeriesReport {
        self.series.report(range, now)
    }

    /// The p75 of every vital per path over both windows at `now`, paths in order.
    pub fn report(&mut self, now: u64) -> Vec<PageVitals> {
        self.rotate(now);
        let mut paths: Vec<&String> = self.current.keys().chain(self.previous.keys()).collect();
        paths.sort();
        paths.dedup();
        paths
            .into_iter()
            .map(|path| {
                let p75 = |i: usize| self.p75(path, i);
                PageVitals { path: path.clone(), lcp: p75(0), inp: p75(1), cls: p75(2), fcp: p75(3), ttfb: p75(4) }
            })
            .collect()
    }

    fn p75(&self, path: &str, i: usize) -> Option<VitalSummary> {
        let bounds = bounds(VITALS[i]);
        let mut counts = vec![0u64; bounds.len() + 1];
        let mut max = 0f64;
        for window in [&self.current, &self.previous] {
            if let Some(h) = window.get(path).map(|h| &h[i]) {
                for (total, n) in counts.iter_mut().zip(&h.counts) {
                    *total += u64::from(*n);
                }
                max = max.max(h.max);
            }
        }
        p75_of(&counts, bounds, max)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_p75_is_the_bucket_bound_of_the_75th_percentile_per_path() {
        let mut vitals = VitalHistograms::new();
        for value in [900.0, 1100.0, 2400.0, 3900.0] {
            vitals.observe(TelemetryMetric::Lcp, "/", value, 10);
        }
        vitals.observe(TelemetryMetric::Cls, "/about", 0.3, 10);
        let report = vitals.report(20);
        assert_eq!(report.iter().map(|p| p.path.as_str()).collect::<Vec<_>>(), vec!["/", "/about"]);
        assert_eq!(report[0].lcp, Some(VitalSummary { p75: 2500.0, count: 4 }));
        assert_eq!(report[0].cls, None);
        assert_eq!(report[1].cls, Some(VitalSummary { p75: 0.3, count: 1 }));
    }

    #[test]
    fn merged_shards_report_as_one_histogram() {
        let (mut one, mut other, mut whole) = (VitalHistograms::new(), VitalHistograms::new(), VitalHistograms::new());
        let now = 5 * VITALS_WINDOW_MS + 10;
        for (n, value) in [900.0, 1100.0, 2400.0, 3900.0, 7000.0].into_iter().enumerate() {
            let shard = if n % 2 == 0 { &mut one } else { &mut other };
            shard.observe(TelemetryMetric::Lcp, "/", value, now - VITALS_WINDOW_MS);
            whole.observe(TelemetryMetric::Lcp, "/", value, now - VITALS_WINDOW_MS);
        }
        other.observe(TelemetryMetric::Cls, "/about", 0.3, now);
        whole.observe(TelemetryMetric::Cls, "/about", 0.3, now);
        one.merge(other, now);
        let merged = one.report(now);
        assert_eq!(merged, whole.report(now));
        assert_eq!(merged[0].lcp, Some(VitalSummary { p75: 4000.0, count: 5 }));
    }

    #[test]
    fn values_older_than_two_windows_are_forgotten() {
        let mut vitals = VitalHistograms::new();
        vitals.observe(TelemetryMetric::Ttfb, "/", 120.0, 0);
        assert_eq!(vitals.report(VITALS_WINDOW_MS + 1)[0].ttfb.map(|v| v.count), Some(1));
        assert!(vitals.report(3 * VITALS_WINDOW_MS).is_empty());
    }

    #[test]
    fn a_p75_in_the_overflow_bucket_is_the_largest_value() {
        let mut vitals = VitalHistograms::new();
        vitals.observe(TelemetryMetric::Inp, "/", 90_000.0, 5);
        assert_eq!(vitals.report(6)[0].inp, Some(VitalSummary { p75: 90_000.0, count: 1 }));
    }
}
