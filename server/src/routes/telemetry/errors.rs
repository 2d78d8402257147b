//! `POST /api/events/RecordJavascriptErrors` (a JSON array of error records, crumb
//! checked) and `GET /api/events/errors` (the error groups and the latest records, for
//! owners and admins).

use actix_web::http::header::{self, ContentType};
use actix_web::{web, HttpRequest, HttpResponse, ResponseError};
use veranda_actors::telemetry::errors::{parse_reports, Admission, PageLoadKey, MAX_RECORDS_PER_SEND};
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

/// The answers' bodies by records accepted: a send holds at most
/// [`MAX_RECORDS_PER_SEND`] records, so each is a static text, not serialised per request.
const ANSWERS: [&str; MAX_RECORDS_PER_SEND + 1] = [
    r#"{"accepted":0,"dropped":0}"#,
    r#"{"accepted":1,"dropped":0}"#,
    r#"{"accepted":2,"dropped":0}"#,
    r#"{"accepted":3,"dropped":0}"#,
    r#"{"accepted":4,"dropped":0}"#,
    r#"{"accepted":5,"dropped":0}"#,
    r#"{"accepted":6,"dropped":0}"#,
    r#"{"accepted":7,"dropped":0}"#,
    r#"{"accepted":8,"dropped":0}"#,
    r#"{"accepted":9,"dropped":0}"#,
    r#"{"accepted":10,"dropped":0}"#,
];

/// 202 with `{accepted, dropped: 0}`.
fn answer(accepted: usize) -> HttpResponse {
    match ANSWERS.get(accepted) {
        Some(body) => HttpResponse::Accepted().content_type(ContentType::json()).body(*body),
        None => HttpResponse::Accepted().json(Answer { accepted, dropped: 0 }),
    }
}

async fn record(req: &HttpRequest, state: &AppState, payload: web::Payload) -> Result<HttpResponse, IngestError> {
    state.services.telemetry.admit(req)?;
    let body = read_body(req, payload, MAX_ERRORS_BODY).await?;
    let reports = parse_reports(&body).map_err(|e| IngestError::BadRequest(e.to_string()))?;
    let Some(first) = reports.first() else {
        return Ok(answer(0));
    };
    let header_agent = req.headers().get(header::USER_AGENT).and_then(|v| v.to_str().ok()).unwrap_or("");
    let agent = if first.user_agent.is_empty() { header_agent } else { first.user_agent.as_str() };
    let address = client_ip(req);
    let key = PageLoadKey::of(first.page_load_id.as_deref(), &first.url, agent, address);
    let address = address.unwrap_or(std::net::IpAddr::V4(std::net::Ipv4Addr::UNSPECIFIED));
    match state.services.telemetry.error_intake.record(key, address, reports) {
        // A send is admitted whole or refused, so no record is dropped; `dropped` stays in
        // the answer for clients that read it.
        Admission::Accepted { accepted } => Ok(answer(accepted)),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_answer_names_the_records_accepted_and_none_dropped() {
        for accepted in 0..=11 {
            let response = answer(accepted);
            assert_eq!(response.status(), actix_web::http::StatusCode::ACCEPTED);
            let content_type = response.headers().get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok());
            assert_eq!(content_type, Some("application/json"));
            let body = actix_web::body::to_bytes(response.into_body());
            let body = futures_util::FutureExt::now_or_never(body).expect("ready").expect("a body");
            let json: serde_json::Value = serde_json::from_slice(&body).expect("JSON");
            assert_eq!(json, serde_json::json!({ "accepted": accepted, "dropped": 0 }));
        }
    }
}
