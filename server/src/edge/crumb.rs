//! The crumb check as extractors. A handler that changes state takes [`Crumbed`] as its
//! first argument; a request whose crumb does not pass never reaches it and gets
//! [`CrumbFail`]: 403 with `crumbFail: true`, a fresh crumb for the request's session in
//! the body and in the cookie (see [`crate::security::crumb`] for the key and signing).
//!
//! A plain HTML form post, which cannot echo the crumb in a header, is checked by
//! [`PlainPost`] instead. Routes that also accept the crumb from a form field, read after
//! the body, call [`Crumbed::or_field`]; routes that do more than answer a refusal take
//! `Result<Crumbed, CrumbFail>`.

use std::future::{ready, Ready};

use actix_web::cookie::Cookie;
use actix_web::dev::Payload;
use actix_web::http::StatusCode;
use actix_web::{web, FromRequest, HttpRequest, HttpResponse, ResponseError};

use crate::security::crumb::{crumb_cookie, CrumbKey, CRUMB_COOKIE, CRUMB_FAIL_MESSAGE};

/// The longest crumb accepted from a form field.
const MAX_FIELD_CRUMB: usize = 256;

/// The key a request's crumb is checked with: the `web::Data<CrumbKey>` start-up
/// registers beside the application state.
fn key_of(req: &HttpRequest) -> Option<&CrumbKey> {
    req.app_data::<web::Data<CrumbKey>>().map(|key| key.get_ref())
}

/// A refused crumb: the 403 answer with a fresh crumb for the request's session.
#[derive(Debug, thiserror::Error)]
#[error("{CRUMB_FAIL_MESSAGE}")]
pub struct CrumbFail {
    /// The fresh crumb handed out with the refusal; `None` when the server has no key
    /// (a wiring fault, answered 500).
    crumb: Option<String>,
}

impl CrumbFail {
    /// The refusal of `req`, with a fresh crumb for its session.
    pub fn of(req: &HttpRequest) -> CrumbFail {
        CrumbFail { crumb: key_of(req).map(|key| key.issue(req)) }
    }

    /// The fresh crumb's cookie, for answers that render their own refusal page.
    pub fn cookie(&self) -> Option<Cookie<'static>> {
        self.crumb.as_deref().map(crumb_cookie)
    }
}

impl ResponseError for CrumbFail {
    fn status_code(&self) -> StatusCode {
        match self.crumb {
            Some(_) => StatusCode::FORBIDDEN,
            None => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    fn error_response(&self) -> HttpResponse {
        let Some(crumb) = &self.crumb else {
            tracing::error!("no crumb key is registered with the application");
            return HttpResponse::InternalServerError().finish();
        };
        HttpResponse::build(StatusCode::FORBIDDEN)
            .cookie(crumb_cookie(crumb))
            .json(serde_json::json!({ "crumbFail": true, "crumb": crumb, "error": CRUMB_FAIL_MESSAGE }))
    }
}

/// Proof that a request's crumb passed: echoed in `X-CSRF-Token` (or the `crumb` query
/// parameter), equal to the crumb cookie, and signed for the request's session.
#[derive(Debug, Clone, Copy)]
pub struct Crumbed;

impl Crumbed {
    /// Checks `req`'s echoed crumb.
    pub fn check(req: &HttpRequest) -> Result<Crumbed, CrumbFail> {
        match key_of(req) {
            Some(key) if key.check(req).is_ok() => Ok(Crumbed),
            _ => Err(CrumbFail::of(req)),
        }
    }

    /// A form's own `crumb` field: it passes when it equals the crumb cookie and
    /// verifies (pages that post forms without scripts write it into a hidden field).
    pub fn from_field(req: &HttpRequest, field: Option<&str>) -> Result<Crumbed, CrumbFail> {
        let passes = match (key_of(req), req.cookie(CRUMB_COOKIE), field) {
            (Some(key), Some(cookie), Some(field)) => {
                field.len() <= MAX_FIELD_CRUMB && field == cookie.value() && key.verifies(req, field)
            }
            _ => false,
        };
        if passes {
            Ok(Crumbed)
        } else {
            Err(CrumbFail::of(req))
        }
    }

    /// The echoed crumb ([`Crumbed::check`]), or else the form's own `crumb` field
    /// ([`Crumbed::from_field`]): for form posts from pages that work without scripts.
    pub fn or_field(req: &HttpRequest, field: Option<&str>) -> Result<Crumbed, CrumbFail> {
        Crumbed::check(req).or_else(|_| Crumbed::from_field(req, field))
    }
}

impl FromRequest for Crumbed {
    type Error = CrumbFail;
    type Future = Ready<Result<Crumbed, CrumbFail>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(Crumbed::check(req))
    }
}

/// Proof that a plain HTML form post passed: its crumb cookie verifies and the browser
/// does not say the post came from another site (see [`CrumbKey::checks_plain_post`]).
#[derive(Debug, Clone, Copy)]
pub struct PlainPost;

impl PlainPost {
    /// Checks `req` as a plain form post.
    pub fn check(req: &HttpRequest) -> Result<PlainPost, CrumbFail> {
        match key_of(req) {
            Some(key) if key.checks_plain_post(req) => Ok(PlainPost),
            _ => Err(CrumbFail::of(req)),
        }
    }
}

impl FromRequest for PlainPost {
    type Error = CrumbFail;
    type Future = Ready<Result<PlainPost, CrumbFail>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(PlainPost::check(req))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::security::crumb::CRUMB_HEADER;
    use actix_web::body::to_bytes;
    use actix_web::http::header;
    use actix_web::test::{self, TestRequest};
    use actix_web::App;

