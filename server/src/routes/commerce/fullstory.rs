//! `GET /api/commerce/fullstory/getId` (spec 000 §7, 001 §7): the id a session recording
//! names this visitor by. It is the visitor's analytics id (`SS_ANALYTICS_ID`) when the
//! visitor may be identified (no restrictive cookie policy, or consent given) and the
//! cookie holds a well-formed id; otherwise the mock id, which the session-recording
//! loader skips. Nothing is stored and nothing is set: the answer is read from the request.

use actix_web::{web, HttpRequest, HttpResponse};
use veranda_actors::telemetry::cookie::VisitorId;
use veranda_actors::telemetry::session_ids::ANALYTICS_ID_COOKIE;

use crate::edge::NoStore;
use crate::state::AppState;

/// The id answered for a visitor who may not be identified: never recorded.
pub const MOCK_ID: &str = "00000000000000000000000000000000";

/// The visitor's recording id, as a JSON string.
pub async fn get_id(req: HttpRequest, state: web::Data<AppState>) -> HttpResponse {
    let id = crate::security::cookies::identifiers_allowed(&req, &state.services.site.current())
        .then(|| req.cookie(ANALYTICS_ID_COOKIE))
        .flatten()
        .and_then(|c| VisitorId::parse(c.value()).ok());
    let id = id.as_ref().map_or(MOCK_ID, VisitorId::as_str);
    HttpResponse::Ok().no_store().json(id)
}
