//! The dashboard's visitor figures (owner and admins):
//!
//! | route | methods | answer |
//! |---|---|---|
//! | `/api/stats/visitors` | GET | `{liveVisitors, pageViews: {today, lastHour}}` |
//! | `/api/stats/vitals` | GET | `{pages: [{path, lcp, inp, cls, fcp, ttfb}]}`, each vital `{p75, count}` or null |
//!
//! Live visitors are the visitor sessions seen in the last five minutes (only visitors whose
//! identifiers may be stored have a session); page views come from the census ingest's
//! counter, never from a scan of the census records. Vitals are the p75 of the recent
//! records per page path label, from the perf collector's bounded histograms (ms; CLS unitless).

use actix_web::{web, HttpResponse};
use veranda_actors::telemetry::perf::GetPageVitals;
use veranda_actors::telemetry::records::now_ms;
use veranda_actors::telemetry::visitor::CountActiveVisitors;

use super::streams::StreamError;
use crate::edge::method;
use crate::edge::no_store;
use crate::security::permissions;
use crate::security::session::CurrentSession;
use crate::state::AppState;

/// How recently a visitor must have been seen to count as live.
pub const LIVE_WINDOW_MS: u64 = 5 * 60 * 1000;

/// `GET /api/stats/visitors`.
pub async fn visitors(state: web::Data<AppState>, session: CurrentSession) -> Result<HttpResponse, StreamError> {
    let session = session.0.ok_or(StreamError::NotSignedIn)?;
    if !permissions::has_admin_permission(&session) {
        return Err(StreamError::Forbidden);
    }
    let live = state
        .services
        .telemetry
        .visitors
        .send(CountActiveVisitors { window_ms: LIVE_WINDOW_MS })
        .await
        .map_err(|_| StreamError::Busy)?;
    let views = state.services.telemetry.page_views.read(now_ms());
    Ok(no_store(HttpResponse::Ok()).json(serde_json::json!({ "liveVisitors": live, "pageViews": views })))
}

/// `GET /api/stats/vitals`.
pub async fn vitals(state: web::Data<AppState>, session: CurrentSession) -> Result<HttpResponse, StreamError> {
    let session = session.0.ok_or(StreamError::NotSignedIn)?;
    if !permissions::has_admin_permission(&session) {
        return Err(StreamError::Forbidden);
    }
    let pages = state.services.telemetry.perf.send(GetPageVitals).await.map_err(|_| StreamError::Busy)?;
    Ok(no_store(HttpResponse::Ok()).json(serde_json::json!({ "pages": pages })))
}
/// Registers the routes; other methods get 405.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(
        web::resource("/api/stats/visitors")
            .route(super::read().to(visitors))
            .default_service(method::only("GET, HEAD")),
    )
    .service(
        web::resource("/api/stats/vitals").route(super::read().to(vitals)).default_service(method::only("GET, HEAD")),
    );
}
