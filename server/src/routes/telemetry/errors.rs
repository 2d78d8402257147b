//! `POST /api/events/RecordJavascriptErrors` (a JSON array of error records, crumb
//! checked) and `GET /api/events/errors` (the error groups and the latest records, for
//! owners and admins).

use actix_web::http::header;
use actix_web::{web, HttpRequest, HttpResponse, ResponseError};
use veranda_actors::telemetry::errors::{parse_reports, Admission, PageLoadKey};
use veranda_actors::telemetry::metrics::{self, Queue};

use super::ingest::{finish, read_body, Endpoint, IngestError, MAX_ERRORS_BODY};
use super::offer::client_ip;
use crate::edge::{no_store, CrumbFail, Crumbed};
use crate::security::session::CurrentSession;
use crate::state::AppState;

/// `POST /api/events/RecordJavascriptErrors`: 202 with `{accepted, dropped}` (every
/// record of an accepted send, so `dropped` is 0); a send of more than 10 records gets
/// 400, and a page load that already made its 20 sends gets 429 with `Retry-After`.
pub async fn record_errors(
    crumb: Result<Crumbed, CrumbFail>,
    req: HttpRequest,
    state: web::Data<AppState>,
    payload: web::Payload,
) -> HttpResponse {
    if let Err(fail) = crumb {
        metrics::rejected(Endpoint::JavascriptErrors.label(), super::ingest::CRUMB_REFUSAL);
        return fail.error_response();
    }
    finish(Endpoint::JavascriptErrors, record(&req, &state, payload).await)
}

/// The answer to a send: records accepted, and dropped (always 0: a send is admitted
/// whole or refused).
#[derive(serde::Serialize)]
struct Answer {
    accepted: usize,
    dropped: usize,
}

async fn record(req: &HttpRequest, state: &AppState, payload: web::Payload) -> Result<HttpResponse, IngestError> {
    state.services.telemetry.admit(req)?;
    let body = read_body(req, payload, MAX_ERRORS_BODY).await?;
    let reports = parse_reports(&body).map_err(|e| IngestError::BadRequest(e.to_string()))?;
    let Some(first) = reports.first() else {
        return Ok(HttpResponse::Accepted().json(Answer { accepted: 0, dropped: 0 }));
    };
    let header_agent = req.headers().get(header::USER_AGENT).and_then(|v| v.to_str().ok()).unwrap_or("");
    let agent = if first.user_agent.is_empty() { header_agent } else { first.user_agent.as_str() };
    let address = client_ip(req);
    let key = PageLoadKey::of(first.page_load_id.as_deref(), &first.url, agent, address);
    let address = address.unwrap_or(std::net::IpAddr::V4(std::net::Ipv4Addr::UNSPECIFIED));
    match state.services.telemetry.error_intake.record(key, address, reports) {
        // A send is admitted whole or refused, so no record is dropped; `dropped` stays in
        // the answer for clients that read it.
        Admission::Accepted { accepted } => Ok(HttpResponse::Accepted().json(Answer { accepted, dropped: 0 })),
        Admission::Refused => Err(IngestError::PageLoadCap(state.settings.telemetry.errors_per_page_load)),
        Admission::Busy => Err(IngestError::Busy(Queue::Errors)),
    }
}

/// `GET /api/events/errors`: `{groups: [...], records: [...]}`, groups most recently seen
/// first, records (the latest ones, each with its group's `fingerprint`) newest first.
pub async fn list_groups(state: web::Data<AppState>, session: CurrentSession) -> Result<HttpResponse, IngestError> {
    let session = session.0.ok_or(IngestError::Unauthorised)?;
    if !crate::security::permissions::has_admin_permission(&session) {
        return Err(IngestError::Forbidden);
    }
    let groups = state.services.telemetry.error_intake.groups();
    let records = state.services.telemetry.error_intake.recent();
    Ok(no_store(HttpResponse::Ok()).json(serde_json::json!({ "groups": groups, "records": records })))
}
