//! The ingest metrics, each documented once. [`describe`] registers their help texts; the
//! recorders of what is kept on disk (retention, the size limit) are in [`stored`].

use std::time::Duration;

use crate::store::metrics::MetricKind;

mod stored;
pub use stored::{
    capacity_pending, drop_made_at_once, dropped_records, retention_pending, retention_removed, retention_swept,
    stored_bytes,
};

/// Every telemetry metric.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TelemetryMetric {
    /// Ingest requests accepted and recorded, by endpoint.
    Accepted,
    /// Ingest requests answered with success but deliberately not recorded, by endpoint
    /// and the recording rule's reason (disabled, signed_in, config_area, not_found,
    /// lock_screen, member_area_denied).
    Skipped,
    /// Ingest requests refused, by endpoint and reason (bad_request, too_large,
    /// rate_limited, busy, page_load_cap, crumb, forbidden).
    Rejected,
    /// Ingest requests answered 503 "busy", by endpoint and the queue that was full
    /// (writer, visitor_shards, perf_shards, errors, traces, store): which part of the
    /// pipeline fell behind, where `Rejected` counts them all as `busy`.
    Busy,
    /// Ingest requests that found a queue full and waited for room, by queue (writer: the
    /// census hits, which wait up to 250 ms before they are answered 503): how often a
    /// burst cost visitors latency rather than their hits.
    Waited,
    /// Entries acknowledged and then lost, by endpoint and reason (writer_busy: the
    /// telemetry writer's queue was full). Error reports are admitted or refused by whole
    /// sends, so none is dropped past a page load's cap.
    Dropped,
    /// Entries waiting in a telemetry actor's buffer, by queue.
    QueueDepth,
    /// Time one batch write of a telemetry actor took, by queue.
    FlushDuration,
    /// Visitor sessions held in memory.
    LiveVisitorSessions,
    /// Error groups known.
    ErrorGroups,
    /// Real-user Largest Contentful Paint, by page path.
    Lcp,
    /// Real-user Interaction to Next Paint, by page path.
    Inp,
    /// Real-user Cumulative Layout Shift (unitless), by page path.
    Cls,
    /// Real-user First Contentful Paint, by page path.
    Fcp,
    /// Real-user Time To First Byte, by page path.
    Ttfb,
    /// Telemetry records removed by the retention sweep, by tree.
    RetentionRemoved,
    /// When the last complete retention sweep finished (unix seconds).
    RetentionLastSweep,
    /// Bytes (keys and values) the telemetry trees hold.
    StoredBytes,
    /// The size limit, `max_stored_mb` in bytes (0: no limit), set at start-up: what
    /// `StoredBytes` is plotted and alerted against.
    StoredLimitBytes,
    /// Records dropped, oldest first, to keep telemetry under `max_stored_mb`, by tree.
    DroppedRecords,
    /// Drops made at once because the total reached the limit and a tenth.
    DropsAtOnce,
    /// Page views not counted in a top list of the dashboard because its hour or day
    /// already counts its maximum of distinct keys, by table (pages, referrers).
    StatsKeysDropped,
}

impl TelemetryMetric {
    /// Every telemetry metric.
    pub const ALL: [TelemetryMetric; 22] = [
        TelemetryMetric::Accepted,
        TelemetryMetric::Skipped,
        TelemetryMetric::Rejected,
        TelemetryMetric::Busy,
        TelemetryMetric::Waited,
        TelemetryMetric::Dropped,
        TelemetryMetric::QueueDepth,
        TelemetryMetric::FlushDuration,
        TelemetryMetric::LiveVisitorSessions,
        TelemetryMetric::ErrorGroups,
        TelemetryMetric::Lcp,
        TelemetryMetric::Inp,
        TelemetryMetric::Cls,
        TelemetryMetric::Fcp,
        TelemetryMetric::Ttfb,
        TelemetryMetric::RetentionRemoved,
        TelemetryMetric::RetentionLastSweep,
        TelemetryMetric::StoredBytes,
        TelemetryMetric::StoredLimitBytes,
        TelemetryMetric::DroppedRecords,
        TelemetryMetric::DropsAtOnce,
        TelemetryMetric::StatsKeysDropped,
    ];

