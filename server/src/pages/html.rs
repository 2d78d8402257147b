//! HTML responses: revalidated with an ETag, never stored by shared caches.

use actix_web::http::header::{self, HeaderValue};
use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse};
use sha2::{Digest, Sha256};

/// An HTML response that browsers revalidate (`no-cache` with a strong ETag); a
/// matching `If-None-Match` gets 304 for 200 answers.
pub fn page(req: &HttpRequest, status: StatusCode, body: String) -> HttpResponse {
    let digest = Sha256::digest(body.as_bytes());
    let etag = format!("\"{}\"", hex(&digest[..12]));
    let not_modified = status == StatusCode::OK
        && req
            .headers()
            .get(header::IF_NONE_MATCH)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.split(',').any(|t| t.trim() == etag));
    let mut builder = if not_modified { HttpResponse::NotModified() } else { HttpResponse::build(status) };
    builder
        .insert_header((header::CACHE_CONTROL, HeaderValue::from_static("private, no-cache")))
        .insert_header((header::VARY, HeaderValue::from_static("Cookie")))
        .insert_header((header::ETAG, etag))
        .insert_header((header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff")))
        .insert_header(("Referrer-Policy", "strict-origin-when-cross-origin"));
    if not_modified {
        builder.finish()
    } else {
        builder.content_type("text/html; charset=utf-8").body(body)
    }
}

/// A short plain-text 4xx answer for hostile or malformed requests.
pub fn plain(status: StatusCode, message: &str) -> HttpResponse {
    HttpResponse::build(status)
        .content_type("text/plain; charset=utf-8")
        .insert_header((header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff")))
        .body(message.to_string())
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
