//! The tunable limits of visitor telemetry (`[telemetry]` in `veranda.toml`).

use serde::{Deserialize, Serialize};

/// Limits of the ingest endpoints and their actors.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TelemetryLimits {
    /// Requests per second one client IP may send to the ingest endpoints.
    pub rate_per_second: u32,
    /// Requests one client IP may send in a burst above the steady rate.
    pub rate_burst: u32,
    /// Messages waiting in each telemetry actor's mailbox before requests get 503.
    pub mailbox_capacity: usize,
    /// Sends (requests) of error records accepted per page load (spec 000 §9: 20 sends
    /// per page); each send carries at most 10 records.
    pub errors_per_page_load: u32,
    /// Trace entries buffered before a flush is forced.
    pub trace_buffer: usize,
    /// Days telemetry records are kept before the retention sweep removes them; 0 keeps them forever.
    pub retention_days: u32,
    /// Seconds between retention sweeps.
    pub retention_sweep_secs: u64,
    /// Bytes (request bodies and the tracking pixel's query) one client address may send
    /// to be stored per minute; past its budget it gets 429 with `Retry-After`.
    pub bytes_per_address_per_minute: u32,
    /// Bytes one client address may send at once before the per-minute rate applies.
    pub byte_burst_per_address: u32,
    /// Client addresses the request-rate and byte-budget tables each remember (least
    /// recently seen forgotten first).
    pub limited_addresses: usize,
    /// Most page loads the performance collector remembers (least recently used forgotten first).
    pub perf_page_loads: usize,
    /// Most of them made by one client address (its least recently used forgotten first).
    pub perf_page_loads_per_address: usize,
    /// Most page loads the error cap counts sends of (least recently used forgotten first).
    pub error_page_loads: usize,
    /// Most of them made by one client address (its least recently used forgotten first).
    pub error_page_loads_per_address: usize,
    /// Most visitor sessions held in memory; the least recently used is ended (written to
    /// the store) to make room.
    pub visitor_sessions: usize,
    /// Most of them started by one client address; its least recently used is ended.
    pub visitor_sessions_per_address: usize,
    /// Megabytes (MiB) all telemetry may take in the store; past it the oldest records
    /// are dropped first. 0: no limit.
    pub max_stored_mb: u64,
    /// Shards of the visitor sessions and of the performance collector, each an actor on
    /// its own thread with its share of the bounds above; 0: the number of available cores
    /// (at least 2). At most 64.
    pub shards: usize,
}

impl Default for TelemetryLimits {
    fn default() -> Self {
        TelemetryLimits {
            rate_per_second: 100,
            rate_burst: 400,
            mailbox_capacity: 1024,
            errors_per_page_load: 20,
            trace_buffer: 1000,
            retention_days: 90,
            retention_sweep_secs: 3600,
            bytes_per_address_per_minute: 2 * 1024 * 1024,
            byte_burst_per_address: 8 * 1024 * 1024,
            limited_addresses: 10_000,
            perf_page_loads: 100_000,
            perf_page_loads_per_address: 1_000,
            error_page_loads: 100_000,
            error_page_loads_per_address: 1_000,
            visitor_sessions: 200_000,
            visitor_sessions_per_address: 10_000,
            max_stored_mb: 1024,
            shards: 0,
        }
    }
}

impl TelemetryLimits {
    /// The limits of one of `shards` shards: its share of the visitor-session and
    /// page-load bounds (see [`crate::telemetry::shards::share`]); the rest as they are.
    pub fn shard(&self, shards: usize) -> TelemetryLimits {
        use crate::telemetry::shards::share;
        TelemetryLimits {
            visitor_sessions: share(self.visitor_sessions, shards),
            visitor_sessions_per_address: share(self.visitor_sessions_per_address, shards),
            perf_page_loads: share(self.perf_page_loads, shards),
            perf_page_loads_per_address: share(self.perf_page_loads_per_address, shards),
            ..self.clone()
        }
    }
}
