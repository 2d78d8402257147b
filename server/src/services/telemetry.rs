//! [`Telemetry`]: the telemetry actors (started once, inside the actix system), the
//! per-IP rate limiter, the live event stream, and the flush at shutdown.

use std::collections::HashSet;
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::Arc;
use std::time::Duration;

use actix::{Actor, Addr};
use actix_web::HttpRequest;
use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use tokio::sync::broadcast;
use veranda_actors::site::Site;
use veranda_actors::store::Store;
use veranda_actors::telemetry::errors::{ErrorIntake, FlushErrors};
use veranda_actors::telemetry::events::EVENT_BUFFER;
use veranda_actors::telemetry::page_views::PageViewCounter;
use veranda_actors::telemetry::traces::FlushTraces;
use veranda_actors::telemetry::visitor::{FlushVisitorSessions, VisitInbox};
use veranda_actors::telemetry::{
    metrics, ErrorQueue, PerfCollector, TelemetryEvent, TelemetryLimits, TelemetryWriter, TraceFlusher, VisitorSessions,
};

use crate::settings::Settings;

/// A client IP past its rate limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RateLimited {
    /// Whole seconds until the next request is admitted (at least 1).
    pub retry_after_secs: u64,
}

/// How often the rate limiter forgets idle client IPs.
const LIMITER_CLEANUP: Duration = Duration::from_secs(60);

/// The telemetry actors and what the telemetry routes share across workers.
pub struct Telemetry {
    /// Live visitor sessions and census hits.
    pub visitors: Addr<VisitorSessions>,
    /// Where page views hand their visits to `visitors`.
    pub visit_inbox: VisitInbox,
    /// Publishes and writes JavaScript error records and groups.
    pub errors: Addr<ErrorQueue>,
    /// Where requests admit error records, and read the groups and latest records.
    pub error_intake: ErrorIntake,
    /// Trace-log entries.
    pub traces: Addr<TraceFlusher>,
    /// Performance records and web vitals.
    pub perf: Addr<PerfCollector>,
    /// Writes telemetry records to the store.
    pub writer: TelemetryWriter,
    /// Page views today and in the last hour, counted as they are recorded.
    pub page_views: Arc<PageViewCounter>,
    /// The live telemetry stream (new errors, group changes).
    events: broadcast::Sender<TelemetryEvent>,
    /// Requests per client IP.
    limiter: Arc<DefaultKeyedRateLimiter<IpAddr>>,
}

impl Telemetry {
    /// Starts the actors (inside the actix system) and the rate limiter's cleanup.
    pub fn start(store: Arc<dyn Store>, site: &Site, settings: &Settings) -> Telemetry {
        let limits: &TelemetryLimits = &settings.telemetry;
        metrics::describe();
        metrics::retention_pending(&veranda_actors::telemetry::retention::SWEPT_TREES);
        metrics::capacity_pending(&veranda_actors::telemetry::capacity::DROPPED_TREES);
        let (events, _) = broadcast::channel(EVENT_BUFFER);
        let mut known_paths: HashSet<String> = site.published_urls().into_iter().collect();
        known_paths.extend(["/".to_string(), "/search".to_string()]);
        let retention = veranda_actors::telemetry::retention::Retention::from_limits(limits);
        let capacity = veranda_actors::telemetry::capacity::Capacity::from_limits(limits);
        let writer = TelemetryWriter::start_with_limits(store.clone(), retention, capacity);
        let visitors = VisitorSessions::new(store.clone(), writer.clone(), limits);
        let visit_inbox = visitors.inbox();
        let visitors = visitors.start();
        let errors = ErrorQueue::new(store.clone(), writer.clone(), limits, events.clone());
        let error_intake = errors.intake();
        let errors = errors.start();
        let traces = TraceFlusher::new(store.as_ref(), writer.clone(), limits).start();
        let perf = PerfCollector::new(writer.clone(), known_paths, limits).start();
        let rate = NonZeroU32::new(limits.rate_per_second).unwrap_or(NonZeroU32::MIN);
        let burst = NonZeroU32::new(limits.rate_burst).unwrap_or(rate);
        let limiter = Arc::new(RateLimiter::keyed(Quota::per_second(rate).allow_burst(burst)));
        let cleanup = limiter.clone();
        actix::spawn(async move {
            let mut tick = tokio::time::interval(LIMITER_CLEANUP);
            loop {
                tick.tick().await;
                cleanup.retain_recent();
                cleanup.shrink_to_fit();
            }
        });
        Telemetry {
            visitors,
            visit_inbox,
            errors,
            error_intake,
            traces,
            perf,
            writer,
            page_views: Arc::new(PageViewCounter::new()),
            events,
            limiter,
        }
    }

    /// A receiver of the live telemetry stream.
    pub fn subscribe(&self) -> broadcast::Receiver<TelemetryEvent> {
        self.events.subscribe()
    }

    /// Applies the per-IP rate limit to `req`.
    pub fn admit(&self, req: &HttpRequest) -> Result<(), RateLimited> {
        let Some(ip) = crate::security::proxy::ClientInfo::of(req).ip else { return Ok(()) };
        self.limiter.check_key(&ip).map_err(|not_until| {
            let wait = not_until.wait_time_from(DefaultClock::default().now());
            RateLimited { retry_after_secs: wait.as_secs_f64().ceil().max(1.0) as u64 }
        })
    }

    /// Writes everything the actors buffer (called once at shutdown, before the store's
    /// final flush).
    pub async fn shutdown(&self) {
        let sessions = self.visitors.send(FlushVisitorSessions).await.unwrap_or(0);
        let errors = self.errors.send(FlushErrors).await.unwrap_or(0);
        let traces = self.traces.send(FlushTraces).await.unwrap_or(false);
        self.writer.drained().await;
        tracing::info!(sessions, errors, traces, "telemetry buffers written");
    }
}
