//! Request bodies read within a size limit. [`LimitedJson`] and [`LimitedForm`] read the
//! whole body, refuse it past the limit (413, whether its size is announced in
//! `Content-Length` or not), then parse it; [`LimitedBytes`] stops after the limit.
//!
//! Each area answers refusals in its own shape (its `{error}` messages are pinned by
//! its tests), so the limit and the refusal come from a [`BodyRules`] type the area
//! names: `LimitedJson<CouponBody, CommerceBody>`. A refusal is first a [`BodyError`],
//! which the area's error type is made from.

use std::marker::PhantomData;

use actix_web::dev::Payload;
use actix_web::error::PayloadError;
use actix_web::http::header;
use actix_web::web::{Bytes, BytesMut};
use actix_web::{FromRequest, HttpRequest, ResponseError};
use futures_util::future::LocalBoxFuture;
use futures_util::{FutureExt, Stream, StreamExt};
use serde::de::DeserializeOwned;

/// Why a body was refused.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum BodyError {
    /// The body is larger than the limit (413).
    #[error("The request body is larger than {0} bytes.")]
    TooLarge(usize),
    /// The body could not be read off the connection (400).
    #[error("{0}")]
    Unreadable(String),
    /// A JSON body was expected and the content type says otherwise (415).
    #[error("The request body must be JSON (Content-Type: application/json).")]
    NotJson,
    /// The body is not the JSON the call takes (400).
    #[error("{0}")]
    BadJson(String),
    /// The body is not the form the call takes (400).
    #[error("{0}")]
    BadForm(String),
}

/// What an area's bodies may be, and how the area answers a refused one.
pub trait BodyRules: 'static {
    /// The area's refusal, made from a [`BodyError`].
    type Refusal: ResponseError + From<BodyError> + 'static;
    /// Whether a JSON body needs a JSON content type (else 415).
    const JSON_CONTENT_TYPE: bool = false;
    /// The largest body taken, in bytes: by default the server's `max_body_bytes` setting.
    fn limit(req: &HttpRequest) -> usize {
        max_body_bytes(req)
    }
}

impl BodyError {
    /// The 400 message of a body that arrived but is not what the call takes, naming a
    /// bad JSON body `json` and a bad form `form` ("The {json} could not be read: …");
    /// `None` for a body over the limit, which is a 413.
    pub fn malformed(&self, json: &str, form: &str) -> Option<String> {
        match self {
            BodyError::TooLarge(_) => None,
            BodyError::Unreadable(e) => Some(format!("The request body could not be read: {e}")),
            BodyError::BadJson(e) => Some(format!("The {json} could not be read: {e}")),
            BodyError::BadForm(e) => Some(format!("The {form} could not be read: {e}")),
            BodyError::NotJson => Some(self.to_string()),
        }
    }
}

/// The server's `max_body_bytes` setting, registered as app data at start-up.
#[derive(Debug, Clone, Copy)]
pub struct BodyLimit(pub usize);

/// The server's `max_body_bytes` setting: the limit of most state-changing calls.
pub fn max_body_bytes(req: &HttpRequest) -> usize {
    req.app_data::<actix_web::web::Data<BodyLimit>>().map_or(DEFAULT_LIMIT, |limit| limit.0)
}

/// The limit when no [`BodyLimit`] is registered (tests of the edge alone).
const DEFAULT_LIMIT: usize = 64 * 1024;

