//! The live streams' metrics, each documented once. [`describe`] registers their help texts.

use super::event::StreamName;
use crate::store::metrics::MetricKind;

/// Every stream metric.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StreamMetric {
    /// Websocket clients connected now, by stream.
    Clients,
    /// Events published, by stream.
    Events,
    /// Clients dropped because their queue was full (slow consumers), by stream.
    SlowConsumers,
    /// Reconnections with a last offset, by stream and outcome (`replayed` or `reset`).
    Resumes,
    /// Events kept for resuming clients, by stream.
    HistoryEvents,
    /// Events the errors stream missed because its source ran ahead of it.
    SourceLagged,
    /// Failed calls to the shared (Redis) stream log, by stream and operation.
    SharedFailures,
}

impl StreamMetric {
    /// Every stream metric.
    pub const ALL: [StreamMetric; 7] = [
        StreamMetric::Clients,
        StreamMetric::Events,
        StreamMetric::SlowConsumers,
        StreamMetric::Resumes,
        StreamMetric::HistoryEvents,
        StreamMetric::SourceLagged,
        StreamMetric::SharedFailures,
    ];

    /// The metric's name.
    pub const fn name(self) -> &'static str {
        match self {
            StreamMetric::Clients => "veranda_streams_clients",
            StreamMetric::Events => "veranda_streams_events_total",
            StreamMetric::SlowConsumers => "veranda_streams_slow_consumers_total",
            StreamMetric::Resumes => "veranda_streams_resumes_total",
            StreamMetric::HistoryEvents => "veranda_streams_history_events",
            StreamMetric::SourceLagged => "veranda_streams_source_lagged_total",
            StreamMetric::SharedFailures => "veranda_streams_shared_failures_total",
        }
    }

    /// The metric's kind.
    pub const fn kind(self) -> MetricKind {
        match self {
            StreamMetric::Clients | StreamMetric::HistoryEvents => MetricKind::Gauge,
            _ => MetricKind::Counter,
        }
    }

    /// The help text shown to operators.
    pub const fn help(self) -> &'static str {
        match self {
            StreamMetric::Clients => "Websocket clients connected to a live stream now, by stream.",
            StreamMetric::Events => "Events published on a live stream, by stream.",
            StreamMetric::SlowConsumers => "Stream clients closed because their queue was full, by stream.",
            StreamMetric::Resumes => "Stream reconnections with a last offset, by stream and outcome.",
            StreamMetric::HistoryEvents => "Events kept for resuming stream clients, by stream.",
            StreamMetric::SourceLagged => "Error events the errors stream missed because it fell behind its source.",
            StreamMetric::SharedFailures => {
                "Failed calls to the Redis stream log (publish or follow), by stream and operation."
            }
        }
    }
}

/// Registers the help text of every stream metric.
pub fn describe() {
    for metric in StreamMetric::ALL {
        match metric.kind() {
            MetricKind::Counter => metrics::describe_counter!(metric.name(), metric.help()),
            _ => metrics::describe_gauge!(metric.name(), metric.help()),
        }
    }
}

/// A resume that replayed the missed events (an `outcome` of [`StreamMetric::Resumes`]).
pub const REPLAYED: &str = "replayed";
/// A resume answered with a reset (the client reloads everything).
pub const RESET: &str = "reset";
/// The outcomes of a resume attempt.
pub const RESUME_OUTCOMES: [&str; 2] = [REPLAYED, RESET];
/// Publishing to the shared stream log (an `operation` of [`StreamMetric::SharedFailures`]).
pub const PUBLISH: &str = "publish";
/// Following the shared stream log.
pub const FOLLOW: &str = "follow";
/// The calls to the shared stream log.
pub const SHARED_OPERATIONS: [&str; 2] = [PUBLISH, FOLLOW];

/// Registers every stream series at start-up: counters at zero, gauges at their current
/// value (zero in a fresh process), so a fresh server's dashboards have data.
pub fn export_at_zero() {
    for stream in StreamName::ALL {
        let stream = stream.as_str();
        metrics::gauge!(StreamMetric::Clients.name(), "stream" => stream).increment(0.0);
        metrics::gauge!(StreamMetric::HistoryEvents.name(), "stream" => stream).increment(0.0);
        metrics::counter!(StreamMetric::Events.name(), "stream" => stream).increment(0);
        metrics::counter!(StreamMetric::SlowConsumers.name(), "stream" => stream).increment(0);
        for outcome in RESUME_OUTCOMES {
            metrics::counter!(StreamMetric::Resumes.name(), "stream" => stream, "outcome" => outcome).increment(0);
        }
        for operation in SHARED_OPERATIONS {
            metrics::counter!(StreamMetric::SharedFailures.name(), "stream" => stream, "operation" => operation)
                .increment(0);
        }
    }
    metrics::counter!(StreamMetric::SourceLagged.name()).increment(0);
}

/// The series a stream's broadcaster keeps up to date, looked up once when it starts (the
/// recorder is installed before the services): a lookup in the registry hashes the name and
/// labels, and the errors stream publishes on every error report's heels.
pub struct EventSeries {
    events: metrics::Counter,
    clients: metrics::Gauge,
    history_events: metrics::Gauge,
}

impl EventSeries {
    /// The series of `stream`, in the recorder installed now.
    pub fn of(stream: StreamName) -> EventSeries {
        let stream = stream.as_str();
        EventSeries {
            events: metrics::counter!(StreamMetric::Events.name(), "stream" => stream),
            clients: metrics::gauge!(StreamMetric::Clients.name(), "stream" => stream),
            history_events: metrics::gauge!(StreamMetric::HistoryEvents.name(), "stream" => stream),
        }
    }

    /// Counts a published event and sets the clients connected and events kept after it.
    pub fn published(&self, clients: usize, history_events: usize) {
        self.events.increment(1);
        self.clients(clients);
        self.history_events(history_events);
    }

    /// Sets the number of connected clients.
    pub fn clients(&self, count: usize) {
        self.clients.set(count as f64);
    }

    /// Sets the number of events kept.
    pub fn history_events(&self, count: usize) {
        self.history_events.set(count as f64);
    }
}

/// Counts clients dropped as slow consumers.
pub fn slow_consumers(stream: StreamName, count: u64) {
    if count > 0 {
        metrics::counter!(StreamMetric::SlowConsumers.name(), "stream" => stream.as_str()).increment(count);
    }
}

/// Counts a resume attempt by outcome.
pub fn resumed(stream: StreamName, outcome: &'static str) {
    metrics::counter!(StreamMetric::Resumes.name(), "stream" => stream.as_str(), "outcome" => outcome).increment(1);
}

/// Counts events missed from the source.
pub fn source_lagged(count: u64) {
    metrics::counter!(StreamMetric::SourceLagged.name()).increment(count);
}

/// Counts a failed call to the shared stream log (`publish` or `follow`).
pub fn shared_failure(stream: StreamName, operation: &'static str) {
    metrics::counter!(StreamMetric::SharedFailures.name(), "stream" => stream.as_str(), "operation" => operation)
        .increment(1);
}
