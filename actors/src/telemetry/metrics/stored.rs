//! The metrics of what telemetry keeps on disk: the retention sweep's removals and the
//! size limit's total, limit and drops (see [`super::TelemetryMetric`] for their names).

use super::TelemetryMetric;

/// Counts records the retention sweep removed from `tree`.
pub fn retention_removed(tree: &'static str, count: u64) {
    metrics::counter!(TelemetryMetric::RetentionRemoved.name(), "tree" => tree).increment(count);
}

/// Exports the retention metrics of `trees` at zero from start-up (no sweep finished
/// yet, nothing removed), so dashboards and alerts have data before the first sweep.
pub fn retention_pending(trees: &[&'static str]) {
    metrics::gauge!(TelemetryMetric::RetentionLastSweep.name()).set(0.0);
    for &tree in trees {
        metrics::counter!(TelemetryMetric::RetentionRemoved.name(), "tree" => tree).increment(0);
    }
}

/// Records when a complete retention sweep of `trees` finished (unix ms); every swept
/// tree's removal counter is exported from then on, at 0 if nothing was removed.
pub fn retention_swept(at_ms: u64, trees: &[&'static str]) {
    for &tree in trees {
        metrics::counter!(TelemetryMetric::RetentionRemoved.name(), "tree" => tree).increment(0);
    }
    metrics::gauge!(TelemetryMetric::RetentionLastSweep.name()).set(at_ms as f64 / 1000.0);
}

/// Exports the size-limit metrics from start-up: the limit, `limit` bytes (0 when there is
/// none), and nothing stored or dropped yet from any of `trees`.
pub fn capacity_pending(trees: &[&'static str], limit: u64) {
    metrics::gauge!(TelemetryMetric::StoredLimitBytes.name()).set(limit as f64);
    metrics::gauge!(TelemetryMetric::StoredBytes.name()).set(0.0);
    metrics::counter!(TelemetryMetric::DropsAtOnce.name()).increment(0);
    for &tree in trees {
        metrics::counter!(TelemetryMetric::DroppedRecords.name(), "tree" => tree).increment(0);
    }
}

/// Sets the bytes the telemetry trees hold.
pub fn stored_bytes(bytes: u64) {
    metrics::gauge!(TelemetryMetric::StoredBytes.name()).set(bytes as f64);
}

/// Counts records dropped from `tree` for the size limit.
pub fn dropped_records(tree: &'static str, count: u64) {
    metrics::counter!(TelemetryMetric::DroppedRecords.name(), "tree" => tree).increment(count);
}

/// Counts a drop made at once past the size limit's ceiling.
pub fn drop_made_at_once() {
    metrics::counter!(TelemetryMetric::DropsAtOnce.name()).increment(1);
}
