//! The signed-in session of a request, read from the session cookie.

use std::future::{ready, Ready};

use actix_web::{web, FromRequest, HttpRequest};
use veranda_actors::accounts::{SessionRecord, SESSION_COOKIE};
use veranda_actors::store::Tree;

use super::EdgeState;

/// The request's valid session, if any. A missing, unknown, expired or unreadable
/// session cookie means "not signed in"; it never fails the request.
#[derive(Debug, Clone)]
pub struct CurrentSession(pub Option<SessionRecord>);

impl CurrentSession {
    /// Looks the session up from the request's cookie.
    pub fn of(req: &HttpRequest) -> CurrentSession {
        let Some(state) = req.app_data::<web::Data<EdgeState>>() else {
            return CurrentSession(None);
        };
        let Some(id) = super::cookies::cookie_value(req, SESSION_COOKIE) else {
            return CurrentSession(None);
        };
        if id.is_empty() || id.len() > 128 {
            return CurrentSession(None);
        }
        let record = state
            .sessions
            .get(Tree::Sessions, id.as_bytes())
            .ok()
            .flatten()
            .and_then(|bytes| serde_json::from_slice::<SessionRecord>(&bytes).ok())
            .filter(|s| s.is_valid_at(time::OffsetDateTime::now_utc().unix_timestamp()));
        CurrentSession(record)
    }
}

impl FromRequest for CurrentSession {
    type Error = actix_web::Error;
    type Future = Ready<Result<Self, Self::Error>>;

    fn from_request(req: &HttpRequest, _: &mut actix_web::dev::Payload) -> Self::Future {
        ready(Ok(CurrentSession::of(req)))
    }
}