    /// The metric's name.
    pub const fn name(self) -> &'static str {
        match self {
            TelemetryMetric::Accepted => "veranda_ingest_accepted_total",
            TelemetryMetric::Skipped => "veranda_ingest_skipped_total",
            TelemetryMetric::Rejected => "veranda_ingest_rejected_total",
            TelemetryMetric::Busy => "veranda_ingest_busy_total",
            TelemetryMetric::Waited => "veranda_ingest_waited_total",
            TelemetryMetric::Dropped => "veranda_ingest_dropped_total",
            TelemetryMetric::QueueDepth => "veranda_ingest_queue_depth",
            TelemetryMetric::FlushDuration => "veranda_ingest_flush_duration_seconds",
            TelemetryMetric::LiveVisitorSessions => "veranda_visitor_sessions_live",
            TelemetryMetric::ErrorGroups => "veranda_error_groups",
            TelemetryMetric::Lcp => "veranda_webvitals_lcp_seconds",
            TelemetryMetric::Inp => "veranda_webvitals_inp_seconds",
            TelemetryMetric::Cls => "veranda_webvitals_cls",
            TelemetryMetric::Fcp => "veranda_webvitals_fcp_seconds",
            TelemetryMetric::Ttfb => "veranda_webvitals_ttfb_seconds",
            TelemetryMetric::RetentionRemoved => "veranda_retention_removed_total",
            TelemetryMetric::RetentionLastSweep => "veranda_retention_last_sweep_timestamp_seconds",
            TelemetryMetric::StoredBytes => "veranda_telemetry_stored_bytes",
            TelemetryMetric::StoredLimitBytes => "veranda_telemetry_stored_limit_bytes",
            TelemetryMetric::DroppedRecords => "veranda_telemetry_dropped_records_total",
            TelemetryMetric::DropsAtOnce => "veranda_telemetry_drops_at_once_total",
            TelemetryMetric::StatsKeysDropped => "veranda_stats_keys_dropped_total",
        }
    }

    /// The metric's kind.
    pub const fn kind(self) -> MetricKind {
        match self {
            TelemetryMetric::Accepted
            | TelemetryMetric::Skipped
            | TelemetryMetric::Rejected
            | TelemetryMetric::Busy
            | TelemetryMetric::Waited
            | TelemetryMetric::Dropped
            | TelemetryMetric::RetentionRemoved
            | TelemetryMetric::DroppedRecords
            | TelemetryMetric::DropsAtOnce
            | TelemetryMetric::StatsKeysDropped => MetricKind::Counter,
            TelemetryMetric::QueueDepth
            | TelemetryMetric::LiveVisitorSessions
            | TelemetryMetric::ErrorGroups
            | TelemetryMetric::RetentionLastSweep
            | TelemetryMetric::StoredBytes
            | TelemetryMetric::StoredLimitBytes => MetricKind::Gauge,
            _ => MetricKind::Histogram,
        }
    }

    /// The help text shown to operators.
    pub const fn help(self) -> &'static str {
        match self {
            TelemetryMetric::Accepted => "Telemetry ingest requests accepted and recorded, by endpoint.",
            TelemetryMetric::Skipped => {
                "Telemetry ingest requests answered but not recorded by a recording rule, by endpoint and reason."
            }
            TelemetryMetric::Rejected => "Telemetry ingest requests refused, by endpoint and reason.",
            TelemetryMetric::Busy => {
                "Telemetry ingest requests answered 503 busy, by endpoint and the queue that was full."
            }
            TelemetryMetric::Waited => {
                "Telemetry ingest requests that found a queue full and waited for room, by queue."
            }
            TelemetryMetric::Dropped => "Telemetry entries acknowledged and then lost, by endpoint and reason.",
            TelemetryMetric::QueueDepth => "Entries waiting in a telemetry actor's buffer, by queue.",
            TelemetryMetric::FlushDuration => "Time one batch write of a telemetry actor took, in seconds, by queue.",
            TelemetryMetric::LiveVisitorSessions => "Visitor sessions held in memory.",
            TelemetryMetric::ErrorGroups => "JavaScript error groups known.",
            TelemetryMetric::Lcp => "Real-user Largest Contentful Paint, in seconds, by page path.",
            TelemetryMetric::Inp => "Real-user Interaction to Next Paint, in seconds, by page path.",
            TelemetryMetric::Cls => "Real-user Cumulative Layout Shift (unitless), by page path.",
            TelemetryMetric::Fcp => "Real-user First Contentful Paint, in seconds, by page path.",
            TelemetryMetric::Ttfb => "Real-user Time To First Byte, in seconds, by page path.",
            TelemetryMetric::RetentionRemoved => "Telemetry records removed by the retention sweep, by tree.",
            TelemetryMetric::RetentionLastSweep => "When the last complete retention sweep finished, in unix seconds (0 until the first, which starts at once).",
            TelemetryMetric::StoredBytes => "Bytes (keys and values) the telemetry trees of the store hold.",
            TelemetryMetric::StoredLimitBytes => {
                "The telemetry size limit, max_stored_mb in bytes (0 when there is no limit)."
            }
            TelemetryMetric::DroppedRecords => {
                "Telemetry records dropped, oldest first, to keep the stored total under max_stored_mb, by tree."
            }
            TelemetryMetric::DropsAtOnce => {
                "Drops made at once, holding the telemetry writer up, because the stored total reached max_stored_mb and a tenth."
            }
            TelemetryMetric::StatsKeysDropped => {
                "Page views left out of a dashboard top list whose hour or day holds its maximum of keys, by table."
            }
        }
    }
}