/// Reads the whole body, refusing it as soon as it is known to pass `limit` bytes.
pub async fn read_limited<S>(req: &HttpRequest, payload: &mut S, limit: usize) -> Result<Bytes, BodyError>
where
    S: Stream<Item = Result<Bytes, PayloadError>> + Unpin,
{
    let declared =
        req.headers().get(header::CONTENT_LENGTH).and_then(|v| v.to_str().ok()).and_then(|v| v.parse::<usize>().ok());
    if declared.is_some_and(|n| n > limit) {
        return Err(BodyError::TooLarge(limit));
    }
    let mut body = BytesMut::new();
    while let Some(chunk) = payload.next().await {
        let chunk = chunk.map_err(|e| BodyError::Unreadable(e.to_string()))?;
        if body.len() + chunk.len() > limit {
            return Err(BodyError::TooLarge(limit));
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body.freeze())
}

/// Whether the request says its body is JSON (a `json` subtype such as
/// `application/json`, or a `+json` suffix).
fn says_json(req: &HttpRequest) -> bool {
    let Some(value) = req.headers().get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()) else { return false };
    let essence = value.split(';').next().unwrap_or_default().trim().to_ascii_lowercase();
    essence.split_once('/').is_some_and(|(_, subtype)| subtype == "json" || subtype.ends_with("+json"))
}

/// The whole body as bytes, at most the area's limit.
pub struct LimitedBytes<R>(pub Bytes, PhantomData<R>);

/// A JSON body of type `T`, at most the area's limit.
pub struct LimitedJson<T, R>(pub T, PhantomData<R>);

/// A form-encoded body of type `T`, at most the area's limit.
pub struct LimitedForm<T, R>(pub T, PhantomData<R>);

impl<R> LimitedBytes<R> {
    /// The bytes.
    pub fn into_inner(self) -> Bytes {
        self.0
    }
}

impl<T, R> LimitedJson<T, R> {
    /// The parsed body.
    pub fn into_inner(self) -> T {
        self.0
    }
}

impl<T, R> LimitedForm<T, R> {
    /// The parsed body.
    pub fn into_inner(self) -> T {
        self.0
    }
}

/// Reads a body within `R`'s limit (refusing a non-JSON content type first when `json` is
/// set and `R` asks for one) and parses it with `parse`: what every bounded extractor does.
fn extract<R: BodyRules, T: 'static>(
    req: &HttpRequest,
    payload: &mut Payload,
    json: bool,
    parse: fn(Bytes) -> Result<T, BodyError>,
) -> LocalBoxFuture<'static, Result<T, R::Refusal>> {
    let (req, mut payload) = (req.clone(), payload.take());
    Box::pin(async move {
        if json && R::JSON_CONTENT_TYPE && !says_json(&req) {
            return Err(BodyError::NotJson.into());
        }
        let bytes = read_limited(&req, &mut payload, R::limit(&req)).await?;
        Ok(parse(bytes)?)
    })
}

impl<R: BodyRules> FromRequest for LimitedBytes<R> {
    type Error = R::Refusal;
    type Future = LocalBoxFuture<'static, Result<Self, R::Refusal>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        extract::<R, _>(req, payload, false, Ok).map(|r| r.map(|b| LimitedBytes(b, PhantomData))).boxed_local()
    }
}

impl<T: DeserializeOwned + 'static, R: BodyRules> FromRequest for LimitedJson<T, R> {
    type Error = R::Refusal;
    type Future = LocalBoxFuture<'static, Result<Self, R::Refusal>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let parse = |b: Bytes| serde_json::from_slice(&b).map_err(|e| BodyError::BadJson(e.to_string()));
        extract::<R, T>(req, payload, true, parse).map(|r| r.map(|v| LimitedJson(v, PhantomData))).boxed_local()
    }
}

