//! `/api/census/*` and `/api/track/Track`: page views with the visitor cookies, button,
//! form and overlay census calls, quick views and marketing tracking pixels.
//!
//! Recording rules (spec 000 §6) are applied to the page the call names; a call that
//! must not be recorded answers 204 and stores nothing. With a restrictive cookie
//! policy and no `ss_cookieAllowed=true` cookie, hits are stored without any visitor
//! identifier (identifier fields are taken out of their data too) and no visitor cookie
//! is set. Otherwise a page view also keeps (or makes and sets) `SS_SESSION_ID`, a session
//! cookie, and `SS_ANALYTICS_ID`, for 390 days, and stores both with the hit.

use crate::security::cookies::{cookie_decoded, set_cookie_value};
use actix_web::http::header::{self, HeaderValue};
use actix_web::{web, HttpRequest, HttpResponse};
use serde::Serialize;
use serde_json::value::RawValue;
use veranda_actors::telemetry::cookie::{
    next_visit, VisitOutcome, VisitorCookie, VisitorId, VISITOR_COOKIE, VISITOR_COOKIE_MAX_AGE_SECS,
    VISIT_TIMESTAMP_COOKIE, VISIT_TIMESTAMP_MAX_AGE_SECS,
};
use veranda_actors::telemetry::metrics::Queue;
use veranda_actors::telemetry::page_views::PageView;
use veranda_actors::telemetry::records::{chars_prefix, now_ms, truncate_chars};
use veranda_actors::telemetry::rules::{decide, path_of, Recording};
use veranda_actors::telemetry::session_ids::{
    strip_identifiers, AnalyticsIds, ANALYTICS_ID_COOKIE, ANALYTICS_ID_MAX_AGE_SECS, SESSION_ID_COOKIE,
};
use veranda_actors::telemetry::visitor::{self, CensusHit, RecordVisit};

use super::ingest::{finish, json_object, read_body, skipped, Endpoint, Form, IngestError, MAX_FORM_BODY};
use super::page_fields::PageFields;
use crate::edge::NoStore;
use crate::pages::unlock::unlocked;
use crate::security::session::CurrentSession;
use crate::state::AppState;

/// A transparent 1×1 GIF, the answer of the tracking pixel.
const PIXEL_GIF: [u8; 42] = [
    71, 73, 70, 56, 57, 97, 1, 0, 1, 0, 128, 0, 0, 0, 0, 0, 255, 255, 255, 33, 249, 4, 1, 0, 0, 0, 0, 44, 0, 0, 0, 0,
    1, 0, 1, 0, 0, 2, 1, 68, 0, 59,
];
/// Query parameters the tracking pixel records (spec 000 §7).
const TRACK_PARAMS: [&str; 12] = [
    "source",
    "campaign",
    "subcampaign",
    "channel",
    "subchannel",
    "refer",
    "variation",
    "mkwid",
    "landing",
    "lang",
    "screen",
    "rk",
];

/// Whether analytics identifiers may be set and stored for this request.
pub(super) fn identifiers_allowed(req: &HttpRequest, state: &AppState) -> bool {
    crate::security::cookies::identifiers_allowed(req, &state.services.site.current())
}

/// The recording decision for `url`, with the request's session and unlock grants.
pub(super) fn recording(req: &HttpRequest, state: &AppState, url: &str) -> Recording {
    decide(&state.services.site.current(), CurrentSession::of(req).0.as_ref(), url, |page| unlocked(req, state, page))
}

/// The page a census call names: its `url`, `pagePath` or `pageUrl` field, else the referer.
fn page_of(req: &HttpRequest, form: &Form) -> String {
    form.get("url")
        .or_else(|| form.get("pagePath"))
        .or_else(|| form.get("pageUrl"))
        .map(str::to_string)
        .or_else(|| req.headers().get(header::REFERER).and_then(|v| v.to_str().ok()).map(str::to_string))
        .unwrap_or_else(|| "/".to_string())
}

