//! The web vitals' fixed histogram buckets and how a p75 is read from them, shared by the
//! per-page [`VitalHistograms`](super::vitals::VitalHistograms) and the
//! [`VitalSeries`](super::vital_series::VitalSeries) over time. Bucket bounds include the
//! web-vitals thresholds, so a p75 compared to them rates exactly.

use serde::Serialize;
use ts_rs::TS;

use crate::telemetry::metrics::TelemetryMetric;

/// Upper bounds (ms) of the buckets of LCP, INP, FCP and TTFB; a last bucket takes the rest.
const MS_BOUNDS: [f64; 26] = [
    50.0, 100.0, 150.0, 200.0, 300.0, 400.0, 500.0, 600.0, 800.0, 1000.0, 1200.0, 1500.0, 1800.0, 2000.0, 2500.0,
    3000.0, 3500.0, 4000.0, 5000.0, 6000.0, 8000.0, 10000.0, 15000.0, 20000.0, 30000.0, 60000.0,
];

/// Upper bounds of the CLS buckets (unitless); a last bucket takes the rest.
const CLS_BOUNDS: [f64; 14] = [0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5, 0.75, 1.0, 2.0];

/// The five vitals, in report order.
pub const VITALS: [TelemetryMetric; 5] =
    [TelemetryMetric::Lcp, TelemetryMetric::Inp, TelemetryMetric::Cls, TelemetryMetric::Fcp, TelemetryMetric::Ttfb];

/// The bucket bounds of `metric`.
pub fn bounds(metric: TelemetryMetric) -> &'static [f64] {
    if metric == TelemetryMetric::Cls {
        &CLS_BOUNDS
    } else {
        &MS_BOUNDS
    }
}

/// Where `metric` is in [`VITALS`], if it is a web vital.
pub fn index(metric: TelemetryMetric) -> Option<usize> {
    VITALS.iter().position(|m| *m == metric)
}

/// One vital's p75 (the upper bound of the bucket holding it) and sample count.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, TS)]
pub struct VitalSummary {
    /// The 75th percentile.
    pub p75: f64,
    /// How many values it covers.
    pub count: u64,
}

/// The p75 of `counts` (one per bucket of `bounds`, then the overflow bucket): the upper
/// bound of the bucket holding it, or `max` when that is lower or the p75 overflows.
pub fn p75_of(counts: &[u64], bounds: &[f64], max: f64) -> Option<VitalSummary> {
    let count: u64 = counts.iter().sum();
    if count == 0 {
        return None;
    }
    let rank = (count * 3).div_ceil(4);
    let mut seen = 0;
    let bucket = counts.iter().position(|n| {
        seen += n;
        seen >= rank
    })?;
    let p75 = bounds.get(bucket).copied().map_or(max, |b| b.min(max));
    Some(VitalSummary { p75, count })
}
