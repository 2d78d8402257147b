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
use veranda_actors::telemetry::records::now_ms;

use veranda_actors::telemetry::page_views::VisitorStats;

use crate::edge::{method, no_store, Admin, Shown};
use crate::state::AppState;

/// How recently a visitor must have been seen to count as live.
pub const LIVE_WINDOW_MS: u64 = 5 * 60 * 1000;

/// The visitor figures, in refusals.
pub struct Figures;

impl Shown for Figures {
    const SIGN_IN: &'static str = "Sign in to continue.";
    const ADMINS_ONLY: &'static str = "Your account does not have permission for this.";
}

/// The answer when the telemetry actors do not answer: 503, retry in a second.
fn busy() -> HttpResponse {
    no_store(HttpResponse::ServiceUnavailable())
        .insert_header(("Retry-After", "1"))
        .json(serde_json::json!({ "error": "The figures are busy; try again shortly." }))
}

/// `GET /api/stats/visitors`.
pub async fn visitors(_: Admin<Figures>, state: web::Data<AppState>) -> HttpResponse {
    let telemetry = &state.services.telemetry;
    let Ok(live) = telemetry.visitors.count_active(LIVE_WINDOW_MS).await else {
        return busy();
    };
    let stats = VisitorStats { live_visitors: live, page_views: telemetry.page_views.read(now_ms()) };
    no_store(HttpResponse::Ok()).json(stats)
}

/// `GET /api/stats/vitals`.
pub async fn vitals(_: Admin<Figures>, state: web::Data<AppState>) -> HttpResponse {
    match state.services.telemetry.perf.page_vitals().await {
        Ok(pages) => no_store(HttpResponse::Ok()).json(serde_json::json!({ "pages": pages })),
        Err(_) => busy(),
    }
}
/// Registers the routes; other methods get 405.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(method::read_only("/api/stats/visitors", visitors))
        .service(method::read_only("/api/stats/vitals", vitals));
}