/// Bucket bounds of the LCP histogram, in seconds (good ≤ 2.5 s, poor > 4 s).
pub const LCP_BUCKETS: [f64; 14] = [0.25, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0, 15.0, 30.0];
/// Bucket bounds of the INP histogram, in seconds (good ≤ 200 ms, poor > 500 ms).
pub const INP_BUCKETS: [f64; 13] = [0.025, 0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.75, 1.0, 2.0, 5.0, 10.0];
/// Bucket bounds of the CLS histogram, unitless (good ≤ 0.1, poor > 0.25).
pub const CLS_BUCKETS: [f64; 13] = [0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2, 0.25, 0.3, 0.5, 0.75, 1.0, 2.5];
/// Bucket bounds of the FCP histogram, in seconds (good ≤ 1.8 s, poor > 3 s).
pub const FCP_BUCKETS: [f64; 14] = [0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 1.8, 2.0, 2.5, 3.0, 4.0, 6.0, 10.0, 30.0];
/// Bucket bounds of the TTFB histogram, in seconds (good ≤ 800 ms, poor > 1.8 s).
pub const TTFB_BUCKETS: [f64; 14] = [0.05, 0.1, 0.2, 0.3, 0.5, 0.8, 1.0, 1.5, 1.8, 2.5, 3.0, 5.0, 10.0, 30.0];

impl TelemetryMetric {
    /// The web vitals' own bucket bounds (each holds the vital's good and poor
    /// thresholds); `None` for the other metrics, which use the server's defaults.
    pub const fn buckets(self) -> Option<&'static [f64]> {
        match self {
            TelemetryMetric::Lcp => Some(&LCP_BUCKETS),
            TelemetryMetric::Inp => Some(&INP_BUCKETS),
            TelemetryMetric::Cls => Some(&CLS_BUCKETS),
            TelemetryMetric::Fcp => Some(&FCP_BUCKETS),
            TelemetryMetric::Ttfb => Some(&TTFB_BUCKETS),
            _ => None,
        }
    }
}

/// A table of counts by key of the dashboard's top lists, as a metric label.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyTable {
    /// Page paths.
    Pages,
    /// Referring sites.
    Referrers,
}

impl KeyTable {
    /// Both tables.
    pub const ALL: [KeyTable; 2] = [KeyTable::Pages, KeyTable::Referrers];

    /// The `table` label.
    pub const fn label(self) -> &'static str {
        match self {
            KeyTable::Pages => "pages",
            KeyTable::Referrers => "referrers",
        }
    }
}

/// A queue on the way to the store, as a metric label: the buffers whose depth and
/// batch writes are measured (errors, traces, writer), and every queue whose being full
/// answers an ingest request 503 (`veranda_ingest_busy_total{queue}`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Queue {
    /// [`crate::telemetry::ErrorQueue`]: error records accepted and not yet handed to the
    /// writer.
    Errors,
    /// [`crate::telemetry::TraceFlusher`]: its mailbox, buffer and journal.
    Traces,
    /// [`crate::telemetry::TelemetryWriter`] (jobs, not records).
    Writer,
    /// A visitor-session shard's mailbox ([`crate::telemetry::VisitorShards`]).
    VisitorShards,
    /// A performance-record shard's mailbox ([`crate::telemetry::PerfShards`]).
    PerfShards,
    /// The store itself (an event's write refused).
    Store,
}

