//! Plain HTML form posts: a visitor without JavaScript submits the server-rendered
//! `<form method="post" action="/api/form/SaveFormSubmission">` as it is.
//!
//! Such a post is form-encoded and echoes no crumb (no `X-CSRF-Token` header, no `crumb`
//! query parameter); the page's script always echoes one, so that is how the two are
//! told apart. It carries no submission key either (a page without scripts cannot ask
//! for one). In their place:
//!
//! - the `crumb` cookie must be there and verify. It is `SameSite=Lax`, so a cross-site
//!   post never carries it; and when the browser says where the post came from
//!   (`Sec-Fetch-Site`, `Origin`), it must be this site;
//! - the per-address, per-form rate limit applies as to every save call.
//!
//! Fields are read from the rendered input names ([`veranda_actors::forms::plain`]),
//! then checked and stored exactly like a scripted submission (captcha included: a form
//! with a captcha still needs the page's script, as its markup says). Success answers
//! `303 See Other` to the form's success redirect when the site's redirect rule allows it
//! (a path on this site, or an address on its own origin or one in
//! `forms.redirectAllowList`: the rule the save call's `redirectUrl` follows too), else to
//! the thank-you view, `GET /api/form/thank-you?formId=…`. Refusals answer their
//! usual status with a small HTML page listing the messages and a link back.

use actix_web::dev::RequestHead;
use actix_web::http::{header, StatusCode};
use actix_web::{web, HttpRequest, HttpResponse};
use maud::{html, Markup, DOCTYPE};
use serde::Deserialize;
use veranda_actors::forms::plain::values_from_pairs;
use veranda_actors::forms::{messages, read_form, FormDefinition, FormError, SavePayload};

use super::captcha;
use super::captcha::commit_spend;
use super::error::{FormsBody, FormsError};
use super::storing::{keep, peer_ip};
use crate::edge::{no_store, CrumbFail, LimitedForm, PlainPost};
use crate::security::crumb::{CRUMB_FAIL_MESSAGE, CRUMB_HEADER};
use crate::security::owner_redirect::is_same_site_path;
use crate::services::auth::throttle::retry_after_secs;
use crate::state::AppState;

/// Where a plain post lands after success when the form names no redirect.
pub const THANK_YOU_PATH: &str = "/api/form/thank-you";

/// Whether a request is a plain HTML form post (see the module docs): the route guard
/// sending it here rather than to [`super::submit::save`].
pub fn is_plain_post(req: &RequestHead) -> bool {
    let form_encoded = req
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/x-www-form-urlencoded"));
    let echoes_crumb = req.headers().contains_key(CRUMB_HEADER)
        || serde_urlencoded::from_str::<Vec<(String, String)>>(req.uri.query().unwrap_or_default())
            .is_ok_and(|pairs| pairs.iter().any(|(k, _)| k == "crumb"));
    form_encoded && !echoes_crumb
}

/// Answers a plain post: checks, stores, then 303 (or an HTML refusal).
pub async fn save(
    req: HttpRequest,
    checked: Result<PlainPost, CrumbFail>,
    body: Result<LimitedForm<Vec<(String, String)>, FormsBody>, FormsError>,
    state: web::Data<AppState>,
) -> HttpResponse {
    if let Err(fail) = checked {
        let mut response = refusal(StatusCode::FORBIDDEN, &[CRUMB_FAIL_MESSAGE.to_string()], &req);
        if let Some(cookie) = fail.cookie() {
            let _ = response.add_cookie(&cookie);
        }
        return response;
    }
    match store(&req, body.map(LimitedForm::into_inner), &state).await {
        Ok(location) => no_store(HttpResponse::SeeOther()).insert_header((header::LOCATION, location)).finish(),
        Err(error) => {
            let mut lines = vec![error.to_string()];
            if let FormsError::Form(FormError::Invalid(errors)) = &error {
                lines = std::iter::once(messages::FORM_INVALID.to_string()).chain(errors.values().cloned()).collect();
            }
            if let FormsError::Store(e) = &error {
                tracing::error!(error = %e, "a plain form post failed in the store");
            }
            let mut response = refusal(actix_web::ResponseError::status_code(&error), &lines, &req);
            if let FormsError::RateLimited(wait) = error {
                response.headers_mut().insert(header::RETRY_AFTER, retry_after_secs(wait).into());
            }
            response
        }
    }
}

