//! The server's own metrics, each documented once, and the Prometheus recorder that
//! collects them together with the store's.
//!
//! The recorder is installed once per process (tests start many applications in one
//! process); its upkeep runs every [`UPKEEP_INTERVAL`] on a plain thread, so it needs
//! no particular async runtime.

use std::sync::OnceLock;
use std::time::Duration;

use metrics_exporter_prometheus::{BuildError, Matcher, PrometheusBuilder, PrometheusHandle};
use veranda_actors::store::metrics::{self as store_metrics, MetricKind};
use veranda_actors::telemetry::metrics::TelemetryMetric;

/// How often the recorder's upkeep (histogram maintenance) runs.
pub const UPKEEP_INTERVAL: Duration = Duration::from_secs(5);

/// Bucket bounds, in seconds, of every `*_seconds` histogram: half a millisecond to ten seconds.
pub const DURATION_BUCKETS: [f64; 14] =
    [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0];

/// The `route` label of a request that failed before it was routed.
pub const UNMATCHED_ROUTE: &str = "unmatched";

/// The `route` label of a content link: a request no route pattern matched, which the
/// public app's default service answers (`routes::configure`).
pub const CONTENT_ROUTE: &str = "/{path:.*}";

/// Every metric the server itself records (the store's are in
/// [`veranda_actors::store::metrics`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ServerMetric {
    /// Requests answered on the public listener, by method, route pattern and status.
    HttpRequests,
    /// Time to answer a public request, by method and route pattern.
    HttpRequestDuration,
    /// Public requests being answered right now.
    HttpRequestsInFlight,
    /// Always 1; its `version` label says which build runs.
    BuildInfo,
    /// Keys held by the sign-in and page-unlock throttles, by `table`.
    AuthThrottleEntries,
    /// Page views by how the page cache answered them, by `result`.
    PageCacheRequests,
    /// Bytes the page cache holds.
    PageCacheBytes,
    /// Pages the page cache let go to stay within its bound.
    PageCacheEvictions,
}

impl ServerMetric {
    /// Every server metric.
    pub const ALL: [ServerMetric; 8] = [
        ServerMetric::HttpRequests,
        ServerMetric::HttpRequestDuration,
        ServerMetric::HttpRequestsInFlight,
        ServerMetric::BuildInfo,
        ServerMetric::AuthThrottleEntries,
        ServerMetric::PageCacheRequests,
        ServerMetric::PageCacheBytes,
        ServerMetric::PageCacheEvictions,
    ];

    /// The `table` labels of [`ServerMetric::AuthThrottleEntries`].
    pub const THROTTLE_TABLES: [&'static str; 2] = ["sign_in", "unlock"];

    /// The metric's name.
    pub const fn name(self) -> &'static str {
        match self {
            ServerMetric::HttpRequests => "veranda_http_requests_total",
            ServerMetric::HttpRequestDuration => "veranda_http_request_duration_seconds",
            ServerMetric::HttpRequestsInFlight => "veranda_http_requests_in_flight",
            ServerMetric::BuildInfo => "veranda_build_info",
            ServerMetric::AuthThrottleEntries => "veranda_auth_throttle_entries",
            ServerMetric::PageCacheRequests => "veranda_page_cache_requests_total",
            ServerMetric::PageCacheBytes => "veranda_page_cache_bytes",
            ServerMetric::PageCacheEvictions => "veranda_page_cache_evictions_total",
        }
    }

    /// The metric's kind.
    pub const fn kind(self) -> MetricKind {
        match self {
            ServerMetric::HttpRequests | ServerMetric::PageCacheRequests | ServerMetric::PageCacheEvictions => {
                MetricKind::Counter
            }
            ServerMetric::HttpRequestDuration => MetricKind::Histogram,
            ServerMetric::HttpRequestsInFlight
            | ServerMetric::BuildInfo
            | ServerMetric::AuthThrottleEntries
            | ServerMetric::PageCacheBytes => MetricKind::Gauge,
        }
    }