fn no_content() -> HttpResponse {
    HttpResponse::NoContent().finish()
}

/// The `ss_cvr` and `ss_cvt` cookies of a page view.
fn visit_cookies(outcome: &VisitOutcome) -> [Option<HeaderValue>; 2] {
    [
        set_cookie_value(VISITOR_COOKIE, &outcome.cookie.text(), Some(VISITOR_COOKIE_MAX_AGE_SECS)),
        set_cookie_value(
            VISIT_TIMESTAMP_COOKIE,
            itoa::Buffer::new().format(outcome.timestamp.0),
            Some(VISIT_TIMESTAMP_MAX_AGE_SECS),
        ),
    ]
}

/// The `SS_SESSION_ID` and `SS_ANALYTICS_ID` cookies a page view must set (those it did
/// not bring as valid ids).
fn id_cookies(ids: &AnalyticsIds) -> impl Iterator<Item = Option<HeaderValue>> + '_ {
    let session = ids.session.created.then(|| set_cookie_value(SESSION_ID_COOKIE, ids.session.id.as_str(), None));
    let analytics = ids
        .analytics
        .created
        .then(|| set_cookie_value(ANALYTICS_ID_COOKIE, ids.analytics.id.as_str(), Some(ANALYTICS_ID_MAX_AGE_SECS)));
    session.into_iter().chain(analytics)
}

/// The value of cookie `name` the request brought.
fn cookie_value(req: &HttpRequest, name: &str) -> Option<String> {
    cookie_decoded(req, name).map(std::borrow::Cow::into_owned)
}

/// Queues a census hit for the store: a writer queue still full after the hit's patience → 503.
async fn store_hit<D: Serialize>(state: &AppState, hit: &CensusHit<D>) -> Result<(), IngestError> {
    visitor::record_hit(&state.services.telemetry.writer, hit).await.map_err(|_| IngestError::Busy(Queue::Writer))
}

/// What a page view stores as its hit's data: the call's `data`, its `event` and whether
/// it started a visit.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PageViewData<'a> {
    data: &'a RawValue,
    event: &'a str,
    new_visit: Option<bool>,
}

/// A `data` that cannot be read or written as JSON: a 400.
fn not_json(e: serde_json::Error) -> IngestError {
    IngestError::BadRequest(format!("data is not JSON: {e}"))
}

/// `POST /api/census/RecordHit`: form-encoded `event`, `data` (JSON), `ss_cvr`.
pub async fn record_hit(req: HttpRequest, state: web::Data<AppState>, payload: web::Payload) -> HttpResponse {
    finish(Endpoint::RecordHit, hit(&req, &state, payload).await)
}

