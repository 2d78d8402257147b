//! The signed-in session of a request, read from the session cookie.

use std::future::{ready, Ready};

use actix_web::{web, FromRequest, HttpRequest};
use veranda_actors::accounts::{find_by_id, SessionRecord, SESSION_COOKIE};
use veranda_actors::store::{Store, Tree};

use super::EdgeState;

/// The request's valid session, if any. A missing, unknown, expired or unreadable
/// session cookie means "not signed in"; it never fails the request.
///
/// A session keeps the roles its account had when it began, with one exception: a
/// session that may not see member pages asks its account whether it has become a member
/// since (joining a member area makes the buyer a member when the owner marks the order
/// paid, while the buyer is already signed in).
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
            .filter(|s| s.is_valid_at(time::OffsetDateTime::now_utc().unix_timestamp()))
            .map(|mut record| {
                if !record.may_see_member_pages() && joined_since(state.sessions.as_ref(), &record.account_id) {
                    record.member = true;
                }
                record
            });
        CurrentSession(record)
    }
}

/// Whether account `id` is a member now; an account that cannot be read is not.
fn joined_since(store: &dyn Store, id: &str) -> bool {
    find_by_id(store, id).ok().flatten().is_some_and(|account| account.member)
}

impl FromRequest for CurrentSession {
    type Error = actix_web::Error;
    type Future = Ready<Result<Self, Self::Error>>;

    fn from_request(req: &HttpRequest, _: &mut actix_web::dev::Payload) -> Self::Future {
        ready(Ok(CurrentSession::of(req)))
    }
}