    fn key() -> CrumbKey {
        CrumbKey::from_bytes([3; 32])
    }

    async fn changed(_: Crumbed) -> HttpResponse {
        HttpResponse::Ok().body("changed")
    }

    async fn posted(_: PlainPost) -> HttpResponse {
        HttpResponse::Ok().body("posted")
    }

    async fn call(req: TestRequest) -> (u16, Vec<String>, serde_json::Value) {
        let app = test::init_service(
            App::new()
                .app_data(web::Data::new(key()))
                .route("/change", web::post().to(changed))
                .route("/plain", web::post().to(posted)),
        )
        .await;
        let response = test::call_service(&app, req.to_request()).await;
        let status = response.status().as_u16();
        let cookies = response
            .headers()
            .get_all(header::SET_COOKIE)
            .filter_map(|v| v.to_str().ok().map(str::to_string))
            .collect();
        let body = to_bytes(response.into_body()).await.unwrap_or_default();
        let json = serde_json::from_slice(&body).unwrap_or(serde_json::Value::Null);
        (status, cookies, json)
    }

    #[actix_web::test]
    async fn an_echoed_crumb_reaches_the_handler() {
        let crumb = key().issue_for(None);
        let req = TestRequest::post()
            .uri("/change")
            .cookie(crumb_cookie(&crumb))
            .insert_header((CRUMB_HEADER, crumb.as_str()));
        let (status, cookies, _) = call(req).await;
        assert_eq!(status, 200);
        assert!(cookies.is_empty());
    }

    #[actix_web::test]
    async fn a_missing_crumb_gets_403_crumb_fail_and_a_fresh_crumb() {
        let (status, cookies, json) = call(TestRequest::post().uri("/change")).await;
        assert_eq!(status, 403);
        assert_eq!(json["crumbFail"], true);
        assert_eq!(json["error"], "Your session token is missing or stale; reload the page and try again.");
        let fresh = json["crumb"].as_str().expect("a fresh crumb in the body");
        assert!(key().verifies_for(fresh, None));
        assert!(cookies.iter().any(|c| c.starts_with(&format!("crumb={fresh};"))), "{cookies:?}");
    }

    #[actix_web::test]
    async fn a_crumb_from_another_key_is_refused() {
        let forged = CrumbKey::from_bytes([4; 32]).issue_for(None);
        let req = TestRequest::post()
            .uri("/change")
            .cookie(crumb_cookie(&forged))
            .insert_header((CRUMB_HEADER, forged.as_str()));
        assert_eq!(call(req).await.0, 403);
    }

    #[actix_web::test]
    async fn a_plain_post_needs_a_verifying_cookie_from_this_site() {
        let crumb = key().issue_for(None);
        let same = TestRequest::post().uri("/plain").cookie(crumb_cookie(&crumb));
        assert_eq!(call(same).await.0, 200);
        let cross = TestRequest::post()
            .uri("/plain")
            .cookie(crumb_cookie(&crumb))
            .insert_header(("sec-fetch-site", "cross-site"));
        assert_eq!(call(cross).await.0, 403);
        assert_eq!(call(TestRequest::post().uri("/plain")).await.0, 403);
    }

    #[test]
    fn a_form_field_equal_to_a_verifying_cookie_passes() {
        let crumb = key().issue_for(None);
        let req = TestRequest::post().app_data(web::Data::new(key())).cookie(crumb_cookie(&crumb)).to_http_request();
        assert!(Crumbed::or_field(&req, Some(&crumb)).is_ok());
        assert!(Crumbed::or_field(&req, None).is_err());
        let other = key().issue_for(None);
        assert!(Crumbed::or_field(&req, Some(&other)).is_err());
        assert!(Crumbed::from_field(&req, Some(&crumb)).is_ok());
        let bare = TestRequest::post().app_data(web::Data::new(key())).to_http_request();
        assert!(Crumbed::from_field(&bare, Some(&crumb)).is_err(), "no cookie");
    }
}