impl Queue {
    /// The buffers with a depth gauge and a batch-write histogram.
    pub const BUFFERS: [Queue; 3] = [Queue::Errors, Queue::Traces, Queue::Writer];

    /// The `queue` label.
    pub const fn label(self) -> &'static str {
        match self {
            Queue::Errors => "errors",
            Queue::Traces => "traces",
            Queue::Writer => "writer",
            Queue::VisitorShards => "visitor_shards",
            Queue::PerfShards => "perf_shards",
            Queue::Store => "store",
        }
    }
}

/// Registers the help text of every telemetry metric.
pub fn describe() {
    for metric in TelemetryMetric::ALL {
        if metric == TelemetryMetric::Cls {
            // A layout shift score, not a time.
            metrics::describe_histogram!(metric.name(), metric.help());
        } else {
            metric.kind().describe(metric.name(), metric.help());
        }
    }
}

/// Registers the telemetry series whose labels are known at start-up: the ingest
/// counters of `endpoints` (with the skip reasons of `skipping` and the refusals each may
/// answer) at zero, and the gauges and flush histograms at their current value. Web
/// vitals, labelled by the visitors' paths, appear with their first record.
pub fn export_at_zero(endpoints: &[IngestSeries]) {
    for IngestSeries { endpoint, skips, refusals, busy } in endpoints {
        let endpoint = *endpoint;
        metrics::counter!(TelemetryMetric::Accepted.name(), "endpoint" => endpoint).increment(0);
        for &reason in skips {
            metrics::counter!(TelemetryMetric::Skipped.name(), "endpoint" => endpoint, "reason" => reason).increment(0);
        }
        for &reason in refusals {
            metrics::counter!(TelemetryMetric::Rejected.name(), "endpoint" => endpoint, "reason" => reason)
                .increment(0);
        }
        for queue in busy.iter() {
            metrics::counter!(TelemetryMetric::Busy.name(), "endpoint" => endpoint, "queue" => queue.label())
                .increment(0);
        }
    }
    metrics::counter!(TelemetryMetric::Waited.name(), "queue" => Queue::Writer.label()).increment(0);
    for (endpoint, reason) in DROPS {
        metrics::counter!(TelemetryMetric::Dropped.name(), "endpoint" => endpoint, "reason" => reason).increment(0);
    }
    for queue in Queue::BUFFERS {
        metrics::gauge!(TelemetryMetric::QueueDepth.name(), "queue" => queue.label()).increment(0.0);
        // Registered without an observation: exported with a count of zero.
        let _ = metrics::histogram!(TelemetryMetric::FlushDuration.name(), "queue" => queue.label());
    }
    metrics::gauge!(TelemetryMetric::LiveVisitorSessions.name()).increment(0.0);
    metrics::gauge!(TelemetryMetric::ErrorGroups.name()).increment(0.0);
    for table in KeyTable::ALL {
        metrics::counter!(TelemetryMetric::StatsKeysDropped.name(), "table" => table.label()).increment(0);
    }
}

/// The series of one ingest endpoint: its label, the skip reasons and the refusals it may count.
#[derive(Debug, Clone)]
pub struct IngestSeries {
    /// The `endpoint` label.
    pub endpoint: &'static str,
    /// The `reason` labels of its skips.
    pub skips: Vec<&'static str>,
    /// The `reason` labels of its refusals.
    pub refusals: Vec<&'static str>,
    /// The queues that may be full when it answers 503.
    pub busy: &'static [Queue],
}

/// What may be dropped after it was acknowledged (a writer too busy to take it), as
/// (`endpoint`, `reason`) labels of [`TelemetryMetric::Dropped`].
pub const DROPS: [(&str, &str); 2] = [(PERF_RECORDS, WRITER_BUSY), (VISITOR_SESSIONS, WRITER_BUSY)];
/// The `endpoint` label of dropped performance records.
pub const PERF_RECORDS: &str = "perf_records";
/// The `endpoint` label of dropped visitor sessions.
pub const VISITOR_SESSIONS: &str = "visitor_sessions";
/// The `reason` label of a drop by a writer too busy to take more.
pub const WRITER_BUSY: &str = "writer_busy";

/// Counts an accepted request.
pub fn accepted(endpoint: &'static str) {
    count(TelemetryMetric::Accepted.name(), endpoint, None);
}

/// Counts a request answered but not recorded, because of a recording rule.
pub fn skipped(endpoint: &'static str, reason: &'static str) {
    count(TelemetryMetric::Skipped.name(), endpoint, Some(("reason", reason)));
}

