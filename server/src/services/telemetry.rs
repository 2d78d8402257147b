//! [`Telemetry`]: the telemetry actors (started once, inside the actix system), the
//! per-address request rate and byte budget, the live event stream, and the flush at
//! shutdown.
//!
//! The byte budget charges every byte an anonymous caller asks the server to store (the
//! body of each ingest call, and the query string of the tracking pixel) to its client
//! address: `[telemetry] bytes_per_address_per_minute`, `byte_burst_per_address`. Both
//! tables are [`KeyedLimiter`]s of at most `[telemetry] limited_addresses` addresses.

use std::collections::HashSet;
use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use actix::{Actor, Addr};
use actix_web::HttpRequest;
use tokio::sync::broadcast;
use veranda_actors::site::Site;
use veranda_actors::store::Store;
use veranda_actors::telemetry::errors::{ErrorIntake, FlushErrors};
use veranda_actors::telemetry::events::EVENT_BUFFER;
use veranda_actors::telemetry::page_views::PageViewCounter;
use veranda_actors::telemetry::traces::FlushTraces;
use veranda_actors::telemetry::{
    metrics, ErrorQueue, PerfShards, TelemetryEvent, TelemetryLimits, TelemetryWriter, TraceFlusher, VisitorShards,
};

pub use crate::edge::limit::RateLimited;
use crate::edge::limit::{quota, KeyedLimiter};
use crate::settings::Settings;

/// The `table` label of the request-rate limiter.
pub const REQUESTS_TABLE: &str = "telemetry";
/// The `table` label of the byte budget.
pub const BYTES_TABLE: &str = "telemetry_bytes";

/// Why the ingest endpoints refuse a client address for now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refused {
    /// It sent too many requests.
    TooFast(RateLimited),
    /// It sent more bytes to be stored than its budget.
    OverByteBudget(RateLimited),
}

/// The telemetry actors and what the telemetry routes share across workers.
pub struct Telemetry {
    /// Live visitor sessions, in shards by visitor id; page views hand their visits to
    /// their visitor's shard.
    pub visitors: VisitorShards,
    /// Publishes and writes JavaScript error records and groups.
    pub errors: Addr<ErrorQueue>,
    /// Where requests admit error records, and read the groups and latest records.
    pub error_intake: ErrorIntake,
    /// Trace-log entries.
    pub traces: Addr<TraceFlusher>,
    /// Performance records and web vitals, in shards by page load id.
    pub perf: PerfShards,
    /// Writes telemetry records to the store.
    pub writer: TelemetryWriter,
    /// Page views today and in the last hour, counted as they are recorded.
    pub page_views: Arc<PageViewCounter>,
    /// The live telemetry stream (new errors, group changes).
    events: broadcast::Sender<TelemetryEvent>,
    /// Requests per client address.
    requests: KeyedLimiter<IpAddr>,
    /// Bytes to be stored per client address.
    bytes: KeyedLimiter<IpAddr>,
}

impl Telemetry {
    /// Starts the actors (inside the actix system) and the per-address limiters.
    pub fn start(store: Arc<dyn Store>, site: &Site, settings: &Settings) -> Telemetry {
        let limits: &TelemetryLimits = &settings.telemetry;
        metrics::describe();
        veranda_actors::tables::export_at_zero();
        metrics::retention_pending(&veranda_actors::telemetry::retention::SWEPT_TREES);
        let capacity = veranda_actors::telemetry::capacity::Capacity::from_limits(limits);
        let limit = capacity.map_or(0, |capacity| capacity.limit);
        metrics::capacity_pending(&veranda_actors::telemetry::capacity::DROPPED_TREES, limit);
        let (events, _) = broadcast::channel(EVENT_BUFFER);
        let mut known_paths: HashSet<String> = site.published_urls().into_iter().collect();
        known_paths.extend(["/".to_string(), "/search".to_string()]);
        let retention = veranda_actors::telemetry::retention::Retention::from_limits(limits);
        let writer = TelemetryWriter::start_with_limits(store.clone(), retention, capacity);
        let visitors = VisitorShards::start(store.clone(), writer.clone(), limits);
        let errors = ErrorQueue::new(store.clone(), writer.clone(), limits, events.clone());
        let error_intake = errors.intake();
        let errors = errors.start();
        let traces = TraceFlusher::new(store.as_ref(), writer.clone(), limits).start();
        let perf = PerfShards::start(writer.clone(), known_paths, limits);
        let per_second = quota(limits.rate_per_second, Duration::from_secs(1), limits.rate_burst);
        let requests = KeyedLimiter::new(REQUESTS_TABLE, per_second, limits.limited_addresses);
        let per_minute =
            quota(limits.bytes_per_address_per_minute, Duration::from_secs(60), limits.byte_burst_per_address);
        let bytes = KeyedLimiter::new(BYTES_TABLE, per_minute, limits.limited_addresses);
        Telemetry {
            visitors,
            errors,
            error_intake,
            traces,
            perf,
            writer,
            page_views: Arc::new(PageViewCounter::new()),
            events,
            requests,
            bytes,
        }
    }

    /// A receiver of the live telemetry stream.
    pub fn subscribe(&self) -> broadcast::Receiver<TelemetryEvent> {
        self.events.subscribe()
    }

    /// Applies the per-address request rate to `req`, and charges its query string to the
    /// address's byte budget.
    pub fn admit(&self, req: &HttpRequest) -> Result<(), Refused> {
        let Some(ip) = crate::security::proxy::ClientInfo::ip_of(req) else { return Ok(()) };
        self.requests.check(ip).map_err(Refused::TooFast)?;
        self.bytes.check_n(ip, req.query_string().len() as u64).map_err(Refused::OverByteBudget)
    }

    /// Charges `bytes` (a body to be stored) to the byte budget of `req`'s client address.
    pub fn charge(&self, req: &HttpRequest, bytes: usize) -> Result<(), Refused> {
        let Some(ip) = crate::security::proxy::ClientInfo::ip_of(req) else { return Ok(()) };
        self.bytes.check_n(ip, bytes as u64).map_err(Refused::OverByteBudget)
    }

    /// Writes everything the actors buffer (called once at shutdown, before the store's
    /// final flush).
    pub async fn shutdown(&self) {
        let sessions = self.visitors.flush().await;
        let errors = self.errors.send(FlushErrors).await.unwrap_or(0);
        let traces = self.traces.send(FlushTraces).await.unwrap_or(false);
        self.writer.drained().await;
        tracing::info!(sessions, errors, traces, "telemetry buffers written");
    }
}
