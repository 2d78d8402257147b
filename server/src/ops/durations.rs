//! `veranda_http_request_duration_seconds`, the time to answer each public request, kept in
//! fixed buckets by the `prometheus` crate and rendered after the recorder's metrics.
//!
//! Every other metric goes through the `metrics` recorder ([`super::metrics`]). This one is
//! recorded on every request, and the recorder keeps each sample of a histogram (with the
//! time it was taken) in a lock-free list until the next scrape buckets it: 1.6 % of a cached
//! page's CPU time (`benches/reports/pages.md`). A fixed-bucket histogram counts a sample
//! with a few atomic additions. The series, buckets and help text are those the recorder gave
//! it, so the dashboards and alerts read it unchanged.

use std::sync::OnceLock;

use prometheus::{Histogram, HistogramOpts, HistogramVec, Registry, TextEncoder};

use super::metrics::{ServerMetric, DURATION_BUCKETS};

/// The histogram and the registry that renders it.
struct Durations {
    registry: Registry,
    histogram: HistogramVec,
}

/// The process's request durations; `None` if the histogram could not be made.
static DURATIONS: OnceLock<Option<Durations>> = OnceLock::new();

fn durations() -> Option<&'static Durations> {
    DURATIONS
        .get_or_init(|| {
            let metric = ServerMetric::HttpRequestDuration;
            let opts = HistogramOpts::new(metric.name(), metric.help()).buckets(DURATION_BUCKETS.to_vec());
            let made = HistogramVec::new(opts, &["method", "route"]).and_then(|histogram| {
                let registry = Registry::new();
                registry.register(Box::new(histogram.clone()))?;
                Ok(Durations { registry, histogram })
            });
            match made {
                Ok(durations) => Some(durations),
                Err(error) => {
                    tracing::warn!(%error, "cannot make the request-duration histogram; it will not be exported");
                    None
                }
            }
        })
        .as_ref()
}

/// The series of requests of `method` to `route` (label values from fixed sets: a standard
/// method or `other`, a route pattern), to record into with [`Histogram::observe`]; `None`
/// if the histogram could not be made.
pub fn series(method: &str, route: &str) -> Option<Histogram> {
    durations()?.histogram.get_metric_with_label_values(&[method, route]).ok()
}

/// Appends the histogram, in Prometheus' text format, to `out`.
pub fn render_into(out: &mut String) {
    let Some(durations) = durations() else { return };
    let families = durations.registry.gather();
    if let Err(error) = TextEncoder::new().encode_utf8(&families, out) {
        tracing::warn!(%error, "cannot render the request-duration histogram");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_land_in_the_buckets_of_their_series() {
        let series = series("PATCH", "/durations-test").expect("the histogram");
        series.observe(0.0004);
        series.observe(0.003);
        series.observe(20.0);
        let mut text = String::new();
        render_into(&mut text);
        let line = |le: &str| {
            format!(
            "veranda_http_request_duration_seconds_bucket{{method=\"PATCH\",route=\"/durations-test\",le=\"{le}\"}}"
        )
        };
        for (le, count) in [("0.0005", 1), ("0.001", 1), ("0.0025", 1), ("0.005", 2), ("10", 2), ("+Inf", 3)] {
            assert!(text.contains(&format!("{} {count}\n", line(le))), "{le}:\n{text}");
        }
        assert!(text
            .contains("veranda_http_request_duration_seconds_count{method=\"PATCH\",route=\"/durations-test\"} 3\n"));
        assert!(text.contains(
            "veranda_http_request_duration_seconds_sum{method=\"PATCH\",route=\"/durations-test\"} 20.0034\n"
        ));
        assert_eq!(text.matches("# TYPE veranda_http_request_duration_seconds histogram").count(), 1);
        assert!(text.contains("# HELP veranda_http_request_duration_seconds Time to answer a request"));
    }
}