    /// The help text shown to operators.
    pub const fn help(self) -> &'static str {
        match self {
            ServerMetric::HttpRequests => {
                "Requests answered on the public listener, by method, matched route pattern and status."
            }
            ServerMetric::HttpRequestDuration => {
                "Time to answer a request on the public listener, in seconds, by method and route pattern."
            }
            ServerMetric::HttpRequestsInFlight => "Requests on the public listener being answered right now.",
            ServerMetric::BuildInfo => "Always 1; the version label names the running build.",
            ServerMetric::AuthThrottleEntries => {
                "Keys (accounts, addresses, pairs, devices) the sign-in and page-unlock throttles hold, by table."
            }
            ServerMetric::PageCacheRequests => {
                "Published page views by how the page cache answered: hit, miss (rendered and kept) or bypass \
                 (rendered for that visitor alone)."
            }
            ServerMetric::PageCacheBytes => {
                "Bytes of rendered pages and their compressed codings the page cache holds."
            }
            ServerMetric::PageCacheEvictions => "Pages the page cache let go to stay within [pages] cache_mb.",
        }
    }
}

/// Registers the help text of every server and store metric.
fn describe() {
    for metric in ServerMetric::ALL {
        // The request durations are kept and described outside the recorder (`ops::durations`).
        if metric != ServerMetric::HttpRequestDuration {
            metric.kind().describe(metric.name(), metric.help());
        }
    }
    store_metrics::describe();
}

/// The bucket bounds: each web vital its own (a full-name match wins over the suffix),
/// every other `*_seconds` histogram [`DURATION_BUCKETS`].
fn with_buckets(builder: PrometheusBuilder) -> Result<PrometheusBuilder, BuildError> {
    let mut builder = builder.set_buckets_for_metric(Matcher::Suffix("_seconds".into()), &DURATION_BUCKETS)?;
    for metric in TelemetryMetric::ALL {
        if let Some(buckets) = metric.buckets() {
            builder = builder.set_buckets_for_metric(Matcher::Full(metric.name().into()), buckets)?;
        }
    }
    Ok(builder)
}

/// The process's recorder handle.
static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();

/// The process's own figures — resident and virtual memory, CPU time, open and most file
/// descriptors, threads, start time — under the names Prometheus' client libraries give
/// them (`process_resident_memory_bytes`, `process_cpu_seconds_total`, …), read from
/// `/proc` at each scrape ([`render`]).
static PROCESS: OnceLock<metrics_process::Collector> = OnceLock::new();

/// The collector of the process's own figures.
fn process() -> &'static metrics_process::Collector {
    PROCESS.get_or_init(metrics_process::Collector::default)
}

/// Every metric the recorder holds, in Prometheus' text format, the process's own figures
/// read afresh (the request durations are kept outside it: `ops::durations`).
pub fn render() -> String {
    let handle = install();
    process().collect();
    handle.render()
}

/// Installs the Prometheus recorder the first time it is called and returns its handle.
pub fn install() -> &'static PrometheusHandle {
    HANDLE.get_or_init(|| {
        let builder = match with_buckets(PrometheusBuilder::new()) {
            Ok(builder) => builder,
            Err(error) => {
                tracing::warn!(%error, "histogram buckets refused; histograms render as summaries");
                PrometheusBuilder::new()
            }
        };
        let recorder = builder.build_recorder();
        let handle = recorder.handle();
        if let Err(error) = metrics::set_global_recorder(recorder) {
            tracing::warn!(%error, "another metrics recorder is installed; /metrics will stay empty");
        }
        let upkeep = handle.clone();
        let spawned = std::thread::Builder::new().name("veranda-metrics-upkeep".into()).spawn(move || loop {
            std::thread::sleep(UPKEEP_INTERVAL);
            upkeep.run_upkeep();
        });
        if let Err(error) = spawned {
            tracing::warn!(%error, "cannot start the metrics upkeep thread");
        }
        describe();
        process().describe();
        metrics::gauge!(ServerMetric::BuildInfo.name(), "version" => env!("CARGO_PKG_VERSION")).set(1.0);
        metrics::gauge!(ServerMetric::HttpRequestsInFlight.name()).increment(0.0);
        // Exported from start-up; the throttles set them as they change.
        for table in ServerMetric::THROTTLE_TABLES {
            metrics::gauge!(ServerMetric::AuthThrottleEntries.name(), "table" => table).set(0.0);
        }
        handle
    })
}
