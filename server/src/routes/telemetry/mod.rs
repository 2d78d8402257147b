//! Visitor telemetry ingest: census hits and visitor cookies, analytics events, error
//! reports, trace logs and performance records (spec 000 §7, 001 §7).
//!
//! Every handler parses its body into types at the edge (malformed → 400, too large →
//! 413), passes the per-IP rate limit (429 with `Retry-After`), and hands the work to a
//! telemetry actor with `try_send` on a bounded mailbox (full → 503, `Retry-After: 1`).
//!
//! ## Layout
//!
//! - `offer`: the client's IP and handing work to an actor (the actors themselves are
//!   [`crate::services::telemetry`]).
//! - `ingest`: the shared edge: body reading, form parsing, [`IngestError`], metrics.
//! - `census`: `/api/census/*` and `/api/track/Track`; `page_fields`: what a page view's
//!   `data` is read for, without building it.
//! - `events`: `/api/events/RecordEvent` and `/api/v1/events`.
//! - `errors`: `/api/events/RecordJavascriptErrors` and `/api/events/errors`.
//! - `logs`: `/api/events/Trace` and `/api/1/performance/*`.

mod census;
mod errors;
mod events;
pub mod ingest;
mod logs;
mod offer;
pub mod page_fields;

use actix_web::web;

use crate::edge::method;

pub use events::{record_account_creation, ACCOUNT_CREATION_EVENT};
pub use ingest::{Endpoint, IngestError};

/// Registers the telemetry routes. Other methods on these paths get 405 with `Allow`.
pub fn configure(cfg: &mut web::ServiceConfig) {
    // The three most requested first: routes are tried in order.
    cfg.service(method::post_only("/api/census/RecordHit", census::record_hit))
        .service(method::post_only("/api/events/RecordJavascriptErrors", errors::record_errors))
        .service(method::post_only("/api/1/performance/records", logs::perf_records))
        .service(method::post_only("/api/census/button-click", census::button_click))
        .service(method::post_only("/api/census/button-render", census::button_render))
        .service(method::post_only("/api/census/form-render", census::form_render))
        .service(method::post_only("/api/census/overlay", census::overlay))
        .service(method::post_only("/api/census/RecordQuickView/{id}", census::quick_view))
        .service(method::read_only("/api/track/Track", census::track))
        .service(method::post_only("/api/events/RecordEvent", events::record_event))
        .service(method::post_only("/api/v1/events", events::v1_events))
        .service(method::get_only("/api/events/errors", errors::list_groups))
        .service(method::post_only("/api/events/Trace", logs::trace))
        .service(method::get_only("/api/1/performance/settings", logs::perf_settings));
}
