//! Crumbs for pages that post plain HTML forms (the lock screen and the login page),
//! which must work without JavaScript: the page writes its crumb into a hidden `crumb`
//! field, and the post is accepted when that field (or the usual header or query
//! parameter) equals the crumb cookie and verifies ([`crate::edge::Crumbed::or_field`]).

use actix_web::{HttpMessage, HttpRequest};

use crate::security::cookies::cookie_value;
use crate::security::crumb::CRUMB_COOKIE;
use crate::state::AppState;

/// The crumb issued while answering one request, so the markup and the cookie agree.
#[derive(Clone)]
struct IssuedCrumb(String);

/// The crumb a page uses: the request's own crumb cookie when it verifies, else one
/// issued for this request (the same one on every call while answering it).
pub fn page_crumb(req: &HttpRequest, state: &AppState) -> String {
    if let Some(cookie) = cookie_value(req, CRUMB_COOKIE) {
        if state.crumb_key.verifies(req, cookie) {
            return cookie.to_string();
        }
    }
    if let Some(issued) = issued(req) {
        return issued;
    }
    let crumb = state.crumb_key.issue(req);
    req.extensions_mut().insert(IssuedCrumb(crumb.clone()));
    crumb
}

/// The crumb issued while answering this request (for the page's markup), or a new one
/// for the answer's cookie alone, not remembered: the page is already made.
pub fn issued_or_new(req: &HttpRequest, state: &AppState) -> String {
    issued(req).unwrap_or_else(|| state.crumb_key.issue(req))
}

/// The crumb issued while answering this request, if one was.
fn issued(req: &HttpRequest) -> Option<String> {
    req.extensions().get::<IssuedCrumb>().map(|issued| issued.0.clone())
}
