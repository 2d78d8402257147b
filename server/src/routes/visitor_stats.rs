//! The dashboard's visitor figures (owner and admins):
//!
//! | route | methods | answer |
//! |---|---|---|
//! | `/api/stats/visitors` | GET | `{liveVisitors, pageViews: {today, lastHour}}` |
//! | `/api/stats/vitals` | GET | `{pages: [{path, lcp, inp, cls, fcp, ttfb}]}`, each vital `{p75, count}` or null |
//! | `/api/stats/series?range=24h\|30d` | GET | `{range, bucketMs, points: [{start, pageViews, visitors}]}` |
//! | `/api/stats/top?range=24h\|30d` | GET | `{range, pages: [{key, count}], referrers: [{key, count}]}` |
//! | `/api/stats/vitals/series?range=24h\|30d` | GET | `{range, bucketMs, points: [{start, lcp, inp, cls, fcp, ttfb}]}` |
//! | `/api/stats/errors` | GET | `{bucketMs, points: [{start, errors}], groups: [{fingerprint, counts}]}` |
//!
//! Series and top lists come from the hourly and daily rings the census ingest feeds
//! ([`veranda_actors::telemetry::page_views`]); any other `range` is a 400 with a message.
//!
//! Live visitors are the visitor sessions seen in the last five minutes (only visitors whose
//! identifiers may be stored have a session); page views come from the census ingest's
//! counter, never from a scan of the census records. Vitals are the p75 of the recent
//! records per page path label, from the perf collector's bounded histograms (ms; CLS unitless).

use actix_web::{web, HttpRequest, HttpResponse};
use veranda_actors::telemetry::records::now_ms;

use veranda_actors::telemetry::page_views::{BadRange, StatsRange, VisitorStats};

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
/// The `range` of the query string.
fn range_of(req: &HttpRequest) -> Result<StatsRange, BadRange> {
    let pairs = serde_urlencoded::from_str::<Vec<(String, String)>>(req.query_string()).map_err(|_| BadRange)?;
    StatsRange::parse(pairs.iter().rev().find(|(k, _)| k == "range").map(|(_, v)| v.as_str()))
}

/// The answer to a bad `range`: 400 with the message.
fn bad_range(bad: BadRange) -> HttpResponse {
    no_store(HttpResponse::BadRequest()).json(serde_json::json!({ "error": bad.to_string() }))
}

/// `GET /api/stats/series`.
pub async fn series(_: Admin<Figures>, req: HttpRequest, state: web::Data<AppState>) -> HttpResponse {
    match range_of(&req) {
        Ok(range) => no_store(HttpResponse::Ok()).json(state.services.telemetry.page_views.series(range, now_ms())),
        Err(bad) => bad_range(bad),
    }
}

/// `GET /api/stats/top`.
pub async fn top(_: Admin<Figures>, req: HttpRequest, state: web::Data<AppState>) -> HttpResponse {
    match range_of(&req) {
        Ok(range) => no_store(HttpResponse::Ok()).json(state.services.telemetry.page_views.top(range, now_ms())),
        Err(bad) => bad_range(bad),
    }
}

/// `GET /api/stats/vitals/series`.
pub async fn vital_series(_: Admin<Figures>, req: HttpRequest, state: web::Data<AppState>) -> HttpResponse {
    let range = match range_of(&req) {
        Ok(range) => range,
        Err(bad) => return bad_range(bad),
    };
    match state.services.telemetry.perf.vital_series(range).await {
        Ok(report) => no_store(HttpResponse::Ok()).json(report),
        Err(_) => busy(),
    }
}

/// `GET /api/stats/errors`: errors per hour over the last 24 hours, and each active group's.
pub async fn errors(_: Admin<Figures>, state: web::Data<AppState>) -> HttpResponse {
    no_store(HttpResponse::Ok()).json(state.services.telemetry.error_intake.hourly())
}

/// Registers the routes; other methods get 405.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(method::read_only("/api/stats/visitors", visitors))
        .service(method::read_only("/api/stats/vitals", vitals))
        .service(method::read_only("/api/stats/series", series))
        .service(method::read_only("/api/stats/top", top))
        .service(method::read_only("/api/stats/vitals/series", vital_series))
        .service(method::read_only("/api/stats/errors", errors));
}
