//! `POST /api/site-users/account/session`: sign in with `{email, password, rememberMe}`.
//!
//! Order of checks: the crumb (403 `crumbFail`), the body (400/413/415), the throttle
//! (429; a valid device cookie for the account lets its browser past an attack on the
//! account or its address, see [`crate::services::auth::throttle`]), then the password. An unknown account and a wrong password give the same
//! 401, and an unknown account is checked against a dummy hash, so neither the answer
//! nor its timing tells which. A success stores a fresh session (on disk before the
//! answer), replaces any session the request carried, and answers the new crumb (bound
//! to the new session, see [`crate::security::crumb`]) as `xsrfToken` with the account.

use crate::security::cookies::site_cookie;
use std::time::Instant;

use actix_web::cookie::{time::Duration as CookieDuration, Cookie};
use actix_web::{web, HttpRequest, HttpResponse};
use serde::Deserialize;
use veranda_actors::accounts::{
    end_session, find_by_email, start_session, Account, Email, SessionId, REMEMBERED_SESSION_SECS, SESSION_COOKIE,
};

use super::error::{AuthBody, AuthError};
use crate::edge::{Crumbed, LimitedJson, NoStore};
use crate::security::crumb::crumb_cookie;
use crate::security::proxy::ClientInfo;
use crate::services::auth::device::{DeviceKey, DEVICE_COOKIE};
use crate::services::auth::throttle::Attempter;
use crate::state::AppState;

/// The sign-in form.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LoginForm {
    /// The address as typed.
    email: String,
    /// The password as typed.
    password: String,
    /// Keep the session for 14 days instead of the browser session.
    #[serde(default)]
    remember_me: bool,
}

/// Signs in.
pub async fn login(
    _: Crumbed,
    req: HttpRequest,
    state: web::Data<AppState>,
    body: LimitedJson<LoginForm, AuthBody>,
) -> Result<HttpResponse, AuthError> {
    let form = body.into_inner();
    let signed_in = sign_in(&req, &state, &form.email, form.password, form.remember_me).await?;
    let mut response = HttpResponse::Ok();
    response.no_store();
    for cookie in signed_in.cookies {
        response.cookie(cookie);
    }
    Ok(response.json(serde_json::json!({ "xsrfToken": signed_in.crumb, "account": signed_in.account.summary() })))
}

/// A successful sign-in: the cookies to set (session, a fresh crumb, the device
/// cookie), the crumb, and the account.
pub struct SignedIn {
    /// The session cookie, the crumb cookie and the device cookie.
    pub cookies: [Cookie<'static>; 3],
    /// The fresh crumb, answered as `xsrfToken`.
    pub crumb: String,
    /// Who signed in.
    pub account: Account,
}

/// Checks the throttle and the password, then starts a session (on disk before it
/// returns) and ends any session the request carried. The caller has checked the crumb.
pub async fn sign_in(
    req: &HttpRequest,
    state: &AppState,
    email: &str,
    password: String,
    remember_me: bool,
) -> Result<SignedIn, AuthError> {
    let account = check_password(req, state, email, password).await?;
    start_signed_in(req, state, account, remember_me).await
}

/// The account of `email` when `password` is its password, under the sign-in throttle:
/// an unknown account and a wrong password are both [`AuthError::BadCredentials`], after
/// the same argon2 work.
pub async fn check_password(
    req: &HttpRequest,
    state: &AppState,
    email: &str,
    password: String,
) -> Result<Account, AuthError> {
    let address = ClientInfo::ip_of(req).map(|ip| ip.to_string()).unwrap_or_default();
    let now = time::OffsetDateTime::now_utc().unix_timestamp();
    let devices = DeviceKey::from_crumb_key(&state.crumb_key);
    let device = req.cookie(DEVICE_COOKIE).and_then(|c| devices.device_of(c.value(), email, now));
    let who = Attempter { account: email, address: &address, device: device.as_deref() };
    let attempt = state.services.auth.throttle.begin(who, Instant::now()).map_err(AuthError::Throttled)?;
    let account = match Email::parse(email) {
        Ok(email) => find_by_email(state.services.store.as_ref(), &email)?,
        Err(_) => None,
    };
    let digest = account.as_ref().map_or_else(|| state.services.auth.dummy_digest.clone(), |a| a.password_hash.clone());
    let verified = web::block(move || digest.verify(&password)).await.map_err(|_| AuthError::Worker)?;
    let account = match account {
        Some(account) if verified => account,
        _ => return Err(AuthError::BadCredentials),
    };
    state.services.auth.throttle.succeeded(attempt);
    Ok(account)
}

/// Starts a session for `account` (on disk before it returns), ends any session the
/// request carried, and gives the cookies of the signed-in browser: sign-in, and joining a
/// member area with a new account or an account's password.
pub async fn start_signed_in(
    req: &HttpRequest,
    state: &AppState,
    account: Account,
    remember_me: bool,
) -> Result<SignedIn, AuthError> {
    let now = time::OffsetDateTime::now_utc().unix_timestamp();
    let (id, _) = start_session(state.services.store.as_ref(), &account, remember_me, now).await?;
    if let Some(previous) = req.cookie(SESSION_COOKIE) {
        end_session(state.services.store.as_ref(), previous.value()).await?;
        state.services.streams.sockets.session_ended(previous.value());
    }
    // The new crumb is bound to the new session: crumbs minted before sign-in stop working.
    let crumb = state.crumb_key.issue_for(Some(id.as_str()));
    let devices = DeviceKey::from_crumb_key(&state.crumb_key);
    let device = devices.issue(account.email.as_str(), now);
    let cookies = [session_cookie(&id, remember_me), crumb_cookie(&crumb), device];
    Ok(SignedIn { cookies, crumb, account })
}

/// The session cookie: whole site, HttpOnly, Lax; 14 days when remembered, else a
/// browser-session cookie. `Secure` over https is added by [`crate::edge::headers`].
fn session_cookie(id: &SessionId, remember: bool) -> Cookie<'static> {
    let mut cookie = site_cookie(SESSION_COOKIE, id.as_str().to_string()).http_only(true).finish();
    if remember {
        cookie.set_max_age(CookieDuration::seconds(REMEMBERED_SESSION_SECS));
    }
    cookie
}

/// The cookie that removes the session cookie (same attributes, expired).
pub fn removal_cookie() -> Cookie<'static> {
    let mut cookie = site_cookie(SESSION_COOKIE, "").http_only(true).finish();
    cookie.make_removal();
    cookie
}