/// Reads, checks and stores the post; the address to send the visitor to.
async fn store(
    req: &HttpRequest,
    pairs: Result<Vec<(String, String)>, FormsError>,
    state: &AppState,
) -> Result<String, FormsError> {
    let pairs = pairs?;
    let fields: serde_json::Map<String, serde_json::Value> =
        pairs.iter().map(|(k, v)| (k.clone(), serde_json::Value::String(v.clone()))).collect();
    let payload: SavePayload = serde_json::from_value(serde_json::Value::Object(fields))
        .map_err(|e| FormsError::Malformed(format!("The submission could not be read: {e}")))?;
    let forms = &state.services.forms;
    let form = forms.index.get(&payload.form_id).ok_or(FormsError::UnknownForm)?;
    if !super::reach::reachable(req, state, &form.form_id) {
        return Err(FormsError::UnknownForm);
    }
    forms
        .submit_limiter
        .check((peer_ip(req), form.form_id.clone()))
        .map_err(|limited| FormsError::RateLimited(limited.wait()))?;
    let spend = captcha::check(forms, state.services.store.as_ref(), form, &payload, peer_ip(req)).await?;
    let values = read_form(form, &values_from_pairs(form, &pairs))?;
    // One group commit for the captcha's spending and the submission.
    let store = state.services.store.as_ref();
    let (spent, kept) = futures_util::join!(commit_spend(store, spend.as_ref()), keep(store, form, &payload, values));
    spent?;
    kept?;
    Ok(success_location(forms, form))
}

/// The form's redirect when it is a path on this site or on an allowed origin, else the
/// thank-you view.
fn success_location(forms: &super::FormsState, form: &FormDefinition) -> String {
    match forms.redirects.vet(form.success_redirect.as_deref()) {
        Some(url) => url.to_string(),
        None => {
            let query = serde_urlencoded::to_string([("formId", form.form_id.as_str())]).unwrap_or_default();
            format!("{THANK_YOU_PATH}?{query}")
        }
    }
}

/// The thank-you view's query.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ThankYouQuery {
    /// The form just submitted.
    form_id: String,
}

/// `GET /api/form/thank-you?formId=…`: the form's success message and HTML (sanitised
/// when the site was loaded), with a link home; 404 for a form on no page the visitor can open.
pub async fn thank_you(
    req: HttpRequest,
    query: Option<web::Query<ThankYouQuery>>,
    state: web::Data<AppState>,
) -> HttpResponse {
    let form = query.and_then(|q| state.services.forms.index.get(&q.form_id));
    let Some(form) = form.filter(|f| super::reach::reachable(&req, &state, &f.form_id)) else {
        return document(StatusCode::NOT_FOUND, "Form not found", html! { p { (messages::FORM_NOT_CONFIGURED) } });
    };
    let message = form.success_message.trim();
    let body = html! {
        p class="form-submission-text" { (if message.is_empty() { "Your submission was received." } else { message }) }
        @if !form.post_submit_html.trim().is_empty() {
            div class="form-submission-html" { (maud::PreEscaped(&form.post_submit_html)) }
        }
    };
    document(StatusCode::OK, "Thank you", body)
}

/// A refusal page: the messages, and a link back to the page that posted when it is on
/// this site.
fn refusal(status: StatusCode, lines: &[String], req: &HttpRequest) -> HttpResponse {
    let back = req
        .headers()
        .get(header::REFERER)
        .and_then(|v| v.to_str().ok())
        .and_then(|r| r.split_once("://").and_then(|(_, rest)| rest.find('/').map(|i| rest[i..].to_string())))
        .filter(|path| is_same_site_path(path))
        .unwrap_or_else(|| "/".to_string());
    let body = html! {
        div class="form-errors" role="alert" {
            @for line in lines { p { (line) } }
        }
        p { a href=(back) { "Go back to the form" } }
    };
    document(status, "Your form was not sent", body)
}

/// A small standalone HTML document with `title` as its heading.
fn document(status: StatusCode, title: &str, body: Markup) -> HttpResponse {
    let markup = html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                meta name="robots" content="noindex";
                title { (title) }
            }
            body {
                main {
                    h1 { (title) }
                    (body)
                    p { a href="/" { "Return to the home page" } }
                }
            }
        }
    };
    no_store(HttpResponse::build(status)).content_type("text/html; charset=utf-8").body(markup.into_string())
}