/// Counts a refused request.
pub fn rejected(endpoint: &'static str, reason: &'static str) {
    count(TelemetryMetric::Rejected.name(), endpoint, Some(("reason", reason)));
}

/// Counts a request answered 503 because `queue` was full (besides its `rejected` count).
pub fn busy(endpoint: &'static str, queue: Queue) {
    count(TelemetryMetric::Busy.name(), endpoint, Some(("queue", queue.label())));
}

/// Counts a request that found `queue` full and waited for room (whether room came in
/// time or it was then answered 503).
pub fn waited(queue: Queue) {
    metrics::counter!(TelemetryMetric::Waited.name(), "queue" => queue.label()).increment(1);
}

/// A request counter's name, its `endpoint` label and its second label (name and value),
/// if any.
type CounterKey = (&'static str, &'static str, Option<(&'static str, &'static str)>);

thread_local! {
    /// The request counters' handles, looked up once per thread (a lookup in the registry
    /// hashes every label, on every request). Labels are the constants of this module, so
    /// there are as many as there are series.
    static COUNTERS: std::cell::RefCell<crate::tables::FastMap<CounterKey, metrics::Counter>> =
        std::cell::RefCell::default();
}

/// Adds one to the counter `name` of `endpoint` (and the `second` label: `reason`, or
/// `queue`).
fn count(name: &'static str, endpoint: &'static str, second: Option<(&'static str, &'static str)>) {
    COUNTERS.with(|counters| {
        counters
            .borrow_mut()
            .entry((name, endpoint, second))
            .or_insert_with(|| match second {
                Some((label, value)) => metrics::counter!(name, "endpoint" => endpoint, label => value),
                None => metrics::counter!(name, "endpoint" => endpoint),
            })
            .increment(1);
    });
}

/// Counts `entries` acknowledged and then lost.
pub fn dropped(endpoint: &'static str, reason: &'static str, entries: usize) {
    metrics::counter!(TelemetryMetric::Dropped.name(), "endpoint" => endpoint, "reason" => reason)
        .increment(entries as u64);
}

/// Sets a queue's depth.
pub fn queue_depth(queue: Queue, depth: usize) {
    metrics::gauge!(TelemetryMetric::QueueDepth.name(), "queue" => queue.label()).set(depth as f64);
}

/// Records one batch write.
pub fn flush_duration(queue: Queue, took: Duration) {
    metrics::histogram!(TelemetryMetric::FlushDuration.name(), "queue" => queue.label()).record(took.as_secs_f64());
}

/// Adds `change` (negative when sessions left) to the visitor sessions in memory; every
/// shard of the visitor sessions adds its own changes to the one gauge.
pub fn live_sessions_changed(change: f64) {
    metrics::gauge!(TelemetryMetric::LiveVisitorSessions.name()).increment(change);
}

/// Sets the number of error groups.
pub fn error_groups(count: usize) {
    metrics::gauge!(TelemetryMetric::ErrorGroups.name()).set(count as f64);
}

/// Records one web-vital observation (seconds, or unitless for CLS) for a page path label.
pub fn web_vital(metric: TelemetryMetric, path: String, value: f64) {
    metrics::histogram!(metric.name(), "path" => path).record(value);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_vital_has_increasing_buckets_holding_its_good_and_poor_thresholds() {
        let thresholds = [
            (TelemetryMetric::Lcp, [2.5, 4.0]),
            (TelemetryMetric::Inp, [0.2, 0.5]),
            (TelemetryMetric::Cls, [0.1, 0.25]),
            (TelemetryMetric::Fcp, [1.8, 3.0]),
            (TelemetryMetric::Ttfb, [0.8, 1.8]),
        ];
        for (metric, [good, poor]) in thresholds {
            let buckets = metric.buckets().expect("a vital has buckets");
            assert!(buckets.windows(2).all(|w| w[0] < w[1]), "{metric:?}");
            assert!(buckets.contains(&good) && buckets.contains(&poor), "{metric:?}");
            assert!(buckets.last().is_some_and(|&top| top >= 2.0 * poor), "{metric:?} reaches past poor");
        }
        assert!(CLS_BUCKETS.iter().all(|&b| b <= 2.5), "CLS is unitless, not milliseconds");
        assert_eq!(TelemetryMetric::Accepted.buckets(), None);
    }
}
