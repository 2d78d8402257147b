//! `/api/events/RecordEvent` (form-encoded `crumb`, `event`, `data`) and `/api/v1/events`
//! (`analyticsId`, `commonData`, `customData`, `customSchemaName`; a JSON body from a
//! beacon or XHR, or a form). Both are written to the events tree. With a restrictive
//! cookie policy and no consent, no analytics identifier is stored: `analyticsId` is
//! dropped and identifier fields (`sessionId`, visitor ids, analytics cookies) are taken
//! out of the data.

use actix_web::http::header;
use actix_web::{web, HttpRequest, HttpResponse, ResponseError};
use serde::Deserialize;
use veranda_actors::store::Tree;
use veranda_actors::telemetry::metrics::Queue;
use veranda_actors::telemetry::records::{now_ms, record_key, truncate_chars};
use veranda_actors::telemetry::rules::Recording;
use veranda_actors::telemetry::session_ids::strip_identifiers;

use super::census::{identifiers_allowed, recording};
use super::ingest::{finish, json_object, read_body, skipped, Endpoint, Form, IngestError, MAX_FORM_BODY};
use crate::edge::Crumbed;
use crate::state::AppState;

async fn store_event(state: &AppState, value: serde_json::Value) -> Result<(), IngestError> {
    let now = now_ms();
    let bytes = serde_json::to_vec(&value).map_err(|e| IngestError::BadRequest(e.to_string()))?;
    state.services.store.put(Tree::Events, &record_key(now), &bytes).await.map_err(|error| {
        tracing::warn!(%error, "event write failed");
        IngestError::Busy(Queue::Store)
    })
}

/// `POST /api/events/RecordEvent`.
pub async fn record_event(req: HttpRequest, state: web::Data<AppState>, payload: web::Payload) -> HttpResponse {
    let body = match read_body(&req, payload, MAX_FORM_BODY).await.map(|b| Form::parse(&b)) {
        Ok(form) => form,
        Err(error) => return finish(Endpoint::RecordEvent, Err(error)),
    };
    if let Err(fail) = Crumbed::or_field(&req, body.get("crumb")) {
        veranda_actors::telemetry::metrics::rejected(Endpoint::RecordEvent.label(), super::ingest::CRUMB_REFUSAL);
        return fail.error_response();
    }
    finish(Endpoint::RecordEvent, event(&req, &state, body).await)
}

async fn event(req: &HttpRequest, state: &AppState, form: Form) -> Result<HttpResponse, IngestError> {
    state.services.telemetry.admit(req)?;
    let name = truncate_chars(form.require("event")?, 128);
    let mut data = json_object("data", form.get("data").unwrap_or("{}"))?;
    let page = data.get("pagePath").and_then(|p| p.as_str()).unwrap_or("/");
    if let Recording::Skip(reason) = recording(req, state, page) {
        return Ok(skipped(reason, HttpResponse::NoContent().finish()));
    }
    if !identifiers_allowed(req, state) {
        strip_identifiers(&mut data);
    }
    store_event(state, serde_json::json!({ "kind": "recordEvent", "at": now_ms(), "event": name, "data": data }))
        .await?;
    Ok(HttpResponse::NoContent().finish())
}

/// The ad-pixel event of a new customer account (spec 000 §7 "customer account
/// creation"), named as the browser's pixel events are (`client/src/loader/telemetry/ad-pixel.ts`).
pub const ACCOUNT_CREATION_EVENT: &str = "customer-account-creation";

/// Records [`ACCOUNT_CREATION_EVENT`] for an account the server made (joining a member
/// area with a new email), as if the page `page` the visitor joined from had sent it: under
/// the same recording rules as `RecordEvent`, with the `memberAccountId` every page event's
/// data carries (001 §7). A refused write is logged; the account stands either way.
pub async fn record_account_creation(req: &HttpRequest, state: &AppState, page: &str, account_id: &str) {
    if let Recording::Skip(_) = recording(req, state, page) {
        return;
    }
    let data = serde_json::json!({ "pagePath": page, "memberAccountId": account_id });
    let event = serde_json::json!({ "kind": "recordEvent", "at": now_ms(), "event": ACCOUNT_CREATION_EVENT,
        "data": data });
    if store_event(state, event).await.is_err() {
        tracing::warn!("a new account's ad-pixel event was not recorded");
    }
}

/// `/api/v1/events` as sent: the data fields may be JSON strings or objects.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct RawV1Event {
    #[serde(default)]
    analytics_id: Option<String>,
    #[serde(default)]
    common_data: Option<serde_json::Value>,
    #[serde(default)]
    custom_data: Option<serde_json::Value>,
    #[serde(default)]
    custom_schema_name: Option<String>,
}

fn data_field(name: &str, value: Option<serde_json::Value>) -> Result<serde_json::Value, IngestError> {
    match value {
        None | Some(serde_json::Value::Null) => Ok(serde_json::json!({})),
        Some(serde_json::Value::String(text)) => json_object(name, &text),
        Some(value @ serde_json::Value::Object(_)) => Ok(value),
        Some(_) => Err(IngestError::BadRequest(format!("{name} must be a JSON object or a JSON string of one"))),
    }
}

/// `POST /api/v1/events`: answers 202.
pub async fn v1_events(req: HttpRequest, state: web::Data<AppState>, payload: web::Payload) -> HttpResponse {
    finish(Endpoint::Events, v1(&req, &state, payload).await)
}

async fn v1(req: &HttpRequest, state: &AppState, payload: web::Payload) -> Result<HttpResponse, IngestError> {
    state.services.telemetry.admit(req)?;
    let body = read_body(req, payload, MAX_FORM_BODY).await?;
    let is_form = req
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/x-www-form-urlencoded"));
    let raw: RawV1Event = if is_form {
        let form = Form::parse(&body);
        RawV1Event {
            analytics_id: form.get("analyticsId").map(str::to_string),
            common_data: form.get("commonData").map(|s| serde_json::Value::String(s.to_string())),
            custom_data: form.get("customData").map(|s| serde_json::Value::String(s.to_string())),
            custom_schema_name: form.get("customSchemaName").map(str::to_string),
        }
    } else {
        // Only an object: serde would also read a struct from a JSON array.
        match serde_json::from_slice::<serde_json::Value>(&body) {
            Ok(value @ serde_json::Value::Object(_)) => serde_json::from_value(value),
            Ok(_) => return Err(IngestError::BadRequest("expected a JSON event object".into())),
            Err(e) => Err(e),
        }
        .map_err(|e| IngestError::BadRequest(format!("expected a JSON event object: {e}")))?
    };
    let mut common = data_field("commonData", raw.common_data)?;
    let mut custom = data_field("customData", raw.custom_data)?;
    let page = common.get("pagePath").or_else(|| common.get("url")).and_then(|p| p.as_str()).unwrap_or("/");
    if let Recording::Skip(reason) = recording(req, state, page) {
        return Ok(skipped(reason, HttpResponse::Accepted().finish()));
    }
    let allowed = identifiers_allowed(req, state);
    if !allowed {
        strip_identifiers(&mut common);
        strip_identifiers(&mut custom);
    }
    let analytics_id = raw.analytics_id.filter(|_| allowed).map(|a| truncate_chars(&a, 128));
    let schema = raw.custom_schema_name.map(|s| truncate_chars(&s, 128));
    store_event(
        state,
        serde_json::json!({ "kind": "v1", "at": now_ms(), "analyticsId": analytics_id, "commonData": common,
            "customData": custom, "customSchemaName": schema }),
    )
    .await?;
    Ok(HttpResponse::Accepted().finish())
}
