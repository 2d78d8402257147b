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
//! - `census`: `/api/census/*` and `/api/track/Track`.
//! - `events`: `/api/events/RecordEvent` and `/api/v1/events`.
//! - `errors`: `/api/events/RecordJavascriptErrors` and `/api/events/errors`.
//! - `logs`: `/api/events/Trace` and `/api/1/performance/*`.

mod census;
mod errors;
mod events;
pub mod ingest;
mod logs;
mod offer;

use actix_web::{guard, web, Resource, Route};

use crate::edge::method;

pub use ingest::{Endpoint, IngestError};

/// Registers the telemetry routes. Other methods on these paths get 405 with `Allow`.
pub fn configure(cfg: &mut web::ServiceConfig) {
    let read = || web::route().guard(guard::Any(guard::Get()).or(guard::Head()));
    cfg.service(post_only("/api/census/RecordHit", web::post().to(census::record_hit)))
        .service(post_only("/api/census/button-click", web::post().to(census::button_click)))
        .service(post_only("/api/census/button-render", web::post().to(census::button_render)))
        .service(post_only("/api/census/form-render", web::post().to(census::form_render)))
        .service(post_only("/api/census/overlay", web::post().to(census::overlay)))
        .service(post_only("/api/census/RecordQuickView/{id}", web::post().to(census::quick_view)))
        .service(only("/api/track/Track", read().to(census::track), "GET, HEAD"))
        .service(post_only("/api/events/RecordEvent", web::post().to(events::record_event)))
        .service(post_only("/api/v1/events", web::post().to(events::v1_events)))
        .service(post_only("/api/events/RecordJavascriptErrors", web::post().to(errors::record_errors)))
        .service(only("/api/events/errors", web::get().to(errors::list_groups), "GET"))
        .service(post_only("/api/events/Trace", web::post().to(logs::trace)))
        .service(only("/api/1/performance/settings", web::get().to(logs::perf_settings), "GET"))
        .service(post_only("/api/1/performance/records", web::post().to(logs::perf_records)));
}

/// A path answering only `route`; any other method gets 405 naming `allow`.
fn only(path: &str, route: Route, allow: &'static str) -> Resource {
    web::resource(path).route(route).default_service(method::only(allow))
}

/// A path answering only POST.
fn post_only(path: &str, route: Route) -> Resource {
    only(path, route, "POST")
}