async fn hit(req: &HttpRequest, state: &AppState, payload: web::Payload) -> Result<HttpResponse, IngestError> {
    state.services.telemetry.admit(req)?;
    let form = Form::parse(&read_body(req, payload, MAX_FORM_BODY).await?);
    let text = form.require("data")?;
    let fields = PageFields::read(text)?;
    let url = fields
        .url
        .as_ref()
        .and_then(|u| u.as_str())
        .ok_or_else(|| IngestError::BadRequest("data.url is required".into()))?
        .to_string();
    let kind = match recording(req, state, &url) {
        Recording::Skip(reason) => return Ok(skipped(reason, no_content())),
        Recording::PageView => "pageView",
        Recording::Search => "search",
    };
    let now = now_ms();
    let event = chars_prefix(form.get("event").unwrap_or("pageView"), 64);
    let visit = identifiers_allowed(req, state).then(|| {
        let cvr = cookie_decoded(req, VISITOR_COOKIE).or_else(|| form.get("ss_cvr").map(std::borrow::Cow::Borrowed));
        let cvt = cookie_decoded(req, VISIT_TIMESTAMP_COOKIE);
        next_visit(cvr.as_deref(), cvt.as_deref(), now, || VisitorId::time_ordered(now))
    });
    // Kept as sent (borrowed from the body), unless identifiers must come out of it.
    let stripped: Box<RawValue>;
    let data: &RawValue = if visit.is_some() {
        serde_json::from_str(text).map_err(not_json)?
    } else {
        let mut data = json_object("data", text)?;
        strip_identifiers(&mut data);
        stripped = serde_json::value::to_raw_value(&data).map_err(not_json)?;
        &stripped
    };
    let ids = visit.is_some().then(|| {
        let session = cookie_value(req, SESSION_ID_COOKIE);
        let analytics = cookie_value(req, ANALYTICS_ID_COOKIE);
        AnalyticsIds::resolve(session.as_deref(), analytics.as_deref(), VisitorId::random)
    });
    let referrer = fields.referrer.as_ref().and_then(|r| r.as_str());
    let hit = CensusHit {
        kind: kind.into(),
        at: now,
        visitor_id: visit.as_ref().map(|v| v.cookie.id.as_str().to_string()),
        session_id: ids.as_ref().map(|i| i.session.id.as_str().to_string()),
        analytics_id: ids.as_ref().map(|i| i.analytics.id.as_str().to_string()),
        path: path_of(&url),
        data: PageViewData { data, event, new_visit: visit.as_ref().map(|v| v.new_visit) },
    };
    let cookies = visit.as_ref().map(visit_cookies);
    if let Some(outcome) = visit {
        let address = crate::security::proxy::client_ip(req);
        let visit = RecordVisit { outcome, address, at: now };
        state.services.telemetry.visitors.offer(visit).map_err(|_| IngestError::Busy(Queue::VisitorShards))?;
    }
    store_hit(state, &hit).await?;
    if kind == "pageView" {
        let view = PageView { at: now, url: &url, path: &hit.path, visitor: hit.visitor_id.as_deref(), referrer };
        state.services.telemetry.page_views.record_view(&view);
    }
    let mut response = HttpResponse::NoContent();
    for cookie in cookies.into_iter().flatten().chain(ids.iter().flat_map(id_cookies)).flatten() {
        response.append_header((header::SET_COOKIE, cookie));
    }
    Ok(response.finish())
}

/// `POST /api/census/button-click`.
pub async fn button_click(req: HttpRequest, state: web::Data<AppState>, payload: web::Payload) -> HttpResponse {
    finish(Endpoint::ButtonClick, census(&req, &state, payload, "buttonClick", Some("id")).await)
}

/// `POST /api/census/button-render`.
pub async fn button_render(req: HttpRequest, state: web::Data<AppState>, payload: web::Payload) -> HttpResponse {
    finish(Endpoint::ButtonRender, census(&req, &state, payload, "buttonRender", Some("id")).await)
}

/// `POST /api/census/form-render`.
pub async fn form_render(req: HttpRequest, state: web::Data<AppState>, payload: web::Payload) -> HttpResponse {
    finish(Endpoint::FormRender, census(&req, &state, payload, "formRender", Some("formId")).await)
}

/// `POST /api/census/overlay`.
pub async fn overlay(req: HttpRequest, state: web::Data<AppState>, payload: web::Payload) -> HttpResponse {
    finish(Endpoint::Overlay, census(&req, &state, payload, "overlay", None).await)
}

