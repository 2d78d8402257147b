//! The login page, `/account/login`: a server-rendered form that works without
//! JavaScript. `GET` shows it (`?redirect=` or `?returnUrl=` names where to go next);
//! `POST` (form-encoded `email`, `password`, `rememberMe`, `crumb`, `redirect`) signs in
//! exactly as the JSON call does and answers 303 to the return path, which is always a
//! path on this site. A refusal shows the form again with the reason.

use std::collections::BTreeMap;

use actix_web::http::{header, StatusCode};
use actix_web::{web, HttpRequest, HttpResponse};
use serde::Deserialize;
use veranda_actors::domain::enums::PageType;

use super::error::{AuthError, LOGIN_FAILED_MESSAGE, THROTTLED_MESSAGE, UNAVAILABLE_MESSAGE};
use super::login::sign_in;
use super::return_path::{ReturnPath, LOGIN_PATH};
use crate::edge::{Crumbed, NoStore};
use crate::pages::crumb::page_crumb;
use crate::pages::respond;
use crate::render::{LoginView, PageBody};
use crate::security::crumb::CRUMB_FAIL_MESSAGE;
use crate::security::session::CurrentSession;
use crate::services::auth::throttle::retry_after_secs;
use crate::state::AppState;

/// The login page's title.
const TITLE: &str = "Log in";

/// The login page's query string.
#[derive(Deserialize)]
pub struct LoginQuery {
    /// Where to go after signing in.
    redirect: Option<String>,
    /// The same, as the members-only page's link names it.
    #[serde(rename = "returnUrl")]
    return_url: Option<String>,
}

/// The login form as posted.
#[derive(Deserialize)]
pub struct LoginFields {
    /// The address as typed.
    #[serde(default)]
    email: String,
    /// The password as typed.
    #[serde(default)]
    password: String,
    /// The checkbox: present (`true` or `on`) to keep the session for 14 days.
    #[serde(rename = "rememberMe")]
    remember_me: Option<String>,
    /// The page's crumb, from the hidden field.
    crumb: Option<String>,
    /// Where to go after signing in.
    redirect: Option<String>,
}

/// `GET /account/login`.
pub async fn show(req: HttpRequest, state: web::Data<AppState>) -> HttpResponse {
    let query = web::Query::<LoginQuery>::from_query(req.query_string()).ok().map(web::Query::into_inner);
    let (redirect, return_url) = query.map_or((None, None), |q| (q.redirect, q.return_url));
    let return_to = ReturnPath::first_or_home([redirect.as_deref(), return_url.as_deref()]);
    page(&req, &state, StatusCode::OK, &return_to, String::new(), None)
}

/// `POST /account/login`.
pub async fn submit(
    req: HttpRequest,
    state: web::Data<AppState>,
    body: Result<web::Form<LoginFields>, actix_web::Error>,
) -> HttpResponse {
    let form = match body {
        Ok(form) => form.into_inner(),
        Err(refusal) => return refusal.error_response(),
    };
    let return_to = ReturnPath::first_or_home([form.redirect.as_deref()]);
    if Crumbed::or_field(&req, form.crumb.as_deref()).is_err() {
        return page(&req, &state, StatusCode::FORBIDDEN, &return_to, form.email, Some(CRUMB_FAIL_MESSAGE));
    }
    let remember = matches!(form.remember_me.as_deref(), Some("true" | "on"));
    match sign_in(&req, &state, &form.email, form.password, remember).await {
        Ok(signed_in) => {
            let mut response = HttpResponse::SeeOther();
            response.insert_header((header::LOCATION, return_to.as_str())).no_store();
            for cookie in signed_in.cookies {
                response.cookie(cookie);
            }
            response.finish()
        }
        Err(refusal) => {
            let (message, retry_after) = match &refusal {
                AuthError::BadCredentials => (LOGIN_FAILED_MESSAGE, None),
                AuthError::Throttled(wait) => (THROTTLED_MESSAGE, Some(retry_after_secs(*wait))),
                _ => {
                    tracing::error!(error = %refusal, "sign-in through the login page failed");
                    (UNAVAILABLE_MESSAGE, Some(5))
                }
            };
            let status = actix_web::ResponseError::status_code(&refusal);
            let mut response = page(&req, &state, status, &return_to, form.email, Some(message));
            if let Some(secs) = retry_after {
                response.headers_mut().insert(header::RETRY_AFTER, header::HeaderValue::from(secs));
            }
            response
        }
    }
}

/// The login page with `status`, the return path, the address typed and the reason
/// for a refusal.
fn page(
    req: &HttpRequest,
    state: &AppState,
    status: StatusCode,
    return_to: &ReturnPath,
    email: String,
    error: Option<&'static str>,
) -> HttpResponse {
    let session = CurrentSession::of(req);
    let view = LoginView {
        crumb: page_crumb(req, state),
        return_to: return_to.as_str().to_string(),
        email: email.chars().take(256).collect(),
        error,
    };
    respond(
        req,
        state,
        status,
        PageType::Page,
        LOGIN_PATH,
        TITLE.to_string(),
        None,
        None,
        None,
        BTreeMap::new(),
        session.0.as_ref(),
        PageBody::Login(view),
        false,
    )
}
