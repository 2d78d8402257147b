//! Signing out (`DELETE /api/site-users/account/session?cloneCart=`, `POST
//! /api/auth/Logout`) and the current account (`GET /api/site-users/account`).

use actix_web::{web, HttpRequest, HttpResponse};
use veranda_actors::accounts::{end_session, find_by_id, SESSION_COOKIE};

use super::error::AuthError;
use super::login::removal_cookie;
use crate::edge::{no_store, Crumbed};
use crate::security::crumb::crumb_cookie;
use crate::security::session::CurrentSession;
use crate::state::AppState;

/// Signs out: removes the session from the store (on disk before the answer), closes
/// its open stream sockets, expires the cookie and hands out an anonymous crumb (the
/// session's crumb no longer verifies). Signing out without a session also
/// answers `loggedOut`.
pub async fn logout(_: Crumbed, req: HttpRequest, state: web::Data<AppState>) -> Result<HttpResponse, AuthError> {
    // `cloneCart` asks to keep the visitor's cart after signing out. Carts are not tied
    // to accounts yet, so it does not apply: it is read (a bad value is refused) and
    // otherwise has no effect.
    let _clone_cart = clone_cart(req.query_string())?;
    if let Some(cookie) = req.cookie(SESSION_COOKIE) {
        end_session(state.services.store.as_ref(), cookie.value()).await?;
        // The session's open stream sockets close now, not at their next heartbeat.
        state.services.streams.sockets.session_ended(cookie.value());
    }
    // The session's crumb dies with it; the visitor goes on with an anonymous one.
    let crumb = state.crumb_key.issue_for(None);
    Ok(no_store(HttpResponse::Ok())
        .cookie(removal_cookie())
        .cookie(crumb_cookie(&crumb))
        .json(serde_json::json!({ "loggedOut": true })))
}

/// The `cloneCart` query parameter: `true`, `false`, or absent.
fn clone_cart(query: &str) -> Result<Option<bool>, AuthError> {
    let pairs: Vec<(String, String)> = serde_urlencoded::from_str(query)
        .map_err(|e| AuthError::BadQuery(format!("The query string is not readable: {e}")))?;
    match pairs.iter().find(|(k, _)| k == "cloneCart").map(|(_, v)| v.as_str()) {
        None => Ok(None),
        Some("true") => Ok(Some(true)),
        Some("false") => Ok(Some(false)),
        Some(_) => Err(AuthError::BadQuery("cloneCart must be true or false.".to_string())),
    }
}

/// The signed-in account: `{id, email, roles, member, owner}`, or 401.
pub async fn current(state: web::Data<AppState>, session: CurrentSession) -> Result<HttpResponse, AuthError> {
    let session = session.0.ok_or(AuthError::NotSignedIn)?;
    let account = find_by_id(state.services.store.as_ref(), &session.account_id)?.ok_or(AuthError::NotSignedIn)?;
    Ok(no_store(HttpResponse::Ok()).json(account.summary()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clone_cart_is_true_false_or_absent() {
        assert_eq!(clone_cart("").ok(), Some(None));
        assert_eq!(clone_cart("cloneCart=true&crumb=x").ok(), Some(Some(true)));
        assert_eq!(clone_cart("cloneCart=false").ok(), Some(Some(false)));
        assert!(clone_cart("cloneCart=maybe").is_err());
    }
}
