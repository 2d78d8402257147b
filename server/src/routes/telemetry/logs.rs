//! `/api/events/Trace` (form data holding a JSON array of `{pageUrl, type, data}`, in
//! the field `entries`, `logs` or `data`) and the performance calls:
//! `GET /api/1/performance/settings` (a fresh `pageLoadId`) and
//! `POST /api/1/performance/records` (a JSON array, any content type, so a `text/plain`
//! beacon works).

use actix_web::{web, HttpRequest, HttpResponse};
use tokio::sync::oneshot;
use veranda_actors::telemetry::metrics::Queue;
use veranda_actors::telemetry::perf::parse_records;
use veranda_actors::telemetry::traces::{parse_entries, AddTraces};

use super::ingest::{finish, read_body, Endpoint, Form, IngestError, MAX_FORM_BODY, MAX_PERF_BODY};
use super::offer::offer;
use crate::edge::no_store;
use crate::state::AppState;

/// Form fields a trace body may hold its entries in, in order of preference.
const TRACE_FIELDS: [&str; 3] = ["entries", "logs", "data"];

/// `POST /api/events/Trace`: 202.
pub async fn trace(req: HttpRequest, state: web::Data<AppState>, payload: web::Payload) -> HttpResponse {
    finish(Endpoint::Trace, traces(&req, &state, payload).await)
}

async fn traces(req: &HttpRequest, state: &AppState, payload: web::Payload) -> Result<HttpResponse, IngestError> {
    state.services.telemetry.admit(req)?;
    let form = Form::parse(&read_body(req, payload, MAX_FORM_BODY).await?);
    let json = TRACE_FIELDS
        .iter()
        .find_map(|name| form.get(name))
        .ok_or_else(|| IngestError::BadRequest("entries is required (a JSON array of {pageUrl, type, data})".into()))?;
    let entries = parse_entries(json).map_err(|e| IngestError::BadRequest(e.to_string()))?;
    let (accepted, journaled) = oneshot::channel();
    offer(&state.services.telemetry.traces, AddTraces { entries, accepted }, Queue::Traces)?;
    // Answered once the entries are journaled (on disk within the flush window).
    match journaled.await {
        Ok(true) => Ok(HttpResponse::Accepted().finish()),
        Ok(false) | Err(_) => Err(IngestError::Busy(Queue::Traces)),
    }
}

/// `GET /api/1/performance/settings`: `{pageLoadId}`.
pub async fn perf_settings(req: HttpRequest, state: web::Data<AppState>) -> HttpResponse {
    let result = state.services.telemetry.admit(&req).map_err(IngestError::from).map(|()| {
        let bytes: [u8; 12] = rand::random();
        let id: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
        no_store(HttpResponse::Ok()).json(serde_json::json!({ "pageLoadId": id }))
    });
    finish(Endpoint::PerfSettings, result)
}

/// `POST /api/1/performance/records`: 202.
pub async fn perf_records(req: HttpRequest, state: web::Data<AppState>, payload: web::Payload) -> HttpResponse {
    finish(Endpoint::PerfRecords, records(&req, &state, payload).await)
}

async fn records(req: &HttpRequest, state: &AppState, payload: web::Payload) -> Result<HttpResponse, IngestError> {
    state.services.telemetry.admit(req)?;
    let records = parse_records(&read_body(req, payload, MAX_PERF_BODY).await?)
        .map_err(|e| IngestError::BadRequest(e.to_string()))?;
    let address = crate::security::proxy::client_ip(req);
    state.services.telemetry.perf.offer(records, address).map_err(|_| IngestError::Busy(Queue::PerfShards))?;
    Ok(HttpResponse::Accepted().finish())
}
