//! Visitor telemetry ingest: census hits and visitor cookies, analytics events, error
//! reports, trace logs and performance records (spec 000 §7, 001 §7).
//!
//! Every handler parses its body into types at the edge (malformed → 400, too large →
//! 413), passes the per-IP rate limit (429 with `Retry-After`), and hands the work to a
//! telemetry actor with `try_send` on a bounded mailbox (full → 503, `Retry-After: 1`).
//!
//! ## Layout
//!
//! - `state`: [`TelemetryState`], the actors' addresses, the rate limiter, shutdown.
//! - `ingest`: the shared edge: body reading, form parsing, [`IngestError`], metrics.
//! - `census`: `/api/census/*` and `/api/track/Track`.
//! - `events`: `/api/events/RecordEvent` and `/api/v1/events`.
//! - `errors`: `/api/events/RecordJavascriptErrors` and `/api/events/errors`.
//! - `logs`: `/api/events/Trace` and `/api/1/performance/*`.

mod census;
mod errors;
mod events;
mod ingest;
mod logs;
mod state;

use actix_web::{guard, web};

pub use ingest::{Endpoint, IngestError};
pub use state::TelemetryState;

/// Registers the telemetry routes.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.route("/api/census/RecordHit", web::post().to(census::record_hit))
        .route("/api/census/button-click", web::post().to(census::button_click))
        .route("/api/census/button-render", web::post().to(census::button_render))
        .route("/api/census/form-render", web::post().to(census::form_render))
        .route("/api/census/overlay", web::post().to(census::overlay))
        .route("/api/census/RecordQuickView/{id}", web::post().to(census::quick_view))
        .route("/api/track/Track", web::route().guard(guard::Any(guard::Get()).or(guard::Head())).to(census::track))
        .route("/api/events/RecordEvent", web::post().to(events::record_event))
        .route("/api/v1/events", web::post().to(events::v1_events))
        .route("/api/events/RecordJavascriptErrors", web::post().to(errors::record_errors))
        .route("/api/events/errors", web::get().to(errors::list_groups))
        .route("/api/events/Trace", web::post().to(logs::trace))
        .route("/api/1/performance/settings", web::get().to(logs::perf_settings))
        .route("/api/1/performance/records", web::post().to(logs::perf_records));
}