impl<T: DeserializeOwned + 'static, R: BodyRules> FromRequest for LimitedForm<T, R> {
    type Error = R::Refusal;
    type Future = LocalBoxFuture<'static, Result<Self, R::Refusal>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let parse = |b: Bytes| serde_urlencoded::from_bytes(&b).map_err(|e| BodyError::BadForm(e.to_string()));
        extract::<R, T>(req, payload, false, parse).map(|r| r.map(|v| LimitedForm(v, PhantomData))).boxed_local()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::body::to_bytes;
    use actix_web::http::StatusCode;
    use actix_web::test::{self, TestRequest};
    use actix_web::{web, App, HttpResponse};

    /// Rules of a test area: 32 bytes, JSON content type required, `{error}` answers.
    struct Small;

    #[derive(Debug, thiserror::Error)]
    #[error("{0}")]
    struct Refused(BodyError);

    impl From<BodyError> for Refused {
        fn from(e: BodyError) -> Refused {
            Refused(e)
        }
    }

    impl ResponseError for Refused {
        fn status_code(&self) -> StatusCode {
            match self.0 {
                BodyError::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
                BodyError::NotJson => StatusCode::UNSUPPORTED_MEDIA_TYPE,
                _ => StatusCode::BAD_REQUEST,
            }
        }

        fn error_response(&self) -> HttpResponse {
            HttpResponse::build(self.status_code()).json(serde_json::json!({ "error": self.to_string() }))
        }
    }

    impl BodyRules for Small {
        type Refusal = Refused;
        const JSON_CONTENT_TYPE: bool = true;
        fn limit(_: &HttpRequest) -> usize {
            32
        }
    }

    #[derive(serde::Deserialize)]
    struct Note {
        text: String,
    }

    async fn json(body: LimitedJson<Note, Small>) -> HttpResponse {
        HttpResponse::Ok().body(body.into_inner().text)
    }

    async fn form(body: LimitedForm<Note, Small>) -> HttpResponse {
        HttpResponse::Ok().body(body.into_inner().text)
    }

    async fn call(req: TestRequest) -> (u16, String) {
        let app =
            test::init_service(App::new().route("/json", web::post().to(json)).route("/form", web::post().to(form)))
                .await;
        let response = test::call_service(&app, req.to_request()).await;
        let status = response.status().as_u16();
        let body = to_bytes(response.into_body()).await.unwrap_or_default();
        (status, String::from_utf8_lossy(&body).into_owned())
    }

    fn json_post(body: &'static str) -> TestRequest {
        TestRequest::post().uri("/json").insert_header((header::CONTENT_TYPE, "application/json")).set_payload(body)
    }

    #[actix_web::test]
    async fn a_body_within_the_limit_is_parsed() {
        assert_eq!(call(json_post(r#"{"text":"hello"}"#)).await, (200, "hello".to_string()));
        let form = TestRequest::post().uri("/form").set_payload("text=hi+there");
        assert_eq!(call(form).await, (200, "hi there".to_string()));
    }

    #[actix_web::test]
    async fn a_body_over_the_limit_is_413_announced_or_not() {
        let (status, body) = call(json_post(r#"{"text":"a body well over thirty-two bytes"}"#)).await;
        assert_eq!(status, 413);
        assert_eq!(body, r#"{"error":"The request body is larger than 32 bytes."}"#);
        let unannounced = TestRequest::post()
            .uri("/form")
            .insert_header((header::CONTENT_LENGTH, "3"))
            .set_payload("text=a body well over thirty-two bytes");
        assert_eq!(call(unannounced).await.0, 413);
    }

    #[actix_web::test]
    async fn a_json_body_needs_a_json_content_type() {
        let req = TestRequest::post().uri("/json").insert_header((header::CONTENT_TYPE, "text/plain"));
        let (status, body) = call(req.set_payload(r#"{"text":"x"}"#)).await;
        assert_eq!(status, 415);
        assert!(body.contains("must be JSON"), "{body}");
        let vendor = TestRequest::post().uri("/json").insert_header((header::CONTENT_TYPE, "application/x+json"));
        assert_eq!(call(vendor.set_payload(r#"{"text":"x"}"#)).await.0, 200);
    }

    #[actix_web::test]
    async fn an_unparsable_body_is_400() {
        assert_eq!(call(json_post(r#"{"text":"#)).await.0, 400);
        assert_eq!(call(json_post(r#"{"other":1}"#)).await.0, 400);
        assert_eq!(call(TestRequest::post().uri("/form").set_payload("nothing=here")).await.0, 400);
    }
}
