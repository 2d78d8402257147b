//! The visitor's side: a single-use key, then the save call. Plain HTML form posts
//! (no script) are routed to [`super::plain`] instead.
//!
//! Save checks, in order: crumb (403 `crumbFail`), body size (413) and shape (400),
//! the form exists on a page the visitor can open (404), the rate limit per address and form (429), the key is known
//! and fresh (401), the captcha (400, see [`super::captcha`]), the values (400). Only
//! then are the key and the captcha spent and the submission written; the 200 goes out
//! after the writes are flushed.

use actix_web::http::header;
use actix_web::{web, HttpRequest, HttpResponse};
use serde_json::{Map, Value};
use veranda_actors::forms::record;
use veranda_actors::forms::{read_form, FormDefinition, SavePayload};
use veranda_actors::store::Tree;

use super::captcha::{self, commit_spend};
use super::claim::Claim;
use super::error::{FormsBody, FormsError};
use super::storing::{keep, now_secs, peer_ip, random_token};
use super::FormsState;
use crate::edge::body::LimitedBytes;
use crate::edge::{no_store, Crumbed};
use crate::state::AppState;

/// `POST /api/form/FormSubmissionKey`: a fresh single-use key, valid one hour
/// (`[forms] key_lifetime_secs`); expired keys are swept by [`crate::services::forms::sweep`].
pub async fn issue_key(_: Crumbed, req: HttpRequest, state: web::Data<AppState>) -> Result<HttpResponse, FormsError> {
    let forms = &state.services.forms;
    forms.key_limiter.check(peer_ip(&req)).map_err(|limited| FormsError::RateLimited(limited.wait()))?;
    let key = random_token(24);
    let record_key = record::key_record_key(&key).ok_or_else(|| FormsError::Malformed("key".into()))?;
    state.services.store.put(Tree::Submissions, record_key.as_bytes(), now_secs().to_string().as_bytes()).await?;
    Ok(no_store(HttpResponse::Ok()).json(serde_json::json!({ "key": key })))
}

/// `POST /api/form/SaveFormSubmission`: checks and stores one submission.
pub async fn save(
    _: Crumbed,
    req: HttpRequest,
    body: LimitedBytes<FormsBody>,
    state: web::Data<AppState>,
) -> Result<HttpResponse, FormsError> {
    let payload = parse_payload(&req, &body.into_inner())?;
    let forms = &state.services.forms;
    let form = forms.index.get(&payload.form_id).ok_or(FormsError::UnknownForm)?;
    if !super::reach::reachable(&req, &state, &form.form_id) {
        return Err(FormsError::UnknownForm);
    }
    forms
        .submit_limiter
        .check((peer_ip(&req), form.form_id.clone()))
        .map_err(|limited| FormsError::RateLimited(limited.wait()))?;

    let key = payload.key.as_deref().unwrap_or_default();
    let record_key = record::key_record_key(key).ok_or(FormsError::KeyRefused)?;
    let _claim = Claim::take(forms, &record_key).ok_or(FormsError::KeyRefused)?;
    let issued_at = state
        .services
        .store
        .get(Tree::Submissions, record_key.as_bytes())?
        .and_then(|bytes| String::from_utf8(bytes).ok())
        .and_then(|text| text.parse::<i64>().ok())
        .ok_or(FormsError::KeyRefused)?;
    if !record::key_is_fresh_for(issued_at, now_secs(), forms.key_lifetime_secs) {
        state.services.store.delete(Tree::Submissions, record_key.as_bytes()).await?;
        return Err(FormsError::KeyRefused);
    }
    let spend = captcha::check(forms, state.services.store.as_ref(), form, &payload, peer_ip(&req)).await?;
    let values = read_form(form, &payload.form)?;

    // The key's removal, the captcha's spending and the submission share one group
    // commit: the answer waits for all three to be on disk, never for three flushes in turn.
    let store = state.services.store.as_ref();
    let (removed, spent, kept) = futures_util::join!(
        store.delete(Tree::Submissions, record_key.as_bytes()),
        commit_spend(store, spend.as_ref()),
        keep(store, form, &payload, values),
    );
    removed?;
    spent?;
    kept?;
    Ok(no_store(HttpResponse::Ok()).json(success_body(forms, form)))
}

/// `{ success, redirectUrl?, postSubmitHtml? }`: the redirect only when it is a path on
/// this site or on an allowed origin; the HTML as sanitised when the site was loaded.
fn success_body(forms: &FormsState, form: &FormDefinition) -> Value {
    let mut body = Map::new();
    body.insert("success".into(), Value::Bool(true));
    if let Some(url) = forms.redirects.vet(form.success_redirect.as_deref()) {
        body.insert("redirectUrl".into(), Value::String(url.to_string()));
    }
    if !form.post_submit_html.trim().is_empty() {
        body.insert("postSubmitHtml".into(), Value::String(form.post_submit_html.clone()));
    }
    Value::Object(body)
}

/// The body as a payload: form-encoded when the content type says so, JSON otherwise.
fn parse_payload(req: &HttpRequest, bytes: &[u8]) -> Result<SavePayload, FormsError> {
    let form_encoded = req
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/x-www-form-urlencoded"));
    let parsed = if form_encoded {
        serde_urlencoded::from_bytes::<Vec<(String, String)>>(bytes).map_err(|e| e.to_string()).and_then(|pairs| {
            let map: Map<String, Value> = pairs.into_iter().map(|(k, v)| (k, Value::String(v))).collect();
            serde_json::from_value(Value::Object(map)).map_err(|e| e.to_string())
        })
    } else {
        serde_json::from_slice(bytes).map_err(|e| e.to_string())
    };
    parsed.map_err(|e| FormsError::Malformed(format!("The submission could not be read: {e}")))
}
