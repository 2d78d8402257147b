//! The store's metrics, each documented once. The server registers the help texts
//! with [`describe`] when it installs its Prometheus recorder.

/// What kind of metric a [`StoreMetric`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MetricKind {
    /// Only goes up.
    Counter,
    /// Goes up and down.
    Gauge,
    /// A distribution of observations.
    Histogram,
}

impl MetricKind {
    /// Registers `help` as the help text of the metric `name`, of this kind, with the
    /// installed recorder; a histogram's observations are seconds.
    pub fn describe(self, name: &'static str, help: &'static str) {
        match self {
            MetricKind::Counter => metrics::describe_counter!(name, help),
            MetricKind::Gauge => metrics::describe_gauge!(name, help),
            MetricKind::Histogram => metrics::describe_histogram!(name, metrics::Unit::Seconds, help),
        }
    }
}

/// Every metric the store records.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StoreMetric {
    /// Time one flush of the database took (group, periodic or final).
    FlushDuration,
    /// Flushes of the database.
    Flushes,
    /// Writes (puts and deletes) by tree and durability class.
    Writes,
}

impl StoreMetric {
    /// Every store metric.
    pub const ALL: [StoreMetric; 3] = [StoreMetric::FlushDuration, StoreMetric::Flushes, StoreMetric::Writes];

    /// The metric's name.
    pub const fn name(self) -> &'static str {
        match self {
            StoreMetric::FlushDuration => "veranda_store_flush_duration_seconds",
            StoreMetric::Flushes => "veranda_store_flushes_total",
            StoreMetric::Writes => "veranda_store_writes_total",
        }
    }

    /// The metric's kind.
    pub const fn kind(self) -> MetricKind {
        match self {
            StoreMetric::FlushDuration => MetricKind::Histogram,
            StoreMetric::Flushes | StoreMetric::Writes => MetricKind::Counter,
        }
    }

    /// The help text shown to operators.
    pub const fn help(self) -> &'static str {
        match self {
            StoreMetric::FlushDuration => "Time one flush of the store to disk took, in seconds.",
            StoreMetric::Flushes => "Flushes of the store to disk; durable writers waiting together share one.",
            StoreMetric::Writes => "Writes to the store, by tree and durability class (durable or telemetry).",
        }
    }
}

/// Registers the help text of every store metric with the installed recorder.
pub fn describe() {
    for metric in StoreMetric::ALL {
        metric.kind().describe(metric.name(), metric.help());
    }
}
