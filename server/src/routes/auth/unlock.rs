//! Password pages: the lock screen's form posts the password to the page itself.
//!
//! Order of checks: the page (only password pages take a post; every other path keeps
//! answering 405), the body, the crumb (the form's hidden field, or the usual header),
//! the throttle per client address and page (429 with `Retry-After`; a client with no
//! recent wrong passwords is always let through, see
//! [`crate::services::auth::throttle`]), then the password against the page's argon2id
//! hash (a constant-time comparison). A right password sets the
//! page's grant cookie and answers 303 back to the page; a wrong one shows the lock
//! screen again with a message. Every refusal is the lock screen, so the form keeps
//! working without JavaScript.

use std::collections::BTreeMap;
use std::time::Instant;

use actix_web::http::{header, StatusCode};
use actix_web::{web, HttpRequest, HttpResponse};
use serde::Deserialize;
use veranda_actors::domain::enums::PageType;
use veranda_actors::site::{site_path, Page, Resolved};

use crate::edge::method::page_method_not_allowed;
use crate::edge::{Crumbed, NoStore};
use crate::pages::respond;
use crate::pages::unlock::lock_screen;
use crate::security::crumb::CRUMB_FAIL_MESSAGE;
use crate::security::session::CurrentSession;
use crate::services::auth::throttle::{retry_after_secs, Attempter};
use crate::state::AppState;

/// A wrong page password.
pub const WRONG_PASSWORD_MESSAGE: &str = "That password is incorrect. Please try again.";
/// Too many wrong page passwords from one address.
pub const UNLOCK_THROTTLED_MESSAGE: &str = "Too many incorrect passwords. Please try again later.";
/// The password could not be checked.
const UNLOCK_UNAVAILABLE_MESSAGE: &str = "The password could not be checked. Please try again later.";

/// The unlock form.
#[derive(Deserialize)]
pub struct UnlockForm {
    /// The password as typed.
    #[serde(default)]
    password: String,
    /// The page's crumb, from the form's hidden field.
    crumb: Option<String>,
}

/// `POST` on any published path: unlocks a password page, 405 for everything else.
pub async fn unlock(
    req: HttpRequest,
    state: web::Data<AppState>,
    body: Result<web::Form<UnlockForm>, actix_web::Error>,
) -> HttpResponse {
    let site = state.services.site.current();
    let page = match site.resolve(&site_path(req.path())) {
        Some(Resolved::Page(page)) if state.services.auth.page_locks.contains_key(&page.id) => page,
        _ => return page_method_not_allowed(),
    };
    let form = match body {
        Ok(form) => form.into_inner(),
        Err(refusal) => return refusal.error_response(),
    };
    if Crumbed::or_field(&req, form.crumb.as_deref()).is_err() {
        return refused(&req, &state, page, StatusCode::FORBIDDEN, CRUMB_FAIL_MESSAGE, None);
    }
    let address = crate::security::proxy::ClientInfo::ip_of(&req).map(|ip| ip.to_string()).unwrap_or_default();
    let key = format!("page:{}", page.id);
    let who = Attempter { account: &key, address: &address, device: None };
    let attempt = match state.services.auth.unlock_throttle.begin(who, Instant::now()) {
        Ok(attempt) => attempt,
        Err(wait) => {
            let wait = retry_after_secs(wait).to_string();
            return refused(&req, &state, page, StatusCode::TOO_MANY_REQUESTS, UNLOCK_THROTTLED_MESSAGE, Some(wait));
        }
    };
    let Some(lock) = state.services.auth.page_locks.get(&page.id) else { return page_method_not_allowed() };
    let digest = lock.digest.clone();
    let password = form.password;
    let Ok(verified) = web::block(move || digest.verify(&password)).await else {
        let status = StatusCode::SERVICE_UNAVAILABLE;
        return refused(&req, &state, page, status, UNLOCK_UNAVAILABLE_MESSAGE, Some("5".into()));
    };
    if !verified {
        return refused(&req, &state, page, StatusCode::UNAUTHORIZED, WRONG_PASSWORD_MESSAGE, None);
    }
    state.services.auth.unlock_throttle.succeeded(attempt);
    let now = time::OffsetDateTime::now_utc().unix_timestamp();
    HttpResponse::SeeOther()
        .insert_header((header::LOCATION, page.url.clone()))
        .no_store()
        .cookie(state.services.auth.unlock_key.grant(&page.id, &lock.hash, now))
        .finish()
}

/// The lock screen again, with `message` and the status.
fn refused(
    req: &HttpRequest,
    state: &AppState,
    page: &Page,
    status: StatusCode,
    message: &'static str,
    retry_after: Option<String>,
) -> HttpResponse {
    let session = CurrentSession::of(req);
    let body = lock_screen(req, state, page.title.clone(), Some(message));
    let (path, title) = (page.url.as_str(), page.title.clone());
    let mut response = respond(
        req,
        state,
        status,
        PageType::LockScreen,
        path,
        title,
        Some(page.id.as_str()),
        None,
        None,
        BTreeMap::new(),
        session.0.as_ref(),
        body,
        false,
    );
    if let Some(wait) = retry_after.and_then(|w| header::HeaderValue::from_str(&w).ok()) {
        response.headers_mut().insert(header::RETRY_AFTER, wait);
    }
    response
}