/// A form-encoded census call: `required` must be present; `visitorCookie` names the visitor.
async fn census(
    req: &HttpRequest,
    state: &AppState,
    payload: web::Payload,
    kind: &str,
    required: Option<&str>,
) -> Result<HttpResponse, IngestError> {
    state.services.telemetry.admit(req)?;
    let form = Form::parse(&read_body(req, payload, MAX_FORM_BODY).await?);
    if let Some(name) = required {
        form.require(name)?;
    }
    let page = page_of(req, &form);
    if let Recording::Skip(reason) = recording(req, state, &page) {
        return Ok(skipped(reason, no_content()));
    }
    let allowed = identifiers_allowed(req, state);
    let visitor_id = form
        .get("visitorCookie")
        .filter(|_| allowed)
        .and_then(|c| VisitorCookie::parse(c).ok())
        .map(|c| c.id.as_str().to_string());
    let (session_id, analytics_id) = if allowed {
        let session = cookie_value(req, SESSION_ID_COOKIE);
        let analytics = cookie_value(req, ANALYTICS_ID_COOKIE);
        let (session, analytics) = AnalyticsIds::brought(session.as_deref(), analytics.as_deref());
        (session.map(|s| s.as_str().to_string()), analytics.map(|a| a.as_str().to_string()))
    } else {
        (None, None)
    };
    let mut data = form.to_json(&["visitorCookie", "crumb"]);
    if !allowed {
        strip_identifiers(&mut data);
    }
    let data = CensusHit::data_of(&data);
    let hit =
        CensusHit { kind: kind.into(), at: now_ms(), visitor_id, session_id, analytics_id, path: path_of(&page), data };
    store_hit(state, &hit).await?;
    Ok(no_content())
}

/// `POST /api/census/RecordQuickView/{id}`: a product quick view.
pub async fn quick_view(req: HttpRequest, state: web::Data<AppState>, id: web::Path<String>) -> HttpResponse {
    finish(Endpoint::QuickView, quick(&req, &state, &id).await)
}

async fn quick(req: &HttpRequest, state: &AppState, id: &str) -> Result<HttpResponse, IngestError> {
    state.services.telemetry.admit(req)?;
    let valid = (1..=64).contains(&id.len()) && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    if !valid {
        return Err(IngestError::BadRequest(
            "the item id must be 1 to 64 letters, digits, dashes or underscores".into(),
        ));
    }
    let page = req.headers().get(header::REFERER).and_then(|v| v.to_str().ok()).unwrap_or("/").to_string();
    if let Recording::Skip(reason) = recording(req, state, &page) {
        return Ok(skipped(reason, no_content()));
    }
    let hit = CensusHit {
        kind: "quickView".into(),
        at: now_ms(),
        visitor_id: None,
        session_id: None,
        analytics_id: None,
        path: path_of(&page),
        data: CensusHit::data_of(&serde_json::json!({ "id": id })),
    };
    store_hit(state, &hit).await?;
    Ok(no_content())
}

/// `GET /api/track/Track`: records the marketing parameters, answers a 1×1 GIF.
pub async fn track(req: HttpRequest, state: web::Data<AppState>) -> HttpResponse {
    finish(Endpoint::Track, pixel(&req, &state).await)
}

async fn pixel(req: &HttpRequest, state: &AppState) -> Result<HttpResponse, IngestError> {
    state.services.telemetry.admit(req)?;
    let pairs: Vec<(String, String)> = serde_urlencoded::from_str(req.query_string())
        .map_err(|e| IngestError::BadRequest(format!("the query string cannot be decoded: {e}")))?;
    let form = Form(
        pairs
            .into_iter()
            .filter(|(k, _)| TRACK_PARAMS.contains(&k.as_str()))
            .map(|(k, v)| (k, truncate_chars(&v, 512)))
            .collect(),
    );
    let page = form.get("landing").unwrap_or("/").to_string();
    let skip = match recording(req, state, &page) {
        Recording::Skip(reason) => Some(reason),
        Recording::PageView | Recording::Search => None,
    };
    if skip.is_none() {
        let hit = CensusHit {
            kind: "track".into(),
            at: now_ms(),
            visitor_id: None,
            session_id: None,
            analytics_id: None,
            path: path_of(&page),
            data: CensusHit::data_of(&form.to_json(&[])),
        };
        store_hit(state, &hit).await?;
    }
    let pixel = HttpResponse::Ok().content_type("image/gif").no_store().body(PIXEL_GIF.to_vec());
    Ok(match skip {
        Some(reason) => skipped(reason, pixel),
        None => pixel,
    })
}
